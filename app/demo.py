"""``make demo``: ingest the demo data into the embedded default, start the server, ask the demo questions over
HTTP, print answers with citations and timings, and stop the server cleanly."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from app.settings import Settings


def _norm(s: str) -> str:
    return " ".join(s.lower().replace(",", "").split())


async def ingest_demo(data: Path, data_dir: Path) -> list[dict[str, Any]]:
    from app.container import Container

    settings = Settings().model_copy(update={"data_dir": data_dir})
    c = await Container.start(settings, with_llm=False)
    try:
        reports = [
            await c.ingestor.ingest_path("demo", "metaqa", data / "kg.txt", labels_path=data / "labels.json"),
            await c.ingestor.ingest_path("demo", "documents", data / "docs"),
        ]
        return [{"format": r.format, "counts": r.counts, "seconds": r.seconds} for r in reports]
    finally:
        await c.close()


def start_service(
    data_dir: Path, port: int, *, env: dict[str, str] | None = None, stdout: Any = None
) -> subprocess.Popen[bytes]:
    """``python -m app serve`` on 127.0.0.1:``port`` over ``data_dir`` (extra ``GRAPHRAG_*`` settings in ``env``),
    as a child process; ``wait_ready`` waits for it, ``stop_service`` stops it."""
    full = {**os.environ, "GRAPHRAG_DATA_DIR": str(data_dir), **(env or {})}
    cmd = [sys.executable, "-m", "app", "serve", "--host", "127.0.0.1", "--port", str(port)]
    return subprocess.Popen(cmd, env=full, stdout=stdout, stderr=subprocess.STDOUT if stdout is not None else None)


def stop_service(proc: subprocess.Popen[bytes], timeout_s: float = 60) -> None:
    """SIGTERM (the service shuts down cleanly), then SIGKILL if it has not exited within ``timeout_s``."""
    if proc.poll() is not None:
        return
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def wait_ready(base: str, proc: subprocess.Popen[bytes], timeout_s: float = 300) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with code {proc.returncode}")
        try:
            if httpx.get(f"{base}/readyz", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise RuntimeError(f"server not ready within {timeout_s:.0f}s")


def run_demo(data: Path, *, port: int, data_dir: Path) -> int:
    print(f"== ingesting {data} into namespace 'demo' (data dir {data_dir})", flush=True)
    for r in asyncio.run(ingest_demo(data, data_dir)):
        print(f"   {r['format']}: {json.dumps(r['counts'])} in {r['seconds']:.1f}s", flush=True)

    base = f"http://127.0.0.1:{port}"
    print(f"== starting the server on {base}", flush=True)
    t0 = time.perf_counter()
    proc = start_service(data_dir, port)
    questions = [json.loads(line) for line in (data / "questions.jsonl").read_text().splitlines() if line.strip()]
    answered = found = cited_support = kg_hits = kg_total = 0
    latencies: list[float] = []
    try:
        wait_ready(base, proc)
        print(f"   ready in {time.perf_counter() - t0:.1f}s", flush=True)
        with httpx.Client(base_url=base, timeout=300) as client:
            for q in questions:
                t = time.perf_counter()
                resp = client.post(
                    "/ask", json={"question": q["question"], "namespace": "demo", "top_k": 5, "cache": False}
                )
                dt = time.perf_counter() - t
                latencies.append(dt)
                body = resp.json()
                print(f"\n[{q['id']}] ({q['kind']}) {q['question']}")
                if resp.status_code != 200:
                    print(f"   HTTP {resp.status_code}: {body.get('error', {}).get('message')}")
                    continue
                answer = body.get("answer") or ""
                items = {it["id"]: it for it in body["items"]}
                cites = body["citations"]
                if answer and cites:
                    answered += 1
                ok = any(_norm(a) in _norm(answer) for a in q["answers"])
                found += ok
                cited_titles = [
                    items[c["item_id"]]["source"].get("title") or items[c["item_id"]]["source"].get("node_name")
                    for c in cites
                ]
                cited_text = " ".join(items[c["item_id"]]["text"] for c in cites)
                support_hit = any(_norm(a) in _norm(cited_text) for a in q["answers"])
                cited_support += support_hit
                print(f"   answer: {answer}")
                print(
                    f"   expected: {q['answers'][0]}  -> {'found in answer' if ok else 'not in answer'}; "
                    f"{'cited item contains it' if support_hit else 'cited items lack it'}"
                )
                print(f"   citations: {cited_titles}")
                t_ms = body["timings_ms"]
                print(
                    f"   timings: retrieve {t_ms.get('retrieve.total', 0):.0f} ms, "
                    f"generate {t_ms.get('answer_generation', 0):.0f} ms, http {1000 * dt:.0f} ms"
                )
                if q["kind"].startswith("kg"):
                    kg_total += 1
                    kg_hits += _show_text2cypher(client, q)
    finally:
        print("\n== stopping the server", flush=True)
        stop_service(proc)
    n = len(questions)
    latencies.sort()
    p50 = latencies[len(latencies) // 2] if latencies else 0.0
    print(
        f"\n== {answered}/{n} questions answered with citations; expected answer in the answer text: {found}/{n}; "
        f"a cited item contains the expected answer: {cited_support}/{n}; median /ask latency {p50:.2f}s"
    )
    if kg_total:
        print(
            f"== text2cypher (grounded, no labelled questions): expected answer is the top node for "
            f"{kg_hits}/{kg_total} knowledge-graph questions"
        )
    return 0 if answered == n else 1


def _show_text2cypher(client: httpx.Client, q: dict[str, Any]) -> int:
    """Ask a knowledge-graph question in ``text2cypher`` mode and print the answer nodes and the query."""
    r = client.post(
        "/retrieve", json={"question": q["question"], "namespace": "demo", "mode": "text2cypher", "cache": False}
    )
    if r.status_code != 200:
        print(f"   text2cypher: HTTP {r.status_code}")
        return 0
    body = r.json()
    names = [it["node"]["name"] for it in body["items"] if it.get("node")]
    query = body["trace"].get("query")  # the Cypher trace of the mode (Text2CypherTrace)
    print(f"   text2cypher: {names[:3]} via {query} ({body['timings_ms'].get('total', 0):.0f} ms)")
    return int(bool(names) and _norm(names[0]) in {_norm(a) for a in q["answers"]})
