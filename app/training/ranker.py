"""Learning text2cypher's ranker (``app.text2cypher.rank``) from a graph's own synthetic questions, no labelled ones.

1. **Collect** (``python -m app ranker collect --namespace NS --out FILE``): the self-tuning pairs of the namespace
   (``app.training.selftune``: entity paths and label-anchored shapes, each phrased as a question by generic English
   frames), each question run through the mode's enumeration as a user's would be (linking, candidates, readings,
   cross-encoder, features). A question is kept where its pair's query is among the candidates: that query is its
   positive, the others its negatives (the ``keep`` highest by the current ranker, the hard ones, and the positive).
2. **Fit** (``python -m app ranker fit FILE... --out RANKER``): a linear model over the features, ``score = w·x``,
   by the listwise loss (the softmax of the scores over a question's candidates against its positive) with an L2
   penalty, on the questions of some graphs; reported on held-back questions of the same graphs, and on other
   graphs' files (``--check``), beside the ranker it replaces.

Questions of a benchmark are never used: only pairs built from a graph. The default ranker is fitted on graphs
other than the ones a reported number is measured on (the summary names which).
"""

from __future__ import annotations

import json
import math
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm

from app.container import Container
from app.errors import InvalidInputError
from app.retrievers.text2cypher import Text2CypherRetriever
from app.settings import Settings
from app.text2cypher import rank
from app.text2cypher.features import FEATURES, RELEVANCE
from app.training.selftune import build_pairs, shape_pairs

NAMES = (RELEVANCE, *FEATURES)
"""The features a ranker is fitted over, in the order of a group's rows."""


@dataclass
class Group:
    """One synthetic question: its candidates' features and which candidate is its pair's query."""

    namespace: str
    question: str
    kind: str
    """The pair's kind: ``path`` (an entity path) or the shape's kind (``count``, ``top``...)."""
    names: list[str]
    rows: list[list[float]]
    positive: int


async def collect(
    settings: Settings,
    namespace: str,
    *,
    pairs: int = 300,
    shape_share: float = 0.4,
    minutes: float = 15.0,
    keep: int = 150,
    seed: int = 13,
) -> tuple[list[Group], dict[str, Any]]:
    """The groups of up to ``pairs`` synthetic questions of ``namespace`` (``shape_share`` of them shapes), within
    ``minutes``."""
    t0 = time.monotonic()
    deadline = t0 + minutes * 60
    c = await Container.start(settings, with_llm=False, modes=["text2cypher", "vector"])
    try:
        r = c.retrievers["text2cypher"]
        assert isinstance(r, Text2CypherRetriever)
        n_shapes = int(pairs * shape_share)
        built, _ = await build_pairs(
            c,
            namespace,
            max_pairs=pairs - n_shapes,
            deadline=t0 + 0.2 * minutes * 60,
            seed=seed,
            per_depth=2,
            max_answers=50,
            expand_beam=4,
        )
        shapes = await shape_pairs(r, namespace, n_shapes, random.Random(seed))
        todo = built + shapes
        random.Random(seed).shuffle(todo)
        groups: list[Group] = []
        missing = 0
        for p in tqdm(todo, desc=f"questions of {namespace}", file=sys.stderr):
            if time.monotonic() > deadline:
                break
            e = await r.enumerate(namespace, p["question"])
            texts = [x.text for x in e.candidates]
            if p["cypher"] not in texts or e.relevance is None or not e.features:
                missing += 1
                continue
            rows = [[f.get(n, 0.0) for n in NAMES[1:]] for f in e.features]
            rows = [[rel, *row] for rel, row in zip(e.relevance, rows, strict=True)]
            pos = texts.index(p["cypher"])
            scores = r.scores(e) or e.relevance
            hard = sorted(range(len(rows)), key=lambda i: -scores[i])[:keep]
            kept = sorted(set(hard) | {pos})
            groups.append(
                Group(
                    namespace,
                    p["question"],
                    p.get("shape", "path"),
                    list(NAMES),
                    [rows[i] for i in kept],
                    kept.index(pos),
                )
            )
    finally:
        await c.close()
    stats = {
        "namespace": namespace,
        "pairs": len(todo),
        "groups": len(groups),
        "positive_not_enumerated": missing,
        "seconds": round(time.monotonic() - t0, 1),
    }
    return groups, stats


def save(groups: Sequence[Group], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(asdict(g)) + "\n" for g in groups))


def read(paths: Sequence[Path]) -> list[Group]:
    out = []
    for p in paths:
        for line in p.read_text().splitlines():
            if line.strip():
                out.append(Group(**json.loads(line)))
    return out


def _matrix(g: Group, names: Sequence[str]) -> np.ndarray:
    """The group's rows in the columns ``names`` (a feature the file lacks is 0)."""
    idx = [g.names.index(n) if n in g.names else -1 for n in names]
    rows = np.asarray(g.rows, dtype=np.float64)
    return np.stack([rows[:, j] if j >= 0 else np.zeros(len(rows)) for j in idx], axis=1)


def fit(groups: Sequence[Group], names: Sequence[str] = NAMES, l2: float = 0.01) -> dict[str, float]:
    """The weights minimising the mean listwise loss over ``groups`` plus ``l2 * |w|²``."""
    from scipy.optimize import minimize

    if not groups:
        raise InvalidInputError("no questions to fit a ranker on")
    data = [(_matrix(g, names), g.positive) for g in groups]

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        total, grad = 0.0, np.zeros_like(w)
        for x, pos in data:
            s = x @ w
            top = s.max()
            p = np.exp(s - top)
            z = p.sum()
            total += math.log(z) + top - s[pos]
            grad += x.T @ (p / z) - x[pos]
        n = len(data)
        return total / n + l2 * float(w @ w), grad / n + 2 * l2 * w

    res = minimize(loss, np.zeros(len(names)), jac=True, method="L-BFGS-B")
    return {n: round(float(v), 4) for n, v in zip(names, res.x, strict=True)}


def hits_at_1(groups: Sequence[Group], ranker: rank.Ranker) -> float:
    """How often the ranker's best candidate is the group's positive (ties: the first), in percent."""
    if not groups:
        return 0.0
    hit = 0
    for g in groups:
        feats = [dict(zip(g.names, row, strict=True)) for row in g.rows]
        scores = ranker.scores(feats)
        hit += int(max(range(len(scores)), key=lambda i: scores[i]) == g.positive)
    return round(100.0 * hit / len(groups), 1)


def by_kind(groups: Sequence[Group], ranker: rank.Ranker) -> dict[str, float]:
    kinds = sorted({g.kind for g in groups})
    return {k: hits_at_1([g for g in groups if g.kind == k], ranker) for k in kinds}


def learn(
    inputs: Sequence[Path],
    out: Path,
    *,
    checks: Sequence[Path] = (),
    holdout: float = 0.2,
    l2: float = 0.01,
    seed: int = 13,
) -> dict[str, Any]:
    """Fit a ranker on the groups of ``inputs`` (less ``holdout`` of them, held back to report on), write it to
    ``out``, and report it beside the bundled default on the held-back groups and on ``checks`` (other graphs)."""
    groups = read(inputs)
    rng = random.Random(seed)
    rng.shuffle(groups)
    cut = int(len(groups) * (1 - holdout))
    train, held = groups[:cut], groups[cut:]
    weights = fit(train, l2=l2)
    learned = rank.Ranker(weights, name=str(out))
    before = rank.load("default")
    other = read(checks) if checks else []
    report = {
        "trained_on": sorted({g.namespace for g in train}),
        "questions": {"train": len(train), "held_back": len(held), "checks": len(other)},
        "l2": l2,
        "hits_at_1": {
            "held_back": {"before": hits_at_1(held, before), "learned": hits_at_1(held, learned)},
            "checks": {"before": hits_at_1(other, before), "learned": hits_at_1(other, learned)},
        },
        "held_back_by_kind": {"before": by_kind(held, before), "learned": by_kind(held, learned)},
    }
    doc = {
        "about": "Weights of text2cypher's ranking features (app/text2cypher/features.py), learned by `python -m app "
        "ranker fit` from synthetic questions of the graphs named in `trained_on` (no benchmark question): the "
        "listwise loss over each question's candidates, its pair's query the positive.",
        "learned": True,
        "standardise": False,
        "command": "python -m app ranker fit " + " ".join(str(p) for p in inputs) + f" --out {out}",
        "report": report,
        "weights": weights,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=2) + "\n")
    return report
