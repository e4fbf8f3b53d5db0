"""Ingestion: parsed triples, documents and Cypher scripts -> graph nodes/relationships + vector collections.

Idempotent: ids are deterministic, graph writes are MERGEs, vector points are upserts by id, unchanged vector
points are not re-embedded, and a Cypher script that already ran (same SHA-256) is not run again.
"""

from __future__ import annotations

import asyncio
import hashlib
import inspect
import logging
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.cypher import queries as Q
from app.errors import InvalidInputError, NotFoundError
from app.ids import chunk_id, entity_id, page_id
from app.ingest.parsers import (
    Document,
    Triple,
    chunk_document,
    load_label_map,
    normalise_relation,
    parse_schema_statement,
    read_documents,
    read_triples,
    split_cypher_script,
)
from app.models.embedder import Embedder
from app.observability import INGESTED
from app.settings import Settings
from app.stores.graph.base import GraphStore, check_namespace
from app.stores.vector.base import VectorPoint, VectorStore, collection_name

log = logging.getLogger(__name__)

TRIPLE_FORMATS = ("metaqa", "tsv", "csv")
FORMATS = (*TRIPLE_FORMATS, "documents", "cypher")
Progress = Callable[[str, int, int], None]
"""progress(stage, done, total)"""


@dataclass
class IngestReport:
    namespace: str
    format: str
    counts: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    def add(self, key: str, n: int) -> None:
        self.counts[key] = self.counts.get(key, 0) + int(n)


def _noop(stage: str, done: int, total: int) -> None:
    return None


def source_digest(fmt: str, path: Path, labels_file: Path | None) -> str:
    """SHA-256 over the format, the label map and every file of the source (sorted), for skip-if-unchanged."""
    h = hashlib.sha256(f"{fmt}\n".encode())
    files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    for f in [*([labels_file] if labels_file else []), *files]:
        h.update(f.name.encode())
        with open(f, "rb") as fh:
            while block := fh.read(1 << 20):
                h.update(block)
    return h.hexdigest()


class Ingestor:
    def __init__(self, settings: Settings, graph: GraphStore, vectors: VectorStore, embedder: Embedder) -> None:
        self.settings = settings
        self.graph = graph
        self.vectors = vectors
        self.embedder = embedder
        self.on_change: list[Callable[[str], Awaitable[object] | None]] = []
        """Called with the namespace after every ingest (retrievers drop their caches, the result cache bumps the
        namespace's version); coroutine callbacks are awaited before the ingest returns."""

    async def _changed(self, namespace: str) -> None:
        for callback in self.on_change:
            result = callback(namespace)
            if inspect.isawaitable(result):
                await result

    # --- public entry points --------------------------------------------------------------------------------
    async def ingest_path(
        self,
        namespace: str,
        fmt: str,
        path: Path,
        *,
        labels_path: Path | None = None,
        progress: Progress = _noop,
        force: bool = False,
    ) -> IngestReport:
        """Ingest a file or folder. A source already ingested into this namespace (same bytes, format and label
        map) is skipped unless ``force``; the per-item idempotency below makes a forced re-run cheap anyway."""
        if fmt not in FORMATS:
            raise InvalidInputError(f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}")
        if not await asyncio.to_thread(path.exists):
            raise InvalidInputError(f"{path} does not exist")
        check_namespace(namespace)
        labels_file = labels_path
        sha = await asyncio.to_thread(source_digest, fmt, path, labels_file)
        if not force and await self.graph.read(namespace, Q.INGEST_LOG_FIND, {"sha": sha}):
            return IngestReport(namespace, fmt, {"sources_unchanged": 1})
        if fmt in TRIPLE_FORMATS:
            labels = load_label_map(labels_file)
            triples = await asyncio.to_thread(read_triples, path, fmt)
            report = await self.ingest_triples(namespace, triples, labels, fmt=fmt, progress=progress)
        elif fmt == "documents":
            docs = await asyncio.to_thread(read_documents, path)
            report = await self.ingest_documents(namespace, docs, progress=progress)
        else:
            script = await asyncio.to_thread(path.read_text, encoding="utf-8")
            report = await self.ingest_cypher(namespace, script, progress=progress)
        await self.graph.execute(namespace, Q.INGEST_LOG_ADD, {"sha": sha, "kind": fmt})
        return report

    async def ingest_triples(
        self,
        namespace: str,
        triples: Sequence[Triple],
        labels: dict[str, tuple[str, str]] | None = None,
        *,
        fmt: str = "triples",
        progress: Progress = _noop,
    ) -> IngestReport:
        check_namespace(namespace)
        t0 = time.perf_counter()
        report = IngestReport(namespace, fmt)
        labels = labels or {}
        node_labels: dict[str, set[str]] = defaultdict(set)
        by_type: dict[str, list[dict[str, str]]] = defaultdict(list)
        seen: set[tuple[str, str, str]] = set()
        for t in triples:
            key = (t.subject, t.relation, t.object)
            if key in seen:
                continue
            seen.add(key)
            # labels only from a labels file: none are guessed from relation names (candidate queries on an
            # unlabelled graph are built from relationship types and directions)
            s_label, o_label = labels.get(t.relation, (None, None))
            node_labels.setdefault(t.subject, set())
            node_labels.setdefault(t.object, set())
            if s_label:
                node_labels[t.subject].add(s_label)
            if o_label:
                node_labels[t.object].add(o_label)
            by_type[normalise_relation(t.relation)].append({"s": t.subject, "o": t.object})
        report.add("triples", len(seen))
        report.add("entities", len(node_labels))

        await self.graph.ensure_node_index(namespace, Q.ENTITY_LABEL, "name")
        # nodes grouped by label (labels cannot be parameters); a node with several labels gets each
        groups: dict[str | None, list[dict[str, str]]] = defaultdict(list)
        for name, labs in node_labels.items():
            row = {"name": name, "id": entity_id(name)}
            label_list: list[str | None] = [*sorted(labs)] or [None]
            for lab in label_list:
                groups[lab].append(row)
        # one write per label / relationship type, each batched by the store; progress counts rows over all
        writes = [(Q.merge_entities(lab), rows, "nodes_created") for lab, rows in groups.items()]
        writes += [(Q.merge_relationships(t), rows, "relationships_created") for t, rows in by_type.items()]
        total_rows = sum(len(rows) for _, rows, _ in writes)
        done = 0
        step = self.settings.graph.write_batch_size
        for cypher, rows, counter in writes:
            for i in range(0, len(rows), step):
                s = await self.graph.write(namespace, cypher, rows[i : i + step])
                report.add(counter, getattr(s, counter))
                done += len(rows[i : i + step])
                progress("graph", done, total_rows)

        entities = [
            VectorPoint(
                id=entity_id(name),
                vector=[],
                payload={"name": name, "node_id": entity_id(name), "labels": sorted(labs)},
            )
            for name, labs in node_labels.items()
        ]
        await self._embed_and_upsert(namespace, "entities", entities, lambda p: p.payload["name"], report, progress)
        INGESTED.labels(kind="triples").inc(len(seen))
        report.seconds = round(time.perf_counter() - t0, 3)
        await self._changed(namespace)
        return report

    async def ingest_documents(
        self, namespace: str, documents: Sequence[Document], *, progress: Progress = _noop
    ) -> IngestReport:
        check_namespace(namespace)
        t0 = time.perf_counter()
        report = IngestReport(namespace, "documents")
        by_key: dict[str, Document] = {}
        for d in documents:
            if not d.text.strip():
                continue
            by_key[d.doc_key] = d  # the last document of a key wins, as a re-ingest would
        await self.graph.ensure_node_index(namespace, Q.PAGE_LABEL, "id")
        await self.graph.ensure_node_index(namespace, Q.CHUNK_LABEL, "id")
        pages, chunks, links, points = [], [], [], []
        size, overlap = self.settings.ingest.chunk_chars, self.settings.ingest.chunk_overlap
        chunk_counts: dict[str, int] = {}
        for key, doc in by_key.items():
            title = doc.title
            pid = page_id(key)
            pages.append({"id": pid, "title": title, "source": doc.source})
            doc_chunks = chunk_document(doc, size, overlap)
            chunk_counts[pid] = len(doc_chunks)
            prev = None
            for c in doc_chunks:
                cid = chunk_id(key, c.index)
                chunks.append({"id": cid, "page_id": pid, "text": c.text, "index": c.index})
                points.append(
                    VectorPoint(
                        id=cid,
                        vector=[],
                        payload={
                            "title": title,
                            "text": c.text,
                            "page_id": pid,
                            "index": c.index,
                            "source": doc.source,
                        },
                    )
                )
                if prev is not None:
                    links.append({"a": prev, "b": cid})
                prev = cid
        report.add("documents", len(pages))
        report.add("chunks", len(chunks))
        progress("graph", 0, len(pages) + len(chunks))
        # a re-ingested document that got shorter must not keep its old tail
        before = await self.graph.read(
            namespace,
            Q.PAGE_CHUNK_COUNTS,
            {"ids": list(chunk_counts)},
            max_rows=len(chunk_counts) + 1,
            timeout_s=self.settings.graph.write_timeout_s,
        )
        shrunk = [
            {"page_id": r["pid"], "count": chunk_counts[r["pid"]]}
            for r in before
            if int(r["n"]) > chunk_counts[r["pid"]]
        ]
        if shrunk:
            await self.graph.write(namespace, Q.DELETE_STALE_CHUNKS, shrunk)
            coll = collection_name(namespace, "chunks")
            for row in shrunk:
                await self.vectors.delete(coll, {"page_id": row["page_id"], "index": {"gte": row["count"]}})
            report.add("stale_chunks_pages", len(shrunk))
        s = await self.graph.write(namespace, Q.MERGE_PAGES, pages)
        report.add("nodes_created", s.nodes_created)
        s = await self.graph.write(namespace, Q.MERGE_CHUNKS, chunks)
        report.add("nodes_created", s.nodes_created)
        await self.graph.write(namespace, Q.LINK_NEXT_CHUNKS, links)
        progress("graph", len(pages) + len(chunks), len(pages) + len(chunks))
        await self._embed_and_upsert(namespace, "chunks", points, lambda p: p.payload["text"], report, progress)
        INGESTED.labels(kind="documents").inc(len(pages))
        report.seconds = round(time.perf_counter() - t0, 3)
        await self._changed(namespace)
        return report

    async def list_documents(self, namespace: str, *, offset: int = 0, limit: int = 100) -> list[dict[str, Any]]:
        """The namespace's documents: ``id`` (the page id that items' provenance carries as ``page_id``), ``title``,
        ``source`` and ``chunks``, ordered by title."""
        check_namespace(namespace)
        rows = await self.graph.read(namespace, Q.LIST_PAGES, {"offset": offset, "limit": limit}, max_rows=limit)
        return [
            {"id": str(r["id"]), "title": r["title"], "source": r["source"], "chunks": int(r["chunks"])} for r in rows
        ]

    async def delete_document(self, namespace: str, doc_id: str) -> IngestReport:
        """Remove one document: its page, its chunks with their links, and its chunk vectors; then bump the
        namespace's version (result cache, BM25 index, linker). Nothing another document owns is touched.
        ``doc_id`` is the page id (``GET /admin/documents``, or ``page_id`` in an item's provenance);
        ``NotFoundError`` when the namespace has no such document."""
        check_namespace(namespace)
        t0 = time.perf_counter()
        found = await self.graph.read(namespace, Q.PAGE_CHUNK_TOTAL, {"id": doc_id}, max_rows=1)
        if not found:
            raise NotFoundError(f"namespace {namespace!r} has no document {doc_id!r}", details={"id": doc_id})
        report = IngestReport(namespace, "delete")
        # vectors first: a failure part-way leaves the page in the graph, so the delete can simply be repeated
        await self.vectors.delete(collection_name(namespace, "chunks"), {"page_id": doc_id})
        # every chunk (with its links) is a stale chunk of a page cut to zero
        s = await self.graph.write(namespace, Q.DELETE_STALE_CHUNKS, [{"page_id": doc_id, "count": 0}])
        s.add(await self.graph.write(namespace, Q.DELETE_PAGES, [{"id": doc_id}]))
        report.add("documents", 1)
        report.add("chunks", int(found[0]["chunks"]))
        report.add("nodes_deleted", s.nodes_deleted)
        report.add("relationships_deleted", s.relationships_deleted)
        report.seconds = round(time.perf_counter() - t0, 3)
        await self._changed(namespace)
        return report

    async def ingest_cypher(self, namespace: str, script: str, *, progress: Progress = _noop) -> IngestReport:
        check_namespace(namespace)
        t0 = time.perf_counter()
        report = IngestReport(namespace, "cypher")
        sha = hashlib.sha256(script.encode("utf-8")).hexdigest()
        done = await self.graph.read(namespace, Q.INGEST_LOG_FIND, {"sha": sha})
        statements = split_cypher_script(script)
        report.add("statements", len(statements))
        if done:
            report.add("statements_skipped", len(statements))
        else:
            for i, stmt in enumerate(statements):
                schema_stmt = parse_schema_statement(stmt)
                if schema_stmt is not None:
                    # index/constraint syntax differs between engines: keep the intent (an index on the key)
                    await self.graph.ensure_node_index(namespace, *schema_stmt)
                    report.add("schema_statements", 1)
                    continue
                s = await self.graph.execute(namespace, stmt)
                report.add("nodes_created", s.nodes_created)
                report.add("relationships_created", s.relationships_created)
                progress("statements", i + 1, len(statements))
            await self.graph.execute(namespace, Q.INGEST_LOG_ADD, {"sha": sha, "kind": "cypher"})
        # every node with a name or title becomes linkable
        rows = await self.graph.read(
            namespace,
            Q.NAMED_NODES,
            max_rows=10_000_000,
            timeout_s=self.settings.graph.write_timeout_s,
        )
        names: dict[str, set[str]] = defaultdict(set)
        for r in rows:
            names[str(r["name"])].update(x for x in r["labels"] if not x.startswith("_"))
        entities = [
            VectorPoint(id=entity_id(n), vector=[], payload={"name": n, "node_id": entity_id(n), "labels": sorted(ls)})
            for n, ls in names.items()
        ]
        report.add("entities", len(entities))
        await self._embed_and_upsert(namespace, "entities", entities, lambda p: p.payload["name"], report, progress)
        report.seconds = round(time.perf_counter() - t0, 3)
        await self._changed(namespace)
        return report

    # --- vectors --------------------------------------------------------------------------------------------
    async def _embed_and_upsert(
        self,
        namespace: str,
        kind: str,
        points: list[VectorPoint],
        text_of: Callable[[VectorPoint], Any],
        report: IngestReport,
        progress: Progress,
    ) -> None:
        if not points:
            return
        coll = collection_name(namespace, kind)
        await self.vectors.ensure_collection(coll, self.embedder.dim)
        for p in points:  # vectors made by another model (or another text form) are made again
            p.payload["embedder"] = self.embedder.fingerprint
        existing = await self.vectors.existing(coll, [p.id for p in points])
        todo = [p for p in points if existing.get(p.id) != {**p.payload, "item_id": p.id}]
        report.add(f"{kind}_unchanged", len(points) - len(todo))
        step = max(self.embedder.batch_size * 8, 256)
        for i in range(0, len(todo), step):
            part = todo[i : i + step]
            vectors = await self.embedder.embed([str(text_of(p)) for p in part])
            for p, v in zip(part, vectors, strict=True):
                p.vector = v
            await self.vectors.upsert(coll, part)
            report.add(f"{kind}_embedded", len(part))
            progress(f"embed {kind}", i + len(part), len(todo))
