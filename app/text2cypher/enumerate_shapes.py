"""The enumerate stage for shapes (``app.cypher.shapes``): what a question may ask of the graph beyond the nodes at
the end of a path, in two steps that keep the count bounded on any graph. First every *base* shape: label-anchored
patterns (a label, or one schema triple) and the best entity-anchored paths, each with list / count / aggregates /
ordering / most-fewest, the counts along the chains the question names and the ends of those whose every kind it
names (``counting.py``), and the values of linked entities' properties; then the ``filter_beam`` most relevant base
shapes (and a third as many chains) with each condition the question's constants allow (``conditions.py``), then the
``filter_beam`` best of those with a second condition. ``shape_budget`` and ``condition_budget`` bound what the
cross-encoder reads."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace

from app.cypher.candidates import Anchor, CandidateQuery, Hop
from app.cypher.shapes import ABSENT, EXISTS, UNLINKED, Shape
from app.stores.graph.base import GraphSchema, GraphStore
from app.text2cypher.asks import answer_counts, counts_kind
from app.text2cypher.conditions import asked_list, filters_for, negates_again, redundant
from app.text2cypher.conditions import conditions as find_conditions
from app.text2cypher.counting import (
    by_count,
    chain_ends,
    chains,
    is_chain_end,
    middle_groups,
    other_end,
    per_group,
    pins_chain_end,
    staged_by_count,
)
from app.text2cypher.measures import attributes, commons, either_way, measures, pinned, schema_counts, value_counts
from app.text2cypher.profiles import Profiles, Property, PropertyProfiles
from app.text2cypher.question import QuestionLiterals
from app.text2cypher.terms import lexical_overlap
from app.text2cypher.words import term_words

ANCHORED_CONDITIONED = 3
"""How many of the most relevant entity-anchored paths of one hop, and of two, have their answers listed with a limit
and with a condition."""


Scorer = Callable[[list[Shape]], Awaitable[list[float] | None]]


Prior = Callable[[Sequence[Shape], QuestionLiterals], list[float]]
"""The ranking features' score of shapes without relevance or the LLM (``Ranker.prior``)."""


class ShapeEnumerator:
    def __init__(
        self,
        graph: GraphStore,
        profiles: PropertyProfiles,
        *,
        filter_beam: int = 12,
        shape_budget: int = 0,
        condition_budget: int = 0,
        prior: Prior | None = None,
    ) -> None:
        self.graph = graph
        self.prior = prior
        """What the ranking features say of shapes before the cross-encoder reads them: the budgets' tie-breaker."""
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
        longer: Sequence[CandidateQuery] = (),
        joined: Sequence[CandidateQuery] = (),
    ) -> tuple[int, int]:
        """Hand the question's shapes (base, then with conditions) to ``score``, which scores and keeps them; return
        how many base shapes there were (the bound's first stage, for the trace) and how many shapes
        ``shape_budget`` and ``condition_budget`` dropped. ``entities``, ``longer``, ``joined``: see
        :meth:`base_shapes`."""
        profiles = await self.profiles.get(namespace, schema)
        chain_paths = chains(schema, profiles, lits)
        named_chains = chains(schema, profiles, lits, middle=True)
        base = self.base_shapes(schema, profiles, paths, lits, entities, longer, chain_paths, joined, named_chains)
        enumerated = len(base)
        # the plain lists of a label's nodes (or a pattern's ends), which take the conditions below whether or not the
        # budget lets the cross-encoder read them bare ("the first 3 questions with a view count between 50 and
        # 100": the shapes ordering by the view count name more of the question than the plain list of questions);
        # and the plain counts where the question asks how many
        kinds = ("list", "count") if lits.asks_count else ("list",)
        plain = [  # a label's nodes, or those a shared value names ("artists from Ireland")
            x
            for x in base
            if x.kind in kinds and not x.also and (x.anchor.name is None or profiles.shared(x.anchor)) and not x.filters
        ]
        if self.shape_budget:
            base = within_budget(base, lits, self.shape_budget, self.prior)
        counts = (enumerated, enumerated - len(base))
        scores = await score(base)
        if not base:
            return counts
        conditions = await find_conditions(self.graph, namespace, profiles, lits)
        if not any(conditions.values()):
            return counts
        # the beam of conditions; entity lists take theirs apart (below), a named entity's values none (the nodes a
        # shared value names do: "premium listeners from Chile"); one-condition lists of what is asked a second
        keep = [
            i
            for i, x in enumerate(base)
            if x.anchor.name is None or x.kind not in ("list", "attr") or profiles.shared(x.anchor)
        ]
        # chains have a beam of their own: they do not crowd the one-hop patterns out of their conditions
        chained = {*chain_paths, *named_chains}
        kept = [scores[i] for i in keep] if scores is not None else None
        level = self._beam([base[i] for i in keep], kept, chained)
        # the plain lists of a label's nodes (or a pattern's ends) always get a condition: when the question's words
        # name a property its aggregates and orderings fill the beam, and those take no condition on that property
        level += [x for x in plain if x not in level]
        # the ends of a chain whose three kinds the question names, listed or in the order of a number it names, take
        # conditions too: in the chains' beam the staged shapes outscored them ("the top 3 types of machines by RAM in
        # racks in zone 4")
        level += [
            x
            for x in base
            if is_chain_end(x, chained) and (x.prop is None or lits.match.named(x.prop, lits.words)) and x not in level
        ]
        # one condition on the answers of the most relevant one-hop entity paths ("the movies Laurence Fishburne
        # acted in, released after 2000"; the plain list is the path itself, a candidate already), scored apart (in
        # the beam they crowded out the label-anchored shapes' second condition), and of the most relevant two-hop
        # ones, a value the question states ("the international airports in France"; not "with a start time")
        near = [p for n in (1, 2) for p in [p for p in paths if len(p.hops) == n][:ANCHORED_CONDITIONED]]
        anchored = [Shape(p, len(p.hops) + 1, "list", limit=k) for p in near for k in [None, *lits.limits]]
        pairs = [(s, f) for s in anchored for f in filters_for(s, conditions, profiles)]
        valued = [(s, f) for s, f in pairs if len(s.hops) == 1 or f.op not in (EXISTS, ABSENT, UNLINKED)]
        once = [replace(s, filters=(f,)) for s, f in valued]
        if once:
            await score(once)
        for _ in range(2):
            nxt = [
                replace(s, filters=(*s.filters, f))
                for s in level
                for f in filters_for(s, conditions, profiles)
                if not any(redundant(f, g) for g in s.filters)
                and not negates_again(s, f, lits)
                and not pins_chain_end(s, f, chained)
            ]
            if not nxt:
                break
            if self.condition_budget:
                budgeted = within_budget(nxt, lits, self.condition_budget, self.prior)
                counts = (counts[0], counts[1] + len(nxt) - len(budgeted))
                nxt = budgeted
            scores = await score(nxt)
            level = self._beam(nxt, scores, chained)
            level += [x for x in nxt if x not in level and asked_list(x, plain, lits)]
        return counts

    def _beam(self, shapes: list[Shape], scores: list[float] | None, chained: set[CandidateQuery]) -> list[Shape]:
        """The ``filter_beam`` best shapes, and the third as many best over ``chained`` patterns apart."""
        out: list[Shape] = []
        for part, width in ((False, self.filter_beam), (True, self.filter_beam // 3)):
            ids = [i for i, x in enumerate(shapes) if (x.path in chained) == part]
            out += _best([shapes[i] for i in ids], [scores[i] for i in ids] if scores is not None else None, width)
        return out

    @staticmethod
    def base_shapes(
        schema: GraphSchema,
        profiles: Profiles,
        paths: Sequence[CandidateQuery],
        lits: QuestionLiterals,
        entities: Sequence[CandidateQuery] = (),
        longer: Sequence[CandidateQuery] = (),
        chain_paths: Sequence[CandidateQuery] | None = None,
        joined: Sequence[CandidateQuery] = (),
        named_chains: Sequence[CandidateQuery] | None = None,
    ) -> list[Shape]:
        """Every label-anchored shape, the measures of the entity-anchored ``paths``, and the values of the
        ``entities``' properties: ``entities`` are the linked entities themselves (paths without hops: "the tagline
        of The Matrix") and the relationships joining two of them (one hop closed by the second entity: "the roles
        of Keanu Reeves in The Matrix"). ``longer``: entity-anchored paths too long for measures, whose answers are
        only ranked by how many of what reaches them they have. ``chain_paths``: ``counting.chains``, where the caller
        has them already. ``joined``: the paths through a node two linked entities share, whose shared nodes are
        listed with a limit and counted ("the first 3 movies X and Y acted in together"). ``named_chains``:
        ``counting.chains(..., middle=True)``, likewise."""
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
            (hop,) = either_way([Hop(triple.rel_type, "out", b.label, b.key)], a.label, lits.lex)
            if hop.direction == "both":  # either way: x1 and x2 alike
                patterns.append((CandidateQuery(Anchor(None, a.label, a.key), (hop,)), [1], ()))
                continue
            patterns.append((CandidateQuery(Anchor(None, a.label, a.key), (hop,)), [1, 2], ()))
            pairs.setdefault((a.label, b.label), []).append(triple.rel_type)
        # a relationship made a node, two types of one verb: (User)-[COMMENTED]->(Comment)-[COMMENTED_ON]->(Question)
        for one in schema.triples:
            for two in schema.triples:
                ends = [labels.get(x) for x in (one.source, one.target, two.target)]
                if one.target != two.source or one.rel_type == two.rel_type or None in ends:
                    continue
                if term_words(one.rel_type)[:1] != term_words(two.rel_type)[:1] or not term_words(one.rel_type):
                    continue
                a, b, c = ends
                assert a is not None and b is not None and c is not None
                hops = (Hop(one.rel_type, "out", b.label, b.key), Hop(two.rel_type, "out", c.label, c.key))
                patterns.append((CandidateQuery(Anchor(None, a.label, a.key), hops), [1, 3], ()))
        for (src, dst), types in pairs.items():  # two (three) relationships between the same two nodes
            types = sorted(set(types))
            named = [t for t in types if lits.match.named(t, lits.words)]
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
                out += measures(path, t, profiles, ks, timed)
                out += attributes(path, t, profiles, paired=True, lits=lits)
                out += value_counts(path, t, profiles, lits)
                if lits.superlative:  # "the 3 most common taglines"
                    out += commons(path, t, profiles, ks, lits.order, frequency=lits.asks_frequency)
                # the targets by what they are linked to ("who directed the oldest movie"), and those linked to the k
                # first ("the tags of the 3 most viewed questions": ``staged``)
                if (lits.superlative or lits.orders) and path.hops:
                    other = other_end(path, t)
                    linked = [
                        Shape(path, t, "top", prop=p.key, fn=d, limit=k, prop_var=other, temporal=timed and p.temporal)
                        for p in profiles.ordered(path, other)
                        for d in ("DESC", "ASC")
                        for k in ks
                    ]
                    out += [y for x in linked for y in _staged_or_not(x, lits)]
                    out += staged_by_count(schema, profiles, path, t, lits, ks)  # "... with the most comments"
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
                    other = other_end(path, t)
                    out += by_count(path, t, profiles, lits, ks)
                    # the greatest or least average (total, where the question asks for one) of a number on the
                    # relationship or, where the question asks for an average or total, on the other end ("the
                    # users with the highest average answer score")
                    totals = ["avg", "sum"] if "sum" in lits.aggregated else ["avg"]
                    asked: list[str] = [a for a in ("avg", "sum") if a in lits.aggregated]
                    measured: list[tuple[int | None, int | None, list[str], list[Property]]] = [
                        (1, None, totals, profiles.numeric(path, 1, edge=True)),
                        (None, other, asked, profiles.numeric(path, other) if asked else []),
                    ]
                    out += [
                        Shape(path, t, "group", prop=p.key, prop_on=on, prop_var=var, agg=a, fn=d, limit=k)
                        for on, var, aggs, numeric in measured
                        for p in numeric
                        for a in aggs
                        if not (a == "sum" and p.temporal)  # a sum of years means nothing
                        for d in ("DESC", "ASC")
                        for k in ks
                    ]
                    # "the actors with the most diverse roles": how many different values (not "the number of
                    # different movies", which counts the movies)
                    if lits.asks_variety and not lits.match.named(path.node_kind(other)[0], lits.varied):
                        owners = [(1, None, rel), (None, other, profiles.of(path, other))]
                        out += [
                            Shape(path, t, "group", prop=p.key, prop_on=on, prop_var=var, fn=d, limit=k, distinct=True)
                            for on, var, prof in owners
                            for p in (prof.properties if prof is not None else [])
                            for d in ("DESC", "ASC")
                            for k in ks
                        ]
        for path, targets, also in patterns if lits.per else []:  # "how many customers are there in each country"
            out += [x for t in targets if not also for x in per_group(path, t, profiles, lits)]
        for path in paths if lits.per else []:  # each of the nodes a shared value names ("each student from Brazil"),
            if len(path.hops) == 1 and profiles.shared(path.anchor):  # or between the entity and the nodes counted
                out += per_group(path, 1, profiles, lits)  # ("how many players does each club in league X have")
            out += middle_groups(path, lits)
        for path in chains(schema, profiles, lits) if chain_paths is None else chain_paths:  # how many, via a kind
            out += [x for t in (1, 3) for x in by_count(path, t, profiles, lits, ks, chain=True)]
            if lits.orders and lits.limit_words:  # "the users who answered the 3 most viewed questions"
                out += _staged_chain(path, profiles, lits, ks, timed)
        # through a middle kind the question names too: one end in order ("the top 3 types of machines by RAM in ...")
        for path in chains(schema, profiles, lits, middle=True) if named_chains is None else named_chains:
            out += [x for t in (1, 3) for x in chain_ends(path, t, profiles, lits, ks, timed)]
        for path in paths:  # the entity-anchored paths: how many, aggregates, orderings and values of their answers
            end = len(path.hops) + 1
            out += pinned(path, profiles, lits, ks, timed)  # the nodes a value names that have its relationship
            out += measures(path, end, profiles, ks, timed)
            out += attributes(path, end, profiles, paired=True, lits=lits)
            out += value_counts(path, end, profiles, lits)
            if lits.superlative:  # "the most common roles in X"
                out += commons(path, end, profiles, ks, lits.order, frequency=lits.asks_frequency)
        for path in [*paths, *longer] if lits.superlative else []:  # the answers with the most (fewest) of what
            end = len(path.hops) + 1  # reaches them ("who has commented the most on questions tagged X")
            if len(path.hops) >= 2 and not profiles.one_each(path, end, end - 1):
                out += [Shape(path, end, "group", fn=d, other=end - 1, limit=k) for d in ("DESC", "ASC") for k in ks]
        for path in joined:  # what two linked entities share: the first k of it, how many
            out += [Shape(path, path.return_index, "list", limit=k) for k in lits.limits]
            out += [Shape(path, path.return_index, "count")] if lits.asks_count else []
            out += pinned(path, profiles, lits, ks, timed)  # ("which passengers with Gold status booked flights of X")
        for path in entities:  # what a linked entity is, and how two of them are linked
            out += attributes(path, 1, profiles, node=not path.hops, lits=lits)
            if not path.hops and profiles.shared(path.anchor):  # the nodes a value names, how many, their totals
                out += [Shape(path, 1, "list"), *(Shape(path, 1, "list", limit=k) for k in lits.limits)]
                out += measures(path, 1, profiles, ks, timed)  # ("the total freight of orders shipped to France")
            out += pinned(path, profiles, lits, ks, timed) if path.hops else []  # ("which goalkeepers play for X")
            if lits.asks_count and not path.hops:  # how many of a kind it is linked to, none included ("how many
                out += schema_counts(schema, profiles, path.anchor, lits.lex)  # people reviewed X": 0)
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


def _staged_chain(
    path: CandidateQuery, profiles: Profiles, lits: QuestionLiterals, ks: list[int | None], timed: bool
) -> list[Shape]:
    """The ends of a chain linked to the k nodes of its other end with the greatest or least property, where the
    question's number counts that other end ("the users who answered the 3 most viewed questions")."""
    return [
        Shape(path, t, "top", prop=p.key, fn=d, limit=k, prop_var=4 - t, temporal=timed and p.temporal, staged=True)
        for t in (1, 3)
        for p in profiles.ordered(path, 4 - t)
        for d in ("DESC", "ASC")
        for k in ks
        if k is not None and counts_kind(lits, k, path.node_kind(4 - t)[0])
    ]


def _staged_or_not(s: Shape, lits: QuestionLiterals) -> list[Shape]:
    """A ``top`` by a linked node's property as the question's number counts: the linked nodes ("the tags of the 3
    questions with the lowest view count": ``staged``) or the answers ("the top 3 tags by their questions' view
    count"; only where a superlative asks for it, not "top" alone). Without a question (tune's shapes), both."""
    if not lits.said:
        return [s, replace(s, staged=True)]
    ranked = s.path.node_kind(s.ordered_by() or s.target)[0]
    if s.limit is not None and counts_kind(lits, s.limit, ranked):
        return [replace(s, staged=True)]
    return [s] if lits.superlative else []


def within_budget(shapes: list[Shape], lits: QuestionLiterals, budget: int, prior: Prior | None = None) -> list[Shape]:
    """The shapes anchored at a linked entity, and the ``budget`` label-anchored ones whose labels, relationship
    types and properties the question names most (``terms.lexical_overlap``; ties: the higher ``prior``, what the
    ranking features say before the cross-encoder has read anything, then the smaller shape, then enumeration
    order), in enumeration order. The cross-encoder reads every base shape otherwise: on a schema of 17 labels some
    1,200 a question, five seconds on this CPU, most of them about labels the question never names."""
    free = [i for i, c in enumerate(shapes) if c.anchor.name is None]
    if len(free) <= budget:
        return shapes
    overlap = {i: lexical_overlap(lits.match, shapes[i], lits.words) for i in free}
    cut = sorted(overlap.values(), reverse=True)[budget - 1] if budget > 0 else max(overlap.values()) + 1
    tied = [i for i in free if overlap[i] == cut]  # only the shapes at the cut need the prior to break their tie
    before = dict.fromkeys(free, 0.0)
    if prior and tied:
        before |= dict(zip(tied, prior([shapes[i] for i in tied], lits), strict=True))
    dropped = set(sorted(free, key=lambda i: (-overlap[i], -before[i], shapes[i].size, i))[budget:])
    return [c for i, c in enumerate(shapes) if i not in dropped]


def _best(shapes: list[Shape], scores: list[float] | None, k: int) -> list[Shape]:
    if scores is None:
        return shapes[:k]
    order = sorted(range(len(shapes)), key=lambda i: -scores[i])
    return [shapes[i] for i in order[:k]]
