from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import StreamingResponse

from app.cache import cached
from app.deps import CacheDep, PrincipalDep, QADep
from app.routers.errors import ERROR_RESPONSES
from app.schemas import AskRequest, AskResponse

router = APIRouter(tags=["qa"])


@router.post(
    "/ask",
    response_model=AskResponse,
    responses={
        **ERROR_RESPONSES,
        200: {"content": {"text/event-stream": {}}, "description": "JSON, or SSE when stream=true"},
    },
)
async def ask(req: AskRequest, qa: QADep, cache: CacheDep, who: PrincipalDep) -> AskResponse | StreamingResponse:
    """Answer with citations and the retrieval trace; ``stream: true`` sends server-sent events (never cached)."""
    who.require(req.namespace)
    if req.stream:
        events = await qa.ask_stream(req)
        return StreamingResponse(events, media_type="text/event-stream", headers={"Cache-Control": "no-cache"})
    params = qa.cache_params(req)
    return await cached(cache, "/ask", req.namespace, params, AskResponse, lambda: qa.ask(req), enabled=req.cache)
