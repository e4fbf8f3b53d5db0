"""Text2cypher with grounded constrained decoding (GraphRAFT), on any graph.

1. Link the question's entity mentions to graph nodes (``linking.py``).
2. Enumerate the candidate queries around them from the data (``app.cypher.candidates``): breadth-first, each path
   extended by the relationship types and directions that actually leave the nodes it reaches (labels name the
   hops only where the graph has them), plus the paths joining two linked entities. Every candidate matches
   something when it is built. On dense graphs only the ``expand_beam`` most relevant paths of one length are
   extended further, and ``max_candidates`` bounds the total (the trace says when either cut). Where labels carry
   properties, the shapes of ``app.retrievers.shapes`` follow (counts, aggregates, conditions on the question's
   constants, orderings, most/fewest, questions naming no entity), bounded by ``filter_beam``.
3. Score each candidate's relevance cheaply: the cross-encoder against the path read as a question phrases it
   ("release year of entity written by X"), then let the LLM score the ``llm_candidates`` most relevant ones
   under the token-trie constraint (exact ``log P(query + EOS | prompt)``, prompt KV shared). The ranking combines
   both (``scoring``): ``relevance_weight * relevance + log-softmax of the LLM scores over those candidates``.
4. Execute the top-m queries in order (read-only, time limit, row limit) until ``max_answers`` distinct answer
   nodes are collected; each becomes an item naming the node, with the query and the textualised path pattern as
   provenance.

Every query executed here is ``candidates[i].execution_query()`` of an enumerated candidate ``i``. The model is
``deps.llms.text2cypher`` (the answer model, or the answer model with a LoRA adapter: ``make train-text2cypher``,
``GRAPHRAG_LLM__TEXT2CYPHER__ADAPTER``).
"""

from __future__ import annotations

import asyncio
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, Field

from app.concurrency import BuiltOnce
from app.cypher.candidates import (
    Anchor,
    CandidateQuery,
    Display,
    hops_from_rows,
    joins_from_rows,
    links_from_rows,
    specific_labels,
)
from app.cypher.queries import ENTITY_LABEL
from app.cypher.shapes import Shape
from app.errors import AppError, DependencyError, QueryRejectedError
from app.ids import entity_id
from app.llm.adapters import TunedAdapter, namespace_adapter
from app.llm.base import GroundedChooser, Message
from app.observability import TEXT2CYPHER_CANDIDATES, TEXT2CYPHER_QUERIES
from app.retrievers.base import ModeConfig, Retriever, RetrieverDeps, RunContext
from app.retrievers.kg import example_text, read_path, with_examples, with_kind, words
from app.retrievers.linking import EntityLink
from app.retrievers.shapes import (
    PropertyProfiles,
    QuestionLiterals,
    ShapeEnumerator,
    answer_form,
    answer_kind,
    attribute_frame,
    constants_used,
    count_intent,
    counted_intent,
    first_k,
    mentions,
    order_intent,
    question_literals,
    schema_terms,
    shape_reading,
    sharing_intent,
    time_order,
)
from app.retrievers.types import CypherTrace, NodeRef, RetrievalQuery, RetrievedItem, Source
from app.stores.graph.base import GraphSchema, plain_rows
from app.text import surface
from grounded import DecodingMethod

INSTRUCTION = "Write the Cypher query that answers the question."


def anchor_labels(labels: Sequence[str]) -> list[str]:
    """The labels a linked node is matched under in candidate queries: its specific ones, else what it has."""
    return specific_labels(labels) or list(labels) or [ENTITY_LABEL]


def build_messages(
    schema: GraphSchema | None, question: str, *, with_schema: bool = True, max_patterns: int = 60
) -> list[Message]:
    """The text2cypher prompt. A fine-tuned adapter is trained without the schema (the candidates already carry
    it, and a short prompt makes CPU training and decoding several times cheaper); the untuned model gets it."""
    system = INSTRUCTION
    if with_schema and schema is not None:
        system += " Graph schema:\n" + "\n".join(t.pattern() for t in schema.triples[:max_patterns])
    return [{"role": "system", "content": system}, {"role": "user", "content": question}]


class Text2CypherConfig(ModeConfig):
    max_mentions: int = Field(3, ge=1, le=20)
    """Entity mentions linked per question (each may match several nodes)."""
    max_hops: int = Field(3, ge=1, le=4)
    """Longest path from a linked entity, in relationships."""
    max_candidates: int = Field(5000, ge=1, le=200_000)
    """Bound on candidate queries per question (enumeration stops there and the trace says so)."""
    expand_beam: int = Field(64, ge=1, le=100_000)
    """Paths of one length extended by another hop: all of them when there are this many or fewer, else the most
    relevant ones (the bound that keeps dense graphs tractable; the trace counts the paths left unextended)."""
    extension_nodes: int = Field(20_000, ge=1)
    """End nodes of a path whose relationships are read to extend it."""
    extension_timeout_s: float = Field(2.0, gt=0, le=600)
    """Deadline of one path's extension read; past it the path stays unextended and a warning says so. The reads of
    paths through nodes of many thousands of relationships took the graph's full query deadline each (9 s, several
    per question on the network graph) and rarely led anywhere a question goes."""
    scoring: Literal["auto", "combined", "llm", "relevance"] = "auto"
    """``combined``: the LLM scores the ``llm_candidates`` most relevant candidates, ranked by ``relevance_weight *
    relevance + LLM log-softmax``; ``llm``: the LLM alone over every candidate (GraphRAFT as published);
    ``relevance``: the cross-encoder alone (no LLM), the shallowest path within ``depth_margin`` of the most relevant
    one first; ``auto``: ``combined`` with a tuned text2cypher adapter, else ``relevance``. Measured on MetaQA dev
    (50 per hop, unlabelled graph, untuned SmolLM2-135M, Hits@1 1/2/3-hop): relevance 50/62/68 through the service;
    offline on the same candidates (reports/experiments/issue14) relevance without the margin 52/62/68, combined
    (weight 1) 96/6/36 (the untuned LLM prefers the shortest query whatever the question), the LLM alone over the 32
    most relevant 58/0/32. With the self-tuned adapter (``python -m app tune``; 100 per hop, offline): the tuned LLM
    alone over the 32 most relevant 93/75/50, relevance with the margin 67/71/59, combined see
    ``relevance_weight``."""
    depth_margin: float = Field(0.5, ge=0.0, le=20.0)
    """``relevance`` scoring: answer with the shallowest path scoring within this of the most relevant path."""
    relevance_weight: float = Field(2.0, ge=0.0, le=100.0)
    """Weight of the relevance score (cross-encoder logit) against the LLM's log-softmax in ``combined``. With the
    self-tuned MetaQA adapter (100 per hop, offline, reports/experiments/issue14): weight 0.5 gives 90/75/72, 1 gives
    89/77/73, 2 gives 85/75/82, 4 gives 79/73/84 (read off those validation questions)."""
    llm_floor: float = Field(4.0, ge=0.0, le=1000.0)
    """``combined``: the LLM's log-softmax counts down to ``-llm_floor`` at most. A tuned 135M model is several nats
    sure of shapes it was trained on ("what are the movies written by X") when the question says something it never
    saw ("what types are the movies written by X"), and relevance and mentions should still be able to outvote it.
    Offline on the MetaQA validation questions (session-2 dump, reports/experiments/issue14/attribute_frame.py,
    with the attribute penalty), Hits@1 1/2/3-hop: no floor 95/85/92, 3 gives 95/90/95, 4 gives 95/90/95, 5 gives
    95/88/97, 6 gives 95/88/95, 8 gives 95/85/92 (read off those questions); on the movies dev and eval samples
    (movies_llm_analyse.py dumps) 3-6 change nothing."""
    shapes: bool = True
    """Also enumerate the shapes of ``app.cypher.shapes`` (counts, aggregates, property conditions from the question's
    constants, orderings, most/fewest, label-anchored questions) where the graph's labels have properties."""
    shape_paths: int = Field(4, ge=0, le=100)
    """Entity-anchored paths (the most relevant, at most 2 hops) whose answers are counted, aggregated, ordered."""
    shape_budget: int = Field(200, ge=0, le=100_000)
    """Base shapes the cross-encoder scores at most per question (0: every one): beyond it, those whose labels,
    relationship types and properties the question names least are dropped (``shapes.within_budget``). The base
    shapes grow with the schema (some 500 a question on 5 labels, 1,200 on 17), and reading them was most of a
    question's time. Measured (60 sampled per set, untuned; reports/summary.md Session 22): 300 and 150 gave Stack
    Overflow / network relaxed execution 16.7 / 30.0% at p50 2.36 / 3.34 s; 200 and 100 gave 15.0 / 31.7% at 1.74 /
    2.44 s, and movies (100 sampled) 43.1 -> 44.8%."""
    condition_budget: int = Field(100, ge=0, le=100_000)
    """Label-anchored shapes with conditions the cross-encoder scores at most per condition stage (0: every one),
    chosen as ``shape_budget`` chooses: every number of a question fits many numeric properties ("racks in zone 1
    with more than 5 machines": 650 shapes with one condition on the network graph)."""
    filter_beam: int = Field(12, ge=1, le=1000)
    """Shapes (the most relevant) given each condition the question's constants allow, per stage (two stages: one
    condition, then a second): with the base shapes, what bounds the shape candidates."""
    label_min_relevance: float = Field(-6.0, ge=-100.0, le=100.0)
    """Shapes that name no entity (label-anchored) are all dropped when the most relevant of them scores below this:
    a question about nothing in the graph ("what is the weather today?" scores about -10 against every one) gets no
    query rather than a list of some label's nodes. Read off a few such questions and the movies validation
    questions (their best label-anchored shape: -3.5 at least)."""
    constant_weight: float = Field(2.0, ge=0.0, le=100.0)
    """Added to a candidate's relevance per constant of the question it states (a linked entity, a number or quoted
    text in a condition, its limit): a query that ignores what the question states is rarely its query. Read off the
    movies validation questions (reports/experiments/issue14)."""
    mention_weight: float = Field(1.0, ge=0.0, le=100.0)
    """Added to a candidate's relevance per use of a relationship type or property key that the question mentions
    (a word sharing a stem, "directors" and ``DIRECTED``, or containing it, "screenwriters" and ``WRITTEN_BY``; a
    type used on two hops needs two such words), subtracted per use it does not mention (``shapes.mentions``).
    Offline on the validation questions (reports/experiments/issue14): MetaQA 100 per hop combined with the
    self-tuned adapter 85/75/82 -> 89/76/83 Hits@1 (one stem rule per type, before the answer preview), and with the
    preview 95/76/85 -> 95/78/90 for uses and compounds (relevance alone 83/76/73 -> 89/76/79); movies dev sample,
    relevance alone, the right answer first 12 -> 14 of 32."""
    answer_examples: int = Field(2, ge=0, le=10)
    """Example answers in a candidate's reading before the cross-encoder scores it again ("release year of entity
    directed by X, such as 1999, 2004"): on a graph without labels the examples say what kind of thing the query
    returns, which the reading alone cannot. 0 turns the preview off. Offline on the MetaQA validation questions
    (100 per hop, reports/experiments/issue14): relevance alone 74/67/55 -> 83/76/73 Hits@1, combined with the
    self-tuned adapter 89/76/83 -> 95/76/85. Only paths whose answers have no label are previewed."""
    preview_candidates: int = Field(32, ge=1, le=1000)
    """The most relevant paths without an answer label that run (a few rows each) to read their example answers."""
    llm_candidates: int = Field(16, ge=1, le=10_000)
    """Candidates the LLM scores in ``combined`` scoring (the most relevant ones)."""
    decoding: Literal["auto"] | DecodingMethod = "auto"
    """``exact``: score every candidate (tree-packed, prompt KV shared); ``best_first``: exact top-m by best-first
    search over the trie with jump-forward (few passes for a confident model; greedy completion past
    ``max_forwards``); ``beam``: beam search under the trie mask; ``greedy``: one constrained greedy decode (top-1);
    ``auto``: exact up to ``exact_max_candidates`` candidates, best-first above. ``combined`` scoring needs every
    score and always decodes ``exact``."""
    exact_max_candidates: int = Field(16, ge=1)
    """``auto`` decoding scores every candidate exactly up to this many candidates."""
    max_forwards: int = Field(48, ge=1)
    """Forward passes best-first search may spend before it completes the best hypotheses greedily."""
    top_m: int = Field(5, ge=1, le=50)
    """Queries ranked; they run in order until ``max_answers`` distinct answers are collected."""
    max_answers: int = Field(20, ge=1, le=1000)
    """Distinct answer nodes collected (one item each)."""
    answer_form: Literal["question", "names"] = "question"
    """What the top-ranked query (the trace's ``query`` and ``rows``) returns: ``names``, the answers' display values,
    the form every candidate is enumerated and scored in; ``question``, the form the question asks for
    (``shapes.answer_form``): the nodes themselves unless it asks for names or titles, opens with "who" or asks for
    something beside each answer, both ends of a pair linked twice ("who acted in and directed the same movie").
    Items are the same either way (one per answer, from the display values)."""


class LinkedMention(BaseModel):
    mention: str
    name: str
    labels: list[str]
    method: Literal["exact", "vector"]
    score: float


class RankedQuery(BaseModel):
    query: str
    score: float
    """What the ranking used (see ``Text2CypherConfig.scoring``)."""
    logprob: float | None = None
    """``log P(query + EOS | prompt)`` under the LLM; None when the LLM did not score it."""
    relevance: float | None = None
    """The cross-encoder's score of the question against the query's path read as text."""
    reading: str = ""


class ExecutedQuery(BaseModel):
    query: str
    rows: int | None = None
    error: str | None = None


class Text2CypherTrace(CypherTrace):
    links: list[LinkedMention] = Field(default_factory=list)
    """The question's entity mentions and the nodes they were linked to."""
    decoding: DecodingMethod | None = None
    """How the model chose (``auto`` resolved)."""
    ranked: list[RankedQuery] = Field(default_factory=list)
    """The top-m queries, best first, with their scores."""
    unextended: int = 0
    """Paths the ``expand_beam`` bound left unextended (they are still candidates)."""
    shapes_pruned: int = 0
    """Label-anchored shapes ``shape_budget`` and ``condition_budget`` dropped before scoring (those whose words the
    question names least)."""
    executed: list[ExecutedQuery] = Field(default_factory=list)
    """The queries that ran, in order, with their row counts or errors."""


@dataclass
class Enumeration:
    """The candidates of one question, in enumeration order, with their readings and relevance scores."""

    links: list[EntityLink]
    candidates: list[CandidateQuery | Shape] = field(default_factory=list)
    readings: list[str] = field(default_factory=list)
    """Each candidate's path as text (what the cross-encoder scores)."""
    relevance: list[float] | None = None
    """The cross-encoder's scores, or None without a reranker."""
    truncated: bool = False
    unextended: int = 0
    base_shapes: int = 0
    """Shapes before conditions were added (``filter_beam``)."""
    pruned: int = 0
    """Shapes ``shape_budget`` and ``condition_budget`` dropped unscored."""
    constants: list[int] = field(default_factory=list)
    """How many of the question's constants each candidate states (``shapes.constants_used``)."""
    lits: QuestionLiterals | None = None
    """What the question states (None without a question)."""
    mentions: list[int] = field(default_factory=list)
    """Per candidate, the schema words (relationship types, property keys) it uses that the question mentions,
    less those it does not (``shapes.mentions``), plus whether it counts when the question asks how many
    (``shapes.count_intent``), whether a ranking counts what the question's superlative names
    (``shapes.counted_intent``), whether it turns back (or takes two relationships to one node) when the question
    asks what shares something (``shapes.sharing_intent``), whether it stops at the set a question asks an attribute of
    (``shapes.attribute_frame``), whether it returns the kind the question asks for (``shapes.answer_kind``), and
    whether it orders by a year the way a time superlative asks ("the youngest": ``shapes.time_order``), and whether
    it orders where and as the question asks (``shapes.order_intent``)."""


PREVIEW_ROWS = 10
"""Rows read per previewed candidate (rows are paths: one answer may fill several)."""


def answer_of(row: dict[str, Any]) -> Any:
    """A result row's answer: its ``name`` column, else its first (a count, an aggregate, a property value)."""
    return row["name"] if "name" in row else next(iter(row.values()), None)


def example_values(rows: list[dict[str, Any]], k: int) -> list[str]:
    """Up to ``k`` distinct answers of a query's rows (``answer_of``), as text."""
    out: list[str] = []
    for row in rows:
        value = answer_of(row)
        text = example_text(value) if value is not None else ""
        if text and text not in out:
            out.append(text)
            if len(out) == k:
                break
    return out


def reading(c: CandidateQuery | Shape) -> str:
    """The candidate's path as a question would phrase it (``app.retrievers.kg.read_path``), with the kind of the
    answer: "release year of entity written by Kismet", "person directed by of Kismet (person)"; a shape as
    ``app.retrievers.shapes.shape_reading`` reads it."""
    if isinstance(c, Shape):
        return shape_reading(c)
    name = surface(c.anchor.name or "")
    kinds = [words(h.label) if h.label else "" for h in c.hops]
    if c.end is None:
        hops = [(h.rel_type, h.direction, k) for h, k in zip(c.hops, kinds, strict=True)]
        return with_kind(read_path(name, hops)[-1], kinds[-1])
    # (a)-h1-(x)-h2-(b), returning x: what x is to a, and to b
    h1, h2 = c.hops
    to_a = f"{words(h1.rel_type)} {name}" if h1.direction == "in" else f"{words(h1.rel_type)} of {name}"
    other = surface(c.end.name or "")
    to_b = f"{words(h2.rel_type)} {other}" if h2.direction == "out" else f"{words(h2.rel_type)} of {other}"
    return with_kind(f"{kinds[0] or 'entity'} {to_a} and {to_b}", kinds[0])


class Text2CypherRetriever(Retriever[Text2CypherConfig, Text2CypherTrace]):
    answers_with_nodes = True
    name = "text2cypher"
    description = "GraphRAFT: entity linking, data-grounded candidate Cypher, chosen by relevance and the LLM."
    Config = Text2CypherConfig
    Trace = Text2CypherTrace

    def __init__(self, deps: RetrieverDeps, config: Text2CypherConfig | None = None) -> None:
        super().__init__(deps, config)
        self._schemas: BuiltOnce[GraphSchema] = BuiltOnce()
        self.profiles = PropertyProfiles(deps.graph, deps.linker.profiler)
        self.shapes = ShapeEnumerator(
            deps.graph,
            self.profiles,
            filter_beam=self.config.filter_beam,
            shape_budget=self.config.shape_budget,
            condition_budget=self.config.condition_budget,
        )
        model = deps.llms.text2cypher
        self.chooser: GroundedChooser | None = model if isinstance(model, GroundedChooser) else None
        self.role_tuned = "text2cypher" in deps.llms.tuned
        """The role's own adapter (``llm.text2cypher``) serves every namespace: namespace adapters are not used."""

    def adapter_for(self, namespace: str) -> TunedAdapter | None:
        """The namespace's self-tuned adapter (``python -m app tune``), when the model can serve it."""
        if self.role_tuned or self.chooser is None:
            return None
        adapter = namespace_adapter(self.settings, namespace)
        serves = getattr(self.chooser, "serves", None)
        return adapter if adapter is not None and (serves is None or serves(adapter)) else None

    async def bring_adapter(self, namespace: str, ctx: RunContext[Text2CypherTrace] | None = None) -> None:
        """A model that serves adapters on demand (the vLLM worker: ``ensure_adapter``) gets the namespace's
        self-tuned adapter before it is asked; when it cannot serve it, the namespace stays on the base model and
        the request's warnings say why."""
        ensure = getattr(self.chooser, "ensure_adapter", None)
        if ensure is None or self.role_tuned:
            return
        adapter = namespace_adapter(self.settings, namespace)
        if adapter is None:
            return
        reason = await ensure(adapter)
        if reason is not None and ctx is not None:
            ctx.degraded(
                "llm",
                "llm",
                f"text2cypher: the LLM worker does not serve this namespace's tuned adapter ({reason}); "
                "base model used",
            )

    def tuned_for(self, namespace: str) -> bool:
        """A fine-tuned model ranks this namespace's candidates (trained on the prompt without the schema)."""
        return self.role_tuned or self.adapter_for(namespace) is not None

    def invalidate(self, namespace: str) -> None:
        self._schemas.invalidate(namespace)
        self.profiles.invalidate(namespace)

    async def schema(self, namespace: str) -> GraphSchema:
        """The graph schema the untuned model's prompt shows."""
        return await self._schemas.get(namespace, lambda: self.deps.graph.schema(namespace))

    # --- step 1 + 2 -----------------------------------------------------------------------------------------
    async def candidates(
        self, namespace: str, question: str, ctx: RunContext[Text2CypherTrace] | None = None
    ) -> tuple[list[EntityLink], list[CandidateQuery | Shape], bool]:
        """Linked entities, the candidate queries around them, and whether a bound cut them."""
        e = await self.enumerate(namespace, question, ctx)
        return e.links, e.candidates, e.truncated or e.unextended > 0

    async def enumerate(
        self, namespace: str, question: str, ctx: RunContext[Text2CypherTrace] | None = None
    ) -> Enumeration:
        ctx = ctx or RunContext(mode=self.name, trace=Text2CypherTrace())
        with ctx.stage("entity_linking"):
            links = await self.deps.linker.link(namespace, question, max_mentions=self.config.max_mentions)
        anchors = list(
            dict.fromkeys(Anchor(x.name, lab, x.key, x.number) for x in links for lab in anchor_labels(x.labels))
        )
        e = await self.enumerate_from(namespace, anchors, question, ctx)
        e.links = links
        return e

    async def enumerate_from(
        self,
        namespace: str,
        anchors: list[Anchor],
        question: str | None,
        ctx: RunContext[Text2CypherTrace] | None = None,
        rng: random.Random | None = None,
    ) -> Enumeration:
        """The candidates around ``anchors``. Without a question (self-supervised tuning) nothing is scored, and the
        ``expand_beam`` paths of one length that are extended further are drawn with ``rng`` (else the first)."""
        cfg = self.config
        ctx = ctx or RunContext(mode=self.name, trace=Text2CypherTrace())
        out = Enumeration([])
        if not anchors and (question is None or not cfg.shapes):
            return out
        relevance: list[float] | None = [] if question is not None else None

        async def add(cands: list[Any]) -> list[float] | None:
            """Read the candidates, score them with the cross-encoder, keep them."""
            nonlocal relevance
            texts = [reading(c) for c in cands]
            scores = await self.rerank_scores(question, texts, ctx) if cands and question is not None else []
            out.candidates += cands
            out.readings += texts
            relevance = None if scores is None or relevance is None else relevance + scores
            return scores if question is not None else None

        level = [CandidateQuery(a, ()) for a in anchors]
        for _ in range(cfg.max_hops if level else 0):
            failed: list[CandidateQuery] = []
            with ctx.stage("candidate_enumeration"):
                nxt = await self._extend(namespace, level, failed)
            if failed:
                out.unextended += len(failed)
                ctx.warn(f"text2cypher: {len(failed)} path(s) not extended: the graph read took too long")
            room = cfg.max_candidates - len(out.candidates)
            if len(nxt) > room:
                nxt, out.truncated = nxt[: max(0, room)], True
            scores = await add(nxt)
            if scores is not None:
                level = [nxt[i] for i in sorted(range(len(nxt)), key=lambda i: -scores[i])]
            else:
                level = rng.sample(nxt, len(nxt)) if rng is not None else nxt
            if len(level) > cfg.expand_beam:
                out.unextended += len(level) - cfg.expand_beam
                level = level[: cfg.expand_beam]
            if out.truncated or not level:
                break
        if len(anchors) > 1 and not out.truncated:
            with ctx.stage("candidate_enumeration"):
                joins = await self._connecting(namespace, anchors)
            await add(joins[: max(0, cfg.max_candidates - len(out.candidates))])
        lits = question_literals(question) if question is not None else None
        if cfg.shapes and lits is not None and not out.truncated:
            with ctx.stage("candidate_enumeration"):
                schema = await self.schema(namespace)
                profiles = await self.profiles.get(namespace, schema)
            first_k(lits, profiles)  # "the first 3 … and their release years": the earliest 3; "the top 5 movies …"
            order = list(range(len(out.candidates)))
            if relevance is not None:
                rel = relevance
                order.sort(key=lambda i: -rel[i])
            ranked = [out.candidates[i] for i in order]
            best = [c for c in ranked if isinstance(c, CandidateQuery) and c.end is None and len(c.hops) <= 2]
            entities = [CandidateQuery(a, ()) for a in anchors]
            if profiles.rels:  # what the relationship between two linked entities says: only where it says something
                with ctx.stage("candidate_enumeration"):
                    entities += await self._adjacent(namespace, anchors)
            out.base_shapes, out.pruned = await self.shapes.enumerate(
                namespace, schema, lits, best[: cfg.shape_paths], add, entities
            )
        # the same query text can arise twice (a name linked under two labels): keep the first; and drop the
        # label-anchored shapes of a question the graph knows nothing about
        unanchored = [i for i, c in enumerate(out.candidates) if isinstance(c, Shape) and c.anchor.name is None]
        off_graph = (
            relevance is not None and max((relevance[i] for i in unanchored), default=0.0) < cfg.label_min_relevance
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
            out.constants = [constants_used(c, lits) for c in out.candidates]
            assert question is not None
            out.mentions = []
            for c in out.candidates:
                hit, miss = mentions(question, schema_terms(c))
                out.mentions.append(
                    hit
                    - miss
                    + count_intent(c, lits)
                    + counted_intent(c, lits)
                    + sharing_intent(c, lits, question, miss)
                    + attribute_frame(c, lits)
                    + answer_kind(c, lits)
                    + time_order(c, lits)
                    + order_intent(c, lits)
                )
        return out

    async def _preview(
        self, namespace: str, question: str, out: Enumeration, ctx: RunContext[Text2CypherTrace]
    ) -> None:
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
                rows = await self.deps.graph.read(
                    namespace, out.candidates[i].execution_query(), {"limit": PREVIEW_ROWS}, max_rows=PREVIEW_ROWS
                )
            except AppError:
                return []
            return example_values(rows, cfg.answer_examples)

        with ctx.stage("cypher_execution"):  # the previewed candidates run
            found = await asyncio.gather(*(examples(i) for i in top))
        shown = [(i, with_examples(out.readings[i], ex)) for i, ex in zip(top, found, strict=True) if ex]
        scores = await self.rerank_scores(question, [t for _, t in shown], ctx)
        if not scores:
            return
        for (i, text), score in zip(shown, scores, strict=True):
            out.readings[i], rel[i] = text, score

    async def display(self, namespace: str) -> Display:
        """Which property names a node of each label (the namespace's schema profile)."""
        profile = await self.deps.linker.profiler.get(namespace)
        return Display.of({lab: p.display for lab, p in profile.labels.items()}, profile.display_keys())

    async def _extend(
        self, namespace: str, level: list[CandidateQuery], unextended: list[CandidateQuery]
    ) -> list[CandidateQuery]:
        """Every path of ``level`` extended by each relationship type and direction leaving its end nodes; a path
        whose extension read fails (past the query deadline, over the memory cap) goes to ``unextended``."""
        sem = asyncio.Semaphore(8)
        display = await self.display(namespace)

        async def grow(c: CandidateQuery) -> list[CandidateQuery]:
            async with sem:
                try:
                    rows = await self.deps.graph.read(
                        namespace,
                        c.extension_query(display),
                        {"nodes": self.config.extension_nodes},
                        max_rows=100_000,
                        timeout_s=self.config.extension_timeout_s,
                    )
                except (DependencyError, QueryRejectedError):  # too slow or too big: the path stays as it is
                    unextended.append(c)
                    return []
            out = []
            for h in hops_from_rows(rows, display):
                if len(c.hops) >= 2 and c.hops[-1].rel_type == c.hops[-2].rel_type == h.rel_type:
                    continue  # turning back twice on one relationship type re-finds a shorter path's answers
                out.append(CandidateQuery(c.anchor, (*c.hops, h)))
            return out

        return [c for group in await asyncio.gather(*(grow(c) for c in level)) for c in group]

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
            rows = await self.deps.graph.read(namespace, query(a, b), {"limit": limit}, max_rows=limit)
            return parse(a, b, rows)

        groups = await asyncio.gather(*(one(a, b) for a, b in pairs))
        return list(dict.fromkeys(c for g in groups for c in g))

    # --- step 3 -----------------------------------------------------------------------------------------------
    async def choose(
        self, namespace: str, question: str, e: Enumeration, ctx: RunContext[Text2CypherTrace] | None = None
    ) -> tuple[list[RankedQuery], list[int], DecodingMethod | None]:
        """The top-m candidates, best first (``RankedQuery`` each, and its index in ``e.candidates``), and how the
        LLM decoded (None when it did not run)."""
        cfg = self.config
        rel = e.relevance
        if rel is not None and e.constants:
            rel = [
                x + cfg.constant_weight * k + cfg.mention_weight * m
                for x, k, m in zip(rel, e.constants, e.mentions, strict=True)
            ]
        scoring = cfg.scoring
        if scoring != "relevance":
            await self.bring_adapter(namespace, ctx)
        adapter = self.adapter_for(namespace) if scoring != "relevance" else None
        tuned = self.role_tuned or adapter is not None
        if scoring == "auto":
            scoring = "combined" if tuned else "relevance"
        if scoring != "llm" and rel is None:
            scoring = "llm"  # no cross-encoder: the LLM alone
        if scoring != "relevance" and self.chooser is None:
            if rel is None:
                raise DependencyError("llm", "text2cypher needs a local or vLLM model that supports grounded choice")
            if ctx is not None:
                ctx.degraded("llm", "llm", "text2cypher: no grounded LLM; candidates ranked by relevance alone")
            scoring = "relevance"
        n = len(e.candidates)
        if scoring == "relevance":
            assert rel is not None
            return self._by_relevance(e, rel)
        if scoring == "llm":
            pool = list(range(n))
            method: DecodingMethod
            if cfg.decoding == "auto":
                method = "exact" if n <= cfg.exact_max_candidates else "best_first"
            else:
                method = cfg.decoding
            top = cfg.top_m
        else:
            assert rel is not None
            pool = sorted(range(n), key=lambda i: -rel[i])[: cfg.llm_candidates]
            method, top = "exact", len(pool)
        schema = await self.schema(namespace)
        messages = build_messages(schema, question, with_schema=not tuned)
        assert self.chooser is not None
        try:
            scored = await self.chooser.choose(
                messages,
                [e.candidates[i].text for i in pool],
                top_m=top,
                method=method,
                max_forwards=cfg.max_forwards,
                adapter=adapter,
            )
        except DependencyError as exc:
            if rel is None:
                raise
            if ctx is not None:  # the model failed or timed out: the cross-encoder's order still answers
                ctx.degraded("llm", "llm", f"text2cypher: the LLM's choice failed ({exc.message}); ranked by relevance")
            return self._by_relevance(e, rel)
        lp = {pool[r.index]: r.logprob for r in scored}
        if scoring == "llm":
            order = [pool[r.index] for r in scored][: cfg.top_m]
            return [self._ranked(e, i, lp[i], lp[i]) for i in order], order, method
        assert rel is not None
        norm = _logsumexp(list(lp.values())) if lp else 0.0
        combined = {i: cfg.relevance_weight * rel[i] + max(lp[i] - norm, -cfg.llm_floor) for i in lp}
        order = sorted(combined, key=lambda i: -combined[i])[: cfg.top_m]
        return [self._ranked(e, i, combined[i], lp[i]) for i in order], order, method

    def _by_relevance(
        self, e: Enumeration, rel: list[float]
    ) -> tuple[list[RankedQuery], list[int], DecodingMethod | None]:
        """The candidates by relevance alone; when the best is a path, the shallowest path within ``depth_margin`` of
        it first (a shape's size counts its operations, and a smaller shape is no likelier the answer)."""
        cfg = self.config
        order = sorted(range(len(e.candidates)), key=lambda i: -rel[i])
        kind = type(e.candidates[order[0]])
        margin = cfg.depth_margin if kind is CandidateQuery else 0.0
        near = [i for i in order if rel[i] >= rel[order[0]] - margin and isinstance(e.candidates[i], kind)]
        depth = min(e.candidates[i].size for i in near)
        first = next(i for i in near if e.candidates[i].size == depth)
        order = [first, *(i for i in order if i != first)][: cfg.top_m]
        return [self._ranked(e, i, rel[i], None) for i in order], order, None

    @staticmethod
    def _ranked(e: Enumeration, i: int, score: float, logprob: float | None) -> RankedQuery:
        return RankedQuery(
            query=e.candidates[i].text,
            score=round(score, 4),
            logprob=None if logprob is None else round(logprob, 4),
            relevance=None if e.relevance is None else round(e.relevance[i], 4),
            reading=e.readings[i],
        )

    # --- step 4 -----------------------------------------------------------------------------------------------
    async def _retrieve(self, query: RetrievalQuery, ctx: RunContext[Text2CypherTrace]) -> list[RetrievedItem]:
        ns, trace = query.namespace, ctx.trace
        e = await self.enumerate(ns, query.question, ctx)
        cands = e.candidates
        trace.links = [
            LinkedMention(mention=x.mention, name=x.name, labels=x.labels, method=x.method, score=round(x.score, 3))
            for x in e.links
        ]
        trace.candidate_queries = len(cands)
        TEXT2CYPHER_CANDIDATES.observe(len(cands))
        trace.truncated, trace.unextended, trace.shapes_pruned = e.truncated, e.unextended, e.pruned
        if not cands:
            TEXT2CYPHER_QUERIES.labels(mode=self.name, outcome="no_candidates").inc()
            trace.error = "no candidate queries"
            return []
        with ctx.stage("decoding"):
            ranked, order, method = await self.choose(ns, query.question, e, ctx)
        trace.decoding = method
        trace.ranked = ranked
        if not ranked:  # a backend that found no finite score (cannot happen with the local model)
            trace.error = "the model ranked no candidate query"
            return []
        # the ranked queries' scores as probabilities over the top-m
        top = max(r.score for r in ranked)
        weights = [math.exp(r.score - top) for r in ranked]
        total = sum(weights)
        items: list[RetrievedItem] = []
        seen: set[str] = set()
        limit = max(self.config.max_answers * 10, 50)
        ran_first = False
        with ctx.stage("cypher_execution"):
            for rank, (r, i, w) in enumerate(zip(ranked, order, weights, strict=True)):
                if len(seen) >= self.config.max_answers:
                    break
                cand = cands[i]
                try:
                    rows = await self.deps.graph.read(ns, cand.execution_query(), {"limit": limit})
                except AppError as exc:
                    TEXT2CYPHER_QUERIES.labels(mode=self.name, outcome="failed").inc()
                    trace.executed.append(ExecutedQuery(query=cand.text, error=exc.code))
                    continue
                TEXT2CYPHER_QUERIES.labels(mode=self.name, outcome="executed").inc()
                trace.executed.append(ExecutedQuery(query=cand.text, rows=len(rows)))
                if rank == 0:
                    trace.query, trace.rows = await self._answer(ns, cand, rows, e.lits, limit, ctx)
                    ran_first = True
                for row in rows:
                    answer = answer_of(row)
                    if "name" not in row:  # a count or an aggregate: one value
                        row = {"value": answer, **row}
                    if answer is None or str(answer) in seen:
                        continue
                    if len(seen) >= self.config.max_answers:
                        break
                    seen.add(str(answer))
                    items.append(self._item(ns, cand, row, w / total, r, rank))
        if not ran_first:
            trace.query, trace.rows, trace.error = ranked[0].query, [], "execution failed"
        return items

    async def _answer(
        self,
        ns: str,
        cand: CandidateQuery | Shape,
        rows: list[dict[str, Any]],
        lits: QuestionLiterals | None,
        limit: int,
        ctx: RunContext[Text2CypherTrace],
    ) -> tuple[str, list[dict[str, Any]]]:
        """The top-ranked query as the trace reports it, and its rows: in the form the question asks for
        (``answer_form``), read once more when that is not the form that ran (``rows``); the form that ran when that
        read fails."""
        final = answer_form(cand, lits) if self.config.answer_form == "question" and lits is not None else cand
        if final is not cand:  # answer_form returns the candidate itself when its form is already the one asked
            query = final.execution_query() if isinstance(final, Shape) else final.answer_query()
            try:
                return final.text, plain_rows(await self.deps.graph.read(ns, query, {"limit": limit}))
            except AppError as exc:
                ctx.warn(f"text2cypher: the query in the question's answer form failed ({exc.code})")
        if isinstance(cand, Shape):  # its rows are the answer as the query returns it
            return cand.text, rows
        names = list(dict.fromkeys(str(row["name"]) for row in rows if row.get("name") is not None))
        return cand.text, [{"name": n} for n in names]

    def _item(
        self, ns: str, cand: CandidateQuery | Shape, row: dict[str, Any], prob: float, r: RankedQuery, rank: int
    ) -> RetrievedItem:
        provenance = {
            "query": cand.text,
            "pattern": cand.pattern_text(row),
            "logprob": r.logprob,
            "relevance": r.relevance,
            "query_rank": rank + 1,
        }
        if "name" not in row:  # a count or an aggregate
            value = row["value"]
            return RetrievedItem(
                id=entity_id(f"{cand.text} = {value}"),
                text=f"{r.reading}: {value}. {cand.text}",
                score=prob,
                source=Source(kind="path", namespace=ns),
                retriever=self.name,
                provenance=provenance | {"value": value},
            )
        name = str(row["name"])
        extra = ", ".join(f"{k}: {v}" for k, v in row.items() if k not in ("name", "labels") and not k.startswith("v"))
        node_id = entity_id(name)
        return RetrievedItem(
            id=node_id,
            text=f"{surface(name)}{f' ({extra})' if extra else ''}. {r.reading}. {provenance['pattern']}",
            score=prob,
            source=Source(kind="node", node_id=node_id, node_name=name, namespace=ns),
            retriever=self.name,
            node=NodeRef(id=node_id, name=name, labels=specific_labels(row.get("labels") or [])),
            provenance=provenance,
        )


def _logsumexp(xs: Sequence[float]) -> float:
    top = max(xs)
    return top + math.log(sum(math.exp(x - top) for x in xs))
