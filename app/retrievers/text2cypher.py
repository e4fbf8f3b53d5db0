"""Text2cypher with grounded constrained decoding (GraphRAFT).

1. Link the question's entity mentions to graph nodes (``linking.py``).
2. Enumerate every candidate query of the supported shapes around them from the schema, pruning candidates that
   return nothing (breadth-first: a path is only extended when its prefix has results) (``app.cypher.candidates``).
3. Let the LLM choose: the top-m distinct candidates by sequence log-probability under the token-trie constraint
   (exact scoring with a shared prompt KV cache, or beam search when there are many candidates).
4. Execute the chosen queries in order (read-only, time limit, row limit) until ``max_answers`` distinct answer
   nodes are collected; each becomes an item naming the node, with the query and the textualised path pattern as
   provenance.

Every query executed here is ``candidates[i].execution_query()`` of an enumerated candidate ``i``.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Sequence
from typing import Any

from app.cypher.candidates import CandidateQuery, SchemaGraph
from app.cypher.candidates import Path as CandidatePath
from app.errors import AppError, DependencyError
from app.ids import entity_id
from app.llm.base import GroundedChooser, Message, RankedQuery
from app.observability import TEXT2CYPHER_CANDIDATES, TEXT2CYPHER_QUERIES
from app.retrievers.base import Retriever, RetrieverDeps, RunContext
from app.retrievers.linking import EntityLink, EntityLinker
from app.retrievers.registry import register
from app.retrievers.types import NodeRef, RetrievalQuery, RetrievedItem, Source
from app.stores.graph.base import GraphSchema

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


@register
class Text2CypherRetriever(Retriever):
    name = "text2cypher"
    description = "GraphRAFT: entity linking, schema-grounded candidate Cypher, constrained choice by the LLM."
    produces_cypher = True

    def __init__(self, deps: RetrieverDeps) -> None:
        super().__init__(deps)
        cfg = self.settings.text2cypher
        self.cfg = cfg
        self.linker = EntityLinker(deps.graph, deps.vectors, deps.embedder, max_mentions=cfg.max_mentions)
        self._schemas: dict[str, tuple[GraphSchema, SchemaGraph]] = {}
        self.chooser: GroundedChooser | None = deps.text2cypher_llm or (
            deps.llm if isinstance(deps.llm, GroundedChooser) else None
        )

    def invalidate(self, namespace: str) -> None:
        self.linker.invalidate(namespace)
        self._schemas.pop(namespace, None)

    async def schema(self, namespace: str) -> tuple[GraphSchema, SchemaGraph]:
        if namespace not in self._schemas:
            schema = await self.deps.graph.schema(namespace)
            idx = await self.linker.index(namespace)
            self._schemas[namespace] = (schema, SchemaGraph(schema.triples, idx.display_keys))
        return self._schemas[namespace]

    # --- step 1 + 2 -----------------------------------------------------------------------------------------
    async def candidates(
        self, namespace: str, question: str, ctx: RunContext | None = None
    ) -> tuple[list[EntityLink], list[CandidateQuery], bool]:
        """Linked entities, the non-empty candidate queries around them, and whether the bound truncated them."""
        ctx = ctx or RunContext(mode=self.name)
        with ctx.stage("entity_linking"):
            links = await self.linker.link(namespace, question)
        if not links:
            return links, [], False
        with ctx.stage("candidate_enumeration"):
            _, sg = await self.schema(namespace)
            edges = await asyncio.gather(*(self.linker.edges(namespace, link) for link in links))
            level: list[CandidatePath] = []
            for link, e in zip(links, edges, strict=True):
                level += sg.first_paths(link.name, link.key, anchor_labels(link), e)
            paths = list(level)
            truncated = False
            for _ in range(2, self.cfg.max_hops + 1):
                nxt = sg.extend(level)
                if len(paths) + len(nxt) > self.cfg.max_candidates:
                    nxt, truncated = nxt[: max(0, self.cfg.max_candidates - len(paths))], True
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
        return links, list(unique.values())[: self.cfg.max_candidates], truncated

    async def _non_empty(self, namespace: str, items: Sequence[Any], to_query: Any) -> list[Any]:
        if not self.cfg.prune_empty or not items:
            return list(items)
        sem = asyncio.Semaphore(8)

        async def ok(item: Any) -> bool:
            async with sem:
                q: CandidateQuery = to_query(item)
                return bool(await self.deps.graph.read(namespace, q.exists_query(), max_rows=1))

        flags = await asyncio.gather(*(ok(i) for i in items))
        return [i for i, f in zip(items, flags, strict=True) if f]

    # --- step 3 -----------------------------------------------------------------------------------------------
    async def choose(self, namespace: str, question: str, cands: list[CandidateQuery]) -> tuple[list[RankedQuery], str]:
        if self.chooser is None:
            raise DependencyError("llm", "text2cypher needs a local or vLLM model that supports grounded choice")
        schema, _ = await self.schema(namespace)
        method = self.cfg.decoding
        if method == "auto":
            method = "exact" if len(cands) <= self.cfg.exact_max_candidates else "best_first"
        messages = build_messages(schema, question, with_schema=self.cfg.adapter is None)
        ranked = await self.chooser.choose(
            messages, [c.text for c in cands], top_m=self.cfg.top_m, method=method, max_forwards=self.cfg.max_forwards
        )
        return ranked, method

    # --- step 4 -----------------------------------------------------------------------------------------------
    async def _retrieve(self, query: RetrievalQuery, ctx: RunContext) -> list[RetrievedItem]:
        ns = query.namespace
        links, cands, truncated = await self.candidates(ns, query.question, ctx)
        ctx.trace["links"] = [
            {"mention": x.mention, "name": x.name, "labels": x.labels, "method": x.method, "score": round(x.score, 3)}
            for x in links
        ]
        ctx.trace["candidate_queries"] = len(cands)
        TEXT2CYPHER_CANDIDATES.observe(len(cands))
        ctx.trace["truncated"] = truncated
        if not cands:
            TEXT2CYPHER_QUERIES.labels(mode=self.name, outcome="no_candidates").inc()
            ctx.trace["cypher"] = {"query": None, "rows": [], "error": "no candidate queries"}
            return []
        with ctx.stage("decoding"):
            ranked, method = await self.choose(ns, query.question, cands)
        ctx.trace["decoding"] = method
        ctx.trace["ranked"] = [{"query": r.text, "logprob": round(r.logprob, 4)} for r in ranked]
        # probabilities of the chosen queries, renormalised over the top-m
        top = max(r.logprob for r in ranked)
        weights = [math.exp(r.logprob - top) for r in ranked]
        total = sum(weights)
        items: list[RetrievedItem] = []
        seen: set[str] = set()
        executed: list[dict[str, Any]] = []
        limit = max(self.cfg.max_answers * 10, 50)
        with ctx.stage("cypher_execution"):
            for rank, (r, w) in enumerate(zip(ranked, weights, strict=True)):
                if len(seen) >= self.cfg.max_answers:
                    break
                cand = cands[r.index]
                try:
                    rows = await self.deps.graph.read(ns, cand.execution_query(), {"limit": limit})
                except AppError as exc:
                    TEXT2CYPHER_QUERIES.labels(mode=self.name, outcome="failed").inc()
                    executed.append({"query": cand.text, "error": exc.code})
                    continue
                TEXT2CYPHER_QUERIES.labels(mode=self.name, outcome="executed").inc()
                executed.append({"query": cand.text, "rows": len(rows)})
                if rank == 0:
                    names = list(dict.fromkeys(str(row["name"]) for row in rows if row.get("name") is not None))
                    ctx.trace["cypher"] = {"query": cand.text, "rows": [{"name": n} for n in names], "error": None}
                for row in rows:
                    name = row.get("name")
                    if name is None or str(name) in seen or len(seen) >= self.cfg.max_answers:
                        continue
                    seen.add(str(name))
                    items.append(self._item(ns, cand, row, w / total, r, rank))
        ctx.trace["executed"] = executed
        ctx.trace.setdefault("cypher", {"query": ranked[0].text, "rows": [], "error": "execution failed"})
        return items

    def _item(
        self, ns: str, cand: CandidateQuery, row: dict[str, Any], prob: float, r: RankedQuery, rank: int
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
