"""Qdrant implementation of ``VectorStore``: local mode (a folder, the embedded default) or a Qdrant server, both
through ``AsyncQdrantClient``."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from app.errors import DependencyError, InvalidInputError
from app.stores.vector.base import Filters, VectorHit, VectorPoint

_ID_NAMESPACE = uuid.UUID("6f1c7d4e-1f0a-4b7e-9a55-2f2f8f6d1c01")
ID_FIELD = "item_id"


def point_uuid(item_id: str) -> str:
    return str(uuid.uuid5(_ID_NAMESPACE, item_id))


def build_filter(filters: Filters | None) -> Any:
    from qdrant_client import models as qm

    if not filters:
        return None
    must: list[Any] = []
    for key, value in filters.items():
        if isinstance(value, list | tuple):
            must.append(qm.FieldCondition(key=key, match=qm.MatchAny(any=list(value))))
        elif isinstance(value, dict):
            allowed = {"gt", "gte", "lt", "lte"}
            if not value or set(value) - allowed:
                raise InvalidInputError(f"filter {key!r}: a range takes only {sorted(allowed)}")
            must.append(qm.FieldCondition(key=key, range=qm.Range(**value)))
        elif isinstance(value, str | int | bool):
            must.append(qm.FieldCondition(key=key, match=qm.MatchValue(value=value)))
        else:
            raise InvalidInputError(f"filter {key!r}: unsupported value {value!r}")
    return qm.Filter(must=must)


class QdrantVectorStore:
    backend = "qdrant"

    def __init__(
        self,
        *,
        path: Path | None = None,
        url: str | None = None,
        api_key: str | None = None,
        timeout_s: float = 10.0,
        upsert_batch_size: int = 256,
    ) -> None:
        if (path is None) == (url is None):
            raise ValueError("QdrantVectorStore needs exactly one of path (local mode) or url (server)")
        self.path = path
        self.url = url
        self._api_key = api_key
        self.timeout_s = timeout_s
        self.upsert_batch_size = upsert_batch_size
        self._client: Any = None

    @property
    def mode(self) -> str:
        return "local" if self.path is not None else "server"

    async def start(self) -> None:
        if self._client is not None:
            return
        from qdrant_client import AsyncQdrantClient

        if self.path is not None:
            self.path.mkdir(parents=True, exist_ok=True)
            try:
                self._client = AsyncQdrantClient(path=str(self.path))
            except RuntimeError as exc:  # "already accessed by another instance"
                raise DependencyError("qdrant", str(exc)) from exc
        else:
            self._client = AsyncQdrantClient(url=self.url, api_key=self._api_key, timeout=int(self.timeout_s))

    async def close(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            await client.close()

    def _c(self) -> Any:
        if self._client is None:
            raise DependencyError("qdrant", "vector store is not started")
        return self._client

    async def _call(self, what: str, coro: Any) -> Any:
        try:
            return await coro
        except (InvalidInputError, DependencyError):
            raise
        except Exception as exc:
            raise DependencyError("qdrant", f"{what} failed: {type(exc).__name__}: {exc}") from exc

    async def ping(self) -> bool:
        if self._client is None:
            return False
        try:
            await self._client.get_collections()
            return True
        except Exception:
            return False

    async def collection_exists(self, name: str) -> bool:
        return bool(await self._call("collection_exists", self._c().collection_exists(name)))

    async def ensure_collection(self, name: str, dim: int) -> None:
        from qdrant_client import models as qm

        if await self.collection_exists(name):
            info = await self._call("get_collection", self._c().get_collection(name))
            size = info.config.params.vectors.size
            if size != dim:
                raise InvalidInputError(
                    f"collection {name} holds {size}-d vectors but the embedder makes {dim}-d ones; "
                    "drop the namespace or configure the embedder it was built with"
                )
            return
        await self._call(
            "create_collection",
            self._c().create_collection(name, vectors_config=qm.VectorParams(size=dim, distance=qm.Distance.COSINE)),
        )

    async def upsert(self, name: str, points: Sequence[VectorPoint], *, batch_size: int | None = None) -> int:
        from qdrant_client import models as qm

        size = batch_size or self.upsert_batch_size
        for i in range(0, len(points), size):
            batch = [
                qm.PointStruct(
                    id=point_uuid(p.id),
                    vector=list(map(float, p.vector)),
                    payload={**p.payload, ID_FIELD: p.id},
                )
                for p in points[i : i + size]
            ]
            await self._call("upsert", self._c().upsert(name, points=batch, wait=True))
        return len(points)

    async def existing(self, name: str, ids: Sequence[str]) -> dict[str, dict[str, Any]]:
        if not ids or not await self.collection_exists(name):
            return {}
        found: dict[str, dict[str, Any]] = {}
        for i in range(0, len(ids), 1024):
            part = [point_uuid(x) for x in ids[i : i + 1024]]
            records = await self._call(
                "retrieve", self._c().retrieve(name, ids=part, with_payload=True, with_vectors=False)
            )
            for r in records:
                payload = dict(r.payload or {})
                found[str(payload.get(ID_FIELD, r.id))] = payload
        return found

    async def ids(self, name: str) -> list[str]:
        if not await self.collection_exists(name):
            return []
        out: list[str] = []
        offset: Any = None
        while True:
            records, offset = await self._call(
                "scroll",
                self._c().scroll(name, limit=2048, offset=offset, with_payload=[ID_FIELD], with_vectors=False),
            )
            out += [str((r.payload or {}).get(ID_FIELD, r.id)) for r in records]
            if offset is None:
                return out

    async def search(
        self, name: str, vector: Sequence[float], *, top_k: int, filters: Filters | None = None
    ) -> list[VectorHit]:
        if not await self.collection_exists(name):
            return []
        res = await self._call(
            "search",
            self._c().query_points(
                name,
                query=list(map(float, vector)),
                limit=top_k,
                query_filter=build_filter(filters),
                with_payload=True,
            ),
        )
        return [
            VectorHit(id=str(p.payload.get(ID_FIELD, p.id)), score=float(p.score), payload=dict(p.payload))
            for p in res.points
        ]

    async def delete(self, name: str, filters: Filters) -> None:
        from qdrant_client import models as qm

        if not filters:
            raise InvalidInputError("delete needs a filter; use drop_collection to remove everything")
        if not await self.collection_exists(name):
            return
        await self._call(
            "delete",
            self._c().delete(name, points_selector=qm.FilterSelector(filter=build_filter(filters)), wait=True),
        )

    async def count(self, name: str, filters: Filters | None = None) -> int:
        if not await self.collection_exists(name):
            return 0
        res = await self._call("count", self._c().count(name, count_filter=build_filter(filters), exact=True))
        return int(res.count)

    async def drop_collection(self, name: str) -> None:
        if await self.collection_exists(name):
            await self._call("delete_collection", self._c().delete_collection(name))
