"""Start-up's pre-warm: the namespaces' name index, schema profile and text2cypher tables are built in the background
after a restart, so that the first question does not pay for them; a value invalidated while it was being built (an
ingest that ended meanwhile) is not kept."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
from asgi_lifespan import LifespanManager

from app.concurrency import BuiltOnce
from app.container import Container
from app.main import create_app
from app.retrievers.text2cypher import Text2CypherRetriever
from app.settings import ServerSettings
from tests.conftest import ADMIN_TOKEN, DEMO, ingest_demo, make_settings


async def test_a_value_invalidated_while_it_is_built_is_not_kept() -> None:
    once: BuiltOnce[int] = BuiltOnce()
    builds = 0
    gate = asyncio.Event()

    async def build() -> int:
        nonlocal builds
        builds += 1
        await gate.wait()
        return builds

    first = asyncio.ensure_future(once.get("ns", build))
    await asyncio.sleep(0.01)
    once.invalidate("ns")  # an ingest ended while the first build read the old data
    gate.set()
    assert await first == 1 and not once.built("ns")  # its caller gets it; nobody else will
    assert await once.get("ns", build) == 2 and once.built("ns")
    assert await once.get("ns", build) == 2 and builds == 2  # kept now


async def test_after_a_restart_the_namespaces_are_prepared_before_any_question(tmp_path: Path) -> None:
    settings = make_settings(tmp_path / "data")
    c = await Container.start(settings, with_llm=False, modes=["text2cypher", "vector"])
    try:
        await ingest_demo(c)
    finally:
        await c.close()
    for limit in (16, 0):
        s = settings.model_copy(update={"server": ServerSettings(admin_token=ADMIN_TOKEN, prewarm_namespaces=limit)})  # type: ignore[arg-type]
        app = create_app(s)
        async with LifespanManager(app, startup_timeout=600, shutdown_timeout=120):
            c = app.state.container
            t2c = c.retrievers["text2cypher"]
            assert isinstance(t2c, Text2CypherRetriever)
            for _ in range(600 if limit else 15):  # 120 s, or (0) 3 s in which nothing may build them
                if app.state.warm.done():
                    break
                await asyncio.sleep(0.2)
            warmed = c.deps.linker.indexed("demo") and t2c._schemas.built("demo")
            assert warmed == bool(limit), limit  # no request was made: start-up built them, or (0) nothing did
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
                ready = await client.get("/readyz")
            assert ready.status_code == 200 and ready.json()["status"] == "ready", ready.json()  # warm, or none
            if limit:  # an ingest into the running service: that namespace is prepared again, with no question
                await c.ingestor.ingest_path("more", "metaqa", DEMO / "kg.txt", labels_path=DEMO / "labels.json")
                for _ in range(600):
                    if c.deps.linker.indexed("more") and t2c._schemas.built("more"):
                        break
                    await asyncio.sleep(0.2)
                assert c.deps.linker.indexed("more") and t2c._schemas.built("more")
