"""The learned fusion of retrieval signals: a small MLP over per-question standardised scores, stored as JSON.

Each candidate chunk of a question has a score per signal (vector, page, section, entity, path, bm25, and the
cross-encoder when it ran) or none. Scores are only comparable within one question, so each signal is standardised
*locally*: missing scores are first filled just below the lowest score the signal gave any candidate of that
question, then the column is z-scored over the question's candidates. The model sees the z-scores and, per signal,
whether the score was present. The file holds the signal names, the layers and what it was trained on; inference is
numpy (no sklearn at serving time)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

SIGNALS = ("vector", "page", "section", "entity", "path", "bridge", "bm25", "rerank")
"""Every signal a candidate can carry, in the order feature columns are built."""


def rrf(rankings: list[list[str]], k: int) -> dict[str, float]:
    """Reciprocal rank fusion: id -> sum over rankings of 1 / (k + rank)."""
    fused: dict[str, float] = {}
    for ranking in rankings:
        for rank, key in enumerate(ranking):
            fused[key] = fused.get(key, 0.0) + 1.0 / (k + rank + 1)
    return fused


def standardise(rows: Sequence[Mapping[str, float]], signals: Sequence[str]) -> np.ndarray:
    """``len(rows) x 2·len(signals)``: per signal the local z-score (missing filled below the observed minimum) and
    a 0/1 column saying the score was present."""
    n = len(rows)
    out = np.zeros((n, 2 * len(signals)), dtype=np.float64)
    for j, name in enumerate(signals):
        col = np.array([r.get(name, np.nan) for r in rows], dtype=np.float64)
        present = ~np.isnan(col)
        if present.any():
            lo, hi = float(col[present].min()), float(col[present].max())
            col[~present] = lo - (0.1 * (hi - lo) if hi > lo else 0.1 * max(abs(lo), 1e-6))
            std = float(col.std())
            out[:, j] = (col - col.mean()) / std if std > 1e-9 else 0.0
        out[:, len(signals) + j] = present
    return out


@dataclass
class FusionModel:
    signals: list[str]
    layers: list[tuple[np.ndarray, np.ndarray]]
    """(weights, bias) per layer; ReLU between layers, a logit out."""
    meta: dict[str, Any] = field(default_factory=dict)

    def score(self, rows: Sequence[Mapping[str, float]]) -> np.ndarray:
        """One logit per candidate of one question (higher: more likely a supporting passage)."""
        if not rows:
            return np.zeros(0)
        h = standardise(rows, self.signals)
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < len(self.layers) - 1:
                h = np.maximum(h, 0.0)
        return h[:, 0]

    def save(self, path: Path) -> None:
        data = {
            "signals": self.signals,
            "layers": [{"weights": w.tolist(), "bias": b.tolist()} for w, b in self.layers],
            "meta": self.meta,
        }
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> FusionModel:
        data = json.loads(path.read_text(encoding="utf-8"))
        unknown = set(data["signals"]) - set(SIGNALS)
        if unknown:
            raise ValueError(f"{path}: unknown signals {sorted(unknown)}")
        layers = [
            (np.asarray(x["weights"], dtype=np.float64), np.asarray(x["bias"], dtype=np.float64))
            for x in data["layers"]
        ]
        if layers[0][0].shape[0] != 2 * len(data["signals"]) or layers[-1][0].shape[1] != 1:
            raise ValueError(f"{path}: layer shapes do not fit {len(data['signals'])} signals")
        return cls(list(data["signals"]), layers, dict(data.get("meta", {})))
