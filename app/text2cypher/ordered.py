"""Features of the order a candidate takes its answers in: by a year in the direction a time superlative asks (or,
for a kind with no year of its own, by the numbers of its nodes), an ordering nothing asks for, the opposite
direction to the one asked, a list where a superlative asks for the greatest or least. Registered with
:func:`app.text2cypher.features.feature` when the package is imported.
"""

from __future__ import annotations

from itertools import pairwise

from app.cypher.shapes import Shape
from app.text2cypher.counting import grouped
from app.text2cypher.features import AGAINST, FOR, Facts, feature
from app.text2cypher.question import QuestionLiterals
from app.text2cypher.reading import shape_time_order


@feature("time_order", FOR)
def time_order(f: Facts) -> int:
    """1 for a shape that orders by a year in the direction the question's time superlative asks ("the youngest" is
    the latest birth year first), by the year of the node the superlative qualifies ("the oldest actors" by their own
    birth year, "the director of the oldest movie" by the movie's), or a list of a kind with no time of its own
    that is taken in the order of its numbers (``numbered``: "the 3 most recent comments"); -1 for an ordering by
    another node's year there (not the comments on the latest questions), or by the year of a node other than the
    one the superlative qualifies ("the youngest fan": not by the year the artists a fan follows were formed; a
    graph that keeps an ``age`` orders by it, the lexicon's ``measures`` and ``order``); 0 for a year of death the
    question does not name ("the oldest artist" was born first; the lexicon's ``death``). Not the year's ``max`` /
    ``min``: "which is the oldest book" asks for the book, not its year; but "when did X first hike" asks for the date
    (``lits.asks_when``)."""
    c, lits = f.candidate, f.lits
    if isinstance(c, Shape) and numbered(c, lits):  # "the 3 most recent comments": by their numbers
        return 1
    if isinstance(c, Shape) and c.kind == "agg" and c.temporal and lits.time_order is not None:
        # "when did X first hike" asks for the earliest date itself
        return int(shape_direction(c) == lits.time_order) if lits.asks_when else 0
    if not isinstance(c, Shape) or c.kind != "top" or lits.time_order is None:
        return 0
    if c.prop_on is None:  # "the oldest movie": the movie's year, not its director's
        # "the 3 most recent comments" by their numbers, not by the year of the question they are on
        if lits.by_number and lits.dated is not None and c.temporal:
            return -1 if c.path.node_kind(c.prop_var or c.target)[0] != lits.dated[0] else 0
        noun = [lits.time_noun] if lits.time_noun else []
        said = [v for v in range(1, len(c.hops) + 2) if lits.match.kind_named(c, v, noun)]
        if (c.prop_var or c.target) not in (said or [c.target]):
            return -1 if said and c.temporal else 0  # "the youngest fan": not the year of the artists a fan follows
    if lits.match.dates_death(c.prop or "") and not lits.match.named(c.prop or "", lits.words):
        return 0  # "the oldest artist" was born first, not the first to die ("who died first" names the death)
    return int(shape_time_order(c) == lits.time_order)


def shape_direction(s: Shape) -> str | None:
    """The direction a shape orders or picks in: "DESC" for the greatest first (or ``max``), "ASC" for the least
    (``min``); None for lists, counts and the other aggregates."""
    if s.kind in ("top", "group", "common"):
        return "ASC" if s.fn == "ASC" else "DESC"
    return {"max": "DESC", "min": "ASC"}.get(s.fn or "") if s.kind == "agg" else None


def _ordering(f: Facts) -> str | None:
    """The direction of a shape that orders (or takes a greatest or least), where an ordering by a year in a question
    with a time superlative is ``time_order``'s; None otherwise."""
    c = f.candidate
    if not isinstance(c, Shape) or c.kind == "list":
        return None
    d = shape_direction(c)
    return None if d is None or (c.temporal and f.lits.time_order is not None) else d


@feature("unasked_order", AGAINST)
def unasked_order(f: Facts) -> int:
    """1 for a shape that orders, or takes a greatest or least, where nothing in the question asks for an order: it
    adds an operation and a limit the question does not state. Not the counts of each of something, all of them
    (their order only presents them)."""
    return int(_ordering(f) is not None and not f.lits.orders and not grouped(f.candidate, f.lits))


@feature("opposite_order", AGAINST)
def opposite_order(f: Facts) -> int:
    """1 for a shape that orders in the direction opposite to the one the question asks ("the top 5 actors by number
    of movies": the most first)."""
    d, lits = _ordering(f), f.lits
    return int(d is not None and lits.orders and lits.order is not None and d != lits.order)


@feature("unordered_superlative", AGAINST)
def unordered_superlative(f: Facts) -> int:
    """1 for a list in no order, or its first k, where a superlative asks for the greatest or least ("who directed
    the most movies after 2000": not a list of the directors)."""
    c = f.candidate
    return int(
        isinstance(c, Shape)
        and c.kind == "list"
        and c.having is None
        and f.lits.superlative
        and not numbered(c, f.lits)
    )


def numbered(c: Shape, lits: QuestionLiterals) -> bool:
    """A list of the k of a kind that a time superlative asks for where that kind has no time of its own: taken in
    the order of the numbers that number its nodes (``lits.dated``, ``answer_form``: "the 3 most recent comments")."""
    dated = lits.dated
    return (
        dated is not None
        and lits.by_number
        and c.kind == "list"
        and c.limit is not None
        and c.path.node_kind(c.target)[0] == dated[0]
    )


@feature("counted_measure", AGAINST)
def counted_measure(f: Facts) -> int:
    """1 for a ranking by how many of a kind each answer is linked to (or by how many hold each value: "the most
    common ...") where the question's superlative is an adjective of a measure (a word of the lexicon's ``measures``
    that is one of its ``order`` words: "the lightest product" compares weights, "the longest trail" lengths, "the 3
    most expensive acquisitions" prices) and no word says what is counted ("the most shipments", "the largest number
    of airports": ``most_noun``)."""
    c, lits = f.candidate, f.lits
    counts = isinstance(c, Shape) and ((c.kind == "group" and not c.prop) or c.kind == "common")
    if not counts or lits.most_noun is not None:
        return 0
    lex, said = lits.lex, lits.said.lower().split()
    after = {b for a, b in pairwise(said) if a in lex.count_words}  # "the most expensive"
    ordering = {w for ws in lex.order_words.values() for w in ws}
    return int(any(w in lex.measures and (w in after or w in ordering) for w in said))
