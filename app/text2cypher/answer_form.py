"""The answer-form stage: the chosen candidate returning its answers the way the question asks for them (candidates
are enumerated and scored returning display values): the nodes themselves, their names, both ends of a pair, each
answer beside the value it was picked by.
"""

from __future__ import annotations

from dataclasses import replace

from app.cypher.candidates import CandidateQuery, Direction, Hop
from app.cypher.shapes import Filter, Shape
from app.text2cypher.asked import beside_word, label_words, lists_last
from app.text2cypher.asks import is_label_noun
from app.text2cypher.profiles import Profiles
from app.text2cypher.question import QuestionLiterals
from app.text2cypher.words import term_words


def answer_form(
    c: CandidateQuery | Shape, lits: QuestionLiterals, profiles: Profiles | None = None
) -> CandidateQuery | Shape:
    """The chosen candidate in the form the question asks for (``_form``); a list of names names each node once,
    not each name once ("which applications listen on port 80": two applications named "crm" are two answers); a
    ranking shows beside each answer the properties of its own the question asks for by their words (``profiles``:
    "the top 3 questions with the most answers and what are their view counts"); answers of the kind of the entity
    the question names by another of its names are named that way too (``named_as_linked``)."""
    c = named_as_linked(c, profiles)
    if isinstance(c, Shape) and c.kind == "top" and lits.asks_more and profiles is not None:
        shown = asked_beside(c, lits, profiles)
        c = replace(c, shown=shown) if shown else c
    out = _form(c, lits, profiles)
    if isinstance(out, Shape) and counts_edges(out, lits):
        return replace(out, edges=True)
    if isinstance(out, Shape) and out.kind == "list" and out.form == "names":
        plain = out.having is None and not out.also and not out.shown and out.list_order is None
        out = replace(out, form="each") if plain else out
    return named_in_parts(out, profiles)


def named_in_parts(c: CandidateQuery | Shape, profiles: Profiles | None) -> CandidateQuery | Shape:
    """Answers named by the display value of a label whose nodes' names are kept in parts (``LabelProfile.parts``: a
    patient's ``firstName`` and ``lastName``) named by those parts instead ("which patients ...": first and last
    names, not ``patientId``); nodes stay nodes."""
    target = c.node_kind(c.return_index)[0] if isinstance(c, CandidateQuery) else c.path.node_kind(c.target)[0]
    prof = profiles.labels.get(target) if profiles is not None else None
    if prof is None or not prof.parts:
        return c
    if isinstance(c, CandidateQuery):
        if c.nodes or c.end is not None or not c.hops:
            return c
        c = Shape(c, c.return_index, "list")
    if c.kind not in ("list", "top", "group") or (c.form == "nodes" and c.kind != "group") or c.returns:
        return c
    return replace(c, named_by=prof.parts)


def counts_edges(c: Shape, lits: QuestionLiterals) -> bool:
    """Whether a count of the targets is one of the relationships that reach them: the word the question counts names
    that relationship and is no form of the noun of a label of the pattern ("how many transfers did X receive":
    ``TRANSFERRED_TO``; "how many likes did post X get": ``LIKED``; "how many hikes were rated 5": ``HIKED``, though
    "hikes" shares a stem with ``Hiker``; not "how many movies did X act in"), nor a noun for its doer ("how many
    followers": members)."""
    if c.kind != "count" or c.prop or c.having is not None or c.also or not c.hops or not lits.heads:
        return False
    head, hop = lits.heads[:1], c.hops[max(c.target - 1, 1) - 1]
    if hop.closure:  # a chain's relationships are a list: no count of them
        return False
    doer = any(lits.match.doer_form(w, head[0]) for w in term_words(hop.rel_type)[:1])
    named = lits.match.named(hop.rel_type, head) and not doer
    # "hikes" only shares a stem with ``Hiker``'s noun: no label's
    return named and not any(label and is_label_noun(head[0], label, lits) for label in c.path.labels())


def _form(c: CandidateQuery | Shape, lits: QuestionLiterals, profiles: Profiles | None) -> CandidateQuery | Shape:
    """The chosen candidate returning its answers the way the question asks for them (candidates are enumerated and
    scored returning display values). A question that asks for things, not their names ("list the movies ...",
    "find the people who ..."), gets the nodes themselves, every property with them; one that asks for names or
    titles, opens with "who" (people are answered by name), opens with "which" about answers reached through a
    relationship ("which movies did X direct?": it picks them out by name) or asks for something beside each answer
    ("... and their ratings") keeps the display values. A list of what two relationships link ("who acted in and
    directed the same movie") returns both ends of the pair, unless the question asks for names; and so does one
    that asks for the other end beside each answer ("... and what are those movies?"). An ordering returns
    the nodes ("the 5 most recent movies", "the top 5 questions with the highest view count"), unless the question
    ranks "by" the property ("the top 3 processes by PID": each with it, ``lits.ranked_by``) or the property dates a
    birth ("the oldest people" compares ages: each name with the birth year); where it asks for names (or the display
    property by its words), the names alone, in that order. Most/fewest (``group``) always group by the node, not by
    the name the candidate was scored with. A relationship's property is returned beside the node it is asked of,
    when that node is no linked entity and the question names its kind ("the roles of the actors in X": each actor and
    their roles; "the roles of Keanu Reeves in The Matrix", "the asking price of 11 Birch Close", "when was it listed":
    the values alone, also where a candidate pairs them). A list of the top k of a kind with a year of its own, where
    nothing says by what, takes them in that year's order (``lits.dated``: "the top 3 movies Keanu Reeves acted in"
    are the latest 3; "the first 3" are any 3). A "which" question whose list matched part of a text sees that text
    beside each answer ("which movies have a tagline containing 'freedom'": each title and its tagline). An
    ordering by what the answers are linked to names it beside them where the question names it ("who directed the
    oldest movie": each director, the movie and its year); a list whose display values the question asks for beside
    other properties by their words gives those too ("the names and IPs of all switches"; a path's answers as well:
    "the names and IPs of the interfaces connected to network '10.2'"). The answers linked to the
    k nodes a ranking picks first (``Shape.staged``) are their names, or each of the k with what ranked it and its
    answers where the question opens with a phrase that sets the scene ("For the top 3 questions by views, list the
    users who asked them": ``lits.fronted``) or asks for both ("the top 5 questions with the most comments and their
    tags"). English, not a data set's vocabulary."""
    if isinstance(c, Shape) and c.is_staged:  # the answers linked to the k first: their names (the k are the means),
        return replace(c, form="pairs") if lits.fronted or lits.asks_more else c  # each of the k with its answers
    if isinstance(c, Shape) and c.kind == "group":  # by the node: two of one name are two (it returns names)
        return replace(c, form="nodes")
    if isinstance(c, Shape) and c.kind == "list" and c.having is None and not c.also:  # one node, no threshold
        dated = lits.dated
        if c.limit is not None and dated is not None and c.path.node_kind(c.target)[0] == dated[0]:
            c = replace(c, ordered=dated[1:])  # "the first 3 movies ...": the earliest 3, whatever form they take
        shown = tuple((f.var, f.key, f.edge) for f in c.filters if shows(c, f, lits)) if lits.asks_which else ()
        if shown:  # "which movies have a tagline containing 'freedom'": each title and the tagline that matched
            return replace(c, shown=shown, form="names")
        pinned = {f.key for f in c.filters if f.var == c.target and not f.edge and f.op == "="}  # "in zone 1"
        beside = tuple(x for x in asked_beside(c, lits, profiles) if x[1] not in pinned) if profiles else ()
        if beside and (lits.asks_names or display_asked(c, lits)):  # "the names and IPs of all switches": both
            return replace(c, shown=beside, form="names")
        linked = linked_beside(c, lits, profiles) if profiles and not beside else None
        if linked is not None:  # "the machines in rack X and their types": each machine and its type
            return linked
    if isinstance(c, CandidateQuery) and c.end is None and c.hops and profiles is not None:
        listed = Shape(c, c.return_index, "list")  # a path's answers as a list, to show more of each
        beside = asked_beside(listed, lits, profiles)
        if beside and (lits.asks_names or display_asked(c, lits)):  # "the names and IPs of the interfaces linked
            return replace(listed, shown=beside, form="names")  # to network '10.2'": both
        linked = linked_beside(listed, lits, profiles) if not beside else None
        if linked is not None:
            return linked
    o = c.ordered_by() if isinstance(c, Shape) and c.kind == "top" else None
    if isinstance(c, Shape) and o is not None and not lits.asks_names and lits.match.kind_named(c, o, lits.words):
        return replace(c, form="pairs")  # "who directed the oldest movie": each director, the movie and its year
    if isinstance(c, Shape) and c.kind == "attr" and c.prop_on is not None and c.anchor.name is not None:
        # "the asking price of 11 Birch Close" asks for no agent, "when was it listed" for a date alone
        alone = c.target == 1 or lits.asks_when or not lits.match.kind_named(c, c.target, lits.words)
        return replace(c, paired=not alone)
    if isinstance(c, Shape) and c.kind == "attr" and c.prop_on is not None and not c.paired:
        return replace(c, paired=True)
    if isinstance(c, Shape) and c.kind == "list" and c.having is None and c.also and c.target in (1, 2):
        return c if lits.asks_names else replace(c, form="pairs")  # also for "... and what are those movies?"
    names = lits.asks_names or display_asked(c, lits)
    if names and not lits.asks_more and isinstance(c, Shape) and ranks_own(c, lits):
        # "what are the titles of the top 5 questions with the highest view count": the first 5 in that order, their
        # display values alone
        assert c.prop is not None
        return replace(c, kind="list", ordered=(c.prop, "ASC" if c.fn == "ASC" else "DESC"), prop=None, fn=None)
    if isinstance(c, Shape) and profiles is not None and not lits.asks_more and ranks_own(c, lits):
        asked = own_asked(c, lits, profiles)
        if asked is not None:  # "what are the body markdowns of the top 3 highest scoring answers": that property
            assert c.prop is not None  # of the first 3, in order
            order = "ASC" if c.fn == "ASC" else "DESC"
            return replace(c, kind="list", ordered=(c.prop, order), prop=None, fn=None, returns=asked)
    if names or lits.asks_more:
        return c
    if isinstance(c, CandidateQuery):
        return c if lits.asks_who or lits.asks_which else replace(c, nodes=True)
    if c.kind == "list" and c.having is None:
        return c if lits.asks_who or (lits.asks_which and c.hops) else replace(c, form="nodes")
    if ranks_own(c, lits) and not lits.asks_who:
        return (
            c if lits.match.dates_birth(c.prop or "") else replace(c, form="nodes")
        )  # "the oldest people": names and years
    return c


def shows(c: Shape, f: Filter, lits: QuestionLiterals) -> bool:
    """Whether a list shows the value its condition ``f`` matched part of (quoted text the question matches on part
    of a value: ``lits.partial``), a property of the answer itself or of the relationship that reaches it."""
    if f.op not in ("CONTAINS", "STARTS WITH", "ENDS WITH") or f.listed or f.value not in lits.partial:
        return False
    if not f.edge and f.var == c.target and f.key == c.path.node_kind(c.target)[1]:
        return False  # the display value it matched part of is the answer's own column already
    return c.target in (f.var, f.var + 1) if f.edge else f.var == c.target


def ranks_own(c: Shape, lits: QuestionLiterals) -> bool:
    """A ``top`` by the target's own property (not the size of a list) that the question does not rank "by" ("the
    top 3 processes by PID" shows each PID)."""
    return (
        c.kind == "top"
        and c.owns_prop(c.target)
        and not c.sized
        and c.limit is not None
        and not lits.match.named(c.prop or "", lits.ranked_by)
    )


def display_asked(c: CandidateQuery | Shape, lits: QuestionLiterals) -> bool:
    """Whether the question asks for the answers' display property by its own words, as "names" asks for names
    ("what are the IPs of the switches ...", "what is the IP of the interface linked to X": ``ip``; the lexicon's
    ``value_asked``), or names them with their kind as one noun ("list all switch IPs": ``kind_value_asked``)."""
    label, key = c.path.node_kind(c.target) if isinstance(c, Shape) else c.node_kind(c.return_index)
    if not key:
        return False
    asked = lits.lex.value_asked(key).search(lits.said) is not None
    return asked or (bool(label) and lits.lex.kind_value_asked(label, key).search(lits.said) is not None)


def asked_beside(c: Shape, lits: QuestionLiterals, profiles: Profiles) -> tuple[tuple[int, str, bool], ...]:
    """The properties of a ranking's answers the question asks for by their own words beside them ("... and their
    view counts", the lexicon's ``value_asked``), other than their display value, what ranks them and a key that is
    their label's words."""
    prof = profiles.of(c.path, c.target)
    if prof is None or c.prop_on is not None:
        return ()
    label = term_words(prof.label)  # "the top 3 types of machines" names the types, not a type's ``type``
    keys = [p.key for p in [*prof.properties, *prof.identifiers] if p.key not in (prof.key, c.prop)]
    keys = [k for k in keys if term_words(k) != label]
    return tuple((c.target, k, False) for k in keys if lits.lex.value_asked(k).search(lits.said))


def linked_beside(c: Shape, lits: QuestionLiterals, profiles: Profiles) -> Shape | None:
    """A list whose answers the question asks for beside the node of another kind each is linked to ("the machines in
    rack X and their types", "all products and their respective categories": the lexicon's ``beside_kind``): the
    pattern one hop longer, to the one kind the word after "and their" names, each answer's display value with
    that node's; None where the word names no kind, or a kind the pattern holds already, or where not exactly one
    relationship type links the answers' kind to it (which one would be a guess)."""
    word, path = beside_word(lits), c.path
    own = path.node_kind(c.target)[0]
    if word is None or not own or not lists_last(c):
        return None
    kinds = [k for k in label_words((word,), tuple(profiles.labels)) if k not in path.labels()]
    if len(kinds) != 1:
        return None
    kind = kinds[0]
    links: list[tuple[str, Direction]] = [(t, "out") for a, t, b in profiles.links if (a, b) == (own, kind)]
    links += [(t, "in") for a, t, b in profiles.links if (a, b) == (kind, own)]
    if len(links) != 1:
        return None
    key = profiles.labels[kind].key
    longer = replace(path, hops=(*path.hops, Hop(*links[0], kind, key)))
    return replace(c, path=longer, shown=((longer.return_index, key, False),), form="names")


def own_asked(c: Shape, lits: QuestionLiterals, profiles: Profiles) -> str | None:
    """The one property of the answers' own, other than their display value and what ranks them, that the question
    asks for by its words ("the body markdowns of ...", the lexicon's ``value_asked``), or None."""
    keys = [k for _, k, _ in asked_beside(c, lits, profiles)]
    return keys[0] if len(keys) == 1 else None


def named_as_linked(c: CandidateQuery | Shape, profiles: Profiles | None) -> CandidateQuery | Shape:
    """Where the question names its entity by a property that names the nodes of its label beside the display one
    ("who follows samir_b?": a member's ``handle``, the display property being ``fullName``), the answers of that
    label are named by it too: the question speaks of them so. Not a value many share (``categorical``: "members in
    Oslo") nor an id."""
    path = c if isinstance(c, CandidateQuery) else c.path
    a = path.anchor
    prof = profiles.labels.get(a.label) if profiles is not None else None
    if a.name is None or not a.display or a.key == a.display or prof is None:
        return c
    if a.key in prof.categorical or a.key in {p.key for p in prof.identifiers}:
        return c
    hops = tuple(replace(h, key=a.key) if h.label == a.label and h.key == a.display else h for h in path.hops)
    if hops == path.hops:
        return c
    named = replace(path, hops=hops)
    return named if isinstance(c, CandidateQuery) else replace(c, path=named)
