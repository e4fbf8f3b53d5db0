"""Dense retrieval: embed the question, search the namespace's ``chunks`` collection (and, when the namespace holds
a knowledge graph, its ``entities`` collection, each entity hit expanded into a text of the node's facts), then
optionally rerank with the configured cross-encoder."""

from __future__ import annotations

import asyncio
import logging

from pydantic import BaseModel, Field

from app.cypher import queries as Q
from app.errors import AppError
from app.observability import BACKEND_ERRORS, DEGRADED
from app.retrievers.base import ModeConfig, Retriever, RunContext
from app.retrievers.types import ModeTrace, NodeRef, RetrievalQuery, RetrievedItem, Source
from app.stores.graph.base import GraphStore
from app.stores.vector.base import VectorHit, collection_name

log = logging.getLogger(__name__)

CHUNKS = "chunks"
ENTITIES = "entities"


def chunk_item(hit: VectorHit, namespace: str) -> RetrievedItem:
    p = hit.payload
    return RetrievedItem(
        id=hit.id,
        text=str(p.get("text", "")),
        score=hit.score,
        source=Source(kind="chunk", title=p.get("title"), chunk_id=hit.id, namespace=namespace),
        retriever="",
        provenance={"collection": CHUNKS, "page_id": p.get("page_id"), "chunk_index": p.get("index")},
    )


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
    entity_hits: int = Field(3, ge=0, le=50)
    """Entity-name hits added (each expanded with the node's facts) when the namespace holds a KG."""
    facts_per_entity: int = Field(12, ge=1, le=200)
    """Outgoing and incoming facts put into an entity hit's text (each direction)."""
    rerank_pool: int = Field(4, ge=1, le=50)
    """With a reranker: chunks fetched per requested item, for the cross-encoder to reorder."""


class CandidateCounts(BaseModel):
    chunks: int = 0
    entities: int = 0


class VectorTrace(ModeTrace):
    candidates: CandidateCounts = Field(default_factory=CandidateCounts)
    """Dense hits before ranking: chunks and entity names."""
    reranker: str | None = None
    """The cross-encoder that reordered the hits, when one did."""
    reranker_error: str | None = None
    """Why the configured reranker did not (the dense order is kept)."""


class VectorRetriever(Retriever[VectorConfig, VectorTrace]):
    name = "vector"
    description = "Dense retrieval over document chunks and entity names (all-MiniLM-L6-v2 + Qdrant)."
    Config = VectorConfig
    Trace = VectorTrace

    async def _retrieve(self, query: RetrievalQuery, ctx: RunContext[VectorTrace]) -> list[RetrievedItem]:
        deps, ns = self.deps, query.namespace
        with ctx.stage("embed"):
            vector = await deps.embedder.embed_one(query.question)
        reranker = deps.reranker
        fetch = query.top_k * self.config.rerank_pool if reranker is not None else query.top_k
        n_entities = self.config.entity_hits
        with ctx.stage("vector_search"):
            chunk_hits, entity_hits = await asyncio.gather(
                deps.vectors.search(collection_name(ns, CHUNKS), vector, top_k=fetch, filters=query.filters),
                deps.vectors.search(collection_name(ns, ENTITIES), vector, top_k=n_entities, filters=query.filters)
                if n_entities
                else asyncio.sleep(0, result=[]),
            )
        items = [chunk_item(h, ns) for h in chunk_hits]
        if entity_hits:
            with ctx.stage("graph_expand"):
                items += await self._entity_items(entity_hits, ns, ctx)
        ctx.trace.candidates = CandidateCounts(chunks=len(chunk_hits), entities=len(entity_hits))
        if reranker is not None and items:
            try:
                with ctx.stage("rerank"):
                    scores = await reranker.score(query.question, [it.text for it in items])
            except AppError as exc:
                # the reranker failed (down, overloaded, too slow): keep the dense order and say so
                BACKEND_ERRORS.labels(backend="reranker").inc()
                DEGRADED.labels(dependency="reranker").inc()
                ctx.warn(f"reranker: unavailable ({exc.code}); results keep the dense order")
                ctx.trace.reranker_error = exc.message
                return items
            for it, s in zip(items, scores, strict=True):
                it.provenance["dense_score"] = it.score
                it.score = float(s)
            ctx.trace.reranker = reranker.model_name
        return items

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
                BACKEND_ERRORS.labels(backend=self.deps.graph.backend).inc()
                DEGRADED.labels(dependency="graph").inc()
                ctx.warn(f"graph store: entity facts unavailable ({res.code})")
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
