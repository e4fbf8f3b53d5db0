"""A language as text2cypher reads it: the words and phrases of one lexicon file (``lexicons/<name>.toml``).

The question stage (``question.py``) finds what a question states with these patterns, the reading stage
(``reading.py``) writes a candidate's reading with these phrases (and ``tune``'s training questions with the frames
of ``[questions]``), and the features read agent nouns and birth words
from it. The mode's config names the lexicon (``modes.text2cypher.lexicon``: a bundled name such as ``en``, or a path
to a file of the same keys).

What this module must not do: hold a word of any language itself. Words live in the lexicon files.
"""

from __future__ import annotations

import functools
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.errors import InvalidInputError
from app.text import identifier_words
from app.text2cypher.asking import Asking, asking_of
from app.text2cypher.files import data_file

BUNDLED = Path(__file__).parent / "lexicons"

_CI = re.IGNORECASE


@dataclass(frozen=True, eq=False)  # one per file (``load`` caches): compared and hashed by identity
class Lexicon:
    name: str
    number_words: dict[str, int]
    """Small counts written as words ("three")."""
    scales: dict[str, int]
    """Words after a number that multiply it ("5 million")."""
    frame: frozenset[str]
    """Words that open a question or say how many before the noun it asks for."""
    range_joins: frozenset[str]
    """What joins the two ends of a span of numbers."""
    count_words: tuple[str, ...]
    """Superlatives that count ("the most movies")."""
    measure: frozenset[str]
    """Words between a superlative and what it counts ("the highest number of ...")."""
    birth: tuple[str, ...]
    """Words of a year that dates a birth."""
    death: tuple[str, ...]
    """Words of a year that dates a death: no time superlative that does not name it orders by it."""
    agent_endings: tuple[str, ...]
    """How a noun for the doer of a verb ends."""
    agent_suffixes: tuple[str, ...]
    """What turns a verb into the noun for its doer (``agent_endings`` and the lexicon's extra suffixes)."""
    act_endings: tuple[str, ...]
    """How a noun for the act a verb names ends ("ratings", "enrollments"): it names neither end of the act."""
    copulas: frozenset[str]
    """Verbs a boolean property's name may open with ("is_accepted"): a reading negates after them."""
    plurals: tuple[tuple[str, str], ...]
    """How a noun's plural ends: ``(singular ending, plural ending)`` ("switch" -> "switches", "category" ->
    "categories")."""
    irregular_plurals: dict[str, str]
    """Nouns whose plural no ending makes ("person" -> "people")."""
    passive: frozenset[str]
    """Words that end a relationship type named in the passive (``WRITTEN_BY``): its doer is the node it points to."""
    states: frozenset[str]
    """Past participles that say where or what a thing is, not what it did (``LOCATED_IN``, ``BASED_IN``): no verb a
    reading turns into "what X did" (``reading.acts``)."""
    toward: frozenset[str]
    away: frozenset[str]
    """Words that end a relationship type named for where it goes (``SENT_TO``) or comes from (``BOUGHT_FROM``), and
    that say before an entity which end of it the entity is (``asked.agent_by``)."""
    opposites: dict[str, frozenset[str]]
    """Per adjective, those of opposite sense ("dead": "alive"; both ways): a boolean property the one names is false
    where the question says the other (``conditions.stated``)."""
    reciprocal: frozenset[str]
    """Words of a relationship type's name that say it holds both ways (``COLLABORATED_WITH``, ``MARRIED_TO``): between
    two nodes of one kind its stored direction says nothing, and a path takes it either way (``reciprocal_type``)."""
    time_words: dict[str, tuple[str, ...]]
    """Superlatives that order by a point in time, per direction (``DESC``: the latest first)."""
    order_words: dict[str, tuple[str, ...]]
    """Superlatives that order by a measure, per direction (``DESC``: the greatest first)."""
    measures: dict[str, tuple[str, ...]]
    """Adjectives and the measures they compare by ("longest": a length, a duration; ``Matcher.names``)."""
    senses: dict[str, frozenset[str]]
    """A verb's form -> the nouns of what it says, sharing no stem with it ("born": ``PLACE_OF_BIRTH``'s "birth")."""
    comparisons: dict[str, str]
    """Per operator, the phrases (a regex alternation) that state it before a number."""
    max_limit: int
    """A stated number at most this may say how many answers to give."""
    patterns: dict[str, re.Pattern[str]]
    """The question patterns of the file's ``[patterns]`` table, compiled."""
    op_words: dict[str, str]
    having_words: dict[str, str]
    aggregate_words: dict[str, str]
    """The reading's phrases for a condition's operator, a threshold and an aggregate."""
    asking: Asking
    """How ``tune`` phrases its training questions."""
    frames: dict[str, str]
    """The sentence frames of a reading (``[reading.frames]``: ``READING_FRAMES``, with the ``{names}`` that
    ``reading.py`` fills)."""
    directions: dict[str, dict[str, str]]
    """Per order direction, a reading's words for it (``[reading.directions]``: "highest", "most", "latest"...)."""
    value_asked_frame: str
    """A pattern with ``{key}``: where a question asks for a property's values by its words."""
    kind_value_frame: str
    """A pattern with ``{kind}`` and ``{key}``: a kind's values named as one noun ("the network IPs")."""
    closure_reading: str = ""
    """Words after a relationship's that say a hop takes a chain of it (``Hop.closure``: "indirectly"), in ``tune``'s
    questions."""
    closure_after: str = ""
    """Words after a reading that say its path takes a chain of a relationship ("... at any level, directly or
    indirectly")."""

    # derived patterns (``load``)
    compared: tuple[tuple[str, re.Pattern[str]], ...] = ()
    compared_after: tuple[tuple[str, re.Pattern[str]], ...] = ()
    conditioned: re.Pattern[str] = re.compile("")
    first: re.Pattern[str] = re.compile("")
    number_word: re.Pattern[str] = re.compile("")
    time: tuple[tuple[str, re.Pattern[str]], ...] = ()
    order: tuple[tuple[str, re.Pattern[str]], ...] = ()
    signs_words: dict[str, tuple[str, ...]] = field(default_factory=dict)
    signs: tuple[tuple[str, re.Pattern[str]], ...] = ()
    """Words that compare with zero ("a negative score": ``<``), per operator (the file's ``[signs]``)."""
    demonyms: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """The adjectives of places and the places' names ("brazilian": Brazil): what the entity linker reads as a place
    where the graph holds no value that is the adjective itself."""
    months: dict[str, int] = field(default_factory=dict)
    """The months' names and short names (the file's ``[months]``): a month said with its year narrows a date."""
    degree: frozenset[str] = frozenset()
    """Every word of a superlative: none is a head word ("the top 5 most reviewed movies" asks for movies)."""

    def scaled(self, text: str) -> tuple[str, dict[float, tuple[float, str]]]:
        """``text`` with each number a scale word multiplies written out ("5 million": "5000000"), and per number
        written out, the number said and its scale word (``{5000000: (5, "million")}``): a property whose key says
        the scale ("budgetMillions") holds the number said."""
        scalings: dict[float, tuple[float, str]] = {}

        def times(m: re.Match[str]) -> str:
            said, word = float(m.group(1).replace(",", "")), m.group(2).lower()
            value = said * self.scales[word]
            scalings[value] = (said, word)
            return str(int(value)) if value.is_integer() else str(value)

        return (self._scaled.sub(times, text), scalings) if self.scales else (text, scalings)

    def dated(self, text: str) -> tuple[str, dict[float, tuple[int, str]]]:
        """``text`` with each month said with its year written as the year alone ("in March 2024": "in 2024", so the
        year's comparison reads as it would), and per such year the month's number and the words said ("March")."""
        months: dict[float, tuple[int, str]] = {}

        def year(m: re.Match[str]) -> str:
            months.setdefault(float(m.group(2)), (self.months[m.group(1).lower()], m.group(1)))
            return m.group(2)

        return (self._dated.sub(year, text), months) if self.months else (text, months)

    @functools.cached_property
    def _dated(self) -> re.Pattern[str]:
        names = "|".join(sorted(self.months, key=len, reverse=True))
        return re.compile(r"\b(" + names + r")\.?,?\s+(?:of\s+)?(\d{4})\b", _CI)

    @functools.cached_property
    def _scaled(self) -> re.Pattern[str]:
        return re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*(" + "|".join(self.scales) + r")\b", _CI)

    def pattern(self, name: str) -> re.Pattern[str]:
        return self.patterns[name]

    def speaks(self, word: str) -> bool:
        """``word`` (one word, any case) is one of the language's own words as this lexicon reads questions: a frame
        word, a number, a superlative, a measure, a sign, or a whole match of a question pattern ("list", "unique",
        "most"). Said unquoted, it is the question's language, not the name of a node ("List all unique tags")."""
        w = word.lower()
        if w in self._words:
            return True
        return any(m.group(0).strip().lower() == w for p in self.patterns.values() for m in p.finditer(w) if m.group(0))

    @functools.cached_property
    def _words(self) -> frozenset[str]:
        listed = (
            self.frame,
            self.number_words,
            self.count_words,
            self.measure,
            self.birth,
            self.copulas,
            self.degree,
            *(ws for _, ws in self.signs_words.items()),
        )
        return frozenset(w.lower() for ws in listed for w in ws)

    def reciprocal_type(self, rel_type: str) -> bool:
        """Whether a relationship type's name says it holds both ways (a word of it is ``reciprocal``)."""
        return any(w in self.reciprocal for w in identifier_words(rel_type).lower().split())

    def value_asked(self, key: str) -> re.Pattern[str]:
        """Where a question asks for the values of property ``key`` by its words (``value_asked``, ``{key}`` the
        key's words: "the IPs of ...", "and their IPs")."""
        return _value_asked(self.value_asked_frame, key)

    def kind_value_asked(self, label: str, key: str) -> re.Pattern[str]:
        """Where a question names the values of property ``key`` of label ``label``'s nodes as one noun
        (``kind_value_asked``: "all network IPs"; a key whose words begin with the label's, as "product names" for
        ``productName``, by its own words)."""
        return _kind_value_asked(self.kind_value_frame, label, key)


READING_OPS = (
    *(">", "<", "=", ">=", "<=", "CONTAINS", "STARTS WITH", "ENDS WITH", "IS NULL", "NOT"),
    *("NOT LINKED", "NOT LINKED BY"),
)
"""The keys ``[reading.ops]`` must have: each condition operator's words, the word that negates a flag, and what a node
without a relationship is (``UNLINKED``, each way round)."""
READING_FRAMES = (
    "unknown_kind", "kind", "is_of", "examples", "list_join", "and", "deed", "of", "by", "rel_to", "same_deed",
    "same", "same_of", "some", "article", "article_vowel", "vowels", "anchor_held", "and_held", "fact",
    "pinned_path", "pinned_enters", "held", "joined", "conditions", "having", "qualified", "linked", "list_k",
    "paired", "paired_linked", "count", "count_values", "common", "common_k", "staged", "staged_time",
    "staged_count", "time", "top_time", "aggregate", "top", "top_sized", "each", "different", "measure", "number_of",
    "top_distinct", "top_aggregate", "top_count", "most_of", "compared", "said", "sized", "has", "lacks", "unlinked",
    "flag", "divisible", "between",
)  # fmt: skip
"""The keys ``[reading.frames]`` must have."""
DIRECTION_WORDS = ("top", "most", "long", "when", "common")
"""The words ``[reading.directions]`` must give each direction (``DESC``, ``ASC``)."""


@functools.lru_cache(maxsize=1024)
def _value_asked(frame: str, key: str) -> re.Pattern[str]:
    return re.compile(frame.replace("{key}", _spoken(identifier_words(key).split())), _CI)


@functools.lru_cache(maxsize=1024)
def _kind_value_asked(frame: str, label: str, key: str) -> re.Pattern[str]:
    kind, said = identifier_words(label).lower().split(), identifier_words(key).lower().split()
    if said[: len(kind)] == kind:  # ``productName`` of ``Product``: "product names"
        said = said[len(kind) :]
    elif said[:1] == kind[-1:]:  # ``centerCode`` of ``DataCenter``: "data center codes"
        said = said[1:]
    if not said:  # a rack's ``rack``: "racks" names the racks
        return re.compile(r"(?!)")
    return re.compile(frame.replace("{kind}", _spoken(kind)).replace("{key}", _spoken(said)), _CI)


def _spoken(words: list[str]) -> str:
    """A group matching ``words`` in a row, any spaces between them ("IP address", "display  name")."""
    return "(?:" + r"\s+".join(re.escape(w) for w in words) + ")"


def _alternation(phrases: tuple[str, ...]) -> str:
    return "|".join(re.escape(p).replace(r"\ ", r"\s+") for p in phrases)


def _time_pattern(phrases: tuple[str, ...], after_verb: str) -> re.Pattern[str]:
    """A time superlative's words and phrases, or the lexicon's pattern of "first" / "last" after a verb."""
    words = r"\b(?:" + _alternation(phrases) + r")\b"
    return re.compile(f"{words}|{after_verb}" if after_verb else words, _CI)


def _opposites(pairs: list[list[str]]) -> dict[str, frozenset[str]]:
    out: dict[str, set[str]] = {}
    for a, b in pairs:
        out.setdefault(str(a), set()).add(str(b))
        out.setdefault(str(b), set()).add(str(a))
    return {k: frozenset(v) for k, v in out.items()}


def parse(name: str, data: dict[str, Any]) -> Lexicon:
    """The lexicon of a lexicon file's contents (``InvalidInputError`` naming what is missing)."""
    try:
        w, pat, reading = data["words"], data["patterns"], data["reading"]
        numbers = {str(k): int(v) for k, v in w["numbers"].items()}
        comparisons = {str(k): str(v) for k, v in data["comparisons"].items()}
        time_words = {d: tuple(ws) for d, ws in data["time"].items()}
        adverbs = {d: tuple(ws) for d, ws in data.get("time_adverbs", {}).items()}
        verbs = {str(d): str(p) for d, p in data.get("time_after_verb", {}).items()}
        order_words = {d: tuple(ws) for d, ws in data["order"].items()}
        patterns = {str(k): re.compile(str(v), _CI) for k, v in pat.items()}
        tail = str(pat["compared_tail"])
        missing = [f"ops.{k}" for k in READING_OPS if k not in reading["ops"]]
        missing += [f"frames.{k}" for k in READING_FRAMES if k not in reading["frames"]]
        ways = reading["directions"]
        missing += [f"directions.{d}.{k}" for d in ("DESC", "ASC") for k in DIRECTION_WORDS if k not in ways[d]]
        if missing:
            raise KeyError(f"reading: {', '.join(missing)}")
        endings = tuple(w["agent_endings"])
        return Lexicon(
            name=name,
            number_words=numbers,
            scales={str(k).lower(): int(v) for k, v in w.get("scales", {}).items()},
            frame=frozenset(w["frame"]),
            range_joins=frozenset(w["range_joins"]),
            count_words=tuple(w["count"]),
            measure=frozenset(w["measure"]),
            birth=tuple(w["birth"]),
            death=tuple(w.get("death", [])),
            agent_endings=endings,
            agent_suffixes=(*w["agent_suffixes"], *endings),
            act_endings=tuple(w.get("act_endings", [])),
            copulas=frozenset(w["copulas"]),
            plurals=tuple((str(a), str(b)) for a, b in w.get("plurals", [["", "s"]])),
            irregular_plurals={str(k): str(v) for k, v in w.get("irregular_plurals", {}).items()},
            passive=frozenset(w.get("passive", [])),
            states=frozenset(w.get("states", [])),
            toward=frozenset(w.get("toward", [])),
            away=frozenset(w.get("away", [])),
            reciprocal=frozenset(w.get("reciprocal", [])),
            opposites=_opposites(w.get("opposites", [])),
            time_words=time_words,
            order_words=order_words,
            measures={str(w): tuple(g["measures"]) for g in data["measures"] for w in g["words"]},
            senses={str(k): frozenset(map(str, v)) for k, v in w.get("senses", {}).items()},
            comparisons=comparisons,
            max_limit=int(data["max_limit"]),
            patterns=patterns,
            op_words=dict(reading["ops"]),
            having_words=dict(reading["having"]),
            aggregate_words=dict(reading["aggregates"]),
            asking=asking_of(data["questions"]),
            frames={str(k): str(v) for k, v in reading["frames"].items()},
            directions={str(d): {str(k): str(v) for k, v in t.items()} for d, t in reading["directions"].items()},
            value_asked_frame=str(pat["value_asked"]),
            kind_value_frame=str(pat["kind_value_asked"]),
            closure_reading=str(reading.get("closure", "")),
            closure_after=str(reading.get("closure_after", "")),
            compared=tuple(
                (op, re.compile(r"(?:^|\W)(?:" + phrases + r")" + tail + "$", _CI))
                for op, phrases in comparisons.items()
            ),
            compared_after=((">=", patterns["or_more"]), ("<=", patterns["or_less"])),
            conditioned=re.compile(r"\b([a-z]+)\s+(?:" + "|".join(comparisons.values()) + r")(" + tail + r")\d", _CI),
            first=re.compile(str(pat["first"]) + r"(?:\d+|" + "|".join(numbers) + r")\b", _CI),
            number_word=re.compile(r"\b(" + "|".join(numbers) + r")\b", _CI),
            time=tuple(
                (d, _time_pattern((*ws, *adverbs.get(d, ())), verbs.get(d, ""))) for d, ws in time_words.items()
            ),
            order=tuple((d, re.compile(r"\b(?:" + _alternation(ws) + r")\b", _CI)) for d, ws in order_words.items()),
            signs_words={str(op): tuple(ws) for op, ws in data["signs"].items()},
            demonyms={str(k).lower(): tuple(str(x) for x in v) for k, v in data.get("demonyms", {}).items()},
            months={str(k).lower(): int(v) for k, v in data.get("months", {}).items()},
            signs=tuple(
                (op, re.compile(r"\b(?:" + _alternation(tuple(ws)) + r")\b", _CI)) for op, ws in data["signs"].items()
            ),
            degree=frozenset(
                x
                for ws in (*order_words.values(), *time_words.values(), *adverbs.values())
                for p in ws
                for x in p.split()
            ),
        )
    except (KeyError, TypeError, ValueError, re.error) as exc:
        raise InvalidInputError(f"text2cypher lexicon {name!r} is incomplete or malformed: {exc!r}") from exc


@functools.lru_cache(maxsize=8)
def load(name: str = "en") -> Lexicon:
    """A bundled lexicon by name (``en``), or a lexicon file by path."""
    with data_file(BUNDLED, name, ".toml", "lexicon").open("rb") as f:
        return parse(name, tomllib.load(f))
