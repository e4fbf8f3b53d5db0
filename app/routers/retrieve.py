from __future__ import annotations

from fastapi import APIRouter

from app.deps import QADep
from app.routers.errors import ERROR_RESPONSES
from app.schemas import RetrieveRequest, RetrieveResponse

router = APIRouter(tags=["retrieval"])


@router.post("/retrieve", response_model=RetrieveResponse, responses=ERROR_RESPONSES)
async def retrieve(req: RetrieveRequest, qa: QADep) -> RetrieveResponse:
    """Ranked context items with scores and provenance."""
    return await qa.retrieve(req)
