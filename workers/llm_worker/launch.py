"""Start a local LLM worker from another environment (the vLLM venv) and wait until it is healthy.

Used by ``make test-vllm`` (tests/test_vllm_worker.py) and ``make bench-vllm`` (``bench.py``); needs only httpx, so it
runs from the gateway's venv. The worker is ``python -m workers.llm_worker`` on a free loopback port, float32 (the
transformers path's dtype, so scores compare), ``VLLM_CPU_KVCACHE_SPACE=1`` GiB unless set (vLLM's CPU default asks
for most of the machine's memory).
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]


class WorkerStartError(RuntimeError):
    pass


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def local_worker(
    python: Path,
    model: Path,
    log_path: Path,
    *extra_args: str,
    timeout_s: float = 900.0,
    env: dict[str, str] | None = None,
) -> Iterator[tuple[str, float]]:
    """Yield ``(base URL, seconds from start to /health 200)``; the worker is terminated on exit. Raises
    ``WorkerStartError`` (with the end of the worker's log) when it exits or is not healthy within ``timeout_s``."""
    port = free_port()
    cmd = [
        str(python), "-m", "workers.llm_worker", "--model", str(model), "--dtype", "float32", "--host", "127.0.0.1",
        "--port", str(port), "--max-model-len", "2048", "--enable-prefix-caching", *extra_args,
    ]  # fmt: skip
    full_env = {
        **os.environ,
        "VLLM_CPU_KVCACHE_SPACE": os.environ.get("VLLM_CPU_KVCACHE_SPACE", "1"),
        "PYTHONPATH": str(ROOT),
        **(env or {}),
    }
    t0 = time.perf_counter()
    with log_path.open("wb") as log:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=full_env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout_s
        while True:
            if proc.poll() is not None:
                raise WorkerStartError(f"worker exited ({proc.returncode}):\n{log_path.read_text()[-4000:]}")
            try:
                if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise WorkerStartError(f"worker not ready in {timeout_s:.0f} s:\n{log_path.read_text()[-4000:]}")
            time.sleep(0.5)
        yield url, time.perf_counter() - t0
    finally:
        proc.terminate()
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()
