"""Logging (request id in every line, JSON lines in production) and Prometheus metrics.

Metric label values are bounded: routes are route templates, stages and backends are fixed names, modes are the
registered retriever names. With several worker processes set ``PROMETHEUS_MULTIPROC_DIR`` and
``/metrics`` aggregates them (prometheus-client multiprocess mode).
"""

from __future__ import annotations

import contextvars
import json
import logging
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager

from prometheus_client import REGISTRY as DEFAULT_REGISTRY
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest, multiprocess

request_id_var: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="-")

LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120)

REQUESTS = Counter("graphrag_requests_total", "HTTP requests", ["route", "method", "status"])
REQUEST_LATENCY = Histogram(
    "graphrag_request_duration_seconds", "HTTP request latency", ["route", "method"], buckets=LATENCY_BUCKETS
)
STAGE_LATENCY = Histogram(
    "graphrag_stage_duration_seconds", "Pipeline stage latency", ["stage", "mode"], buckets=LATENCY_BUCKETS
)
RETRIEVALS = Counter("graphrag_retrievals_total", "Retrievals by mode and outcome", ["mode", "outcome"])
BACKEND_ERRORS = Counter("graphrag_backend_errors_total", "Errors of backends", ["backend"])
LLM_TOKENS = Counter("graphrag_llm_tokens_total", "LLM tokens", ["direction", "backend"])
INGESTED = Counter("graphrag_ingested_items_total", "Items ingested", ["kind"])
RESTARTS = Counter(
    "graphrag_backend_restarts_total", "Embedded backend processes restarted after they died", ["backend"]
)
INGEST_RECOVERED = Counter(
    "graphrag_ingest_recovered_total",
    "Ingests found cut off by a crash or a stop (ingest journal), by outcome: finished, failed, source_changed, "
    "content_not_kept",
    ["outcome"],
)
DEGRADED = Counter("graphrag_degraded_responses_total", "Responses served with a failed dependency", ["dependency"])
BACKEND_UP = Gauge(
    "graphrag_backend_up",
    "1 when the backend answered its last check (/readyz and every /metrics scrape), else 0",
    ["backend"],
    multiprocess_mode="mostrecent",
)
CACHE_REQUESTS = Counter(
    "graphrag_cache_requests_total", "Result-cache lookups of /retrieve and /ask", ["route", "result"]
)
"""result: ``hit`` (served from the cache, or from an identical request computed at the same time), ``miss``
(computed and stored), ``bypass`` (not looked up: ``cache: false``, cache off, or Redis unavailable)."""
CACHE_ERRORS = Counter("graphrag_cache_errors_total", "Failed or timed-out result-cache calls", ["operation"])
TEXT2CYPHER_CANDIDATES = Histogram(
    "graphrag_text2cypher_candidates",
    "Candidate Cypher queries enumerated per question (grounded text2cypher)",
    buckets=(0, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000),
)
TEXT2CYPHER_QUERIES = Counter(
    "graphrag_text2cypher_queries_total",
    "Generated Cypher queries by outcome (executed, failed, refused, no_candidates)",
    ["mode", "outcome"],
)


def metrics_payload() -> bytes:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return generate_latest(registry)
    return generate_latest(DEFAULT_REGISTRY)


@contextmanager
def stage(name: str, mode: str, timings: dict[str, float] | None = None) -> Iterator[None]:
    """Time a pipeline stage into the stage histogram and, if given, into ``timings`` (milliseconds)."""
    t0 = time.perf_counter()
    try:
        yield
    finally:
        dt = time.perf_counter() - t0
        STAGE_LATENCY.labels(stage=name, mode=mode).observe(dt)
        if timings is not None:
            timings[name] = round(timings.get(name, 0.0) + 1000 * dt, 3)


class RequestIdFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id_var.get()
        return True


class _JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        doc = {
            "ts": round(record.created, 3),
            "level": record.levelname,
            "logger": record.name,
            "request_id": getattr(record, "request_id", "-"),
            "msg": record.getMessage(),
        }
        if record.exc_info:
            doc["exc"] = self.formatException(record.exc_info)
        return json.dumps(doc)


def setup_logging(level: str = "INFO", json_lines: bool = False) -> None:
    handler = logging.StreamHandler()
    handler.addFilter(RequestIdFilter())
    if json_lines:
        handler.setFormatter(_JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for noisy in ("httpx", "httpcore", "urllib3", "sentence_transformers", "transformers"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
