"""An example retrieval mode: the graph nodes a question names.

The whole contract in one file: a ``Config`` with documented defaults (settings ``GRAPHRAG_MODES__LINKED_ENTITIES__*``),
a ``Trace``, and ``_retrieve``, which uses only what ``RetrieverDeps`` offers (here the service's shared entity
linker). Register it with one entry-point line (``pyproject.toml``); the service's retriever contract suite runs it.
"""

from __future__ import annotations

from pydantic import Field

from app.ids import entity_id
from app.retrievers.base import ModeConfig, Retriever, RunContext
from app.retrievers.types import ModeTrace, NodeRef, RetrievalQuery, RetrievedItem, Source


class LinkedEntitiesConfig(ModeConfig):
    max_mentions: int = Field(3, ge=1, le=20)
    """Entity mentions linked per question."""


class LinkedEntitiesTrace(ModeTrace):
    mentions: list[str] = Field(default_factory=list)
    """The spans of the question that named a node."""


class LinkedEntitiesRetriever(Retriever[LinkedEntitiesConfig, LinkedEntitiesTrace]):
    name = "linked_entities"
    description = "The graph nodes the question names (exact names first, else the closest entity names)."
    Config = LinkedEntitiesConfig
    Trace = LinkedEntitiesTrace

    async def _retrieve(self, query: RetrievalQuery, ctx: RunContext[LinkedEntitiesTrace]) -> list[RetrievedItem]:
        with ctx.stage("entity_linking"):
            links = await self.deps.linker.link(query.namespace, query.question, max_mentions=self.config.max_mentions)
        ctx.trace.mentions = list(dict.fromkeys(link.mention for link in links))
        best = max((link.score for link in links), default=1.0)
        items: dict[str, RetrievedItem] = {}
        for link in links:
            node_id = entity_id(link.name)
            items.setdefault(
                node_id,
                RetrievedItem(
                    id=node_id,
                    text=f"{link.name} ({', '.join(link.labels)})",
                    score=link.score / best,
                    source=Source(kind="node", node_id=node_id, node_name=link.name, namespace=query.namespace),
                    retriever=self.name,
                    node=NodeRef(id=node_id, name=link.name, labels=link.labels),
                    provenance={"mention": link.mention, "method": link.method},
                ),
            )
        return list(items.values())
