"""One contract suite for every VectorStore: Qdrant local mode (always) and a Qdrant server (QDRANT_URL)."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from app.errors import InvalidInputError
from app.stores.vector.base import VectorPoint, VectorStore
from app.stores.vector.qdrant import QdrantVectorStore


def pts() -> list[VectorPoint]:
    return [
        VectorPoint("a", [1.0, 0.0, 0.0], {"title": "A", "year": 1990, "tag": "x"}),
        VectorPoint("b", [0.9, 0.1, 0.0], {"title": "B", "year": 2000, "tag": "y"}),
        VectorPoint("c", [0.0, 1.0, 0.0], {"title": "C", "year": 2010, "tag": "x"}),
        VectorPoint("d", [0.0, 0.0, 1.0], {"title": "D", "year": 2020, "tag": "z"}),
    ]


class VectorStoreContract:
    @pytest.fixture
    def coll(self) -> str:
        return f"t_{uuid.uuid4().hex[:8]}__chunks"

    async def test_upsert_and_search_by_cosine(self, store: VectorStore, coll: str) -> None:
        await store.ensure_collection(coll, 3)
        assert await store.upsert(coll, pts(), batch_size=3) == 4
        hits = await store.search(coll, [1.0, 0.05, 0.0], top_k=2)
        assert [h.id for h in hits] == ["a", "b"]
        assert hits[0].score > hits[1].score
        assert hits[0].payload["title"] == "A"

    async def test_filters(self, store: VectorStore, coll: str) -> None:
        await store.ensure_collection(coll, 3)
        await store.upsert(coll, pts())
        q = [1.0, 0.0, 0.0]
        assert [h.id for h in await store.search(coll, q, top_k=4, filters={"tag": "x"})] == ["a", "c"]
        assert {h.id for h in await store.search(coll, q, top_k=4, filters={"tag": ["y", "z"]})} == {"b", "d"}
        assert {h.id for h in await store.search(coll, q, top_k=4, filters={"year": {"gte": 2000, "lte": 2010}})} == {
            "b",
            "c",
        }
        with pytest.raises(InvalidInputError):
            await store.search(coll, q, top_k=4, filters={"year": {"near": 3}})

    async def test_upsert_replaces_by_id_and_delete_by_filter(self, store: VectorStore, coll: str) -> None:
        await store.ensure_collection(coll, 3)
        await store.upsert(coll, pts())
        await store.upsert(coll, [VectorPoint("a", [0.0, 0.0, 1.0], {"title": "A2", "year": 1990, "tag": "x"})])
        assert await store.count(coll) == 4
        assert (await store.existing(coll, ["a", "zz"]))["a"]["title"] == "A2"
        await store.delete(coll, {"tag": "x"})
        assert await store.count(coll) == 2
        assert await store.count(coll, {"tag": "y"}) == 1
        assert sorted(await store.ids(coll)) == ["b", "d"]  # every point's id (what index removes stale ones by)
        await store.delete(coll, {"item_id": ["b"]})
        assert await store.ids(coll) == ["d"] and await store.ids("t_missing__chunks") == []
        with pytest.raises(InvalidInputError):
            await store.delete(coll, {})

    async def test_dimension_mismatch_and_missing_collection(self, store: VectorStore, coll: str) -> None:
        await store.ensure_collection(coll, 3)
        await store.ensure_collection(coll, 3)  # idempotent
        with pytest.raises(InvalidInputError, match="3-d"):
            await store.ensure_collection(coll, 4)
        assert await store.search("nope__chunks", [1.0, 0.0, 0.0], top_k=3) == []
        assert await store.count("nope__chunks") == 0
        assert await store.existing("nope__chunks", ["a"]) == {}
        await store.drop_collection(coll)
        assert not await store.collection_exists(coll)

    async def test_ping(self, store: VectorStore) -> None:
        assert await store.ping()


class TestQdrantLocal(VectorStoreContract):
    @pytest.fixture
    async def store(self, tmp_path: Path) -> AsyncIterator[VectorStore]:
        s = QdrantVectorStore(path=tmp_path / "qdrant")
        await s.start()
        try:
            yield s
        finally:
            await s.close()


@pytest.mark.integration
@pytest.mark.skipif(not os.environ.get("QDRANT_URL"), reason="QDRANT_URL not set")
class TestQdrantServer(VectorStoreContract):
    @pytest.fixture
    async def store(self) -> AsyncIterator[VectorStore]:
        s = QdrantVectorStore(url=os.environ["QDRANT_URL"], api_key=os.environ.get("QDRANT_API_KEY"))
        await s.start()
        try:
            yield s
        finally:
            await s.close()
