"""App factory: ``create_app(settings)`` builds the FastAPI app; its lifespan starts and closes the container."""

from __future__ import annotations

import json
import logging
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.container import Container
from app.errors import AppError, DependencyError, OverloadedError
from app.observability import BACKEND_ERRORS, REQUEST_LATENCY, REQUESTS, request_id_var, setup_logging
from app.retrievers.registry import enabled_modes, installed_modes
from app.routers import admin, ask, health, retrieve
from app.schemas import TRACE_DESCRIPTION
from app.settings import Settings

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


class RequestContextMiddleware:
    """Request id (``X-Request-ID`` in and out), body-size limit (413), per-route metrics. Pure ASGI, so it also
    sees streamed bodies."""

    def __init__(self, app: ASGIApp, *, max_body_bytes: int, admin_max_body_bytes: int) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.admin_max_body_bytes = admin_max_body_bytes

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
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], (b"x-request-id", rid.encode("latin-1"))]
            await send(message)

        async def too_large() -> None:
            body = json.dumps(error_body(413, "payload_too_large", f"request body exceeds {limit} bytes")).encode()
            await send_wrapper(
                {
                    "type": "http.response.start",
                    "status": 413,
                    "headers": [(b"content-type", b"application/json")],
                }
            )
            await send({"type": "http.response.body", "body": body})

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
                    if received > limit:
                        raise _BodyTooLarge
                return message

            try:
                await self.app(scope, limited_receive, send_wrapper)
            except _BodyTooLarge:
                await too_large()
        finally:
            route = scope.get("route")
            path = getattr(route, "path", None) or "unmatched"
            method = scope.get("method", "GET")
            REQUESTS.labels(route=path, method=method, status=str(status_holder["status"])).inc()
            REQUEST_LATENCY.labels(route=path, method=method).observe(time.perf_counter() - t0)
            request_id_var.reset(token)


class _BodyTooLarge(Exception):
    pass


def _validation_details(exc: RequestValidationError) -> list[dict[str, Any]]:
    # never echo the offending input back (it may be a 100 kB question)
    return [{"loc": list(e.get("loc", ())), "msg": e.get("msg", ""), "type": e.get("type", "")} for e in exc.errors()]


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(AppError)
    async def _app_error(request: Request, exc: AppError) -> JSONResponse:
        headers = {"Retry-After": str(exc.retry_after_s)} if isinstance(exc, OverloadedError) else None
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
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return JSONResponse(error_body(exc.status_code, code, str(exc.detail)), status_code=exc.status_code)

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
        try:
            yield
        finally:
            app.state.container = None
            if owned:
                await c.close()

    app = FastAPI(
        title="GraphRAG retrieval service",
        version="0.1.0",
        description="Answers questions over knowledge graphs and document collections: `POST /ask` (answer, "
        "citations, trace) and `POST /retrieve` (ranked items with provenance).",
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.container = None
    install_error_handlers(app)
    app.add_middleware(
        RequestContextMiddleware,  # type: ignore[arg-type]
        max_body_bytes=settings.server.max_body_bytes,
        admin_max_body_bytes=settings.ingest.max_inline_bytes,
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
