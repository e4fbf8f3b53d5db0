"""Everything the running service holds, built and closed by the app's lifespan (or by the CLI for offline jobs).

Start order: data-dir lock -> graph store -> vector store -> embedder -> LLM -> reranker -> retrievers -> result
cache. Close order is the reverse, and every step runs even when an earlier one failed.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any

from app.cache import ResultCache
from app.ingest.service import Ingestor
from app.llm import LLM, build_llm
from app.models.embedder import Embedder
from app.models.reranker import build_reranker
from app.retrievers.base import RetrieverDeps
from app.retrievers.registry import Retrievers, build_retrievers
from app.services.qa import QAService
from app.settings import Settings
from app.stores.embedded import DataDirLock
from app.stores.graph import GraphStore, build_graph_store
from app.stores.vector import VectorStore, build_vector_store

log = logging.getLogger(__name__)


def uses_embedded_storage(settings: Settings) -> bool:
    return (settings.graph.backend == "falkordb" and settings.graph.falkordb_url is None) or (
        settings.vector.mode == "local"
    )


@dataclass
class Container:
    settings: Settings
    graph: GraphStore
    vectors: VectorStore
    embedder: Embedder
    llm: LLM | None
    reranker: Any
    retrievers: Retrievers
    qa: QAService
    ingestor: Ingestor
    lock: DataDirLock | None = None
    notes: list[str] = field(default_factory=list)
    extra_llms: list[Any] = field(default_factory=list)
    """Start-up facts worth showing to operators (e.g. which reranker is in use)."""
    cache: ResultCache | None = None
    """Result cache of /retrieve and /ask (None: ``cache.backend=off``)."""

    @classmethod
    async def start(cls, settings: Settings, *, with_llm: bool = True, modes: list[str] | None = None) -> Container:
        lock = DataDirLock(settings.data_dir) if uses_embedded_storage(settings) else None
        graph = build_graph_store(settings)
        vectors = build_vector_store(settings)
        e = settings.embedder
        embedder = Embedder(
            e.model, batch_size=e.batch_size, device=e.device, max_queue=e.max_queue, timeout_s=e.timeout_s
        )
        llm = build_llm(settings) if with_llm else None
        notes: list[str] = []
        extra_llms: list[Any] = []
        reranker: Any = None
        try:
            if lock is not None:
                lock.acquire()
            await graph.start()
            await vectors.start()
            await asyncio.to_thread(embedder.warm_up)
            if llm is not None:
                await llm.start()
            reranker = build_reranker(settings.reranker)
            if reranker is not None:
                await reranker.start()
                notes.append(f"reranker: {reranker.describe()}")
            else:
                notes.append(
                    "reranker: none configured (GRAPHRAG_RERANKER__MODEL unset); "
                    "results are ranked by dense cosine similarity"
                )
            t2c_llm: Any = None  # LocalLLM with an adapter, or the worker client with a LoRA
            if with_llm and settings.text2cypher.adapter is not None and settings.llm.backend == "local":
                from app.llm.local import LocalLLM

                t2c_llm = LocalLLM(
                    settings.llm.model,
                    models_dir=settings.model_cache_dir,
                    timeout_s=settings.llm.timeout_s,
                    max_queue=settings.llm.max_queue,
                    threads=settings.llm.threads,
                    adapter=settings.text2cypher.adapter,
                )
                await t2c_llm.start()
                extra_llms.append(t2c_llm)
                notes.append(f"text2cypher: LoRA adapter {settings.text2cypher.adapter}")
            if with_llm and settings.text2cypher.vllm_lora and settings.llm.backend == "vllm":
                from app.llm.vllm_client import VLLMClient

                assert settings.llm.vllm_url is not None
                t2c_llm = VLLMClient(
                    settings.llm.vllm_url,
                    model=settings.llm.vllm_model,
                    timeout_s=settings.llm.timeout_s,
                    lora=settings.text2cypher.vllm_lora,
                )
                await t2c_llm.start()
                extra_llms.append(t2c_llm)
                notes.append(f"text2cypher: worker LoRA adapter {settings.text2cypher.vllm_lora}")
            deps = RetrieverDeps(settings, graph, vectors, embedder, llm, reranker, t2c_llm)
            retrievers = Retrievers(build_retrievers(deps, modes))
            for r in retrievers.values():
                await r.warm_up()
        except BaseException:
            for extra in extra_llms:
                await extra.close()
            if reranker is not None:
                await reranker.close()
            await _close_all(graph, vectors, embedder, llm, lock)
            raise
        cache = ResultCache.connect(settings, graph)
        if cache is not None:
            reachable = "reachable" if await cache.ping() else "NOT reachable (requests are served uncached)"
            notes.append(f"result cache: {settings.cache.backend}, ttl {settings.cache.ttl_s}s, {reachable}")
        for n in notes:
            log.info("%s", n)
        ingestor = Ingestor(settings, graph, vectors, embedder)
        ingestor.on_change += [r.invalidate for r in retrievers.values()]
        if cache is not None:
            ingestor.on_change.append(cache.bump_version)  # stale results are never served after an ingest
        return cls(
            settings=settings,
            graph=graph,
            vectors=vectors,
            embedder=embedder,
            llm=llm,
            reranker=reranker,
            retrievers=retrievers,
            qa=QAService(settings, retrievers, llm),
            ingestor=ingestor,
            lock=lock,
            notes=notes,
            extra_llms=extra_llms,
            cache=cache,
        )

    async def close(self) -> None:
        if self.cache is not None:
            await self.cache.close()
        for extra in self.extra_llms:
            await extra.close()
        if self.reranker is not None:
            await self.reranker.close()
        await _close_all(self.graph, self.vectors, self.embedder, self.llm, self.lock)


async def _close_all(
    graph: GraphStore, vectors: VectorStore, embedder: Embedder, llm: LLM | None, lock: DataDirLock | None
) -> None:
    steps: list[Any] = [llm.close() if llm else None, vectors.close(), graph.close()]
    for step in steps:
        if step is None:
            continue
        try:
            await step
        except Exception:
            log.exception("error while closing")
    embedder.close()
    if lock is not None:
        lock.release()
