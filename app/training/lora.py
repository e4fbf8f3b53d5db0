"""LoRA fine-tuning of the local model on (question, best Cypher) pairs (GraphRAFT step 5b).

The training example is exactly what the retriever scores at inference: the chat prompt built by
``app.retrievers.text2cypher.build_messages`` followed by the candidate's tokens (as ``tokenize_candidates`` makes
them) and EOS; the loss covers the candidate tokens and EOS only. The adapter is saved with peft and loaded by
setting ``GRAPHRAG_LLM__TEXT2CYPHER__ADAPTER``.
"""

from __future__ import annotations

import json
import math
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tqdm import tqdm

from app.stores.graph.base import GraphSchema, SchemaTriple


def load_pairs(path: Path) -> list[dict[str, Any]]:
    pairs = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [p for p in pairs if p.get("cypher")]


def schema_from_file(path: Path) -> GraphSchema:
    raw = json.loads(path.read_text())
    return GraphSchema(
        labels=raw["labels"],
        relationship_types=raw["relationship_types"],
        property_keys=raw["property_keys"],
        triples=[SchemaTriple(*t) for t in raw["triples"]],
    )


FIT_STEP = 5
"""With a time budget, the steps that fit are read off the rate of steps 2 to ``FIT_STEP``: the first pays one-off
costs (16 s against 4.6 s for the next ones, MetaQA on this CPU), and reading the rate off the first three had cut
MetaQA's 30-minute tuning to 242 of its 300 steps, in 21 minutes."""


def train_lora(
    *,
    base_model: Path,
    pairs_file: Path,
    schema_file: Path,
    out_dir: Path,
    **kwargs: Any,
) -> dict[str, Any]:
    """LoRA on the (question, cypher) pairs of a JSONL file (``synth``), made on the graph of ``schema_file``."""
    stats = train_lora_pairs(
        base_model=base_model,
        pairs=load_pairs(pairs_file),
        schema=schema_from_file(schema_file),
        out_dir=out_dir,
        **kwargs,
    )
    stats["pairs"] = str(pairs_file)
    (out_dir / "training.json").write_text(json.dumps(stats, indent=2))
    return stats


class TrainingCancelled(Exception):
    """Training was asked to stop (``on_step`` returned False); nothing was saved."""


def train_lora_pairs(
    *,
    base_model: Path,
    pairs: list[dict[str, Any]],
    schema: GraphSchema | None,
    out_dir: Path,
    epochs: float = 2.0,
    batch_size: int = 8,
    lr: float = 3e-4,
    rank: int = 16,
    seed: int = 13,
    threads: int | None = None,
    max_examples: int | None = None,
    top_layers: int | None = None,
    max_seconds: float | None = None,
    on_step: Callable[[int, int], bool] | None = None,
    max_tokens: int = 512,
) -> dict[str, Any]:
    """LoRA on ``pairs`` (dicts with ``question``, ``cypher`` and optionally ``hops``), saved to ``out_dir``.

    ``top_layers``: put LoRA on the last N decoder layers only, so that back-propagation stops there (on a CPU this
    is what makes a run fit in minutes). ``max_seconds``: after the first steps are timed, the planned number of
    steps is cut to what fits (the learning-rate schedule follows the new plan). ``on_step(step, steps)`` is told
    after every step; when it returns False training stops with ``TrainingCancelled`` and nothing is saved.
    ``max_tokens``: an example (prompt and query) longer than this is left out (``too_long`` in the stats): a question
    that quotes a whole text as its constant, where one batch's activations would grow with the square of its length
    (a Stack Overflow post's body of 6,000 tokens took a 24 GB machine's memory)."""
    import torch
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from app.text2cypher.prompt import build_messages
    from grounded import encode_prompt, tokenize_candidates

    torch.manual_seed(seed)
    if threads:
        torch.set_num_threads(threads)
    rng = random.Random(seed)
    pairs = list(pairs)
    rng.shuffle(pairs)
    if max_examples:  # the same share of every hop count
        by_hops: dict[Any, list[dict[str, Any]]] = {}
        for p in pairs:
            by_hops.setdefault(p.get("hops"), []).append(p)
        share = max(1, max_examples // max(1, len(by_hops)))
        pairs = [p for group in by_hops.values() for p in group[:share]]
        rng.shuffle(pairs)
    tok = AutoTokenizer.from_pretrained(base_model)
    model = AutoModelForCausalLM.from_pretrained(base_model, dtype=torch.float32)
    eos = int(tok.eos_token_id)
    examples = []
    too_long = 0
    for p in pairs:
        prompt = encode_prompt(tok, build_messages(schema, p["question"], with_schema=False))
        target = [*tokenize_candidates(tok, [p["cypher"]])[0], eos]
        if len(prompt) + len(target) > max_tokens:
            too_long += 1
            continue
        examples.append((prompt + target, [-100] * len(prompt) + target))
    if not examples:
        raise ValueError(f"no training pair fits in {max_tokens} tokens ({too_long} longer)")
    config = LoraConfig(
        r=rank,
        lora_alpha=2 * rank,
        lora_dropout=0.05,
        target_modules=["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"],
        task_type="CAUSAL_LM",
        layers_to_transform=(
            list(range(model.config.num_hidden_layers - top_layers, model.config.num_hidden_layers))
            if top_layers
            else None
        ),
    )
    peft_model: Any = get_peft_model(model, config)
    peft_model.train()
    model = peft_model
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(params, lr=lr, weight_decay=0.0)
    steps = max(1, math.ceil(len(examples) * epochs / batch_size))
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min(1.0, (s + 1) / max(1, steps // 20)) * max(0.0, 1 - s / steps)
    )
    pad = tok.pad_token_id if tok.pad_token_id is not None else eos
    t0 = time.perf_counter()
    losses: list[float] = []
    order: list[int] = []
    planned = steps
    bar = tqdm(total=steps, desc="lora", file=sys.stderr)
    step = 0
    first = 0.0
    while step < steps:
        if len(order) < batch_size:
            extra = list(range(len(examples)))
            rng.shuffle(extra)
            order += extra
        idx, order = order[:batch_size], order[batch_size:]
        batch = [examples[i] for i in idx]
        width = max(len(ids) for ids, _ in batch)
        input_ids = torch.full((len(batch), width), pad, dtype=torch.long)
        labels = torch.full((len(batch), width), -100, dtype=torch.long)
        mask = torch.zeros((len(batch), width), dtype=torch.long)
        for row, (ids, lab) in enumerate(batch):
            input_ids[row, : len(ids)] = torch.tensor(ids)
            labels[row, : len(lab)] = torch.tensor(lab)
            mask[row, : len(ids)] = 1
        loss = model(input_ids=input_ids, attention_mask=mask, labels=labels).loss
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        opt.step()
        sched.step()
        opt.zero_grad()
        losses.append(float(loss))
        step += 1
        bar.update(1)
        if on_step is not None and not on_step(step, steps):
            bar.close()
            raise TrainingCancelled(f"training cancelled after {step} of {steps} steps")
        if step % 10 == 0:
            bar.set_postfix(loss=f"{sum(losses[-10:]) / len(losses[-10:]):.4f}")
        if max_seconds is None:
            continue
        now = time.perf_counter() - t0
        if step == 1:
            first = now  # the first step also pays one-off costs: the rate is read off the next ones
        if step == FIT_STEP:
            per_step = (now - first) / (step - 1)
            fits = int((max_seconds - now) / per_step) + step
            if fits < steps:  # the schedule reads ``steps``: it decays to the new end
                steps = max(step, fits)
                bar.total = steps
                bar.refresh()
        if now >= max_seconds:  # the rate fell after it was read: stop within the budget
            steps = step
            break
    bar.close()
    out_dir.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(str(out_dir))
    stats = {
        "examples": len(examples),
        "too_long": too_long,
        "steps": steps,
        "planned_steps": planned,
        "epochs_done": round(steps * batch_size / max(1, len(examples)), 3),
        "epochs": epochs,
        "batch_size": batch_size,
        "lr": lr,
        "rank": rank,
        "top_layers": top_layers,
        "seconds": round(time.perf_counter() - t0, 1),
        "loss_first10": round(sum(losses[:10]) / min(10, len(losses)), 4),
        "loss_last10": round(sum(losses[-10:]) / min(10, len(losses)), 4),
        "base_model": str(base_model),
    }
    return stats
