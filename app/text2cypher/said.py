"""Where a question places an entity's name: right after "by" (or another word that says who does something), or
right before a verb (and whether that verb is passive). Read by ``asked.agent_by``."""

from __future__ import annotations

import functools
import re

from app.text import surface
from app.text2cypher.words import participle


@functools.lru_cache(maxsize=1024)
def said_before(question: str, name: str) -> tuple[str, bool] | None:
    """The verb the question says right after ``name`` (after "has" / "had", or a form of "be": then passive), and
    whether it is passive: ("kill", False) for "how many characters did X kill", ("killed", True) for "X was killed
    in book 2" and for "who was X killed by" (a form of "be" before the name and a participle after it); None where
    no word follows the name."""
    forms = "|".join(re.escape(n) for n in {name, surface(name)})
    be = "is|are|was|were"
    pattern = (
        rf"(?:\b({be})\s+)?['\"‘“]?(?<!\w)(?:{forms})['\"’”]?\s+(?:(?:has|have|had)\s+)?(?:({be}|been)\s+)?([a-z]+)\b"
    )
    m = re.search(pattern, question, flags=re.IGNORECASE)
    if m is None:
        return None
    verb = m.group(3).lower()
    return verb, m.group(2) is not None or (m.group(1) is not None and participle(verb))


@functools.lru_cache(maxsize=1024)
def said_by(question: str, name: str, agents: tuple[str, ...]) -> bool:
    """Whether the question names ``name`` right after a word of ``agents`` (the lexicon's ``passive``: "by"), two
    words at most between them ("by user 'X'")."""
    forms = "|".join(re.escape(n) for n in {name, surface(name)})
    by = "|".join(re.escape(a) for a in agents)
    pattern = rf"\b(?:{by})\s+(?:\w+\s+){{0,2}}['\"‘“]?(?:{forms})(?!\w)"
    return re.search(pattern, question, flags=re.IGNORECASE) is not None
