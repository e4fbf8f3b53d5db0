"""LLM paraphrases of self-supervised training questions, kept only when they still mean their query.

The verbalised questions of ``app.training.selftune`` read relation names literally ("what is the has genre of entity
written by X?"); users do not. A local instruction model rewrites a sample of them as a person would ask ("what genre
are the films X wrote?"), and a rewrite is trained on only when it passes a **round trip**: the retriever itself, by
relevance alone (entity linking, the same candidates, the cross-encoder, the schema words it mentions), still ranks
the pair's own query first for it. A small model's rewrites often drop a hop, answer the question or change a
relation (session-2 experiment: 3 of 10 usable); those fail the round trip, because then another candidate reads
closer. What the check keeps is a question worded differently from the relation names that the graph's candidates
still tell apart.

The model is any local chat model (``paraphrase_model``: a path, a catalog name or empty for the service's LLM),
run in batches with sampling; it is loaded for this step only and released before training.
"""

from __future__ import annotations

import gc
import logging
import random
import re
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from tqdm import tqdm

from app.errors import AppError
from app.retrievers.text2cypher import Text2CypherRetriever

log = logging.getLogger(__name__)

SYSTEM = (
    "Rewrite the question the way a person would ask it, in plain English, with the same meaning. Relation names "
    "are written like 'employed by' or 'has capital'. Keep every name exactly as written. Answer with the question "
    "only."
)
SHOTS = (
    ("what is the employed by of the entity founded by Ann Lee?",
     "who employs people at the companies Ann Lee founded?"),
    ("what are the other entity with the same capital of as Rome?",
     "which other cities are capitals of the same country as Rome?"),
    ("how many cities located in a country?", "how many cities are there in countries?"),
)  # fmt: skip
"""Few-shot examples from a domain of no data set here (companies, capitals)."""

Rewrite = Callable[[Sequence[str]], list[str]]
"""Questions in, one rewrite each out (batched)."""


def messages(question: str) -> list[dict[str, str]]:
    out = [{"role": "system", "content": SYSTEM}]
    for q, a in SHOTS:
        out += [{"role": "user", "content": q}, {"role": "assistant", "content": a}]
    return [*out, {"role": "user", "content": question}]


def clean(text: str) -> str:
    """The first line of a generation, without quotes or a leading label."""
    line = next((x for x in text.strip().splitlines() if x.strip()), "").strip()
    line = re.sub(r"^(rewritten|question|answer)\s*:\s*", "", line, flags=re.I)
    return line.strip(" \"'`")


def _norm(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def acceptable(source: str, rewrite: str, anchor: str | None) -> bool:
    """Cheap checks before the round trip: a question of sensible length, not the source again, naming the anchor."""
    if not rewrite or not 8 <= len(rewrite) <= 3 * len(source) + 40 or _norm(rewrite) == _norm(source):
        return False
    return anchor is None or anchor.lower() in rewrite.lower()


class LocalRewriter:
    """A local chat model (transformers) that rewrites questions in batches, sampling at ``temperature``."""

    def __init__(
        self, path: Path, *, threads: int | None, batch_size: int = 8, temperature: float = 0.7, seed: int = 0
    ) -> None:
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        if threads:
            torch.set_num_threads(threads)
        torch.manual_seed(seed)  # the sampled rewrites repeat with the tune seed
        self.batch_size = batch_size
        self.temperature = temperature
        self.tokenizer = AutoTokenizer.from_pretrained(path)
        self.tokenizer.padding_side = "left"
        self.model = AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32).eval()
        self.name = path.name

    def __call__(self, questions: Sequence[str]) -> list[str]:
        import torch

        out: list[str] = []
        for i in range(0, len(questions), self.batch_size):
            batch = questions[i : i + self.batch_size]
            texts = [
                self.tokenizer.apply_chat_template(messages(q), tokenize=False, add_generation_prompt=True)
                for q in batch
            ]
            enc = self.tokenizer(texts, return_tensors="pt", padding=True)
            with torch.inference_mode():
                gen = self.model.generate(
                    **enc,
                    max_new_tokens=40,
                    do_sample=True,
                    temperature=self.temperature,
                    top_p=0.95,
                    pad_token_id=self.tokenizer.eos_token_id,
                )
            new = gen[:, enc["input_ids"].shape[1] :]
            out += [clean(t) for t in self.tokenizer.batch_decode(new, skip_special_tokens=True)]
        return out

    def close(self) -> None:
        del self.model
        gc.collect()


async def round_trip(r: Text2CypherRetriever, namespace: str, question: str, cypher: str) -> bool:
    """``r`` (configured to rank by relevance alone) ranks ``cypher`` first for ``question``."""
    try:
        e = await r.enumerate(namespace, question)
        if not e.candidates:
            return False
        _, order, _ = await r.choose(namespace, question, e)
    except AppError:
        return False
    return bool(order) and e.candidates[order[0]].text == cypher


async def paraphrase_pairs(
    r: Text2CypherRetriever,
    namespace: str,
    pairs: Sequence[dict[str, Any]],
    rewrite: Rewrite,
    *,
    n: int,
    deadline: float,
    rng: random.Random,
    batch: int = 8,
    reuse: int = 6,
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Up to ``n`` new pairs, until ``deadline``: rewrites of randomly drawn ``pairs`` that pass ``acceptable`` and
    the round trip (``r`` must rank by relevance alone). A kept rewrite of an entity-anchored pair is a template for
    its query's pattern (the same path from another anchor): it is also given to up to ``reuse`` other pairs of the
    pattern, the anchor's name swapped; the round trip checked the wording, the pattern carries the meaning."""
    by_pattern: dict[str, list[int]] = defaultdict(list)
    for i, p in enumerate(pairs):
        if p.get("pattern") and p.get("anchor"):
            by_pattern[p["pattern"]].append(i)
    order = rng.sample(range(len(pairs)), len(pairs))
    kept: list[dict[str, Any]] = []
    tried = rejected_cheap = passed = 0
    bar = tqdm(total=n, desc="paraphrases", file=sys.stderr)
    pos = 0
    while pos < len(order) and len(kept) < n and time.monotonic() < deadline:
        chunk = [pairs[i] for i in order[pos : pos + batch]]
        pos += len(chunk)
        for p, text in zip(chunk, rewrite([p["question"] for p in chunk]), strict=True):
            tried += 1
            anchor = p.get("anchor")
            if not acceptable(p["question"], text, anchor):
                rejected_cheap += 1
                continue
            if not await round_trip(r, namespace, text, p["cypher"]):
                continue
            passed += 1
            got = [{**p, "question": text, "paraphrase_of": p["question"]}]
            if anchor and p.get("pattern"):
                at = text.lower().index(anchor.lower())
                others = [pairs[j] for j in by_pattern[p["pattern"]] if pairs[j] is not p]
                for q in rng.sample(others, min(reuse, len(others))):
                    swapped = text[:at] + q["anchor"] + text[at + len(anchor) :]
                    got.append({**q, "question": swapped, "paraphrase_of": q["question"]})
            kept += got
            bar.update(len(got))
    bar.close()
    kept = kept[:n]
    stats = {
        "tried": tried,
        "passed_round_trip": passed,
        "kept": len(kept),
        "rejected_before_round_trip": rejected_cheap,
    }
    log.info("paraphrases: %s", stats)
    return kept, stats
