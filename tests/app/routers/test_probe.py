"""The outside probe's cases (issue 38), against the real app: the longest valid question in every mode, a streamed
body over the limit, an unhandled error, and every request while the graph server is paused."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import time
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from app.container import Container
from app.observability import RequestIdFilter
from tests.conftest import ADMIN_TOKEN

LONGEST = (
    "I am planning a long railway journey across the country and I would like to understand the history of the "
    "rolling stock and the structures along the way, so please bear with this detailed question. "
    "Which manufacturer built the Sable Class locomotives, who designed the Kestrel Class, how many arches does the "
    "Drummel Viaduct have, where is the Drummel Viaduct, which line crosses it, which company operated the line "
    "when it opened, and in which city was the designer of the Curlew Class born? "
) * 6
LONGEST = LONGEST[:1999] + "?"
"""2,000 characters, the most a question may have, and under the 512 answer-model tokens: valid input."""


async def test_the_longest_valid_question_is_answered_in_every_mode(
    client: httpx.AsyncClient, container: Container
) -> None:
    assert len(LONGEST) == 2000
    for mode in sorted(container.retrievers):
        body = {"question": LONGEST, "namespace": "demo", "mode": mode, "top_k": 5, "cache": False}
        r = await client.post("/retrieve", json=body)
        assert r.status_code == 200, f"{mode}: {r.status_code} {r.text[:500]}"
    for mode in ("vector", "text2cypher"):
        r = await client.post("/ask", json={"question": LONGEST, "namespace": "demo", "mode": mode, "cache": False})
        assert r.status_code == 200, f"/ask {mode}: {r.status_code} {r.text[:500]}"
        assert r.json()["items"]


async def _chunks(total: int, sent: list[int], size: int = 64 * 1024) -> AsyncIterator[bytes]:
    yield b'{"question": "q", "filters": {"pad": "'
    while sum(sent) < total:
        sent.append(size)
        yield b"y" * size
    yield b'"}}'


@pytest.mark.parametrize(("route", "limit_of"), [("/retrieve", "max_body_bytes"), ("/admin/ingest", "admin")])
async def test_a_streamed_body_over_the_limit_is_a_413_and_is_not_read_to_its_end(
    client: httpx.AsyncClient, container: Container, route: str, limit_of: str
) -> None:
    s = container.settings
    limit = s.server.max_body_bytes if limit_of == "max_body_bytes" else s.ingest.max_inline_bytes
    sent: list[int] = []
    r = await client.post(
        route,
        content=_chunks(limit * 3, sent),  # no Content-Length: chunked transfer encoding
        headers={"content-type": "application/json", "authorization": f"Bearer {ADMIN_TOKEN}"},
    )
    assert r.status_code == 413, r.text[:300]
    err = r.json()["error"]
    assert err["code"] == "payload_too_large" and str(limit) in err["message"]
    assert err["request_id"] == r.headers["x-request-id"]
    assert sum(sent) <= limit + 2 * 64 * 1024  # reading stopped at the limit


async def test_an_unhandled_error_keeps_the_request_id_in_body_header_and_log(
    client: httpx.AsyncClient, container: Container, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(container.retrievers["bm25"], "retrieve", broken)
    caplog.handler.addFilter(RequestIdFilter())
    with caplog.at_level(logging.ERROR, logger="app.main"):
        r = await client.post(
            "/retrieve",
            json={"question": "q", "namespace": "demo", "mode": "bm25", "cache": False},
            headers={"x-request-id": "probe-500"},
        )
    assert r.status_code == 500
    assert r.headers["x-request-id"] == "probe-500"
    err = r.json()["error"]
    assert err["code"] == "internal_error" and err["request_id"] == "probe-500" and "a bug" not in r.text
    logged = [rec for rec in caplog.records if rec.name == "app.main" and rec.exc_info]
    assert logged and all(getattr(rec, "request_id", None) == "probe-500" for rec in logged)


async def test_while_the_graph_server_is_paused_every_request_ends_within_its_deadline(
    client: httpx.AsyncClient, container: Container
) -> None:
    """SIGSTOP of the embedded graph server with ``/namespaces`` and every mode in flight: each answers (degraded,
    503 or 504) within the graph deadline + 1 s of what it takes with the server up, not after the pause."""
    graph = container.graph
    server = getattr(graph, "server", None)
    assert server is not None and server.pid is not None
    deadline_s = container.settings.graph.query_timeout_s
    pause_s = 3 * deadline_s

    async def timed(method: str, url: str, body: dict[str, object] | None = None) -> tuple[str, int, float]:
        t0 = time.monotonic()
        r = await client.request(method, url, json=body)
        return f"{method} {url} {body and body.get('mode')}", r.status_code, time.monotonic() - t0

    def batch() -> list[asyncio.Future[tuple[str, int, float]]]:
        q = {"question": "Which manufacturer built the Sable Class?", "namespace": "demo", "cache": False}
        calls = [timed("GET", "/namespaces")]
        calls += [timed("POST", "/retrieve", q | {"mode": m}) for m in sorted(container.retrievers)]
        calls.append(timed("POST", "/ask", q | {"mode": "vector", "max_tokens": 8}))
        return [asyncio.ensure_future(c) for c in calls]

    up = {name: (status, s) for name, status, s in await asyncio.gather(*batch())}
    assert all(status == 200 for status, _ in up.values()), up
    os.kill(server.pid, signal.SIGSTOP)
    t0 = time.monotonic()
    try:
        paused = await asyncio.gather(*batch())
        assert time.monotonic() - t0 < pause_s  # nothing waited out the pause
    finally:
        os.kill(server.pid, signal.SIGCONT)
    slow = {
        name: (status, round(s, 2), round(up[name][1], 2))
        for name, status, s in paused
        if s > up[name][1] + deadline_s + 1.0
    }
    assert not slow, f"past the deadline (status, seconds paused, seconds up): {slow}"
    assert all(status in (200, 503, 504) for _, status, _ in paused), paused
    assert any(status != 200 for _, status, _ in paused)  # /namespaces at least cannot answer without the graph
    for _ in range(50):  # and it all works again once the server answers
        if not graph.watch.unresponsive:
            break
        await asyncio.sleep(0.1)
    r = await client.get("/namespaces")
    assert r.status_code == 200 and any(n["namespace"] == "demo" for n in r.json()["namespaces"])


ADMIN = {"authorization": f"Bearer {ADMIN_TOKEN}"}


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ({"format": "metaqa", "path": "/tmp/kg.txt\x00.txt"}, "path cannot be used"),
        ({"format": "metaqa", "path": "/x", "labels": {"r": ["A", "B"]}}, "labels_path"),
        ({"format": "metaqa", "triples": [["a", "r", "b"]], "labels_path": "/x"}, "labels_path goes with a path"),
        ({"format": "documents", "path": "/x", "labels_path": "/y"}, "labels_path goes with a path of triples"),
        ({"format": "cypher", "cypher": "   // only a comment\n"}, "no statement"),
        ({"format": "metaqa", "triples": [["a", "r", "b"]], "labels": {"r": ["Chunk", "_IngestJournal"]}}, "keeps"),
    ],
)
async def test_bad_admin_ingests_are_a_clear_422_and_leave_nothing(
    client: httpx.AsyncClient, body: dict[str, object], needle: str
) -> None:
    r = await client.post("/admin/ingest", json={"namespace": "probe_bad"} | body, headers=ADMIN)
    assert r.status_code == 422, r.text[:300]
    assert needle in r.json()["error"]["message"]
    listed = (await client.get("/namespaces")).json()["namespaces"]
    assert not any(n["namespace"] == "probe_bad" for n in listed)  # no journal entry, no node


async def test_a_source_that_cannot_be_ingested_is_refused_before_the_journal(
    container: Container, tmp_path: Path
) -> None:
    from app.errors import InvalidInputError

    kg = tmp_path / "kg.txt"
    kg.write_text("Sable Class|built_by|Orrin Works\n", encoding="utf-8")
    cases = [
        ("metaqa", tmp_path, None, "is a folder"),  # a folder for a file format
        ("cypher", tmp_path, None, "is a folder"),
        ("metaqa", tmp_path / ("x" * 300), None, "path cannot be used"),  # a name too long
        ("metaqa", tmp_path / "missing.txt", None, "does not exist"),
        ("metaqa", kg, tmp_path, "labels file"),  # the labels file is a folder
    ]
    os.mkfifo(tmp_path / "fifo.txt")  # a read of it would block for ever
    (tmp_path / "bad.txt").write_bytes(b"\xff\xfe|r|b\n")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "keys.json").write_text('{"keys": [{"id": "k1"}]}', encoding="utf-8")  # JSON, but no documents
    (tmp_path / "evil_labels.json").write_text('{"built_by": ["X`) DETACH DELETE n //", "B"]}', encoding="utf-8")
    cases += [
        ("metaqa", kg, tmp_path / "evil_labels.json", "not a label"),
        ("metaqa", tmp_path / "fifo.txt", None, "not a regular file"),
        ("metaqa", kg, tmp_path / "fifo.txt", "not a regular file"),
        ("metaqa", tmp_path / "bad.txt", None, "not metaqa text in UTF-8"),
        ("documents", docs, None, "a document's text must be"),
    ]
    for fmt, path, labels, needle in cases:
        with pytest.raises(InvalidInputError) as err:
            await asyncio.wait_for(container.ingestor.ingest_path("probe_src", fmt, path, labels_path=labels), 30)
        assert needle in err.value.message
    assert await container.ingestor.pending("probe_src") == []
    labels = tmp_path / "labels.json"
    labels.write_text('{"built_by": ["Locomotive", "Manufacturer"]}', encoding="utf-8")
    await container.ingestor.ingest_path("probe_src", "metaqa", kg, labels_path=labels)
    rows = await container.graph.read("probe_src", "MATCH (m:Manufacturer) RETURN m.name AS name")
    assert rows == [{"name": "Orrin Works"}]


async def test_a_link_in_a_documents_folder_does_not_reach_outside_it(container: Container, tmp_path: Path) -> None:
    outside = tmp_path / "secret.txt"
    outside.write_text("The vault code is 4711.", encoding="utf-8")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "viaduct.md").write_text("# Drummel Viaduct\n\nThe Drummel Viaduct has nine arches.", encoding="utf-8")
    (docs / "secret.md").symlink_to(outside)
    (docs / "kestrel.md").symlink_to(docs / "sub" / "k.md")  # a link that stays inside is fine
    (docs / "sub").mkdir()
    (docs / "sub" / "k.md").write_text("# Kestrel Class\n\nDesigned by Ada Pell.", encoding="utf-8")
    await container.ingestor.ingest_path("probe_links", "documents", docs)
    listed = await container.ingestor.list_documents("probe_links")
    assert {d["title"] for d in listed} == {"Drummel Viaduct", "Kestrel Class"}


async def test_a_procedure_call_in_a_script_does_not_crash_the_graph_server(
    client: httpx.AsyncClient, container: Container
) -> None:
    """FalkorDB 4.16.3 dies of a segfault on ``CALL { CALL db.labels() }``: a script's statements are never put in
    that form (``Q.with_marker``), so a script of procedure calls and RETURNs ingests and the server lives."""
    server = getattr(container.graph, "server", None)
    pid = server.pid if server is not None else None
    script = "CALL db.labels();\nCREATE (n:ProbeThing {name: 'one'}) RETURN n;\nCALL db.relationshipTypes();\n"
    r = await client.post(
        "/admin/ingest", json={"namespace": "probe_proc", "format": "cypher", "cypher": script}, headers=ADMIN
    )
    assert r.status_code == 200, r.text[:300]
    assert r.json()["counts"]["statements"] == 3
    await asyncio.sleep(1.0)  # the supervisor would have seen a crash by now
    assert server is None or (server.pid == pid and not server.exited())
    rows = await container.graph.read("probe_proc", "MATCH (n:ProbeThing) RETURN n.name AS name")
    assert rows == [{"name": "one"}]


async def test_odd_requests_from_the_probe_get_clear_answers(client: httpx.AsyncClient) -> None:
    r = await client.delete("/admin/documents/", params={"namespace": "demo"}, headers=ADMIN)
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"  # not a redirect
    r = await client.post("/retrieve", json={"question": "q", "namespace": "demo", "top_k": True})
    assert r.status_code == 422 and "top_k" in r.json()["error"]["message"]
    r = await client.post("/retrieve", json={"question": "Who built the Sable\x00 Class?", "namespace": "demo"})
    assert r.status_code == 422 and "NUL" in r.json()["error"]["message"]
    r = await client.post(
        "/retrieve", content=b'{"question": "\xff\xfe"}', headers={"content-type": "application/json"}
    )
    assert r.status_code == 400 and r.json()["error"]["code"] in ("malformed_json", "malformed_body")


def test_a_file_path_written_with_a_trailing_slash_is_refused(tmp_path: Path) -> None:
    """``Path.resolve`` drops the slash: ``kg.txt/`` would otherwise ingest ``kg.txt``."""
    from app.errors import InvalidInputError
    from app.routers.admin import _allowed_path

    kg = tmp_path / "kg.txt"
    kg.write_text("a|r|b\n", encoding="utf-8")
    assert _allowed_path(str(kg), [tmp_path]) == kg.resolve()
    assert _allowed_path(f"{tmp_path}/", [tmp_path]) == tmp_path.resolve()  # a folder may end with '/'
    with pytest.raises(InvalidInputError, match="is not a folder"):
        _allowed_path(f"{kg}/", [tmp_path])
