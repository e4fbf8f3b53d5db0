"""What each label and relationship type of a namespace holds, as text2cypher's shapes need it: per specific label
(with a display property, from the namespace's schema profile) and per relationship type, each property's kind
(number, text, date as text, list of text), value range and a few values, read off a sample of the data once per
namespace (kept until the namespace changes).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass, field

from app.concurrency import BuiltOnce
from app.cypher.candidates import Anchor, CandidateQuery, specific_labels
from app.cypher.shapes import common_keys_query, property_keys_query, property_profile_query
from app.stores.graph.base import GraphSchema, GraphStore
from app.stores.graph.profile import (
    MIN_EVIDENCE,
    RelationshipProfile,
    SchemaProfiler,
    epoch_scale,
    identifies_by_key,
    list_values,
    relationship_values,
    value_kind,
)

LIST_KINDS = 200
"""A list property with more distinct elements than this holds no kinds (tags by the thousand, free text)."""
YEAR_RANGE = (1000, 2100)
"""A numeric property whose values are all whole numbers in this range is read as a year (``Property.temporal``)."""


@dataclass(frozen=True)
class Property:
    label: str
    key: str
    kind: str
    """``number``, ``text``, ``date`` (text that reads as an ISO date: "1996-07-04"), ``list`` (a list of text), or
    ``bool``."""
    lo: float | None = None
    hi: float | None = None
    """A number's least and greatest value; a list's fewest and most elements (in the sample read)."""
    values: tuple[object, ...] = ()
    """A few of its values (self-supervised tuning states them in questions)."""
    partial: bool = False
    """Some nodes (relationships) lack it: "movies with a tagline" is a condition."""
    reference: bool = False
    """A number its key says identifies something (``accepted_answer_id``: ``profile.identifies_by_key``): no
    measure nor ordering, but a condition where the question names it ("questions with an accepted answer")."""
    repeats: bool = True
    """Some of its values occur more than once (among the schema profile's sampled nodes; unknown: True): "the
    most common X" only counts values that repeat (an answer's text or an id is each node's own)."""

    @property
    def whole(self) -> bool:
        """Whether its values (those read) are all whole numbers."""
        return self.kind == "number" and all(
            isinstance(v, int) or (isinstance(v, float) and v.is_integer()) for v in self.values
        )

    @property
    def epoch(self) -> int | None:
        """1 when its values are Unix seconds, 1000 when Unix milliseconds (``profile.epoch_scale``), else None."""
        return epoch_scale(self.lo, self.hi, self.whole) if self.kind == "number" and not self.reference else None

    @property
    def temporal(self) -> bool:
        """A point in time: a date as text, Unix time, or a year (every value a whole number in ``YEAR_RANGE``: a
        birth year, a release year)."""
        if self.kind == "date" or self.epoch is not None:
            return True
        return (
            self.kind == "number"
            and not self.reference
            and self.lo is not None
            and self.hi is not None
            and YEAR_RANGE[0] <= self.lo <= self.hi <= YEAR_RANGE[1]
            and self.whole
        )


@dataclass
class LabelProfile:
    label: str
    """A node label, or a relationship type (``Profiles.rels``)."""
    key: str
    """Display property (``name`` or ``title``; empty for a relationship type)."""
    properties: list[Property]
    sequence: str = ""
    """The property that numbers the label's nodes, where one does: its id, or else its display property, whose
    values are whole numbers (a ``uuid`` of 7 digits). What "the first k" of a kind that no year dates are taken in
    order of (``asks.first_k``); empty for none."""
    categorical: tuple[str, ...] = ()
    """Its properties whose few values many nodes share (a country): a linked value of one names a set of nodes."""
    identifiers: list[Property] = field(default_factory=list)
    """Its id property: neither a measure nor an ordering, but a value a question asks for ("the short code of X":
    ``measures.attributes``), and where its values are numbers a comparison the question states on it by its name
    is a condition ("users with a uuid over 15000000": ``conditions``)."""
    parts: tuple[str, ...] = ()
    """The given and the family name a node's name is kept in (``LabelProfile.parts`` of the schema profile): what
    its answers are named by (``answer_form.named_in_parts``)."""

    def numeric(self) -> list[Property]:
        """The numbers that measure something (not a ``reference``)."""
        return [p for p in self.properties if p.kind == "number" and not p.reference]

    def ordered(self) -> list[Property]:
        """What an ordering can rank by: numbers (not a ``reference``), and dates as text (ISO text sorts as time
        does)."""
        return [p for p in self.properties if (p.kind == "number" and not p.reference) or p.kind == "date"]

    def references(self) -> list[Property]:
        """The numbers that identify something (``Property.reference``): conditions only."""
        return [p for p in self.properties if p.reference]

    def text(self) -> list[Property]:
        return [p for p in self.properties if p.kind in ("text", "list", "date")]


@dataclass
class Profiles:
    labels: dict[str, LabelProfile] = field(default_factory=dict)
    """Per specific label that has a display property."""
    rels: dict[str, LabelProfile] = field(default_factory=dict)
    """Per relationship type that has properties (a review's rating, an actor's roles)."""
    single: set[tuple[str, str, str, str]] = field(default_factory=set)
    """``(label, relationship type, direction, label)``: each node of the first label has one node of the last at
    most across that relationship, which leaves it (``out``) or reaches it (``in``) (``RelationshipProfile.fanout``),
    where the graph holds ``MIN_EVIDENCE`` such relationships at least (three people who follow one each make no
    rule)."""
    links: set[tuple[str, str, str]] = field(default_factory=set)
    """``(source label, relationship type, target label)`` of every relationship the graph holds
    (``RelationshipProfile.endpoints``): what a node of a label can lack ("courses without prerequisites")."""
    values: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    """Per ``(relationship type, key)`` of a categorical property of relationships, its values
    (``RelationshipProfile.categorical``): the ones a question names are conditions (``asks.stated_values``)."""
    listed: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    """Per ``(label, key)`` of a list of kinds (skills, genres), its elements (``profile.list_values``): the ones a
    question names are conditions on the nodes that hold them (``asks.stated_values``)."""

    def __bool__(self) -> bool:
        return bool(self.labels)

    def shared(self, anchor: Anchor) -> bool:
        """Whether a linked value is one that many nodes share (a value of a categorical property: a country): it
        names a set of nodes, not one."""
        prof = self.labels.get(anchor.label)
        return anchor.name is not None and prof is not None and anchor.key in prof.categorical

    def nameless(self) -> list[str]:
        """The labels whose display values are numbers (a comment shown by its ``uuid``): they name nobody, so no
        "who" asks for them."""
        return [
            prof.label
            for prof in self.labels.values()
            if any(p.key == prof.key and p.kind == "number" for p in prof.properties)
        ]

    def one_each(self, path: CandidateQuery, start: int, end: int) -> bool:
        """Whether each node ``x{start}`` of the path reaches one node ``x{end}`` at most (every hop between them
        single-valued that way round): counting the ``x{end}`` of each ``x{start}`` ranks nothing."""
        step = 1 if end > start else -1
        for i in range(start, end, step):
            here, there = path.node_kind(i)[0], path.node_kind(i + step)[0]
            hop = path.hops[min(i, i + step) - 1]
            leaves = (hop.direction == "out") == (step == 1)
            if (here, hop.rel_type, "out" if leaves else "in", there) not in self.single:
                return False
        return start != end

    def of(self, path: CandidateQuery, var: int, *, edge: bool = False) -> LabelProfile | None:
        """The profile of the path's node ``x{var}`` (``edge``: of its relationship ``r{var}``; none for a hop along a
        chain, whose relationships are a list: ``Hop.closure``)."""
        if edge:
            return None if path.hops[var - 1].closure else self.rels.get(path.hops[var - 1].rel_type)
        return self.labels.get(path.node_kind(var)[0])

    def numeric(self, path: CandidateQuery, var: int, *, edge: bool = False) -> list[Property]:
        """The numeric properties of the path's node ``x{var}`` (``edge``: of its relationship ``r{var}``)."""
        prof = self.of(path, var, edge=edge)
        return prof.numeric() if prof is not None else []

    def ordered(self, path: CandidateQuery, var: int, *, edge: bool = False) -> list[Property]:
        """The properties of the path's node ``x{var}`` an ordering can rank by (``LabelProfile.ordered``)."""
        prof = self.of(path, var, edge=edge)
        return prof.ordered() if prof is not None else []


def _number(value: object) -> float | None:
    """``value`` as a float, or None where it is no number."""
    try:
        return float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None


class PropertyProfiles:
    """Each specific label's display property (the namespace's schema profile) and its other properties, read off
    the data once per namespace."""

    def __init__(self, graph: GraphStore, profiler: SchemaProfiler, sample: int = 500) -> None:
        self.graph = graph
        self.profiler = profiler
        self.sample = sample
        self._built: BuiltOnce[Profiles] = BuiltOnce()

    def invalidate(self, namespace: str) -> None:
        self._built.invalidate(namespace)

    async def get(self, namespace: str, schema: GraphSchema) -> Profiles:
        return await self._built.get(namespace, lambda: self._build(namespace, schema))

    async def _profile(self, namespace: str, name: str, *, edge: bool) -> LabelProfile | None:
        rows = await self.graph.read(namespace, property_keys_query(name, edge=edge), {"sample": self.sample})
        # and the keys that enough nodes further on hold (the first ones may all be of one kind)
        rows += await self.graph.read(namespace, common_keys_query(name, edge=edge), {"least": MIN_EVIDENCE})
        keys = sorted({str(r["k"]) for r in rows if not str(r["k"]).startswith("_")})
        schema = await self.profiler.get(namespace)
        label = None if edge else schema.labels.get(name)
        display = "" if edge else (label.display if label is not None else None)
        if display is None:
            return None
        props: list[Property] = []
        identifiers: list[Property] = []
        for key in keys:
            measured = label.properties.get(key) if label is not None else None
            if measured is not None and measured.opaque >= 0.5:
                continue  # hashes are neither a measure nor a condition
            into = identifiers if label is not None and key == label.id else props  # nor the label's id, unnamed
            prof = await self.graph.read(namespace, property_profile_query(name, key, edge=edge), {"sample": 20})
            if not prof or not prof[0].get("c"):
                continue
            p = prof[0]
            values = p.get("sample") or []
            part = p["c"] < (p.get("total") or 0)
            once = measured is not None and measured.kind != "list" and measured.distinct == measured.present > 1
            if values and all(isinstance(v, bool) for v in values):
                into.append(Property(name, key, "bool", values=tuple(values), partial=part, repeats=not once))
            elif values and all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
                lo, hi = _number(p["lo"]), _number(p["hi"])
                if measured is not None:  # some nodes hold text there ("deleted"): the profile's sampled numbers
                    lo = lo if lo is not None else _number(measured.lo)
                    hi = hi if hi is not None else _number(measured.hi)
                if lo is not None and hi is not None:
                    ref = key != display and identifies_by_key(key)
                    into.append(Property(name, key, "number", lo, hi, tuple(values), part, ref, not once))
            elif values and all(value_kind(v) == "date" for v in values):
                into.append(Property(name, key, "date", values=tuple(values), partial=part, repeats=not once))
            elif values and all(isinstance(v, str) for v in values):
                into.append(Property(name, key, "text", values=tuple(values), partial=part, repeats=not once))
            elif values and all(isinstance(v, list) and all(isinstance(e, str) for e in v) for v in values):
                sizes = [len(v) for v in values]
                elements = tuple(e for v in values for e in v)
                into.append(Property(name, key, "list", min(sizes), max(sizes), elements, part))
        if edge and not props:
            return None
        sequence = ""
        if label is not None:  # whole numbers that number the nodes: the id's, else the display property's
            whole = [k for k in (label.id, display) if k and k in label.properties]
            sequence = next((k for k in whole if label.properties[k].kind == "integer"), "")
        categorical, parts = (tuple(label.categorical), tuple(label.parts)) if label is not None else ((), ())
        return LabelProfile(name, display, props, sequence, categorical, identifiers, parts)

    async def _build(self, namespace: str, schema: GraphSchema) -> Profiles:
        labels = specific_labels(schema.labels)
        found = await asyncio.gather(*(self._profile(namespace, lab, edge=False) for lab in labels))
        rels = await asyncio.gather(*(self._profile(namespace, t, edge=True) for t in schema.relationship_types))
        schema_profile = await self.profiler.get(namespace)
        values = await relationship_values(self.graph, namespace, schema_profile, max_values=10_000, timeout_s=120)
        listed = await list_values(self.graph, namespace, schema_profile, max_values=LIST_KINDS, timeout_s=120)
        links = {(a, rp.type, b) for rp in schema_profile.relationships.values() for a, b, _ in rp.endpoints if a and b}
        single = single_links(schema_profile.relationships.values())
        return Profiles(
            {p.label: p for p in found if p is not None},
            {p.label: p for p in rels if p is not None},
            single,
            links,
            values,
            listed,
        )


def single_links(rels: Iterable[RelationshipProfile]) -> set[tuple[str, str, str, str]]:
    """``Profiles.single`` read off the schema profile's fan-outs: ``(label, type, direction, label)`` where each
    node of the first label has one of the last at most, and the graph holds ``MIN_EVIDENCE`` relationships of that
    pair at least (three people who follow one each make no rule)."""
    out: set[tuple[str, str, str, str]] = set()
    for rp in rels:
        held = {(a, b): n for a, b, n in rp.endpoints}
        for a, b, most_b, most_a in rp.fanout:
            if held.get((a, b), 0) < MIN_EVIDENCE:
                continue
            if most_b == 1:
                out.add((a, rp.type, "out", b))
            if most_a == 1:
                out.add((b, rp.type, "in", a))
    return out
