from __future__ import annotations

import asyncio
import time

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse, PlainTextResponse

from app.container import Container
from app.deps import ContainerDep, PrincipalDep
from app.errors import NotFoundError
from app.observability import BACKEND_UP, metrics_payload
from app.routers.errors import COMMON_RESPONSES, ERROR_RESPONSES
from app.stores.graph.base import check_namespace

router = APIRouter(tags=["ops"])


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    """Liveness: the process answers."""
    return {"status": "ok"}


async def backend_checks(container: Container, *, with_cache: bool = False) -> dict[str, bool]:
    """Ping every backend (5 s at most in all) and record the answers in ``graphrag_backend_up``."""
    checks = {
        "graph": container.graph.ping(),
        "vectors": container.vectors.ping(),
    }
    if container.llm is not None:
        checks["llm"] = container.llm.ping()
    if with_cache and container.cache is not None:
        checks["cache"] = container.cache.ping()
    names = list(checks)
    try:
        results = await asyncio.wait_for(asyncio.gather(*checks.values()), timeout=5)
    except TimeoutError:
        results = [False] * len(names)
    status = {n: bool(r) for n, r in zip(names, results, strict=True)}
    for name, ok in status.items():
        BACKEND_UP.labels(backend=name).set(1 if ok else 0)
    return status


@router.get("/readyz", responses={503: {"description": "Starting, or a backend does not answer"}})
async def readyz(request: Request) -> JSONResponse:
    """Readiness: every backend answers (the optional result cache is not required)."""
    container = getattr(request.app.state, "container", None)
    if container is None:
        return JSONResponse({"status": "starting", "checks": {}}, status_code=503)
    status = {n: ("ok" if r else "down") for n, r in (await backend_checks(container)).items()}
    status["embedder"] = "ok"
    ok = all(v == "ok" for v in status.values())
    warm = getattr(request.app.state, "warm", None)  # the start-up pre-warm (``server.prewarm_namespaces``)
    warming = warm is not None and not warm.done() and time.monotonic() < request.app.state.warm_until
    state = "warming" if ok and warming else "ready" if ok else "not_ready"
    return JSONResponse(
        {"status": state, "checks": status, "modes": sorted(container.retrievers)},
        status_code=200 if state == "ready" else 503,
    )


@router.get("/metrics", responses=COMMON_RESPONSES, response_class=PlainTextResponse)
async def metrics(request: Request) -> Response:
    """Prometheus exposition (every scrape first refreshes ``graphrag_backend_up``)."""
    container = getattr(request.app.state, "container", None)
    if container is not None:
        await backend_checks(container, with_cache=True)
    return Response(metrics_payload(), media_type="text/plain; version=0.0.4; charset=utf-8")


@router.get("/namespaces", responses={**COMMON_RESPONSES, 503: ERROR_RESPONSES[503]})
async def namespaces(container: ContainerDep, who: PrincipalDep) -> dict[str, object]:
    """The caller's namespaces that hold a graph, with node and relationship counts, and ``ingests``: those running,
    cut off (finished at start-up) or failed (kept until the same content is ingested again), when there are any."""
    out = []
    for ns in await container.graph.namespaces():
        if ns.startswith("_") or not who.sees(ns):
            continue
        nodes, rels = await container.graph.counts(ns)
        entry: dict[str, object] = {"namespace": ns, "nodes": nodes, "relationships": rels}
        pending = await container.ingestor.pending(ns)
        if pending:  # running now, or cut off / failed: the namespace may be incomplete
            entry["ingests"] = pending
        out.append(entry)
    return {"namespaces": out, "modes": sorted(container.retrievers)}


@router.get(
    "/namespaces/{namespace}/schema",
    responses={**COMMON_RESPONSES, 404: ERROR_RESPONSES[404], 503: ERROR_RESPONSES[503]},
)
async def namespace_schema(
    namespace: str, container: ContainerDep, who: PrincipalDep, refresh: bool = False
) -> dict[str, object]:
    """The namespace's schema profile, read off a sample of its data: per label its count, each property's kind,
    fill rate, distinct values, range and samples, and the display, id, categorical, numeric, temporal and boolean
    properties chosen from them (``profile.overrides`` wins); per relationship type its count, endpoint labels and
    properties. ``refresh=true`` reads it again (it is also read again after every ingest)."""
    who.require(check_namespace(namespace))
    if namespace not in await container.graph.namespaces():
        raise NotFoundError(f"namespace {namespace!r} holds no graph")
    profile = await container.profiler.get(namespace, refresh=refresh)
    return profile.to_dict()
