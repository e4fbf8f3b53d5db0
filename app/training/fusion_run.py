"""``python -m app fusion``: ingest (or reuse) two passage corpora, collect the hybrid mode's candidate signals on
both, train the fusion on one, measure every fusion on the other, save the model and the report."""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from app.container import Container
from app.eval.loaders import load_benchmark
from app.eval.runner import _ingest, code_version
from app.retrievers.hybrid import HybridRetriever
from app.settings import Settings
from app.training.fusion import collect, evaluate, importances, scorers, to_markdown
from app.training.fusion import train as fit_fusion

KS = {"hotpotqa": (1, 2, 5), "musique": (1, 2, 4, 5, 6, 8)}


async def run_fusion(
    settings: Settings, *, train: str, test: str, data_root: Path, out: Path | None, fresh: bool, reports_dir: Path
) -> dict[str, Any]:
    c = await Container.start(settings, with_llm=False)
    try:
        hybrid = c.retrievers.get_mode("hybrid")
        assert isinstance(hybrid, HybridRetriever)
        key = hashlib.sha1(json.dumps([hybrid.config.model_dump(mode="json"), code_version()]).encode()).hexdigest()[
            :10
        ]
        data: dict[str, Any] = {}
        for name in (train, test):
            bench = load_benchmark(name, data_root / f"{name}_hipporag100")
            ingest = await _ingest(c, bench, name)
            cache = settings.data_dir / "fusion" / f"{name}-{key}.jsonl"
            if fresh and cache.exists():
                cache.unlink()
            data[name] = (await collect(hybrid, bench, name, cache), ingest)
    finally:
        await c.close()
    return _train_and_report(data, train=train, test=test, key=key, out=out, reports_dir=reports_dir)


def _train_and_report(
    data: dict[str, Any], *, train: str, test: str, key: str, out: Path | None, reports_dir: Path
) -> dict[str, Any]:
    t0 = time.perf_counter()
    model, history = fit_fusion(data[train][0])
    fit_s = round(time.perf_counter() - t0, 1)
    test_qs = data[test][0]
    model.meta |= {"trained_on": f"{train}_hipporag100 (all questions)", "config": key}
    model.meta["importance_on_" + test] = imp = importances(model, test_qs)
    path = out or Path(__file__).resolve().parents[1] / "retrievers" / "fusion" / f"{train}.json"
    model.save(path)
    lat = [q.latency_ms for q in test_qs]
    report: dict[str, Any] = {
        "train": train,
        "test": test,
        "ks": list(KS.get(test, (1, 2, 5))),
        "test_questions": len(test_qs),
        "table": evaluate(test_qs, scorers(model), KS.get(test, (1, 2, 5))),
        "importance": imp,
        "rounds": history,
        "fit_seconds": fit_s,
        "model": str(path),
        "latency_ms": {"p50": round(float(np.percentile(lat, 50)), 1), "p90": round(float(np.percentile(lat, 90)), 1)},
        "ingest": {name: d[1] for name, d in data.items()},
        "candidates_mean": {name: round(float(np.mean([len(q.titles) for q in d[0]])), 1) for name, d in data.items()},
    }
    report["markdown"] = to_markdown(report)
    out_dir = reports_dir / "hybrid"
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / f"{train}-to-{test}.json").write_text(json.dumps(report, indent=1) + "\n")
    (out_dir / f"{train}-to-{test}.md").write_text(report["markdown"])
    return report
