"""``python -m app ranker check``: text2cypher rankers side by side on a benchmark's questions, from one enumeration
per question (reports/ranker_check/<dataset>-<ts>.{json,md}).

Each question is enumerated once (linking, candidates, readings, cross-encoder, features); each ranker puts one
candidate first (``rank.by_score`` with the mode's ``depth_margin``, as ``relevance`` scoring answers), and each
distinct first candidate runs once and is scored as ``python -m app eval`` scores the mode's answer: Hits@1 (the first
answer the query returns) on a KG benchmark; execution (strict and relaxed: ``app.eval.relaxed``) and answer accuracy
against the gold query's rows on a text2cypher one. Per ranker: the metrics (per hop where the benchmark has hops),
and the questions it gains and loses against the first ranker named. Rankers are judged here on questions they were
not fitted on: ``ranker fit`` never reads a benchmark question.
"""

from __future__ import annotations

import contextlib
import json
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from tqdm import tqdm

from app.container import Container
from app.errors import AppError
from app.eval import metrics as M
from app.eval.loaders import Benchmark, EvalQuestion, load_benchmark
from app.eval.runner import (
    _ingest,
    answer_match,
    answers_equal,
    display_of,
    relaxed_match,
    results_equal,
    sample_questions,
)
from app.retrievers.base import RunContext
from app.retrievers.text2cypher import Text2CypherRetriever, Text2CypherTrace
from app.settings import Settings
from app.text2cypher import rank
from app.text2cypher.enumeration import Enumeration
from app.text2cypher.preview import answer_of

ROW_LIMIT = 50
"""Rows read per query (as the mode reads for ``max_answers`` 5)."""


def firsts(r: Text2CypherRetriever, e: Enumeration, rankers: dict[str, rank.Ranker]) -> dict[str, int]:
    """The candidate each ranker puts first, as the mode's ``relevance`` scoring orders them."""
    out = {}
    for name, ranker in rankers.items():
        scores = r.scores(e, ranker)
        assert scores is not None
        out[name] = r.order(e, scores, 1)[0]
    return out


@contextlib.asynccontextmanager
async def loaded(
    settings: Settings, bench: Benchmark, ns: str
) -> AsyncIterator[tuple[Container, Text2CypherRetriever]]:
    """A container with the text2cypher mode (no LLM) and the benchmark's graph loaded into ``ns``."""
    c = await Container.start(settings, with_llm=False, modes=["text2cypher", "vector"])
    try:
        await _ingest(c, bench, ns)
        r = c.retrievers["text2cypher"]
        assert isinstance(r, Text2CypherRetriever)
        yield c, r
    finally:
        await c.close()


async def check(
    settings: Settings,
    *,
    dataset: str,
    path: Path,
    rankers: list[str],
    limit: int | None,
    seed: int = 13,
    namespace: str | None = None,
    reports_dir: Path = Path("reports"),
) -> dict[str, Any]:
    bench = load_benchmark(dataset, path)
    if bench.kind == "passages":
        raise SystemExit(f"{dataset}: rankers are checked on KG or text2cypher benchmarks, not passages")
    models = {n: rank.load(n) for n in rankers}  # an unknown or malformed ranker fails before any work
    ns = namespace or dataset
    questions = sample_questions(bench, limit, seed)
    records: list[dict[str, Any]] = []
    async with loaded(settings, bench, ns) as (c, r):
        gold: dict[str, list[dict[str, Any]] | None] = {}
        for q in tqdm(questions, desc=f"{dataset}/rankers", file=sys.stderr):
            records.append(await _one(c, r, ns, q, models, bench.kind, gold))
    report = summarise(dataset, ns, records, rankers, seed)
    out = reports_dir / "ranker_check"
    out.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%dT%H%M%S")
    (out / f"{dataset}-{stamp}.json").write_text(json.dumps(report | {"per_question": records}, indent=2))
    (out / f"{dataset}-{stamp}.md").write_text(report["markdown"])
    return report


async def _one(
    c: Container,
    r: Text2CypherRetriever,
    ns: str,
    q: EvalQuestion,
    models: dict[str, rank.Ranker],
    kind: str,
    gold: dict[str, list[dict[str, Any]] | None],
) -> dict[str, Any]:
    rec: dict[str, Any] = {"id": q.id, "question": q.question, "hops": q.meta.get("hops"), "rankers": {}}
    if kind == "cypher" and not await gold_rows(c, ns, q.meta["cypher"], gold):
        rec["skipped"] = "gold query unsupported or empty here"  # as eval: no fair question
        return rec
    ctx = RunContext(mode=r.name, trace=Text2CypherTrace())
    e = await r.enumerate(ns, q.question, ctx)
    scores: dict[int, dict[str, float]] = {}
    chosen = firsts(r, e, models) if e.candidates and e.relevance is not None else {}
    for i in sorted(set(chosen.values())):
        scores[i] = await score_candidate(c, r, ns, q, e, i, kind, gold)
    empty = dict.fromkeys(
        ("hits@1",)
        if kind == "kg"
        else ("execution_accuracy", "execution_accuracy_relaxed", "answer_accuracy", "answer_first_column"),
        0.0,
    )
    for name in models:
        top = chosen.get(name)
        rec["rankers"][name] = {"query": None} | empty
        if top is not None:  # no candidate: no query, nothing right
            rec["rankers"][name] = {"query": e.candidates[top].text} | scores[top]
    return rec


async def gold_rows(
    c: Container, ns: str, cypher: str, gold: dict[str, list[dict[str, Any]] | None]
) -> list[dict[str, Any]] | None:
    """The gold query's rows, read once per query into ``gold`` (None where it does not run here)."""
    if cypher not in gold:
        try:
            gold[cypher] = await c.graph.read(ns, cypher, max_rows=100_000)
        except AppError:
            gold[cypher] = None
    return gold[cypher]


async def score_candidate(
    c: Container,
    r: Text2CypherRetriever,
    ns: str,
    q: EvalQuestion,
    e: Enumeration,
    i: int,
    kind: str,
    gold: dict[str, list[dict[str, Any]] | None],
    *,
    relaxed_only: bool = False,
    timeout_s: float | None = None,
) -> dict[str, float]:
    """The candidate ``i`` run and scored as ``eval`` scores the mode's answer; ``relaxed_only``: relaxed execution
    (or Hits@1) alone, each read within ``timeout_s`` (``ranker collect-gold`` runs many candidates a question)."""
    cand = e.candidates[i]
    ctx = RunContext(mode=r.name, trace=Text2CypherTrace())
    try:
        rows = await c.graph.read(ns, cand.execution_query(), {"limit": ROW_LIMIT}, timeout_s=timeout_s)
        if kind == "kg":
            names = [str(a) for a in (answer_of(row) for row in rows) if a is not None]
            return {"hits@1": M.hit_at_k(names, q.answers, 1)}
        _, answer = await r.answer_rows(ns, cand, rows, e.lits, ROW_LIMIT, ctx)
    except AppError:
        if kind == "kg":
            return {"hits@1": 0.0}
        rows, answer = [], []
    g = gold[q.meta["cypher"]] or []
    exact = results_equal(answer, g)
    relaxed = float(exact or await relaxed_match(c.graph, ns, answer, q.meta["cypher"], gold))
    if relaxed_only:
        return {"execution_accuracy_relaxed": relaxed}
    display = await display_of(c, ns)
    return {
        "execution_accuracy": float(exact),
        "execution_accuracy_relaxed": relaxed,
        "answer_accuracy": float(await answer_match(c.graph, ns, answer, q.meta["cypher"], gold, display)),
        "answer_first_column": float(answers_equal(answer, g, display)),
    }


def summarise(dataset: str, ns: str, records: list[dict[str, Any]], rankers: list[str], seed: int) -> dict[str, Any]:
    scored = [x for x in records if "skipped" not in x]
    metrics = list(next((x["rankers"][rankers[0]] for x in scored), {}).keys() - {"query"})
    metrics.sort(key=lambda m: (m != "execution_accuracy_relaxed", m))  # gained / lost read by the first
    base = rankers[0]
    table: dict[str, Any] = {}
    for name in rankers:
        row: dict[str, Any] = {
            m: round(100 * sum(x["rankers"][name][m] for x in scored) / max(len(scored), 1), 1) for m in metrics
        }
        hops = sorted({x["hops"] for x in scored if x["hops"] is not None})
        if hops:
            row["per_hop"] = {
                str(h): {
                    m: round(100 * _mean([x["rankers"][name][m] for x in scored if x["hops"] == h]), 1) for m in metrics
                }
                for h in hops
            }
        first = metrics[0]
        row["gained"] = [x["question"] for x in scored if x["rankers"][name][first] and not x["rankers"][base][first]]
        row["lost"] = [x["question"] for x in scored if x["rankers"][base][first] and not x["rankers"][name][first]]
        row["queries_changed"] = sum(1 for x in scored if x["rankers"][name]["query"] != x["rankers"][base]["query"])
        table[name] = row
    report = {
        "dataset": dataset,
        "namespace": ns,
        "seed": seed,
        "questions": len(records),
        "scored": len(scored),
        "rankers": table,
    }
    report["markdown"] = to_markdown(report, metrics, base)
    return report


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def to_markdown(report: dict[str, Any], metrics: list[str], base: str) -> str:
    lines = [
        f"# Rankers on {report['dataset']} ({report['scored']} of {report['questions']} questions scored, "
        f"seed {report['seed']})",
        "",
        "| ranker | "
        + " | ".join(metrics)
        + f" | per hop | gained / lost vs {base} (by {metrics[0]}) | queries changed |",
        "|---|" + "---|" * (len(metrics) + 3),
    ]
    for name, row in report["rankers"].items():
        hops = " / ".join(str(v[metrics[0]]) for v in row.get("per_hop", {}).values()) or "-"
        lines.append(
            f"| {name} | "
            + " | ".join(str(row[m]) for m in metrics)
            + f" | {hops} | +{len(row['gained'])} / -{len(row['lost'])} | {row['queries_changed']} |"
        )
    for name, row in report["rankers"].items():
        if name == base or not (row["gained"] or row["lost"]):
            continue
        lines += ["", f"## {name} against {base}", ""]
        lines += [f"- gained: {q}" for q in row["gained"]]
        lines += [f"- lost: {q}" for q in row["lost"]]
    return "\n".join(lines) + "\n"
