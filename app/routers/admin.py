"""Authenticated admin endpoints (ingestion). Disabled (403) unless ``GRAPHRAG_SERVER__ADMIN_TOKEN`` is set."""

from __future__ import annotations

import hmac
from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Depends, Header

from app.deps import ContainerDep, SettingsDep
from app.errors import AuthError, ForbiddenError, InvalidInputError
from app.ingest.parsers import Document, triples_from_rows
from app.ingest.service import IngestReport
from app.observability import request_id_var
from app.routers.errors import ERROR_RESPONSES
from app.schemas import IngestRequest, IngestResponse

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
        docs = []
        for i, d in enumerate(req.documents):
            if not d.get("text", "").strip():
                raise InvalidInputError(f"documents[{i}] has no text")
            docs.append(Document(d.get("title") or f"document-{i}", d["text"], "request"))
        report = await ing.ingest_documents(req.namespace, docs)
    else:
        if req.format != "cypher":
            raise InvalidInputError("an inline script needs format=cypher")
        assert req.cypher is not None
        report = await ing.ingest_cypher(req.namespace, req.cypher)
    return IngestResponse(
        request_id=request_id_var.get(),
        namespace=report.namespace,
        format=report.format,
        counts=report.counts,
        seconds=report.seconds,
    )
