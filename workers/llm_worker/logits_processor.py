"""The grounded token-trie constraint as a vLLM V1 logits processor.

Per request, ``SamplingParams.extra_args`` carries the candidates as token-id sequences (what the model must emit,
without the closing EOS):

    extra_args = {"grounded_candidates": [[ids of candidate 1], [ids of candidate 2], ...],
                  "grounded_eos": 2}            # optional; default: the model's EOS token id

Over HTTP (``vllm_xargs`` allows only flat lists of scalars) ``grounded_candidates`` may also be a JSON string of
that list of lists. A request without ``grounded_candidates`` is not touched.

The processor is batch-level (vLLM V1 ``LogitsProcessor``): ``update_state`` follows the persistent batch (removed,
added, moved requests, in that order) and advances each constrained row's trie state over the tokens it generated
since the last step; ``apply`` sets every logit outside the allowed next tokens of each constrained row to -inf
(EOS is allowed only where a candidate is complete). The trie and masking are the ``grounded``
package's ``TokenTrie`` / ``GroundedMasker``: the same code the gateway's transformers path runs.

Load it with ``--logits-processors workers.llm_worker.logits_processor:GroundedTrieLogitsProcessor`` (the worker's
``server.py`` adds it) or through the ``vllm.logits_processors`` entry point declared in ``pyproject.toml``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import torch
from vllm import SamplingParams
from vllm.v1.sample.logits_processor import BatchUpdate, LogitsProcessor, MoveDirectionality

from grounded import GroundedMasker, TokenTrie

if TYPE_CHECKING:
    from vllm.config import VllmConfig

CANDIDATES_KEY = "grounded_candidates"
EOS_KEY = "grounded_eos"
MAX_CANDIDATES = 200_000


def parse_candidates(value: Any) -> list[list[int]]:
    """``grounded_candidates`` as a list of non-empty token-id lists (a JSON string of one is accepted)."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{CANDIDATES_KEY} is not valid JSON: {exc}") from exc
    if not isinstance(value, list) or not value:
        raise ValueError(f"{CANDIDATES_KEY} must be a non-empty list of token-id lists")
    if len(value) > MAX_CANDIDATES:
        raise ValueError(f"{CANDIDATES_KEY}: at most {MAX_CANDIDATES} candidates")
    out: list[list[int]] = []
    for seq in value:
        if not isinstance(seq, list) or not seq or not all(isinstance(t, int) and t >= 0 for t in seq):
            raise ValueError(f"{CANDIDATES_KEY}: every candidate must be a non-empty list of token ids")
        out.append(seq)
    return out


@dataclass
class _Row:
    masker: GroundedMasker
    output_ids: list[int]
    """vLLM's running list of the request's generated tokens (a reference: it grows in place)."""
    consumed: int
    state: int


class GroundedTrieLogitsProcessor(LogitsProcessor):
    """Masks each constrained request's logits to the continuations of its candidate trie."""

    def __init__(self, vllm_config: VllmConfig, device: torch.device, is_pin_memory: bool) -> None:
        self.device = device
        self.vocab_size = int(vllm_config.model_config.get_vocab_size())
        eos = getattr(vllm_config.model_config.hf_config, "eos_token_id", None)
        if isinstance(eos, list):
            eos = eos[0] if eos else None
        self.default_eos: int | None = int(eos) if eos is not None else None
        self.rows: dict[int, _Row] = {}
        # tries are reused across requests with the same candidate set (e.g. n > 1 or repeated prompts)
        self._trie_cache: dict[tuple[int | None, int], tuple[tuple[tuple[int, ...], ...], TokenTrie]] = {}

    @classmethod
    def validate_params(cls, sampling_params: SamplingParams) -> None:
        extra = sampling_params.extra_args or {}
        if CANDIDATES_KEY not in extra:
            return
        parse_candidates(extra[CANDIDATES_KEY])
        eos = extra.get(EOS_KEY)
        if eos is not None and (not isinstance(eos, int) or eos < 0):
            raise ValueError(f"{EOS_KEY} must be a token id")

    def is_argmax_invariant(self) -> bool:
        return False  # it changes which token greedy decoding picks

    def _trie(self, seqs: list[list[int]], eos: int) -> TokenTrie:
        key_seqs = tuple(tuple(s) for s in seqs)
        key = (eos, hash(key_seqs))
        hit = self._trie_cache.get(key)
        if hit is not None and hit[0] == key_seqs:
            return hit[1]
        trie = TokenTrie.build(seqs, eos)
        if len(self._trie_cache) > 64:
            self._trie_cache.clear()
        self._trie_cache[key] = (key_seqs, trie)
        return trie

    def _new_row(self, params: SamplingParams, output_ids: list[int]) -> _Row | None:
        extra = params.extra_args or {}
        if CANDIDATES_KEY not in extra:
            return None
        seqs = parse_candidates(extra[CANDIDATES_KEY])
        eos = extra.get(EOS_KEY, self.default_eos)
        if eos is None:
            raise ValueError(f"the model has no EOS token id; pass {EOS_KEY}")
        masker = GroundedMasker(self._trie(seqs, int(eos)))
        return _Row(masker=masker, output_ids=output_ids, consumed=0, state=masker.tries[0].root)

    def update_state(self, batch_update: BatchUpdate | None) -> None:
        if batch_update is not None:
            for index in batch_update.removed:
                self.rows.pop(index, None)
            for index, params, _prompt_ids, output_ids in batch_update.added:
                row = self._new_row(params, output_ids) if params is not None else None
                if row is None:
                    self.rows.pop(index, None)
                else:
                    self.rows[index] = row
            for a, b, direction in batch_update.moved:
                ra, rb = self.rows.pop(a, None), self.rows.pop(b, None)
                if ra is not None:
                    self.rows[b] = ra
                if direction == MoveDirectionality.SWAP and rb is not None:
                    self.rows[a] = rb
        # advance every constrained row over the tokens generated since the last step (usually one)
        for row in self.rows.values():
            new = row.output_ids[row.consumed :]
            for tok in new:
                row.state = row.masker.advance(0, row.state, int(tok))
            row.consumed += len(new)

    def apply(self, logits: torch.Tensor) -> torch.Tensor:
        if not self.rows:
            return logits
        index = sorted(i for i in self.rows if i < logits.shape[0])
        if not index:
            return logits
        rows = [self.rows[i] for i in index]
        masker = GroundedMasker([r.masker.tries[0] for r in rows])
        idx = torch.tensor(index, dtype=torch.long, device=logits.device)
        sub = logits.index_select(0, idx)
        masked = masker.mask(sub, [r.state for r in rows], list(range(len(rows))))
        logits.index_copy_(0, idx, masked)
        return logits
