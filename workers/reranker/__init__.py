"""Reranker service: a sentence-transformers ``CrossEncoder`` behind ``POST /v1/rerank`` with dynamic micro-batching
(bounded queue, 503 + Retry-After when full). Depends on fastapi, uvicorn, sentence-transformers, prometheus-client
and pydantic-settings only, never on ``app`` (so its image stays small). See README.md here."""

from workers.reranker.server import create_app
from workers.reranker.settings import RerankerServiceSettings

__all__ = ["RerankerServiceSettings", "create_app"]
