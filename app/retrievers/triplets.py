"""Triplet ranking (the TUM vector-vs-graph thesis): the subgraph around the question's top nodes, every triple
verbalised "{source} {relation} {target}" and every single node ("{name} ({kind})") ranked by the cross-encoder.

Seeds are the linker's exact matches plus the best entity-name hits of dense search; the subgraph is their
``hops``-hop neighbourhood (one Cypher read per direction and hop), at most ``max_triples`` triples.
"""

from __future__ import annotations

from pydantic import Field

from app.retrievers.base import ModeConfig, Retriever, RunContext
from app.retrievers.kg import Edge, best_per_node, expand, node_item, path_item, seed_nodes
from app.retrievers.types import ModeTrace, RetrievalQuery, RetrievedItem


class TripletsConfig(ModeConfig):
    seeds: int = Field(3, ge=1, le=50)
    """Entity-name hits of dense search added to the linked entities."""
    hops: int = Field(1, ge=1, le=3)
    """Neighbourhood radius around the seeds."""
    max_triples: int = Field(300, ge=1, le=20_000)
    """Triples scored at most (the cross-encoder's budget)."""
    include_nodes: bool = True
    """Rank the single nodes too (a node can be the whole answer)."""


class TripletsTrace(ModeTrace):
    seeds: list[str] = Field(default_factory=list)
    triples: int = 0
    """Triples in the subgraph (scored: at most ``max_triples``)."""
    nodes: int = 0


class TripletsRetriever(Retriever[TripletsConfig, TripletsTrace]):
    answers_with_nodes = True
    name = "triplets"
    description = "The subgraph around the question's entities as triples, ranked by the cross-encoder."
    Config = TripletsConfig
    Trace = TripletsTrace

    async def _retrieve(self, query: RetrievalQuery, ctx: RunContext[TripletsTrace]) -> list[RetrievedItem]:
        ns, cfg = query.namespace, self.config
        seeds = await seed_nodes(self.deps, query, cfg.seeds, ctx)
        ctx.trace.seeds = [n.name for n in seeds]
        if not seeds:
            return []
        edges: list[Edge] = []
        frontier, seen = list(seeds), {n.name for n in seeds}
        with ctx.stage("graph_expand"):
            for _ in range(cfg.hops):
                new = await expand(
                    self.deps.graph,
                    ns,
                    frontier,
                    limit=cfg.max_triples,
                    profile=await self.deps.linker.profiler.get(ns),
                )
                edges += new
                frontier = [e.dst for e in new if e.dst.name not in seen]
                seen |= {n.name for n in frontier}
                if len(edges) >= cfg.max_triples or not frontier:
                    break
        edges = edges[: cfg.max_triples]
        nodes = list(dict.fromkeys([*seeds, *(e.dst for e in edges)])) if cfg.include_nodes else []
        ctx.trace.triples, ctx.trace.nodes = len(edges), len(nodes)
        texts = [e.text() for e in edges] + [n.text() for n in nodes]
        scores = await self.rerank_or_order(query.question, texts, ctx)
        items = [path_item([e], s, ns) for e, s in zip(edges, scores, strict=False)]
        items += [
            node_item(n, s, t, ns, ranked_as="node")
            for n, s, t in zip(nodes, scores[len(edges) :], texts[len(edges) :], strict=True)
        ]
        return best_per_node(items)
