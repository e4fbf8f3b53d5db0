"""Free text2cypher baseline: the schema in the prompt, the LLM writes a query, the service extracts and checks it.

The query is executed only if it passes the checks (a single read-only statement: no write or admin clause; the
engine's read-only mode refuses anything else anyway) and with a time and row limit; a query that fails is refused
and the response says why. This is the comparison point for the grounded ``text2cypher`` mode (same model).
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import Field

from app.cypher import queries as Q
from app.cypher.queries import is_ident
from app.cypher.safety import check_read_only, extract_cypher
from app.errors import AppError, DependencyError
from app.ids import entity_id
from app.llm.base import Message
from app.observability import LLM_TOKENS, TEXT2CYPHER_QUERIES
from app.retrievers.base import ModeConfig, Retriever, RunContext
from app.retrievers.types import CypherTrace, NodeRef, RetrievalQuery, RetrievedItem, Source
from app.stores.graph.base import GraphStore, NodeValue, plain_rows
from app.stores.graph.profile import PropertyProfile, SchemaProfile
from app.text import identifier_words as words

SYSTEM = (
    "You translate questions into Cypher queries for a Neo4j graph. Reply with one Cypher query only.\n"
    "Graph schema (each label with its properties, their kinds and sample values; the first property names a node):"
    "\n{schema}"
)


def schema_text(profile: SchemaProfile, max_properties: int = 8) -> str:
    """This graph's schema for the prompt, from its profile: each label's properties (the display property first)
    with their kinds and a sample value, and each relationship type's endpoints and properties."""

    def props(ps: dict[str, PropertyProfile], first: str | None) -> str:
        order = sorted(ps.values(), key=lambda p: (p.key != first, -p.filled, p.key))[:max_properties]
        shown = []
        for p in order:
            sample = f" e.g. {json.dumps(p.samples[0], ensure_ascii=False)[:40]}" if p.samples else ""
            shown.append(f"{p.key}: {p.kind}{sample}")
        return " {" + ", ".join(shown) + "}" if shown else ""

    lines = ["Nodes:"]
    lines += [f"  (:{lp.label}{props(lp.properties, lp.display)})" for lp in profile.labels.values()]
    lines.append("Relationships:")
    for rp in profile.relationships.values():
        for a, b, _ in rp.endpoints[:3]:
            lines.append(f"  (:{a})-[:{rp.type}{props(rp.properties, None)}]->(:{b})")
    return "\n".join(lines)


async def schema_example(graph: GraphStore, namespace: str, profile: SchemaProfile) -> tuple[str, str] | None:
    """A one-shot example in this graph's own vocabulary (its most common relationship between two named labels,
    and a real node's display value), or None: never another graph's."""
    rels = sorted(profile.relationships.values(), key=lambda r: -r.count)
    for rp in rels:
        for a, b, _ in rp.endpoints:
            ka, kb = profile.display(a), profile.display(b)
            if not (ka and kb and is_ident(a) and is_ident(b)):
                continue
            rows = await graph.read(namespace, Q.first_display_value(a, ka, rp.type))
            value = rows[0]["v"] if rows else None
            if isinstance(value, str | int) and not isinstance(value, bool):
                question = f"What is {words(rp.type)} for {value}?"
                return question, Q.one_hop_example(a, ka, rp.type, b, kb, value)
    return None


def _display(value: Any, profile: SchemaProfile | None = None) -> str | None:
    if isinstance(value, NodeValue):
        key = profile.display_of(value.labels) if profile is not None else None
        for k in ([key] if key else []) + (list(profile.display_keys()) if profile is not None else []):
            if k in value.properties:
                return str(value.properties[k])
        return None
    if isinstance(value, str | int | float) and not isinstance(value, bool):
        return str(value)
    return None


class FreeCypherConfig(ModeConfig):
    max_new_tokens: int = Field(128, ge=8, le=1024)
    """Generation budget of the query."""


class FreeCypherTrace(CypherTrace):
    generated: str | None = None
    """The model's whole reply (the query is extracted from it)."""


class FreeCypherRetriever(Retriever[FreeCypherConfig, FreeCypherTrace]):
    answers_with_nodes = True
    name = "free_cypher"
    description = "Baseline: the LLM writes Cypher from the schema; checked, executed read-only, refused on failure."
    Config = FreeCypherConfig
    Trace = FreeCypherTrace

    async def _retrieve(self, query: RetrievalQuery, ctx: RunContext[FreeCypherTrace]) -> list[RetrievedItem]:
        llm, trace = self.deps.llms.answer, ctx.trace  # the untuned model: this is the baseline
        if llm is None:
            raise DependencyError("llm", "free_cypher needs a language model")
        ns = query.namespace
        profile = await self.deps.linker.profiler.get(ns)
        example = await schema_example(self.deps.graph, ns, profile)
        messages: list[Message] = [{"role": "system", "content": SYSTEM.format(schema=schema_text(profile))}]
        if example is not None:
            messages += [{"role": "user", "content": example[0]}, {"role": "assistant", "content": example[1]}]
        messages.append({"role": "user", "content": query.question})
        with ctx.stage("decoding"):
            gen = await llm.generate(messages, max_new_tokens=self.config.max_new_tokens, temperature=0.0)
        LLM_TOKENS.labels(direction="in", backend=llm.backend).inc(gen.tokens_in)
        LLM_TOKENS.labels(direction="out", backend=llm.backend).inc(gen.tokens_out)
        cypher = extract_cypher(gen.text)
        trace.generated = gen.text
        if cypher is None:
            TEXT2CYPHER_QUERIES.labels(mode=self.name, outcome="refused").inc()
            trace.error = "no Cypher in the model's reply"
            ctx.warn("free_cypher: the model wrote no Cypher query; refused")
            return []
        refusal = check_read_only(cypher)
        trace.query = cypher
        if refusal is not None:
            TEXT2CYPHER_QUERIES.labels(mode=self.name, outcome="refused").inc()
            trace.error = refusal
            ctx.warn(f"free_cypher: query refused ({refusal})")
            return []
        try:
            with ctx.stage("cypher_execution"):
                rows = await self.deps.graph.read(ns, cypher, max_rows=max(100, query.top_k))
        except AppError as exc:
            TEXT2CYPHER_QUERIES.labels(mode=self.name, outcome="failed").inc()
            trace.error = exc.message
            ctx.warn(f"free_cypher: query refused by the engine ({exc.code})")
            return []
        TEXT2CYPHER_QUERIES.labels(mode=self.name, outcome="executed").inc()
        trace.rows = plain_rows(rows)
        items: list[RetrievedItem] = []
        seen: set[str] = set()
        for i, row in enumerate(rows):
            first = next(iter(row.values()), None)
            name = _display(first, profile)
            text = "; ".join(
                f"{k}: {_display(v, profile) if _display(v, profile) is not None else v}" for k, v in row.items()
            )
            key = name or text
            if key in seen:
                continue
            seen.add(key)
            node = NodeRef(id=entity_id(name), name=name) if name is not None else None
            items.append(
                RetrievedItem(
                    id=node.id if node else f"row_{i}",
                    text=text,
                    score=1.0 / (1 + i),
                    source=Source(kind="node", node_id=node.id if node else None, node_name=name, namespace=ns),
                    retriever=self.name,
                    node=node,
                    provenance={"query": cypher, "row": i},
                )
            )
        return items
