"""Checks on Cypher that a model wrote freely (the ``free_cypher`` baseline): find the query in a reply, and refuse
anything that is not a single read-only statement. The engine's read-only mode refuses writes anyway; this check
says why before the query reaches it."""

from __future__ import annotations

import re

_FORBIDDEN = re.compile(
    r"\b(CREATE|MERGE|DELETE|DETACH|SET|REMOVE|DROP|LOAD\s+CSV|FOREACH|CALL\s*\{|CALL\s+(?!db\.))\b", re.IGNORECASE
)
_START = re.compile(r"\b(MATCH|OPTIONAL\s+MATCH|WITH|UNWIND|RETURN)\b", re.IGNORECASE)
_LITERAL = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|`[^`]*`|//[^\n]*|/\*.*?\*/", re.DOTALL)
"""A string, a quoted name or a comment: text, not clauses ("Create graph from JSON" is a title, not a write)."""


def _masked(query: str) -> str:
    """The query with every string, quoted name and comment blanked out, at the same offsets."""
    return _LITERAL.sub(lambda m: " " * len(m.group()), query)


def extract_cypher(text: str) -> str | None:
    """The query in a model reply: a fenced block if any, else from the first MATCH/WITH/... to the end of that
    paragraph; in either, up to the first ``;``."""
    fenced = re.search(r"```(?:cypher)?\s*(.*?)```", text, re.DOTALL | re.IGNORECASE)
    body = fenced.group(1) if fenced else text
    m = _START.search(body)
    if m is None:
        return None
    query = body[m.start() :].strip()
    code = _masked(query)
    ends = [code.find(";")]  # the first statement: a ";" inside a string ends nothing
    if not fenced:  # an unfenced query is one paragraph: the prose a model writes after it is no Cypher
        gap = re.search(r"\n\s*\n", code)
        ends.append(gap.start() if gap else -1)
    end = min((e for e in ends if e >= 0), default=-1)
    query = (query if end < 0 else query[:end]).strip()
    return query or None


def check_read_only(query: str) -> str | None:
    """Why a query is refused, or None when it may run."""
    code = _masked(query)
    m = _FORBIDDEN.search(code)
    if m:
        return f"write or procedure clause {m.group(1).upper()!r} is not allowed"
    if not re.search(r"\bRETURN\b", code, re.IGNORECASE):
        return "the query returns nothing"
    return None
