"""The one verbaliser: a candidate query read as a question would phrase it, for the cross-encoder to compare with
the question (retrieval) and for ``tune`` to phrase its training questions around.

* :func:`read_path`: a relation path, "release year of movie written by X";
* :func:`reading`: any candidate (an entity-anchored path, a path between two linked entities, a shape);
* :func:`shape_reading`: a shape (``app.cypher.shapes``), with its conditions, threshold, aggregate or ordering;
* ``phrasing.path_question`` and ``phrasing.shape_question``: the questions ``tune`` trains on, these readings in
  frames drawn at random from the lexicon's ``[questions]`` table;

Every word and sentence frame of a reading comes from the lexicon (``[reading]``: its ``frames``, ``directions``,
``ops``, ``having`` and ``aggregates``); a function called without one reads in the bundled default (``en``).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, overload

from lemminflect import getInflection

from app.cypher.candidates import Anchor, CandidateQuery, Direction, goes_back, takes_closure
from app.cypher.shapes import ABSENT, EXISTS, MOD, UNLINKED, Filter, Shape
from app.text import FUNCTION_WORDS, surface
from app.text import identifier_words as words
from app.text2cypher.lexicon import Lexicon
from app.text2cypher.lexicon import load as load_lexicon
from app.text2cypher.words import participle, verb_lemmas

REVERSED: dict[Direction, Direction] = {"out": "in", "in": "out", "both": "both"}
"""A hop's direction seen from its other end."""


def frames(lex: Lexicon | None) -> dict[str, str]:
    return (lex or load_lexicon()).frames


def read_path(start: str, hops: Sequence[tuple[str, Direction, str]], lex: Lexicon | None = None) -> list[str]:
    """A relation path read the way questions phrase it, from its end back to the start: one phrase per prefix
    (``[start, 1 hop, 2 hops, ...]``). ``hops`` are ``(relation, direction, kind of the nodes reached)``:

    * ``X -directed_by-> ?`` is "directed by of X"; ``X <-written_by- ?`` is "movie written by X" (the kind of the
      reached nodes, "entity" when unknown); nested hop by hop: "release year of movie written by X"; a verb's
      (``acts``) ``X -acted_in-> ?`` is "movie that X acted in";
    * a hop either way (``both``) reads as one entering: "artist collaborated with X";
    * a hop that turns straight back along the relation it came by reads as sharing: ``X -r-> v <-r- ?`` is "other
      movie with the same r as X" (of a verb's: "other person that acted in the same movie as X"), ``X <-r- v -r->
      ?`` is "other person r of the same movie as X" (not twice in a row: the second turn-back reads as a plain
      hop).
    """
    fr = frames(lex)
    phrases = [start]
    shared = False
    for i, (name, d, kind) in enumerate(hops):
        what, rel = kind or fr["unknown_kind"], words(name)
        back = i > 0 and not shared and hops[i - 1][0] == name and goes_back(hops[i - 1][1], d)
        between = (hops[i - 1][2] or fr["unknown_kind"]) if back else ""  # the kind of the node both ends share
        if back and d == "in" and acts(name, lex):  # "other researcher that wrote the same paper as X"
            phrase = fr["same_deed"].format(what=what, rel=rel, between=between, of=phrases[-2])
        elif back and d == "in":
            phrase = fr["same"].format(what=what, rel=rel, of=phrases[-2])
        elif back:
            phrase = fr["same_of"].format(what=what, rel=rel, between=between, of=phrases[-2])
        elif d == "out" and acts(name, lex):  # "movie that Tom Hanks acted in", not "acted in of Tom Hanks"
            phrase = fr["deed"].format(what=what, rel=rel, of=phrases[-1])
        elif d == "out":
            phrase = fr["of"].format(rel=rel, of=phrases[-1])
        else:  # "in", or "both": "artist collaborated with X"
            phrase = fr["by"].format(what=what, rel=rel, of=phrases[-1])
        phrases.append(phrase)
        shared = back
    return phrases


def acts(rel: str, lex: Lexicon | None = None) -> bool:
    """Whether a relationship type is a verb in the past or third person, on its own or with its prepositions
    (``WROTE``, ``ACTED_IN``, ``DEPENDS_ON``): what it points to is what its start did it to, "post that X wrote".
    Not a noun (``HAS_GENRE``, ``PLACE_OF_BIRTH``: "genre of X"), nor a verb's plain form (``REPLY_TO``), nor a
    passive (``DIRECTED_BY``: its end did it; ``BORN_IN``, a participle and no past tense), nor a state (the
    lexicon's ``states``: ``LOCATED_IN``; ``lex``: the question's lexicon, the bundled default where None)."""
    return _acts(rel, lex or load_lexicon())


@functools.lru_cache(maxsize=4096)
def _acts(rel: str, lex: Lexicon) -> bool:
    verb, *rest = words(rel).split() or [""]
    lemmas = verb_lemmas(verb)
    if not lemmas or verb in lemmas or verb in lex.states or not all(w in FUNCTION_WORDS for w in rest):
        return False
    past = {f for v in lemmas for f in getInflection(v, "VBD")}  # "born" is no past tense: "X born in" is no deed
    return not any(w in lex.passive for w in rest) and (verb in past or not participle(verb))


def relation_text(rel: str, direction: Direction, target_kind: str = "", lex: Lexicon | None = None) -> str:
    """A relation seen from its source node, in words (``in``: ``is <rel> of``), with the target's kind."""
    said = words(rel) if direction != "in" else frames(lex)["is_of"].format(rel=words(rel))
    return with_kind(said, target_kind, lex)


def with_kind(text: str, kind: str, lex: Lexicon | None = None) -> str:
    """``text (kind)``, or ``text`` when the kind is unknown."""
    return frames(lex)["kind"].format(text=text, kind=kind) if kind else text


def num(v: float) -> float | int:
    return int(v) if float(v).is_integer() else v


def _value_text(v: object) -> str:
    return f"'{v}'" if isinstance(v, str) else str(num(float(v))) if isinstance(v, int | float) else str(v)


def with_article(noun: str, lex: Lexicon | None = None) -> str:
    """``award`` → "an award", ``tagline`` → "a tagline"."""
    fr = frames(lex)
    return fr["article_vowel" if noun[:1] in fr["vowels"] else "article"].format(noun=noun)


def filter_reading(f: Filter, kind: str, lex: Lexicon) -> str:
    """``kind``: the words of the node's label (of the relationship's type for a condition on a relationship)."""
    fr = lex.frames
    prop = fr["sized"].format(prop=words(f.key)) if f.sized else words(f.key)
    if f.said is not None:
        return fr["said"].format(kind=kind, prop=prop, said=f.said)
    if f.op == EXISTS:
        return fr["has"].format(kind=kind, has=with_article(prop, lex))
    if f.op == ABSENT:
        return fr["lacks"].format(kind=kind, op=lex.op_words[ABSENT], has=with_article(prop, lex))
    if f.op == UNLINKED:  # "course not requires any course", "movie not reviewed by any person"
        direction, other = f.value
        said = lex.op_words[UNLINKED if direction == "out" else f"{UNLINKED} BY"]
        said = said.format(rel=prop, other=words(other) if other else "")
        return fr["unlinked"].format(kind=kind, said=said).rstrip()
    if isinstance(f.value, bool):
        return fr["flag"].format(kind=kind, flag=flag_text(f.key, f.value, lex))
    if f.op == MOD:
        return fr["divisible"].format(kind=kind, prop=prop, value=_value_text(f.value))
    if f.op == "range":
        lo, hi = f.value
        hi = _value_text(hi - 1 if float(hi).is_integer() else hi)
        return fr["between"].format(kind=kind, prop=prop, lo=_value_text(lo), hi=hi)
    return fr["compared"].format(kind=kind, prop=prop, op=lex.op_words.get(f.op, f.op), value=_value_text(f.value))


def flag_text(key: str, value: bool, lex: Lexicon) -> str:
    """A boolean property's value in words: ``is_accepted`` true is "is accepted", false "is not accepted" (the
    negation after the verb a name opens with, the lexicon's ``copulas``; before the name otherwise: "not active")."""
    ws = words(key).split()
    if value:
        return " ".join(ws)
    k = 1 if ws[:1] and ws[0] in lex.copulas else 0
    return " ".join([*ws[:k], lex.op_words["NOT"], *ws[k:]])


def anchor_text(anchor: Anchor, kind: str = "", lex: Lexicon | None = None) -> str:
    """A linked anchor in words: its value ("Tom Hanks"), or where the value is one of a property many nodes share
    or of a name other than the display one (``Anchor.display``), the nodes holding it: "professor with rank
    Associate", not "Associate" (what a cross-encoder would read as a professor's name)."""
    name = surface(anchor.name or "")
    if not anchor.display or anchor.display == anchor.key:
        return name
    fr = frames(lex)
    held = "".join(fr["and_held"].format(key=words(k), value=surface(v)) for k, v in anchor.also)
    return fr["anchor_held"].format(kind=kind or words(anchor.label), key=words(anchor.key), name=name, held=held)


def node_reading(path: CandidateQuery | Shape, target: int, lex: Lexicon | None = None) -> str:
    """The pattern's node ``x{target}`` in words: "person", "person produced a movie", "movie acted in by X"."""
    fr = frames(lex)
    if not isinstance(path, CandidateQuery):  # a shape: its pattern, and the relationships it adds
        s, path = path, path.path
        if s.also:
            hop = path.hops[0]
            rel = fr["and"].join(words(t) for t in (hop.rel_type, *s.also))
            return node_reading(CandidateQuery(path.anchor, (replace(hop, rel_type=rel),)), target, lex)
    if path.end is not None and len(path.hops) == 2 and target == 2:  # what two linked entities share
        return join_reading(path, lex)
    kinds = [words(path.node_kind(i)[0]) for i in range(1, len(path.hops) + 2)]
    if path.end is not None and target in (1, len(path.hops) + 1):  # the nodes a linked value names that the other
        return pinned_reading(path, target, kinds, lex)  # one pins
    if path.anchor.name is not None and target == 1 and path.hops:  # the anchor's nodes ("each student from X")
        return with_kind(anchor_text(path.anchor, kinds[0], lex), kinds[0], lex)
    if path.anchor.name is not None:  # up to the target (a node between the entity and the end: "each club ...")
        hops = [(h.rel_type, h.direction, k) for h, k in zip(path.hops, kinds[1:], strict=True)]
        said = read_path(anchor_text(path.anchor, kinds[0], lex), hops, lex)[target - 1]
        return with_kind(said, kinds[target - 1], lex)
    if not path.hops:
        return kinds[0] or fr["unknown_kind"]
    # the pattern read from the end it does not ask for: "user provided a answer" (one hop, the first node asked),
    # "user provided answer answered a question" (a chain)
    if target == 1:  # seen from the other end
        steps: list[tuple[str, Direction, str]] = [
            (h.rel_type, REVERSED[h.direction], k)
            for h, k in zip(reversed(path.hops), reversed(kinds[:-1]), strict=True)
        ]
        return with_kind(read_path(fr["some"].format(kind=kinds[-1]), steps, lex)[-1], kinds[0], lex)
    ahead = [(h.rel_type, h.direction, k) for h, k in zip(path.hops, kinds[1:], strict=True)]
    return with_kind(read_path(fr["some"].format(kind=kinds[0]), ahead, lex)[-1], kinds[-1], lex)


def pinned_reading(path: CandidateQuery, target: int, kinds: Sequence[str], lex: Lexicon | None = None) -> str:
    """One linked entity's nodes seen from the other across the relationships between them: "player with
    position Goalkeeper plays for Kingsbury Athletic (player)"; "passenger booked operates of Pacifica Airlines:
    passenger with loyalty tier Gold (passenger)" (two)."""
    assert path.end is not None
    fr = frames(lex)
    first = target == 1
    ends = (path.anchor, path.end) if first else (path.end, path.anchor)
    kind = kinds[target - 1]
    this, other = anchor_text(ends[0], kind, lex), anchor_text(ends[1], kinds[-1 if first else 0], lex)
    if len(path.hops) > 1:  # read from the other entity along the path
        steps: list[tuple[str, Direction, str]] = (
            [
                (h.rel_type, REVERSED[h.direction], k)
                for h, k in zip(reversed(path.hops), reversed(kinds[:-1]), strict=True)
            ]
            if first
            else [(h.rel_type, h.direction, k) for h, k in zip(path.hops, kinds[1:], strict=True)]
        )
        return with_kind(fr["pinned_path"].format(path=read_path(other, steps, lex)[-1], this=this), kind, lex)
    rel = words(path.hops[0].rel_type)
    leaves = (path.hops[0].direction == "out") == (target == 1)  # the relationship leaves the nodes asked for
    said = fr["fact"] if leaves else fr["pinned_enters"]
    return with_kind(said.format(a=this, rel=rel, b=other), kind, lex)


def shape_time_order(s: Shape) -> str | None:
    """The direction a shape takes a year in: "DESC" for the latest first (an ordering, or ``max``), "ASC" for the
    earliest; None when its property is no year or it does not order or pick by it."""
    if not s.temporal:
        return None
    if s.kind == "top":
        return "ASC" if s.fn == "ASC" else "DESC"
    return {"max": "DESC", "min": "ASC"}.get(s.fn or "") if s.kind == "agg" else None


def held_reading(path: CandidateQuery, lex: Lexicon | None = None) -> str:
    """The nodes a linked value names that have the pattern's relationships ("which players from APAC are members
    of a guild"): "player with region APAC member of a guild (player)"."""
    kind = words(path.node_kind(1)[0])
    plain = node_reading(replace(path, anchor=replace(path.anchor, name=None)), 1, lex)
    held = anchor_text(path.anchor, kind, lex)
    if kind and plain.startswith(kind + " "):
        return held + plain[len(kind) :]
    return frames(lex)["held"].format(held=held, plain=plain)


def shape_reading(s: Shape, lex: Lexicon) -> str:
    fr = lex.frames
    held = s.kind == "list" and s.anchor.name is not None and s.target == 1 and s.hops and s.path.end is None
    base = held_reading(s.path, lex) if held else node_reading(s, s.target, lex)
    conds = [
        filter_reading(f, words(s.hops[f.var - 1].rel_type if f.edge else s.path.node_kind(f.var)[0]), lex)
        for f in s.filters
    ]
    where = fr["conditions"].format(conditions=fr["and"].join(conds)) if conds else ""
    if s.having is not None:
        other = words(s.path.node_kind(s.other or 1)[0]) or fr["unknown_kind"]
        where += fr["having"].format(qty=lex.having_words[s.having[0]], n=s.having[1], other=other)
    prop = words(s.prop or "")
    if s.prop_on is not None:
        prop = fr["qualified"].format(by=words(s.hops[s.prop_on - 1].rel_type), prop=prop)
    elif s.prop_var is not None:
        prop = fr["qualified"].format(by=words(s.path.node_kind(s.prop_var)[0]) or fr["linked"], prop=prop)
    way = lex.directions["DESC" if s.fn == "DESC" else "ASC"]
    body = base + where  # the nodes asked for, with their conditions

    def said(frame: str, **more: Any) -> str:  # the shape in one of the lexicon's frames
        return fr[frame].format(**(way | {"base": body, "prop": prop, "limit": s.limit} | more))

    if s.kind == "list":
        return said("list_k") if s.limit else body
    if s.kind == "attr":
        if s.path.end is not None:  # a relationship between two linked entities: "Keanu Reeves acted in The Matrix"
            hop = s.hops[0]
            a, b = anchor_text(s.anchor, lex=lex), anchor_text(s.path.end, lex=lex)
            ends = {"a": a, "b": b} if hop.direction == "out" else {"a": b, "b": a}
            body, prop = fr["fact"].format(rel=words(hop.rel_type), **ends) + where, words(s.prop or "")
        if s.paired:  # the answers' own values, or (``prop_var``) the linked entity's beside them
            return said("paired_linked" if s.prop_var is not None else "paired")
        return fr["of"].format(rel=prop, of=body)
    if s.kind == "count":  # how many answers, or how many different values of a property of theirs
        return said("count_values" if s.prop else "count")
    if s.kind == "common":
        common = lex.directions["ASC" if s.fn == "ASC" else "DESC"]["common"]
        return said("common_k" if s.limit is not None else "common", most=common)
    order = shape_time_order(s)
    if s.is_staged:  # "tagged of a question (tag) of the 3 question with the lowest view count"
        v = s.ordered_by() or s.target
        own, kind = words(s.prop or ""), words(s.path.node_kind(v)[0]) or fr["unknown_kind"]
        if s.kind == "group":  # "tagged of a question (tag), of the 3 question with the most comment"
            if s.other == len(s.hops) + 1:  # counted past the ranked end: the pattern up to it
                body = node_reading(replace(s, path=CandidateQuery(s.anchor, s.hops[:-1])), s.target, lex) + where
            return said("staged_count", kind=kind, most_of=_most_of(s, lex))
        if order is not None:
            when, rest = _time_superlative(order, lex)
            return said("staged_time", kind=kind, prop=own, when=when, rest=rest)
        return said("staged", kind=kind, prop=own)
    if order is not None:  # a year: "the latest born: the youngest, newest"
        when, rest = _time_superlative(order, lex)
        return said("top_time" if s.kind == "top" else "time", when=when, rest=rest)
    if s.kind == "agg":
        return said("aggregate", agg=lex.aggregate_words.get(s.fn or "", s.fn))
    if s.kind == "top":  # "the most roles: the longest roles lists"
        return said("top_sized" if s.sized else "top")
    agg = lex.aggregate_words.get(s.agg, s.agg)
    if s.limit is None:  # every one of them, each with its count or measure ("how many tracks per genre")
        measure = (
            fr["different"].format(prop=prop)
            if s.prop and s.distinct
            else fr["measure"].format(agg=agg, prop=prop)
            if s.prop
            else fr["number_of"].format(kind=words(s.path.node_kind(s.other or 1)[0]) or fr["unknown_kind"])
        )
        return said("each", measure=measure)
    if s.prop and s.distinct:
        return said("top_distinct")
    if s.prop:
        return said("top_aggregate", agg=agg)
    return said("top_count", most_of=_most_of(s, lex))


def _most_of(s: Shape, lex: Lexicon) -> str:
    """How a reading says a ``group``'s count: "most movie: the highest number of movie" (``DESC``) or "fewest ...:
    the lowest number of ..." of its ``other`` node's kind (the lexicon's ``most_of``)."""
    other = words(s.path.node_kind(s.other or 1)[0]) or lex.frames["unknown_kind"]
    return lex.frames["most_of"].format(**lex.directions["DESC" if s.fn == "DESC" else "ASC"], other=other)


def _time_superlative(order: str, lex: Lexicon) -> tuple[str, str]:
    """How a reading says a year's direction: "latest" (``DESC``) or "earliest", and the lexicon's other time
    superlatives of that direction ("youngest, newest, most recent")."""
    when = lex.directions["DESC" if order == "DESC" else "ASC"]["when"]
    return when, lex.frames["list_join"].join(w for w in lex.time_words[order] if w != when)


@overload
def spelled(c: CandidateQuery, lex: Lexicon) -> CandidateQuery: ...
@overload
def spelled(c: Shape, lex: Lexicon) -> Shape: ...
def spelled(c: CandidateQuery | Shape, lex: Lexicon) -> CandidateQuery | Shape:
    """The candidate as a reading or a tune question words it: a hop along a chain says so after its relationship's
    words ("reports to indirectly"; the lexicon's ``closure_reading``)."""
    if not lex.closure_reading or not takes_closure(c.hops):
        return c
    return _unchained(c, lex.closure_reading)


def _unchained(c: CandidateQuery | Shape, said: str) -> CandidateQuery | Shape:
    """The candidate with each hop along a chain made a single hop, ``said`` after its relationship's words (nothing
    where it is empty)."""
    path = c.path if isinstance(c, Shape) else c
    hops = tuple(replace(h, rel_type=f"{h.rel_type} {said}".rstrip(), closure=0) if h.closure else h for h in path.hops)
    return replace(c, path=replace(path, hops=hops)) if isinstance(c, Shape) else replace(c, hops=hops)


def reading(c: CandidateQuery | Shape, lex: Lexicon) -> str:
    """The candidate's path as a question would phrase it (``read_path``), with the kind of the
    answer: "release year of entity written by Kismet", "person directed by of Kismet (person)"; a shape as
    ``shape_reading`` reads it; a path that takes a chain of a relationship says so after it all (the lexicon's
    ``closure_after``: "disease subtype of cancer (disease) at any level, directly or indirectly")."""
    if lex.closure_after and takes_closure(c.hops):
        return f"{_reading(_unchained(c, ''), lex)} {lex.closure_after}"
    return _reading(spelled(c, lex), lex)


def _reading(c: CandidateQuery | Shape, lex: Lexicon) -> str:
    if isinstance(c, Shape):
        return shape_reading(c, lex)
    name = anchor_text(c.anchor, lex=lex)
    kinds = [words(h.label) if h.label else "" for h in c.hops]
    if c.end is None:
        hops = [(h.rel_type, h.direction, k) for h, k in zip(c.hops, kinds, strict=True)]
        return with_kind(read_path(name, hops, lex)[-1], kinds[-1], lex)
    return join_reading(c, lex)


def join_reading(c: CandidateQuery, lex: Lexicon | None = None) -> str:
    """A path (a)-h1-(x)-h2-(b) between two linked entities, returning x: what x is to a, and to b ("movie acted in
    of Keanu Reeves and acted in of Laurence Fishburne (movie)")."""
    assert c.end is not None
    fr = frames(lex)
    h1, h2 = c.hops
    kind = words(h1.label) if h1.label else ""
    name, other = anchor_text(c.anchor, lex=lex), anchor_text(c.end, lex=lex)
    to_a = fr["rel_to" if h1.direction == "in" else "of"].format(rel=words(h1.rel_type), of=name)
    to_b = fr["rel_to" if h2.direction == "out" else "of"].format(rel=words(h2.rel_type), of=other)
    return with_kind(fr["joined"].format(kind=kind or fr["unknown_kind"], a=to_a, b=to_b), kind, lex)
