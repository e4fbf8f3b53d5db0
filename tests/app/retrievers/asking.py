"""What the tests of the graphs of other schemas share: a question asked of ``/retrieve`` in text2cypher mode, and the
values of the rows its trace holds."""

from __future__ import annotations

from typing import Any

import httpx


async def ask(client: httpx.AsyncClient, namespace: str, question: str) -> dict[str, Any]:
    """The text2cypher trace of ``question`` on ``namespace`` (the request must succeed)."""
    r = await client.post("/retrieve", json={"question": question, "namespace": namespace, "mode": "text2cypher"})
    assert r.status_code == 200, r.text
    trace: dict[str, Any] = r.json()["trace"]
    return trace


def values(trace: dict[str, Any], key: str = "") -> list[Any]:
    """The values of the trace's rows, in order; of a node returned, its ``key`` where one is given."""
    out = [v for row in trace["rows"] for v in row.values()]
    return [v["properties"][key] if isinstance(v, dict) and key else v for v in out]
