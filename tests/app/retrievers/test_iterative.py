"""The iterative mode: the passage reader (names a passage mentions), the round-robin merge, and a bridge step on a
small document graph (real embedded stores, real embedder): the second hop's passage is reached through the name the
first hop's passage mentions, every item says how, and a failed step keeps the base ranking and says so."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from app.container import Container
from app.errors import DependencyError
from app.ingest.parsers import Document
from app.retrievers.iterative import IterativeConfig, IterativeRetriever, interleave
from app.retrievers.types import RetrievalQuery, RetrievedItem, Source
from app.text import name_spans

NS = "iterative_docs"
QUESTION = "In which town was the engineer who built the Corrow Viaduct born?"


def test_the_reader_finds_the_names_a_passage_mentions_that_the_question_does_not() -> None:
    text = (
        "The Corrow Viaduct was built in 1864 by the engineer Tamsin Rook, who used granite from the Bank of "
        "England's quarry. In Paris, she met Ludwig van Beethoven and J. R. Tolkien."
    )
    names = name_spans(text, known=QUESTION, exclude=["Corrow Viaduct"])
    assert names == ["1864", "Tamsin Rook", "Bank of England's", "Paris", "Ludwig van Beethoven", "J R Tolkien"]
    # the question's own names and words are not bridges; the exclusions neither; each name once
    assert name_spans("Corrow Viaduct. The Viaduct, Corrow.", known=QUESTION) == []
    assert name_spans("Tamsin Rook and Tamsin Rook", exclude=["tamsin rook"]) == []


def _item(i: str) -> RetrievedItem:
    return RetrievedItem(id=i, text=i, score=0.0, source=Source(kind="chunk", namespace=NS), retriever="")


def test_the_merge_keeps_the_head_then_takes_turns_and_places_each_item_once() -> None:
    a, b, c, d, e = (_item(x) for x in "abcde")
    order = interleave([a], [[c, b, e], [b, d]])
    assert [it.id for it in order] == ["a", "c", "b", "d", "e"]


async def _ingest(container: Container) -> None:
    await container.ingestor.ingest_documents(
        NS,
        [
            Document("Corrow Viaduct", "The Corrow Viaduct was built between 1861 and 1864 by Tamsin Rook."),
            Document("Tamsin Rook", "Rook grew up in Whitleven, a mill town, and trained as a millwright."),
            Document("Harl Tunnel", "The Harl Tunnel, built by an engineer, is 3,140 metres long and opened in 1870."),
            Document("Sella Bridge", "The Sella Bridge is a town bridge, built in stone by a local engineer."),
        ],
    )


async def test_a_bridge_step_reaches_the_second_hop_through_the_name_the_first_hop_mentions(
    container: Container,
) -> None:
    await _ingest(container)
    default = container.retrievers.get_mode("iterative")
    assert isinstance(default, IterativeRetriever) and default.required_modes() == ("hybrid",)
    # over the vector mode, whose dense ranking finds the viaduct but not (first) its engineer
    mode = IterativeRetriever(default.deps, IterativeConfig(base="vector"))
    query = RetrievalQuery(question=QUESTION, namespace=NS, top_k=4)
    base = await container.retrievers.get_mode("vector").retrieve(query)
    assert base.items[0].source.title == "Corrow Viaduct"
    res = await mode.retrieve(query)
    titles = [it.source.title for it in res.items]
    assert titles[:2] == ["Corrow Viaduct", "Tamsin Rook"], titles
    first, second = res.items[0], res.items[1]
    assert first.provenance["hop"] == 0 and first.id == base.items[0].id  # the base item, kept first
    assert second.provenance["hop"] == 1 and second.provenance["bridge"] == "Tamsin Rook"
    assert second.provenance["bridge_from"] == first.id and second.provenance["page_id"]
    assert all(s.score > t.score for s, t in zip(res.items, res.items[1:], strict=False))
    assert res.trace.base == "vector" and len(res.trace.steps) == 1
    step = res.trace.steps[0]
    assert step.seeds[0] == first.id and "Tamsin Rook" in step.bridges and "Corrow Viaduct" not in step.bridges
    assert all(it.retriever == "iterative" for it in res.items)
    assert "vector.total" in res.timings_ms and "bridge" in res.timings_ms
    # one step: the base mode's ranking as it is
    one = IterativeRetriever(mode.deps, IterativeConfig(base="vector", steps=1))
    assert [it.id for it in (await one.retrieve(query)).items] == [it.id for it in base.items]
    # the default (over hybrid) answers too, every item with its hop
    res = await default.retrieve(query)
    assert {"Corrow Viaduct", "Tamsin Rook"} <= {it.source.title for it in res.items[:2]}
    assert all("hop" in it.provenance for it in res.items)


async def test_a_failed_bridge_step_keeps_the_base_ranking_and_says_so(container: Container) -> None:
    await _ingest(container)
    embedder = container.deps.embedder

    class Down:
        """The embedder, down (only the iterative mode's own steps use it: the base mode has its own deps)."""

        def __getattr__(self, name: str) -> Any:
            return getattr(embedder, name)

        async def embed(self, texts: list[str]) -> list[list[float]]:
            raise DependencyError("embedder", "down (test)")

    deps = replace(container.deps, embedder=Down())  # type: ignore[arg-type]
    mode = IterativeRetriever(deps, IterativeConfig())
    query = RetrievalQuery(question=QUESTION, namespace=NS, top_k=4)
    res = await mode.retrieve(query)
    base = await container.retrievers.get_mode("hybrid").retrieve(query)
    assert [it.id for it in res.items] == [it.id for it in base.items]
    assert any("bridge step 1 unavailable" in w for w in res.warnings)
    assert any("embedder: bridge names not followed" in w for w in res.warnings)
    assert res.trace.steps[0].seeds and res.trace.steps[0].found == 0
