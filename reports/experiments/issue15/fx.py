"""Issue 15 experiment (run from the repository root with .venv/bin/python; see reports/summary.md, Session 8)."""

from pathlib import Path

import numpy as np

from app.eval import metrics as M
from app.training.fusion import _load, ranked, train


def newest(name):
    """The newest candidate-signal cache that `python -m app fusion --data-dir var/eval-h15` wrote for a corpus."""
    return max(Path("var/eval-h15/fusion").glob(f"{name}-*.jsonl"), key=lambda p: p.stat().st_mtime)


H = list(_load(newest("hotpotqa")).values())
Mu = list(_load(newest("musique")).values())


def r5(model, qs, k=5):
    return round(100 * np.mean([M.recall_at_k(ranked(q, model.score(q.feats)), q.support, k) for q in qs]), 1)


for sig in [
    ("vector", "page", "section", "entity", "path", "bm25"),
    ("vector", "page", "entity", "path", "bm25"),
    ("vector", "path", "bm25"),
    ("vector", "page", "path", "bm25"),
]:
    for hidden in (4, 16):
        for rounds in (0, 3):
            m1, _ = train(H, signals=sig, hidden=hidden, rounds=rounds)
            m2, _ = train(Mu, signals=sig, hidden=hidden, rounds=rounds)
            print(
                sig, hidden, rounds, "H->M", r5(m1, Mu), r5(m1, Mu, 8), "M->H", r5(m2, H), "| in-domain M", r5(m2, Mu)
            )
