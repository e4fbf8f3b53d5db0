"""Text2cypher with grounded constrained decoding (GraphRAFT), on any graph: this module orchestrates the stages of
``app.text2cypher`` and holds no rules of its own.

1. Link the question's entity mentions to graph nodes (``linking.py``).
2. Enumerate the candidate queries around them and from the schema (``app.text2cypher.enumeration``), each read as a
   question phrases it (``reading``) and scored by the cross-encoder, with its features (``features``).
3. Rank (``app.text2cypher.rank``): the ranker's weighted features; with a tuned model (``scoring``), the LLM
   scores the ``llm_candidates`` best under the token-trie constraint (exact ``log P(query + EOS | prompt)``, prompt
   KV shared), and both combine.
4. Execute the top-m queries in order (read-only, time limit, row limit) until ``max_answers`` distinct answer
   nodes are collected; each becomes an item naming the node, with the query and the textualised path pattern as
   provenance. The first is also read in the form the question asks for (``answer_form``).

Every query executed here is ``candidates[i].execution_query()`` of an enumerated candidate ``i``. The model is
``deps.llms.text2cypher`` (the answer model, or the answer model with a LoRA adapter: ``make train-text2cypher``,
``GRAPHRAG_LLM__TEXT2CYPHER__ADAPTER``).
"""

from __future__ import annotations

import itertools
import math
import random
from typing import Any, Literal

from pydantic import BaseModel, Field

from app.concurrency import BuiltOnce
from app.cypher.candidates import Anchor, CandidateQuery, anchor_labels, specific_labels
from app.cypher.shapes import Shape
from app.errors import AppError, DependencyError
from app.ids import entity_id
from app.llm.adapters import TunedAdapter, namespace_adapter
from app.llm.base import GroundedChooser
from app.observability import TEXT2CYPHER_CANDIDATES, TEXT2CYPHER_QUERIES
from app.retrievers.base import Retriever, RetrieverDeps, RunContext
from app.retrievers.linking import EntityLink
from app.retrievers.types import CypherTrace, NodeRef, RetrievalQuery, RetrievedItem, Source
from app.stores.graph.base import GraphSchema, plain_rows
from app.text import surface
from app.text2cypher import lexicon, rank
from app.text2cypher.answer_form import answer_form
from app.text2cypher.config import Text2CypherConfig
from app.text2cypher.enumeration import Enumeration, Enumerator
from app.text2cypher.features import LLM, RELEVANCE
from app.text2cypher.preview import answer_of
from app.text2cypher.prompt import build_messages
from app.text2cypher.question import QuestionLiterals
from grounded import DecodingMethod

__all__ = ["Enumeration", "Text2CypherConfig", "Text2CypherRetriever", "Text2CypherTrace"]


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
    features: dict[str, float] = Field(default_factory=dict)
    """The features the ranker weighed (``app.text2cypher.features``; ``relevance``, ``llm`` where scored)."""


class ExecutedQuery(BaseModel):
    query: str
    rows: int | None = None
    error: str | None = None


class Text2CypherTrace(CypherTrace):
    links: list[LinkedMention] = Field(default_factory=list)
    """The question's entity mentions and the nodes they were linked to."""
    answered_rank: int = 0
    """Which of the ranked queries answered (``query``, ``rows``): the best-ranked one that found something."""
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
    ranker: str = ""
    """The ranker that weighed the features: the configured one (``config.ranker``, ``default``), or ``namespace``
    for the one ``tune`` installed beside the namespace's adapter."""


def found(rows: list[dict[str, Any]]) -> bool:
    """Whether a query's rows say something: a row with a value that is not null."""
    return any(v is not None for row in rows for v in row.values())


class Text2CypherRetriever(Retriever[Text2CypherConfig, Text2CypherTrace]):
    answers_with_nodes = True
    name = "text2cypher"
    description = "GraphRAFT: entity linking, data-grounded candidate Cypher, chosen by relevance and the LLM."
    Config = Text2CypherConfig
    Trace = Text2CypherTrace

    def __init__(self, deps: RetrieverDeps, config: Text2CypherConfig | None = None) -> None:
        super().__init__(deps, config)
        self._schemas: BuiltOnce[GraphSchema] = BuiltOnce()
        lexicon.load(self.config.lexicon)  # a missing or malformed lexicon or ranker fails at start-up
        rank.load(self.config.ranker)
        self.enumerator = Enumerator(
            deps.graph, deps.linker.profiler, lambda: self.config, self.schema, self.rerank_scores
        )
        self.profiles = self.enumerator.profiles
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

    def ranker_for(self, adapter: TunedAdapter | None) -> rank.Ranker | None:
        """The tuned ranker beside a namespace's ``adapter`` (the one ``adapter_for`` found in use: ``tune`` fits it
        on held-back pairs, how much the tuned LLM counts), when ``namespace_ranker`` is on."""
        if adapter is None or not self.config.namespace_ranker:
            return None
        return rank.load_file(adapter.path / rank.RANKER_FILE)

    def tuned_for(self, namespace: str) -> bool:
        """A fine-tuned model ranks this namespace's candidates (trained on the prompt without the schema)."""
        return self.role_tuned or self.adapter_for(namespace) is not None

    @property
    def lex(self) -> lexicon.Lexicon:
        """The language questions are read in (``config.lexicon``)."""
        return self.enumerator.lex

    @property
    def ranker(self) -> rank.Ranker:
        """The ranking features' weights (``config.ranker``)."""
        return rank.load(self.config.ranker)

    def invalidate(self, namespace: str) -> None:
        self._schemas.invalidate(namespace)
        self.profiles.invalidate(namespace)

    async def schema(self, namespace: str) -> GraphSchema:
        """The graph schema the untuned model's prompt shows."""
        return await self._schemas.get(namespace, lambda: self.deps.graph.schema(namespace))

    async def prepare(self, namespace: str) -> None:
        await self.profiles.get(namespace, await self.schema(namespace))
        await self.enumerator.display(namespace)

    # --- steps 1 + 2 ------------------------------------------------------------------------------------------
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
        display = await self.enumerator.display(namespace)
        anchors = list(
            dict.fromkeys(
                Anchor(
                    x.name, lab, x.key, x.number, own if (own := display.key_of(lab, x.key)) != x.key else "", x.also
                )
                for x in links
                for lab in anchor_labels(x.labels)
            )
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
        """The candidates around ``anchors`` (``Enumerator.enumerate_from``)."""
        ctx = ctx or RunContext(mode=self.name, trace=Text2CypherTrace())
        return await self.enumerator.enumerate_from(namespace, anchors, question, ctx, rng)

    # --- step 3 -----------------------------------------------------------------------------------------------
    def scores(self, e: Enumeration, ranker: rank.Ranker | None = None) -> list[float] | None:
        """Each candidate's score by ``ranker`` (default: the mode's) over its features and relevance; the relevance
        alone where the candidates have no features (no question), None without a cross-encoder."""
        if e.relevance is None or not e.features:
            return e.relevance
        feats = [f | {RELEVANCE: r} for f, r in zip(e.features, e.relevance, strict=True)]
        return (ranker or self.ranker).scores(feats)

    def order(self, e: Enumeration, scores: list[float], top: int) -> list[int]:
        """The ``top`` candidates by score alone, best first (``rank.by_score``: the shallowest path within
        ``depth_margin`` of the best first), without copies of a query ranked above (``distinct``)."""
        sizes = [c.size for c in e.candidates]
        paths = [isinstance(c, CandidateQuery) for c in e.candidates]
        return distinct(e, rank.by_score(scores, sizes, paths, self.config.depth_margin, top))

    async def choose(
        self, namespace: str, question: str, e: Enumeration, ctx: RunContext[Text2CypherTrace] | None = None
    ) -> tuple[list[RankedQuery], list[int], DecodingMethod | None]:
        """The top-m candidates, best first (``RankedQuery`` each, and its index in ``e.candidates``), and how the
        LLM decoded (None when it did not run)."""
        cfg = self.config
        rel = self.scores(e)
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
        own = self.ranker_for(adapter) if scoring == "combined" and e.features and rel is not None else None
        if ctx is not None:
            ctx.trace.ranker = "namespace" if own is not None else self.ranker.name
        weigh = own or self.ranker  # what weighs the features and the LLM: the namespace's ranker, else the mode's
        if scoring == "combined" and not weigh.weights.get(LLM):
            # tuning found no weight on the tuned LLM that did no harm, or the mode's ranker gives it none
            if own is None and ctx is not None:
                ctx.warn(f"text2cypher: ranker {self.ranker.name!r} gives the LLM no weight; ranked without it")
            scoring = "relevance"
        n = len(e.candidates)
        if scoring == "relevance":
            assert rel is not None
            return self._by_score(e, rel)
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
            return self._by_score(e, rel)
        lp = {pool[r.index]: r.logprob for r in scored}
        if scoring == "llm":
            order = distinct(e, [pool[r.index] for r in scored][: cfg.top_m])
            return [self._ranked(e, i, lp[i], lp[i]) for i in order], order, method
        assert rel is not None
        llm = rank.log_softmax(lp, cfg.llm_floor)
        assert e.relevance is not None
        ids = list(lp)  # the features and the LLM weighed by the ranker's weights, ``llm`` among them
        feats = [(e.features[i] if e.features else {}) | {RELEVANCE: e.relevance[i], LLM: llm[i]} for i in ids]
        combined = dict(zip(ids, weigh.scores(feats), strict=True))
        order = distinct(e, sorted(combined, key=lambda i: -combined[i])[: cfg.top_m])
        return [self._ranked(e, i, combined[i], lp[i], llm[i]) for i in order], order, method

    def _by_score(self, e: Enumeration, scores: list[float]) -> tuple[list[RankedQuery], list[int], None]:
        """The top-m candidates by the ranker's score alone (``order``)."""
        order = self.order(e, scores, self.config.top_m)
        return [self._ranked(e, i, scores[i], None) for i in order], order, None

    @staticmethod
    def _ranked(e: Enumeration, i: int, score: float, logprob: float | None, llm: float | None = None) -> RankedQuery:
        feats = dict(e.features[i]) if e.features else {}
        if e.relevance is not None:
            feats[RELEVANCE] = e.relevance[i]
        if llm is not None:
            feats[LLM] = llm
        return RankedQuery(
            query=e.candidates[i].text,
            score=round(score, 4),
            logprob=None if logprob is None else round(logprob, 4),
            relevance=None if e.relevance is None else round(e.relevance[i], 4),
            reading=e.readings[i],
            features={k: round(v, 4) for k, v in feats.items() if v},
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
        # the ranked queries' scores as probabilities over the top-m, never more for a query than for one ranked
        # before it: the order may put a shallower path first (``rank.by_score``), and items are sorted by score
        top = max(r.score for r in ranked)
        weights = list(itertools.accumulate((math.exp(r.score - top) for r in ranked), min))
        total = sum(weights)
        items: list[RetrievedItem] = []
        seen: set[str] = set()
        limit = max(self.config.max_answers * 10, 50)
        ran_first = False
        first: tuple[CandidateQuery | Shape, list[dict[str, Any]]] | None = None  # the best query, if all find nothing
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
                # the answer is the best-ranked query that finds something (execution-guided): a query that finds
                # nothing where the next one finds rows has usually joined what the data never joins
                if not ran_first and found(rows):
                    trace.query, trace.rows = await self.answer_rows(ns, cand, rows, e.lits, limit, ctx)
                    ran_first = True
                    trace.answered_rank = rank
                elif first is None:
                    first = (cand, rows)
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
        if not ran_first and first is not None:  # nothing found anywhere: the best query's empty answer
            trace.query, trace.rows = await self.answer_rows(ns, first[0], first[1], e.lits, limit, ctx)
            ran_first = True
        if not ran_first:
            trace.query, trace.rows, trace.error = ranked[0].query, [], "execution failed"
        return items

    async def answer_rows(
        self,
        ns: str,
        cand: CandidateQuery | Shape,
        rows: list[dict[str, Any]],
        lits: QuestionLiterals | None,
        limit: int,
        ctx: RunContext[Text2CypherTrace],
    ) -> tuple[str, list[dict[str, Any]]]:
        """The top-ranked query as the trace reports it, and its rows (``answer_rows`` at most, ``rows_truncated``
        set when there were more): in the form the question asks for (``answer_form``), read once more when that is
        not the form that ran (``rows``) or when ``limit`` may have cut the rows that ran short; the form that ran,
        as it ran, when that read fails."""
        final = cand
        if self.config.answer_form == "question" and lits is not None:
            final = answer_form(cand, lits, await self.profiles.get(ns, await self.schema(ns)))
        cap = self.config.answer_rows
        # answer_form returns the candidate itself when its form is already the one asked
        if final is not cand or (len(rows) >= limit and cap > limit):
            query = final.execution_query() if isinstance(final, Shape) else final.answer_query()
            try:
                read = plain_rows(await self.deps.graph.read(ns, query, {"limit": cap + 1}))
                if found(read) or not found(rows):
                    ctx.trace.rows_truncated = len(read) > cap
                    return final.answer_text, read[:cap]
                # the form asked for found nothing where the form that ran found answers (a "first 3" taken in the
                # order of a date some answers lack): the answers as they ran
                ctx.warn("text2cypher: the question's answer form found nothing; the answers are the query's as it ran")
            except AppError as exc:
                ctx.warn(f"text2cypher: the query in the question's answer form failed ({exc.code})")
        answer = rows  # a shape's rows are the answer as the query returns it
        if not isinstance(cand, Shape):  # each name once, as the query reported (``answer_text``) reads them
            names = list(dict.fromkeys(str(row["name"]) for row in rows if row.get("name") is not None))
            answer = [{"name": n} for n in names]
        # more than the cap, or as many as ``limit`` let run (there may have been more)
        ctx.trace.rows_truncated = len(answer) > cap or len(rows) >= limit
        return cand.answer_text, answer[:cap]

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


def distinct(e: Enumeration, order: list[int]) -> list[int]:
    """``order`` without the copies of a query ranked above them (``same_query``: the enumeration may reach one query
    twice, two conditions added in either order, and the copy would run again and find the same rows). The places
    they held are not filled from further down: a query further down that finds rows would take the place of an
    answer that is rightly empty."""
    firsts: dict[str, int] = {}
    for i in order:
        firsts.setdefault(e.candidates[i].same_query, i)
    return list(firsts.values())
