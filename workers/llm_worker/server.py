"""The LLM worker: vLLM's OpenAI-compatible server (V1 engine) plus ``POST /v1/grounded``.

    python -m workers.llm_worker --model /models/smollm2-135m-instruct [any vllm serve flag]

Everything ``vllm serve`` offers stays (``/v1/chat/completions`` with streaming, ``/v1/models``, ``/health``,
``/metrics``); the worker adds the grounded logits processor to the engine and one route:

``POST /v1/grounded`` ``{"messages": [...] | "prompt_token_ids": [...], "candidates": ["MATCH ...", ...],
"top_m": 5, "method": "exact" | "best_first" | "beam" | "greedy", "lora": null}``
→ ``{"ranked": [{"index", "text", "logprob"}], ...}``.
Candidates are tokenised with the model's tokenizer exactly as the gateway's transformers path does
(``grounded.tokenize_candidates``; the prompt gets the chat template's generation prompt). When the
caller disconnects, the engine requests are aborted.

``--grounded-lora NAME=PATH`` registers a LoRA adapter (e.g. the text2cypher adapter) that requests select with
``"lora": NAME``; it needs ``--enable-lora``. Adapters can also be registered while the worker runs:
``GET /v1/grounded/loras`` lists them, ``POST /v1/grounded/loras {"name", "path"}`` adds one or replaces one of that
name (the next request loads the files again), which is how the gateway brings a namespace's self-tuned adapter
(``python -m app tune``) to the worker on first use. The path is read on the worker's file system.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import sys
import time
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, HTTPException, Request
from pydantic import BaseModel, Field

from grounded import DecodingMethod, encode_prompt, tokenize_candidates

REPO_ROOT = Path(__file__).resolve().parents[2]
PROCESSOR = "workers.llm_worker.logits_processor:GroundedTrieLogitsProcessor"
log = logging.getLogger("workers.llm_worker")


class GroundedRequest(BaseModel):
    model_config = {"extra": "forbid"}

    messages: list[dict[str, str]] | None = None
    prompt_token_ids: list[int] | None = None
    candidates: list[str] | None = Field(None, min_length=1, max_length=20_000)
    candidate_token_ids: list[list[int]] | None = Field(None, min_length=1, max_length=20_000)
    """The candidates already tokenised (what the model emits, without EOS); give this or ``candidates``."""
    top_m: int = Field(5, ge=1, le=100)
    method: DecodingMethod = "exact"
    """``greedy``: one decode under the trie processor (top-1); ``exact``, ``best_first``, ``beam``: every candidate
    scored exactly (the guaranteed top-m)."""
    lora: str | None = None


class LoraIn(BaseModel):
    model_config = {"extra": "forbid"}

    name: str = Field(pattern=r"^[A-Za-z0-9_.-]{1,128}$")
    path: str = Field(min_length=1, max_length=4096)


class LorasOut(BaseModel):
    enabled: bool
    """Whether the engine runs with ``--enable-lora`` (without it no adapter can be served)."""
    loras: dict[str, str]
    """Served adapter name -> its folder on the worker."""


class RankedOut(BaseModel):
    index: int
    text: str
    logprob: float


class GroundedResponse(BaseModel):
    model: str
    method: str
    ranked: list[RankedOut]
    candidates: int
    prompt_tokens: int
    elapsed_ms: float


class GroundedState:
    """Tokenizer, EOS id and LoRA adapters of the worker (``app.state.grounded``)."""

    def __init__(
        self,
        model: str,
        loras: dict[str, str],
        *,
        forced_scoring: bool = False,
        lora_enabled: bool | None = None,
        max_lora_rank: int | None = None,
    ) -> None:
        from transformers import AutoTokenizer, GenerationConfig

        self.model = model
        self.forced_scoring = forced_scoring
        self.lora_enabled = forced_scoring if lora_enabled is None else lora_enabled
        self.max_lora_rank = max_lora_rank
        """``--max-lora-rank``: an adapter of a higher rank is refused when registered, not when first used."""
        """Score candidates by forced decoding, never prompt logprobs (set when the engine has LoRA enabled)."""
        self.tokenizer = AutoTokenizer.from_pretrained(model)
        eos: Any = None
        with contextlib.suppress(OSError):
            eos = GenerationConfig.from_pretrained(model).eos_token_id
        if eos is None:
            eos = self.tokenizer.eos_token_id
        if isinstance(eos, list):
            eos = eos[0]
        self.eos = int(eos)
        self.loras: dict[str, Any] = {}
        self.lora_paths: dict[str, str] = {}
        self._next_lora_id = 1
        for name, path in sorted(loras.items()):
            self.add_lora(name, path)

    def add_lora(self, name: str, path: str) -> None:
        """Serve the adapter at ``path`` as ``name``, replacing an adapter of that name: a new LoRA id, so the
        engine loads the files again rather than reusing the old weights it cached under the old id."""
        from vllm.lora.request import LoRARequest

        self.loras[name] = LoRARequest(name, self._next_lora_id, path)
        self.lora_paths[name] = path
        self._next_lora_id += 1


router = APIRouter()


@router.get("/v1/grounded/loras", response_model=LorasOut)
async def list_loras(request: Request) -> LorasOut:
    state: GroundedState = request.app.state.grounded
    return LorasOut(enabled=state.lora_enabled, loras=dict(state.lora_paths))


@router.post("/v1/grounded/loras", response_model=LorasOut)
async def add_lora(body: LoraIn, request: Request) -> LorasOut:
    """Serve a peft adapter folder under ``name`` (replacing one of that name)."""
    state: GroundedState = request.app.state.grounded
    if not state.lora_enabled:
        raise HTTPException(status_code=409, detail="LoRA is off on this worker: start it with --enable-lora")
    folder = Path(body.path)
    try:
        config = json.loads((folder / "adapter_config.json").read_text())
    except (OSError, ValueError) as exc:
        detail = f"no readable adapter_config.json in {body.path} on the worker"
        raise HTTPException(status_code=400, detail=detail) from exc
    rank = config.get("r") if isinstance(config, dict) else None
    if state.max_lora_rank is not None and isinstance(rank, int) and rank > state.max_lora_rank:
        raise HTTPException(
            status_code=400, detail=f"adapter rank {rank} exceeds the worker's --max-lora-rank {state.max_lora_rank}"
        )
    state.add_lora(body.name, str(folder))
    log.info("LoRA adapter %s served from %s", body.name, folder)
    return LorasOut(enabled=True, loras=dict(state.lora_paths))


@router.post("/v1/grounded", response_model=GroundedResponse)
async def grounded(body: GroundedRequest, request: Request) -> GroundedResponse:
    from workers.llm_worker.grounded import choose

    state: GroundedState = request.app.state.grounded
    engine = request.app.state.engine_client
    if (body.messages is None) == (body.prompt_token_ids is None):
        raise HTTPException(status_code=400, detail="give exactly one of messages or prompt_token_ids")
    if (body.candidates is None) == (body.candidate_token_ids is None):
        raise HTTPException(status_code=400, detail="give exactly one of candidates or candidate_token_ids")
    if body.candidates is not None and any(not c for c in body.candidates):
        raise HTTPException(status_code=400, detail="candidates must be non-empty strings")
    if body.candidate_token_ids is not None and any(not c or min(c) < 0 for c in body.candidate_token_ids):
        raise HTTPException(status_code=400, detail="candidate_token_ids must be non-empty lists of token ids")
    lora = None
    if body.lora is not None:
        lora = state.loras.get(body.lora)
        if lora is None:
            raise HTTPException(status_code=400, detail=f"unknown lora {body.lora!r}; served: {sorted(state.loras)}")
    t0 = time.perf_counter()
    prompt = encode_prompt(state.tokenizer, body.messages if body.messages is not None else body.prompt_token_ids)
    if body.candidates is not None:
        texts = body.candidates
        cand_ids = tokenize_candidates(state.tokenizer, body.candidates)
    else:
        cand_ids = body.candidate_token_ids or []
        texts = [str(state.tokenizer.decode(ids)) for ids in cand_ids]
    job = asyncio.ensure_future(
        choose(
            engine,
            prompt,
            cand_ids,
            state.eos,
            top_m=body.top_m,
            method=body.method,
            lora=lora,
            forced=state.forced_scoring,
        )
    )
    # abort the engine requests when the caller goes away (choose() aborts them when cancelled)
    while not job.done():
        done, _ = await asyncio.wait({job}, timeout=0.25)
        if not done and await request.is_disconnected():
            job.cancel()
            raise HTTPException(status_code=499, detail="client disconnected")
    try:
        ranked = job.result()
    except ValueError as exc:
        raise HTTPException(status_code=400, detail=str(exc)) from exc
    return GroundedResponse(
        model=body.lora or state.model,
        method=body.method,
        ranked=[RankedOut(index=i, text=texts[i], logprob=lp) for i, lp in ranked],
        candidates=len(cand_ids),
        prompt_tokens=len(prompt),
        elapsed_ms=(time.perf_counter() - t0) * 1000,
    )


def _add_processor(args: argparse.Namespace) -> None:
    procs = list(getattr(args, "logits_processors", None) or [])
    if PROCESSOR not in procs:
        procs.append(PROCESSOR)
    args.logits_processors = procs


async def serve(args: argparse.Namespace, loras: dict[str, str]) -> None:
    """``vllm``'s ``run_server_worker`` + ``build_and_serve`` with the grounded route and state added."""
    from vllm.entrypoints.launchers.api_server.app_state import init_app_state
    from vllm.entrypoints.launchers.api_server.entry import build_async_engine_client
    from vllm.entrypoints.launchers.app import build_app
    from vllm.entrypoints.launchers.launcher import serve_http, setup_server

    listen_address, sock = setup_server(args, reuse_port=False)
    async with build_async_engine_client(args) as engine_client:
        supported_tasks = await engine_client.get_supported_tasks()
        app: FastAPI = build_app(args, supported_tasks, engine_client.model_config)
        app.include_router(router)
        await init_app_state(engine_client, app.state, args, supported_tasks)
        app.state.grounded = GroundedState(
            args.model,
            loras,
            forced_scoring=bool(getattr(args, "enable_lora", False)),
            max_lora_rank=getattr(args, "max_lora_rank", None),
        )
        log.info("grounded route ready at %s/v1/grounded", listen_address)
        shutdown = await serve_http(
            app,
            sock=sock,
            host=args.host,
            port=args.port,
            log_level=args.uvicorn_log_level,
            access_log=not args.disable_uvicorn_access_log,
        )
    try:
        await shutdown
    finally:
        sock.close()


def main(argv: list[str] | None = None) -> None:
    import uvloop
    from vllm.entrypoints.launchers.cli_args import make_arg_parser, validate_parsed_serve_args
    from vllm.utils.argparse_utils import FlexibleArgumentParser

    # the engine core runs in another process: it must import the processor and the grounded package
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")]))
    if str(REPO_ROOT) not in sys.path:
        sys.path.insert(0, str(REPO_ROOT))
    parser = make_arg_parser(FlexibleArgumentParser(description="GraphRAG LLM worker (vLLM + grounded decoding)"))
    parser.add_argument(
        "--grounded-lora", action="append", default=[], metavar="NAME=PATH", help="LoRA adapter for /v1/grounded"
    )
    args = parser.parse_args(argv)
    loras = dict(item.split("=", 1) for item in args.grounded_lora)
    if loras and not args.enable_lora:
        parser.error("--grounded-lora needs --enable-lora")
    _add_processor(args)
    validate_parsed_serve_args(args)
    uvloop.run(serve(args, loras))


if __name__ == "__main__":
    main()
