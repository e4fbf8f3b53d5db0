"""``ranker collect-gold``: a graph's own questions written with their gold queries, each recorded with its
candidates' features and every candidate whose rows are the gold query's marked right (what ``ranker fit`` learns
the default ranker from)."""

from __future__ import annotations

import json
from pathlib import Path

from app.text2cypher import rank
from app.training.ranker import NAMES, fit, hits_at_1, read, save
from app.training.ranker_collect import collect_gold
from tests.conftest import make_settings


def _shop(root: Path) -> Path:
    data = root / "shop"
    data.mkdir()
    (data / "shop.cypher").write_text(
        "CREATE (chai:Product {productName: 'Chai', unitPrice: 18}), (chang:Product {productName: 'Chang', "
        "unitPrice: 19}), (tofu:Product {productName: 'Tofu', unitPrice: 23}), (bev:Category {categoryName: "
        "'Beverages'}), (prod:Category {categoryName: 'Produce'}), (chai)-[:PART_OF]->(bev), "
        "(chang)-[:PART_OF]->(bev), (tofu)-[:PART_OF]->(prod);\n"
    )
    rows = [
        {"id": "s-1", "question": "Which products are in the Beverages category?",
         "gold_cypher": "MATCH (p:Product)-[:PART_OF]->(:Category {categoryName: 'Beverages'}) RETURN p.productName",
         "gold_rows": [{"p.productName": "Chai"}, {"p.productName": "Chang"}], "runs": True},
        {"id": "s-2", "question": "What is the unit price of Tofu?",
         "gold_cypher": "MATCH (p:Product {productName: 'Tofu'}) RETURN p.unitPrice",
         "gold_rows": [{"p.unitPrice": 23}], "runs": True},
        {"id": "s-3", "question": "How many products are there?",
         "gold_cypher": "MATCH (p:Product) RETURN count(p) AS n", "gold_rows": [{"n": 3}], "runs": True},
        {"id": "s-4", "question": "Which products cost more than 100?",  # no product does: the gold finds nothing
         "gold_cypher": "MATCH (p:Product) WHERE p.unitPrice > 100 RETURN p", "gold_rows": [{"p": 1}], "runs": True},
    ]  # fmt: skip
    (data / "questions.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return data


async def test_a_graphs_own_questions_mark_every_candidate_that_answers(tmp_path: Path) -> None:
    settings = make_settings(tmp_path / "d")
    groups, stats = await collect_gold(settings, _shop(tmp_path), "shop", keep=20, others=10)
    assert stats["questions"] == 4 and stats["gold_empty"] == 1  # a gold query finding nothing is no question
    assert stats["groups"] == len(groups) >= 2 and stats["groups"] + stats["none_right"] == 3
    assert 0 < stats["right_first"] <= stats["groups"]  # the default ranker answers some; the others ranking loses
    for g in groups:
        assert g.names == list(NAMES) and g.namespace == "shop"
        assert g.right() and g.positive == g.right()[0] and len(g.rows) <= 30
        assert all(0 <= i < len(g.rows) for i in g.right())
        assert len(g.right()) < len(g.rows)  # some candidate of every question answers it wrongly
    counted = next(g for g in groups if g.question.startswith("How many"))
    count_form = NAMES.index("count_form")
    assert all(counted.rows[i][count_form] > 0 for i in counted.right())  # the right ones count
    save(groups, tmp_path / "g.jsonl")
    again = read([tmp_path / "g.jsonl"])
    assert [g.right() for g in again] == [g.right() for g in groups]  # the marks survive the file
    assert hits_at_1(again, rank.Ranker(fit(again))) >= hits_at_1(again, rank.Ranker({"relevance": 1.0}))
