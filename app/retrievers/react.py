"""ReAct-style KG traversal (the QALD-10 study's agent), made safe for small models.

Start at the question's linked entity. Each step is *action* (list the relations of the current nodes: one Cypher
read per expansion), *observation* (the listed relations, each continuing one of the kept paths, scored by the
cross-encoder; the choice is constrained to the listed relation names, so no model can leave the graph) and *thought*
(answer now or go one hop deeper). The search keeps the ``beam`` best paths per depth for at most ``max_hops`` hops
and ``max_seconds``. The answer is the shallowest path scoring within ``depth_margin`` of the best one found (a needed
hop raises the score a lot, a superfluous one barely moves it); its end nodes are the items, then the other paths'
ends.

A path is scored as the question against the path read the way questions are phrased, from the answer back to the
start entity: ``X -directed_by-> ?`` is "directed by of X (person)", ``X <-written_by- ?`` is "movie written by X
(movie)", nested hop by hop ("release year of movie written by X (year)"). A hop that turns back along the relation
it just came by is read as sharing: ``X -r-> v <-r- ?`` is "other movie with the same r as X" (the shape of "films
with the same director as X"), and a path never turns back twice in a row on one relation (that only re-finds the
first hop's answers). Measured on MetaQA dev through the service (50 questions per hop, margin 1.0): Hits@1
88 / 58 / 38 with an example chain of instances as the path's text, 90 / 64 / 60 with this reading.

On a graph without labels the reading cannot say what a path reaches, so a path whose ends have no label is read
with two of its end nodes ("directed by of X, such as A, B"; they are at hand, no extra read), and a path's score
gains ``mention_weight`` per relation it follows that the question names and loses it per one it does not (both as
text2cypher does). MetaQA ingested without labels, 100 questions per hop, Hits@1: 67 / 71 / 53 without either,
81 / 75 / 67 with the examples, 90 / 74 / 69 with both.

The trace lists every step. Paths never come back to the start entity (as one Cypher MATCH pattern would not).
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

from pydantic import BaseModel, Field

from app.retrievers.base import ModeConfig, Retriever, RunContext
from app.retrievers.kg import Direction, Edge, Node, expand, node_item
from app.retrievers.types import ModeTrace, RetrievalQuery, RetrievedItem
from app.text import surface
from app.text2cypher.lexicon import load as load_lexicon
from app.text2cypher.preview import example_text, with_examples
from app.text2cypher.reading import read_path, relation_text, with_kind
from app.text2cypher.words import matcher


class ReactConfig(ModeConfig):
    max_hops: int = Field(3, ge=1, le=6)
    """Most relations followed from the start entity."""
    beam: int = Field(3, ge=1, le=20)
    """Paths kept per depth."""
    depth_margin: float = Field(0.5, ge=0.0, le=20.0)
    """Answer with the shallowest path whose score is within this of the best path's (cross-encoder logits).
    MetaQA dev, 100 questions per hop, Hits@1 per hop: 0.25 -> 84/76/59, 0.5 -> 85/77/57, 1.0 -> 87/68/52."""
    frontier: int = Field(50, ge=1, le=5000)
    """Nodes of a path expanded in one step (the rest are kept as answers but not expanded)."""
    edges_per_step: int = Field(5000, ge=10, le=200_000)
    """Edges read per expansion and direction."""
    max_seconds: float = Field(10.0, gt=0, le=600)
    """Time budget: no new step starts after it."""
    answers_per_path: int = Field(50, ge=1, le=5000)
    """End nodes returned per path."""
    answer_examples: int = Field(2, ge=0, le=5)
    """End nodes named in a path's text when the graph gives them no label ("directed by of X, such as A, B"): the
    reading cannot say what kind of thing the path reaches, its answers can (as text2cypher's answer preview)."""
    mention_weight: float = Field(1.0, ge=0.0, le=10.0)
    """Added to a path's score per relation it follows that the question names, less per one it does not
    (``app.text2cypher.words.Matcher.mentions``, one per use), as text2cypher does."""


class Option(BaseModel):
    relation: str
    """The relation in words, as offered (``is directed by of (movie)`` reads "reached backwards")."""
    text: str
    """The example chain the cross-encoder scored."""
    score: float
    nodes: int
    """End nodes of the path."""


class Step(BaseModel):
    hop: int
    action: str
    """What was listed: ``list relations of N node(s) on path ...``."""
    observation: list[Option] = Field(default_factory=list)
    """The relations that continue the kept paths, best first (at most 10 shown)."""
    thought: str = ""


class ReactTrace(ModeTrace):
    start: list[str] = Field(default_factory=list)
    """The linked start entities."""
    steps: list[Step] = Field(default_factory=list)
    path: list[str] = Field(default_factory=list)
    """The chosen path's relations, ``rel>`` forwards and ``<rel`` backwards."""
    score: float | None = None
    stopped: str | None = None
    """Why the search stopped: ``max_hops``, ``no_relations``, ``time_budget``."""


@dataclass
class Path:
    relations: tuple[tuple[str, Direction], ...]
    ends: list[Node]
    example: list[Edge] = field(default_factory=list)
    score: float = float("-inf")
    text: str = ""
    support: Counter[str] = field(default_factory=Counter)
    """How many edges reach each end node (a tie-breaker among a path's answers)."""
    offered: str = ""
    """The last relation in words, as the observation lists it."""
    phrases: tuple[str, ...] = ()
    """The path read from its end back to the start, one phrase per prefix of the path (the last is the whole)."""
    hops: tuple[tuple[str, Direction, str], ...] = ()
    """``(relation, direction, kind of the nodes reached)`` per hop, as :func:`read_path` reads them."""

    def label(self) -> list[str]:
        return [f"{r}>" if d == "out" else f"<{r}" for r, d in self.relations]


class ReactRetriever(Retriever[ReactConfig, ReactTrace]):
    answers_with_nodes = True
    name = "react"
    description = "Agentic KG traversal: follow the relations the cross-encoder ranks best, hop by hop, within budget."
    Config = ReactConfig
    Trace = ReactTrace

    async def _retrieve(self, query: RetrievalQuery, ctx: RunContext[ReactTrace]) -> list[RetrievedItem]:
        ns, cfg, tr = query.namespace, self.config, ctx.trace
        links = await self.start_links(ns, query.question, ctx)
        if not links:
            return []
        start = list(dict.fromkeys(Node.from_link(link) for link in links if link.mention == links[0].mention))
        tr.start = [n.name for n in start]
        avoid = {n.name for n in start}
        deadline = time.monotonic() + cfg.max_seconds
        beams = [Path((), start, phrases=(" or ".join(surface(n) for n in tr.start),))]
        found: list[Path] = []
        tr.stopped = "max_hops"
        for hop in range(1, cfg.max_hops + 1):
            if time.monotonic() > deadline:
                tr.stopped = "time_budget"
                break
            step = Step(hop=hop, action=f"list relations of the end nodes of {len(beams)} path(s)")
            cands = await self._extend(ns, beams, avoid, ctx)
            if not cands:
                tr.stopped = "no_relations"
                step.thought = "no relation leads anywhere new: answer now"
                tr.steps.append(step)
                break
            scores = await self.rerank_scores(query.question, [c.text for c in cands], ctx)
            for i, c in enumerate(cands):
                if scores is None:
                    c.score = -float(len(c.relations) * 1000 + i)
                    continue
                named, unnamed = matcher(load_lexicon()).mentions(query.question, [r for r, _ in c.relations])
                c.score = scores[i] + cfg.mention_weight * (named - unnamed)
            cands.sort(key=lambda c: -c.score)
            step.observation = [
                Option(relation=c.offered, text=c.text, score=round(c.score, 3), nodes=len(c.ends)) for c in cands[:10]
            ]
            found += cands
            best_prev = max((p.score for p in found if len(p.relations) < hop), default=None)
            gain = cands[0].score - best_prev if best_prev is not None else None
            step.thought = (
                f"best path so far scores {cands[0].score:.2f}"
                + (f" ({gain:+.2f} over the shorter paths)" if gain is not None else "")
                + ("; go one hop deeper" if hop < cfg.max_hops else "; answer now")
            )
            tr.steps.append(step)
            beams = cands[: cfg.beam]
        if not found:
            return []
        top = max(p.score for p in found)
        shallowest = min(len(p.relations) for p in found if p.score >= top - cfg.depth_margin)
        chosen = max((p for p in found if len(p.relations) == shallowest), key=lambda p: p.score)
        tr.path, tr.score = chosen.label(), round(chosen.score, 3)
        if tr.steps:
            tr.steps[-1].thought += f"; answer with the {shallowest}-hop path {' '.join(chosen.label())}"
        ranked = [chosen, *sorted((p for p in found if p is not chosen), key=lambda p: -p.score)]
        items: dict[str, RetrievedItem] = {}
        # the chosen path's ends first, then the other paths' ends; rank order is kept in the scores
        for rank, p in enumerate(ranked):
            base = 1000.0 - rank * 10 if rank else 2000.0
            for node in sorted(p.ends, key=lambda n: -p.support[n.name])[: cfg.answers_per_path]:
                if node.id not in items:
                    s = base + min(p.support[node.name], 9) / 10
                    text = f"{node.text()}: {p.phrases[-1]}. For example: {'. '.join(e.text() for e in p.example)}"
                    items[node.id] = node_item(node, s, text, ns, path=p.label(), path_score=round(p.score, 3))
            if len(items) >= query.top_k and rank:
                break
        return list(items.values())

    async def _extend(self, ns: str, beams: list[Path], avoid: set[str], ctx: RunContext[ReactTrace]) -> list[Path]:
        """Every relation out of each kept path's end nodes, as a longer path (action + observation)."""
        cfg = self.config
        nodes = list({n for p in beams for n in p.ends[: cfg.frontier]})
        with ctx.stage("graph_expand"):
            edges = await expand(
                self.deps.graph, ns, nodes, limit=cfg.edges_per_step, profile=await self.deps.linker.profiler.get(ns)
            )
        by_src: dict[str, list[Edge]] = {}
        for e in edges:
            if e.dst.name not in avoid:
                by_src.setdefault(e.src.name, []).append(e)
        out: list[Path] = []
        for p in beams:
            grouped: dict[tuple[str, Direction], list[Edge]] = {}
            for n in p.ends[: cfg.frontier]:
                for e in by_src.get(n.name, []):
                    grouped.setdefault(e.relation, []).append(e)
            for rel, es in grouped.items():
                if len(p.relations) >= 2 and p.relations[-1][0] == p.relations[-2][0] == rel[0]:
                    continue  # turning back twice on one relation re-finds the answers of a shorter path
                ends = list(dict.fromkeys(e.dst for e in es))
                kind = ends[0].kind
                hops = (*p.hops, (*rel, kind))
                phrases = read_path(p.phrases[0], hops)
                support = Counter(e.dst.name for e in es)
                offered = relation_text(rel[0], rel[1], kind)
                text = with_kind(phrases[-1], kind)
                if not kind and cfg.answer_examples:
                    named = sorted(ends, key=lambda n: (-support[n.name], n.name))[: cfg.answer_examples]
                    text = with_examples(text, [example_text(n.name) for n in named])
                out.append(
                    Path(
                        (*p.relations, rel),
                        ends,
                        [*p.example, es[0]],
                        text=text,
                        support=support,
                        offered=offered,
                        phrases=tuple(phrases),
                        hops=hops,
                    )
                )
        return out
