"""Question shapes beyond entity-anchored paths for text2cypher (issue 14): what the graph's data allows
(``app.cypher.shapes``), the constants the question states, and how each shape reads as text.

* :func:`question_literals`: numbers, decades ("the 1990s"), number pairs ("from 1990 to 2000"), small counts
  ("top 3", "first three"), divisors ("divisible by 10") and quoted text. Nothing here knows a data set: only
  English number forms and quotes (and lemminflect's English verb forms: "written" and "writers" name ``WROTE``).
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
import functools
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace

from lemminflect import getAllLemmas

from app.concurrency import BuiltOnce
from app.cypher.candidates import Anchor, CandidateQuery, Direction, Hop, specific_labels
from app.cypher.shapes import (
    AGGREGATES,
    EXISTS,
    MOD,
    NUMBER_OPS,
    Filter,
    Shape,
    property_keys_query,
    property_profile_query,
    text_match_query,
)
from app.retrievers.kg import read_path, with_kind, words
from app.stores.graph.base import GraphSchema, GraphStore
from app.stores.graph.profile import SchemaProfiler, epoch_scale, value_kind, year_start
from app.text import FUNCTION_WORDS, STOPWORDS, surface

NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                "ten": 10}  # fmt: skip
"""Small counts written as words ("the first three"): English, not a data set's vocabulary."""
FRAME_WORDS = frozenset({"list", "find", "show", "name", "give", "get", "return", "display", "tell", "me", "top",
                         "first", "last", "all", "many", "much", "some", "any", "each", "every"})  # fmt: skip
"""Words that open a question or say how many before the noun it asks for ("list the first 3 movies", "find the top
5 actors"): English, not a data set's vocabulary."""
RANGE_JOINS = frozenset({"-", "–", "and", "to", "through", "until", "till"})
"""What joins the two ends of a span of numbers: English, not a data set's vocabulary."""
MAX_LIMIT = 100
ANCHORED_CONDITIONED = 3
"""How many of the most relevant entity-anchored paths have their answers listed with a limit (and, for one-hop
paths, with a condition)."""
TIME_WORDS = {"DESC": ("youngest", "newest", "latest", "most recent"), "ASC": ("oldest", "earliest")}
"""Superlatives that order by a point in time, latest first ("DESC") or earliest first: the youngest person has the
latest birth year, the oldest film the earliest release. English, not a data set's vocabulary."""
ORDER_WORDS = {
    "DESC": ("most", "highest", "largest", "biggest", "greatest", "best", "maximum", "longest"),
    "ASC": ("least", "fewest", "lowest", "smallest", "worst", "minimum", "shortest"),
}
"""Superlatives that ask for an ordering by a measure, the greatest first ("DESC") or the least first; "top" asks
for the greatest first when no superlative says otherwise (``order_intent``). English, not a data set's vocabulary."""
COUNT_WORDS = ("most", "fewest", "least")
"""Superlatives that count ("the most movies"; not "the longest book"). English."""
MEASURE_WORDS = frozenset({"number", "numbers", "amount", "count", "different", "distinct", "total"})
"""Words between a superlative and what it counts ("the highest number of distinct movies"). English."""
YEAR_RANGE = (1000, 2100)
"""A numeric property whose values are all whole numbers in this range is read as a year (``Property.temporal``)."""
UNIX_EPOCH_YEAR = 1970
"""The year Unix time counts from: no earlier year is a condition on a property held as Unix time."""


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
    asks_count: bool = False
    """Whether the question asks how many ("how many", or an imperative "count ..."): ``count_intent``."""
    asks_sharing: bool = False
    """Whether it asks what shares something with its entity (same, share, also, other, co-): ``sharing_intent``."""
    asked: str | None = None
    """The noun a question of the form "what N are the M <phrase>" asks for (N: an attribute of the M its phrase
    describes): ``attribute_frame``."""
    described: list[str] = field(default_factory=list)
    """The words of that phrase, after M."""
    at_least: bool = False
    """Whether a threshold includes its number ("at least 3", "3 or more"): ``>=`` rather than ``>``."""
    words: list[str] = field(default_factory=list)
    """The question's content words (a property they name and some nodes lack is a condition: ``EXISTS``)."""
    heads: list[str] = field(default_factory=list)
    """The first two content words past its opening ("movies" and "someone" in "list the first 3 movies where
    someone ..."; "youngest", "producers" in "who are the top 3 youngest producers"): what it asks for is named
    there (``answer_kind``)."""
    time_order: str | None = None
    """"DESC" when a superlative asks for the latest point in time ("the youngest", "the most recent"), "ASC" for the
    earliest ("the oldest"; ``TIME_WORDS``): ``time_order``."""
    top_noun: str | None = None
    """The noun "the top k" qualifies where nothing says by what to rank ("movies" in "the top 5 movies directed by
    someone born in 1967"; the question's first head word when none follows): ``first_k``."""
    top_doer: str | None = None
    """That noun, where it names no kind with a year of its own and the question names no measure: "the top 3
    producers of ..." are the ones that produced most (``counted_intent``)."""
    most_noun: str | None = None
    """The word a superlative of measure qualifies ("movies" in "who directed the most movies", "the highest number
    of movies"): what a ranking counts (``counted_intent``)."""
    time_noun: str | None = None
    """The word the time superlative qualifies ("movie" in "who directed the oldest movie"): whose year it is."""
    order: str | None = None
    """The direction an ordering by a measure takes: "DESC" for "the most", "the highest", or a bare "top"; "ASC"
    for "the fewest", "the lowest" (``ORDER_WORDS``); None when the question says neither, or both."""
    superlative: bool = False
    """Whether a superlative asks for the greatest or least of something (``ORDER_WORDS``, ``TIME_WORDS``), or the
    question ranks by a measure ("by the number of movies"): then a list in no order, or its first k, is not what it
    asks for (``order_intent``)."""
    orders: bool = False
    """Whether anything in the question asks for an order: a superlative, "top", or "order" / "sort" / "rank"."""
    conditioned: list[str] = field(default_factory=list)
    """Words right before a comparison with a number ("born" in "born before 1980"): they name a condition."""
    first_noun: str | None = None
    """The noun after "the first k" ("movies" in "the first 3 movies Keanu Reeves acted in"): ``first_k``."""
    counts: list[float] = field(default_factory=list)
    """Numbers that say how many answers to give ("top 5", "the first 3", "list 2"): no condition takes them."""
    ops: dict[float, str] = field(default_factory=dict)
    """The comparison the question states for a number ("above 90": ``>``, "before 1980": ``<``, "at least 3":
    ``>=``, "released in 1999": ``=``; ``COMPARISONS``): a condition with that number takes that operator only."""
    doer: tuple[str, bool] | None = None
    """A "who" question's verb, and whether it is passive: "who reviewed movies ..." asks for the one that reviews
    (``("reviewed", False)``), "who was followed by ..." for the one followed (``answer_kind``)."""
    asks_names: bool = False
    """Whether it asks for names or titles ("the names of the people who ...", "name 3 movies"): ``answer_form``."""
    asks_who: bool = False
    """Whether it opens with "who" or "whose": people are answered by their names (``answer_form``)."""
    asks_length: bool = False
    """Whether it speaks of how long something is ("the longest role lists", "the most complex role lists"): rankings
    by how many elements a list holds (``Shape.sized``). Not "the most roles", which as often counts the
    relationships that have them (in the movies gold queries, 5 of the 9 such questions)."""
    asks_variety: bool = False
    """Whether it asks how varied something is ("the most diverse roles", "the most distinct titles"): rankings by
    how many different values each answer has (``Shape.distinct``)."""
    asks_which: bool = False
    """Whether it opens with "which": it asks to pick out which ones, answered by their names where they are picked
    by what they are linked to ("which movies did Lana Wachowski direct?"; ``answer_form``)."""
    asks_more: bool = False
    """Whether it asks for something beside each answer ("... and their release years", "with their ratings", "...
    and what were their ratings?")."""
    divisors: list[int] = field(default_factory=list)
    """Numbers a value must be a multiple of ("a release year divisible by 10"): ``MOD`` conditions; no other
    condition or limit takes them."""
    partial: list[str] = field(default_factory=list)
    """Quoted text the question matches on part of a value ("a tagline containing 'freedom'"): a "which" question
    sees the whole value beside each answer (``answer_form``)."""
    dated: tuple[str, str, str] | None = None
    """``(label, key, direction)``: "the first k" ("ASC") or "the top k" ("DESC", where the question names no
    measure) of a kind with one year of its own that dates no birth, ``key`` on ``label`` ("the first 3 movies
    Keanu Reeves acted in": the earliest released). A list of that kind's first k, in no order, takes them in that
    order once chosen (``first_k``, ``answer_form``): any k answer a list in no order, so the order only says which."""


COMPARISONS = {
    ">": r"(?:more|greater|higher|larger|bigger|later|longer|newer)\s+than|above|over|after|exceeding|beyond|>",
    "<": r"(?:less|fewer|lower|smaller|earlier|shorter|older)\s+than|below|under|before|<",
    ">=": r"at\s+least|no\s+(?:less|fewer)\s+than|>=",
    "<=": r"at\s+most|no\s+more\s+than|up\s+to|<=",
    "=": r"exactly|equal\s+to|equals|of|in|=",
}
"""How a question states the comparison a number takes, in the words before it: English, not a data set's
vocabulary. After it, "or more" / "or less" say ``>=`` / ``<=``."""
_COMPARED = [
    (op, re.compile(r"(?:^|\W)(?:" + phrases + r")\s*(?:the\s+)?(?:year\s+)?$", re.IGNORECASE))
    for op, phrases in COMPARISONS.items()
]
_CONDITIONED = re.compile(
    r"\b([a-z]+)\s+(?:" + "|".join(COMPARISONS.values()) + r")\s*(?:the\s+)?(?:year\s+)?\d", re.IGNORECASE
)
"""A word right before a comparison with a number ("born" in "born before 1980"): it names a condition."""
_COMPARED_AFTER = [(">=", re.compile(r"^\s*or\s+(?:more|greater|higher|above)\b", re.IGNORECASE)),
                   ("<=", re.compile(r"^\s*or\s+(?:less|fewer|lower|below)\b", re.IGNORECASE))]  # fmt: skip
_FIRST = re.compile(r"\bfirst\s+(?:\d+|" + "|".join(NUMBER_WORDS) + r")\b", re.IGNORECASE)
_COUNTS = re.compile(
    r"(?:^|\W)(?:top|first|last|bottom|list|name|find|show|give|return|display|get)\s*$", re.IGNORECASE
)
"""What precedes a number that counts answers: English, not a data set's vocabulary."""
_QUOTED = re.compile(r"""(?<![\w'])'([^']{1,200})'(?![\w'])|"([^"]{1,200})\"""")
_NUMBER = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)(s?)(?!\w|\.\d)")
"""A number not inside a word or a longer number; a sentence's full stop may follow it ("born before 1960.")."""
_NUMBER_WORD = re.compile(r"\b(" + "|".join(NUMBER_WORDS) + r")\b", re.IGNORECASE)
_DIVISOR = re.compile(r"\b(?:divisible\s+by|(?:an?\s+)?(?:whole\s+)?multiples?\s+of)\s+(\d+)\b", re.IGNORECASE)
"""A number a value must be a multiple of: English, not a data set's vocabulary."""
_ASKS_COUNT = re.compile(r"\bhow\s+many\b|^\s*count\b", re.IGNORECASE)
_SHARING = re.compile(r"\b(?:same|share[sd]?|sharing|also|other|co)\b", re.IGNORECASE)
_AT_LEAST = re.compile(r"\bat\s+least\b|\bno\s+(?:fewer|less)\s+than\b|\bor\s+more\b", re.IGNORECASE)
_TIME = {
    d: re.compile(r"\b(?:" + "|".join(w.replace(" ", r"\s+") for w in ws) + r")\b", re.IGNORECASE)
    for d, ws in TIME_WORDS.items()
}
_ORDER = {d: re.compile(r"\b(?:" + "|".join(ws) + r")\b", re.IGNORECASE) for d, ws in ORDER_WORDS.items()}
_DEGREE = frozenset(w for ws in (*ORDER_WORDS.values(), *TIME_WORDS.values()) for p in ws for w in p.split())
"""Superlatives are no head words: "the top 5 most reviewed movies" asks for movies."""
_THRESHOLD = re.compile(r"\bat\s+(?:least|most)\b", re.IGNORECASE)
"""A bound, not a superlative ("at least 3 movies")."""
_TOP = re.compile(r"\btop\b", re.IGNORECASE)
_ORDERING = re.compile(r"\b(?:order|ordered|sort|sorted|rank|ranked|ranking)\b", re.IGNORECASE)
_BY_MEASURE = re.compile(
    r"\b(?:by|in\s+terms\s+of)\s+(?:the\s+|their\s+)?(?:total\s+)?(?:number|count|amount)\s+of\b|\bin\s+terms\s+of\b",
    re.IGNORECASE,
)
"""A ranking by a measure ("the first 3 actors by the number of movies", "the top 3 actors in terms of roles"): it
asks for the greatest first, as a superlative would. English, not a data set's vocabulary."""
_WHO = re.compile(r"^\s*who\s+(?:(?:has|have|had)\s+)?(?:(is|are|was|were|been|be)\s+)?([a-z]+)", re.IGNORECASE)
_NAMES = re.compile(r"\b(?:names?|titles?)\b", re.IGNORECASE)
_OPENS_WHO = re.compile(r"^\s*(?:who|whose)\b", re.IGNORECASE)
_OPENS_WHICH = re.compile(r"^\s*which\b", re.IGNORECASE)
_LENGTH = re.compile(r"\b(?:longest|shortest|lengths?|lists)\b", re.IGNORECASE)
_VARIETY = re.compile(r"\b(?:distinct|different|diverse|diversity|unique|variety|various)\b", re.IGNORECASE)
_MORE = re.compile(
    r"\b(?:and|with|along\s+with|including)\s+(?:their|its|his|her)\b|\band\s+(?:what|which|how|when)\b", re.IGNORECASE
)
_PART_BEFORE = re.compile(
    r"\b(?:contain|contains|containing|include|includes|including|mention|mentions|mentioning|start|starts|starting|"
    r"begin|begins|beginning|end|ends|ending)\b(?:\s+with)?(?:\s+(?:the|a|an))?(?:\s+(?:word|words|phrase|text|"
    r"term|letter))?\s*$",
    re.IGNORECASE,
)
_PART_AFTER = re.compile(r"^\s*(?:is\s+|was\s+|are\s+|were\s+)?(?:mentioned|included|contained)\b", re.IGNORECASE)
"""Quoted text the question matches on part of a value: "a tagline containing the word 'freedom'", "'Robin
Williams' mentioned in the review summary". English, not a data set's vocabulary."""
_ATTRIBUTE = re.compile(r"^\s*(?:what|which)\s+([a-z]+)\s+(?:is|are|was|were)\s+the\s+[a-z]+\s+(.+)$", re.IGNORECASE)
"""English, not a data set's vocabulary."""


def question_literals(question: str) -> QuestionLiterals:
    out = QuestionLiterals(
        asks_count=_ASKS_COUNT.search(question) is not None, asks_sharing=_SHARING.search(question) is not None
    )
    bare = _QUOTED.sub(" ", question)  # numbers and words outside quoted text
    out.at_least = _AT_LEAST.search(question) is not None
    out.words = list(_content_words(bare))
    out.heads = [w for w in out.words if w not in FRAME_WORDS and w not in NUMBER_WORDS and w not in _DEGREE][:2]
    orders = [d for d, pattern in _TIME.items() if pattern.search(bare)]
    out.time_order = orders[0] if len(orders) == 1 else None
    if out.time_order is not None:
        m = _TIME[out.time_order].search(bare)
        assert m is not None
        out.time_noun = next((w for w in _content_words(bare[m.end() :]) if w not in _DEGREE), None)
    out.conditioned = [m.group(1).lower() for m in _CONDITIONED.finditer(bare)]
    first = _FIRST.search(bare)
    if first is not None:  # "the first 3 movies": the noun after it, in case the question names a year (``first_k``)
        out.first_noun = next((w for w in _content_words(bare[first.end() :]) if w not in _DEGREE), None)
    plain = _THRESHOLD.sub(" ", bare)
    directions = [d for d, pattern in _ORDER.items() if pattern.search(plain)]
    top_at = _TOP.search(plain)
    top = top_at is not None
    by_measure = _BY_MEASURE.search(plain) is not None
    out.order = directions[0] if len(directions) == 1 else "DESC" if (top or by_measure) and not directions else None
    ordering = _ORDERING.search(plain) is not None
    unmeasured = not (directions or orders or by_measure or ordering)
    if top_at is not None and unmeasured:  # "the top 5 movies ...", "... limited to top 5": ranked by what? (first_k)
        nouns = [w for w in _content_words(plain[top_at.end() :]) if w not in NUMBER_WORDS and not w.isdigit()]
        out.top_noun = nouns[0] if nouns and nouns[0] not in FRAME_WORDS else out.heads[0] if out.heads else None
    if len(directions) == 1:  # "the most movies", "the highest number of movies": what is counted
        m = _ORDER[directions[0]].search(plain)
        assert m is not None
        nouns = [w for w in _content_words(plain[m.end() :]) if w not in _DEGREE]
        if m.group(0).lower() in COUNT_WORDS or (nouns and nouns[0] in MEASURE_WORDS):
            out.most_noun = next((w for w in nouns if w not in MEASURE_WORDS), None)
    out.superlative = bool(directions or orders or by_measure)
    out.orders = out.superlative or top or ordering
    out.divisors = [int(m.group(1)) for m in _DIVISOR.finditer(bare) if int(m.group(1)) > 1]
    bare = _DIVISOR.sub(" ", bare)  # a divisor is no count, limit or compared number
    out.asks_names = _NAMES.search(bare) is not None
    out.asks_who = _OPENS_WHO.match(bare) is not None
    out.asks_which = _OPENS_WHICH.match(bare) is not None
    out.asks_variety = _VARIETY.search(bare) is not None
    out.asks_length = _LENGTH.search(bare) is not None
    out.asks_more = _MORE.search(bare) is not None
    who = _WHO.match(bare)
    if who and who.group(2).lower() not in STOPWORDS:
        out.doer = (who.group(2).lower(), who.group(1) is not None)
    frame = _ATTRIBUTE.match(question)
    if frame and frame.group(1).lower() not in STOPWORDS:
        out.asked = frame.group(1).lower()
        out.described = list(_content_words(frame.group(2)))
    for m in _QUOTED.finditer(question):
        out.texts.append(m.group(1) or m.group(2))
        if _PART_BEFORE.search(question[: m.start()]) or _PART_AFTER.match(question[m.end() :]):
            out.partial.append(m.group(1) or m.group(2))
    previous: tuple[float, int] | None = None  # the last plain number and where it ended
    for m in _NUMBER.finditer(bare):
        value = float(m.group(1))
        if m.group(2) and value.is_integer() and value % 10 == 0:  # "the 1990s"
            out.ranges.append((value, value + 10))
            previous = None
            continue
        out.numbers.append(value)
        if _COUNTS.search(bare[max(0, m.start() - 20) : m.start()]):
            out.counts.append(value)
        before, after = bare[max(0, m.start() - 40) : m.start()], bare[m.end() : m.end() + 20]
        op = next((o for o, pattern in _COMPARED_AFTER if pattern.search(after)), None)
        op = op or next((o for o, pattern in _COMPARED if pattern.search(before)), None)
        if op is not None:
            out.ops.setdefault(value, op)
        if value.is_integer() and 1 <= value <= MAX_LIMIT:
            out.limits.append(int(value))
        # two numbers joined as one span ("between 1990 and 2000", "from 1990 to 2000", "1990-2000") are a range,
        # inclusive; two numbers of separate conditions ("after 2005 ... before 1960") are not
        if previous is not None and bare[previous[1] : m.start()].strip().lower() in RANGE_JOINS:
            a, b = sorted((previous[0], value))
            if a < b:
                out.ranges.append((a, b + 1 if a.is_integer() and b.is_integer() else b))
        previous = (value, m.end())
    for m in _NUMBER_WORD.finditer(bare):  # "at least three movies" compares, "the top three" counts
        value = float(NUMBER_WORDS[m.group(1).lower()])
        before = bare[max(0, m.start() - 40) : m.start()]
        if _COUNTS.search(bare[max(0, m.start() - 20) : m.start()]):
            out.counts.append(value)
        op = next((o for o, pattern in _COMPARED if o != "=" and pattern.search(before)), None)
        if op is not None:
            out.ops.setdefault(value, op)
    out.limits += [NUMBER_WORDS[w] for w in out.words if w in NUMBER_WORDS]  # no number word is a stopword
    out.limits = list(dict.fromkeys(out.limits))
    return out


@dataclass(frozen=True)
class Property:
    label: str
    key: str
    kind: str
    """``number``, ``text``, ``date`` (text that reads as an ISO date: "1996-07-04"), or ``list`` (a list of
    text)."""
    lo: float | None = None
    hi: float | None = None
    """A number's least and greatest value; a list's fewest and most elements (in the sample read)."""
    values: tuple[object, ...] = ()
    """A few of its values (self-supervised tuning states them in questions)."""
    partial: bool = False
    """Some nodes (relationships) lack it: "movies with a tagline" is a condition."""

    @property
    def whole(self) -> bool:
        """Whether its values (those read) are all whole numbers."""
        return self.kind == "number" and all(
            isinstance(v, int) or (isinstance(v, float) and v.is_integer()) for v in self.values
        )

    @property
    def epoch(self) -> int | None:
        """1 when its values are Unix seconds, 1000 when Unix milliseconds (``profile.epoch_scale``), else None."""
        return epoch_scale(self.lo, self.hi, self.whole) if self.kind == "number" else None

    @property
    def temporal(self) -> bool:
        """A point in time: a date as text, Unix time, or a year (every value a whole number in ``YEAR_RANGE``: a
        birth year, a release year)."""
        if self.kind == "date" or self.epoch is not None:
            return True
        return (
            self.kind == "number"
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

    def numeric(self) -> list[Property]:
        return [p for p in self.properties if p.kind == "number"]

    def ordered(self) -> list[Property]:
        """What an ordering can rank by: numbers, and dates as text (ISO text sorts as time does)."""
        return [p for p in self.properties if p.kind in ("number", "date")]

    def text(self) -> list[Property]:
        return [p for p in self.properties if p.kind in ("text", "list", "date")]


@dataclass
class Profiles:
    labels: dict[str, LabelProfile] = field(default_factory=dict)
    """Per specific label that has a display property."""
    rels: dict[str, LabelProfile] = field(default_factory=dict)
    """Per relationship type that has properties (a review's rating, an actor's roles)."""

    def __bool__(self) -> bool:
        return bool(self.labels)

    def of(self, path: CandidateQuery, var: int, *, edge: bool = False) -> LabelProfile | None:
        """The profile of the path's node ``x{var}`` (``edge``: of its relationship ``r{var}``)."""
        return self.rels.get(path.hops[var - 1].rel_type) if edge else self.labels.get(path.node_kind(var)[0])

    def numeric(self, path: CandidateQuery, var: int, *, edge: bool = False) -> list[Property]:
        """The numeric properties of the path's node ``x{var}`` (``edge``: of its relationship ``r{var}``)."""
        prof = self.of(path, var, edge=edge)
        return prof.numeric() if prof is not None else []

    def ordered(self, path: CandidateQuery, var: int, *, edge: bool = False) -> list[Property]:
        """The properties of the path's node ``x{var}`` an ordering can rank by (``LabelProfile.ordered``)."""
        prof = self.of(path, var, edge=edge)
        return prof.ordered() if prof is not None else []


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
        keys = sorted(str(r["k"]) for r in rows if not str(r["k"]).startswith("_"))
        schema = await self.profiler.get(namespace)
        label = None if edge else schema.labels.get(name)
        display = "" if edge else (label.display if label is not None else None)
        if display is None:
            return None
        props = []
        for key in keys:
            measured = label.properties.get(key) if label is not None else None
            if label is not None and (key == label.id or (measured is not None and measured.opaque >= 0.5)):
                continue  # an identifier (the label's, or hashes) is neither a measure nor a condition
            prof = await self.graph.read(namespace, property_profile_query(name, key, edge=edge), {"sample": 20})
            if not prof or not prof[0].get("c"):
                continue
            p = prof[0]
            values = p.get("sample") or []
            part = p["c"] < (p.get("total") or 0)
            if values and all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
                props.append(Property(name, key, "number", float(p["lo"]), float(p["hi"]), tuple(values), part))
            elif values and all(value_kind(v) == "date" for v in values):
                props.append(Property(name, key, "date", values=tuple(values), partial=part))
            elif values and all(isinstance(v, str) for v in values):
                props.append(Property(name, key, "text", values=tuple(values), partial=part))
            elif values and all(isinstance(v, list) and all(isinstance(e, str) for e in v) for v in values):
                sizes = [len(v) for v in values]
                elements = tuple(e for v in values for e in v)
                props.append(Property(name, key, "list", min(sizes), max(sizes), elements, part))
        if edge and not props:
            return None
        return LabelProfile(name, display, props)

    async def _build(self, namespace: str, schema: GraphSchema) -> Profiles:
        labels = specific_labels(schema.labels)
        found = await asyncio.gather(*(self._profile(namespace, lab, edge=False) for lab in labels))
        rels = await asyncio.gather(*(self._profile(namespace, t, edge=True) for t in schema.relationship_types))
        return Profiles({p.label: p for p in found if p is not None}, {p.label: p for p in rels if p is not None})


Scorer = Callable[[list[Shape]], Awaitable[list[float] | None]]


class ShapeEnumerator:
    def __init__(
        self,
        graph: GraphStore,
        profiles: PropertyProfiles,
        *,
        filter_beam: int = 12,
        shape_budget: int = 0,
        condition_budget: int = 0,
    ) -> None:
        self.graph = graph
        self.profiles = profiles
        self.filter_beam = filter_beam
        self.shape_budget = shape_budget
        """Base shapes scored at most (0: all); beyond it the fewest schema words the question names are dropped."""
        self.condition_budget = condition_budget
        """Label-anchored shapes with a condition scored at most per stage (0: all), chosen the same way."""

    async def enumerate(
        self,
        namespace: str,
        schema: GraphSchema,
        lits: QuestionLiterals,
        paths: Sequence[CandidateQuery],
        score: Scorer,
        entities: Sequence[CandidateQuery] = (),
    ) -> tuple[int, int]:
        """Hand the question's shapes (base, then with conditions) to ``score``, which scores and keeps them; return
        how many base shapes there were (the bound's first stage, for the trace) and how many shapes
        ``shape_budget`` and ``condition_budget`` dropped. ``entities``: see :meth:`base_shapes`."""
        profiles = await self.profiles.get(namespace, schema)
        base = self.base_shapes(schema, profiles, paths, lits, entities)
        enumerated = len(base)
        if self.shape_budget:
            base = within_budget(base, lits.words, self.shape_budget)
        counts = (enumerated, enumerated - len(base))
        scores = await score(base)
        if not base:
            return counts
        conditions = await self._conditions(namespace, profiles, lits)
        if not any(conditions.values()):
            return counts
        # the beam of conditions; entity lists take theirs apart (below), and a named entity's values take none
        keep = [i for i, x in enumerate(base) if x.anchor.name is None or x.kind not in ("list", "attr")]
        kept = [scores[i] for i in keep] if scores is not None else None
        level = _best([base[i] for i in keep], kept, self.filter_beam)
        # the plain lists of a label's nodes (or a pattern's ends) always get a condition: when the question's words
        # name a property its aggregates and orderings fill the beam, and those take no condition on that property
        level += [x for x in base if x.kind == "list" and not x.also and x.anchor.name is None and x not in level]
        # one condition on the answers of the most relevant one-hop entity paths ("the movies Laurence Fishburne
        # acted in, released after 2000"; the plain list is the path itself, a candidate already), scored apart:
        # in the beam they crowded out the label-anchored shapes' second condition
        near = [p for p in paths if len(p.hops) == 1][:ANCHORED_CONDITIONED]
        anchored = [Shape(p, 2, "list", limit=k) for p in near for k in [None, *lits.limits]]
        once = [replace(s, filters=(f,)) for s in anchored for f in _filters_for(s, conditions)]
        if once:
            await score(once)
        for _ in range(2):
            nxt = [
                replace(s, filters=(*s.filters, f))
                for s in level
                for f in _filters_for(s, conditions)
                if not any(_redundant(f, g) for g in s.filters)
            ]
            if not nxt:
                break
            if self.condition_budget:
                budgeted = within_budget(nxt, lits.words, self.condition_budget)
                counts = (counts[0], counts[1] + len(nxt) - len(budgeted))
                nxt = budgeted
            scores = await score(nxt)
            level = _best(nxt, scores, self.filter_beam)
        return counts

    @staticmethod
    def base_shapes(
        schema: GraphSchema,
        profiles: Profiles,
        paths: Sequence[CandidateQuery],
        lits: QuestionLiterals,
        entities: Sequence[CandidateQuery] = (),
    ) -> list[Shape]:
        """Every label-anchored shape, the measures of the entity-anchored ``paths``, and the values of the
        ``entities``' properties: ``entities`` are the linked entities themselves (paths without hops: "the tagline
        of The Matrix") and the relationships joining two of them (one hop closed by the second entity: "the roles
        of Keanu Reeves in The Matrix")."""
        ks = answer_counts(lits)
        # years read as points in time only where the question asks by one ("the youngest"): elsewhere that reading
        # made orderings and aggregates of years relevant enough to fill the condition beam ("actors born after 1970
        # and acted in movies released before 2000" lost its second condition)
        timed = lits.time_order is not None
        labels = profiles.labels
        patterns: list[tuple[CandidateQuery, list[int], tuple[str, ...]]] = []
        for prof in labels.values():
            patterns.append((CandidateQuery(Anchor(None, prof.label, prof.key), ()), [1], ()))
        pairs: dict[tuple[str, str], list[str]] = {}
        for triple in schema.triples:
            a, b = labels.get(triple.source), labels.get(triple.target)
            if a is None or b is None:
                continue
            hop = Hop(triple.rel_type, "out", b.label, b.key)
            patterns.append((CandidateQuery(Anchor(None, a.label, a.key), (hop,)), [1, 2], ()))
            pairs.setdefault((a.label, b.label), []).append(triple.rel_type)
        for (src, dst), types in pairs.items():  # two (three) relationships between the same two nodes
            types = sorted(set(types))
            named = [t for t in types if _named(t, lits.words)]
            for i, first in enumerate(types):
                hop = Hop(first, "out", dst, labels[dst].key)
                path = CandidateQuery(Anchor(None, src, labels[src].key), (hop,))
                patterns += [(path, [1, 2], (second,)) for second in types[i + 1 :]]
                if first in named:  # three, where the question names each ("acted in, directed and produced")
                    later = [t for t in named if t > first]
                    patterns += [(path, [1, 2], (b, c)) for j, b in enumerate(later) for c in later[j + 1 :]]
        out: list[Shape] = []
        for path, targets, also in patterns:
            for t in targets:
                if also:
                    out.append(Shape(path, t, "list", also=also))
                    out += [Shape(path, t, "list", also=also, limit=k) for k in lits.limits]
                    out.append(Shape(path, t, "count", also=also))
                    continue
                out.append(Shape(path, t, "list"))
                out += [Shape(path, t, "list", limit=k) for k in lits.limits]
                out += _measures(path, t, profiles, ks, timed)
                out += _attributes(path, t, profiles, paired=True)
                if lits.superlative:  # "the 3 most common taglines"
                    out += _commons(path, t, profiles, ks, lits.order)
                if lits.superlative and path.hops:  # the targets by what they are linked to: "who directed the
                    other = 3 - t  # oldest movie"
                    out += [
                        Shape(path, t, "top", prop=p.key, fn=d, limit=k, prop_var=other, temporal=timed and p.temporal)
                        for p in profiles.ordered(path, other)
                        for d in ("DESC", "ASC")
                        for k in ks
                    ]
                rel = profiles.of(path, 1, edge=True) if path.hops else None  # the first relationship's profile
                if lits.superlative and lits.asks_length and rel is not None:  # by how many elements a list holds:
                    out += [  # "the movies with the longest role lists"
                        Shape(path, t, "top", prop=p.key, fn=d, limit=k, prop_on=1, sized=True)
                        for p in rel.properties
                        if p.kind == "list"
                        for d in ("DESC", "ASC")
                        for k in ks
                    ]
                if path.hops:
                    other = 3 - t
                    # more than (at least) k of the other end, listed (another of the question's small numbers
                    # as the limit) or, when the question asks how many, counted
                    op = ">=" if lits.at_least else ">"
                    for k in lits.limits:
                        out += [
                            Shape(path, t, "list", other=other, having=(op, k), limit=lim)
                            for lim in [None, *(x for x in lits.limits if x != k)]
                        ]
                        if lits.asks_count:
                            out.append(Shape(path, t, "count", other=other, having=(op, k)))
                    out += [Shape(path, t, "group", fn=d, other=other, limit=k) for d in ("DESC", "ASC") for k in ks]
                    out += [
                        Shape(path, t, "group", prop=p.key, prop_on=1, fn=d, limit=k)
                        for p in profiles.numeric(path, 1, edge=True)
                        for d in ("DESC", "ASC")
                        for k in ks
                    ]
                    if lits.asks_variety:  # "the actors with the most diverse roles": how many different values
                        owners = [(1, None, rel), (None, other, profiles.of(path, other))]
                        out += [
                            Shape(path, t, "group", prop=p.key, prop_on=on, prop_var=var, fn=d, limit=k, distinct=True)
                            for on, var, prof in owners
                            for p in (prof.properties if prof is not None else [])
                            for d in ("DESC", "ASC")
                            for k in ks
                        ]
        for path in paths:  # the entity-anchored paths: how many, aggregates, orderings and values of their answers
            out += _measures(path, len(path.hops) + 1, profiles, ks, timed)
            out += _attributes(path, len(path.hops) + 1, profiles, paired=True)
            if lits.superlative:  # "the most common roles in X"
                out += _commons(path, len(path.hops) + 1, profiles, ks, lits.order)
        for path in entities:  # what a linked entity is, and how two of them are linked
            out += _attributes(path, 1, profiles, node=not path.hops)
            if lits.asks_count and not path.hops:  # how many of a kind it is linked to, none included ("how many
                out += _schema_counts(schema, profiles, path.anchor)  # people reviewed X": 0)
        for path in paths[:ANCHORED_CONDITIONED]:  # ... and the first k of them ("the first 3 actors in X")
            out += [Shape(path, len(path.hops) + 1, "list", limit=k) for k in lits.limits]
            own = profiles.of(path, 1)
            if lits.asks_more and len(path.hops) == 1 and own is not None:  # each with a value of the entity's own
                out += [  # ("who produced X and what year was it released?")
                    Shape(path, 2, "attr", prop=p.key, prop_var=1, paired=True)
                    for p in own.properties
                    if p.key != own.key
                ]
        return out

    async def _conditions(self, namespace: str, profiles: Profiles, lits: QuestionLiterals) -> Conditions:
        """Per ``(label, False)`` and ``(relationship type, True)``, the conditions the question's constants allow on
        its nodes (relationships), as filters on no node yet (``_filters_for`` places them)."""
        out: Conditions = {}
        # quoted text that linked an entity may also be what a text holds ("'Robin Williams' mentioned in the review
        # summary"); a shape anchored at that entity takes no such condition (_filters_for)
        texts = lits.texts

        async def text_ops(p: Property, s: str, edge: bool) -> list[Condition]:
            listed = p.kind == "list"
            q = text_match_query(p.label, p.key, edge=edge, is_list=listed)
            rows = await self.graph.read(namespace, q, {"s": s})
            r = rows[0] if rows else {}
            ops = [("=", r.get("eq")), ("STARTS WITH", r.get("starts")), ("CONTAINS", r.get("contains"))]
            return [Filter(0, p.key, op, s, listed=listed) for op, n in ops if n]

        years = [int(v) for v in lits.numbers if float(v).is_integer() and YEAR_RANGE[0] <= v <= YEAR_RANGE[1]]
        elements = [((n, False), prof) for n, prof in profiles.labels.items()]
        elements += [((n, True), prof) for n, prof in profiles.rels.items()]
        for element, prof in elements:
            conds: list[Condition] = []
            for p in prof.numeric():
                assert p.lo is not None and p.hi is not None
                conds += [
                    Filter(0, p.key, op, _num(v)) for v in lits.numbers if p.lo <= v <= p.hi for op in _ops(v, lits)
                ]
                conds += [
                    Filter(0, p.key, "range", (_num(lo), _num(hi)))
                    for lo, hi in lits.ranges
                    if p.lo <= lo <= p.hi and p.lo < hi <= p.hi + 10  # both ends among the property's values
                ]
                if p.whole:
                    conds += [Filter(0, p.key, MOD, k) for k in lits.divisors if k <= max(abs(p.lo), abs(p.hi))]
            for p in prof.properties:  # a year said of a date held as text or as Unix time ("asked before 2021")
                if p.kind == "date" or p.epoch is not None:  # Unix time begins in 1970: "1024" is no year of it
                    held = [y for y in years if p.epoch is None or y >= UNIX_EPOCH_YEAR]
                    conds += [_year_filter(p, op, y) for y in held for op in _ops(y, lits)]
            found = await asyncio.gather(*(text_ops(p, s, element[1]) for p in prof.text() for s in texts))
            conds += [c for group in found for c in group]
            conds += [
                Filter(0, p.key, EXISTS, None) for p in prof.properties if p.partial and _named(p.key, lits.words)
            ]
            for p in prof.properties:  # how many elements a list holds ("more than 3 roles")
                if p.kind == "list" and p.hi is not None:
                    most = max(2 * p.hi, 10)
                    counts = [v for v in lits.numbers if float(v).is_integer() and 0 <= v <= most]
                    conds += [Filter(0, p.key, op, _num(v), sized=True) for v in counts for op in _ops(v, lits)]
            out[element] = conds
        return out


BIRTH_WORDS = ("born", "birth")
"""Words of a year that dates a thing's birth: "the top k" of a kind dated by its birth are not its youngest ("the
top 3 actors in X" are not the 3 born last). English, not a data set's vocabulary."""


def first_k(lits: QuestionLiterals, profiles: Profiles) -> None:
    """What "the first k" and "the top k" rank by where the question does not say. "The first k" of something whose
    year the question names ("the first 3 movies Keanu Reeves acted in, with their release years") are the earliest
    k: the question then asks by time (``time_order`` "ASC", the noun after "first" saying whose year), as "the 3
    oldest" would; without a named year, or with a year named only by its condition ("the first 5 people born before
    1980"), they are any k. "The top k" of a kind with one year of its own that dates no birth (``BIRTH_WORDS``),
    where the question names no measure to rank by (``lits.top_noun``), are the latest k ("the top 5 movies directed
    by someone born in 1967"); of the doers of something, the ones that did it most ("the top 3 producers of movies
    with a tagline including 'Speed'"; ``lits.top_doer``, read by ``counted_intent``). Sets ``lits.time_order`` and
    ``lits.time_noun`` (or ``lits.top_doer``) when the question has no time superlative of its own."""
    if lits.time_order is not None:
        return
    said = [w for w in lits.words if w not in lits.conditioned]
    noun = lits.first_noun if lits.first_noun is not None else lits.top_noun
    year = own_year(profiles, noun) if noun is not None else None
    if lits.first_noun is not None:
        if year is not None:
            lits.dated = (*year, "ASC")
        years = [
            p.key
            for prof in (*profiles.labels.values(), *profiles.rels.values())
            for p in prof.properties
            if p.temporal
        ]
        if any(_named(key, said) for key in years):
            lits.time_order, lits.time_noun = "ASC", lits.first_noun
        return
    if lits.top_noun is None:
        return
    measures = [p.key for prof in (*profiles.labels.values(), *profiles.rels.values()) for p in prof.numeric()]
    if any(_named(key, said) for key in measures if year is None or key != year[1]):  # "the top 5 movies with ratings"
        return
    if year is not None:
        lits.time_order, lits.time_noun = "DESC", lits.top_noun
        lits.dated = (*year, "DESC")
    else:
        lits.top_doer = lits.top_noun


def own_year(profiles: Profiles, noun: str) -> tuple[str, str] | None:
    """``(label, key)``: the one year property of the kind ``noun`` names, where it dates no birth (``BIRTH_WORDS``);
    None when that kind has none, or several."""
    own = [
        (prof.label, p.key)
        for prof in profiles.labels.values()
        if _named(prof.label, [noun])
        for p in prof.properties
        if p.temporal
    ]
    if len(own) != 1 or _dates_birth(own[0][1]):
        return None
    return own[0]


def answer_form(c: CandidateQuery | Shape, lits: QuestionLiterals) -> CandidateQuery | Shape:
    """The chosen candidate returning its answers the way the question asks for them (candidates are enumerated and
    scored returning display values). A question that asks for things, not their names ("list the movies ...",
    "find the people who ..."), gets the nodes themselves, every property with them; one that asks for names or
    titles, opens with "who" (people are answered by name), opens with "which" about answers reached through a
    relationship ("which movies did X direct?": it picks them out by name) or asks for something beside each answer
    ("... and their ratings") keeps the display values. A list of what two relationships link ("who acted in and
    directed the same movie") returns both ends of the pair, unless the question asks for names; and so does one
    that asks for the other end beside each answer ("... and what are those movies?"). An ordering returns
    the nodes only when the question does not name the property it orders by ("the 5 most recent movies"; not "...
    by release year"), which it would then expect to see, and where the property dates no birth ("the oldest
    people" compares ages: each name with the birth year). Most/fewest (``group``) always group by the node, not by
    the name the candidate was scored with. A relationship's property is returned beside the node it is asked of,
    when that node is no linked entity ("the roles of the actors in X": each actor and their roles; "the roles of
    Keanu Reeves in The Matrix": the roles alone). A list of the first k (or top k) of a kind with a year of its
    own takes them in that year's order (``lits.dated``: "the first 3 movies Keanu Reeves acted in" are the earliest
    3; any 3 answer it, the order says which). A "which" question whose list matched part of a text sees that text
    beside each answer ("which movies have a tagline containing 'freedom'": each title and its tagline). An
    ordering by what the answers are linked to names it beside them where the question names it ("who directed the
    oldest movie": each director, the movie and its year). English, not a data set's vocabulary."""
    if isinstance(c, Shape) and c.kind == "group":  # by the node: two of one name are two (it returns names)
        return replace(c, form="nodes")
    if isinstance(c, Shape) and c.kind == "list" and c.having is None and not c.also:  # one node, no threshold
        dated = lits.dated
        if c.limit is not None and dated is not None and c.path.node_kind(c.target)[0] == dated[0]:
            c = replace(c, ordered=dated[1:])  # "the first 3 movies ...": the earliest 3, whatever form they take
        shown = tuple((f.var, f.key, f.edge) for f in c.filters if _shows(c, f, lits)) if lits.asks_which else ()
        if shown:  # "which movies have a tagline containing 'freedom'": each title and the tagline that matched
            return replace(c, shown=shown, form="names")
    o = c.ordered_by() if isinstance(c, Shape) and c.kind == "top" else None
    if isinstance(c, Shape) and o is not None and not lits.asks_names and _kind_named(c, o, lits.words):
        return replace(c, form="pairs")  # "who directed the oldest movie": each director, the movie and its year
    if isinstance(c, Shape) and c.kind == "attr" and c.prop_on is not None and not c.paired:
        named = c.anchor.name is not None and c.target == 1
        return c if named else replace(c, paired=True)
    if isinstance(c, Shape) and c.kind == "list" and c.having is None and c.also and c.target in (1, 2):
        return c if lits.asks_names else replace(c, form="pairs")  # also for "... and what are those movies?"
    if lits.asks_names or lits.asks_more:
        return c
    if isinstance(c, CandidateQuery):
        return c if lits.asks_who or lits.asks_which else replace(c, nodes=True)
    if c.kind == "list" and c.having is None:
        return c if lits.asks_who or (lits.asks_which and c.hops) else replace(c, form="nodes")
    if c.kind == "top" and c.owns_prop(c.target) and not lits.asks_who and not _named(c.prop or "", lits.words):
        return c if _dates_birth(c.prop or "") else replace(c, form="nodes")  # "the oldest people": names and years
    return c


def _dates_birth(key: str) -> bool:
    """Whether a property dates a birth (``BIRTH_WORDS``): a ranking by it compares ages."""
    return any(w.startswith(BIRTH_WORDS) for w in _term_words(key))


def _shows(c: Shape, f: Filter, lits: QuestionLiterals) -> bool:
    """Whether a list shows the value its condition ``f`` matched part of (quoted text the question matches on part
    of a value: ``lits.partial``), a property of the answer itself or of the relationship that reaches it."""
    if f.op not in ("CONTAINS", "STARTS WITH") or f.listed or f.value not in lits.partial:
        return False
    if not f.edge and f.var == c.target and f.key == c.path.node_kind(c.target)[1]:
        return False  # the display value it matched part of is the answer's own column already
    return c.target in (f.var, f.var + 1) if f.edge else f.var == c.target


def _ops(v: float, lits: QuestionLiterals) -> tuple[str, ...]:
    """The comparisons a condition with number ``v`` may take: the one the question states, else any of
    ``NUMBER_OPS``; none when the number only says how many answers to give ("the top 5")."""
    if v in lits.ops:
        return (lits.ops[v],)
    return () if v in lits.counts and lits.numbers.count(v) == 1 else NUMBER_OPS


def _year_filter(p: Property, op: str, year: int) -> Filter:
    """A comparison with a year on a point in time that is no year itself: a date held as ISO text, compared as
    text (which orders as time does), or Unix time (``Property.epoch``), compared with the time the years begin.
    In 1996 is ``STARTS WITH "1996"`` (Unix time: from the start of 1996 to the start of 1997), after 1996 ``>=``
    the start of 1997, before 1996 ``<`` the start of 1996."""

    def start(y: int) -> str | int:
        return str(y) if p.kind == "date" else year_start(y, p.epoch or 1)

    if op == "=":
        if p.kind == "date":
            return Filter(0, p.key, "STARTS WITH", str(year))
        return Filter(0, p.key, "range", (start(year), start(year + 1)))
    if op in (">", "<="):
        return Filter(0, p.key, ">=" if op == ">" else "<", start(year + 1))
    return Filter(0, p.key, op if op in ("<", ">=") else "<", start(year))


Condition = Filter
"""A condition on no node yet (``var`` 0): ``_filters_for`` places it on each node (relationship) it fits."""
Conditions = dict[tuple[str, bool], list[Condition]]


def _measures(path: CandidateQuery, t: int, profiles: Profiles, ks: list[int], timed: bool) -> list[Shape]:
    """How many of node ``x{t}`` there are, aggregates of its numeric properties (and of its last relationship's),
    the top ``k`` by each. ``timed``: the question has a time superlative, and orderings and aggregates of a year are
    read as points in time (``Shape.temporal``)."""
    out = [Shape(path, t, "count")]
    owners: list[tuple[int | None, list[Property]]] = [(None, profiles.ordered(path, t))]
    if path.hops and (path.anchor.name is None or t == len(path.hops) + 1):
        owners.append((len(path.hops), profiles.ordered(path, len(path.hops), edge=True)))
    for on, ordered in owners:
        out += [
            Shape(path, t, "agg", prop=p.key, fn=fn, prop_on=on, temporal=timed and p.temporal)
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


def _attributes(
    path: CandidateQuery, t: int, profiles: Profiles, *, node: bool = True, paired: bool = False
) -> list[Shape]:
    """The values of node ``x{t}``'s properties (``node``; its display property is what a list returns) and of the
    properties of the relationship next to it (the one that reaches it, or the first one when ``t`` is 1): "the
    birth years of ...", "the roles of Keanu Reeves in The Matrix". ``paired``: also each node with its value ("the
    actors of X and their roles")."""
    out: list[Shape] = []
    prof = profiles.of(path, t) if node else None
    if prof is not None:
        out += [
            Shape(path, t, "attr", prop=p.key, listed=p.kind == "list") for p in prof.properties if p.key != prof.key
        ]
    if path.hops:
        on = t - 1 if t >= 2 else 1
        rel = profiles.of(path, on, edge=True)
        out += [
            Shape(path, t, "attr", prop=p.key, prop_on=on, listed=p.kind == "list")
            for p in (rel.properties if rel else [])
        ]
    return out + [replace(s, paired=True) for s in out] if paired else out


def _schema_counts(schema: GraphSchema, profiles: Profiles, anchor: Anchor) -> list[Shape]:
    """How many nodes the linked entity is linked to by each relationship type its label takes part in (the
    schema's, not only the ones this entity has: a count of none is an answer)."""
    labels = profiles.labels
    hops: dict[Hop, None] = {}
    for t in schema.triples:
        if t.source == anchor.label and t.target in labels:
            hops[Hop(t.rel_type, "out", t.target, labels[t.target].key)] = None
        if t.target == anchor.label and t.source in labels:
            hops[Hop(t.rel_type, "in", t.source, labels[t.source].key)] = None
    return [Shape(CandidateQuery(anchor, (h,)), 2, "count") for h in hops]


def _commons(path: CandidateQuery, t: int, profiles: Profiles, ks: list[int], order: str | None) -> list[Shape]:
    """The most and least frequent values of ``_attributes``' properties, all of them in that order ("the most common
    roles in X") or the first ``k`` ("the 3 most common taglines", "the most common tagline"); a list property's
    elements counted one by one. ``order``: the direction the question asks for, when it says one (else both)."""
    limits: list[int | None] = [None, *ks]
    directions = [order] if order is not None else ["DESC", "ASC"]
    return [
        replace(a, kind="common", fn=d, limit=k)
        for a in _attributes(path, t, profiles)
        for d in directions
        for k in limits
    ]


def _filters_for(s: Shape, conditions: Conditions) -> list[Filter]:
    """Conditions on the shape's label-anchored nodes, or on the nodes its path reaches (not on a linked entity), and
    on its relationships."""
    first = 1 if s.anchor.name is None else 2
    out = []
    for var in range(first, len(s.hops) + 2):
        label = s.path.node_kind(var)[0]
        out += [replace(c, var=var) for c in conditions.get((label, False), [])]
    for var, hop in enumerate(s.hops, start=1):
        out += [replace(c, var=var, edge=True) for c in conditions.get((hop.rel_type, True), [])]
    # a condition on the property the shape aggregates or orders by says what the aggregate already says; and quoted
    # text that names the shape's entity is used up ("a tagline mentioning 'speed'" linked Speed Racer: from there,
    # no tagline condition with 'speed' as well)
    name = (s.anchor.name or "").lower()
    return [
        f
        for f in out
        if f not in s.filters
        and not (f.key == s.prop and s.owns_prop(f.var, edge=f.edge))
        and not (name and isinstance(f.value, str) and (f.value.lower() in name or name in f.value.lower()))
    ]


def _redundant(f: Filter, g: Filter) -> bool:
    """Whether condition ``f`` adds nothing to ``g`` or takes the same constant again: a property that has a value
    condition is there already."""
    if f.value is not None and f.value == g.value:
        return True
    same = (f.var, f.key, f.edge) == (g.var, g.key, g.edge)
    return same and EXISTS in (f.op, g.op)


BOUNDS = (">", "<", ">=", "<=")
"""The comparisons that bound a value (not ``=``): a number stated with one is no count of answers."""


def answer_counts(lits: QuestionLiterals) -> list[int]:
    """How many answers a ranking or a greatest / least may take: the question's small numbers (``lits.limits``)
    but those it compares with ("a rating above 90", "at least 3 movies"), unless one also counts answers ("the top
    3 ... at least 3"); one where none is left ("who has reviewed the most movies with a rating above 90": not the
    top 90)."""
    return [k for k in lits.limits if k not in lits.ops or k in lits.counts] or [1]


def constants_used(c: CandidateQuery | Shape, lits: QuestionLiterals) -> int:
    """How many of the question's stated constants (numbers, quoted text: ``question_literals``) a candidate uses, in
    a condition, as its limit, or as a linked entity's name."""
    path = c if isinstance(c, CandidateQuery) else c.path
    quoted = sum(1 for a in (path.anchor, path.end) if a is not None and a.name is not None and a.name in lits.texts)
    if isinstance(c, CandidateQuery):
        return quoted
    values: set[object] = set()
    for f in c.filters:
        if f.op == "range":  # a decade is one constant, "from 1990 to 2000" two
            lo, hi = f.value
            values.add(lo)
            values.update([hi - 1] if hi - 1 in lits.numbers else [])
        elif f.op not in (EXISTS, MOD):
            values.add(f.value)
    used = sum(1 for v in values if v in lits.numbers or v in lits.texts or any(v == lo for lo, _ in lits.ranges))
    used += sum(1 for f in c.filters if f.op == MOD and f.value in lits.divisors)
    # a number the question states once counts once: "rated higher than 90" is no limit of 90 as well, and each
    # further use of it costs one; nor is a number the question compares with ("above 90") a limit
    once = {v for v in values if isinstance(v, int | float) and lits.numbers.count(v) <= 1}
    having = c.having is not None and c.having[1] in lits.limits and c.having[1] not in once
    # nor is a number the question states as a threshold ("who produced at least three movies") a limit, unless it
    # also counts answers ("the top 3 ... at least 3")
    compares = c.limit is not None and lits.ops.get(c.limit) in BOUNDS
    threshold = compares and c.limit not in lits.counts
    limit = c.limit is not None and c.limit in lits.limits and c.limit not in once and not threshold
    compared = compares and c.limit in once
    again = sum(1 for k in (c.limit, c.having[1] if c.having else None) if k is not None and k in once)
    return used + quoted + limit + having - again - compared


def shape_terms(c: Shape) -> list[str]:
    """The labels, relationship types and property keys a shape names."""
    labels = [c.path.node_kind(i)[0] for i in range(1, len(c.hops) + 2)]
    return [lab for lab in labels if lab] + schema_terms(c)


def lexical_overlap(c: Shape, qwords: Sequence[str]) -> int:
    """How many of the question's words name one of the shape's labels, relationship types or property keys
    (``_names``: a shared stem, a verb form, a compound)."""
    tw = {w for t in shape_terms(c) for w in _term_words(t)}
    return sum(1 for q in dict.fromkeys(qwords) if any(_names(w, q) for w in tw))


def within_budget(shapes: list[Shape], qwords: Sequence[str], budget: int) -> list[Shape]:
    """The shapes anchored at a linked entity, and the ``budget`` label-anchored ones whose labels, relationship
    types and properties the question names most (``lexical_overlap``; ties: the smaller shape, then enumeration
    order), in enumeration order. The cross-encoder reads every base shape otherwise: on a schema of 17 labels some
    1,200 a question, five seconds on this CPU, most of them about labels the question never names."""
    free = [i for i, c in enumerate(shapes) if c.anchor.name is None]
    if len(free) <= budget:
        return shapes
    overlap = {i: lexical_overlap(shapes[i], qwords) for i in free}
    dropped = set(sorted(free, key=lambda i: (-overlap[i], shapes[i].size, i))[budget:])
    return [c for i, c in enumerate(shapes) if i not in dropped]


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


def with_article(noun: str) -> str:
    """``award`` → "an award", ``tagline`` → "a tagline"."""
    return f"{'an' if noun[:1] in 'aeiou' else 'a'} {noun}"


def filter_reading(f: Filter, kind: str) -> str:
    """``kind``: the words of the node's label (of the relationship's type for a condition on a relationship)."""
    prop = f"number of {words(f.key)}" if f.sized else words(f.key)
    if f.op == EXISTS:
        return f"{kind} that has {with_article(prop)}"
    if f.op == MOD:
        return f"{kind} {prop} divisible by {_value_text(f.value)}"
    if f.op == "range":
        lo, hi = f.value
        return f"{kind} {prop} between {_value_text(lo)} and {_value_text(hi - 1 if float(hi).is_integer() else hi)}"
    return f"{kind} {prop} {_OP_WORDS.get(f.op, f.op)} {_value_text(f.value)}"


def node_reading(path: CandidateQuery | Shape, target: int) -> str:
    """The pattern's node ``x{target}`` in words: "person", "person produced a movie", "movie acted in by X"."""
    if not isinstance(path, CandidateQuery):  # a shape: its pattern, and the relationships it adds
        s, path = path, path.path
        if s.also:
            hop = path.hops[0]
            rel = " and ".join(words(t) for t in (hop.rel_type, *s.also))
            return node_reading(CandidateQuery(path.anchor, (replace(hop, rel_type=rel),)), target)
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


_HAVING_WORDS = {">": "more than", ">=": "at least"}
_AGG_WORDS = {"avg": "average", "max": "highest", "min": "lowest", "sum": "total"}


def shape_reading(s: Shape) -> str:
    base = node_reading(s, s.target)
    conds = [
        filter_reading(f, words(s.hops[f.var - 1].rel_type if f.edge else s.path.node_kind(f.var)[0]))
        for f in s.filters
    ]
    where = (" with " + " and ".join(conds)) if conds else ""
    if s.having is not None:
        other = words(s.path.node_kind(s.other or 1)[0]) or "entity"
        where += f" with {_HAVING_WORDS[s.having[0]]} {s.having[1]} {other}"
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
            a, b = surface(s.anchor.name or ""), surface(s.path.end.name or "")
            base = f"{a} {words(hop.rel_type)} {b}" if hop.direction == "out" else f"{b} {words(hop.rel_type)} {a}"
            prop = words(s.prop or "")
        if s.paired:  # the answers' own values, or (``prop_var``) the linked entity's beside them
            return f"{base}{where} and {'the' if s.prop_var is not None else 'their'} {prop}"
        return f"{prop} of {base}{where}"
    if s.kind == "count":
        return f"how many: number of {base}{where}"
    if s.kind == "common":
        first = f"the {s.limit}" if s.limit is not None else "the"
        return f"{first} {'least' if s.fn == 'ASC' else 'most'} common {prop} of {base}{where}, how often each"
    order = shape_time_order(s)
    if order is not None:  # a year: "the latest born: the youngest, newest"
        when = "latest" if order == "DESC" else "earliest"
        lead = f"top {s.limit} {base}{where} with the" if s.kind == "top" else "the"
        tail = "" if s.kind == "top" else f" of {base}{where}"
        return f"{lead} {when} {prop}{tail}: the {', '.join(w for w in TIME_WORDS[order] if w != when)}"
    if s.kind == "agg":
        return f"{_AGG_WORDS.get(s.fn or '', s.fn)} {prop} of {base}{where}"
    top = "highest" if s.fn == "DESC" else "lowest"
    if s.kind == "top" and s.sized:  # "the most roles: the longest roles lists"
        most, long = ("most", "longest") if s.fn == "DESC" else ("fewest", "shortest")
        return f"top {s.limit} {base}{where} with the {most} {prop}: the {long} {prop} lists, and their {prop}"
    if s.kind == "top":
        return f"top {s.limit} {base}{where} with the {top} {prop}"
    if s.prop and s.distinct:
        most = "most" if s.fn == "DESC" else "fewest"
        return f"top {s.limit} {base}{where} with the {most} different {prop}: the {top} number of distinct {prop}"
    if s.prop:
        return f"top {s.limit} {base}{where} with the {top} average {prop}"
    most, number = ("most", "highest") if s.fn == "DESC" else ("fewest", "lowest")
    other = words(s.path.node_kind(s.other or 1)[0]) or "entity"
    # "the highest number of" as well: the cross-encoder read "the 3 movies with the highest number of reviewers" as
    # nearer "the top 3 by release year" (1.72) than "... with the most person" (0.39); with it, 2.21
    return f"top {s.limit} {base}{where} with the {most} {other}: the {number} number of {other}"


# --- schema words the question mentions ---------------------------------------------------------------------------
def schema_terms(c: CandidateQuery | Shape) -> list[str]:
    """The relationship types and property keys a candidate uses (what it says about the graph, beyond labels), one
    entry per use: a relationship type on two hops is there twice."""
    terms = [h.rel_type for h in c.hops]
    if isinstance(c, Shape):
        terms += [*c.also, *(f.key for f in c.filters), *([c.prop] if c.prop else [])]
    return terms


def _stem_match(a: str, b: str) -> bool:
    """Two words share a stem: a common prefix of at least 3 letters, falling short of the shorter word by at most
    2 (``directed``/``directors``, ``acted``/``actors``, ``reviews``/``reviewed``)."""
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n >= 3 and n >= min(len(a), len(b)) - 2


@functools.lru_cache(maxsize=8192)
def _verb_lemmas(word: str) -> frozenset[str]:
    """The verbs an English word form is a form of (``wrote``, ``written`` → write), from lemminflect's dictionary;
    none for a word it does not know as a verb."""
    return frozenset(getAllLemmas(word, upos="VERB").get("VERB", ()))


def _same_verb(a: str, b: str) -> bool:
    """Two words are forms of one verb, or one is the noun for the doer of the other ("wrote" / "written" /
    "writers"): irregular forms share no stem."""
    la, lb = _verb_lemmas(a), _verb_lemmas(b)
    if la & lb:
        return True
    return any(b == v + s for v in la for s in AGENT_SUFFIXES) or any(a == v + s for v in lb for s in AGENT_SUFFIXES)


def _names(term_word: str, word: str) -> bool:
    """A question word names a schema word: they share a stem, are forms of one verb (``WROTE`` named by "written"
    or "writers"), or the word contains the schema word's first four letters (a compound: ``written`` in
    "screenwriters", ``rating`` in "ratings")."""
    return (
        _stem_match(term_word, word) or (len(term_word) >= 4 and term_word[:4] in word) or _same_verb(term_word, word)
    )


@functools.lru_cache(maxsize=1024)
def _content_words(text: str) -> tuple[str, ...]:
    """A text's words that are no function words ("question" and "answer" stay: a graph of questions and answers
    names its labels so). Cached: ``mentions`` reads the same question once per candidate (some 300 times a movies
    question)."""
    return tuple(w for w in re.findall(r"[a-z]+", text.lower()) if w not in FUNCTION_WORDS)


@functools.lru_cache(maxsize=4096)
def _term_words(term: str) -> tuple[str, ...]:
    """A schema term's content words (``HAS_GENRE`` → ``genre``). Cached: the schema's few terms are read for every
    candidate. A label ``Question`` or a key ``answer_count`` keeps its words: they are the graph's."""
    return tuple(w for w in words(term).split() if w not in FUNCTION_WORDS and len(w) >= 3)


def _named(term: str, qwords: Sequence[str]) -> bool:
    return any(_names(w, q) for w in _term_words(term) for q in qwords)


def mentions(question: str, terms: Sequence[str]) -> tuple[int, int]:
    """How many of ``terms`` (one per use) the question mentions, and how many it does not. A term is mentioned when
    one of its content words is named by a question word not already taken by another use (``_names``), so a path
    that takes one relationship twice needs it named twice ("the director of X also directed which films")."""
    qwords = _content_words(question)
    taken: set[int] = set()
    for t in terms:
        content = _term_words(t)
        k = next(
            (j for j, q in enumerate(qwords) if j not in taken and any(_names(w, q) for w in content)),
            None,
        )
        if k is not None:
            taken.add(k)
    return len(taken), len(terms) - len(taken)


def count_intent(c: object, lits: QuestionLiterals) -> int:
    """+1 for a count shape when the question asks how many (``lits.asks_count``), -1 for one when it does not, and
    -1 for any other candidate when it does: the cross-encoder reads "how many movies were released after 2000" and
    the list of those movies as nearly the same."""
    if isinstance(c, Shape) and c.kind == "count":
        return 1 if lits.asks_count else -1
    return -1 if lits.asks_count else 0


COUNTED_BONUS = 2
"""Added (in units of ``mention_weight``) to a ranking by how many of a kind each target is linked to, where the
question's superlative names that kind ("the 3 persons who acted in the most movies with a tagline containing
'journey'"): the tuned LLM preferred the first 3 of the plain list (log-probability -3.1 against -7.7)."""


def counted_intent(c: object, lits: QuestionLiterals) -> int:
    """``COUNTED_BONUS`` for a ``group`` that counts the kind the question's superlative names (``lits.most_noun``:
    its label, or the doer of a relationship it starts: "the most actors"), or that ranks the doers "the top k" names
    where nothing says by what (``lits.top_doer``: "the top 3 producers of ..." by how many they produced); 0
    otherwise."""
    if not isinstance(c, Shape) or c.kind != "group" or c.prop or c.other is None:
        return 0
    if lits.most_noun is not None:
        return COUNTED_BONUS if _kind_named(c, c.other, [lits.most_noun]) else 0
    if lits.top_doer is not None:
        return COUNTED_BONUS if _kind_named(c, c.target, [lits.top_doer], label=False) else 0
    return 0


ATTRIBUTE_PENALTY = 4
"""Subtracted (in units of ``mention_weight``) from a path that ends at the set a "what N are the M <phrase>"
question describes instead of going on to its attribute N (``attribute_frame``). Offline on the MetaQA validation
questions (session-2 dump, reports/experiments/issue14/attribute_frame.py), with ``llm_floor`` 4, combined Hits@1
1/2/3-hop: 0 gives 95/88/93, 2 gives 95/87/93, 4 gives 95/90/95, 8 gives 95/90/95; relevance alone 89/81/84 ->
89/85/86 for 2 and more. Read off those validation questions, so optimistic."""


def attribute_frame(c: object, lits: QuestionLiterals) -> int:
    """``-ATTRIBUTE_PENALTY`` for an entity-anchored path that answers the described set of a question asking for an
    attribute of it ("what types are the movies starred by X": the path that ends with the ``STARRED`` hop returns
    the movies): its last relationship is named by the describing phrase, and neither it nor the label it reaches is
    named by the asked noun. 0 otherwise (no such frame, or the path goes on past the set)."""
    if lits.asked is None or not isinstance(c, CandidateQuery) or not c.hops or c.end is not None:
        return 0
    last = c.hops[-1]
    if _named(last.rel_type, [lits.asked]) or (last.label and _named(last.label, [lits.asked])):
        return 0
    return -ATTRIBUTE_PENALTY if _named(last.rel_type, lits.described) else 0


AGENT_ENDINGS = ("or", "ors", "er", "ers")
"""How an English noun for the doer of a verb ends ("actors", "producers", "reviewer")."""
AGENT_SUFFIXES = ("r", "rs", *AGENT_ENDINGS)
"""What turns a verb into the noun for its doer: ``AGENT_ENDINGS``, or only their ``r`` after a final e ("write" →
"writers", "act" → "actors")."""


def _kind_named(s: Shape, var: int, heads: Sequence[str], *, label: bool = True) -> bool:
    """Whether the question's head words name node ``x{var}`` of the shape's pattern: its label ("movies"; not where
    ``label`` is False), or it as the doer of a relationship it starts ("actors" for the source of ``ACTED_IN``,
    "producers" of ``PRODUCED``)."""
    kind = s.path.node_kind(var)[0]
    if label and kind and _named(kind, heads):
        return True
    for i, hop in enumerate(s.hops, start=1):
        source = i if hop.direction == "out" else i + 1
        verb = _term_words(hop.rel_type)[:1]
        if source == var and verb and any(h.endswith(AGENT_ENDINGS) and _names(verb[0], h) for h in heads):
            return True
    return False


def answer_kind(c: object, lits: QuestionLiterals) -> int:
    """For a shape: +1 when the first of the question's head words that names a node of its pattern names the node
    it is about (that it lists, counts, aggregates or orders) and no other, -1 when it names another node and not it
    ("list the first 3 movies where someone acted in and directed": the movies, not the people; "find the top 3
    actors by number of movies": the people; "list the movies where the actors were born before 1950": the movies).
    0 otherwise, and for paths. A property's values (``attr``, ``common``: the answer is the value, not a node) get
    +1 when the first head word naming their property or a node of their pattern names the property ("what are the
    roles of actors in X": the roles, not the actors whose roles contain "X")."""
    if not isinstance(c, Shape) or not lits.heads:
        return 0
    nodes = range(1, len(c.hops) + 2)
    if c.kind in ("attr", "common"):
        for head in lits.heads:
            if c.prop and _named(c.prop, [head]):
                return 1
            if any(_kind_named(c, v, [head]) for v in nodes):
                return 0
        return 0
    if lits.doer is not None:
        verb, passive = lits.doer
        ends = [
            (i if (hop.direction == "out") != passive else i + 1)
            for i, hop in enumerate(c.hops, start=1)
            if _term_words(hop.rel_type)[:1] and _names(_term_words(hop.rel_type)[0], verb)
        ]
        if ends:
            return 1 if c.target in ends else -1
    for head in lits.heads:  # the first head word that names a node of the pattern says which ("list the movies
        # where the actors were born before 1950": the movies)
        target = _kind_named(c, c.target, [head])
        other = any(_kind_named(c, v, [head]) for v in nodes if v != c.target)
        if target or other:
            return 1 if target and not other else -1 if other and not target else 0
    return 0


def shape_time_order(s: Shape) -> str | None:
    """The direction a shape takes a year in: "DESC" for the latest first (an ordering, or ``max``), "ASC" for the
    earliest; None when its property is no year or it does not order or pick by it."""
    if not s.temporal:
        return None
    if s.kind == "top":
        return "ASC" if s.fn == "ASC" else "DESC"
    return {"max": "DESC", "min": "ASC"}.get(s.fn or "") if s.kind == "agg" else None


def time_order(c: object, lits: QuestionLiterals) -> int:
    """+2 for a shape that orders by a year in the direction the question's time superlative asks
    (``lits.time_order``: "the youngest" is the latest birth year first): the superlative names the property, which
    no word of the question does, so its unnamed use (-1 in ``mentions``) counts as named (+1). 0 otherwise, and for
    the year's ``max`` / ``min`` too: "which is the oldest book" asks for the book, not its year (those are read the
    same way, "the earliest published: the oldest", and win when the question names the property). And 0 when the
    word the superlative qualifies (``lits.time_noun``) names a node of the pattern other than the one whose year it
    is, or names none and the year is not the target's own: "the oldest actors" are ordered by their own birth year,
    "the director of the oldest movie" by the movie's."""
    if not isinstance(c, Shape) or c.kind != "top" or lits.time_order is None:
        return 0
    if c.prop_on is None:  # "the oldest movie": the movie's year, not its director's
        noun = [lits.time_noun] if lits.time_noun else []
        named = [v for v in range(1, len(c.hops) + 2) if _kind_named(c, v, noun)] or [c.target]
        if (c.prop_var or c.target) not in named:
            return 0
    return 2 if shape_time_order(c) == lits.time_order else 0


def shape_direction(s: Shape) -> str | None:
    """The direction a shape orders or picks in: "DESC" for the greatest first (or ``max``), "ASC" for the least
    (``min``); None for lists, counts and the other aggregates."""
    if s.kind in ("top", "group", "common"):
        return "ASC" if s.fn == "ASC" else "DESC"
    return {"max": "DESC", "min": "ASC"}.get(s.fn or "") if s.kind == "agg" else None


UNASKED_ORDER_PENALTY = 2
"""Subtracted (in units of ``mention_weight``) from a shape that orders, or takes a greatest or least, where nothing
in the question asks for an order: it adds an operation and a limit the question does not state, and the
cross-encoder read "top 1 person directed a movie with person born in the 1960s with the fewest movies" as closer to
"list the people born in the 1960s who directed a movie" than the plain list (the LLM preferred the list)."""


def order_intent(c: object, lits: QuestionLiterals) -> int:
    """``-UNASKED_ORDER_PENALTY`` for a shape that orders (or takes a greatest or least) where nothing in the question
    asks for an order; -1 for one that orders in the direction opposite to the one it asks ("the top 5 actors by
    number of movies": the most first); -1 for a list in no order, or its first k, where a superlative asks for the
    greatest or least ("the 3 most common"); 0 otherwise. An ordering by a year in a question with a time
    superlative is ``time_order``'s."""
    if not isinstance(c, Shape):
        return 0
    if c.kind == "list":  # "who directed the most movies after 2000": not a list of the directors, in no order
        return -1 if c.having is None and lits.superlative else 0
    d = shape_direction(c)
    if d is None or (c.temporal and lits.time_order is not None):
        return 0
    if not lits.orders:
        return -UNASKED_ORDER_PENALTY
    return -1 if lits.order is not None and d != lits.order else 0


TURN_BACK_BONUS = 2
"""Added (in units of ``mention_weight``) to a path that turns back when the question asks for what shares something
with its entity. Offline on the MetaQA validation questions (session-2 dump, reports/experiments/issue14/
turnback_mentions.py), combined 2-hop Hits@1: 1 gives 81, 2 gives 85, 3 gives 86, 4 gives 87 (78 without)."""


def _turned_back(c: object) -> list[str]:
    """The relationship types a path returns along, once per return (``X -r-> v <-r- ?``: the others sharing X's
    v; ``X <-r- v -r-> ?``: X's co-r's)."""
    if not isinstance(c, CandidateQuery):
        return []
    pairs = zip(c.hops, c.hops[1:], strict=False)
    return [a.rel_type for a, b in pairs if a.rel_type == b.rel_type and a.direction != b.direction]


def turn_backs(c: object) -> int:
    """How often a path returns along the relationship type it came by (``_turned_back``)."""
    return len(_turned_back(c))


def sharing_intent(c: object, lits: QuestionLiterals, question: str, unmentioned: int) -> int:
    """For a question that asks what shares something with its entity (``lits.asks_sharing``: "the director of X
    also directed which films", "films with the same screenwriter as X", "who co-wrote films with X"), a path that
    turns back gets the unnamed second use of the relationship it turns back on forgiven (the question names it
    once; ``unmentioned``: the path's unnamed uses of any relationship) and ``TURN_BACK_BONUS``; 0 otherwise. Only
    that relationship's: once "wrote" named ``WRITTEN_BY`` as well as "screenwriter" did, forgiving any unnamed use
    let "the screenwriter of X also wrote which movies" go on to the movies' directors (MetaQA 2-hop Hits@1 92 → 91).
    A shape that takes two (three) relationships to the same node (``Shape.also``) gets ``TURN_BACK_BONUS`` where the
    question asks for what shares something and names each relationship ("who directed and acted in the same
    movie"; the LLM preferred the plain list of directors)."""
    if isinstance(c, Shape) and c.also:
        named = all(_named(t, lits.words) for t in (c.hops[0].rel_type, *c.also))
        return TURN_BACK_BONUS if lits.asks_sharing and named else 0
    turned = _turned_back(c)
    if not turned or not lits.asks_sharing:
        return 0
    _, unnamed = mentions(question, [t for t in turned for _ in range(2)])
    return min(unmentioned, unnamed, len(turned)) + TURN_BACK_BONUS
