"""Self-supervised text2cypher tuning for one namespace (``python -m app tune --namespace NS``), with no labelled
questions: the graph itself provides the training pairs (as TARGA and BYOKG do).

1. **Anchors**: named nodes drawn at random from the namespace (names that name one node only, so a question about
   one names one node).
2. **Candidates**: from each anchor, the same enumerator the retriever runs (``Text2CypherRetriever.enumerate_from``,
   no question: the paths of one length extended further are drawn at random), then up to ``per_depth`` candidates
   of each length.
3. **Answers**: each candidate runs; it is kept when it returns between 1 and ``max_answers`` distinct answers and
   not the same answers as a shorter candidate of the same anchor (that question would be ambiguous between them).
4. **Questions**: each kept candidate is asked in the words the retriever reads it in (``app.text2cypher.phrasing``:
   ``path_question``, ``shape_question``: its reading, the reading the cross-encoder scores, in one of the generic
   question frames of the lexicon's ``[questions]`` table, "what are the ... ?", "name the ...").
4b. **Paraphrases** (``app.training.paraphrase``): a local instruction model rewrites a sample of the questions;
   a rewrite is kept when the retriever, by relevance alone, still ranks its query first for it, and then serves the
   other pairs of the same path pattern as a template.
5. **LoRA**: trained on (question, query) with the retriever's own prompt (``app.training.lora``), within the time
   left, and moved into ``<adapters_dir>/<namespace>/text2cypher``, where the service finds it for that namespace.

Time is bounded by ``minutes``: pair building stops at ``pair_share`` of it, training plans its steps to fit the rest.
"""

from __future__ import annotations

import asyncio
import json
import random
import shutil
import sys
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from tqdm import tqdm

from app.container import Container
from app.cypher.candidates import Anchor, CandidateQuery, anchor_labels
from app.cypher.shapes import ABSENT, EXISTS, Filter, Shape
from app.errors import AppError, InvalidInputError
from app.llm.adapters import TunedAdapter, adapter_dir, install_adapter
from app.llm.catalog import resolve_local_model
from app.llm.local import local_model_path
from app.retrievers.text2cypher import Text2CypherRetriever
from app.settings import Settings
from app.text2cypher.enumerate_shapes import ShapeEnumerator
from app.text2cypher.phrasing import path_question, shape_question
from app.text2cypher.profiles import Profiles
from app.text2cypher.question import QuestionLiterals
from app.text2cypher.rank import RANKER_FILE
from app.training.ranker import scored_groups, tuned_ranker

HELD_MIN_PAIRS = 100
"""Fewer pairs than this are all trained on, and the namespace keeps the untuned ranker."""
Progress = Callable[[str, int, int], None]
"""Told ``(stage, done, total)`` as a tuning run goes (``pairs``, then ``training`` steps)."""

DEFAULT_PARAPHRASER = "catalog:qwen2.5-coder-0.5b-instruct"
"""The model that rewrites training questions when it has been fetched (``python -m app models fetch``); SmolLM2-135M
answers with the question itself or with names, so without it no question is paraphrased."""


def _random_filter(s: Shape, profiles: Profiles, rng: random.Random, quotable: float) -> Filter | None:
    """A condition on one of the shape's nodes (or relationships) with a constant drawn from the data. A text longer
    than ``quotable`` characters (a post's body, a description) is never an equality's constant: nobody quotes it
    whole, so the condition takes one of its words or its first letter."""
    edge = bool(s.hops) and rng.random() < 0.3
    var = rng.randint(1, len(s.hops)) if edge else rng.randint(1, len(s.hops) + 1)
    prof = profiles.of(s.path, var, edge=edge)
    own = s.owns_prop(var, edge=edge)
    props = [p for p in (prof.properties if prof else []) if p.values and not (own and p.key == s.prop)]
    if not props:
        return None
    p = rng.choice(props)
    if p.partial and rng.random() < 0.15:  # "movies with a tagline", "questions without an accepted answer"
        return Filter(var, p.key, rng.choice((EXISTS, ABSENT)), None, edge=edge)
    v = rng.choice(p.values)
    if p.kind == "bool":  # "answers that were accepted"
        return Filter(var, p.key, "=", bool(v), edge=edge)
    if p.kind == "number" and isinstance(v, int | float):
        op = rng.choice((">", "<", "=", "range"))
        if op != "range":
            return Filter(var, p.key, op, v, edge=edge)
        w = rng.choice([x for x in p.values if isinstance(x, int | float)])
        lo, hi = sorted((v, w))
        if isinstance(v, int) and v > 100 and rng.random() < 0.5:  # a decade
            lo, hi = v - v % 10, v - v % 10 + 10
        elif hi == lo:
            return None
        else:
            hi = hi + 1
        return Filter(var, p.key, "range", (lo, hi), edge=edge)
    listed = p.kind == "list"
    if listed and p.hi and rng.random() < 0.3:  # how many elements it holds: "with more than 2 roles"
        return Filter(var, p.key, rng.choice((">", "<", "=")), rng.randint(1, int(p.hi)), edge=edge, sized=True)
    text = str(v)
    if len(text) <= quotable and (listed or rng.random() < 0.3):
        return Filter(var, p.key, "=", text, edge=edge, listed=listed)
    ws = [w for w in text.split() if len(w) >= 4 and w.isalpha()]
    if rng.random() < 0.3:
        return Filter(var, p.key, "STARTS WITH", text[0], edge=edge)
    return Filter(var, p.key, "CONTAINS", rng.choice(ws), edge=edge) if ws else None


async def shape_pairs(r: Text2CypherRetriever, namespace: str, n: int, rng: random.Random) -> list[dict[str, Any]]:
    """Up to ``n`` pairs of the label-anchored shapes (counts, aggregates, conditions, orderings, most/fewest) with
    constants drawn from the data, kept when their query returns something. None on a graph without labelled
    properties."""
    schema = await r.schema(namespace)
    profiles = await r.profiles.get(namespace, schema)
    if not profiles:
        return []
    # years as points in time; a superlative, so that orderings by a linked node's property are among the shapes
    lits = QuestionLiterals(limits=[1, 2, 3, 5, 10], asks_count=True, time_order="DESC", superlative=True, lex=r.lex)
    base = ShapeEnumerator.base_shapes(schema, profiles, [], lits)
    # thresholds ("more than 2 movies") come once per number and limit: keep a share of them
    base = [s for s in base if s.having is None or (s.limit is None and rng.random() < 0.3)]
    by_kind: dict[str, list[Shape]] = defaultdict(list)
    for x in base:
        by_kind[x.kind].append(x)
    kinds = sorted(by_kind)
    quotable = r.deps.linker.profiler.settings.display_max_length  # as long as a name may be
    out: list[dict[str, Any]] = []
    for _ in range(4 * n):
        if len(out) >= n:
            break
        s = rng.choice(by_kind[rng.choice(kinds)])  # each kind as often: some kinds have many more shapes
        for _ in range(rng.choice((0, 1, 1, 2))):
            f = _random_filter(s, profiles, rng, quotable)
            s = replace(s, filters=(*s.filters, f)) if f else s
        try:
            rows = await r.deps.graph.read(namespace, s.execution_query(), {"limit": 51}, timeout_s=10)
        except AppError:
            continue
        first = [next(iter(row.values()), None) for row in rows]
        if not first or len(first) > 50 or all(v in (None, 0) for v in first):
            continue
        out.append({"question": shape_question(s, rng, r.lex), "cypher": s.text, "hops": len(s.hops), "shape": s.kind})
    return out


def anchor_of(name: str, labels: Sequence[str], key: str) -> Anchor:
    """A name-index entry as the retriever would anchor it (its first anchor label)."""
    return Anchor(name, anchor_labels(labels)[0], key)


async def anchor_pairs(
    r: Text2CypherRetriever,
    namespace: str,
    anchor: Anchor,
    rng: random.Random,
    *,
    per_depth: int,
    max_answers: int,
) -> list[dict[str, Any]]:
    """Training pairs around one anchor (steps 2-4)."""
    e = await r.enumerate_from(namespace, [anchor], None, rng=rng)
    by_depth: dict[int, list[CandidateQuery]] = defaultdict(list)
    for c in e.candidates:
        if isinstance(c, CandidateQuery):
            by_depth[len(c.hops)].append(c)
    chosen = [c for d in sorted(by_depth) for c in rng.sample(by_depth[d], min(per_depth, len(by_depth[d])))]
    seen: list[frozenset[str]] = []
    out = await _attribute_pair(r, namespace, anchor, rng)
    limit = 20 * max_answers
    for c in chosen:
        try:
            rows = await r.deps.graph.read(namespace, c.execution_query(), {"limit": limit}, timeout_s=10)
        except AppError:
            continue
        answers = frozenset(str(row["name"]) for row in rows if row.get("name") is not None)
        if not answers or len(answers) > max_answers or len(rows) >= limit or answers in seen:
            continue
        seen.append(answers)
        out.append(
            {
                "question": path_question(c, rng, r.lex),
                "cypher": c.text,
                "hops": len(c.hops),
                "answers": len(answers),
                "anchor": anchor.name,
                "pattern": replace(c, anchor=replace(c.anchor, name="")).text,
            }
        )
    return out


async def _attribute_pair(
    r: Text2CypherRetriever, namespace: str, anchor: Anchor, rng: random.Random
) -> list[dict[str, Any]]:
    """One pair asking for a property of the anchor itself ("what is the tagline of The Matrix?"), when its label
    has properties and the anchor has a value for the one drawn; none on a graph without labelled properties."""
    profiles = await r.profiles.get(namespace, await r.schema(namespace))
    prof = profiles.labels.get(anchor.label)
    props = [p for p in (prof.properties if prof else []) if p.key != anchor.key]
    if not props:
        return []
    s = Shape(CandidateQuery(anchor, ()), 1, "attr", prop=rng.choice(props).key)
    try:
        rows = await r.deps.graph.read(namespace, s.execution_query(), {"limit": 5}, timeout_s=10)
    except AppError:
        return []
    if not any(next(iter(row.values()), None) is not None for row in rows):
        return []
    return [{"question": shape_question(s, rng, r.lex), "cypher": s.text, "hops": 0, "shape": s.kind}]


def by_hops(pairs: Sequence[dict[str, Any]]) -> dict[int, int]:
    """How many entity-path pairs there are per path length (shape pairs are counted apart)."""
    return dict(sorted(Counter(p["hops"] for p in pairs if "shape" not in p).items()))


async def build_pairs(
    c: Container,
    namespace: str,
    *,
    max_pairs: int,
    deadline: float,
    seed: int,
    per_depth: int = 2,
    max_answers: int = 50,
    expand_beam: int = 4,
    concurrency: int = 4,
    progress: Progress | None = None,
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    base = c.retrievers["text2cypher"]
    assert isinstance(base, Text2CypherRetriever)
    r = Text2CypherRetriever(base.deps, base.config.model_copy(update={"expand_beam": expand_beam}))
    rng = random.Random(seed)
    idx = await c.deps.linker.index(namespace)
    # anchored at display values and other names, not at codes that identify (a node is asked about by its name)
    profile = await c.profiler.get(namespace)
    ids = {(lp.label, lp.id) for lp in profile.labels.values() if lp.id}
    entries = sorted(
        {
            (name, tuple(labels), key)
            for group in idx.by_lower.values()
            for name, labels, key in group
            if not any((label, key) in ids for label in labels)
        }
    )
    names = Counter(name for name, _, _ in entries)
    anchors = [anchor_of(name, labels, key) for name, labels, key in entries if names[name] == 1]
    rng.shuffle(anchors)
    pairs: list[dict[str, Any]] = []
    used = 0
    sem = asyncio.Semaphore(concurrency)

    async def one(a: Anchor, k: int) -> list[dict[str, Any]]:
        async with sem:
            return await anchor_pairs(
                r, namespace, a, random.Random(seed * 1_000_003 + k), per_depth=per_depth, max_answers=max_answers
            )

    bar = tqdm(total=max_pairs, desc="pairs", file=sys.stderr)
    step = concurrency * 4
    while used < len(anchors) and len(pairs) < max_pairs and time.monotonic() < deadline:
        batch = anchors[used : used + step]
        for got in await asyncio.gather(*(one(a, used + k) for k, a in enumerate(batch))):
            pairs += got
            bar.update(len(got))
        used += len(batch)
        if progress is not None:
            progress("pairs", min(len(pairs), max_pairs), max_pairs)
    bar.close()
    pairs = pairs[:max_pairs]
    stats = {
        "anchors_available": len(anchors),
        "anchors_used": used,
        "pairs": len(pairs),
        "pairs_by_hops": by_hops(pairs),
        "stopped_by": "deadline"
        if time.monotonic() >= deadline
        else ("pairs" if len(pairs) >= max_pairs else "anchors"),
    }
    return pairs, stats


async def tune(
    settings: Settings,
    namespace: str,
    *,
    minutes: float = 30.0,
    pair_share: float = 0.25,
    max_pairs: int = 2400,
    shape_share: float = 0.3,
    per_depth: int = 2,
    max_answers: int = 50,
    expand_beam: int = 4,
    epochs: float = 1.0,
    batch_size: int = 8,
    lr: float = 1e-3,
    rank: int = 16,
    top_layers: int | None = None,
    seed: int = 13,
    paraphrase_share: float = 0.0,
    paraphrase_max: float = 0.3,
    paraphrase_model: str | None = DEFAULT_PARAPHRASER,
    held_share: float = 0.1,
    held_max: int = 80,
    ranker_share: float = 0.15,
    container: Container | None = None,
    progress: Progress | None = None,
    stop: threading.Event | None = None,
) -> dict[str, Any]:
    """Build pairs from the namespace's graph, paraphrase some (``paraphrase_share`` of the time, at most
    ``paraphrase_max`` as many as there are pairs), train the text2cypher LoRA, install it for the namespace.

    ``container``: the running service's (tuning while it serves: ``app.services.tuning``); else one is started and
    closed here. ``held_share`` of the pairs (at most ``held_max``; none under ``HELD_MIN_PAIRS``) are held back from
    training and, after it, run as questions with the new adapter: the namespace's ranker is fitted on them
    (``app.training.ranker.tuned_ranker``: how much the tuned LLM counts, never so much that it loses one of them)
    within ``ranker_share`` of the time, and installed with the adapter. Training runs in a worker thread, so the
    event loop keeps serving. ``progress(stage, done, total)`` is told as pairs are built and training steps;
    ``stop`` set ends the run before anything is installed (``TrainingCancelled``)."""
    from app.training.lora import TrainingCancelled, train_lora_pairs

    t0 = time.monotonic()
    budget = minutes * 60
    c = container or await Container.start(settings, with_llm=False, modes=["text2cypher", "vector"])
    try:
        nodes, edges = await c.graph.counts(namespace)
        if edges == 0:
            raise InvalidInputError(f"namespace {namespace!r} has no relationships to tune on")
        pairs, pair_stats = await build_pairs(
            c,
            namespace,
            max_pairs=max_pairs,
            deadline=t0 + pair_share * budget,
            seed=seed,
            per_depth=per_depth,
            max_answers=max_answers,
            expand_beam=expand_beam,
            progress=progress,
        )
        if stop is not None and stop.is_set():
            raise TrainingCancelled("cancelled while building pairs")
        r = c.retrievers["text2cypher"]
        assert isinstance(r, Text2CypherRetriever)
        shapes = await shape_pairs(r, namespace, int(shape_share * max_pairs), random.Random(seed))
        pairs = pairs[: max_pairs - len(shapes)] + shapes
        pair_stats |= {"shape_pairs": len(shapes), "pairs": len(pairs)}
        pair_stats["paraphrases"] = {"skipped": "off (paraphrase_share 0)"}
        if paraphrase_share > 0 and pairs:
            deadline = time.monotonic() + paraphrase_share * budget
            para, pair_stats["paraphrases"] = await _paraphrase(
                settings, r, namespace, pairs, paraphrase_model, int(paraphrase_max * len(pairs)), deadline, seed
            )
            pairs += para
            pair_stats |= {"pairs": len(pairs), "pairs_by_hops": by_hops(pairs)}
    finally:
        if container is None:
            await c.close()
    if not pairs:
        raise InvalidInputError(f"no training pairs could be built from namespace {namespace!r}")
    pair_seconds = time.monotonic() - t0
    held: list[dict[str, Any]] = []
    if len(pairs) >= HELD_MIN_PAIRS:  # held back from training: the namespace's ranker is fitted on them
        n = min(held_max, int(held_share * len(pairs)))
        chosen = set(random.Random(seed).sample(range(len(pairs)), n))
        held = [p for i, p in enumerate(pairs) if i in chosen]
        pairs = [p for i, p in enumerate(pairs) if i not in chosen]
    ranker_seconds = ranker_share * budget if held else 0.0
    target = adapter_dir(settings, namespace)
    work = target.with_name(target.name + ".new")
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    (work / "pairs.jsonl").write_text("".join(json.dumps(p) + "\n" for p in pairs))
    (work / "held_back.jsonl").write_text("".join(json.dumps(p) + "\n" for p in held))
    base = local_model_path(settings.llm.model, settings.model_cache_dir)

    def on_step(step: int, steps: int) -> bool:
        if progress is not None:
            progress("training", step, steps)
        return stop is None or not stop.is_set()

    try:
        train = await asyncio.to_thread(
            train_lora_pairs,
            base_model=base,
            pairs=pairs,
            schema=None,
            out_dir=work,
            epochs=epochs,
            batch_size=batch_size,
            lr=lr,
            rank=rank,
            top_layers=top_layers,
            seed=seed,
            threads=settings.llm.threads,
            max_seconds=max(10.0, budget - (time.monotonic() - t0) - 15 - ranker_seconds),
            on_step=on_step,
        )
    except BaseException:  # failed or cancelled: the namespace keeps what it had
        shutil.rmtree(work, ignore_errors=True)
        raise
    stats = {
        "namespace": namespace,
        "graph": {"nodes": nodes, "relationships": edges},
        "minutes_budget": minutes,
        "pair_seconds": round(pair_seconds, 1),
        **pair_stats,
        "training": train,
        "total_seconds": round(time.monotonic() - t0, 1),
        "adapter": str(target),
    }
    if progress is not None:
        progress("ranker", 0, len(held))
    stats["ranker"] = await _fit_ranker(
        settings, namespace, held, work, container, deadline=time.monotonic() + max(ranker_seconds, 5.0)
    )
    stats["held_back"] = len(held)
    (work / "training.json").write_text(json.dumps(stats, indent=2))
    if stop is not None and stop.is_set():
        shutil.rmtree(work, ignore_errors=True)
        raise TrainingCancelled("cancelled before the adapter was installed")
    install_adapter(work, target)
    return stats


async def _paraphrase(
    settings: Settings,
    r: Text2CypherRetriever,
    namespace: str,
    pairs: list[dict[str, Any]],
    model: str | None,
    n: int,
    deadline: float,
    seed: int,
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Paraphrased pairs (``app.training.paraphrase``), or none, with the reason, when no paraphrasing model or no
    cross-encoder (for the round trip) is there. ``model`` None: the service's own local model."""
    from app.training.paraphrase import LocalRewriter, paraphrase_pairs

    path = resolve_local_model(model, settings.model_cache_dir) if model else None
    if model and (path is None or not path.exists()):
        return [], {"skipped": f"paraphrasing model {model} is not available (python -m app models fetch NAME)"}
    if r.deps.reranker is None:
        return [], {"skipped": "no cross-encoder for the round trip"}
    path = path or local_model_path(settings.llm.model, settings.model_cache_dir)
    rewriter = LocalRewriter(path, threads=settings.llm.threads, seed=seed)
    checker = Text2CypherRetriever(r.deps, r.config.model_copy(update={"scoring": "relevance"}))
    try:
        kept, stats = await paraphrase_pairs(
            checker, namespace, pairs, rewriter, n=n, deadline=deadline, rng=random.Random(seed)
        )
    finally:
        rewriter.close()
    return kept, {"model": path.name, **stats}


def _paraphrased(stats: dict[str, Any]) -> str:
    p = stats.get("paraphrases") or {}
    if "kept" in p:
        return f"{p['kept']} paraphrased pairs from {p['passed_round_trip']} of {p['tried']} rewrites"
    return f"no paraphrases: {p.get('skipped', 'off')}"


def summary_line(stats: dict[str, Any]) -> str:
    t = stats["training"]
    return (
        f"namespace {stats['namespace']}: {stats['pairs']} pairs {stats['pairs_by_hops']} from "
        f"{stats['anchors_used']} anchors ({_paraphrased(stats)}) in {stats['pair_seconds']} s; "
        f"LoRA {t['steps']} steps "
        f"({t['epochs_done']} epochs) in {t['seconds']} s, loss {t['loss_first10']} -> {t['loss_last10']}; "
        f"total {stats['total_seconds']} s -> {Path(stats['adapter'])}"
    )


async def _fit_ranker(
    settings: Settings,
    namespace: str,
    held: list[dict[str, Any]],
    work: Path,
    container: Container | None,
    *,
    deadline: float,
) -> dict[str, Any]:
    """The namespace's ranker (``ranker.json`` in the adapter's folder ``work``), fitted on the ``held`` pairs
    asked with the new adapter; what was decided, or why nothing was."""
    if not held:
        return {"skipped": f"fewer than {HELD_MIN_PAIRS} pairs: none held back, the untuned ranker stays"}
    c = container or await Container.start(settings, modes=["text2cypher", "vector"])
    try:
        r = c.retrievers["text2cypher"]
        assert isinstance(r, Text2CypherRetriever)
        candidate = TunedAdapter(f"text2cypher-{namespace}-candidate", work)
        serves = getattr(r.chooser, "serves", None)
        if r.chooser is None or serves is None or not serves(candidate):
            return {"skipped": "no local model that serves the new adapter: the untuned ranker stays"}
        groups = await scored_groups(r, namespace, held, candidate, deadline=deadline)
        made = tuned_ranker(groups, r.ranker)
        doc = {
            "about": "This namespace's ranker, fitted by `tune` on pairs held back from training and asked with its "
            "adapter (app/training/ranker.py tuned_ranker).",
            "learned": True,
            "standardise": False,
            "report": made["report"],
            "weights": made["weights"],
        }
        (work / RANKER_FILE).write_text(json.dumps(doc, indent=2) + "\n")
        return dict(made["report"])
    finally:
        if container is None:
            await c.close()
