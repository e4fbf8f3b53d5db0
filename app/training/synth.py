"""Best-Cypher training pairs (GraphRAFT step 5a).

For each training question with known answers: link entities and enumerate the candidate queries exactly as the
``text2cypher`` retriever does (same code), execute every candidate with the aggregation inside the query (how many
distinct results, how many of them are gold answers, no node materialised), rank by hits then by fewer results,
and keep the best as a (question, best Cypher) pair. Only MetaQA **dev** lines whose 0-based number is not a
multiple of 5 are used (the multiples of 5 are the validation part).

Ties are common and matter: when a film's director also wrote it, "who wrote X" is answered exactly by both the
DIRECTED_BY and the WRITTEN_BY query. Breaking such ties by enumeration order taught the model "writer →
DIRECTED_BY" for 28% of the writer questions. Ties are broken by :func:`tie_key`: how well the candidate's hops
match the relationships the question's words name (``WRITTEN_BY`` → "writ" ⊂ "screenwriters"), then fewer hops,
then which hop is named next to the entity, then enumeration order. Each pair records how many candidates tied
(``tied``).
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from tqdm import tqdm

from app.container import Container
from app.cypher.candidates import CandidateQuery, Hop, specific_labels
from app.errors import AppError
from app.eval.loaders import EvalQuestion, load_metaqa
from app.eval.runner import RunLog
from app.retrievers.text2cypher import Text2CypherRetriever
from app.settings import Settings
from app.text import STOPWORDS


def schema_file(pairs_file: Path) -> Path:
    """The graph schema the pairs were made on (the training prompt shows it)."""
    return pairs_file.with_suffix(".schema.json")


# irregular or short forms whose 4-letter stem differs from the relationship word's ("wrote" / WRITTEN_BY)
_FORMS = {"wrote": "write", "acted": "actor", "acting": "actor", "acts": "actor", "act": "actor"}


def _words(text: str) -> list[str]:
    return [_FORMS.get(w, w) for w in re.findall(r"[a-z0-9]+", text.lower())]


def _stems(hop: Hop) -> set[str]:
    return {t[:4] for t in hop.rel_type.lower().split("_") if t and t not in STOPWORDS}


def _named_at(words: list[str], hop: Hop) -> list[int]:
    """Positions of the question words that contain the 4-letter stem of a word of the hop's relationship type
    (``WRITTEN_BY`` → "writ" ⊂ "screenwriters")."""
    stems = _stems(hop)
    return [k for k, w in enumerate(words) if any(st in w for st in stems)]


def tie_key(question: str, cand: CandidateQuery) -> tuple[int, int, int, int]:
    """Preference among candidates with the same results (larger is better):

    1. distinct relationship-type stems the question names minus hops it does not name: for "films that share
       screenwriters with X", WRITTEN_BY→WRITTEN_BY (1 - 0) beats DIRECTED_BY→WRITTEN_BY (1 - 1); for "what types
       are the movies directed by the director of X" the 3-hop DIRECTED_BY→DIRECTED_BY→HAS_GENRE (1 - 1) beats a
       1-hop HAS_GENRE that happens to return the same genres (0 - 1); counting stems (not hops) keeps a loop
       WRITTEN_BY→WRITTEN_BY→WRITTEN_BY level with the 1-hop "who wrote X";
    2. fewer hops;
    3. the first hop named closest to the entity's mention ("directed by who" after "the screenwriter of X": the
       writer hop comes first), a word before the mention winning a tie in distance.
    """
    words = _words(question)
    mention = _words(cand.anchor.name or "")
    start = next(
        (k for k in range(len(words) - len(mention) + 1) if mention and words[k : k + len(mention)] == mention), None
    )
    if start is not None:  # the entity's own words name nothing ("Written on the Wind")
        words = words[:start] + [""] * len(mention) + words[start + len(mention) :]
    named = [_named_at(words, h) for h in cand.hops]
    stems = {st for h, at in zip(cand.hops, named, strict=True) if at for st in _stems(h)}
    distinct = len({st for st in stems if any(st in w for w in words)})
    unnamed = sum(1 for at in named if not at)
    first = (10**6, 1)
    if start is not None and named[0]:
        end = start + len(mention) - 1
        first = min((start - k, 0) if k < start else (k - end, 1) for k in named[0])
    return (distinct - unnamed, -len(cand.hops), -first[0], -first[1])


async def best_query(
    r: Text2CypherRetriever, namespace: str, q: EvalQuestion, sem: asyncio.Semaphore
) -> dict[str, Any] | None:
    async with sem:
        _links, found, _ = await r.candidates(namespace, q.question)
    cands = [c for c in found if isinstance(c, CandidateQuery)]  # paths: the shapes have no single answer node
    if not cands:
        return None
    gold = list(dict.fromkeys(q.answers))
    # a candidate can only hit gold answers of the label it returns: skip executing the others (exact, cheaper)
    idx = await r.deps.linker.index(namespace)
    gold_labels = {lab for g in gold for _, labels, _ in idx.named(g) for lab in specific_labels(labels)}
    scorable = [
        i for i, c in enumerate(cands) if not gold_labels or not c.return_hop.label or c.return_hop.label in gold_labels
    ]

    async def score(i: int) -> tuple[int, int, int]:
        async with sem:
            try:
                rows = await r.deps.graph.read(namespace, cands[i].count_query(), {"gold": gold}, timeout_s=20)
            except AppError:
                return (0, 10**9, i)
        row = rows[0] if rows else {"hits": 0, "total": 0}
        return (int(row["hits"] or 0), int(row["total"] or 0), i)

    if not scorable:
        return None
    scored = await asyncio.gather(*(score(i) for i in scorable))
    hits, total, _ = max(scored, key=lambda s: (s[0], -s[1]))
    if hits == 0:
        return None
    tied = [i for h, t, i in scored if (h, t) == (hits, total)]
    best = max(tied, key=lambda i: (*tie_key(q.question, cands[i]), -i))
    return {
        "id": q.id,
        "question": q.question,
        "cypher": cands[best].text,
        "hits": hits,
        "total": total,
        "gold": len(gold),
        "exact": hits == len(gold) == total,
        "hops": q.meta.get("hops"),
        "qtype": q.qtype,
        "candidates": len(cands),
        "tied": len(tied),
    }


async def synthesize(
    settings: Settings,
    *,
    metaqa_dir: Path,
    namespace: str,
    out: Path,
    per_hop: int,
    seed: int = 13,
    concurrency: int = 4,
) -> dict[str, Any]:
    bench = load_metaqa(metaqa_dir, part="train")
    rng = random.Random(seed)
    by_hop: dict[int, list[EvalQuestion]] = defaultdict(list)
    for q in bench.questions:
        by_hop[int(q.meta["hops"])].append(q)
    sample = [q for h in sorted(by_hop) for q in rng.sample(by_hop[h], min(per_hop, len(by_hop[h])))]
    assert all(q.meta["line"] % 5 for q in sample), "validation lines must never be used for training"
    done = RunLog.load(out)  # resumable
    c = await Container.start(settings, with_llm=False, modes=["text2cypher", "vector"])
    t0 = time.perf_counter()
    stats: dict[str, Any] = {"questions": len(sample), "pairs": 0, "exact": 0, "no_pair": 0}
    try:
        assert bench.kg is not None
        await c.ingestor.ingest_path(namespace, bench.kg.format, bench.kg.path)
        r = c.retrievers["text2cypher"]
        assert isinstance(r, Text2CypherRetriever)
        schema = await r.schema(namespace)
        out.parent.mkdir(parents=True, exist_ok=True)
        schema_file(out).write_text(
            json.dumps(
                {
                    "labels": schema.labels,
                    "relationship_types": schema.relationship_types,
                    "property_keys": schema.property_keys,
                    "triples": [[t.source, t.rel_type, t.target] for t in schema.triples],
                },
                indent=1,
            )
        )
        sem = asyncio.Semaphore(concurrency)
        todo = [q for q in sample if q.id not in done]
        out.parent.mkdir(parents=True, exist_ok=True)
        for i in tqdm(range(0, len(todo), concurrency * 2), desc="synth", file=sys.stderr):
            batch = todo[i : i + concurrency * 2]
            results = await asyncio.gather(*(best_query(r, namespace, q, sem) for q in batch))
            for q, rec in zip(batch, results, strict=True):
                rec = rec or {"id": q.id, "question": q.question, "cypher": None, "hops": q.meta.get("hops")}
                done[q.id] = rec
                RunLog.append(out, rec)
    finally:
        await c.close()
    recs = [done[q.id] for q in sample if q.id in done]
    stats["pairs"] = sum(1 for x in recs if x.get("cypher"))
    stats["exact"] = sum(1 for x in recs if x.get("exact"))
    stats["no_pair"] = sum(1 for x in recs if not x.get("cypher"))
    stats["seconds"] = round(time.perf_counter() - t0, 1)
    return stats
