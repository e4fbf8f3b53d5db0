"""Cypher used by ingestion and retrievers. Labels and relationship types cannot be query parameters, so the
builders here validate them against a strict identifier pattern before putting them into query text."""

from __future__ import annotations

import re

from app.errors import InvalidInputError

ENTITY_LABEL = "Entity"
PAGE_LABEL = "Page"
CHUNK_LABEL = "Chunk"
HAS_CHUNK = "HAS_CHUNK"
NEXT_CHUNK = "NEXT"

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,127}$")


def ident(name: str, what: str = "identifier") -> str:
    if not _IDENT.match(name):
        raise InvalidInputError(f"invalid {what} {name!r}: letters, digits and '_' only, not starting with a digit")
    return name


def merge_entities(label: str | None) -> str:
    """MERGE entity nodes by name, adding ``label`` (rows: {name, id})."""
    extra = f" SET n:`{ident(label, 'label')}`" if label and label != ENTITY_LABEL else ""
    return f"UNWIND $rows AS row MERGE (n:{ENTITY_LABEL} {{name: row.name}}) SET n.id = row.id{extra}"


def merge_relationships(rel_type: str) -> str:
    """MERGE typed relationships between existing entity nodes (rows: {s, o})."""
    t = ident(rel_type, "relationship type")
    return (
        f"UNWIND $rows AS row MATCH (a:{ENTITY_LABEL} {{name: row.s}}) MATCH (b:{ENTITY_LABEL} {{name: row.o}}) "
        f"MERGE (a)-[:`{t}`]->(b)"
    )


MERGE_PAGES = (
    f"UNWIND $rows AS row MERGE (p:{PAGE_LABEL} {{id: row.id}}) SET p.title = row.title, p.source = row.source"
)
MERGE_CHUNKS = (
    f"UNWIND $rows AS row MATCH (p:{PAGE_LABEL} {{id: row.page_id}}) "
    f"MERGE (c:{CHUNK_LABEL} {{id: row.id}}) SET c.text = row.text, c.index = row.index "
    f"MERGE (p)-[:{HAS_CHUNK}]->(c)"
)
LINK_NEXT_CHUNKS = (
    f"UNWIND $rows AS row MATCH (a:{CHUNK_LABEL} {{id: row.a}}) MATCH (b:{CHUNK_LABEL} {{id: row.b}}) "
    f"MERGE (a)-[:{NEXT_CHUNK}]->(b)"
)
PAGE_CHUNK_COUNTS = (
    f"UNWIND $ids AS pid MATCH (p:{PAGE_LABEL} {{id: pid}})-[:{HAS_CHUNK}]->(c:{CHUNK_LABEL}) RETURN pid, count(c) AS n"
)
DELETE_STALE_CHUNKS = (
    f"UNWIND $rows AS row MATCH (p:{PAGE_LABEL} {{id: row.page_id}})-[:{HAS_CHUNK}]->(c:{CHUNK_LABEL}) "
    "WHERE c.index >= row.count DETACH DELETE c"
)

ENTITY_OUT_FACTS = (
    f"MATCH (n:{ENTITY_LABEL} {{name: $name}})-[r]->(m) RETURN type(r) AS rel, m.name AS other LIMIT $limit"
)
ENTITY_IN_FACTS = (
    f"MATCH (n:{ENTITY_LABEL} {{name: $name}})<-[r]-(m) RETURN type(r) AS rel, m.name AS other LIMIT $limit"
)
ENTITY_NODE = f"MATCH (n:{ENTITY_LABEL} {{name: $name}}) RETURN n.id AS id, labels(n) AS labels LIMIT 1"

INGEST_LOG_LABEL = "_IngestLog"
"""Bookkeeping nodes (labels starting with ``_`` are hidden from schema introspection)."""
INGEST_LOG_FIND = f"MATCH (m:{INGEST_LOG_LABEL} {{_sha: $sha}}) RETURN m._sha AS sha"
INGEST_LOG_ADD = f"MERGE (m:{INGEST_LOG_LABEL} {{_sha: $sha}}) SET m._kind = $kind"
