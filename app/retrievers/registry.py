"""Mode name -> retriever class, found through the ``graphrag.retrievers`` entry-point group.

Every mode, built-in or from another package, is registered the same way: one line in its package's
``pyproject.toml``::

    [project.entry-points."graphrag.retrievers"]
    vector = "app.retrievers.vector:VectorRetriever"

(the way vLLM finds logits processors). The entry point's name is the mode's name and must equal the class's
``name``. Nothing here imports a mode module by name, so the registry and the modes never import each other.
Problems fail at start-up, not on the first request: a mode that does not import, a name clash, settings of a mode
that is not installed, invalid mode settings, an enabled mode that is not installed, a mode that calls one that is
not enabled.
"""

from __future__ import annotations

import functools
import importlib.metadata
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import ValidationError

from app.retrievers.base import ModeConfig, Retriever, RetrieverDeps, Retrievers
from app.settings import Settings

GROUP = "graphrag.retrievers"


class ModeRegistrationError(RuntimeError):
    """An installed mode is broken, or the mode settings do not fit the installed modes."""


def load_mode(name: str, entry: Any) -> type[Retriever[Any, Any]]:
    """The retriever class an entry point names (``entry.load()``), checked."""
    cls = entry.load()
    if not (isinstance(cls, type) and issubclass(cls, Retriever)):
        raise ModeRegistrationError(f"mode {name!r}: {cls!r} is not a Retriever subclass")
    if getattr(cls, "name", None) != name:
        raise ModeRegistrationError(f"mode {name!r}: the class {cls.__qualname__} is named {cls.name!r}")
    if not (isinstance(cls.Config, type) and issubclass(cls.Config, ModeConfig)):
        raise ModeRegistrationError(f"mode {name!r}: Config must be a ModeConfig subclass")
    try:
        cls.Config()
        cls.Trace()
    except Exception as exc:
        raise ModeRegistrationError(f"mode {name!r}: Config and Trace need defaults for every field ({exc})") from exc
    return cls


@functools.cache
def installed_modes() -> Mapping[str, type[Retriever[Any, Any]]]:
    """Every mode installed in this environment, by name (loaded once per process)."""
    found: dict[str, type[Retriever[Any, Any]]] = {}
    for ep in importlib.metadata.entry_points(group=GROUP):
        try:
            cls = load_mode(ep.name, ep)
        except ModeRegistrationError:
            raise
        except Exception as exc:
            raise ModeRegistrationError(f"mode {ep.name!r} ({ep.value}) cannot be imported: {exc}") from exc
        if ep.name in found and found[ep.name] is not cls:
            raise ModeRegistrationError(
                f"mode {ep.name!r} is registered twice: {found[ep.name].__module__} and {cls.__module__}"
            )
        found[ep.name] = cls
    return dict(sorted(found.items()))


def available_modes() -> list[str]:
    return list(installed_modes())


def enabled_modes(settings: Settings, modes: Sequence[str] | None = None) -> list[str]:
    """``modes``, else ``retrieval.enabled_modes``, else every installed mode; each must be installed, and the
    default mode must be among them."""
    installed = installed_modes()
    names = list(modes or settings.retrieval.enabled_modes or installed)
    unknown = sorted(set(names) - set(installed))
    if unknown:
        raise ModeRegistrationError(f"unknown retriever modes {unknown}; installed: {sorted(installed)}")
    if settings.retrieval.default_mode not in names:
        raise ModeRegistrationError(
            f"default mode {settings.retrieval.default_mode!r} is not among the enabled {sorted(names)}"
        )
    return names


def mode_configs(settings: Settings, modes: Sequence[str] | None = None) -> dict[str, ModeConfig]:
    """Each enabled mode's validated ``Config`` from its ``modes.<name>`` section (defaults where unset). Sections of
    modes that are installed but not enabled are validated too; sections of modes that are not installed fail."""
    installed = installed_modes()
    stray = sorted(set(settings.modes) - set(installed))
    if stray:
        raise ModeRegistrationError(
            f"settings for modes that are not installed: {stray}; installed: {sorted(installed)}"
        )
    names = enabled_modes(settings, modes)
    configs: dict[str, ModeConfig] = {}
    for name in sorted(set(names) | set(settings.modes)):
        model = installed[name].Config
        try:
            config = model.model_validate(settings.modes.get(name, {}))
        except ValidationError as exc:
            problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
            raise ModeRegistrationError(
                f"settings of mode {name!r} (GRAPHRAG_MODES__{name.upper()}__*): {problems} "
                f"(its settings: {', '.join(model.model_fields) or 'none'})"
            ) from exc
        if name in names:
            configs[name] = config
    return {name: configs[name] for name in names}


def build_retrievers(deps: RetrieverDeps, modes: Sequence[str] | None = None) -> Retrievers:
    """The enabled modes, each with its validated config, in ``deps.modes`` (which must be empty: the modes reach
    each other through it)."""
    if deps.modes:
        raise ValueError("deps.modes must be empty: build_retrievers fills it")
    installed = installed_modes()
    for name, config in mode_configs(deps.settings, modes).items():
        deps.modes[name] = installed[name](deps, config)
    for name, r in deps.modes.items():
        missing = sorted(set(r.required_modes()) - set(deps.modes))
        if missing:
            raise ModeRegistrationError(f"mode {name!r} calls {missing}, which are not enabled")
    return deps.modes


def fingerprint_data(settings: Settings) -> dict[str, Any]:
    """Every enabled mode's class and validated settings (defaults included): what the result-cache fingerprint and
    the eval's resume key take from the modes, so a new mode or a changed default can never be forgotten there."""
    installed = installed_modes()
    return {
        name: {"class": f"{installed[name].__module__}:{installed[name].__qualname__}", **cfg.model_dump(mode="json")}
        for name, cfg in mode_configs(settings).items()
    }
