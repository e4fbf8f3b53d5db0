"""Relaxed execution accuracy: a gold LIMIT picks among equals (``app.eval.relaxed``)."""

from __future__ import annotations

from typing import Any

from app.errors import AppError
from app.eval import relaxed as R

COUNTS = "MATCH (u:User)-[:ASKED]->(q:Question) RETURN u.name, count(q) AS asked ORDER BY asked DESC LIMIT 2"


def test_final_limit_and_order() -> None:
    assert R.without_final_limit(COUNTS + " ;") == COUNTS.removesuffix(" LIMIT 2")
    assert R.without_final_limit("MATCH (n) WITH n LIMIT 3 RETURN n") is None  # no order: the RETURN is the pick
    # a LIMIT that ends the ordering WITH before a RETURN that only shows what it kept is final too
    top = "MATCH (t:Tag)<-[:ON]-(n:Ticket) WITH t, count(n) AS uses ORDER BY uses DESC LIMIT 2 RETURN t.name, uses AS n"
    assert R.without_final_limit(top) == top.replace(" LIMIT 2", "")
    assert R.is_ordered(top) and R.sort_key(top, ["t.name", "n"]) == 1
    for later in ("RETURN t.name, collect(n.title)", "MATCH (t)<-[:ON]-(m) RETURN m"):
        assert R.without_final_limit(f"MATCH (t:Tag) WITH t ORDER BY t.name LIMIT 2 {later}") is None
    assert R.is_ordered(COUNTS)
    assert not R.is_ordered("MATCH (n:Ticket) RETURN n LIMIT 3")
    assert R.is_ordered("MATCH (n:Ticket) WITH n ORDER BY n.opened RETURN n.title")
    assert not R.is_ordered("MATCH (n:Ticket) WITH n ORDER BY n.opened RETURN count(n)")


def test_sort_key_reads_alias_expression_or_node_property() -> None:
    assert R.sort_key(COUNTS, ["u.name", "asked"]) == 1
    assert R.sort_key("MATCH (t:Ticket) RETURN t.title ORDER BY t.title LIMIT 2", ["t.title"]) == 0
    assert R.sort_key("MATCH (t:Ticket) RETURN t ORDER BY t.opened_at DESC LIMIT 2", ["t"]) == (0, "opened_at")
    assert R.sort_key("MATCH (t:Ticket) RETURN t.title ORDER BY t.opened_at LIMIT 2", ["t.title"]) is None


def test_plain_drops_the_services_own_keys() -> None:
    node = {"element_id": "4", "labels": ["Ticket"], "properties": {"title": "a", "_hash": "x"}}
    assert R.plain([node, 3]) == [{"title": "a"}, 3]


def test_unordered_limit_accepts_any_k_of_the_pool() -> None:
    pool = [["a"], ["b"], ["c"]]
    gold = [["a"], ["b"]]
    assert R.relaxed_equal([["c"], ["a"]], gold, pool, ordered=False, key=None)
    assert not R.relaxed_equal([["c"], ["d"]], gold, pool, ordered=False, key=None)
    assert not R.relaxed_equal([["c"], ["c"]], gold, pool, ordered=False, key=None)  # a pool row counts once
    assert not R.relaxed_equal([["c"]], gold, pool, ordered=False, key=None)
    assert not R.relaxed_equal([["c"], ["a"]], gold, None, ordered=False, key=None)


def test_ordered_limit_accepts_ties_at_the_cut_only() -> None:
    pool = [["ann", 13], ["bob", 11], ["cy", 11], ["dee", 4]]
    gold = [["ann", 13], ["bob", 11]]
    assert R.relaxed_equal([["ann", 13], ["cy", 11.0]], gold, pool, ordered=True, key=1)
    assert not R.relaxed_equal([["ann", 13], ["dee", 4]], gold, pool, ordered=True, key=1)
    assert not R.relaxed_equal([["cy", 11], ["ann", 13]], gold, pool, ordered=True, key=1)  # order kept
    assert not R.relaxed_equal([["ann", 13], ["cy", 11]], gold, pool, ordered=True, key=None)
    nodes = [[{"t": "x", "at": 1}], [{"t": "y", "at": 2}], [{"t": "z", "at": 2}]]
    tied = [[{"t": "x", "at": 1}], [{"t": "z", "at": 2}]]
    assert R.relaxed_equal(tied, nodes[:2], nodes, ordered=True, key=(0, "at"))


class _Graph:
    """Rows of the un-limited gold query; a query named 'bad' is refused by the engine."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        self.rows = rows
        self.asked: list[str] = []

    async def read(self, namespace: str, cypher: str, **_: Any) -> list[dict[str, Any]]:
        self.asked.append(cypher)
        if "bad" in cypher:
            raise AppError("refused")
        return self.rows


async def test_add_pools_writes_pool_and_sort_column() -> None:
    graph = _Graph([{"u.name": "ann", "asked": 13}, {"u.name": "bob", "asked": 11}, {"u.name": "cy", "asked": 11}])
    rows = [
        {"gold_cypher": COUNTS, "gold_rows": [{"u.name": "ann", "asked": 13}, {"u.name": "bob", "asked": 11}]},
        {"gold_cypher": "MATCH (n) RETURN count(n)", "gold_rows": [{"count(n)": 3}]},
        {"gold_cypher": "MATCH (n:bad) RETURN n LIMIT 1", "gold_rows": [{"n": 1}]},
    ]
    assert await R.add_pools(graph, "ns", rows) == 1
    assert rows[0]["gold_pool"] == [["ann", 13], ["bob", 11], ["cy", 11]] and rows[0]["order_key"] == 1
    assert "gold_pool" not in rows[1] and "gold_pool" not in rows[2]
    assert graph.asked[0] == COUNTS.removesuffix(" LIMIT 2")
