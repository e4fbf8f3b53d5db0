"""The ingest journal (``app/ingest/journal.py``): an ingest cut off by an error, a stop or kill -9 of the service is
found and finished, and ends with the same counts as a clean ingest; a Cypher script of CREATEs is resumed after
its last applied statement, never applied twice."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.container import Container
from app.cypher import queries as Q
from app.errors import DependencyError
from app.ingest.parsers import Triple
from tests.app.stores.test_embedded_faults import _alive
from tests.conftest import ADMIN_TOKEN, Service, make_settings


def script(n: int) -> str:
    """``n`` CREATE statements (not idempotent: run twice, it doubles) linking people to towns."""
    lines = [f"CREATE (:Person {{name: 'Walker {i}'}})-[:LIVES_IN]->(:Town {{name: 'Town {i}'}});" for i in range(n)]
    return "\n".join(lines)


def fail_at(c: Container, k: int, action: Callable[[], Awaitable[Any]]) -> None:
    """Make the ``k``-th statement of a script (a write with a journal marker) run ``action`` instead."""
    real, calls = c.graph.execute, {"n": 0}

    async def execute(namespace: str, cypher: str, params: Any = None, *, marker: Any = None) -> Any:
        if marker is not None:
            calls["n"] += 1
            if calls["n"] == k:
                c.graph.execute = real  # type: ignore[method-assign]
                return await action()
        return await real(namespace, cypher, params, marker=marker)

    c.graph.execute = execute  # type: ignore[method-assign]


async def test_a_script_cut_off_by_an_error_is_resumed_not_run_twice(tmp_path: Path) -> None:
    c = await Container.start(make_settings(tmp_path), with_llm=False)
    try:
        clean = await c.ingestor.ingest_cypher("clean", script(30))
        expected = await c.graph.counts("clean")
        assert expected == (60, 30) and clean.counts["nodes_created"] == 60

        async def boom() -> None:
            raise DependencyError("falkordb", "connection reset")

        fail_at(c, 12, boom)  # 11 statements applied, then the 12th fails
        with pytest.raises(DependencyError):
            await c.ingestor.ingest_cypher("cut", script(30))
        [pending] = await c.ingestor.pending("cut")
        assert pending["state"] == "failed" and "connection reset" in pending["error"]
        assert pending["statements_done"] == 11  # its progress, as /namespaces shows it
        assert (await c.graph.counts("cut"))[1] == 11

        again = await c.ingestor.ingest_cypher("cut", script(30))  # the same script again
        assert again.counts["statements_resumed_after"] == 11
        assert await c.graph.counts("cut") == expected  # not 41 relationships: nothing applied twice
        assert await c.ingestor.pending("cut") == []
    finally:
        await c.close()


async def test_an_ingest_stopped_mid_way_is_finished_at_start_up(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    c = await Container.start(settings, with_llm=False)
    triples = [Triple(f"Walker {i}", "lives_in", f"Town {i % 7}") for i in range(40)]
    try:
        await c.ingestor.ingest_cypher("clean", script(30))
        await c.ingestor.ingest_triples("clean_kg", triples)
        expected = [await c.graph.counts("clean"), await c.graph.counts("clean_kg")]
        started = asyncio.Event()

        async def hang() -> None:
            started.set()
            await asyncio.sleep(3600)

        fail_at(c, 9, hang)
        task = asyncio.create_task(c.ingestor.detached(c.ingestor.ingest_cypher("cut", script(30))))
        await started.wait()
        await c.ingestor.close()  # what the lifespan does on shutdown: the ingest is interrupted
        with pytest.raises(asyncio.CancelledError):
            await task
        [pending] = await c.ingestor.pending("cut")
        assert pending["state"] == "interrupted"
        # a triples ingest whose process died: its entry is still "running", under an owner that is gone
        rows = {"triples": [[t.subject, t.relation, t.object] for t in triples], "labels": {}}
        sha, payload = c.ingestor._payload(rows)
        entry = {"sha": sha, "kind": "triples", "owner": "gone:1:x", "now": time.time(), "source": "{}"}
        entry |= {"recovering": False}
        await c.graph.execute("cut_kg", Q.JOURNAL_BEGIN, entry | {"payload": payload})
        await c.graph.write("cut_kg", Q.merge_entities(None), [{"name": "Walker 0", "id": "x"}])
        await c.graph.flush()
    finally:
        await c.close()

    again = await Container.start(settings, with_llm=False)
    try:
        assert await again.ingestor.recover() == {"finished": 2}
        assert [await again.graph.counts("cut"), await again.graph.counts("cut_kg")] == expected
        assert await again.ingestor.pending("cut") == [] and await again.ingestor.pending("cut_kg") == []
        hits = await again.vectors.search("cut_kg__entities", (await again.embedder.embed(["Walker 3"]))[0], top_k=1)
        assert hits and hits[0].payload["name"] == "Walker 3"  # the vectors were finished too
    finally:
        await again.close()


async def test_a_changed_source_file_is_not_guessed_at(tmp_path: Path) -> None:
    settings = make_settings(tmp_path / "data")
    source = tmp_path / "kg.cypher"
    source.write_text(script(10), encoding="utf-8")
    c = await Container.start(settings, with_llm=False)
    try:

        async def hang() -> None:
            await asyncio.sleep(3600)

        fail_at(c, 4, hang)
        task = asyncio.create_task(c.ingestor.detached(c.ingestor.ingest_path("src", "cypher", source)))
        await asyncio.sleep(0.5)
        await c.ingestor.close()
        with pytest.raises(asyncio.CancelledError):
            await task
        source.write_text(script(12), encoding="utf-8")  # edited while the service was down
        assert await c.ingestor.recover() == {"source_changed": 1}
        [pending] = await c.ingestor.pending("src")
        assert pending["state"] == "failed" and "changed" in pending["error"]
        assert pending["source"]["path"] == str(source)
    finally:
        await c.close()


async def _clean(c: Container) -> tuple[tuple[int, int], Any]:
    """The counts of ``script(30)`` ingested cleanly (into "clean"), and the embedded graph server."""
    await c.ingestor.ingest_cypher("clean", script(30))
    return await c.graph.counts("clean"), c.graph.server  # type: ignore[attr-defined]


async def test_a_statement_that_kills_the_graph_server_is_named_and_not_run_into_it_again(tmp_path: Path) -> None:
    """The graph server dies under statement 12: the error names the statement, the entry is failed durably (it
    outlives the server's restart from its last save), start-up does not run it again, and the same script sent
    again resumes from what the graph kept to the clean counts."""
    settings = make_settings(tmp_path)
    c = await Container.start(settings, with_llm=False)
    try:
        expected, server = await _clean(c)
        pid = server.pid

        async def crash() -> None:
            os.kill(server.pid, signal.SIGKILL)  # what the MULTI/EXEC assertion did to the real server
            # the connection is gone: a write says so (a read would wait for the restart and be asked again)
            await c.graph.execute("cut", "MATCH (n) RETURN count(n) AS n")

        fail_at(c, 12, crash)
        with pytest.raises(DependencyError) as err:
            await c.ingestor.ingest_cypher("cut", script(30))
        assert "statement 12 of 30" in err.value.message
        assert err.value.details["statement"] == 12 and "Walker 11" in err.value.details["text"]
        assert server.pid != pid  # restarted from its last save
        [pending] = await c.ingestor.pending("cut")
        assert pending["state"] == "failed" and "statement 12 of 30" in pending["error"]
    finally:
        await c.close()
    again = await Container.start(settings, with_llm=False)
    try:
        assert await again.ingestor.recover() == {}  # a failed ingest is not run into the same crash at start-up
        kept = (await again.graph.counts("cut"))[1]
        assert 0 <= kept <= 11
        report = await again.ingestor.ingest_cypher("cut", script(30))  # the caller sends it again
        assert report.counts.get("statements_resumed_after", 0) == kept
        assert await again.graph.counts("cut") == expected
    finally:
        await again.close()


async def test_writes_after_the_graph_server_restarted_mid_ingest_are_refused(tmp_path: Path) -> None:
    """The embedded server dies between two statements and is back, from its last save, before the next: that next
    write would succeed on a graph that lost the statements before it, so it is refused, the ingest is not
    acknowledged, and the script sent again resumes from what the graph kept to the clean counts."""
    c = await Container.start(make_settings(tmp_path), with_llm=False)
    try:
        expected, server = await _clean(c)
        real = c.graph.execute

        async def restart_then_write() -> Any:
            pid = server.pid
            os.kill(pid, signal.SIGKILL)
            for _ in range(200):  # the supervisor restarts it within a second
                await asyncio.sleep(0.05)
                if server.pid != pid and not server.exited() and await c.graph.ping():
                    break
            assert server.pid != pid
            sha = c.ingestor._payload({"script": script(30)})[0]
            return await real(
                "cut", "CREATE (:Person {name: 'Walker 11'})", marker=(Q.JOURNAL_NEXT, {"sha": sha, "next": 12})
            )

        fail_at(c, 12, restart_then_write)
        with pytest.raises(DependencyError) as err:
            await c.ingestor.ingest_cypher("cut", script(30))
        assert "restarted" in err.value.message
        [pending] = await c.ingestor.pending("cut")
        assert pending["state"] == "failed"
        kept = (await c.graph.counts("cut"))[1]
        assert 0 <= kept <= 11  # the restart lost what was written after the last save; nothing was written after it
        report = await c.ingestor.ingest_cypher("cut", script(30))  # the caller sends it again
        assert report.counts.get("statements_resumed_after", 0) == kept
        assert await c.graph.counts("cut") == expected
        assert await c.ingestor.pending("cut") == []
    finally:
        await c.close()


async def test_an_entry_of_this_process_left_running_by_a_restart_is_taken_over(tmp_path: Path) -> None:
    """A graph server that restarts from a save made mid-ingest brings back that ingest's entry as running, owned by
    this process, which is no longer at it: the same content sent again takes it over instead of being refused as a
    duplicate of itself."""
    c = await Container.start(make_settings(tmp_path), with_llm=False)
    try:
        sha, payload = c.ingestor._payload({"script": script(3)})
        entry = {"sha": sha, "kind": "cypher", "owner": c.ingestor.journal.owner, "now": time.time(), "source": "{}"}
        await c.graph.execute("mine", Q.JOURNAL_BEGIN, entry | {"payload": payload, "recovering": False})
        await c.ingestor.ingest_cypher("mine", script(3))
        assert await c.graph.counts("mine") == (6, 3)
        assert await c.ingestor.pending("mine") == []
    finally:
        await c.close()


async def test_an_ingest_cut_off_again_and_again_is_given_up(tmp_path: Path) -> None:
    """Start-up takes up a cut-off ingest at most ``ingest.max_recovery_attempts`` times: one that keeps killing the
    service (or stalling the server) is marked failed instead of being run into it at every start."""
    c = await Container.start(make_settings(tmp_path), with_llm=False)
    try:
        for ns, attempts in (("once", 1), ("twice", 2)):
            sha, payload = c.ingestor._payload({"script": script(3)})
            entry = {"sha": sha, "kind": "cypher", "owner": "gone:1:x", "now": time.time(), "source": "{}"}
            await c.graph.execute(ns, Q.JOURNAL_BEGIN, entry | {"payload": payload, "recovering": False})
            await c.graph.execute(ns, f"MATCH (j:{Q.JOURNAL_LABEL}) SET j._attempts = {attempts}")
        assert await c.ingestor.recover() == {"finished": 1, "gave_up": 1}
        assert await c.ingestor.pending("once") == [] and await c.graph.counts("once") == (6, 3)
        [pending] = await c.ingestor.pending("twice")
        assert pending["state"] == "failed" and "cut off 2 times" in pending["error"]
        assert await c.graph.counts("twice") == (0, 0)
    finally:
        await c.close()


# --- kill -9 of the whole service mid-ingest ------------------------------------------------------------------


def _children(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True, check=False).stdout
    return [int(x) for x in out.split()]


JOURNAL_ENV = {
    "GRAPHRAG_SERVER__ADMIN_TOKEN": ADMIN_TOKEN,
    "GRAPHRAG_RERANKER__BACKEND": "off",
    "GRAPHRAG_SERVER__REQUEST_TIMEOUT_S": "600",
}


@pytest.fixture
def services(tmp_path: Path) -> Iterator[list[Service]]:
    started: list[Service] = []
    yield started
    for s in started:
        s.stop()


def test_kill_9_of_the_service_mid_ingest_leaves_no_orphan_and_the_ingest_is_finished(
    tmp_path: Path, services: list[Service]
) -> None:
    data = tmp_path / "data"
    body = {"namespace": "big", "format": "cypher", "cypher": script(1500)}
    first = Service(data, env=JOURNAL_ENV)
    services.append(first)
    graph_server = _children(first.proc.pid)
    assert graph_server, "the embedded graph server should be a child of the service"

    def post() -> None:
        with contextlib.suppress(httpx.HTTPError):  # the service is killed under it
            first.client.post("/admin/ingest", json=body)

    sender = threading.Thread(target=post, daemon=True)
    sender.start()
    deadline = time.monotonic() + 60
    while not first.namespaces().get("big", {}).get("ingests"):  # the ingest is under way
        assert time.monotonic() < deadline, "the ingest never showed up as running"
        time.sleep(0.05)
    assert first.namespaces()["big"]["ingests"][0]["state"] == "running"
    first.proc.kill()  # kill -9: no shutdown code runs
    first.proc.wait()
    sender.join(30)
    deadline = time.monotonic() + 10
    while any(_alive(p) for p in graph_server) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(p) for p in graph_server), "the graph server outlived the killed service"

    second = Service(data, env=JOURNAL_ENV)  # start-up finds the ingest cut off and finishes it
    services.append(second)
    deadline = time.monotonic() + 120
    while "ingests" in second.namespaces()["big"]:  # listed until it is finished
        assert time.monotonic() < deadline, "the interrupted ingest was not finished"
        time.sleep(0.25)
    done = second.namespaces()["big"]
    finished = 'graphrag_ingest_recovered_total{outcome="finished"} 1.0'
    # counted once the recovery returns: after its end was saved and the caches were told (a moment after the entry
    # left the listing)
    while finished not in second.client.get("/metrics").text:
        assert time.monotonic() < deadline, "the finished recovery was not counted"
        time.sleep(0.1)
    # the same script into a fresh namespace: the clean counts
    clean = second.client.post("/admin/ingest", json=body | {"namespace": "clean"})
    assert clean.status_code == 200, clean.text
    reference = second.namespaces()["clean"]
    assert (done["nodes"], done["relationships"]) == (reference["nodes"], reference["relationships"]) == (3000, 1500)
    # and sending it again (what a client that lost its answer does) changes nothing
    resent = second.client.post("/admin/ingest", json=body)
    assert resent.status_code == 200 and resent.json()["counts"].get("statements_skipped") == 1500
    assert second.namespaces()["big"]["nodes"] == 3000
