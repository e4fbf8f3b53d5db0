"""Neo4j implementation of ``GraphStore`` through the official async driver.

Reads run in managed read transactions (``execute_read``), so the server refuses writes. The ``default`` namespace
lives in the configured database; any other namespace is a database of the same name (Neo4j Enterprise / Aura),
created by the operator.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.cypher import queries as Q
from app.errors import DependencyError, DependencyTimeoutError, QueryRejectedError
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
from app.stores.graph.liveness import ServerWatch


def _convert(value: Any) -> Any:
    from neo4j.graph import Node, Relationship

    if isinstance(value, Node):
        return NodeValue(value.element_id, sorted(value.labels), dict(value))
    if isinstance(value, Relationship):
        return {"type": value.type, "properties": dict(value)}
    if isinstance(value, list):
        return [_convert(v) for v in value]
    return value


SERVER_SHARE = 0.9
"""The share of a read's deadline given to the server's own timeout."""
DEADLINE_GRACE_S = 2.0
"""How long past a write's own timeout the client waits for a server that does not answer."""


class Neo4jGraphStore:
    backend = "neo4j"

    def __init__(
        self,
        *,
        uri: str,
        user: str,
        password: str | None,
        database: str = "neo4j",
        query_timeout_s: float = 10.0,
        write_timeout_s: float = 300.0,
        connect_timeout_s: float = 10.0,
        write_batch_size: int = 2000,
        max_result_rows: int = 1000,
    ) -> None:
        self.uri = uri
        self.user = user
        self._password = password
        self.database = database
        self.query_timeout_s = query_timeout_s
        self.write_timeout_s = write_timeout_s
        self.connect_timeout_s = connect_timeout_s
        self.write_batch_size = write_batch_size
        self.max_result_rows = max_result_rows
        self._driver: Any = None
        self.watch = ServerWatch(self.backend, self._raw_ping, answer_within_s=query_timeout_s)

    def _db(self, namespace: str) -> str:
        check_namespace(namespace)
        return self.database if namespace == "default" else namespace

    async def start(self) -> None:
        if self._driver is not None:
            return
        from neo4j import AsyncGraphDatabase

        auth = (self.user, self._password) if self._password is not None else None
        self._driver = AsyncGraphDatabase.driver(self.uri, auth=auth, connection_timeout=self.connect_timeout_s)

    async def close(self) -> None:
        await self.watch.close()
        driver, self._driver = self._driver, None
        if driver is not None:
            await driver.close()

    def epoch(self) -> object | None:
        return None  # a committed transaction is durable

    async def flush(self) -> None:
        """Nothing to do: a committed Neo4j transaction is durable."""

    async def _raw_ping(self) -> bool:
        if self._driver is None:
            return False
        await self._driver.verify_connectivity()
        return True

    async def ping(self) -> bool:
        try:
            return await self._raw_ping()
        except Exception:
            return False

    def _map_error(self, exc: Exception) -> Exception:
        from neo4j import exceptions as neo

        if isinstance(exc, neo.ClientError):
            if "Timeout" in (exc.code or "") or "TransactionTimedOut" in (exc.code or ""):
                return DependencyTimeoutError("neo4j", "query timed out")
            return QueryRejectedError(f"the graph engine refused the query: {exc.message}")
        return DependencyError("neo4j", f"{type(exc).__name__}: {exc}")

    def _require(self) -> Any:
        if self._driver is None:
            raise DependencyError("neo4j", "graph store is not started")
        return self._driver

    async def read(
        self,
        namespace: str,
        cypher: str,
        params: Mapping[str, Any] | None = None,
        *,
        timeout_s: float | None = None,
        max_rows: int | None = None,
    ) -> list[Record]:
        from neo4j import READ_ACCESS, Query
        from neo4j import exceptions as neo

        limit = max_rows or self.max_result_rows
        deadline_s = timeout_s or self.query_timeout_s
        # the server's own timeout comes a little earlier than ours (ServerWatch), which also holds for a server
        # that answers nothing at all
        query = Query(cypher, timeout=deadline_s * SERVER_SHARE)  # type: ignore[arg-type]

        async def work(tx: Any) -> list[Record]:
            result = await tx.run(query, dict(params or {}))
            rows: list[Record] = []
            async for record in result:
                rows.append({k: _convert(v) for k, v in record.items()})
                if len(rows) >= limit:
                    break
            return rows

        async def session_read() -> list[Record]:
            async with self._require().session(
                database=self._db(namespace), default_access_mode=READ_ACCESS
            ) as session:
                rows: list[Record] = await session.execute_read(work)
                return rows

        try:
            return await self.watch.wait(session_read(), deadline_s)
        except neo.Neo4jError as exc:
            raise self._map_error(exc) from exc
        except (neo.DriverError, OSError) as exc:
            raise self._map_error(exc) from exc

    async def execute(
        self,
        namespace: str,
        cypher: str,
        params: Mapping[str, Any] | None = None,
        *,
        marker: tuple[str, Mapping[str, Any]] | None = None,
    ) -> WriteSummary:
        from neo4j import Query
        from neo4j import exceptions as neo

        query = Query(cypher, timeout=self.write_timeout_s)  # type: ignore[arg-type]

        async def session_write() -> Any:
            async with self._require().session(database=self._db(namespace)) as session:
                if marker is None:
                    result = await session.run(query, dict(params or {}))
                    return await result.consume()
                # the statement and its bookkeeping write commit together or not at all
                async with await session.begin_transaction(timeout=self.write_timeout_s) as tx:
                    summary = await (await tx.run(cypher, dict(params or {}))).consume()
                    await (await tx.run(marker[0], dict(marker[1]))).consume()
                    await tx.commit()
                    return summary

        try:
            summary = await self.watch.wait(session_write(), self.write_timeout_s + DEADLINE_GRACE_S, patient=True)
        except (neo.Neo4jError, neo.DriverError, OSError) as exc:
            raise self._map_error(exc) from exc
        c = summary.counters
        return WriteSummary(
            batches=1,
            nodes_created=c.nodes_created,
            relationships_created=c.relationships_created,
            properties_set=c.properties_set,
            nodes_deleted=c.nodes_deleted,
            relationships_deleted=c.relationships_deleted,
        )

    async def vet(self, statements: Sequence[tuple[int, str]], total: int) -> None:
        """Nothing: Neo4j refuses a statement it cannot run with an error of that statement and does not go down on
        one (the FalkorDB store plans each on a throwaway server first)."""

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
        name = f"idx_{label}_{prop}".lower()
        await self.execute(namespace, Q.neo4j_node_index(name, label, prop))

    async def schema(self, namespace: str) -> GraphSchema:
        async def column(q: str, key: str) -> list[str]:
            return sorted(str(r[key]) for r in await self.read(namespace, q, max_rows=100_000))

        rows = await self.read(namespace, Q.SCHEMA_TRIPLES_QUERY, max_rows=100_000, timeout_s=120)
        return GraphSchema(
            labels=visible_labels(await column(Q.NEO4J_LABELS, "label")),
            relationship_types=await column(Q.NEO4J_RELATIONSHIP_TYPES, "relationshipType"),
            property_keys=visible_labels(await column(Q.NEO4J_PROPERTY_KEYS, "propertyKey")),
            triples=triples_from_rows(rows),
            edge_counts=rows,
        )

    async def counts(self, namespace: str) -> tuple[int, int]:
        nodes = await self.read(namespace, Q.COUNT_NODES_QUERY)
        rels = await self.read(namespace, Q.COUNT_RELS_QUERY)
        return int(nodes[0]["c"]), int(rels[0]["c"])

    async def namespaces(self) -> list[str]:
        rows = await self.read("default", Q.HAS_NODES, max_rows=1)
        names = ["default"] if rows and rows[0]["has"] else []
        from neo4j import READ_ACCESS

        async def databases() -> list[str]:
            async with self._require().session(database="system", default_access_mode=READ_ACCESS) as s:
                result = await s.run(Q.NEO4J_DATABASES)
                return [r["name"] async for r in result if r["name"] not in ("system", self.database)]

        try:
            names += await self.watch.wait(databases(), self.query_timeout_s)
        except DependencyTimeoutError:
            raise
        except Exception:  # Community edition: no other databases to list
            pass
        return sorted(set(names))

    async def drop_namespace(self, namespace: str) -> None:
        await self.execute(namespace, Q.NEO4J_DELETE_ALL)
