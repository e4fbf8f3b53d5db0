"""The features stage: each ranking signal a registered feature with a name, one function and a number per
candidate. The ranker (``rank.py``) weighs them with weights from a file; no feature knows its own weight.

A feature reads a :class:`Facts`: the candidate, the question and what it states (``question.py``), and the counts
several features share (which schema words the question names). ``relevance`` (the cross-encoder's score of the
candidate's reading) and ``llm`` (the LLM's log-softmax over the candidates it scored) are filled by the stages that
compute them; the rest are here and in ``asked.py`` (what the question asks for that a pattern holds or
lacks). A new behaviour is one new feature, its test, and a re-learned ranker.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from app.cypher.candidates import CandidateQuery, goes_back
from app.cypher.shapes import ABSENT, EXISTS, MOD, UNLINKED, Shape
from app.text import phrase_at
from app.text2cypher.counting import grouped
from app.text2cypher.question import BOUNDS, QuestionLiterals
from app.text2cypher.terms import identity_terms, key_terms, label_echoes, prop_term, relationship_terms
from app.text2cypher.words import content_words, kind_nouns, noun_lemmas, term_words

Candidate = CandidateQuery | Shape

RELEVANCE = "relevance"
"""The cross-encoder's score of the question against the candidate's reading (``enumerate.py``)."""
LLM = "llm"
"""The LLM's log-softmax over the candidates it scored, floored (``rank.py``); 0 for those it did not score."""


@dataclass(frozen=True)
class Facts:
    """What every feature of one candidate reads."""

    candidate: Candidate
    question: str
    lits: QuestionLiterals
    named: int
    """Uses of a relationship type or property key the question names (``Matcher.mentions``)."""
    unnamed: int
    """Uses it does not name."""

    @classmethod
    def of(cls, c: Candidate, question: str, lits: QuestionLiterals, kinds: Sequence[str] = ()) -> Facts:
        """``kinds``: the words that say what kind of thing a quoted constant is (``Matcher.kind_words``): they name
        no property key of the candidate; nor do the words that are the plural or singular of a label of its pattern
        ("which posts did X write": the posts, not their ``postedAt``), but a key they are a word of ("the accepted
        answer": ``accepted_answer_id``), nor a relationship type named for that kind ("releases": the ``Release``,
        not ``HAS_RELEASE``)."""
        echoed = label_echoes(c)
        path = c if isinstance(c, CandidateQuery) else c.path
        own = kind_nouns(path.labels())
        keys = [t for t in key_terms(c) if t not in echoed]
        said = {w for k in keys for w in term_words(k)}  # "accepted answer" names ``accepted_answer_id`` word for word
        kinds_here = tuple(w for w in content_words(question) if (ws := noun_lemmas(w)) & own and not ws & said)
        named, unnamed = lits.match.mentions(
            question,
            relationship_terms(c),
            [t for t in identity_terms(c) if t not in echoed],
            keys=keys,
            reserved=kinds,
            spared=kinds_here,
            kinds=own,
        )
        return cls(c, question, lits, named, unnamed)


Feature = Callable[[Facts], float]
FEATURES: dict[str, Feature] = {}
"""Every registered feature by name, in registration order (the order of a ranker file's weights)."""
FOR, AGAINST = 1, -1
SIGNS: dict[str, int] = {RELEVANCE: FOR, LLM: FOR}
"""Which way each feature points (``FOR``: a larger value speaks for the candidate; ``AGAINST``: against it), as its
definition says; a learned weight keeps that sign (``app.training.ranker.fit``) and the data say how much. A
feature's sign is part of what it means, so a synthetic question set that happens to reward a penalty (or never
exercises a bonus) cannot turn it around."""


UNCONDITIONED: set[str] = set()
"""The features that read what a shape's conditions take, and so say nothing of a shape before its conditions are
added: no part of ``Ranker.prior`` for a shape without conditions, which the budgets weigh before their conditions
(``label_missed``: "questions that have more than two answers" names the answers, which a condition on
``answer_count`` takes later)."""


def feature(name: str, sign: int, *, prior: bool = True) -> Callable[[Feature], Feature]:
    """Register ``fn`` as the feature ``name``, pointing ``sign`` (``FOR`` or ``AGAINST``); ``prior``: whether it is
    part of ``Ranker.prior`` for shapes without conditions (``UNCONDITIONED``)."""
    if sign not in (FOR, AGAINST):
        raise ValueError(f"feature {name!r}: sign must be FOR or AGAINST")

    def register(fn: Feature) -> Feature:
        if name in FEATURES or name in (RELEVANCE, LLM):
            raise ValueError(f"feature {name!r} is registered twice")
        FEATURES[name] = fn
        SIGNS[name] = sign
        if not prior:
            UNCONDITIONED.add(name)
        return fn

    return register


def compute(cands: Sequence[Candidate], question: str, lits: QuestionLiterals) -> list[dict[str, float]]:
    """Every registered feature of each candidate (``relevance`` and ``llm`` are added by their stages)."""
    out = []
    kinds = lits.match.kind_words(lits.beside, lits.labels)
    for c in cands:
        facts = Facts.of(c, question, lits, kinds)
        out.append({name: float(fn(facts)) for name, fn in FEATURES.items()})
    return out


@feature("constants", FOR)
def constants_used(f: Facts) -> int:
    """How many of the question's stated constants (numbers, quoted text, a name said as it is stored) a candidate
    uses, in a condition, as its limit, or as a linked entity's name: a query that ignores what the question states is
    rarely its query."""
    c, lits = f.candidate, f.lits
    path = c if isinstance(c, CandidateQuery) else c.path
    quoted = sum(1 for _, a in path.linked() if a.name in lits.texts or said_as_is(a.name, f.question))
    if isinstance(c, CandidateQuery):
        return quoted
    values: set[object] = set()
    for flt in c.filters:
        if flt.stated is not None:  # a year stated of a date ("asked before 2021"): the filter holds its time
            values.add(flt.stated)
        elif flt.op == "range":  # a decade is one constant, "from 1990 to 2000" two
            lo, hi = flt.value
            values.add(lo)
            values.update([hi - 1] if hi - 1 in lits.numbers else [])
        elif flt.op not in (EXISTS, ABSENT, MOD, UNLINKED) and not isinstance(flt.value, bool):
            values.add(flt.value)
    given = [*lits.texts, *lits.values]
    used = sum(1 for v in values if v in lits.numbers or v in given or any(v == lo for lo, _ in lits.ranges))
    used += sum(1 for flt in c.filters if flt.op == MOD and flt.value in lits.divisors)
    # a number the question states once counts once: "rated higher than 90" is no limit of 90 as well, and each
    # further use of it costs one; nor is a number the question compares with ("above 90") a limit
    once = {v for v in values if isinstance(v, int | float) and lits.numbers.count(v) <= 1}
    # a threshold on how many takes a number the question compares ("more than 3 answers"), not one that says how
    # many answers to give ("Limit to the top 3"), unless it does both
    having = (
        c.having is not None
        and c.having[1] in lits.limits
        and c.having[1] not in once
        and (c.having[1] not in lits.counts or c.having[1] in lits.ops)
    )
    # nor is a number the question states as a threshold ("who produced at least three movies") or as the value of
    # what the word before it names ("services that listen on port 80") a limit, unless it also counts answers ("the
    # top 3 ... at least 3")
    compares = c.limit is not None and (lits.ops.get(c.limit) in BOUNDS or c.limit in lits.value_words)
    threshold = compares and c.limit not in lits.counts
    limit = c.limit is not None and c.limit in lits.limits and c.limit not in once and not threshold
    compared = compares and c.limit in once
    again = sum(1 for k in (c.limit, c.having[1] if c.having else None) if k is not None and k in once)
    return used + quoted + limit + having - again - compared


@functools.lru_cache(maxsize=4096)
def said_as_is(name: str | None, question: str) -> bool:
    """Whether the question says a linked entity's name word for word, in its case ("stations served by both M1
    and M2"): stated as surely as a quoted constant. Not a name of plain lower-case words ("which shipments were
    delivered": a status "delivered" as well as the verb)."""
    if not name or not re.search(r"[A-Z0-9]", name):
        return False
    return phrase_at(question, name, case=True) is not None


@feature("schema_named", FOR)
def schema_named(f: Facts) -> int:
    """Uses of a relationship type or property key that a question word names ("directors" and ``DIRECTED``; a type
    used on two hops needs two such words), less the uses no question word names: one signal, not two, since on
    synthetic questions (whose words are the readings' own) the cross-encoder already tracks the named uses, and two
    weights let a fit trade one against the other where real questions need both."""
    return f.named - f.unnamed


@feature("count_form", FOR)
def count_form(f: Facts) -> int:
    """+1 for a count when the question asks how many, -1 for one when it does not, and -1 for any other candidate
    when it does: the cross-encoder reads "how many movies were released after 2000" and the list of those movies as
    nearly the same. Counts for each of what "each" / "per" names are counts ("how many customers in each
    country": ``counting.grouped``). 0 for a count of a property's values where the question counts a kind
    (``counts_values_of_another``)."""
    if isinstance(f.candidate, Shape) and (f.candidate.kind == "count" or grouped(f.candidate, f.lits)):
        if f.lits.asks_count and counts_values_of_another(f.candidate, f.lits):
            return 0
        return 1 if f.lits.asks_count else -1 if f.candidate.kind == "count" else 0
    if f.lits.asks_count and quantity_asked(f.candidate, f.lits):
        return 1
    return -1 if f.lits.asks_count else 0


def counts_values_of_another(c: Shape, lits: QuestionLiterals) -> bool:
    """A count of a property's different values where the word how many asks for names a kind, not the property
    ("how many cities are there on each continent" counts cities, not continents)."""
    head = lits.heads[0] if lits.heads else None
    return (
        c.kind == "count"
        and bool(c.prop)
        and head is not None
        and head == lits.kind_head
        and not lits.match.named(prop_term(c), [head])
    )


def quantity_asked(c: Candidate, lits: QuestionLiterals) -> bool:
    """A number of the answers' own that the word how many asks for names, every word of it said ("how many pages
    does X have": ``pages``; not ``homeGoals`` for "how many goals"): the number is the count asked for; so is the
    sum of such a number over the answers ("the total number of pages of the books written by X"), unless the key is
    the words of a kind of the pattern ("how many ports": the ports, not the sum of their numbers) or the answers
    are of the stated entity's own kind, which holds the number itself ("how many credits is X worth": not the
    credits of the courses X requires)."""
    if not (isinstance(c, Shape) and c.quantity and c.prop and not c.paired and lits.heads):
        return False
    summed = c.kind == "agg" and c.fn == "sum"
    if c.kind != "attr" and not summed:
        return False
    key = prop_term(c)
    if summed and term_words(key) in {term_words(label) for label in c.path.labels()}:
        return False  # "how many tracks": not a sum of the ``trackNo`` of their album's tracks
    if (
        summed
        and c.anchor.name is not None
        and c.hops
        and c.path.node_kind(c.prop_var or c.target)[0] == c.anchor.label
    ):
        return False  # "how many credits is X worth": X's own number, not a sum over others of its kind
    return lits.match.named(key, lits.heads[:1]) and all(lits.match.named(w, lits.words) for w in term_words(key))


@feature("counted", FOR)
def counted(f: Facts) -> int:
    """1 for a ranking by how many of a kind each answer is linked to, where that kind is what the question's
    superlative names ("the most actors": a label, or the doer of a relationship), or by a number of its own whose
    words name that kind ("the most answers": ``answer_count``), or where the answers are the doers "the top k" names
    and nothing says by what ("the top 3 producers of ..." by how many they produced); and for a count for each of
    something, where what is counted is what the question's first head word names ("how many matches were played of
    each game")."""
    c, lits = f.candidate, f.lits
    if isinstance(c, Shape) and c.kind == "top" and c.prop and lits.most_noun is not None:
        # or by a number the answers (the nodes a staged ranking picks) hold whose words name that kind ("the most
        # answers": ``answer_count``)
        own = c.prop_on is None and (c.prop_var in (None, c.target) or c.is_staged)
        return int(own and lits.match.named(c.prop, [lits.most_noun]))
    if not isinstance(c, Shape) or c.kind != "group" or c.prop or c.other is None:
        return 0
    if lits.most_noun is not None:
        return int(lits.match.kind_named(c, c.other, [lits.most_noun]))
    if lits.top_doer is not None:
        return int(lits.match.kind_named(c, c.target, [lits.top_doer], label=False))
    if lits.per and lits.asks_count:  # "how many matches were played of each game": matches, not their players
        return int(lits.match.kind_named(c, c.other, lits.heads[:1]))
    return 0


def turned_back(c: Candidate) -> list[str]:
    """The relationship types a path returns along, once per return (``X -r-> v <-r- ?``: the others sharing X's v;
    ``X <-r- v -r-> ?``: X's co-r's)."""
    if not isinstance(c, CandidateQuery):
        return []
    pairs = zip(c.hops, c.hops[1:], strict=False)
    return [a.rel_type for a, b in pairs if a.rel_type == b.rel_type and goes_back(a.direction, b.direction)]


@feature("shares", FOR)
def shares(f: Facts) -> int:
    """1 where the question asks what shares something with its entity ("the director of X also directed which
    films", "films with the same screenwriter as X", "who co-wrote films with X") and the candidate is a path that
    turns back, or a shape that takes two (three) relationships to the same node, each named by the question ("who
    directed and acted in the same movie")."""
    c, lits = f.candidate, f.lits
    if not lits.asks_sharing:
        return 0
    if isinstance(c, Shape) and c.also:
        return int(all(lits.match.named(t, lits.words) for t in (c.hops[0].rel_type, *c.also)))
    return int(bool(turned_back(c)))


@feature("shared_named_once", FOR)
def shared_named_once(f: Facts) -> int:
    """Where ``shares`` holds for a path: the unnamed second uses of the relationship it turns back on (the question
    names it once). Only that relationship's: forgiving any unnamed use let "the screenwriter of X also wrote which
    movies" go on to the movies' directors."""
    turned = turned_back(f.candidate)
    if not turned or not f.lits.asks_sharing:
        return 0
    _, unnamed = f.lits.match.mentions(f.question, [t for t in turned for _ in range(2)])
    return min(f.unnamed, unnamed, len(turned))


@feature("attribute_stop", AGAINST)
def attribute_stop(f: Facts) -> int:
    """1 for an entity-anchored path that stops at the set a "what N are the M <phrase>" question describes instead of
    going on to its attribute N ("what types are the movies starred by X": the path ending with the ``STARRED`` hop
    returns the movies): its last relationship is named by the phrase, and neither it nor the label it reaches by
    the asked noun."""
    c, lits = f.candidate, f.lits
    if lits.asked is None or not isinstance(c, CandidateQuery) or not c.hops or c.end is not None:
        return 0
    last = c.hops[-1]
    if lits.match.named(last.rel_type, [lits.asked]) or (last.label and lits.match.named(last.label, [lits.asked])):
        return 0
    return int(lits.match.named(last.rel_type, lits.described))


@feature("label_anchored", AGAINST)
def label_anchored(f: Facts) -> int:
    """1 for a candidate anchored at no linked entity (every node of a label): a question that names an entity is
    rarely about all of a label's nodes."""
    c = f.candidate
    path = c if isinstance(c, CandidateQuery) else c.path
    return int(path.anchor.name is None)


@feature("quoted_kind", FOR)
def quoted_kind(f: Facts) -> int:
    """How many of the question's quoted constants the candidate holds on a node (relationship) whose label (type)
    the words right around the quote name, the nearest of the pattern's labels (types) that they name ("processes
    that depend on the service named 'java'": the service's name, not a process's; "machines in rack 'R-1'": the
    rack's; "applications that depend on the 'crm' service": the service's, although "applications" is near too),
    and no label of the graph (``lits.labels``) nearer ("applications that depend on the 'crm' service" holds no
    application's name where the pattern has no service)."""
    c, lits = f.candidate, f.lits
    if not lits.beside:
        return 0
    path = c if isinstance(c, CandidateQuery) else c.path
    held: list[tuple[str, str, bool]] = [
        (a.name, a.label, False) for a in (path.anchor, path.end) if a is not None and a.name
    ]
    if isinstance(c, Shape):
        for flt in c.filters:
            if isinstance(flt.value, str):
                kind = c.hops[flt.var - 1].rel_type if flt.edge else c.path.node_kind(flt.var)[0]
                held.append((flt.value, kind, flt.edge))
    labels = path.labels()
    types = [h.rel_type for h in path.hops]
    m = lits.match

    def distance(kind: str, near: list[tuple[str, int]]) -> int | None:
        return min((d for w, d in near if m.named(kind, [w])), default=None)

    out = 0
    for value, kind, edge in held:
        near = lits.beside.get(value, [])
        mine = distance(kind, near) if kind else None
        if mine is None:
            continue
        kinds = types if edge else [*labels, *lits.labels]
        rivals = [d for k in kinds if k and k != kind and (d := distance(k, near)) is not None]
        out += int(all(mine <= d for d in rivals))
    return out
