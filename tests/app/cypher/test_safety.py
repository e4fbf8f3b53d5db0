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
