"""The text2cypher prompt the LLM scores candidates under (and ``tune`` trains with)."""

from __future__ import annotations

from app.llm.base import Message
from app.stores.graph.base import GraphSchema

INSTRUCTION = "Write the Cypher query that answers the question."


def build_messages(
    schema: GraphSchema | None, question: str, *, with_schema: bool = True, max_patterns: int = 60
) -> list[Message]:
    """The text2cypher prompt. A fine-tuned adapter is trained without the schema (the candidates already carry
    it, and a short prompt makes CPU training and decoding several times cheaper); the untuned model gets it."""
    system = INSTRUCTION
    if with_schema and schema is not None:
        system += " Graph schema:\n" + "\n".join(t.pattern() for t in schema.triples[:max_patterns])
    return [{"role": "system", "content": system}, {"role": "user", "content": question}]
