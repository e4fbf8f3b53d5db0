"""The schema profile of a namespace: what its graph holds, read off the data (sampled and bounded), whatever the
schema and whoever wrote it.

Per label and per relationship type: how many there are, the relationship types' endpoint labels, and each
property's kind (text, integer, float, boolean, list, date: text that reads as an ISO date), fill rate, distinct
values, range, length and a few sample values, all measured on a sample of ``profile.sample`` nodes (or
relationships) per label (type). From those measures, per label:

* the **display property**: the text property that identifies a node (filled for most nodes, nearly unique, short,
  word-like rather than a URL); a number only where a label has no text property at all (a port). ``name`` and
  ``title`` are just properties that usually win;
* an **id property** where one exists: another filled, unique property whose values are codes (whole numbers, or
  text without spaces);
* **categorical** properties: text with few distinct values (a country, a status, a category) — constants a question
  names;
* **numeric**, **temporal** and **boolean** properties: what conditions, orderings and aggregates work on.

An operator overrides any choice per namespace and label (``profile.overrides``), as neo4j-graphrag users pass a
schema. No property name is special-cased here. Profiles are built once per namespace and dropped after an ingest
(``SchemaProfiler.invalidate``); ``GET /namespaces/{ns}/schema`` shows one.
"""

from __future__ import annotations

import asyncio
import calendar
import functools
import json
import math
import re
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from app.concurrency import BuiltOnce
from app.cypher import queries as Q
from app.cypher.candidates import Display
from app.cypher.schema import visible_labels
from app.settings import LabelOverride, ProfileSettings
from app.stores.graph.base import GraphStore

Kind = Literal["text", "integer", "float", "boolean", "list", "date", "other"]

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$")
"""ISO 8601 dates and date-times as text: "1996-07-04", "1996-07-04T00:00:00", "2021-03-01 10:20:00+01:00"."""
_URL = re.compile(r"^[a-z][a-z0-9+.-]*://", re.IGNORECASE)
_OPAQUE = re.compile(r"(?=[0-9a-fA-F]*[0-9])(?=[0-9a-fA-F]*[a-fA-F])[0-9a-fA-F]{8,}")
"""A run of 8 or more hex digits mixing letters and digits: a hash or a UUID, an identifier rather than a name."""
SAMPLES = 5
"""Sample values kept per property (shown in the profile and in prompts)."""
MIN_EVIDENCE = 20
"""How many cases a rule read off the data needs at least: sampled values below which uniqueness says nothing (six
nodes all differ in every property: no id is chosen); relationships below which "each has one" says nothing, nodes
below which a property key is not profiled beyond a label's first ones (text2cypher's profiles)."""


EPOCH_SECONDS = (631_152_000, 4_102_444_800)
"""Unix time in seconds from 1990-01-01 to 2100-01-01: whole numbers all in this range (or a thousand times it,
milliseconds) are points in time (``epoch_scale``)."""


def epoch_scale(lo: float | None, hi: float | None, whole: bool) -> int | None:
    """1 when whole numbers from ``lo`` to ``hi`` read as Unix seconds, 1000 as Unix milliseconds, else None."""
    if not whole or lo is None or hi is None:
        return None
    for scale in (1, 1000):
        if EPOCH_SECONDS[0] * scale <= lo <= hi < EPOCH_SECONDS[1] * scale:
            return scale
    return None


def year_start(year: int, scale: int, month: int = 1) -> int:
    """The Unix time (``scale`` 1: seconds, 1000: milliseconds) at which ``year`` (its ``month``) begins, UTC."""
    return calendar.timegm((year, month, 1, 0, 0, 0, 0, 1, 0)) * scale


def value_kind(value: Any) -> Kind:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "date" if _DATE.match(value.strip()) else "text"
    if isinstance(value, list):
        return "list"
    return "other"


@dataclass
class PropertyProfile:
    key: str
    kind: Kind
    filled: float
    """Share of the sampled nodes (relationships) that have the property."""
    distinct: int
    """Distinct values among the sampled ones (lists: distinct lists)."""
    present: int
    """Sampled nodes (relationships) that have it."""
    lo: float | str | None = None
    """Smallest value (numbers, dates); a list's fewest elements."""
    hi: float | str | None = None
    mean_length: float | None = None
    """Mean length in characters (text, dates)."""
    wordlike: float = 0.0
    """Share of the text values with a letter in them (a name, not an address or a number in text)."""
    url_like: float = 0.0
    """Share of the text values that are URLs."""
    opaque: float = 0.0
    """Share of the text values that hold a hash or a UUID (``ent_3f2a9c0d...``)."""
    coded: float = 0.0
    """Share of the text values that read as codes: one token with a digit, or in capitals (``SUP-0001``,
    ``ALFKI``), where a name has words (``Harbour Trading``)."""
    samples: list[Any] = field(default_factory=list)

    @property
    def unique(self) -> float:
        """Distinct values per sampled value: 1.0 when every node has its own."""
        return self.distinct / self.present if self.present else 0.0

    @property
    def codelike(self) -> bool:
        """Values that read as identifiers: whole numbers, or text without spaces that reads as codes or addresses
        (``coded``, ``url_like``; a city's one-word name is no code)."""
        if self.kind == "integer":
            return True
        return (
            self.kind == "text"
            and max(self.coded, self.url_like) >= 0.5
            and all(isinstance(v, str) and " " not in v.strip() for v in self.samples)
        )


@dataclass
class LabelProfile:
    label: str
    count: int
    properties: dict[str, PropertyProfile]
    display: str | None = None
    id: str | None = None
    categorical: list[str] = field(default_factory=list)
    numeric: list[str] = field(default_factory=list)
    temporal: list[str] = field(default_factory=list)
    boolean: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    """Other text properties that name a node too (a customer's ``companyName`` beside the ``contactName`` it is
    displayed by, an employee's ``lastName``): a question may name a node by any of them (``choose_names``)."""
    codes: list[str] = field(default_factory=list)
    """Other text properties that identify each node as a code does (a gene's ``symbol`` beside the whole-number
    ``entrezId`` that is its id): a question may name a node by one, as by a text id (``choose_codes``)."""
    parts: list[str] = field(default_factory=list)
    """The given and the family name, where a node's name is kept in two properties and its display property is one
    of them or no name at all (a patient shown by ``patientId``, named by ``firstName`` and ``lastName``): what its
    answers are named by (``choose_parts``)."""
    overridden: list[str] = field(default_factory=list)
    """Which of the choices above an operator set (``profile.overrides``)."""


@dataclass
class RelationshipProfile:
    type: str
    count: int
    endpoints: list[tuple[str, str, int]]
    """(source label, target label, relationships) for each label pair it joins (a node's every label counts)."""
    properties: dict[str, PropertyProfile]
    numeric: list[str] = field(default_factory=list)
    temporal: list[str] = field(default_factory=list)
    boolean: list[str] = field(default_factory=list)
    fanout: list[tuple[str, str, int, int]] = field(default_factory=list)
    """(source label, target label, the most targets one source has, the most sources one target has) for each label
    pair of ``endpoints``, over a sample of each side: 1 says one at most ("each comment is on one question")."""
    categorical: list[str] = field(default_factory=list)
    """Text properties with few distinct values that many relationships share (a semester, a kind of role): a value
    of one that a question names is a condition on the relationship ("courses taught in Fall 2023")."""


@dataclass
class SchemaProfile:
    namespace: str
    labels: dict[str, LabelProfile] = field(default_factory=dict)
    relationships: dict[str, RelationshipProfile] = field(default_factory=dict)
    sample: int = 0
    seconds: float = 0.0

    def display(self, label: str) -> str | None:
        prof = self.labels.get(label)
        return prof.display if prof else None

    def display_keys(self) -> tuple[str, ...]:
        """Every label's display property, most common first (ties by name): the properties that name a node."""
        counts: Counter[str] = Counter()
        for prof in self.labels.values():
            if prof.display:
                counts[prof.display] += max(prof.count, 1)
        return tuple(sorted(counts, key=lambda k: (-counts[k], k)))

    def naming(self) -> Display:
        """Which property names a node of each label, and the display properties in the order a node of no known
        label is read by: what text2cypher's queries and the eval's answer accuracy read nodes by."""
        return Display.of({lab: p.display for lab, p in self.labels.items()}, self.display_keys())

    def terms(self) -> list[str]:
        """Every label, relationship type and property key the profile names (a key once per owner)."""
        props = [k for lp in self.labels.values() for k in lp.properties]
        props += [k for rp in self.relationships.values() for k in rp.properties]
        return [*self.labels, *self.relationships, *props]

    def by_specificity(self) -> list[LabelProfile]:
        """The labels, most specific (fewest nodes) first: a node of several labels reads as the first it has."""
        return sorted(self.labels.values(), key=lambda p: (p.count, p.label))

    def display_of(self, labels: Iterable[str]) -> str | None:
        """The display property of a node with these labels: that of its most specific label that has one."""
        held = set(labels)
        return next((p.display for p in self.by_specificity() if p.label in held and p.display), None)

    def to_dict(self) -> dict[str, Any]:
        def props(ps: Mapping[str, PropertyProfile]) -> list[dict[str, Any]]:
            return [asdict(p) | {"unique": round(p.unique, 3)} for p in ps.values()]

        return {
            "namespace": self.namespace,
            "sample": self.sample,
            "seconds": round(self.seconds, 3),
            "labels": [asdict(p) | {"properties": props(p.properties)} for p in self.labels.values()],
            "relationships": [
                asdict(r)
                | {
                    "endpoints": [list(e) for e in r.endpoints],
                    "fanout": [list(e) for e in r.fanout],
                    "properties": props(r.properties),
                }
                for r in self.relationships.values()
            ],
        }


def profile_properties(rows: Iterable[Mapping[str, Any]], total: int) -> dict[str, PropertyProfile]:
    """Each property's measures over sampled property maps (``total``: how many were sampled)."""
    values: dict[str, list[Any]] = defaultdict(list)
    for row in rows:
        for key, value in (row or {}).items():
            if value is not None and not str(key).startswith("_"):
                values[str(key)].append(value)
    out: dict[str, PropertyProfile] = {}
    for key in sorted(values):
        vs = values[key]
        kinds = Counter(value_kind(v) for v in vs)
        kind: Kind = kinds.most_common(1)[0][0]
        if kind == "date" and kinds["date"] < 0.9 * len(vs):  # a few date-like texts among others: text
            kind = "text"
        if kind in ("integer", "float") and kinds["integer"] + kinds["float"] == len(vs) and kinds["float"]:
            kind = "float"
        same = [v for v in vs if value_kind(v) == kind or (kind == "text" and value_kind(v) == "date")]
        hashable = [tuple(v) if isinstance(v, list) else v for v in same if not isinstance(v, dict)]
        try:
            distinct = len(set(hashable))
        except TypeError:  # nested lists
            distinct = len({repr(v) for v in hashable})
        p = PropertyProfile(key, kind, len(vs) / total if total else 0.0, distinct, len(vs))
        if kind in ("integer", "float"):
            nums = [float(v) for v in same if isinstance(v, int | float) and math.isfinite(float(v))]
            p.lo, p.hi = (min(nums), max(nums)) if nums else (None, None)
        elif kind in ("text", "date"):
            texts = [str(v) for v in same]
            p.mean_length = sum(map(len, texts)) / len(texts)
            p.wordlike = sum(any(c.isalpha() for c in t) for t in texts) / len(texts)
            p.url_like = sum(bool(_URL.match(t)) for t in texts) / len(texts)
            p.opaque = sum(bool(_OPAQUE.search(t)) and not any(c.isspace() for c in t) for t in texts) / len(texts)
            p.coded = sum(_is_code(t) for t in texts) / len(texts)
            if kind == "date":
                p.lo, p.hi = min(texts), max(texts)
        elif kind == "list":
            sizes = [len(v) for v in same]
            p.lo, p.hi = min(sizes), max(sizes)
        shown: list[Any] = []
        for v in same:
            v = _short(v)
            if v not in shown and not isinstance(v, dict):
                shown.append(v)
            if len(shown) >= SAMPLES:
                break
        p.samples = shown
        out[key] = p
    return out


def _is_code(text: str) -> bool:
    t = text.strip()
    if not t or any(c.isspace() for c in t):
        return False
    return any(c.isdigit() for c in t) or (any(c.isalpha() for c in t) and t.upper() == t)


def _f(value: float | str | None) -> float | None:
    return value if isinstance(value, float | int) else None


def _short(value: Any) -> Any:
    if isinstance(value, str) and len(value) > 80:
        return value[:77] + "..."
    if isinstance(value, list):
        return [_short(v) for v in value[:5]]
    return value


@functools.cache
def _key_lexicon(language: str, entry: str) -> frozenset[str]:
    data = json.loads((Path(__file__).parent / "lexicon" / f"{language}.json").read_text(encoding="utf-8"))
    return frozenset(str(w) for w in data[entry])


def naming_words(language: str = "en") -> frozenset[str]:
    """The words of a property key that say it holds a name (``lexicon/<language>.json``: data, not code)."""
    return _key_lexicon(language, "naming_words")


def identifying_words(language: str = "en") -> frozenset[str]:
    """The words of a property key that say it holds an identifier (``lexicon/<language>.json``)."""
    return _key_lexicon(language, "identifying_words")


def identifies_by_key(key: str) -> bool:
    """Whether the key's last word is an identifying word (``accepted_answer_id``, ``employeeID``, ``uuid``)."""
    words = key_words(key)
    return bool(words) and words[-1] in identifying_words()


def key_words(key: str) -> list[str]:
    """``companyName`` / ``display_name`` / ``TITLE`` -> ``["company", "name"]`` / ``["display", "name"]`` /
    ``["title"]``."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", key)
    return [w for w in re.split(r"[\s_\-.]+", spaced.lower()) if w]


def names_by_key(key: str) -> bool:
    """Whether the key's last word (or the key as one word) is a naming word."""
    words = key_words(key)
    return bool(words) and (words[-1] in naming_words() or "".join(words) in naming_words())


def choose_display(props: Mapping[str, PropertyProfile], cfg: ProfileSettings) -> str | None:
    """The property that names a node of the label: among text properties filled for at least
    ``display_min_fill`` of the nodes, at most ``display_max_length`` characters on average, not URLs nor hashes,
    the most nearly unique (to 0.1), then one whose key says it names (``companyName``; English words of
    ``lexicon/en.json``), then the least code-like (``SUP-0001``), then the most word-like, then the
    shortest (then by name); a label with no such text property is named by its most nearly unique whole number
    (a port), else it has none."""
    text = [
        p
        for p in props.values()
        if p.kind == "text"
        and p.filled >= cfg.display_min_fill
        and (p.mean_length or 0) <= cfg.display_max_length
        and p.url_like < 0.5
        and p.opaque < 0.5
    ]
    if text:
        best = min(
            text,
            key=lambda p: (
                -round(p.unique, 1),
                not names_by_key(p.key),
                round(p.coded, 1),
                -round(p.wordlike, 1),
                p.mean_length or 0,
                p.key,
            ),
        )
        return best.key
    numbers = [p for p in props.values() if p.kind == "integer" and p.filled >= cfg.display_min_fill]
    return min(numbers, key=lambda p: (-round(p.unique, 1), p.key)).key if numbers else None


def choose_names(props: Mapping[str, PropertyProfile], skip: set[str], cfg: ProfileSettings) -> list[str]:
    """The text properties besides the display property that name a node as well: their key says they name
    (``names_by_key``), they are filled and short as a display property is (``display_min_fill``,
    ``display_max_length``), not URLs nor hashes, and at least half their values are a node's own."""
    return [
        p.key
        for p in props.values()
        if p.key not in skip
        and p.kind == "text"
        and names_by_key(p.key)
        and p.filled >= cfg.display_min_fill
        and (p.mean_length or 0) <= cfg.display_max_length
        and p.url_like < 0.5
        and p.opaque < 0.5
        and p.unique >= 0.5
    ]


def choose_parts(props: Mapping[str, PropertyProfile], display: str | None, cfg: ProfileSettings) -> list[str]:
    """``[given, family]``: the text properties, filled as a display property is, whose keys say they hold a given
    name and a family name (a part's word with a naming word, ``firstName`` / ``last_name``, or alone, ``surname``;
    ``lexicon/en.json``), where the display property is one of them or no naming property; else none."""

    def part(words: frozenset[str]) -> str | None:
        for p in sorted(props.values(), key=lambda p: p.key):
            joined = "".join(key_words(p.key))  # "firstName", "first_name", "firstname", "surname"
            said = joined in words or any(joined == a + n for a in words for n in naming_words())
            if said and p.kind == "text" and p.filled >= cfg.display_min_fill:
                return p.key
        return None

    given, family = part(_key_lexicon("en", "given_name_words")), part(_key_lexicon("en", "family_name_words"))
    if given is None or family is None or (display not in (given, family) and display and names_by_key(display)):
        return []
    return [given, family]


def choose_id(
    props: Mapping[str, PropertyProfile], display: str | None, cfg: ProfileSettings, count: int = 0
) -> str | None:
    """Another property that identifies each node: filled, unique (``id_min_unique``) and code-like; whole
    numbers first. Whole numbers identify where their key says so (``identifies_by_key``) or where they number the
    label's ``count`` nodes (``numbers_nodes``): a stadium's capacity or a match's attendance differs from node to
    node too, and it measures. Uniqueness among fewer than ``MIN_EVIDENCE`` values says nothing, unless they are
    codes in text and every node of the label was read (the ICD-10 codes of ten conditions)."""
    ids = [
        p
        for p in props.values()
        if p.key != display
        and identifies(p, cfg, count)
        and (p.kind != "integer" or identifies_by_key(p.key) or numbers_nodes(p, count))
        and epoch_scale(_f(p.lo), _f(p.hi), p.kind == "integer") is None  # a time stamp identifies nothing
    ]
    return max(ids, key=lambda p: (p.kind == "integer", p.unique, p.key)).key if ids else None


def identifies(p: PropertyProfile, cfg: ProfileSettings, count: int) -> bool:
    """Values that tell each node apart as an id does: filled, unique (``id_min_unique``) and code-like, read on
    ``MIN_EVIDENCE`` nodes at least, or, for codes in text, on every one of the label's ``count`` nodes."""
    return (
        p.filled >= 0.9
        and p.unique >= cfg.id_min_unique
        and (p.present >= MIN_EVIDENCE or (p.kind == "text" and 0 < count <= p.present))
        and p.codelike
    )


def choose_codes(
    props: Mapping[str, PropertyProfile], skip: set[str], cfg: ProfileSettings, count: int = 0
) -> list[str]:
    """The text properties besides ``skip`` (the display property, the id, other names, categorical ones) that would
    identify each node as a text id does (``choose_id``'s rule, text only; not URLs nor hashes, and short as a
    display property is): codes a question names a node by ("the gene BRCA1") where the id chosen is another."""
    return [
        p.key
        for p in props.values()
        if p.key not in skip
        and p.kind == "text"
        and identifies(p, cfg, count)
        and p.url_like < 0.5
        and p.opaque < 0.5
        and (p.mean_length or 0) <= cfg.display_max_length
    ]


def numbers_nodes(p: PropertyProfile, count: int) -> bool:
    """Whole numbers that could number ``count`` nodes: none below 0 and a range no wider than twice their count
    (1 to N, with gaps where nodes were deleted)."""
    lo, hi = _f(p.lo), _f(p.hi)
    return lo is not None and hi is not None and lo >= 0 and hi - lo + 1 <= 2 * max(count, p.present)


def choose_categorical(props: Mapping[str, PropertyProfile], skip: set[str], cfg: ProfileSettings) -> list[str]:
    """Short text properties with few distinct values (at most ``categorical_max_distinct``), each value shared by
    two nodes on average, or, on a label of no more nodes than that, some value shared (the city of a few
    hospitals, two of them in one city; a label's whole handful of values is few), or none shared where the values
    are a word or two (``categorical_word_max_length``; not codes): the cities of a handful of suppliers."""
    handful = cfg.categorical_max_distinct
    return [
        p.key
        for p in props.values()
        if p.key not in skip
        and p.kind == "text"
        and 1 <= p.distinct <= handful
        and (p.distinct * 2 <= p.present or p.distinct < p.present <= handful or _words(p, cfg))
        and (p.mean_length or 0) <= cfg.display_max_length
    ]


def _words(p: PropertyProfile, cfg: ProfileSettings) -> bool:
    """A text property of a handful of nodes (``categorical_max_distinct``) whose values are a word or two each: no
    codes, hashes or addresses, and no names (a key that says it names: ``companyName``, ``names_by_key``)."""
    plain = p.wordlike >= 1.0 and not (p.coded or p.opaque or p.url_like or names_by_key(p.key))
    short = (p.mean_length or 0) <= cfg.categorical_word_max_length
    return plain and short and p.present <= cfg.categorical_max_distinct


def _apply(prof: LabelProfile, override: LabelOverride | None) -> None:
    if override is None:
        return
    for name in ("display", "id", "categorical"):
        value = getattr(override, name)
        if value is not None:
            setattr(prof, name, value)
            prof.overridden.append(name)


def label_profile(
    label: str, count: int, rows: list[Mapping[str, Any]], cfg: ProfileSettings, override: LabelOverride | None
) -> LabelProfile:
    props = profile_properties(rows, len(rows))
    display = None if label in Q.UNNAMED_LABELS else choose_display(props, cfg)
    ident = choose_id(props, display, cfg, count)
    prof = LabelProfile(label, count, props, display, ident)
    prof.categorical = choose_categorical(props, {k for k in (display, ident) if k}, cfg)
    _apply(prof, override)
    if prof.display is not None:
        prof.names = choose_names(props, {prof.display, *prof.categorical, *([prof.id] if prof.id else [])}, cfg)
        prof.codes = choose_codes(props, {prof.display, prof.id or "", *prof.names, *prof.categorical}, cfg, count)
    prof.numeric, prof.temporal, prof.boolean = typed_keys(props, {k for k in (prof.id, prof.display) if k})
    prof.parts = choose_parts(props, prof.display, cfg)
    return prof


def typed_keys(props: Mapping[str, PropertyProfile], named: set[str]) -> tuple[list[str], list[str], list[str]]:
    """The numeric (not the ``named`` ones: a label's id and display), temporal (ISO dates as text, Unix time) and
    boolean property keys of a label or relationship type."""
    numeric = [p.key for p in props.values() if p.kind in ("integer", "float") and p.key not in named]
    temporal = [
        p.key
        for p in props.values()
        if p.kind == "date" or (p.kind == "integer" and epoch_scale(_f(p.lo), _f(p.hi), True) is not None)
    ]
    return numeric, temporal, [p.key for p in props.values() if p.kind == "boolean"]


class SchemaProfiler:
    """Builds each namespace's :class:`SchemaProfile` once, from a sample; dropped after an ingest."""

    def __init__(self, graph: GraphStore, settings: ProfileSettings) -> None:
        self.graph = graph
        self.settings = settings
        self._built: BuiltOnce[SchemaProfile] = BuiltOnce()

    def invalidate(self, namespace: str) -> None:
        self._built.invalidate(namespace)

    async def get(self, namespace: str, *, refresh: bool = False) -> SchemaProfile:
        if refresh:
            self.invalidate(namespace)
        return await self._built.get(namespace, lambda: self._build(namespace))

    async def _build(self, namespace: str) -> SchemaProfile:
        t0 = time.perf_counter()
        cfg = self.settings
        overrides = cfg.overrides.get(namespace, {})
        schema = await self.graph.schema(namespace)
        prof = SchemaProfile(namespace, sample=cfg.sample)
        timeout = cfg.timeout_s

        async def one_label(label: str) -> LabelProfile:
            count = await self.graph.read(namespace, Q.label_count(label), timeout_s=timeout)
            rows = await self.graph.read(
                namespace, Q.label_sample(label), {"sample": cfg.sample}, max_rows=cfg.sample, timeout_s=timeout
            )
            maps = [r["p"] for r in rows if isinstance(r.get("p"), dict)]
            return label_profile(label, int(count[0]["c"]) if count else 0, maps, cfg, overrides.get(label))

        labels = visible_labels(schema.labels)
        for lp in await asyncio.gather(*(one_label(lab) for lab in labels)):
            prof.labels[lp.label] = lp
        endpoints: dict[str, Counter[tuple[str, str]]] = defaultdict(Counter)
        totals: Counter[str] = Counter()
        for r in schema.edge_counts:  # the rows the schema's triples were read off: no second scan of the edges
            n = int(r.get("n", 1))
            totals[str(r["t"])] += n
            for a in visible_labels(r["la"]) or [""]:
                for b in visible_labels(r["lb"]) or [""]:
                    endpoints[str(r["t"])][(a, b)] += n

        async def one_type(rel: str) -> RelationshipProfile:
            rows = await self.graph.read(
                namespace, Q.relationship_sample(rel), {"sample": cfg.sample}, max_rows=cfg.sample, timeout_s=timeout
            )
            maps = [r["p"] for r in rows if isinstance(r.get("p"), dict)]
            props = profile_properties(maps, len(maps))
            ends_ = sorted(((a, b, n) for (a, b), n in endpoints[rel].items()), key=lambda e: (-e[2], e[0], e[1]))
            numeric, temporal, boolean = typed_keys(props, set())
            fanout = [(a, b, *await most_linked(rel, a, b)) for a, b, _ in ends_ if a and b]
            categorical = choose_categorical(props, set(), cfg)
            return RelationshipProfile(rel, totals[rel], ends_, props, numeric, temporal, boolean, fanout, categorical)

        async def most_linked(rel: str, a: str, b: str) -> tuple[int, int]:
            out = []
            for forward in (True, False):
                rows = await self.graph.read(
                    namespace, Q.most_linked(rel, a, b, forward=forward), {"sample": cfg.sample}, timeout_s=timeout
                )
                out.append(int(rows[0]["m"] or 0) if rows else 0)
            return out[0], out[1]

        for rp in await asyncio.gather(*(one_type(t) for t in schema.relationship_types if not t.startswith("_"))):
            prof.relationships[rp.type] = rp
        prof.seconds = time.perf_counter() - t0
        return prof


@dataclass(frozen=True)
class NamedNode:
    """A node's display value as text (``name``), its typed value, its labels and the property holding it."""

    name: str
    labels: tuple[str, ...]
    key: str
    value: str | int
    count: int = 1
    """How many nodes of these labels share this display value: a value thousands of nodes share (a port number
    on every machine, a process's version) names a kind of thing, not one."""


async def named_nodes(
    graph: GraphStore, namespace: str, profile: SchemaProfile, *, max_rows: int, timeout_s: float
) -> list[NamedNode]:
    """Every node with a display value, read label by label through the profile (a node of several labels once
    per distinct display property), and by each of its label's other names (``LabelProfile.names``), its id where
    the id is text (a code a question names: "the airport with code LHR"; a whole-number id would link any number a
    question states, and no question names a hash or a URL) and its other codes (``LabelProfile.codes``: "the gene
    BRCA1"); text and whole-number values only."""
    out: dict[tuple[str, tuple[str, ...], str], NamedNode] = {}
    counted: dict[tuple[str, tuple[str, ...], str], Counter[str]] = defaultdict(Counter)
    for lp in profile.labels.values():
        ident = lp.properties.get(lp.id) if lp.id else None
        spoken = ident is not None and ident.kind == "text" and ident.opaque < 0.5 and ident.url_like < 0.5
        text_id = [lp.id] if spoken and lp.id else []  # no question names a hash or an address
        for key in [lp.display, *lp.names, *text_id, *lp.codes] if lp.display else []:  # display, other names, codes
            rows = await graph.read(namespace, Q.display_values(lp.label, key), max_rows=max_rows, timeout_s=timeout_s)
            for r in rows:
                v = r.get("v")
                if isinstance(v, bool) or not isinstance(v, str | int) or v == "":
                    continue
                node = NamedNode(str(v), tuple(visible_labels(r.get("labels") or [])), key, v)
                k = (node.name, node.labels, node.key)
                counted[k][lp.label] += 1  # a node of several labels is read once per label: counted once
                out.setdefault(k, node)
    return [replace(node, count=max(counted[k].values())) for k, node in out.items()]


async def relationship_values(
    graph: GraphStore, namespace: str, profile: SchemaProfile, *, max_values: int, timeout_s: float
) -> dict[tuple[str, str], list[str]]:
    """Per ``(relationship type, key)`` of a categorical property of relationships, its distinct values: constants a
    question may name as a condition on the relationship ("taught in Fall 2023")."""
    out: dict[tuple[str, str], list[str]] = {}
    for rp in profile.relationships.values():
        for key in rp.categorical:
            q = Q.value_counts(rp.type, key, edge=True)
            rows = await graph.read(namespace, q, max_rows=max_values, timeout_s=timeout_s)
            out[(rp.type, key)] = [v for r in rows if isinstance(v := r.get("v"), str) and v.strip()]
    return out


async def list_values(
    graph: GraphStore, namespace: str, profile: SchemaProfile, *, max_values: int, timeout_s: float
) -> dict[tuple[str, str], list[str]]:
    """Per ``(label, key)`` of a node property that holds lists of text, the elements of a list of kinds: few
    (``max_values`` at most), each held by two nodes on average, with a letter in them (a skill, a genre; not a
    version number): constants a question may name as a condition ("the employees who know Kubernetes")."""
    out: dict[tuple[str, str], list[str]] = {}
    for lp in profile.labels.values():
        for key, p in lp.properties.items():
            if p.kind != "list":
                continue
            q = Q.list_element_counts(lp.label, key)
            rows = await graph.read(namespace, q, max_rows=max_values + 1, timeout_s=timeout_s)
            held = [(v, r.get("c") or 0) for r in rows if isinstance(v := r.get("v"), str) and v.strip()]
            if not held or len(rows) > max_values or sum(c for _, c in held) < 2 * len(held):
                continue
            out[(lp.label, key)] = [v for v, _ in held if any(ch.isalpha() for ch in v)]
    return out


async def categorical_values(
    graph: GraphStore, namespace: str, profile: SchemaProfile, *, max_values: int, timeout_s: float
) -> list[NamedNode]:
    """Every value of every label's categorical properties (a country, a category), with how many nodes hold it:
    a question that names one links to the nodes holding it (``(:Supplier {country: "Japan"})``)."""
    out: list[NamedNode] = []
    for lp in profile.labels.values():
        for key in lp.categorical:
            rows = await graph.read(namespace, Q.value_counts(lp.label, key), max_rows=max_values, timeout_s=timeout_s)
            for r in rows:
                v = r.get("v")
                if isinstance(v, str) and v.strip():
                    out.append(NamedNode(v, (lp.label,), key, v, int(r.get("c") or 1)))
    return out
