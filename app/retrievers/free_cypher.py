"""Free text2cypher baseline: the schema in the prompt, the LLM writes a query, the service extracts and checks it.

The query is executed only if it passes the checks (a single read-only statement: no write or admin clause; the
engine's read-only mode refuses anything else anyway) and with a time and row limit; a query that fails is refused
and the response says why. This is the comparison point for the grounded ``text2cypher`` mode (same model).
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from app.cypher import queries as Q
from app.cypher.safety import check_read_only, extract_cypher
from app.errors import AppError, DependencyError
from app.ids import entity_id
from app.llm.base import Message
from app.observability import LLM_TOKENS, TEXT2CYPHER_QUERIES
from app.retrievers.base import ModeConfig, Retriever, RunContext
from app.retrievers.types import CypherTrace, NodeRef, RetrievalQuery, RetrievedItem, Source
from app.stores.graph.base import GraphSchema, GraphStore, NodeValue, plain_rows

SYSTEM = (
    "You translate questions into Cypher queries for a Neo4j graph. Reply with one Cypher query only.\n"
    "Graph schema:\n{schema}\nNodes have a `name` property (movies in some graphs use `title`)."
)
EXAMPLE_Q = "Who acted in The Matrix?"


async def schema_example(graph: GraphStore, namespace: str, schema: GraphSchema) -> tuple[str, str]:
    """A one-shot example in this graph's own vocabulary (its first schema triple and a real node name)."""
    for t in schema.triples:
        rows = await graph.read(namespace, Q.first_display_value(t.source, t.rel_type))
        if rows and rows[0]["v"] is not None:
            name = str(rows[0]["v"])
            words = t.rel_type.lower().replace("_", " ")
            return f"What is {words} for {name}?", Q.one_hop_example(t.source, t.rel_type, t.target, name)
    return EXAMPLE_Q, Q.ONE_HOP_EXAMPLE_FALLBACK


def _display(value: Any) -> str | None:
    if isinstance(value, NodeValue):
        for key in ("name", "title"):
            if key in value.properties:
                return str(value.properties[key])
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
        schema = await self.deps.graph.schema(ns)
        example_q, example_a = await schema_example(self.deps.graph, ns, schema)
        messages: list[Message] = [
            {"role": "system", "content": SYSTEM.format(schema=schema.to_text())},
            {"role": "user", "content": example_q},
            {"role": "assistant", "content": example_a},
            {"role": "user", "content": query.question},
        ]
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
            name = _display(first)
            text = "; ".join(f"{k}: {_display(v) if _display(v) is not None else v}" for k, v in row.items())
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
