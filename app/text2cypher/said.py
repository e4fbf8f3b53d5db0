"""Where a question places an entity's name: right after "by" (or another word that says who does something), or
right before a verb (and whether that verb is passive); and the feature that reads it, ``agent_by``: which end of
its relationship the entity a candidate holds at an end of its pattern is. Registered with
:func:`app.text2cypher.features.feature` when ``features`` is imported."""

from __future__ import annotations

import functools
import re

from app.cypher.candidates import CandidateQuery
from app.cypher.shapes import Shape
from app.text import identifier_words, surface
from app.text2cypher.features import FOR, Facts, feature
from app.text2cypher.reading import acts
from app.text2cypher.words import participle, picks, term_words, verb_lemmas


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


@feature("agent_by", FOR)
def agent_by(f: Facts) -> int:
    """For a pattern starting at an entity the question names right after "by" ("posts by paulo66", "questions asked
    by user 'X'", "movies directed by X"; or ending at it, where the pattern starts at every node of a label:
    ``named_end``, of the relationship it ends): +1 where that entity does what the pattern's first relationship
    says (it starts a verb's relationship, ``WROTE``; or ends a passive one, ``DIRECTED_BY``), -1 where it has it done
    to it ("posts that mention paulo66"). 0 for a noun's relationship (``AUTHOR``, ``HAS_GENRE``: which end does it is
    the noun's business) and where no "by" comes before the entity. Likewise the entity named right after "from" or "to"
    (the lexicon's ``away`` and ``toward``) of a relationship named for where it goes or comes from: "transferred from
    X" starts ``TRANSFERRED_TO`` at X, "transferred to X" ends it there (``BOUGHT_FROM`` the other way round). And
    the entity right before the verb of the first relationship (``said_before``): -1 where the pattern has it the
    wrong way round ("how many characters did X kill" has X do it, "X was killed by" has it done to X; a relationship
    that holds both ways is neither), and no +1 the right way, which would favour that relationship over others
    ("what position does X play" asks for no team X plays for)."""
    c, lits = f.candidate, f.lits
    held = named_end(c)
    if held is None:
        return 0
    name, i, at_start = held
    hop, lex = c.hops[i - 1], lits.lex
    entity = i if at_start else i + 1  # the entity's node in hop i (between x{i} and x{i+1})
    starts_hop = (hop.direction == "out") == at_start  # the entity is where the relationship starts
    last = (identifier_words(hop.rel_type).split() or [""])[-1]
    if (last in lex.toward or last in lex.away) and hop.direction in ("out", "in"):
        for words, starts in ((lex.away, last in lex.toward), (lex.toward, last in lex.away)):
            if said_by(f.question, name, tuple(words)):  # "from X" of ``SENT_TO``: X starts it
                return 1 if starts_hop == starts else -1
    if not (lits.match.passive(hop.rel_type) or acts(hop.rel_type, lex)):
        return 0
    if said_by(f.question, name, tuple(lex.passive)):
        return 1 if lits.match.doer(hop, i) == entity else -1
    verb = said_before(f.question, name)  # "how many characters did X kill", "X was killed by whom"
    first = term_words(hop.rel_type)[:1]
    if verb is None or hop.direction == "both" or not first or not verb_lemmas(verb[0]):  # "'X' router": no verb
        return 0
    if not lits.match.names(first[0], verb[0]) or (verb[1] and not lone_verb(hop.rel_type)):
        return 0  # "is X headquartered in": X starts ``HEADQUARTERED_IN`` all the same
    # -1 the wrong way round; the right way is no better than another relationship ("what position does X play":
    # ``POSITION``, not ``PLAYS_FOR``)
    return 0 if (lits.match.doer(hop, i) == entity) != verb[1] else -1


def named_end(c: CandidateQuery | Shape) -> tuple[str, int, bool] | None:
    """The entity a candidate's pattern holds at one of its ends, the hop it is an end of and whether it is the start
    of the pattern: the linked entity it starts at, or, for a pattern from every node of a label, the name an
    equality condition holds on its first or last node ("which papers does 'X' cite" as ``(x1)-[:CITES]->(x2)
    WHERE x2.title = 'X'``: X ends the pattern's last hop). None for neither."""
    path = c if isinstance(c, CandidateQuery) else c.path
    if not path.hops:
        return None
    if path.anchor.name is not None:
        return path.anchor.name, 1, True
    if not isinstance(c, Shape):
        return None
    last = len(path.hops) + 1
    for f in c.filters:  # an equality on the display value of the first or last node: a name
        if picks(f) and f.var in (1, last) and f.key == path.node_kind(f.var)[1]:
            return f.value, 1 if f.var == 1 else last - 1, f.var == 1
    return None


def lone_verb(rel: str) -> bool:
    """Whether a relationship type is a verb alone (``KILLED``, not ``HEADQUARTERED_IN``): said in the passive, its
    subject is the node it points to ("X was killed"); a verb with its preposition reads as the state of its start
    ("X is headquartered in", "who was born in")."""
    return len(identifier_words(rel).split()) == 1
