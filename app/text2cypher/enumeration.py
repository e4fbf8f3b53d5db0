"""The enumerate stage: the candidate queries of one question, each read as text and scored by the cross-encoder.

1. Paths from the linked entities, breadth-first: each extended by the relationship types and directions that
   actually leave the nodes it reaches (labels name the hops only where the graph has them), so every candidate
   matches something when it is built. On dense graphs only the ``expand_beam`` most relevant paths of one length
   are extended further, and ``max_candidates`` bounds the total. A level the beam keeps whole is extended while
   the cross-encoder scores it (its scores only order it).
2. The paths joining two linked entities, and the relationships between them.
3. The shapes (``enumerate_shapes.py``), from the paths the ranker puts first (relevance and ``features.py``).
4. A preview of the answers of paths whose answers have no label, read again with a few of them. 5. The features.

Without a question (self-supervised tuning) nothing is scored and the paths extended further are drawn at random.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from app.cypher.candidates import (
    Anchor,
    CandidateQuery,
    Display,
    hops_from_rows,
    joins_from_rows,
    links_from_rows,
    takes_closure,
)
from app.cypher.shapes import Shape
from app.errors import AppError, DependencyError, QueryRejectedError
from app.stores.graph.base import GraphSchema, GraphStore
from app.stores.graph.profile import SchemaProfiler
from app.text2cypher import features, lexicon, rank
from app.text2cypher.asks import about_the_graph, asked_kind, first_k, linked_names, stated_values
from app.text2cypher.closures import closures
from app.text2cypher.config import Text2CypherConfig
from app.text2cypher.enumerate_shapes import ShapeEnumerator
from app.text2cypher.lexicon import Lexicon
from app.text2cypher.measures import either_way
from app.text2cypher.preview import example_values, with_examples
from app.text2cypher.profiles import PropertyProfiles
from app.text2cypher.question import QuestionLiterals, question_literals
from app.text2cypher.reading import reading

PREVIEW_ROWS = 10
"""Rows read per previewed candidate (rows are paths: one answer may fill several)."""
MIN_READ_S = 0.05
"""An extension read with less time than this left of the question's budget is not made."""


def _settled(task: asyncio.Task[Any]) -> None:
    """Take a finished task's error, so that nobody is told it was never retrieved."""
    if not task.cancelled():
        task.exception()


class Progress(Protocol):
    """Where a stage reports (the mode's run context): timings per stage and warnings."""

    def stage(self, name: str) -> Any: ...
    def warn(self, message: str) -> None: ...


Rerank = Callable[[str, list[str], Any], Awaitable[list[float] | None]]
"""The cross-encoder's scores of the question against texts (None without a reranker)."""


@dataclass
class Enumeration:
    """The candidates of one question, in enumeration order, with their readings, relevance and features."""

    links: list[Any]
    """The question's entity links (``app.retrievers.linking.EntityLink``)."""
    candidates: list[CandidateQuery | Shape] = field(default_factory=list)
    readings: list[str] = field(default_factory=list)
    """Each candidate's reading (what the cross-encoder scores)."""
    relevance: list[float] | None = None
    """The cross-encoder's scores, or None without a reranker."""
    truncated: bool = False
    unextended: int = 0
    base_shapes: int = 0
    """Shapes before conditions were added (``filter_beam``)."""
    pruned: int = 0
    """Shapes ``shape_budget`` and ``condition_budget`` dropped unscored."""
    lits: QuestionLiterals | None = None
    """What the question states (None without a question)."""
    features: list[dict[str, float]] = field(default_factory=list)
    """Each candidate's features (``features.py``; ``relevance`` is in ``relevance``)."""


class Enumerator:
    def __init__(
        self,
        graph: GraphStore,
        profiler: SchemaProfiler,
        config: Callable[[], Text2CypherConfig],
        schema: Callable[[str], Awaitable[GraphSchema]],
        rerank: Rerank,
    ) -> None:
        self.graph = graph
        self.profiler = profiler
        self._config = config
        """The mode's settings, read on every question (they may change between questions)."""
        self.schema = schema
        self.rerank = rerank
        self.profiles = PropertyProfiles(graph, profiler)

    @property
    def config(self) -> Text2CypherConfig:
        return self._config()

    @property
    def lex(self) -> Lexicon:
        """The language questions are read in (``config.lexicon``)."""
        return lexicon.load(self.config.lexicon)

    async def enumerate_from(
        self,
        namespace: str,
        anchors: list[Anchor],
        question: str | None,
        ctx: Progress,
        rng: random.Random | None = None,
    ) -> Enumeration:
        """The candidates around ``anchors``. Without a question (self-supervised tuning) nothing is scored, and the
        ``expand_beam`` paths of one length that are extended further are drawn with ``rng`` (else the first)."""
        cfg, lex = self.config, self.lex
        out = Enumeration([])
        if not anchors and (question is None or not cfg.shapes):
            return out
        relevance: list[float] | None = [] if question is not None else None
        scored: dict[str, float] = {}  # each reading's score so far: a reading two candidates share is scored once

        async def score(question: str, texts: list[str]) -> list[float] | None:
            """The cross-encoder's score of each text (None when it failed)."""
            fresh = list(dict.fromkeys(t for t in texts if t not in scored))
            got = await self.rerank(question, fresh, ctx) if fresh else []
            if got is None:
                return None
            scored.update(zip(fresh, got, strict=True))
            return [scored[t] for t in texts]

        async def add(cands: list[Any]) -> list[float] | None:
            """Read the candidates, score them with the cross-encoder, keep them. Once it has failed, it is not
            asked again: no candidate has a relevance."""
            nonlocal relevance
            texts = [reading(c, lex) for c in cands]
            scores: list[float] | None = []
            if cands and question is not None:
                scores = await score(question, texts) if relevance is not None else None
            out.candidates += cands
            out.readings += texts
            relevance = None if scores is None or relevance is None else relevance + scores
            return scores if question is not None else None

        level = [CandidateQuery(a, ()) for a in anchors]
        deadline = time.monotonic() + cfg.extension_budget_s
        ahead: asyncio.Task[list[list[CandidateQuery]]] | None = None  # the next level's reads, under way
        ahead_failed: list[CandidateQuery] = []
        order: list[int] = []
        try:
            for hop in range(cfg.max_hops if level else 0):
                failed: list[CandidateQuery] = []
                with ctx.stage("candidate_enumeration"):
                    if ahead is None:
                        groups = await self._extend(namespace, level, failed, deadline)
                    else:  # read while the cross-encoder read the level before; in that level's order now
                        got, failed, ahead = await ahead, ahead_failed, None
                        groups = [got[i] for i in order]
                nxt = [c for g in groups for c in g]
                if failed:
                    out.unextended += len(failed)
                    ctx.warn(
                        f"text2cypher: {len(failed)} path(s) not extended: the graph read took too long, or the "
                        "question's time for extension reads was spent"
                    )
                room = cfg.max_candidates - len(out.candidates)
                if len(nxt) > room:
                    nxt, out.truncated = nxt[: max(0, room)], True
                # a level the beam keeps whole is extended whatever its scores say (they only order it): its reads
                # start now, while the cross-encoder reads it, and are put in the scores' order after
                if hop + 1 < cfg.max_hops and not out.truncated and 0 < len(nxt) <= cfg.expand_beam:
                    ahead_failed = []
                    ahead = asyncio.create_task(self._extend(namespace, nxt, ahead_failed, deadline))
                scores = await add(nxt)
                order = list(range(len(nxt)))
                if scores is not None:
                    order.sort(key=scores.__getitem__, reverse=True)
                elif rng is not None:
                    order = rng.sample(order, len(order))
                level = [nxt[i] for i in order]
                if len(level) > cfg.expand_beam:
                    out.unextended += len(level) - cfg.expand_beam
                    level = level[: cfg.expand_beam]
                if out.truncated or not level:
                    break
        finally:
            if ahead is not None:  # an error ended the loop: the reads under way are not wanted, nor their errors
                ahead.cancel()
                ahead.add_done_callback(_settled)
        if len(anchors) > 1 and not out.truncated:
            with ctx.stage("candidate_enumeration"):
                joins = await self._connecting(namespace, anchors)
            await add(joins[: max(0, cfg.max_candidates - len(out.candidates))])
        lits = question_literals(question, lex) if question is not None else None
        about = False  # the question says it is about the graph (below, with the schema)
        known: dict[int, dict[str, float]] = {}  # the features of the candidates computed so far, by the candidate
        if cfg.shapes and lits is not None and not out.truncated:
            with ctx.stage("candidate_enumeration"):
                schema = await self.schema(namespace)
                profiles = await self.profiles.get(namespace, schema)
                terms = (await self.profiles.profiler.get(namespace)).terms()
            first_k(lits, profiles)  # "the first 3 … and their release years": the earliest 3; "the top 5 movies …"
            asked_kind(lits, profiles)  # "which questions ...": the label asked for
            stated_values(lits, profiles)  # "taught in Fall 2023": a relationship's value
            linked_names(lits, [a.name for a in anchors if a.name and not a.number])  # "11 Birch Close"
            about = about_the_graph(lits, terms)
            ranker = rank.load(cfg.ranker)
            order = list(range(len(out.candidates)))
            paths = features.compute(out.candidates, question or "", lits)  # a question is what ``lits`` were read from
            known = {id(c): f for c, f in zip(out.candidates, paths, strict=True)}
            if relevance is not None:  # the paths the ranker would put first: relevance and what the features say
                said = ranker.prior(paths)
                weight = ranker.weights.get(features.RELEVANCE, 1.0)
                rel = [weight * r + p for r, p in zip(relevance, said, strict=True)]
                order.sort(key=lambda i: -rel[i])
            ranked = [out.candidates[i] for i in order]
            best = [c for c in ranked if isinstance(c, CandidateQuery) and c.end is None and len(c.hops) <= 2]
            longer = [c for c in ranked if isinstance(c, CandidateQuery) and c.end is None and len(c.hops) == 3]
            joined = [c for c in ranked if isinstance(c, CandidateQuery) and c.end is not None and len(c.hops) == 2]
            entities = [CandidateQuery(a, ()) for a in anchors]
            # what the relationship between two linked entities says, where it says something, and which of the
            # nodes a linked value names are linked to the other entity
            if profiles.rels or any(profiles.shared(a) for a in anchors):
                with ctx.stage("candidate_enumeration"):
                    entities += await self._adjacent(namespace, anchors)
            shapes = ShapeEnumerator(
                self.graph,
                self.profiles,
                filter_beam=cfg.filter_beam,
                shape_budget=cfg.shape_budget,
                condition_budget=cfg.condition_budget,
                prior=lambda shapes, said: ranker.prior(
                    features.compute(shapes, said.said, said), [bool(s.filters) for s in shapes]
                ),
            )
            out.base_shapes, out.pruned = await shapes.enumerate(
                namespace,
                schema,
                lits,
                best[: cfg.shape_paths],
                add,
                entities,
                longer[: cfg.shape_paths],
                joined[: cfg.shape_paths],
            )
        # the same query text can arise twice (a name linked under two labels): keep the first; and drop the
        # label-anchored shapes of a question the graph knows nothing about, unless it says it is about the graph
        # (``about_the_graph``: "the names of all data centers located in ...", whatever the place)
        unanchored = [i for i, c in enumerate(out.candidates) if isinstance(c, Shape) and c.anchor.name is None]
        off_graph = (
            relevance is not None
            and not about
            and max((relevance[i] for i in unanchored), default=0.0) < cfg.label_min_relevance
        )
        first: dict[str, int] = {}
        for i, c in enumerate(out.candidates):
            if off_graph and isinstance(c, Shape) and c.anchor.name is None:
                continue
            first.setdefault(c.text, i)
        keep = sorted(first.values())
        out.candidates = [out.candidates[i] for i in keep]
        out.readings = [out.readings[i] for i in keep]
        out.relevance = [relevance[i] for i in keep] if relevance is not None else None
        if question is not None and out.relevance is not None and cfg.answer_examples and out.candidates:
            await self._preview(namespace, question, out, ctx)
        out.lits = lits
        if lits is not None:
            assert question is not None
            with ctx.stage("candidate_enumeration"):  # the features are part of enumerating
                rest = [c for c in out.candidates if id(c) not in known]
                known |= {id(c): f for c, f in zip(rest, features.compute(rest, question, lits), strict=True)}
                out.features = [known[id(c)] for c in out.candidates]
        return out

    async def _preview(self, namespace: str, question: str, out: Enumeration, ctx: Progress) -> None:
        """Run the ``preview_candidates`` most relevant paths whose answers have no label (their reading cannot say
        what they return) for a few rows, and score their readings again with ``answer_examples`` of their answers.
        A candidate whose query fails or returns nothing keeps its reading and score, and so do the others: where the
        graph has labels the reading names the kind, and examples would only crowd out its words (on the movies
        validation questions they did: the right query first by relevance 12 -> 10 of 32)."""
        cfg = self.config
        rel = out.relevance
        assert rel is not None
        kindless = [i for i, c in enumerate(out.candidates) if isinstance(c, CandidateQuery) and not c.return_hop.label]
        top = sorted(kindless, key=lambda i: -rel[i])[: cfg.preview_candidates]

        async def examples(i: int) -> list[str]:
            try:
                rows = await self.graph.read(
                    namespace, out.candidates[i].execution_query(), {"limit": PREVIEW_ROWS}, max_rows=PREVIEW_ROWS
                )
            except AppError:
                return []
            return example_values(rows, cfg.answer_examples)

        with ctx.stage("cypher_execution"):  # the previewed candidates run
            found = await asyncio.gather(*(examples(i) for i in top))
        shown = [(i, with_examples(out.readings[i], ex, self.lex)) for i, ex in zip(top, found, strict=True) if ex]
        scores = await self.rerank(question, [t for _, t in shown], ctx)
        if not scores:
            return
        for (i, text), score in zip(shown, scores, strict=True):
            out.readings[i], rel[i] = text, score

    async def display(self, namespace: str) -> Display:
        """Which property names a node of each label (the namespace's schema profile)."""
        return (await self.profiler.get(namespace)).naming()

    async def _extend(
        self, namespace: str, level: list[CandidateQuery], unextended: list[CandidateQuery], deadline: float
    ) -> list[list[CandidateQuery]]:
        """Every path of ``level`` extended by each relationship type and direction leaving its end nodes (one list
        per path, in ``level``'s order); a path whose extension read fails (past the query deadline, over the memory
        cap) or would start after ``deadline`` (``time.monotonic()``; the question's ``extension_budget_s``) goes to
        ``unextended``."""
        sem = asyncio.Semaphore(8)
        display = await self.display(namespace)
        lex = self.lex

        async def grow(c: CandidateQuery) -> list[CandidateQuery]:
            if takes_closure(c.hops):  # a read along every chain of a dense graph costs what the other paths need
                return []
            async with sem:
                left = deadline - time.monotonic()
                if left <= MIN_READ_S:
                    unextended.append(c)
                    return []
                try:
                    rows = await self.graph.read(
                        namespace,
                        c.extension_query(display),
                        {"nodes": self.config.extension_nodes},
                        max_rows=100_000,
                        timeout_s=min(self.config.extension_timeout_s, left),
                    )
                except (DependencyError, QueryRejectedError):  # too slow or too big: the path stays as it is
                    unextended.append(c)
                    return []
            out = []
            for h in either_way(hops_from_rows(rows, display), c.hops[-1].label if c.hops else c.anchor.label, lex):
                if len(c.hops) >= 2 and c.hops[-1].rel_type == c.hops[-2].rel_type == h.rel_type:
                    continue  # turning back twice on one relationship type re-finds a shorter path's answers
                out += [CandidateQuery(c.anchor, (*c.hops, h)), *closures(c, h, self.config.closure_hops)]
            return out

        return list(await asyncio.gather(*(grow(c) for c in level)))

    async def _connecting(self, namespace: str, anchors: list[Anchor]) -> list[CandidateQuery]:
        """Paths (a)-h1-(x)-h2-(b) between two linked entities, returning x (intersections: "which player plays
        for X and was born in Y")."""
        pairs = [(a, b) for a in anchors for b in anchors if a.name != b.name]
        display = await self.display(namespace)
        return await self._between(
            namespace,
            pairs,
            lambda a, b: a.connecting_query(b, display),
            lambda a, b, rows: joins_from_rows(a, b, rows, display),
            1000,
        )

    async def _adjacent(self, namespace: str, anchors: list[Anchor]) -> list[CandidateQuery]:
        """The relationships joining two linked entities directly, as one-hop patterns closed by the second (their
        properties answer "the roles of Keanu Reeves in The Matrix")."""
        pairs = [(a, b) for i, a in enumerate(anchors) for b in anchors[i + 1 :] if a.name != b.name]
        return await self._between(namespace, pairs, Anchor.adjacent_query, links_from_rows, 100)

    async def _between(
        self,
        namespace: str,
        pairs: list[tuple[Anchor, Anchor]],
        query: Callable[[Anchor, Anchor], str],
        parse: Callable[[Anchor, Anchor, list[dict[str, Any]]], list[CandidateQuery]],
        limit: int,
    ) -> list[CandidateQuery]:
        """One read per pair of linked entities (``query``, at most ``limit`` rows), its rows made candidates
        (``parse``), together without repeats."""

        async def one(a: Anchor, b: Anchor) -> list[CandidateQuery]:
            rows = await self.graph.read(namespace, query(a, b), {"limit": limit}, max_rows=limit)
            return parse(a, b, rows)

        groups = await asyncio.gather(*(one(a, b) for a, b in pairs))
        return list(dict.fromkeys(c for g in groups for c in g))
