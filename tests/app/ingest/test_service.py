"""Ingestion service against the real embedded stores: counts, idempotency, stale-chunk removal, Cypher scripts."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from app.container import Container
from app.errors import InvalidInputError, NotFoundError, StoreLockedError
from app.ingest.parsers import Document, Triple
from app.settings import Settings
from app.stores.vector.base import collection_name
from tests.conftest import SHARED, make_settings


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
    assert again.counts["chunks_unchanged"] == n_chunks and again.counts["nodes_created"] == 0
    # the long document shrinks to one chunk: its old tail disappears from graph and vectors
    shorter = [Document("Harl Tunnel", "The Harl Tunnel is 3,140 metres long."), docs[1]]
    r3 = await offline.ingestor.ingest_documents("docs", shorter)
    assert r3.counts["stale_chunks_pages"] == 1
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


async def test_add_edit_delete_leaves_what_a_fresh_ingest_of_the_final_state_leaves(offline: Container) -> None:
    ing = offline.ingestor
    viaduct = " ".join(f"Sentence {i} tells of the Corrow Viaduct and the men who built it." for i in range(60))
    junction = " ".join(f"Pell Junction line {i}: trains met here from four directions." for i in range(40))
    await ing.ingest_documents("life", [Document("Corrow Viaduct", viaduct), Document("Pell Junction", junction)])
    edited = Document("Corrow Viaduct", "The Corrow Viaduct has eleven arches.")  # same key: an edit, one chunk now
    await ing.ingest_documents("life", [edited])
    listed = {d["title"]: d for d in await ing.list_documents("life")}
    assert set(listed) == {"Corrow Viaduct", "Pell Junction"} and listed["Corrow Viaduct"]["chunks"] == 1
    pell = listed["Pell Junction"]
    r = await ing.delete_document("life", pell["id"])
    assert r.counts["documents"] == 1 and r.counts["chunks"] == pell["chunks"] >= 2
    # the page and its chunks; HAS_CHUNK and NEXT links go with them
    assert r.counts["nodes_deleted"] == 1 + pell["chunks"]
    assert r.counts["relationships_deleted"] == pell["chunks"] + pell["chunks"] - 1
    await ing.ingest_documents("fresh", [edited])
    assert await offline.graph.counts("life") == await offline.graph.counts("fresh") == (2, 1)
    per_label = "MATCH (n) RETURN labels(n)[0] AS label, count(n) AS n ORDER BY label"
    assert await offline.graph.read("life", per_label) == await offline.graph.read("fresh", per_label)
    life, fresh = collection_name("life", "chunks"), collection_name("fresh", "chunks")
    assert await offline.vectors.count(life) == await offline.vectors.count(fresh) == 1
    assert [d["title"] for d in await ing.list_documents("life")] == ["Corrow Viaduct"]
    with pytest.raises(NotFoundError):
        await ing.delete_document("life", pell["id"])
