"""Ingestion: parsed triples, documents and Cypher scripts -> graph nodes/relationships + vector collections.

Idempotent: ids are deterministic, graph writes are MERGEs, vector points are upserts by id, unchanged vector
points are not re-embedded, and a Cypher script that already ran (same SHA-256) is not run again.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import hashlib
import inspect
import json
import logging
import os
import time
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from app.cypher import queries as Q
from app.errors import AppError, InvalidInputError, NotFoundError
from app.ids import entity_id
from app.ingest.journal import FAILED, INTERRUPTED, IngestJournal, JournalEntry
from app.ingest.parsers import (
    Document,
    Triple,
    check_label_map,
    load_label_map,
    normalise_relation,
    parse_schema_statement,
    read_documents,
    read_triples,
    source_files,
    split_cypher_script,
)
from app.ingest.structure import (
    SECTION_SEP,
    Gazetteer,
    PageRows,
    build_page,
    chunk_body,
    citations,
    link_title,
)
from app.models.embedder import Embedder
from app.observability import INGEST_RECOVERED, INGESTED
from app.settings import Settings
from app.stores.graph.base import GraphStore, check_namespace, fenced, same_life
from app.stores.graph.profile import NamedNode, SchemaProfiler, named_nodes
from app.stores.vector.base import VectorPoint, VectorStore, collection_name

log = logging.getLogger(__name__)

CHUNKS, PAGES, SECTIONS, DOC_ENTITIES = "chunks", "pages", "sections", "doc_entities"
"""The vector collections of a document namespace (``<namespace>__<kind>``)."""
TRIPLE_FORMATS = ("metaqa", "tsv", "csv")
FORMATS = (*TRIPLE_FORMATS, "documents", "cypher")
Progress = Callable[[str, int, int], None]
"""progress(stage, done, total)"""
_RECOVERING: contextvars.ContextVar[bool] = contextvars.ContextVar("ingest_recovering", default=False)
"""Set while ``Ingestor.recover`` finishes a cut-off ingest (the journal counts those attempts)."""


@dataclass
class IngestReport:
    namespace: str
    format: str
    counts: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    changed: bool = True
    """False when nothing was written (the content was already there): caches are kept."""

    def add(self, key: str, n: int) -> None:
        self.counts[key] = self.counts.get(key, 0) + int(n)


def _noop(stage: str, done: int, total: int) -> None:
    return None


def source_digest(fmt: str, path: Path, labels_file: Path | None) -> str:
    """SHA-256 over the format, the label map and every file of the source (sorted), for skip-if-unchanged."""
    h = hashlib.sha256(f"{fmt}\n".encode())
    for f in [*([labels_file] if labels_file else []), *source_files(path)]:
        h.update(f.name.encode())
        with open(f, "rb") as fh:
            while block := fh.read(1 << 20):
                h.update(block)
    return h.hexdigest()


def check_source(fmt: str, path: Path, labels_file: Path | None) -> None:
    """``InvalidInputError`` unless ``path`` can be ingested as ``fmt``: it exists, a folder only for documents, and
    the labels file is a file. Before the journal: nothing is written for a source that cannot be."""
    try:
        for p, what in ((path, "source"), *(((labels_file, "labels file"),) if labels_file else ())):
            if not p.exists():
                raise InvalidInputError(f"{what} {p} does not exist")
            if p.is_dir() and (what != "source" or fmt != "documents"):
                raise InvalidInputError(f"{what} {p} is a folder; format {fmt} reads one file (documents: a folder)")
            if not p.is_dir() and not p.is_file():  # a FIFO or a device would block the read for ever
                raise InvalidInputError(f"{what} {p} is not a regular file")
    except (OSError, ValueError) as exc:  # a name too long, a NUL byte
        raise InvalidInputError(f"{what} path cannot be used ({type(exc).__name__}: {exc})") from exc


def path_source(path: Path, labels_file: Path | None) -> dict[str, Any]:
    """What the journal keeps of a path ingest: absolute paths, so start-up can read them again."""
    return {"path": os.path.abspath(path), "labels": os.path.abspath(labels_file) if labels_file else None}


class Ingestor:
    def __init__(
        self,
        settings: Settings,
        graph: GraphStore,
        vectors: VectorStore,
        embedder: Embedder,
        profiler: SchemaProfiler | None = None,
    ) -> None:
        self.settings = settings
        self.graph = graph
        self.profiler = profiler if profiler is not None else SchemaProfiler(graph, settings.profile)
        """The namespaces' schema profiles (the service's shared one): which property names a node of each label."""
        self.vectors = vectors
        self.embedder = embedder
        self.on_change: list[Callable[[str], Awaitable[object] | None]] = []
        """Called with the namespace after every ingest (retrievers drop their caches, the result cache bumps the
        namespace's version); coroutine callbacks are awaited before the ingest returns."""
        exclusive = settings.graph.backend == "falkordb" and settings.graph.falkordb_url is None
        self.journal = IngestJournal(graph, lease_s=settings.ingest.journal_lease_s, exclusive=exclusive)
        self._locks: dict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._tasks: set[asyncio.Task[IngestReport]] = set()

    async def _journaled(
        self,
        namespace: str,
        kind: str,
        sha: str,
        source: dict[str, Any],
        payload: str | None,
        work: Callable[[JournalEntry], Awaitable[IngestReport]],
    ) -> IngestReport:
        """Run ``work`` under a journal entry (``app/ingest/journal.py``), one ingest per namespace at a time in this
        process; then make it durable and tell the caches. An error marks the entry failed, a cancellation
        (shutdown) interrupted: start-up finishes the latter."""
        check_namespace(namespace)
        async with self._locks[namespace]:
            # the graph server's life the ingest runs in: one that restarted from its last save mid-way may have
            # lost the ingest's writes since, so the writes that would follow are refused (fenced) and the ingest
            # is not acknowledged
            epoch = self.graph.epoch()
            entry = await self.journal.begin(namespace, kind, sha, source, payload, recovering=_RECOVERING.get())
            try:
                with fenced(epoch):
                    same_life(self.graph, epoch)
                    async with self.journal.heartbeat(entry):
                        report = await work(entry)
                    await self.journal.end(entry)
                await self.graph.flush()  # durable before it is acknowledged
                same_life(self.graph, epoch)
            except BaseException as exc:
                reason = f"{type(exc).__name__}: {exc}"
                with contextlib.suppress(Exception):
                    if isinstance(exc, asyncio.CancelledError):  # a shutdown: start-up finishes it
                        await asyncio.shield(self.journal.stop(namespace, sha, INTERRUPTED, reason))
                    else:
                        wait_s = self.settings.graph.startup_timeout_s
                        await asyncio.shield(self.journal.stop_durably(namespace, sha, FAILED, reason, wait_s=wait_s))
                raise
            finally:
                self.journal.left(namespace, sha)
        if report.changed:
            for callback in self.on_change:
                result = callback(namespace)
                if inspect.isawaitable(result):
                    await result
        return report

    async def detached(self, work: Awaitable[IngestReport]) -> IngestReport:
        """Await ``work`` in a task of its own that a cancelled caller (a client gone, a request deadline) does not
        cancel: an ingest that has started runs to its end, or is left interrupted for start-up to finish."""
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(lambda t: t.cancelled() or t.exception())  # retrieved: no "never retrieved" noise
        return await asyncio.shield(task)

    async def close(self) -> None:
        """Stop the ingests still running (their journal entries say interrupted; start-up finishes them)."""
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def pending(self, namespace: str) -> list[dict[str, Any]]:
        """The namespace's ingests that are running, interrupted or failed (for ``/namespaces``)."""
        rows = await self.journal.entries(namespace)
        keep = ("kind", "state", "started", "error")
        out = [{k: r[k] for k in keep} | {"source": json.loads(r["source"] or "{}")} for r in rows]
        for entry, r in zip(out, rows, strict=True):
            if r["kind"] == "cypher":  # a script's progress: statements applied so far (its resume point)
                entry["statements_done"] = int(r["next"] or 0)
        return out

    async def recover(self) -> dict[str, int]:
        """Finish every ingest the journal shows was cut off (a crash, a shutdown): run again from its source path
        (when its content is unchanged) or from the content the entry kept; Cypher scripts resume after their last
        applied statement. An entry that cannot be finished is marked failed, with the reason. Returns counts by
        outcome."""
        outcome: Counter[str] = Counter()
        for namespace in await self.graph.namespaces():
            if namespace.startswith("_"):
                continue
            for row in await self.journal.entries(namespace):
                if row["state"] == FAILED or not self.journal.abandoned(row, namespace):
                    continue
                if int(row["attempts"]) >= self.settings.ingest.max_recovery_attempts:
                    reason = f"cut off {row['attempts']} times, not started again: ingest it again to retry"
                    log.warning("ingest into %r (%s): %s", namespace, row["kind"], reason)
                    await self.journal.stop_durably(namespace, str(row["sha"]), FAILED, reason, wait_s=0)
                    outcome["gave_up"] += 1
                    INGEST_RECOVERED.labels(outcome="gave_up").inc()
                    continue
                log.warning("ingest into %r was cut off (%s, %s): finishing it", namespace, row["kind"], row["state"])
                token = _RECOVERING.set(True)
                try:
                    result = await self._finish(namespace, row)
                except Exception as exc:
                    log.warning("ingest into %r could not be finished: %s", namespace, exc)
                    result = "failed"
                finally:
                    _RECOVERING.reset(token)
                outcome[result] += 1
                INGEST_RECOVERED.labels(outcome=result).inc()
        return dict(outcome)

    async def recover_forever(self) -> None:
        """``recover()`` now and, where other replicas share the graph store, once per journal lease (a replica that
        died mid-ingest is finished by another). Runs until cancelled; a failed sweep is logged and retried."""
        while True:
            try:
                outcome = await self.recover()
                if outcome:
                    log.warning("ingests finished after an interruption: %s", outcome)
            except Exception as exc:
                log.warning("ingest journal: recovery sweep failed: %s", exc)
            if self.journal.exclusive:
                return
            await asyncio.sleep(self.settings.ingest.journal_lease_s)

    async def _finish(self, namespace: str, row: dict[str, Any]) -> str:
        kind, sha = str(row["kind"]), str(row["sha"])
        source = json.loads(row["source"] or "{}")
        if "path" in source:
            path = Path(source["path"])
            labels = Path(source["labels"]) if source.get("labels") else None
            ok = await asyncio.to_thread(path.exists) and (labels is None or await asyncio.to_thread(labels.exists))
            if not ok or await asyncio.to_thread(source_digest, kind, path, labels) != sha:
                await self.journal.stop(namespace, sha, FAILED, f"{path} is gone or changed: ingest it again")
                return "source_changed"
            await self.ingest_path(namespace, kind, path, labels_path=labels, force=True)
            return "finished"
        kept = await self.graph.read(namespace, Q.JOURNAL_PAYLOAD, {"sha": sha}, max_rows=1)
        if not kept or kept[0]["payload"] is None:
            await self.journal.stop(namespace, sha, FAILED, "the content was too large to keep: ingest it again")
            return "content_not_kept"
        data = json.loads(kept[0]["payload"])
        if kind == "documents":
            await self.ingest_documents(namespace, [Document.from_dict(d) for d in data["documents"]])
        elif kind == "cypher":
            await self.ingest_cypher(namespace, data["script"])
        elif kind == "index":
            await self.index(namespace)
        elif kind == "delete":
            try:
                await self.delete_document(namespace, data["id"])
            except NotFoundError:  # the graph part was done: only the entry was left
                await self.journal.end(JournalEntry(namespace, sha, kind))
                await self.graph.flush()
        else:
            labels_map = {r: (a, b) for r, (a, b) in data["labels"].items()}
            triples = [Triple(*t) for t in data["triples"]]
            await self.ingest_triples(namespace, triples, labels_map, fmt=kind)
        return "finished"

    def _payload(self, data: dict[str, Any]) -> tuple[str, str | None]:
        """(SHA-256 of the content, the content as JSON when it is small enough for the journal to keep)."""
        text = json.dumps(data, sort_keys=True, ensure_ascii=False)
        sha = hashlib.sha256(text.encode("utf-8")).hexdigest()
        keep = len(text.encode("utf-8")) <= self.settings.ingest.journal_payload_bytes
        return sha, (text if keep else None)

    async def _inline(
        self,
        namespace: str,
        kind: str,
        data: dict[str, Any],
        work: Callable[[JournalEntry], Awaitable[IngestReport]],
    ) -> IngestReport:
        """``work`` under a journal entry keyed by, and keeping, the inline content ``data``."""
        sha, payload = self._payload(data)
        return await self._journaled(namespace, kind, sha, {"inline": True}, payload, work)

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
        check_namespace(namespace)
        await asyncio.to_thread(check_source, fmt, path, labels_path)
        labels_file = labels_path
        try:
            sha = await asyncio.to_thread(source_digest, fmt, path, labels_file)
        except OSError as exc:
            raise InvalidInputError(f"{path}: cannot be read ({type(exc).__name__})") from exc
        if not force and await self.graph.read(namespace, Q.INGEST_LOG_FIND, {"sha": sha}):
            return IngestReport(namespace, fmt, {"sources_unchanged": 1}, changed=False)
        # read and parsed before the journal: a source that cannot be ingested leaves nothing behind
        labels: dict[str, tuple[str, str]] = {}
        triples: list[Triple] = []
        docs: list[Document] = []
        script = ""
        if fmt in TRIPLE_FORMATS:
            labels = await asyncio.to_thread(load_label_map, labels_file)
            triples = await asyncio.to_thread(read_triples, path, fmt)
        elif fmt == "documents":
            docs = await asyncio.to_thread(read_documents, path)
        else:
            try:
                script = await asyncio.to_thread(path.read_text, encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                raise InvalidInputError(f"{path}: cannot be read as UTF-8 text ({type(exc).__name__})") from exc
            await self._vet(script)

        async def work(entry: JournalEntry) -> IngestReport:
            if fmt in TRIPLE_FORMATS:
                report = await self._triples(namespace, triples, labels, fmt=fmt, progress=progress)
            elif fmt == "documents":
                report = await self._documents(namespace, docs, progress=progress)
            else:
                report = await self._cypher(entry, script, progress=progress)
            await self.graph.execute(namespace, Q.INGEST_LOG_ADD, {"sha": sha, "kind": fmt})
            return report

        return await self._journaled(namespace, fmt, sha, path_source(path, labels_file), None, work)

    async def ingest_triples(
        self,
        namespace: str,
        triples: Sequence[Triple],
        labels: dict[str, tuple[str, str]] | None = None,
        *,
        fmt: str = "triples",
        progress: Progress = _noop,
    ) -> IngestReport:
        labels = check_label_map(labels or {})
        data = {"triples": [[t.subject, t.relation, t.object] for t in triples], "labels": labels}

        async def work(entry: JournalEntry) -> IngestReport:
            return await self._triples(namespace, triples, labels, fmt=fmt, progress=progress)

        return await self._inline(namespace, fmt, data, work)

    async def _triples(
        self,
        namespace: str,
        triples: Sequence[Triple],
        labels: dict[str, tuple[str, str]],
        *,
        fmt: str,
        progress: Progress,
    ) -> IngestReport:
        t0 = time.perf_counter()
        report = IngestReport(namespace, fmt)
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
        return report

    async def ingest_documents(
        self, namespace: str, documents: Sequence[Document], *, progress: Progress = _noop
    ) -> IngestReport:
        """Documents as a graph (``app/ingest/structure.py``) with vectors for chunks, pages, sections and the
        entities they cite. A document whose digest is unchanged is skipped; an edited one has its chunks,
        subchapters, citations and vectors replaced (entities only it used go with them)."""

        async def work(entry: JournalEntry) -> IngestReport:
            return await self._documents(namespace, documents, progress=progress)

        return await self._inline(namespace, "documents", {"documents": [asdict(d) for d in documents]}, work)

    async def _documents(self, namespace: str, documents: Sequence[Document], *, progress: Progress) -> IngestReport:
        t0 = time.perf_counter()
        report = IngestReport(namespace, "documents")
        by_key: dict[str, Document] = {}
        for d in documents:
            if not d.text.strip():
                continue
            by_key[d.doc_key] = d  # the last document of a key wins, as a re-ingest would
        for label in (*Q.DOCUMENT_LABELS, Q.ENTITY_LABEL):
            await self.graph.ensure_node_index(namespace, label, "name" if label == Q.ENTITY_LABEL else "id")
        size, overlap = self.settings.ingest.chunk_chars, self.settings.ingest.chunk_overlap
        built = {key: build_page(doc, size, overlap) for key, doc in by_key.items()}
        stored = {
            str(r["pid"]): r["hash"]
            for r in await self._read_all(namespace, Q.PAGE_HASHES, {"ids": [b.id for b in built.values()]})
        }
        todo = {k: b for k, b in built.items() if stored.get(b.id) != b.page["hash"]}
        changed = [b.id for b in todo.values() if b.id in stored]
        report.add("documents", len(built))
        report.add("documents_unchanged", len(built) - len(todo))
        report.add("chunks", sum(len(b.chunks) for b in todo.values()))
        report.seconds = round(time.perf_counter() - t0, 3)
        if not todo:  # nothing new: no graph or vector work at all
            report.changed = False
            return report
        touched: set[str] = set()
        if changed:  # an edit replaces the document's parts: its old chunks, subchapters and citations go
            touched = {str(r["name"]) for r in await self._read_all(namespace, Q.PAGES_ENTITIES, {"ids": changed})}
            s = await self.graph.write(namespace, Q.DELETE_PAGE_PARTS, [{"id": pid} for pid in changed])
            report.add("documents_replaced", len(changed))
            report.add("nodes_deleted", s.nodes_deleted)
        total = sum(1 + len(b.sections) + len(b.chunks) for b in todo.values())
        progress("graph", 0, total)
        await self._write_rows(namespace, Q.MERGE_PAGES, [b.page for b in todo.values()], report)
        await self._write_rows(namespace, Q.MERGE_SUBCHAPTERS, [r for b in todo.values() for r in b.sections], report)
        await self._write_rows(namespace, Q.MERGE_CHUNKS, [r for b in todo.values() for r in b.chunks], report)
        links: dict[tuple[str, str, str], list[dict[str, str]]] = defaultdict(list)
        for b in todo.values():
            for key, rows in b.links.items():
                links[key].extend(rows)
        for key, rows in links.items():
            await self._write_rows(namespace, Q.link_by_id(*key), rows, report)
        progress("graph", total, total)
        cited = await self._cite(namespace, by_key, todo, report)
        if touched:
            await self._drop_unused_entities(namespace, touched, report)
        await self._document_vectors(namespace, by_key, todo, changed, cited, report, progress)
        # last: the digests that say these documents are complete (an interrupted ingest leaves none)
        await self.graph.write(
            namespace, Q.SET_PAGE_HASHES, [{"id": b.id, "hash": b.page["hash"]} for b in todo.values()]
        )
        INGESTED.labels(kind="documents").inc(len(todo))
        report.seconds = round(time.perf_counter() - t0, 3)
        return report

    async def _named_nodes(self, namespace: str) -> list[NamedNode]:
        """Every node with a display value, through the namespace's schema profile read again now."""
        profile = await self.profiler.get(namespace, refresh=True)
        timeout = self.settings.graph.write_timeout_s
        return await named_nodes(self.graph, namespace, profile, max_rows=10_000_000, timeout_s=timeout)

    async def _read_all(self, namespace: str, cypher: str, params: dict[str, Any]) -> list[dict[str, Any]]:
        return await self.graph.read(
            namespace, cypher, params, max_rows=10_000_000, timeout_s=self.settings.graph.write_timeout_s
        )

    async def _write_rows(self, namespace: str, cypher: str, rows: list[Any], report: IngestReport) -> None:
        if rows:
            s = await self.graph.write(namespace, cypher, rows)
            report.add("nodes_created", s.nodes_created)
            report.add("relationships_created", s.relationships_created)

    async def _cite(
        self, namespace: str, by_key: dict[str, Document], todo: dict[str, PageRows], report: IngestReport
    ) -> set[str]:
        """Entities of the written pages: each page is ``ABOUT`` the entity its title names; each chunk ``CITES``
        what its links point to and the entity names (titles of pages, KG entities, links' words) in its text, and
        the named nodes of a graph with its own labels (a Cypher script's) where they are, without a second
        ``Entity``; chunks already in the namespace cite the entity names that are new. Returns every entity name
        touched."""
        # one read of the named nodes: the entities, and the nodes of a graph with its own labels (a Cypher
        # script's), which are cited where they are, as they are; the document structure is neither
        known: set[str] = set()
        kg_nodes: dict[str, tuple[str, str]] = {}
        for node in await self._named_nodes(namespace):
            labels = list(node.labels)
            if not isinstance(node.value, str):  # a number in a text is no mention of a node
                continue
            if Q.ENTITY_LABEL in labels:
                known.add(node.name)
            elif not set(labels) & set(Q.DOCUMENT_LABELS):
                visible = [lb for lb in labels if Q.is_ident(lb)]
                if visible:
                    kg_nodes.setdefault(node.name, (visible[0], node.key))
        titles = {by_key[k].title for k in todo}
        title_of = {t.lower(): t for t in sorted(known | titles)}
        linked = {link_title(ln.target, title_of) or ln.text for k in todo for ln in by_key[k].links}
        entity_names = known | titles | linked  # a link's words name an entity other documents may mention too
        gazetteer = Gazetteer.of_titles(entity_names | set(kg_nodes))
        cites: list[dict[str, str]] = []
        by_node: dict[tuple[str, str], list[dict[str, str]]] = defaultdict(list)
        for key, b in todo.items():
            for index, name, via in citations(by_key[key], b.chunk_objs, gazetteer, title_of):
                row = {"c": str(b.chunks[index]["id"]), "name": name, "via": via}
                if name in kg_nodes:
                    by_node[kg_nodes[name]].append(row)
                if name in entity_names or name not in kg_nodes:
                    cites.append(row)
        names = titles | {c["name"] for c in cites}
        rows = [{"name": n, "id": entity_id(n)} for n in sorted(names)]
        await self._write_rows(namespace, Q.merge_entities(None), rows, report)
        about = [{"a": todo[k].id, "name": by_key[k].title} for k in todo]
        await self._write_rows(namespace, Q.MERGE_ABOUT, about, report)
        await self._write_rows(namespace, Q.MERGE_CITES, cites, report)
        for (label, key), node_rows in sorted(by_node.items()):
            await self._write_rows(namespace, Q.merge_cites_to(label, key), node_rows, report)
        report.add("citations", len(cites) + sum(len(v) for v in by_node.values()))
        skip = {b.id for b in todo.values()}
        return names | await self._cite_in_old_chunks(namespace, names - known, skip, report)

    async def _cite_in_old_chunks(
        self, namespace: str, new: set[str], skip_pages: set[str], report: IngestReport
    ) -> set[str]:
        """The chunks already in the namespace (but those of ``skip_pages``) cite the ``new`` entity names they
        mention, so that the order of ingestion does not change what cites what. Returns the names cited."""
        if not new:
            return set()
        fresh = Gazetteer.of_titles(new)
        cites = []
        for r in await self._read_all(namespace, Q.ALL_CHUNKS, {}):
            if str(r["page_id"]) in skip_pages:
                continue
            found = fresh.find(chunk_body(str(r["text"])))
            cites += [{"c": str(r["id"]), "name": n, "via": "mention"} for n in found if n != r["title"]]
        await self._write_rows(namespace, Q.MERGE_CITES, cites, report)
        report.add("citations", len(cites))
        return {c["name"] for c in cites}

    async def _drop_unused_entities(self, namespace: str, names: set[str], report: IngestReport) -> None:
        """Entities among ``names`` that nothing grounds any more (no page is about them, no chunk links to them,
        they have no KG facts) leave the graph with the mentions of them; a KG entity no chunk cites and no page
        is about any more leaves the ``doc_entities`` vectors. So add -> edit -> delete ends where a fresh ingest
        would."""
        rows = await self._read_all(namespace, Q.ENTITY_USE, {"names": sorted(names)})
        grounded = {str(r["name"]) for r in rows if int(r["about"]) or int(r["linked"]) or int(r["facts"])}
        gone = sorted(str(r["name"]) for r in rows if str(r["name"]) not in grounded)
        uncited = sorted(
            str(r["name"]) for r in rows if str(r["name"]) in grounded and not (int(r["cited"]) or int(r["about"]))
        )
        if gone or uncited:
            await self.vectors.delete(collection_name(namespace, DOC_ENTITIES), {"name": gone + uncited})
        if gone:
            s = await self.graph.write(namespace, Q.DELETE_ENTITIES, [{"name": n} for n in gone])
            report.add("nodes_deleted", s.nodes_deleted)
            report.add("relationships_deleted", s.relationships_deleted)

    async def _document_vectors(
        self,
        namespace: str,
        by_key: dict[str, Document],
        todo: dict[str, PageRows],
        changed: list[str],
        entities: set[str],
        report: IngestReport,
        progress: Progress,
    ) -> None:
        """Vectors keyed by node: chunks (their text), pages (title and headings), sections (title and heading
        path) and cited entities (name). An edited page loses the chunk and section points it no longer has."""
        chunks, pages, sections = [], [], []
        for key, b in todo.items():
            doc, pid = by_key[key], b.id
            headings = [str(r["path"]) for r in b.sections if int(str(r["level"])) == 1]
            pages.append(
                VectorPoint(
                    id=pid,
                    vector=[],
                    payload={
                        "title": doc.title,
                        "page_id": pid,
                        "uri": b.page["uri"],
                        "source": doc.source,
                        "text": doc.title + (": " + "; ".join(headings) if headings else ""),
                    },
                )
            )
            for r in b.sections:
                sections.append(
                    VectorPoint(
                        id=str(r["id"]),
                        vector=[],
                        payload={
                            "title": doc.title,
                            "page_id": pid,
                            "section_id": r["id"],
                            "uri": r["uri"],
                            "section": r["path"],
                            "text": f"{doc.title}{SECTION_SEP}{r['path']}",
                        },
                    )
                )
            for r in b.chunks:  # the chunk's graph properties, and its page's title and source
                payload = {k: v for k, v in r.items() if k != "id"} | {"title": doc.title, "source": doc.source}
                chunks.append(VectorPoint(id=str(r["id"]), vector=[], payload=payload))
        counts = {b.id: len(b.chunks) for b in todo.values()}
        for pid in changed:
            await self.vectors.delete(
                collection_name(namespace, CHUNKS), {"page_id": pid, "index": {"gte": counts[pid]}}
            )
            await self.vectors.delete(collection_name(namespace, SECTIONS), {"page_id": pid})
        ents = [
            VectorPoint(id=entity_id(n), vector=[], payload={"name": n, "node_id": entity_id(n), "text": n})
            for n in sorted(entities)
        ]
        text = lambda p: p.payload["text"]  # noqa: E731
        for kind, points in ((CHUNKS, chunks), (PAGES, pages), (SECTIONS, sections), (DOC_ENTITIES, ents)):
            await self._embed_and_upsert(namespace, kind, points, text, report, progress)

    async def list_documents(self, namespace: str, *, offset: int = 0, limit: int = 100) -> list[dict[str, Any]]:
        """The namespace's documents: ``id`` (the page id that items' provenance carries as ``page_id``), ``title``,
        ``source`` and ``chunks``, ordered by title."""
        check_namespace(namespace)
        rows = await self.graph.read(namespace, Q.LIST_PAGES, {"offset": offset, "limit": limit}, max_rows=limit)
        return [
            {"id": str(r["id"]), "title": r["title"], "source": r["source"], "chunks": int(r["chunks"])} for r in rows
        ]

    async def delete_document(self, namespace: str, doc_id: str) -> IngestReport:
        """Remove one document and everything only it owned: its page, subchapters and chunks with their links and
        vectors, and the entities no other document cites (an entity another document cites or the KG holds
        stays); then bump the namespace's version (result cache, BM25 index, linker). ``doc_id`` is the page id
        (``GET /admin/documents``, or ``page_id`` in an item's provenance); ``NotFoundError`` when the namespace has
        no such document."""
        check_namespace(namespace)
        found = await self.graph.read(namespace, Q.PAGE_CHUNK_TOTAL, {"id": doc_id}, max_rows=1)
        if not found:
            raise NotFoundError(f"namespace {namespace!r} has no document {doc_id!r}", details={"id": doc_id})

        async def work(entry: JournalEntry) -> IngestReport:
            return await self._delete(namespace, doc_id, int(found[0]["chunks"]))

        return await self._inline(namespace, "delete", {"delete": doc_id}, work)

    async def _delete(self, namespace: str, doc_id: str, chunks: int) -> IngestReport:
        t0 = time.perf_counter()
        report = IngestReport(namespace, "delete")
        touched = {str(r["name"]) for r in await self._read_all(namespace, Q.PAGES_ENTITIES, {"ids": [doc_id]})}
        # vectors first: a failure part-way leaves the page in the graph, so the delete can simply be repeated
        for kind in (CHUNKS, SECTIONS, PAGES):
            await self.vectors.delete(collection_name(namespace, kind), {"page_id": doc_id})
        s = await self.graph.write(namespace, Q.DELETE_PAGE_PARTS, [{"id": doc_id}])
        s.add(await self.graph.write(namespace, Q.DELETE_PAGES, [{"id": doc_id}]))
        report.add("documents", 1)
        report.add("chunks", chunks)
        report.add("nodes_deleted", s.nodes_deleted)
        report.add("relationships_deleted", s.relationships_deleted)
        await self._drop_unused_entities(namespace, touched, report)
        report.seconds = round(time.perf_counter() - t0, 3)
        return report

    async def ingest_cypher(self, namespace: str, script: str, *, progress: Progress = _noop) -> IngestReport:
        """Run a Cypher script once (a script already run, by SHA-256, is skipped). Each statement is applied
        together with the journal's count of statements done, so a script cut off by a crash resumes after its
        last applied statement: a script of ``CREATE`` s is never applied twice."""
        sha = hashlib.sha256(script.encode("utf-8")).hexdigest()
        if not await self.graph.read(namespace, Q.INGEST_LOG_FIND, {"sha": sha}):  # a script run before: skipped
            await self._vet(script)

        async def work(entry: JournalEntry) -> IngestReport:
            return await self._cypher(entry, script, progress=progress)

        return await self._inline(namespace, "cypher", {"script": script}, work)

    async def _vet(self, script: str) -> None:
        """Before the journal: a script with no statement, or one whose statement the engine would refuse or could
        not survive (``GraphStore.vet``), is a 4xx and nothing of it is applied."""
        statements = split_cypher_script(script)
        if not statements:
            raise InvalidInputError("the Cypher script has no statement")
        checked = [(i + 1, st) for i, st in enumerate(statements) if parse_schema_statement(st) is None]
        await self.graph.vet(checked, len(statements))

    async def _cypher(self, entry: JournalEntry, script: str, *, progress: Progress) -> IngestReport:
        namespace = entry.namespace
        t0 = time.perf_counter()
        report = IngestReport(namespace, "cypher")
        sha = hashlib.sha256(script.encode("utf-8")).hexdigest()
        done = await self.graph.read(namespace, Q.INGEST_LOG_FIND, {"sha": sha})
        statements = split_cypher_script(script)
        report.add("statements", len(statements))
        if done:
            report.add("statements_skipped", len(statements))
            report.changed = False
        else:
            if entry.next:
                report.add("statements_resumed_after", entry.next)
            for i, stmt in enumerate(statements):
                if i < entry.next:  # applied before the interruption
                    continue
                schema_stmt = parse_schema_statement(stmt)
                if schema_stmt is not None:
                    # index/constraint syntax differs between engines: keep the intent (an index on the key)
                    await self.graph.ensure_node_index(namespace, *schema_stmt)
                    report.add("schema_statements", 1)
                    entry.next = i + 1
                    continue
                try:
                    s = await self.graph.execute(namespace, stmt, marker=self.journal.marker(entry, i + 1))
                except AppError as exc:  # which statement, so the user can find it in the script
                    exc.message = f"statement {i + 1} of {len(statements)}: {exc.message}"
                    exc.args = (exc.message,)
                    exc.details = {"statement": i + 1, "statements": len(statements), "text": stmt[:200]}
                    raise
                entry.next = i + 1
                report.add("nodes_created", s.nodes_created)
                report.add("relationships_created", s.relationships_created)
                progress("statements", i + 1, len(statements))
            await self.graph.execute(namespace, Q.INGEST_LOG_ADD, {"sha": sha, "kind": "cypher"})
        await self._index_entities(namespace, report, progress)
        report.seconds = round(time.perf_counter() - t0, 3)
        return report

    async def index(self, namespace: str, *, progress: Progress = _noop) -> IngestReport:
        """Attach a graph the service did not write (or re-index one it did): read the namespace's schema profile
        again and make every node with a display value linkable (the ``entities`` vectors). Journaled like an
        ingest (a crash mid-way is finished at start-up), idempotent, and incremental: only nodes whose name or
        labels changed are embedded again, and the vectors of nodes that are gone are removed."""
        check_namespace(namespace)
        if namespace not in await self.graph.namespaces():
            raise NotFoundError(f"namespace {namespace!r} holds no graph")

        async def work(entry: JournalEntry) -> IngestReport:
            t0 = time.perf_counter()
            report = IngestReport(namespace, "index")
            await self._index_entities(namespace, report, progress)
            # changed in any case: the graph may have been written outside the service, so the profile, the
            # linker's names, the modes' caches and cached results are all dropped (``on_change``)
            report.seconds = round(time.perf_counter() - t0, 3)
            return report

        return await self._inline(namespace, "index", {"index": namespace}, work)

    async def _index_entities(self, namespace: str, report: IngestReport, progress: Progress) -> None:
        """Every node with a display value (the schema profile's, per label; not the document structure, which has
        collections of its own) as an ``entities`` point; points of names no node has any more are removed."""
        names: dict[str, set[str]] = defaultdict(set)
        for node in await self._named_nodes(namespace):
            if set(node.labels) & set(Q.DOCUMENT_LABELS):
                continue
            names[node.name].update(lb for lb in node.labels if lb != Q.ENTITY_LABEL)
        entities = [
            VectorPoint(id=entity_id(n), vector=[], payload={"name": n, "node_id": entity_id(n), "labels": sorted(ls)})
            for n, ls in names.items()
        ]
        report.add("entities", len(entities))
        profile = await self.profiler.get(namespace)
        report.add("labels_profiled", len(profile.labels))
        await self._embed_and_upsert(namespace, "entities", entities, lambda p: p.payload["name"], report, progress)
        coll = collection_name(namespace, "entities")
        wanted = {p.id for p in entities}
        stale = [i for i in await self.vectors.ids(coll) if i not in wanted]
        for i in range(0, len(stale), 1000):
            await self.vectors.delete(coll, {"item_id": stale[i : i + 1000]})
        report.add("entities_removed", len(stale))

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
