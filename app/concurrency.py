"""Bounded execution of blocking model calls off the event loop, and the locks the stores share.

CPU/GPU work (embedding, local generation) runs on a small thread pool. A semaphore bounds how many jobs may wait;
when it is exhausted the caller gets ``OverloadedError`` (503 + Retry-After) at once instead of piling up work.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Generic, TypeVar

from app.errors import DependencyTimeoutError, OverloadedError

T = TypeVar("T")


class BoundedExecutor:
    def __init__(self, name: str, *, workers: int = 1, max_queue: int = 8) -> None:
        self.name = name
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix=name)
        self._slots = asyncio.BoundedSemaphore(workers + max_queue)
        self._capacity = workers + max_queue

    @property
    def in_flight(self) -> int:
        return self._capacity - self._slots._value

    async def run(self, fn: Callable[..., T], *args: Any, timeout_s: float | None = None) -> T:
        if self._slots.locked():
            raise OverloadedError(f"{self.name} queue is full ({self._capacity} jobs)", retry_after_s=2)
        async with self._slots:
            loop = asyncio.get_running_loop()
            ctx = contextvars.copy_context()
            fut = loop.run_in_executor(self._pool, functools.partial(ctx.run, fn, *args))
            try:
                return await asyncio.wait_for(fut, timeout_s)
            except TimeoutError as exc:
                raise DependencyTimeoutError(self.name, f"no result within {timeout_s:.0f}s") from exc

    def shutdown(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


class BuiltOnce(Generic[T]):
    """Values built on first use, once per key (concurrent callers of one key wait for the one build), kept until
    ``invalidate(key)``: e.g. per-namespace indexes dropped when the namespace is re-ingested."""

    def __init__(self) -> None:
        self._values: dict[str, T] = {}
        self._locks: dict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._generation: dict[str, int] = defaultdict(int)

    def invalidate(self, key: str) -> None:
        self._values.pop(key, None)
        self._generation[key] += 1

    def built(self, key: str) -> bool:
        return key in self._values

    async def get(self, key: str, build: Callable[[], Awaitable[T]]) -> T:
        """The value of ``key``, built now if it is not kept. One invalidated while it was being built (an ingest
        that ended meanwhile) is returned to its callers but not kept: the next call builds it again."""
        if key not in self._values:
            async with self._locks[key]:
                if key not in self._values:
                    generation = self._generation[key]
                    value = await build()
                    if self._generation[key] != generation:
                        return value
                    self._values[key] = value
        return self._values[key]


class _Gate:
    """One key's state in ``KeyedReadWriteLock``."""

    def __init__(self) -> None:
        self.readers = 0
        self.writer = False
        self.writers_waiting = 0
        self.waiters: list[asyncio.Future[None]] = []

    def wake(self) -> None:
        for waiter in self.waiters:
            if not waiter.done():
                waiter.set_result(None)
        self.waiters.clear()

    async def until(self, ready: Callable[[], bool]) -> None:
        while not ready():
            waiter = asyncio.get_running_loop().create_future()
            self.waiters.append(waiter)
            await waiter  # a cancelled wait has changed nothing


class KeyedReadWriteLock:
    """Per key, any number of readers at once or one writer alone; a waiting writer holds back new readers (a
    steady stream of reads cannot starve a write). Cancelling a wait, or a holder, leaves the lock consistent."""

    def __init__(self) -> None:
        self._gates: dict[str, _Gate] = defaultdict(_Gate)  # one per key for good: a namespace's few bytes

    @contextlib.asynccontextmanager
    async def reading(self, key: str) -> AsyncIterator[None]:
        gate = self._gates[key]
        try:
            await gate.until(lambda: not gate.writer and not gate.writers_waiting)
        except BaseException:
            gate.wake()
            raise
        gate.readers += 1
        try:
            yield
        finally:
            gate.readers -= 1
            gate.wake()

    @contextlib.asynccontextmanager
    async def writing(self, key: str) -> AsyncIterator[None]:
        gate = self._gates[key]
        gate.writers_waiting += 1
        try:
            await gate.until(lambda: not gate.writer and not gate.readers)
        except BaseException:
            gate.writers_waiting -= 1
            gate.wake()
            raise
        gate.writers_waiting -= 1
        gate.writer = True
        try:
            yield
        finally:
            gate.writer = False
            gate.wake()
