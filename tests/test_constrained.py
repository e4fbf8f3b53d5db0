"""Grounded constrained decoding: trie semantics, the constraint proof on random models, exact scoring."""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import math
import random
from pathlib import Path
from typing import Any

import pytest
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer, LogitsProcessorList

from app.llm.constrained import (
    DONE,
    OFF,
    GroundedLogitsProcessor,
    GroundedMasker,
    TokenTrie,
    encode_prompt,
    grounded_generate,
    score_candidates,
    tokenize_candidates,
    top_m_exact,
)
from app.llm.local import ensure_converted_smollm2
from tests.conftest import tiny_llama

torch.set_num_threads(1)

EOS = 2
MODELS_DIR = Path.home() / ".cache" / "graphrag-service"

# --------------------------------------------------------------------------------------------------------------
# fixtures and helpers
# --------------------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def smollm2_dir() -> Path:
    return ensure_converted_smollm2(MODELS_DIR)


@pytest.fixture(scope="module")
def tokenizer(smollm2_dir: Path) -> Any:
    return AutoTokenizer.from_pretrained(smollm2_dir)


def tiny_model(vocab_size: int, seed: int, init_range: float = 0.02) -> Any:
    return tiny_llama(vocab_size, seed, EOS, init_range=init_range)


@pytest.fixture(scope="module")
def tiny(tokenizer: Any) -> Any:
    return tiny_model(len(tokenizer), seed=0, init_range=0.5)


WORDS = ["Kismet", "Heat", "Alien", "The Thing", "Ran", "Solaris", "Stalker", "Brazil", "Up", "Mother", "Ikiru"]
RELS = ["DIRECTED_BY", "WRITTEN_BY", "STARRED_ACTORS", "HAS_GENRE", "HAS_TAGS", "IN_LANGUAGE", "RELEASE_YEAR"]
LABELS = ["Person", "Movie", "Genre", "Tag", "Language", "Year"]


def random_cypher_set(rng: random.Random, n: int) -> list[str]:
    """Candidates the way the enumerator produces them: shared anchors, shared path prefixes, some 1-hop prefixes."""
    anchors = rng.sample(WORDS, k=rng.randint(1, 3))
    out: set[str] = set()
    while len(out) < n:
        a = rng.choice(anchors)
        r1, l1 = rng.choice(RELS), rng.choice(LABELS)
        head = f'MATCH (x1:Movie {{name: "{a}"}})-[:{r1}]->(x2:{l1})'
        if rng.random() < 0.3:
            out.add(f"{head} RETURN x2.name")
        else:
            r2, l2 = rng.choice(RELS), rng.choice(LABELS)
            out.add(f"{head}<-[:{r2}]-(x3:{l2}) RETURN x3.name")
    cands = sorted(out)
    rng.shuffle(cands)
    return cands


def naive_scores(model: Any, prompt: list[int], cands: list[list[int]], include_eos: bool = True) -> list[float]:
    """One full forward per candidate: the reference the cached scorer must match."""
    out = []
    with torch.inference_mode():
        for c in cands:
            targets = [*c, EOS] if include_eos else c
            x = torch.tensor([prompt + targets])
            lp = torch.log_softmax(model(input_ids=x).logits[0].float(), dim=-1)
            out.append(sum(float(lp[len(prompt) - 1 + j, t]) for j, t in enumerate(targets)))
    return out


# --------------------------------------------------------------------------------------------------------------
# trie
# --------------------------------------------------------------------------------------------------------------


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


def test_processor_multiple_prompts_map_rows_to_tries() -> None:
    a, b = TokenTrie.build([[5]], EOS), TokenTrie.build([[7]], EOS)
    proc = GroundedLogitsProcessor([a, b], prompt_length=1)
    ids = torch.tensor([[3], [3], [4], [4]])  # 2 prompts x 2 beams, nothing generated yet
    out = proc(ids, torch.zeros(4, 10))  # type: ignore[arg-type]
    assert [torch.isfinite(r).nonzero().flatten().tolist() for r in out] == [[5], [5], [7], [7]]


# --------------------------------------------------------------------------------------------------------------
# tokenisation boundary
# --------------------------------------------------------------------------------------------------------------


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


# --------------------------------------------------------------------------------------------------------------
# the constraint proof: whatever the model wants, generate emits exactly one candidate
# --------------------------------------------------------------------------------------------------------------


def test_outputs_are_always_candidates_greedy_beam_and_sampling(tokenizer: Any) -> None:
    vocab = len(tokenizer)
    models = [tiny_model(vocab, seed=s, init_range=r) for s, r in [(1, 0.02), (2, 0.5), (3, 1.0)]]
    # bias one model hard towards EOS so it "wants" to stop inside every candidate
    with torch.no_grad():
        models[0].lm_head.weight[EOS] *= 50
    n_checked = 0
    for seed in range(15):
        rng = random.Random(seed)
        model = models[seed % len(models)]
        cands = random_cypher_set(rng, rng.choice([2, 3, 7, 20, 60, 200]))
        words = rng.sample(WORDS + RELS, k=rng.randint(1, 6))
        prompt = encode_prompt(tokenizer, [{"role": "user", "content": " ".join(words) + "?"}])
        cand_ids = tokenize_candidates(tokenizer, cands)
        trie = TokenTrie.build(cand_ids, EOS)
        by_tokens = {tuple(ids): i for i, ids in enumerate(cand_ids)}
        x = torch.tensor([prompt])
        modes: list[dict[str, Any]] = [
            {"num_beams": 1, "do_sample": False},
            {"num_beams": 4, "num_return_sequences": 4, "do_sample": False},
            {"num_beams": 1, "do_sample": True, "num_return_sequences": 3},
        ]
        for mode in modes:
            with torch.inference_mode():
                out = model.generate(
                    input_ids=x,
                    attention_mask=torch.ones_like(x),
                    max_new_tokens=trie.max_length + 1,
                    eos_token_id=EOS,
                    pad_token_id=EOS,
                    logits_processor=LogitsProcessorList([GroundedLogitsProcessor(trie, len(prompt))]),
                    **mode,
                )
            for row in out[:, len(prompt) :].tolist():
                assert EOS in row, (seed, mode)
                end = row.index(EOS)
                assert all(t == EOS for t in row[end:])  # only padding after the end
                assert tuple(row[:end]) in by_tokens, (seed, mode, tokenizer.decode(row[:end]))
                n_checked += 1
        # the same models unconstrained produce no candidate at all: the constraint is doing the work
        with torch.inference_mode():
            free = model.generate(
                input_ids=x, attention_mask=torch.ones_like(x), max_new_tokens=8, do_sample=False, pad_token_id=EOS
            )
        assert tokenizer.decode(free[0, len(prompt) :], skip_special_tokens=True) not in cands
    assert n_checked == 15 * (1 + 4 + 3)


def test_grounded_generate_returns_distinct_sorted_candidates(tokenizer: Any, tiny: Any) -> None:
    rng = random.Random(7)
    for n in (1, 3, 40):
        cands = random_cypher_set(rng, n)
        cands.append(cands[0])  # a duplicate must collapse onto its first index
        msgs = [{"role": "user", "content": "Which movies share a director with Kismet?"}]
        res = grounded_generate(tiny, tokenizer, msgs, cands, top_m=5)
        assert 1 <= len(res) <= min(5, n)
        assert len({r.index for r in res}) == len(res)
        assert all(r.index < n and cands[r.index] == r.text for r in res)
        assert [r.logprob for r in res] == sorted((r.logprob for r in res), reverse=True)
        exact = score_candidates(
            tiny, encode_prompt(tokenizer, msgs), tokenize_candidates(tokenizer, [r.text for r in res])
        )
        for r, e in zip(res, exact, strict=True):
            assert r.logprob == pytest.approx(e, abs=1e-3)
        greedy = grounded_generate(tiny, tokenizer, msgs, cands, top_m=1)
        assert len(greedy) == 1 and greedy[0].text in cands


# --------------------------------------------------------------------------------------------------------------
# exact scoring
# --------------------------------------------------------------------------------------------------------------


def test_score_candidates_matches_naive_on_tiny_model(tokenizer: Any, tiny: Any) -> None:
    prompt = encode_prompt(tokenizer, [{"role": "user", "content": "Who wrote the films that Kismet's director made?"}])
    cands = random_cypher_set(random.Random(3), 25)
    ids = tokenize_candidates(tokenizer, cands)
    ids += [ids[0][:5], [], ids[1], [ids[2][0]]]  # a prefix of another, the empty candidate, a duplicate, one token
    ref = naive_scores(tiny, prompt, ids)
    for bs in (1, 4, 32):
        got = score_candidates(tiny, prompt, ids, batch_size=bs)
        assert max(abs(a - b) for a, b in zip(got, ref, strict=True)) < 1e-3, bs
    ref_no_eos = naive_scores(tiny, prompt, ids[:6], include_eos=False)
    got_no_eos = score_candidates(tiny, prompt, ids[:6], include_eos=False)
    assert max(abs(a - b) for a, b in zip(got_no_eos, ref_no_eos, strict=True)) < 1e-3
    # the cached prompt prefix is copied per batch, never mutated: scoring twice gives identical numbers
    assert score_candidates(tiny, prompt, ids, batch_size=3) == score_candidates(tiny, prompt, ids, batch_size=3)
    assert score_candidates(tiny, prompt, []) == []


def test_top_m_exact_is_the_exact_ranking(tokenizer: Any, tiny: Any) -> None:
    msgs = [{"role": "user", "content": "Kismet?"}]
    cands = random_cypher_set(random.Random(11), 30)
    ids = tokenize_candidates(tokenizer, cands)
    ref = naive_scores(tiny, encode_prompt(tokenizer, msgs), ids)
    best = sorted(range(len(cands)), key=lambda i: ref[i], reverse=True)[:4]
    res = top_m_exact(tiny, tokenizer, msgs, cands, top_m=4, batch_size=8)
    assert [r.index for r in res] == best
    # beam search can only find candidates scoring at most the exact best
    beam = grounded_generate(tiny, tokenizer, msgs, cands, top_m=4)
    assert beam[0].logprob <= res[0].logprob + 1e-3


def test_real_smollm2_exact_scores_and_beam_top1(tokenizer: Any, smollm2_dir: Path) -> None:
    model = AutoModelForCausalLM.from_pretrained(smollm2_dir, dtype=torch.float32).eval()
    msgs = [{"role": "user", "content": "Write the Cypher query: who directed the movie Kismet?"}]
    prompt = encode_prompt(tokenizer, msgs)
    cands = [
        f'MATCH (x1:Movie {{name: "Kismet"}})-[:{r}]->(x2:{label}) RETURN x2.name'
        for r, label in [
            ("DIRECTED_BY", "Person"),
            ("WRITTEN_BY", "Person"),
            ("STARRED_ACTORS", "Person"),
            ("HAS_GENRE", "Genre"),
            ("IN_LANGUAGE", "Language"),
            ("RELEASE_YEAR", "Year"),
        ]
    ] + [
        'MATCH (x1:Movie {name: "Kismet"})-[:DIRECTED_BY]->(x2:Person)<-[:DIRECTED_BY]-(x3:Movie) RETURN x3.name',
        'MATCH (x1:Movie {name: "Kismet"})-[:WRITTEN_BY]->(x2:Person)<-[:WRITTEN_BY]-(x3:Movie) RETURN x3.name',
        'MATCH (x1:Movie {name: "Heat"})-[:DIRECTED_BY]->(x2:Person) RETURN x2.name',
        'MATCH (x1:Person {name: "Kismet"}) RETURN x1.name',
    ]
    ids = tokenize_candidates(tokenizer, cands)
    ref = naive_scores(model, prompt, ids)
    got = score_candidates(model, prompt, ids, batch_size=4)
    assert max(abs(a - b) for a, b in zip(got, ref, strict=True)) < 1e-3
    res = grounded_generate(model, tokenizer, msgs, cands, top_m=3, num_beams=3)
    assert len(res) == 3 and len({r.index for r in res}) == 3
    assert [r.logprob for r in res] == sorted((r.logprob for r in res), reverse=True)
    for r in res:
        assert r.logprob == pytest.approx(got[r.index], abs=1e-3)
    assert res[0].index == max(range(len(cands)), key=lambda i: got[i])
    assert all(math.isfinite(r.logprob) for r in res)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_best_first_search_finds_the_exact_top_m(tokenizer: Any, seed: int) -> None:
    """Best-first search with jump-forward returns exactly what exhaustive scoring ranks first."""
    from app.llm.constrained import top_m_best_first

    model, tok = tiny_model(len(tokenizer), seed), tokenizer
    cands = [
        f'MATCH (x1:Movie {{name: "Kismet"}})-[:{r}]->(x2:{lab}) RETURN x2.name'
        for r, lab in [("DIRECTED_BY", "Person"), ("WRITTEN_BY", "Person"), ("RELEASE_YEAR", "Year")]
    ]
    cands += [c.replace("RETURN x2.name", "<-[:DIRECTED_BY]-(x3:Movie) RETURN x3.name") for c in cands]
    msgs = [{"role": "user", "content": "who directed Kismet"}]
    exact = top_m_exact(model, tok, msgs, cands, top_m=4)
    best = top_m_best_first(model, tok, msgs, cands, top_m=4, max_forwards=10_000)
    assert [c.index for c in best] == [c.index for c in exact]
    assert all(abs(a.logprob - b.logprob) < 1e-3 for a, b in zip(best, exact, strict=True))
    # with no budget the search still completes one real candidate greedily
    (only,) = top_m_best_first(model, tok, msgs, cands, top_m=1, max_forwards=1)
    assert only.text in cands
