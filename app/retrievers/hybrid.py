"""Hybrid retrieval over the document graph (Page / SubChapter / Chunk / Entity, ``app/ingest/structure.py``).

Every candidate chunk gets up to six scores, one per signal:

* ``vector`` — the chunk's cosine with the question (dense top hits; every other candidate's cosine is looked up);
* ``page`` — the best pages by title (and headings) → all their chunks, scored by the page's cosine;
* ``section`` — the best subchapters by heading path → the chunks directly under them;
* ``entity`` — the best entities by name → the chunks citing them and the chunks of the pages about them;
* ``path`` — a traverser's choice: from the top pages down their subchapters (at each level the child closest to
  the question: page cosine × subchapter cosine), and from the top chunks along the entities they cite to those
  entities' pages (a bridge hop: seed cosine × target cosine);
* ``bridge`` — the top dense chunks are read for the names they mention that the question does not, and each name
  is searched with the question (``kg.follow_names``): a chunk's best cosine over those searches. The second hop of
  a multi-hop question is often a passage about a name only the first hop's passage gives;
* ``bm25`` — the lexical score (``bm25s``).

``fusion`` ranks by the learned MLP (``app/models/fusion.py``; the packaged model was trained on another corpus
than the one it is measured on, see ``app/training/fusion.py``), by reciprocal-rank fusion, by the naive hybrid
(path results, then vector results), or by one signal alone (the baselines of the eval). ``rerank_top`` hands the
best fused chunks to the cross-encoder, whose rank is fused with the fused rank (reciprocal rank)."""

from __future__ import annotations

import asyncio
import functools
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import Field

from app.cypher import queries as Q
from app.errors import AppError
from app.models.fusion import FusionModel, rrf
from app.retrievers.base import ModeConfig, Retriever, RunContext
from app.retrievers.kg import best_bridge_hits, chunk_item, follow_names
from app.retrievers.types import ModeTrace, RetrievalQuery, RetrievedItem
from app.stores.vector.base import VectorHit, collection_name

PACKAGED_MODEL = Path(__file__).parent / "fusion" / "musique.json"
"""The shipped fusion: trained on MuSiQue-100 (all its questions), measured on HotpotQA-100 (reports/hybrid)."""
BASE_SIGNALS = ("vector", "page", "section", "entity", "path", "bridge", "bm25")
Features = dict[str, float]


@functools.cache
def load_model(path: Path) -> FusionModel:
    return FusionModel.load(path)


class HybridConfig(ModeConfig):
    fusion: Literal["learned", "rrf", "naive", "vector", "page", "section", "entity", "path", "bridge", "bm25"] = (
        "learned"
    )
    """``learned``: the MLP; ``rrf``: reciprocal-rank fusion of the six signals; ``naive``: path results, then
    vector results; a signal's name: that signal alone (baselines)."""
    model_path: Path | None = None
    """The fusion model file (JSON); unset: the packaged one (``app/retrievers/fusion/musique.json``)."""
    chunk_hits: int = Field(40, ge=1, le=500)
    """Dense and BM25 chunk hits."""
    page_hits: int = Field(6, ge=0, le=100)
    """Pages found by title (and headings) whose chunks become candidates (``page`` signal)."""
    section_hits: int = Field(6, ge=0, le=100)
    """Subchapters found by heading path whose direct chunks become candidates (``section`` signal)."""
    entity_hits: int = Field(6, ge=0, le=100)
    """Entities found by name whose citing chunks and pages become candidates (``entity`` signal)."""
    bridge_seeds: int = Field(5, ge=0, le=50)
    """Top dense chunks whose cited entities the path signal follows to their pages."""
    name_reads: int = Field(2, ge=0, le=20)
    """Top dense chunks read for the names they mention (``bridge`` signal; 0: off)."""
    names_per_read: int = Field(8, ge=1, le=50)
    """Names taken from each read chunk, in reading order; each is one dense search with the question."""
    hits_per_name: int = Field(5, ge=1, le=50)
    """Dense chunk hits kept per name search."""
    chunks_per_node: int = Field(20, ge=1, le=1000)
    """Chunks taken per page, subchapter, entity or seed when expanding in the graph."""
    rerank_top: int = Field(0, ge=0, le=100)
    """Fused chunks handed to the cross-encoder (0: none; ~35 ms per passage on one CPU thread)."""
    rerank_rrf_k: int = Field(5, ge=1, le=1000)
    """Reciprocal-rank constant fusing the cross-encoder's rank with the fused rank (``rerank_top`` > 0)."""
    rrf_k: int = Field(60, ge=1, le=1000)
    """Reciprocal-rank constant of ``fusion=rrf``."""
    graph_fallback: str | None = "triplets"
    """The mode that answers when the namespace has no document chunk for the question (a graph without documents,
    such as a Cypher script's): its items are returned with a warning. None: no items then."""


class HybridTrace(ModeTrace):
    fusion: str = ""
    model: str | None = None
    """The fusion model's file name (``fusion=learned``)."""
    candidates: int = 0
    signals: dict[str, int] = Field(default_factory=dict)
    """Candidates that got each signal."""
    reranked: int = 0


class HybridRetriever(Retriever[HybridConfig, HybridTrace]):
    name = "hybrid"
    description = (
        "Document-graph hybrid: vector, page, section, entity, path, bridge and BM25 signals per chunk, fused by a "
        "learned MLP."
    )
    Config = HybridConfig
    Trace = HybridTrace

    def model(self) -> FusionModel:
        return load_model((self.config.model_path or PACKAGED_MODEL).resolve())

    def required_modes(self) -> Sequence[str]:
        return (self.config.graph_fallback,) if self.config.graph_fallback else ()

    async def _retrieve(self, query: RetrievalQuery, ctx: RunContext[HybridTrace]) -> list[RetrievedItem]:
        payloads, feats = await self.candidates(query, ctx)
        if not feats and self.config.graph_fallback:  # no document: the graph answers
            res = await self.call_mode(self.config.graph_fallback, query, ctx)
            if res.items:
                ctx.warn(f"hybrid: no document chunk in this namespace; answered from the graph ({res.retriever})")
            return res.items
        ids = list(feats)
        scores = self.fuse(ids, feats, ctx)
        items = []
        for cid, score in zip(ids, scores, strict=True):
            it = chunk_item(VectorHit(cid, score, payloads[cid]), query.namespace)
            it.provenance["signals"] = {k: round(v, 4) for k, v in feats[cid].items()}
            items.append(it)
        if self.config.rerank_top and items:
            items = await self._rerank(query.question, items, ctx)
        return items

    # --- signals ----------------------------------------------------------------------------------------------
    async def candidates(
        self, query: RetrievalQuery, ctx: RunContext[Any]
    ) -> tuple[dict[str, dict[str, Any]], dict[str, Features]]:
        """Every candidate chunk's payload and signal scores (what the fusion ranks, and what training reads)."""
        deps, cfg, ns = self.deps, self.config, query.namespace
        with ctx.stage("embed"):
            vec = await deps.embedder.embed_query(query.question)

        def search(kind: str, k: int, filters: dict[str, Any] | None = None) -> Any:
            if k <= 0:
                return asyncio.sleep(0, result=[])
            return deps.vectors.search(collection_name(ns, kind), vec, top_k=k, filters=filters)

        with ctx.stage("vector_search"):
            chunk_hits, page_hits, section_hits, entity_hits, lexical = await asyncio.gather(
                search("chunks", cfg.chunk_hits, query.filters),
                search("pages", cfg.page_hits),
                search("sections", cfg.section_hits),
                search("doc_entities", cfg.entity_hits),
                self.lexical_hits(query, cfg.chunk_hits, ctx),
            )
        payloads: dict[str, dict[str, Any]] = {}
        feats: dict[str, Features] = defaultdict(dict)

        def put(cid: str, signal: str, score: float) -> None:
            f = feats[cid]
            f[signal] = max(score, f.get(signal, score))

        for h in chunk_hits:
            payloads[h.id] = h.payload
            put(h.id, "vector", h.score)
        for lh in lexical or []:
            payloads.setdefault(lh.id, lh.payload)
            put(lh.id, "bm25", lh.score)
        page_score = {str(h.payload.get("page_id", h.id)): h.score for h in page_hits}
        section_score = {h.id: h.score for h in section_hits}
        entity_score = {str(h.payload.get("name")): h.score for h in entity_hits}
        seeds = [h.id for h in chunk_hits[: cfg.bridge_seeds]]
        per = cfg.chunks_per_node
        reads = [
            (h.id, str(h.payload.get("title", "")), str(h.payload.get("text", "")))
            for h in chunk_hits[: cfg.name_reads]
        ]
        bridges, rows = await asyncio.gather(
            follow_names(
                deps,
                query,
                reads,
                ctx,
                names_per_seed=cfg.names_per_read,
                hits_per_name=cfg.hits_per_name,
            ),
            self._graph_expand(ns, page_score, section_score, entity_score, seeds, ctx),
        )
        page_rows, section_rows, entity_rows, about_rows, bridge_rows = rows
        page_of: dict[str, str] = {}
        for r in [*page_rows, *section_rows, *entity_rows, *about_rows, *bridge_rows]:
            page_of[str(r["id"])] = str(r["page_id"])
        for h, _ in best_bridge_hits(bridges or []):
            payloads.setdefault(h.id, h.payload)
            page_of.setdefault(h.id, str(h.payload.get("page_id")))
            put(h.id, "bridge", h.score)
        for r in page_rows:
            put(str(r["id"]), "page", page_score[str(r["src"])])
        for r in section_rows:
            put(str(r["id"]), "section", section_score[str(r["src"])])
        for r in [*entity_rows, *about_rows]:
            put(str(r["id"]), "entity", entity_score[str(r["src"])])
        for r in bridge_rows:
            feats[str(r["id"])]  # a candidate; its path score needs its cosine, looked up below
        # every candidate's cosine (and payload) from its page's chunks; the subchapters of the top pages
        missing = sorted({page_of[c] for c in feats if "vector" not in feats[c] and c in page_of})
        with ctx.stage("vector_lookup"):
            found, subchapters = await asyncio.gather(
                search("chunks", max(1, 4 * per * len(missing)), {**query.filters, "page_id": missing})
                if missing
                else asyncio.sleep(0, result=[]),
                search("sections", 50 * len(page_score), {"page_id": list(page_score)})
                if section_hits and page_score
                else asyncio.sleep(0, result=[]),
            )
        for h in found:
            if h.id in feats:
                payloads.setdefault(h.id, h.payload)
                put(h.id, "vector", h.score)
        for r in bridge_rows:
            seed, target = str(r["src"]), str(r["id"])
            if "vector" in feats[target] and "vector" in feats[seed]:
                put(target, "path", feats[seed]["vector"] * feats[target]["vector"])
        self._descend(page_score, subchapters, payloads, feats, put)
        # a candidate without a payload did not pass the query's filters (or vanished): it is not returned
        for cid in [c for c in feats if c not in payloads]:
            del feats[cid]
        ctx.trace.candidates = len(feats)
        ctx.trace.signals = {s: sum(1 for f in feats.values() if s in f) for s in BASE_SIGNALS}
        return payloads, dict(feats)

    @staticmethod
    def _descend(
        page_score: dict[str, float],
        subchapters: list[VectorHit],
        payloads: dict[str, dict[str, Any]],
        feats: dict[str, Features],
        put: Any,
    ) -> None:
        """The structural half of ``path``: from each top page down its subchapters, at each level to the child
        closest to the question; the chunks directly under a chosen subchapter score page cosine × its cosine."""
        if not subchapters:
            return
        children: dict[tuple[str, str], list[tuple[float, str, str]]] = defaultdict(list)
        for h in subchapters:
            path = str(h.payload.get("section", ""))
            parent = path.rsplit(" > ", 1)[0] if " > " in path else ""
            children[(str(h.payload.get("page_id")), parent)].append((h.score, path, h.id))
        chosen: dict[str, float] = {}
        for pid, ps in page_score.items():
            at = ""
            while children.get((pid, at)):
                score, path, sid = max(children[(pid, at)])
                chosen[sid] = ps * score
                at = path
        if chosen:
            for cid in feats:
                under = payloads.get(cid, {}).get("section_id")
                if under in chosen:
                    put(cid, "path", chosen[under])

    async def _graph_expand(
        self,
        ns: str,
        page_score: dict[str, float],
        section_score: dict[str, float],
        entity_score: dict[str, float],
        seeds: list[str],
        ctx: RunContext[Any],
    ) -> list[list[dict[str, Any]]]:
        """The chunks of the top pages, subchapters and entities, and the bridge hop's targets (one read each)."""
        with ctx.stage("graph_expand"):
            return list(
                await asyncio.gather(
                    self._expand(ns, Q.PAGE_CHUNK_IDS, "ids", list(page_score), ctx),
                    self._expand(ns, Q.SECTION_CHUNK_IDS, "ids", list(section_score), ctx),
                    self._expand(ns, Q.ENTITY_CHUNK_IDS, "names", list(entity_score), ctx),
                    self._expand(ns, Q.ENTITY_PAGE_CHUNK_IDS, "names", list(entity_score), ctx),
                    self._expand(ns, Q.BRIDGE_CHUNK_IDS, "ids", seeds, ctx),
                )
            )

    async def _expand(
        self, ns: str, cypher: str, key: str, sources: list[str], ctx: RunContext[Any]
    ) -> list[dict[str, Any]]:
        """One graph expansion from ``sources`` (bound to ``$key``), ``chunks_per_node`` rows per source at most; a
        failed read degrades to no rows and says so."""
        if not sources:
            return []
        limit = self.config.chunks_per_node * len(sources)
        try:
            return await self.deps.graph.read(ns, cypher, {key: sources, "limit": limit}, max_rows=limit)
        except AppError as exc:
            ctx.degraded(self.deps.graph.backend, "graph", f"graph store: expansion unavailable ({exc.code})")
            return []

    # --- fusion -----------------------------------------------------------------------------------------------
    def fuse(self, ids: list[str], feats: dict[str, Features], ctx: RunContext[HybridTrace]) -> list[float]:
        fusion = self.config.fusion
        ctx.trace.fusion = fusion
        rows = [feats[c] for c in ids]
        if fusion == "learned":
            model = self.model()
            ctx.trace.model = (self.config.model_path or PACKAGED_MODEL).name
            return [float(x) for x in model.score(rows)]
        return fuse_baseline(fusion, ids, rows, self.config.rrf_k)

    async def _rerank(
        self, question: str, items: list[RetrievedItem], ctx: RunContext[HybridTrace]
    ) -> list[RetrievedItem]:
        items = sorted(items, key=lambda it: -it.score)
        top, rest = items[: self.config.rerank_top], items[self.config.rerank_top :]
        scores = await self.rerank_scores(question, [it.text for it in top], ctx)
        if scores is None:
            return items
        ctx.trace.reranked = len(top)
        for it, s in zip(top, scores, strict=True):
            it.provenance["rerank_score"] = float(s)
        by_ce = sorted(top, key=lambda it: -it.provenance["rerank_score"])
        fused = rrf([[it.id for it in top], [it.id for it in by_ce]], self.config.rerank_rrf_k)
        floor = min(fused.values())
        for it in top:
            it.provenance["fused_score"] = it.score
            it.score = fused[it.id]
        for i, it in enumerate(rest):  # below every reranked item, in fused order
            it.provenance["fused_score"] = it.score
            it.score = floor - 1.0 - i * 1e-3
        return top + rest


def fuse_baseline(fusion: str, ids: list[str], rows: list[Features], rrf_k: int) -> list[float]:
    """Scores of the unlearned fusions: ``rrf`` over the six signals, ``naive`` (candidates with a path score by
    it, then the rest by cosine), or one signal alone (missing below every present score; ties by cosine)."""
    if fusion == "rrf":
        rankings = [
            [c for c, _ in sorted(((c, r[s]) for c, r in zip(ids, rows, strict=True) if s in r), key=lambda x: -x[1])]
            for s in BASE_SIGNALS
        ]
        fused = rrf([r for r in rankings if r], rrf_k)
        return [fused.get(c, 0.0) for c in ids]
    if fusion == "naive":
        return [(10.0 + r["path"]) if "path" in r else r.get("vector", -1.0) for r in rows]
    return [(1000.0 + r[fusion] if fusion in r else 0.0) + 1e-3 * r.get("vector", 0.0) for r in rows]
