"""Answer accuracy as issue 39 defines it ("the gold values appear in the answer"), with the independent scorer's
rules: display values stand for nodes, properties of returned nodes count, one value answers a one-row gold, and
under a gold LIMIT any rows of the un-limited result do."""

from __future__ import annotations

from app.cypher.candidates import Display
from app.eval.answers import answer_found, close
from app.stores.graph.base import NodeValue, plain_rows


def test_every_gold_value_must_appear_whatever_the_columns() -> None:
    gold = [{"t": "A", "n": 3}, {"t": "B", "n": 5}]
    assert answer_found([{"x": 5, "y": "B"}, {"x": 3, "y": "A"}, {"x": 1, "y": "C"}], gold)  # extra rows, any order
    assert answer_found([{"names": ["A", "B"], "counts": [3.0, 5]}], gold)  # lists are flattened, 3 == 3.0
    assert not answer_found([{"y": "A"}, {"y": "B"}], gold)  # the counts are missing
    assert not answer_found([], gold) and not answer_found([{"y": "A"}], [{"t": None}])


def test_a_gold_node_is_found_by_its_labels_display_value_and_a_scalar_on_a_returned_node() -> None:
    gold = [{"u": NodeValue("1", ["User"], {"uuid": 9, "display_name": "cybersam"})}]
    assert not answer_found([{"name": "cybersam"}], [*gold, *gold, {"u": NodeValue("2", ["User"], {"uuid": 2})}])
    profile = Display.of({"User": "display_name"}, ("display_name",))
    assert answer_found([{"name": "cybersam"}, {"name": "x"}], gold + gold, display=profile)
    assert not answer_found([{"name": "cybersam"}, {"name": "x"}], gold + gold)  # no profile: name, else title
    ours = plain_rows([{"u": NodeValue("7", ["User"], {"uuid": 9, "display_name": "cybersam"})}])
    assert answer_found(ours, [{"id": 9}, {"id": 9}])  # the gold's scalar is a property of the node returned
    assert not close(True, 1) and close(18, 18.0)


def test_one_value_answers_a_one_row_gold_and_a_limit_accepts_its_pool() -> None:
    gold = [{"name": "Tom Hanks", "movies": 12}]
    assert answer_found([{"count": 12}], gold)  # the one value asked for, among the gold row's
    assert not answer_found([{"count": 12}, {"count": 3}], gold)
    pool = [{"t": t} for t in "ABCDE"]
    gold = pool[:2]  # "any two of them": the gold run's LIMIT 2 picked A and B
    assert answer_found([{"title": "D"}, {"title": "E"}], gold, pool)
    assert not answer_found([{"title": "D"}, {"title": "Z"}], gold, pool)  # Z is no answer
    assert not answer_found([{"title": "D"}], gold, pool)  # too few
    assert not answer_found([{"title": "D"}, {"title": "E"}], gold)  # no pool: the gold's own values
