"""``python -m app ranker collect``: a graph's synthetic questions, each run through text2cypher's enumeration as a
user's would be, recorded with its candidates' features and its pair's query marked (``app.training.ranker``).
``python -m app ranker collect-gold``: the same for a graph's own questions written with their gold queries, every
candidate whose rows are the gold query's marked."""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from typing import Any

from tqdm import tqdm

from app.container import Container
from app.errors import InvalidInputError
from app.eval.loaders import load_benchmark
from app.eval.ranker_check import gold_rows, loaded, score_candidate
from app.eval.runner import sample_questions
from app.retrievers.text2cypher import Text2CypherRetriever
from app.settings import Settings
from app.training.ranker import NAMES, Group
from app.training.selftune import build_pairs, shape_pairs


async def collect(
    settings: Settings,
    namespace: str,
    *,
    pairs: int = 300,
    shape_share: float = 0.4,
    minutes: float = 15.0,
    keep: int = 150,
    seed: int = 13,
) -> tuple[list[Group], dict[str, Any]]:
    """The groups of up to ``pairs`` synthetic questions of ``namespace`` (``shape_share`` of them shapes), within
    ``minutes``."""
    t0 = time.monotonic()
    deadline = t0 + minutes * 60
    c = await Container.start(settings, with_llm=False, modes=["text2cypher", "vector"])
    try:
        r = c.retrievers["text2cypher"]
        assert isinstance(r, Text2CypherRetriever)
        n_shapes = int(pairs * shape_share)
        built, _ = await build_pairs(
            c,
            namespace,
            max_pairs=pairs - n_shapes,
            deadline=t0 + 0.2 * minutes * 60,
            seed=seed,
        )
        shapes = await shape_pairs(r, namespace, n_shapes, random.Random(seed))
        todo = built + shapes
        random.Random(seed).shuffle(todo)
        groups: list[Group] = []
        missing = 0
        for p in tqdm(todo, desc=f"questions of {namespace}", file=sys.stderr):
            if time.monotonic() > deadline:
                break
            e = await r.enumerate(namespace, p["question"])
            texts = [x.text for x in e.candidates]
            if p["cypher"] not in texts or e.relevance is None or not e.features:
                missing += 1
                continue
            rows = [[f.get(n, 0.0) for n in NAMES[1:]] for f in e.features]
            rows = [[rel, *row] for rel, row in zip(e.relevance, rows, strict=True)]
            pos = texts.index(p["cypher"])
            scores = r.scores(e) or e.relevance
            hard = sorted(range(len(rows)), key=lambda i: -scores[i])[:keep]
            kept = sorted(set(hard) | {pos})
            groups.append(
                Group(
                    namespace,
                    p["question"],
                    p.get("shape", "path"),
                    list(NAMES),
                    [rows[i] for i in kept],
                    kept.index(pos),
                )
            )
    finally:
        await c.close()
    stats = {
        "namespace": namespace,
        "pairs": len(todo),
        "groups": len(groups),
        "positive_not_enumerated": missing,
        "seconds": round(time.monotonic() - t0, 1),
    }
    return groups, stats


READ_TIMEOUT_S = 3.0
"""How long one candidate of ``collect_gold`` may run (one that takes longer is counted as no answer)."""


async def collect_gold(
    settings: Settings,
    path: Path,
    namespace: str,
    *,
    dataset: str = "text2cypher",
    limit: int | None = None,
    keep: int = 40,
    others: int = 10,
    seed: int = 13,
) -> tuple[list[Group], dict[str, Any]]:
    """The groups of a benchmark's questions (a graph written with its questions and gold queries, such as
    ``data/airline``, or a development set: ``ranker fit`` reports each graph by a ranker fitted on the others
    alone, so no number it reports is measured on what it was fitted on): each question enumerated as the mode does,
    its ``keep`` best candidates by the current ranker (the hard ones) and ``others`` drawn from the rest each run
    and scored as ``ranker check`` scores a ranker's pick (relaxed execution against the gold query's rows); every
    one that answers is a positive. A question none of them answers is left out (no weight can choose it): the stats
    count those (``none_right``: what no ranking can answer) apart from those the current ranker puts a right
    candidate first for (``right_first``; the rest are what ranking loses). A KG
    benchmark (``dataset`` ``metaqa``, ``kgqa``): a candidate answers where its first answer is a gold one;
    ``limit`` questions drawn as ``eval`` draws them."""
    t0 = time.monotonic()
    bench = load_benchmark(dataset, path)
    if bench.kind == "passages":
        raise InvalidInputError(f"{dataset}: a ranker learns from KG or text2cypher questions, not passages")
    questions = sample_questions(bench, limit, seed)
    rng = random.Random(seed)
    groups: list[Group] = []
    counts = {"questions": 0, "gold_empty": 0, "no_candidate": 0, "none_right": 0, "right_first": 0}
    async with loaded(settings, bench, namespace) as (c, r):
        gold: dict[str, list[dict[str, Any]] | None] = {}
        for q in tqdm(questions, desc=f"questions of {namespace}", file=sys.stderr):
            counts["questions"] += 1
            g = q.meta.get("cypher")
            if g is not None and not await gold_rows(c, namespace, g, gold):
                counts["gold_empty"] += 1  # a gold query that does not run here, or finds nothing
                continue
            e = await r.enumerate(namespace, q.question)
            scores = r.scores(e)
            if not e.candidates or scores is None or e.relevance is None:
                counts["no_candidate"] += 1
                continue
            order = sorted(range(len(scores)), key=lambda i: -scores[i])
            rest = order[keep:]
            kept = sorted(order[:keep] + rng.sample(rest, min(others, len(rest))))
            right = []
            for k, i in enumerate(kept):
                got = await score_candidate(
                    c, r, namespace, q, e, i, bench.kind, gold, relaxed_only=True, timeout_s=READ_TIMEOUT_S
                )
                if got.get("execution_accuracy_relaxed", got.get("hits@1")):
                    right.append(k)
            if not right:
                counts["none_right"] += 1
                continue
            counts["right_first"] += kept.index(order[0]) in right  # the current ranker's pick (no depth margin)
            rows = [[e.relevance[i], *(e.features[i].get(n, 0.0) for n in NAMES[1:])] for i in kept]
            kind = f"{q.meta['hops']}-hop" if q.meta.get("hops") else "question"
            groups.append(Group(namespace, q.question, kind, list(NAMES), rows, right[0], right))
    stats = {"namespace": namespace, **counts, "groups": len(groups), "seconds": round(time.monotonic() - t0, 1)}
    return groups, stats
