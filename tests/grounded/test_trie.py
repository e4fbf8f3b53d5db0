"""The grounded decoding core: trie semantics, masker states and masks, and the tokenisation boundary."""

from __future__ import annotations

import random
from typing import Any

import pytest
import torch

from grounded import DONE, OFF, GroundedMasker, TokenTrie, encode_prompt, tokenize_candidates
from tests.conftest import random_cypher_set

EOS = 2


def allowed(trie: TokenTrie, node: int) -> set[int]:
    return set(trie.allowed(node).tolist())


def test_trie_shared_prefixes_prefix_candidates_and_duplicates() -> None:
    seqs = [[5, 6, 7], [5, 6, 8], [5, 6], [9], [5, 6, 7], [5, 6, 7, 10]]
    trie = TokenTrie.build(seqs, eos_token_id=EOS)
    assert trie.num_candidates == 5  # [5, 6, 7] twice
    assert trie.duplicates == {4: 0}
    assert trie.max_length == 4
    # root + 5, 5-6, 5-6-7, 5-6-8, 9, 5-6-7-10
    assert trie.num_nodes == 7
    assert allowed(trie, trie.root) == {5, 9}
    n5 = trie.step(trie.root, 5)
    assert n5 is not None and allowed(trie, n5) == {6}  # no EOS: [5] is not a candidate
    n56 = trie.walk([5, 6])
    assert n56 is not None and allowed(trie, n56) == {7, 8, EOS}  # [5, 6] is a candidate and a prefix of others
    assert trie.candidate_at(n56) == 2 and trie.is_terminal(n56)
    n567 = trie.walk([5, 6, 7])
    assert n567 is not None and trie.candidate_at(n567) == 0  # first index wins for the duplicate
    assert allowed(trie, n567) == {10, EOS}
    leaf = trie.walk([5, 6, 7, 10])
    assert leaf is not None and allowed(trie, leaf) == {EOS} and trie.candidate_at(leaf) == 5
    assert trie.walk([5, 7]) is None
    assert trie.step(trie.root, EOS) is None  # EOS is never an edge
    assert trie.step(trie.root, 10**9) is None
    assert not trie.is_terminal(n5) and trie.candidate_at(n5) is None
    # EOS appears exactly once per distinct candidate, at its end
    eos_nodes = [n for n in range(trie.num_nodes) if EOS in allowed(trie, n)]
    assert sorted(trie.candidate_at(n) for n in eos_nodes) == [0, 1, 2, 3, 5]  # type: ignore[type-var]
    assert trie.allowed(n56).dtype == torch.long


def test_trie_custom_indices_empty_candidate_and_eos_rejected() -> None:
    trie = TokenTrie.build([[4], []], eos_token_id=EOS, indices=[10, 20])
    assert allowed(trie, trie.root) == {4, EOS}
    assert trie.candidate_at(trie.root) == 20
    with pytest.raises(ValueError, match="EOS"):
        TokenTrie.build([[4, EOS, 5]], eos_token_id=EOS)
    empty = TokenTrie.build([], eos_token_id=EOS)
    assert empty.num_candidates == 0 and allowed(empty, empty.root) == set()


def test_masker_states_and_mask() -> None:
    trie = TokenTrie.build([[5, 6], [5, 7, 8]], eos_token_id=EOS)
    masker = GroundedMasker(trie)
    assert masker.state_for(0, []) == trie.root
    assert masker.state_for(0, [5, 6, EOS]) == DONE
    assert masker.state_for(0, [5, 6, EOS, EOS, EOS]) == DONE  # padding after the end
    assert masker.state_for(0, [5, EOS]) == OFF  # EOS before a complete candidate
    assert masker.state_for(0, [9]) == OFF
    scores = torch.randn(4, 12)
    states = [trie.root, masker.state_for(0, [5]), masker.state_for(0, [5, 6]), DONE]
    masked = masker.mask(scores, states, [0, 0, 0, 0])
    finite = [set(torch.isfinite(row).nonzero().flatten().tolist()) for row in masked]
    assert finite == [{5}, {6, 7}, {EOS}, {EOS}]
    assert torch.equal(masked[1, [6, 7]], scores[1, [6, 7]])  # allowed scores untouched


def test_masker_cold_start_on_a_long_prefix() -> None:
    """A processor attached mid-generation resolves a long suffix without recursion and caches every prefix."""
    seq = [3 + (i % 500) for i in range(3000)]
    trie = TokenTrie.build([seq], eos_token_id=EOS)
    masker = GroundedMasker(trie)
    assert masker.state_for(0, seq[:2500]) == trie.walk(seq[:2500])
    assert masker.state_for(0, seq) == trie.walk(seq)
    assert masker.state_for(0, [*seq, EOS]) == DONE


def test_candidate_tokens_equal_tokens_after_generation_prompt(tokenizer: Any) -> None:
    prompt = encode_prompt(tokenizer, [{"role": "user", "content": "Who directed Kismet?"}])
    cands = [
        *random_cypher_set(random.Random(1), 20),
        ' leading space "quoted"',
        "\nnewline first",
        "Ünïcode 名前 RETURN x",
        "MATCH",
    ]
    for cand, ids in zip(cands, tokenize_candidates(tokenizer, cands), strict=True):
        text = tokenizer.decode(prompt, skip_special_tokens=False) + cand + tokenizer.eos_token
        joint = tokenizer(text, add_special_tokens=False)["input_ids"]
        assert joint == [*prompt, *ids, tokenizer.eos_token_id], cand
        assert tokenizer.decode(ids) == cand


def test_tokenize_with_prefix(tokenizer: Any) -> None:
    assert tokenize_candidates(tokenizer, [" MATCH"], prefix="Answer:") == [tokenizer(" MATCH")["input_ids"]]
    with pytest.raises(ValueError, match="merges"):
        tokenize_candidates(tokenizer, ["lo world"], prefix="Hel")  # "Hello" is one token
