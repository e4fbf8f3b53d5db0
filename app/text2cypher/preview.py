"""A query's answers shown in a reading (``modes.text2cypher.answer_examples``; react's unlabelled paths): on a graph
without labels, a few of what a path reaches say what kind of thing it is, which the path's words alone cannot."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.text import surface
from app.text2cypher.lexicon import Lexicon
from app.text2cypher.reading import frames


def example_text(value: object) -> str:
    """An answer as a path's reading shows it (``with_examples``): spoken form, at most 60 characters."""
    return surface(str(value))[:60]


def with_examples(text: str, examples: Sequence[str], lex: Lexicon | None = None) -> str:
    """A path's reading with some of its answers, "directed by of X, such as A, B": on a graph without labels the
    answers say what kind of thing the path reaches (text2cypher's answer preview, react's unlabelled paths)."""
    fr = frames(lex)
    return fr["examples"].format(text=text, examples=fr["list_join"].join(examples)) if examples else text


def answer_of(row: dict[str, Any]) -> Any:
    """A result row's answer: its ``name`` column, else its first (a count, an aggregate, a property value)."""
    return row["name"] if "name" in row else next(iter(row.values()), None)


def example_values(rows: list[dict[str, Any]], k: int) -> list[str]:
    """Up to ``k`` distinct answers of a query's rows (``answer_of``), as text."""
    out: list[str] = []
    for row in rows:
        value = answer_of(row)
        text = example_text(value) if value is not None else ""
        if text and text not in out:
            out.append(text)
            if len(out) == k:
                break
    return out
