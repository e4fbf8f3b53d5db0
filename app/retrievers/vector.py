"""Dense retrieval: embed the question, search the namespace's ``chunks`` collection (and, when the namespace holds
a knowledge graph, its ``entities`` collection, each entity hit expanded into a text of the node's facts), then
optionally rerank with the configured cross-encoder."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from app.cypher import queries as Q
from app.errors import AppError
from app.observability import BACKEND_ERRORS, DEGRADED
from app.retrievers.base import Retriever, RunContext
from app.retrievers.registry import register
from app.retrievers.types import NodeRef, RetrievalQuery, RetrievedItem, Source
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


async def entity_facts_text(deps: Any, namespace: str, name: str, limit: int) -> tuple[str, list[str]]:
    """Textualise an entity's outgoing and incoming facts: ``Name: rel -> other; other -> rel -> Name``."""
    out_rows, in_rows, node_rows = await asyncio.gather(
        deps.graph.read(namespace, Q.ENTITY_OUT_FACTS, {"name": name, "limit": limit}),
        deps.graph.read(namespace, Q.ENTITY_IN_FACTS, {"name": name, "limit": limit}),
        deps.graph.read(namespace, Q.ENTITY_NODE, {"name": name}),
    )
    facts = [f"{name} {r['rel']} {r['other']}" for r in out_rows]
    facts += [f"{r['other']} {r['rel']} {name}" for r in in_rows]
    labels = [x for x in (node_rows[0]["labels"] if node_rows else []) if x != Q.ENTITY_LABEL]
    kind = f" ({', '.join(labels)})" if labels else ""
    text = f"{name}{kind}. " + ". ".join(facts[:limit]) + ("." if facts else "")
    return text, labels


@register
class VectorRetriever(Retriever):
    name = "vector"
    description = "Dense retrieval over document chunks and entity names (all-MiniLM-L6-v2 + Qdrant)."

    async def _retrieve(self, query: RetrievalQuery, ctx: RunContext) -> list[RetrievedItem]:
        deps, ns = self.deps, query.namespace
        with ctx.stage("embed"):
            vector = await deps.embedder.embed_one(query.question)
        reranker = deps.reranker
        fetch = query.top_k * 4 if reranker is not None else query.top_k
        n_entities = self.settings.retrieval.entity_hits
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
        ctx.trace["candidates"] = {"chunks": len(chunk_hits), "entities": len(entity_hits)}
        if reranker is not None and items:
            try:
                with ctx.stage("rerank"):
                    scores = await reranker.score(query.question, [it.text for it in items])
            except AppError as exc:
                # the reranker failed (down, overloaded, too slow): keep the dense order and say so
                BACKEND_ERRORS.labels(backend="reranker").inc()
                DEGRADED.labels(dependency="reranker").inc()
                ctx.warnings.append(f"reranker: unavailable ({exc.code}); results keep the dense order")
                ctx.trace["reranker_error"] = exc.message
                return items
            for it, s in zip(items, scores, strict=True):
                it.provenance["dense_score"] = it.score
                it.score = float(s)
            ctx.trace["reranker"] = reranker.model_name
        return items

    async def _entity_items(self, hits: list[VectorHit], ns: str, ctx: RunContext) -> list[RetrievedItem]:
        limit = self.settings.retrieval.facts_per_entity
        names = [str(h.payload.get("name", "")) for h in hits]
        results = await asyncio.gather(
            *(entity_facts_text(self.deps, ns, n, limit) for n in names), return_exceptions=True
        )
        items = []
        for hit, name, res in zip(hits, names, results, strict=True):
            if isinstance(res, BaseException):
                if not isinstance(res, AppError):
                    raise res
                # the graph failed: keep the bare entity hit and say so
                BACKEND_ERRORS.labels(backend=self.deps.graph.backend).inc()
                DEGRADED.labels(dependency="graph").inc()
                msg = f"graph store: entity facts unavailable ({res.code})"
                if msg not in ctx.warnings:
                    ctx.warnings.append(msg)
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
