"""Knowledge-graph building blocks shared by the graph modes (traversal, triplets, neighborhood, react): nodes by
display value, one Cypher read per expansion of a node set, edges verbalised for the cross-encoder, and items.

A node is named by its display value (``name``, else ``title``) plus the label and property that hold it, as the
entity linker reports it; its item id is ``entity_id(name)``, the id the vector mode's entity hits carry.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from app.cypher import queries as Q
from app.errors import AppError
from app.ids import entity_id
from app.retrievers.base import RetrieverDeps, RunContext
from app.retrievers.linking import EntityLink
from app.retrievers.types import NodeRef, RetrievalQuery, RetrievedItem, Source
from app.stores.graph.base import GraphStore, visible_labels
from app.stores.graph.profile import SchemaProfile
from app.stores.lexical import LexicalHit
from app.stores.vector.base import VectorHit, collection_name
from app.text import identifier_words as words
from app.text import name_spans, surface
from app.text2cypher.reading import with_kind

Direction = Literal["out", "in"]
CHUNKS = "chunks"
ENTITIES = "entities"


@dataclass(frozen=True)
class Node:
    name: str
    labels: tuple[str, ...] = ()
    key: str = "name"

    @classmethod
    def from_link(cls, link: EntityLink) -> Node:
        return cls(link.name, tuple(link.labels), link.key)

    @property
    def id(self) -> str:
        return entity_id(self.name)

    @property
    def kind(self) -> str:
        """The node's most specific label in words (``Movie`` -> ``movie``; not the generic ``Entity``), or empty."""
        specific = [lab for lab in self.labels if lab != Q.ENTITY_LABEL]
        return words(specific[0]) if specific else ""

    def text(self) -> str:
        """The node for the cross-encoder: ``{name} ({kind})``."""
        return with_kind(surface(self.name), self.kind)

    def ref(self) -> NodeRef:
        return NodeRef(id=self.id, name=self.name, labels=list(self.labels))


@dataclass(frozen=True)
class Edge:
    """``src`` is the node the expansion started from; ``direction`` is the stored direction seen from ``src``."""

    src: Node
    rel: str
    direction: Direction
    dst: Node

    @property
    def relation(self) -> tuple[str, Direction]:
        return (self.rel, self.direction)

    def text(self) -> str:
        """The triple in its stored direction: ``{subject} {relation in words} {object}``."""
        a, b = (self.src, self.dst) if self.direction == "out" else (self.dst, self.src)
        return f"{surface(a.name)} {words(self.rel)} {surface(b.name)}"


async def expand(
    graph: GraphStore,
    namespace: str,
    nodes: Iterable[Node],
    *,
    limit: int,
    profile: SchemaProfile | None = None,
    timeout_s: float | None = None,
) -> list[Edge]:
    """Every edge of ``nodes`` (both directions), at most ``limit`` per direction and (label, key) group: one read
    per group and direction, run together. The nodes reached are read by their labels' display properties
    (``profile``; without one, ``name`` else ``title``)."""
    by_label: list[tuple[str, str | None]] = []
    keys: tuple[str, ...] = ("name", "title")
    if profile is not None:  # a label whose nodes name nothing (a chunk) reads as null: not reached
        by_label = [(p.label, p.display) for p in profile.by_specificity()]
        keys = profile.display_keys() or keys
    groups: dict[tuple[str | None, str], list[Node]] = defaultdict(list)
    for n in nodes:
        groups[(n.labels[0] if n.labels else None, n.key)].append(n)
    by_name = {n.name: n for ns in groups.values() for n in ns}
    jobs = []
    for (label, key), members in groups.items():
        names = sorted({n.name for n in members})
        for d in ("out", "in"):
            q = Q.neighbours(label, key, d, by_label, keys)
            jobs.append((d, graph.read(namespace, q, {"names": names, "limit": limit}, timeout_s=timeout_s)))
    results = await asyncio.gather(*(j for _, j in jobs))
    edges: list[Edge] = []
    seen: set[tuple[str, str, str, str]] = set()
    for (d, _), rows in zip(jobs, results, strict=True):
        for r in rows:
            src = by_name.get(str(r["src"]))
            if src is None:
                continue
            dst = Node(str(r["other"]), tuple(visible_labels(r["labels"])), str(r["key"]))
            mark = (src.name, str(r["rel"]), d, dst.name)
            if mark not in seen:
                seen.add(mark)
                edges.append(Edge(src, str(r["rel"]), "out" if d == "out" else "in", dst))
    return edges


def chunk_item(hit: VectorHit | LexicalHit, namespace: str) -> RetrievedItem:
    p = hit.payload
    return RetrievedItem(
        id=hit.id,
        text=str(p.get("text", "")),
        score=hit.score,
        source=Source(kind="chunk", title=p.get("title"), chunk_id=hit.id, namespace=namespace),
        retriever="",
        provenance={
            "collection": CHUNKS,
            "page_id": p.get("page_id"),
            "chunk_index": p.get("index"),
            "section": p.get("section") or "",
            "uri": p.get("uri"),
        },
    )


def best_per_node(items: Iterable[RetrievedItem]) -> list[RetrievedItem]:
    """One item per id (node): the best-scoring one."""
    best: dict[str, RetrievedItem] = {}
    for it in items:
        if it.id not in best or it.score > best[it.id].score:
            best[it.id] = it
    return list(best.values())


def node_item(
    node: Node, score: float, text: str, namespace: str, *, kind: Literal["node", "path"] = "node", **provenance: object
) -> RetrievedItem:
    """An item about ``node`` (its id is the node's)."""
    return RetrievedItem(
        id=node.id,
        text=text,
        score=score,
        source=Source(kind=kind, node_id=node.id, node_name=node.name, namespace=namespace),
        retriever="",
        node=node.ref(),
        provenance=dict(provenance),
    )


def path_item(edges: Sequence[Edge], score: float, namespace: str, **provenance: object) -> RetrievedItem:
    """A triple or path as an item about the path's last node (the answer it proposes): the item's id is that
    node's, so a mode keeps one path per node (``best_per_node``)."""
    text = ". ".join(e.text() for e in edges)
    path = [[e.src.name, e.rel, e.direction, e.dst.name] for e in edges]
    return node_item(edges[-1].dst, score, text, namespace, kind="path", path=path, **provenance)


async def seed_nodes(deps: RetrieverDeps, query: RetrievalQuery, vector_hits: int, ctx: RunContext[Any]) -> list[Node]:
    """The linker's exact matches, then the best entity-name hits of dense search (deduplicated)."""
    ns = query.namespace
    with ctx.stage("entity_linking"):
        links = await deps.linker.link(ns, query.question)
    nodes = [Node.from_link(link) for link in links if link.method == "exact"]
    if vector_hits:
        with ctx.stage("embed"):
            vec = await deps.embedder.embed_one(query.question)
        with ctx.stage("vector_search"):
            hits = await deps.vectors.search(collection_name(ns, ENTITIES), vec, top_k=vector_hits)
        idx = await deps.linker.index(ns)
        for h in hits:
            name = str(h.payload.get("name", ""))
            nodes += [Node(n, tuple(labels), key) for n, labels, key in idx.named(name)]
    return list(dict.fromkeys(nodes))


@dataclass(frozen=True)
class Bridge:
    """A name read from a seed passage, and the chunks a dense search for the question plus that name found."""

    seed: str
    """The seed chunk's id."""
    name: str
    hits: list[VectorHit]


async def follow_names(
    deps: RetrieverDeps,
    query: RetrievalQuery,
    seeds: Sequence[tuple[str, str, str]],
    ctx: RunContext[Any],
    *,
    names_per_seed: int,
    hits_per_name: int,
) -> list[Bridge] | None:
    """The bridge hop of multi-hop questions: each seed passage ``(chunk id, title, text)`` is read for the names it
    mentions that the question does not (``app.text.name_spans``, its own title left out), and for each name one
    dense chunk search runs with the question plus that name (one embedding batch; the searches at once; timed as
    the ``bridge`` stage). None when the embedder or the vector store failed: then a warning says so."""
    reads = [
        (cid, name)
        for cid, title, text in seeds
        for name in name_spans(text, known=query.question, exclude=[title])[:names_per_seed]
    ]
    if not reads:
        return []
    coll = collection_name(query.namespace, CHUNKS)
    with ctx.stage("bridge"):
        try:
            vecs = await deps.embedder.embed(
                [deps.embedder.query_instruction + f"{query.question} {name}" for _, name in reads]
            )
        except AppError as exc:
            ctx.degraded("embedder", "embedder", f"embedder: bridge names not followed ({exc.code})")
            return None
        try:
            results = await asyncio.gather(
                *(deps.vectors.search(coll, v, top_k=hits_per_name, filters=query.filters) for v in vecs)
            )
        except AppError as exc:
            ctx.degraded(deps.vectors.backend, "vectors", f"vector store: bridge names not followed ({exc.code})")
            return None
    return [Bridge(cid, name, hits) for (cid, name), hits in zip(reads, results, strict=True)]


def best_bridge_hits(bridges: Iterable[Bridge]) -> list[tuple[VectorHit, Bridge]]:
    """Each chunk the bridge searches found, once, with its best hit and the bridge that gave it, best first; a
    seed's own chunk is left out of what its names found."""
    best: dict[str, tuple[VectorHit, Bridge]] = {}
    for b in bridges:
        for h in b.hits:
            if h.id != b.seed and (h.id not in best or h.score > best[h.id][0].score):
                best[h.id] = (h, b)
    return sorted(best.values(), key=lambda x: -x[0].score)
