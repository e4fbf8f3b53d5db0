"""Dynamic micro-batching of (query, document) pairs across requests.

``submit()`` puts all of a request's pairs into one bounded ``asyncio.Queue`` or none of them (``QueueFull`` when
they do not fit as a whole), and returns a future of the request's scores. One loop (``run()``) takes the first
waiting pair, then keeps taking pairs until it holds ``max_batch_pairs`` or ``max_wait_ms`` have passed since the
first, scores the batch with ``model.predict`` in a worker thread, and hands every request its own scores in its own
order. A request may span batches (it is resolved when its last pair is scored) and a batch may hold many requests.
While the model is busy the queue fills up, so under load batches are full without waiting.

A cancelled request (client gone, timeout) cancels its future: its pairs still queued are skipped when they come up,
and results for it are dropped; the loop itself is never cancelled by a request.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol

log = logging.getLogger(__name__)

Pair = tuple[str, str]


class Model(Protocol):
    """What the batcher needs of a model: sentence-transformers ``CrossEncoder.predict`` semantics."""

    def predict(self, sentences: Any, *args: Any, **kwargs: Any) -> Any: ...


class QueueFull(Exception):
    def __init__(self, waiting: int, capacity: int, retry_after_s: int) -> None:
        super().__init__(f"the queue holds {waiting} of {capacity} pairs")
        self.waiting = waiting
        self.capacity = capacity
        self.retry_after_s = retry_after_s


class BatcherStopped(Exception):
    pass


@dataclass(eq=False)
class Job:
    """One request: its pairs, the scores gathered so far and the future the request awaits."""

    pairs: list[Pair]
    future: asyncio.Future[list[float]]
    scores: list[float] = field(default_factory=list)
    left: int = 0

    def __post_init__(self) -> None:
        self.scores = [math.nan] * len(self.pairs)
        self.left = len(self.pairs)


@dataclass
class BatchRecord:
    pairs: int
    requests: int
    seconds: float


class Batcher:
    def __init__(
        self,
        model: Model,
        *,
        max_batch_pairs: int = 64,
        max_wait_ms: float = 5.0,
        max_queue_pairs: int = 2048,
        min_retry_after_s: int = 1,
        max_retry_after_s: int = 30,
        metrics: Any = None,
        keep_records: int = 1000,
    ) -> None:
        self.model = model
        self.max_batch_pairs = max_batch_pairs
        self.max_wait_s = max_wait_ms / 1000.0
        self.min_retry_after_s = min_retry_after_s
        self.max_retry_after_s = max_retry_after_s
        self.metrics = metrics
        self._queue: asyncio.Queue[tuple[Job, int]] = asyncio.Queue(maxsize=max_queue_pairs)
        # one thread: batches run one at a time (a GPU gains nothing from two concurrent forward passes here)
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rerank")
        self._task: asyncio.Task[None] | None = None
        self._pairs_per_s: float | None = None
        self.records: list[BatchRecord] = []
        self._keep_records = keep_records

    # --- requests -------------------------------------------------------------------------------------------------
    @property
    def capacity(self) -> int:
        return self._queue.maxsize

    @property
    def waiting(self) -> int:
        """Pairs in the queue (including pairs of cancelled requests not yet skipped)."""
        return self._queue.qsize()

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def submit(self, query: str, documents: Sequence[str]) -> asyncio.Future[list[float]]:
        """Queue all pairs of one request, or none (``QueueFull``). No ``await`` in here, so the check and the puts
        are atomic with respect to other requests."""
        if not self.running:
            raise BatcherStopped("the batcher is not running")
        loop = asyncio.get_running_loop()
        job = Job(pairs=[(query, d) for d in documents], future=loop.create_future())
        if not job.pairs:
            job.future.set_result([])
            return job.future
        free = self._queue.maxsize - self._queue.qsize()
        if len(job.pairs) > free:
            raise QueueFull(self._queue.qsize(), self._queue.maxsize, self.retry_after_s())
        for i in range(len(job.pairs)):
            self._queue.put_nowait((job, i))
        self._gauge()
        return job.future

    def retry_after_s(self) -> int:
        """Seconds until the queue has drained at the recent throughput, within [min, max]."""
        if not self._pairs_per_s:
            return self.min_retry_after_s
        est = math.ceil(self._queue.qsize() / self._pairs_per_s)
        return max(self.min_retry_after_s, min(self.max_retry_after_s, est))

    # --- the loop -------------------------------------------------------------------------------------------------
    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self.run(), name="rerank-batcher")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        while not self._queue.empty():
            job, _ = self._queue.get_nowait()
            if not job.future.done():
                job.future.set_exception(BatcherStopped("the service is shutting down"))
        self._gauge()
        self._pool.shutdown(wait=False, cancel_futures=True)

    async def _collect(self) -> list[tuple[Job, int]]:
        batch: list[tuple[Job, int]] = []
        first = await self._queue.get()
        if not first[0].future.done():
            batch.append(first)
        deadline = time.monotonic() + self.max_wait_s
        while len(batch) < self.max_batch_pairs:
            try:
                entry = self._queue.get_nowait()
            except asyncio.QueueEmpty:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    break
                try:
                    # cancelling Queue.get never loses an item: it is taken only after the wait has returned
                    async with asyncio.timeout(remaining):
                        entry = await self._queue.get()
                except TimeoutError:
                    break
            if not entry[0].future.done():  # skip pairs of cancelled / failed requests
                batch.append(entry)
        self._gauge()
        return batch

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            batch = await self._collect()
            if not batch:
                continue
            pairs = [job.pairs[i] for job, i in batch]
            t0 = time.perf_counter()
            try:
                raw = await loop.run_in_executor(self._pool, self._predict, pairs)
                scores = [float(s) for s in raw]
                if len(scores) != len(pairs):
                    raise RuntimeError(f"model returned {len(scores)} scores for {len(pairs)} pairs")
            except asyncio.CancelledError:
                for job, _ in batch:
                    if not job.future.done():
                        job.future.set_exception(BatcherStopped("the service is shutting down"))
                raise
            except Exception as exc:
                log.exception("rerank batch of %d pairs failed", len(pairs))
                for job, _ in batch:
                    if not job.future.done():
                        job.future.set_exception(exc)
                continue
            dt = time.perf_counter() - t0
            self._record(len(pairs), len({id(job) for job, _ in batch}), dt)
            for (job, i), s in zip(batch, scores, strict=True):
                if job.future.done():
                    continue
                job.scores[i] = s
                job.left -= 1
                if job.left == 0:
                    job.future.set_result(job.scores)

    def _predict(self, pairs: list[Pair]) -> Any:
        return self.model.predict(pairs, batch_size=len(pairs), convert_to_numpy=True, show_progress_bar=False)

    def _record(self, pairs: int, requests: int, seconds: float) -> None:
        rate = pairs / max(seconds, 1e-6)
        self._pairs_per_s = rate if self._pairs_per_s is None else 0.8 * self._pairs_per_s + 0.2 * rate
        self.records.append(BatchRecord(pairs, requests, seconds))
        if len(self.records) > self._keep_records:
            del self.records[: len(self.records) - self._keep_records]
        if self.metrics is not None:
            self.metrics.batch_pairs.observe(pairs)
            self.metrics.batch_requests.observe(requests)
            self.metrics.batch_seconds.observe(seconds)

    def _gauge(self) -> None:
        if self.metrics is not None:
            self.metrics.queue_depth.set(self._queue.qsize())
