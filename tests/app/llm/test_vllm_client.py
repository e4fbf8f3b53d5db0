"""The gateway's vLLM worker client without a worker: retries only on retryable failures, timeouts, streaming,
cancellation, and the grounded answer is checked against the candidates (httpx MockTransport)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from app.errors import DependencyError, DependencyTimeoutError
from app.llm.adapters import TunedAdapter
from app.llm.base import GroundedChooser
from app.llm.vllm_client import VLLMClient

CANDS = ["MATCH (a) RETURN a.name", "MATCH (b) RETURN b.name"]
MSGS = [{"role": "user", "content": "q"}]


def client_with(handler: Callable[[httpx.Request], httpx.Response], **kw: object) -> VLLMClient:
    c = VLLMClient("http://worker", model="m", **kw)  # type: ignore[arg-type]
    c._client = httpx.AsyncClient(transport=httpx.MockTransport(handler), base_url="http://worker")
    return c


SENT: list[dict[str, object]] = []


def grounded_ok(request: httpx.Request) -> httpx.Response:
    body = json.loads(request.content)
    SENT.append(body)
    assert body["candidates"] == CANDS and body["top_m"] == 2
    return httpx.Response(
        200,
        json={
            "ranked": [{"index": 1, "text": CANDS[1], "logprob": -1.5}, {"index": 0, "text": CANDS[0], "logprob": -3.0}]
        },
    )


async def test_choose_returns_the_workers_ranking_and_is_a_grounded_chooser() -> None:
    c = client_with(grounded_ok)
    assert isinstance(c, GroundedChooser)
    ranked = await c.choose(MSGS, CANDS, top_m=2, method="best_first")
    assert [(r.index, r.text, r.logprob) for r in ranked] == [(1, CANDS[1], -1.5), (0, CANDS[0], -3.0)]
    assert SENT[-1]["method"] == "best_first"  # one method vocabulary: the worker decides how it serves it


async def test_choose_refuses_an_answer_that_is_not_a_candidate() -> None:
    def bad(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"ranked": [{"index": 0, "text": "MATCH (n) DETACH DELETE n", "logprob": 0}]})

    with pytest.raises(DependencyError, match="not a candidate"):
        await client_with(bad).choose(MSGS, CANDS, top_m=1, method="exact")


async def test_retries_retryable_statuses_then_succeeds() -> None:
    calls = {"n": 0}

    def flaky(request: httpx.Request) -> httpx.Response:
        calls["n"] += 1
        return httpx.Response(503, text="busy") if calls["n"] < 3 else grounded_ok(request)

    ranked = await client_with(flaky, retries=2).choose(MSGS, CANDS, top_m=2, method="exact")
    assert calls["n"] == 3 and ranked[0].index == 1


@pytest.mark.parametrize("status", [400, 404, 422])
async def test_does_not_retry_client_errors(status: int) -> None:
    calls = {"n": 0}

    def reject(request: httpx.Request) -> httpx.Response:
        calls["n"] += 1
        return httpx.Response(status, json={"detail": "no"})

    with pytest.raises(DependencyError, match=f"HTTP {status}"):
        await client_with(reject, retries=3).choose(MSGS, CANDS, top_m=2, method="exact")
    assert calls["n"] == 1


async def test_timeouts_become_dependency_timeouts_after_retries() -> None:
    calls = {"n": 0}

    def slow(request: httpx.Request) -> httpx.Response:
        calls["n"] += 1
        raise httpx.ReadTimeout("slow", request=request)

    with pytest.raises(DependencyTimeoutError):
        await client_with(slow, retries=1).generate(MSGS, max_new_tokens=4)  # type: ignore[arg-type]
    assert calls["n"] == 2


async def test_stream_yields_deltas_in_order() -> None:
    chunks = ["Hal", "ven", "moor"]

    def sse(request: httpx.Request) -> httpx.Response:
        assert json.loads(request.content)["stream"] is True
        lines = [f"data: {json.dumps({'choices': [{'delta': {'content': c}}]})}\n\n" for c in chunks]
        return httpx.Response(200, content="".join(lines) + "data: [DONE]\n\n")

    out = [p async for p in client_with(sse).stream(MSGS, max_new_tokens=8)]  # type: ignore[arg-type]
    assert out == chunks


async def test_cancelling_a_call_cancels_the_http_request() -> None:
    started, cancelled = asyncio.Event(), asyncio.Event()

    async def hang(request: httpx.Request) -> httpx.Response:
        started.set()
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            cancelled.set()
            raise
        return httpx.Response(200)

    c = VLLMClient("http://worker", model="m")
    c._client = httpx.AsyncClient(transport=httpx.MockTransport(hang), base_url="http://worker")
    task = asyncio.create_task(c.choose(MSGS, CANDS, top_m=1, method="exact"))
    await asyncio.wait_for(started.wait(), 5)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert cancelled.is_set()  # the in-flight request was torn down, which makes vLLM abort it


def fake_adapter(folder: Path, rank: int = 8) -> TunedAdapter:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "adapter_config.json").write_text(json.dumps({"r": rank, "base_model_name_or_path": "m"}))
    return TunedAdapter(f"text2cypher-{folder.parent.name}", folder)


async def test_a_namespace_adapter_is_registered_with_the_worker_once_per_version(tmp_path: Path) -> None:
    posted: list[dict[str, object]] = []

    def worker(request: httpx.Request) -> httpx.Response:
        assert request.url.path == "/v1/grounded/loras"
        posted.append(json.loads(request.content))
        return httpx.Response(200, json={"enabled": True, "loras": {}})

    root = tmp_path / "adapters"
    adapter = fake_adapter(root / "ns1" / "text2cypher")
    # the worker mounts the adapters folder elsewhere: the path it is sent is translated
    c = client_with(worker, adapters_dir=root, worker_adapters_dir="/shared/adapters/")
    assert not c.serves(adapter)
    assert await c.ensure_adapter(adapter) is None and c.serves(adapter)
    assert posted == [{"name": "text2cypher-ns1", "path": "/shared/adapters/ns1/text2cypher"}]
    assert await c.ensure_adapter(adapter) is None and len(posted) == 1  # served: not asked again
    # tune rewrote it: the worker is asked to load the new files
    (adapter.path / "adapter_model.safetensors").write_bytes(b"new weights")
    assert not c.serves(adapter)
    assert await c.ensure_adapter(adapter) is None and len(posted) == 2 and c.serves(adapter)
    # without a translation the worker gets the gateway's own path
    plain = client_with(worker)
    await plain.ensure_adapter(adapter)
    assert posted[-1]["path"] == str(adapter.path)


async def test_a_worker_that_cannot_serve_the_adapter_is_not_asked_on_every_request(tmp_path: Path) -> None:
    calls = {"n": 0}

    def no_lora(request: httpx.Request) -> httpx.Response:
        calls["n"] += 1
        return httpx.Response(409, json={"detail": "LoRA is off on this worker: start it with --enable-lora"})

    adapter = fake_adapter(tmp_path / "ns1" / "text2cypher")
    c = client_with(no_lora)
    why = await c.ensure_adapter(adapter)
    assert why is not None and "409" in why and "--enable-lora" in why and not c.serves(adapter)
    assert await c.ensure_adapter(adapter) == why and calls["n"] == 1  # remembered
    c.adapter_retry_s = 0  # once the wait is over it asks again
    await c.ensure_adapter(adapter)
    assert calls["n"] == 2
