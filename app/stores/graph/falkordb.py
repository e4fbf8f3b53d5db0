"""FalkorDB implementation of ``GraphStore`` (the embedded default, or an external FalkorDB server).

One namespace = one FalkorDB graph key. Reads go through ``GRAPH.RO_QUERY`` so the engine itself refuses writes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import shutil
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import redis.exceptions as redis_errors

from app.concurrency import KeyedReadWriteLock
from app.cypher import queries as Q
from app.errors import DependencyError, DependencyTimeoutError, OverloadedError, QueryRejectedError
from app.stores.embedded import EmbeddedFalkorServer
from app.stores.graph.base import (
    WRITE_FENCE,
    GraphSchema,
    NodeValue,
    Record,
    WriteSummary,
    check_namespace,
    same_life,
    triples_from_rows,
    visible_labels,
    write_in_batches,
)
from app.stores.graph.liveness import ServerWatch

log = logging.getLogger(__name__)

T = TypeVar("T")


def _convert(value: Any) -> Any:
    from falkordb.edge import Edge
    from falkordb.node import Node

    if isinstance(value, Node):
        return NodeValue(str(value.id), list(value.labels or []), dict(value.properties or {}))
    if isinstance(value, Edge):
        return {"type": value.relation, "properties": dict(value.properties or {})}
    if isinstance(value, list):
        return [_convert(v) for v in value]
    return value


DEADLINE_GRACE_S = 2.0
"""How long past a write's own timeout the client waits for a server that does not answer."""
SERVER_SHARE = 0.9
"""The share of a read's deadline given to the server's own timeout; the client gives up at the deadline itself."""


class FalkorDBGraphStore:
    backend = "falkordb"

    def __init__(
        self,
        *,
        data_dir: Path | None = None,
        url: str | None = None,
        query_timeout_s: float = 10.0,
        write_timeout_s: float = 300.0,
        connect_timeout_s: float = 10.0,
        write_batch_size: int = 2000,
        max_result_rows: int = 1000,
        startup_timeout_s: float = 30.0,
        max_concurrency: int = 16,
        queue_timeout_s: float = 2.0,
        vet_timeout_s: float = 10.0,
        query_memory_mb: int = 2048,
        hang_after_s: float = 60.0,
    ) -> None:
        if url is None and data_dir is None:
            raise ValueError("FalkorDBGraphStore needs a data_dir (embedded) or a url (external server)")
        self.url = url
        self.server = (
            EmbeddedFalkorServer(
                data_dir,
                startup_timeout_s=startup_timeout_s,
                query_memory_mb=query_memory_mb,
                hang_after_s=hang_after_s,
            )
            if data_dir is not None and url is None
            else None
        )
        self.query_timeout_s = query_timeout_s
        self.write_timeout_s = write_timeout_s
        self.connect_timeout_s = connect_timeout_s
        self.write_batch_size = write_batch_size
        self.max_result_rows = max_result_rows
        self.max_concurrency = max_concurrency
        self.queue_timeout_s = queue_timeout_s
        self.vet_timeout_s = vet_timeout_s
        """Longest a script statement may take to plan on the throwaway server (``vet``); 0: no vetting."""
        self._slots = asyncio.Semaphore(max_concurrency)
        self._schema_lock = KeyedReadWriteLock()
        """A namespace's reads wait while a write runs on it, and a write waits for its reads: FalkorDB before 4.18
        (the packaged 4.16.3) plans a read over the graph's label and type arrays while a write that adds a label
        may move them, and the server dies (SIGSEGV in ``_GraphContext_GetLabelID``; FalkorDB issue 1784, fixed in
        4.18/4.20). Each query holds it alone, so a long ingest lets reads in between its batches."""
        self._db: Any = None
        self.watch = ServerWatch(self.backend, self._raw_ping, answer_within_s=query_timeout_s)
        self._supervisor: asyncio.Task[None] | None = None

    # lifecycle ----------------------------------------------------------------------------------------------
    async def start(self) -> None:
        if self._db is not None:
            return
        from falkordb.asyncio import FalkorDB

        # the socket timeout must outlast the longest server-side query timeout
        socket_timeout = max(self.query_timeout_s, self.write_timeout_s) + 5
        if self.server is not None:
            await self.server.start()
            self._supervisor = asyncio.create_task(self.server.supervise())
            self._db = FalkorDB(
                unix_socket_path=self.server.socket_path,
                socket_timeout=socket_timeout,
                socket_connect_timeout=self.connect_timeout_s,
                max_connections=self.max_concurrency + 4,  # + pings and saves
            )
        else:
            assert self.url is not None
            self._db = FalkorDB.from_url(
                self.url,
                socket_timeout=socket_timeout,
                socket_connect_timeout=self.connect_timeout_s,
                max_connections=self.max_concurrency + 4,
            )

    async def close(self) -> None:
        await self.watch.close()
        db, self._db = self._db, None
        task, self._supervisor = self._supervisor, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if db is not None:
            await db.aclose()
        if self.server is not None:
            await self.server.stop()

    async def flush(self) -> None:
        """Make what was written durable before it is acknowledged: the embedded server saves its graph to disk
        (an external FalkorDB's persistence is its operator's)."""
        if self.server is not None and self._db is not None:
            await self.server.save(self.write_timeout_s)

    @property
    def redis_connection_kwargs(self) -> dict[str, Any]:
        """How a plain Redis client reaches this server (the embedded cache lives here too)."""
        if self.server is not None:
            return {"unix_socket_path": self.server.socket_path}
        assert self.url is not None
        return {"url": self.url}

    def _graph(self, namespace: str) -> Any:
        if self._db is None:
            raise DependencyError("falkordb", "graph store is not started")
        return self._db.select_graph(check_namespace(namespace))

    async def _raw_ping(self) -> bool:
        return self._db is not None and bool(await self._db.connection.ping())

    async def ping(self) -> bool:
        try:
            return await self._raw_ping()
        except (redis_errors.RedisError, OSError):
            return False

    # queries ------------------------------------------------------------------------------------------------
    def _map_error(self, exc: Exception) -> Exception:
        msg = str(exc)
        if isinstance(exc, redis_errors.ResponseError):
            if "timed out" in msg.lower():
                return DependencyTimeoutError("falkordb", "query timed out")
            if "mem consumption exceeded" in msg.lower():
                return QueryRejectedError(
                    "the query needs more memory than a query may have (graph.query_memory_mb); nothing of it was "
                    "applied"
                )
            return QueryRejectedError(f"the graph engine refused the query: {msg}")
        if isinstance(exc, getattr(redis_errors, "MaxConnectionsError", ())):
            return OverloadedError("graph store busy: no free connection", retry_after_s=1)
        if isinstance(exc, redis_errors.TimeoutError):
            return DependencyTimeoutError("falkordb", "no answer from the server in time")
        return DependencyError("falkordb", f"{type(exc).__name__}: {msg}")

    @contextlib.asynccontextmanager
    async def _slot(self) -> AsyncIterator[None]:
        """One of ``max_concurrency`` query slots, or ``503 overloaded`` after ``queue_timeout_s`` of waiting."""
        try:
            await asyncio.wait_for(self._slots.acquire(), self.queue_timeout_s)
        except TimeoutError:
            raise OverloadedError(
                f"graph store busy: {self.max_concurrency} queries in flight (graph.max_concurrency)",
                retry_after_s=1,
            ) from None
        try:
            yield
        finally:
            self._slots.release()

    async def _reading(self, namespace: str, query: Callable[[], Awaitable[T]]) -> T:
        """``query()`` on the namespace beside its other reads, and apart from its writes (``_schema_lock``), in a
        query slot (the lock first: a query waiting for the lock holds no slot other namespaces could use)."""
        async with self._schema_lock.reading(namespace), self._slot():
            return await query()

    def epoch(self) -> object | None:
        """The embedded server's pid (a restart begins from its last save); ``None`` for an external server."""
        return self.server.pid if self.server is not None else None

    async def _writing(self, namespace: str, query: Callable[[], Awaitable[T]]) -> T:
        async with self._schema_lock.writing(namespace), self._slot():
            same_life(self, WRITE_FENCE.get())
            return await query()

    async def _exists(self, namespace: str) -> bool:
        return check_namespace(namespace) in await self.namespaces()

    async def read(
        self,
        namespace: str,
        cypher: str,
        params: Mapping[str, Any] | None = None,
        *,
        timeout_s: float | None = None,
        max_rows: int | None = None,
    ) -> list[Record]:
        graph = self._graph(namespace)
        deadline_s = timeout_s or self.query_timeout_s
        server_ms = int(1000 * deadline_s * SERVER_SHARE)
        self.watch.check()
        epoch = self.epoch()
        until = asyncio.get_running_loop().time() + deadline_s
        for attempt in (1, 2):
            try:
                # ours is the query deadline: a paused (SIGSTOP) server answers nothing at all (ServerWatch). The
                # server's own timeout comes a little earlier, so a live server reports a slow query itself.
                result = await self.watch.wait(
                    self._reading(namespace, lambda: graph.ro_query(cypher, dict(params or {}), timeout=server_ms)),
                    deadline_s,
                )
                break
            except redis_errors.ResponseError as exc:
                if "empty key" in str(exc).lower():  # the namespace has no graph yet
                    return []
                raise self._map_error(exc) from exc
            except (redis_errors.RedisError, OSError) as exc:
                if attempt == 2 or not await self._restarted(epoch, until):
                    raise self._map_error(exc) from exc
                log.warning("graph read on %r retried: the embedded server died under it and was restarted", namespace)
        names = [h[1] for h in result.header]
        limit = max_rows or self.max_result_rows
        return [{name: _convert(v) for name, v in zip(names, row, strict=True)} for row in result.result_set[:limit]]

    async def _restarted(self, epoch: object | None, until: float) -> bool:
        """Whether the embedded server that was ``epoch`` when a read began has died and another is answering by
        ``until`` (``EmbeddedFalkorServer.supervise`` restarts it; the packaged server can die under concurrent
        queries, FalkorDB issues 1240 and 1784): a read, which changes nothing, is then asked once more. False at
        once for an external server, or where the same server is still up (the error is not a crash)."""
        if self.server is None or epoch is None:
            return False
        loop = asyncio.get_running_loop()
        while loop.time() < until:
            if not self.server.exited() and await self.ping():
                return self.epoch() != epoch  # the same server answering: no crash
            await asyncio.sleep(0.1)
        return False

    async def execute(
        self,
        namespace: str,
        cypher: str,
        params: Mapping[str, Any] | None = None,
        *,
        marker: tuple[str, Mapping[str, Any]] | None = None,
    ) -> WriteSummary:
        if marker is not None:
            return await self._execute_with_marker(namespace, cypher, params, marker)
        graph = self._graph(namespace)
        server_ms = int(1000 * self.write_timeout_s)
        try:
            result = await self.watch.wait(
                self._writing(namespace, lambda: graph.query(cypher, dict(params or {}), timeout=server_ms)),
                self.write_timeout_s + DEADLINE_GRACE_S,
                patient=True,
            )
        except (redis_errors.RedisError, OSError) as exc:
            raise self._map_error(exc) from exc
        return WriteSummary(
            batches=1,
            nodes_created=int(result.nodes_created),
            relationships_created=int(result.relationships_created),
            properties_set=int(result.properties_set),
            nodes_deleted=int(result.nodes_deleted),
            relationships_deleted=int(result.relationships_deleted),
        )

    async def _execute_with_marker(
        self,
        namespace: str,
        cypher: str,
        params: Mapping[str, Any] | None,
        marker: tuple[str, Mapping[str, Any]],
    ) -> WriteSummary:
        """The statement and its bookkeeping write as one query (``Q.with_marker``): a FalkorDB query is atomic,
        so no save (periodic or ours) and no crash can fall between them, and a statement the engine refuses
        applies neither. Not ``MULTI``/``EXEC``: a write that runs past the server's ``busy-reply-threshold`` inside
        ``EXEC`` while another client waits crashes the server (``server.c`` ``'!server.in_exec'``).

        A statement refused in every combined form runs alone and its marker right after (a crash between the two
        would run it again on resume, so the log says so); a statement that is wrong in itself fails there with its
        own error."""
        merged = dict(params or {})
        clash = merged.keys() & marker[1].keys()
        if clash:
            raise ValueError(f"statement and marker share parameter names: {sorted(clash)}")
        merged.update(marker[1])
        for query in Q.with_marker(cypher, marker[0]):
            try:
                summary = await self.execute(namespace, query, merged)
            except QueryRejectedError:
                continue  # refused: nothing of it was applied
            summary.properties_set = max(0, summary.properties_set - 1)  # the marker's own property
            return summary
        summary = await self.execute(namespace, cypher, params)
        log.warning(
            "%s: a script statement runs apart from its journal marker (no combined form was accepted); "
            "a crash before the marker would apply it again on resume",
            namespace,
        )
        await self.execute(namespace, marker[0], marker[1])
        return summary

    async def vet(self, statements: Sequence[tuple[int, str]], total: int) -> None:
        """Plan each script statement (``GRAPH.EXPLAIN``) on a throwaway FalkorDB server of the packaged build before
        any is applied. Some statements kill or hang the engine (4.16.3 dies of a segfault on ``CALL { CALL
        db.labels() }`` or a few thousand nested brackets; its parser spins for minutes on two thousand nested
        parentheses). Run on the real server, such a statement takes every tenant's graph down, or holds a core
        for good. Here it kills only the throwaway server. A statement that the engine refuses, dies on, or plans
        for longer than ``vet_timeout_s`` is a ``QueryRejectedError`` that names it; nothing of the script has been
        applied then. ``statements``: (number in the script, text); ``total``: how many the script has."""
        if not statements or self.vet_timeout_s <= 0:
            return
        sandbox = EmbeddedFalkorServer(
            Path(tempfile.mkdtemp(prefix="grag-vet-")), startup_timeout_s=30, query_memory_mb=512
        )
        import redis.asyncio as aioredis

        client: Any = None
        try:
            await sandbox.start()
            client = aioredis.Redis(unix_socket_path=sandbox.socket_path, socket_timeout=None)
            await client.execute_command("GRAPH.QUERY", "vet", Q.VET_GRAPH_SEED)
            for number, statement in statements:
                where = f"statement {number} of {total}"
                named = {"statement": number, "statements": total, "text": statement[:200]}
                try:
                    await asyncio.wait_for(
                        client.execute_command("GRAPH.EXPLAIN", "vet", statement), self.vet_timeout_s
                    )
                except redis_errors.ResponseError as exc:
                    raise QueryRejectedError(f"{where}: the graph engine refused it: {exc}", details=named) from exc
                except TimeoutError as exc:
                    if sandbox.crashed():  # dying, still writing its crash report
                        raise QueryRejectedError(
                            f"{where}: the graph engine dies on it (found on a throwaway FalkorDB server); nothing "
                            "of the script was applied",
                            details=named,
                        ) from exc
                    raise QueryRejectedError(
                        f"{where}: the graph engine takes longer than {self.vet_timeout_s:g} s to plan it; nothing "
                        "of the script was applied",
                        details=named,
                    ) from exc
                except (redis_errors.RedisError, OSError) as exc:
                    raise QueryRejectedError(
                        f"{where}: the graph engine dies on it (found on a throwaway FalkorDB server); nothing of "
                        "the script was applied",
                        details=named,
                    ) from exc
        finally:
            if client is not None:
                with contextlib.suppress(Exception):
                    await client.aclose()
            await sandbox.kill()
            shutil.rmtree(sandbox.dir.parent, ignore_errors=True)

    async def write(
        self,
        namespace: str,
        cypher: str,
        rows: Sequence[Mapping[str, Any]],
        *,
        batch_size: int | None = None,
    ) -> WriteSummary:
        return await write_in_batches(self, namespace, cypher, rows, batch_size or self.write_batch_size)

    async def ensure_node_index(self, namespace: str, label: str, prop: str) -> None:
        try:
            await self.execute(namespace, Q.falkordb_node_index(label, prop))
        except QueryRejectedError as exc:
            if "already indexed" not in str(exc).lower():
                raise

    async def schema(self, namespace: str) -> GraphSchema:
        if not await self._exists(namespace):
            return GraphSchema()

        async def column(q: str) -> list[str]:
            return sorted(str(r[next(iter(r))]) for r in await self.read(namespace, q, max_rows=100_000))

        rows = await self.read(namespace, Q.SCHEMA_TRIPLES_QUERY, max_rows=100_000, timeout_s=120)
        return GraphSchema(
            labels=visible_labels(await column(Q.FALKORDB_LABELS)),
            relationship_types=await column(Q.FALKORDB_RELATIONSHIP_TYPES),
            property_keys=visible_labels(await column(Q.FALKORDB_PROPERTY_KEYS)),
            triples=triples_from_rows(rows),
            edge_counts=rows,
        )

    async def counts(self, namespace: str) -> tuple[int, int]:
        if not await self._exists(namespace):
            return (0, 0)
        nodes = await self.read(namespace, Q.COUNT_NODES_QUERY)
        rels = await self.read(namespace, Q.COUNT_RELS_QUERY)
        return int(nodes[0]["c"]), int(rels[0]["c"])

    async def namespaces(self) -> list[str]:
        if self._db is None:
            raise DependencyError("falkordb", "graph store is not started")
        try:
            return sorted(await self.watch.wait(self._db.list_graphs(), self.query_timeout_s))
        except (redis_errors.RedisError, OSError) as exc:
            raise self._map_error(exc) from exc

    async def drop_namespace(self, namespace: str) -> None:
        if await self._exists(namespace):
            await self._writing(namespace, self._graph(namespace).delete)
