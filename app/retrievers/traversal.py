"""Reranker-scored graph traversal (the TUM vector-vs-graph thesis, Fig. 4.8).

Seeds are the question's linked entities and its best entity-name hits of dense search, scored by the
cross-encoder. Then, repeatedly: move the best candidate into the collected set, read its neighbours (one Cypher
query per expansion) and add each as a candidate whose text is the path from its seed ("{a} {relation} {b}. ..."),
rerank the new candidates against the question, up to ``max_depth`` hops from a seed and ``budget`` expansions. The
collected paths are the items (their node is the path's last node); the bare seeds come last.
"""

from __future__ import annotations

import heapq
import itertools

from pydantic import Field

from app.retrievers.base import ModeConfig, Retriever, RunContext
from app.retrievers.kg import Edge, Node, best_per_node, expand, node_item, path_item, seed_nodes
from app.retrievers.types import ModeTrace, RetrievalQuery, RetrievedItem


class TraversalConfig(ModeConfig):
    seeds: int = Field(3, ge=1, le=50)
    """Entity-name hits of dense search added to the linked entities."""
    budget: int = Field(8, ge=1, le=200)
    """Expansions (Cypher reads) at most."""
    max_depth: int = Field(3, ge=1, le=6)
    """Hops from a seed at most."""
    neighbours: int = Field(200, ge=1, le=20_000)
    """Neighbours read per expansion (and direction)."""


class TraversalTrace(ModeTrace):
    seeds: list[str] = Field(default_factory=list)
    expanded: list[str] = Field(default_factory=list)
    """The candidates moved into the collected set, in order (``seed > ... > node``)."""
    candidates_scored: int = 0


class TraversalRetriever(Retriever[TraversalConfig, TraversalTrace]):
    answers_with_nodes = True
    name = "traversal"
    description = "Best-first graph traversal from the question's entities, every step ranked by the cross-encoder."
    Config = TraversalConfig
    Trace = TraversalTrace

    async def _retrieve(self, query: RetrievalQuery, ctx: RunContext[TraversalTrace]) -> list[RetrievedItem]:
        ns, cfg, tr = query.namespace, self.config, ctx.trace
        seeds = await seed_nodes(self.deps, query, cfg.seeds, ctx)
        tr.seeds = [n.name for n in seeds]
        if not seeds:
            return []
        seed_scores = await self.rerank_or_order(query.question, [n.text() for n in seeds], ctx)
        tick = itertools.count()
        # candidates: (-score, tiebreak, path); a path is a tuple of edges (empty for a seed)
        heap: list[tuple[float, int, Node, tuple[Edge, ...]]] = [
            (-s, next(tick), n, ()) for n, s in zip(seeds, seed_scores, strict=True)
        ]
        heapq.heapify(heap)
        collected: list[tuple[float, Node, tuple[Edge, ...]]] = []
        visited = {n.name for n in seeds}
        expanded: set[str] = set()
        for _ in range(cfg.budget):
            if not heap:
                break
            neg, _, node, path = heapq.heappop(heap)
            collected.append((-neg, node, path))
            tr.expanded.append(" > ".join([path[0].src.name, *(e.dst.name for e in path)]) if path else node.name)
            if len(path) >= cfg.max_depth or node.name in expanded:
                continue
            expanded.add(node.name)
            with ctx.stage("graph_expand"):
                edges = await expand(
                    self.deps.graph, ns, [node], limit=cfg.neighbours, profile=await self.deps.linker.profiler.get(ns)
                )
            edges = [e for e in edges if e.dst.name not in visited]
            if not edges:
                continue
            texts = [". ".join(x.text() for x in (*path, e)) for e in edges]
            scores = await self.rerank_scores(query.question, texts, ctx) or [-float(len(path) + 1)] * len(edges)
            tr.candidates_scored += len(edges)
            for e, s in zip(edges, scores, strict=True):
                visited.add(e.dst.name)
                heapq.heappush(heap, (-s, next(tick), e.dst, (*path, e)))
        items = [path_item(list(path), score, ns) for score, _node, path in collected if path]
        # candidates still waiting were scored too: they follow the collected ones
        items += [path_item(list(p), -neg - 1000.0, ns, collected=False) for neg, _, _n, p in sorted(heap) if p][
            : query.top_k
        ]
        for score, node, path in collected:
            if not path:
                items.append(node_item(node, score - 2000.0, node.text(), ns, seed=True))
        return best_per_node(items)
