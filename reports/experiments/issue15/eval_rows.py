"""P / R / Hit / All / F1 at the issue's k's for modes measured by `python -m app eval` (their per-question rankings),
in the layout of reports/hybrid/*.md. Usage: eval_rows.py REPORTS_DIR DATASET [MODE ...]"""

import json
import sys
from pathlib import Path

import numpy as np

from app.training.fusion import passage_metrics
from app.training.fusion_run import KS

reports, dataset, modes = Path(sys.argv[1]), sys.argv[2], sys.argv[3:] or ["hybrid", "iterative"]
ks = KS[dataset]
runs = reports / dataset / ".runs"
print(
    "| mode | "
    + " | ".join(f"R@{k}" for k in ks)
    + " | "
    + " | ".join(f"P@{k} / Hit@{k} / All@{k} / F1@{k}" for k in ks)
    + " |"
)
for mode in modes:
    path = max(runs.glob(f"{mode}-*.jsonl"), key=lambda p: p.stat().st_mtime)
    qs = [json.loads(line) for line in path.read_text().splitlines()]
    support = {
        q.id: q.support
        for q in __import__("app.eval.loaders", fromlist=["x"])
        .load_benchmark(dataset, Path(f"../shared/data/{dataset}_hipporag100"))
        .questions
    }
    rows = [passage_metrics(q["ranked"], support[q["id"]], ks) for q in qs]
    m = {k: round(100 * float(np.mean([r[k] for r in rows])), 1) for k in rows[0]}
    print(
        f"| {mode} | "
        + " | ".join(str(m[f"R@{k}"]) for k in ks)
        + " | "
        + " | ".join(f"{m[f'P@{k}']} / {m[f'Hit@{k}']} / {m[f'All@{k}']} / {m[f'F1@{k}']}" for k in ks)
        + " |"
    )
