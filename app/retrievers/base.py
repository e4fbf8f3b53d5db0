"""The retriever contract.

``Retriever.retrieve()`` is concrete: it validates the query, times the call, runs the abstract ``_retrieve()``,
then ranks, truncates and stamps every item with the retriever's name. Retrievers get their dependencies in the
constructor (``RetrieverDeps``) and keep no global state; ``warm_up()`` does any heavy preparation.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar

from app.errors import AppError
from app.llm.base import LLM
from app.models.embedder import Embedder
from app.observability import RETRIEVALS, stage
from app.retrievers.types import RetrievalQuery, RetrievalResult, RetrievedItem
from app.settings import Settings
from app.stores.graph.base import GraphStore
from app.stores.vector.base import VectorStore


@dataclass
class RetrieverDeps:
    settings: Settings
    graph: GraphStore
    vectors: VectorStore
    embedder: Embedder
    llm: LLM | None = None
    reranker: Any = None
    text2cypher_llm: Any = None
    """A separate model for text2cypher (the local model with a LoRA adapter), when configured."""


@dataclass
class RunContext:
    """Per-call scratch space: stage timings, warnings about degraded dependencies, and a free-form trace."""

    mode: str
    timings_ms: dict[str, float] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    trace: dict[str, Any] = field(default_factory=dict)

    def stage(self, name: str) -> Any:
        return stage(name, self.mode, self.timings_ms)


class Retriever(ABC):
    name: ClassVar[str]
    description: ClassVar[str] = ""
    produces_cypher: ClassVar[bool] = False
    """True for modes that answer by executing a Cypher query (``trace["cypher"]``: query, rows, error)."""

    def __init__(self, deps: RetrieverDeps) -> None:
        self.deps = deps
        self.settings = deps.settings

    async def warm_up(self) -> None:  # noqa: B027 - an optional hook, empty by default
        """Heavy, idempotent preparation (loading models, compiling tables)."""

    def invalidate(self, namespace: str) -> None:  # noqa: B027 - an optional hook, empty by default
        """Drop anything cached about ``namespace`` (called after every ingest into it)."""

    async def retrieve(self, query: RetrievalQuery) -> RetrievalResult:
        query = RetrievalQuery.model_validate(query.model_dump())
        ctx = RunContext(mode=self.name)
        t0 = time.perf_counter()
        try:
            items = await self._retrieve(query, ctx)
        except AppError:
            RETRIEVALS.labels(mode=self.name, outcome="error").inc()
            raise
        items = sorted(items, key=lambda it: it.score, reverse=True)[: query.top_k]
        for it in items:
            it.retriever = self.name
        ctx.timings_ms["total"] = round(1000 * (time.perf_counter() - t0), 3)
        RETRIEVALS.labels(mode=self.name, outcome="ok" if items else "empty").inc()
        return RetrievalResult(
            retriever=self.name,
            items=items,
            timings_ms=ctx.timings_ms,
            warnings=ctx.warnings,
            trace=ctx.trace,
        )

    @abstractmethod
    async def _retrieve(self, query: RetrievalQuery, ctx: RunContext) -> list[RetrievedItem]:
        """Return candidate items (any order, any count); the base class ranks and truncates."""
