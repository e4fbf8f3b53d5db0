"""``python -m app bench``: latency per pipeline stage on a namespace, measured side by side in one run.

Measures (1) embedding throughput one text at a time vs batched, (2) ``/retrieve`` stages per question, (3)
``/ask`` answer generation, all through the same ``QAService`` the API uses, and (4) the ONNX models' forward passes
(cross-encoder and embedder, one input per pass vs 16 vs the default token budget, on the same inputs). Writes
``reports/bench/<timestamp>.{json,md}``.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from app.container import Container
from app.eval.metrics import percentile
from app.schemas import AskRequest, RetrieveRequest
from app.settings import Settings


def _summary(values: list[float]) -> dict[str, float]:
    return {f"p{p}": round(percentile(values, p), 2) for p in (50, 95, 99)}


SWEEP = {
    "1 per pass, 1 thread": (1, 10**9, 1, None),
    "16 per pass, 1 thread": (16, 10**9, 1, None),
    "256-token budget, 1 thread": (32, 256, 1, None),
    "256-token budget, default threads, one pass at a time": (32, 256, None, 1),
    "256-token budget, default threads, passes at once (default)": (32, 256, None, None),
    "512-token budget, default threads, passes at once": (32, 512, None, None),
}
"""Forward-pass settings compared by ``onnx_batch_sweep``: (most inputs, most padded tokens) per pass, threads
(None: ``onnxmodels.default_threads``, the default) and passes run at once (None: as many as threads, the
default; 1: one after another)."""


def onnx_batch_sweep(
    reranker_model: str | None,
    embedder_model: str,
    questions: list[str],
    passages: list[str],
    *,
    pairs_per_question: int = 20,
) -> dict[str, dict[str, float]]:
    """Milliseconds per call of the ONNX cross-encoder and embedder under each forward-pass setting (``SWEEP``),
    interleaved so each setting sees the same machine load: the cross-encoder on ``pairs_per_question`` (question,
    passage) pairs per question and on the same pairs cut to 80 characters (short texts, like text2cypher's path
    readings), the embedder on all passages. Models that are not ONNX folders are left out."""
    from onnxmodels import OnnxCrossEncoder, OnnxEncoder, is_onnx_folder, resolve_model

    out: dict[str, dict[str, float]] = {}
    folder = resolve_model(reranker_model) if reranker_model else ""
    if folder and is_onnx_folder(folder) and passages:
        ces = {
            k: OnnxCrossEncoder(folder, batch_size=b, batch_tokens=t, threads=n, passes_at_once=m)
            for k, (b, t, n, m) in SWEEP.items()
        }
        times: dict[str, dict[str, list[float]]] = {"long": defaultdict(list), "short": defaultdict(list)}
        for i, q in enumerate(questions):
            chosen = [passages[(i * 7 + j) % len(passages)] for j in range(pairs_per_question)]
            for kind, texts in (("long", chosen), ("short", [p[:80] for p in chosen])):
                for k, ce in ces.items():
                    t0 = time.perf_counter()
                    ce.score([(q, p) for p in texts])
                    times[kind][k].append(1000 * (time.perf_counter() - t0))
        labels = {"long": "cross_encoder_ms_per_question", "short": "cross_encoder_short_ms_per_question"}
        for kind, label in labels.items():
            out[label] = {k: round(percentile(v, 50), 1) for k, v in times[kind].items()}
    embedder_folder = resolve_model(embedder_model)
    if is_onnx_folder(embedder_folder) and passages:
        row: dict[str, float] = {}
        for k, (b, t, n, m) in SWEEP.items():
            enc = OnnxEncoder(embedder_folder, batch_size=b, batch_tokens=t, threads=n, passes_at_once=m)
            t0 = time.perf_counter()
            enc.encode(passages)
            row[k] = round(1000 * (time.perf_counter() - t0), 1)
        out["embedder_ms_all_passages"] = row
    return out


def demo_passages(folder: Path) -> list[str]:
    """The paragraphs of the demo documents (Markdown, headings left out)."""
    paras: list[str] = []
    for f in sorted(folder.glob("*.md")):
        paras += [p.strip() for p in f.read_text().split("\n\n") if p.strip() and not p.startswith("#")]
    return paras


async def run_bench(
    settings: Settings,
    *,
    namespace: str,
    questions: list[str],
    repeat: int,
    reports_dir: Path,
    passages: list[str] | None = None,
) -> dict[str, Any]:
    qs = questions
    c = await Container.start(settings)
    try:
        texts = qs * 4
        t0 = time.perf_counter()
        for t in texts:
            await c.embedder.embed([t])
        one_by_one = len(texts) / (time.perf_counter() - t0)
        t0 = time.perf_counter()
        await c.embedder.embed(texts)
        batched = len(texts) / (time.perf_counter() - t0)

        stages: dict[str, list[float]] = defaultdict(list)
        for _ in range(repeat):
            for q in qs:
                res = await c.qa.retrieve(RetrieveRequest(question=q, namespace=namespace))
                for k, v in res.timings_ms.items():
                    stages[f"retrieve.{k}"].append(v)
        tokens_out, gen_ms = 0, 0.0
        for q in qs[: max(3, len(qs) // 4)]:
            a = await c.qa.ask(AskRequest(question=q, namespace=namespace))
            stages["ask.total"].append(a.timings_ms["total"])
            if "answer_generation" in a.timings_ms:
                stages["ask.answer_generation"].append(a.timings_ms["answer_generation"])
                gen_ms += a.timings_ms["answer_generation"]
                gen = a.trace.generation
                tokens_out += (gen.tokens_out or 0) if gen is not None else 0
        reranker = c.reranker.model_name if c.reranker is not None else None
        sweep = onnx_batch_sweep(reranker, c.embedder.model_name, qs, passages or [])
    finally:
        await c.close()

    table = {k: _summary(v) for k, v in stages.items()}
    report = {
        "timestamp": time.strftime("%Y%m%dT%H%M%S"),
        "namespace": namespace,
        "questions": len(qs),
        "repeat": repeat,
        "embedding_texts_per_s": {"one_by_one": round(one_by_one, 1), "batched": round(batched, 1)},
        "ratio_batched_vs_one_by_one": round(batched / one_by_one, 2),
        "answer_tokens_per_s": round(1000 * tokens_out / gen_ms, 2) if gen_ms else None,
        "ratio_ask_vs_retrieve_p50": round(table["ask.total"]["p50"] / table["retrieve.total"]["p50"], 1)
        if "ask.total" in table and table["retrieve.total"]["p50"]
        else None,
        "stages_ms": table,
        "onnx_forward_batch": sweep,
    }
    lines = [
        f"# bench — {report['timestamp']} (namespace `{namespace}`, {len(qs)} questions × {repeat})",
        "",
        f"Embedding: {one_by_one:.1f} texts/s one by one vs {batched:.1f} texts/s batched "
        f"(×{report['ratio_batched_vs_one_by_one']}).",
        f"Answer generation: {report['answer_tokens_per_s']} tokens/s; /ask p50 is "
        f"×{report['ratio_ask_vs_retrieve_p50']} the /retrieve p50.",
        "",
        "| stage | p50 ms | p95 ms | p99 ms |",
        "|---|---|---|---|",
    ]
    lines += [f"| {k} | {v['p50']:.1f} | {v['p95']:.1f} | {v['p99']:.1f} |" for k, v in sorted(table.items())]
    if sweep:
        lines += ["", "ONNX forward passes, same inputs, interleaved (ms; lower is better):", ""]
        lines += [f"- {k}: " + ", ".join(f"{b}: {ms:.0f}" for b, ms in v.items()) for k, v in sweep.items()]
    md = "\n".join(lines) + "\n"
    out = reports_dir / "bench"
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{report['timestamp']}.json").write_text(json.dumps(report, indent=2))
    (out / f"{report['timestamp']}.md").write_text(md)
    report["markdown"] = md
    return report
