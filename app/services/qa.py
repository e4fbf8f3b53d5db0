"""Question answering: retriever(mode) -> optional answer generation with citations.

Shared by the HTTP routers, the CLI and the evaluation harness, so that every path runs the same code.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from contextlib import aclosing
from dataclasses import dataclass, field
from typing import Any

from app.cache import normalise_question
from app.errors import AppError, InvalidInputError, OverloadedError
from app.ids import entity_id
from app.llm.base import LLM, Generation
from app.observability import BACKEND_ERRORS, DEGRADED, LLM_TOKENS, request_id_var, stage
from app.retrievers.base import Retrievers
from app.retrievers.linking import EntityLinker
from app.retrievers.types import NodeRef, RetrievalQuery, RetrievalResult, RetrievedItem
from app.schemas import (
    AskRequest,
    AskResponse,
    AskTrace,
    CitationOut,
    GenerationTrace,
    RetrieveRequest,
    RetrieveResponse,
)
from app.services.answer import Citation, attribute_citations, build_answer_messages
from app.settings import Settings

log = logging.getLogger(__name__)

NOTHING_FOUND = "I could not find anything relevant to this question."


def _citations_out(cites: list[Citation], used: list[RetrievedItem]) -> list[CitationOut]:
    return [
        CitationOut(index=c.index, item_id=c.item_id, method=c.method, source=used[c.index - 1].source)  # type: ignore[arg-type]
        for c in cites
    ]


@dataclass
class AnswerOutcome:
    """The end of one answer generation: the answer (None when there is none), its citations, how it was made,
    the response's warnings, and the error that degraded it, if any."""

    answer: str | None
    citations: list[CitationOut] = field(default_factory=list)
    generation: GenerationTrace | None = None
    warnings: list[str] = field(default_factory=list)
    error: AppError | None = None


GROUNDING_NODES = 3
"""Top answer nodes an answer must name one of (else it is replaced by their names)."""


def value_text(value: object) -> str:
    """A value item's value as an answer states it: whole numbers without ``.0``, others to two decimals, a list's
    elements joined."""
    if isinstance(value, list):
        return ", ".join(value_text(v) for v in value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else f"{value:.2f}".rstrip("0")
    return str(value)


def ground_answer(answer: str, items: list[RetrievedItem], generation: GenerationTrace) -> str:
    """For modes whose items are answer nodes: keep the model's answer when it names one of the top nodes, else
    answer with those nodes' names (a small model paraphrases names wrongly; the graph's answer wins). When the top
    item is a value (a count, an aggregate, a property's value: ``provenance["value"]``), the answer must state one
    of the top values of that same query instead, nodes of lower-ranked queries notwithstanding."""
    top = items[0] if items else None
    if top is not None and top.node is None and "value" in top.provenance:
        query = top.provenance.get("query")
        same = [it for it in items[:GROUNDING_NODES] if it.node is None and it.provenance.get("query") == query]
        names = list(dict.fromkeys(value_text(it.provenance["value"]) for it in same))
    else:
        names = list(dict.fromkeys(it.node.name for it in items[:GROUNDING_NODES] if it.node is not None))
    if not names:
        return answer
    low = answer.lower()
    if any(n.lower() in low for n in names):
        generation.grounding = "kept"
        return answer
    generation.grounding, generation.model_answer = "replaced", answer
    return (names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]) + "."


class QAService:
    def __init__(
        self,
        settings: Settings,
        retrievers: Retrievers,
        llm: LLM | None,
        linker: EntityLinker | None = None,
        count_tokens: Callable[[str], int] | None = None,
    ) -> None:
        self.settings = settings
        self.count_tokens = count_tokens
        """Word pieces of a question (the embedder's tokenizer): ``retrieval.max_question_tokens``."""
        self.retrievers = retrievers
        self.llm = llm
        """The answer model (``LLMs.answer``)."""
        self.linker = linker
        """Links answers back to graph nodes (``answer_entities``)."""

    async def link_answer(self, namespace: str, answer: str | None) -> list[NodeRef]:
        """The graph nodes an answer names (exact name matches; none when linking fails: it is a courtesy)."""
        if not answer or self.linker is None:
            return []
        try:
            links = await self.linker.link(namespace, answer, max_mentions=10)
        except AppError as exc:
            log.warning("answer entity linking failed: %s", exc.message)
            return []
        exact = {
            entity_id(x.name): NodeRef(id=entity_id(x.name), name=x.name, labels=x.labels)
            for x in links
            if x.method == "exact"
        }
        return list(exact.values())

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
        limit = self.settings.retrieval.max_question_tokens
        n = self.count_tokens(req.question) if self.count_tokens is not None else 0
        if n > limit:
            raise InvalidInputError(
                f"question too long: {n} tokens (limit {limit}, retrieval.max_question_tokens)",
                code="question_too_long",
            )
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

    async def _generate(
        self, req: AskRequest, mode: str, res: RetrievalResult, timings: dict[str, float], *, stream: bool
    ) -> AsyncGenerator[str | AnswerOutcome, None]:
        """The one answer-generation routine of ``ask`` and ``ask_stream``: the prompt over the retrieved items, the
        model call (whole, or streamed piece by piece), token metrics, degradation when the model fails, citations.
        Yields the answer's text pieces when streaming, then always one ``AnswerOutcome``."""
        warnings = list(res.warnings)
        if self.llm is None:
            warnings.append("llm: no answer model configured; returning retrieved items only")
            yield AnswerOutcome(None, warnings=warnings)
            return
        if not res.items:
            yield AnswerOutcome(
                NOTHING_FOUND, generation=GenerationTrace(skipped="no items retrieved"), warnings=warnings
            )
            return
        messages, used = build_answer_messages(req.question, res.items, self.settings.llm.context_chars)
        max_new_tokens = req.max_tokens or self.settings.llm.max_new_tokens
        temperature = self.settings.llm.temperature
        try:
            with stage("answer_generation", mode, timings):
                if stream:
                    pieces: list[str] = []
                    chunks = self.llm.stream(messages, max_new_tokens=max_new_tokens, temperature=temperature)
                    async with aclosing(chunks):  # type: ignore[type-var]
                        async for piece in chunks:
                            pieces.append(piece)
                            yield piece
                    gen: Generation | None = None
                    answer = "".join(pieces).strip()
                else:
                    gen = await self.llm.generate(messages, max_new_tokens=max_new_tokens, temperature=temperature)
                    answer = gen.text
        except AppError as exc:
            if isinstance(exc, OverloadedError) and not stream:
                raise  # a full model queue is a clean 503 with Retry-After: the client retries, nothing is degraded
            # a failed answer model degrades the response to retrieval only, and says so
            BACKEND_ERRORS.labels(backend="llm").inc()
            DEGRADED.labels(dependency="llm").inc()
            log.warning("answer generation failed: %s", exc.message)
            warnings.append(f"llm: answer generation failed ({exc.code}); returning retrieved items only")
            yield AnswerOutcome(None, warnings=warnings, error=exc)
            return
        generation = GenerationTrace(model=self.llm.model_name, backend=self.llm.backend, context_items=len(used))
        if gen is not None:
            LLM_TOKENS.labels(direction="in", backend=self.llm.backend).inc(gen.tokens_in)
            LLM_TOKENS.labels(direction="out", backend=self.llm.backend).inc(gen.tokens_out)
            generation.model, generation.tokens_in, generation.tokens_out = gen.model, gen.tokens_in, gen.tokens_out
        if self.retrievers[mode].answers_with_nodes:
            answer = ground_answer(answer, res.items, generation)
        citations = _citations_out(attribute_citations(answer, used, req.question), used)
        yield AnswerOutcome(answer, citations, generation, warnings)

    async def ask(self, req: AskRequest) -> AskResponse:
        t0 = time.perf_counter()
        mode, res = await self._retrieve(req)
        timings = {f"retrieve.{k}": v for k, v in res.timings_ms.items()}
        outcome: AnswerOutcome | None = None
        async for event in self._generate(req, mode, res, timings, stream=False):
            if isinstance(event, AnswerOutcome):
                outcome = event
        assert outcome is not None
        timings["total"] = round(1000 * (time.perf_counter() - t0), 3)
        return AskResponse(
            request_id=request_id_var.get(),
            namespace=req.namespace,
            mode=mode,
            answer=outcome.answer,
            citations=outcome.citations,
            answer_entities=await self.link_answer(req.namespace, outcome.answer),
            items=res.items,
            timings_ms=timings,
            warnings=outcome.warnings,
            trace=AskTrace(retrieval=res.trace, generation=outcome.generation),
        )

    async def ask_stream(self, req: AskRequest) -> AsyncIterator[str]:
        """Server-sent events: ``items`` (the retrieved items), ``token`` pieces, then ``done`` (answer, citations,
        timings, warnings), preceded by ``error`` when the answer model failed."""
        t0 = time.perf_counter()
        mode, res = await self._retrieve(req)  # errors here still become a normal JSON error response

        def sse(event: str, data: Any) -> str:
            return f"event: {event}\ndata: {json.dumps(data)}\n\n"

        async def events() -> AsyncIterator[str]:
            yield sse("items", {"mode": mode, "items": [it.model_dump() for it in res.items], "warnings": res.warnings})
            timings = {f"retrieve.{k}": v for k, v in res.timings_ms.items()}
            generation = self._generate(req, mode, res, timings, stream=True)
            async with aclosing(generation):
                async for event in generation:
                    if isinstance(event, str):
                        yield sse("token", {"text": event})
                        continue
                    if event.error is not None:
                        yield sse("error", {"code": event.error.code, "message": event.error.message})
                    timings["total"] = round(1000 * (time.perf_counter() - t0), 3)
                    yield sse(
                        "done",
                        {
                            "request_id": request_id_var.get(),
                            "answer": event.answer,
                            "citations": [c.model_dump() for c in event.citations],
                            "answer_entities": [
                                n.model_dump() for n in await self.link_answer(req.namespace, event.answer)
                            ],
                            "timings_ms": timings,
                            "warnings": event.warnings,
                        },
                    )

        return events()
