from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from app.errors import InvalidInputError
from app.ingest.parsers import (
    Document,
    chunk_document,
    normalise_relation,
    parse_markdown,
    parse_schema_statement,
    parse_triple_lines,
    read_documents,
    split_cypher_script,
)


def test_metaqa_tsv_csv_triples() -> None:
    metaqa = list(parse_triple_lines(["Kismet|directed_by|William Dieterle\n", "\n"], "metaqa"))
    assert [(t.subject, t.relation, t.object) for t in metaqa] == [("Kismet", "directed_by", "William Dieterle")]
    tsv = list(parse_triple_lines(["a\tr\tb\n"], "tsv"))
    assert tsv[0].object == "b"
    csv_rows = list(parse_triple_lines(["subject,relation,object\n", '"Smith, J",wrote,"Book"\n'], "csv"))
    assert [(t.subject, t.object) for t in csv_rows] == [("Smith, J", "Book")]


def test_bad_triples_are_reported_with_line_numbers() -> None:
    with pytest.raises(InvalidInputError, match="input:2: expected 3 fields"):
        list(parse_triple_lines(["a|r|b", "a|r"], "metaqa"))
    with pytest.raises(InvalidInputError, match="empty"):
        list(parse_triple_lines(["a| |b"], "metaqa"))


def test_relation_names() -> None:
    assert normalise_relation("directed_by") == "DIRECTED_BY"
    assert normalise_relation("has imdb-rating") == "HAS_IMDB_RATING"
    assert normalise_relation("1st_place") == "R_1ST_PLACE"


def test_chunks_respect_size_overlap_and_keep_the_title() -> None:
    sentences = [f"Sentence number {i} talks about the Drummel Viaduct and its arches." for i in range(60)]
    doc = Document("Viaducts", " ".join(sentences))
    chunks = chunk_document(doc, size=300, overlap=0.2)
    assert len(chunks) > 5
    for c in chunks:
        assert c.text.startswith("Viaducts\n")
        assert len(c.text) - len("Viaducts\n") <= 300
    # consecutive chunks share their boundary sentence(s), and no sentence is lost
    for a, b in itertools.pairwise(chunks):
        first_of_b = b.text.split("\n", 1)[1].split(". ")[0]
        assert first_of_b in a.text
    body = " ".join(c.text for c in chunks)
    assert all(s[:-1] in body for s in sentences)


def test_short_document_is_one_chunk_and_long_sentences_are_split() -> None:
    assert len(chunk_document(Document("T", "One. Two."), size=1024)) == 1
    long = Document("T", "word " * 1000)
    chunks = chunk_document(long, size=200, overlap=0.0)
    assert all(len(c.text) <= 202 for c in chunks)
    assert sum(c.text.count("word") for c in chunks) == 1000


def test_markdown_and_json_documents(tmp_path: Path) -> None:
    doc = parse_markdown("# The Title\n\nBody text.", "fallback", "x.md")
    assert (doc.title, doc.text) == ("The Title", "Body text.")
    (tmp_path / "a.json").write_text('[{"title": "A", "text": "x"}, {"title": "A", "text": "y"}]')
    (tmp_path / "b.json").write_text('{"B": ["s1 ", "s2"]}')
    docs = read_documents(tmp_path)
    assert [(d.title, d.doc_key, d.text) for d in docs] == [
        ("A", "A", "x"),
        ("A", "A (2)", "y"),
        ("B", "B", "s1 s2"),
    ]
    (tmp_path / "empty").mkdir()
    with pytest.raises(InvalidInputError, match="no documents"):
        read_documents(tmp_path / "empty")


def test_cypher_script_split_and_schema_statements() -> None:
    script = """// comment
CREATE CONSTRAINT IF NOT EXISTS FOR (p:Person) REQUIRE (p.name) IS UNIQUE;
CREATE INDEX IF NOT EXISTS FOR (m:Movie) ON (m.released);
:begin
CREATE (a:Movie {title: 'X; Y'})
CREATE (b:Person {name: 'Z'});
"""
    stmts = split_cypher_script(script)
    assert len(stmts) == 3
    assert stmts[2].startswith("CREATE (a:Movie") and "X; Y" in stmts[2]
    assert parse_schema_statement(stmts[0]) == ("Person", "name")
    assert parse_schema_statement(stmts[1]) == ("Movie", "released")
    assert parse_schema_statement(stmts[2]) is None
