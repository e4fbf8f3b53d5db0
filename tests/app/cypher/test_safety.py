"""The checks on freely written Cypher."""

from __future__ import annotations

from app.cypher.safety import check_read_only, extract_cypher


def test_free_cypher_extraction_and_read_only_check() -> None:
    assert extract_cypher("Sure!\n```cypher\nMATCH (n) RETURN n;\n```") == "MATCH (n) RETURN n"
    assert extract_cypher("CREATE TABLE movies (id int)") is None
    assert check_read_only("MATCH (n) RETURN n") is None
    assert "DETACH" in (check_read_only("MATCH (n) DETACH DELETE n RETURN 1") or "")
    assert "DELETE" in (check_read_only("MATCH (n) DELETE n RETURN 1") or "")
    assert "SET" in (check_read_only("MATCH (n) SET n.x = 1 RETURN n") or "")
    assert check_read_only("MATCH (n)") == "the query returns nothing"


def test_words_inside_strings_and_names_are_no_clauses() -> None:
    """A title that says "Create ..." or a name in backticks is text: the read runs (the engine's read-only mode
    still refuses any real write); a ";" inside a string ends no statement."""
    q = 'MATCH (q:Question {title: "Create graph; then SET a property"}) RETURN q.`delete` AS d'
    assert check_read_only(q) is None
    assert extract_cypher(f"Here it is:\n{q};\nMATCH (n) DETACH DELETE n") == q
    assert check_read_only("MATCH (n) WHERE n.t = 'it''s' CREATE (m) RETURN m") is not None
    assert check_read_only('MATCH (n) WHERE n.t = "unclosed CREATE (m) RETURN m') is not None
    assert check_read_only("MATCH (n) // RETURN n") == "the query returns nothing"


def test_an_unfenced_query_ends_with_its_paragraph() -> None:
    reply = "MATCH (q:Question)\nRETURN q.title\n\nThis lists each question; FOREACH one, CREATE a note."
    assert extract_cypher(reply) == "MATCH (q:Question)\nRETURN q.title"
    assert extract_cypher("```cypher\nMATCH (q)\n\nRETURN q\n```") == "MATCH (q)\n\nRETURN q"
