"""A failed dependency degrades the answer and says so, instead of failing the request."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from app.container import Container
from app.errors import DependencyError, OverloadedError
from app.schemas import AskRequest, RetrieveRequest
from app.settings import LLMSettings
from tests.conftest import DEMO, make_settings


@pytest.fixture(scope="module")
async def slow_llm(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Container]:
    # an answer model that can never finish in time
    s = make_settings(tmp_path_factory.mktemp("degraded"), llm=LLMSettings(timeout_s=0.001, max_new_tokens=16))
    c = await Container.start(s)
    await c.ingestor.ingest_path("demo", "metaqa", DEMO / "kg.txt", labels_path=DEMO / "labels.json")
    await c.ingestor.ingest_path("demo", "documents", DEMO / "docs")
    try:
        yield c
    finally:
        await c.close()


async def test_llm_timeout_returns_items_with_a_warning(slow_llm: Container) -> None:
    res = await slow_llm.qa.ask(AskRequest(question="How many arches does the Drummel Viaduct have?", namespace="demo"))
    assert res.answer is None and res.citations == []
    assert res.items, "retrieval still answers"
    assert res.warnings == ["llm: answer generation failed (dependency_timeout); returning retrieved items only"]


async def test_graph_failure_keeps_dense_hits_and_says_so(slow_llm: Container) -> None:
    req = RetrieveRequest(question="Sable Class manufacturer", namespace="demo", top_k=10)
    healthy = await slow_llm.qa.retrieve(req)
    assert any(i.source.kind == "node" and "MANUFACTURED_BY" in i.text for i in healthy.items)
    await slow_llm.graph.close()  # the graph engine goes away; the vector store stays
    degraded = await slow_llm.qa.retrieve(req)
    assert degraded.items and any(i.source.kind == "chunk" for i in degraded.items)
    nodes = [i for i in degraded.items if i.source.kind == "node"]
    assert nodes and all("MANUFACTURED_BY" not in i.text for i in nodes)
    assert degraded.warnings == ["graph store: entity facts unavailable (dependency_unavailable)"]
    assert not await slow_llm.graph.ping()
    with pytest.raises(DependencyError):
        await slow_llm.graph.read("demo", "MATCH (n) RETURN n")


async def test_a_full_model_queue_is_a_clean_overload_not_a_degraded_200(
    slow_llm: Container, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Overload is not a failure to degrade around: /ask says 503 overloaded with Retry-After (the client retries),
    where a model that failed gives the items and a warning (above)."""

    async def full(*args: object, **kwargs: object) -> None:
        raise OverloadedError("llm: queue full (test)", retry_after_s=2)

    assert slow_llm.qa.llm is not None
    monkeypatch.setattr(slow_llm.qa.llm, "generate", full)
    with pytest.raises(OverloadedError) as err:
        await slow_llm.qa.ask(AskRequest(question="How many arches does the Drummel Viaduct have?", namespace="demo"))
    assert err.value.status == 503 and err.value.retry_after_s == 2
