"""The rank stage: the candidates' features (``features.py``) weighed into one score by a ranker read from a file,
and the orders the mode's scorings take (by that score alone; by the LLM alone; the score and the LLM combined).

A ranker file (``rankers/<name>.json``, or a path) holds ``weights`` per feature name and whether features are
standardised per question first (``standardise``: each feature's mean taken off and divided by its spread over the
question's candidates, so a weight means the same on a question of 30 candidates and one of 3,000). A feature the
file does not name weighs nothing; a name it holds that no feature has is an error (a renamed feature must not pass
silently).
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.errors import InvalidInputError
from app.text2cypher.features import FEATURES, LLM, RELEVANCE, UNCONDITIONED
from app.text2cypher.files import data_file

BUNDLED = Path(__file__).parent / "rankers"
RANKER_FILE = "ranker.json"
"""A tuned namespace's ranker, in its adapter's folder (``tune`` fits it on held-back pairs; it weighs ``llm``)."""


@dataclass(frozen=True)
class Ranker:
    weights: dict[str, float]
    standardise: bool = False
    name: str = "default"
    info: dict[str, Any] = field(default_factory=dict, compare=False)
    """What the file says of itself (how it was learned)."""

    @classmethod
    def of(cls, name: str, data: dict[str, Any]) -> Ranker:
        weights = {str(k): float(v) for k, v in dict(data.get("weights") or {}).items()}
        unknown = sorted(set(weights) - set(FEATURES) - {RELEVANCE, LLM})
        if unknown:
            raise InvalidInputError(f"text2cypher ranker {name!r} weighs unknown features: {', '.join(unknown)}")
        info = {k: v for k, v in data.items() if k != "weights"}
        return cls(weights, bool(data.get("standardise", False)), name, info)

    def prior(self, feats: Sequence[dict[str, float]], conditioned: Sequence[bool] | None = None) -> list[float]:
        """What the features say before the cross-encoder or the LLM has read a candidate: the weighted sum of the
        others, unstandardised (the budgets' tie-breaker, ``enumerate_shapes.within_budget``). The features that read
        what conditions take (``features.UNCONDITIONED``) count only for the candidates ``conditioned`` marks (all,
        where it is None): a shape that has no condition yet may get one that takes what they miss."""
        rest = [n for n in self.weights if n not in (RELEVANCE, LLM)]
        marks = conditioned if conditioned is not None else [True] * len(feats)
        return [
            sum(self.weights[n] * f.get(n, 0.0) for n in rest if has or n not in UNCONDITIONED)
            for f, has in zip(feats, marks, strict=True)
        ]

    def scores(self, feats: Sequence[dict[str, float]]) -> list[float]:
        """Each candidate's score: the weighted sum of its features (standardised over the candidates first, where
        the ranker says so). ``relevance`` is added last, so that integer-valued features sum exactly."""
        if not feats:
            return []
        cols = {n: [f.get(n, 0.0) for f in feats] for n in self.weights}
        if self.standardise:
            cols = {n: _standardised(v) for n, v in cols.items()}
        rest = [n for n in self.weights if n != RELEVANCE]
        out = []
        for i in range(len(feats)):
            s = sum(self.weights[n] * cols[n][i] for n in rest)
            if RELEVANCE in self.weights:
                s = self.weights[RELEVANCE] * cols[RELEVANCE][i] + s
            out.append(s)
        return out


def _standardised(xs: list[float]) -> list[float]:
    mean = sum(xs) / len(xs)
    spread = math.sqrt(sum((x - mean) ** 2 for x in xs) / len(xs))
    return [(x - mean) / spread if spread > 1e-9 else 0.0 for x in xs]


@functools.lru_cache(maxsize=16)
def load(name: str = "default") -> Ranker:
    """A bundled ranker by name, or a ranker file by path (read once: a file that changes is ``load_file``'s)."""
    return _read(name, data_file(BUNDLED, name, ".json", "ranker"))


def _read(name: str, path: Path) -> Ranker:
    try:
        return Ranker.of(name, json.loads(path.read_text()))
    except (ValueError, TypeError, AttributeError) as exc:
        raise InvalidInputError(f"text2cypher ranker {name!r} is malformed: {exc!r}") from exc


@functools.lru_cache(maxsize=64)
def _load_file(path: str, inode: int, mtime_ns: int, size: int) -> Ranker:
    return _read(path, Path(path))


def load_file(path: Path) -> Ranker | None:
    """The ranker file at ``path``, read again when another is moved in or it is rewritten (a new inode, time or
    size), or None when there is none."""
    try:
        st = path.stat()
        return _load_file(str(path), st.st_ino, st.st_mtime_ns, st.st_size)
    except FileNotFoundError:
        return None


def by_score(
    scores: Sequence[float], sizes: Sequence[int], paths: Sequence[bool], margin: float, top: int
) -> list[int]:
    """The candidates by score, best first; when the best is a path (``paths``), the smallest path (``sizes``)
    within ``margin`` of it first (a shape's size counts its operations, and a smaller shape is no likelier the
    answer)."""
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    if not order:
        return []
    kind = paths[order[0]]
    m = margin if kind else 0.0
    near = [i for i in order if scores[i] >= scores[order[0]] - m and paths[i] == kind]
    depth = min(sizes[i] for i in near)
    first = next(i for i in near if sizes[i] == depth)
    return [first, *(i for i in order if i != first)][:top]


def log_softmax(lp: dict[int, float], floor: float) -> dict[int, float]:
    """The LLM's log-probabilities as a log-softmax over the candidates it scored, none below ``-floor``."""
    if not lp:
        return {}
    values = list(lp.values())
    top = max(values)
    norm = top + math.log(sum(math.exp(x - top) for x in values))
    return {i: max(x - norm, -floor) for i, x in lp.items()}
