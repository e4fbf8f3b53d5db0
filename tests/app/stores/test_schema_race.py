"""Reads and writes of one namespace on the packaged FalkorDB (4.16.3): a read planned while a write adds a label
killed the server (SIGSEGV in ``_GraphContext_GetLabelID``, FalkorDB issue 1784). The store keeps a namespace's
reads apart from its writes (``KeyedReadWriteLock``); other namespaces are not held back."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from app.concurrency import KeyedReadWriteLock
from app.stores.graph.falkordb import FalkorDBGraphStore


async def test_a_writer_excludes_readers_of_its_key_and_waits_for_those_reading() -> None:
    lock = KeyedReadWriteLock()
    log: list[str] = []
    release_reader = asyncio.Event()

    async def reader(name: str, hold: asyncio.Event | None = None) -> None:
        async with lock.reading("ns"):
            log.append(f"{name} in")
            if hold is not None:
                await hold.wait()
            log.append(f"{name} out")

    async def writer() -> None:
        async with lock.writing("ns"):
            log.append("w in")
            await asyncio.sleep(0.01)
            log.append("w out")

    first = asyncio.create_task(reader("r1", release_reader))
    await asyncio.sleep(0)
    w = asyncio.create_task(writer())
    await asyncio.sleep(0)
    late = asyncio.create_task(reader("r2"))  # arrives while the writer waits: it goes after the writer
    other = asyncio.create_task(_other_key(lock, log))  # another key is never held back
    await asyncio.sleep(0.01)
    assert log == ["r1 in", "other"]
    release_reader.set()
    await asyncio.gather(first, w, late, other)
    assert log == ["r1 in", "other", "r1 out", "w in", "w out", "r2 in", "r2 out"]


async def _other_key(lock: KeyedReadWriteLock, log: list[str]) -> None:
    async with lock.writing("other"):
        log.append("other")


async def test_a_cancelled_wait_leaves_the_lock_usable() -> None:
    lock = KeyedReadWriteLock()
    hold = asyncio.Event()

    async def long_read() -> None:
        async with lock.reading("ns"):
            await hold.wait()

    reading = asyncio.create_task(long_read())
    await asyncio.sleep(0)
    waiting_writer = asyncio.create_task(_write(lock))
    await asyncio.sleep(0)
    waiting_writer.cancel()  # given up (a deadline): the readers it held back go on
    await asyncio.wait_for(_read(lock), 1)
    hold.set()
    await reading
    await asyncio.wait_for(_write(lock), 1)


async def _write(lock: KeyedReadWriteLock) -> None:
    async with lock.writing("ns"):
        pass


async def _read(lock: KeyedReadWriteLock) -> None:
    async with lock.reading("ns"):
        pass


async def test_reads_beside_writes_that_add_labels_leave_the_server_alive(tmp_path: Path) -> None:
    """Without the lock this killed the packaged server within seconds (six readers, one writer adding a label a
    statement and dropping the graph every 8)."""
    store = FalkorDBGraphStore(data_dir=tmp_path)
    await store.start()
    try:
        assert store.server is not None
        pid = store.server.pid
        stop = time.monotonic() + 8
        counts = {"writes": 0, "reads": 0}

        async def write() -> None:
            i = 0
            while time.monotonic() < stop:
                if i % 8 == 7:
                    await store.drop_namespace("race")
                await store.execute("race", f"CREATE (:L{i}:M{i % 7} {{name: 'n{i}', k{i}: {i}}})-[:R{i}]->(:N{i})")
                i += 1
            counts["writes"] = i

        async def read() -> None:
            n = 0
            while time.monotonic() < stop:
                await store.read("race", f"MATCH (a:L{n % 500}:M{n % 7})-[r]->(b) RETURN count(r)")
                await store.read("race", "CALL db.labels()")
                n += 1
            counts["reads"] += n

        await asyncio.gather(write(), *(read() for _ in range(6)))
        assert store.server.pid == pid and not store.server.exited()
        assert counts["writes"] > 100 and counts["reads"] > 100
    finally:
        await store.close()
