"""Result cache of ``/retrieve`` and ``/ask`` in Redis (a Redis server, or the embedded FalkorDB server's own).

Key: ``graphrag:rc:<route>:<namespace>:<version>:<sha256>`` where the SHA-256 covers the normalised request
(question with whitespace collapsed, the resolved mode and top_k, filters, namespace, answer length) and a
fingerprint of the settings that change results; ``version`` is the namespace's index version, a Redis counter
that every ingest into the namespace bumps (``Ingestor.on_change``), so an entry computed before an ingest is never
read after it. Entries expire after ``cache.ttl_s``.

Single flight: identical requests in one process share one computation (a future per key); across replicas the
first takes a short ``SET NX`` lock and the others poll for its result for at most ``cache.lock_wait_s``, then
compute anyway. Every Redis call is bounded by ``cache.timeout_s``; a failure or timeout is counted
(``graphrag_cache_errors_total``), logged at most every 30 s, and the request goes on uncached: the cache never
fails a request. Responses that carry warnings (a degraded dependency) are not stored.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import time
import uuid
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

from app.llm.adapters import adapter_version
from app.observability import BACKEND_ERRORS, CACHE_ERRORS, CACHE_REQUESTS, request_id_var
from app.retrievers.registry import fingerprint_data
from app.retrievers.types import CacheHit
from app.settings import Settings

log = logging.getLogger(__name__)

R = TypeVar("R", bound=BaseModel)

PREFIX = "graphrag:rc"
_RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
_WARN_EVERY_S = 30.0


def files_identity(path: Path | None) -> list[list[Any]]:
    """Name, size and modification time of the files of a model folder (or file): retraining an adapter into the same
    path changes it, without reading the weights."""
    if path is None or not path.exists():
        return []
    files = sorted(f for f in ([path] if path.is_file() else path.rglob("*")) if f.is_file())
    return [[str(f.relative_to(path) if f != path else f.name), f.stat().st_size, f.stat().st_mtime_ns] for f in files]


def settings_fingerprint(settings: Settings) -> str:
    """Hash of the settings that change what /retrieve and /ask return, so replicas configured differently never
    share entries and a retrained adapter never serves answers cached from the old one: the models (with each role's
    adapter files), the shared retrieval settings, and every enabled mode's class and validated config, defaults
    included (``registry.fingerprint_data``: a new mode cannot forget to add itself)."""
    llm = settings.llm
    relevant = {
        "embedder": settings.embedder.model,
        "llm": llm.model_dump(
            mode="json", include={"backend", "model", "vllm_model", "temperature", "max_new_tokens", "context_chars"}
        ),
        "roles": {
            role: {"vllm_lora": r.vllm_lora, "adapter_files": files_identity(r.adapter)}
            for role, r in llm.roles().items()
        },
        "reranker": settings.reranker.model_dump(mode="json"),
        "retrieval": settings.retrieval.model_dump(mode="json"),
        "modes": fingerprint_data(settings),
    }
    return hashlib.sha256(json.dumps(relevant, sort_keys=True, default=str).encode()).hexdigest()[:16]


def normalise_question(question: str) -> str:
    return " ".join(question.split())


class ResultCache:
    """A small Redis-backed cache: ``get``/``set`` of bytes, per-namespace ``version``/``bump_version``, a
    cross-replica lock, and :meth:`cached`. Every method swallows Redis failures (counted and logged)."""

    def __init__(
        self,
        client: Any,
        *,
        ttl_s: int = 3600,
        timeout_s: float = 0.5,
        lock_ttl_s: float = 30.0,
        lock_wait_s: float = 10.0,
        fingerprint: str = "",
        tuned: Callable[[str], object] | None = None,
    ) -> None:
        self.client = client
        self.tuned = tuned
        """The version of what tuning made for a namespace (its adapter): part of every key, so that answers
        computed before a ``tune`` are never served after it, even by a replica that missed the version bump."""
        self.ttl_s = ttl_s
        self.timeout_s = timeout_s
        self.lock_ttl_s = lock_ttl_s
        self.lock_wait_s = lock_wait_s
        self.fingerprint = fingerprint
        self._inflight: dict[str, asyncio.Future[bytes | None]] = {}
        self._pending_bumps: set[str] = set()
        self._last_warning = 0.0
        self._suppressed = 0

    @classmethod
    def connect(cls, settings: Settings, graph: Any = None) -> ResultCache | None:
        """The cache ``settings.cache`` names, or None when it is off. ``embedded`` uses the graph store's server."""
        from redis.asyncio import Redis
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff

        cfg = settings.cache
        if cfg.backend == "off":
            return None
        opts: dict[str, Any] = {
            "socket_timeout": cfg.timeout_s,
            "socket_connect_timeout": cfg.timeout_s,
            "retry": Retry(NoBackoff(), 0),  # one try: a slow cache is skipped, not retried
        }
        if cfg.backend == "redis":
            assert cfg.url is not None
            client = Redis.from_url(cfg.url, **opts)
        else:
            kwargs = getattr(graph, "redis_connection_kwargs", None)
            if kwargs is None:
                log.warning("cache.backend=embedded needs the embedded FalkorDB graph store; cache off")
                return None
            kwargs = dict(kwargs)
            url = kwargs.pop("url", None)
            client = Redis.from_url(url, **opts, **kwargs) if url else Redis(**kwargs, **opts)
        return cls(
            client,
            ttl_s=cfg.ttl_s,
            timeout_s=cfg.timeout_s,
            lock_ttl_s=cfg.lock_ttl_s,
            lock_wait_s=cfg.lock_wait_s,
            fingerprint=settings_fingerprint(settings),
            tuned=lambda namespace: adapter_version(settings, namespace),
        )

    async def ping(self) -> bool:
        return bool(await self._call("ping", lambda: self.client.ping(), False))

    async def close(self) -> None:
        try:
            await self.client.aclose()
        except Exception:  # pragma: no cover - closing a broken connection
            log.debug("closing the cache client failed", exc_info=True)

    # --- failure handling -------------------------------------------------------------------------------------
    _MISSING: Any = object()

    async def _call(self, operation: str, make: Callable[[], Awaitable[Any]], default: Any = None) -> Any:
        """Run one Redis call within ``timeout_s``; on any failure count it, warn (rate-limited), return default."""
        try:
            return await asyncio.wait_for(make(), self.timeout_s)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self._failed(operation, exc)
            return default

    def _failed(self, operation: str, exc: BaseException) -> None:
        CACHE_ERRORS.labels(operation=operation).inc()
        BACKEND_ERRORS.labels(backend="cache").inc()
        now = time.monotonic()
        if now - self._last_warning >= _WARN_EVERY_S:
            more = f" ({self._suppressed} more since the last warning)" if self._suppressed else ""
            name = type(exc).__name__
            log.warning("result cache unavailable, serving uncached: %s %s: %s%s", operation, name, exc, more)
            self._last_warning, self._suppressed = now, 0
        else:
            self._suppressed += 1

    # --- primitives ---------------------------------------------------------------------------------------------
    @staticmethod
    def _version_key(namespace: str) -> str:
        return f"{PREFIX}:version:{namespace}"

    async def version(self, namespace: str) -> int | None:
        """The namespace's index version, or None when Redis cannot say. A missing counter (first use, or Redis lost
        it) starts at the current time in ns, so it never repeats a version that older entries were stored under."""
        if not await self._flush_bumps():
            return None
        key = self._version_key(namespace)
        raw = await self._call("version", lambda: self.client.get(key), self._MISSING)
        if raw is None:

            async def init() -> Any:
                async with self.client.pipeline(transaction=False) as pipe:
                    pipe.set(key, time.time_ns(), nx=True)
                    pipe.get(key)
                    return (await pipe.execute())[1]

            raw = await self._call("version", init, self._MISSING)
        if raw is self._MISSING or raw is None:
            return None
        return int(raw)

    async def bump_version(self, namespace: str) -> bool:
        """Invalidate every cached response of ``namespace``. A bump that fails is retried before the next cache
        read of this process, and until it succeeds this process reads nothing from the cache."""
        key = self._version_key(namespace)

        async def bump() -> Any:
            async with self.client.pipeline(transaction=False) as pipe:
                pipe.set(key, time.time_ns(), nx=True)
                pipe.incr(key)
                return await pipe.execute()

        ok = await self._call("bump_version", bump, None) is not None
        if ok:
            self._pending_bumps.discard(namespace)
        else:
            self._pending_bumps.add(namespace)
        return ok

    async def _flush_bumps(self) -> bool:
        for ns in list(self._pending_bumps):
            if not await self.bump_version(ns):
                return False
        return True

    async def get(self, key: str) -> bytes | None:
        value = await self._call("get", lambda: self.client.get(key))
        return bytes(value) if value is not None else None

    async def set(self, key: str, value: bytes) -> bool:
        return await self._call("set", lambda: self.client.set(key, value, ex=self.ttl_s), None) is not None

    async def _lock(self, key: str, token: str) -> bool | None:
        """True: this caller holds the lock; False: another does; None: Redis failed."""
        px = int(1000 * self.lock_ttl_s)
        res = await self._call("lock", lambda: self.client.set(f"{key}:lock", token, nx=True, px=px), self._MISSING)
        return None if res is self._MISSING else bool(res)

    async def _unlock(self, key: str, token: str) -> None:
        await self._call("lock", lambda: self.client.eval(_RELEASE, 1, f"{key}:lock", token))

    async def key(self, route: str, namespace: str, params: Mapping[str, Any]) -> str | None:
        version = await self.version(namespace)
        if version is None:
            return None
        tuned = self.tuned(namespace) if self.tuned is not None else None
        doc = json.dumps(
            {"route": route, "namespace": namespace, "f": self.fingerprint, "tuned": tuned, **params}, sort_keys=True
        )
        return f"{PREFIX}:{route}:{namespace}:{version}:{hashlib.sha256(doc.encode()).hexdigest()}"

    # --- single flight ------------------------------------------------------------------------------------------
    async def _wait_for_other(self, key: str) -> bytes | None:
        """Poll for the value another replica is computing; None when it does not come (lock gone or time up)."""
        deadline = time.monotonic() + self.lock_wait_s
        delay = 0.02
        while time.monotonic() < deadline:
            await asyncio.sleep(delay)
            delay = min(delay * 2, 0.25)
            value = await self.get(key)
            if value is not None:
                return value
            exists = await self._call("lock", lambda: self.client.exists(f"{key}:lock"), None)
            if not exists:  # the other computation ended without storing (error, warnings) or Redis failed
                return None
        return None

    async def cached(
        self, route: str, namespace: str, params: Mapping[str, Any], model: type[R], compute: Callable[[], Awaitable[R]]
    ) -> R:
        """``compute()``'s response for this request, from the cache when present (``cached=True``)."""
        t0 = time.perf_counter()
        key = await self.key(route, namespace, params)
        if key is None:  # Redis unavailable: no key can be trusted
            CACHE_REQUESTS.labels(route=route, result="bypass").inc()
            return await compute()
        shared = self._inflight.get(key)
        if shared is not None:
            try:
                raw = await asyncio.shield(shared)
            except asyncio.CancelledError:
                if not shared.cancelled():
                    raise
                raw = None  # the computing request went away: compute here
            if raw is not None:
                CACHE_REQUESTS.labels(route=route, result="hit").inc()
                return _restore(model, raw, t0)
            CACHE_REQUESTS.labels(route=route, result="miss").inc()
            return await compute()
        fut: asyncio.Future[bytes | None] = asyncio.get_running_loop().create_future()
        self._inflight[key] = fut
        try:
            raw, result = await self._lookup_or_compute(key, compute)
            fut.set_result(raw)
        except asyncio.CancelledError:
            fut.cancel()
            raise
        except BaseException as exc:
            fut.set_exception(exc)
            fut.exception()  # retrieved: no "never retrieved" warning when nobody shared it
            raise
        finally:
            self._inflight.pop(key, None)
        if result is None:
            assert raw is not None
            CACHE_REQUESTS.labels(route=route, result="hit").inc()
            return _restore(model, raw, t0)
        CACHE_REQUESTS.labels(route=route, result="miss").inc()
        return result

    async def _lookup_or_compute(self, key: str, compute: Callable[[], Awaitable[R]]) -> tuple[bytes | None, R | None]:
        """(stored bytes, None) on a hit; (bytes to share or None, computed response) on a miss."""
        raw = await self.get(key)
        if raw is not None:
            return raw, None
        token = uuid.uuid4().hex
        locked = await self._lock(key, token)
        if locked is False:
            raw = await self._wait_for_other(key)
            if raw is not None:
                return raw, None
        try:
            result = await compute()
            raw = _dump(result) if not getattr(result, "warnings", None) else None
            if raw is not None:
                await self.set(key, raw)
            return raw, result
        finally:
            if locked:
                await self._unlock(key, token)


def _dump(response: BaseModel) -> bytes:
    return json.dumps({"t": time.time(), "r": response.model_dump(mode="json")}).encode()


def _restore(model: type[R], raw: bytes, t0: float) -> R:
    doc = json.loads(raw)
    out = model.model_validate(doc["r"])
    updates: dict[str, Any] = {"cached": True, "request_id": request_id_var.get()}
    trace = getattr(out, "trace", None)
    if isinstance(trace, BaseModel) and "cache" in type(trace).model_fields:
        hit = CacheHit(
            age_s=round(max(0.0, time.time() - float(doc["t"])), 3),
            lookup_ms=round(1000 * (time.perf_counter() - t0), 3),
        )
        updates["trace"] = trace.model_copy(update={"cache": hit})
    return out.model_copy(update=updates)


async def cached(
    cache: ResultCache | None,
    route: str,
    namespace: str,
    params: Mapping[str, Any],
    model: type[R],
    compute: Callable[[], Awaitable[R]],
    *,
    enabled: bool = True,
) -> R:
    """``compute()`` through ``cache`` when there is one and the request allows it, else directly (``bypass``)."""
    if cache is None or not enabled:
        CACHE_REQUESTS.labels(route=route, result="bypass").inc()
        return await compute()
    return await cache.cached(route, namespace, params, model, compute)
