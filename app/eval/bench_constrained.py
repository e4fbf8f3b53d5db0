"""``python -m app.eval.bench_constrained``: cost of grounded constrained decoding, ours vs grammar engines.

For synthetic but realistic Cypher candidate sets (100 to 20,000 queries) this measures, side by side in one run and
with the real SmolLM2 tokenizer: the setup cost (our tokenisation + trie build vs xgrammar / llguidance compiling the
same candidates as a choice grammar) and the per-token mask cost (our ``GroundedLogitsProcessor.__call__`` vs the
engines' accept-token + fill-bitmask + apply-bitmask), excluding the model forward, whose per-token cost on this
machine is measured once for scale. It also cross-checks that every token our trie allows is allowed by the grammars.
It also times exact candidate scoring (``score_candidates``) against naive full forward passes (``--scoring``).

Writes ``reports/bench/constrained-<timestamp>.{json,md}``. It must stay a measurement: no candidate enumeration,
no service code paths, nothing written outside ``reports_dir``. xgrammar and llguidance are optional; when one is
missing or fails, its columns are ``null`` with the reason.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import torch

from app.llm.constrained import GroundedLogitsProcessor, score_candidates
from grounded import TokenTrie, encode_prompt, tokenize_candidates

# fmt: off
WORDS = (
    "red", "blue", "dark", "last", "lost", "silent", "golden", "broken", "hidden", "little", "great", "wild", "city",
    "night", "river", "moon", "star", "road", "house", "king", "queen", "war", "love", "man", "girl", "story", "dream",
    "game", "fire", "water", "time", "iron", "glass", "paper", "winter", "summer", "secret", "empty", "northern",
    "southern", "quiet", "long", "short", "first", "final", "second", "crimson", "black", "white", "green", "electric",
)
RELS = (
    "DIRECTED_BY", "WRITTEN_BY", "STARRED_ACTORS", "HAS_GENRE", "HAS_TAGS", "IN_LANGUAGE", "RELEASE_YEAR",
    "HAS_IMDB_RATING", "HAS_IMDB_VOTES", "PRODUCED_BY", "EDITED_BY", "COMPOSED_BY",
)
LABELS = ("Movie", "Person", "Genre", "Tag", "Language", "Year", "Rating", "Votes")
# fmt: on
PROMPT = "You translate questions into Cypher. Schema: " + ", ".join(RELS) + ". Question: who directed {}?"


def synthetic_candidates(n: int, seed: int = 0) -> list[str]:
    """``n`` distinct Cypher queries shaped like the enumerator's: few anchor titles, 1-3 hops, mixed directions."""
    rng = random.Random(seed)

    def title() -> str:
        return " ".join(rng.choice(WORDS).capitalize() for _ in range(rng.randint(1, 4)))

    anchors = [title() for _ in range(max(1, n // 40))]
    out: set[str] = set()
    while len(out) < n:
        parts = [f'MATCH (x1:Movie {{name: "{rng.choice(anchors)}"}})']
        hops = rng.choice((1, 2, 2, 3))
        for h in range(2, hops + 2):
            rel = rng.choice(RELS)
            edge = f"-[:{rel}]->" if rng.random() < 0.6 else f"<-[:{rel}]-"
            parts.append(f"{edge}(x{h}:{rng.choice(LABELS)})")
        ret = "RETURN DISTINCT" if rng.random() < 0.2 else "RETURN"
        out.add("".join(parts) + f" {ret} x{hops + 1}.name")
    cands = sorted(out)
    rng.shuffle(cands)
    return cands


def _stats_ms(values: Sequence[float]) -> dict[str, float]:
    ms = sorted(v * 1e3 for v in values)
    if not ms:
        return {}
    return {
        "mean": round(statistics.fmean(ms), 4),
        "p50": round(ms[len(ms) // 2], 4),
        "p95": round(ms[min(len(ms) - 1, int(0.95 * len(ms)))], 4),
        "max": round(ms[-1], 4),
    }


def _bitmask_allowed(bitmask: torch.Tensor, vocab: int) -> set[int]:
    """Token ids set in a packed int32 bitmask (xgrammar / llguidance layout: bit j of word i = token 32*i + j)."""
    words = bitmask.reshape(-1).to(torch.int64) & 0xFFFFFFFF
    bits = (words[:, None] >> torch.arange(32)) & 1
    ids = bits.reshape(-1).nonzero().flatten()
    return {int(t) for t in ids if int(t) < vocab}


class _Engine:
    """Common driver: ``reset`` starts a sequence; per step ``prepare(prev)`` (untimed) then ``step`` (timed) consumes
    the previous token (None at the start) and masks ``scores``."""

    name = ""

    def reset(self) -> None:
        raise NotImplementedError

    def prepare(self, prev: int | None) -> Any:
        return None

    def step(self, prev: int | None, scores: torch.Tensor, prepared: Any) -> torch.Tensor:
        raise NotImplementedError

    def allowed(self) -> set[int]:
        """The last mask as a set of token ids, for the cross-check (outside timing)."""
        raise NotImplementedError


class _Ours(_Engine):
    name = "ours"

    def __init__(self, trie: TokenTrie, prompt_len: int) -> None:
        self.trie, self.prompt_len = trie, prompt_len
        self.reset()

    def reset(self) -> None:
        self.proc = GroundedLogitsProcessor(self.trie, self.prompt_len)
        self.ids = [0] * self.prompt_len
        self.last: torch.Tensor | None = None

    def prepare(self, prev: int | None) -> torch.Tensor:
        if prev is not None:
            self.ids.append(prev)
        return torch.tensor([self.ids], dtype=torch.long)  # generate hands the processor a ready tensor

    def step(self, prev: int | None, scores: torch.Tensor, prepared: Any) -> torch.Tensor:
        self.last = self.proc(prepared, scores)  # type: ignore[arg-type]
        return self.last

    def allowed(self) -> set[int]:
        assert self.last is not None
        return {int(t) for t in torch.isfinite(self.last[0]).nonzero().flatten()}


class _XGrammar(_Engine):
    name = "xgrammar"

    def __init__(self, compiled: Any, vocab: int) -> None:
        import xgrammar as xgr

        self.xgr, self.compiled, self.vocab = xgr, compiled, vocab
        self.bitmask = xgr.allocate_token_bitmask(1, vocab)
        self.reset()

    def reset(self) -> None:
        self.matcher = self.xgr.GrammarMatcher(self.compiled)

    def step(self, prev: int | None, scores: torch.Tensor, prepared: Any) -> torch.Tensor:
        if prev is not None and not self.matcher.accept_token(prev):
            raise RuntimeError(f"xgrammar rejected token {prev}")
        self.matcher.fill_next_token_bitmask(self.bitmask)
        self.xgr.apply_token_bitmask_inplace(scores, self.bitmask)
        return scores

    def allowed(self) -> set[int]:
        return _bitmask_allowed(self.bitmask, self.vocab)


class _LLGuidance(_Engine):
    name = "llguidance"

    def __init__(self, matcher: Any, vocab: int) -> None:
        import llguidance.torch as llt

        self.llt, self.matcher, self.vocab = llt, matcher, vocab
        self.bitmask = llt.allocate_token_bitmask(1, vocab)

    def reset(self) -> None:
        self.matcher.reset()

    def step(self, prev: int | None, scores: torch.Tensor, prepared: Any) -> torch.Tensor:
        if prev is not None and not self.matcher.consume_token(prev):
            raise RuntimeError(f"llguidance rejected token {prev}: {self.matcher.get_error()[:200]}")
        self.llt.fill_next_token_bitmask(self.matcher, self.bitmask, 0)
        self.llt.apply_token_bitmask_inplace(scores, self.bitmask)
        return scores

    def allowed(self) -> set[int]:
        return _bitmask_allowed(self.bitmask, self.vocab)


def _walk(
    engine: _Engine,
    walks: list[list[int]],
    eos: int,
    vocab: int,
    budget_s: float,
    ours_allowed: list[list[set[int]]] | None,
) -> dict[str, Any]:
    """Run ``engine`` along each token path (+ EOS); first mask of the first walk is reported apart (lazy setup)."""
    base = torch.randn(1, vocab)
    times: list[float] = []
    first = 0.0
    allowed_sizes: list[int] = []
    not_superset = 0
    recorded: list[list[set[int]]] = []
    spent, n_walks = 0.0, 0
    for w, path in enumerate(walks):
        if w and spent > budget_s:
            break
        engine.reset()
        prev: int | None = None
        rec: list[set[int]] = []
        for t, tok in enumerate([*path, eos]):
            scores = base.clone()
            prepared = engine.prepare(prev)
            t0 = time.perf_counter()
            engine.step(prev, scores, prepared)
            dt = time.perf_counter() - t0
            spent += dt
            if w == 0 and t == 0:
                first = dt
            else:
                times.append(dt)
            allowed = engine.allowed()
            if tok not in allowed:
                raise RuntimeError(f"{engine.name} does not allow the candidate's own token {tok}")
            allowed_sizes.append(len(allowed))
            rec.append(allowed)
            if ours_allowed is not None and w < len(ours_allowed) and not ours_allowed[w][t] <= allowed:
                not_superset += 1
            prev = tok
        recorded.append(rec)
        n_walks += 1
    out: dict[str, Any] = {
        "first_mask_ms": round(first * 1e3, 4),
        "step_ms": _stats_ms(times),
        "steps": len(times),
        "walks": n_walks,
        "allowed_tokens_mean": round(statistics.fmean(allowed_sizes), 2) if allowed_sizes else None,
    }
    if ours_allowed is not None:
        out["steps_not_superset_of_ours"] = not_superset
    else:
        out["_recorded"] = recorded
    return out


def _decode_step_ms(model: Any, prompt_len: int = 128, repeats: int = 8) -> float:
    with torch.inference_mode():
        out = model(input_ids=torch.randint(100, 40000, (1, prompt_len)), use_cache=True)
        cache = out.past_key_values
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            model(input_ids=torch.tensor([[1000]]), past_key_values=cache, use_cache=True)
            times.append(time.perf_counter() - t0)
            cache.crop(-1)
    return statistics.median(times) * 1e3


class _Timer:
    """``with _Timer() as t: ...`` then ``t.s`` is the elapsed wall time in seconds."""

    s = 0.0

    def __enter__(self) -> _Timer:
        self._t0 = time.perf_counter()
        return self

    def __exit__(self, *exc: object) -> None:
        self.s = time.perf_counter() - self._t0


def _scoring_bench(model: Any, tokenizer: Any, sizes: Sequence[int], naive_max: int) -> list[dict[str, Any]]:
    """Exact scoring with the cached, tree-packed scorer vs one full forward per candidate (naive only when small)."""
    # a user turn of ~400 tokens, the size the earlier naive-scoring timings were taken with
    context = " ".join(
        f"{w.capitalize()} {RELS[i % len(RELS)]} {LABELS[i % len(LABELS)]}." for i, w in enumerate(WORDS[:32])
    )
    msgs = [{"role": "user", "content": context + " " + PROMPT.format("Kismet")}]
    prompt_ids = encode_prompt(tokenizer, msgs)
    eos = int(tokenizer.eos_token_id)
    rows = []
    for n in sizes:
        ids = tokenize_candidates(tokenizer, synthetic_candidates(n, seed=n))
        with _Timer() as t:
            scores = score_candidates(model, prompt_ids, ids, eos_token_id=eos)
        cached_s = t.s
        row: dict[str, Any] = {"candidates": n, "prompt_tokens": len(prompt_ids), "cached_s": round(cached_s, 3)}
        if n <= naive_max:
            t0 = time.perf_counter()
            ref = []
            with torch.inference_mode():
                for c in ids:
                    x = torch.tensor([prompt_ids + c + [eos]])
                    lp = torch.log_softmax(model(input_ids=x).logits[0].float(), dim=-1)
                    ref.append(
                        sum(float(lp[len(prompt_ids) - 1 + j, x[0, len(prompt_ids) + j]]) for j in range(len(c) + 1))
                    )
            row["naive_s"] = round(time.perf_counter() - t0, 3)
            row["speedup"] = round(row["naive_s"] / cached_s, 2)
            row["max_abs_diff"] = max(abs(a - b) for a, b in zip(scores, ref, strict=True))
        rows.append(row)
    return rows


def run_constrained_bench(
    model_dir: Path,
    sizes: Sequence[int] = (100, 1000, 5000, 20000),
    reports_dir: Path = Path("reports"),
    *,
    walks: int = 8,
    step_budget_s: float = 8.0,
    total_budget_s: float = 300.0,
    grammar_threads: int = 1,
    scoring_sizes: Sequence[int] = (8, 59),
    naive_max: int = 8,
    seed: int = 0,
) -> dict[str, Any]:
    """Measure and write the report; returns it. Grammar compiles that would overrun ``total_budget_s`` are skipped."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    started = time.perf_counter()
    tokenizer: Any = AutoTokenizer.from_pretrained(model_dir)
    model = AutoModelForCausalLM.from_pretrained(model_dir, dtype=torch.float32).eval()
    vocab = len(tokenizer)
    eos = int(tokenizer.eos_token_id)
    decode_ms = _decode_step_ms(model)
    prompt_len = len(encode_prompt(tokenizer, [{"role": "user", "content": PROMPT.format("Kismet")}]))

    engines: dict[str, dict[str, Any]] = {}
    xgr_info: Any = None
    try:
        import xgrammar as xgr

        with _Timer() as t:
            xgr_info = xgr.TokenizerInfo.from_huggingface(tokenizer, vocab_size=vocab)
        with _Timer() as t_warm:  # one-off per process, like llguidance's below
            warm_matcher = xgr.GrammarMatcher(
                xgr.GrammarCompiler(xgr_info, max_threads=1).compile_grammar('root ::= "a"')
            )
            warm_bitmask = xgr.allocate_token_bitmask(1, vocab)
            warm_matcher.fill_next_token_bitmask(warm_bitmask)
            xgr.apply_token_bitmask_inplace(torch.zeros(1, vocab), warm_bitmask)
        engines["xgrammar"] = {
            "available": True,
            "tokenizer_setup_s": round(t.s, 3),
            "process_warmup_s": round(t_warm.s, 3),
            "max_threads": grammar_threads,
        }
    except Exception as e:  # any import/runtime failure disables the column
        engines["xgrammar"] = {"available": False, "reason": f"{type(e).__name__}: {str(e)[:200]}"}
    ll_tok: Any = None
    try:
        import llguidance
        import llguidance.hf
        import llguidance.torch

        with _Timer() as t:
            ll_tok = llguidance.hf.from_tokenizer(tokenizer)
        with _Timer() as t_warm:
            # one-off per process, not per grammar: the first apply_token_bitmask_inplace runs torch.compile (~5 s)
            warm = llguidance.LLMatcher(ll_tok, llguidance.grammar_from("lark", 'start: "warm up"'))
            warm_mask = llguidance.torch.allocate_token_bitmask(1, vocab)
            llguidance.torch.fill_next_token_bitmask(warm, warm_mask, 0)
            llguidance.torch.apply_token_bitmask_inplace(torch.zeros(1, vocab), warm_mask)
        engines["llguidance"] = {
            "available": True,
            "tokenizer_setup_s": round(t.s, 3),
            "process_warmup_s": round(t_warm.s, 3),
        }
    except Exception as e:
        engines["llguidance"] = {"available": False, "reason": f"{type(e).__name__}: {str(e)[:200]}"}

    results: list[dict[str, Any]] = []
    xgr_rate: float | None = None  # seconds of compile per candidate, to skip compiles that cannot fit the budget
    for n in sizes:
        cands = synthetic_candidates(n, seed=seed)
        rng = random.Random(seed + n)
        with _Timer() as t_tok:
            cand_ids = tokenize_candidates(tokenizer, cands)
        with _Timer() as t_build:
            trie = TokenTrie.build(cand_ids, eos)
        tok_s, build_s = t_tok.s, t_build.s
        paths = [cand_ids[i] for i in rng.sample(range(n), k=min(walks, n))]
        row: dict[str, Any] = {
            "candidates": n,
            "mean_tokens": round(statistics.fmean(len(c) for c in cand_ids), 1),
            "trie_nodes": trie.num_nodes,
        }
        ours = _walk(_Ours(trie, prompt_len), paths, eos, vocab, step_budget_s, None)
        ours_allowed = ours.pop("_recorded")
        row["ours"] = {"tokenize_s": round(tok_s, 4), "build_s": round(build_s, 4), **ours}

        # same candidates as a choice grammar: one alternation of literal strings
        literals = " | ".join(json.dumps(c, ensure_ascii=False) for c in cands)
        remaining = total_budget_s - (time.perf_counter() - started)
        if not engines["xgrammar"]["available"]:
            row["xgrammar"] = None
        elif xgr_rate is not None and xgr_rate * n > remaining - 20:
            row["xgrammar"] = {"skipped": f"compile estimated {xgr_rate * n:.0f}s > remaining budget {remaining:.0f}s"}
        else:
            try:
                import xgrammar as xgr

                compiler = xgr.GrammarCompiler(xgr_info, max_threads=grammar_threads, cache_enabled=False)
                with _Timer() as t:
                    compiled = compiler.compile_grammar(f"root ::= {literals}")
                compile_s = t.s
                xgr_rate = compile_s / n
                res = _walk(_XGrammar(compiled, vocab), paths, eos, vocab, step_budget_s, ours_allowed)
                row["xgrammar"] = {"compile_s": round(compile_s, 4), **res}
            except Exception as e:
                row["xgrammar"] = {"error": f"{type(e).__name__}: {str(e)[:200]}"}
        if not engines["llguidance"]["available"]:
            row["llguidance"] = None
        else:
            try:
                import llguidance

                # a lexer-level alternation: as a parser rule (``start: "a" | "b" ...``) llguidance refuses more than
                # 2,000 alternatives ("Current row has N items; max is 2000"), as a terminal it compiles to one DFA
                grammar = llguidance.grammar_from("lark", f"start: CHOICE\nCHOICE: {literals}")
                with _Timer() as t:
                    matcher = llguidance.LLMatcher(ll_tok, grammar)
                compile_s = t.s
                if matcher.is_error():
                    raise RuntimeError(matcher.get_error()[:200])
                res = _walk(_LLGuidance(matcher, vocab), paths, eos, vocab, step_budget_s, ours_allowed)
                row["llguidance"] = {"compile_s": round(compile_s, 4), **res}
            except Exception as e:
                row["llguidance"] = {"error": f"{type(e).__name__}: {str(e)[:200]}"}
        results.append(row)

    scoring = _scoring_bench(model, tokenizer, scoring_sizes, naive_max) if scoring_sizes else []
    report: dict[str, Any] = {
        "timestamp": time.strftime("%Y%m%dT%H%M%S"),
        "model_dir": str(model_dir),
        "vocab": vocab,
        "torch_threads": torch.get_num_threads(),
        "decode_step_ms": round(decode_ms, 2),
        "engines": engines,
        "sizes": results,
        "scoring": scoring,
        "wall_s": round(time.perf_counter() - started, 1),
        "notes": [
            "per-token mask cost excludes the model forward; ours = GroundedLogitsProcessor.__call__ (state lookup + "
            "-inf mask of the logits row), engines = accept token + fill bitmask + apply bitmask",
            "setup: ours = tokenize + trie build; engines = grammar compile (+ the lazy work in first_mask_ms)",
            "the first mask of the first walk is reported as first_mask_ms and excluded from step_ms",
            "grammars allow every tokenisation of a candidate, our trie only the canonical one, so their allowed sets "
            "are supersets of ours (steps_not_superset_of_ours counts violations; 0 expected)",
        ],
    }
    _write(report, reports_dir)
    return report


def _ratio(a: float | None, b: float | None) -> str:
    return "-" if not a or not b else f"{a / b:.1f}"


def _fmt(x: Any) -> str:
    return "-" if x is None else f"{x:g}" if isinstance(x, float) else str(x)


def _engine_cells(r: dict[str, Any] | None) -> tuple[float | None, float | None, float | None, str]:
    """(setup s, first mask ms, mean step ms, note) of one engine row."""
    if r is None:
        return None, None, None, "not installed"
    if "compile_s" not in r:
        return None, None, None, str(r.get("skipped") or r.get("error"))
    return r["compile_s"], r["first_mask_ms"], r["step_ms"].get("mean"), ""


def render_markdown(report: dict[str, Any]) -> str:
    lines = [
        f"# constrained decoding bench — {report['timestamp']}",
        "",
        f"SmolLM2 tokenizer (vocab {report['vocab']}), torch threads {report['torch_threads']}; model decode step "
        f"(1 token, KV cache, 128-token context): **{report['decode_step_ms']} ms**. Wall time {report['wall_s']} s.",
        "",
        "Setup s: ours = tokenize + trie build, engines = grammar compile. First mask ms: first fill (lazy setup). "
        "Step ms: mean per-token mask cost after that (excludes the model forward). Ratios: engine / ours.",
        "",
        "| candidates | tokens/cand | trie nodes | ours setup s | xgr compile s | llg compile s | ours first ms "
        "| xgr first ms | llg first ms | ours step ms | xgr step ms | llg step ms | xgr/ours step | llg/ours step "
        "| ours step % of decode |",
        "|" + "---|" * 15,
    ]
    notes = []
    for row in report["sizes"]:
        o = row["ours"]
        o_setup = o["tokenize_s"] + o["build_s"]
        o_step = o["step_ms"].get("mean")
        xs, xf, xm, xn = _engine_cells(row["xgrammar"])
        ls, lf, lm, ln = _engine_cells(row["llguidance"])
        for name, note in (("xgrammar", xn), ("llguidance", ln)):
            if note:
                notes.append(f"- {row['candidates']} candidates, {name}: {note}")
        pct = f"{100 * o_step / report['decode_step_ms']:.2f}" if o_step else "-"
        lines.append(
            f"| {row['candidates']} | {row['mean_tokens']} | {row['trie_nodes']} | {o_setup:.3f} | {_fmt(xs)} "
            f"| {_fmt(ls)} | {_fmt(o['first_mask_ms'])} | {_fmt(xf)} | {_fmt(lf)} | {_fmt(o_step)} | {_fmt(xm)} "
            f"| {_fmt(lm)} | {_ratio(xm, o_step)} | {_ratio(lm, o_step)} | {pct} |"
        )
    for name, e in report["engines"].items():
        if e.get("available"):
            lines.append(
                f"- {name}: tokenizer setup {e['tokenizer_setup_s']} s, one-off process warm-up "
                f"{e['process_warmup_s']} s (both amortised over requests, not in the table)"
            )
    lines += ["", "Allowed tokens per step (mean) and superset check:", ""]
    for row in report["sizes"]:
        parts = [f"ours {row['ours']['allowed_tokens_mean']}"]
        for name in ("xgrammar", "llguidance"):
            r = row[name]
            if r and "allowed_tokens_mean" in r:
                parts.append(
                    f"{name} {r['allowed_tokens_mean']} (steps not ⊇ ours: {r['steps_not_superset_of_ours']}, "
                    f"{r['steps']} steps / {r['walks']} walks)"
                )
        lines.append(f"- {row['candidates']}: " + "; ".join(parts))
    if notes:
        lines += ["", "Skipped / unavailable:", "", *notes]
    for name, e in report["engines"].items():
        if not e.get("available"):
            lines.append(f"- {name} unavailable: {e['reason']}")
    if report["scoring"]:
        lines += [
            "",
            "## exact scoring (score_candidates vs one full forward per candidate)",
            "",
            "| candidates | prompt tokens | cached s | naive s | speedup | max abs diff |",
            "|---|---|---|---|---|---|",
        ]
        for r in report["scoring"]:
            lines.append(
                f"| {r['candidates']} | {r['prompt_tokens']} | {r['cached_s']} | {_fmt(r.get('naive_s'))} "
                f"| {_fmt(r.get('speedup'))} | {_fmt(r.get('max_abs_diff'))} |"
            )
    return "\n".join(lines) + "\n"


def _write(report: dict[str, Any], reports_dir: Path) -> None:
    out = reports_dir / "bench"
    out.mkdir(parents=True, exist_ok=True)
    stem = out / f"constrained-{report['timestamp']}"
    stem.with_suffix(".json").write_text(json.dumps(report, indent=2) + "\n")
    md = render_markdown(report)
    stem.with_suffix(".md").write_text(md)
    print(md)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--model-dir", type=Path, default=None, help="safetensors SmolLM2 (default: the converted one)")
    parser.add_argument("--sizes", default="100,1000,5000,20000")
    parser.add_argument("--reports-dir", type=Path, default=Path("reports"))
    parser.add_argument("--walks", type=int, default=8)
    parser.add_argument("--budget-s", type=float, default=300.0)
    parser.add_argument("--grammar-threads", type=int, default=1)
    parser.add_argument("--scoring", default="8,59", help='candidate counts for the exact-scoring timing ("" = off)')
    args = parser.parse_args(argv)
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    torch.set_num_threads(int(os.environ["OMP_NUM_THREADS"]))
    if args.model_dir is None:
        from app.llm.local import ensure_converted_smollm2

        args.model_dir = ensure_converted_smollm2(Path.home() / ".cache" / "graphrag-service")
    run_constrained_bench(
        args.model_dir,
        sizes=[int(s) for s in args.sizes.split(",") if s],
        reports_dir=args.reports_dir,
        walks=args.walks,
        total_budget_s=args.budget_s,
        grammar_threads=args.grammar_threads,
        scoring_sizes=[int(s) for s in args.scoring.split(",") if s],
    )


if __name__ == "__main__":
    main()
