"""FalkorDB implementation of ``GraphStore`` (the embedded default, or an external FalkorDB server).

One namespace = one FalkorDB graph key. Reads go through ``GRAPH.RO_QUERY`` so the engine itself refuses writes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import redis.exceptions as redis_errors

from app.cypher import queries as Q
from app.errors import DependencyError, DependencyTimeoutError, OverloadedError, QueryRejectedError
from app.stores.embedded import EmbeddedFalkorServer
from app.stores.graph.base import (
    GraphSchema,
    NodeValue,
    Record,
    WriteSummary,
    check_namespace,
    triples_from_rows,
    visible_labels,
    write_in_batches,
)

log = logging.getLogger(__name__)


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


def _summary_of(stats: Sequence[Any]) -> WriteSummary:
    """A ``WriteSummary`` from the statistics lines of a raw ``GRAPH.QUERY`` reply (``"Nodes created: 2"``...)."""
    counts: dict[str, int] = {}
    wanted = ("nodes_created", "relationships_created", "properties_set", "nodes_deleted", "relationships_deleted")
    for line in stats:
        name, _, value = (line.decode() if isinstance(line, bytes) else str(line)).partition(":")
        key = name.strip().lower().replace(" ", "_")
        if key in wanted:
            counts[key] = int(float(value))
    return WriteSummary(batches=1, **counts)


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
    ) -> None:
        if url is None and data_dir is None:
            raise ValueError("FalkorDBGraphStore needs a data_dir (embedded) or a url (external server)")
        self.url = url
        self.server = (
            EmbeddedFalkorServer(data_dir, startup_timeout_s=startup_timeout_s)
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
        self._slots = asyncio.Semaphore(max_concurrency)
        self._db: Any = None
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

    async def ping(self) -> bool:
        if self._db is None:
            return False
        try:
            return bool(await self._db.connection.ping())
        except (redis_errors.RedisError, OSError):
            return False

    # queries ------------------------------------------------------------------------------------------------
    def _map_error(self, exc: Exception) -> Exception:
        msg = str(exc)
        if isinstance(exc, redis_errors.ResponseError):
            if "timed out" in msg.lower():
                return DependencyTimeoutError("falkordb", "query timed out")
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
        try:
            # ours is the query deadline: a paused (SIGSTOP) server answers nothing at all. The server's own
            # timeout comes a little earlier, so a live server reports a slow query itself.
            async with self._slot():
                result = await asyncio.wait_for(
                    graph.ro_query(cypher, dict(params or {}), timeout=int(1000 * deadline_s * SERVER_SHARE)),
                    deadline_s,
                )
        except TimeoutError as exc:
            raise DependencyTimeoutError("falkordb", "no answer from the graph server in time") from exc
        except redis_errors.ResponseError as exc:
            if "empty key" in str(exc).lower():  # the namespace has no graph yet
                return []
            raise self._map_error(exc) from exc
        except (redis_errors.RedisError, OSError) as exc:
            raise self._map_error(exc) from exc
        names = [h[1] for h in result.header]
        limit = max_rows or self.max_result_rows
        return [{name: _convert(v) for name, v in zip(names, row, strict=True)} for row in result.result_set[:limit]]

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
        try:
            async with self._slot():
                result = await graph.query(cypher, dict(params or {}), timeout=int(1000 * self.write_timeout_s))
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
        """The statement and its bookkeeping write in one ``MULTI``/``EXEC``: no save (periodic or ours) and no
        other client can fall between them, so a journal marker is exactly as durable as the statement it counts.
        A statement the engine refuses changes nothing, but the marker after it still runs (Redis transactions do
        not roll back): the caller resets the marker when this raises."""
        graph = self._graph(namespace)
        timeout_ms = str(int(1000 * self.write_timeout_s))
        queries = [(cypher, params), marker]
        try:
            async with self._slot():
                pipe = self._db.connection.pipeline(transaction=True)
                for q, p in queries:
                    text = graph._build_params_header(dict(p)) + q if p else q
                    pipe.execute_command("GRAPH.QUERY", graph.name, text, "--compact", "timeout", timeout_ms)
                replies = await asyncio.wait_for(
                    pipe.execute(raise_on_error=False), self.write_timeout_s + DEADLINE_GRACE_S
                )
        except TimeoutError as exc:
            raise DependencyTimeoutError("falkordb", "no answer from the graph server in time") from exc
        except (redis_errors.RedisError, OSError) as exc:
            raise self._map_error(exc) from exc
        for reply in replies:  # a refused query is the reply; a run-time error ends an otherwise normal reply
            error = reply if isinstance(reply, Exception) else reply[-1] if isinstance(reply, list) and reply else None
            if isinstance(error, Exception):
                raise self._map_error(error)
        return _summary_of(replies[0][-1])

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
            return sorted(await self._db.list_graphs())
        except (redis_errors.RedisError, OSError) as exc:
            raise self._map_error(exc) from exc

    async def drop_namespace(self, namespace: str) -> None:
        if await self._exists(namespace):
            await self._graph(namespace).delete()
