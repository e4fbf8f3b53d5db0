"""Ingestion service against the real embedded stores: counts, idempotency, stale-chunk removal, Cypher scripts."""

from __future__ import annotations

import contextlib
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from app.container import Container
from app.errors import DependencyError, InvalidInputError, NotFoundError, StoreLockedError
from app.ingest.parsers import Document, Triple, parse_markdown
from app.settings import Settings
from app.stores.vector.base import collection_name
from tests.conftest import SHARED, make_settings, neo4j_graph_settings


@pytest.fixture(scope="module")
async def offline(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Container]:
    """A container without the LLM, as the CLI's ingest uses."""
    c = await Container.start(make_settings(tmp_path_factory.mktemp("ingest")), with_llm=False)
    try:
        yield c
    finally:
        await c.close()


async def test_triples_become_labelled_nodes_relationships_and_entity_vectors(offline: Container) -> None:
    triples = [
        Triple("Kismet", "directed_by", "William Dieterle"),
        Triple("Kismet", "release_year", "1944"),
        Triple("Blockade", "directed_by", "William Dieterle"),
        Triple("Blockade", "directed_by", "William Dieterle"),  # duplicate line
    ]
    labels = {"directed_by": ("Movie", "Person")}
    r = await offline.ingestor.ingest_triples("kg", triples, labels)
    assert r.counts["triples"] == 3 and r.counts["entities"] == 4
    assert r.counts["nodes_created"] == 4 and r.counts["relationships_created"] == 3
    assert r.counts["entities_embedded"] == 4
    schema = await offline.graph.schema("kg")
    assert {t.pattern() for t in schema.triples} == {
        "(:Movie)-[:DIRECTED_BY]->(:Person)",
        "(:Movie)-[:RELEASE_YEAR]->(:Entity)",  # no configured label: none is guessed
    }
    again = await offline.ingestor.ingest_triples("kg", triples, labels)
    assert again.counts["nodes_created"] == 0 and again.counts["relationships_created"] == 0
    assert again.counts["entities_unchanged"] == 4 and "entities_embedded" not in again.counts
    assert await offline.graph.counts("kg") == (4, 3)
    assert await offline.vectors.count(collection_name("kg", "entities")) == 4


async def test_documents_are_idempotent_and_a_shorter_reingest_drops_stale_chunks(offline: Container) -> None:
    long_text = " ".join(f"Sentence {i} describes the Harl Tunnel in some detail." for i in range(80))
    docs = [Document("Harl Tunnel", long_text), Document("Short", "Only one sentence here.")]
    r = await offline.ingestor.ingest_documents("docs", docs)
    n_chunks = r.counts["chunks"]
    assert r.counts["documents"] == 2 and n_chunks >= 4
    coll = collection_name("docs", "chunks")
    assert await offline.vectors.count(coll) == n_chunks
    again = await offline.ingestor.ingest_documents("docs", docs)
    assert again.counts["documents_unchanged"] == 2 and "nodes_created" not in again.counts
    assert "chunks_embedded" not in again.counts
    # the long document shrinks to one chunk: its old tail disappears from graph and vectors
    shorter = [Document("Harl Tunnel", "The Harl Tunnel is 3,140 metres long."), docs[1]]
    r3 = await offline.ingestor.ingest_documents("docs", shorter)
    assert r3.counts["documents_replaced"] == 1 and r3.counts["documents_unchanged"] == 1
    assert r3.counts["chunks_embedded"] == 1  # the changed text only
    assert await offline.vectors.count(coll) == 2
    rows = await offline.graph.read("docs", "MATCH (c:Chunk) RETURN count(c) AS n")
    assert rows[0]["n"] == 2


async def test_cypher_script_runs_once_and_makes_names_linkable(offline: Container) -> None:
    script = """CREATE CONSTRAINT IF NOT EXISTS FOR (p:Person) REQUIRE (p.name) IS UNIQUE;
CREATE (m:Movie {title: 'The Matrix', released: 1999})
CREATE (k:Person {name: 'Keanu Reeves'})
CREATE (k)-[:ACTED_IN]->(m);
"""
    r = await offline.ingestor.ingest_cypher("script", script)
    assert r.counts["schema_statements"] == 1 and r.counts["nodes_created"] == 2
    assert r.counts["entities"] == 2
    again = await offline.ingestor.ingest_cypher("script", script)
    assert again.counts["statements_skipped"] == 2 and "nodes_created" not in again.counts
    assert await offline.graph.counts("script") == (2, 1)  # the ingest-log node is bookkeeping, not data
    schema = await offline.graph.schema("script")
    assert [t.pattern() for t in schema.triples] == ["(:Person)-[:ACTED_IN]->(:Movie)"]


@pytest.mark.skipif(not (SHARED / "neo4j_movies_text2cypher").exists(), reason="shared data not present")
async def test_the_neo4j_movies_script_loads(offline: Container) -> None:
    r = await offline.ingestor.ingest_path("movies", "cypher", SHARED / "neo4j_movies_text2cypher" / "movies.cypher")
    labels = (await offline.graph.schema("movies")).labels
    assert {"Movie", "Person"} <= set(labels)
    rows = await offline.graph.read("movies", "MATCH (m:Movie) RETURN count(m) AS n")
    assert rows[0]["n"] == 38
    rows = await offline.graph.read("movies", "MATCH (p:Person) RETURN count(p) AS n")
    assert rows[0]["n"] == 133
    assert r.counts["entities"] == 38 + 133


async def test_an_unchanged_source_is_skipped_unless_forced(offline: Container, tmp_path: Path) -> None:
    src = tmp_path / "kg.txt"
    src.write_text("Kismet|directed_by|William Dieterle\n")
    first = await offline.ingestor.ingest_path("skip", "metaqa", src)
    assert first.counts["relationships_created"] == 1
    assert (await offline.ingestor.ingest_path("skip", "metaqa", src)).counts == {"sources_unchanged": 1}
    forced = await offline.ingestor.ingest_path("skip", "metaqa", src, force=True)
    assert forced.counts["relationships_created"] == 0 and forced.counts["entities_unchanged"] == 2
    src.write_text("Kismet|directed_by|William Dieterle\nKismet|release_year|1944\n")
    changed = await offline.ingestor.ingest_path("skip", "metaqa", src)
    assert changed.counts["relationships_created"] == 1


async def test_bad_paths_and_formats(offline: Container, tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match="unknown format"):
        await offline.ingestor.ingest_path("x", "xml", tmp_path)
    with pytest.raises(InvalidInputError, match="does not exist"):
        await offline.ingestor.ingest_path("x", "metaqa", tmp_path / "missing.txt")
    (tmp_path / "bad.txt").write_text("a|b\n")
    with pytest.raises(InvalidInputError, match="expected 3 fields"):
        await offline.ingestor.ingest_path("x", "metaqa", tmp_path / "bad.txt")


async def test_the_data_dir_is_locked_by_its_owner(offline: Container) -> None:
    second = offline.settings.model_copy()
    assert isinstance(second, Settings)
    with pytest.raises(StoreLockedError, match="in use"):
        await Container.start(second, with_llm=False)


VIADUCT = """# Corrow Viaduct
The Corrow Viaduct carries the main line over the Corrow valley. It was designed by Aldous Pell.

## History
Work began in 1861. {history}

### Repairs
The piers were strengthened in 1902 by the [Mirren Works](https://example.org/mirren-works).

## Route
North of the viaduct trains enter the [Harl Tunnel](harl-tunnel.md).
"""
VIADUCT_EDITED = """# Corrow Viaduct
The Corrow Viaduct carries the main line over the Corrow valley. It was designed by Aldous Pell.

## History
Work began in 1861 and ended in 1864.
"""
JUNCTION = "Pell Junction lies south of the Corrow Viaduct. " + " ".join(
    f"Line {i} met here from four directions, its engines serviced by the Mirren Works." for i in range(40)
)
TUNNEL = "The Harl Tunnel is 3,140 metres long. Its portals were cast by the Mirren Works."
KG = [Triple("Aldous Pell", "founded", "Pell and Company"), Triple("Aldous Pell", "born_in", "Whitleven")]


def _md(name: str, text: str) -> Document:
    return parse_markdown(text, name, f"{name}.md")


async def _state(c: Container, ns: str) -> dict[str, object]:
    """Everything the add -> edit -> delete test compares: nodes per label, relationships per type, citations,
    and the points of every vector collection."""
    g = c.graph
    labels = await g.read(ns, "MATCH (n) RETURN labels(n)[0] AS label, count(n) AS n ORDER BY label")
    rels = await g.read(ns, "MATCH ()-[r]->() RETURN type(r) AS t, count(r) AS n ORDER BY t")
    cites = await g.read(
        ns, "MATCH (c:Chunk)-[:CITES]->(e:Entity) RETURN c.uri AS chunk, e.name AS entity ORDER BY chunk, entity"
    )
    entities = await g.read(ns, "MATCH (e:Entity) RETURN e.name AS name ORDER BY name")
    kinds = ("chunks", "pages", "sections", "doc_entities", "entities")
    points = {k: await c.vectors.count(collection_name(ns, k)) for k in kinds}
    return {"labels": labels, "rels": rels, "cites": cites, "entities": entities, "points": points}


async def test_documents_become_pages_subchapters_chunks_and_cited_entities(offline: Container) -> None:
    ing = offline.ingestor
    await ing.ingest_triples("struct", KG)
    docs = [_md("corrow-viaduct", VIADUCT.format(history="The last arch was closed in 1864.")), _md("harl", TUNNEL)]
    r = await ing.ingest_documents("struct", [*docs, Document("Harl Tunnel", TUNNEL)])
    assert r.counts["documents"] == 3  # "harl" (title from its file name) and "Harl Tunnel"
    g = offline.graph
    secs = await g.read("struct", "MATCH (s:SubChapter) RETURN s.uri AS uri, s.level AS level ORDER BY uri")
    assert secs == [
        {"uri": "Corrow Viaduct#History", "level": 1},
        {"uri": "Corrow Viaduct#History#Repairs", "level": 2},
        {"uri": "Corrow Viaduct#Route", "level": 1},
    ]
    up = await g.read(
        "struct",
        "MATCH (s:SubChapter {uri: 'Corrow Viaduct#History#Repairs'})-[:IS_SUBCHAPTER_OF]->(a) "
        "RETURN coalesce(a.uri, '') AS uri ORDER BY uri",
    )
    assert [x["uri"] for x in up] == ["Corrow Viaduct", "Corrow Viaduct#History"]
    down = await g.read(
        "struct", "MATCH (p:Page {uri: 'Corrow Viaduct'})-[:HAS_SUBCHAPTER]->(s) RETURN s.uri AS uri ORDER BY uri"
    )
    assert [x["uri"] for x in down] == ["Corrow Viaduct#History", "Corrow Viaduct#Route"]
    repair = await g.read(
        "struct",
        "MATCH (c:Chunk {uri: 'Corrow Viaduct#History#Repairs#0'}) OPTIONAL MATCH (c)-[:IS_CHUNK_OF]->(a) "
        "WITH c, collect(a.uri) AS ancestors MATCH (p)-[:HAS_CHUNK]->(c) "
        "RETURN ancestors, p.uri AS parent, c.text AS text",
    )
    assert sorted(repair[0]["ancestors"]) == [
        "Corrow Viaduct",
        "Corrow Viaduct#History",
        "Corrow Viaduct#History#Repairs",
    ]
    assert repair[0]["parent"] == "Corrow Viaduct#History#Repairs"  # HAS_CHUNK: the direct parent only
    assert repair[0]["text"].startswith("Corrow Viaduct > History > Repairs\n")
    chain = await g.read(
        "struct",
        "MATCH (a:Chunk)-[:NEXT]->(b:Chunk) MATCH (b)-[:PREVIOUS]->(a) WHERE a.page_id = b.page_id "
        "RETURN count(*) AS n",
    )
    assert chain[0]["n"] == 3  # four chunks of the viaduct page in a row
    cites = {(x["chunk"], x["entity"]) for x in (await _state(offline, "struct"))["cites"]}  # type: ignore[union-attr]
    # a KG entity named in the text, a link to a page (by its file name), a link elsewhere (by its words), a title
    assert ("Corrow Viaduct#0", "Aldous Pell") in cites
    assert ("Corrow Viaduct#Route#0", "Harl Tunnel") in cites
    assert ("Corrow Viaduct#History#Repairs#0", "Mirren Works") in cites
    assert ("Harl Tunnel#0", "Mirren Works") in cites and ("harl#0", "Mirren Works") in cites
    # the KG entity is the same node the KG's facts hang on: documents and the KG are joined
    joined = await g.read(
        "struct", "MATCH (c:Chunk)-[:CITES]->(e:Entity {name: 'Aldous Pell'})-[:FOUNDED]->(x) RETURN x.name AS x"
    )
    assert {x["x"] for x in joined} == {"Pell and Company"}
    about = await g.read("struct", "MATCH (p:Page)-[:ABOUT]->(e:Entity) RETURN p.uri AS p, e.name AS e ORDER BY p")
    assert about == [
        {"p": "Corrow Viaduct", "e": "Corrow Viaduct"},
        {"p": "Harl Tunnel", "e": "Harl Tunnel"},
        {"p": "harl", "e": "harl"},
    ]
    # a page added later is cited by the chunks already there that name it
    await ing.ingest_documents("struct", [Document("Mirren Works", "The Mirren Works cast iron in Whitleven.")])
    works = await g.read(
        "struct", "MATCH (p:Page {title: 'Mirren Works'})-[:ABOUT]->(e)<-[:CITES]-(c) RETURN count(c) AS n"
    )
    assert works[0]["n"] == 3
    assert await offline.vectors.count(collection_name("struct", "sections")) == 3


async def test_documents_cite_the_nodes_of_a_graph_loaded_by_cypher_and_a_delete_leaves_them(
    offline: Container,
) -> None:
    """A graph with its own labels (a Cypher script) joins the documents too: a chunk naming one of its nodes cites
    that node (no second ``Entity`` of the same name), and deleting the document leaves the graph as it was."""
    ing, g = offline.ingestor, offline.graph
    script = (
        "CREATE (e:Engineer {name: 'Tamsin Rook'})-[:BUILT]->(s:Structure {title: 'Corrow Viaduct'}) "
        "CREATE (:Engineer {name: 'Aldous Pell'});"
    )
    await ing.ingest_cypher("joined", script)
    before = await g.counts("joined")
    doc = Document("Harl Tunnel", "The Harl Tunnel was surveyed by Tamsin Rook before the Corrow Viaduct opened.")
    await ing.ingest_documents("joined", [doc])
    cited = await g.read(
        "joined",
        "MATCH (c:Chunk)-[r:CITES]->(n) RETURN labels(n) AS labels, coalesce(n.name, n.title) AS name, r.via AS via "
        "ORDER BY name",
    )
    assert [(x["name"], x["via"]) for x in cited] == [("Corrow Viaduct", "mention"), ("Tamsin Rook", "mention")]
    assert [lb for x in cited for lb in x["labels"]] == ["Structure", "Engineer"]
    back = await g.read("joined", "MATCH (:Engineer {name: 'Tamsin Rook'})-[:CITED_IN]->(c:Chunk) RETURN count(c) AS n")
    assert back == [{"n": 1}]
    entities = await g.read("joined", "MATCH (e:Entity) RETURN e.name AS name ORDER BY name")
    assert [x["name"] for x in entities] == ["Harl Tunnel"]  # only the page's own entity
    (listed,) = await ing.list_documents("joined")
    await ing.delete_document("joined", listed["id"])
    assert await g.counts("joined") == before
    assert await g.read("joined", "MATCH (e:Engineer) RETURN e.name AS name ORDER BY name") == [
        {"name": "Aldous Pell"},
        {"name": "Tamsin Rook"},
    ]


async def test_an_ingest_interrupted_before_its_vectors_is_completed_by_the_next_one(
    offline: Container, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A crash between the graph writes and the vectors (the process killed, the vector store down) must not leave
    documents that look ingested: their digest is written last, so the re-run replaces them and ends where a clean
    ingest ends."""
    ing = offline.ingestor
    docs = [_md("corrow-viaduct", VIADUCT.format(history="The last arch was closed in 1864.")), _md("harl", TUNNEL)]
    real = offline.vectors.upsert

    async def crash(name: str, points: Any, **kw: Any) -> int:
        if name.endswith("pages"):
            raise DependencyError("qdrant", "down (test)")
        return await real(name, points, **kw)

    monkeypatch.setattr(offline.vectors, "upsert", crash)
    with pytest.raises(DependencyError):
        await ing.ingest_documents("halfdone", docs)
    monkeypatch.setattr(offline.vectors, "upsert", real)
    r = await ing.ingest_documents("halfdone", docs)
    assert r.counts["documents_unchanged"] == 0 and r.counts["documents_replaced"] == 2
    await ing.ingest_documents("cleanrun", docs)
    assert await _state(offline, "halfdone") == await _state(offline, "cleanrun")
    again = await ing.ingest_documents("halfdone", docs)
    assert again.counts["documents_unchanged"] == 2


async def test_add_edit_delete_leaves_what_a_fresh_ingest_of_the_final_state_leaves(offline: Container) -> None:
    await _add_edit_delete(offline)


@pytest.mark.integration
@pytest.mark.skipif(not os.environ.get("NEO4J_URI"), reason="NEO4J_URI not set")
async def test_add_edit_delete_on_neo4j(tmp_path: Path) -> None:
    """The same proof on a Neo4j server (``NEO4J_URI``, ``NEO4J_USER``, ``NEO4J_PASSWORD``)."""
    c = await Container.start(make_settings(tmp_path, graph=neo4j_graph_settings()), with_llm=False)
    try:
        for ns in ("life", "fresh"):
            await c.graph.drop_namespace(ns)
        await _add_edit_delete(c)
    finally:
        for ns in ("life", "fresh"):
            with contextlib.suppress(Exception):
                await c.graph.drop_namespace(ns)
        await c.close()


async def _add_edit_delete(offline: Container) -> None:
    ing = offline.ingestor
    viaduct = _md("corrow-viaduct", VIADUCT.format(history=" ".join(f"Sentence {i} on the arches." for i in range(60))))
    junction, tunnel = Document("Pell Junction", JUNCTION), Document("Harl Tunnel", TUNNEL)
    await ing.ingest_triples("life", KG)
    await ing.ingest_documents("life", [viaduct, junction])
    await ing.ingest_documents("life", [tunnel])
    edited = _md("corrow-viaduct", VIADUCT_EDITED)  # same key: an edit, fewer sections and chunks
    r = await ing.ingest_documents("life", [edited])
    assert r.counts["documents_replaced"] == 1
    listed = {d["title"]: d for d in await ing.list_documents("life")}
    assert set(listed) == {"Corrow Viaduct", "Pell Junction", "Harl Tunnel"} and listed["Corrow Viaduct"]["chunks"] == 2
    pell = listed["Pell Junction"]
    r = await ing.delete_document("life", pell["id"])
    assert r.counts["documents"] == 1 and r.counts["chunks"] == pell["chunks"] >= 2
    # its page, its chunks and the entity only it was about; what it cites that others ground stays
    assert r.counts["nodes_deleted"] == 2 + pell["chunks"]
    names = "MATCH (e:Entity) WHERE e.name IN $n RETURN e.name AS n ORDER BY n"
    shared = ["Aldous Pell", "Corrow Viaduct", "Mirren Works", "Pell Junction"]
    # the Mirren Works went with the edit: only the removed link named them (the tunnel's mention does not)
    assert await offline.graph.read("life", names, {"n": shared}) == [{"n": "Aldous Pell"}, {"n": "Corrow Viaduct"}]
    await ing.ingest_triples("fresh", KG)
    await ing.ingest_documents("fresh", [edited, tunnel])
    life, fresh = await _state(offline, "life"), await _state(offline, "fresh")
    assert life == fresh
    assert life["points"] == {"chunks": 3, "pages": 2, "sections": 1, "doc_entities": 3, "entities": 3}
    assert await offline.graph.counts("life") == await offline.graph.counts("fresh")
    assert [d["title"] for d in await ing.list_documents("life")] == ["Corrow Viaduct", "Harl Tunnel"]
    with pytest.raises(NotFoundError):
        await ing.delete_document("life", pell["id"])
