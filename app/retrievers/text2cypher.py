"""Text2cypher with grounded constrained decoding (GraphRAFT).

1. Link the question's entity mentions to graph nodes (``linking.py``).
2. Enumerate every candidate query of the supported shapes around them from the schema, pruning candidates that
   return nothing (breadth-first: a path is only extended when its prefix has results) (``app.cypher.candidates``).
3. Let the LLM choose: the top-m distinct candidates by sequence log-probability under the token-trie constraint
   (exact scoring with a shared prompt KV cache, or beam search when there are many candidates).
4. Execute the chosen queries in order (read-only, time limit, row limit) until ``max_answers`` distinct answer
   nodes are collected; each becomes an item naming the node, with the query and the textualised path pattern as
   provenance.

Every query executed here is ``candidates[i].execution_query()`` of an enumerated candidate ``i``. The model is
``deps.llms.text2cypher`` (the answer model, or the answer model with the LoRA adapter trained by ``make
train-text2cypher``, ``GRAPHRAG_LLM__TEXT2CYPHER__ADAPTER``).
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, Field

from app.cypher.candidates import CandidateQuery, SchemaGraph
from app.cypher.candidates import Path as CandidatePath
from app.errors import AppError, DependencyError
from app.ids import entity_id
from app.llm.base import GroundedChooser, Message
from app.observability import TEXT2CYPHER_CANDIDATES, TEXT2CYPHER_QUERIES
from app.retrievers.base import ModeConfig, Retriever, RetrieverDeps, RunContext
from app.retrievers.linking import EntityLink
from app.retrievers.types import CypherTrace, NodeRef, RetrievalQuery, RetrievedItem, Source
from app.stores.graph.base import GraphSchema
from grounded import DecodingMethod, ScoredCandidate

GENERIC_LABELS = {"Entity"}
INSTRUCTION = "Write the Cypher query that answers the question."


def anchor_labels(link: EntityLink) -> list[str]:
    specific = [x for x in link.labels if x not in GENERIC_LABELS]
    return specific or list(link.labels)


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
    prune_empty: bool = True
    """Drop candidates that return nothing (existence queries, breadth-first)."""
    decoding: Literal["auto"] | DecodingMethod = "auto"
    """``exact``: score every candidate (tree-packed, prompt KV shared); ``best_first``: exact top-m by best-first
    search over the trie with jump-forward (few passes for a confident model; greedy completion past
    ``max_forwards``); ``beam``: beam search under the trie mask; ``greedy``: one constrained greedy decode (top-1);
    ``auto``: exact up to ``exact_max_candidates`` candidates, best-first above."""
    exact_max_candidates: int = Field(16, ge=1)
    """``auto`` decoding scores every candidate exactly up to this many candidates."""
    max_forwards: int = Field(48, ge=1)
    """Forward passes best-first search may spend before it completes the best hypotheses greedily."""
    top_m: int = Field(5, ge=1, le=50)
    """Queries the model ranks; they run in order until ``max_answers`` distinct answers are collected."""
    max_answers: int = Field(20, ge=1, le=1000)
    """Distinct answer nodes collected (one item each)."""


class LinkedMention(BaseModel):
    mention: str
    name: str
    labels: list[str]
    method: Literal["exact", "vector"]
    score: float


class RankedQuery(BaseModel):
    query: str
    logprob: float


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
    """The model's top-m queries, best first, with ``log P(query + EOS | prompt)``."""
    executed: list[ExecutedQuery] = Field(default_factory=list)
    """The queries that ran, in order, with their row counts or errors."""


class Text2CypherRetriever(Retriever[Text2CypherConfig, Text2CypherTrace]):
    answers_with_nodes = True
    name = "text2cypher"
    description = "GraphRAFT: entity linking, schema-grounded candidate Cypher, constrained choice by the LLM."
    Config = Text2CypherConfig
    Trace = Text2CypherTrace

    def __init__(self, deps: RetrieverDeps, config: Text2CypherConfig | None = None) -> None:
        super().__init__(deps, config)
        self._schemas: dict[str, tuple[GraphSchema, SchemaGraph]] = {}
        model = deps.llms.text2cypher
        self.chooser: GroundedChooser | None = model if isinstance(model, GroundedChooser) else None
        self.tuned = "text2cypher" in deps.llms.tuned
        """The model is a fine-tuned adapter, trained on the prompt without the schema."""

    def invalidate(self, namespace: str) -> None:
        self._schemas.pop(namespace, None)

    async def schema(self, namespace: str) -> tuple[GraphSchema, SchemaGraph]:
        if namespace not in self._schemas:
            schema = await self.deps.graph.schema(namespace)
            idx = await self.deps.linker.index(namespace)
            self._schemas[namespace] = (schema, SchemaGraph(schema.triples, idx.display_keys))
        return self._schemas[namespace]

    # --- step 1 + 2 -----------------------------------------------------------------------------------------
    async def candidates(
        self, namespace: str, question: str, ctx: RunContext[Text2CypherTrace] | None = None
    ) -> tuple[list[EntityLink], list[CandidateQuery], bool]:
        """Linked entities, the non-empty candidate queries around them, and whether the bound truncated them."""
        ctx = ctx or RunContext(mode=self.name, trace=Text2CypherTrace())
        with ctx.stage("entity_linking"):
            links = await self.deps.linker.link(namespace, question, max_mentions=self.config.max_mentions)
        if not links:
            return links, [], False
        with ctx.stage("candidate_enumeration"):
            _, sg = await self.schema(namespace)
            edges = await asyncio.gather(*(self.deps.linker.edges(namespace, link) for link in links))
            level: list[CandidatePath] = []
            for link, e in zip(links, edges, strict=True):
                level += sg.first_paths(link.name, link.key, anchor_labels(link), e)
            paths = list(level)
            truncated = False
            for _ in range(2, self.config.max_hops + 1):
                nxt = sg.extend(level)
                if len(paths) + len(nxt) > self.config.max_candidates:
                    nxt, truncated = nxt[: max(0, self.config.max_candidates - len(paths))], True
                level = await self._non_empty(namespace, nxt, lambda p: CandidateQuery(p[0], p[1]))
                paths += level
                if truncated or not level:
                    break
            cands = [CandidateQuery(a, hops) for a, hops in paths]
            connecting: list[CandidateQuery] = []
            first = [p for p in paths if len(p[1]) == 1]
            for a in links:
                for b in links:
                    if a.name == b.name:
                        continue
                    for p in first:
                        if p[0].name == a.name:
                            connecting += sg.connecting(p, b.name, b.key, anchor_labels(b))
            cands += await self._non_empty(namespace, connecting, lambda c: c)
        # the same query text can arise twice (a name linked under two labels): keep the first
        unique: dict[str, CandidateQuery] = {}
        for c in cands:
            unique.setdefault(c.text, c)
        return links, list(unique.values())[: self.config.max_candidates], truncated

    async def _non_empty(self, namespace: str, items: Sequence[Any], to_query: Any) -> list[Any]:
        if not self.config.prune_empty or not items:
            return list(items)
        sem = asyncio.Semaphore(8)

        async def ok(item: Any) -> bool:
            async with sem:
                q: CandidateQuery = to_query(item)
                return bool(await self.deps.graph.read(namespace, q.exists_query(), max_rows=1))

        flags = await asyncio.gather(*(ok(i) for i in items))
        return [i for i, f in zip(items, flags, strict=True) if f]

    # --- step 3 -----------------------------------------------------------------------------------------------
    async def choose(
        self, namespace: str, question: str, cands: list[CandidateQuery]
    ) -> tuple[list[ScoredCandidate], DecodingMethod]:
        if self.chooser is None:
            raise DependencyError("llm", "text2cypher needs a local or vLLM model that supports grounded choice")
        schema, _ = await self.schema(namespace)
        method: DecodingMethod
        if self.config.decoding == "auto":
            method = "exact" if len(cands) <= self.config.exact_max_candidates else "best_first"
        else:
            method = self.config.decoding
        messages = build_messages(schema, question, with_schema=not self.tuned)
        ranked = await self.chooser.choose(
            messages,
            [c.text for c in cands],
            top_m=self.config.top_m,
            method=method,
            max_forwards=self.config.max_forwards,
        )
        return ranked, method

    # --- step 4 -----------------------------------------------------------------------------------------------
    async def _retrieve(self, query: RetrievalQuery, ctx: RunContext[Text2CypherTrace]) -> list[RetrievedItem]:
        ns, trace = query.namespace, ctx.trace
        links, cands, truncated = await self.candidates(ns, query.question, ctx)
        trace.links = [
            LinkedMention(mention=x.mention, name=x.name, labels=x.labels, method=x.method, score=round(x.score, 3))
            for x in links
        ]
        trace.candidate_queries = len(cands)
        TEXT2CYPHER_CANDIDATES.observe(len(cands))
        trace.truncated = truncated
        if not cands:
            TEXT2CYPHER_QUERIES.labels(mode=self.name, outcome="no_candidates").inc()
            trace.error = "no candidate queries"
            return []
        with ctx.stage("decoding"):
            ranked, method = await self.choose(ns, query.question, cands)
        trace.decoding = method
        trace.ranked = [RankedQuery(query=r.text, logprob=round(r.logprob, 4)) for r in ranked]
        if not ranked:  # a backend that found no finite score (cannot happen with the local model)
            trace.error = "the model ranked no candidate query"
            return []
        # probabilities of the chosen queries, renormalised over the top-m
        top = max(r.logprob for r in ranked)
        weights = [math.exp(r.logprob - top) for r in ranked]
        total = sum(weights)
        items: list[RetrievedItem] = []
        seen: set[str] = set()
        limit = max(self.config.max_answers * 10, 50)
        ran_first = False
        with ctx.stage("cypher_execution"):
            for rank, (r, w) in enumerate(zip(ranked, weights, strict=True)):
                if len(seen) >= self.config.max_answers:
                    break
                cand = cands[r.index]
                try:
                    rows = await self.deps.graph.read(ns, cand.execution_query(), {"limit": limit})
                except AppError as exc:
                    TEXT2CYPHER_QUERIES.labels(mode=self.name, outcome="failed").inc()
                    trace.executed.append(ExecutedQuery(query=cand.text, error=exc.code))
                    continue
                TEXT2CYPHER_QUERIES.labels(mode=self.name, outcome="executed").inc()
                trace.executed.append(ExecutedQuery(query=cand.text, rows=len(rows)))
                if rank == 0:
                    names = list(dict.fromkeys(str(row["name"]) for row in rows if row.get("name") is not None))
                    trace.query, trace.rows, ran_first = cand.text, [{"name": n} for n in names], True
                for row in rows:
                    name = row.get("name")
                    if name is None or str(name) in seen or len(seen) >= self.config.max_answers:
                        continue
                    seen.add(str(name))
                    items.append(self._item(ns, cand, row, w / total, r, rank))
        if not ran_first:
            trace.query, trace.rows, trace.error = ranked[0].text, [], "execution failed"
        return items

    def _item(
        self, ns: str, cand: CandidateQuery, row: dict[str, Any], prob: float, r: ScoredCandidate, rank: int
    ) -> RetrievedItem:
        name = str(row["name"])
        labels = [x for x in row.get("labels") or [] if x not in GENERIC_LABELS and not x.startswith("_")]
        node_id = entity_id(name)
        pattern = cand.pattern_text(row)
        return RetrievedItem(
            id=node_id,
            text=f"{name}. {pattern}",
            score=prob,
            source=Source(kind="node", node_id=node_id, node_name=name, namespace=ns),
            retriever=self.name,
            node=NodeRef(id=node_id, name=name, labels=labels),
            provenance={"query": cand.text, "pattern": pattern, "logprob": r.logprob, "query_rank": rank + 1},
        )
