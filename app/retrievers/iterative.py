"""Iterative multi-hop retrieval: retrieve → read the top passages → follow their bridge entities → retrieve again.

A multi-hop question names its first entity ("the performer of Hello Love"); the passage that answers the next hop
names an entity the question does not (the performer). So each step:

1. **retrieve**: the base mode (``hybrid`` by default) ranks passages for the question;
2. **read**: the best ``seeds`` passages not read yet are read for the names they mention that the question does not
   (``app.text.name_spans``: capitalised runs; the passage's own title and the question's words left out) — the
   candidate bridge entities;
3. **follow**: for every bridge entity one dense search with the question plus that name (one embedding batch, the
   searches at once); a passage's bridge score is its best cosine over those searches;
4. **again**: the passages found become the next step's seeds (``steps`` bounds the rounds).

The result keeps the base mode's best ``keep`` passages first, then alternates the passages each step found with the
base ranking's rest (round robin, each passage once), so a one-hop question keeps its base ranking near the top and a
multi-hop one gets its bridge passage into the top few. Every item says how it was reached (``provenance.hop``:
``0`` for the base mode, ``n`` for step ``n``, with the bridge entity and the passage that named it). No language
model is called: the reader is extractive, so a step costs one embedding batch and a few vector searches."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, Field, field_validator

from app.retrievers.base import ModeConfig, Retriever, RunContext
from app.retrievers.kg import best_bridge_hits, chunk_item, follow_names
from app.retrievers.types import ModeTrace, RetrievalQuery, RetrievedItem


class IterativeConfig(ModeConfig):
    base: str = "hybrid"
    """The mode that ranks passages for the question (a passage mode: ``hybrid``, ``vector``, ``bm25``)."""
    steps: int = Field(2, ge=1, le=4)
    """Retrieval rounds: the base mode's, then one per bridge step (1: the base mode alone)."""
    seeds: int = Field(2, ge=1, le=10)
    """Passages read per step: the best of the previous round not read yet."""
    keep: int = Field(1, ge=0, le=20)
    """The base mode's best passages placed before any passage a bridge found."""
    bridges_per_seed: int = Field(8, ge=1, le=50)
    """Names read from each seed passage (in reading order) and followed."""
    hits_per_bridge: int = Field(5, ge=1, le=50)
    """Dense hits kept per bridge search."""
    base_top_k: int = Field(40, ge=1, le=100)
    """Passages asked of the base mode (the ranking the bridge passages are interleaved with)."""

    @field_validator("base")
    @classmethod
    def _not_itself(cls, v: str) -> str:
        if v == "iterative":
            raise ValueError("the iterative mode cannot be its own base mode")
        return v


class BridgeStep(BaseModel):
    seeds: list[str] = Field(default_factory=list)
    """Chunk ids read in this step."""
    bridges: list[str] = Field(default_factory=list)
    """Names followed (question + name searches)."""
    found: int = 0
    """Passages found that no earlier round had ranked."""


class IterativeTrace(ModeTrace):
    base: str = ""
    steps: list[BridgeStep] = Field(default_factory=list)


class IterativeRetriever(Retriever[IterativeConfig, IterativeTrace]):
    name = "iterative"
    description = (
        "Multi-hop: the base mode's passages, then the passages found by following the names they mention "
        "(bounded steps, no LLM)."
    )
    Config = IterativeConfig
    Trace = IterativeTrace

    def required_modes(self) -> Sequence[str]:
        return (self.config.base,)

    async def _retrieve(self, query: RetrievalQuery, ctx: RunContext[IterativeTrace]) -> list[RetrievedItem]:
        cfg = self.config
        ctx.trace.base = cfg.base
        base = await self.call_mode(cfg.base, query.model_copy(update={"top_k": max(query.top_k, cfg.base_top_k)}), ctx)
        first = sorted(base.items, key=lambda it: -it.score)
        for it in first:
            it.provenance |= {"hop": 0, "base_score": it.score}
        ranked_ids = {it.id for it in first}
        kept = {it.id for it in first[: cfg.keep]}
        streams: list[list[RetrievedItem]] = []
        read: set[str] = set()
        frontier = first
        for step in range(1, cfg.steps):
            seeds = [it for it in frontier if it.id not in read][: cfg.seeds]
            if not seeds:
                break
            read.update(it.id for it in seeds)
            found = await self._follow(query, seeds, step, ctx)
            if found is None:
                break
            found = [it for it in found if it.id not in kept]
            ctx.trace.steps[-1].found = sum(1 for it in found if it.id not in ranked_ids)
            ranked_ids.update(it.id for it in found)
            streams.append(found)
            frontier = found
        order = interleave(first[: cfg.keep], [*streams, first[cfg.keep :]])
        n = len(order)
        for rank, it in enumerate(order):
            it.score = float(n - rank) / n
        return order

    async def _follow(
        self, query: RetrievalQuery, seeds: list[RetrievedItem], step: int, ctx: RunContext[IterativeTrace]
    ) -> list[RetrievedItem] | None:
        """One step: read the seeds' names, search question + name for each, rank the passages by best cosine
        (None when the embedder or the vector store failed: then a warning says so and earlier rounds stand)."""
        cfg = self.config
        bridges = await follow_names(
            self.deps,
            query,
            [(s.id, s.source.title or "", s.text) for s in seeds],
            ctx,
            names_per_seed=cfg.bridges_per_seed,
            hits_per_name=cfg.hits_per_bridge,
        )
        ctx.trace.steps.append(BridgeStep(seeds=[s.id for s in seeds], bridges=[b.name for b in bridges or []]))
        if bridges is None:
            ctx.warn(f"bridge step {step} unavailable; earlier rounds kept")
            return None
        out = []
        for hit, b in best_bridge_hits(bridges):
            it = chunk_item(hit, query.namespace)
            it.provenance |= {"hop": step, "bridge": b.name, "bridge_from": b.seed, "bridge_score": round(hit.score, 4)}
            out.append(it)
        return out


def interleave(head: list[RetrievedItem], streams: list[list[RetrievedItem]]) -> list[RetrievedItem]:
    """``head``, then one item from each stream in turn (round robin), each id once (its first place)."""
    out: list[RetrievedItem] = []
    seen: set[str] = set()

    def add(it: RetrievedItem) -> None:
        if it.id not in seen:
            seen.add(it.id)
            out.append(it)

    for it in head:
        add(it)
    iters = [iter(s) for s in streams]
    while iters:
        for i in list(iters):
            nxt = next(i, None)
            if nxt is None:
                iters.remove(i)
            else:
                add(nxt)
    return out
