"""Grounded constrained decoding (GraphRAFT), the core: make a causal LM emit exactly one of an enumerated set of
candidate strings.

Candidates are tokenised (``tokenize_candidates``) into a token-id prefix trie (``TokenTrie``); ``GroundedMasker``
tracks each generated row's trie state and masks every next token that would leave the trie (EOS only where a
candidate ends). ``DecodingMethod`` is the one vocabulary of how the top-m is chosen.

This package imports nothing from the gateway (``app``) or the workers: it needs torch only, and models and
tokenizers are duck-typed. The gateway's transformers adapter (``app.llm.constrained``) and the vLLM worker's
logits processor (``workers.llm_worker``) are both built on it, so there is one implementation of the constraint.
What it must not do: choose, build or validate candidates, run models, or touch a tokenizer's state.
"""

from grounded.masker import DONE, OFF, GroundedMasker
from grounded.methods import DECODING_METHODS, DecodingMethod, ScoredCandidate
from grounded.trie import TokenTrie, dedupe_candidates, encode_prompt, tokenize_candidates

__all__ = [
    "DECODING_METHODS",
    "DONE",
    "OFF",
    "DecodingMethod",
    "GroundedMasker",
    "ScoredCandidate",
    "TokenTrie",
    "dedupe_candidates",
    "encode_prompt",
    "tokenize_candidates",
]
