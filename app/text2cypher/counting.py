"""What ranks the targets of a label-anchored pattern by how many of something they reach: the other end counted
per target (more than k, the most, the fewest), unless the target stores that count itself (``stores_count``); and
the chains of two relationships through a middle kind a question asks that of ("the users who provided answers to
the most questions"), and the ends of those whose middle kind the question names too, listed and ordered ("the top 3
types of machines by RAM in racks in zone 4", ``chain_ends``); counts and measures asked for each of something ("in
each country", ``per_group``). Used by the shape enumerator (``enumerate_shapes.py``).
"""

from __future__ import annotations

from app.cypher.candidates import Anchor, CandidateQuery, Hop
from app.cypher.schema import GraphSchema
from app.cypher.shapes import Filter, Shape
from app.text2cypher.asks import counts_kind, is_label_noun
from app.text2cypher.profiles import Profiles
from app.text2cypher.question import QuestionLiterals
from app.text2cypher.reading import REVERSED
from app.text2cypher.terms import own_key
from app.text2cypher.words import term_words


def by_count(
    path: CandidateQuery, t: int, profiles: Profiles, lits: QuestionLiterals, ks: list[int | None], chain: bool = False
) -> list[Shape]:
    """The targets ``x{t}`` of a label-anchored pattern by how many of the other end each is linked to: more than (at
    least) k, listed (another of the question's small numbers as the limit) or, when the question asks how many,
    counted; and the k with the most or fewest. None where the target stores that count itself. Through a ``chain`` only
    what the question states (a comparison with a number, "more than 3 different users"; a superlative, "the most"; a
    count for each of what "each" names), and nothing where each target reaches one at most, through a chain or one hop
    (each comment is on one question, each answer answers one: a count that is 1 for every target ranks nothing, "the
    top 5 accepted answers" are no answers ranked by how many questions each answers)."""
    other = other_end(path, t)
    if stores_count(profiles, path, t, other, lits) or profiles.one_each(path, t, other):
        return []
    out: list[Shape] = []
    for k in lits.limits:
        # "exactly 2 answers": =, "fewer than 3": <; not the = of "zone 1"
        op = "" if k in lits.valued else lits.ops.get(k, "")
        if chain and op not in lits.lex.having_words and not lits.at_least:
            continue
        op = op if op in lits.lex.having_words else ">=" if lits.at_least else ">"
        out += [
            Shape(path, t, "list", other=other, having=(op, k), limit=lim)
            for lim in [None, *(x for x in lits.limits if x != k)]
        ]
        if lits.asks_count:
            out.append(Shape(path, t, "count", other=other, having=(op, k)))
    if lits.superlative or not chain:
        out += [Shape(path, t, "group", fn=d, other=other, limit=k) for d in ("DESC", "ASC") for k in ks]
    # "how many vehicles does each operator have": each operator with how many reach it, between two kinds
    if chain and lits.per and path.node_kind(1)[0] != path.node_kind(len(path.hops) + 1)[0]:
        out += [x for x in per_group(path, t, profiles, lits) if x.kind == "group" and x.prop is None]
    return out


def chains(
    schema: GraphSchema, profiles: Profiles, lits: QuestionLiterals, *, middle: bool = False
) -> list[CandidateQuery]:
    """Two relationships through a middle kind, where the question names both ends' kinds and one of the two
    relationships by a word that is no label's noun ("the users who provided answers to the most questions" is
    (User)-[PROVIDED]->(Answer)-[ANSWERED]->(Question)), or, where one end is what the question's "most" counts, no
    relationship joins the two ends ("which country has the most airports", "how many vehicles does each operator
    have"). A turn back along one relationship
    type is a sharing pattern, and two types of one verb a relationship made a node (``base_shapes``), not chains
    here. What a chain asks is how many of one end each node of the other reaches (``by_count``). ``middle``:
    instead, the chains whose middle kind, one of neither end, the question names as well ("the top 3 types of
    machines by RAM in racks in zone 4"), whatever names their relationships: what one end is (``chain_ends``)."""
    labels = profiles.labels
    named = {label for label in labels if lits.match.named(label, lits.words)}
    # a relationship is named by a word of its own, not by a label's noun ("answers" names no ANSWERED); the chains
    # through a named middle kind need none
    verbs = [] if middle else [w for w in lits.words if not any(is_label_noun(w, label, lits) for label in labels)]
    hops = both_ways(schema, profiles)
    # two named kinds no relationship joins need no word for one where the question asks which of one has the most of
    # the other: "which country has the most airports" is (Country)<-[LOCATED_IN]-(City)<-[SERVES]-(Airport)
    adjacent = {(a, hop.label) for a, hop in hops}
    noun = lits.most_noun
    most = next((label for label in labels if noun is not None and is_label_noun(noun, label, lits)), None)
    # and where it asks how many of one there are for each of the other ("how many vehicles does each operator have")
    each = {label for label in labels for w in lits.per if lits.asks_count and is_label_noun(w, label, lits)}
    unjoined = not middle and (most is not None or bool(each))
    out: list[CandidateQuery] = []
    seen: set[tuple[str, str, str, str, str]] = set()
    for a, one in hops:
        if a not in named:
            continue
        for b, two in hops:
            c = two.label
            if b != one.label or c not in named or term_words(one.rel_type)[:1] == term_words(two.rel_type)[:1]:
                continue
            key = (a, one.rel_type, b, two.rel_type, c)
            if key[::-1] in seen:
                continue  # the same chain read from its other end
            if middle and (b not in named or b in (a, c)):
                continue
            said = any(lits.match.named(r, verbs) for r in (one.rel_type, two.rel_type))
            if not middle and not said and not (unjoined and (a, c) not in adjacent and {most, *each} & {a, c}):
                continue
            seen.add(key)
            out.append(CandidateQuery(Anchor(None, a, labels[a].key), (one, two)))
    return out


def both_ways(schema: GraphSchema, profiles: Profiles) -> list[tuple[str, Hop]]:
    """Every relationship between profiled labels as a hop from each of its ends: ``(source label, hop)``, the
    stored way round first."""
    labels = profiles.labels
    out: list[tuple[str, Hop]] = []
    for t in schema.triples:
        if t.source in labels and t.target in labels:
            out.append((t.source, Hop(t.rel_type, "out", t.target, labels[t.target].key)))
            out.append((t.target, Hop(t.rel_type, "in", t.source, labels[t.source].key)))
    return out


def staged_by_count(
    schema: GraphSchema, profiles: Profiles, path: CandidateQuery, t: int, lits: QuestionLiterals, ks: list[int | None]
) -> list[Shape]:
    """The targets linked to the k nodes of the pattern's other end with the most (fewest) of a kind the question
    names, where its number counts that other end (``asks.counts_kind``): "the tags of the 3 questions with the most
    comments" are the tags of the 3 questions that have the most comments (``Shape.staged``), the 3 questions ranked
    first. A one-hop pattern goes on from the ranked end along each relationship of its kind to the counted kind;
    a two-hop pattern counts its middle ("who commented on the 3 most commented questions"). None where the ranked
    kind stores that count itself or each of its nodes reaches one at most."""
    if not lits.superlative or len(path.hops) not in (1, 2):
        return []
    m = lits.match
    if len(path.hops) == 2:
        ranked = other_end(path, t)
        candidates = [(path, t, ranked, 2)] if t != 2 else []
    else:
        hop = path.hops[0]
        back = Hop(hop.rel_type, REVERSED[hop.direction], path.anchor.label, path.anchor.key)
        start = path if t == 1 else CandidateQuery(Anchor(None, hop.label, hop.key), (back,))
        kind = start.node_kind(2)[0]
        ends = [h for a, h in both_ways(schema, profiles) if a == kind]
        ends.sort(key=lambda h: h.direction != "out")  # the relationships it starts first, as stored
        candidates = [
            (CandidateQuery(start.anchor, (*start.hops, h)), 1, 2, 3)
            for h in ends
            if h.rel_type != hop.rel_type and (m.named(h.label, lits.words) or m.named(h.rel_type, lits.words))
        ]
    out: list[Shape] = []
    for p, target, ranked, counted in candidates:
        kind = p.node_kind(ranked)[0]
        if not kind or profiles.one_each(p, ranked, counted) or stores_count(profiles, p, ranked, counted, lits):
            continue
        out += [
            Shape(p, target, "group", fn=d, other=counted, prop_var=ranked, limit=k, staged=True)
            for k in ks
            if k is not None and counts_kind(lits, k, kind)
            for d in ("DESC", "ASC")
        ]
    return out


def other_end(path: CandidateQuery, t: int) -> int:
    """The node at the other end of a label-anchored pattern from its target ``t`` (the first or the last)."""
    return len(path.hops) + 2 - t


def stores_count(profiles: Profiles, path: CandidateQuery, t: int, other: int, lits: QuestionLiterals) -> bool:
    """Whether the target's label holds how many of the other end's kind each node is linked to, as a number of its
    own whose words name that kind and a measure (``Question.answer_count`` for ``Answer``): the graph's stored
    count is then the count ("the questions with the most answers", "with exactly 2 answers"), and counting the
    links (which a sampled graph may hold only some of) is not asked."""
    prof = profiles.labels.get(path.node_kind(t)[0] or "")
    kind = path.node_kind(other)[0]
    if prof is None or not kind:
        return False
    measure = lits.lex.measure
    for p in prof.numeric():
        words = term_words(p.key)
        if any(w in measure for w in words) and lits.match.named(kind, [w for w in words if w not in measure]):
            return True
    return False


def middle_groups(path: CandidateQuery, lits: QuestionLiterals) -> list[Shape]:
    """Each node between a linked entity and the end of its path whose label the words after "each" / "per" name,
    with how many of the end it reaches ("how many players does each club in the Highland Cup League have")."""
    end = len(path.hops) + 1
    if path.anchor.name is None or path.end is not None:
        return []
    named = [t for t in range(2, end) if (label := path.node_kind(t)[0]) and lits.match.named(label, lits.per)]
    return [Shape(path, t, "group", fn="DESC", other=end) for t in named]


def per_group(path: CandidateQuery, t: int, profiles: Profiles, lits: QuestionLiterals) -> list[Shape]:
    """What a question asks for each of something (the words after "each" or "per", ``lits.per``): every value of a
    property of ``x{t}`` they name with how many nodes hold it ("how many customers are there in each country"),
    and every ``x{t}`` whose label they name with how many of the other end it is linked to ("the number of products
    per category") or the average or total of a number of theirs or of the relationship it takes, where the question
    asks for one ("the average price of products in each category", "the average grade of each student"). All of
    them, the most first."""
    m = lits.match
    prof = profiles.of(path, t)
    props, display = (prof.properties, prof.key) if prof is not None else ([], "")
    label = path.node_kind(t)[0]
    out = [
        Shape(path, t, "common", prop=p.key, fn="DESC", listed=p.kind == "list")
        for p in props
        if p.key != display and m.named(own_key(p.key, label), lits.per)
    ]
    if path.hops and label and m.named(label, lits.per):
        other = other_end(path, t)
        out.append(Shape(path, t, "group", fn="DESC", other=other))
        aggs = sorted(lits.aggregated & {"avg", "sum"})
        out += [
            Shape(path, t, "group", prop=p.key, prop_var=other, agg=a, fn="DESC")
            for a in aggs
            for p in profiles.numeric(path, other)
        ]
        on = t - 1 if t >= 2 else 1  # and of the relationship it takes ("the average grade of each student")
        out += [
            Shape(path, t, "group", prop=p.key, prop_on=on, agg=a, fn="DESC")
            for a in aggs
            for p in profiles.numeric(path, on, edge=True)
        ]
    return out


def grouped(c: CandidateQuery | Shape, lits: QuestionLiterals) -> bool:
    """Whether a shape gives the count or measure of each of what the question's "each" / "per" names
    (``per_group``'s shapes)."""
    if not isinstance(c, Shape) or not lits.per or c.limit is not None or c.kind not in ("common", "group"):
        return False
    if c.kind == "common":
        return c.prop is not None and lits.match.named(own_key(c.prop, c.path.node_kind(c.target)[0]), lits.per)
    return lits.match.named(c.path.node_kind(c.target)[0], lits.per)


def is_chain_end(s: Shape, chained: set[CandidateQuery]) -> bool:
    """A shape of ``chain_ends``."""
    return s.path in chained and s.kind in ("list", "top") and not s.staged and s.prop_var is None and s.other is None


def pins_chain_end(s: Shape, f: Filter, chained: set[CandidateQuery]) -> bool:
    """Whether ``f`` pins a node of a chain's end shape to a name: the linked entity's own path is that reading."""
    return is_chain_end(s, chained) and f.op == "=" and not f.edge and f.key == s.path.node_kind(f.var)[1]


def chain_ends(
    path: CandidateQuery, t: int, profiles: Profiles, lits: QuestionLiterals, ks: list[int | None], timed: bool
) -> list[Shape]:
    """One end of a chain whose three kinds the question names, listed or in the order of one of its own numbers
    ("the top 3 types of machines by RAM in racks in zone 4": the types, by RAM, of the machines racks hold)."""
    return [
        Shape(path, t, "list"),
        *(Shape(path, t, "list", limit=k) for k in lits.limits),
        *(
            Shape(path, t, "top", prop=p.key, fn=d, limit=k, temporal=timed and p.temporal)
            for p in profiles.ordered(path, t)
            for d in ("DESC", "ASC")
            for k in ks
        ),
    ]
