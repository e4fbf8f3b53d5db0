"""Label-level triples read off ``(labels(a), type, labels(b), count)`` rows."""

from __future__ import annotations

from app.cypher.schema import SchemaTriple, triples_from_rows


def test_rare_edges_between_single_labelled_nodes_are_schema() -> None:
    """40 racks holding switches beside 8,000 holding machines are schema, however few; a label that only rides on
    a node of several labels, on a small share of the edges, is not."""
    rows = [
        {"la": ["Rack"], "t": "HOLDS", "lb": ["Machine"], "n": 8000},
        {"la": ["Rack"], "t": "HOLDS", "lb": ["Switch"], "n": 40},
        {"la": ["Machine"], "t": "RUNS", "lb": ["Application", "Process"], "n": 8000},
        {"la": ["Machine"], "t": "RUNS", "lb": ["Service", "Process"], "n": 14000},
        {"la": ["Machine"], "t": "RUNS", "lb": ["OS", "Process"], "n": 200},
    ]
    triples = set(triples_from_rows(rows))
    assert SchemaTriple("Rack", "HOLDS", "Switch") in triples
    assert SchemaTriple("Rack", "HOLDS", "Machine") in triples
    assert SchemaTriple("Machine", "RUNS", "Process") in triples
    assert SchemaTriple("Machine", "RUNS", "OS") not in triples  # 200 of 22,200 edges, on a node with two labels
    # the generic linking label gives way to a specific one
    generic = triples_from_rows([{"la": ["Entity", "Movie"], "t": "DIRECTED_BY", "lb": ["Entity"], "n": 5}])
    assert generic == [SchemaTriple("Movie", "DIRECTED_BY", "Entity")]
