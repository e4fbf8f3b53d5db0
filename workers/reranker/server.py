"""The reranker service: ``create_app(settings)`` builds a FastAPI app hosting a sentence-transformers
``CrossEncoder`` behind ``POST /v1/rerank``, with dynamic micro-batching across requests (``batcher.py``).

Errors share one envelope, ``{"error": {"code", "message"}}``: 422 for input outside the limits, 503 +
``Retry-After`` when the queue cannot take the whole request, 504 when a request is not scored in time.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from pydantic import BaseModel, ConfigDict, Field

from workers.reranker.batcher import Batcher, BatcherStopped, Model, QueueFull
from workers.reranker.settings import RerankerServiceSettings

log = logging.getLogger("workers.reranker")

PAIR_BUCKETS = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192)
REQUEST_BUCKETS = (1, 2, 3, 4, 6, 8, 12, 16, 32, 64, 128)
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60)


class Metrics:
    """Prometheus metrics in a registry of their own (one per app, so several apps can live in one process)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.requests = Counter("reranker_requests_total", "Rerank requests by outcome", ["outcome"], registry=r)
        self.rejected = Counter("reranker_rejected_total", "Requests refused because the queue was full", registry=r)
        self.pairs = Counter("reranker_pairs_total", "(query, document) pairs scored", registry=r)
        self.batch_pairs = Histogram("reranker_batch_pairs", "Pairs per model batch", buckets=PAIR_BUCKETS, registry=r)
        self.batch_requests = Histogram(
            "reranker_batch_requests", "Distinct requests per model batch", buckets=REQUEST_BUCKETS, registry=r
        )
        self.batch_seconds = Histogram(
            "reranker_batch_seconds", "Model time per batch", buckets=LATENCY_BUCKETS, registry=r
        )
        self.request_seconds = Histogram(
            "reranker_request_seconds", "Time from arrival to answer", buckets=LATENCY_BUCKETS, registry=r
        )
        self.queue_depth = Gauge("reranker_queue_depth", "Pairs waiting for the model", registry=r)


class RerankRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    query: str = Field(description="The question.")
    documents: list[str] = Field(description="Texts to score against the query.")
    top_k: int | None = Field(None, ge=1, description="Length of `ranking` (all documents when unset).")


class RerankResponse(BaseModel):
    model: str
    scores: list[float] = Field(description="One score per document, in the order of the request.")
    ranking: list[int] = Field(description="Document indices, best first (ties keep request order).")


class ServiceError(Exception):
    def __init__(self, status: int, code: str, message: str, *, retry_after_s: int | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.retry_after_s = status, code, message, retry_after_s


def _error(status: int, code: str, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status, headers=headers)


def pick_device(configured: str | None) -> str:
    if configured:
        return configured
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"


def load_cross_encoder(settings: RerankerServiceSettings) -> tuple[Model, str]:
    """An ONNX cross-encoder folder (``model.onnx`` + ``tokenizer.json``, or ``packaged:<name>``) runs on
    onnxruntime (CPU); anything else is a sentence-transformers ``CrossEncoder``."""
    from onnxmodels import OnnxCrossEncoder, is_onnx_folder, resolve_model

    path = resolve_model(settings.model)
    if is_onnx_folder(path):
        # unset max_length: the runner's own default
        limit = {} if settings.max_length is None else {"max_length": settings.max_length}
        onnx = OnnxCrossEncoder(
            path,
            batch_size=settings.onnx_batch_pairs,
            batch_tokens=settings.onnx_batch_tokens,
            threads=settings.threads,
            passes_at_once=settings.onnx_passes_at_once,
            **limit,
        )
        return onnx, "cpu (onnxruntime)"
    from sentence_transformers import CrossEncoder

    device = pick_device(settings.device)
    model = CrossEncoder(settings.model, device=device, max_length=settings.max_length)
    return model, device


class RerankerService:
    """What the app holds: settings, the model, the batcher and the metrics."""

    def __init__(self, settings: RerankerServiceSettings, model: Model | None = None) -> None:
        self.settings = settings
        self.metrics = Metrics()
        self.model = model
        self.device = "injected" if model is not None else "unloaded"
        self.batcher: Batcher | None = None

    async def start(self) -> None:
        model = self.model
        if model is None:
            t0 = time.perf_counter()
            loaded, self.device = await asyncio.to_thread(load_cross_encoder, self.settings)
            self.model = model = loaded
            log.info(
                "loaded cross-encoder %s on %s in %.1f s", self.settings.model, self.device, time.perf_counter() - t0
            )
        s = self.settings
        self.batcher = Batcher(
            model,
            max_batch_pairs=s.max_batch_pairs,
            max_wait_ms=s.max_wait_ms,
            max_queue_pairs=s.max_queue_pairs,
            min_retry_after_s=s.retry_after_s,
            max_retry_after_s=s.max_retry_after_s,
            metrics=self.metrics,
        )
        self.batcher.start()

    async def stop(self) -> None:
        if self.batcher is not None:
            await self.batcher.stop()

    @property
    def ready(self) -> bool:
        return self.batcher is not None and self.batcher.running

    def validate(self, req: RerankRequest) -> None:
        s = self.settings
        if len(req.documents) > s.max_documents:
            raise ServiceError(
                422, "too_many_documents", f"{len(req.documents)} documents; at most {s.max_documents} per request"
            )
        if len(req.query) > s.max_query_chars:
            raise ServiceError(
                422, "query_too_long", f"query has {len(req.query)} characters; at most {s.max_query_chars}"
            )
        for i, d in enumerate(req.documents):
            if len(d) > s.max_document_chars:
                raise ServiceError(
                    422,
                    "document_too_long",
                    f"documents[{i}] has {len(d)} characters; at most {s.max_document_chars}",
                )

    async def rerank(self, req: RerankRequest, request: Request | None = None) -> RerankResponse:
        self.validate(req)
        if self.batcher is None or not self.batcher.running:
            raise ServiceError(503, "not_ready", "the model is not loaded", retry_after_s=self.settings.retry_after_s)
        try:
            future = self.batcher.submit(req.query, req.documents)
        except QueueFull as exc:
            self.metrics.rejected.inc()
            raise ServiceError(
                503,
                "overloaded",
                f"reranker queue is full ({exc.waiting} of {exc.capacity} pairs waiting, this request has "
                f"{len(req.documents)}); retry after {exc.retry_after_s} s",
                retry_after_s=exc.retry_after_s,
            ) from exc
        except BatcherStopped as exc:
            raise ServiceError(503, "not_ready", str(exc), retry_after_s=self.settings.retry_after_s) from exc
        scores = await self._wait(future, request)
        self.metrics.pairs.inc(len(scores))
        order = sorted(range(len(scores)), key=lambda i: -scores[i])
        if req.top_k is not None:
            order = order[: req.top_k]
        return RerankResponse(model=self.settings.served_name, scores=scores, ranking=order)

    async def _wait(self, future: asyncio.Future[list[float]], request: Request | None) -> list[float]:
        """Await the scores; give up (cancelling the future, so the batcher skips the pairs) on timeout, on client
        disconnect, or when this handler is cancelled."""
        watcher = asyncio.ensure_future(_disconnected(request)) if request is not None else None
        waiters: set[asyncio.Future[Any]] = {future} if watcher is None else {future, watcher}
        try:
            done, _ = await asyncio.wait(
                waiters, timeout=self.settings.request_timeout_s, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            if watcher is not None:
                watcher.cancel()
            if not future.done():
                future.cancel()
        if future in done:
            try:
                return future.result()
            except BatcherStopped as exc:
                raise ServiceError(503, "not_ready", str(exc), retry_after_s=self.settings.retry_after_s) from exc
            except asyncio.CancelledError as exc:
                raise ServiceError(503, "cancelled", "the request was cancelled") from exc
            except Exception as exc:
                raise ServiceError(500, "model_error", f"the model failed: {type(exc).__name__}") from exc
        if watcher is not None and watcher in done:
            raise ServiceError(499, "client_closed", "the client went away")
        raise ServiceError(504, "timeout", f"not scored within {self.settings.request_timeout_s:g} s")


async def _disconnected(request: Request) -> None:
    """Return when the client disconnects (the body has been read, so the next message is the disconnect)."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            return


def create_app(settings: RerankerServiceSettings | None = None, *, model: Model | None = None) -> FastAPI:
    """The service app. ``model`` injects an object with ``CrossEncoder.predict`` semantics (tests); without it the
    lifespan loads ``settings.model``."""
    settings = settings or RerankerServiceSettings()
    service = RerankerService(settings, model)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await service.start()
        try:
            yield
        finally:
            await service.stop()

    app = FastAPI(title="reranker", version="1.0", lifespan=lifespan)
    app.state.service = service

    @app.exception_handler(ServiceError)
    async def _service_error(request: Request, exc: ServiceError) -> JSONResponse:
        outcome = {503: "rejected" if exc.code == "overloaded" else "unavailable", 504: "timeout"}.get(exc.status)
        service.metrics.requests.labels(outcome=outcome or ("invalid" if exc.status < 500 else "error")).inc()
        headers = {"Retry-After": str(exc.retry_after_s)} if exc.retry_after_s is not None else None
        return _error(exc.status, exc.code, exc.message, headers)

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        service.metrics.requests.labels(outcome="invalid").inc()
        parts = []
        for e in exc.errors()[:5]:
            loc = ".".join(str(x) for x in e.get("loc", ()) if x != "body") or "body"
            parts.append(f"{loc}: {e.get('msg', '')}")
        return _error(422, "invalid_input", "; ".join(parts))

    @app.post("/v1/rerank", response_model=RerankResponse)
    async def rerank(req: RerankRequest, request: Request) -> RerankResponse:
        t0 = time.perf_counter()
        res = await service.rerank(req, request)
        service.metrics.requests.labels(outcome="ok").inc()
        service.metrics.request_seconds.observe(time.perf_counter() - t0)
        return res

    @app.get("/health")
    async def health() -> JSONResponse:
        body = {
            "status": "ok" if service.ready else "loading",
            "model": settings.served_name,
            "device": service.device,
            "max_documents": settings.max_documents,
            "queue_pairs": service.batcher.waiting if service.batcher else 0,
        }
        return JSONResponse(body, status_code=200 if service.ready else 503)

    @app.get("/metrics")
    async def metrics() -> Response:
        return Response(generate_latest(service.metrics.registry), media_type="text/plain; version=0.0.4")

    return app
