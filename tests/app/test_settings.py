"""Settings: nested environment variables, validators that say what to change, per-mode sections and LLM roles."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from app.settings import Settings


# --- settings ------------------------------------------------------------------------------------------------
def test_settings_from_nested_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHRAG_GRAPH__BACKEND", "neo4j")
    monkeypatch.setenv("GRAPHRAG_GRAPH__NEO4J_URI", "bolt://db:7687")
    monkeypatch.setenv("GRAPHRAG_CACHE__BACKEND", "off")
    monkeypatch.setenv("GRAPHRAG_VECTOR__MODE", "server")
    monkeypatch.setenv("GRAPHRAG_VECTOR__URL", "http://qdrant:6333")
    monkeypatch.setenv("GRAPHRAG_RETRIEVAL__DEFAULT_TOP_K", "7")
    s = Settings(_env_file=None)  # type: ignore[call-arg]
    assert (s.graph.backend, s.graph.neo4j_uri, s.vector.url, s.retrieval.default_top_k) == (
        "neo4j",
        "bolt://db:7687",
        "http://qdrant:6333",
        7,
    )


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"GRAPHRAG_LLM__BACKEND": "vllm"}, "VLLM_URL"),
        ({"GRAPHRAG_VECTOR__MODE": "server"}, "VECTOR__URL"),
        ({"GRAPHRAG_CACHE__BACKEND": "redis"}, "CACHE__URL"),
        ({"GRAPHRAG_GRAPH__BACKEND": "neo4j"}, "cache.backend=embedded needs graph.backend=falkordb"),
        ({"GRAPHRAG_ENVIRONMENT": "production", "GRAPHRAG_SERVER__ADMIN_TOKEN": "changeme"}, "placeholder"),
        ({"GRAPHRAG_RETRIEVAL__DEFAULT_TOP_K": "0"}, "greater than or equal to 1"),
    ],
)
def test_settings_say_what_to_change(monkeypatch: pytest.MonkeyPatch, env: dict[str, str], message: str) -> None:
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    with pytest.raises(ValidationError, match=message):
        Settings(_env_file=None)  # type: ignore[call-arg]


def test_model_cache_is_shared_across_data_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    a = Settings(_env_file=None, data_dir=tmp_path / "a")  # type: ignore[call-arg]
    b = Settings(_env_file=None, data_dir=tmp_path / "b")  # type: ignore[call-arg]
    assert a.model_cache_dir == b.model_cache_dir == tmp_path / "graphrag-service"


def test_mode_sections_and_llm_roles_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHRAG_MODES__TEXT2CYPHER__TOP_M", "3")
    monkeypatch.setenv("GRAPHRAG_MODES__VECTOR__ENTITY_HITS", "0")
    monkeypatch.setenv("GRAPHRAG_LLM__TEXT2CYPHER__ADAPTER", "var/adapters/x")
    monkeypatch.setenv("GRAPHRAG_RETRIEVAL__ENABLED_MODES", '["vector", "text2cypher"]')
    s = Settings(_env_file=None)  # type: ignore[call-arg]
    assert s.modes == {"text2cypher": {"top_m": "3"}, "vector": {"entity_hits": "0"}}  # validated by each mode
    assert s.llm.text2cypher.adapter == Path("var/adapters/x") and s.llm.text2cypher.tuned
    assert not s.llm.agent.tuned and s.retrieval.enabled_modes == ["vector", "text2cypher"]


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"GRAPHRAG_TEXT2CYPHER__ADAPTER": "x"}, "adapter -> GRAPHRAG_LLM__TEXT2CYPHER__ADAPTER"),
        ({"GRAPHRAG_TEXT2CYPHER__TOP_M": "3"}, "top_m -> GRAPHRAG_MODES__TEXT2CYPHER__TOP_M"),
        ({"GRAPHRAG_TEXT2CYPHER__FREE_MAX_NEW_TOKENS": "9"}, "GRAPHRAG_MODES__FREE_CYPHER__MAX_NEW_TOKENS"),
        ({"GRAPHRAG_RETRIEVAL__ENTITY_HITS": "3"}, "GRAPHRAG_MODES__VECTOR__ENTITY_HITS"),
        ({"GRAPHRAG_LLM__TEXT2CYPHER__VLLM_LORA": "t2c"}, "vllm_lora needs llm.backend=vllm"),
        (
            {
                "GRAPHRAG_LLM__BACKEND": "vllm",
                "GRAPHRAG_LLM__VLLM_URL": "http://w",
                "GRAPHRAG_LLM__AGENT__ADAPTER": "a",
            },
            "agent.adapter needs llm.backend=local",
        ),
    ],
)
def test_moved_and_mismatched_settings_say_where_they_went(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], message: str
) -> None:
    """A setting of the old layout fails the start with its new name instead of being silently ignored."""
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    with pytest.raises(ValidationError, match=message):
        Settings(_env_file=None)  # type: ignore[call-arg]
