"""One contract suite for every GraphStore: FalkorDB (embedded, always) and Neo4j (when NEO4J_URI is set)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from app.errors import InvalidInputError, QueryRejectedError
from app.stores.graph.base import GraphStore, NodeValue, SchemaTriple
from app.stores.graph.falkordb import FalkorDBGraphStore

ROWS = [
    {"s": "Kismet", "o": "William Dieterle", "y": 1944},
    {"s": "Kismet", "o": "Marlene Dietrich", "y": 1944},
    {"s": "Blockade", "o": "William Dieterle", "y": 1938},
]
LOAD = (
    "UNWIND $rows AS row MERGE (m:Entity:Movie {name: row.s}) SET m.year = row.y "
    "MERGE (p:Entity:Person {name: row.o}) MERGE (m)-[:DIRECTED_BY]->(p)"
)


class GraphStoreContract:
    """Subclasses provide a started, empty ``store`` fixture."""

    async def test_batched_write_then_parameterised_read(self, store: GraphStore) -> None:
        summary = await store.write("t1", LOAD, ROWS, batch_size=2)
        assert summary.batches == 2 and summary.rows == 3
        assert summary.nodes_created == 4 and summary.relationships_created == 3
        rows = await store.read(
            "t1",
            "MATCH (m:Movie)-[:DIRECTED_BY]->(p:Person {name: $n}) RETURN m.name AS movie ORDER BY movie",
            {"n": "William Dieterle"},
        )
        assert rows == [{"movie": "Blockade"}, {"movie": "Kismet"}]

    async def test_writes_are_idempotent_with_merge(self, store: GraphStore) -> None:
        await store.write("t2", LOAD, ROWS)
        again = await store.write("t2", LOAD, ROWS)
        assert again.nodes_created == 0 and again.relationships_created == 0
        assert await store.counts("t2") == (4, 3)

    async def test_a_statement_and_its_marker_are_applied_together(self, store: GraphStore) -> None:
        await store.execute("t9", "CREATE (:_Mark {k: 'm', done: 0})")
        marker = ("MATCH (j:_Mark {k: 'm'}) SET j.done = $done", {"done": 1})  # the journal's form
        s = await store.execute("t9", "CREATE (:Movie {name: 'Kismet'}), (:Movie {name: 'Blockade'})", marker=marker)
        assert s.nodes_created == 2 and s.properties_set == 2  # the statement's own counts, not the marker's
        done = "MATCH (j:_Mark {k: 'm'}) RETURN j.done AS done"
        assert await store.read("t9", done) == [{"done": 1}]
        with pytest.raises(QueryRejectedError):  # a refused statement is an error, with or without a marker
            await store.execute("t9", "CREATE (x:Movie {name: 'x'}) RETURN y", marker=(marker[0], {"done": 2}))
        assert await store.read("t9", "MATCH (m:Movie) RETURN count(m) AS n") == [{"n": 2}]
        assert await store.read("t9", done) == [{"done": 1}]  # nor its marker

    async def test_read_refuses_writes(self, store: GraphStore) -> None:
        await store.write("t3", LOAD, ROWS)
        with pytest.raises(QueryRejectedError):
            await store.read("t3", "CREATE (x:Evil {name: 'x'}) RETURN x")
        assert await store.counts("t3") == (4, 3)

    async def test_nodes_come_back_engine_independent(self, store: GraphStore) -> None:
        await store.write("t4", LOAD, ROWS[:1])
        rows = await store.read("t4", "MATCH (m:Movie) RETURN m")
        node = rows[0]["m"]
        assert isinstance(node, NodeValue)
        assert set(node.labels) == {"Entity", "Movie"} and node.properties["name"] == "Kismet"

    async def test_max_rows_and_syntax_errors(self, store: GraphStore) -> None:
        await store.write("t5", LOAD, ROWS)
        assert len(await store.read("t5", "MATCH (n) RETURN n.name AS name", max_rows=2)) == 2
        with pytest.raises(QueryRejectedError):
            await store.read("t5", "MATCH (n RETURN n")

    async def test_schema_introspection(self, store: GraphStore) -> None:
        await store.write("t6", LOAD, ROWS)
        await store.ensure_node_index("t6", "Entity", "name")
        await store.ensure_node_index("t6", "Entity", "name")  # idempotent
        schema = await store.schema("t6")
        assert {"Entity", "Movie", "Person"} <= set(schema.labels)
        assert schema.relationship_types == ["DIRECTED_BY"]
        assert {"name", "year"} <= set(schema.property_keys)
        assert schema.triples == [SchemaTriple("Movie", "DIRECTED_BY", "Person")]
        assert "(:Movie)-[:DIRECTED_BY]->(:Person)" in schema.to_text()

    async def test_namespaces_are_isolated_and_droppable(self, store: GraphStore) -> None:
        await store.write("ns_a", LOAD, ROWS)
        await store.write("ns_b", LOAD, ROWS[:1])
        assert await store.counts("ns_a") == (4, 3)
        assert await store.counts("ns_b") == (2, 1)
        assert {"ns_a", "ns_b"} <= set(await store.namespaces())
        await store.drop_namespace("ns_b")
        assert await store.counts("ns_b") == (0, 0)
        assert await store.counts("ns_a") == (4, 3)

    async def test_missing_namespace_is_empty_and_bad_names_are_rejected(self, store: GraphStore) -> None:
        assert await store.read("nothing_here", "MATCH (n) RETURN n") == []
        assert (await store.schema("nothing_here")).is_empty()
        with pytest.raises(InvalidInputError):
            await store.read("Bad-Name!", "RETURN 1 AS x")

    async def test_ping(self, store: GraphStore) -> None:
        assert await store.ping() is True


class TestFalkorDBStore(GraphStoreContract):
    @pytest.fixture
    async def store(self, tmp_path: Path) -> AsyncIterator[GraphStore]:
        s = FalkorDBGraphStore(data_dir=tmp_path)
        await s.start()
        try:
            yield s
        finally:
            await s.close()

    async def test_embedded_server_persists_across_restarts(self, tmp_path: Path) -> None:
        s = FalkorDBGraphStore(data_dir=tmp_path / "persist")
        await s.start()
        await s.write("keep", LOAD, ROWS)
        await s.close()
        assert await s.ping() is False
        s2 = FalkorDBGraphStore(data_dir=tmp_path / "persist")
        await s2.start()
        try:
            assert await s2.counts("keep") == (4, 3)
        finally:
            await s2.close()


@pytest.mark.integration
@pytest.mark.skipif(not os.environ.get("NEO4J_URI"), reason="NEO4J_URI not set")
class TestNeo4jStore(GraphStoreContract):
    @pytest.fixture
    async def store(self) -> AsyncIterator[GraphStore]:
        from app.stores.graph.neo4j import Neo4jGraphStore

        s = Neo4jGraphStore(
            uri=os.environ["NEO4J_URI"],
            user=os.environ.get("NEO4J_USER", "neo4j"),
            password=os.environ.get("NEO4J_PASSWORD"),
        )
        await s.start()
        try:
            yield s
        finally:
            for ns in ("t1", "t2", "t3", "t4", "t5", "t6", "ns_a", "ns_b"):
                with contextlib.suppress(Exception):  # community edition has one database
                    await s.drop_namespace(ns)
            await s.close()
