"""Grounded constrained decoding on transformers models: the constraint proof on random models, exact scoring,
best-first search, and the logits processor's row-to-prompt mapping."""

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
from transformers import AutoModelForCausalLM, LogitsProcessorList

from app.llm.constrained import GroundedLogitsProcessor, grounded_generate, score_candidates, top_m_exact
from grounded import TokenTrie, encode_prompt, tokenize_candidates
from tests.conftest import RELS, WORDS, random_cypher_set, tiny_llama

torch.set_num_threads(1)

EOS = 2

# --------------------------------------------------------------------------------------------------------------
# fixtures and helpers
# --------------------------------------------------------------------------------------------------------------


def tiny_model(vocab_size: int, seed: int, init_range: float = 0.02) -> Any:
    return tiny_llama(vocab_size, seed, EOS, init_range=init_range)


@pytest.fixture(scope="module")
def tiny(tokenizer: Any) -> Any:
    return tiny_model(len(tokenizer), seed=0, init_range=0.5)


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


def test_processor_multiple_prompts_map_rows_to_tries() -> None:
    a, b = TokenTrie.build([[5]], EOS), TokenTrie.build([[7]], EOS)
    proc = GroundedLogitsProcessor([a, b], prompt_length=1)
    ids = torch.tensor([[3], [3], [4], [4]])  # 2 prompts x 2 beams, nothing generated yet
    out = proc(ids, torch.zeros(4, 10))  # type: ignore[arg-type]
    assert [torch.isfinite(r).nonzero().flatten().tolist() for r in out] == [[5], [5], [7], [7]]


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
