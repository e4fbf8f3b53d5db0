"""BM25 over a namespace's document chunks (``bm25s``), the lexical first stage beside dense search.

The index is built from the graph store's ``Page``/``Chunk`` nodes the first time a namespace is searched, kept in
memory, and dropped when the namespace is re-ingested (``invalidate``). Filters have the vector store's meaning
(``{field: value}``, ``{field: [any of]}``, ``{field: {"gte": x, ...}}``) over the same payload fields.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.concurrency import BuiltOnce
from app.cypher import queries as Q
from app.stores.graph.base import GraphStore
from app.text import STOPWORDS

log = logging.getLogger(__name__)


@dataclass
class LexicalHit:
    id: str
    score: float
    payload: dict[str, Any]


_RANGE = {
    "gt": lambda a, b: a > b,
    "gte": lambda a, b: a >= b,
    "lt": lambda a, b: a < b,
    "lte": lambda a, b: a <= b,
}


def matches(payload: Mapping[str, Any], filters: Mapping[str, Any] | None) -> bool:
    """Whether a payload satisfies vector-store style filters."""
    for key, want in (filters or {}).items():
        have = payload.get(key)
        if isinstance(want, dict):
            if have is None or not all(_RANGE[op](have, bound) for op, bound in want.items()):
                return False
        elif isinstance(want, list):
            if have not in want:
                return False
        elif have != want:
            return False
    return True


class _Index:
    def __init__(self, rows: list[dict[str, Any]]) -> None:
        import bm25s

        self.rows = rows
        self.retriever: Any = None
        if rows:  # bm25s cannot index an empty corpus
            self.retriever = bm25s.BM25()
            corpus = [f"{r.get('title') or ''} {r.get('text') or ''}" for r in rows]
            self.retriever.index(_tokenize(corpus), show_progress=False)

    def search(self, question: str, k: int) -> list[tuple[int, float]]:
        if self.retriever is None:
            return []
        k = min(k, len(self.rows))
        docs, scores = self.retriever.retrieve(_tokenize([question]), k=k, show_progress=False)
        return [(int(d), float(s)) for d, s in zip(docs[0], scores[0], strict=True) if s > 0]


def _tokenize(texts: list[str]) -> Any:
    import bm25s

    return bm25s.tokenize(texts, stopwords=sorted(STOPWORDS), show_progress=False)


class LexicalIndex:
    """BM25 indexes by namespace (built lazily from the graph, one build at a time per namespace)."""

    def __init__(self, graph: GraphStore, *, max_rows: int = 2_000_000) -> None:
        self.graph = graph
        self.max_rows = max_rows
        self._indexes: BuiltOnce[_Index] = BuiltOnce()

    def invalidate(self, namespace: str) -> None:
        self._indexes.invalidate(namespace)

    async def _build(self, namespace: str) -> _Index:
        t0 = time.perf_counter()
        rows = await self.graph.read(namespace, Q.ALL_CHUNKS, max_rows=self.max_rows, timeout_s=120)
        index = await asyncio.to_thread(_Index, rows)
        log.info("BM25 index of %r: %d chunks in %.2f s", namespace, len(rows), time.perf_counter() - t0)
        return index

    async def search(
        self, namespace: str, question: str, *, top_k: int, filters: Mapping[str, Any] | None = None
    ) -> list[LexicalHit]:
        idx = await self._indexes.get(namespace, lambda: self._build(namespace))
        # ask for more when filtering, so that top_k survive it
        want = top_k * 4 if filters else top_k
        found = await asyncio.to_thread(idx.search, question, want)
        hits = []
        for i, score in found:
            row = idx.rows[i]
            payload = {
                k: row.get(k) for k in ("title", "text", "page_id", "index", "source", "section", "section_id", "uri")
            }
            if matches(payload, filters):
                hits.append(LexicalHit(id=str(row["id"]), score=score, payload=payload))
        return hits[:top_k]
