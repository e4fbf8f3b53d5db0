"""HTTP API through the app's lifespan, against the real embedded backends and real small models."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from app.errors import DependencyError, DependencyTimeoutError
from tests.conftest import ADMIN_TOKEN


async def test_health_and_readiness(client: httpx.AsyncClient) -> None:
    assert (await client.get("/healthz")).json() == {"status": "ok"}
    r = await client.get("/readyz")
    assert r.status_code == 200
    body = r.json()
    assert body["status"] == "ready"
    assert body["checks"] == {"graph": "ok", "vectors": "ok", "llm": "ok", "embedder": "ok"}
    assert "vector" in body["modes"]


async def test_retrieve_returns_ranked_items_with_provenance(client: httpx.AsyncClient) -> None:
    r = await client.post(
        "/retrieve", json={"question": "How many arches does the Drummel Viaduct have?", "namespace": "demo"}
    )
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["mode"] == "vector" and body["namespace"] == "demo"
    items = body["items"]
    assert 1 <= len(items) <= 5
    assert [i["score"] for i in items] == sorted((i["score"] for i in items), reverse=True)
    top = items[0]
    assert top["retriever"] == "vector"
    assert top["source"] == {
        "kind": "chunk",
        "title": "The Drummel Viaduct",
        "chunk_id": top["id"],
        "node_id": None,
        "node_name": None,
        "namespace": "demo",
    }
    assert "27 arches" in " ".join(i["text"] for i in items if i["source"]["title"] == "The Drummel Viaduct")
    assert {"embed", "vector_search", "total"} <= set(body["timings_ms"])
    assert r.headers["x-request-id"] == body["request_id"]


async def test_retrieve_returns_graph_nodes_with_their_facts(client: httpx.AsyncClient) -> None:
    r = await client.post("/retrieve", json={"question": "Sable Class", "namespace": "demo", "top_k": 10})
    nodes = [i for i in r.json()["items"] if i["source"]["kind"] == "node"]
    sable = next(i for i in nodes if i["node"]["name"] == "Sable Class")
    assert sable["node"]["labels"] == ["Locomotive"]
    assert sable["source"]["node_id"] == sable["node"]["id"] == sable["id"]
    assert "Sable Class MANUFACTURED_BY Ossendale Engine Works" in sable["text"]


async def test_retrieve_filters_by_payload(client: httpx.AsyncClient) -> None:
    r = await client.post(
        "/retrieve",
        json={"question": "arches", "namespace": "demo", "filters": {"title": "The Ibex Class"}, "top_k": 3},
    )
    assert r.status_code == 200
    chunks = [i for i in r.json()["items"] if i["source"]["kind"] == "chunk"]
    assert (chunks and all(i["source"]["title"] == "The Ibex Class" for i in chunks)) or not chunks


async def test_ask_answers_with_citations_pointing_at_items(client: httpx.AsyncClient) -> None:
    r = await client.post(
        "/ask", json={"question": "How many arches does the Drummel Viaduct have?", "namespace": "demo"}
    )
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["answer"] and isinstance(body["answer"], str)
    ids = {i["id"] for i in body["items"]}
    assert body["citations"] and all(c["item_id"] in ids for c in body["citations"])
    assert body["trace"]["generation"]["tokens_out"] > 0
    assert body["timings_ms"]["answer_generation"] > 0
    assert body["warnings"] == []


async def test_ask_streams_server_sent_events(client: httpx.AsyncClient) -> None:
    r = await client.post(
        "/ask",
        json={
            "question": "Where is the Drummel Viaduct?",
            "namespace": "demo",
            "stream": True,
            "max_tokens": 8,
        },
    )
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/event-stream")
    events = [block for block in r.text.split("\n\n") if block.strip()]
    kinds = [e.split("\n")[0].removeprefix("event: ") for e in events]
    assert kinds[0] == "items" and kinds[-1] == "done" and "token" in kinds
    done = json.loads(events[-1].split("data: ", 1)[1])
    tokens = "".join(json.loads(e.split("data: ", 1)[1])["text"] for e in events if e.startswith("event: token"))
    assert done["answer"] == tokens.strip()


@pytest.mark.parametrize(
    ("payload", "status", "code", "needle"),
    [
        ({"question": ""}, 422, "invalid_input", "question"),
        ({"question": "   "}, 422, "invalid_input", "question"),
        ({"question": "x" * 100_000}, 422, "invalid_input", "at most 2000"),
        (
            {"question": "q", "mode": "telepathy"},
            422,
            "unknown_mode",
            "available modes: bm25, free_cypher, hybrid, iterative, neighborhood, react, text2cypher, traversal, "
            "triplets, vector",
        ),
        ({"question": "q", "top_k": 0}, 422, "invalid_input", "top_k"),
        ({"question": "q", "top_k": 10_000}, 422, "invalid_input", "top_k"),
        ({"question": "q", "namespace": "Bad Name!"}, 422, "invalid_input", "namespace"),
        ({"question": "q", "colour": "blue"}, 422, "invalid_input", "colour"),
        ({"question": "q", "filters": {"year": {"near": 1}}}, 422, "invalid_input", "filters"),
        ({"question": "q", "filters": {"$where": "1"}}, 422, "invalid_input", "filter key"),  # was a 503
        ({"question": "q", "cache": 0}, 422, "invalid_input", "cache"),  # booleans are strict
        ({"question": "q", "stream": "yes"}, 422, "invalid_input", "stream"),
        ({"question": "\U0001f600" * 1990}, 422, "question_too_long", "tokens (limit 512"),  # ~6,000 LLM tokens
        ({}, 422, "invalid_input", "question"),
    ],
)
@pytest.mark.parametrize("route", ["/retrieve", "/ask"])
async def test_bad_input_gets_a_clear_4xx(
    client: httpx.AsyncClient, route: str, payload: dict, status: int, code: str, needle: str
) -> None:
    r = await client.post(route, json=payload)
    assert r.status_code == status, r.text
    err = r.json()["error"]
    assert err["code"] == code
    assert needle in err["message"]
    assert err["request_id"] == r.headers["x-request-id"]
    assert "x" * 1000 not in r.text  # the offending input is never echoed back


async def test_malformed_json_and_oversized_bodies(client: httpx.AsyncClient) -> None:
    r = await client.post("/retrieve", content=b'{"question": "q",', headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "malformed_json"
    r = await client.post("/retrieve", content=b"[1, 2]", headers={"content-type": "application/json"})
    assert r.status_code == 422
    big = json.dumps({"question": "q", "filters": {"pad": "y" * 2_000_000}})
    r = await client.post("/retrieve", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["error"]["code"] == "payload_too_large"


async def test_unknown_route_and_method_use_the_envelope(client: httpx.AsyncClient) -> None:
    r = await client.get("/nope")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    r = await client.get("/ask")
    assert r.status_code == 405 and r.json()["error"]["code"] == "method_not_allowed"
    assert r.headers["allow"] == "POST"
    auth = {"authorization": f"Bearer {ADMIN_TOKEN}"}
    r = await client.get("/admin/documents", params={"namespace": "de\x00mo"}, headers=auth)  # a NUL: was a 500
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_input"
    r = await client.delete("/admin/documents/a%00b", params={"namespace": "demo"}, headers=auth)
    assert r.status_code == 422


async def test_request_id_is_propagated(client: httpx.AsyncClient) -> None:
    r = await client.post("/retrieve", json={"question": "q", "top_k": 0}, headers={"x-request-id": "abc-123"})
    assert r.headers["x-request-id"] == "abc-123"
    assert r.json()["error"]["request_id"] == "abc-123"


async def test_unknown_namespace_returns_no_items_not_an_error(client: httpx.AsyncClient) -> None:
    r = await client.post("/retrieve", json={"question": "anything", "namespace": "empty_ns"})
    assert r.status_code == 200 and r.json()["items"] == []
    r = await client.post("/ask", json={"question": "anything", "namespace": "empty_ns"})
    assert r.status_code == 200
    assert r.json()["citations"] == [] and r.json()["trace"]["generation"]["skipped"] == "no items retrieved"


async def test_metrics_are_exposed(client: httpx.AsyncClient) -> None:
    await client.post("/retrieve", json={"question": "Drummel", "namespace": "demo"})
    text = (await client.get("/metrics")).text
    for name in (
        "graphrag_requests_total",
        "graphrag_request_duration_seconds_bucket",
        "graphrag_stage_duration_seconds_bucket",
        "graphrag_retrievals_total",
    ):
        assert name in text
    assert 'route="/retrieve"' in text and 'stage="embed"' in text


async def test_openapi_has_examples(client: httpx.AsyncClient) -> None:
    spec = (await client.get("/openapi.json")).json()
    assert {"/ask", "/retrieve", "/healthz", "/readyz", "/metrics", "/admin/ingest"} <= set(spec["paths"])
    props = spec["components"]["schemas"]["RetrieveRequest"]["properties"]
    assert props["question"]["examples"] and props["question"]["maxLength"] == 2000
    top_k = next(x for x in props["top_k"]["anyOf"] if x.get("type") == "integer")
    assert (top_k["minimum"], top_k["maximum"]) == (1, 100)
    # every enabled mode's trace model is in the schema, and it is what `trace` may be
    schemas = spec["components"]["schemas"]
    refs = {r["$ref"].rsplit("/", 1)[1] for r in schemas["RetrieveResponse"]["properties"]["trace"]["anyOf"]}
    assert {"VectorTrace", "Text2CypherTrace", "FreeCypherTrace"} <= refs
    assert refs == {r["$ref"].rsplit("/", 1)[1] for r in schemas["AskTrace"]["properties"]["retrieval"]["anyOf"]}
    t2c = schemas["Text2CypherTrace"]["properties"]
    assert {"query", "rows", "error", "candidate_queries", "links", "ranked", "executed"} <= set(t2c)
    assert t2c["candidate_queries"]["description"].startswith("How many valid candidate queries")


async def test_admin_ingest_requires_the_token_and_is_idempotent(client: httpx.AsyncClient) -> None:
    body = {
        "namespace": "admin_t",
        "format": "documents",
        "documents": [{"title": "Zephyr Bridge", "text": "The Zephyr Bridge has nine spans of blue iron."}],
    }
    assert (await client.post("/admin/ingest", json=body)).status_code == 401
    bad = {"authorization": "Bearer wrong"}
    assert (await client.post("/admin/ingest", json=body, headers=bad)).status_code == 401
    auth = {"authorization": f"Bearer {ADMIN_TOKEN}"}
    r = await client.post("/admin/ingest", json=body, headers=auth)
    assert r.status_code == 200, r.text
    assert r.json()["counts"]["chunks_embedded"] == 1
    r = await client.post("/admin/ingest", json=body, headers=auth)
    assert r.json()["counts"] == {"documents": 1, "documents_unchanged": 1, "chunks": 0}  # nothing rewritten
    r = await client.post(
        "/retrieve", json={"question": "How many spans has the Zephyr Bridge?", "namespace": "admin_t"}
    )
    assert r.json()["items"][0]["source"]["title"] == "Zephyr Bridge"
    # inline triples, and bad requests
    t = {"namespace": "admin_t", "format": "metaqa", "triples": [["Zephyr Bridge", "crosses", "River Wend"]]}
    r = await client.post("/admin/ingest", json=t, headers=auth)
    assert r.json()["counts"]["relationships_created"] == 1
    both = {**body, "cypher": "CREATE (n)"}
    assert (await client.post("/admin/ingest", json=both, headers=auth)).status_code == 422
    p = {"namespace": "admin_t", "format": "documents", "path": "/etc"}
    r = await client.post("/admin/ingest", json=p, headers=auth)
    assert r.status_code == 403 and "ALLOWED_PATHS" in r.json()["error"]["message"]


async def test_inline_documents_may_be_markdown_or_html(client: httpx.AsyncClient) -> None:
    auth = {"authorization": f"Bearer {ADMIN_TOKEN}"}
    md = "# Quell Mill\nThe Quell Mill ground corn.\n\n## Wheel\nIts wheel is 9 metres across."
    html = "<html><title>Sorrel Weir</title><body><h2>Gates</h2><p>The weir has two gates.</p></body></html>"
    docs = [
        {"type": "markdown", "text": md, "key": "quell-mill"},
        {"type": "html", "text": html},
        {"title": "Plain", "text": "## not a heading in plain text"},
    ]
    body = {"namespace": "inline_fmt", "format": "documents", "documents": docs}
    r = await client.post("/admin/ingest", json=body, headers=auth)
    assert r.status_code == 200, r.text
    listed = (await client.get("/admin/documents", params={"namespace": "inline_fmt"}, headers=auth)).json()
    assert sorted(d["title"] for d in listed["documents"]) == ["Plain", "Quell Mill", "Sorrel Weir"]
    r = await client.post(
        "/retrieve",
        json={"question": "How wide is the wheel of Quell Mill?", "namespace": "inline_fmt", "mode": "hybrid"},
    )
    found = {(it["source"]["title"], it["provenance"]["section"]) for it in r.json()["items"]}
    assert ("Quell Mill", "Wheel") in found and ("Sorrel Weir", "Gates") in found  # headings became sections
    for mode in ("hybrid", "iterative"):  # the document modes answer through /ask too, with provenance
        q = {"question": "How wide is the wheel of Quell Mill?", "namespace": "inline_fmt", "mode": mode}
        r = await client.post("/ask", json=q)
        assert r.status_code == 200, r.text
        body_ = r.json()
        assert body_["items"] and body_["citations"] and body_["mode"] == mode
        for it in body_["items"]:
            p = it["provenance"]
            assert p["page_id"] and "section" in p and it["source"]["chunk_id"] == it["id"]
            assert mode == "hybrid" or "hop" in p
    for bad, word in (({"type": "pdf", "text": "x"}, "type"), ({"text": "x", "colour": "red"}, "colour")):
        r = await client.post("/admin/ingest", json={**body, "documents": [bad]}, headers=auth)
        assert r.status_code == 422 and word in r.json()["error"]["message"], r.text


async def test_namespaces_listing(client: httpx.AsyncClient) -> None:
    body = (await client.get("/namespaces")).json()
    demo = next(n for n in body["namespaces"] if n["namespace"] == "demo")
    # entities: the KG's 140 and 26 document titles that name none of them; 36 pages, 72 chunks
    assert demo["nodes"] == 166 + 36 + 72
    # KG facts; HAS_CHUNK + IS_CHUNK_OF; NEXT + PREVIOUS; ABOUT; 649 citations, each CITES + CITED_IN
    assert demo["relationships"] == 277 + 2 * 72 + 2 * 36 + 36 + 2 * 649


async def test_admin_deletes_a_document_and_retrieval_stops_returning_it(client: httpx.AsyncClient) -> None:
    auth = {"authorization": f"Bearer {ADMIN_TOKEN}"}
    docs = [
        {"title": "Tarn Bridge", "text": "Tarn Bridge carries the Orrel line over the river Tarn since 1871."},
        {"title": "Orrel Line", "text": "The Orrel line runs from Orrel to Whitby Moor in the north."},
    ]
    body = {"namespace": "deltest", "format": "documents", "documents": docs}
    assert (await client.post("/admin/ingest", json=body, headers=auth)).status_code == 200
    question = {"question": "Which river does Tarn Bridge cross?", "namespace": "deltest", "mode": "vector"}
    before = (await client.post("/retrieve", json=question)).json()["items"]
    listed = (await client.get("/admin/documents", params={"namespace": "deltest"}, headers=auth)).json()
    ids = {d["title"]: d["id"] for d in listed["documents"]}
    assert set(ids) == {"Tarn Bridge", "Orrel Line"} and ids["Tarn Bridge"] in {
        i["provenance"]["page_id"] for i in before
    }
    url = f"/admin/documents/{ids['Tarn Bridge']}"
    assert (await client.delete(url, params={"namespace": "deltest"})).status_code == 401
    r = await client.delete(url, params={"namespace": "deltest"}, headers=auth)
    assert r.status_code == 200 and r.json()["counts"]["documents"] == 1
    # the cached result of the same question is gone with it
    after = (await client.post("/retrieve", json=question)).json()["items"]
    assert after and ids["Tarn Bridge"] not in {i["provenance"]["page_id"] for i in after}
    gone = await client.delete(url, params={"namespace": "deltest"}, headers=auth)
    assert gone.status_code == 404 and gone.json()["error"]["code"] == "not_found"
    bad = await client.delete("/admin/documents/x y", params={"namespace": "deltest"}, headers=auth)
    assert bad.status_code == 422
    assert [
        d["title"]
        for d in (await client.get("/admin/documents", params={"namespace": "deltest"}, headers=auth)).json()[
            "documents"
        ]
    ] == ["Orrel Line"]


@pytest.mark.parametrize(
    ("error", "status", "code"),
    [
        (DependencyError("qdrant", "connection refused"), 503, "dependency_unavailable"),
        (DependencyTimeoutError("falkordb", "no answer from the graph server in time"), 504, "dependency_timeout"),
    ],
)
async def test_a_failed_dependency_says_when_to_retry(
    client: httpx.AsyncClient, container: Any, monkeypatch: pytest.MonkeyPatch, error: Exception, status: int, code: str
) -> None:
    async def failing(req: Any) -> Any:
        raise error

    monkeypatch.setattr(container.qa, "retrieve", failing)
    r = await client.post("/retrieve", json={"question": "q", "namespace": "demo", "cache": False})
    assert r.status_code == status and r.json()["error"]["code"] == code and r.json()["error"]["retryable"]
    assert r.headers["retry-after"] == "2"
