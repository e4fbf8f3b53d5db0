"""Label-level triples read off ``(labels(a), type, labels(b), count)`` rows."""

from __future__ import annotations

from app.cypher.schema import SchemaTriple, triples_from_rows


def test_rare_edges_between_single_labelled_nodes_are_schema() -> None:
    """40 racks holding switches beside 8,000 holding machines are schema, however few; so are 40 zone networks
    routing interfaces (``Network:Zone``: a label that never stands alone is a kind of node); a label set that is an
    accident of typing (a name both a movie and a year, each label standing alone far more often), on a small share
    of the edges, is not."""
    rows = [
        {"la": ["Rack"], "t": "HOLDS", "lb": ["Machine"], "n": 8000},
        {"la": ["Rack"], "t": "HOLDS", "lb": ["Switch"], "n": 40},
        {"la": ["Machine"], "t": "RUNS", "lb": ["Application", "Process"], "n": 8000},
        {"la": ["Machine"], "t": "RUNS", "lb": ["Service", "Process"], "n": 14000},
        {"la": ["Machine"], "t": "RUNS", "lb": ["OS", "Process"], "n": 200},
        {"la": ["Machine"], "t": "ROUTES", "lb": ["Interface"], "n": 8000},
        {"la": ["Network", "Zone"], "t": "ROUTES", "lb": ["Interface"], "n": 40},
        {"la": ["Movie"], "t": "RELEASED", "lb": ["Year"], "n": 5000},
        {"la": ["Movie"], "t": "SEQUEL_OF", "lb": ["Movie"], "n": 3000},
        {"la": ["Movie", "Year"], "t": "SEQUEL_OF", "lb": ["Movie"], "n": 3},
    ]
    triples = set(triples_from_rows(rows))
    assert SchemaTriple("Rack", "HOLDS", "Switch") in triples
    assert SchemaTriple("Rack", "HOLDS", "Machine") in triples
    assert SchemaTriple("Machine", "RUNS", "Process") in triples
    assert SchemaTriple("Machine", "RUNS", "OS") in triples  # 200 of 22,200 edges, but no OS stands alone
    assert {SchemaTriple("Network", "ROUTES", "Interface"), SchemaTriple("Zone", "ROUTES", "Interface")} <= triples
    assert SchemaTriple("Movie", "SEQUEL_OF", "Movie") in triples
    assert SchemaTriple("Year", "SEQUEL_OF", "Movie") not in triples  # 3 of 3,003, and years stand alone
    # the generic linking label gives way to a specific one
    generic = triples_from_rows([{"la": ["Entity", "Movie"], "t": "DIRECTED_BY", "lb": ["Entity"], "n": 5}])
    assert generic == [SchemaTriple("Movie", "DIRECTED_BY", "Entity")]
