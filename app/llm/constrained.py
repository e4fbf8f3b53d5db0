"""Grounded constrained decoding (GraphRAFT): make a causal LM emit exactly one of an enumerated candidate set.

For a question the service enumerates every valid Cypher query as a string. This module tokenises the candidates
into a token-id prefix trie, masks every next token that would leave the trie during generation (EOS only where a
candidate ends), and scores candidates exactly under the model so the top-m valid queries can be returned with
their sequence log-probabilities.

Layout:

* **Core** (``TokenTrie``, ``GroundedMasker``, ``tokenize_candidates``, ``score_candidates``): uses torch and
  duck-typed model/tokenizer objects only, so a vLLM V1 logits-processor adapter can reuse it unchanged.
* **transformers adapter** (``GroundedLogitsProcessor``, ``grounded_generate``, ``top_m_exact``): the only code that
  touches transformers (the processor's base class at import, ``generate`` helpers at call time).

Scoring convention: a candidate's log-probability is ``log P(tokens + EOS | prompt)`` under the model's *unmasked*
distribution, i.e. the sum of log-softmax of the raw logits over the candidate's tokens and the closing EOS. Counting
EOS makes the scores a proper distribution over complete candidates (otherwise a candidate that is a token prefix of
another would always outscore it). Masking never changes these numbers: it only removes continuations.

Tokenisation boundary: candidates are tokenised on their own with ``add_special_tokens=False`` and generation always
starts right after the chat template's generation prompt (``"<|im_start|>assistant\\n"`` for SmolLM2). With a
byte-level BPE whose pre-tokenizer splits at the newline, the ids of the candidate alone equal the ids the tokenizer
produces for ``prompt + candidate`` (tested). For prompts that end mid-word pass ``prefix=`` to
``tokenize_candidates``; it tokenises ``prefix + candidate`` and refuses candidates whose first token would merge
with the prompt.

What this module must not do: choose, build or validate candidates (the caller enumerates them), execute queries,
load models, or mutate the model / tokenizer / generation config it is given.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import torch

# The adapter's base class. It is the only transformers name imported at module level; the core below never uses
# transformers APIs (models and tokenizers are duck-typed), and generate-side imports happen at call time.
from transformers import LogitsProcessor

__all__ = [
    "GroundedLogitsProcessor",
    "GroundedMasker",
    "ScoredCandidate",
    "TokenTrie",
    "encode_prompt",
    "grounded_generate",
    "score_candidates",
    "tokenize_candidates",
    "top_m_exact",
]

# Masker states below 0 are not trie nodes: the row can only emit EOS (which is also the pad token afterwards).
DONE = -1  # EOS was emitted at a complete candidate
OFF = -2  # the generated suffix left the trie (cannot happen while the mask is applied; kept for safety)


class ScoredCandidate(NamedTuple):
    # position in the caller's candidate list (first occurrence for duplicates); the name shadows tuple.index on
    # purpose, the API is (index, text, logprob)
    index: int  # type: ignore[assignment]
    text: str
    logprob: float  # log P(candidate tokens + EOS | prompt), unmasked model distribution


# ---------------------------------------------------------------------------------------------------------------
# Core: token trie
# ---------------------------------------------------------------------------------------------------------------


class TokenTrie:
    """Prefix trie over candidate token sequences with precomputed allowed-next-token tensors per node.

    Nodes are dense ints (root is 0). Edges live in one dict keyed ``node * stride + token`` (one int key per edge
    instead of a dict per node: 20k candidates give ~500k nodes). The allowed next tokens of every node are stored
    CSR-style in one LongTensor, so ``allowed(node)`` is an O(1) slice whatever the number of candidates.
    """

    root = 0

    def __init__(
        self,
        *,
        edges: dict[int, int],
        stride: int,
        terminal: dict[int, int],
        allowed_flat: torch.Tensor,
        allowed_offsets: list[int],
        eos_token_id: int,
        max_length: int,
        duplicates: dict[int, int],
    ) -> None:
        self._edges = edges
        self._stride = stride
        self._terminal = terminal
        self._allowed_flat = allowed_flat
        self._offsets = allowed_offsets
        self.eos_token_id = eos_token_id
        self.max_length = max_length
        self.duplicates = duplicates  # dropped candidate index -> kept index with the same token sequence
        self.eos_only = torch.tensor([eos_token_id], dtype=torch.long)

    @classmethod
    def build(
        cls,
        sequences: Sequence[Sequence[int]],
        eos_token_id: int,
        indices: Sequence[int] | None = None,
    ) -> TokenTrie:
        """Build from token sequences; ``indices[i]`` is the candidate index sequence i ends at (default ``i``)."""
        if indices is not None and len(indices) != len(sequences):
            raise ValueError("indices must be as long as sequences")
        max_token = max((max(s) for s in sequences if len(s)), default=0)
        stride = max(max_token, eos_token_id) + 1
        edges: dict[int, int] = {}
        terminal: dict[int, int] = {}
        duplicates: dict[int, int] = {}
        n_nodes = 1
        max_length = 0
        for i, seq in enumerate(sequences):
            cand = i if indices is None else indices[i]
            node = 0
            for tok in seq:
                if tok == eos_token_id:
                    raise ValueError(f"candidate {cand} contains the EOS token {eos_token_id}")
                if tok < 0:
                    raise ValueError(f"candidate {cand} contains a negative token id")
                key = node * stride + tok
                child = edges.get(key)
                if child is None:
                    child = n_nodes
                    n_nodes += 1
                    edges[key] = child
                node = child
            if node in terminal:
                duplicates[cand] = terminal[node]
            else:
                terminal[node] = cand
            max_length = max(max_length, len(seq))

        # CSR of allowed next tokens: every edge (parent, token) plus (node, EOS) for complete candidates, sorted by
        # parent so each node's allowed ids are one contiguous slice.
        n_edges = len(edges)
        parents = torch.empty(n_edges + len(terminal), dtype=torch.long)
        tokens = torch.empty_like(parents)
        if n_edges:
            keys = torch.tensor(list(edges.keys()), dtype=torch.long)
            parents[:n_edges] = torch.div(keys, stride, rounding_mode="floor")
            tokens[:n_edges] = keys % stride
        if terminal:
            parents[n_edges:] = torch.tensor(list(terminal.keys()), dtype=torch.long)
            tokens[n_edges:] = eos_token_id
        # stable sort by parent keeps it deterministic; token order inside a node does not matter for masking
        parents, order = torch.sort(parents, stable=True)
        allowed_flat = tokens[order].contiguous()
        counts = torch.bincount(parents, minlength=n_nodes)
        offsets = [0, *torch.cumsum(counts, 0).tolist()]
        return cls(
            edges=edges,
            stride=stride,
            terminal=terminal,
            allowed_flat=allowed_flat,
            allowed_offsets=offsets,
            eos_token_id=eos_token_id,
            max_length=max_length,
            duplicates=duplicates,
        )

    @property
    def num_nodes(self) -> int:
        return len(self._offsets) - 1

    @property
    def num_candidates(self) -> int:
        """Distinct candidate token sequences (duplicates collapse onto their first index)."""
        return len(self._terminal)

    def step(self, node: int, token: int) -> int | None:
        """Child reached from ``node`` by ``token``; None when no candidate continues that way (EOS is no edge)."""
        if node < 0 or token < 0 or token >= self._stride:
            return None
        return self._edges.get(node * self._stride + token)

    def walk(self, tokens: Sequence[int], node: int = 0) -> int | None:
        for tok in tokens:
            nxt = self.step(node, tok)
            if nxt is None:
                return None
            node = nxt
        return node

    def allowed(self, node: int) -> torch.Tensor:
        """LongTensor of token ids that continue some candidate from ``node`` (EOS included at complete ones)."""
        if node < 0:
            return self.eos_only
        return self._allowed_flat[self._offsets[node] : self._offsets[node + 1]]

    def is_terminal(self, node: int) -> bool:
        return node in self._terminal

    def candidate_at(self, node: int) -> int | None:
        return self._terminal.get(node)


def tokenize_candidates(tokenizer: Any, candidates: Sequence[str], prefix: str = "") -> list[list[int]]:
    """Token ids of each candidate exactly as the model would emit them after the prompt.

    Without ``prefix`` each candidate is tokenised on its own (``add_special_tokens=False``); this is correct when
    generation starts right after the chat template's generation prompt, whose final newline the byte-level
    pre-tokenizer never merges with what follows. With ``prefix`` (the prompt text the candidate continues) the
    candidate is tokenised together with it and the prefix's ids are cut off; a candidate whose first token would
    merge with the end of the prefix cannot be emitted as a continuation, so that raises ``ValueError``.
    """
    if not candidates:
        return []
    if not prefix:
        backend = getattr(tokenizer, "backend_tokenizer", None)
        if backend is not None:
            # the Rust tokenizer directly: same ids as ``tokenizer(...)`` (tested), ~1.5x faster on 20k candidates
            # because no BatchEncoding is assembled
            return [list(e.ids) for e in backend.encode_batch(list(candidates), add_special_tokens=False)]
        return [list(ids) for ids in tokenizer(list(candidates), add_special_tokens=False)["input_ids"]]
    pre = list(tokenizer(prefix, add_special_tokens=False)["input_ids"])
    joint = tokenizer([prefix + c for c in candidates], add_special_tokens=False)["input_ids"]
    out: list[list[int]] = []
    for cand, ids in zip(candidates, joint, strict=True):
        if list(ids[: len(pre)]) != pre:
            raise ValueError(f"candidate {cand!r} merges with the end of the prompt prefix when tokenised")
        out.append(list(ids[len(pre) :]))
    return out


# ---------------------------------------------------------------------------------------------------------------
# Core: per-row state tracking and vectorised masking (framework neutral)
# ---------------------------------------------------------------------------------------------------------------


class GroundedMasker:
    """Tracks the trie state of generated rows and masks scores to the allowed next tokens.

    ``tries`` holds one trie per prompt in the batch; row ``r`` of an ``R``-row score matrix belongs to prompt
    ``r * len(tries) // R`` (beams of one prompt are contiguous in transformers and vLLM alike).
    """

    def __init__(self, tries: TokenTrie | Sequence[TokenTrie]) -> None:
        self.tries: list[TokenTrie] = [tries] if isinstance(tries, TokenTrie) else list(tries)
        if not self.tries:
            raise ValueError("at least one trie is needed")
        # (trie index, generated ids) -> state. Beam search reorders rows between steps, so a row's parent is found
        # by its prefix; each step then costs one dict lookup and one trie step per row, never a walk from the root.
        self._states: dict[tuple[int, tuple[int, ...]], int] = {}

    def advance(self, trie_index: int, state: int, token: int) -> int:
        """State after emitting ``token`` in ``state`` (for adapters that track rows incrementally, e.g. vLLM)."""
        trie = self.tries[trie_index]
        if state < 0:
            return state
        if token == trie.eos_token_id:
            return DONE if trie.is_terminal(state) else OFF
        nxt = trie.step(state, token)
        return OFF if nxt is None else nxt

    def state_for(self, trie_index: int, generated: Sequence[int]) -> int:
        """State after ``generated``; in incremental decoding the parent prefix is cached, so one trie step."""
        seq = tuple(generated)
        state = self._states.get((trie_index, seq))
        if state is not None:
            return state
        # iterative, not recursive: a processor attached mid-generation must not hit the recursion limit
        cached = max(len(seq) - 1, 0)
        while cached > 0 and (trie_index, seq[:cached]) not in self._states:
            cached -= 1
        state = self._states[(trie_index, seq[:cached])] if cached > 0 else self.tries[trie_index].root
        for j in range(cached, len(seq)):
            state = self.advance(trie_index, state, seq[j])
            self._states[(trie_index, seq[: j + 1])] = state
        return state

    def row_tries(self, rows: int) -> list[int]:
        n = len(self.tries)
        if rows % n:
            raise ValueError(f"{rows} rows cannot be split over {n} prompts")
        return [r * n // rows for r in range(rows)]

    def mask(self, scores: torch.Tensor, states: Sequence[int], trie_of_row: Sequence[int]) -> torch.Tensor:
        """Scores with every token outside the allowed set of each row's state set to -inf (new tensor)."""
        vocab = scores.shape[-1]
        parts = []
        for r, (state, t) in enumerate(zip(states, trie_of_row, strict=True)):
            allowed = self.tries[t].allowed(state)
            parts.append(allowed + r * vocab if r else allowed)
        flat_idx = torch.cat(parts).to(scores.device)
        out = torch.full_like(scores, -math.inf)
        # one gather/scatter over the flattened matrix: the cost is O(rows * vocab) for the -inf fill plus the
        # number of allowed ids, independent of how many candidates the trie holds
        src = scores.reshape(-1).index_select(0, flat_idx)
        out.view(-1).index_copy_(0, flat_idx, src)
        return out


# ---------------------------------------------------------------------------------------------------------------
# Core: exact scoring with a shared, cached prompt prefix
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


def encode_prompt(tokenizer: Any, messages_or_prompt_ids: Any) -> list[int]:
    """Prompt ids: chat messages get the chat template with the generation prompt; ids pass through."""
    if isinstance(messages_or_prompt_ids, torch.Tensor):
        return [int(t) for t in messages_or_prompt_ids.reshape(-1).tolist()]
    items = list(messages_or_prompt_ids)
    if items and isinstance(items[0], Mapping):
        enc = tokenizer.apply_chat_template(items, add_generation_prompt=True, tokenize=True, return_dict=True)
        ids = enc["input_ids"]
        if ids and isinstance(ids[0], list):
            ids = ids[0]
        return [int(t) for t in ids]
    return [int(t) for t in items]


def _dedupe(candidates: Sequence[str], cand_ids: list[list[int]]) -> tuple[list[list[int]], list[int]]:
    """Distinct token sequences with the index of their first occurrence."""
    seen: dict[tuple[int, ...], int] = {}
    for i, ids in enumerate(cand_ids):
        seen.setdefault(tuple(ids), i)
    return [list(k) for k in seen], list(seen.values())


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
    seqs, first_index = _dedupe(candidates, tokenize_candidates(tokenizer, candidates))
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
    seqs, first_index = _dedupe(candidates, tokenize_candidates(tokenizer, candidates))
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
    seqs, first_index = _dedupe(candidates, tokenize_candidates(tokenizer, candidates))
    trie = TokenTrie.build(seqs, _model_eos(model, tokenizer), indices=first_index)
    ranked, _ = best_first_top_m(model, prompt, trie, top_m=top_m, max_forwards=max_forwards)
    return [ScoredCandidate(i, candidates[i], lp) for i, lp in ranked]
