"""The 1-hop neighbourhood of the question's main entity (the QALD-10 study's KG baseline).

Link the main entity (exact name match first, then vector similarity, through the shared linker); when one mention
matches several nodes, the agent LLM picks one as a constrained choice over their descriptions (it cannot name a
node that is not a candidate). Then read the node's facts (one Cypher read per direction), rank each fact
"{subject} {relation} {object}" against the question with the cross-encoder, and return the best within budget. An
item is the fact; its node is the fact's other end (the answer it proposes).
"""

from __future__ import annotations

from pydantic import Field

from app.errors import AppError
from app.llm.base import GroundedChooser
from app.retrievers.base import ModeConfig, Retriever, RunContext
from app.retrievers.kg import Node, best_per_node, expand, path_item
from app.retrievers.types import ModeTrace, RetrievalQuery, RetrievedItem


class NeighborhoodConfig(ModeConfig):
    max_facts: int = Field(400, ge=1, le=20_000)
    """Facts read per direction (the budget of one expansion)."""
    disambiguate: bool = True
    """Let the agent LLM choose when one mention matches several nodes (else the linker's first)."""


class NeighborhoodTrace(ModeTrace):
    mention: str | None = None
    """The linked mention of the main entity."""
    candidates: list[str] = Field(default_factory=list)
    """Nodes that mention matched, as offered to the disambiguation."""
    entity: str | None = None
    """The chosen node."""
    link_method: str | None = None
    """``exact`` or ``vector``."""
    chosen_by: str | None = None
    """``only``, ``llm`` or ``first`` (how the node was chosen among the candidates)."""
    facts: int = 0
    """Facts read around the node."""


class NeighborhoodRetriever(Retriever[NeighborhoodConfig, NeighborhoodTrace]):
    answers_with_nodes = True
    name = "neighborhood"
    description = "1-hop facts of the question's main entity, ranked by the cross-encoder."
    Config = NeighborhoodConfig
    Trace = NeighborhoodTrace

    async def _retrieve(self, query: RetrievalQuery, ctx: RunContext[NeighborhoodTrace]) -> list[RetrievedItem]:
        ns, tr = query.namespace, ctx.trace
        links = await self.start_links(ns, query.question, ctx)
        if not links:
            return []
        mention = links[0].mention
        same = [link for link in links if link.mention == mention]
        nodes = list(dict.fromkeys(Node.from_link(link) for link in same))
        tr.mention, tr.link_method = mention, links[0].method
        tr.candidates = [describe(n) for n in nodes]
        node = await self._choose(query.question, nodes, ctx)
        tr.entity = node.name
        with ctx.stage("graph_expand"):
            edges = await expand(
                self.deps.graph,
                ns,
                [node],
                limit=self.config.max_facts,
                profile=await self.deps.linker.profiler.get(ns),
            )
        tr.facts = len(edges)
        if not edges:
            return []
        scores = await self.rerank_or_order(query.question, [e.text() for e in edges], ctx)
        return best_per_node(path_item([e], s, ns, entity=node.name) for e, s in zip(edges, scores, strict=True))

    async def _choose(self, question: str, nodes: list[Node], ctx: RunContext[NeighborhoodTrace]) -> Node:
        if len(nodes) == 1:
            ctx.trace.chosen_by = "only"
            return nodes[0]
        chooser = self.deps.llms.agent
        if self.config.disambiguate and isinstance(chooser, GroundedChooser):
            options = [describe(n) for n in nodes]
            messages = [
                {"role": "system", "content": "Pick the graph node the question is about. Answer with the node."},
                {"role": "user", "content": f"Question: {question}\nNodes:\n" + "\n".join(options)},
            ]
            try:
                with ctx.stage("disambiguation"):
                    ranked = await chooser.choose(messages, options, top_m=1, method="exact")
            except AppError as exc:
                ctx.degraded(
                    "llm", "llm", f"agent LLM: disambiguation unavailable ({exc.code}); the linker's first node is used"
                )
            else:
                if ranked:
                    ctx.trace.chosen_by = "llm"
                    return nodes[ranked[0].index]
        ctx.trace.chosen_by = "first"
        return nodes[0]


def describe(node: Node) -> str:
    return f"{node.name} ({', '.join(node.labels)})" if node.labels else node.name
