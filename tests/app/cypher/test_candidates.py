"""Candidate query text in its canonical and executed forms, and the queries that read candidates off the data."""

from __future__ import annotations

from app.cypher.candidates import Anchor, CandidateQuery, Hop, hops_from_rows, joins_from_rows
from app.cypher.queries import cypher_string, one_hop_example


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


def test_unlabelled_hops_and_the_queries_that_extend_and_join_paths() -> None:
    a = Anchor("Kismet", "Entity")
    c = CandidateQuery(a, (Hop("DIRECTED_BY", "out", ""),))
    assert c.text == 'MATCH (x1:Entity {name: "Kismet"})-[:DIRECTED_BY]->(x2) RETURN x2.name'
    assert c.pattern_text({"name": "D"}) == 'pattern: (x1:Entity {name: "Kismet"})-[:DIRECTED_BY]->(x2 {name: "D"})'
    assert CandidateQuery(a, ()).extension_query().startswith('MATCH (x1:Entity {name: "Kismet"}) WITH x1, x1 AS e ')
    assert c.extension_query().startswith(
        'MATCH (x1:Entity {name: "Kismet"})-[r1:DIRECTED_BY]->(x2) WHERE x2 <> x1 '
        "WITH DISTINCT x1, x2 AS e LIMIT $nodes WITH e, collect(x1) AS s "
        "MATCH (e)-[r]-(y) WHERE (size(s) > 1 OR y <> s[0])"
    )
    assert "RETURN DISTINCT type(r1) AS t1" in a.connecting_query(Anchor("Jane", "Person"))
    rows = [
        {"t": "DIRECTED_BY", "out": False, "l": ["Entity", "Movie"], "k": "title"},
        {"t": "BORN_IN", "out": True, "l": ["Entity"], "k": "name"},
        {"t": "BORN_IN", "out": True, "l": ["Entity", "_IngestLog"], "k": "name"},
    ]
    assert hops_from_rows(rows) == [Hop("BORN_IN", "out", "", "name"), Hop("DIRECTED_BY", "in", "Movie", "title")]
    jane = Anchor("Jane", "Person")
    joined = joins_from_rows(a, jane, [{"t1": "DIRECTED_BY", "o1": True, "t2": "BORN_IN", "o2": True, "l": ["Entity"]}])
    assert [c.text for c in joined] == [
        'MATCH (x1:Entity {name: "Kismet"})-[:DIRECTED_BY]->(x2)-[:BORN_IN]->(x3:Person {name: "Jane"}) RETURN x2.name'
    ]


def test_the_free_cypher_example_is_in_the_graphs_own_vocabulary() -> None:
    assert one_hop_example("Movie", "title", "DIRECTED_BY", "Person", "name", 'Say "Hi"') == (
        'MATCH (a:Movie {title: "Say \\"Hi\\""})-[:DIRECTED_BY]->(b:Person) RETURN b.name'
    )
    assert one_hop_example("Interface", "ip", "EXPOSES", "Port", "port", "10.0.0.1") == (
        'MATCH (a:Interface {ip: "10.0.0.1"})-[:EXPOSES]->(b:Port) RETURN b.port'
    )
    assert one_hop_example("Port", "port", "OPENS", "Service", "name", 7474) == (
        "MATCH (a:Port {port: 7474})-[:OPENS]->(b:Service) RETURN b.name"
    )
