"""Grounded constrained decoding on a transformers model: exact scoring, best-first search and beam search over the
candidate trie of the ``grounded`` package.

For a question the service enumerates every valid Cypher query as a string; ``grounded`` tokenises the candidates
into a token-id prefix trie and masks every next token that would leave it. This module runs a transformers causal
LM under that constraint and returns the top-m candidates with their sequence log-probabilities:

* ``top_m_exact`` / ``score_candidates``: every candidate scored exactly, tree-packed, the prompt KV cache shared;
* ``top_m_best_first``: the exact top-m by best-first search over the trie with jump-forward;
* ``grounded_generate``: beam (or greedy) search with ``GroundedLogitsProcessor``, the transformers
  ``LogitsProcessor`` over ``grounded.GroundedMasker``.

Scoring convention: a candidate's log-probability is ``log P(tokens + EOS | prompt)`` under the model's *unmasked*
distribution, i.e. the sum of log-softmax of the raw logits over the candidate's tokens and the closing EOS. Counting
EOS makes the scores a proper distribution over complete candidates (otherwise a candidate that is a token prefix of
another would always outscore it). Masking never changes these numbers: it only removes continuations. The
tokenisation boundary is ``grounded.trie``'s.

What this module must not do: choose, build or validate candidates (the caller enumerates them), execute queries,
load models, or mutate the model / tokenizer / generation config it is given.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Sequence
from typing import Any

import torch

# The processor's base class is the only transformers name imported at module level; models and tokenizers are
# duck-typed, and generate-side imports happen at call time.
from transformers import LogitsProcessor

from grounded import (
    GroundedMasker,
    ScoredCandidate,
    TokenTrie,
    dedupe_candidates,
    encode_prompt,
    tokenize_candidates,
)

__all__ = [
    "GroundedLogitsProcessor",
    "best_first_top_m",
    "grounded_generate",
    "score_candidates",
    "top_m_best_first",
    "top_m_exact",
]


# ---------------------------------------------------------------------------------------------------------------
# Exact scoring with a shared, cached prompt prefix
# ---------------------------------------------------------------------------------------------------------------


def _common_prefix_len(a: Sequence[int], b: Sequence[int]) -> int:
    n = min(len(a), len(b))
    for i in range(n):
        if a[i] != b[i]:
            return i
    return n


def _extend(model: Any, cache: Any, tokens: Sequence[int], last_logprobs: torch.Tensor) -> tuple[torch.Tensor, float]:
    """Feed ``tokens`` (batch 1) after ``cache`` in place; return the next-token log-probs and the tokens' log-prob."""
    ids = torch.tensor([list(tokens)], dtype=torch.long, device=last_logprobs.device)
    out = model(input_ids=ids, past_key_values=cache, use_cache=True)
    logprobs = torch.log_softmax(out.logits[0].float(), dim=-1)
    total = float(last_logprobs[tokens[0]])
    if len(tokens) > 1:
        total += float(logprobs[:-1].gather(1, ids[0, 1:, None]).sum())
    return logprobs[-1], total


def _model_device(model: Any) -> torch.device:
    device = getattr(model, "device", None)
    return device if isinstance(device, torch.device) else torch.device("cpu")


def _model_eos(model: Any, tokenizer: Any = None) -> int:
    eos: Any = getattr(getattr(model, "generation_config", None), "eos_token_id", None)
    if eos is None and tokenizer is not None:
        eos = tokenizer.eos_token_id
    if eos is None:
        eos = getattr(getattr(model, "config", None), "eos_token_id", None)
    if isinstance(eos, Sequence):
        eos = eos[0] if eos else None
    if eos is None:
        raise ValueError("the model defines no EOS token; pass eos_token_id")
    return int(eos)


class _PackedChunk:
    """Suffixes of lexicographically consecutive candidates packed as a token tree in one row.

    Every distinct prefix inside the chunk is one position; a position attends to the cached context and to its
    ancestors only (tree attention through a custom 4D mask) and sits at RoPE position ``context + depth``, so its
    hidden states are exactly those of the candidate run on its own, while shared prefixes are computed once.
    """

    def __init__(self) -> None:
        self.tokens: list[int] = []
        self.parents: list[int] = []  # -1: first token after the cached context
        self.depths: list[int] = []
        self.ends: list[tuple[int, int]] = []  # (candidate index, position of its last token)
        self._path: list[int] = []  # positions of the previous candidate's tokens
        self._prev: Sequence[int] = ()

    def added_positions(self, seq: Sequence[int]) -> int:
        return len(seq) - _common_prefix_len(self._prev, seq)

    def add(self, index: int, seq: Sequence[int]) -> None:
        # candidates arrive sorted, so the prefix shared with any earlier chunk member is the one shared with the
        # previous candidate, whose positions are on _path
        keep = _common_prefix_len(self._prev, seq)
        path = self._path[:keep]
        for depth in range(keep, len(seq)):
            path.append(len(self.tokens))
            self.tokens.append(seq[depth])
            self.parents.append(path[-2] if depth else -1)
            self.depths.append(depth)
        self.ends.append((index, path[-1]))
        self._path, self._prev = path, seq

    def attention_mask(self, context: int, dtype: torch.dtype, device: torch.device) -> torch.Tensor:
        n = len(self.tokens)
        ancestors = torch.zeros((n, n), dtype=torch.bool)
        for i, parent in enumerate(self.parents):
            if parent >= 0:
                ancestors[i] = ancestors[parent]
            ancestors[i, i] = True
        mask = torch.full((n, context + n), torch.finfo(dtype).min, dtype=dtype)
        mask[:, :context] = 0.0
        mask[:, context:].masked_fill_(ancestors, 0.0)
        return mask[None, None].to(device)


def score_candidates(
    model: Any,
    prompt_ids: Sequence[int],
    candidate_ids: Sequence[Sequence[int]],
    *,
    batch_size: int = 32,
    max_chunk_tokens: int = 512,
    eos_token_id: int | None = None,
    include_eos: bool = True,
) -> list[float]:
    """Exact ``log P(candidate [+ EOS] | prompt)`` of every candidate, in input order.

    The prompt runs once into a batch-1 KV cache, extended by the token prefix that all candidates share. Candidates
    are sorted and packed, up to ``batch_size`` candidates or ``max_chunk_tokens`` tree positions per forward, as a
    token tree in one row that attends to the cached context (see ``_PackedChunk``); after each forward the cache is
    cropped back to the context. Nothing is padded, the prompt KV is never duplicated per candidate, and each shared
    prefix inside a chunk is computed once. Exactness against independent full forward passes is tested.
    """
    if batch_size < 1 or max_chunk_tokens < 1:
        raise ValueError("batch_size and max_chunk_tokens must be >= 1")
    if not prompt_ids:
        raise ValueError("the prompt must not be empty (the first candidate token needs a context)")
    eos = _model_eos(model) if eos_token_id is None else eos_token_id
    device = _model_device(model)
    scores = [0.0] * len(candidate_ids)
    if not candidate_ids:
        return scores
    with torch.inference_mode():
        out = model(
            input_ids=torch.tensor([list(prompt_ids)], dtype=torch.long, device=device),
            use_cache=True,
            logits_to_keep=1,
        )
        cache = out.past_key_values
        last = torch.log_softmax(out.logits[0, -1].float(), dim=-1)
        dtype = out.logits.dtype

        nonempty = [i for i, c in enumerate(candidate_ids) if len(c)]
        for i, c in enumerate(candidate_ids):
            if not len(c):  # the empty candidate: only EOS right after the prompt
                scores[i] = float(last[eos]) if include_eos else 0.0
        if not nonempty:
            return scores

        order = sorted(nonempty, key=lambda i: tuple(candidate_ids[i]))
        seqs = [list(candidate_ids[i]) for i in order]
        # the prefix every candidate shares goes into the cache once (the first and last sorted ones bound it); keep
        # >= 1 token per candidate out of it so every candidate owns a position in a chunk
        shared = min(_common_prefix_len(seqs[0], seqs[-1]), min(len(q) for q in seqs) - 1)
        shared_lp = 0.0
        if shared:
            last, shared_lp = _extend(model, cache, seqs[0][:shared], last)
        context = len(prompt_ids) + shared

        chunks: list[_PackedChunk] = []
        for i, q in zip(order, seqs, strict=True):
            suffix = q[shared:]
            if (
                not chunks
                or len(chunks[-1].ends) >= batch_size
                or len(chunks[-1].tokens) + chunks[-1].added_positions(suffix) > max_chunk_tokens
            ):
                chunks.append(_PackedChunk())
            chunks[-1].add(i, suffix)

        for chunk in chunks:
            n = len(chunk.tokens)
            out = model(
                input_ids=torch.tensor([chunk.tokens], dtype=torch.long, device=device),
                position_ids=torch.tensor([[context + d for d in chunk.depths]], dtype=torch.long, device=device),
                attention_mask=chunk.attention_mask(context, dtype, device),
                past_key_values=cache,
                use_cache=True,
            )
            # drop the chunk's positions so the next chunk sees only the shared context (a negative count means
            # "remove that many" in transformers 4.x and 5.x alike; 5.x refuses absolute lengths)
            cache.crop(-n)
            logits = out.logits[0].float()
            lse = torch.logsumexp(logits, dim=-1)
            tokens = torch.tensor(chunk.tokens, dtype=torch.long, device=device)
            parents = torch.tensor(chunk.parents, dtype=torch.long, device=device)
            # log-prob of each position's token given its ancestors: from its parent's logits, or from the context's
            # last logits for first tokens
            from_parent = logits[parents.clamp(min=0), tokens] - lse[parents.clamp(min=0)]
            token_lp = torch.where(parents >= 0, from_parent, last[tokens]).tolist()
            eos_lp = (logits[:, eos] - lse).tolist()
            path_lp = [0.0] * n
            for pos, parent in enumerate(chunk.parents):  # parents precede children
                path_lp[pos] = token_lp[pos] + (path_lp[parent] if parent >= 0 else 0.0)
            for i, pos in chunk.ends:
                scores[i] = shared_lp + path_lp[pos] + (eos_lp[pos] if include_eos else 0.0)
            del out, logits
    return scores


# ---------------------------------------------------------------------------------------------------------------
# transformers adapter
# ---------------------------------------------------------------------------------------------------------------


class GroundedLogitsProcessor(LogitsProcessor):
    """transformers ``LogitsProcessor`` that only lets rows continue some candidate of the trie.

    Works for greedy search, sampling and beam search (``input_ids`` rows are the flattened running beams). Scores
    may be raw logits (greedy) or log-probs (beam search); either way disallowed entries become -inf and allowed ones
    are untouched, so beam scores stay sums of *unmasked* log-probs.
    """

    def __init__(self, tries: TokenTrie | Sequence[TokenTrie], prompt_length: int) -> None:
        self.masker = GroundedMasker(tries)
        self.prompt_length = prompt_length

    def __call__(self, input_ids: torch.LongTensor, scores: torch.FloatTensor) -> torch.FloatTensor:
        rows = int(input_ids.shape[0])
        generated: list[list[int]] = input_ids[:, self.prompt_length :].tolist()
        trie_of_row = self.masker.row_tries(rows)
        states = [self.masker.state_for(t, g) for t, g in zip(trie_of_row, generated, strict=True)]
        return self.masker.mask(scores, states, trie_of_row)  # type: ignore[return-value]


def grounded_generate(
    model: Any,
    tokenizer: Any,
    messages_or_prompt_ids: Any,
    candidates: Sequence[str],
    *,
    top_m: int = 5,
    num_beams: int | None = None,
    max_new_tokens: int | None = None,
) -> list[ScoredCandidate]:
    """Generate under the candidate constraint; return up to ``top_m`` distinct candidates, best first.

    ``num_beams`` defaults to ``top_m`` (greedy when 1) and is capped by the number of distinct candidates. Beam
    search uses ``length_penalty=0`` so beams are ranked by the same summed log-probability that is returned. Each
    returned log-probability is computed from the raw (unmasked) logits of the steps that produced the sequence,
    including the final EOS: the same quantity ``score_candidates`` computes exactly (equal up to float error).
    Beam search is a heuristic: use ``top_m_exact`` when the guaranteed top-m is needed.
    """
    from transformers import GenerationConfig, LogitsProcessorList

    if top_m < 1:
        raise ValueError("top_m must be >= 1")
    if not candidates:
        return []
    prompt = encode_prompt(tokenizer, messages_or_prompt_ids)
    eos = _model_eos(model, tokenizer)
    seqs, first_index = dedupe_candidates(tokenize_candidates(tokenizer, candidates))
    trie = TokenTrie.build(seqs, eos, indices=first_index)
    beams = max(1, min(num_beams if num_beams is not None else top_m, trie.num_candidates))
    n_return = min(top_m, beams)
    gen_kwargs: dict[str, Any] = {
        "max_new_tokens": max_new_tokens if max_new_tokens is not None else trie.max_length + 1,
        "do_sample": False,
        "num_beams": beams,
        "num_return_sequences": n_return,
        "eos_token_id": eos,
        "pad_token_id": eos,
        "return_dict_in_generate": True,
        "output_logits": True,
    }
    if beams > 1:
        gen_kwargs.update(length_penalty=0.0, early_stopping=False)
    config = GenerationConfig(**gen_kwargs)
    device = _model_device(model)
    input_ids = torch.tensor([prompt], dtype=torch.long, device=device)
    processor = GroundedLogitsProcessor(trie, prompt_length=len(prompt))
    with torch.inference_mode():
        out = model.generate(
            input_ids=input_ids,
            attention_mask=torch.ones_like(input_ids),
            generation_config=config,
            logits_processor=LogitsProcessorList([processor]),
        )
        step_logits: tuple[torch.Tensor, ...] = out.logits
        beam_indices = getattr(out, "beam_indices", None)
        found: dict[int, float] = {}
        for i, row in enumerate(out.sequences[:, len(prompt) :].tolist()):
            if eos not in row:
                continue  # ran out of tokens before completing a candidate
            tokens = row[: row.index(eos)]
            node = trie.walk(tokens)
            cand = None if node is None else trie.candidate_at(node)
            if cand is None or cand in found:
                continue
            logprob = 0.0
            for t, tok in enumerate([*tokens, eos]):
                r = int(beam_indices[i, t]) if beam_indices is not None else i
                logprob += float(torch.log_softmax(step_logits[t][r].float(), dim=-1)[tok])
            if math.isfinite(logprob):
                found[cand] = logprob
    ranked = sorted(found.items(), key=lambda kv: kv[1], reverse=True)[:top_m]
    return [ScoredCandidate(i, candidates[i], lp) for i, lp in ranked]


def top_m_exact(
    model: Any,
    tokenizer: Any,
    messages_or_prompt_ids: Any,
    candidates: Sequence[str],
    *,
    top_m: int = 5,
    batch_size: int = 32,
) -> list[ScoredCandidate]:
    """The ``top_m`` candidates by exact ``log P(candidate + EOS | prompt)``, best first, duplicates collapsed."""
    if not candidates:
        return []
    prompt = encode_prompt(tokenizer, messages_or_prompt_ids)
    seqs, first_index = dedupe_candidates(tokenize_candidates(tokenizer, candidates))
    scores = score_candidates(model, prompt, seqs, batch_size=batch_size, eos_token_id=_model_eos(model, tokenizer))
    ranked = sorted(zip(first_index, scores, strict=True), key=lambda kv: kv[1], reverse=True)[:top_m]
    return [ScoredCandidate(i, candidates[i], lp) for i, lp in ranked]


# ---------------------------------------------------------------------------------------------------------------
# best-first search with jump-forward (exact top-m in few forward passes when the model is confident)
# ---------------------------------------------------------------------------------------------------------------
def _forced_run(trie: TokenTrie, node: int) -> tuple[list[int], int]:
    """Tokens the trie forces from ``node`` (single allowed non-EOS token), and the node reached."""
    run: list[int] = []
    while True:
        allowed = trie.allowed(node)
        if allowed.numel() != 1 or int(allowed[0]) == trie.eos_token_id:
            return run, node
        tok = int(allowed[0])
        nxt = trie.step(node, tok)
        if nxt is None:  # pragma: no cover - allowed tokens are edges by construction
            return run, node
        run.append(tok)
        node = nxt


def best_first_top_m(
    model: Any,
    prompt_ids: Sequence[int],
    trie: TokenTrie,
    *,
    top_m: int = 5,
    max_forwards: int = 48,
) -> tuple[list[tuple[int, float]], int]:
    """The ``top_m`` candidates by exact ``log P(candidate + EOS | prompt)``, found by best-first search over the
    trie: partial hypotheses are popped in order of their log-probability (an upper bound of any completion, since
    adding tokens only lowers it), so the first ``top_m`` completed candidates popped are the exact top-m.

    Runs of tokens the trie forces are fed in one forward pass (jump-forward), and a hypothesis is only run through
    the model when it is popped, so a confident model needs a handful of passes whatever the candidate count. When
    ``max_forwards`` is spent the best open hypotheses are completed greedily (then the result is approximate).
    Returns ``[(candidate index, logprob)]`` best first, and the number of forward passes used.
    """
    import heapq

    device = _model_device(model)
    eos = trie.eos_token_id
    forwards = 0

    def run(cache: Any, tokens: list[int]) -> tuple[Any, torch.Tensor]:
        nonlocal forwards
        forwards += 1
        out = model(input_ids=torch.tensor([tokens], device=device), past_key_values=cache, use_cache=True)
        return out.past_key_values, torch.log_softmax(out.logits[0].float(), dim=-1)

    with torch.inference_mode():
        cache, logprobs = run(None, list(prompt_ids))
        root_run, root_node = _forced_run(trie, trie.root)
        # heap items: (-logprob, tiebreak, kind, payload); kind 0 = finished, 1 = evaluated, 2 = pending
        heap: list[tuple[float, int, int, Any]] = []
        counter = 0
        base_lp = 0.0
        if root_run:
            cache, lps = run(cache, root_run)
            base_lp = float(logprobs[-1, root_run[0]]) + sum(
                float(lps[i, root_run[i + 1]]) for i in range(len(root_run) - 1)
            )
            logprobs = lps
        heapq.heappush(heap, (-base_lp, counter, 1, (root_node, cache, logprobs[-1])))
        results: list[tuple[int, float]] = []
        while heap and len(results) < top_m:
            neg, _, kind, payload = heapq.heappop(heap)
            lp = -neg
            if kind == 0:
                results.append((payload, lp))
                continue
            if kind == 2:
                node, parent_cache, pending = payload
                if forwards >= max_forwards:
                    heapq.heappush(heap, (neg, _, kind, payload))  # budget spent: finish greedily below
                    break
                new_cache, lps = run(copy.deepcopy(parent_cache), pending)
                lp += sum(float(lps[i, pending[i + 1]]) for i in range(len(pending) - 1))
                counter += 1
                heapq.heappush(heap, (-lp, counter, 1, (node, new_cache, lps[-1])))
                continue
            node, node_cache, last = payload
            for tok in trie.allowed(node).tolist():
                child_lp = lp + float(last[tok])
                counter += 1
                if tok == eos:
                    cand = trie.candidate_at(node)
                    if cand is not None:
                        heapq.heappush(heap, (-child_lp, counter, 0, cand))
                    continue
                child = trie.step(node, tok)
                if child is None:
                    continue
                forced, end = _forced_run(trie, child)
                heapq.heappush(heap, (-child_lp, counter, 2, (end, node_cache, [tok, *forced])))
        if not results and heap:
            results = _greedy_finish(trie, heap, run)
    return results, forwards


def _greedy_finish(trie: TokenTrie, heap: list[tuple[float, int, int, Any]], run: Any) -> list[tuple[int, float]]:
    """Complete the best open hypothesis greedily (the forward budget is spent)."""
    import heapq

    neg, _, kind, payload = heapq.heappop(heap)
    lp = -neg
    if kind == 0:
        return [(payload, lp)]
    if kind == 2:
        node, parent_cache, pending = payload
        cache, lps = run(copy.deepcopy(parent_cache), pending)
        lp += sum(float(lps[i, pending[i + 1]]) for i in range(len(pending) - 1))
        last = lps[-1]
    else:
        node, cache, last = payload
    while True:
        allowed = trie.allowed(node)
        tok = int(allowed[int(torch.argmax(last[allowed]))])
        lp += float(last[tok])
        if tok == trie.eos_token_id:
            cand = trie.candidate_at(node)
            return [(cand, lp)] if cand is not None else []
        child = trie.step(node, tok)
        assert child is not None
        forced, node = _forced_run(trie, child)
        cache, lps = run(cache, [tok, *forced])
        lp += sum(float(lps[i, forced[i]]) for i in range(len(forced)))
        last = lps[-1]


def top_m_best_first(
    model: Any,
    tokenizer: Any,
    messages_or_prompt_ids: Any,
    candidates: Sequence[str],
    *,
    top_m: int = 5,
    max_forwards: int = 48,
) -> list[ScoredCandidate]:
    """``best_first_top_m`` over candidate strings (duplicates collapsed)."""
    if not candidates:
        return []
    prompt = encode_prompt(tokenizer, messages_or_prompt_ids)
    seqs, first_index = dedupe_candidates(tokenize_candidates(tokenizer, candidates))
    trie = TokenTrie.build(seqs, _model_eos(model, tokenizer), indices=first_index)
    ranked, _ = best_first_top_m(model, prompt, trie, top_m=top_m, max_forwards=max_forwards)
    return [ScoredCandidate(i, candidates[i], lp) for i, lp in ranked]
