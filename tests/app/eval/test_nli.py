"""Bidirectional NLI answer grading: the decision rule on controlled logits, the label lookup, and a real tiny
NLI cross-encoder built from a config (3 classes) graded the same way as a by-hand computation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

from app.eval.nli import NLIGrader, entailment_index
from tests.conftest import tiny_bert_cross_encoder

LABELS = {0: "contradiction", 1: "entailment", 2: "neutral"}


class ScriptedNLI:
    """Returns logits from a table keyed by (premise, hypothesis)."""

    def __init__(self, table: dict[tuple[str, str], list[float]]) -> None:
        self.table = table
        self.config = type("Cfg", (), {"id2label": LABELS})()

    def predict(self, pairs: list[tuple[str, str]], **_: Any) -> np.ndarray:
        return np.array([self.table.get(p, [0.0, 0.0, 0.0]) for p in pairs])


SURE, NO = [0.0, 5.0, 0.0], [5.0, 0.0, 0.0]  # P(entail) ~ 0.99 / ~ 0.007


def test_entailment_label_is_found_by_name() -> None:
    assert entailment_index(LABELS) == 1
    assert entailment_index({0: "ENTAILMENT", 1: "NEUTRAL", 2: "CONTRADICTION"}) == 0
    assert entailment_index({"0": "not_entailment", "1": "entailment"}) == 1
    with pytest.raises(ValueError):
        entailment_index({0: "positive", 1: "negative"})


def test_both_directions_are_needed() -> None:
    q = "When did it open?"
    a, g = f"{q} 1864", f"{q} in 1864"
    both = NLIGrader(ScriptedNLI({(a, g): SURE, (g, a): SURE}))
    assert both.grade(q, "1864", ["in 1864"]) == 1.0
    one_way = NLIGrader(ScriptedNLI({(a, g): SURE, (g, a): NO}))
    assert one_way.grade(q, "1864", ["in 1864"]) == 0.0
    other_way = NLIGrader(ScriptedNLI({(a, g): NO, (g, a): SURE}))
    assert other_way.grade(q, "1864", ["in 1864"]) == 0.0


def test_any_gold_alias_counts_but_directions_must_match_the_same_alias() -> None:
    q = "Who?"
    a, g1, g2 = f"{q} Ann", f"{q} A. Smith", f"{q} Ann Smith"
    # g1 entails a one way, g2 the other way: no single alias is mutual -> 0
    mixed = NLIGrader(ScriptedNLI({(a, g1): SURE, (g2, a): SURE}))
    assert mixed.grade(q, "Ann", ["A. Smith", "Ann Smith"]) == 0.0
    mutual = NLIGrader(ScriptedNLI({(a, g2): SURE, (g2, a): SURE}))
    assert mutual.grade(q, "Ann", ["A. Smith", "Ann Smith"]) == 1.0


def test_threshold_is_strict_and_empty_answers_fail() -> None:
    q = "x?"
    half = [0.0, 0.0, -50.0]  # P(entail) = 0.5 exactly: not > 0.5
    g = NLIGrader(ScriptedNLI({(f"{q} a", f"{q} a"): half}))
    assert g.grade(q, "a", ["a"]) == 0.0
    assert NLIGrader(ScriptedNLI({}), threshold=0.3).grade(q, "  ", ["a"]) == 0.0
    assert NLIGrader(ScriptedNLI({})).grade(q, "a", []) == 0.0


@pytest.fixture(scope="module")
def tiny_nli_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    labels = {"id2label": LABELS, "label2id": {v: k for k, v in LABELS.items()}}
    return tiny_bert_cross_encoder(
        tmp_path_factory.mktemp("tiny-nli"), [], num_labels=3, seed=1, initializer_range=0.6, **labels
    )


def test_a_real_nli_cross_encoder_is_graded_like_the_hand_computation(tiny_nli_dir: Path) -> None:
    from sentence_transformers import CrossEncoder

    grader = NLIGrader(str(tiny_nli_dir))
    ref = CrossEncoder(str(tiny_nli_dir), device="cpu")
    q = "when did the line open?"
    cases = [("1864", ["1864"]), ("in 1871", ["1864", "1871"]), ("never", ["1893"])]
    for answer, golds in cases:
        a = f"{q} {answer}"
        want = 0.0
        for gold in golds:
            g = f"{q} {gold}"
            logits = torch.tensor(ref.predict([(a, g), (g, a)], apply_softmax=False, convert_to_numpy=True))
            p = torch.softmax(logits.double(), dim=-1)[:, 1]
            if p[0] > 0.5 and p[1] > 0.5:
                want = 1.0
        assert grader.grade(q, answer, golds) == want
    probs = grader.entailment_probs([("a", "b"), ("b", "a")])
    assert len(probs) == 2 and all(0.0 < p < 1.0 for p in probs)
