"""Features of what the question asks for that a candidate's pattern holds or lacks: the kind of answer a "who"
asks for, kinds only negated words name, aggregates asked or not, the property a number is a value of, ends of the
pattern nothing asks for, answers the question already states, counts for each of something (and in ``said``: the
entity named after "by" doing what the pattern says). Registered with
:func:`app.text2cypher.features.feature` when ``features`` is imported.
"""

from __future__ import annotations

import functools

from app.cypher.candidates import CandidateQuery
from app.cypher.shapes import AGGREGATES, Shape
from app.text2cypher.asks import counted_kinds, superlative_value
from app.text2cypher.counting import grouped
from app.text2cypher.features import AGAINST, FOR, Facts, feature, quantity_asked
from app.text2cypher.question import QuestionLiterals
from app.text2cypher.reading import acts
from app.text2cypher.said import lone_verb
from app.text2cypher.terms import identity_terms, relationship_terms
from app.text2cypher.words import stem_match, term_words


@feature("nameless_who", AGAINST)
def nameless_who(f: Facts) -> int:
    """1 for a "who" question's candidate whose answers are of a label that names nothing (its display values are
    numbers, ``lits.nameless``): "who commented on ..." asks for the users, not the comments' numbers."""
    c, lits = f.candidate, f.lits
    if not lits.asks_who or not lits.nameless:
        return 0
    path = c if isinstance(c, CandidateQuery) else c.path
    var = c.target if isinstance(c, Shape) else c.return_index
    return int(path.node_kind(var)[0] in lits.nameless)


@feature("negated_kind", AGAINST)
def negated_kind(f: Facts) -> int:
    """How many nodes of the candidate's pattern are of a kind that only words under a negation name ("questions
    that have no answers": a pattern through the answers finds the questions that have some)."""
    c, lits = f.candidate, f.lits
    if not lits.negated:
        return 0
    path = c if isinstance(c, CandidateQuery) else c.path
    m = lits.match
    return sum(1 for k in path.labels() if k and m.named(k, lits.negated) and not m.named(k, lits.affirmed))


@feature("aggregate_asked", FOR)
def aggregate_asked(f: Facts) -> int:
    """+1 for an average or a total the question asks for (``lits.aggregated``: "the average rating", "the total
    CPU"; an average per answer, "the highest average score"), -1 for an aggregate it does not ask for ("what are
    the IPs of the switches in rack X" is no sum of their rack numbers; a greatest or least needs a superlative)."""
    c, lits = f.candidate, f.lits
    if not isinstance(c, Shape):
        return 0
    if c.kind == "agg":
        fn = c.fn if c.fn in AGGREGATES else "avg"
    elif c.kind == "group" and c.prop and not c.distinct:
        fn = c.agg
    else:
        return 0
    if fn not in lits.aggregated:  # but "the total number of pages of X's books" asks for the sum of the pages
        return 1 if fn == "sum" and lits.asks_count and quantity_asked(c, lits) else -1
    return 1 if fn in ("avg", "sum") else 0


@feature("value_named", FOR)
def value_named(f: Facts) -> int:
    """For each condition that a number takes from the word before it ("racks in zone 4", ``lits.value_words``): +1
    where that word names the condition's property ("zone"), or names the kind of a node whose whole number the property
    is, each node's own ("book 3": ``number``; ``lits.numbered``), -1 where neither (a rack's ``rack`` = 4). And +1 for
    each comparison whose number follows the property's word ("comments with a score of 3", "a PID less than 500":
    ``lits.compared_by``); no -1 there, as the word before a comparison often names no property ("asked before 2021");
    and +1 for each whose number is followed by a word naming the property ("questions with more than one answer":
    ``answer_count``, not an answer's score; ``lits.counted_by``)."""
    c, lits = f.candidate, f.lits
    if not isinstance(c, Shape) or not (lits.value_words or lits.compared_by or lits.counted_by):
        return 0
    out = 0
    for flt in c.filters:
        number = isinstance(flt.value, int | float) and not isinstance(flt.value, bool)
        word = lits.value_words.get(flt.value) if number and flt.op == "=" else None
        if word is not None:  # "book 3": a book's whole number that tells books apart, where the word names the kind
            kind = c.path.node_kind(flt.var)[0] if not flt.edge else ""
            own = (kind, flt.key) in lits.numbered and lits.match.named(kind, [word])
            out += 1 if own or lits.match.named(flt.key, [word]) else -1
            continue
        said = [lits.compared_by.get(flt.value), lits.counted_by.get(flt.value)] if number else []
        out += sum(1 for w in said if w is not None and lits.match.named(flt.key, [w]))
    return out


@feature("unnamed_leaf", AGAINST)
def unnamed_leaf(f: Facts) -> int:
    """How many ends of a shape's pattern are neither its answers nor conditioned, counted, measured or linked, and
    of a kind the question does not name, reached by a relationship no word names but the answers' own ("list the
    first 3 accepted answers": not only those that answered a question). Each such end keeps only the answers linked
    to one, which the question does not ask."""
    c, lits = f.candidate, f.lits
    if not isinstance(c, Shape) or not c.hops:
        return 0
    m = lits.match
    last = len(c.hops) + 1
    used = {c.target, c.other, c.prop_var, c.ordered_by(), *(flt.var for flt in c.filters)}
    used |= {flt.var + 1 for flt in c.filters if flt.edge}
    if c.prop_on is not None:
        used |= {c.prop_on, c.prop_on + 1}
    if c.path.anchor.name is not None:
        used.add(1)
    if c.path.end is not None:
        used.add(last)
    target = c.path.node_kind(c.target)[0]
    words = [w for w in lits.words if not (target and m.named(target, [w]))]
    out = 0
    for var, hop in ((1, c.hops[0]), (last, c.hops[-1])):
        label = c.path.node_kind(var)[0]
        if var in used or not label or m.named(label, lits.words if label != target else words_again(label, lits)):
            continue
        out += int(not m.named(hop.rel_type, words) and not any(m.named(t, words) for t in c.also))
    return out


def words_again(label: str, lits: QuestionLiterals) -> list[str]:
    """The question's words naming ``label`` after the first: a kind named once names the answers, not also the
    other end of a relationship between two of its nodes ("how many packages are there" counts no package that
    depends on a package)."""
    return [w for w in lits.words if lits.match.named(label, [w])][1:]


@functools.lru_cache(maxsize=1024)
def label_words(words: tuple[str, ...], labels: tuple[str, ...]) -> dict[str, tuple[tuple[int, bool], ...]]:
    """Each label some question word names, with the positions of those words and whether each is the label's
    word itself or its plural: every word of the label shares a stem with one of them, or is it or its plural
    ("processes" names ``Process``, "data center" ``DataCenter``, "OS" ``OS``, "answered" ``Answer``). Stems only: no
    compounds ("important" names no ``Port``) and no irregular verb forms (``Matcher.names`` takes those)."""
    out = {}
    for label in labels:
        parts = term_words(label)
        hits = [[j for j, w in enumerate(words) if stem_match(p, w) or w in (p, p + "s")] for p in parts]
        if parts and all(hits):
            whole = {j for p, h in zip(parts, hits, strict=True) for j in h if words[j] in (p, p + "s", p + "es")}
            out[label] = tuple((j, j in whole) for j in sorted({j for h in hits for j in h}))
    return out


def beside_word(lits: QuestionLiterals) -> str | None:
    """The word after "and their" that may name a kind of node shown beside each answer ("the machines in rack X and
    their types": "types"; the lexicon's ``beside_kind``), or None."""
    m = lits.lex.pattern("beside_kind").search(lits.said)
    return m.group(1).lower() if m else None


def lists_last(c: CandidateQuery | Shape) -> bool:
    """Whether ``c`` lists the nodes its pattern ends on: what the answer form can show beside each the node of
    another kind it is linked to ("the machines in rack X and their types"; ``answer_form.linked_beside``)."""
    if isinstance(c, CandidateQuery):
        return c.end is None
    plain = c.kind == "list" and c.having is None and not c.also
    return plain and c.path.end is None and c.target == c.path.return_index


@feature("label_missed", AGAINST, prior=False)
def label_missed(f: Facts) -> int:
    """How many of the graph's labels a question word names that no node of the candidate's pattern is, unless the
    pattern takes that word for something else: a condition's or ordering's property ("racks in zone 4": a rack's
    ``zone``; "machines of type 'm'"), the kind a list shows beside each answer ("the machines in rack X and their
    types": ``lists_last``), or a relationship type where the word is not the label's own word or its plural
    ("tagged" names ``TAGGED`` and the tags; "routers" names the routers, whatever ``ROUTES``). "Which ports
    are used by processes on machine X?" is not answered through the machine's interfaces, nor "the types of
    machines in rack X" by the rack's number, nor "the versions of 'RHEL'" by its ``versions`` list. A word for the
    act a label's agent noun does names no such label ("how many matches were played": no ``Player``)."""
    c, lits = f.candidate, f.lits
    named = label_words(tuple(lits.words), tuple(lits.labels))
    if not named:
        return 0
    path = c.path if isinstance(c, Shape) else c
    held = set(path.labels())
    keys = [*identity_terms(c)]
    if isinstance(c, Shape):
        keys += [flt.key for flt in c.filters]
        keys += [c.prop] if c.prop and c.kind != "attr" else []
    rels = [w for t in relationship_terms(c) for w in term_words(t)]
    keys = [w for t in keys for w in term_words(t)]
    m = lits.match
    beside = beside_word(lits) if lists_last(c) else None
    out = 0
    agents = tuple(lits.lex.agent_endings)
    for label, at in named.items():
        # "how many matches were played": the act, not its doers (``Player``); "players" names them
        doer = (term_words(label) or [""])[-1].endswith(agents)
        at = tuple((j, whole) for j, whole in at if whole or not doer or lits.words[j].endswith(agents))
        if label in held or not at:
            continue
        taken = [
            j
            for j, whole in at
            if any(m.names(w, lits.words[j]) for w in keys)
            or (not whole and any(m.names(w, lits.words[j]) for w in rels))
            or lits.words[j] == beside
        ]
        out += len(taken) < len(at)
    return out


@feature("echoed_answer", AGAINST)
def echoed_answer(f: Facts) -> int:
    """1 for answers a condition or the linked anchor pins to a value the question states: a list of display values
    ("who does 'Steven' report to?" answered by the employees named Steven; or those ranked by a count or a
    measure: the router named 'DC1-R-1' with the most interfaces), a count of them where the question counts
    something else ("how many citations does 'X' have" answered by how many papers named 'X' cite one: one; not "how
    many employees are named Steven") or the values of a property ("which professors have the rank Associate?"
    answered by the rank "Associate" of the professors holding it): the question already holds that answer."""
    c, lits = f.candidate, f.lits
    if not isinstance(c, Shape):
        return 0
    label = c.path.node_kind(c.target)[0]
    other = c.kind == "count" and not c.prop and lits.asks_count and not lits.match.named(label, lits.heads[:1])
    if c.kind in ("list", "group", "top") or other:  # the one node of that name, ranked among itself or counted
        key = c.path.node_kind(c.target)[1]
    elif c.kind == "attr" and c.prop and c.prop_on is None and c.prop_var in (None, c.target) and not c.paired:
        key = c.prop
    else:
        return 0
    pinned = {x.key for x in c.filters if not x.edge and x.var == c.target and x.op == "="}
    pinned |= {a.key for var, a in c.path.linked() if var == c.target}
    return int(key in pinned)


@feature("per_group", FOR)
def per_group(f: Facts) -> int:
    """+1 for the count or measure of each of what the question's "each" / "per" names, all of them ("how many
    customers are there in each country": each country with its count; ``counting.grouped``); -1 for one count or
    measure of a pattern holding a kind "each" / "per" names (one number answers no "per category")."""
    c, lits = f.candidate, f.lits
    if not isinstance(c, Shape) or not lits.per:
        return 0
    if grouped(c, lits):
        return 1
    return -int(c.kind in ("count", "agg") and any(k and lits.match.named(k, lits.per) for k in c.path.labels()))


@feature("limit_kind", AGAINST)
def limit_kind(f: Facts) -> int:
    """1 for a shape whose limit is a number the question states of another kind than the nodes the shape limits:
    "the users who answered the 3 most viewed questions" counts questions (``asks.counted_kinds``), not the 3 users
    with the most answers nor the first 3 user-question pairs; a ``staged`` ranking limits the nodes it ranks."""
    c, lits = f.candidate, f.lits
    if not isinstance(c, Shape) or c.limit is None or c.kind not in ("list", "top", "group"):
        return 0
    limited = c.path.node_kind((c.ordered_by() or c.target) if c.is_staged else c.target)[0]
    return int(bool(counted_kinds(lits, c.limit) - {limited}))


@feature("answer_kind", FOR)
def answer_kind(f: Facts) -> int:
    """For a shape (and an entity's path, about the nodes it ends at): +1 when the first of the question's head words
    that names a node of its pattern names the node it is about (that it lists, counts, aggregates or orders) and no
    other, -1 when it names another node and not it ("list the first 3 movies where someone acted in and directed": the
    movies; "find the top 3 actors by number of movies": the people). A "when" question asks for a point in time: +1 for
    a property's values that are one (or the earliest or latest of them), -1 for anything else ("when was X listed": the
    date of the listing, not who listed X). A property's values (``attr``, ``common``, a count of them) get +1 when the
    first head word naming their property or a node of their pattern names the property ("what are the roles of actors
    in X": the roles), not where that word names the property's node as well ("the racks in X" and a rack's ``rack``),
    and -1 when a "which" question's word names a node of the pattern and not the property ("which professors have the
    rank X": the professors, not their ranks, nor "which students are advised by tenured professors" the professors'
    tenure; unless each is paired with its node's name), and -1 where the question's kind word names no node of their
    pattern ("which type of machines are in rack X": no value of the rack's own). A "which" question asks for things: -1
    for one aggregate value. A "who" asks for no relationship's values (-1; a node's text may be a name: "who is the CEO
    of X"), and its verb says which end of the relationship it names is asked for ("who reviewed ..."; a verb naming a
    flag a condition holds true on the relationship names that relationship's doer: "who won match X"), as a passive
    "which" question's does where its noun names both ends ("which characters were killed": the end a deed reaches; not
    a state's nor a participle's, "who was born in": ``reading.acts``); without a verb or a head word naming a node, a
    "who" asks for the end of a one-relationship pattern that does what the relationship says ("who has the highest
    average review rating": the reviewers; a deed's end, not a noun's: "who are the parents of X" says nothing of
    ``CHILD_OF``). Where the first head word naming a label of the graph names no node of the pattern, -1: "which
    questions have been commented on by X" asks for questions, not X's comments."""
    c, lits = f.candidate, f.lits
    if isinstance(c, CandidateQuery) and c.hops:  # an entity's path lists what it ends at
        c = Shape(c, c.return_index, "list")
    if isinstance(c, Shape) and lits.asks_when:  # "when was X listed": a time
        return 1 if c.kind in ("attr", "agg") and c.temporal else -1
    if not isinstance(c, Shape) or not lits.heads or grouped(c, lits):  # "the products per category": both kinds
        return 0
    m = lits.match
    nodes = range(1, len(c.hops) + 2)
    if c.kind == "attr" and c.prop_on is not None and lits.asks_who and not lits.asks_more:  # "who won X": people,
        return -1  # not a relationship's values (whether each won); a node's text may be a name ("who is the CEO")
    if c.kind in ("attr", "common") or (c.kind == "count" and c.prop):
        owner = c.path.node_kind(c.prop_var or c.target)[0] if c.prop_on is None else ""
        for head in lits.heads:
            if c.prop and m.named(c.prop, [head]):
                # "the racks in DC1" name the racks, not their ``rack`` numbers, "which tracks" no ``trackNo`` of
                # a track's album: a word naming a node of the pattern as well says nothing
                return 0 if any(m.kind_named(c, v, [head]) for v in nodes) else 1
            if any(m.kind_named(c, v, [head]) for v in nodes):
                # "which professors have the rank Associate", "the explicit tracks": the professors, the tracks, not
                # their ranks or flags (paired, both), nor another's ("which students are advised by tenured
                # professors"); but their names are they ("which condition has code I48")
                if owner and c.prop == c.path.node_kind(c.prop_var or c.target)[1] and m.named(owner, [head]):
                    return 1
                asks = lits.asks_which or bool(lits.flags)
                return -1 if asks and owner and not c.paired else 0
            if head == lits.kind_head:  # "which type of machines are in rack X": no value of the rack's own
                return -1
        return 0
    if value := superlative_value(c, lits):  # "what is the highest CVSS score": the score
        return value
    if c.kind == "agg" and (lits.asks_which or lits.asks_who):  # "which tracks did X play the most times": tracks
        return -1
    by_verb = None
    if lits.doer is not None:
        verb, passive = lits.doer
        ends = [
            (2 * i + 1 - m.doer(hop, i) if passive else m.doer(hop, i))  # "who was followed by": the other end
            for i, hop in enumerate(c.hops, start=1)
            if term_words(hop.rel_type)[:1]
            and m.names(term_words(hop.rel_type)[0], verb)
            and (not passive or m.passive(hop.rel_type) or (acts(hop.rel_type, m.lex) and lone_verb(hop.rel_type)))
        ]
        # "who won match X": the player whose ``PLAYED_IN`` has a flag ``won`` the verb names, true
        ends += [
            m.doer(c.hops[f.var - 1], f.var)
            for f in c.filters
            if f.edge and f.value is True and not passive and m.named(f.key, [verb])
        ]
        by_verb = (1 if c.target in ends else -1) if ends else None
    if by_verb is not None and not lits.asks_which:  # a "who" has no noun: its verb says
        return by_verb
    for head in lits.heads:  # the first head word that names a node of the pattern says which
        nouns = head == lits.wh_kind
        target = m.kind_named(c, c.target, [head], nouns=nouns)
        other = any(m.kind_named(c, v, [head], nouns=nouns) for v in nodes if v != c.target)
        if target and other and by_verb is not None:  # "which characters were killed": both ends are characters
            return by_verb
        if target and other:  # "which packages are dependencies of X": the noun said of them says which package
            return m.role_end(c, lits.said, head)
        if target or other:
            return 1 if target and not other else -1 if other and not target else 0
        # "the dependencies of X": what X depends on, not its dependents; a noun of the act names neither ("ratings")
        if not head.endswith(lits.lex.act_endings) and len(roles := m.role_ends(c, head)) == 1:
            return 1 if c.target in roles else -1
        if head == lits.kind_head:  # "which questions ...": a pattern without a question answers something else
            return -1
    first = c.hops[0].rel_type if len(c.hops) == 1 else ""
    deed = bool(first) and (acts(first, lits.lex) or m.passive(first))  # not ``CHILD_OF``
    if lits.asks_who and lits.doer is None and deed:  # "who has the highest average review rating": no verb says
        return 1 if c.target == m.doer(c.hops[0], 1) else -1  # which end; "who" asks for the doer
    return 0
