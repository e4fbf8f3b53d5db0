"""The request deadline and client disconnects (``app/main.py`` ``DeadlineMiddleware``): a request whose response
has not started within ``server.request_timeout_s`` gets a 504 and its work is cancelled; a client that goes away
cancels its request's work instead of leaving it to starve the next ones; a response that started is not cut."""

from __future__ import annotations

import asyncio
from typing import Any

from app.main import DeadlineMiddleware


def _app(log: list[str], *, seconds: float, stream: bool = False) -> Any:
    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()  # the body
        try:
            if stream:
                await send({"type": "http.response.start", "status": 200, "headers": []})
            await asyncio.sleep(seconds)
            if not stream:
                await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b"done"})
            log.append("finished")
        except asyncio.CancelledError:
            log.append("cancelled")
            raise

    return app


def _io(disconnect_after: float | None) -> tuple[Any, Any, list[dict[str, Any]]]:
    sent: list[dict[str, Any]] = []
    messages = [{"type": "http.request", "body": b"{}", "more_body": False}]

    async def receive() -> dict[str, Any]:
        if messages:
            return messages.pop(0)
        await asyncio.sleep(disconnect_after if disconnect_after is not None else 3600)
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    return receive, send, sent


SCOPE = {"type": "http", "path": "/retrieve", "method": "POST", "headers": []}


async def test_past_the_deadline_the_request_gets_504_and_its_work_is_cancelled() -> None:
    log: list[str] = []
    receive, send, sent = _io(None)
    await DeadlineMiddleware(_app(log, seconds=30), timeout_s=0.2)(SCOPE, receive, send)
    assert sent[0]["status"] == 504 and b"request_timeout" in sent[1]["body"]
    assert log == ["cancelled"]


async def test_a_client_that_disconnects_cancels_its_work() -> None:
    log: list[str] = []
    receive, send, sent = _io(0.1)
    await DeadlineMiddleware(_app(log, seconds=30), timeout_s=60)(SCOPE, receive, send)
    assert log == ["cancelled"] and sent[0]["status"] == 499


async def test_in_time_or_already_streaming_the_response_is_left_alone() -> None:
    log: list[str] = []
    receive, send, sent = _io(None)
    await DeadlineMiddleware(_app(log, seconds=0.05), timeout_s=5)(SCOPE, receive, send)
    assert sent[0]["status"] == 200 and log == ["finished"]
    log.clear()
    receive, send, sent = _io(None)
    await DeadlineMiddleware(_app(log, seconds=0.4, stream=True), timeout_s=0.2)(SCOPE, receive, send)
    assert sent[0]["status"] == 200 and sent[1]["body"] == b"done" and log == ["finished"]
    log.clear()
    probe = {**SCOPE, "path": "/healthz"}
    receive, send, sent = _io(None)
    await DeadlineMiddleware(_app(log, seconds=0.4), timeout_s=0.2)(probe, receive, send)
    assert log == ["finished"]  # probes are not bounded here


async def test_the_service_answers_504_past_its_request_timeout(container: Any, monkeypatch: Any) -> None:
    import httpx
    from asgi_lifespan import LifespanManager

    from app.main import create_app
    from app.observability import REQUESTS

    server = container.settings.server.model_copy(update={"request_timeout_s": 0.3})
    application = create_app(container.settings.model_copy(update={"server": server}), container=container)
    log: list[str] = []

    async def slow(req: Any) -> Any:
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            log.append("cancelled")
            raise

    monkeypatch.setattr(container.qa, "retrieve", slow)
    async with LifespanManager(application):
        transport = httpx.ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
            counted = REQUESTS.labels(route="/retrieve", method="POST", status="504")
            before = counted._value.get()
            r = await c.post("/retrieve", json={"question": "slow?", "namespace": "demo", "cache": False})
            assert r.status_code == 504 and r.json()["error"]["code"] == "request_timeout"
            assert counted._value.get() - before == 1  # graphrag_requests_total{status="504"}
            assert (await c.get("/healthz")).status_code == 200
    assert log == ["cancelled"]


async def test_an_ingest_has_its_own_longer_deadline() -> None:
    log: list[str] = []
    ingest = {**SCOPE, "path": "/admin/ingest"}
    receive, send, sent = _io(None)
    await DeadlineMiddleware(_app(log, seconds=0.3), timeout_s=0.1, ingest_timeout_s=5)(ingest, receive, send)
    assert sent[0]["status"] == 200 and log == ["finished"]
    log.clear()
    receive, send, sent = _io(None)
    await DeadlineMiddleware(_app(log, seconds=30), timeout_s=5, ingest_timeout_s=0.1)(ingest, receive, send)
    assert sent[0]["status"] == 504 and b"0.1 s" in sent[1]["body"] and log == ["cancelled"]
