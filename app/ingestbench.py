"""``make bench-ingest``: Cypher scripts loaded three ways, and the counts compared.

For each script (by default the three development scripts in ``../shared/data``), each run in a data dir of its own:

1. **CLI**: ``python -m app ingest --format cypher`` (the process that starts its own graph server);
2. **admin route**: ``POST /admin/ingest`` (by path) to a running ``python -m app serve``;
3. **kill -9 mid-way**: the same admin ingest, the service killed with SIGKILL once half the script's statements are
   applied (a one-statement script: as soon as its ingest shows as running), a new service started on the same data
   dir, which finishes the ingest at start-up (the journal, ``app/ingest/journal.py``).

Reported per script and run: wall time, the peak resident memory of the ingesting process and of its graph server
(sampled every 0.1 s from ``/proc``), the node and relationship counts, and for the kill -9 run when the kill came
(statements done) and how long start-up took to finish the ingest. The three runs' counts must be equal. Writes
``reports/bench_ingest/latest.json`` and ``latest.md``.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import httpx

from app.demo import start_service, stop_service, wait_ready

ADMIN_TOKEN = "bench-ingest-admin-token"


def _rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


class PeakMemory:
    """Samples the resident memory of a process and of its children (the embedded graph server) until stopped."""

    def __init__(self, pid: int, every_s: float = 0.1) -> None:
        self.pid = pid
        self.every_s = every_s
        self.process_kb = 0
        self.children_kb = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.process_kb = max(self.process_kb, _rss_kb(self.pid))
            self.children_kb = max(self.children_kb, sum(_rss_kb(c) for c in _children(self.pid)))
            self._stop.wait(self.every_s)

    def mb(self) -> tuple[float, float]:
        """(peak of the process, peak of its children), in MB."""
        return round(self.process_kb / 1024, 1), round(self.children_kb / 1024, 1)

    def __enter__(self) -> PeakMemory:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


@dataclass
class Run:
    script: str
    how: str
    seconds: float = 0.0
    peak_rss_mb: float = 0.0
    """The ingesting process (the CLI or the service)."""
    peak_graph_server_rss_mb: float = 0.0
    nodes: int = 0
    relationships: int = 0
    killed_at_statement: int | None = None
    statements: int | None = None
    recovery_seconds: float | None = None
    error: str | None = None


def _env(data_dir: Path, allowed: Path) -> dict[str, str]:
    return {
        "GRAPHRAG_DATA_DIR": str(data_dir),
        "GRAPHRAG_SERVER__ADMIN_TOKEN": ADMIN_TOKEN,
        "GRAPHRAG_INGEST__ALLOWED_PATHS": json.dumps([str(allowed)]),
        "GRAPHRAG_SERVER__REQUEST_TIMEOUT_S": "3600",
        "GRAPHRAG_SERVER__LOG_LEVEL": os.environ.get("GRAPHRAG_SERVER__LOG_LEVEL", "WARNING"),
    }


def run_cli(script: Path, namespace: str, data_dir: Path) -> Run:
    run = Run(script.name, "cli")
    env = {**os.environ, **_env(data_dir, script.parent)}
    cmd = [sys.executable, "-m", "app", "ingest", "--namespace", namespace, "--format", "cypher", str(script)]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    with PeakMemory(proc.pid) as mem:
        out, _ = proc.communicate()
    run.seconds = round(time.perf_counter() - t0, 1)
    run.peak_rss_mb, run.peak_graph_server_rss_mb = mem.mb()
    if proc.returncode != 0:
        run.error = f"exit code {proc.returncode}"
        return run
    text = out.decode()
    report = json.loads(text[text.index("{") :])
    run.nodes, run.relationships = int(report["graph"]["nodes"]), int(report["graph"]["relationships"])
    return run


class _Service:
    def __init__(self, data_dir: Path, port: int, allowed: Path) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.proc = start_service(data_dir, port, env=_env(data_dir, allowed))
        self.client = httpx.Client(
            base_url=self.base, headers={"Authorization": f"Bearer {ADMIN_TOKEN}"}, timeout=httpx.Timeout(3600)
        )
        self.unanswered = 0
        """``/namespaces`` calls that got no 200 (counted, not hidden)."""
        wait_ready(self.base, self.proc, timeout_s=600)

    def namespace(self, namespace: str) -> dict[str, Any]:
        """The namespace's entry in ``/namespaces`` (a 503/504 of a busy server is asked again, up to a minute)."""
        for _ in range(60):
            r = self.client.get("/namespaces", timeout=30)
            if r.status_code == 200:
                listed = r.json()["namespaces"]
                return next((n for n in listed if n["namespace"] == namespace), {})
            self.unanswered += 1
            time.sleep(1)
        raise RuntimeError(f"/namespaces: {r.status_code} {r.text[:200]}")

    def stop(self) -> None:
        self.client.close()
        stop_service(self.proc)


def run_admin(script: Path, namespace: str, data_dir: Path, port: int) -> Run:
    run = Run(script.name, "admin route")
    svc = _Service(data_dir, port, script.parent)
    try:
        body = {"namespace": namespace, "format": "cypher", "path": str(script)}
        t0 = time.perf_counter()
        with PeakMemory(svc.proc.pid) as mem:
            r = svc.client.post("/admin/ingest", json=body)
        run.seconds = round(time.perf_counter() - t0, 1)
        run.peak_rss_mb, run.peak_graph_server_rss_mb = mem.mb()
        if r.status_code != 200:
            run.error = f"{r.status_code} {r.text[:300]}"
            return run
        ns = svc.namespace(namespace)
        run.nodes, run.relationships = int(ns["nodes"]), int(ns["relationships"])
    finally:
        svc.stop()
    return run


def run_killed(script: Path, namespace: str, data_dir: Path, port: int, statements: int) -> Run:
    run = Run(script.name, "admin route, kill -9 mid-way, finished at start-up", statements=statements)
    svc = _Service(data_dir, port, script.parent)
    body = {"namespace": namespace, "format": "cypher", "path": str(script)}

    def post() -> None:
        with contextlib.suppress(httpx.HTTPError):  # the service is killed under it
            svc.client.post("/admin/ingest", json=body)

    sender = threading.Thread(target=post, daemon=True)
    t0 = time.perf_counter()
    sender.start()
    half = statements // 2
    try:
        while True:
            pending = svc.namespace(namespace).get("ingests", [])
            done = pending[0].get("statements_done", 0) if pending else 0
            if pending and (done >= half or statements <= 1):
                run.killed_at_statement = done
                break
            if time.perf_counter() - t0 > 3600 or not sender.is_alive():
                run.error = "the ingest ended before the kill"
                break
            time.sleep(0.05)
    except httpx.HTTPError as exc:
        run.error = f"listing namespaces failed: {exc}"
    svc.proc.kill()  # kill -9: no shutdown code runs
    svc.proc.wait()
    svc.client.close()
    sender.join(30)
    t1 = time.perf_counter()
    again = _Service(data_dir, port, script.parent)  # start-up finishes the cut-off ingest
    try:
        with PeakMemory(again.proc.pid) as mem:
            while "ingests" in again.namespace(namespace):
                time.sleep(0.25)
                if time.perf_counter() - t1 > 3600:
                    run.error = "start-up did not finish the ingest within an hour"
                    break
        run.recovery_seconds = round(time.perf_counter() - t1, 1)
        run.seconds = round(time.perf_counter() - t0, 1)
        run.peak_rss_mb, run.peak_graph_server_rss_mb = mem.mb()
        ns = again.namespace(namespace)
        run.nodes, run.relationships = int(ns.get("nodes", 0)), int(ns.get("relationships", 0))
        if again.unanswered:
            run.error = f"/namespaces answered {again.unanswered} time(s) with no 200 while start-up finished"
    finally:
        again.stop()
    return run


def to_markdown(result: dict[str, Any]) -> str:
    lines = [
        "# Cypher script ingestion (`make bench-ingest`)",
        "",
        f"{result['host']}. Each run in a fresh data dir; peak RSS sampled every 0.1 s (its graph servers: the "
        "process's children, the embedded server and, while statements are vetted, the throwaway one). Kill -9 run: "
        "the service "
        "killed once half the statements were applied, a new service finishes the ingest at start-up; its time is "
        "from the request to the end of the recovery, service starts included.",
        "",
        "| script | how | seconds | peak RSS MB (process) | peak RSS MB (its graph servers) | nodes | relationships "
        "| killed at statement | recovery s | same counts as CLI |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in result["runs"]:
        killed = f"{r['killed_at_statement']} of {r['statements']}" if r["killed_at_statement"] is not None else ""
        same = "" if r["how"] == "cli" else ("yes" if r["same_counts"] else "**no**")
        lines.append(
            f"| {r['script']} | {r['how']} | {r['seconds']} | {r['peak_rss_mb']} | {r['peak_graph_server_rss_mb']} "
            f"| {r['nodes']} | {r['relationships']} | {killed} | {r['recovery_seconds'] or ''} | {same} "
            + (f"| error: {r['error']} |" if r["error"] else "|")
        )
    bad = [r for r in result["runs"] if r["how"] != "cli" and not r["same_counts"]]
    lines += ["", f"Runs whose counts differ from the CLI's clean load: **{len(bad)}**."]
    return "\n".join(lines) + "\n"


def run_bench(
    scripts: list[Path], *, work_dir: Path, port: int, reports_dir: Path = Path("reports"), kill: bool = True
) -> dict[str, Any]:
    from app.ingest.parsers import parse_schema_statement, split_cypher_script

    runs: list[dict[str, Any]] = []
    for i, script in enumerate(scripts):
        script = script.resolve()
        namespace = f"bench_{i}"
        parts = split_cypher_script(script.read_text(encoding="utf-8"))
        statements = len(parts)
        data_statements = sum(1 for part in parts if parse_schema_statement(part) is None)
        print(f"== {script.name}: {statements} statements ({data_statements} not schema)", flush=True)
        base = work_dir / script.stem
        done = [run_cli(script, namespace, base / "cli"), run_admin(script, namespace, base / "admin", port)]
        if kill:
            done.append(run_killed(script, namespace, base / "killed", port, statements))
        clean = done[0]
        for run in done:
            same = (run.nodes, run.relationships) == (clean.nodes, clean.relationships) and not run.error
            runs.append(asdict(run) | {"same_counts": same})
            print(f"   {run.how}: {json.dumps(runs[-1])}", flush=True)
    result = {"host": f"{os.cpu_count()} cores", "runs": runs}
    out = reports_dir / "bench_ingest"
    out.mkdir(parents=True, exist_ok=True)
    (out / "latest.json").write_text(json.dumps(result, indent=1))
    md = to_markdown(result)
    (out / "latest.md").write_text(md)
    return result | {"markdown": md}
