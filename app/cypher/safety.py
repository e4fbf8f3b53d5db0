"""Checks on Cypher that a model wrote freely (the ``free_cypher`` baseline): find the query in a reply, and refuse
anything that is not a single read-only statement. The engine's read-only mode refuses writes anyway; this check
says why before the query reaches it."""

from __future__ import annotations

import re

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
