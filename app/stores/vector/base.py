"""The vector-store contract: collections of (id, vector, payload) points searched by cosine similarity.

Collection names are built from the namespace (``<namespace>__<kind>``) by ``collection_name`` so that one store
holds several corpora side by side. Filters are ``{field: value}`` (equality), ``{field: [v1, v2]}`` (any of) or
``{field: {"gte": a, "lte": b}}`` (range).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

Filters = Mapping[str, Any]


def collection_name(namespace: str, kind: str) -> str:
    return f"{namespace}__{kind}"


@dataclass
class VectorPoint:
    id: str
    """Stable string id (the store maps it to its own id type)."""
    vector: Sequence[float]
    payload: dict[str, Any] = field(default_factory=dict)


@dataclass
class VectorHit:
    id: str
    score: float
    payload: dict[str, Any]


@runtime_checkable
class VectorStore(Protocol):
    backend: str

    async def start(self) -> None: ...

    async def close(self) -> None: ...

    async def ping(self) -> bool: ...

    async def ensure_collection(self, name: str, dim: int) -> None:
        """Create a cosine collection of ``dim``-sized vectors if missing (a size mismatch is an error)."""

    async def collection_exists(self, name: str) -> bool: ...

    async def upsert(self, name: str, points: Sequence[VectorPoint], *, batch_size: int | None = None) -> int:
        """Insert or replace points by id; returns how many were written."""

    async def existing(self, name: str, ids: Sequence[str]) -> dict[str, dict[str, Any]]:
        """Payloads of the points among ``ids`` that exist (lets ingestion skip re-embedding unchanged items)."""

    async def ids(self, name: str) -> list[str]:
        """Every point's id (``index`` removes the points of nodes that are gone)."""

    async def search(
        self, name: str, vector: Sequence[float], *, top_k: int, filters: Filters | None = None
    ) -> list[VectorHit]: ...

    async def delete(self, name: str, filters: Filters) -> None:
        """Delete every point whose payload matches ``filters``."""

    async def count(self, name: str, filters: Filters | None = None) -> int: ...

    async def drop_collection(self, name: str) -> None: ...
