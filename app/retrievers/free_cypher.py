"""Free text2cypher baseline: the schema in the prompt, the LLM writes a query, the service extracts and checks it.

The query is executed only if it passes the checks (a single read-only statement: no write or admin clause; the
engine's read-only mode refuses anything else anyway) and with a time and row limit; a query that fails is refused
and the response says why. This is the comparison point for the grounded ``text2cypher`` mode (same model).
"""

from __future__ import annotations

import re
from typing import Any

from app.cypher.candidates import cypher_string
from app.cypher.queries import ident
from app.errors import AppError, DependencyError
from app.ids import entity_id
from app.llm.base import Message
from app.observability import LLM_TOKENS, TEXT2CYPHER_QUERIES
from app.retrievers.base import Retriever, RunContext
from app.retrievers.registry import register
from app.retrievers.types import NodeRef, RetrievalQuery, RetrievedItem, Source
from app.stores.graph.base import GraphSchema, NodeValue

SYSTEM = (
    "You translate questions into Cypher queries for a Neo4j graph. Reply with one Cypher query only.\n"
    "Graph schema:\n{schema}\nNodes have a `name` property (movies in some graphs use `title`)."
)
EXAMPLE_Q = "Who acted in The Matrix?"
EXAMPLE_A = 'MATCH (m:Movie {title: "The Matrix"})<-[:ACTED_IN]-(p:Person) RETURN p.name'


async def schema_example(graph: Any, namespace: str, schema: GraphSchema) -> tuple[str, str]:
    """A one-shot example in this graph's own vocabulary (its first schema triple and a real node name)."""
    for t in schema.triples:
        q = f"MATCH (a:`{ident(t.source)}`)-[:`{ident(t.rel_type)}`]->() RETURN coalesce(a.name, a.title) AS v LIMIT 1"
        rows = await graph.read(namespace, q)
        if rows and rows[0]["v"] is not None:
            name = str(rows[0]["v"])
            words = t.rel_type.lower().replace("_", " ")
            return (
                f"What is {words} for {name}?",
                f"MATCH (a:{t.source} {{name: {cypher_string(name)}}})-[:{t.rel_type}]->(b:{t.target}) RETURN b.name",
            )
    return EXAMPLE_Q, EXAMPLE_A


_FORBIDDEN = re.compile(
    r"\b(CREATE|MERGE|DELETE|DETACH|SET|REMOVE|DROP|LOAD\s+CSV|FOREACH|CALL\s*\{|CALL\s+(?!db\.))\b", re.IGNORECASE
)
_START = re.compile(r"\b(MATCH|OPTIONAL\s+MATCH|WITH|UNWIND|RETURN)\b", re.IGNORECASE)


def extract_cypher(text: str) -> str | None:
    """The query in a model reply: a fenced block if any, else from the first MATCH/WITH/... to the end."""
    fenced = re.search(r"```(?:cypher)?\s*(.*?)```", text, re.DOTALL | re.IGNORECASE)
    body = fenced.group(1) if fenced else text
    m = _START.search(body)
    if m is None:
        return None
    query = body[m.start() :].strip().split(";")[0].strip()
    return query or None


def check_read_only(query: str) -> str | None:
    """Why a query is refused, or None when it may run."""
    m = _FORBIDDEN.search(query)
    if m:
        return f"write or procedure clause {m.group(1).upper()!r} is not allowed"
    if "RETURN" not in query.upper():
        return "the query returns nothing"
    return None


def _display(value: Any) -> str | None:
    if isinstance(value, NodeValue):
        for key in ("name", "title"):
            if key in value.properties:
                return str(value.properties[key])
        return None
    if isinstance(value, str | int | float) and not isinstance(value, bool):
        return str(value)
    return None


@register
class FreeCypherRetriever(Retriever):
    name = "free_cypher"
    description = "Baseline: the LLM writes Cypher from the schema; checked, executed read-only, refused on failure."
    produces_cypher = True

    async def _retrieve(self, query: RetrievalQuery, ctx: RunContext) -> list[RetrievedItem]:
        llm = self.deps.llm
        if llm is None:
            raise DependencyError("llm", "free_cypher needs an answer model")
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
            gen = await llm.generate(
                messages, max_new_tokens=self.settings.text2cypher.free_max_new_tokens, temperature=0.0
            )
        LLM_TOKENS.labels(direction="in", backend=llm.backend).inc(gen.tokens_in)
        LLM_TOKENS.labels(direction="out", backend=llm.backend).inc(gen.tokens_out)
        cypher = extract_cypher(gen.text)
        ctx.trace["generated"] = gen.text
        if cypher is None:
            TEXT2CYPHER_QUERIES.labels(mode=self.name, outcome="refused").inc()
            ctx.trace["cypher"] = {"query": None, "rows": [], "error": "no Cypher in the model's reply"}
            ctx.warnings.append("free_cypher: the model wrote no Cypher query; refused")
            return []
        refusal = check_read_only(cypher)
        if refusal is not None:
            TEXT2CYPHER_QUERIES.labels(mode=self.name, outcome="refused").inc()
            ctx.trace["cypher"] = {"query": cypher, "rows": [], "error": refusal}
            ctx.warnings.append(f"free_cypher: query refused ({refusal})")
            return []
        try:
            with ctx.stage("cypher_execution"):
                rows = await self.deps.graph.read(ns, cypher, max_rows=max(100, query.top_k))
        except AppError as exc:
            TEXT2CYPHER_QUERIES.labels(mode=self.name, outcome="failed").inc()
            ctx.trace["cypher"] = {"query": cypher, "rows": [], "error": exc.message}
            ctx.warnings.append(f"free_cypher: query refused by the engine ({exc.code})")
            return []
        TEXT2CYPHER_QUERIES.labels(mode=self.name, outcome="executed").inc()
        plain = [{k: (v.to_dict() if isinstance(v, NodeValue) else v) for k, v in r.items()} for r in rows]
        ctx.trace["cypher"] = {"query": cypher, "rows": plain, "error": None}
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
