"""``python -m app.eval.bench_save_race``: does saving the embedded FalkorDB kill it while queries run?

The embedded server died with SIGSEGV now and then during ``make test``; its crash report named ``SAVE`` as the
executing command and a worker thread traversing relationships (``Graph_GetEdgesConnectingNodes``) as the one that
faulted. This reproduces that side by side, on fresh private servers of the packaged build: six threads read
(relationship traversals), two write (relationships added and deleted), and the main thread saves in one of three
ways, ``SAVE`` (the server serialises the graph in its main thread while its workers keep querying),
``EmbeddedFalkorServer.save`` (what the service does: a forked ``BGSAVE``, waited for) or not at all. Each trial
runs until the server dies, a save gets no answer for 30 s (hung: ``SAVE`` also left a reader spinning in a
traversal while the main thread waited for the module lock), or ``--seconds`` pass.

Writes ``reports/bench/save_race-<timestamp>.{json,md}``. A measurement only: it starts its own servers in temporary
directories and touches nothing else.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import redis
from falkordb import FalkorDB
from redis.backoff import NoBackoff
from redis.retry import Retry

from app.cypher import queries as Q
from app.stores.embedded import EmbeddedFalkorServer

READS, WRITES = Q.SAVE_RACE_READS, Q.SAVE_RACE_WRITES
MODES = ("SAVE", "service", "none")
HUNG_S = 30.0
"""A save (or a query) with no answer for this long: the server is taken as hung, and the trial ends."""


def _load(sock: str, stop: threading.Event, queries: tuple[str, ...], n: int) -> None:
    graph = FalkorDB(unix_socket_path=sock, socket_timeout=HUNG_S).select_graph("g")
    run = graph.query if queries is WRITES else graph.ro_query
    rng = random.Random()
    while not stop.is_set():
        try:
            for q in queries:
                run(q, {"i": rng.randrange(n), "j": rng.randrange(n)})
        except Exception:  # the server died or hung under it: the trial's outcome, read from the process
            return


async def _trial(mode: str, seconds: float, nodes: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="save-race-") as tmp:
        server = EmbeddedFalkorServer(Path(tmp), startup_timeout_s=30)
        await server.start()
        sock = server.socket_path
        graph = FalkorDB(unix_socket_path=sock).select_graph("g")
        for statement in Q.SAVE_RACE_SETUP:
            graph.query(statement, {"n": nodes})
        stop = threading.Event()
        threads = [
            threading.Thread(target=_load, args=(sock, stop, queries, nodes), daemon=True)
            for queries in [READS] * 6 + [WRITES] * 2
        ]
        for t in threads:
            t.start()
        # one try, HUNG_S at most: the client's own retries kept a SAVE to a hung server waiting for minutes
        client = redis.Redis(unix_socket_path=sock, socket_timeout=HUNG_S, retry=Retry(NoBackoff(), 0))
        saves, save_s, t0, hung = 0, [], time.monotonic(), False
        try:
            while time.monotonic() - t0 < seconds and not server.exited():
                s0 = time.monotonic()
                try:
                    if mode == "SAVE":
                        await asyncio.to_thread(client.execute_command, "SAVE")
                    elif mode == "service":
                        await server.save(HUNG_S)
                    else:
                        await asyncio.sleep(0.05)
                except Exception:  # the server died during the save (the loop's condition reads that) or hung
                    await asyncio.sleep(0.5)
                    if not server.exited() and time.monotonic() - s0 >= HUNG_S:
                        hung = True
                        break
                    continue
                if mode != "none":
                    saves += 1
                    save_s.append(time.monotonic() - s0)
                await asyncio.sleep(0.02)
        finally:
            stop.set()
            died, code = server.exited(), server.exit_code
            await server.kill()  # first: a thread waiting on a hung server then gets its connection closed
            until = time.monotonic() + 10  # one still stuck is a daemon: left behind
            for t in threads:
                await asyncio.to_thread(t.join, max(0.0, until - time.monotonic()))
        return {
            "mode": mode,
            "died": died,
            "hung": hung,
            "exit_code": code,
            "seconds": round(time.monotonic() - t0, 2),
            "saves": saves,
            "save_p50_ms": round(1000 * statistics.median(save_s), 1) if save_s else None,
        }


def run(trials: int, seconds: float, nodes: int, reports_dir: Path) -> dict[str, Any]:
    rows = []
    for i in range(trials):
        for mode in MODES:
            row = asyncio.run(_trial(mode, seconds, nodes))
            print(f"trial {i + 1}/{trials} {mode:8s} died={row['died']} hung={row['hung']} exit={row['exit_code']} "
                  f"after {row['seconds']} s, {row['saves']} saves", flush=True)  # fmt: skip
            rows.append(row)
    summary = {
        m: {
            "trials": trials,
            "died": sum(r["died"] for r in rows if r["mode"] == m),
            "hung": sum(r["hung"] for r in rows if r["mode"] == m),
            "saves": sum(r["saves"] for r in rows if r["mode"] == m),
            "seconds": round(sum(r["seconds"] for r in rows if r["mode"] == m), 1),
        }
        for m in MODES
    }
    report = {"trials": trials, "seconds": seconds, "nodes": nodes, "summary": summary, "rows": rows}
    out = reports_dir / "bench"
    out.mkdir(parents=True, exist_ok=True)
    stem = out / f"save_race-{time.strftime('%Y%m%d-%H%M%S')}"
    stem.with_suffix(".json").write_text(json.dumps(report, indent=2) + "\n")
    md = [
        "# Saving the embedded FalkorDB while queries run",
        "",
        f"{trials} trials per mode, each up to {seconds:.0f} s: 6 reader and 2 writer threads on a {nodes}-node graph.",
        "",
        "| save | servers died | servers hung | saves done | seconds run |",
        "|---|---|---|---|---|",
    ]
    md += [
        f"| {m} | {s['died']}/{s['trials']} | {s['hung']}/{s['trials']} | {s['saves']} | {s['seconds']} |"
        for m, s in summary.items()
    ]
    stem.with_suffix(".md").write_text("\n".join(md) + "\n")
    print("\n".join(md[4:]))
    print(f"wrote {stem}.json and .md")
    return report


def main(argv: Sequence[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--trials", type=int, default=3)
    p.add_argument("--seconds", type=float, default=30.0)
    p.add_argument("--nodes", type=int, default=500)
    p.add_argument("--reports-dir", type=Path, default=Path("reports"))
    a = p.parse_args(argv)
    run(a.trials, a.seconds, a.nodes, a.reports_dir)


if __name__ == "__main__":
    main()
