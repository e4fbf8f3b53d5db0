"""API keys with namespace scopes and rate limits (``app/auth.py``): the keys file keeps hashes only; a key sees
only its namespaces on every route (results, the namespace list, cached results); admin routes refuse a non-admin
before the body is read; 429 with ``Retry-After`` over a key's rate; production refuses to start without keys."""

from __future__ import annotations

import asyncio
import json
import stat
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from asgi_lifespan import LifespanManager
from fastapi import FastAPI

from app.auth import ANONYMOUS, KeyStore, RateLimiter
from app.container import Container
from app.main import AuthMiddleware, create_app
from app.observability import REQUESTS
from tests.conftest import make_settings

QUESTION = {"question": "Which manufacturer built the Sable Class?", "mode": "vector"}


def test_the_keys_file_keeps_hashes_only_and_a_revoked_key_stops_working(tmp_path: Path) -> None:
    store = KeyStore(tmp_path / "keys.json")
    key, token = store.create("ops", ["a", "b"], admin=True, rate_per_min=5)
    text = (tmp_path / "keys.json").read_text()
    assert token not in text and token.split("_", 2)[2] not in text and key.hash in text
    assert stat.S_IMODE((tmp_path / "keys.json").stat().st_mode) == 0o600
    reader = KeyStore(tmp_path / "keys.json")  # another process: the server
    assert reader.authenticate(token) == key
    assert reader.authenticate(token[:-1] + ("x" if token[-1] != "x" else "y")) is None
    assert reader.authenticate(f"grk_{key.id}") is None and reader.authenticate("nonsense") is None
    assert store.revoke(key.id) and not store.revoke(key.id)
    reader.refresh(every_s=0)
    assert reader.authenticate(token) is None
    with pytest.raises(ValueError):
        store.create("nobody", [])


async def test_the_rate_limiter_is_a_sliding_window() -> None:
    limiter = RateLimiter(window_s=0.5)
    assert [await limiter.hit("k", 2) for _ in range(3)][:2] == [0.0, 0.0]
    assert 0 < await limiter.hit("k", 2) <= 0.5 and await limiter.hit("other", 2) == 0.0
    await asyncio.sleep(0.55)
    assert await limiter.hit("k", 2) == 0.0


@pytest.fixture(scope="module")
def keyed(tmp_path_factory: pytest.TempPathFactory, container: Container) -> dict[str, Any]:
    keys_file = tmp_path_factory.mktemp("keys") / "keys.json"
    store = KeyStore(keys_file)
    tokens = {
        "demo": store.create("demo reader", ["demo"])[1],
        "other": store.create("other reader", ["other"])[1],
        "admin_other": store.create("other admin", ["other"], admin=True)[1],
        "slow": store.create("rate limited", ["demo"], rate_per_min=2)[1],
    }
    server = container.settings.server.model_copy(update={"keys_file": keys_file})
    return {"settings": container.settings.model_copy(update={"server": server}), "tokens": tokens, "store": store}


@pytest.fixture(scope="module")
async def client(keyed: dict[str, Any], container: Container) -> AsyncIterator[httpx.AsyncClient]:
    application = create_app(keyed["settings"], container=container)
    async with LifespanManager(application):
        transport = httpx.ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url="http://test", timeout=300) as c:
            yield c


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


async def test_every_route_but_health_needs_a_key(client: httpx.AsyncClient) -> None:
    for method, path in [("POST", "/retrieve"), ("POST", "/ask"), ("GET", "/namespaces"), ("GET", "/metrics")]:
        r = await client.request(method, path, json={**QUESTION, "namespace": "demo"})
        assert r.status_code == 401 and r.headers["www-authenticate"] == "Bearer", (path, r.text)
        assert r.json()["error"]["code"] == "unauthorized"
    r = await client.post("/retrieve", json={**QUESTION, "namespace": "demo"}, headers=bearer("grk_0_wrong"))
    assert r.status_code == 401
    assert (await client.get("/healthz")).status_code == 200
    assert (await client.get("/readyz")).status_code in (200, 503)


async def test_a_key_sees_only_its_namespaces(client: httpx.AsyncClient, keyed: dict[str, Any]) -> None:
    demo, other = bearer(keyed["tokens"]["demo"]), bearer(keyed["tokens"]["other"])
    body = {**QUESTION, "namespace": "demo"}
    ok = await client.post("/retrieve", json=body, headers=demo)
    assert ok.status_code == 200 and ok.json()["items"]
    again = await client.post("/retrieve", json=body, headers=demo)  # now in the result cache
    for route in ("/retrieve", "/ask"):
        r = await client.post(route, json=body, headers=other)
        assert r.status_code == 403 and r.json()["error"]["message"] == "this key has no access to namespace 'demo'"
        assert "items" not in r.json() and "other" not in r.text
    assert again.status_code == 200
    listed = (await client.get("/namespaces", headers=other)).json()["namespaces"]
    assert "demo" not in {n["namespace"] for n in listed}
    listed = (await client.get("/namespaces", headers=demo)).json()["namespaces"]
    assert {n["namespace"] for n in listed} == {"demo"}
    assert (await client.get("/metrics", headers=demo)).status_code == 200


async def test_admin_routes_need_an_admin_key_for_the_namespace(
    client: httpx.AsyncClient, keyed: dict[str, Any]
) -> None:
    demo, admin = bearer(keyed["tokens"]["demo"]), bearer(keyed["tokens"]["admin_other"])
    body = {"namespace": "other", "format": "documents", "documents": [{"title": "T", "text": "Some text."}]}
    r = await client.post("/admin/ingest", json=body, headers=demo)
    assert r.status_code == 403 and "not an admin key" in r.json()["error"]["message"]
    assert (await client.post("/admin/ingest", json=body)).status_code == 401
    r = await client.post("/admin/ingest", json={**body, "namespace": "demo"}, headers=admin)
    assert r.status_code == 403 and "namespace 'demo'" in r.json()["error"]["message"]
    r = await client.get("/admin/documents", params={"namespace": "demo"}, headers=admin)
    assert r.status_code == 403
    r = await client.post("/admin/ingest", json=body, headers=admin)
    assert r.status_code == 200, r.text


async def test_admin_is_refused_before_the_body_is_read(keyed: dict[str, Any]) -> None:
    reached: list[str] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        reached.append("app")

    received: list[Any] = []
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        received.append(1)
        return {"type": "http.request", "body": b"x" * 18_000_000}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    settings = keyed["settings"]
    mw = AuthMiddleware(app, settings=settings, keys=KeyStore(settings.keys_path), limiter=RateLimiter())
    for headers, status in (([], 401), ([(b"authorization", f"Bearer {keyed['tokens']['demo']}".encode())], 403)):
        received.clear()
        sent.clear()

        scope = {"type": "http", "path": "/admin/ingest", "method": "POST", "headers": headers}
        await mw(scope, receive, send)
        assert sent[0]["status"] == status and not received and not reached
        assert json.loads(sent[1]["body"])["error"]["code"] in ("unauthorized", "forbidden")
    assert mw.resolve(None) is None and ANONYMOUS.sees("anything")


async def test_over_the_rate_the_key_gets_429_with_retry_after(
    client: httpx.AsyncClient, keyed: dict[str, Any]
) -> None:
    counted = REQUESTS.labels(route="/namespaces", method="GET", status="429")
    before = counted._value.get()
    slow = bearer(keyed["tokens"]["slow"])
    codes = [(await client.get("/namespaces", headers=slow)).status_code for _ in range(3)]
    assert codes == [200, 200, 429]
    r = await client.get("/namespaces", headers=slow)
    assert r.status_code == 429 and 1 <= int(r.headers["retry-after"]) <= 60 and r.json()["error"]["retryable"]
    assert (await client.get("/namespaces", headers=bearer(keyed["tokens"]["demo"]))).status_code == 200
    # refused before routing, yet counted under the route it was for (not "unmatched")
    assert counted._value.get() - before == 2


async def test_a_rate_limiter_without_redis_counts_here_and_says_so_once(caplog: pytest.LogCaptureFixture) -> None:
    class Down:
        async def eval(self, *args: Any) -> Any:
            raise ConnectionError("redis is down")

    limiter = RateLimiter(Down(), window_s=60)
    with caplog.at_level("WARNING", logger="app.auth"):
        waits = [await limiter.hit("k", 3) for _ in range(5)]
    assert waits[:3] == [0.0, 0.0, 0.0] and waits[3] > 0  # the limit still holds, per process
    assert sum("Redis unavailable" in r.message for r in caplog.records) == 1  # not five warnings


async def test_a_revoked_key_is_refused_without_a_restart(client: httpx.AsyncClient, keyed: dict[str, Any]) -> None:
    store: KeyStore = keyed["store"]
    key, token = store.create("temporary", ["demo"])
    assert (await client.get("/namespaces", headers=bearer(token))).status_code == 200
    store.revoke(key.id)
    await asyncio.sleep(1.1)  # the server re-reads a changed keys file at most every second
    assert (await client.get("/namespaces", headers=bearer(token))).status_code == 401


def test_production_refuses_to_start_without_keys(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, environment="production")
    with pytest.raises(RuntimeError, match="needs API keys"):
        create_app(settings)
    KeyStore(settings.keys_path).create("svc", ["*"])
    assert isinstance(create_app(settings), FastAPI)
