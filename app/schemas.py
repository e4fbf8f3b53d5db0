"""HTTP request and response models (with bounds and OpenAPI examples)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SerializeAsAny, StrictBool, StrictInt, field_validator

from app.retrievers.types import (
    CacheHit,
    FilterValue,
    NodeRef,
    RetrievedItem,
    Source,
    Trace,
    check_filters,
    not_blank,
)

TRACE_DESCRIPTION = "What the mode did for this query: the trace model of the response's `mode` (see its schema)."

MAX_QUESTION_CHARS = 2000
NAMESPACE_PATTERN = r"^[a-z][a-z0-9_]{0,62}$"


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


class RetrieveRequest(_Request):
    question: str = Field(
        min_length=1,
        max_length=MAX_QUESTION_CHARS,
        description="Natural-language question.",
        examples=["Who designed the Kestrel Class locomotive?"],
    )
    namespace: str = Field("default", pattern=NAMESPACE_PATTERN, examples=["demo"])
    mode: str | None = Field(None, description="Retriever mode; unset = the configured default.", examples=["vector"])
    top_k: StrictInt | None = Field(None, ge=1, le=100, description="Items to return (1-100).", examples=[5])
    filters: dict[str, FilterValue] = Field(
        default_factory=dict,
        description="Payload filters: {field: value}, {field: [any of]}, {field: {gte, lte}}.",
        examples=[{"title": "The Drummel Viaduct"}],
    )
    cache: StrictBool = Field(True, description="Serve from / store into the result cache (false: always compute).")

    _question = field_validator("question")(not_blank)
    _filters = field_validator("filters")(check_filters)


class AskRequest(RetrieveRequest):
    max_tokens: int | None = Field(None, ge=1, le=1024, description="Answer length limit in tokens.")
    stream: StrictBool = Field(False, description="Stream the answer as server-sent events.")


class RetrieveResponse(BaseModel):
    request_id: str
    namespace: str
    mode: str
    items: list[RetrievedItem]
    timings_ms: dict[str, float]
    warnings: list[str] = Field(default_factory=list)
    trace: SerializeAsAny[Trace] = Field(default_factory=Trace, description=TRACE_DESCRIPTION)
    cached: bool = Field(False, description="Served from the result cache.")


class CitationOut(BaseModel):
    index: int
    item_id: str
    method: Literal["marker", "overlap", "top_item"]
    source: Source


class GenerationTrace(BaseModel):
    """How the answer was generated, or why it was not."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    model: str | None = None
    backend: str | None = None
    tokens_in: int | None = None
    tokens_out: int | None = None
    """Token counts (None when the backend streamed without reporting them)."""
    context_items: int | None = None
    """Retrieved items that fit into the answer prompt."""
    skipped: str | None = None
    """Why no model was asked (e.g. nothing was retrieved)."""
    grounding: str | None = None
    """For modes whose items are answer nodes: ``kept`` (the answer names one of the top nodes) or ``replaced``
    (it named none, so the answer is the top nodes' names: it must never contradict them)."""
    model_answer: str | None = None
    """The model's own words when ``grounding`` is ``replaced``."""


class AskTrace(BaseModel):
    model_config = ConfigDict(use_attribute_docstrings=True)

    retrieval: SerializeAsAny[Trace] = Field(default_factory=Trace, description=TRACE_DESCRIPTION)
    generation: GenerationTrace | None = None
    """None when there is no answer model or it failed (see ``warnings``)."""
    cache: CacheHit | None = None


class AskResponse(BaseModel):
    request_id: str
    namespace: str
    mode: str
    answer: str | None
    """None when answer generation failed (see ``warnings``); the items are still returned."""
    citations: list[CitationOut]
    answer_entities: list[NodeRef] = Field(default_factory=list)
    """Graph nodes the answer names (answer entity linking: exact name matches in the namespace, the linker's)."""
    items: list[RetrievedItem]
    timings_ms: dict[str, float]
    warnings: list[str] = Field(default_factory=list)
    trace: AskTrace = Field(default_factory=AskTrace)
    cached: bool = Field(False, description="Served from the result cache.")


class IngestRequest(_Request):
    namespace: str = Field("default", pattern=NAMESPACE_PATTERN)
    format: Literal["metaqa", "tsv", "csv", "documents", "cypher"]
    path: str | None = Field(None, description="Server-side file or folder under an allowed ingest path.")
    triples: list[tuple[str, str, str]] | None = Field(None, description="Inline [subject, relation, object].")
    labels: dict[str, tuple[str, str]] | None = Field(
        None, description="With inline triples: relation -> [subject label, object label]."
    )
    labels_path: str | None = Field(
        None, description="With a path of triples: a server-side labels JSON file under an allowed ingest path."
    )
    documents: list[dict[str, str]] | None = Field(
        None, description="Inline [{text, title?, type?: text | markdown | html, key?}]."
    )
    cypher: str | None = Field(None, description="Inline Cypher script.")


class IndexRequest(_Request):
    namespace: str = Field("default", pattern=NAMESPACE_PATTERN)


class TuneRequest(_Request):
    namespace: str = Field(..., pattern=NAMESPACE_PATTERN)
    minutes: float = Field(30.0, gt=0, le=600)
    """Time budget: pair building, then LoRA training planned to fit the rest."""
    max_pairs: int = Field(2400, ge=8, le=100_000)
    """Training pairs built at most."""
    seed: int = Field(13, ge=0)


class JobResponse(BaseModel):
    """A background job (``POST /admin/tune``): its state and progress, then its result or error."""

    id: str
    namespace: str
    status: Literal["running", "succeeded", "failed", "cancelled"]
    stage: str
    """``starting``, ``pairs``, ``training``, ``installing``, ``done``."""
    done: int
    total: int
    """Progress within the stage (pairs built, training steps)."""
    minutes: float
    started_at: float
    finished_at: float | None = None
    seconds: float
    result: dict[str, Any] | None = None
    error: str | None = None


class IngestResponse(BaseModel):
    request_id: str
    namespace: str
    format: str
    counts: dict[str, int]
    seconds: float


class DocumentInfo(BaseModel):
    id: str
    """The page id: ``DELETE /admin/documents/{id}``; items' provenance carries it as ``page_id``."""
    title: str | None = None
    source: str | None = None
    chunks: int


class DocumentsResponse(BaseModel):
    request_id: str
    namespace: str
    documents: list[DocumentInfo]


class ErrorBody(BaseModel):
    code: str
    message: str
    type: str
    retryable: bool
    request_id: str
    details: Any = None


class ErrorResponse(BaseModel):
    error: ErrorBody
