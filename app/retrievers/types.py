"""The one result type every retriever returns, the validated query every retriever receives, and the trace models
modes build theirs on (``Trace``; ``CypherTrace`` for modes that answer by running a Cypher query)."""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SerializeAsAny, field_validator

Scalar = str | int | float | bool
FilterValue = Scalar | list[Scalar] | dict[str, float]


RANGE_KEYS = frozenset({"gt", "gte", "lt", "lte"})


def not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("question must not be blank")
    if "\x00" in value:  # no graph engine takes it in a parameter: it would cut the query text short
        raise ValueError("question must not contain a NUL character")
    return value


FILTER_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_.]{0,63}$")


def check_filters(filters: dict[str, FilterValue]) -> dict[str, FilterValue]:
    """Reject malformed filters before any backend sees them (a missing collection would hide the mistake)."""
    for key, value in filters.items():
        if not FILTER_KEY.match(key):
            raise ValueError(f"filter key {key!r}: a payload field name (letters, digits, '_' and '.')")
        if isinstance(value, dict) and (not value or set(value) - RANGE_KEYS):
            raise ValueError(f"filter {key!r}: a range takes only {sorted(RANGE_KEYS)}")
    return filters


class NodeRef(BaseModel):
    """A graph node named by an item, usable as an answer by clients."""

    id: str
    name: str
    labels: list[str] = Field(default_factory=list)


class Source(BaseModel):
    """Where an item comes from."""

    kind: Literal["chunk", "node", "path"]
    title: str | None = None
    """Document title (chunks)."""
    chunk_id: str | None = None
    node_id: str | None = None
    node_name: str | None = None
    namespace: str


class RetrievedItem(BaseModel):
    id: str
    text: str
    score: float
    source: Source
    retriever: str
    node: NodeRef | None = None
    provenance: dict[str, Any] = Field(default_factory=dict)
    """Retriever-specific detail: the Cypher query, the matched pattern, the collection, ..."""


class RetrievalQuery(BaseModel):
    model_config = ConfigDict(str_strip_whitespace=True)

    question: str = Field(min_length=1, max_length=2000)
    namespace: str = "default"
    top_k: int = Field(5, ge=1, le=100)
    filters: dict[str, FilterValue] = Field(default_factory=dict)

    _question = field_validator("question")(not_blank)
    _filters = field_validator("filters")(check_filters)


class CacheHit(BaseModel):
    """Set on a response served from the result cache."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    age_s: float
    """Seconds since the response was computed."""
    lookup_ms: float


class Trace(BaseModel):
    """What a mode did for one query. Every mode declares a subclass (its ``Trace`` class attribute) with documented
    fields, all with defaults; the OpenAPI schema lists them. The base keeps fields it does not know, so a response
    read back from the result cache serialises exactly as it was stored."""

    model_config = ConfigDict(extra="allow", use_attribute_docstrings=True)

    cache: CacheHit | None = None


class ModeTrace(Trace):
    """Base of the modes' own trace models: unknown fields are an error."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


class CypherTrace(ModeTrace):
    """The trace of a mode that answers by running a Cypher query (the eval scores these queries)."""

    query: str | None = None
    """The query whose rows answer (the top-ranked one for grounded modes); None when none was produced."""
    rows: list[dict[str, Any]] = Field(default_factory=list)
    error: str | None = None
    """Why no query ran or why it failed; None when it ran."""
    candidate_queries: int | None = None
    """How many valid candidate queries the question got (grounded modes; None for free generation)."""
    truncated: bool = False
    """The candidate bound cut the enumeration short (grounded modes)."""
    rows_truncated: bool = False
    """The query had more rows than ``rows`` carries (text2cypher's ``answer_rows``)."""


class RetrievalResult(BaseModel):
    retriever: str
    items: list[RetrievedItem]
    timings_ms: dict[str, float] = Field(default_factory=dict)
    warnings: list[str] = Field(default_factory=list)
    """Dependencies that failed while the retriever still returned what it could."""
    trace: SerializeAsAny[Trace] = Field(default_factory=Trace)
