"""Training and measuring the hybrid mode's fusion (``app/retrievers/hybrid.py``) on passage benchmarks.

``collect`` runs the hybrid mode's candidate stage on every question of a corpus and keeps each candidate's signal
scores with its label (its passage supports the question). ``train`` fits a small MLP on one corpus with active
sampling: first on the positives and random negatives, then repeatedly adding the negatives the current model ranks
highest (hard negatives) and refitting. ``evaluate`` ranks the other corpus's candidates with every fusion — each
signal alone, the naive hybrid, reciprocal-rank fusion, the learned model — and reports Precision / Recall / Hit /
all-support / F1 at each k, so that no number is measured on training questions. Feature importances are the drop in
Recall@5 when one signal's scores are shuffled among each question's candidates."""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm

from app.eval import metrics as M
from app.eval.loaders import Benchmark
from app.models.fusion import FusionModel, standardise
from app.retrievers.base import RunContext
from app.retrievers.hybrid import BASE_SIGNALS, HybridRetriever, HybridTrace, fuse_baseline
from app.retrievers.types import RetrievalQuery

Features = dict[str, float]


@dataclass
class QuestionCandidates:
    id: str
    support: list[str]
    titles: list[str]
    """Each candidate's passage (title)."""
    feats: list[Features]
    latency_ms: float = 0.0

    @property
    def labels(self) -> np.ndarray:
        gold = set(self.support)
        return np.array([1 if t in gold else 0 for t in self.titles])

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "support": self.support,
            "titles": self.titles,
            "feats": self.feats,
            "latency_ms": self.latency_ms,
        }


def _load(cache: Path | None) -> dict[str, QuestionCandidates]:
    done: dict[str, QuestionCandidates] = {}
    if cache is not None and cache.exists():
        for line in cache.read_text(encoding="utf-8").splitlines():
            d = json.loads(line)
            done[d["id"]] = QuestionCandidates(**d)
    return done


def _append(cache: Path | None, q: QuestionCandidates) -> None:
    if cache is not None:
        cache.parent.mkdir(parents=True, exist_ok=True)
        with open(cache, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(q.to_json()) + "\n")


async def collect(
    retriever: HybridRetriever, bench: Benchmark, namespace: str, cache: Path | None = None
) -> list[QuestionCandidates]:
    """Every question's candidates with their signals (resumed from ``cache``, a JSONL file, when given)."""
    done = _load(cache)
    out = []
    for q in tqdm(bench.questions, desc=f"signals {bench.name}", file=sys.stderr):
        if q.id not in done:
            ctx: RunContext[HybridTrace] = RunContext(mode="hybrid", trace=HybridTrace())
            t0 = time.perf_counter()
            payloads, feats = await retriever.candidates(
                RetrievalQuery(question=q.question, namespace=namespace, top_k=10), ctx
            )
            ids = list(feats)
            done[q.id] = QuestionCandidates(
                q.id,
                list(q.support),
                [str(payloads[c].get("title")) for c in ids],
                [feats[c] for c in ids],
                round(1000 * (time.perf_counter() - t0), 1),
            )
            _append(cache, done[q.id])
        out.append(done[q.id])
    return out


# --- training ---------------------------------------------------------------------------------------------------
def _fit(x: np.ndarray, y: np.ndarray, hidden: int, seed: int) -> Any:
    from sklearn.neural_network import MLPClassifier

    clf = MLPClassifier(
        hidden_layer_sizes=(hidden,), alpha=1e-3, max_iter=600, random_state=seed, learning_rate_init=3e-3
    )
    return clf.fit(x, y)


def _as_model(clf: Any, signals: Sequence[str], meta: dict[str, Any]) -> FusionModel:
    layers = [(np.asarray(w), np.asarray(b)) for w, b in zip(clf.coefs_, clf.intercepts_, strict=True)]
    return FusionModel(list(signals), layers, meta)


def train(
    questions: Sequence[QuestionCandidates],
    *,
    signals: Sequence[str] = BASE_SIGNALS,
    rounds: int = 3,
    random_negatives: int = 8,
    hard_negatives: int = 6,
    hidden: int = 16,
    seed: int = 13,
) -> tuple[FusionModel, list[dict[str, Any]]]:
    """An MLP over the locally standardised signals, trained with active sampling (``rounds`` of hard-negative
    mining). Returns the model and per-round statistics (sample size, training Recall@5)."""
    rng = random.Random(seed)
    qs = [q for q in questions if q.labels.any()]  # a question none of whose passages is a candidate teaches nothing
    feats = [standardise(q.feats, signals) for q in qs]
    chosen: list[set[int]] = []
    for q in qs:
        lab = q.labels
        pos = [i for i in range(len(lab)) if lab[i]]
        neg = [i for i in range(len(lab)) if not lab[i]]
        chosen.append(set(pos) | set(rng.sample(neg, min(random_negatives, len(neg)))))
    history = []
    clf = None
    for r in range(rounds + 1):
        x = np.vstack([f[sorted(c)] for f, c in zip(feats, chosen, strict=True)])
        y = np.concatenate([q.labels[sorted(c)] for q, c in zip(qs, chosen, strict=True)])
        clf = _fit(x, y, hidden, seed)
        model = _as_model(clf, signals, {})
        recall = float(np.mean([M.recall_at_k(ranked(q, model.score(q.feats)), q.support, 5) for q in qs]))
        history.append({"round": r, "sample": len(y), "positives": int(y.sum()), "train_recall@5": recall})
        if r == rounds:
            break
        for q, f, c in zip(qs, feats, chosen, strict=True):  # mine: the negatives the model now ranks highest
            s = clf.predict_proba(f)[:, 1]
            lab = q.labels
            hard = [i for i in np.argsort(-s) if not lab[i] and i not in c][:hard_negatives]
            c.update(int(i) for i in hard)
    assert clf is not None
    return _as_model(clf, signals, {"rounds": history, "hidden": hidden}), history


# --- evaluation -------------------------------------------------------------------------------------------------
def ranked(q: QuestionCandidates, scores: Sequence[float] | np.ndarray) -> list[str]:
    """The question's passages (titles) by score, best first, each once."""
    order = sorted(range(len(q.titles)), key=lambda i: -float(scores[i]))
    return M.dedupe(q.titles[i] for i in order)


def passage_metrics(ranking: list[str], support: Sequence[str], ks: Sequence[int]) -> dict[str, float]:
    out: dict[str, float] = {}
    for k in ks:
        p, r = M.precision_at_k(ranking, support, k), M.recall_at_k(ranking, support, k)
        out |= {
            f"P@{k}": p,
            f"R@{k}": r,
            f"Hit@{k}": M.hit_at_k(ranking, support, k),
            f"All@{k}": M.coverage_at_k(ranking, support, k),
            f"F1@{k}": M.f_beta(p, r),
        }
    return out


Scorer = Callable[[QuestionCandidates], Sequence[float] | np.ndarray]


def scorers(model: FusionModel | None, rrf_k: int = 60) -> dict[str, Scorer]:
    """Every fusion of the eval table, by name."""

    def base(name: str) -> Scorer:
        return lambda q: fuse_baseline(name, [str(i) for i in range(len(q.feats))], q.feats, rrf_k)

    out: dict[str, Scorer] = {s: base(s) for s in BASE_SIGNALS}
    out["naive"] = base("naive")
    out["rrf"] = base("rrf")
    if model is not None:
        out["learned"] = lambda q: model.score(q.feats)
    return out


def evaluate(questions: Sequence[QuestionCandidates], fusions: dict[str, Scorer], ks: Sequence[int]) -> dict[str, Any]:
    table = {}
    for name, score in fusions.items():
        rows = [passage_metrics(ranked(q, score(q)), q.support, ks) for q in questions]
        table[name] = {key: round(100 * float(np.mean([r[key] for r in rows])), 1) for key in rows[0]}
    return table


def importances(model: FusionModel, questions: Sequence[QuestionCandidates], seed: int = 13) -> dict[str, float]:
    """Drop in Recall@5 (points) when one signal's scores are shuffled among each question's candidates."""
    rng = random.Random(seed)
    out: dict[str, float] = {}
    base = np.mean([M.recall_at_k(ranked(q, model.score(q.feats)), q.support, 5) for q in questions])
    for s in model.signals:
        vals = []
        for q in questions:
            column = [f.get(s) for f in q.feats]
            rng.shuffle(column)
            feats = [
                {**{k: v for k, v in f.items() if k != s}, **({s: c} if c is not None else {})}
                for f, c in zip(q.feats, column, strict=True)
            ]
            vals.append(M.recall_at_k(ranked(q, model.score(feats)), q.support, 5))
        out[s] = round(100 * float(base - np.mean(vals)), 2)
    return out


def to_markdown(report: dict[str, Any]) -> str:
    lines = [f"# Hybrid fusion: trained on {report['train']}, measured on {report['test']}", ""]
    ks = report["ks"]
    lines.append(
        "| fusion | "
        + " | ".join(f"R@{k}" for k in ks)
        + " | "
        + " | ".join(f"P@{k} / Hit@{k} / All@{k} / F1@{k}" for k in ks)
        + " |"
    )
    lines.append("|---" * (1 + 2 * len(ks)) + "|")
    for name, m in report["table"].items():
        rs = " | ".join(f"{m[f'R@{k}']}" for k in ks)
        rest = " | ".join(f"{m[f'P@{k}']} / {m[f'Hit@{k}']} / {m[f'All@{k}']} / {m[f'F1@{k}']}" for k in ks)
        lines.append(f"| {name} | {rs} | {rest} |")
    lines += ["", "Feature importance (drop in R@5, points, signal shuffled within each question): "]
    lines.append(", ".join(f"{k} {v}" for k, v in report["importance"].items()))
    lines += [
        "",
        f"Candidate stage latency p50 {report['latency_ms']['p50']} ms, p90 {report['latency_ms']['p90']} ms "
        f"({report['test_questions']} questions); training rounds: {report['rounds']}",
    ]
    return "\n".join(lines) + "\n"
