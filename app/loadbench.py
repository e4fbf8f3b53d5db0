"""``make bench-load``: a bounded loopback load test of the real service.

The demo data is ingested into its own data dir, the service is started as ``python -m app serve`` (the same process
production runs, result cache off) and, for each scenario, ``c`` clients (8, then 32) send a fixed number of
requests each, with ``cache: false`` (after one request that is not measured: first use loads models lazily), until
they are done or the scenario's time is up (requests not started by then are counted as ``not_sent``, never as
lost). Scenarios: ``/retrieve`` in every mode the service serves, and
``/ask``. While they run, ``/healthz`` is polled to show whether the event loop stays responsive.

Reported per scenario: status counts, p50 / p95 / max latency, requests per second, requests lost (a connection
error or a client timeout: no answer at all), 5xx without ``Retry-After`` (an overload must say when to come back),
and the service's resident memory (the service and its embedded graph server) before and after all scenarios.
Writes ``reports/bench_load/latest.json`` and ``latest.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import statistics
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx

from app.demo import ingest_demo, start_service, stop_service, wait_ready


@dataclass
class Scenario:
    route: str
    mode: str
    clients: int
    sent: int = 0
    not_sent: int = 0
    lost: int = 0
    statuses: Counter[str] = field(default_factory=Counter)
    no_retry_after_5xx: int = 0
    latencies_ms: list[float] = field(default_factory=list)
    seconds: float = 0.0
    health_max_ms: float = 0.0
    rss_mb_after: float = 0.0

    def summary(self) -> dict[str, Any]:
        lat = sorted(self.latencies_ms)

        def pct(q: float) -> float:
            return round(lat[min(len(lat) - 1, int(q * len(lat)))], 1) if lat else 0.0

        out = {k: v for k, v in asdict(self).items() if k not in ("latencies_ms", "statuses")}
        return out | {
            "statuses": dict(sorted(self.statuses.items())),
            "p50_ms": round(statistics.median(lat), 1) if lat else 0.0,
            "p95_ms": pct(0.95),
            "max_ms": round(lat[-1], 1) if lat else 0.0,
            "per_s": round(self.sent / self.seconds, 2) if self.seconds else 0.0,
        }


def rss_mb(pid: int) -> float:
    """Resident memory of a process and its children (the embedded graph server), in MB (Linux ``/proc``)."""
    pids = [pid]
    with contextlib.suppress(OSError):
        pids += [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    total = 0
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return round(total / 1024, 1)


async def run_scenario(
    base: str, route: str, mode: str, clients: int, per_client: int, max_s: float, questions: list[str]
) -> Scenario:
    sc = Scenario(route, mode, clients)
    total = clients * per_client
    next_i = 0
    t0 = time.perf_counter()
    stop = t0 + max_s
    limits = httpx.Limits(max_connections=clients + 1, max_keepalive_connections=clients + 1)
    async with httpx.AsyncClient(base_url=base, timeout=httpx.Timeout(max_s + 120), limits=limits) as client:

        async def worker() -> None:
            nonlocal next_i
            while next_i < total and time.perf_counter() < stop:
                i, next_i = next_i, next_i + 1
                body: dict[str, Any] = {"question": questions[i % len(questions)], "namespace": "demo"}
                body |= {"cache": False, "top_k": 5} | ({"mode": mode} if mode else {})
                t = time.perf_counter()
                try:
                    r = await client.post(route, json=body)
                except httpx.HTTPError:
                    sc.lost += 1
                    continue
                finally:
                    sc.sent += 1
                sc.latencies_ms.append(1000 * (time.perf_counter() - t))
                sc.statuses[str(r.status_code)] += 1
                if r.status_code >= 500 and "retry-after" not in r.headers:
                    sc.no_retry_after_5xx += 1

        async def health() -> None:
            while True:
                t = time.perf_counter()
                try:
                    await client.get("/healthz")
                    sc.health_max_ms = max(sc.health_max_ms, round(1000 * (time.perf_counter() - t), 1))
                except httpx.HTTPError:
                    sc.health_max_ms = float("inf")
                await asyncio.sleep(0.5)

        probe = asyncio.create_task(health())
        await asyncio.gather(*(worker() for _ in range(clients)))
        probe.cancel()
    sc.seconds = round(time.perf_counter() - t0, 2)
    sc.not_sent = total - sc.sent
    return sc


def to_markdown(result: dict[str, Any]) -> str:
    lines = [
        "# Load test (`make bench-load`)",
        "",
        f"{result['host']}; service: `python -m app serve`, embedded default, result cache off, requests with "
        f"`cache: false`; {result['per_client']} requests per client, at most {result['max_s']:g} s per scenario. "
        f"RSS of the service and its graph server: {result['rss_mb_before']} MB before, "
        f"{result['rss_mb_after']} MB after.",
        "",
        "| route | mode | clients | sent | not sent | lost | statuses | 5xx w/o Retry-After | p50 ms | p95 ms "
        "| max ms | req/s | /healthz max ms | RSS MB after |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for s in result["scenarios"]:
        statuses = ", ".join(f"{k}: {v}" for k, v in s["statuses"].items())
        lines.append(
            f"| {s['route']} | {s['mode'] or '(default)'} | {s['clients']} | {s['sent']} | {s['not_sent']} "
            f"| {s['lost']} | {statuses} | {s['no_retry_after_5xx']} | {s['p50_ms']} | {s['p95_ms']} "
            f"| {s['max_ms']} | {s['per_s']} | {s['health_max_ms']} | {s['rss_mb_after']} |"
        )
    lost = sum(s["lost"] for s in result["scenarios"])
    bad = sum(s["no_retry_after_5xx"] for s in result["scenarios"])
    lines += ["", f"Requests lost: **{lost}**; 5xx without Retry-After: **{bad}**."]
    return "\n".join(lines) + "\n"


def run_load(
    data: Path,
    *,
    data_dir: Path,
    port: int,
    clients: tuple[int, ...] = (8, 32),
    per_client: int = 2,
    max_s: float = 45.0,
    modes: list[str] | None = None,
    reports_dir: Path = Path("reports"),
) -> dict[str, Any]:
    print(f"== ingesting {data} into {data_dir}", flush=True)
    asyncio.run(ingest_demo(data, data_dir))
    base = f"http://127.0.0.1:{port}"
    quiet = os.environ.get("GRAPHRAG_SERVER__LOG_LEVEL", "WARNING")  # no access line per request
    proc = start_service(data_dir, port, env={"GRAPHRAG_CACHE__BACKEND": "off", "GRAPHRAG_SERVER__LOG_LEVEL": quiet})
    questions = [json.loads(x)["question"] for x in (data / "questions.jsonl").read_text().splitlines() if x.strip()]
    try:
        wait_ready(base, proc)
        served = httpx.get(f"{base}/readyz", timeout=10).json()["modes"]
        chosen = [m for m in served if modes is None or m in modes]
        before = rss_mb(proc.pid)
        scenarios: list[dict[str, Any]] = []
        plan = [("/retrieve", m) for m in chosen] + [("/ask", "")]
        for route, mode in plan:
            warm = {"question": questions[0], "namespace": "demo", "cache": False} | ({"mode": mode} if mode else {})
            httpx.post(f"{base}{route}", json=warm, timeout=max_s + 120)  # first use loads lazily: not measured
            for c in clients:
                sc = asyncio.run(run_scenario(base, route, mode, c, per_client, max_s, questions))
                sc.rss_mb_after = rss_mb(proc.pid)
                scenarios.append(sc.summary())
                s = scenarios[-1]
                print(
                    f"{route} {mode or '(default)'} x{c}: {s['statuses']} lost {s['lost']} not sent {s['not_sent']} "
                    f"p50 {s['p50_ms']} p95 {s['p95_ms']} max {s['max_ms']} ms, /healthz max {s['health_max_ms']} ms",
                    flush=True,
                )
        after = rss_mb(proc.pid)
    finally:
        stop_service(proc)
    result = {
        "host": f"{os.cpu_count()} cores",
        "per_client": per_client,
        "max_s": max_s,
        "rss_mb_before": before,
        "rss_mb_after": after,
        "scenarios": scenarios,
    }
    out = reports_dir / "bench_load"
    out.mkdir(parents=True, exist_ok=True)
    (out / "latest.json").write_text(json.dumps(result, indent=1))
    md = to_markdown(result)
    (out / "latest.md").write_text(md)
    return result | {"markdown": md}
