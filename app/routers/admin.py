"""Admin endpoints (ingestion, the documents of a namespace): an admin key (or ``server.admin_token``), checked by
the auth middleware before the body is read, and the key's namespace scope (``app/auth.py``)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Depends, Query
from fastapi import Path as PathParam

from app.auth import Principal
from app.deps import ContainerDep, PrincipalDep, SettingsDep, TuneJobsDep
from app.errors import ForbiddenError, InvalidInputError
from app.ingest.parsers import Document, parse_html, parse_markdown, triples_from_rows
from app.ingest.service import IngestReport
from app.observability import request_id_var
from app.routers.errors import ERROR_RESPONSES
from app.schemas import (
    NAMESPACE_PATTERN,
    DocumentsResponse,
    IndexRequest,
    IngestRequest,
    IngestResponse,
    JobResponse,
    TuneRequest,
)

router = APIRouter(prefix="/admin", tags=["admin"])


def require_admin(who: PrincipalDep) -> Principal:
    """The caller, who must be an admin (the auth middleware already refused everyone else before the body was
    read; this keeps each admin route safe on its own)."""
    if not who.admin:
        raise ForbiddenError("admin endpoints need an admin key")
    return who


AdminDep = Annotated[Principal, Depends(require_admin)]


def _allowed_path(raw: str, roots: list[Path]) -> Path:
    try:
        path = Path(raw).resolve()
    except (OSError, ValueError) as exc:  # a NUL byte, a loop of links
        raise InvalidInputError(f"path cannot be used ({type(exc).__name__})") from exc
    for root in roots:
        if path == root.resolve() or root.resolve() in path.parents:
            if raw.endswith("/") and not path.is_dir():  # resolve() drops the slash the caller wrote
                raise InvalidInputError(f"path {raw!r} ends with '/', and {path} is not a folder")
            return path
    raise ForbiddenError(
        "path ingestion is limited to GRAPHRAG_INGEST__ALLOWED_PATHS; send the content inline instead",
        details={"allowed_paths": [str(r) for r in roots]},
    )


def _response(report: IngestReport) -> IngestResponse:
    return IngestResponse(
        request_id=request_id_var.get(),
        namespace=report.namespace,
        format=report.format,
        counts=report.counts,
        seconds=report.seconds,
    )


@router.post("/index", response_model=IngestResponse, responses=ERROR_RESPONSES)
async def index(req: IndexRequest, container: ContainerDep, who: AdminDep) -> IngestResponse:
    """Attach a graph the service did not ingest (written straight into the store, an existing Neo4j database):
    read its schema profile again and make every node with a display value linkable. Idempotent and incremental
    (only nodes whose name or labels changed are embedded again; those that are gone leave the index); journaled
    like an ingest, and run to its end even if the client goes."""
    who.require(req.namespace)
    ing = container.ingestor
    return _response(await ing.detached(ing.index(req.namespace)))


@router.post("/tune", response_model=JobResponse, status_code=202, responses=ERROR_RESPONSES)
async def tune(req: TuneRequest, jobs: TuneJobsDep, who: AdminDep) -> JobResponse:
    """Start tuning text2cypher for a namespace on the running service (``app/training/jobs.py``): pairs from its
    graph, a LoRA adapter trained in the background, swapped in when done (the namespace's cached results are
    dropped). Serving goes on meanwhile; follow it at ``GET /admin/jobs/{id}``. One job runs at a time (409)."""
    who.require(req.namespace)
    job = jobs.start(req.namespace, minutes=req.minutes, max_pairs=req.max_pairs, seed=req.seed)
    return JobResponse(**job.view())


JobId = Annotated[str, PathParam(min_length=1, max_length=64, pattern=r"^[a-f0-9]+$")]


@router.get("/jobs/{job_id}", response_model=JobResponse, responses=ERROR_RESPONSES)
async def get_job(job_id: JobId, jobs: TuneJobsDep, who: AdminDep) -> JobResponse:
    """A tuning job's state and progress, then its result or error (404 when unknown)."""
    job = jobs.get(job_id)
    who.require(job.namespace)
    return JobResponse(**job.view())


@router.delete("/jobs/{job_id}", response_model=JobResponse, responses=ERROR_RESPONSES)
async def cancel_job(job_id: JobId, jobs: TuneJobsDep, who: AdminDep) -> JobResponse:
    """Cancel a running tuning job: it stops at its next step and installs nothing (the namespace keeps its
    adapter). A finished job is returned as it is."""
    job = jobs.get(job_id)
    who.require(job.namespace)
    return JobResponse(**jobs.cancel(job_id).view())


@router.post("/ingest", response_model=IngestResponse, responses=ERROR_RESPONSES)
async def ingest(req: IngestRequest, container: ContainerDep, settings: SettingsDep, who: AdminDep) -> IngestResponse:
    """Ingest triples, documents or a Cypher script into a namespace (idempotent). The 200 comes once the ingest is
    durable. An ingest that has started runs to its end even if the client goes or the request deadline passes
    (send the same content again: it is a no-op once done, a 409 while still running)."""
    who.require(req.namespace)
    sources = [x is not None for x in (req.path, req.triples, req.documents, req.cypher)]
    if sum(sources) != 1:
        raise InvalidInputError("give exactly one of path, triples, documents or cypher")
    ing = container.ingestor
    report: IngestReport
    if req.labels is not None and req.triples is None:
        raise InvalidInputError("labels go with inline triples; with a path, name a labels file in labels_path")
    if req.labels_path is not None and (req.path is None or req.format not in ("metaqa", "tsv", "csv")):
        raise InvalidInputError("labels_path goes with a path of triples (format metaqa, tsv or csv)")
    if req.path is not None:
        roots = settings.ingest.allowed_paths
        path = _allowed_path(req.path, roots)
        labels = _allowed_path(req.labels_path, roots) if req.labels_path is not None else None
        report = await ing.detached(ing.ingest_path(req.namespace, req.format, path, labels_path=labels))
    elif req.triples is not None:
        if req.format not in ("metaqa", "tsv", "csv"):
            raise InvalidInputError("inline triples need format metaqa, tsv or csv")
        triples = list(triples_from_rows(req.triples, source="request"))
        report = await ing.detached(ing.ingest_triples(req.namespace, triples, dict(req.labels or {}), fmt=req.format))
    elif req.documents is not None:
        if req.format != "documents":
            raise InvalidInputError("inline documents need format=documents")
        docs = [inline_document(i, d) for i, d in enumerate(req.documents)]
        report = await ing.detached(ing.ingest_documents(req.namespace, docs))
    else:
        if req.format != "cypher":
            raise InvalidInputError("an inline script needs format=cypher")
        assert req.cypher is not None
        report = await ing.detached(ing.ingest_cypher(req.namespace, req.cypher))
    return _response(report)


NamespaceQuery = Annotated[str, Query(pattern=NAMESPACE_PATTERN, description="The namespace.")]


@router.get("/documents", response_model=DocumentsResponse, responses=ERROR_RESPONSES)
async def list_documents(
    container: ContainerDep,
    namespace: NamespaceQuery,
    who: AdminDep,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> DocumentsResponse:
    """The namespace's documents (id, title, source, chunk count), ordered by title, a page at a time."""
    who.require(namespace)
    docs = await container.ingestor.list_documents(namespace, offset=offset, limit=limit)
    return DocumentsResponse(request_id=request_id_var.get(), namespace=namespace, documents=docs)


@router.delete(
    "/documents/{doc_id}",
    response_model=IngestResponse,
    responses=ERROR_RESPONSES,
)
async def delete_document(
    doc_id: Annotated[str, PathParam(min_length=1, max_length=200, pattern=r"^[A-Za-z0-9_.:-]+$")],
    namespace: NamespaceQuery,
    container: ContainerDep,
    who: AdminDep,
) -> IngestResponse:
    """Remove one document (its page, chunks, links and vectors; 404 when absent) and invalidate the namespace's
    cached results."""
    who.require(namespace)
    report = await container.ingestor.detached(container.ingestor.delete_document(namespace, doc_id))
    return _response(report)


INLINE_KEYS = {"title", "text", "type", "key"}
PARSERS = {"markdown": parse_markdown, "html": parse_html}


def inline_document(i: int, d: dict[str, str]) -> Document:
    """One inline document: ``text`` (required), ``type`` ``text`` (default), ``markdown`` or ``html`` (headings
    become sections, links citations), ``title`` (Markdown's ``#`` heading or HTML's ``<title>`` wins over it) and
    ``key`` (its identity for edits and deletes; default: the title)."""
    unknown = sorted(set(d) - INLINE_KEYS)
    if unknown:
        raise InvalidInputError(f"documents[{i}]: unknown fields {unknown}; allowed: {sorted(INLINE_KEYS)}")
    if not d.get("text", "").strip():
        raise InvalidInputError(f"documents[{i}] has no text")
    kind, title = d.get("type", "text"), d.get("title") or f"document-{i}"
    if kind == "text":
        return Document(title, d["text"], "request", key=d.get("key", ""))
    if kind not in PARSERS:
        raise InvalidInputError(f"documents[{i}].type must be text, markdown or html, not {kind!r}")
    doc = PARSERS[kind](d["text"], title, "request")
    return replace(doc, key=d["key"]) if d.get("key") else doc
