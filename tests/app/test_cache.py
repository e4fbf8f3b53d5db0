"""Result cache of /retrieve and /ask (app/cache.py): hits, invalidation by ingest, single flight, and a Redis that is
down or slow. The session app uses the embedded backend: the cache lives in the embedded FalkorDB server's Redis."""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from prometheus_client import REGISTRY
from redis.asyncio import Redis

from app.cache import ResultCache
from app.container import Container
from app.retrievers.types import RetrievalQuery, RetrievalResult
from app.schemas import RetrieveResponse
from tests.conftest import ADMIN_TOKEN

AUTH = {"authorization": f"Bearer {ADMIN_TOKEN}"}


def metric(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def response(text: str = "r", warnings: list[str] | None = None) -> RetrieveResponse:
    return RetrieveResponse(
        request_id="computed", namespace="ns", mode="vector", items=[], timings_ms={"x": 1.0}, warnings=warnings or []
    )


def embedded_cache(container: Container, **kw: Any) -> ResultCache:
    client = Redis(**container.graph.redis_connection_kwargs, socket_timeout=1)  # type: ignore[attr-defined]
    return ResultCache(client, **{"timeout_s": 1.0, **kw})


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
async def silent_server() -> AsyncIterator[int]:
    """A TCP server that accepts connections and never answers (a hung Redis)."""
    conns: list[asyncio.StreamWriter] = []

    async def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conns.append(writer)

    server = await asyncio.start_server(accept, "127.0.0.1", 0)
    try:
        yield int(server.sockets[0].getsockname()[1])
    finally:
        for w in conns:
            w.close()
        server.close()
        await server.wait_closed()


async def ingest_doc(client: httpx.AsyncClient, namespace: str, title: str, text: str) -> None:
    body = {"namespace": namespace, "format": "documents", "documents": [{"title": title, "text": text}]}
    r = await client.post("/admin/ingest", json=body, headers=AUTH)
    assert r.status_code == 200, r.text


async def test_second_identical_ask_is_cached_and_an_ingest_invalidates_it(client: httpx.AsyncClient) -> None:
    await ingest_doc(client, "cache_t", "Quill Tunnel", "The Quill Tunnel is 812 metres long and opened in 1881.")
    ask = {"question": "How long is the Quill Tunnel?", "namespace": "cache_t", "max_tokens": 8}
    hits = metric("graphrag_cache_requests_total", route="/ask", result="hit")

    first = await client.post("/ask", json=ask)
    assert first.status_code == 200, first.text
    assert first.json()["cached"] is False
    # the same request, whitespace aside: served from Redis, same answer, this request's own id
    second = await client.post("/ask", json={**ask, "question": "  How long is   the Quill Tunnel? "})
    b1, b2 = first.json(), second.json()
    assert b2["cached"] is True
    assert (b2["answer"], b2["items"], b2["citations"]) == (b1["answer"], b1["items"], b1["citations"])
    assert b2["request_id"] == second.headers["x-request-id"] != b1["request_id"]
    assert b2["trace"]["cache"]["age_s"] >= 0
    assert metric("graphrag_cache_requests_total", route="/ask", result="hit") == hits + 1
    # any parameter that changes the result is part of the key; `cache: false` always computes
    assert (await client.post("/ask", json={**ask, "top_k": 2})).json()["cached"] is False
    assert (await client.post("/ask", json={**ask, "cache": False})).json()["cached"] is False

    # an ingest into the namespace bumps its index version: the next identical ask is computed afresh
    await ingest_doc(client, "cache_t", "Quill Tunnel portal", "The Quill Tunnel portal is built of red sandstone.")
    third = await client.post("/ask", json=ask)
    assert third.status_code == 200 and third.json()["cached"] is False
    assert "Quill Tunnel portal" in {i["source"]["title"] for i in third.json()["items"]}
    assert (await client.post("/ask", json=ask)).json()["cached"] is True


async def test_an_ingest_elsewhere_leaves_the_cache_alone(client: httpx.AsyncClient) -> None:
    body = {"question": "Which engine works built the Sable Class?", "namespace": "demo", "top_k": 3}
    assert (await client.post("/retrieve", json=body)).json()["cached"] is False
    await ingest_doc(client, "cache_other", "Elsewhere", "Nothing about locomotives.")
    assert (await client.post("/retrieve", json=body)).json()["cached"] is True


async def test_concurrent_identical_retrieves_compute_once(
    client: httpx.AsyncClient, container: Container, monkeypatch: pytest.MonkeyPatch
) -> None:
    vector = container.retrievers["vector"]
    original = vector.retrieve
    calls: list[str] = []

    async def counting(query: RetrievalQuery) -> RetrievalResult:
        calls.append(query.question)
        await asyncio.sleep(0.3)  # long enough for every request to arrive while the first computes
        return await original(query)

    monkeypatch.setattr(vector, "retrieve", counting)
    body = {"question": "What does the Ossendale Engine Works build?", "namespace": "demo", "top_k": 4}
    rs = await asyncio.gather(*(client.post("/retrieve", json=body) for _ in range(5)))
    assert all(r.status_code == 200 for r in rs)
    assert len(calls) == 1
    assert sorted(r.json()["cached"] for r in rs) == [False, True, True, True, True]
    assert len({str(r.json()["items"]) for r in rs}) == 1
    # without the cache every request computes
    await asyncio.gather(*(client.post("/retrieve", json={**body, "cache": False}) for _ in range(2)))
    assert len(calls) == 3


async def test_replicas_compute_once_through_the_redis_lock(container: Container) -> None:
    # two caches with their own in-process maps over the same Redis: two replicas of the service
    a, b = embedded_cache(container), embedded_cache(container)
    calls = 0

    async def compute() -> RetrieveResponse:
        nonlocal calls
        calls += 1
        await asyncio.sleep(0.3)
        return response()

    params = {"question": f"replicas {time.time_ns()}"}
    try:
        ra, rb = await asyncio.gather(
            a.cached("/retrieve", "demo", params, RetrieveResponse, compute),
            b.cached("/retrieve", "demo", params, RetrieveResponse, compute),
        )
    finally:
        await a.close()
        await b.close()
    assert calls == 1
    assert sorted([ra.cached, rb.cached]) == [False, True]


async def test_degraded_responses_are_not_stored(container: Container) -> None:
    cache = embedded_cache(container)
    calls = 0

    async def compute() -> RetrieveResponse:
        nonlocal calls
        calls += 1
        return response(warnings=["graph store: entity facts unavailable"])

    params = {"question": f"degraded {time.time_ns()}"}
    try:
        for _ in range(2):
            assert (await cache.cached("/retrieve", "demo", params, RetrieveResponse, compute)).cached is False
    finally:
        await cache.close()
    assert calls == 2


async def test_a_failed_version_bump_is_retried_before_anything_is_read(container: Container) -> None:
    cache = embedded_cache(container)
    params = {"question": f"bump {time.time_ns()}"}

    async def compute() -> RetrieveResponse:
        return response()

    working = cache.client
    try:
        await cache.cached("/retrieve", "bump_ns", params, RetrieveResponse, compute)
        assert (await cache.cached("/retrieve", "bump_ns", params, RetrieveResponse, compute)).cached is True
        # an ingest while Redis is unreachable: the bump fails and is remembered
        cache.client = Redis(host="127.0.0.1", port=closed_port(), socket_connect_timeout=0.2)
        assert await cache.bump_version("bump_ns") is False
        assert await cache.key("/retrieve", "bump_ns", params) is None  # nothing is read meanwhile
        await cache.client.aclose()
        cache.client = working
        # Redis is back: the pending bump goes first, so the entry stored before the ingest is not served
        assert (await cache.cached("/retrieve", "bump_ns", params, RetrieveResponse, compute)).cached is False
    finally:
        cache.client = working
        await cache.close()


async def test_redis_down_means_uncached_not_failed(
    client: httpx.AsyncClient, container: Container, monkeypatch: pytest.MonkeyPatch
) -> None:
    down = ResultCache(Redis(host="127.0.0.1", port=closed_port(), socket_connect_timeout=0.2), timeout_s=0.2)
    errors = metric("graphrag_cache_errors_total", operation="version")
    bypass = metric("graphrag_cache_requests_total", route="/retrieve", result="bypass")
    monkeypatch.setattr(container, "cache", down)
    try:
        body = {"question": "Where is the Drummel Viaduct?", "namespace": "demo", "top_k": 2}
        for _ in range(2):
            r = await client.post("/retrieve", json=body)
            assert r.status_code == 200 and r.json()["cached"] is False and r.json()["items"]
    finally:
        await down.close()
    assert metric("graphrag_cache_errors_total", operation="version") >= errors + 2
    assert metric("graphrag_cache_requests_total", route="/retrieve", result="bypass") == bypass + 2
    assert "graphrag_backend_up" in (await client.get("/metrics")).text


async def test_a_hung_redis_costs_at_most_the_timeout(silent_server: int) -> None:
    cache = ResultCache(Redis(host="127.0.0.1", port=silent_server, socket_timeout=5), timeout_s=0.1)
    errors = metric("graphrag_cache_errors_total", operation="version")

    async def compute() -> RetrieveResponse:
        return response()

    t0 = time.perf_counter()
    try:
        out = await cache.cached("/retrieve", "demo", {"question": "hung"}, RetrieveResponse, compute)
        assert await cache.bump_version("demo") is False
    finally:
        await cache.close()
    assert out.cached is False and out.request_id == "computed"
    assert time.perf_counter() - t0 < 1.5  # each Redis call is cut at timeout_s
    assert metric("graphrag_cache_errors_total", operation="version") > errors
