"""In-process cross-encoder reranking (sentence-transformers ``CrossEncoder``), off the event loop."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.concurrency import BoundedExecutor


class CrossEncoderReranker:
    def __init__(self, model: str, *, max_queue: int = 32, timeout_s: float = 30.0, device: str = "cpu") -> None:
        self.model_name = model
        self.device = device
        self.timeout_s = timeout_s
        self._model: Any = None
        self._executor = BoundedExecutor("reranker", workers=1, max_queue=max_queue)

    def warm_up(self) -> None:
        if self._model is None:
            from sentence_transformers import CrossEncoder

            self._model = CrossEncoder(self.model_name, device=self.device)

    def score_sync(self, question: str, texts: Sequence[str]) -> list[float]:
        self.warm_up()
        if not texts:
            return []
        scores = self._model.predict([(question, t) for t in texts], convert_to_numpy=True)
        return [float(s) for s in scores]

    async def score(self, question: str, texts: Sequence[str]) -> list[float]:
        return await self._executor.run(self.score_sync, question, list(texts), timeout_s=self.timeout_s)
