"""Evaluation metrics on hand-computed cases."""

from __future__ import annotations

import pytest

from app.eval import metrics as M


def test_ranked_metrics() -> None:
    ranked = ["x", "g1", "x", "y", "g2", "z"]  # the repeated "x" counts once
    gold = ["g1", "g2"]
    assert M.dedupe(ranked) == ["x", "g1", "y", "g2", "z"]
    assert M.recall_at_k(ranked, gold, 1) == 0.0
    assert M.recall_at_k(ranked, gold, 2) == 0.5
    assert M.recall_at_k(ranked, gold, 3) == 0.5
    assert M.recall_at_k(ranked, gold, 4) == 1.0  # would be 0.5 if duplicates took rank slots
    assert M.hit_at_k(ranked, gold, 1) == 0.0 and M.hit_at_k(ranked, gold, 2) == 1.0
    assert M.coverage_at_k(ranked, gold, 3) == 0.0 and M.coverage_at_k(ranked, gold, 4) == 1.0
    assert M.precision_at_k(ranked, gold, 4) == 0.5
    assert M.mrr(ranked, gold) == 0.5
    assert M.mrr(["a"], gold) == 0.0 and M.recall_at_k(ranked, [], 5) == 0.0


def test_f_beta_and_answer_metrics() -> None:
    assert M.f_beta(0.5, 1.0, 1) == pytest.approx(2 / 3)
    assert M.f_beta(0.5, 1.0, 2) == pytest.approx(5 * 0.5 / (4 * 0.5 + 1))
    assert M.f_beta(0.0, 0.0) == 0.0
    assert M.normalize_answer("The  Eiffel-Tower!") == "eiffeltower"
    assert M.exact_match("the Eiffel Tower.", ["Eiffel Tower"]) == 1.0
    assert M.exact_match("Eiffel", ["Eiffel Tower"]) == 0.0
    assert M.token_f1("Eiffel", ["Eiffel Tower"]) == pytest.approx(2 / 3)
    assert M.token_f1("nothing", ["Eiffel Tower", "tour"]) == 0.0
    assert M.percentile([5, 1, 3, 2, 4], 50) == 3
    assert M.percentile([1, 2, 3, 4], 100) == 4 and M.percentile([], 50) == 0.0


def test_rouge_l_and_contains() -> None:
    assert M.rouge_l("the viaduct has 27 arches", ["27 arches"]) == pytest.approx(2 * (2 / 5) * 1 / (2 / 5 + 1))
    assert M.rouge_l("nothing here", ["27 arches"]) == 0.0
    assert M.contains_answer("It has 27 arches.", ["27 arches"]) == 1.0
    assert M.contains_answer("It has 270 arches.", ["27"]) == 0.0  # whole tokens only
