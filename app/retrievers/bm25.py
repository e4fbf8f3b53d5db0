"""BM25 over document chunks (``bm25s``): the lexical reference a user would try first, and no model at all."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import Field

from app.errors import DependencyError
from app.retrievers.base import ModeConfig, Retriever, RunContext
from app.retrievers.kg import chunk_item
from app.retrievers.types import ModeTrace, RetrievalQuery, RetrievedItem


class BM25Config(ModeConfig):
    pool: int = Field(1, ge=1, le=20)
    """Hits fetched per requested item (more than 1 only matters when filters drop hits)."""
    graph_fallback: str | None = "triplets"
    """The mode that answers when no document chunk matches (a graph without documents, such as a Cypher script's),
    as ``hybrid``'s: its items are returned with a warning. None: no items then."""


class BM25Trace(ModeTrace):
    hits: int = 0
    """Chunks with a positive BM25 score."""


class BM25Retriever(Retriever[BM25Config, BM25Trace]):
    name = "bm25"
    description = "BM25 (bm25s) over document chunks: the lexical baseline."
    Config = BM25Config
    Trace = BM25Trace

    def required_modes(self) -> Sequence[str]:
        return (self.config.graph_fallback,) if self.config.graph_fallback else ()

    async def _retrieve(self, query: RetrievalQuery, ctx: RunContext[BM25Trace]) -> list[RetrievedItem]:
        if self.deps.lexical is None:
            raise DependencyError("lexical", "no BM25 index in this service")
        with ctx.stage("lexical_search"):
            hits = await self.deps.lexical.search(
                query.namespace, query.question, top_k=query.top_k * self.config.pool, filters=query.filters
            )
        ctx.trace.hits = len(hits)
        if not hits and self.config.graph_fallback:  # no document matches: the graph answers
            res = await self.call_mode(self.config.graph_fallback, query, ctx)
            if res.items:
                ctx.warn(f"bm25: no document chunk matches here; answered from the graph ({res.retriever})")
            return res.items
        return [chunk_item(h, query.namespace) for h in hits]
