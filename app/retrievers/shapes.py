"""Question shapes beyond entity-anchored paths for text2cypher (issue 14): what the graph's data allows
(``app.cypher.shapes``), the constants the question states, and how each shape reads as text.

* :func:`question_literals`: numbers, decades ("the 1990s"), number pairs ("from 1990 to 2000"), small counts
  ("top 3", "first three") and quoted text. Nothing here knows a data set: only English number forms and quotes.
* :class:`PropertyProfiles`: per namespace, each label's properties with their kind (number or text) and value range,
  read off a sample of the data once (kept until the namespace is re-ingested).
* :class:`ShapeEnumerator`: the shapes of a question in two stages, so the count stays bounded on any graph: first
  every *base* shape (label-anchored patterns — a label, or one schema triple — and the best entity-anchored paths,
  each with list / count / aggregates / ordering / most-fewest), then the ``filter_beam`` most relevant base shapes
  with each condition the question's constants allow (a number on a property whose range holds it, a quoted text on
  a property some node's value contains), then the ``filter_beam`` best of those with a second condition.
* :func:`shape_reading`: the shape read as a question phrases it, for the cross-encoder.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace

from app.concurrency import BuiltOnce
from app.cypher.candidates import Anchor, CandidateQuery, Direction, Hop, specific_labels
from app.cypher.shapes import (
    AGGREGATES,
    NUMBER_OPS,
    Filter,
    Shape,
    property_keys_query,
    property_profile_query,
    text_match_query,
)
from app.retrievers.kg import read_path, with_kind, words
from app.stores.graph.base import GraphSchema, GraphStore
from app.text import surface

NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                "ten": 10}  # fmt: skip
"""Small counts written as words ("the first three"): English, not a data set's vocabulary."""
DISPLAY_KEYS = ("name", "title")
MAX_LIMIT = 100


@dataclass
class QuestionLiterals:
    numbers: list[float] = field(default_factory=list)
    """Every number the question states (not inside quotes)."""
    ranges: list[tuple[float, float]] = field(default_factory=list)
    """``[lo, hi)`` intervals: a decade ("1990s") or a pair of numbers ("from 1990 to 2000", inclusive)."""
    limits: list[int] = field(default_factory=list)
    """Small whole numbers (at most ``MAX_LIMIT``), digits or words: how many answers a "top 3" asks for."""
    texts: list[str] = field(default_factory=list)
    """Quoted text."""

    def __bool__(self) -> bool:
        return bool(self.numbers or self.ranges or self.texts)


_QUOTED = re.compile(r"""(?<![\w'])'([^']{1,200})'(?![\w'])|"([^"]{1,200})\"""")
_NUMBER = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)(s?)(?![\w.]|\.\d)")


def question_literals(question: str) -> QuestionLiterals:
    out = QuestionLiterals()
    for m in _QUOTED.finditer(question):
        out.texts.append(m.group(1) or m.group(2))
    bare = _QUOTED.sub(" ", question)
    for m in _NUMBER.finditer(bare):
        value = float(m.group(1))
        if m.group(2) and value.is_integer() and value % 10 == 0:  # "the 1990s"
            out.ranges.append((value, value + 10))
            continue
        out.numbers.append(value)
        if value.is_integer() and 1 <= value <= MAX_LIMIT:
            out.limits.append(int(value))
    out.limits += [NUMBER_WORDS[w] for w in re.findall(r"[a-z]+", bare.lower()) if w in NUMBER_WORDS]
    if len(out.numbers) >= 2:
        a, b = sorted(out.numbers[:2])
        if a < b:
            out.ranges.append((a, b + 1 if a.is_integer() and b.is_integer() else b))
    out.limits = list(dict.fromkeys(out.limits))
    return out


@dataclass(frozen=True)
class Property:
    label: str
    key: str
    kind: str
    """``number`` or ``text``."""
    lo: float | None = None
    hi: float | None = None
    values: tuple[object, ...] = ()
    """A few of its values (self-supervised tuning states them in questions)."""


@dataclass
class LabelProfile:
    label: str
    key: str
    """Display property (``name`` or ``title``)."""
    properties: list[Property]

    def numeric(self) -> list[Property]:
        return [p for p in self.properties if p.kind == "number"]

    def text(self) -> list[Property]:
        return [p for p in self.properties if p.kind == "text"]


class PropertyProfiles:
    """Each specific label's display property and its other properties, read off the data once per namespace."""

    def __init__(self, graph: GraphStore, sample: int = 500) -> None:
        self.graph = graph
        self.sample = sample
        self._built: BuiltOnce[dict[str, LabelProfile]] = BuiltOnce()

    def invalidate(self, namespace: str) -> None:
        self._built.invalidate(namespace)

    async def get(self, namespace: str, schema: GraphSchema) -> dict[str, LabelProfile]:
        return await self._built.get(namespace, lambda: self._build(namespace, schema))

    async def _build(self, namespace: str, schema: GraphSchema) -> dict[str, LabelProfile]:
        async def one(label: str) -> LabelProfile | None:
            rows = await self.graph.read(namespace, property_keys_query(label), {"sample": self.sample})
            keys = sorted(str(r["k"]) for r in rows if not str(r["k"]).startswith("_"))
            display = next((k for k in DISPLAY_KEYS if k in keys), None)
            if display is None:
                return None
            props = []
            for key in keys:
                if key == "id":
                    continue
                prof = await self.graph.read(namespace, property_profile_query(label, key), {"sample": 20})
                if not prof or not prof[0].get("c"):
                    continue
                p = prof[0]
                values = p.get("sample") or []
                if values and all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
                    props.append(Property(label, key, "number", float(p["lo"]), float(p["hi"]), tuple(values)))
                elif values and all(isinstance(v, str) for v in values):
                    props.append(Property(label, key, "text", values=tuple(values)))
            return LabelProfile(label, display, props)

        labels = specific_labels(schema.labels)
        found = await asyncio.gather(*(one(lab) for lab in labels))
        return {p.label: p for p in found if p is not None}


Scorer = Callable[[list[Shape]], Awaitable[list[float] | None]]


class ShapeEnumerator:
    def __init__(self, graph: GraphStore, profiles: PropertyProfiles, *, filter_beam: int = 12) -> None:
        self.graph = graph
        self.profiles = profiles
        self.filter_beam = filter_beam

    async def enumerate(
        self,
        namespace: str,
        schema: GraphSchema,
        lits: QuestionLiterals,
        paths: Sequence[CandidateQuery],
        score: Scorer,
    ) -> int:
        """Hand the question's shapes (base, then with conditions) to ``score``, which scores and keeps them; return
        how many base shapes there were (the bound's first stage, for the trace)."""
        profiles = await self.profiles.get(namespace, schema)
        base = self.base_shapes(schema, profiles, paths, lits)
        scores = await score(base)
        if not lits or not base:
            return len(base)
        conditions = await self._conditions(namespace, profiles, lits, {p.anchor.name for p in paths})
        level = _best(base, scores, self.filter_beam)
        for _ in range(2):
            nxt = [
                replace(s, filters=(*s.filters, f))
                for s in level
                for f in _filters_for(s, conditions)
                if all(f.value != g.value for g in s.filters)
            ]
            if not nxt:
                break
            scores = await score(nxt)
            level = _best(nxt, scores, self.filter_beam)
        return len(base)

    @staticmethod
    def base_shapes(
        schema: GraphSchema,
        profiles: dict[str, LabelProfile],
        paths: Sequence[CandidateQuery],
        lits: QuestionLiterals,
    ) -> list[Shape]:
        ks = lits.limits or [1]
        patterns: list[tuple[CandidateQuery, list[int]]] = []
        for prof in profiles.values():
            patterns.append((CandidateQuery(Anchor(None, prof.label, prof.key), ()), [1]))
        for triple in schema.triples:
            a, b = profiles.get(triple.source), profiles.get(triple.target)
            if a is None or b is None:
                continue
            hop = Hop(triple.rel_type, "out", b.label, b.key)
            patterns.append((CandidateQuery(Anchor(None, a.label, a.key), (hop,)), [1, 2]))
        out: list[Shape] = []
        for path, targets in patterns:
            for t in targets:
                label = path.node_kind(t)[0]
                numeric = profiles[label].numeric()
                out.append(Shape(path, t, "list"))
                out += [Shape(path, t, "list", limit=k) for k in lits.limits]
                out += _measures(path, t, numeric, ks)
                if path.hops:
                    other = 3 - t
                    out += [Shape(path, t, "group", fn=d, other=other, limit=k) for d in ("DESC", "ASC") for k in ks]
        for path in paths:  # the entity-anchored paths: how many, aggregates and orderings of their answers
            t = len(path.hops) + 1
            end = profiles.get(path.node_kind(t)[0])
            numeric = end.numeric() if end is not None else []
            out += _measures(path, t, numeric, ks)
        return out

    async def _conditions(
        self, namespace: str, profiles: dict[str, LabelProfile], lits: QuestionLiterals, linked: set[str | None]
    ) -> dict[str, list[tuple[str, str, object]]]:
        """Per label, the ``(key, op, value)`` conditions the question's constants allow on its nodes."""
        out: dict[str, list[tuple[str, str, object]]] = {}
        texts = [t for t in lits.texts if t not in linked]

        async def text_ops(p: Property, s: str) -> list[tuple[str, str, object]]:
            rows = await self.graph.read(namespace, text_match_query(p.label, p.key), {"s": s})
            r = rows[0] if rows else {}
            ops = [("=", r.get("eq")), ("STARTS WITH", r.get("starts")), ("CONTAINS", r.get("contains"))]
            return [(p.key, op, s) for op, n in ops if n]

        for label, prof in profiles.items():
            conds: list[tuple[str, str, object]] = []
            for p in prof.numeric():
                assert p.lo is not None and p.hi is not None
                conds += [(p.key, op, _num(v)) for v in lits.numbers if p.lo <= v <= p.hi for op in NUMBER_OPS]
                conds += [
                    (p.key, "range", (_num(lo), _num(hi)))
                    for lo, hi in lits.ranges
                    if p.lo <= lo <= p.hi and p.lo < hi <= p.hi + 10  # both ends among the property's values
                ]
            found = await asyncio.gather(*(text_ops(p, s) for p in prof.text() for s in texts))
            conds += [c for group in found for c in group]
            out[label] = conds
        return out


def _measures(path: CandidateQuery, t: int, numeric: list[Property], ks: list[int]) -> list[Shape]:
    """How many of node ``x{t}`` there are, aggregates of its numeric properties, the top ``k`` by each."""
    out = [Shape(path, t, "count")]
    out += [Shape(path, t, "agg", prop=p.key, fn=fn) for p in numeric for fn in AGGREGATES]
    out += [Shape(path, t, "top", prop=p.key, fn=d, limit=k) for p in numeric for d in ("DESC", "ASC") for k in ks]
    return out


def _filters_for(s: Shape, conditions: dict[str, list[tuple[str, str, object]]]) -> list[Filter]:
    """Conditions on the shape's label-anchored nodes, or on the nodes its path reaches (not on a linked entity)."""
    first = 1 if s.anchor.name is None else 2
    out = []
    for var in range(first, len(s.hops) + 2):
        label = s.path.node_kind(var)[0]
        out += [Filter(var, key, op, value) for key, op, value in conditions.get(label, [])]
    # a condition on the property the shape aggregates or orders by says what the aggregate already says
    return [f for f in out if f not in s.filters and not (f.var == s.target and f.key == s.prop)]


def constants_used(c: CandidateQuery | Shape, lits: QuestionLiterals) -> int:
    """How many of the question's stated constants (numbers, quoted text: ``question_literals``) a candidate uses, in
    a condition, as its limit, or as a linked entity's name."""
    quoted = (c.anchor.name in lits.texts) if c.anchor.name is not None else False
    if isinstance(c, CandidateQuery):
        return quoted + (c.end is not None and c.end.name in lits.texts)
    values: set[object] = set()
    for f in c.filters:
        if f.op == "range":  # a decade is one constant, "from 1990 to 2000" two
            lo, hi = f.value
            values.add(lo)
            values.update([hi - 1] if hi - 1 in lits.numbers else [])
        else:
            values.add(f.value)
    used = sum(1 for v in values if v in lits.numbers or v in lits.texts or any(v == lo for lo, _ in lits.ranges))
    return used + quoted + (c.limit is not None and c.limit in lits.limits)


def _best(shapes: list[Shape], scores: list[float] | None, k: int) -> list[Shape]:
    if scores is None:
        return shapes[:k]
    order = sorted(range(len(shapes)), key=lambda i: -scores[i])
    return [shapes[i] for i in order[:k]]


def _num(v: float) -> float | int:
    return int(v) if float(v).is_integer() else v


# --- readings ---------------------------------------------------------------------------------------------------
_OP_WORDS = {">": "after or more than", "<": "before or less than", "=": "in or equal to", ">=": "at least",
             "<=": "at most", "CONTAINS": "containing", "STARTS WITH": "starting with"}  # fmt: skip


def _value_text(v: object) -> str:
    return f"'{v}'" if isinstance(v, str) else str(_num(float(v))) if isinstance(v, int | float) else str(v)


def filter_reading(f: Filter, kind: str) -> str:
    prop = words(f.key)
    if f.op == "range":
        lo, hi = f.value
        return f"{kind} {prop} between {_value_text(lo)} and {_value_text(hi - 1 if float(hi).is_integer() else hi)}"
    return f"{kind} {prop} {_OP_WORDS.get(f.op, f.op)} {_value_text(f.value)}"


def node_reading(path: CandidateQuery, target: int) -> str:
    """The pattern's node ``x{target}`` in words: "person", "person produced a movie", "movie acted in by X"."""
    kinds = [words(path.node_kind(i)[0]) for i in range(1, len(path.hops) + 2)]
    if path.anchor.name is not None:
        hops = [(h.rel_type, h.direction, k) for h, k in zip(path.hops, kinds[1:], strict=True)]
        return with_kind(read_path(surface(path.anchor.name), hops)[-1], kinds[-1])
    if not path.hops:
        return kinds[0] or "entity"
    hop = path.hops[0]
    if target == 1:  # seen from the other end
        back: Direction = "in" if hop.direction == "out" else "out"
        return with_kind(read_path(f"a {kinds[1]}", [(hop.rel_type, back, kinds[0])])[-1], kinds[0])
    return with_kind(read_path(f"a {kinds[0]}", [(hop.rel_type, hop.direction, kinds[1])])[-1], kinds[1])


_AGG_WORDS = {"avg": "average", "max": "highest", "min": "lowest", "sum": "total"}


def shape_reading(s: Shape) -> str:
    base = node_reading(s.path, s.target)
    conds = [filter_reading(f, words(s.path.node_kind(f.var)[0])) for f in s.filters]
    where = (" with " + " and ".join(conds)) if conds else ""
    prop = words(s.prop or "")
    if s.kind == "list":
        return (f"first {s.limit} " if s.limit else "") + base + where
    if s.kind == "count":
        return f"how many: number of {base}{where}"
    if s.kind == "agg":
        return f"{_AGG_WORDS.get(s.fn or '', s.fn)} {prop} of {base}{where}"
    top = "highest" if s.fn == "DESC" else "lowest"
    if s.kind == "top":
        return f"top {s.limit} {base}{where} with the {top} {prop}"
    most = "most" if s.fn == "DESC" else "fewest"
    other = words(s.path.node_kind(s.other or 1)[0]) or "entity"
    return f"top {s.limit} {base}{where} with the {most} {other}"
