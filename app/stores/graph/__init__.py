"""Graph stores: the ``GraphStore`` protocol and one implementation per engine."""

from __future__ import annotations

from app.settings import Settings
from app.stores.graph.base import GraphSchema, GraphStore, NodeValue, SchemaTriple, WriteSummary

__all__ = ["GraphSchema", "GraphStore", "NodeValue", "SchemaTriple", "WriteSummary", "build_graph_store"]


def build_graph_store(settings: Settings) -> GraphStore:
    g = settings.graph
    common = dict(
        query_timeout_s=g.query_timeout_s,
        write_timeout_s=g.write_timeout_s,
        connect_timeout_s=g.connect_timeout_s,
        write_batch_size=g.write_batch_size,
        max_result_rows=g.max_result_rows,
    )
    if g.backend == "neo4j":
        from app.stores.graph.neo4j import Neo4jGraphStore

        return Neo4jGraphStore(
            uri=g.neo4j_uri,
            user=g.neo4j_user,
            password=g.neo4j_password.get_secret_value() if g.neo4j_password else None,
            database=g.neo4j_database,
            **common,  # type: ignore[arg-type]
        )
    from app.stores.graph.falkordb import FalkorDBGraphStore

    return FalkorDBGraphStore(
        data_dir=settings.data_dir,
        url=g.falkordb_url,
        startup_timeout_s=g.startup_timeout_s,
        max_concurrency=g.max_concurrency,
        queue_timeout_s=g.queue_timeout_s,
        vet_timeout_s=g.vet_timeout_s,
        query_memory_mb=g.query_memory_mb,
        hang_after_s=g.hang_after_s,
        **common,  # type: ignore[arg-type]
    )
