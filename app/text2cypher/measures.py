"""What a pattern's answers can be asked, for the shape enumerator (``enumerate_shapes.py``): how many there are,
aggregates and orderings of their numbers (``measures``), the values of their properties and of the relationship
next to them (``attributes``), the most and least common of those values (``commons``), and how many nodes a linked
entity reaches by each relationship type of its label (``schema_counts``). ``either_way``: a relationship that holds
both ways is one hop, not one per stored direction.
"""

from __future__ import annotations

from dataclasses import replace

from app.cypher.candidates import Anchor, CandidateQuery, Hop
from app.cypher.shapes import AGGREGATES, Shape
from app.stores.graph.base import GraphSchema
from app.text2cypher.conditions import said_property
from app.text2cypher.lexicon import Lexicon
from app.text2cypher.profiles import Profiles, Property
from app.text2cypher.question import QuestionLiterals
from app.text2cypher.terms import prop_term
from app.text2cypher.words import kind_nouns, noun_lemmas


def measures(path: CandidateQuery, t: int, profiles: Profiles, ks: list[int | None], timed: bool) -> list[Shape]:
    """How many of node ``x{t}`` there are, aggregates of its numeric properties (and of its last relationship's),
    the top ``k`` by each. ``timed``: the question has a time superlative, and orderings and aggregates of a year are
    read as points in time (``Shape.temporal``)."""
    out = [Shape(path, t, "count")]
    owners: list[tuple[int | None, list[Property]]] = [(None, profiles.ordered(path, t))]
    if path.hops and (path.anchor.name is None or t == len(path.hops) + 1):
        owners.append((len(path.hops), profiles.ordered(path, len(path.hops), edge=True)))
    for on, ordered in owners:
        out += [
            Shape(path, t, "agg", prop=p.key, fn=fn, prop_on=on, temporal=timed and p.temporal, quantity=_quantity(p))
            for p in ordered
            for fn in AGGREGATES
            if not (fn == "sum" and p.temporal)  # a sum of years means nothing
            and (p.kind == "number" or fn in ("min", "max"))  # of dates as text: the earliest and the latest
        ]
        out += [
            Shape(path, t, "top", prop=p.key, fn=d, limit=k, prop_on=on, temporal=timed and p.temporal)
            for p in ordered
            for d in ("DESC", "ASC")
            for k in ks
        ]
    return out


def pinned(
    path: CandidateQuery, profiles: Profiles, lits: QuestionLiterals, ks: list[int | None], timed: bool
) -> list[Shape]:
    """The nodes a linked value names (a categorical one) that the other linked entity of ``path`` pins, listed, the
    first k, measured ("which goalkeepers play for X"; "which passengers with Gold status booked flights of X"); of
    two such values, either's ("which Spanish artists made oil paintings"); of a path no second entity closes, the
    nodes the value names that have its relationship (``holding``)."""
    if path.end is None:
        return holding(path, profiles, lits)
    out: list[Shape] = []
    for t, held in path.linked():
        if profiles.shared(held):
            out += [Shape(path, t, "list"), *(Shape(path, t, "list", limit=k) for k in lits.limits)]
            out += measures(path, t, profiles, ks, timed)
    return out


def holding(path: CandidateQuery, profiles: Profiles, lits: QuestionLiterals) -> list[Shape]:
    """The nodes a linked shared value names that have the path's one relationship, listed and the first k, where a
    word of the question that names no label names that relationship ("which players from APAC are members of a
    guild"; not "which hikers are from New Zealand", whose "hikers" names ``HIKED`` as the hikers' own kind)."""
    if len(path.hops) != 1 or not profiles.shared(path.anchor):
        return []
    kinds = kind_nouns(profiles.labels)
    said = [w for w in lits.words if not noun_lemmas(w) & kinds]
    if not lits.match.named(path.hops[0].rel_type, said):
        return []
    return [Shape(path, 1, "list"), *(Shape(path, 1, "list", limit=k) for k in lits.limits)]


def attributes(
    path: CandidateQuery,
    t: int,
    profiles: Profiles,
    *,
    node: bool = True,
    paired: bool = False,
    lits: QuestionLiterals | None = None,
) -> list[Shape]:
    """The values of node ``x{t}``'s properties (``node``; its display property is what a list returns) and of the
    properties of the relationship next to it (the one that reaches it, or the first one when ``t`` is 1): "the
    birth years of ...", "the roles of Keanu Reeves in The Matrix". ``paired``: also each node with its value ("the
    actors of X and their roles"). The label's id too where the question (``lits``) names it ("the short code of
    X"), and its display property where a linked entity names the node by another of its names ("the full name of
    samir_b", a member's ``handle``)."""
    out: list[Shape] = []
    prof = profiles.of(path, t) if node else None
    if prof is not None:
        # nor the key a linked anchor is pinned by: every value of it is the one the question states
        pinned = {a.key for var, a in path.linked() if var == t}
        ids = [p for p in prof.identifiers if lits is not None and said_property(p, lits)]
        # the display value too of a node the question names by another of its names ("the full name of samir_b"),
        # or by a code ("which condition has the code I48"), not by a number
        named = pinned - {prof.key, *prof.categorical, *(p.key for p in prof.identifiers if p.kind == "number")}
        out += [
            Shape(path, t, "attr", prop=p.key, listed=p.kind == "list", quantity=_quantity(p), temporal=p.temporal)
            for p in [*prof.properties, *ids]
            if (p.key != prof.key or named) and p.key not in pinned
        ]
    if path.hops:
        on = t - 1 if t >= 2 else 1
        rel = profiles.of(path, on, edge=True)
        out += [
            Shape(
                path,
                t,
                "attr",
                prop=p.key,
                prop_on=on,
                listed=p.kind == "list",
                quantity=_quantity(p),
                temporal=p.temporal,
            )
            for p in (rel.properties if rel else [])
        ]
    return out + [replace(s, paired=True) for s in out] if paired else out


def _quantity(p: Property) -> bool:
    """Numbers that measure and are no point in time (``Shape.quantity``)."""
    return p.kind == "number" and not p.reference and not p.temporal


def value_counts(path: CandidateQuery, t: int, profiles: Profiles, lits: QuestionLiterals) -> list[Shape]:
    """How many different values of ``attributes``' properties there are, where the question asks how many and one
    of its head words names the property ("how many different countries are the suppliers from":
    ``count(DISTINCT x1.country)``, not the suppliers). A list property's values are not counted so."""
    if not lits.asks_count:
        return []
    return [
        replace(a, kind="count")
        for a in attributes(path, t, profiles)
        if not a.listed
        and (lits.asks_variety or not a.quantity)  # "how many pages": the number, not how many different ones
        and a.prop
        and lits.match.named(prop_term(a), lits.heads)
    ]


def schema_counts(schema: GraphSchema, profiles: Profiles, anchor: Anchor, lex: Lexicon) -> list[Shape]:
    """How many nodes the linked entity is linked to by each relationship type its label takes part in (the
    schema's, not only the ones this entity has: a count of none is an answer)."""
    labels = profiles.labels
    hops: dict[Hop, None] = {}
    for t in schema.triples:
        if t.source == anchor.label and t.target in labels:
            hops[Hop(t.rel_type, "out", t.target, labels[t.target].key)] = None
        if t.target == anchor.label and t.source in labels:
            hops[Hop(t.rel_type, "in", t.source, labels[t.source].key)] = None
    return [Shape(CandidateQuery(anchor, (h,)), 2, "count") for h in either_way(list(hops), anchor.label, lex)]


def commons(
    path: CandidateQuery,
    t: int,
    profiles: Profiles,
    ks: list[int | None],
    order: str | None,
    *,
    frequency: bool = False,
) -> list[Shape]:
    """The most and least frequent values of ``attributes``' properties, all of them in that order ("the most common
    roles in X") or the first ``k`` ("the 3 most common taglines", "the most common tagline"); a list property's
    elements counted one by one. ``order``: the direction the question asks for, when it says one (else both). Of
    properties whose values repeat (``Property.repeats``): where each node has its own, each value occurs once, and
    that is an answer only where the question asks how often (``frequency``: "the 3 most common taglines"); never of
    an id (``Property.reference``)."""
    limits: list[int | None] = list(dict.fromkeys([None, *ks]))
    directions = [order] if order is not None else ["DESC", "ASC"]
    return [
        replace(a, kind="common", fn=d, limit=k)
        for a in attributes(path, t, profiles)
        if _repeats(a, profiles, frequency)
        for d in directions
        for k in limits
    ]


def _repeats(a: Shape, profiles: Profiles, frequency: bool) -> bool:
    """Whether the property an ``attr`` shape reads has values that repeat (unknown: yes), or, asked how often, is
    no id."""
    on = a.prop_on if a.prop_on is not None else a.target
    prof = profiles.of(a.path, on, edge=a.prop_on is not None)
    found = next((p for p in prof.properties if p.key == a.prop), None) if prof is not None else None
    return found is None or found.repeats or (frequency and not found.reference)


def either_way(hops: list[Hop], kind: str, lex: Lexicon) -> list[Hop]:
    """``hops`` leaving a node of label ``kind``, where a relationship type that holds both ways (``COLLABORATED_WITH``:
    ``Lexicon.reciprocal_type``) between two nodes of that kind is one hop either way, not one per stored direction
    ("the artists who collaborated with X" are those X collaborated with, and those who collaborated with X)."""
    out: list[Hop] = []
    for h in hops:
        if kind and h.label == kind and h.direction != "both" and lex.reciprocal_type(h.rel_type):
            h = replace(h, direction="both")
        if h not in out:
            out.append(h)
    return out
