"""Question answering: retriever(mode) -> optional answer generation with citations.

Shared by the HTTP routers, the CLI and the evaluation harness, so that every path runs the same code.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import AsyncIterator
from typing import Any

from app.cache import normalise_question
from app.errors import AppError
from app.llm.base import LLM
from app.llm.prompts import Citation, attribute_citations, build_answer_messages
from app.observability import BACKEND_ERRORS, DEGRADED, LLM_TOKENS, request_id_var, stage
from app.retrievers.registry import Retrievers
from app.retrievers.types import RetrievalQuery, RetrievalResult, RetrievedItem
from app.schemas import AskRequest, AskResponse, CitationOut, RetrieveRequest, RetrieveResponse
from app.settings import Settings

log = logging.getLogger(__name__)


def _citations_out(cites: list[Citation], used: list[RetrievedItem]) -> list[CitationOut]:
    return [
        CitationOut(index=c.index, item_id=c.item_id, method=c.method, source=used[c.index - 1].source)  # type: ignore[arg-type]
        for c in cites
    ]


class QAService:
    def __init__(self, settings: Settings, retrievers: Retrievers, llm: LLM | None) -> None:
        self.settings = settings
        self.retrievers = retrievers
        self.llm = llm

    def _query(self, req: RetrieveRequest) -> tuple[str, RetrievalQuery]:
        mode = req.mode or self.settings.retrieval.default_mode
        retriever = self.retrievers.get_mode(mode)  # 422 listing the modes when unknown
        top_k = req.top_k or self.settings.retrieval.default_top_k
        top_k = min(top_k, self.settings.retrieval.max_top_k)
        q = RetrievalQuery(question=req.question, namespace=req.namespace, top_k=top_k, filters=req.filters)
        return retriever.name, q

    def cache_params(self, req: RetrieveRequest) -> dict[str, Any]:
        """Everything of the request, resolved, that changes its response: with the namespace and its index version,
        the result cache's key (``app/cache.py``). Raises like ``retrieve`` on an unknown mode."""
        mode, q = self._query(req)
        params: dict[str, Any] = {
            "question": normalise_question(req.question),
            "mode": mode,
            "top_k": q.top_k,
            "filters": q.model_dump(mode="json")["filters"],
        }
        if isinstance(req, AskRequest):
            params["max_tokens"] = req.max_tokens or self.settings.llm.max_new_tokens
        return params

    async def _retrieve(self, req: RetrieveRequest) -> tuple[str, RetrievalResult]:
        mode, q = self._query(req)
        return mode, await self.retrievers[mode].retrieve(q)

    async def retrieve(self, req: RetrieveRequest) -> RetrieveResponse:
        mode, res = await self._retrieve(req)
        return RetrieveResponse(
            request_id=request_id_var.get(),
            namespace=req.namespace,
            mode=mode,
            items=res.items,
            timings_ms=res.timings_ms,
            warnings=res.warnings,
            trace=res.trace,
        )

    def _messages(self, req: AskRequest, items: list[RetrievedItem]) -> tuple[list[Any], list[RetrievedItem]]:
        return build_answer_messages(req.question, items, self.settings.llm.context_chars)

    async def ask(self, req: AskRequest) -> AskResponse:
        t0 = time.perf_counter()
        mode, res = await self._retrieve(req)
        timings = {f"retrieve.{k}": v for k, v in res.timings_ms.items()}
        warnings = list(res.warnings)
        trace: dict[str, Any] = {"retrieval": res.trace}
        answer: str | None = None
        citations: list[CitationOut] = []
        messages, used = self._messages(req, res.items)
        if self.llm is None:
            warnings.append("llm: no answer model configured; returning retrieved items only")
        elif res.items:
            try:
                with stage("answer_generation", mode, timings):
                    gen = await self.llm.generate(
                        messages,
                        max_new_tokens=req.max_tokens or self.settings.llm.max_new_tokens,
                        temperature=self.settings.llm.temperature,
                    )
                LLM_TOKENS.labels(direction="in", backend=self.llm.backend).inc(gen.tokens_in)
                LLM_TOKENS.labels(direction="out", backend=self.llm.backend).inc(gen.tokens_out)
                answer = gen.text
                citations = _citations_out(attribute_citations(answer, used, req.question), used)
                trace["generation"] = {
                    "model": gen.model,
                    "backend": self.llm.backend,
                    "tokens_in": gen.tokens_in,
                    "tokens_out": gen.tokens_out,
                    "context_items": len(used),
                }
            except AppError as exc:
                # a failed answer model degrades the response to retrieval only, and says so
                BACKEND_ERRORS.labels(backend="llm").inc()
                DEGRADED.labels(dependency="llm").inc()
                log.warning("answer generation failed: %s", exc.message)
                warnings.append(f"llm: answer generation failed ({exc.code}); returning retrieved items only")
        else:
            answer = "I could not find anything relevant to this question."
            trace["generation"] = {"skipped": "no items retrieved"}
        timings["total"] = round(1000 * (time.perf_counter() - t0), 3)
        return AskResponse(
            request_id=request_id_var.get(),
            namespace=req.namespace,
            mode=mode,
            answer=answer,
            citations=citations,
            items=res.items,
            timings_ms=timings,
            warnings=warnings,
            trace=trace,
        )

    async def ask_stream(self, req: AskRequest) -> AsyncIterator[str]:
        """Server-sent events: ``items`` (the retrieved items), ``token`` pieces, then ``done`` (answer, citations,
        timings) or ``error``."""
        t0 = time.perf_counter()
        mode, res = await self._retrieve(req)  # errors here still become a normal JSON error response

        async def events() -> AsyncIterator[str]:
            def sse(event: str, data: Any) -> str:
                return f"event: {event}\ndata: {json.dumps(data)}\n\n"

            yield sse(
                "items",
                {"mode": mode, "items": [it.model_dump() for it in res.items], "warnings": res.warnings},
            )
            messages, used = self._messages(req, res.items)
            pieces: list[str] = []
            warnings = list(res.warnings)
            timings = {f"retrieve.{k}": v for k, v in res.timings_ms.items()}
            if self.llm is not None and res.items:
                try:
                    with stage("answer_generation", mode, timings):
                        async for piece in self.llm.stream(
                            messages,
                            max_new_tokens=req.max_tokens or self.settings.llm.max_new_tokens,
                            temperature=self.settings.llm.temperature,
                        ):
                            pieces.append(piece)
                            yield sse("token", {"text": piece})
                except AppError as exc:
                    BACKEND_ERRORS.labels(backend="llm").inc()
                    DEGRADED.labels(dependency="llm").inc()
                    warnings.append(f"llm: answer generation failed ({exc.code})")
                    yield sse("error", {"code": exc.code, "message": exc.message})
            answer = "".join(pieces).strip() or None
            cites = attribute_citations(answer, used, req.question) if answer else []
            timings["total"] = round(1000 * (time.perf_counter() - t0), 3)
            yield sse(
                "done",
                {
                    "request_id": request_id_var.get(),
                    "answer": answer,
                    "citations": [c.model_dump() for c in _citations_out(cites, used)],
                    "timings_ms": timings,
                    "warnings": warnings,
                },
            )

        return events()
