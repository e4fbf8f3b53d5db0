"""The vocabulary of grounded decoding, shared by the gateway's settings, its chooser protocol, the vLLM client and
the LLM worker: how a model picks the top-m candidates, and what it returns for each."""

from __future__ import annotations

from typing import Literal, NamedTuple, get_args

DecodingMethod = Literal["exact", "best_first", "beam", "greedy"]
"""``exact``: score every candidate (``log P(candidate + EOS | prompt)``), the guaranteed top-m;
``best_first``: exact top-m by best-first search over the trie (few forward passes for a confident model);
``beam``: beam search under the trie mask (a heuristic top-m); ``greedy``: one greedy decode under the mask (top-1).
A backend that cannot run a method answers with the closest exact one (the vLLM worker scores ``best_first`` and
``beam`` requests exactly: the same top-m, exact)."""

DECODING_METHODS: tuple[DecodingMethod, ...] = get_args(DecodingMethod)


class ScoredCandidate(NamedTuple):
    """One chosen candidate: its position in the caller's list (the first occurrence for duplicates), its text, and
    ``log P(candidate tokens + EOS | prompt)`` under the model's unmasked distribution."""

    # the name shadows tuple.index on purpose: the API is (index, text, logprob)
    index: int  # type: ignore[assignment]
    text: str
    logprob: float
