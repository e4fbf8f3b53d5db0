"""Retriever registry: mode name -> retriever class. Unknown names fail at start-up, not on the first request."""

from __future__ import annotations

from app.errors import InvalidInputError
from app.retrievers.base import Retriever, RetrieverDeps

_REGISTRY: dict[str, type[Retriever]] = {}


def register(cls: type[Retriever]) -> type[Retriever]:
    if cls.name in _REGISTRY and _REGISTRY[cls.name] is not cls:
        raise ValueError(f"retriever {cls.name!r} is registered twice")
    _REGISTRY[cls.name] = cls
    return cls


def _load_builtin() -> None:
    # importing the modules registers their classes
    from app.retrievers import free_cypher, text2cypher, vector  # noqa: F401


def available_modes() -> list[str]:
    _load_builtin()
    return sorted(_REGISTRY)


def build_retrievers(deps: RetrieverDeps, modes: list[str] | None = None) -> dict[str, Retriever]:
    names = modes or available_modes()
    unknown = sorted(set(names) - set(available_modes()))
    if unknown:
        raise ValueError(f"unknown retriever modes {unknown}; available: {available_modes()}")
    if deps.settings.retrieval.default_mode not in names:
        raise ValueError(f"default mode {deps.settings.retrieval.default_mode!r} is not among the enabled {names}")
    return {name: _REGISTRY[name](deps) for name in names}


class Retrievers(dict[str, Retriever]):
    """The enabled retrievers of a running app, looked up by mode."""

    def get_mode(self, mode: str) -> Retriever:
        try:
            return self[mode]
        except KeyError:
            raise InvalidInputError(
                f"unknown mode {mode!r}; available modes: {', '.join(sorted(self))}",
                details={"available_modes": sorted(self)},
                code="unknown_mode",
            ) from None
