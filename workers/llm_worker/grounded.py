"""Top-m candidate choice over a vLLM engine (the worker's ``POST /v1/grounded``).

Two ways (``best_first`` and ``beam`` requests are served by ``exact``), both returning exact candidates with
``log P(candidate tokens + EOS | prompt)`` under the model's unmasked distribution (the scoring convention of
``grounded`` and the gateway):

* ``exact``: every distinct candidate is scored in one engine request with ``prompt_logprobs`` over
  ``prompt + candidate + EOS`` (the requests share the prompt prefix, which vLLM's prefix cache computes once);
  the top-m by score are returned. This is the guaranteed top-m. vLLM's HTTP beam search drops extra args and
  structured outputs, so it is not used. When the engine runs with ``--enable-lora``, candidates are scored by forced
  decoding under a one-candidate trie instead (``score_forced``: same numbers; vLLM 0.32's CPU LoRA logits layer
  fails on prompt logprobs and takes the engine down).
* ``greedy``: one request decoded greedily under the ``GroundedTrieLogitsProcessor`` (the constraint inside vLLM);
  the result is always a candidate, scored by the raw log-probabilities vLLM reports for the sampled tokens
  (``logprobs_mode=raw_logprobs``: before the mask). Returns one candidate.
"""

from __future__ import annotations

import asyncio
import math
import uuid
from collections.abc import Awaitable, Sequence
from typing import Any

from vllm import SamplingParams
from vllm.inputs import TokensPrompt

from grounded import DecodingMethod, TokenTrie, dedupe_candidates
from workers.llm_worker.logits_processor import CANDIDATES_KEY, EOS_KEY


def _req_id(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:16]}"


async def _final(engine: Any, prompt_ids: list[int], params: SamplingParams, request_id: str, lora: Any) -> Any:
    """The request's last output; the engine request is aborted if this fails or is cancelled."""
    final = None
    try:
        prompt = TokensPrompt(prompt_token_ids=prompt_ids)
        async for item in engine.generate(prompt, params, request_id, lora_request=lora):
            final = item
    except BaseException:
        await engine.abort([request_id])
        raise
    return final


async def _all(engine: Any, ids: list[str], jobs: Sequence[Awaitable[float]]) -> list[float]:
    """Run one engine request per id together; if any fails, abort them all (gather leaves the others running)."""
    try:
        return list(await asyncio.gather(*jobs))
    except BaseException:
        await engine.abort(ids)
        raise


def _sampled_logprob(completion: Any, *, strict: bool) -> float:
    """Sum of the raw log-probabilities vLLM reports for the tokens a completion emitted."""
    pairs = zip(completion.token_ids, completion.logprobs or [], strict=strict)
    return sum(float(entry[tok].logprob) for tok, entry in pairs)


async def score_forced(
    engine: Any, prompt_ids: list[int], seqs: Sequence[Sequence[int]], eos: int, *, lora: Any = None
) -> list[float]:
    """``log P(seq + EOS | prompt)`` by decoding each sequence under a one-candidate trie (the processor forces it)
    and summing the raw log-probabilities vLLM reports for the emitted tokens. Same number as ``score_exact``;
    used when the engine runs with ``--enable-lora``: there vLLM 0.32's CPU LoRA logits layer fails on prompt
    log-probabilities (with or without an adapter in the request) and the failure kills the engine."""
    ids = [_req_id("force") for _ in seqs]

    async def one(seq: Sequence[int], rid: str) -> float:
        params = SamplingParams(
            max_tokens=len(seq) + 1,
            temperature=0.0,
            logprobs=0,
            detokenize=False,
            extra_args={CANDIDATES_KEY: [list(seq)], EOS_KEY: eos},
        )
        out = await _final(engine, prompt_ids, params, rid, lora)
        comp = out.outputs[0]
        if list(comp.token_ids) != [*seq, eos]:
            raise RuntimeError("forced decoding left its one-candidate trie")
        return _sampled_logprob(comp, strict=True)

    return await _all(engine, ids, [one(s, r) for s, r in zip(seqs, ids, strict=True)])


async def score_exact(
    engine: Any, prompt_ids: list[int], seqs: Sequence[Sequence[int]], eos: int, *, lora: Any = None
) -> list[float]:
    """``log P(seq + EOS | prompt)`` for each sequence (prompt logprobs, one request per sequence, batched)."""
    params = SamplingParams(max_tokens=1, temperature=0.0, prompt_logprobs=0, detokenize=False)
    ids = [_req_id("score") for _ in seqs]

    async def one(seq: Sequence[int], rid: str) -> float:
        full = [*prompt_ids, *seq, eos]
        out = await _final(engine, full, params, rid, lora)
        plp = out.prompt_logprobs  # one entry per prompt position (the first is None)
        total = 0.0
        for pos in range(len(prompt_ids), len(full)):
            entry = plp[pos]
            total += float(entry[full[pos]].logprob)
        return total

    return await _all(engine, ids, [one(s, r) for s, r in zip(seqs, ids, strict=True)])


async def greedy_constrained(
    engine: Any, prompt_ids: list[int], seqs: Sequence[Sequence[int]], eos: int, *, lora: Any = None
) -> tuple[list[int], float, int]:
    """Greedy decoding under the trie constraint: (tokens without EOS, log-probability incl. EOS, tokens emitted)."""
    max_len = max(len(s) for s in seqs)
    params = SamplingParams(
        max_tokens=max_len + 1,
        temperature=0.0,
        logprobs=0,
        detokenize=False,
        extra_args={CANDIDATES_KEY: [list(s) for s in seqs], EOS_KEY: eos},
    )
    out = await _final(engine, prompt_ids, params, _req_id("greedy"), lora)
    comp = out.outputs[0]
    tokens = list(comp.token_ids)
    body = tokens[:-1] if tokens and tokens[-1] == eos else tokens
    return body, _sampled_logprob(comp, strict=False), len(tokens)


async def choose(
    engine: Any,
    prompt_ids: list[int],
    cand_ids: Sequence[Sequence[int]],
    eos: int,
    *,
    top_m: int,
    method: DecodingMethod,
    lora: Any = None,
    forced: bool = False,
) -> list[tuple[int, float]]:
    """(candidate index, log-probability) best first; duplicate token sequences collapse to their first index.
    ``greedy`` decodes once under the trie processor; ``exact``, ``best_first`` and ``beam`` all score every candidate
    exactly here (the guaranteed top-m, which best-first search and beam search approximate or find in fewer passes on
    a model without a prefix cache)."""
    seqs, index = dedupe_candidates(cand_ids)
    if method == "greedy":
        trie = TokenTrie.build(seqs, eos, indices=index)
        tokens, lp, _ = await greedy_constrained(engine, prompt_ids, seqs, eos, lora=lora)
        node = trie.walk(tokens)
        cand = None if node is None else trie.candidate_at(node)
        if cand is None:  # cannot happen under the processor; refuse rather than return a non-candidate
            raise RuntimeError("constrained decoding produced a sequence outside the candidate set")
        return [(cand, lp)]
    score = score_forced if forced or lora is not None else score_exact
    scores = await score(engine, prompt_ids, seqs, eos, lora=lora)
    ranked = sorted(zip(index, scores, strict=True), key=lambda kv: kv[1], reverse=True)
    return [(i, s) for i, s in ranked if math.isfinite(s)][:top_m]
