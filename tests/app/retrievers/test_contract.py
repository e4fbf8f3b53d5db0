"""The retriever contract, run over every registered mode (the built-in ones and the example third-party mode of
``examples/retrieval_mode``, found through its entry point): a mode added with one file and one registration line is
tested here without a line of test code of its own.

Each mode, on the session's demo data (real embedded stores, real small models), must: answer an unknown namespace
and a namespace without the data it needs with no items and no error; never return more than ``top_k`` items,
ranked; stamp every item with its name and give it provenance; return its declared trace model; and when a
dependency is down, either degrade with warnings or fail with a retryable 503/504, never with anything else.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

import pytest

from app.container import Container
from app.errors import AppError, DependencyError
from app.llm.base import LLMs
from app.retrievers.base import Retriever, RetrieverDeps, Retrievers
from app.retrievers.linking import EntityLink, EntityLinker
from app.retrievers.registry import available_modes, build_retrievers, installed_modes
from app.retrievers.types import ModeTrace, RetrievalQuery, RetrievalResult
from app.retrievers.vector import VectorTrace
from tests.app.retrievers.conftest import example_entry_points

MODES = [*available_modes(), *example_entry_points()]
QUESTION = "Which manufacturer built the Sable Class?"  # a KG question of the demo data that documents also answer
DOCS_ONLY = "contract_docs"


class Down:
    """A dependency that is down: every method call fails as a real client's does (``DependencyError``); plain
    attributes (``backend``, ``model_name``, ``dim``) stay readable."""

    def __init__(self, backend: str, real: Any) -> None:
        self._backend, self._real = backend, real

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._real, name)
        if not callable(attr):
            return attr

        async def fail(*args: Any, **kwargs: Any) -> Any:
            raise DependencyError(self._backend, "down (contract test)")

        return fail


def build(container: Container, names: list[str], **down: Any) -> Retrievers:
    """The modes over the session's stores, with some dependencies replaced; a fresh linker whenever a store or
    the embedder is replaced (the shared one would answer from its cached name index)."""
    deps: RetrieverDeps = replace(container.deps, modes=Retrievers(), **down)
    if {"graph", "vectors", "embedder"} & set(down):
        deps = replace(deps, linker=EntityLinker(deps.graph, deps.vectors, deps.embedder))
    wanted = list(dict.fromkeys([*names, "vector"]))  # vector: the default mode
    for name in wanted:  # and the modes the wanted ones call (grows while it is walked)
        wanted += [m for m in installed_modes()[name](deps).required_modes() if m not in wanted]
    return build_retrievers(deps, wanted)


@pytest.fixture(scope="module")
async def modes(example_mode: str, container: Container) -> AsyncIterator[Retrievers]:
    assert example_mode in installed_modes(), "the example is found through its entry point"
    await container.ingestor.ingest_documents(
        DOCS_ONLY, [_doc("Brackenholt Works", "Brackenholt Works built tank engines for the Ketterhythe line.")]
    )
    yield build(container, MODES)


def _doc(title: str, text: str) -> Any:
    from app.ingest.parsers import Document

    return Document(title, text, "contract")


def mode_class(name: str) -> type[Retriever[Any, Any]]:
    return installed_modes()[name]


def check_result(name: str, res: RetrievalResult, top_k: int, namespace: str) -> None:
    cls = mode_class(name)
    assert res.retriever == name
    assert isinstance(res.trace, cls.Trace) and isinstance(res.trace, ModeTrace)
    cls.Trace.model_validate(res.trace.model_dump())  # what clients get parses as the declared model
    assert len(res.items) <= top_k
    scores = [it.score for it in res.items]
    assert scores == sorted(scores, reverse=True)
    for it in res.items:
        assert it.retriever == name and it.id and it.text and it.provenance
        assert it.source.namespace == namespace
        assert it.source.chunk_id if it.source.kind == "chunk" else (it.source.node_name or it.text)
        assert it.node is None or it.node.id == it.id
    assert "total" in res.timings_ms


@pytest.mark.parametrize("name", MODES)
async def test_an_unknown_namespace_gives_no_items_and_no_error(modes: Retrievers, name: str) -> None:
    res = await modes[name].retrieve(RetrievalQuery(question=QUESTION, namespace="contract_nowhere", top_k=5))
    check_result(name, res, 5, "contract_nowhere")
    assert res.items == []


@pytest.mark.parametrize("name", MODES)
async def test_a_namespace_without_a_knowledge_graph_gives_what_it_has_and_no_error(
    modes: Retrievers, name: str
) -> None:
    """One document and no KG triples: whatever a mode finds there, it does not fail."""
    res = await modes[name].retrieve(RetrievalQuery(question=QUESTION, namespace=DOCS_ONLY, top_k=5))
    check_result(name, res, 5, DOCS_ONLY)


@pytest.mark.parametrize("name", MODES)
async def test_items_are_ranked_stamped_bounded_by_top_k_and_carry_provenance(modes: Retrievers, name: str) -> None:
    many = await modes[name].retrieve(RetrievalQuery(question=QUESTION, namespace="demo", top_k=100))
    check_result(name, many, 100, "demo")
    if name != "free_cypher":  # the untuned 135M model rarely writes a query that runs
        assert many.items, f"{name} finds the Sable Class in the demo data"
    one = await modes[name].retrieve(RetrievalQuery(question=QUESTION, namespace="demo", top_k=1))
    check_result(name, one, 1, "demo")
    assert [it.id for it in one.items] == [it.id for it in many.items[:1]]  # truncation after ranking


def test_top_k_outside_its_bounds_is_refused_before_any_mode_runs() -> None:
    for bad in (0, 101):
        with pytest.raises(ValueError, match="top_k"):
            RetrievalQuery(question=QUESTION, namespace="demo", top_k=bad)


@pytest.mark.parametrize("name", MODES)
def test_every_mode_declares_documented_settings_and_a_trace_model(name: str) -> None:
    cls = mode_class(name)
    assert cls.name == name and cls.description
    assert cls.Config is not None and cls.Trace is not None and issubclass(cls.Trace, ModeTrace)
    for field_name, info in cls.Config.model_fields.items():
        assert info.description, f"{name}.{field_name} needs a docstring (it documents GRAPHRAG_MODES__...)"
    assert cls.Config.model_config.get("extra") == "forbid" and cls.Trace.model_config.get("extra") == "forbid"


DOWN = ["graph", "vectors", "embedder", "llms"]


@pytest.mark.parametrize("name", MODES)
@pytest.mark.parametrize("dependency", DOWN)
async def test_a_dependency_that_is_down_degrades_or_fails_retryably(
    container: Container, modes: Retrievers, name: str, dependency: str
) -> None:
    if dependency == "llms":
        real = container.llms
        down: Any = LLMs(
            answer=Down("llm", real.answer) if real.answer else None,  # type: ignore[arg-type]
            text2cypher=Down("llm", real.text2cypher) if real.text2cypher else None,  # type: ignore[arg-type]
            agent=Down("llm", real.agent) if real.agent else None,  # type: ignore[arg-type]
            tuned=real.tuned,
        )
    else:
        down = Down(dependency, getattr(container.deps, dependency))
    broken = build(container, [name], **{dependency: down})[name]
    try:
        res = await broken.retrieve(RetrievalQuery(question=QUESTION, namespace="demo", top_k=5))
    except AppError as exc:
        assert exc.status in (503, 504) and exc.retryable, (name, dependency, exc)
        return
    check_result(name, res, 5, "demo")
    healthy = await modes[name].retrieve(RetrievalQuery(question=QUESTION, namespace="demo", top_k=5))
    if [it.id for it in res.items] != [it.id for it in healthy.items]:
        assert res.warnings, f"{name} degraded without saying so when {dependency} was down"


async def test_modes_reach_each_other_through_deps_and_their_warnings_travel(container: Container) -> None:
    """Composition (fusion, agents): a mode calls another enabled mode through ``call_mode``; the callee's warnings
    and stage timings join the caller's result; calling a mode that is not enabled, or calling back into a running
    mode, fails clearly."""
    from app.retrievers.base import ModeConfig, RunContext
    from app.retrievers.types import RetrievedItem

    class Both(Retriever[ModeConfig, ModeTrace]):
        name = "both"
        description = "vector, then the example mode"

        def required_modes(self) -> list[str]:
            return ["vector"]

        async def _retrieve(self, query: RetrievalQuery, ctx: RunContext[ModeTrace]) -> list[RetrievedItem]:
            return list((await self.call_mode("vector", query, ctx)).items)

    class Loop(Both):
        name = "loop"

        async def _retrieve(self, query: RetrievalQuery, ctx: RunContext[ModeTrace]) -> list[RetrievedItem]:
            return list((await self.call_mode("loop", query, ctx)).items)

    deps = replace(container.deps, modes=Retrievers(), graph=Down("graph", container.graph))
    deps.modes["vector"] = mode_class("vector")(deps)
    deps.modes["both"] = Both(deps)
    deps.modes["loop"] = Loop(deps)
    res = await deps.modes["both"].retrieve(RetrievalQuery(question=QUESTION, namespace="demo", top_k=3))
    assert res.items and all(it.retriever == "both" for it in res.items)
    assert res.warnings == ["graph store: entity facts unavailable (dependency_unavailable)"]  # vector's warning
    assert "vector.embed" in res.timings_ms and "total" in res.timings_ms
    with pytest.raises(ValueError, match="already running"):
        await deps.modes["loop"].retrieve(RetrievalQuery(question=QUESTION, namespace="demo"))
    del deps.modes["vector"]
    with pytest.raises(ValueError, match="not enabled"):
        await deps.modes["both"].retrieve(RetrievalQuery(question=QUESTION, namespace="demo"))


async def test_the_linker_is_shared_and_an_ingest_drops_its_index(container: Container) -> None:
    """One name index per namespace for every mode; an ingest into the namespace rebuilds it."""
    from app.ingest.parsers import Document, read_documents
    from tests.conftest import DEMO

    linker = container.deps.linker
    assert all(r.deps.linker is linker for r in container.retrievers.values())
    before = await linker.index("demo")
    assert await linker.index("demo") is before  # built once
    same = read_documents(DEMO / "docs" / "the-drummel-viaduct.md")  # an unchanged re-ingest: nothing to redo
    report = await container.ingestor.ingest_documents("demo", same)
    assert report.counts["documents_unchanged"] == 1 and await linker.index("demo") is before
    # an ingest that changes a namespace rebuilds its index
    other = await linker.index("linker_t")
    await container.ingestor.ingest_documents("linker_t", [*same, Document("Orrel Line", "The Orrel line is short.")])
    after = await linker.index("linker_t")
    assert after is not other and "orrel line" in after.by_lower and "orrel line" not in other.by_lower
    links = await linker.link("demo", QUESTION)
    assert links and isinstance(links[0], EntityLink) and links[0].name == "Sable Class"


async def test_vector_reranks_k1_chunks_and_keeps_the_rest_below_in_first_stage_order(
    container: Container, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``rerank_candidates`` (K1) bounds the cross-encoder's work whatever ``top_k`` asks for: the first K1 chunks
    (and the entity items) are reranked, the chunks fetched beyond them follow in first-stage order."""
    v = container.retrievers["vector"]
    monkeypatch.setattr(v, "config", v.config.model_copy(update={"rerank_candidates": 3, "entity_hits": 0}))
    res = await v.retrieve(RetrievalQuery(question="Who designed the Curlew Class?", namespace="demo", top_k=8))
    assert isinstance(res.trace, VectorTrace) and res.trace.reranked == 3 and len(res.items) == 8
    head, tail = res.items[:3], res.items[3:]
    assert all("rerank_score" in it.provenance for it in head)
    assert not any("rerank_score" in it.provenance for it in tail)
    assert min(it.score for it in head) > max(it.score for it in tail)
    assert [it.score for it in tail] == sorted((it.score for it in tail), reverse=True)
    # every item says what the first stage gave it, and the tail is in that order
    first = [it.provenance["first_stage_score"] for it in tail]
    assert all("first_stage_score" in it.provenance for it in res.items) and first == sorted(first, reverse=True)
