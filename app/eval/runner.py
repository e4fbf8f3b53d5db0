"""``python -m app eval``: ingest (or reuse) a benchmark into a namespace, run each retriever mode over its
questions through the same ``QAService`` the API uses, and write ``reports/<dataset>/<timestamp>.{json,md}``."""

from __future__ import annotations

import json
import platform
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from tqdm import tqdm

from app.container import Container
from app.eval import metrics as M
from app.eval.loaders import EvalQuestion, load_benchmark
from app.schemas import RetrieveRequest
from app.settings import Settings

KS = (1, 2, 5, 10)


def _titles(items: list[Any]) -> list[str]:
    return [it.source.title or it.source.node_name or it.id for it in items]


def score_passages(ranked: list[str], q: EvalQuestion) -> dict[str, float]:
    out = {f"recall@{k}": M.recall_at_k(ranked, q.support, k) for k in KS}
    out |= {f"hit@{k}": M.hit_at_k(ranked, q.support, k) for k in KS}
    out["coverage@5"] = M.coverage_at_k(ranked, q.support, 5)
    out["mrr"] = M.mrr(ranked, q.support)
    return out


def _mean(rows: list[dict[str, float]]) -> dict[str, float]:
    keys = rows[0].keys() if rows else []
    return {k: round(100 * sum(r[k] for r in rows) / len(rows), 2) for k in keys}


def to_markdown(report: dict[str, Any]) -> str:
    lines = [
        f"# {report['dataset']} — {report['timestamp']}",
        "",
        f"{report['questions']} questions, namespace `{report['namespace']}`, "
        f"ingest {report['ingest']['seconds']:.1f}s ({json.dumps(report['ingest']['counts'])}).",
        "",
    ]
    for mode, r in report["modes"].items():
        lines += [
            f"## mode `{mode}`",
            "",
            "| metric | all | " + " | ".join(r["by_type"]) + " |",
            "|---|---|" + "---|" * len(r["by_type"]),
        ]
        for metric, value in r["overall"].items():
            lines.append(
                f"| {metric} | {value:.1f} | " + " | ".join(f"{t[metric]:.1f}" for t in r["by_type"].values()) + " |"
            )
        lat = r["latency_ms"]
        lines += [
            "",
            f"Latency (ms): p50 {lat['p50']:.0f}, p95 {lat['p95']:.0f}, p99 {lat['p99']:.0f}; "
            "stages p50: " + ", ".join(f"{k} {v:.0f}" for k, v in r["stage_p50_ms"].items()),
            "",
        ]
    return "\n".join(lines)


async def run_eval(
    settings: Settings,
    *,
    dataset: str,
    path: Path,
    modes: list[str],
    limit: int | None,
    namespace: str | None,
    reports_dir: Path,
) -> dict[str, Any]:
    bench = load_benchmark(dataset, path)
    ns = namespace or dataset
    questions = bench.questions[:limit] if limit else bench.questions
    c = await Container.start(settings, with_llm=False)
    try:
        bar = tqdm(desc=f"ingest {dataset}", file=sys.stderr, unit="it")

        def progress(stage: str, done: int, total: int) -> None:
            bar.set_description(f"ingest {dataset}: {stage}")
            bar.total = total
            bar.update(done - bar.n)

        ingest = await c.ingestor.ingest_documents(ns, bench.corpus, progress=progress)
        bar.close()
        report: dict[str, Any] = {
            "dataset": dataset,
            "namespace": ns,
            "questions": len(questions),
            "timestamp": time.strftime("%Y%m%dT%H%M%S"),
            "ingest": {"counts": ingest.counts, "seconds": ingest.seconds},
            "machine": {"python": platform.python_version(), "cpus": __import__("os").cpu_count()},
            "modes": {},
            "per_question": {},
        }
        for mode in modes:
            rows, by_type, latencies = [], defaultdict(list), []
            stages: dict[str, list[float]] = defaultdict(list)
            per_q = []
            for q in tqdm(questions, desc=f"{dataset}/{mode}", file=sys.stderr):
                t0 = time.perf_counter()
                res = await c.qa.retrieve(RetrieveRequest(question=q.question, namespace=ns, mode=mode, top_k=max(KS)))
                latencies.append(1000 * (time.perf_counter() - t0))
                for k, v in res.timings_ms.items():
                    stages[k].append(v)
                ranked = M.dedupe(_titles(res.items))
                s = score_passages(ranked, q)
                rows.append(s)
                by_type[q.qtype or "all"].append(s)
                per_q.append({"id": q.id, "qtype": q.qtype, "ranked": ranked[:10], "gold": q.support, **s})
            report["modes"][mode] = {
                "overall": _mean(rows),
                "by_type": {t: _mean(r) for t, r in sorted(by_type.items())},
                "latency_ms": {f"p{p}": round(M.percentile(latencies, p), 2) for p in (50, 95, 99)},
                "stage_p50_ms": {k: round(M.percentile(v, 50), 2) for k, v in stages.items()},
            }
            report["per_question"][mode] = per_q
    finally:
        await c.close()
    out_dir = reports_dir / dataset
    out_dir.mkdir(parents=True, exist_ok=True)
    md = to_markdown(report)
    (out_dir / f"{report['timestamp']}.json").write_text(json.dumps(report, indent=2))
    (out_dir / f"{report['timestamp']}.md").write_text(md)
    report["markdown"] = md
    return report
