"""The one verbaliser: a candidate query read as a question would phrase it, for the cross-encoder to compare with
the question (retrieval) and for ``tune`` to phrase its training questions around.

* :func:`read_path`: a relation path, "release year of movie written by X";
* :func:`reading`: any candidate (an entity-anchored path, a path between two linked entities, a shape);
* :func:`shape_reading`: a shape (``app.cypher.shapes``), with its conditions, threshold, aggregate or ordering;
* ``phrasing.path_question`` and ``phrasing.shape_question``: the questions ``tune`` trains on, these readings in
  frames drawn at random from the lexicon's ``[questions]`` table;
* :func:`example_values`: a few of a query's answers, as text, for a reading that shows them.

The phrases for operators and aggregates come from the lexicon; the readings' sentence frames are English.
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


def read_path(start: str, hops: Sequence[tuple[str, Direction, str]]) -> list[str]:
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
    phrases = [start]
    shared = False
    for i, (name, d, kind) in enumerate(hops):
        what = kind or "entity"
        back = i > 0 and not shared and hops[i - 1][0] == name and goes_back(hops[i - 1][1], d)
        between = (hops[i - 1][2] or "entity") if back else ""  # the kind of the node both ends share
        if back and d == "in" and acts(name):  # "other researcher that wrote the same paper as X"
            phrase = f"other {what} that {words(name)} the same {between} as {phrases[-2]}"
        elif back and d == "in":
            phrase = f"other {what} with the same {words(name)} as {phrases[-2]}"
        elif back:
            phrase = f"other {what} {words(name)} of the same {between} as {phrases[-2]}"
        elif d == "out" and acts(name):  # "movie that Tom Hanks acted in", not "acted in of Tom Hanks"
            phrase = f"{what} that {phrases[-1]} {words(name)}"
        elif d == "out":
            phrase = f"{words(name)} of {phrases[-1]}"
        else:  # "in", or "both": "artist collaborated with X"
            phrase = f"{what} {words(name)} {phrases[-1]}"
        phrases.append(phrase)
        shared = back
    return phrases


@functools.lru_cache(maxsize=1024)
def acts(rel: str) -> bool:
    """Whether a relationship type is a verb in the past or third person, on its own or with its prepositions
    (``WROTE``, ``ACTED_IN``, ``DEPENDS_ON``): what it points to is what its start did it to, "post that X wrote".
    Not a noun (``HAS_GENRE``, ``PLACE_OF_BIRTH``: "genre of X"), nor a verb's plain form (``REPLY_TO``), nor a
    passive (``DIRECTED_BY``: its end did it; ``BORN_IN``, a participle and no past tense), nor a state (the
    lexicon's ``states``: ``LOCATED_IN``)."""
    verb, *rest = words(rel).split() or [""]
    lemmas = verb_lemmas(verb)
    lex = load_lexicon()
    if not lemmas or verb in lemmas or verb in lex.states or not all(w in FUNCTION_WORDS for w in rest):
        return False
    past = {f for v in lemmas for f in getInflection(v, "VBD")}  # "born" is no past tense: "X born in" is no deed
    return not any(w in lex.passive for w in rest) and (verb in past or not participle(verb))


def relation_text(rel: str, direction: Direction, target_kind: str = "") -> str:
    """A relation seen from its source node, in words (``in``: ``is <rel> of``), with the target's kind."""
    return with_kind(words(rel) if direction != "in" else f"is {words(rel)} of", target_kind)


def with_kind(text: str, kind: str) -> str:
    """``text (kind)``, or ``text`` when the kind is unknown."""
    return f"{text} ({kind})" if kind else text


def example_text(value: object) -> str:
    """An answer as a path's reading shows it (``with_examples``): spoken form, at most 60 characters."""
    return surface(str(value))[:60]


def with_examples(text: str, examples: Sequence[str]) -> str:
    """A path's reading with some of its answers, "directed by of X, such as A, B": on a graph without labels the
    answers say what kind of thing the path reaches (text2cypher's answer preview, react's unlabelled paths)."""
    return f"{text}, such as {', '.join(examples)}" if examples else text


def num(v: float) -> float | int:
    return int(v) if float(v).is_integer() else v


def _value_text(v: object) -> str:
    return f"'{v}'" if isinstance(v, str) else str(num(float(v))) if isinstance(v, int | float) else str(v)


def with_article(noun: str) -> str:
    """``award`` → "an award", ``tagline`` → "a tagline"."""
    return f"{'an' if noun[:1] in 'aeiou' else 'a'} {noun}"


def filter_reading(f: Filter, kind: str, lex: Lexicon) -> str:
    """``kind``: the words of the node's label (of the relationship's type for a condition on a relationship)."""
    prop = f"number of {words(f.key)}" if f.sized else words(f.key)
    if f.said is not None:
        return f"{kind} {prop} {f.said}"
    if f.op == EXISTS:
        return f"{kind} that has {with_article(prop)}"
    if f.op == ABSENT:
        return f"{kind} {lex.op_words[ABSENT]} {with_article(prop)}"
    if f.op == UNLINKED:  # "course not requires any course", "movie not reviewed by any person"
        direction, other = f.value
        said = lex.op_words[UNLINKED if direction == "out" else f"{UNLINKED} BY"]
        return f"{kind} {said.format(rel=prop, other=words(other) if other else '')}".rstrip()
    if isinstance(f.value, bool):
        return f"{kind} {flag_text(f.key, f.value, lex)}"
    if f.op == MOD:
        return f"{kind} {prop} divisible by {_value_text(f.value)}"
    if f.op == "range":
        lo, hi = f.value
        return f"{kind} {prop} between {_value_text(lo)} and {_value_text(hi - 1 if float(hi).is_integer() else hi)}"
    return f"{kind} {prop} {lex.op_words.get(f.op, f.op)} {_value_text(f.value)}"


def flag_text(key: str, value: bool, lex: Lexicon) -> str:
    """A boolean property's value in words: ``is_accepted`` true is "is accepted", false "is not accepted" (the
    negation after the verb a name opens with, the lexicon's ``copulas``; before the name otherwise: "not active")."""
    ws = words(key).split()
    if value:
        return " ".join(ws)
    k = 1 if ws[:1] and ws[0] in lex.copulas else 0
    return " ".join([*ws[:k], lex.op_words["NOT"], *ws[k:]])


def anchor_text(anchor: Anchor, kind: str = "") -> str:
    """A linked anchor in words: its value ("Tom Hanks"), or where the value is one of a property many nodes share
    or of a name other than the display one (``Anchor.display``), the nodes holding it: "professor with rank
    Associate", not "Associate" (what a cross-encoder would read as a professor's name)."""
    name = surface(anchor.name or "")
    if not anchor.display or anchor.display == anchor.key:
        return name
    held = "".join(f" and {words(k)} {surface(v)}" for k, v in anchor.also)
    return f"{kind or words(anchor.label)} with {words(anchor.key)} {name}{held}"


def node_reading(path: CandidateQuery | Shape, target: int) -> str:
    """The pattern's node ``x{target}`` in words: "person", "person produced a movie", "movie acted in by X"."""
    if not isinstance(path, CandidateQuery):  # a shape: its pattern, and the relationships it adds
        s, path = path, path.path
        if s.also:
            hop = path.hops[0]
            rel = " and ".join(words(t) for t in (hop.rel_type, *s.also))
            return node_reading(CandidateQuery(path.anchor, (replace(hop, rel_type=rel),)), target)
    if path.end is not None and len(path.hops) == 2 and target == 2:  # what two linked entities share
        return join_reading(path)
    kinds = [words(path.node_kind(i)[0]) for i in range(1, len(path.hops) + 2)]
    if path.end is not None and target in (1, len(path.hops) + 1):  # the nodes a linked value names that the other
        return pinned_reading(path, target, kinds)  # one pins
    if path.anchor.name is not None and target == 1 and path.hops:  # the anchor's nodes ("each student from X")
        return with_kind(anchor_text(path.anchor, kinds[0]), kinds[0])
    if path.anchor.name is not None:  # up to the target (a node between the entity and the end: "each club ...")
        hops = [(h.rel_type, h.direction, k) for h, k in zip(path.hops, kinds[1:], strict=True)]
        return with_kind(read_path(anchor_text(path.anchor, kinds[0]), hops)[target - 1], kinds[target - 1])
    if not path.hops:
        return kinds[0] or "entity"
    # the pattern read from the end it does not ask for: "user provided a answer" (one hop, the first node asked),
    # "user provided answer answered a question" (a chain)
    if target == 1:  # seen from the other end
        steps: list[tuple[str, Direction, str]] = [
            (h.rel_type, REVERSED[h.direction], k)
            for h, k in zip(reversed(path.hops), reversed(kinds[:-1]), strict=True)
        ]
        return with_kind(read_path(f"a {kinds[-1]}", steps)[-1], kinds[0])
    ahead = [(h.rel_type, h.direction, k) for h, k in zip(path.hops, kinds[1:], strict=True)]
    return with_kind(read_path(f"a {kinds[0]}", ahead)[-1], kinds[-1])


def pinned_reading(path: CandidateQuery, target: int, kinds: Sequence[str]) -> str:
    """One linked entity's nodes seen from the other across the relationships between them: "player with
    position Goalkeeper plays for Kingsbury Athletic (player)"; "passenger booked operates of Pacifica Airlines:
    passenger with loyalty tier Gold (passenger)" (two)."""
    assert path.end is not None
    first = target == 1
    ends = (path.anchor, path.end) if first else (path.end, path.anchor)
    kind = kinds[target - 1]
    this, other = anchor_text(ends[0], kind), anchor_text(ends[1], kinds[-1 if first else 0])
    if len(path.hops) > 1:  # read from the other entity along the path
        steps: list[tuple[str, Direction, str]] = (
            [
                (h.rel_type, REVERSED[h.direction], k)
                for h, k in zip(reversed(path.hops), reversed(kinds[:-1]), strict=True)
            ]
            if first
            else [(h.rel_type, h.direction, k) for h, k in zip(path.hops, kinds[1:], strict=True)]
        )
        return with_kind(f"{read_path(other, steps)[-1]}: {this}", kind)
    rel = words(path.hops[0].rel_type)
    leaves = (path.hops[0].direction == "out") == (target == 1)  # the relationship leaves the nodes asked for
    return with_kind(f"{this} {rel} {other}" if leaves else f"{rel} of {other}: {this}", kind)


def shape_time_order(s: Shape) -> str | None:
    """The direction a shape takes a year in: "DESC" for the latest first (an ordering, or ``max``), "ASC" for the
    earliest; None when its property is no year or it does not order or pick by it."""
    if not s.temporal:
        return None
    if s.kind == "top":
        return "ASC" if s.fn == "ASC" else "DESC"
    return {"max": "DESC", "min": "ASC"}.get(s.fn or "") if s.kind == "agg" else None


def held_reading(path: CandidateQuery) -> str:
    """The nodes a linked value names that have the pattern's relationships ("which players from APAC are members
    of a guild"): "player with region APAC member of a guild (player)"."""
    kind = words(path.node_kind(1)[0])
    plain = node_reading(replace(path, anchor=replace(path.anchor, name=None)), 1)
    held = anchor_text(path.anchor, kind)
    return held + plain[len(kind) :] if kind and plain.startswith(kind + " ") else f"{held}: {plain}"


def shape_reading(s: Shape, lex: Lexicon) -> str:
    held = s.kind == "list" and s.anchor.name is not None and s.target == 1 and s.hops and s.path.end is None
    base = held_reading(s.path) if held else node_reading(s, s.target)
    conds = [
        filter_reading(f, words(s.hops[f.var - 1].rel_type if f.edge else s.path.node_kind(f.var)[0]), lex)
        for f in s.filters
    ]
    where = (" with " + " and ".join(conds)) if conds else ""
    if s.having is not None:
        other = words(s.path.node_kind(s.other or 1)[0]) or "entity"
        where += f" with {lex.having_words[s.having[0]]} {s.having[1]} {other}"
    prop = words(s.prop or "")
    if s.prop_on is not None:
        prop = f"{words(s.hops[s.prop_on - 1].rel_type)} {prop}"
    elif s.prop_var is not None:
        prop = f"{words(s.path.node_kind(s.prop_var)[0]) or 'linked'} {prop}"
    if s.kind == "list":
        return (f"first {s.limit} " if s.limit else "") + base + where
    if s.kind == "attr":
        if s.path.end is not None:  # a relationship between two linked entities: "Keanu Reeves acted in The Matrix"
            hop = s.hops[0]
            a, b = anchor_text(s.anchor), anchor_text(s.path.end)
            base = f"{a} {words(hop.rel_type)} {b}" if hop.direction == "out" else f"{b} {words(hop.rel_type)} {a}"
            prop = words(s.prop or "")
        if s.paired:  # the answers' own values, or (``prop_var``) the linked entity's beside them
            return f"{base}{where} and {'the' if s.prop_var is not None else 'their'} {prop}"
        return f"{prop} of {base}{where}"
    if s.kind == "count":  # how many answers, or how many different values of a property of theirs
        return f"how many: number of {f'different {prop} of ' if s.prop else ''}{base}{where}"
    if s.kind == "common":
        first = f"the {s.limit}" if s.limit is not None else "the"
        return f"{first} {'least' if s.fn == 'ASC' else 'most'} common {prop} of {base}{where}, how often each"
    order = shape_time_order(s)
    if s.is_staged:  # "tagged of a question (tag) of the 3 question with the lowest view count"
        v = s.ordered_by() or s.target
        own, kind = words(s.prop or ""), words(s.path.node_kind(v)[0]) or "entity"
        if s.kind == "group":  # "tagged of a question (tag), of the 3 question with the most comment"
            if s.other == len(s.hops) + 1:  # counted past the ranked end: the pattern up to it
                base = node_reading(replace(s, path=CandidateQuery(s.anchor, s.hops[:-1])), s.target)
            return f"{base}{where}, of the {s.limit} {kind} with the {_most_of(s)}"
        if order is not None:
            when, rest = _time_superlative(order, lex)
            return f"{base}{where}, of the {s.limit} {kind} with the {when} {own}: the {rest}"
        return f"{base}{where}, of the {s.limit} {kind} with the {'highest' if s.fn == 'DESC' else 'lowest'} {own}"
    if order is not None:  # a year: "the latest born: the youngest, newest"
        when, rest = _time_superlative(order, lex)
        lead = f"top {s.limit} {base}{where} with the" if s.kind == "top" else "the"
        tail = "" if s.kind == "top" else f" of {base}{where}"
        return f"{lead} {when} {prop}{tail}: the {rest}"
    if s.kind == "agg":
        return f"{lex.aggregate_words.get(s.fn or '', s.fn)} {prop} of {base}{where}"
    top = "highest" if s.fn == "DESC" else "lowest"
    if s.kind == "top" and s.sized:  # "the most roles: the longest roles lists"
        most, long = ("most", "longest") if s.fn == "DESC" else ("fewest", "shortest")
        return f"top {s.limit} {base}{where} with the {most} {prop}: the {long} {prop} lists, and their {prop}"
    if s.kind == "top":
        return f"top {s.limit} {base}{where} with the {top} {prop}"
    if s.limit is None:  # every one of them, each with its count or measure ("how many tracks per genre")
        measure = (
            f"number of different {prop}"
            if s.prop and s.distinct
            else f"{lex.aggregate_words.get(s.agg, s.agg)} {prop}"
            if s.prop
            else f"number of {words(s.path.node_kind(s.other or 1)[0]) or 'entity'}"
        )
        return f"each {base}{where} with its {measure}"
    if s.prop and s.distinct:
        most = "most" if s.fn == "DESC" else "fewest"
        return f"top {s.limit} {base}{where} with the {most} different {prop}: the {top} number of distinct {prop}"
    if s.prop:
        return f"top {s.limit} {base}{where} with the {top} {lex.aggregate_words.get(s.agg, s.agg)} {prop}"
    return f"top {s.limit} {base}{where} with the {_most_of(s)}"


def _most_of(s: Shape) -> str:
    """How a reading says a ``group``'s count: "most movie: the highest number of movie" (``DESC``) or "fewest ...:
    the lowest number of ..." of its ``other`` node's kind."""
    most, number = ("most", "highest") if s.fn == "DESC" else ("fewest", "lowest")
    other = words(s.path.node_kind(s.other or 1)[0]) or "entity"
    # "the highest number of" as well: the cross-encoder read "the 3 movies with the highest number of reviewers" as
    # nearer "the top 3 by release year" (1.72) than "... with the most person" (0.39); with it, 2.21
    return f"{most} {other}: the {number} number of {other}"


def _time_superlative(order: str, lex: Lexicon) -> tuple[str, str]:
    """How a reading says a year's direction: "latest" (``DESC``) or "earliest", and the lexicon's other time
    superlatives of that direction ("youngest, newest, most recent")."""
    when = "latest" if order == "DESC" else "earliest"
    return when, ", ".join(w for w in lex.time_words[order] if w != when)


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
    name = anchor_text(c.anchor)
    kinds = [words(h.label) if h.label else "" for h in c.hops]
    if c.end is None:
        hops = [(h.rel_type, h.direction, k) for h, k in zip(c.hops, kinds, strict=True)]
        return with_kind(read_path(name, hops)[-1], kinds[-1])
    return join_reading(c)


def join_reading(c: CandidateQuery) -> str:
    """A path (a)-h1-(x)-h2-(b) between two linked entities, returning x: what x is to a, and to b ("movie acted in
    of Keanu Reeves and acted in of Laurence Fishburne (movie)")."""
    assert c.end is not None
    h1, h2 = c.hops
    kind = words(h1.label) if h1.label else ""
    name, other = anchor_text(c.anchor), anchor_text(c.end)
    to_a = f"{words(h1.rel_type)} {name}" if h1.direction == "in" else f"{words(h1.rel_type)} of {name}"
    to_b = f"{words(h2.rel_type)} {other}" if h2.direction == "out" else f"{words(h2.rel_type)} of {other}"
    return with_kind(f"{kind or 'entity'} {to_a} and {to_b}", kind)


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
