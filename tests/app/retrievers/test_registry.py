"""Mode registration through entry points, per-mode settings, and the result-cache fingerprint derived from them."""

from __future__ import annotations

import ast
import importlib.metadata
from pathlib import Path
from typing import Any

import pytest

from app.cache import settings_fingerprint
from app.retrievers.base import ModeConfig, Retriever
from app.retrievers.registry import (
    ModeRegistrationError,
    available_modes,
    enabled_modes,
    fingerprint_data,
    installed_modes,
    load_mode,
    mode_configs,
)
from app.retrievers.text2cypher import Text2CypherConfig
from app.retrievers.vector import VectorConfig
from app.settings import RetrievalSettings, Settings
from tests.conftest import ROOT

BUILTIN = {
    "bm25",
    "free_cypher",
    "hybrid",
    "iterative",
    "neighborhood",
    "react",
    "text2cypher",
    "traversal",
    "triplets",
    "vector",
}


def settings(**kw: Any) -> Settings:
    return Settings(_env_file=None, **kw)  # type: ignore[call-arg]


def test_the_built_in_modes_are_found_through_the_entry_point_group() -> None:
    eps = {ep.name: ep.value for ep in importlib.metadata.entry_points(group="graphrag.retrievers")}
    assert set(eps) >= BUILTIN and set(available_modes()) >= BUILTIN
    for name in BUILTIN:
        cls = installed_modes()[name]
        assert cls.name == name and eps[name] == f"{cls.__module__}:{cls.__qualname__}"


def test_every_retriever_module_in_the_package_is_registered() -> None:
    """A mode file without its registration line would never run: every concrete Retriever subclass defined in
    ``app/retrievers/`` must be an installed mode."""
    registered = {f"{c.__module__}:{c.__qualname__}" for c in installed_modes().values()}
    defined = set()
    for path in sorted((ROOT / "app" / "retrievers").glob("*.py")):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.ClassDef) and any(ast.unparse(b).startswith("Retriever[") for b in node.bases):
                defined.add(f"app.retrievers.{path.stem}:{node.name}")
    assert defined and defined <= registered, defined - registered


def test_the_example_mode_is_found_like_a_third_party_package(example_mode: str) -> None:
    cls = installed_modes()[example_mode]
    assert cls.__module__ == "graphrag_example_mode" and example_mode not in BUILTIN
    assert enabled_modes(settings()) == sorted(BUILTIN | {example_mode})
    assert example_mode in fingerprint_data(settings())  # a new mode is in the cache fingerprint without a line of code


def test_mode_settings_are_validated_by_each_modes_config(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHRAG_MODES__TEXT2CYPHER__TOP_M", "3")
    monkeypatch.setenv("GRAPHRAG_MODES__TEXT2CYPHER__DECODING", "greedy")
    monkeypatch.setenv("GRAPHRAG_MODES__VECTOR__ENTITY_HITS", "0")
    configs = mode_configs(settings())
    t2c, vec = configs["text2cypher"], configs["vector"]
    assert isinstance(t2c, Text2CypherConfig) and (t2c.top_m, t2c.decoding, t2c.max_hops) == (3, "greedy", 3)
    assert isinstance(vec, VectorConfig) and (vec.entity_hits, vec.facts_per_entity) == (0, 12)


@pytest.mark.parametrize(
    ("modes", "message"),
    [
        ({"text2cypher": {"top_mm": 3}}, r"GRAPHRAG_MODES__TEXT2CYPHER__\*.*top_mm"),
        ({"text2cypher": {"top_m": 0}}, "greater than or equal to 1"),
        ({"text2cypher": {"decoding": "sampling"}}, "decoding"),
        ({"nosuchmode": {"k": 1}}, r"not installed: \['nosuchmode'\]; installed: \['bm25', 'free_cypher'"),
    ],
)
def test_bad_mode_settings_fail_the_start_and_say_what_to_change(modes: dict[str, Any], message: str) -> None:
    with pytest.raises(ModeRegistrationError, match=message):
        mode_configs(settings(modes=modes))


def test_enabled_modes_and_the_default_mode() -> None:
    assert enabled_modes(settings(), ["vector"]) == ["vector"]
    only = settings(retrieval=RetrievalSettings(enabled_modes=["text2cypher", "vector"]))
    assert enabled_modes(only) == ["text2cypher", "vector"] and set(mode_configs(only)) == {"text2cypher", "vector"}
    with pytest.raises(ModeRegistrationError, match=r"unknown retriever modes \['nope'\]"):
        enabled_modes(settings(), ["vector", "nope"])
    with pytest.raises(ModeRegistrationError, match="default mode 'vector' is not among"):
        enabled_modes(settings(), ["text2cypher"])


def test_the_fingerprint_covers_every_enabled_modes_settings_defaults_included(tmp_path: Path) -> None:
    base = settings_fingerprint(settings())
    assert settings_fingerprint(settings()) == base
    assert settings_fingerprint(settings(modes={"text2cypher": {"top_m": 4}})) != base
    assert settings_fingerprint(settings(modes={"vector": {"entity_hits": 3}})) == base  # the default, spelled out
    assert settings_fingerprint(settings(modes={"free_cypher": {"max_new_tokens": 64}})) != base
    fewer = settings(retrieval=RetrievalSettings(enabled_modes=["vector"]))
    assert settings_fingerprint(fewer) != base
    data = fingerprint_data(settings())
    assert set(data) == set(enabled_modes(settings()))
    assert data["vector"]["class"] == "app.retrievers.vector:VectorRetriever" and data["vector"]["entity_hits"] == 3


def test_a_broken_registration_is_refused_with_the_reason() -> None:
    class Entry:
        def __init__(self, obj: Any) -> None:
            self.obj = obj

        def load(self) -> Any:
            return self.obj

    class Named(Retriever[ModeConfig, Any]):
        name = "named"

        async def _retrieve(self, query: Any, ctx: Any) -> list[Any]:
            return []

    class NeedsValue(ModeConfig):
        k: int

    class NoDefaults(Named):
        name = "nodefaults"
        Config = NeedsValue

    assert load_mode("named", Entry(Named)) is Named
    with pytest.raises(ModeRegistrationError, match="not a Retriever subclass"):
        load_mode("x", Entry(object))
    with pytest.raises(ModeRegistrationError, match="is named 'named'"):
        load_mode("other", Entry(Named))
    with pytest.raises(ModeRegistrationError, match="defaults for every field"):
        load_mode("nodefaults", Entry(NoDefaults))
