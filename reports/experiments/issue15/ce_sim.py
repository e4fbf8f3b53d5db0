"""Issue 15 experiment (run from the repository root with .venv/bin/python; see reports/summary.md, Session 8)."""

import json
from pathlib import Path

import numpy as np

from app.eval import metrics as M
from app.retrievers.vector import rrf
from app.training.fusion import QuestionCandidates, _load, train


def newest(name):
    """The newest candidate-signal cache that `python -m app fusion --data-dir var/eval-h15` wrote for a corpus."""
    return max(Path("var/eval-h15/fusion").glob(f"{name}-*.jsonl"), key=lambda p: p.stat().st_mtime)


def load(ds):
    return json.loads(Path(f"var/ce-{ds}-2-256.json").read_text())


for ds, other in (("musique", "hotpotqa"), ("hotpotqa", "musique")):
    model, _ = train(list(_load(newest(other)).values()))
    data = load(ds)
    for N in (0, 4, 5, 6, 8, 10, 12):
        for kind in ("rrf5", "rrf2", "replace"):
            rs = []
            for d in data:
                q = QuestionCandidates(d["id"], d["support"], d["titles"], d["feats"])
                sc = model.score(q.feats)
                order = list(np.argsort(-sc))
                top = order[:N]
                rest = order[N:]
                if N:
                    ce = {i: d["ce"][str(i)] for i in top}
                    by_ce = sorted(top, key=lambda i: -ce[i])
                    if kind == "replace":
                        newtop = by_ce
                    else:
                        f = rrf([[str(i) for i in top], [str(i) for i in by_ce]], 5 if kind == "rrf5" else 2)
                        newtop = sorted(top, key=lambda i: -f[str(i)])
                    order = newtop + rest
                titles = M.dedupe(q.titles[i] for i in order)
                rs.append((M.recall_at_k(titles, q.support, 2), M.recall_at_k(titles, q.support, 5)))
            print(ds, N, kind, "R@2 %.1f R@5 %.1f" % tuple(100 * np.mean(rs, axis=0)))
            if N == 0:
                break
