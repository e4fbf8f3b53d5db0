"""The hybrid mode: the fusion model file and its local standardisation, the unlearned fusions, and the signals on
a small document graph (real embedded stores, real embedder): provenance, the bridge path, sections, filters."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from app.container import Container
from app.ingest.parsers import Document, parse_markdown
from app.models.fusion import FusionModel, standardise
from app.retrievers.base import RunContext
from app.retrievers.hybrid import PACKAGED_MODEL, HybridRetriever, HybridTrace, fuse_baseline
from app.retrievers.types import RetrievalQuery

NS = "hybrid_docs"


def test_missing_scores_are_filled_below_the_observed_minimum_then_standardised_per_question() -> None:
    rows = [{"vector": 0.9, "page": 0.5}, {"vector": 0.7}, {"vector": 0.5, "page": 0.4}]
    x = standardise(rows, ["vector", "page", "path"])
    assert x.shape == (3, 6)
    assert np.allclose(x[:, 0], (np.array([0.9, 0.7, 0.5]) - 0.7) / np.std([0.9, 0.7, 0.5]))
    assert x[1, 1] < x[2, 1] < x[0, 1]  # the missing page score ranks below the lowest present one
    assert np.allclose(x[:, 1].mean(), 0.0) and np.allclose(x[:, 2], 0.0)  # a signal nobody has: zeros
    assert x[:, 3:].tolist() == [[1, 1, 0], [1, 0, 0], [1, 1, 0]]  # presence columns
    # scale-free: the same scores in other units standardise the same
    scaled = [{k: 10 * v + 3 for k, v in r.items()} for r in rows]
    assert np.allclose(standardise(scaled, ["vector", "page", "path"]), x)


def test_the_model_file_round_trips_and_is_checked(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    m = FusionModel(
        ["vector", "bm25"],
        [(rng.normal(size=(4, 3)), rng.normal(size=3)), (rng.normal(size=(3, 1)), rng.normal(size=1))],
    )
    rows = [{"vector": 0.8, "bm25": 3.0}, {"vector": 0.6}, {"bm25": 9.0}]
    m.save(tmp_path / "m.json")
    again = FusionModel.load(tmp_path / "m.json")
    assert np.allclose(again.score(rows), m.score(rows)) and again.score([]).shape == (0,)
    (tmp_path / "bad.json").write_text('{"signals": ["vector", "colour"], "layers": []}')
    with pytest.raises(ValueError, match="unknown signals"):
        FusionModel.load(tmp_path / "bad.json")
    packaged = FusionModel.load(PACKAGED_MODEL)
    assert "trained_on" in packaged.meta and packaged.signals[0] == "vector"


def test_unlearned_fusions() -> None:
    ids = ["a", "b", "c"]
    rows = [{"vector": 0.9}, {"vector": 0.5, "path": 0.3}, {"vector": 0.7, "bm25": 2.0}]
    naive = fuse_baseline("naive", ids, rows, 60)
    assert sorted(ids, key=lambda i: -naive[ids.index(i)]) == ["b", "a", "c"]  # path results, then by cosine
    alone = fuse_baseline("bm25", ids, rows, 60)
    assert max(range(3), key=lambda i: alone[i]) == 2
    fused = fuse_baseline("rrf", ids, rows, 60)
    assert fused[1] > fused[2] - 1.0 / 61 + 1.0 / 62  # b: 2nd by vector and 1st by path; c: 2nd by vector, 1st bm25
    assert fused[0] == pytest.approx(1 / 61) and fused[1] == pytest.approx(1 / 63 + 1 / 61)


VIADUCT = """# Corrow Viaduct
The Corrow Viaduct carries the main line over the river Sella.

## Construction
The viaduct was built between 1861 and 1864 by the engineer Tamsin Rook, who used local granite.

## Repairs
In 1902 the piers were strengthened after a flood.
"""


async def test_signals_provenance_and_the_bridge_path(container: Container) -> None:
    docs = [
        parse_markdown(VIADUCT, "corrow-viaduct", "corrow-viaduct.md"),
        Document("Tamsin Rook", "Tamsin Rook was born in Whitleven in 1822 and trained as a millwright."),
        Document("Harl Tunnel", "The Harl Tunnel is 3,140 metres long and opened in 1870."),
    ]
    await container.ingestor.ingest_documents(NS, docs)
    hybrid = container.retrievers.get_mode("hybrid")
    assert isinstance(hybrid, HybridRetriever)
    question = "Where was the engineer who built the Corrow Viaduct born?"
    ctx: RunContext[HybridTrace] = RunContext(mode="hybrid", trace=HybridTrace())
    payloads, feats = await hybrid.candidates(RetrievalQuery(question=question, namespace=NS), ctx)
    by_title = {payloads[c]["title"] + "#" + str(payloads[c]["section"]): f for c, f in feats.items()}
    # the engineer's page is reached along the viaduct chunk that cites her: the bridge half of the path signal
    assert "path" in by_title["Tamsin Rook#"]
    # and by the name the viaduct's chunk mentions, searched with the question (the bridge signal)
    rook = by_title["Tamsin Rook#"]
    assert rook["bridge"] > rook["vector"]  # closer to question + her name than to the question alone
    # the structural half: the viaduct page's subchapter closest to the question
    assert "path" in by_title["Corrow Viaduct#Construction"]
    assert all("vector" in f for f in feats.values())  # every candidate's cosine is known
    assert ctx.trace.signals["page"] >= 1 and ctx.trace.signals["section"] >= 1
    res = await hybrid.retrieve(RetrievalQuery(question=question, namespace=NS, top_k=5))
    assert res.trace.fusion == "learned" and res.trace.model == PACKAGED_MODEL.name
    titles = [it.source.title for it in res.items]
    assert set(titles[:2]) == {"Corrow Viaduct", "Tamsin Rook"}, titles  # both hops first
    for it in res.items:  # page, section path and chunk id in every item
        p = it.provenance
        assert p["page_id"] and it.source.chunk_id == it.id and "section" in p and p["uri"]
        assert set(p["signals"]) <= {"vector", "page", "section", "entity", "path", "bridge", "bm25"}
    sections = {it.provenance["section"] for it in res.items if it.source.title == "Corrow Viaduct"}
    assert sections & {"Construction", ""}
    # a filter holds for every signal's candidates
    only = await hybrid.retrieve(
        RetrievalQuery(question=question, namespace=NS, top_k=10, filters={"title": "Tamsin Rook"})
    )
    assert only.items and {it.source.title for it in only.items} == {"Tamsin Rook"}
