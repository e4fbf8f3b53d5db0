"""App factory: ``create_app(settings)`` builds the FastAPI app; its lifespan starts and closes the container."""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import math
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import BaseRoute, Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.auth import ANONYMOUS, KeyStore, Principal, RateLimiter, principal_of
from app.container import Container
from app.errors import AppError, DependencyError
from app.observability import BACKEND_ERRORS, REQUEST_LATENCY, REQUESTS, request_id_var, setup_logging
from app.retrievers.registry import enabled_modes, installed_modes
from app.routers import admin, ask, health, retrieve
from app.schemas import TRACE_DESCRIPTION
from app.settings import Settings
from app.training.jobs import TuneJobs

log = logging.getLogger(__name__)


def error_body(status: int, code: str, message: str, *, retryable: bool = False, details: Any = None) -> dict:
    return {
        "error": {
            "code": code,
            "message": message,
            "type": "client_error" if status < 500 else "server_error",
            "retryable": retryable,
            "request_id": request_id_var.get(),
            "details": details,
        }
    }


async def send_error(
    send: Send, status: int, code: str, message: str, *, retryable: bool = False, headers: dict[str, str] | None = None
) -> None:
    """An error response in the shared envelope, from a pure ASGI middleware (where no exception handler runs)."""
    extra = [(k.encode(), v.encode()) for k, v in (headers or {}).items()]
    await send(
        {"type": "http.response.start", "status": status, "headers": [(b"content-type", b"application/json"), *extra]}
    )
    body = error_body(status, code, message, retryable=retryable)
    await send({"type": "http.response.body", "body": json.dumps(body).encode()})


def _flat(routes: Sequence[BaseRoute]) -> Iterator[BaseRoute]:
    """The routes of an app, those of included routers too (FastAPI keeps them as router entries)."""
    for r in routes:
        included = getattr(r, "original_router", None)
        if included is not None:
            yield from _flat(included.routes)
        else:
            yield r


class RequestContextMiddleware:
    """Request id (``X-Request-ID`` in and out), body-size limit (413), per-route metrics. Pure ASGI, so it also
    sees streamed bodies."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        max_body_bytes: int,
        admin_max_body_bytes: int,
        routes: Callable[[], Sequence[BaseRoute]] = list,
    ) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.admin_max_body_bytes = admin_max_body_bytes
        self.routes = routes

    def route_of(self, scope: Scope) -> str:
        """The route template of a request, also for one refused before routing (401, 429, 413, 504): metrics
        count refusals under the route they were for; ``unmatched`` only for paths no route has."""
        route = scope.get("route")
        if route is not None:
            return str(getattr(route, "path", "unmatched"))
        for r in _flat(self.routes()):
            if r.matches(scope)[0] != Match.NONE:
                return str(getattr(r, "path", "unmatched"))
        return "unmatched"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        rid = headers.get(b"x-request-id", b"").decode("latin-1")[:64] or uuid.uuid4().hex
        token = request_id_var.set(rid)
        limit = self.admin_max_body_bytes if scope["path"].startswith("/admin") else self.max_body_bytes
        status_holder = {"status": 500}
        t0 = time.perf_counter()

        async def send_wrapper(message: Message) -> None:
            if message["type"] == "http.response.start":
                status_holder["status"] = message["status"]
                status_holder["started"] = 1
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], (b"x-request-id", rid.encode("latin-1"))]
            await send(message)

        async def too_large() -> None:
            await send_error(send_wrapper, 413, "payload_too_large", f"request body exceeds {limit} bytes")

        try:
            declared = headers.get(b"content-length")
            if declared is not None and declared.isdigit() and int(declared) > limit:
                await too_large()
                return
            received = 0

            async def limited_receive() -> Message:
                nonlocal received
                message = await receive()
                if message["type"] == "http.request":
                    received += len(message.get("body", b""))
                    if received > limit:  # a streamed (chunked) body: nothing more is read
                        raise _BodyTooLarge(limit)
                return message

            try:
                await self.app(scope, limited_receive, send_wrapper)
            except _BodyTooLarge:
                await too_large()
            except Exception:
                # here, not in Starlette's outermost error middleware: the request id is still set for the log line,
                # the body and the header
                log.exception("unhandled error on %s %s", scope.get("method", "GET"), scope["path"])
                if status_holder.get("started"):
                    raise
                await send_error(send_wrapper, 500, "internal_error", "internal error; see the server log")
        finally:
            path = self.route_of(scope)
            method = scope.get("method", "GET")
            REQUESTS.labels(route=path, method=method, status=str(status_holder["status"])).inc()
            REQUEST_LATENCY.labels(route=path, method=method).observe(time.perf_counter() - t0)
            request_id_var.reset(token)


class _BodyTooLarge(StarletteHTTPException):
    """Raised from ``receive``: an ``HTTPException``, so FastAPI's body parsing passes it on (any other error there
    becomes a 400 "error parsing the body") and the handler renders the 413."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"request body exceeds {limit} bytes")


PUBLIC_PATHS = frozenset({"/healthz", "/readyz"})


class DeadlineMiddleware:
    """Every request but the probes and ``/metrics`` gets ``server.request_timeout_s`` until its response starts:
    past it, a 504 ``request_timeout`` and its work is cancelled. A client that disconnects before its response
    starts has its work cancelled too (recorded as 499), so abandoned requests do not starve the next ones. A
    response that has started (a stream) is left to finish: Starlette ends it when its client goes."""

    def __init__(self, app: ASGIApp, *, timeout_s: float, ingest_timeout_s: float | None = None) -> None:
        self.app = app
        self.timeout_s = timeout_s
        self.ingest_timeout_s = ingest_timeout_s or timeout_s
        """``POST /admin/ingest``'s own (longer) deadline."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] in PUBLIC_PATHS or scope["path"] == "/metrics":
            await self.app(scope, receive, send)
            return
        timeout_s = self.ingest_timeout_s if scope["path"] in ("/admin/ingest", "/admin/index") else self.timeout_s
        started, body_read = asyncio.Event(), asyncio.Event()

        async def send_wrapper(message: Message) -> None:
            if message["type"] == "http.response.start":
                started.set()
            await send(message)

        async def receive_wrapper() -> Message:
            message = await receive()
            if message["type"] != "http.request" or not message.get("more_body", False):
                body_read.set()
            return message

        async def client_gone() -> None:
            await body_read.wait()  # then the only message left is the disconnect
            while (await receive())["type"] != "http.disconnect":
                pass

        work = asyncio.ensure_future(self.app(scope, receive_wrapper, send_wrapper))
        gone = asyncio.ensure_future(client_gone())
        begun = asyncio.ensure_future(started.wait())
        try:
            await asyncio.wait({work, gone, begun}, timeout=timeout_s, return_when=asyncio.FIRST_COMPLETED)
            if not work.done() and not started.is_set():
                work.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await work
                if gone.done():
                    await send_wrapper({"type": "http.response.start", "status": 499, "headers": []})
                    await send({"type": "http.response.body", "body": b""})
                else:
                    await send_error(send, 504, "request_timeout", f"no response within {timeout_s:g} s")
                return
            gone.cancel()
            await work
        finally:
            for t in (gone, begun):
                t.cancel()
            if not work.done():
                work.cancel()


class AuthMiddleware:
    """Who is asking (``app/auth.py``), decided from the headers before the body is read: 401 without a valid key,
    403 for an admin route without an admin key, 429 + ``Retry-After`` over the key's rate. The caller is put in
    ``scope["state"]["principal"]`` for the routes (namespace scopes)."""

    def __init__(self, app: ASGIApp, *, settings: Settings, keys: KeyStore, limiter: RateLimiter) -> None:
        self.app = app
        self.settings = settings
        self.keys = keys
        self.limiter = limiter
        self.public = PUBLIC_PATHS | ({"/metrics"} if settings.server.public_metrics else set())

    def resolve(self, authorization: str | None) -> Principal | None:
        token = authorization[7:].strip() if authorization and authorization[:7].lower() == "bearer " else ""
        admin = self.settings.server.admin_token
        if token and admin is not None and hmac.compare_digest(token.encode(), admin.get_secret_value().encode()):
            return Principal("admin-token", "admin token", None, admin=True, rate_per_min=None)
        if token:
            key = self.keys.authenticate(token)
            if key is not None:
                return principal_of(key, self.settings.server.rate_per_min)
        return ANONYMOUS if not self.keys.entries() else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] in self.public:
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        raw = headers.get(b"authorization")
        who = self.resolve(raw.decode("latin-1") if raw is not None else None)
        refusal: tuple[int, str, str, dict[str, str]] | None = None
        if scope["path"].startswith("/admin") and (who is None or not who.admin):
            if self.settings.server.admin_token is None and not any(k.admin for k in self.keys.entries()):
                refusal = (
                    403,
                    "forbidden",
                    "admin endpoints are disabled: create an admin key "
                    "(python -m app keys create --admin) or set GRAPHRAG_SERVER__ADMIN_TOKEN",
                    {},
                )
            elif who is None or who is ANONYMOUS:
                refusal = (401, "unauthorized", "missing or wrong bearer token", {"www-authenticate": "Bearer"})
            else:
                refusal = (403, "forbidden", "this key is not an admin key", {})
        elif who is None:
            refusal = (
                401,
                "unauthorized",
                "missing or wrong API key (Authorization: Bearer <key>)",
                {"www-authenticate": "Bearer"},
            )
        elif who.rate_per_min is not None:
            wait = await self.limiter.hit(who.id, who.rate_per_min)
            if wait > 0:
                retry = str(max(1, math.ceil(wait)))
                refusal = (
                    429,
                    "rate_limited",
                    f"over {who.rate_per_min} requests per minute; retry in {retry} s",
                    {"retry-after": retry},
                )
        if refusal is not None:
            status, code, message, extra = refusal
            await send_error(send, status, code, message, retryable=status == 429, headers=extra)
            return
        scope.setdefault("state", {})["principal"] = who
        await self.app(scope, receive, send)


def _validation_details(exc: RequestValidationError) -> list[dict[str, Any]]:
    # never echo the offending input back (it may be a 100 kB question)
    return [{"loc": list(e.get("loc", ())), "msg": e.get("msg", ""), "type": e.get("type", "")} for e in exc.errors()]


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(AppError)
    async def _app_error(request: Request, exc: AppError) -> JSONResponse:
        headers = {"Retry-After": str(exc.retry_after_s)} if exc.retryable and exc.retry_after_s else None
        if isinstance(exc, DependencyError):  # a failed request; degraded ones count where they degrade
            BACKEND_ERRORS.labels(backend=exc.backend).inc()
        if exc.status >= 500:
            log.warning("%s: %s", exc.code, exc.message)
        return JSONResponse(
            error_body(exc.status, exc.code, exc.message, retryable=exc.retryable, details=exc.details),
            status_code=exc.status,
            headers=headers,
        )

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        details = _validation_details(exc)
        if any(d["type"] == "json_invalid" for d in details):
            return JSONResponse(
                error_body(400, "malformed_json", "the request body is not valid JSON", details=details),
                status_code=400,
            )
        summary = "; ".join(
            f"{'.'.join(str(x) for x in d['loc'] if x != 'body') or 'body'}: {d['msg']}" for d in details[:5]
        )
        return JSONResponse(error_body(422, "invalid_input", summary, details=details), status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        codes = {400: "malformed_body", 404: "not_found", 405: "method_not_allowed", 413: "payload_too_large"}
        code = codes.get(exc.status_code, "http_error")
        return JSONResponse(
            error_body(exc.status_code, code, str(exc.detail)),
            status_code=exc.status_code,
            headers=getattr(exc, "headers", None),  # 405: Allow
        )

    @app.exception_handler(Exception)
    async def _unhandled(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error on %s %s", request.method, request.url.path)
        return JSONResponse(error_body(500, "internal_error", "internal error; see the server log"), status_code=500)


def install_openapi(app: FastAPI, traces: dict[str, type[BaseModel]]) -> None:
    """The OpenAPI document with each mode's trace model: ``trace`` of ``RetrieveResponse`` (and ``retrieval`` of
    ``AskTrace``) is one of them, by the response's ``mode``. Built once, on the first request for it."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            doc = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
            comps = doc.setdefault("components", {}).setdefault("schemas", {})
            refs = []
            for mode, model in traces.items():
                schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
                for name, sub in schema.pop("$defs", {}).items():
                    if comps.setdefault(name, sub) != sub:
                        log.warning("OpenAPI: two trace models define a different %s; the schema shows one", name)
                schema["description"] = f"Trace of mode `{mode}`. " + str(schema.get("description", ""))
                comps[model.__name__] = schema
                refs.append({"$ref": f"#/components/schemas/{model.__name__}"})
            one_of = {"anyOf": refs, "description": TRACE_DESCRIPTION}
            for owner, prop in (("RetrieveResponse", "trace"), ("AskTrace", "retrieval")):
                if owner in comps:
                    comps[owner]["properties"][prop] = one_of
            app.openapi_schema = doc
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def create_app(settings: Settings | None = None, *, container: Container | None = None) -> FastAPI:
    """Build the app. ``container`` lets tests and the CLI hand over an already started one (not closed by the
    lifespan then)."""
    settings = settings or (container.settings if container else Settings())

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        owned = container is None
        c = container or await Container.start(settings)
        app.state.container = c
        app.state.limiter.client = c.cache.client if c.cache is not None else None  # one window for all replicas
        recovery = asyncio.create_task(c.ingestor.recover_forever())  # ingests a crash or a stop cut off
        warm = asyncio.create_task(c.prewarm(settings.server.prewarm_namespaces))  # /readyz: "warming" meanwhile
        app.state.warm, app.state.warm_until = warm, time.monotonic() + settings.server.prewarm_ready_s
        if settings.server.prewarm_namespaces > 0:
            c.ingestor.on_change.append(c.warm_later)  # an ingested namespace is prepared again at once
        app.state.tune_jobs = TuneJobs(c)
        try:
            yield
        finally:
            await app.state.tune_jobs.close()
            for task in (warm, recovery):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            app.state.container = None
            if owned:
                await c.close()

    app = FastAPI(
        title="GraphRAG retrieval service",
        version="0.1.0",
        description="Answers questions over knowledge graphs and document collections: `POST /ask` (answer, "
        "citations, trace) and `POST /retrieve` (ranked items with provenance).",
        lifespan=lifespan,
        redirect_slashes=False,  # "/admin/documents/" is a 404, not a redirect to a route of another method
    )
    app.state.settings = settings
    app.state.container = None
    install_error_handlers(app)
    keys = KeyStore(settings.keys_path)
    if not keys.entries():
        if settings.environment == "production":
            raise RuntimeError(
                f"environment=production needs API keys: none in {settings.keys_path} "
                "(python -m app keys create --name NAME --namespaces NS)"
            )
        log.warning("no API keys in %s: every route is open (development)", settings.keys_path)
    app.state.keys, app.state.limiter = keys, RateLimiter(timeout_s=settings.cache.timeout_s)
    app.add_middleware(
        DeadlineMiddleware,  # type: ignore[arg-type]
        timeout_s=settings.server.request_timeout_s,
        ingest_timeout_s=settings.server.ingest_timeout_s,
    )
    app.add_middleware(
        AuthMiddleware,  # type: ignore[arg-type]
        settings=settings,
        keys=keys,
        limiter=app.state.limiter,
    )
    app.add_middleware(
        RequestContextMiddleware,  # type: ignore[arg-type]
        max_body_bytes=settings.server.max_body_bytes,
        admin_max_body_bytes=settings.ingest.max_inline_bytes,
        routes=lambda: app.router.routes,
    )
    for r in (retrieve.router, ask.router, admin.router, health.router):
        app.include_router(r)
    modes = list(container.retrievers) if container is not None else enabled_modes(settings)
    install_openapi(app, {m: installed_modes()[m].Trace for m in modes})
    return app


def app_from_env() -> FastAPI:
    """Factory for ``uvicorn --factory app.main:app_from_env``."""
    settings = Settings()
    setup_logging(settings.server.log_level, settings.server.log_json)
    return create_app(settings)
