"""Everything the running service holds, built and closed by the app's lifespan (or by the CLI for offline jobs).

Start order: data-dir lock -> graph store -> vector store -> embedder -> LLMs (by role) -> reranker -> retrievers ->
result cache. Close order is the reverse, and every step runs even when an earlier one failed.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.cache import ResultCache
from app.ingest.service import Ingestor
from app.llm import LLM, LLMs, build_llms
from app.models.embedder import Embedder
from app.models.reranker import Reranker, build_reranker
from app.retrievers.base import RetrieverDeps, Retrievers
from app.retrievers.linking import EntityLinker
from app.retrievers.registry import build_retrievers
from app.services.qa import QAService
from app.settings import Settings
from app.stores.embedded import DataDirLock
from app.stores.graph import GraphStore, build_graph_store
from app.stores.graph.profile import SchemaProfiler
from app.stores.lexical import LexicalIndex
from app.stores.vector import VectorStore, build_vector_store
from app.text2cypher.config import Text2CypherConfig
from app.text2cypher.lexicon import load as load_lexicon

log = logging.getLogger(__name__)


def uses_embedded_storage(settings: Settings) -> bool:
    return (settings.graph.backend == "falkordb" and settings.graph.falkordb_url is None) or (
        settings.vector.mode == "local"
    )


def question_tokens(answer: Any, embedder: Embedder) -> Callable[[str], int]:
    """What the question limit counts: the answer model's tokens when it runs here (its prompt is what a long
    question costs), else the embedder's word pieces."""
    count: Callable[[str], int] | None = getattr(answer, "count_tokens", None)
    return count if count is not None else embedder.count_tokens


def _model_notes(settings: Settings, embedder: Embedder, llms: LLMs, reranker: Reranker | None) -> list[str]:
    """What operators should see at start-up: which embedder, reranker and role adapters are in use."""
    notes = [
        f"embedder: {embedder.describe()}",
        f"reranker: {reranker.describe()}"
        if reranker is not None
        else "reranker: none (backend off, or no model configured and the packaged ONNX cross-encoder is not "
        "installed); results keep the first-stage order",
    ]
    for role in sorted(llms.tuned):
        r = settings.llm.roles()[role]
        what = f"LoRA adapter {r.adapter}" if r.adapter is not None else f"worker LoRA adapter {r.vllm_lora}"
        notes.append(f"{role}: {what}")
    return notes


def _language(settings: Settings) -> str:
    """The lexicon questions are read in (text2cypher's ``lexicon``): the linker reads its own words as no names."""
    return Text2CypherConfig.model_validate(settings.modes.get("text2cypher", {})).lexicon


@dataclass
class Container:
    settings: Settings
    deps: RetrieverDeps
    """The stores, models and shared linker: what every mode was built with (the same object each holds)."""
    retrievers: Retrievers
    qa: QAService
    ingestor: Ingestor
    lock: DataDirLock | None = None
    notes: list[str] = field(default_factory=list)
    """Start-up facts worth showing to operators (e.g. which reranker is in use)."""
    cache: ResultCache | None = None
    """Result cache of /retrieve and /ask (None: ``cache.backend=off``)."""
    warming: set[asyncio.Task[bool]] = field(default_factory=set)
    """Namespaces being prepared in the background after an ingest (``warm_later``)."""

    @property
    def graph(self) -> GraphStore:
        return self.deps.graph

    @property
    def profiler(self) -> SchemaProfiler:
        return self.deps.linker.profiler

    @property
    def vectors(self) -> VectorStore:
        return self.deps.vectors

    @property
    def embedder(self) -> Embedder:
        return self.deps.embedder

    @property
    def llms(self) -> LLMs:
        return self.deps.llms

    @property
    def llm(self) -> LLM | None:
        """The answer model."""
        return self.deps.llms.answer

    @property
    def reranker(self) -> Reranker | None:
        return self.deps.reranker

    @classmethod
    async def start(cls, settings: Settings, *, with_llm: bool = True, modes: Sequence[str] | None = None) -> Container:
        lock = DataDirLock(settings.data_dir) if uses_embedded_storage(settings) else None
        graph = build_graph_store(settings)
        vectors = build_vector_store(settings)
        e = settings.embedder
        embedder = Embedder(
            e.model,
            batch_size=e.batch_size,
            batch_tokens=e.batch_tokens,
            device=e.device,
            max_queue=e.max_queue,
            timeout_s=e.timeout_s,
            query_instruction=e.query_instruction,
            match_floor=e.match_floor,
            max_length=e.max_length,
            threads=e.threads,
            passes_at_once=e.passes_at_once,
        )
        llms = build_llms(settings, enabled=with_llm)
        reranker = build_reranker(settings.reranker)
        try:
            if lock is not None:
                lock.acquire()
            await graph.start()
            await vectors.start()
            await asyncio.to_thread(embedder.warm_up)
            await llms.start()
            if reranker is not None:
                await reranker.start()
            profiler = SchemaProfiler(graph, settings.profile)
            linker = EntityLinker(graph, vectors, embedder, profiler, language=load_lexicon(_language(settings)))
            lexical = LexicalIndex(graph)
            deps = RetrieverDeps(
                settings, graph, vectors, embedder, linker, llms=llms, reranker=reranker, lexical=lexical
            )
            retrievers = build_retrievers(deps, modes)
            for r in retrievers.values():
                await r.warm_up()
        except BaseException:
            await _close_all(graph, vectors, embedder, llms, reranker, lock)
            raise
        notes = _model_notes(settings, embedder, llms, reranker)
        cache = ResultCache.connect(settings, graph)
        if cache is not None:
            reachable = "reachable" if await cache.ping() else "NOT reachable (requests are served uncached)"
            notes.append(f"result cache: {settings.cache.backend}, ttl {settings.cache.ttl_s}s, {reachable}")
        notes.append(f"retrieval modes: {', '.join(retrievers)} (default {settings.retrieval.default_mode})")
        for n in notes:
            log.info("%s", n)
        ingestor = Ingestor(settings, graph, vectors, embedder, deps.linker.profiler)
        # after an ingest: the schema profile, the linker's name index, each mode's caches, the result cache's version
        ingestor.on_change += [linker.profiler.invalidate, linker.invalidate, lexical.invalidate]
        ingestor.on_change += [r.invalidate for r in retrievers.values()]
        if cache is not None:
            ingestor.on_change.append(cache.bump_version)  # stale results are never served after an ingest
        return cls(
            settings=settings,
            deps=deps,
            retrievers=retrievers,
            qa=QAService(settings, retrievers, llms.answer, linker, question_tokens(llms.answer, embedder)),
            ingestor=ingestor,
            lock=lock,
            notes=notes,
            cache=cache,
        )

    async def prewarm(self, limit: int) -> list[str]:
        """Prepare (``prepare``), one namespace after another, up to ``limit`` of them by name, so that a first
        question does not wait for their tables. Returns the namespaces prepared."""
        if limit <= 0:
            return []
        try:
            namespaces = sorted(await self.graph.namespaces())[:limit]
        except Exception as exc:  # the store is not answering: built on first use
            log.warning("pre-warm skipped: the graph store's namespaces could not be read (%r)", exc)
            return []
        return [ns for ns in namespaces if await self.prepare(ns)]

    async def prepare(self, namespace: str) -> bool:
        """Build the namespace's schema profile, the entity linker's name index and each mode's tables
        (``BaseRetriever.prepare``); one that fails is logged and left to be built on first use."""
        t0 = time.perf_counter()
        try:
            await self.deps.linker.index(namespace)
            for r in self.retrievers.values():
                await r.prepare(namespace)
        except Exception as exc:  # built on first use instead
            log.warning("pre-warm of namespace %r failed (%r); it is built on first use", namespace, exc)
            return False
        log.info("pre-warmed namespace %r in %.1f s", namespace, time.perf_counter() - t0)
        return True

    def warm_later(self, namespace: str) -> None:
        """``prepare`` the namespace in a task of its own (an ingest's ``on_change``: the ingest is acknowledged
        without waiting for it)."""
        task = asyncio.ensure_future(self.prepare(namespace))
        self.warming.add(task)
        task.add_done_callback(self.warming.discard)

    async def close(self) -> None:
        for task in list(self.warming):
            task.cancel()
        await asyncio.gather(*self.warming, return_exceptions=True)
        await self.ingestor.close()  # ingests still running are left interrupted, for the next start to finish
        if self.cache is not None:
            await self.cache.close()
        await _close_all(self.graph, self.vectors, self.embedder, self.llms, self.reranker, self.lock)


async def _close_all(
    graph: GraphStore,
    vectors: VectorStore,
    embedder: Embedder,
    llms: LLMs,
    reranker: Reranker | None,
    lock: DataDirLock | None,
) -> None:
    steps: list[Callable[[], Awaitable[None]]] = [*(m.close for m in llms.distinct())]
    if reranker is not None:
        steps.append(reranker.close)
    steps += [vectors.close, graph.close]
    for step in steps:
        try:
            await step()
        except Exception:
            log.exception("error while closing")
    embedder.close()
    if lock is not None:
        lock.release()
