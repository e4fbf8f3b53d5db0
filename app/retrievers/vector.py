"""Dense passage retrieval + cross-encoder rerank (DPR, K1 -> K2).

First stage: embed the question and search the namespace's ``chunks`` collection (``first_stage=hybrid`` adds BM25
over the same chunks, fused by reciprocal rank); when the namespace holds a knowledge graph, its ``entities``
collection too, each entity hit expanded into a text of the node's facts. The top ``rerank_candidates`` (K1) go to
the cross-encoder, which orders them; the caller's ``top_k`` (K2) are returned. ``min_rerank_score`` drops weakly
relevant items, so weak context is not handed to the answer model."""

from __future__ import annotations

import asyncio
import logging
from typing import Literal

from pydantic import BaseModel, Field

from app.cypher import queries as Q
from app.errors import AppError
from app.models.fusion import rrf
from app.retrievers.base import ModeConfig, Retriever, RunContext
from app.retrievers.kg import CHUNKS, ENTITIES, chunk_item
from app.retrievers.types import ModeTrace, NodeRef, RetrievalQuery, RetrievedItem, Source
from app.stores.graph.base import GraphStore
from app.stores.vector.base import VectorHit, collection_name

log = logging.getLogger(__name__)


async def entity_facts_text(graph: GraphStore, namespace: str, name: str, limit: int) -> tuple[str, list[str]]:
    """Textualise an entity's outgoing and incoming facts: ``Name: rel -> other; other -> rel -> Name``."""
    out_rows, in_rows, node_rows = await asyncio.gather(
        graph.read(namespace, Q.ENTITY_OUT_FACTS, {"name": name, "limit": limit}),
        graph.read(namespace, Q.ENTITY_IN_FACTS, {"name": name, "limit": limit}),
        graph.read(namespace, Q.ENTITY_NODE, {"name": name}),
    )
    facts = [f"{name} {r['rel']} {r['other']}" for r in out_rows]
    facts += [f"{r['other']} {r['rel']} {name}" for r in in_rows]
    labels = [x for x in (node_rows[0]["labels"] if node_rows else []) if x != Q.ENTITY_LABEL]
    kind = f" ({', '.join(labels)})" if labels else ""
    text = f"{name}{kind}. " + ". ".join(facts[:limit]) + ("." if facts else "")
    return text, labels


class VectorConfig(ModeConfig):
    first_stage: Literal["dense", "hybrid"] = "dense"
    """``dense``: the embedder alone; ``hybrid``: dense and BM25 (``bm25s``) fused by reciprocal rank."""
    rerank_candidates: int = Field(20, ge=1, le=500)
    """K1: first-stage chunks handed to the cross-encoder (with the entity items). A ``top_k`` above it fetches
    more chunks, which follow the reranked ones in first-stage order (dropped when ``min_rerank_score`` is set). Its
    cost grows linearly: ~0.05 s per passage pair on one CPU thread. 20 -> 12 keeps HotpotQA-100 / MuSiQue-100 R@5
    (89.5 / 71.6 -> 89.5 / 71.8) at p50 1.00 / 0.94 s -> 0.71 / 0.73 s, but the demo's answers fall from 18 to 14 of
    24 (16 at K1 = 16): its right passage is often ranked 13-20 by bge (see reports/summary.md)."""
    rerank_fusion: Literal["replace", "rrf"] = "rrf"
    """``replace``: the cross-encoder's order; ``rrf``: its rank fused with the first-stage rank (reciprocal rank,
    constant ``rerank_rrf_k``). Measured on HotpotQA/MuSiQue-100: a passage-level cross-encoder alone demotes
    the bridge passages multi-hop questions need; fusing keeps them."""
    rerank_rrf_k: int = Field(5, ge=1, le=1000)
    """Reciprocal-rank constant of ``rerank_fusion=rrf`` (small: the top ranks of either list dominate)."""
    min_rerank_score: float | None = None
    """Drop reranked items scoring below this logit (weak context lowers answer accuracy); unset = keep all."""
    rrf_k: int = Field(60, ge=1, le=1000)
    """Reciprocal-rank-fusion constant of the hybrid first stage."""
    entity_hits: int = Field(3, ge=0, le=50)
    """Entity-name hits added (each expanded with the node's facts) when the namespace holds a KG."""
    facts_per_entity: int = Field(12, ge=1, le=200)
    """Outgoing and incoming facts put into an entity hit's text (each direction)."""


class CandidateCounts(BaseModel):
    chunks: int = 0
    lexical: int = 0
    entities: int = 0


class VectorTrace(ModeTrace):
    candidates: CandidateCounts = Field(default_factory=CandidateCounts)
    """First-stage hits before ranking: dense chunks, BM25 chunks (hybrid) and entity names."""
    reranker: str | None = None
    """The cross-encoder that reordered the hits, when one did."""
    reranked: int = 0
    """Items the cross-encoder scored (K1 chunks + entity items)."""
    below_threshold: int = 0
    """Items dropped for scoring under ``min_rerank_score``."""


class VectorRetriever(Retriever[VectorConfig, VectorTrace]):
    name = "vector"
    description = (
        "Dense (optionally + BM25) retrieval over document chunks and entity names, reranked by the cross-encoder."
    )
    Config = VectorConfig
    Trace = VectorTrace

    async def _retrieve(self, query: RetrievalQuery, ctx: RunContext[VectorTrace]) -> list[RetrievedItem]:
        deps, ns, cfg = self.deps, query.namespace, self.config
        with ctx.stage("embed"):
            vector = await deps.embedder.embed_query(query.question)
        rerank = deps.reranker is not None
        fetch = max(query.top_k, cfg.rerank_candidates) if rerank else query.top_k
        hybrid = cfg.first_stage == "hybrid" and deps.lexical is not None
        with ctx.stage("vector_search"):
            chunk_hits, entity_hits = await asyncio.gather(
                deps.vectors.search(collection_name(ns, CHUNKS), vector, top_k=fetch, filters=query.filters),
                deps.vectors.search(collection_name(ns, ENTITIES), vector, top_k=cfg.entity_hits, filters=query.filters)
                if cfg.entity_hits
                else asyncio.sleep(0, result=[]),
            )
        items = [chunk_item(h, ns) for h in chunk_hits]
        if hybrid:
            items = await self._fuse(query, items, fetch, ctx)
        # K1: the first ``rerank_candidates`` chunks (and the entity items) go to the cross-encoder; chunks fetched
        # beyond them (a ``top_k`` above K1) keep their first-stage order below the reranked ones
        items, rest = items[: cfg.rerank_candidates], items[cfg.rerank_candidates :]
        if entity_hits:
            with ctx.stage("graph_expand"):
                items += await self._entity_items(entity_hits, ns, ctx)
        ctx.trace.candidates.chunks, ctx.trace.candidates.entities = len(chunk_hits), len(entity_hits)
        scores = await self.rerank_scores(query.question, [it.text for it in items], ctx) if items else None
        if scores is None:
            return items + rest
        ranked = self._reranked(items, scores, ctx)
        if cfg.min_rerank_score is not None:
            return ranked  # only context the cross-encoder vouched for
        floor = min((it.score for it in ranked), default=0.0)
        for i, it in enumerate(rest):  # below every reranked item, in first-stage order
            it.provenance["first_stage_score"] = it.score
            it.score = floor - 1.0 - i * 1e-3
        return ranked + rest

    def _reranked(
        self, items: list[RetrievedItem], scores: list[float], ctx: RunContext[VectorTrace]
    ) -> list[RetrievedItem]:
        """``items`` scored by the cross-encoder (``rerank_fusion``), weak ones dropped (``min_rerank_score``)."""
        deps, cfg = self.deps, self.config
        assert deps.reranker is not None
        ctx.trace.reranker, ctx.trace.reranked = deps.reranker.model_name, len(items)
        for it, s in zip(items, scores, strict=True):
            it.provenance["first_stage_score"] = it.score
            it.provenance["rerank_score"] = float(s)
        if cfg.min_rerank_score is not None:
            kept = [it for it in items if it.provenance["rerank_score"] >= cfg.min_rerank_score]
            ctx.trace.below_threshold = len(items) - len(kept)
            items = kept
        if cfg.rerank_fusion == "replace":
            for it in items:
                it.score = it.provenance["rerank_score"]
            return items
        first = sorted(items, key=lambda it: -it.provenance["first_stage_score"])
        second = sorted(items, key=lambda it: -it.provenance["rerank_score"])
        fused = rrf([[it.id for it in first], [it.id for it in second]], cfg.rerank_rrf_k)
        for it in items:
            it.score = fused[it.id]
        return items

    async def _fuse(
        self, query: RetrievalQuery, dense: list[RetrievedItem], fetch: int, ctx: RunContext[VectorTrace]
    ) -> list[RetrievedItem]:
        """Dense and BM25 chunks fused by reciprocal rank (the fused score replaces the dense one); a failed BM25
        index keeps the dense list and says so."""
        with ctx.stage("lexical_search"):
            lexical = await self.lexical_hits(query, fetch, ctx, otherwise="; dense results only")
        if lexical is None:
            return dense
        ctx.trace.candidates.lexical = len(lexical)
        by_id = {it.id: it for it in dense}
        dense_ids = set(by_id)
        for h in lexical:
            by_id.setdefault(h.id, chunk_item(h, query.namespace))
        fused = rrf([[it.id for it in dense], [h.id for h in lexical]], self.config.rrf_k)
        for key, it in by_id.items():
            it.provenance["dense_score" if key in dense_ids else "bm25_score"] = it.score
            it.score = fused[key]
        return sorted(by_id.values(), key=lambda it: -it.score)[:fetch]

    async def _entity_items(self, hits: list[VectorHit], ns: str, ctx: RunContext[VectorTrace]) -> list[RetrievedItem]:
        limit = self.config.facts_per_entity
        names = [str(h.payload.get("name", "")) for h in hits]
        results = await asyncio.gather(
            *(entity_facts_text(self.deps.graph, ns, n, limit) for n in names), return_exceptions=True
        )
        items = []
        for hit, name, res in zip(hits, names, results, strict=True):
            if isinstance(res, BaseException):
                if not isinstance(res, AppError):
                    raise res
                # the graph failed: keep the bare entity hit and say so
                ctx.degraded(self.deps.graph.backend, "graph", f"graph store: entity facts unavailable ({res.code})")
                text, labels = name, list[str]()
            else:
                text, labels = res
            node_id = str(hit.payload.get("node_id", hit.id))
            items.append(
                RetrievedItem(
                    id=node_id,
                    text=text,
                    score=hit.score,
                    source=Source(kind="node", node_id=node_id, node_name=name, namespace=ns),
                    retriever="",
                    node=NodeRef(id=node_id, name=name, labels=labels),
                    provenance={"collection": ENTITIES},
                )
            )
        return items
