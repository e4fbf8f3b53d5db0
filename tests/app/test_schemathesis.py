"""Schemathesis against the running service's own OpenAPI document: every operation, bounded examples (valid and
invalid bodies, odd strings, boundary numbers), with a (non-admin) API key for every namespace and with the admin
token. The service must never answer 5xx but a documented 503 with ``Retry-After`` (overload), and every response
must match the schema it declares (status, content type, body, headers)."""

from __future__ import annotations

import asyncio
import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from app.auth import KeyStore
from app.demo import ingest_demo
from tests.conftest import ADMIN_TOKEN, DEMO, Service

pytestmark = pytest.mark.fuzz

EXAMPLES = int(os.environ.get("GRAPHRAG_FUZZ_EXAMPLES", "25"))
"""Examples per operation and caller (``make fuzz`` sets more)."""


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    data_dir = tmp_path_factory.mktemp("fuzz")
    asyncio.run(ingest_demo(DEMO, data_dir))
    reader = KeyStore(data_dir / "keys.json").create("fuzz reader", ["*"], rate_per_min=100_000)[1]
    env = {
        "GRAPHRAG_SERVER__ADMIN_TOKEN": ADMIN_TOKEN,
        "GRAPHRAG_LLM__MAX_NEW_TOKENS": "8",
        "GRAPHRAG_CACHE__BACKEND": "off",
    }
    svc = Service(data_dir, env=env, log_path=data_dir / "service.log")
    yield {"base": svc.url, "reader": reader, "proc": svc.proc, "log": svc.log_path}
    svc.stop()


@pytest.fixture(scope="module")
def api_schema(service: dict[str, Any]) -> Any:
    auth = {"Authorization": f"Bearer {service['reader']}"}
    return schemathesis.openapi.from_url(f"{service['base']}/openapi.json", headers=auth)


CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
]


def _runner(op: Any, mode: GenerationMode, service: dict[str, Any], token: str, calls: list[int]) -> Any:
    """One hypothesis test of ``op``: the statuses it got go into ``calls``."""

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=True,
        database=None,
        phases=[Phase.explicit, Phase.generate],
    )
    @given(case=op.as_strategy(generation_mode=mode))
    def run(case: Any) -> None:
        response = case.call(base_url=service["base"], headers={"Authorization": f"Bearer {token}"}, timeout=300)
        calls.append(response.status_code)
        if response.status_code == 503 and "retry-after" in {k.lower() for k in response.headers}:
            return  # a documented overload, which says when to come back
        case.validate_response(response, checks=CHECKS)

    return run


def _fuzz(api_schema: Any, service: dict[str, Any], token: str) -> dict[str, list[int]]:
    """Every operation, positive and negative data, ``EXAMPLES`` cases each; failures collected per operation
    (schemathesis' own pytest plugin does not load under pytest 9, so hypothesis drives its strategies here)."""
    failures: dict[str, str] = {}
    calls: dict[str, list[int]] = {}
    for result in api_schema.get_all_operations():
        op = result.ok()
        for mode in GenerationMode:
            label, made = f"{op.label} [{mode.value}]", list[int]()
            try:
                _runner(op, mode, service, token, made)()
            except Unsatisfiable:  # nothing to make invalid (an operation without parameters or body)
                assert mode is GenerationMode.NEGATIVE, label
            except Exception as exc:  # failed checks, on the example hypothesis shrank them to
                failures[label] = f"{type(exc).__name__}: {str(exc)[:1500]}"
            calls[label] = made
            assert service["proc"].poll() is None, "the service died"
    assert not failures, "\n\n".join(f"{k}: {v}" for k, v in failures.items())
    return calls


def test_no_5xx_and_the_schema_holds_for_a_reader_key(api_schema: Any, service: dict[str, Any]) -> None:
    calls = _fuzz(api_schema, service, service["reader"])
    print({k: sorted(Counter(v).items()) for k, v in calls.items()})
    # every operation was called, and the valid questions reached retrieval and generation
    assert all(calls[f"{op} [positive]"] for op in ("POST /retrieve", "POST /ask", "GET /namespaces"))
    assert 200 in calls["POST /retrieve [positive]"] and 200 in calls["POST /ask [positive]"]


def test_no_5xx_and_the_schema_holds_for_the_admin(api_schema: Any, service: dict[str, Any]) -> None:
    calls = _fuzz(api_schema, service, ADMIN_TOKEN)
    print({k: sorted(Counter(v).items()) for k, v in calls.items()})
    assert calls["POST /admin/ingest [positive]"] and calls["DELETE /admin/documents/{doc_id} [positive]"]


def test_the_service_log_has_no_unhandled_error(service: dict[str, Any]) -> None:
    text = Path(service["log"]).read_text(errors="replace")
    assert "unhandled error" not in text and "Traceback" not in text
