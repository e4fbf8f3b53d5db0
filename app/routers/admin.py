"""Authenticated admin endpoints (ingestion, the documents of a namespace). Disabled (403) unless
``GRAPHRAG_SERVER__ADMIN_TOKEN`` is set."""

from __future__ import annotations

import hmac
from dataclasses import replace
from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Depends, Header, Query
from fastapi import Path as PathParam

from app.deps import ContainerDep, SettingsDep
from app.errors import AuthError, ForbiddenError, InvalidInputError
from app.ingest.parsers import Document, parse_html, parse_markdown, triples_from_rows
from app.ingest.service import IngestReport
from app.observability import request_id_var
from app.routers.errors import ERROR_RESPONSES
from app.schemas import DocumentsResponse, IngestRequest, IngestResponse

router = APIRouter(prefix="/admin", tags=["admin"])


def require_admin(settings: SettingsDep, authorization: Annotated[str | None, Header()] = None) -> None:
    token = settings.server.admin_token
    if token is None:
        raise ForbiddenError("admin endpoints are disabled: set GRAPHRAG_SERVER__ADMIN_TOKEN")
    expected = f"Bearer {token.get_secret_value()}"
    if authorization is None or not hmac.compare_digest(authorization.encode(), expected.encode()):
        raise AuthError("missing or wrong bearer token")


def _allowed_path(raw: str, roots: list[Path]) -> Path:
    path = Path(raw).resolve()
    for root in roots:
        if path == root.resolve() or root.resolve() in path.parents:
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


@router.post("/ingest", response_model=IngestResponse, responses=ERROR_RESPONSES, dependencies=[Depends(require_admin)])
async def ingest(req: IngestRequest, container: ContainerDep, settings: SettingsDep) -> IngestResponse:
    """Ingest triples, documents or a Cypher script into a namespace (idempotent)."""
    sources = [x is not None for x in (req.path, req.triples, req.documents, req.cypher)]
    if sum(sources) != 1:
        raise InvalidInputError("give exactly one of path, triples, documents or cypher")
    ing = container.ingestor
    report: IngestReport
    if req.path is not None:
        path = _allowed_path(req.path, settings.ingest.allowed_paths)
        report = await ing.ingest_path(req.namespace, req.format, path)
    elif req.triples is not None:
        if req.format not in ("metaqa", "tsv", "csv"):
            raise InvalidInputError("inline triples need format metaqa, tsv or csv")
        triples = list(triples_from_rows(req.triples, source="request"))
        report = await ing.ingest_triples(req.namespace, triples, dict(req.labels or {}), fmt=req.format)
    elif req.documents is not None:
        if req.format != "documents":
            raise InvalidInputError("inline documents need format=documents")
        docs = [inline_document(i, d) for i, d in enumerate(req.documents)]
        report = await ing.ingest_documents(req.namespace, docs)
    else:
        if req.format != "cypher":
            raise InvalidInputError("an inline script needs format=cypher")
        assert req.cypher is not None
        report = await ing.ingest_cypher(req.namespace, req.cypher)
    return _response(report)


NamespaceQuery = Annotated[str, Query(min_length=1, max_length=64, description="The namespace.")]


@router.get(
    "/documents", response_model=DocumentsResponse, responses=ERROR_RESPONSES, dependencies=[Depends(require_admin)]
)
async def list_documents(
    container: ContainerDep,
    namespace: NamespaceQuery,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> DocumentsResponse:
    """The namespace's documents (id, title, source, chunk count), ordered by title, a page at a time."""
    docs = await container.ingestor.list_documents(namespace, offset=offset, limit=limit)
    return DocumentsResponse(request_id=request_id_var.get(), namespace=namespace, documents=docs)


@router.delete(
    "/documents/{doc_id}",
    response_model=IngestResponse,
    responses=ERROR_RESPONSES,
    dependencies=[Depends(require_admin)],
)
async def delete_document(
    doc_id: Annotated[str, PathParam(min_length=1, max_length=200, pattern=r"^[A-Za-z0-9_.:-]+$")],
    namespace: NamespaceQuery,
    container: ContainerDep,
) -> IngestResponse:
    """Remove one document (its page, chunks, links and vectors; 404 when absent) and invalidate the namespace's
    cached results."""
    report = await container.ingestor.delete_document(namespace, doc_id)
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
