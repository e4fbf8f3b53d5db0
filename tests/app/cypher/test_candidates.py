"""Candidate query text in its canonical and executed forms, and the schema graph the enumeration walks."""

from __future__ import annotations

from app.cypher.candidates import Anchor, CandidateQuery, Hop, SchemaGraph
from app.cypher.queries import cypher_string, one_hop_example
from app.cypher.schema import SchemaTriple


def test_canonical_candidate_text_and_execution_forms() -> None:
    a = Anchor('Say "Hi"', "Movie", "title")
    c = CandidateQuery(a, (Hop("DIRECTED_BY", "out", "Person"), Hop("DIRECTED_BY", "in", "Movie", "title")))
    assert cypher_string('a"b\\c') == '"a\\"b\\\\c"'
    assert c.text == (
        'MATCH (x1:Movie {title: "Say \\"Hi\\""})-[:DIRECTED_BY]->(x2:Person)<-[:DIRECTED_BY]-(x3:Movie) '
        "RETURN x3.title"
    )
    assert c.execution_query() == (
        'MATCH (x1:Movie {title: "Say \\"Hi\\""})-[r1:DIRECTED_BY]->(x2:Person)<-[r2:DIRECTED_BY]-(x3:Movie) '
        "WHERE r1 <> r2 AND x2 <> x1 AND x3 <> x1 "
        "RETURN x3.title AS name, labels(x3) AS labels, x2.name AS v2 LIMIT $limit"
    )
    assert c.pattern_text({"name": "B", "v2": "D"}) == (
        'pattern: (x1:Movie {title: "Say \\"Hi\\""})-[:DIRECTED_BY]->(x2:Person {name: "D"})'
        '<-[:DIRECTED_BY]-(x3:Movie {title: "B"})'
    )
    end = CandidateQuery(
        Anchor("A", "Person"),
        (Hop("ACTED_IN", "out", "Movie", "title"), Hop("DIRECTED_BY", "out", "Person")),
        end=Anchor("B", "Person"),
    )
    assert end.text == (
        'MATCH (x1:Person {name: "A"})-[:ACTED_IN]->(x2:Movie)-[:DIRECTED_BY]->(x3:Person {name: "B"}) RETURN x2.title'
    )
    assert end.where_clause() == " WHERE x2 <> x1 AND x2 <> x3 AND x3 <> x1"


def test_schema_graph_follows_only_existing_triples() -> None:
    sg = SchemaGraph(
        [SchemaTriple("Movie", "DIRECTED_BY", "Person"), SchemaTriple("Movie", "IN_LANGUAGE", "Language")],
        {"Movie": "title"},
    )
    first = sg.first_paths("Jane", "name", ["Person"], edges={("DIRECTED_BY", "in", "Movie")})
    assert [h for _, h in first] == [(Hop("DIRECTED_BY", "in", "Movie", "title"),)]
    two = sg.extend(first)
    assert {h[-1] for _, h in two} == {Hop("DIRECTED_BY", "out", "Person"), Hop("IN_LANGUAGE", "out", "Language")}
    assert sg.first_paths("Jane", "name", ["Person"], edges=set()) == []  # no edges: nothing to enumerate


def test_the_free_cypher_example_is_in_the_graphs_own_vocabulary() -> None:
    assert one_hop_example("Movie", "DIRECTED_BY", "Person", 'Say "Hi"') == (
        'MATCH (a:Movie {name: "Say \\"Hi\\""})-[:DIRECTED_BY]->(b:Person) RETURN b.name'
    )
