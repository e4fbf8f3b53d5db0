"""``index``: a graph written straight into the store (not through ingest) is attached: profiled, linkable, answered
in every mode; a re-index embeds again only the nodes that changed and drops those that are gone."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import httpx
import pytest

from app.container import Container
from app.stores.vector.base import collection_name
from tests.app.retrievers.test_any_schema import PRODUCTS, script
from tests.conftest import ADMIN_TOKEN, make_settings, neo4j_graph_settings

ADMIN = {"authorization": f"Bearer {ADMIN_TOKEN}"}

NS = "attached"


async def _write_directly(c: Container, ns: str) -> None:
    """The shop graph through the store's own execute, as another program would write it: no ingest, no journal."""
    for statement in script().splitlines():
        await c.graph.execute(ns, statement.rstrip(";"))


async def _attach_and_change(c: Container, ns: str) -> None:
    await _write_directly(c, ns)
    assert await c.vectors.count(collection_name(ns, "entities")) == 0  # nothing indexed yet
    first = await c.ingestor.index(ns)
    # suppliers, categories and products named by their names and by their codes (each label's id: few nodes, every
    # one read, codes), orders by their own property
    named = 2 * (6 + 4 + len(PRODUCTS)) + 30
    assert first.counts["entities"] == named and first.counts["entities_embedded"] == named
    links = await c.deps.linker.link(ns, "Which products does Exotic Liquids supply?")
    assert [(x.name, x.key) for x in links] == [("Exotic Liquids", "companyName")]
    again = await c.ingestor.index(ns)  # idempotent: nothing embedded again
    assert again.counts.get("entities_embedded", 0) == 0 and again.counts["entities_unchanged"] == named
    # ten nodes change outside the service: ten embedded again, the ten old names leave the index
    await c.graph.execute(
        ns,
        "MATCH (p:Product) WITH p ORDER BY p.productRef LIMIT 10 SET p.productName = p.productName + ' Deluxe'",
    )
    await c.graph.execute(ns, "MATCH (o:Order {orderRef: 'ORD-10248'}) DETACH DELETE o")
    changed = await c.ingestor.index(ns)
    assert changed.counts["entities_embedded"] == 10
    assert changed.counts["entities_removed"] == 11  # ten old names and the deleted order
    assert changed.counts["entities"] == named - 1
    links = await c.deps.linker.link(ns, "Who supplies Chai Tea Deluxe?")
    assert [x.name for x in links] == ["Chai Tea Deluxe"]


async def test_a_graph_written_outside_the_service_is_attached_by_index(container: Container) -> None:
    await _attach_and_change(container, NS)


@pytest.mark.parametrize("mode", ["vector", "neighborhood", "triplets", "traversal", "react", "text2cypher", "hybrid"])
async def test_every_mode_answers_on_an_attached_graph(
    container: Container, client: httpx.AsyncClient, mode: str
) -> None:
    if NS not in await container.graph.namespaces():
        await _attach_and_change(container, NS)
    q = {"question": "Which products does Exotic Liquids supply?", "namespace": NS, "mode": mode, "top_k": 10}
    r = await client.post("/retrieve", json=q)
    assert r.status_code == 200, r.text
    assert r.json()["items"], (mode, r.json().get("warnings"))


async def test_index_through_the_admin_route(container: Container, client: httpx.AsyncClient) -> None:
    await _write_directly(container, "attached_api")
    r = await client.post("/admin/index", json={"namespace": "attached_api"}, headers=ADMIN)
    assert r.status_code == 200, r.text
    assert r.json()["format"] == "index" and r.json()["counts"]["entities_embedded"] > 0
    missing = await client.post("/admin/index", json={"namespace": "no_such_graph"}, headers=ADMIN)
    assert missing.status_code == 404
    assert (await client.post("/admin/index", json={"namespace": "attached_api"})).status_code in (401, 403)
    assert (await client.post("/admin/index", json={"namespace": "Bad-NS"}, headers=ADMIN)).status_code == 422


@pytest.mark.integration
@pytest.mark.skipif(not os.environ.get("NEO4J_URI"), reason="NEO4J_URI not set")
async def test_index_attaches_an_existing_neo4j_database(tmp_path: Path) -> None:
    """The same on a Neo4j server (``NEO4J_URI``, ``NEO4J_USER``, ``NEO4J_PASSWORD``): its database is the
    namespace, nothing is copied."""
    c = await Container.start(make_settings(tmp_path, graph=neo4j_graph_settings()), with_llm=False)
    try:
        await c.graph.drop_namespace("default")
        await _attach_and_change(c, "default")
    finally:
        with contextlib.suppress(Exception):
            await c.graph.drop_namespace("default")
        await c.close()
