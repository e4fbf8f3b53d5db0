"""Small units: settings validation, bounded executor, citation attribution, prompt budget, eval metrics."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import pytest
from pydantic import ValidationError

from app.concurrency import BoundedExecutor
from app.errors import DependencyTimeoutError, OverloadedError
from app.eval import metrics as M
from app.llm.prompts import attribute_citations, build_answer_messages
from app.retrievers.types import RetrievedItem, Source
from app.settings import Settings


def item(i: str, text: str) -> RetrievedItem:
    return RetrievedItem(id=i, text=text, score=1.0, source=Source(kind="chunk", namespace="n"), retriever="v")


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


# --- bounded executor -------------------------------------------------------------------------------------
async def test_bounded_executor_rejects_when_full_and_times_out() -> None:
    ex = BoundedExecutor("t", workers=1, max_queue=1)
    gate = threading.Event()
    first = asyncio.ensure_future(ex.run(gate.wait, 5))
    second = asyncio.ensure_future(ex.run(lambda: 2))
    await asyncio.sleep(0.05)
    assert ex.in_flight == 2
    with pytest.raises(OverloadedError) as info:
        await ex.run(lambda: 3)
    assert info.value.status == 503 and info.value.retry_after_s >= 1
    gate.set()
    assert await first is True and await second == 2
    with pytest.raises(DependencyTimeoutError):
        await ex.run(time.sleep, 0.5, timeout_s=0.05)
    ex.shutdown()


# --- prompts and citations --------------------------------------------------------------------------------
def test_citations_prefer_markers_then_overlap_then_top_item() -> None:
    used = [item("a", "The viaduct has 27 arches."), item("b", "The tunnel is 3,140 metres long.")]
    by_marker = attribute_citations("It has 27 arches [1] [1] [9].", used)
    assert [(c.index, c.item_id, c.method) for c in by_marker] == [(1, "a", "marker")]
    by_overlap = attribute_citations("3,140 metres", used, question="How long is the tunnel?")
    assert [(c.item_id, c.method) for c in by_overlap] == [("b", "overlap")]
    fallback = attribute_citations("I do not know.", used)
    assert [(c.item_id, c.method) for c in fallback] == [("a", "top_item")]
    assert attribute_citations("anything", []) == []


def test_answer_prompt_numbers_items_within_the_budget() -> None:
    items = [item(str(i), f"passage {i} " + "word " * 400) for i in range(6)]
    messages, used = build_answer_messages("What?", items, context_chars=1200)
    user = messages[1]["content"]
    assert user.startswith("Context:\n[1] passage 0") and user.rstrip().endswith("Question: What?\nAnswer:")
    assert len(user) < 1200 + 200
    assert [f"[{n}]" in user for n in range(1, len(used) + 1)] == [True] * len(used)
    assert 2 <= len(used) < 6


# --- eval metrics (hand-computed) -------------------------------------------------------------------------
def test_ranked_metrics() -> None:
    ranked = ["x", "g1", "x", "y", "g2", "z"]  # the repeated "x" counts once
    gold = ["g1", "g2"]
    assert M.dedupe(ranked) == ["x", "g1", "y", "g2", "z"]
    assert M.recall_at_k(ranked, gold, 1) == 0.0
    assert M.recall_at_k(ranked, gold, 2) == 0.5
    assert M.recall_at_k(ranked, gold, 3) == 0.5
    assert M.recall_at_k(ranked, gold, 4) == 1.0  # would be 0.5 if duplicates took rank slots
    assert M.hit_at_k(ranked, gold, 1) == 0.0 and M.hit_at_k(ranked, gold, 2) == 1.0
    assert M.coverage_at_k(ranked, gold, 3) == 0.0 and M.coverage_at_k(ranked, gold, 4) == 1.0
    assert M.precision_at_k(ranked, gold, 4) == 0.5
    assert M.mrr(ranked, gold) == 0.5
    assert M.mrr(["a"], gold) == 0.0 and M.recall_at_k(ranked, [], 5) == 0.0


def test_f_beta_and_answer_metrics() -> None:
    assert M.f_beta(0.5, 1.0, 1) == pytest.approx(2 / 3)
    assert M.f_beta(0.5, 1.0, 2) == pytest.approx(5 * 0.5 / (4 * 0.5 + 1))
    assert M.f_beta(0.0, 0.0) == 0.0
    assert M.normalize_answer("The  Eiffel-Tower!") == "eiffeltower"
    assert M.exact_match("the Eiffel Tower.", ["Eiffel Tower"]) == 1.0
    assert M.exact_match("Eiffel", ["Eiffel Tower"]) == 0.0
    assert M.token_f1("Eiffel", ["Eiffel Tower"]) == pytest.approx(2 / 3)
    assert M.token_f1("nothing", ["Eiffel Tower", "tour"]) == 0.0
    assert M.percentile([5, 1, 3, 2, 4], 50) == 3
    assert M.percentile([1, 2, 3, 4], 100) == 4 and M.percentile([], 50) == 0.0


def test_rouge_l_and_contains() -> None:
    assert M.rouge_l("the viaduct has 27 arches", ["27 arches"]) == pytest.approx(2 * (2 / 5) * 1 / (2 / 5 + 1))
    assert M.rouge_l("nothing here", ["27 arches"]) == 0.0
    assert M.contains_answer("It has 27 arches.", ["27 arches"]) == 1.0
    assert M.contains_answer("It has 270 arches.", ["27"]) == 0.0  # whole tokens only
