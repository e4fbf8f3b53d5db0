"""Vector stores: the ``VectorStore`` protocol and the Qdrant implementation."""

from __future__ import annotations

from app.settings import Settings
from app.stores.vector.base import VectorHit, VectorPoint, VectorStore, collection_name

__all__ = ["VectorHit", "VectorPoint", "VectorStore", "build_vector_store", "collection_name"]


def build_vector_store(settings: Settings) -> VectorStore:
    from app.stores.vector.qdrant import QdrantVectorStore

    v = settings.vector
    if v.mode == "server":
        return QdrantVectorStore(
            url=v.url,
            api_key=v.api_key.get_secret_value() if v.api_key else None,
            timeout_s=v.timeout_s,
            upsert_batch_size=v.upsert_batch_size,
        )
    return QdrantVectorStore(path=settings.qdrant_path, timeout_s=v.timeout_s, upsert_batch_size=v.upsert_batch_size)
