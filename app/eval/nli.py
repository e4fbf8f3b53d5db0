"""Answer grading by bidirectional NLI entailment (optional; needs an NLI cross-encoder, none ships here).

A generated answer counts as correct when, for some gold answer, the statement made with the generated answer entails
the statement made with the gold one *and* the other way round, each with probability > ``threshold`` (0.5, as in
the TUM thesis). Statements are ``"<question> <answer>"`` so that short answers ("1864") are judged in context.
Entailment in one direction only is not enough: "the line opened in the 19th century" entails nothing as precise as
"1864", and a rambling answer that contains the gold one is entailed by it but does not entail it back.

The model is any sentence-transformers ``CrossEncoder`` with NLI labels (``config.id2label`` names an entailment
class, e.g. ``cross-encoder/nli-deberta-v3-base``); configure it with ``python -m app eval --nli-model PATH``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np


def entailment_index(id2label: dict[Any, str]) -> int:
    """Index of the entailment class in the model's labels."""
    for idx, label in id2label.items():
        if "entail" in str(label).lower() and "not" not in str(label).lower():
            return int(idx)
    raise ValueError(f"no entailment label among {sorted(map(str, id2label.values()))}")


def _softmax(logits: np.ndarray) -> np.ndarray:
    z = logits - logits.max(axis=-1, keepdims=True)
    e = np.exp(z)
    out: np.ndarray = e / e.sum(axis=-1, keepdims=True)
    return out


class NLIGrader:
    def __init__(self, model: str | Any, *, threshold: float = 0.5, device: str = "cpu") -> None:
        if isinstance(model, str):
            from sentence_transformers import CrossEncoder

            model = CrossEncoder(model, device=device)
        self.model = model
        self.threshold = threshold
        self.entail = entailment_index(model.config.id2label)

    def entailment_probs(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """P(premise entails hypothesis) for each (premise, hypothesis)."""
        if not pairs:
            return []
        logits = np.asarray(self.model.predict(list(pairs), apply_softmax=False, convert_to_numpy=True))
        if logits.ndim != 2 or logits.shape[1] <= self.entail:
            raise ValueError(f"the model must output one logit per NLI class; got shape {logits.shape}")
        return [float(p) for p in _softmax(logits.astype(np.float64))[:, self.entail]]

    def grade(self, question: str, answer: str, golds: Sequence[str]) -> float:
        """1.0 when the answer and some gold answer entail each other (both directions > threshold), else 0.0."""
        if not answer.strip() or not golds:
            return 0.0
        a = f"{question} {answer}".strip()
        gs = [f"{question} {g}".strip() for g in golds]
        pairs = [(a, g) for g in gs] + [(g, a) for g in gs]
        probs = self.entailment_probs(pairs)
        n = len(gs)
        return 1.0 if any(probs[i] > self.threshold and probs[n + i] > self.threshold for i in range(n)) else 0.0
