"""``python -m app eval``: ingest (or reuse) a benchmark into a namespace, run each retriever mode over its
questions through the same ``QAService`` the API uses, and write ``reports/<dataset>/<timestamp>.{json,md}`` plus
PNG plots. Per-question results are appended to ``reports/<dataset>/.runs/<run key>.jsonl`` as they are made, so an
interrupted run resumes where it stopped (``--fresh`` starts over)."""

from __future__ import annotations

import hashlib
import json
import platform
import random
import re
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from tqdm import tqdm

from app.cache import settings_fingerprint
from app.container import Container
from app.cypher.candidates import DEFAULT_DISPLAY, Display
from app.errors import AppError
from app.eval import metrics as M
from app.eval import relaxed as R
from app.eval.answers import answer_found, node_display
from app.eval.loaders import Benchmark, EvalQuestion, load_benchmark
from app.eval.nli import NLIGrader
from app.retrievers.registry import available_modes
from app.retrievers.types import CypherTrace, Trace
from app.schemas import AskRequest, RetrieveRequest
from app.settings import Settings
from app.stores.graph.base import plain_value

PASSAGE_KS = (1, 2, 5, 10)
KG_KS = (1, 5, 10, 20)
CURVE_K = 20
MAIN_METRIC = {"passages": "recall@5", "kg": "hits@1", "cypher": "execution_accuracy"}


# --- sampling ---------------------------------------------------------------------------------------------------
def sample_questions(bench: Benchmark, limit: int | None, seed: int) -> list[EvalQuestion]:
    """``limit`` questions, stratified by hop count where the data set has hops (MetaQA: ``limit`` per hop)."""
    qs = bench.questions
    if not limit:
        return qs
    rng = random.Random(seed)
    strata: dict[Any, list[EvalQuestion]] = defaultdict(list)
    for q in qs:
        strata[q.meta.get("hops")].append(q)
    if len(strata) > 1 and None not in strata:
        out: list[EvalQuestion] = []
        for key in sorted(strata):
            group = strata[key]
            out.extend(rng.sample(group, min(limit, len(group))))
        return out
    return rng.sample(qs, min(limit, len(qs))) if limit < len(qs) else qs


# --- scoring ----------------------------------------------------------------------------------------------------
def _row_key(row: dict[str, Any]) -> tuple[str, ...]:
    """A row as comparable text, a node as its JSON form (``plain_value``: a trace carries nodes that way)."""
    return tuple(sorted(json.dumps(plain_value(v), sort_keys=True, default=str) for v in row.values()))


def results_equal(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> bool:
    """Execution accuracy: the two results are equal as multisets of rows (column names and order ignored)."""
    return Counter(map(_row_key, a)) == Counter(map(_row_key, b))


def _answer_values(rows: list[dict[str, Any]], display: Display) -> set[str]:
    """The distinct values of each row's first column, a node as its display value (``node_display``)."""
    out = set()
    for row in rows:
        v = plain_value(next(iter(row.values()), None))
        if isinstance(v, dict) and isinstance(v.get("properties"), dict) and "element_id" in v:  # a node
            v = node_display(v, display)
        out.add(json.dumps(v, sort_keys=True, default=str))
    return out


def answers_equal(a: list[dict[str, Any]], b: list[dict[str, Any]], display: Display = DEFAULT_DISPLAY) -> bool:
    """A looser reading of execution accuracy, reported beside it: the same answers in the first column (as sets;
    a node compared by its display value under ``display``, the namespace's profile: ``display_of``), whatever else
    each query returns. The default ``display`` reads ``name``, else ``title`` (a graph with no profile)."""
    return _answer_values(a, display) == _answer_values(b, display)


async def display_of(c: Container, namespace: str) -> Display:
    """Which property names a node of each label in ``namespace`` (its schema profile), as the service reads it."""
    return (await c.profiler.get(namespace)).naming()


def score_passages(ranked: list[str], q: EvalQuestion) -> dict[str, float]:
    out = {f"recall@{k}": M.recall_at_k(ranked, q.support, k) for k in PASSAGE_KS}
    out |= {f"hit@{k}": M.hit_at_k(ranked, q.support, k) for k in PASSAGE_KS}
    out["coverage@5"] = M.coverage_at_k(ranked, q.support, 5)
    out["precision@5"] = M.precision_at_k(ranked, q.support, 5)
    for beta in (1, 2, 3):
        out[f"f{beta}@5"] = M.f_beta(out["precision@5"], out["recall@5"], beta)
    out["mrr"] = M.mrr(ranked, q.support)
    return out


def score_answers(ranked: list[str], q: EvalQuestion) -> dict[str, float]:
    out = {f"hits@{k}": M.hit_at_k(ranked, q.answers, k) for k in KG_KS}
    out |= {f"recall@{k}": M.recall_at_k(ranked, q.answers, k) for k in KG_KS}
    out["mrr"] = M.mrr(ranked, q.answers)
    return out


def curve(ranked: list[str], gold: list[str]) -> list[float]:
    """Recall of the gold set by context size 1..CURVE_K."""
    return [M.recall_at_k(ranked, gold, k) for k in range(1, CURVE_K + 1)]


class Evaluator:
    def __init__(
        self, c: Container, bench: Benchmark, namespace: str, answer_limit: int, nli: NLIGrader | None = None
    ) -> None:
        self.c = c
        self.bench = bench
        self.ns = namespace
        self.answer_limit = answer_limit
        self.nli = nli
        self._gold_rows: dict[str, list[dict[str, Any]]] = {}
        self._display: Display | None = None
        """Which property names a node of each label (``display_of``), read once the first question is scored."""

    async def one(self, mode: str, q: EvalQuestion, index: int) -> dict[str, Any]:
        kind = self.bench.kind
        t0 = time.perf_counter()
        rec: dict[str, Any] = {"id": q.id, "qtype": q.qtype, "hops": q.meta.get("hops")}
        try:
            res = await self.c.qa.retrieve(
                RetrieveRequest(question=q.question, namespace=self.ns, mode=mode, top_k=CURVE_K)
            )
        except AppError as exc:  # a failed request returned nothing: it counts against ``items`` alone
            rec.update(error=exc.code, latency_ms=1000 * (time.perf_counter() - t0), metrics={"items": 0.0})
            return rec
        rec["latency_ms"] = 1000 * (time.perf_counter() - t0)
        rec["stages_ms"] = res.timings_ms
        trace = res.trace
        if isinstance(trace, CypherTrace) and trace.candidate_queries is not None:  # grounded modes
            rec["candidates"] = trace.candidate_queries
            rec["truncated"] = trace.truncated
        if kind == "passages":
            ranked = M.dedupe(it.source.title or it.source.node_name or it.id for it in res.items)
            rec["metrics"] = score_passages(ranked, q)
            rec["curve"] = curve(ranked, q.support)
        elif kind == "kg":
            ranked = M.dedupe(it.node.name for it in res.items if it.node is not None)
            rec["metrics"] = score_answers(ranked, q)
            rec["curve"] = curve(ranked, q.answers)
            if isinstance(trace, CypherTrace):  # modes that answer with a query: did they produce one, did it run
                rec["metrics"]["produced_query"] = 1.0 if trace.query else 0.0
                rec["metrics"]["executable"] = 1.0 if trace.query and trace.error is None else 0.0
                rec["query"] = trace.query
        elif not self.c.retrievers.get_mode(mode).produces_cypher:  # a Cypher benchmark, a mode of other answers:
            rec["metrics"], ranked = {}, []  # only whether it returned something (``items`` below)
        else:
            if isinstance(trace, CypherTrace):
                rec["query"] = trace.query
            scored = await self._score_cypher(trace, q)
            if isinstance(scored, str):  # the gold query does not run here, or finds nothing: not a fair question
                rec["error"] = scored
                return rec
            rec["metrics"] = scored
            ranked = []
        rec["metrics"]["items"] = 1.0 if res.items else 0.0  # the mode returned something (issue 39: every mode)
        rec["ranked"] = ranked[:10]
        if self.answer_limit and index < self.answer_limit and kind != "cypher":
            ask = await self.c.qa.ask(AskRequest(question=q.question, namespace=self.ns, mode=mode))
            answer = ask.answer or ""
            rec["answer"] = answer
            rec["metrics"] |= {
                "answer_em": M.exact_match(answer, q.answers),
                "answer_f1": M.token_f1(answer, q.answers),
                "answer_rougeL": M.rouge_l(answer, q.answers),
                "answer_contains": M.contains_answer(answer, q.answers),
            }
            if self.nli is not None:
                rec["metrics"]["answer_nli"] = self.nli.grade(q.question, answer, q.answers)
        return rec

    async def _score_cypher(self, trace: Trace, q: EvalQuestion) -> dict[str, float] | str:
        """The question's metrics, or why it is not scored: its gold query does not run on this engine, or returns no
        rows on this graph (the data set keeps only questions whose gold returns results on its own database; where
        the graph lacks what it asks about, any query returning nothing would count as right)."""
        gold_q = q.meta["cypher"]
        if gold_q not in self._gold_rows:
            try:
                self._gold_rows[gold_q] = await self.c.graph.read(self.ns, gold_q, max_rows=100_000)
            except AppError:
                return "gold_query_unsupported_by_engine"
        if not self._gold_rows[gold_q]:
            return "gold_returns_no_rows_here"
        if not isinstance(trace, CypherTrace) or trace.query is None:
            return dict.fromkeys(
                (
                    "executable",
                    "execution_accuracy",
                    "execution_accuracy_relaxed",
                    "answer_accuracy",
                    "answer_first_column",
                    "produced_query",
                ),
                0.0,
            )
        ok = trace.error is None
        gold = self._gold_rows[gold_q]
        if self._display is None:
            self._display = await display_of(self.c, self.ns)
        exact = ok and results_equal(trace.rows, gold)
        return {
            "produced_query": 1.0,
            "executable": 1.0 if ok else 0.0,
            "execution_accuracy": 1.0 if exact else 0.0,
            "execution_accuracy_relaxed": 1.0 if exact or (ok and await self._relaxed(trace.rows, gold_q)) else 0.0,
            "answer_accuracy": 1.0
            if ok and await answer_match(self.c.graph, self.ns, trace.rows, gold_q, self._gold_rows, self._display)
            else 0.0,
            "answer_first_column": 1.0 if ok and answers_equal(trace.rows, gold, self._display) else 0.0,
        }

    async def _relaxed(self, rows: list[dict[str, Any]], gold_q: str) -> bool:
        return await relaxed_match(self.c.graph, self.ns, rows, gold_q, self._gold_rows)


async def _pool(graph: Any, ns: str, gold_q: str, known: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The gold query's rows without its final LIMIT (None where it has none), read once into ``known``."""
    pool_q = R.without_final_limit(gold_q)
    if pool_q is None:
        return None
    if pool_q not in known:
        known[pool_q] = await R.read_pool(graph, ns, pool_q) or []
    pool: list[dict[str, Any]] = known[pool_q] or []
    return pool


async def answer_match(
    graph: Any, ns: str, rows: list[dict[str, Any]], gold_q: str, known: dict[str, Any], display: Display
) -> bool:
    """Answer accuracy (``app.eval.answers``): the gold values appear in the rows. ``known`` as for
    :func:`relaxed_match`."""
    gold = known.get(gold_q)
    if not gold:
        return False
    return answer_found(rows, gold, await _pool(graph, ns, gold_q, known), display)


async def relaxed_match(graph: Any, ns: str, rows: list[dict[str, Any]], gold_q: str, known: dict[str, Any]) -> bool:
    """The rows are right where the gold query's final LIMIT picks among equals (``app.eval.relaxed``). ``known``:
    rows read so far per query (the gold query's among them), where the pool's are kept too."""
    gold = known.get(gold_q)
    pool = await _pool(graph, ns, gold_q, known) if gold else None
    if pool is None or not gold:
        return False
    return R.relaxed_equal(
        R.value_lists(rows),
        R.value_lists(gold),
        R.value_lists(pool),
        ordered=R.is_ordered(gold_q),
        key=R.sort_key(gold_q, list(gold[0])),
    )


# --- aggregation and reports ------------------------------------------------------------------------------------
def _mean(rows: list[dict[str, float]]) -> dict[str, float]:
    keys = list(dict.fromkeys(k for r in rows for k in r))
    return {k: round(100 * sum(r[k] for r in rows if k in r) / max(1, sum(k in r for r in rows)), 2) for k in keys}


def candidate_stats(records: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Candidate queries per question (grounded modes), overall and per hop: mean, p50, p95, max, and the share of
    questions whose candidates the ``max_candidates`` bound truncated."""
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        if "candidates" in r:
            groups["all"].append(r)
            if r.get("hops") is not None:
                groups[f"{r['hops']}-hop"].append(r)
    out = {}
    for g, rs in sorted(groups.items(), key=lambda kv: (kv[0] != "all", kv[0])):
        n = [float(r["candidates"]) for r in rs]
        out[g] = {
            "questions": len(rs),
            "mean": round(sum(n) / len(n), 1),
            "p50": round(M.percentile(n, 50), 1),
            "p95": round(M.percentile(n, 95), 1),
            "max": max(n),
            "truncated_pct": round(100 * sum(bool(r.get("truncated")) for r in rs) / len(rs), 1),
        }
    return out


def aggregate(records: list[dict[str, Any]]) -> dict[str, Any]:
    ok = [r for r in records if "metrics" in r]
    by_type: dict[str, list[dict[str, float]]] = defaultdict(list)
    by_hops: dict[str, list[dict[str, float]]] = defaultdict(list)
    for r in ok:
        by_type[r["qtype"] or "all"].append(r["metrics"])
        if r.get("hops") is not None:
            by_hops[f"{r['hops']}-hop"].append(r["metrics"])
    stages: dict[str, list[float]] = defaultdict(list)
    for r in ok:
        for k, v in r.get("stages_ms", {}).items():
            stages[k].append(v)
    lat = [r["latency_ms"] for r in records]
    curves = [r["curve"] for r in ok if "curve" in r]
    return {
        "n": len(records),
        "errors": dict(Counter(r["error"] for r in records if "error" in r)),
        "overall": _mean([r["metrics"] for r in ok]),
        "by_hops": {k: _mean(v) for k, v in sorted(by_hops.items())},
        "by_type": {k: _mean(v) for k, v in sorted(by_type.items())},
        "latency_ms": {f"p{p}": round(M.percentile(lat, p), 2) for p in (50, 95, 99)},
        "stage_ms": {k: {f"p{p}": round(M.percentile(v, p), 2) for p in (50, 95)} for k, v in sorted(stages.items())},
        "curve": [round(100 * sum(c[i] for c in curves) / len(curves), 2) for i in range(CURVE_K)] if curves else [],
        "candidates": candidate_stats(records),
    }


def to_markdown(report: dict[str, Any]) -> str:
    kind = report["kind"]
    main = MAIN_METRIC[kind]
    lines = [
        f"# {report['dataset']} — {report['timestamp']}",
        "",
        f"{report['questions']} questions (seed {report['seed']}), namespace `{report['namespace']}`; "
        f"ingest {report['ingest']['seconds']:.1f}s ({json.dumps(report['ingest']['counts'])}).",
        "",
    ]
    for mode, r in report["modes"].items():
        overall = r["overall"]
        cols = r["by_hops"] or (r["by_type"] if 1 < len(r["by_type"]) <= 6 else {})
        lines += [f"## mode `{mode}`", "", "| metric | all |" + "".join(f" {c} |" for c in cols)]
        lines.append("|---|---|" + "---|" * len(cols))
        for k in overall:
            cells = "".join(f" {h.get(k, float('nan')):.1f} |" for h in cols.values())
            lines.append(f"| {k} | {overall[k]:.1f} |{cells}")
        if len(r["by_type"]) > 1:
            lines += ["", f"By question type ({main}):", "", "| type | n | " + main + " |", "|---|---|---|"]
            counts = r.get("type_counts", {})
            lines += [f"| {t} | {counts.get(t, '')} | {m.get(main, 0):.1f} |" for t, m in r["by_type"].items()]
        lat = r["latency_ms"]
        stages = ", ".join(f"{k} {v['p50']:.0f}/{v['p95']:.0f}" for k, v in r["stage_ms"].items())
        lines += [
            "",
            f"Latency ms p50/p95/p99: {lat['p50']:.0f}/{lat['p95']:.0f}/{lat['p99']:.0f}; stages p50/p95: {stages}.",
        ]
        if r.get("candidates"):
            cand = "; ".join(
                f"{g} {c['mean']:.1f} / {c['p50']:.0f} / {c['p95']:.0f} / {c['max']:.0f}"
                + (f" ({c['truncated_pct']:.0f}% truncated)" if c["truncated_pct"] else "")
                for g, c in r["candidates"].items()
            )
            lines.append(f"Candidate queries per question, mean / p50 / p95 / max: {cand}.")
        if r["errors"]:
            lines.append(f"Errors: {json.dumps(r['errors'])}.")
        lines.append("")
    for mode, why in report.get("skipped_modes", {}).items():
        lines.append(f"Mode `{mode}` not evaluated here: {why}.")
    for name in report.get("plots", []):
        lines.append(f"![{name}]({name})")
    return "\n".join(lines) + "\n"


def _save(fig: Any, out_dir: Path, name: str) -> str:
    import matplotlib.pyplot as plt

    fig.tight_layout()
    fig.savefig(out_dir / name, dpi=90)
    plt.close(fig)
    return name


def write_plots(report: dict[str, Any], out_dir: Path, stamp: str) -> list[str]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = []
    main = MAIN_METRIC[report["kind"]]
    modes = report["modes"]
    groups = (next(iter(modes.values()))["by_hops"] or next(iter(modes.values()))["by_type"]) if modes else {}
    if groups:
        fig, ax = plt.subplots(figsize=(max(6, 0.9 * len(groups) * len(modes)), 4))
        width = 0.8 / max(1, len(modes))
        for i, (mode, r) in enumerate(modes.items()):
            table = r["by_hops"] or r["by_type"]
            xs = range(len(groups))
            ax.bar([x + i * width for x in xs], [table.get(g, {}).get(main, 0) for g in groups], width, label=mode)
        ax.set_xticks([x + width * (len(modes) - 1) / 2 for x in range(len(groups))])
        ax.set_xticklabels(list(groups), rotation=30, ha="right", fontsize=8)
        ax.set_ylabel(main)
        ax.set_ylim(0, 100)
        ax.set_title(f"{report['dataset']}: {main} by type")
        ax.legend()
        names.append(_save(fig, out_dir, f"{stamp}-by-type.png"))
    if any(r["curve"] for r in modes.values()):
        fig, ax = plt.subplots(figsize=(6, 4))
        for mode, r in modes.items():
            if r["curve"]:
                ax.plot(range(1, len(r["curve"]) + 1), r["curve"], marker=".", label=mode)
        ax.set_xlabel("context size (items)")
        ax.set_ylabel("recall of the gold set (%)")
        ax.set_ylim(0, 100)
        ax.set_title(f"{report['dataset']}: cumulative recall by context size")
        ax.legend()
        names.append(_save(fig, out_dir, f"{stamp}-by-context-size.png"))
    return names


_SECTION = re.compile(r"^<!-- section: (\S+) -->$", re.M)


def _sections(text: str) -> dict[str, str]:
    """The ``<!-- section: NAME -->``-marked sections of a ``latest.md``."""
    marks = list(_SECTION.finditer(text))
    bounds = [m.start() for m in marks] + [len(text)]
    return {m.group(1): text[m.start() : end].rstrip() + "\n" for m, end in zip(marks, bounds[1:], strict=True)}


def write_latest(reports_dir: Path) -> Path:
    """``reports/latest.md``: the newest report of every data set, one section each. A data set with no report in
    this checkout (per-run reports are not committed) keeps its section from the previous ``latest.md``, so a run of
    one data set never drops the others' numbers."""
    latest = reports_dir / "latest.md"
    sections = _sections(latest.read_text()) if latest.exists() else {}
    for d in sorted(p for p in reports_dir.iterdir() if p.is_dir() and p.name != "bench"):
        mds = sorted(d.glob("*.md"))
        if mds:
            text = mds[-1].read_text().replace("](", f"]({d.name}/")
            # one level down: the report's title becomes a section, its sections subsections
            body = "\n".join("#" + line if line.startswith("#") else line for line in text.splitlines())
            sections[d.name] = f"<!-- section: {d.name} -->\n" + body.replace(f"]({d.name}/http", "](http") + "\n"
    parts = [
        "# Latest evaluation reports",
        "",
        "Newest run per data set (`make eval` refreshes this file). Curated comparisons across runs, with the command",
        "behind each number: [`summary.md`](summary.md).",
        "",
    ]
    parts += [sections[name] for name in sorted(sections)]
    latest.write_text("\n".join(parts))
    return latest


# --- the run ----------------------------------------------------------------------------------------------------
class RunLog:
    """Per-question results of one run configuration, one JSON line each (what makes runs resumable)."""

    @staticmethod
    def load(path: Path) -> dict[str, dict[str, Any]]:
        if not path.exists():
            return {}
        recs = (json.loads(line) for line in path.read_text().splitlines() if line.strip())
        return {r["id"]: r for r in recs}

    @staticmethod
    def append(path: Path, rec: dict[str, Any]) -> None:
        with open(path, "a") as fh:
            fh.write(json.dumps(rec) + "\n")


async def _ingest(c: Container, bench: Benchmark, ns: str) -> dict[str, Any]:
    bar = tqdm(desc=f"ingest {bench.name}", file=sys.stderr, unit="it")

    def progress(stage: str, done: int, total: int) -> None:
        bar.set_description(f"ingest {bench.name}: {stage}")
        bar.total = total
        bar.update(done - bar.n)

    try:
        if bench.kg is not None:
            r = await c.ingestor.ingest_path(
                ns, bench.kg.format, bench.kg.path, labels_path=bench.kg.labels, progress=progress
            )
        elif bench.script is not None:
            r = await c.ingestor.ingest_path(ns, "cypher", bench.script, progress=progress)
        else:
            r = await c.ingestor.ingest_documents(ns, bench.corpus, progress=progress)
    finally:
        bar.close()
    return {"counts": r.counts, "seconds": r.seconds}


def code_version() -> str:
    """The git commit of the service code, ``+dirty-<digest of the uncommitted changes>`` when ``app/`` has some (so a
    resumed run never mixes results of two different working trees), ``unknown`` outside a git checkout."""
    root = Path(__file__).resolve().parents[2]
    try:
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, timeout=10, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "app"], cwd=root, capture_output=True, text=True, timeout=10
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    if not dirty:
        return head
    try:
        diff = subprocess.run(
            ["git", "diff", "HEAD", "--", "app"], cwd=root, capture_output=True, timeout=10, check=True
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return head + "+dirty"
    digest = hashlib.sha1(diff)
    for line in dirty.splitlines():  # untracked files are not in the diff
        if line.startswith("??"):
            new = root / line[3:].strip()
            for f in sorted(new.rglob("*")) if new.is_dir() else [new]:
                if f.is_file():
                    digest.update(f.read_bytes())
    return f"{head}+dirty-{digest.hexdigest()[:10]}"


async def run_eval(
    settings: Settings,
    *,
    dataset: str,
    path: Path,
    modes: list[str],
    limit: int | None,
    namespace: str | None,
    reports_dir: Path,
    seed: int = 13,
    answer_limit: int = 0,
    fresh: bool = False,
    nli_model: str | None = None,
) -> dict[str, Any]:
    bench = load_benchmark(dataset, path)
    modes = available_modes() if modes == ["all"] else modes
    ns = namespace or dataset
    questions = sample_questions(bench, limit, seed)
    out_dir = reports_dir / dataset
    runs_dir = out_dir / ".runs"
    runs_dir.mkdir(parents=True, exist_ok=True)
    c = await Container.start(settings, with_llm=True)
    try:
        ingest = await _ingest(c, bench, ns)
        nli = NLIGrader(nli_model) if nli_model and answer_limit else None
        ev = Evaluator(c, bench, ns, answer_limit, nli)
        stamp = time.strftime("%Y%m%dT%H%M%S")
        report: dict[str, Any] = {
            "dataset": dataset,
            "kind": bench.kind,
            "namespace": ns,
            "questions": len(questions),
            "seed": seed,
            "timestamp": stamp,
            "ingest": ingest,
            "modes": {},
            "machine": {"python": platform.python_version(), "platform": platform.platform()},
            "settings": {
                "embedder": c.embedder.model_name,
                "llm": getattr(c.llm, "model_name", None),
                "reranker": settings.reranker.model,
            },
        }
        run_files: dict[str, str] = {}
        # resume only what the same settings, model files and code produced: a retrained adapter or a new commit
        # starts the per-question results over instead of mixing them with stale ones
        fingerprint, code = settings_fingerprint(settings), code_version()
        report["settings"]["fingerprint"], report["code"] = fingerprint, code
        for mode in modes:
            produces_cypher = c.retrievers.get_mode(mode).produces_cypher
            if bench.kind == "passages" and produces_cypher:
                report.setdefault("skipped_modes", {})[mode] = "answers with graph nodes, not passages"
                continue
            key = hashlib.sha1(
                json.dumps(
                    [dataset, ns, mode, limit, seed, answer_limit, str(path), fingerprint, code]
                    + ([nli_model] if nli_model else [])
                ).encode()
            ).hexdigest()[:12]
            run_file = runs_dir / f"{mode}-{key}.jsonl"
            run_files[mode] = str(run_file)
            if fresh and run_file.exists():
                run_file.unlink()
            done = RunLog.load(run_file)
            for i, q in enumerate(tqdm(questions, desc=f"{dataset}/{mode}", file=sys.stderr)):
                if q.id not in done:
                    done[q.id] = await ev.one(mode, q, i)
                    RunLog.append(run_file, done[q.id])
            records = [done[q.id] for q in questions]
            agg = aggregate(records)
            agg["type_counts"] = dict(Counter(r["qtype"] or "all" for r in records))
            report["modes"][mode] = agg
        report["plots"] = write_plots(report, out_dir, stamp)
        report["per_question"] = run_files
    finally:
        await c.close()
    md = to_markdown(report)
    (out_dir / f"{stamp}.json").write_text(json.dumps(report, indent=2))
    (out_dir / f"{stamp}.md").write_text(md)
    write_latest(reports_dir)
    report["markdown"] = md
    return report
