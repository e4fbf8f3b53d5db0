"""The graph-store contract.

A ``GraphStore`` runs read-only Cypher with parameters and a time limit, runs writes in batches (``UNWIND $rows``),
introspects the schema and counts. Each namespace is a separate graph (FalkorDB: a graph key; Neo4j: a database).
Engine-specific calls live only in the engine's module; engine-neutral Cypher text is built in ``app.cypher``, and
the schema types (``GraphSchema``, ``SchemaTriple``) are defined there.
"""

from __future__ import annotations

import contextlib
import contextvars
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from app.cypher.schema import GraphSchema, SchemaTriple, triples_from_rows, visible_labels
from app.errors import DependencyError, InvalidInputError

__all__ = [
    "WRITE_FENCE",
    "GraphSchema",
    "GraphStore",
    "NodeValue",
    "Record",
    "SchemaTriple",
    "WriteSummary",
    "check_namespace",
    "fenced",
    "same_life",
    "triples_from_rows",
    "visible_labels",
    "write_in_batches",
]

NAMESPACE_RE = re.compile(r"^[a-z][a-z0-9_]{0,62}$")


def check_namespace(namespace: str) -> str:
    if not NAMESPACE_RE.match(namespace):
        raise InvalidInputError(
            f"invalid namespace {namespace!r}: use 1-63 lowercase letters, digits or '_', starting with a letter"
        )
    return namespace


@dataclass
class WriteSummary:
    batches: int = 0
    rows: int = 0
    nodes_created: int = 0
    relationships_created: int = 0
    properties_set: int = 0
    nodes_deleted: int = 0
    relationships_deleted: int = 0

    def add(self, other: WriteSummary) -> None:
        self.batches += other.batches
        self.rows += other.rows
        self.nodes_created += other.nodes_created
        self.relationships_created += other.relationships_created
        self.properties_set += other.properties_set
        self.nodes_deleted += other.nodes_deleted
        self.relationships_deleted += other.relationships_deleted


@dataclass
class NodeValue:
    """A node returned by a query, engine-independent."""

    element_id: str
    labels: list[str]
    properties: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"element_id": self.element_id, "labels": self.labels, "properties": self.properties}


Record = dict[str, Any]


VECTOR_MIN_LENGTH = 32
"""A node property holding a list of at least this many numbers is an embedding (neo4j-graphrag and most GraphRAG
setups keep one on each node): a trace names its length instead of carrying it (1,536 floats per row otherwise)."""


def _shown(value: Any) -> Any:
    if (
        isinstance(value, list)
        and len(value) >= VECTOR_MIN_LENGTH
        and all(isinstance(x, int | float) and not isinstance(x, bool) for x in value)
    ):
        return f"<{len(value)} numbers>"
    return value


def plain_value(value: Any) -> Any:
    """A result value as JSON would carry it: a node as :meth:`NodeValue.to_dict` (an embedding among its properties
    as its length, ``VECTOR_MIN_LENGTH``), anything else as it is."""
    if isinstance(value, NodeValue):
        return value.to_dict() | {"properties": {k: _shown(v) for k, v in value.properties.items()}}
    return value


def plain_rows(rows: list[Record]) -> list[Record]:
    """Result rows as a trace carries them (:func:`plain_value`)."""
    return [{k: plain_value(v) for k, v in row.items()} for row in rows]


@runtime_checkable
class GraphStore(Protocol):
    """What retrievers and ingestion may ask of a graph engine."""

    backend: str

    async def start(self) -> None:
        """Connect (and, for the embedded engine, start the server). Idempotent."""

    async def close(self) -> None:
        """Disconnect (and persist/stop the embedded server). Idempotent."""

    async def flush(self) -> None:
        """Make every write so far durable before it is acknowledged (the embedded FalkorDB saves to disk; Neo4j's
        committed transactions already are)."""
        ...

    def epoch(self) -> object | None:
        """Which life of the graph server writes go to now: it changes when writes not yet made durable may have
        been lost (the embedded FalkorDB restarted from its last save). ``None`` where a committed write is durable
        at once (Neo4j) or the store cannot tell (an external FalkorDB)."""
        ...

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

    async def execute(
        self,
        namespace: str,
        cypher: str,
        params: Mapping[str, Any] | None = None,
        *,
        marker: tuple[str, Mapping[str, Any]] | None = None,
    ) -> WriteSummary:
        """Run one write statement (scripts, index creation). With ``marker`` (a bookkeeping statement that sets one
        property of an existing node, and its parameters: the ingest journal's progress), both are applied
        atomically: a crash keeps both or neither, a refused statement applies neither. The summary counts the
        statement's own writes, not the marker's."""

    async def vet(self, statements: Sequence[tuple[int, str]], total: int) -> None:
        """Check a script's statements (number in the script, text) before any is applied: ``QueryRejectedError``
        naming the first the engine would refuse or could not survive."""

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


def batched(rows: Sequence[Mapping[str, Any]], size: int) -> Iterable[list[Mapping[str, Any]]]:
    for i in range(0, len(rows), size):
        yield list(rows[i : i + size])


WRITE_FENCE: contextvars.ContextVar[object | None] = contextvars.ContextVar("graph_write_fence", default=None)
"""The ``GraphStore.epoch`` a piece of work began in (``fenced``): a store whose epoch has moved on since refuses
that work's writes, which would otherwise land on a graph that lost the work's earlier ones."""


@contextlib.contextmanager
def fenced(epoch: object | None) -> Iterator[None]:
    """Writes made inside go to the graph server's life ``epoch`` or fail (``GraphStore.epoch``; ``None``: no
    fence)."""
    token = WRITE_FENCE.set(epoch)
    try:
        yield
    finally:
        WRITE_FENCE.reset(token)


def same_life(store: GraphStore, epoch: object | None) -> None:
    """``DependencyError`` when ``store`` writes to another life of its server than ``epoch`` (``GraphStore.epoch``:
    it restarted from its last save since, losing what was written after that save); ``None``: nothing to check."""
    if epoch is not None and store.epoch() != epoch:
        raise DependencyError(
            store.backend,
            "the graph server restarted from its last save during this work: what it wrote since then may be lost, "
            "so nothing more of it is written; send it again",
        )


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
