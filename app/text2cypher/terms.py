"""What a candidate says about the graph beyond its labels, as the terms a question's words may name: its
relationship types and property keys (``schema_terms``), the keys that pick out a node the question states
(``identity_terms``), a key's words beyond its label's (``own_key``). Read by the features that weigh how much of a
candidate the question names (``Matcher.mentions``)."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from app.cypher.candidates import CandidateQuery
from app.cypher.shapes import Shape
from app.text2cypher.words import Matcher, picks, stem_match, term_words


def schema_terms(c: CandidateQuery | Shape) -> list[str]:
    """The relationship types and property keys a candidate uses (what it says about the graph, beyond labels), one
    entry per use: a relationship type on two hops is there twice. A node's property key is there without the words
    it repeats of the node's label (``own_key``). The keys that pick out a stated node are ``identity_terms``."""
    return relationship_terms(c) + key_terms(c)


def relationship_terms(c: CandidateQuery | Shape) -> list[str]:
    """The relationship types of ``schema_terms``: each hop's, and those a shape takes beside its first (``also``)."""
    return [h.rel_type for h in c.hops] + (list(c.also) if isinstance(c, Shape) else [])


def key_terms(c: CandidateQuery | Shape) -> list[str]:
    """The property keys of ``schema_terms``: its conditions' (but those that pick out a stated node) and the one it
    aggregates or orders by (not a display property it returns: ``names_node``)."""
    if not isinstance(c, Shape):
        return []

    def label(var: int) -> str:
        return c.path.node_kind(var)[0]

    terms = [f.key if f.edge else own_key(f.key, label(f.var)) for f in c.filters if not picks(f)]
    if c.prop and not names_node(c):
        terms.append(prop_term(c))
    return terms


def names_node(c: Shape) -> bool:
    """Whether a shape's values are the display values of its nodes (the nodes themselves, by name: "which paper has
    the DOI X" asks for the paper, and says no word of its ``paperTitle``)."""
    var = c.prop_var or c.target
    return c.kind == "attr" and c.prop_on is None and c.prop == c.path.node_kind(var)[1]


def prop_term(c: Shape) -> str:
    """The words the shape's ``prop`` says: a relationship's key as it is, a node's beyond its label's
    (``own_key``)."""
    assert c.prop is not None
    return c.prop if c.prop_on is not None else own_key(c.prop, c.path.node_kind(c.prop_var or c.target)[0])


@functools.lru_cache(maxsize=4096)
def own_key(key: str, label: str) -> str:
    """A property key as the words it says beyond its label's (``customerID`` of a ``Customer`` is an "id": the word
    "customers" names the label, not the key; ``deptCode`` of a ``Department`` a "code": a word sharing a stem with
    the label's is the label's); the key itself where it says nothing more."""
    mine = term_words(label) if label else ()
    own = [w for w in term_words(key) if not any(stem_match(w, m) for m in mine)]
    return " ".join(own) if own and len(own) < len(term_words(key)) else key


def identity_terms(c: CandidateQuery | Shape) -> list[str]:
    """The property keys by which a candidate picks out the nodes a question states: a linked anchor's key
    (``{ip: "10.2.8.254"}``) and the key of a condition equal to a stated text (``WHERE x2.ip = "10.2.8.254"``), one
    entry per use. The two are one reading of "the interface with IP 10.2.8.254", so they count alike: named when a
    question word names the key ("with IP ..."), and no miss when none does (a question rarely says "with name")."""
    path = c if isinstance(c, CandidateQuery) else c.path
    terms = [a.key for _, a in path.linked()]
    if isinstance(c, Shape):
        terms += [f.key for f in c.filters if picks(f)]
    return terms


def label_echoes(c: CandidateQuery | Shape) -> set[str]:
    """The property keys a shape uses on a node whose label is the same words (a rack's ``rack``, a zone's
    ``zone``): the word "racks" names the racks, not their ``rack`` numbers, so such a use is neither named nor
    unnamed (``schema_named``)."""
    if not isinstance(c, Shape):
        return set()
    uses = [(f.key, f.var) for f in c.filters if not f.edge]
    if c.prop and c.prop_on is None:
        uses.append((c.prop, c.prop_var or c.target))
    out = set()
    for key, var in uses:
        label = c.path.node_kind(var)[0] if 1 <= var <= len(c.hops) + 1 else ""
        if label and term_words(key) == term_words(label):
            out.add(key)
    return out


def shape_terms(c: Shape) -> list[str]:
    """The labels, relationship types and property keys a shape names."""
    return [lab for lab in c.path.labels() if lab] + schema_terms(c) + [f.key for f in c.filters if picks(f)]


def lexical_overlap(m: Matcher, c: Shape, qwords: Sequence[str]) -> int:
    """How many of the question's words name one of the shape's labels, relationship types or property keys."""
    tw = {w for t in shape_terms(c) for w in term_words(t)}
    return sum(1 for q in dict.fromkeys(qwords) if any(m.names(w, q) for w in tw))
