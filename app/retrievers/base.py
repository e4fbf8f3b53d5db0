"""The retriever contract: what a retrieval mode is, what it receives, and what it returns.

A mode is one module with one ``Retriever`` subclass, registered under its name in the ``graphrag.retrievers``
entry-point group (``registry.py``). The class declares:

* ``name`` and ``description``;
* ``Config``: a ``ModeConfig`` (pydantic) with documented defaults, filled from the ``modes.<name>`` settings section
  (``GRAPHRAG_MODES__<NAME>__<FIELD>``) and validated when the service starts;
* ``Trace``: a ``ModeTrace`` (pydantic) of what the mode did for one query; the API schema shows it;
* ``_retrieve(query, ctx)``: the work. ``retrieve()`` is concrete: it validates the query, times the call, runs
  ``_retrieve``, then ranks, truncates and stamps every item with the mode's name.

A mode gets everything through ``RetrieverDeps`` (typed: stores, embedder, the LLMs by role, the reranker, the shared
entity linker, and the other enabled modes) and keeps no global state; ``__init__`` is cheap, ``warm_up()`` does
heavy preparation, ``invalidate(namespace)`` drops what it cached about a namespace after an ingest into it.

What a mode must not do: import another mode (call it through ``call_mode``), build its own name index (use
``deps.linker``), hold Cypher text (``app/cypher/``) or speak HTTP.
"""

from __future__ import annotations

import contextvars
import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar, cast

from app.errors import AppError, InvalidInputError
from app.llm.base import LLMs
from app.models.embedder import Embedder
from app.models.reranker import Reranker
from app.observability import BACKEND_ERRORS, DEGRADED, RETRIEVALS, stage
from app.retrievers.linking import EntityLink, EntityLinker
from app.retrievers.types import CypherTrace, ModeTrace, RetrievalQuery, RetrievalResult, RetrievedItem
from app.settings import ModeConfig as ModeConfig
from app.settings import Settings
from app.stores.graph.base import GraphStore
from app.stores.lexical import LexicalHit, LexicalIndex
from app.stores.vector.base import VectorStore

ConfigT = TypeVar("ConfigT", bound=ModeConfig)
TraceT = TypeVar("TraceT", bound=ModeTrace)

# the modes running in this task, outermost first: a mode that calls modes that call it back fails clearly
_CALL_STACK: contextvars.ContextVar[tuple[str, ...]] = contextvars.ContextVar("retriever_call_stack", default=())


@dataclass
class RunContext(Generic[TraceT]):
    """Per-call scratch space: the mode's trace, stage timings, and warnings about degraded dependencies."""

    mode: str
    trace: TraceT
    timings_ms: dict[str, float] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    def stage(self, name: str) -> Any:
        """``with ctx.stage("embed"):`` times a pipeline stage (``graphrag_stage_duration_seconds`` too)."""
        return stage(name, self.mode, self.timings_ms)

    def warn(self, message: str) -> None:
        """Say that a dependency failed and the result is degraded (each message once)."""
        if message not in self.warnings:
            self.warnings.append(message)

    def degraded(self, backend: str, dependency: str, message: str) -> None:
        """A dependency failed and the mode carries on without it: count the backend error and the degradation
        (``graphrag_backend_errors_total``, ``graphrag_degraded_total``) and say so."""
        BACKEND_ERRORS.labels(backend=backend).inc()
        DEGRADED.labels(dependency=dependency).inc()
        self.warn(message)


class Retrievers(dict[str, "Retriever[Any, Any]"]):
    """The enabled modes of a running service, by name. Modes reach each other through it (``deps.modes``)."""

    def get_mode(self, mode: str) -> Retriever[Any, Any]:
        """The mode, or a 422 that lists the enabled modes (``mode`` comes from a request)."""
        try:
            return self[mode]
        except KeyError:
            raise InvalidInputError(
                f"unknown mode {mode!r}; available modes: {', '.join(sorted(self))}",
                details={"available_modes": sorted(self)},
                code="unknown_mode",
            ) from None


@dataclass(frozen=True)
class RetrieverDeps:
    """What a mode may use. One instance is shared by every mode of a service."""

    settings: Settings
    graph: GraphStore
    vectors: VectorStore
    embedder: Embedder
    linker: EntityLinker
    """The one entity linker of the service: name indexes per namespace, built once, dropped on ingest."""
    llms: LLMs = field(default_factory=LLMs)
    """Language models by role: ``llms.answer``, ``llms.text2cypher``, ``llms.agent`` (None when not loaded)."""
    reranker: Reranker | None = None
    """The cross-encoder, when one is configured."""
    modes: Retrievers = field(default_factory=Retrievers)
    """Every enabled mode, for modes that compose others (use ``Retriever.call_mode``)."""
    lexical: LexicalIndex | None = None
    """BM25 over each namespace's document chunks (built on first use, dropped on ingest)."""


class Retriever(ABC, Generic[ConfigT, TraceT]):
    name: ClassVar[str]
    description: ClassVar[str] = ""
    Config: ClassVar[type[ModeConfig]] = ModeConfig
    """The mode's settings model (``modes.<name>``)."""
    Trace: ClassVar[type[ModeTrace]] = ModeTrace
    """The mode's trace model."""
    answers_with_nodes: ClassVar[bool] = False
    """The mode's items are answer nodes (KG modes): ``/ask`` keeps the answer consistent with the top ones."""
    produces_cypher: ClassVar[bool] = False
    """Derived: the mode answers by running a Cypher query (its ``Trace`` is a ``CypherTrace``)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.produces_cypher = issubclass(cls.Trace, CypherTrace)

    def __init__(self, deps: RetrieverDeps, config: ConfigT | None = None) -> None:
        self.deps = deps
        self.settings = deps.settings
        self.config: ConfigT = config if config is not None else cast(ConfigT, self.Config())

    async def warm_up(self) -> None:
        """Heavy, idempotent preparation (loading models, compiling tables)."""

    def invalidate(self, namespace: str) -> None:
        """Drop anything cached about ``namespace`` (called after every ingest into it)."""

    async def prepare(self, namespace: str) -> None:
        """Build what the mode keeps about ``namespace`` before a question needs it (start-up's pre-warm)."""

    def required_modes(self) -> Sequence[str]:
        """Other modes this one calls (checked at start-up: they must be enabled)."""
        return ()

    async def retrieve(self, query: RetrievalQuery) -> RetrievalResult:
        query = RetrievalQuery.model_validate(query.model_dump())
        ctx: RunContext[TraceT] = RunContext(mode=self.name, trace=cast(TraceT, self.Trace()))
        t0 = time.perf_counter()
        token = _CALL_STACK.set((*_CALL_STACK.get(), self.name))
        try:
            items = await self._retrieve(query, ctx)
        except AppError:
            RETRIEVALS.labels(mode=self.name, outcome="error").inc()
            raise
        finally:
            _CALL_STACK.reset(token)
        items = sorted(items, key=lambda it: it.score, reverse=True)[: query.top_k]
        for it in items:
            it.retriever = self.name
        ctx.timings_ms["total"] = round(1000 * (time.perf_counter() - t0), 3)
        RETRIEVALS.labels(mode=self.name, outcome="ok" if items else "empty").inc()
        return RetrievalResult(
            retriever=self.name, items=items, timings_ms=ctx.timings_ms, warnings=ctx.warnings, trace=ctx.trace
        )

    async def call_mode(self, mode: str, query: RetrievalQuery, ctx: RunContext[Any]) -> RetrievalResult:
        """Run another enabled mode on ``query`` (fusion, agents): its warnings join this call's and its stage
        timings are kept under ``<mode>.<stage>``; its items keep its name."""
        if mode in _CALL_STACK.get():
            raise ValueError(f"mode {self.name!r} calls {mode!r}, which is already running in this call: a cycle")
        other = self.deps.modes.get(mode)
        if other is None:
            raise ValueError(f"mode {self.name!r} calls {mode!r}, which is not enabled")
        res = await other.retrieve(query)
        for w in res.warnings:
            ctx.warn(w)
        ctx.timings_ms.update({f"{mode}.{k}": v for k, v in res.timings_ms.items()})
        return res

    async def start_links(self, namespace: str, question: str, ctx: RunContext[Any]) -> list[EntityLink]:
        """The linked mention a mode that starts from a node starts from; where the question names no node, the
        node nearest to the whole question by vector, and a warning says so (every mode answers on any question of
        a graph: a question about a kind of thing, "the oldest orders", is answered from its nearest node's facts
        rather than with nothing); none, with a warning, where there is none either."""
        with ctx.stage("entity_linking"):
            links = await self.deps.linker.link(namespace, question, max_mentions=1)
            if links:
                return links
            try:
                links = await self.deps.linker.nearest(namespace, question)
            except AppError:  # no entity vectors, or the vector store failed: as with no node at all
                links = []
        if links:
            ctx.warn(
                f"{self.name}: the question names no node of this graph; starting from the node nearest to it by "
                f"vector ({links[0].name!r})"
            )
        else:
            await self.warn_unlinked(namespace, ctx)
        return links

    async def warn_unlinked(self, namespace: str, ctx: RunContext[Any]) -> None:
        """Say so when a mode that starts from a linked node finds none in a question over a non-empty graph (a
        question about a kind of thing, "the oldest questions", names no node to start from)."""
        if (await self.deps.graph.counts(namespace))[0]:
            ctx.warn(f"{self.name}: the question names no node of this graph to start from; no items")

    async def rerank_scores(self, question: str, texts: Sequence[str], ctx: RunContext[Any]) -> list[float] | None:
        """The reranker's score of each text against the question (timed as the ``rerank`` stage), or None when no
        reranker is configured or it failed: then a warning says so and the caller keeps its own order."""
        reranker = self.deps.reranker
        if reranker is None or not texts:
            return None
        try:
            with ctx.stage("rerank"):
                return await reranker.score(question, list(texts))
        except AppError as exc:
            # down, overloaded or too slow: the caller keeps its first-stage order and says so
            ctx.degraded(
                "reranker", "reranker", f"reranker: unavailable ({exc.code}); results keep the first-stage order"
            )
            return None

    async def lexical_hits(
        self, query: RetrievalQuery, top_k: int, ctx: RunContext[Any], *, otherwise: str = ""
    ) -> list[LexicalHit] | None:
        """BM25 hits over the namespace's chunks, or None when the service has no BM25 index or the index failed
        (then a warning says so, ending with ``otherwise``: what the caller does instead)."""
        lexical = self.deps.lexical
        if lexical is None:
            return None
        try:
            return await lexical.search(query.namespace, query.question, top_k=top_k, filters=query.filters)
        except AppError as exc:
            ctx.degraded(
                self.deps.graph.backend, "graph", f"graph store: BM25 index unavailable ({exc.code}){otherwise}"
            )
            return None

    async def rerank_or_order(self, question: str, texts: Sequence[str], ctx: RunContext[Any]) -> list[float]:
        """``rerank_scores``, or, without them, the texts' reading order as scores (the first scores highest)."""
        scores = await self.rerank_scores(question, texts, ctx)
        return scores if scores is not None else [-float(i) for i in range(len(texts))]

    @abstractmethod
    async def _retrieve(self, query: RetrievalQuery, ctx: RunContext[TraceT]) -> list[RetrievedItem]:
        """Return candidate items (any order, any count); the base class ranks and truncates."""
