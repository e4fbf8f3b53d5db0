"""The graph-store contract.

A ``GraphStore`` runs read-only Cypher with parameters and a time limit, runs writes in batches (``UNWIND $rows``),
introspects the schema and counts. Each namespace is a separate graph (FalkorDB: a graph key; Neo4j: a database).
Engine-specific calls live only in the engine's module; Cypher text that retrievers need is built in
``app.cypher``.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from app.errors import InvalidInputError

NAMESPACE_RE = re.compile(r"^[a-z][a-z0-9_]{0,62}$")


def check_namespace(namespace: str) -> str:
    if not NAMESPACE_RE.match(namespace):
        raise InvalidInputError(
            f"invalid namespace {namespace!r}: use 1-63 lowercase letters, digits or '_', starting with a letter"
        )
    return namespace


@dataclass(frozen=True)
class SchemaTriple:
    """One (source label)-[type]->(target label) combination that exists in the graph."""

    source: str
    rel_type: str
    target: str

    def pattern(self) -> str:
        return f"(:{self.source})-[:{self.rel_type}]->(:{self.target})"


@dataclass
class GraphSchema:
    labels: list[str] = field(default_factory=list)
    relationship_types: list[str] = field(default_factory=list)
    property_keys: list[str] = field(default_factory=list)
    triples: list[SchemaTriple] = field(default_factory=list)

    def is_empty(self) -> bool:
        return not self.labels

    def to_text(self) -> str:
        """Compact schema description used in prompts."""
        lines = ["Node labels: " + ", ".join(self.labels)]
        lines.append("Relationship types: " + ", ".join(self.relationship_types))
        lines.append("Property keys: " + ", ".join(self.property_keys))
        lines.append("Patterns:")
        lines.extend("  " + t.pattern() for t in self.triples)
        return "\n".join(lines)


@dataclass
class WriteSummary:
    batches: int = 0
    rows: int = 0
    nodes_created: int = 0
    relationships_created: int = 0
    properties_set: int = 0

    def add(self, other: WriteSummary) -> None:
        self.batches += other.batches
        self.rows += other.rows
        self.nodes_created += other.nodes_created
        self.relationships_created += other.relationships_created
        self.properties_set += other.properties_set


@dataclass
class NodeValue:
    """A node returned by a query, engine-independent."""

    element_id: str
    labels: list[str]
    properties: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"element_id": self.element_id, "labels": self.labels, "properties": self.properties}


Record = dict[str, Any]


@runtime_checkable
class GraphStore(Protocol):
    """What retrievers and ingestion may ask of a graph engine."""

    backend: str

    async def start(self) -> None:
        """Connect (and, for the embedded engine, start the server). Idempotent."""

    async def close(self) -> None:
        """Disconnect (and persist/stop the embedded server). Idempotent."""

    async def ping(self) -> bool:
        """True when the engine answers."""

    async def read(
        self,
        namespace: str,
        cypher: str,
        params: Mapping[str, Any] | None = None,
        *,
        timeout_s: float | None = None,
        max_rows: int | None = None,
    ) -> list[Record]:
        """Run a read-only query; rows are dicts keyed by the RETURN names. Writes are refused by the engine."""

    async def write(
        self,
        namespace: str,
        cypher: str,
        rows: Sequence[Mapping[str, Any]],
        *,
        batch_size: int | None = None,
    ) -> WriteSummary:
        """Run ``cypher`` once per batch of ``rows``, bound to ``$rows`` (use ``UNWIND $rows AS row``)."""

    async def execute(self, namespace: str, cypher: str, params: Mapping[str, Any] | None = None) -> WriteSummary:
        """Run one write statement (scripts, index creation)."""

    async def ensure_node_index(self, namespace: str, label: str, prop: str) -> None:
        """Create a range index on ``(:label {prop})`` if it does not exist."""

    async def schema(self, namespace: str) -> GraphSchema:
        """Labels, relationship types, property keys and existing label-type-label triples."""

    async def counts(self, namespace: str) -> tuple[int, int]:
        """(nodes, relationships) in the namespace."""

    async def namespaces(self) -> list[str]:
        """Namespaces that hold a graph."""

    async def drop_namespace(self, namespace: str) -> None:
        """Delete the namespace's graph."""


COUNT_NODES_QUERY = "MATCH (n) WHERE NOT n:_IngestLog RETURN count(n) AS c"
COUNT_RELS_QUERY = "MATCH ()-[r]->() RETURN count(r) AS c"
SCHEMA_TRIPLES_QUERY = (
    "MATCH (a)-[r]->(b) WITH labels(a) AS la, type(r) AS t, labels(b) AS lb RETURN la, t, lb, count(*) AS n"
)


def visible_labels(labels: Iterable[str]) -> list[str]:
    """Labels (or property keys) that describe data: bookkeeping names start with ``_``."""
    return [x for x in labels if not x.startswith("_")]


def triples_from_rows(
    rows: Iterable[Record], generic_label: str = "Entity", min_share: float = 0.1
) -> list[SchemaTriple]:
    """Label-level triples from ``(labels(a), type, labels(b), count)`` rows.

    Nodes can carry several labels (a MetaQA name that is both a movie and a year), which would make every label
    combination look like schema. A relationship type keeps only the source and target labels that cover at least
    ``min_share`` of its edges; the generic linking label is left out when a node has a more specific one.
    """
    src: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    dst: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    total: dict[str, int] = defaultdict(int)
    pairs: set[tuple[str, str, str]] = set()
    for row in rows:
        n = int(row.get("n", 1))
        la = [x for x in visible_labels(row["la"]) if x != generic_label] or visible_labels(row["la"])
        lb = [x for x in visible_labels(row["lb"]) if x != generic_label] or visible_labels(row["lb"])
        t = str(row["t"])
        total[t] += n
        for a in la:
            src[t][a] += n
        for b in lb:
            dst[t][b] += n
        pairs.update((a, t, b) for a in la for b in lb)
    out = {
        SchemaTriple(a, t, b)
        for a, t, b in pairs
        if src[t][a] >= min_share * total[t] and dst[t][b] >= min_share * total[t]
    }
    return sorted(out, key=lambda x: (x.rel_type, x.source, x.target))


def batched(rows: Sequence[Mapping[str, Any]], size: int) -> Iterable[list[Mapping[str, Any]]]:
    for i in range(0, len(rows), size):
        yield list(rows[i : i + size])


async def write_in_batches(
    store: GraphStore, namespace: str, cypher: str, rows: Sequence[Mapping[str, Any]], size: int
) -> WriteSummary:
    """``GraphStore.write`` for any engine: one ``execute`` per batch, ``$rows`` bound to the batch."""
    total = WriteSummary()
    for batch in batched(rows, size):
        summary = await store.execute(namespace, cypher, {"rows": batch})
        summary.rows = len(batch)
        total.add(summary)
    return total
