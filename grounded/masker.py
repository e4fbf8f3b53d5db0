"""Per-row trie states and vectorised masking: the constraint itself, framework neutral (the transformers
``LogitsProcessor`` in the gateway and the vLLM V1 logits processor in the worker both wrap it)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import torch

from grounded.trie import TokenTrie

# Masker states below 0 are not trie nodes: the row can only emit EOS (which is also the pad token afterwards).
DONE = -1  # EOS was emitted at a complete candidate
OFF = -2  # the generated suffix left the trie (cannot happen while the mask is applied; kept for safety)


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
