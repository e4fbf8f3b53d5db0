from __future__ import annotations

from fastapi import APIRouter

from app.cache import cached
from app.deps import CacheDep, PrincipalDep, QADep
from app.routers.errors import ERROR_RESPONSES
from app.schemas import RetrieveRequest, RetrieveResponse

router = APIRouter(tags=["retrieval"])


@router.post("/retrieve", response_model=RetrieveResponse, responses=ERROR_RESPONSES)
async def retrieve(req: RetrieveRequest, qa: QADep, cache: CacheDep, who: PrincipalDep) -> RetrieveResponse:
    """Ranked context items with scores and provenance (``cached: true`` when served from the result cache)."""
    who.require(req.namespace)
    params = qa.cache_params(req)
    return await cached(
        cache, "/retrieve", req.namespace, params, RetrieveResponse, lambda: qa.retrieve(req), enabled=req.cache
    )
