"""The LLM worker for real: vLLM (CPU build, own venv) serving SmolLM2-135M with the grounded logits processor.

Run with ``make test-vllm`` (builds the venv once under ~/.cache/graphrag-service/vllm-venv, then starts the worker
here). ``GRAPHRAG_TEST_VLLM_URL`` points the tests at an already running worker instead.

What is proven: constrained outputs (greedy and high-temperature sampling, through the worker's route and through
vLLM's own completions API with ``vllm_xargs``) are always candidates; greedy top-1 and exact top-m agree with the
transformers path on the same prompts, log-probabilities included; a LoRA adapter served by the worker ranks like
the same adapter merged in transformers; streaming works; the gateway's ``/ask`` (vector and text2cypher modes, and
SSE) works end to end against the worker.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import torch
from asgi_lifespan import LifespanManager
from fastapi import FastAPI

from app.llm.constrained import grounded_generate, top_m_exact
from app.llm.local import ensure_converted_smollm2
from app.llm.vllm_client import VLLMClient
from app.main import create_app
from app.retrievers.text2cypher import Text2CypherRetriever
from app.settings import LLMSettings, Settings
from app.text2cypher.answer_form import answer_form
from app.text2cypher.question import question_literals
from tests.conftest import DEMO, ingest_demo, make_settings
from workers.llm_worker.launch import WorkerStartError, local_worker

pytestmark = pytest.mark.vllm

VLLM_PYTHON = Path(
    os.environ.get("GRAPHRAG_VLLM_PYTHON", "~/.cache/graphrag-service/vllm-venv/bin/python")
).expanduser()
LORA_NAME = "t2c-test"

QUESTIONS = [
    "Which manufacturer built the Sable Class?",
    "Who founded the Northern Selvane Railway?",
    "zzzz qqq 12345 !!!",
    "Which cities does the Selvane Main Line connect, and which river does it cross?",
]


def candidate_set(name: str) -> list[str]:
    """Queries sharing long prefixes, one a token prefix of another's text, different lengths."""
    base = f'MATCH (x1:Locomotive {{name: "{name}"}})'
    return [
        f"{base}-[:MANUFACTURED_BY]->(x2:Manufacturer) RETURN x2.name",
        f"{base}-[:DESIGNED_BY]->(x2:Person) RETURN x2.name",
        f"{base}-[:DESIGNED_BY]->(x2:Person)-[:BORN_IN]->(x3:City) RETURN x3.name",
        f"{base}-[:ASSIGNED_TO]->(x2:RailwayLine) RETURN x2.name",
        f"{base}-[:ASSIGNED_TO]->(x2:RailwayLine)-[:OPERATED_BY]->(x3:RailwayCompany) RETURN x3.name",
        f"{base}-[:ASSIGNED_TO]->(x2:RailwayLine)-[:CONNECTS]->(x3:City) RETURN x3.name",
    ]


CANDS = candidate_set("Sable Class")


@pytest.fixture(scope="session")
def model_dir() -> Path:
    return ensure_converted_smollm2(Settings(_env_file=None).model_cache_dir)  # type: ignore[call-arg]


@pytest.fixture(scope="session")
def lora_dir(model_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small random LoRA adapter (non-zero B, so it changes the model) saved with peft."""
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    torch.manual_seed(7)
    base = AutoModelForCausalLM.from_pretrained(model_dir, dtype=torch.float32)
    cfg = LoraConfig(r=8, lora_alpha=16, target_modules=["q_proj", "v_proj", "o_proj"], init_lora_weights=False)
    peft_model = get_peft_model(base, cfg)
    out = tmp_path_factory.mktemp("lora") / LORA_NAME
    peft_model.save_pretrained(out)
    return out


@contextlib.contextmanager
def running_worker(model_dir: Path, log_path: Path, *extra: str) -> Iterator[str]:
    """``workers.llm_worker.launch.local_worker`` from the vLLM venv; a failed start fails the test with its log."""
    if not VLLM_PYTHON.exists():
        pytest.fail(f"{VLLM_PYTHON} is missing: `make test-vllm` builds the vLLM CPU venv")
    try:
        worker = local_worker(VLLM_PYTHON, model_dir, log_path, *extra, env={"OMP_NUM_THREADS": "2"})
        with worker as (base, seconds):
            print(f"\nvLLM worker {' '.join(extra) or '(base)'} ready in {seconds:.1f} s")
            yield base
    except WorkerStartError as exc:
        pytest.fail(str(exc))


@pytest.fixture(scope="session")
def worker_url(model_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    url = os.environ.get("GRAPHRAG_TEST_VLLM_URL")
    if url:
        yield url.rstrip("/")
        return
    with running_worker(model_dir, tmp_path_factory.mktemp("worker") / "worker.log") as base:
        yield base


@pytest.fixture(scope="module")
def lora_worker_url(model_dir: Path, lora_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A second worker with LoRA enabled (its exact scoring is forced decoding: see workers/llm_worker/grounded.py)."""
    log_path = tmp_path_factory.mktemp("lora-worker") / "worker.log"
    lora = ("--enable-lora", "--max-lora-rank", "16", "--grounded-lora", f"{LORA_NAME}={lora_dir}")
    with running_worker(model_dir, log_path, *lora) as base:
        yield base


@pytest.fixture(scope="session")
def hf(model_dir: Path) -> tuple[Any, Any]:
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(model_dir)
    return AutoModelForCausalLM.from_pretrained(model_dir, dtype=torch.float32).eval(), tok


def grounded(url: str, question: str, cands: list[str], **kw: Any) -> dict[str, Any]:
    body = {"messages": [{"role": "user", "content": question}], "candidates": cands, **kw}
    r = httpx.post(f"{url}/v1/grounded", json=body, timeout=300)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def test_greedy_outputs_are_always_candidates(worker_url: str) -> None:
    for q in QUESTIONS:
        for cands in (CANDS, candidate_set('Odd "quoted" name'), CANDS[:1]):
            ranked = grounded(worker_url, q, cands, method="greedy", top_m=1)["ranked"]
            assert len(ranked) == 1 and ranked[0]["text"] in cands


def test_token_id_candidates_rank_like_text_candidates(worker_url: str, hf: tuple[Any, Any]) -> None:
    _, tok = hf
    ids = [list(x) for x in tok(CANDS, add_special_tokens=False)["input_ids"]]
    by_text = grounded(worker_url, QUESTIONS[0], CANDS, method="exact", top_m=3)["ranked"]
    body = {"messages": [{"role": "user", "content": QUESTIONS[0]}], "candidate_token_ids": ids, "top_m": 3}
    by_ids = httpx.post(f"{worker_url}/v1/grounded", json=body, timeout=300).json()["ranked"]
    assert [(r["index"], r["text"]) for r in by_ids] == [(r["index"], r["text"]) for r in by_text]


def test_vllm_completions_with_xargs_only_ever_sample_candidates(worker_url: str, hf: tuple[Any, Any]) -> None:
    """The processor alone (vLLM's own /v1/completions, no worker code on the way back), high-temperature sampling:
    every sample decodes to a candidate."""
    _, tok = hf
    ids = [list(x) for x in tok(CANDS, add_special_tokens=False)["input_ids"]]
    prompt = tok.apply_chat_template(
        [{"role": "user", "content": QUESTIONS[2]}], add_generation_prompt=True, tokenize=True, return_dict=True
    )["input_ids"]
    model = httpx.get(f"{worker_url}/v1/models", timeout=30).json()["data"][0]["id"]
    body = {
        "model": model,
        "prompt": prompt,
        "max_tokens": max(len(s) for s in ids) + 1,
        "temperature": 1.8,
        "n": 8,
        "seed": 3,
        "vllm_xargs": {"grounded_candidates": json.dumps(ids)},
    }
    r = httpx.post(f"{worker_url}/v1/completions", json=body, timeout=300)
    assert r.status_code == 200, r.text
    texts = [c["text"] for c in r.json()["choices"]]
    assert len(texts) == 8 and all(t in CANDS for t in texts), texts
    assert len(set(texts)) > 1  # it really sampled (not one forced path)
    # without the constraint the same sampling leaves the candidate set
    body.pop("vllm_xargs")
    free = [c["text"] for c in httpx.post(f"{worker_url}/v1/completions", json=body, timeout=300).json()["choices"]]
    assert not all(t in CANDS for t in free)


def test_invalid_candidates_are_rejected_with_400(worker_url: str) -> None:
    model = httpx.get(f"{worker_url}/v1/models", timeout=30).json()["data"][0]["id"]
    body = {"model": model, "prompt": "x", "max_tokens": 4, "vllm_xargs": {"grounded_candidates": "[[1, -2]]"}}
    r = httpx.post(f"{worker_url}/v1/completions", json=body, timeout=60)
    assert r.status_code == 400, r.text
    r = httpx.post(f"{worker_url}/v1/grounded", json={"messages": [], "candidates": []}, timeout=60)
    assert r.status_code in (400, 422)


def test_greedy_and_exact_agree_with_the_transformers_path(worker_url: str, hf: tuple[Any, Any]) -> None:
    model, tok = hf
    for q in QUESTIONS:
        msgs = [{"role": "user", "content": q}]
        with torch.inference_mode():
            want_greedy = grounded_generate(model, tok, msgs, CANDS, top_m=1, num_beams=1)[0]
            want_top = top_m_exact(model, tok, msgs, CANDS, top_m=4)
        got_greedy = grounded(worker_url, q, CANDS, method="greedy", top_m=1)["ranked"][0]
        assert got_greedy["index"] == want_greedy.index
        assert got_greedy["logprob"] == pytest.approx(want_greedy.logprob, abs=0.05)
        got_top = grounded(worker_url, q, CANDS, method="exact", top_m=4)["ranked"]
        assert [r["index"] for r in got_top] == [w.index for w in want_top]
        for g, w in zip(got_top, want_top, strict=True):
            assert g["logprob"] == pytest.approx(w.logprob, abs=0.05)


def test_lora_adapter_on_the_worker_ranks_like_the_merged_adapter(
    lora_worker_url: str, hf: tuple[Any, Any], model_dir: Path, lora_dir: Path
) -> None:
    from peft import PeftModel
    from transformers import AutoModelForCausalLM

    _, tok = hf
    base = AutoModelForCausalLM.from_pretrained(model_dir, dtype=torch.float32)
    tuned = PeftModel.from_pretrained(base, str(lora_dir)).merge_and_unload().eval()
    q = QUESTIONS[0]
    with torch.inference_mode():
        want = top_m_exact(tuned, tok, [{"role": "user", "content": q}], CANDS, top_m=3)
    got = grounded(lora_worker_url, q, CANDS, method="exact", top_m=3, lora=LORA_NAME)["ranked"]
    base_got = grounded(lora_worker_url, q, CANDS, method="exact", top_m=3)["ranked"]
    assert [r["index"] for r in got] == [w.index for w in want]
    for g, w in zip(got, want, strict=True):
        assert g["logprob"] == pytest.approx(w.logprob, abs=0.05)
    assert abs(got[0]["logprob"] - base_got[0]["logprob"]) > 0.1  # the adapter was applied
    # the base model's forced-decoding scores on this worker equal the transformers base model's
    base_model, _ = hf
    with torch.inference_mode():
        want_base = top_m_exact(base_model, tok, [{"role": "user", "content": q}], CANDS, top_m=3)
    assert [r["index"] for r in base_got] == [w.index for w in want_base]


async def test_the_gateway_brings_a_namespace_adapter_to_the_worker_while_it_runs(
    lora_worker_url: str, worker_url: str, lora_dir: Path, tmp_path: Path
) -> None:
    """``python -m app tune`` writes a namespace adapter; the gateway's client registers it with the running worker
    on first use (``POST /v1/grounded/loras``), and it then ranks exactly like the adapter the worker was started
    with. A worker without ``--enable-lora``, a folder without an adapter, and a rank above the worker's limit are
    refused with the reason."""
    from app.llm.adapters import TunedAdapter

    async def served() -> dict[str, Any]:
        async with httpx.AsyncClient(timeout=30) as h:
            got: dict[str, Any] = (await h.get(f"{lora_worker_url}/v1/grounded/loras")).json()
            return got

    listed = await served()
    assert listed["enabled"] and listed["loras"] == {LORA_NAME: str(lora_dir)}
    adapter = TunedAdapter("text2cypher-ns1", lora_dir)
    plain = VLLMClient(worker_url, timeout_s=60)
    await plain.start()
    try:
        why = await plain.ensure_adapter(adapter)
        assert why is not None and "--enable-lora" in why and not plain.serves(adapter)
    finally:
        await plain.close()
    c = VLLMClient(lora_worker_url, timeout_s=300)
    await c.start()
    try:
        assert await c.ensure_adapter(adapter) is None and c.serves(adapter)
        assert (await served())["loras"]["text2cypher-ns1"] == str(lora_dir)
        q = QUESTIONS[0]
        got = await c.choose([{"role": "user", "content": q}], CANDS, top_m=3, method="exact", adapter=adapter)
        started = await asyncio.to_thread(
            grounded, lora_worker_url, q, CANDS, method="exact", top_m=3, lora=LORA_NAME
        )  # the same adapter, given to the worker at start-up
        assert [r.index for r in got] == [w["index"] for w in started["ranked"]]
        for g, w in zip(got, started["ranked"], strict=True):
            assert g.logprob == pytest.approx(w["logprob"], abs=1e-3)
        empty = tmp_path / "empty"
        empty.mkdir()
        too_big = tmp_path / "big"
        too_big.mkdir()
        (too_big / "adapter_config.json").write_text(json.dumps({"r": 64}))
        for folder, says in ((empty, "adapter_config.json"), (too_big, "max-lora-rank")):
            why = await c.ensure_adapter(TunedAdapter(f"text2cypher-{folder.name}", folder))
            assert why is not None and "HTTP 400" in why and says in why
    finally:
        await c.close()


async def test_the_text2cypher_role_is_served_by_the_workers_lora_with_the_short_prompt(
    lora_worker_url: str, hf: tuple[Any, Any], model_dir: Path, lora_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """``GRAPHRAG_LLM__TEXT2CYPHER__VLLM_LORA``: the gateway's text2cypher model is the worker's adapter (the answer
    model stays the base), and since an adapter is trained on the prompt without the schema, the mode drops it. The
    ranking equals the same adapter merged in transformers on that prompt."""
    from peft import PeftModel
    from transformers import AutoModelForCausalLM

    from app.container import Container
    from app.retrievers.text2cypher import Text2CypherTrace
    from app.retrievers.types import RetrievalQuery
    from app.settings import LLMRoleSettings
    from app.text2cypher.prompt import build_messages

    role = LLMRoleSettings(vllm_lora=LORA_NAME)
    llm = LLMSettings(backend="vllm", vllm_url=lora_worker_url, max_new_tokens=24, text2cypher=role)
    c = await Container.start(make_settings(tmp_path_factory.mktemp("role"), llm=llm), modes=["text2cypher", "vector"])
    try:
        await c.ingestor.ingest_path("demo", "metaqa", DEMO / "kg.txt", labels_path=DEMO / "labels.json")
        t2c, answer = c.llms.text2cypher, c.llms.answer
        assert isinstance(t2c, VLLMClient) and isinstance(answer, VLLMClient) and c.llms.tuned == {"text2cypher"}
        assert (t2c.lora, answer.lora) == (LORA_NAME, None)
        mode = c.retrievers["text2cypher"]
        assert isinstance(mode, Text2CypherRetriever)
        q = QUESTIONS[0]
        # the worker's choice over every candidate; the entity paths only (with the shapes, 171 candidates: scoring
        # them all on a CPU worker and again in transformers would take minutes and test nothing more)
        mode.config = mode.config.model_copy(update={"scoring": "llm", "shapes": False})
        res = await mode.retrieve(RetrievalQuery(question=q, namespace="demo", top_k=5))
        _, cands, _ = await mode.candidates("demo", q)
        schema = await mode.schema("demo")
    finally:
        await c.close()
    trace = res.trace
    # more than 16 candidates: best-first, which the worker serves by scoring every candidate exactly
    assert isinstance(trace, Text2CypherTrace) and trace.decoding in ("exact", "best_first") and trace.ranked
    _, tok = hf
    base = AutoModelForCausalLM.from_pretrained(model_dir, dtype=torch.float32)
    tuned = PeftModel.from_pretrained(base, str(lora_dir)).merge_and_unload().eval()
    with torch.inference_mode():
        want = top_m_exact(tuned, tok, build_messages(schema, q, with_schema=False), [x.text for x in cands], top_m=5)
    assert trace.ranked[0].query == want[0].text
    want_lp = {w.text: w.logprob for w in want}
    for r in trace.ranked:
        assert r.logprob == pytest.approx(want_lp[r.query], abs=0.05)


async def test_client_streaming_matches_the_full_answer(worker_url: str) -> None:
    c = VLLMClient(worker_url, timeout_s=120)
    await c.start()
    try:
        msgs = [{"role": "user", "content": "Name three colours."}]
        full = await c.generate(msgs, max_new_tokens=24)  # type: ignore[arg-type]
        pieces = [p async for p in c.stream(msgs, max_new_tokens=24)]  # type: ignore[arg-type]
        assert len(pieces) > 1 and "".join(pieces).strip() == full.text
        assert full.tokens_in > 0 and full.tokens_out > 0
    finally:
        await c.close()


@pytest.fixture(scope="module")
async def vllm_app(worker_url: str, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[FastAPI]:
    settings = make_settings(
        tmp_path_factory.mktemp("vllm-data"),
        llm=LLMSettings(backend="vllm", vllm_url=worker_url, max_new_tokens=24),
    )
    application = create_app(settings)
    async with LifespanManager(application, startup_timeout=600, shutdown_timeout=120):
        await ingest_demo(application.state.container)
        yield application


@pytest.fixture(scope="module")
async def vclient(vllm_app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=vllm_app), base_url="http://t", timeout=300) as c:
        yield c


async def test_gateway_ask_end_to_end_against_the_worker(vclient: httpx.AsyncClient, vllm_app: FastAPI) -> None:
    r = await vclient.post("/ask", json={"question": "Who designed the Sable Class?", "namespace": "demo"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["answer"] and not body.get("warnings"), body
    assert body["citations"]

    r = await vclient.post(
        "/ask",
        json={"question": "Which manufacturer built the Sable Class?", "namespace": "demo", "mode": "text2cypher"},
    )
    assert r.status_code == 200, r.text
    body = r.json()
    t2c = vllm_app.state.container.retrievers["text2cypher"]
    assert isinstance(t2c, Text2CypherRetriever)
    _, cands, _ = await t2c.candidates("demo", "Which manufacturer built the Sable Class?")
    assert not body.get("warnings"), body
    query = body["trace"]["retrieval"]["query"]
    lits = question_literals("Which manufacturer built the Sable Class?")
    # a candidate, as the question asks for its answer and as the answer reads it (a path's names once)
    assert query in {answer_form(c, lits).answer_text for c in cands}
    assert body["trace"]["retrieval"]["ranked"][0]["query"] in {c.text for c in cands}
    assert body["answer"]


async def test_gateway_streams_ask_from_the_worker(vclient: httpx.AsyncClient) -> None:
    events: list[str] = []
    async with vclient.stream(
        "POST", "/ask", json={"question": "Where is Whitleven?", "namespace": "demo", "stream": True}
    ) as r:
        assert r.status_code == 200
        async for line in r.aiter_lines():
            if line.startswith("event:"):
                events.append(line.split(":", 1)[1].strip())
    assert events.count("token") > 1 and events[-1] == "done", events
