"""The conditions a question's constants allow on a graph's nodes and relationships: a number on a property whose range
holds it (with the comparison the question states), a decade or span on a numeric property, a year on a date held as
text or as Unix time, a divisor, quoted text some value equals (or, where the question says it is part of a value,
starts with, ends with or contains), a property some nodes lack that the question names (or, negated, says is missing),
a boolean property it names (true, or false where negated), zero where a negation governs a count's words, how many
elements a list holds. :func:`filters_for` places them on a shape's nodes.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import replace

from app.cypher.shapes import ABSENT, EXISTS, MOD, NUMBER_OPS, UNLINKED, Filter, Shape, text_match_query
from app.stores.graph.base import GraphStore
from app.stores.graph.profile import identifying_words, year_start
from app.text2cypher.profiles import YEAR_RANGE, Profiles, Property
from app.text2cypher.question import QuestionLiterals
from app.text2cypher.reading import num
from app.text2cypher.terms import own_key
from app.text2cypher.words import term_words

UNIX_EPOCH_YEAR = 1970
"""The year Unix time counts from: no earlier year is a condition on a property held as Unix time."""
_CODE = re.compile(r"(?<![\w'\"-])(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[A-Za-z0-9][\w-]*[A-Za-z0-9](?![\w'\"-])")
"""A code said without quotes: one token of letters and digits ("INV-2024-117", "P-1004", "I48"), which a
relationship may hold (a transfer's reference): a constant as quoted text is. Wider than ``question._CODE`` (parts
joined by hyphens or slashes only, whose digits are no numbers of the question): a code of one part is one here."""


Condition = Filter
"""A condition on no node yet (``var`` 0): ``filters_for`` places it on each node (relationship) it fits."""


Conditions = dict[tuple[str, bool], list[Condition]]


def said_property(p: Property, lits: QuestionLiterals) -> bool:
    """The question names the property by its words (the label's own left out: ``productRef`` by "ref")."""
    return lits.match.named(own_key(p.key, p.label), lits.words)


async def conditions(graph: GraphStore, namespace: str, profiles: Profiles, lits: QuestionLiterals) -> Conditions:
    """Per ``(label, False)`` and ``(relationship type, True)``, the conditions the question's constants allow on
    its nodes (relationships), as filters on no node yet (``filters_for`` places them)."""
    out: Conditions = {}
    # quoted text that linked an entity may also be what a text holds ("'Robin Williams' mentioned in the review
    # summary"); a shape anchored at that entity takes no such condition (_filters_for)
    texts = lits.texts

    async def textops(p: Property, s: str, edge: bool) -> list[Condition]:
        listed = p.kind == "list"
        q = text_match_query(p.label, p.key, edge=edge, is_list=listed)
        rows = await graph.read(namespace, q, {"s": s})
        r = rows[0] if rows else {}
        # quoted text is a whole value ("the user with the display name 'X'") unless the question says it is part
        # of one ("a title containing 'neo4j'", "a name ending in 'son'"; ``lits.partial``), and which part where
        # it says so ("starting with 'x'": its start)
        if s in lits.partial:
            ops = [("STARTS WITH", r.get("starts")), ("ENDS WITH", r.get("ends")), ("CONTAINS", r.get("contains"))]
            ops = [(op, n) for op, n in ops if lits.partial[s] in (None, op)]
        else:
            ops = [("=", r.get("eq"))]
        return [Filter(0, p.key, op, s, listed=listed) for op, n in ops if n]

    years = [int(v) for v in lits.numbers if float(v).is_integer() and YEAR_RANGE[0] <= v <= YEAR_RANGE[1]]
    # a number compared after a measure's word is that measure's, no year ("a PID less than 2000")
    measures = [p for prof in (*profiles.labels.values(), *profiles.rels.values()) for p in prof.numeric()]
    years = [y for y in years if not _of_a_measure(y, measures, lits)]
    elements = [((n, False), prof) for n, prof in profiles.labels.items()]
    elements += [((n, True), prof) for n, prof in profiles.rels.items()]
    for element, prof in elements:
        conds: list[Condition] = []
        # an id is a condition where the question names it ("users with a uuid over 15000000")
        ids = [*(p for p in prof.identifiers if p.kind == "number"), *prof.references()]
        named_ids = [p for p in ids if said_property(p, lits)]
        for p in prof.numeric() + named_ids:
            assert p.lo is not None and p.hi is not None
            spans = [(lo, hi) for lo, hi in lits.ranges if p.lo <= lo <= p.hi and p.lo < hi <= p.hi + 10]
            conds += [Filter(0, p.key, "range", (num(lo), num(hi))) for lo, hi in spans]  # both ends its values
            # the ends of a span the question states on this property bound it together, not each alone ("a view
            # count between 50 and 100" is no view count of 100)
            ends = {
                e for lo, hi in spans for e in (lo, hi - 1 if float(lo).is_integer() and float(hi).is_integer() else hi)
            }
            conds += [
                Filter(0, p.key, op, num(v))
                for v in lits.numbers
                if p.lo <= v <= p.hi and v not in ends
                for op in ops(v, lits)
            ]
            # "less than 20 million" of ``budgetMillions``: the number said, where the key says its scale
            conds += [
                replace(Filter(0, p.key, op, num(number)), stated=v)
                for v, (number, scale) in lits.scaled.items()
                if p.lo <= number <= p.hi and any(w.rstrip("s") == scale for w in term_words(p.key))
                for op in ops(v, lits)
            ]
            if p.whole:
                conds += [Filter(0, p.key, MOD, k) for k in lits.divisors if k <= max(abs(p.lo), abs(p.hi))]
        for p in prof.properties:  # a year said of a date held as text or as Unix time ("asked before 2021")
            if p.kind == "date" or p.epoch is not None:  # Unix time begins in 1970: "1024" is no year of it
                held = [y for y in years if p.epoch is None or y >= UNIX_EPOCH_YEAR]
                conds += [year_filter(p, op, y, lits) for y in held for op in ops(y, lits)]
        # a relationship's value, named without quotes: a categorical one, or a code ("with reference INV-2024-117")
        said = [*texts, *lits.values, *_CODE.findall(lits.said)] if element[1] else texts
        pairs = [(p, s) for p in prof.text() for s in said]
        pairs += [  # an element of a node's list of kinds, likewise ("the employees who know Kubernetes")
            (p, v)
            for p in prof.text()
            if p.kind == "list" and not element[1]
            for v in lits.values
            if v in profiles.listed.get((element[0], p.key), ())
        ]
        found = await asyncio.gather(*(textops(p, s, element[1]) for p, s in pairs))
        conds += [c for group in found for c in group]
        own = stated(prof.properties, lits)
        conds += own
        if not element[1]:  # "questions without an accepted answer": its property, not every answer
            conds += unlinked(element[0], profiles, lits, by_label=not own)
        for p in prof.properties:  # how many elements a list holds ("more than 3 roles")
            if p.kind == "list" and p.hi is not None:
                most = max(2 * p.hi, 10)
                counts = [v for v in lits.numbers if float(v).is_integer() and 0 <= v <= most]
                conds += [Filter(0, p.key, op, num(v), sized=True) for v in counts for op in ops(v, lits)]
        out[element] = conds
    return out


def _of_a_measure(v: float, measures: list[Property], lits: QuestionLiterals) -> bool:
    """Whether the word before number ``v``'s comparison names a number property that is no time ("a PID less than
    2000": no year; "born before 1980", "asked before 2021": years)."""
    word = lits.compared_by.get(v)
    if word is None:
        return False
    named = [p for p in measures if lits.match.named(p.key, [word])]
    return bool(named) and not any(p.temporal for p in named)


def stated(props: list[Property], lits: QuestionLiterals) -> list[Condition]:
    """The conditions the question's words state without a constant: a property some nodes lack is there where
    its words name it ("movies with a tagline") and missing where a negation governs them ("questions without an
    accepted answer"); a boolean property is true ("answers that were accepted") or false ("not accepted", "dead"
    for ``alive``: the lexicon's ``opposites``); a number that can be zero is zero where a negation governs its words
    ("questions with no answers"). A ``reference`` is there (missing) only where the question names (negates) all its
    words but the identifying one ("questions with an accepted answer" for ``accepted_answer_id``; "the questions with
    the most answers" and "answers not accepted" speak of something else)."""
    m, said, negated = lits.match, lits.affirmed, lits.negated
    zero = [p for p in props if p.kind == "bool" or p.partial or (p.kind == "number" and _holds_zero(p))]
    denied = best_named(zero, negated, lits)
    out: list[Condition] = []
    for p in props:
        yes = _named_whole(p.key, said, lits) if p.reference else m.named(p.key, said)
        no = p.key in denied and (not p.reference or _named_whole(p.key, negated, lits))
        if p.kind == "bool":  # "dead" says ``alive`` is false, "not dead" that it is true (the lexicon's opposites)
            yes = yes or _opposed(p.key, negated, lits)
            no = no or _opposed(p.key, said, lits)
            out += [Filter(0, p.key, "=", v) for v, named in ((True, yes), (False, no)) if named]
            continue
        if p.partial:
            out += [Filter(0, p.key, op, None) for op, named in ((EXISTS, yes), (ABSENT, no)) if named]
        if no and p.kind == "number" and _holds_zero(p):
            out.append(Filter(0, p.key, "=", 0))
    return out


def _opposed(key: str, words: list[str], lits: QuestionLiterals) -> bool:
    """Whether a word of ``words`` names the opposite of ``key`` (the lexicon's ``opposites``): "dead" of ``alive``;
    not "resolved" of ``is_resolved``, a word that names the key itself."""
    m = lits.match
    return any(m.named(key, list(lits.lex.opposites.get(w, ()))) and not m.named(key, [w]) for w in words)


def _named_whole(key: str, words: list[str], lits: QuestionLiterals) -> bool:
    """Whether ``words`` name every word of ``key`` but its identifying ones (``profile.identifying_words``): a
    reference's words are one noun phrase for the thing it points to, and a part of it names another thing."""
    own = [w for w in term_words(key) if w not in identifying_words()]
    return bool(own) and all(any(lits.match.names(w, q) for q in words) for w in own)


def unlinked(label: str, profiles: Profiles, lits: QuestionLiterals, *, by_label: bool = True) -> list[Condition]:
    """The relationships a node of ``label`` may lack where a negation governs the words naming them: its type
    ("people who have not reviewed any movie": ``REVIEWED``; "courses with no prerequisites": ``REQUIRES``), else
    (``by_label``: where the negated words state no condition on a property of its own) the label at its other end
    ("questions with no comments": a ``Comment`` linked by any type). The type's words win: "never acted in a movie"
    lacks ``ACTED_IN``, not every relationship with a movie."""
    m, negated = lits.match, lits.negated
    if not negated:
        return []
    ends = [
        (t, d, other)
        for a, t, b in sorted(profiles.links)
        for d, own, other in (("out", a, b), ("in", b, a))
        if own == label
    ]
    by_type = [(t, d, other) for t, d, other in ends if m.named(t, negated)]
    chosen = by_type or [(t, d, other) for t, d, other in ends if by_label and m.named(other, negated)]
    return [Filter(0, t, UNLINKED, (d, other)) for t, d, other in dict.fromkeys(chosen)]


def _holds_zero(p: Property) -> bool:
    return p.lo is not None and p.hi is not None and p.lo <= 0 <= p.hi


def best_named(props: list[Property], words: list[str], lits: QuestionLiterals) -> set[str]:
    """The keys of ``props`` whose words name the most of ``words`` and, among those, leave the fewest of their own
    words unnamed (a measure word such as "count" goes without saying): "questions with no answers" speaks of
    ``answer_count``, not ``accepted_answer_id``; "without an accepted answer" of ``accepted_answer_id``."""
    m = lits.match
    scored: dict[str, tuple[int, int]] = {}
    for p in props:
        own = term_words(p.key)
        covered = sum(1 for q in dict.fromkeys(words) if any(m.names(w, q) for w in own))
        if covered:
            unnamed = sum(1 for w in own if w not in lits.lex.measure and not any(m.names(w, q) for q in words))
            scored[p.key] = (covered, -unnamed)
    best = max(scored.values(), default=None)
    return {k for k, v in scored.items() if v == best}


def ops(v: float, lits: QuestionLiterals) -> tuple[str, ...]:
    """The comparisons a condition with number ``v`` may take: the one the question states, else any of
    ``NUMBER_OPS``; none when the number only says how many answers to give ("the top 5")."""
    if v in lits.ops:
        return (lits.ops[v],)
    return () if v in lits.counts and lits.numbers.count(v) == 1 else NUMBER_OPS


def year_filter(p: Property, op: str, year: int, lits: QuestionLiterals) -> Filter:
    """A comparison with a year on a point in time that is no year itself: a date held as ISO text, compared as
    text (which orders as time does), or Unix time (``Property.epoch``), compared with the time the years begin.
    In 1996 is ``STARTS WITH "1996"`` (Unix time: from the start of 1996 to the start of 1997), after 1996 ``>=``
    the start of 1997, before 1996 ``<`` the start of 1996; a year said with a month (``lits.months``: "in March
    2024") is that month's ("2024-03"). A Unix time's reading says the year as the question did ("before 2021", not
    "< 1609459200"; a date as text "in 2024", not "starting with '2024'"), and the filter counts as a constant the
    question states (``features.constants_used``)."""
    month, said = lits.months.get(float(year), (None, ""))
    when = f"{said} {year}" if said else str(year)
    comparison = _year_comparison(p, op, year, month)
    return replace(comparison, said=f"{lits.lex.op_words.get(op, op)} {when}", stated=float(year))


def _year_comparison(p: Property, op: str, year: int, month: int | None = None) -> Filter:
    def start(y: int, m: int) -> str | int:
        if p.kind == "date":
            return f"{y}-{m:02d}" if month is not None else str(y)
        return year_start(y, p.epoch or 1, m)

    here = (year, month or 1)
    after = (year, month + 1) if month is not None and month < 12 else (year + 1, 1)
    if op == "=":
        if p.kind == "date":
            return Filter(0, p.key, "STARTS WITH", start(*here))
        return Filter(0, p.key, "range", (start(*here), start(*after)))
    if op in (">", "<="):
        return Filter(0, p.key, ">=" if op == ">" else "<", start(*after))
    return Filter(0, p.key, op if op in ("<", ">=") else "<", start(*here))


def filters_for(s: Shape, conditions: Conditions, profiles: Profiles) -> list[Filter]:
    """Conditions on the shape's label-anchored nodes, or on the nodes its path reaches (not on a linked entity, but
    on the nodes a shared value names: "premium listeners from Chile"), and on its relationships."""
    first = 1 if s.anchor.name is None or profiles.shared(s.anchor) else 2
    out = []
    for var in range(first, len(s.hops) + 2):
        label = s.path.node_kind(var)[0]
        out += [replace(c, var=var) for c in conditions.get((label, False), [])]
    for var, hop in enumerate(s.hops, start=1):  # not on a chain's relationships (a list: ``Hop.closure``)
        out += [replace(c, var=var, edge=True) for c in conditions.get((hop.rel_type, True), []) if not hop.closure]
    # a condition on the property the shape aggregates says what the aggregate already says (not on the one it orders
    # by: "the 5 latest movies released before 1985" bounds the ordering's property); quoted text that names the
    # shape's entity is used up ("a tagline mentioning 'speed'" linked Speed Racer: from there, no tagline condition
    # with 'speed' as well); and where the pattern takes a relationship either way between two nodes of one kind, its
    # ends are alike: the answers are x1, and a name x1 itself equals would count or list that one node (the other end
    # is the one named); nor does a count of the nodes one name pins rank anything or pass a threshold (each target
    # reaches that one node: "the top 3 egress routers of data center 'DC1'" are no routers ranked by how many data
    # centers named DC1 contain them)
    pinned = s.path.node_kind(s.target)[1] if any(h.direction == "both" for h in s.hops) else None
    counted = s.path.node_kind(s.other)[1] if s.other is not None else None
    name = (s.anchor.name or "").lower()
    return [
        f
        for f in out
        if f not in s.filters
        and not (f.op == UNLINKED and takes(s, f))
        and not (s.on_prop(f) and (s.kind != "top" or f.op == "="))  # a top by what one value pins orders nothing
        and not (name and isinstance(f.value, str) and (f.value.lower() in name or name in f.value.lower()))
        and not (f.var == s.target and f.key == pinned and f.op == "=" and not f.edge)
        and not (f.var == s.other and f.key == counted and f.op == "=" and not f.edge)
    ]


def takes(s: Shape, f: Filter) -> bool:
    """Whether the shape's pattern takes at node ``x{f.var}`` the relationship that ``UNLINKED`` condition lacks."""
    for i, hop in enumerate(s.hops, start=1):
        if hop.rel_type == f.key and f.var in (i, i + 1):
            leaves = (hop.direction == "out") == (f.var == i)
            if leaves == (f.value[0] == "out"):
                return True
    return False


def negative(f: Filter, lits: QuestionLiterals) -> bool:
    """Whether condition ``f`` states a negation: a node lacks a relationship or a property, a boolean is false, or
    a number is zero that the question does not state ("questions with no answers")."""
    if f.op in (UNLINKED, ABSENT) or f.value is False:
        return True
    return f.op == "=" and isinstance(f.value, int | float) and f.value == 0 and 0 not in lits.numbers


def negates_again(s: Shape, f: Filter, lits: QuestionLiterals) -> bool:
    """Whether ``f`` would be one negation more than the question states (``lits.negations``, at least one) beside
    the shape's: "questions tagged 'neo4j' with no accepted answers" lack an answer or an accepted answer's id, and
    the second says the first again."""
    return negative(f, lits) and sum(negative(g, lits) for g in s.filters) >= max(lits.negations, 1)


def redundant(f: Filter, g: Filter) -> bool:
    """Whether condition ``f`` adds nothing to ``g``, takes the same constant again, or cannot hold beside it: a
    property that has a value condition is there already (and cannot be missing), equals one value only, and once
    bounded on both sides ("a view count between 50 and 100") takes no other bound."""
    if UNLINKED in (f.op, g.op):  # what a node lacks is no constant
        return f == g
    if f.value is not None and type(f.value) is type(g.value) and f.value == g.value:
        return True
    same = (f.var, f.key, f.edge) == (g.var, g.key, g.edge)
    # one value cannot equal two ("tagged with both 'neo4j' and 'cypher'" is two tags, not one of both names)
    both_equal = f.op == g.op == "=" and not (f.listed or f.sized or g.listed or g.sized)
    return same and (bool({EXISTS, ABSENT, "range"} & {f.op, g.op}) or both_equal)


def asked_list(s: Shape, plain: list[Shape], lits: QuestionLiterals) -> bool:
    """A plain list of the kind the question asks for (``lits.kind_head``) with one condition: it takes a second
    whatever the beam keeps ("the vegetarian recipes that take at most 20 minutes": orderings and counts by the
    minutes outscored it there)."""
    if len(s.filters) != 1 or replace(s, filters=()) not in plain or lits.kind_head is None:
        return False
    return lits.match.kind_named(s, s.target, [lits.kind_head])
