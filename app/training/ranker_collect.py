"""``python -m app ranker collect``: a graph's synthetic questions, each run through text2cypher's enumeration as a
user's would be, recorded with its candidates' features and its pair's query marked (``app.training.ranker``)."""

from __future__ import annotations

import random
import sys
import time
from typing import Any

from tqdm import tqdm

from app.container import Container
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
