"""The question stage: what a question states, read with the mode's lexicon (``lexicon.py``) and no knowledge of
any graph: its numbers, decades and spans ("the 1990s", "from 1990 to 2000"), small counts ("top 3", "first three"),
divisors, quoted text, the comparison each number takes, and what it asks for (how many, names, the latest, the most,
an order, something beside each answer). ``asks.py`` then reads what it asks of one graph's profiles."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from app.text import FUNCTION_WORDS, STOPWORDS
from app.text2cypher.lexicon import Lexicon, load
from app.text2cypher.words import Matcher, content_words, matcher, participle

_QUOTED = re.compile(r"""(?<![\w'])'([^']{1,200})'(?![\w'])|"([^"]{1,200})\"""")
_NUMBER = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)(s?)(?!\w|\.\d)")
"""A number not inside a word or a longer number; a sentence's full stop may follow it ("born before 1960.")."""
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")  # "145,000" is one number
_CODE = re.compile(r"\b(?=[\w/-]*[A-Za-z])(?=[\w/-]*\d)\w+(?:[-/]\w+)+\b")
"""A code that mixes letters and digits across hyphens or slashes ("DC1-R-2", "xl-16/256/625"): a name, whose
digits are no numbers of the question (a span of numbers, "1990-2000", has no letters)."""
_NAMED_BEFORE = re.compile(r"(?<![\w'])([A-Za-z]{2,})\s+$")  # the word right before a number ("port 80")

BESIDE_WORDS = 2
"""How many content words before a quoted text may say what kind of thing it names ("the service named 'java'")."""
PART_OPS = (("STARTS WITH", "start"), ("ENDS WITH", "end"))
"""The part of a value a quoted text is, by the group of ``part_before`` that matched ("starting with 'x'")."""
RANKED_BY_WORDS = 3
"""How many words after "by" may name what a ranking goes by ("by the number of views")."""
COUNT_WORDS_CHARS = 30
"""How far before a number the words that say it counts answers may start ("limit the results to 5")."""
LIMIT_WORDS = 4
"""The content words read after a number that may count the answers (``QuestionLiterals.limit_words``)."""
NEGATION_SCOPE = 3
"""The most content words a negation governs ("never asked a question": "asked", "question")."""
FIRST_WORDS = 3
"""How many content words after "the first k" may name what is counted ("the first 3 accepted answers")."""


@dataclass
class QuestionLiterals:
    numbers: list[float] = field(default_factory=list)
    """Every number the question states (not inside quotes)."""
    scaled: dict[float, tuple[float, str]] = field(default_factory=dict)  # "5 million": ``Lexicon.scaled``
    months: dict[float, tuple[int, str]] = field(default_factory=dict)
    """Per year said with a month ("in March 2024"), the month's number and name: a date in that month."""
    ranges: list[tuple[float, float]] = field(default_factory=list)
    """``[lo, hi)`` intervals: a decade ("1990s") or a pair of numbers ("from 1990 to 2000", inclusive)."""
    limits: list[int] = field(default_factory=list)
    """Small whole numbers (at most the lexicon's ``max_limit``), digits or words: how many a "top 3" asks for."""
    texts: list[str] = field(default_factory=list)  # quoted text
    values: list[str] = field(default_factory=list)
    """Values of a relationship's categorical property the question names without quotes ("taught in Fall 2023";
    ``asks.stated_values``): constants, as quoted text is, of conditions on relationships."""
    asks_count: bool = False  # it asks how many ("how many", or an imperative "count ..."): ``count_form``
    asks_sharing: bool = False  # it asks what shares something with its entity (same, share, also, other): ``shares``
    asked: str | None = None
    """The N "what N are the M <phrase>" asks for (an attribute of the M its phrase describes): ``attribute_stop``."""
    described: list[str] = field(default_factory=list)
    """The words of that phrase, after M."""
    wh_kind: str | None = None
    """The noun right after an opening "which" / "what" ("which city is ...", "in which country was ..."): the kind of
    thing asked for, which a relationship named by that noun points to (``Matcher.kind_named``'s ``nouns``)."""
    at_least: bool = False
    """Whether a threshold includes its number ("at least 3", "3 or more"): ``>=`` rather than ``>``."""
    said: str = ""
    """The question outside its quoted text."""
    words: list[str] = field(default_factory=list)
    """The question's content words (a property they name and some nodes lack is a condition: ``EXISTS``)."""
    ranked_by: list[str] = field(default_factory=list)
    """The words right after "by" ("based on", ...; the lexicon's ``ranked_by``): a ranking by the property they
    name shows it beside each answer ("the top 3 processes by PID"; ``answer_form``)."""
    per: list[str] = field(default_factory=list)
    """The words right after "each" or "per" (the lexicon's ``per_group``): the question asks its count or measure
    for each of what they name ("how many customers are there in each country"; ``counting.per_group``)."""
    negated: list[str] = field(default_factory=list)
    """The content words a negation governs ("accepted", "answer" in "questions without an accepted answer"; the
    lexicon's ``negation`` up to ``negation_end``): a property they name is false, missing or zero (``conditions``)."""
    negations: int = 0
    """How many negations the question states (a negating word, or a word a prefix negates): a candidate states no
    more (``enumerate_shapes``: "questions with no accepted answer" lack the answer or the answer's id, not both)."""
    unsaid: list[str] = field(default_factory=list)
    """The words a prefix negates whole ("unaccepted", ``negating_prefix``): their rest is ``negated``; none affirms."""
    flags: list[str] = field(default_factory=list)
    """Head words naming a boolean property of the kind the noun after them names ("the explicit tracks": the tracks
    some of them are; ``asks.flagged_kind``)."""
    heads: list[str] = field(default_factory=list)
    """The first two content words past its opening ("movies" and "someone" in "list the first 3 movies where
    someone ..."; "youngest", "producers" in "who are the top 3 youngest producers"): what it asks for is named
    there (the ``answer_kind`` feature)."""
    time_order: str | None = None
    """"DESC" when a superlative asks for the latest point in time ("the youngest", "the most recent"), "ASC" for the
    earliest ("the oldest"; the lexicon's ``time``): ``time_order``."""
    top_noun: str | None = None
    """The noun "the top k" qualifies where nothing says by what to rank ("movies" in "the top 5 movies directed by
    someone born in 1967"; the question's first head word when none follows): ``first_k``."""
    top_doer: str | None = None
    """That noun, where it names no kind with a year of its own and the question names no measure: "the top 3
    producers of ..." are the ones that produced most (the ``counted`` feature)."""
    most_noun: str | None = None
    """The word a superlative of measure qualifies ("movies" in "who directed the most movies", "the highest number
    of movies"): what a ranking counts (the ``counted`` feature)."""
    time_noun: str | None = None  # the word the time superlative qualifies ("the oldest movie"): whose year it is
    order: str | None = None
    """The direction an ordering by a measure takes: "DESC" for "the most", "the highest", or a bare "top"; "ASC"
    for "the fewest", "the lowest" (the lexicon's ``order``); None when the question says neither, or both."""
    superlative: bool = False
    """Whether a superlative asks for the greatest or least of something (the lexicon's ``order`` and ``time``), or the
    question ranks by a measure ("by the number of movies"): then a list in no order, or its first k, is not what it
    asks for (the ordering features)."""
    orders: bool = False
    """Whether anything in the question asks for an order: a superlative, "top", or "order" / "sort" / "rank"."""
    conditioned: list[str] = field(default_factory=list)
    """Words before a comparison with a number and inside it ("born before 1980", "after timestamp N"): conditions."""
    compared_by: dict[float, str] = field(default_factory=dict)
    """Per number, the word right before its comparison ("pid" in "a PID less than 2000"): what the number is of."""
    limit_words: dict[int, list[str]] = field(default_factory=dict)
    """Per number that may say how many answers to give, the content words right after it ("questions" in "the 3
    questions having the lowest view counts", "most", "recently", "asked", "questions" in "the 3 most recently asked
    questions"): the kind the number counts is named there (``asks.counts_kind``)."""
    counted_by: dict[float, str] = field(default_factory=dict)
    """Per number a comparison takes, the word right after it ("answer" in "more than one answer", "views" in "more
    than 80 views"): what the number counts."""
    first_noun: str | None = None
    """The noun after "the first k" ("movies" in "the first 3 movies Keanu Reeves acted in"): ``first_k``."""
    first_words: list[str] = field(default_factory=list)
    """The content words right after "the first k" ("accepted", "answers" in "the first 3 accepted answers"): the
    first of them that names a label of the graph is the noun (``first_k``)."""
    counts: list[float] = field(default_factory=list)
    """Numbers that say how many answers to give ("top 5", "the first 3", "list 2"): no condition takes them."""
    ops: dict[float, str] = field(default_factory=dict)
    """The comparison the question states for a number ("above 90": ``>``, "before 1980": ``<``, "at least 3":
    ``>=``, "released in 1999": ``=``; ``COMPARISONS``): a condition with that number takes that operator only."""
    doer: tuple[str, bool] | None = None
    """A "who" question's verb, and whether it is passive: "who reviewed ..." asks for the one that reviews, "who was
    followed by ..." (or "which X were killed") for the one done to: ``("followed", True)`` (``answer_kind``)."""
    asks_names: bool = False
    """Whether it asks for names or titles ("the names of the people who ...", "name 3 movies"): ``answer_form``."""
    asks_who: bool = False  # it opens with "who" or "whose": people are answered by their names (``answer_form``)
    asks_length: bool = False
    """Whether it speaks of how long something is ("the longest role lists", "the most complex role lists"): rankings
    by how many elements a list holds (``Shape.sized``). Not "the most roles", which as often counts the
    relationships that have them (in the movies gold queries, 5 of the 9 such questions)."""
    asks_frequency: bool = False
    """Whether it asks how often values occur ("the 3 most common taglines", "the most frequent genre"; the lexicon's
    ``frequency``): then even a property whose values never repeat has its most common values (``measures.commons``)."""
    asks_variety: bool = False
    """Whether it asks how varied something is ("the most diverse roles", "the most distinct titles"): rankings by
    how many different values each answer has (``Shape.distinct``)."""
    varied: list[str] = field(default_factory=list)
    """The word right after the one that asks for variety ("movies" in "by the number of different movies"): where
    it names the kind of node counted, the different nodes are counted, not the values of a property."""
    asks_which: bool = False
    """Whether it opens with "which": it asks to pick out which ones, answered by their names where they are picked
    by what they are linked to ("which movies did Lana Wachowski direct?"; ``answer_form``)."""
    asks_when: bool = False  # it opens with "when" ("since when"): a point in time (``answer_kind``, ``answer_form``)
    closure: int = 0
    """1 where it asks along a chain of one relationship ("directly or indirectly"; the lexicon's ``closure``), -1 where
    for one step of it ("directly"), else 0: the ``closure`` feature."""
    fronted: bool = False
    """Whether it opens with a phrase that sets the scene ("For the 3 questions with the most answers, list their
    tags"): what it asks for is each of those with its answers (``answer_form``)."""
    asks_more: bool = False  # it asks for something beside each answer ("... and their release years")
    divisors: list[int] = field(default_factory=list)
    """Numbers a value must be a multiple of ("a release year divisible by 10"): ``MOD`` conditions; no other
    condition or limit takes them."""
    beside: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    """Per quoted text, the content words right around it (``BESIDE_WORDS`` before, one after), each with how far
    from the quote it stands (1: next to it): the kind of thing it names ("the service named 'java'", "rack 'R-1'",
    "'DC1' data center", "applications that depend on the 'crm' service"; the ``quoted_kind`` feature)."""
    partial: dict[str, str | None] = field(default_factory=dict)
    """Quoted text the question matches on part of a value ("a tagline containing 'freedom'": a "which" question sees
    the whole value beside each answer, ``answer_form``), with the part it says: the start (``STARTS WITH``: "IP
    starting with '10.2'"), the end (``ENDS WITH``), or anywhere (None)."""
    dated: tuple[str, str, str] | None = None
    """``(label, key, "DESC")``: "the top k" (where the question names no measure) of a kind with one year of its own
    that dates no birth, ``key`` on ``label`` ("the top 3 movies Keanu Reeves acted in": the latest released);
    ``(label, key, "ASC")``: "the first k" of a kind, the earliest by that year or by the numbers of its nodes
    (``earliest``); ``(label, key, direction)``: a time superlative's ("the 3 most recent comments") where its kind
    has no year of its own, by the numbers of its nodes. A list of that kind's k, in no order, takes them in that
    order once chosen (``first_k``, ``answer_form``)."""
    by_number: bool = False
    """``dated`` is a time superlative's, by the numbers of a kind with no year of its own ("the 3 most recent
    comments"): a ranking by another node's year answers something else (the ``time_order`` feature)."""
    aggregated: set[str] = field(default_factory=set)
    """The aggregates the question asks for: ``avg`` ("the average rating"), ``sum`` ("the total CPU"), ``max`` and
    ``min`` where it has a superlative ("the highest rating", "the earliest start time")."""
    value_words: dict[float, str] = field(default_factory=dict)
    """Numbers whose ``=`` comes from the word before them ("port 80", "zone 4"), not from a stated comparison, each
    with that word ("zone"): no threshold on how many takes that ``=`` ("racks in zone 1 with more than one
    machine"); ``valued`` lists them."""
    kind_head: str | None = None
    """The first head word that names a label of the graph ("questions" in "which questions have been commented on
    by ..."): a pattern without a node of that kind answers something else (``asked_kind``, ``answer_kind``)."""
    plural_kind: bool = False
    """Whether the first head word is ``kind_head`` in the plural ("which users have asked the most questions"): a
    greatest or least that states no number asks for all of them in that order, not the one first."""
    nameless: list[str] = field(default_factory=list)
    """The graph's labels whose display values are numbers (``Profiles.nameless``): no "who" asks for them."""
    labels: list[str] = field(default_factory=list)
    """The graph's labels (``asked_kind``): a quote whose nearest named kind is none of a pattern's is no constant of
    that pattern's kinds (``quoted_kind``). ``numbered``: their whole numbers that tell their nodes apart ("book 3")."""
    numbered: frozenset[tuple[str, str]] = frozenset()
    lex: Lexicon = field(default_factory=load, repr=False, compare=False)  # the language it was read in

    @property
    def valued(self) -> list[float]:
        """The numbers of ``value_words``."""
        return list(self.value_words)

    @property
    def affirmed(self) -> list[str]:
        """The content words no negation governs."""
        return [w for w in self.words if w not in self.negated and w not in self.unsaid]

    @property
    def match(self) -> Matcher:
        """Word matching in its language."""
        return matcher(self.lex)


def question_literals(question: str, lex: Lexicon | None = None) -> QuestionLiterals:
    """What ``question`` states, read with ``lex`` (English by default)."""
    lex = lex or load()
    P = lex.patterns
    out = QuestionLiterals(
        asks_count=P["asks_count"].search(question) is not None,
        asks_sharing=P["sharing"].search(question) is not None,
        lex=lex,
    )
    bare, out.scaled = lex.scaled(_THOUSANDS.sub("", _QUOTED.sub(" ", question)))  # outside quotes; "5 million"
    out.at_least = P["at_least"].search(question) is not None
    out.said = bare
    out.words = list(content_words(bare))
    for by in P["ranked_by"].finditer(bare):
        out.ranked_by += list(content_words(" ".join(bare[by.end() :].split()[:RANKED_BY_WORDS])))
    out.per = [m.group(1).lower() for m in P["per_group"].finditer(bare)]
    for negation in P["negation"].finditer(bare):
        scope = bare[negation.end() :]
        end = P["negation_end"].search(scope)
        out.negated += list(content_words(scope[: end.start() if end else len(scope)]))[:NEGATION_SCOPE]
        out.negations += 1
    for w in out.words:  # "unaccepted answers": "accepted" is negated, "unaccepted" affirms nothing
        prefix = P["negating_prefix"].match(w)
        if prefix is not None:
            out.negated.append(w[prefix.end() :])
            out.unsaid.append(w)
            out.negations += 1
    fronted = P["fronted"].match(bare)  # "For the top 3 questions ..., list their tags": the tags are asked for
    main = list(content_words(bare[fronted.end() :])) if fronted is not None else out.words
    out.fronted = fronted is not None
    skip = lex.frame | lex.degree | set(content_words(c.group(0) if (c := P["asks_count"].search(bare)) else ""))
    out.heads = [w for w in main if w not in skip and w not in lex.number_words][:2]  # "the total number of pages"
    orders = [d for d, pattern in lex.time if pattern.search(bare)]
    out.time_order = orders[0] if len(orders) == 1 else None
    if out.time_order is not None:
        m = dict(lex.time)[out.time_order].search(bare)
        assert m is not None
        out.time_noun = next((w for w in content_words(bare[m.end() :]) if w not in lex.degree), None)
    for m in lex.conditioned.finditer(bare):  # "started after timestamp 1606165629748": "started" and "timestamp"
        out.conditioned.extend([m.group(1).lower(), *content_words(m.group(2))])
        number = _NUMBER.match(bare, m.end() - 1)
        if number is not None:
            out.compared_by.setdefault(float(number.group(1)), m.group(1).lower())
    first = lex.first.search(bare)
    if first is not None:  # "the first 3 movies": the noun after it, in case the question names a year (``first_k``)
        out.first_words = [w for w in content_words(bare[first.end() :]) if w not in lex.degree][:FIRST_WORDS]
        out.first_noun = out.first_words[0] if out.first_words else None
    plain = P["threshold"].sub(" ", bare)
    directions = [d for d, pattern in lex.order if pattern.search(plain)]
    top_at = P["top"].search(plain)
    top = top_at is not None
    by_measure = P["by_measure"].search(plain) is not None
    out.order = directions[0] if len(directions) == 1 else "DESC" if (top or by_measure) and not directions else None
    ordering = P["ordering"].search(plain) is not None
    unmeasured = not (directions or orders or by_measure or ordering)
    if top_at is not None and unmeasured:  # "the top 5 movies ...", "... limited to top 5": ranked by what? (first_k)
        nouns = [w for w in content_words(plain[top_at.end() :]) if w not in lex.number_words and not w.isdigit()]
        out.top_noun = nouns[0] if nouns and nouns[0] not in lex.frame else out.heads[0] if out.heads else None
    if len(directions) == 1:  # "the most movies", "the highest number of movies": what is counted
        m = dict(lex.order)[directions[0]].search(plain)
        assert m is not None
        nouns = [w for w in content_words(plain[m.end() :]) if w not in lex.degree]
        counts = m.group(0).lower() in lex.count_words or (nouns and nouns[0] in lex.measure)
        if counts and not (nouns and nouns[0] in lex.measures):  # "the most expensive": a price, nothing counted
            out.most_noun = next((w for w in nouns if w not in lex.measure), None)
    out.superlative = bool(directions or orders or by_measure)
    out.aggregated = {fn for fn in ("avg", "sum") if P[f"asks_{fn}"].search(bare)}
    out.aggregated |= {"max", "min"} if out.superlative else set()
    out.orders = out.superlative or top or ordering
    out.divisors = [int(m.group(1)) for m in P["divisor"].finditer(bare) if int(m.group(1)) > 1]
    bare = P["divisor"].sub(" ", bare)  # a divisor is no count, limit or compared number
    # quotes kept: a name stated ("the display name 'X'") is no name asked for
    out.asks_names = P["names"].search(P["divisor"].sub(" ", question)) is not None
    out.asks_who = P["opens_who"].match(bare) is not None
    out.asks_which = P["opens_which"].match(bare) is not None
    out.asks_when = P["opens_when"].match(bare) is not None
    out.closure = 1 if P["closure"].search(bare) else -1 if P["direct"].search(bare) else 0
    variety = P["variety"].search(bare)
    out.asks_variety = variety is not None
    out.asks_frequency = P["frequency"].search(bare) is not None
    out.varied = list(content_words(bare[variety.end() :])[:1]) if variety is not None else []
    out.asks_length = P["length"].search(bare) is not None
    out.asks_more = P["more"].search(bare) is not None
    who = P["who"].match(bare)
    if who and who.group(2).lower() not in STOPWORDS:
        out.doer = (who.group(2).lower(), who.group(1) is not None)
    elif (whom := P["who_object"].match(question)) and whom.group(1).lower() not in STOPWORDS:
        out.doer = (whom.group(1).lower(), True)  # "who does Steven report to": the end Steven's relationship reaches
    elif (done := P["done_to"].match(bare)) and participle(done.group(1).lower()):  # "which characters were killed"
        out.doer = (done.group(1).lower(), True)
    wh = P["wh_kind"].match(bare)
    out.wh_kind = wh.group(1).lower() if wh and wh.group(1).lower() not in STOPWORDS else None
    frame = P["attribute"].match(question)
    if frame and frame.group(1).lower() not in STOPWORDS:
        out.asked = frame.group(1).lower()
        out.described = list(content_words(frame.group(2)))
    for m in _QUOTED.finditer(question):
        out.texts.append(m.group(1) or m.group(2))
        preceding = content_words(_QUOTED.sub(" ", question[: m.start()]))[-BESIDE_WORDS:]
        following = content_words(_QUOTED.sub(" ", question[m.end() :]))[:1]
        out.beside[m.group(1) or m.group(2)] = [
            *((w, len(preceding) - i) for i, w in enumerate(preceding)),
            *((w, 1) for w in following),
        ]
        part = P["part_before"].search(question[: m.start()])
        if part or P["part_after"].match(question[m.end() :]):
            out.partial[m.group(1) or m.group(2)] = next((op for op, g in PART_OPS if part and part.group(g)), None)
    bare, out.months = lex.dated(bare)  # "in March 2024": the year's comparison, narrowed to the month
    previous: tuple[float, int] | None = None  # the last plain number and where it ended
    for m in _NUMBER.finditer(_CODE.sub(lambda c: " " * len(c.group(0)), bare)):
        value = float(m.group(1))
        if m.group(2) and value.is_integer() and value % 10 == 0:  # "the 1990s"
            out.ranges.append((value, value + 10))
            previous = None
            continue
        out.numbers.append(value)
        if counted := bool(P["counts"].search(bare[max(0, m.start() - COUNT_WORDS_CHARS) : m.start()])):
            out.counts.append(value)
        before, after = bare[max(0, m.start() - 40) : m.start()], bare[m.end() : m.end() + 20]
        op = next((o for o, pattern in lex.compared_after if pattern.search(after)), None)
        op = op or next((o for o, pattern in lex.compared if pattern.search(before)), None)
        op = None if op == "=" and P["determined"].search(before) else op  # "of the 3 questions": a count
        named = _NAMED_BEFORE.search(before)
        if op is None and named and not counted and _names_a_value(named.group(1), lex):  # ("top 3 ... zone 3")
            # "listening on port 80", "racks in zone 4": the value of what the word before it names; "above level 70"
            op = next((o for o, c in lex.compared if o != "=" and c.search(before[: named.start()])), "=")
            out.value_words[value] = named.group(1).lower()
        if op is not None:
            out.ops.setdefault(value, op)
            _note_counted(out, value, op, bare[m.end() :], lex)
        if value.is_integer() and 1 <= value <= lex.max_limit:
            out.limits.append(int(value))
            out.limit_words.setdefault(int(value), list(content_words(bare[m.end() :]))[:LIMIT_WORDS])
        # two numbers joined as one span ("between 1990 and 2000") are a range, inclusive (not two conditions)
        if previous is not None and bare[previous[1] : m.start()].strip().lower() in lex.range_joins:
            a, b = sorted((previous[0], value))
            if a < b:
                out.ranges.append((a, b + 1 if a.is_integer() and b.is_integer() else b))
        previous = (value, m.end())
    for v in out.valued:  # "between 1990 and 2000": the ends of a span, not values
        if any(v in (lo, hi, hi - 1) for lo, hi in out.ranges) and out.ops.get(v) == "=":
            del out.ops[v], out.value_words[v]
    for m in lex.number_word.finditer(bare):  # "at least three movies" compares, "the top three" counts
        value = float(lex.number_words[m.group(1).lower()])
        out.limit_words.setdefault(int(value), list(content_words(bare[m.end() :]))[:LIMIT_WORDS])
        before = bare[max(0, m.start() - 40) : m.start()]
        if P["counts"].search(bare[max(0, m.start() - COUNT_WORDS_CHARS) : m.start()]):
            out.counts.append(value)
        op = next((o for o, pattern in lex.compared if o != "=" and pattern.search(before)), None)
        if op is not None:  # "more than two answers": a number a condition takes
            out.ops.setdefault(value, op)
            _note_counted(out, value, op, bare[m.end() :], lex)
            out.numbers.append(value)
    for op, pattern in lex.signs:  # "answers with a negative score": below zero
        if pattern.search(bare):
            out.numbers.append(0.0)
            out.ops.setdefault(0.0, op)
    out.limits += [lex.number_words[w] for w in out.words if w in lex.number_words]  # no number word is a stopword
    out.limits = list(dict.fromkeys(out.limits))
    return out


def _note_counted(out: QuestionLiterals, value: float, op: str, after: str, lex: Lexicon) -> None:
    """``counted_by``: the word right after a compared number, where it is a content word of no language's own
    ("more than one answer"; not "3 or more", "2000 and")."""
    nxt = after.split()[:1]
    word = nxt[0].strip(".,;:?!").lower() if nxt else ""
    if op != "=" and word and _names_a_value(word, lex) and word.isalpha():
        out.counted_by.setdefault(value, word)


def _names_a_value(word: str, lex: Lexicon) -> bool:
    """A word right before a number names what the number is a value of ("port 80", "zone 4"): a content word that
    is none of the language's own ("top 3", "first 3")."""
    return word.lower() not in FUNCTION_WORDS and not lex.speaks(word)


BOUNDS = (">", "<", ">=", "<=")  # comparisons that bound a value (not =): a number stated with one counts no answers
