"""The questions ``tune`` trains on: a candidate's reading (``reading.py``, the one verbaliser) asked in a frame drawn
at random from the lexicon's ``[questions]`` table, relation names sometimes shortened to their content words.

* :func:`path_question`: an entity-anchored path ("what are the movies directed by X?");
* :func:`shape_question`: a shape, with its conditions, aggregate or ordering ("how many movies ...").
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from app.cypher.candidates import CandidateQuery, goes_back
from app.cypher.shapes import ABSENT, EXISTS, UNLINKED, Filter, Shape
from app.text import STOPWORDS, surface
from app.text import identifier_words as words
from app.text2cypher.lexicon import Lexicon
from app.text2cypher.reading import filter_reading, flag_text, read_path, shape_time_order, spelled, with_article


def pick(rng: random.Random, options: Sequence[str]) -> str:
    """One of ``options`` at random (the only one without drawing)."""
    return options[0] if len(options) == 1 else rng.choice(options)


def relation_phrase(rel_type: str, rng: random.Random) -> str:
    """A relationship type in words, sometimes shortened to its content words or one of them (``HAS_GENRE`` →
    "has genre" / "genre"; ``STARRED_ACTORS`` → "starred actors" / "starred" / "actors"): questions rarely
    repeat a relation name verbatim, and the model should key on its meaning-bearing words."""
    full = words(rel_type)
    content = [w for w in full.split() if w not in STOPWORDS]
    draw = rng.random()
    if draw < 0.5 or not content:
        return full
    return " ".join(content) if draw < 0.75 else rng.choice(content)


ATTRIBUTE_SHARE = 0.2
"""How often ``path_question`` asks a path whose last hop leaves the inner nodes as an attribute of them ("what genre
are the movies starred by X"): users ask so (MetaQA's "what types are the films ..."), and the ``attribute_stop``
feature is learned only from questions asked so."""


def path_question(c: CandidateQuery, rng: random.Random, lex: Lexicon) -> str:
    """A question whose answer is what ``c`` returns: its path read as text (``read_path``, each relationship type
    in words, shortened at random) in a random question frame; a path whose last hop leaves the inner nodes is
    sometimes phrased inner part first ("the ones directed by X: what are their actors?") or as their attribute ("what
    genre are the movies starred by X"), and one that turns back as sharing ("which movies have the same director as
    X?")."""
    q = lex.asking
    c = spelled(c, lex)
    said = {h.rel_type: relation_phrase(h.rel_type, rng) for h in c.hops}
    hops = [(said[h.rel_type], h.direction, words(h.label) if h.label else rng.choice(q.unknown_kind)) for h in c.hops]
    phrases = read_path(surface(c.anchor.name or ""), hops, lex)
    last = c.hops[-1]
    turns_back = len(c.hops) > 1 and c.hops[-2].rel_type == last.rel_type
    if turns_back and goes_back(c.hops[-2].direction, last.direction) and rng.random() < 0.5:
        return rng.choice(q.turn_back[last.direction]).format(
            k=_plural(hops[-1][2], rng, lex), r=said[last.rel_type], x=phrases[-3], v=hops[-2][2]
        )
    if last.direction == "out" and not turns_back:
        if len(c.hops) > 1 and rng.random() < ATTRIBUTE_SHARE:
            return rng.choice(q.attribute).format(p=phrases[-2], r=said[last.rel_type])
        if rng.random() < 0.4:
            forms = q.outer if len(c.hops) > 1 else q.anchor
            return rng.choice(forms).format(p=phrases[-2], r=said[last.rel_type])
    return rng.choice(q.path).format(p=phrases[-1])


def _plural(kind: str, rng: random.Random, lex: Lexicon) -> str:
    suffix = lex.asking.plural
    return kind if kind.endswith(suffix) or rng.random() < 0.3 else kind + suffix


def _leaves(s: Shape) -> bool:
    """The asked-about node is the source of the shape's first relationship."""
    return (s.hops[0].direction == "out") == (s.target == 1)


def _pattern_phrase(s: Shape, rng: random.Random, lex: Lexicon) -> str:
    """How the asked-about node relates to the other: "who produced a movie", "acted in by a person"."""
    if not s.hops:
        return ""
    q = lex.asking
    rel = pick(rng, q.pattern["joined"]).join(words(t) for t in (s.hops[0].rel_type, *s.also))
    other = words(s.path.node_kind(3 - s.target)[0])
    side = "leaves" if _leaves(s) else "enters"
    if s.having is not None:  # "who directed more than 2 movies", "acted in by at least 3 persons"
        op, k = s.having
        qty = pick(rng, q.pattern["quantity"]).format(op=rng.choice(q.having[op]), k=k, other=_plural(other, rng, lex))
        return pick(rng, q.pattern[f"having_{side}"]).format(rel=rel, qty=qty)
    return pick(rng, q.pattern[side]).format(rel=rel, other=other)


def _filter_phrase(s: Shape, f: Filter, rng: random.Random, lex: Lexicon) -> str:
    q = lex.asking
    prop = q.words["number_of"].format(prop=words(f.key)) if f.sized else words(f.key)
    rel = words(s.hops[f.var - 1].rel_type) if f.edge else ""
    kind = "" if f.edge or f.var == s.target else words(s.path.node_kind(f.var)[0])
    where = "edge" if f.edge else "own" if f.var == s.target else "linked"
    if f.op == UNLINKED:
        return " " + filter_reading(f, kind or words(s.path.node_kind(f.var)[0]), lex)
    if f.op in (EXISTS, ABSENT):
        frames = q.filters[f"{'exists' if f.op == EXISTS else 'absent'}_{where}"]
        return pick(rng, frames).format(rel=rel, kind=kind, prop=prop, has=with_article(prop, lex))
    if isinstance(f.value, bool):
        return pick(rng, q.filters[f"flag_{where}"]).format(rel=rel, kind=kind, flag=flag_text(f.key, f.value, lex))
    if f.op == "range":
        lo, hi = f.value
        decade = hi - lo == 10 and lo % 10 == 0
        value = pick(rng, q.filters["decade" if decade else "between"]).format(lo=lo, hi=hi - 1)
    else:
        shown = f"'{f.value}'" if isinstance(f.value, str) else str(f.value)
        value = " ".join(pick(rng, q.filters["compared"]).format(op=rng.choice(q.ops[f.op]), value=shown).split())
    return pick(rng, q.filters[where]).format(rel=rel, kind=kind, prop=prop, value=value)


def _linked_time_phrase(s: Shape, when: str, rng: random.Random, lex: Lexicon) -> str:
    """How the asked-about node relates to the node whose year orders it: "who directed the oldest movie",
    "acted in by the youngest person"."""
    rel = words(s.hops[0].rel_type)
    linked = words(s.path.node_kind(s.prop_var or 1)[0])
    side = "leaves" if _leaves(s) else "enters"
    return pick(rng, lex.asking.pattern[f"time_{side}"]).format(rel=rel, when=when, linked=linked)


def shape_question(s: Shape, rng: random.Random, lex: Lexicon) -> str:
    """A question whose answer is what the shape returns, in a frame drawn from the lexicon."""
    q = lex.asking
    s = spelled(s, lex)
    kind = words(s.path.node_kind(s.target)[0])
    form: str = "list_k" if s.kind == "list" and s.limit else "group_avg" if s.kind == "group" and s.prop else s.kind
    if s.prop_var is not None and s.kind == "top":  # ordered by a linked node's property: "which person directed
        form = "top_staged" if s.is_staged else "top_linked"  # the oldest movie"; "the tags of the top 3 questions"
    prop = words(s.prop or "")
    if s.kind == "group" and s.prop_var is not None:  # "which users have the highest average answer score"
        prop = f"{words(s.path.node_kind(s.prop_var)[0])} {prop}"
    if s.kind in ("attr", "common"):  # a property's values: "the birth years of ...", "the tagline of The Matrix"
        form = "attr_pair" if s.paired else "attr_of" if s.anchor.name is not None and not s.hops else "attr"
        form = ("common" if s.limit else "common_all") if s.kind == "common" else form
        if s.prop_on is not None:
            prop = f"{words(s.hops[s.prop_on - 1].rel_type)} {prop}"
    order = shape_time_order(s)
    if order is not None and rng.random() < 0.5:  # a year: "the 3 youngest persons", "the oldest movie"
        form += "_time"
    w = q.words
    text = rng.choice(q.shapes[form]).format(
        K=_plural(kind, rng, lex) if s.kind != "group" else kind,
        P=_pattern_phrase(s, rng, lex),
        F="".join(_filter_phrase(s, f, rng, lex) for f in s.filters),
        k=s.limit,
        a=rng.choice(q.aggregates.get(s.agg if s.kind == "group" else s.fn or "", (w["average"],))),
        prop=prop,
        N=surface(s.anchor.name or ""),
        C=w["least"] if s.fn == "ASC" else w["most"],
        hl=w["highest"] if s.fn == "DESC" else w["lowest"],
        most=w["most"] if s.fn == "DESC" else w["fewest"],
        O=_plural(words(s.path.node_kind(s.other or 1)[0]), rng, lex),
        T=rng.choice(lex.time_words[order]) if order is not None else "",
        L=words(s.path.node_kind(s.prop_var)[0]) if s.prop_var is not None else "",
        LS=_plural(words(s.path.node_kind(s.prop_var)[0]), rng, lex) if s.prop_var is not None else "",
        PT=_linked_time_phrase(s, rng.choice(lex.time_words[order]), rng, lex) if order is not None and s.hops else "",
    )
    return " ".join(text.replace(" ?", "?").split()).replace(" ?", "?")
