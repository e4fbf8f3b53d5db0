"""Retrieval and answer metrics. Pure functions over ranked lists; each is unit-tested on hand-computed cases."""

from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Iterable, Sequence


def dedupe(ranked: Iterable[str]) -> list[str]:
    """Keep the first occurrence of each key (several chunks of one passage count once, at their best rank)."""
    seen: set[str] = set()
    out = []
    for x in ranked:
        if x not in seen:
            seen.add(x)
            out.append(x)
    return out


def recall_at_k(ranked: Sequence[str], gold: Iterable[str], k: int) -> float:
    gold_set = set(gold)
    if not gold_set:
        return 0.0
    return len(gold_set & set(dedupe(ranked)[:k])) / len(gold_set)


def precision_at_k(ranked: Sequence[str], gold: Iterable[str], k: int) -> float:
    top = dedupe(ranked)[:k]
    if not top:
        return 0.0
    return len(set(gold) & set(top)) / k


def hit_at_k(ranked: Sequence[str], gold: Iterable[str], k: int) -> float:
    return 1.0 if set(gold) & set(dedupe(ranked)[:k]) else 0.0


def coverage_at_k(ranked: Sequence[str], gold: Iterable[str], k: int) -> float:
    """1 when every gold item is in the top k (the whole supporting set is covered)."""
    gold_set = set(gold)
    return 1.0 if gold_set and gold_set <= set(dedupe(ranked)[:k]) else 0.0


def mrr(ranked: Sequence[str], gold: Iterable[str]) -> float:
    gold_set = set(gold)
    for i, x in enumerate(dedupe(ranked), start=1):
        if x in gold_set:
            return 1.0 / i
    return 0.0


def f_beta(precision: float, recall: float, beta: float = 1.0) -> float:
    if precision <= 0 and recall <= 0:
        return 0.0
    b2 = beta * beta
    return (1 + b2) * precision * recall / (b2 * precision + recall)


_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCT = set(string.punctuation)


def normalize_answer(s: str) -> str:
    """SQuAD normalisation (lower case, drop punctuation and articles, squeeze spaces), with ``_`` read as a space."""
    s = s.lower().replace("_", " ")  # identifier-style names: "united_kingdom" is "united kingdom"
    s = "".join(ch for ch in s if ch not in _PUNCT)
    s = _ARTICLES.sub(" ", s)
    return " ".join(s.split())


def exact_match(prediction: str, answers: Iterable[str]) -> float:
    p = normalize_answer(prediction)
    return 1.0 if any(p == normalize_answer(a) for a in answers) else 0.0


def token_f1(prediction: str, answers: Iterable[str]) -> float:
    best = 0.0
    p_toks = normalize_answer(prediction).split()
    for a in answers:
        a_toks = normalize_answer(a).split()
        common = Counter(p_toks) & Counter(a_toks)
        same = sum(common.values())
        if same == 0:
            continue
        prec, rec = same / len(p_toks), same / len(a_toks)
        best = max(best, 2 * prec * rec / (prec + rec))
    return best


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def rouge_l(prediction: str, answers: Iterable[str]) -> float:
    """Best ROUGE-L F-measure against any reference (the ``rouge-score`` package, no stemming)."""
    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=False)
    return max((scorer.score(a, prediction)["rougeL"].fmeasure for a in answers), default=0.0)


def contains_answer(prediction: str, answers: Iterable[str]) -> float:
    """1 when a normalised reference occurs inside the normalised prediction (long answers from small models)."""
    p = f" {normalize_answer(prediction)} "
    return 1.0 if any(f" {normalize_answer(a)} " in p for a in answers if normalize_answer(a)) else 0.0
