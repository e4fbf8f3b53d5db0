"""Transitive closures: chains of one relationship between nodes of one kind (``REPORTS_TO`` between employees,
``PART_OF`` between units, ``REQUIRES`` between skills). A path may take a chain of such a relationship as one hop
(``Hop.closure``: "everyone who reports to X, directly or indirectly", "the units under X at any level", "all the
prerequisites of X"), and the ``closure`` feature says whether the question asks along one.

What asks along a chain, in the question's words (the lexicon's ``closure`` and ``direct`` patterns): "directly or
indirectly", "at any level", "the chain of ...", "including indirect ones" do; "directly", "direct reports" ask for
one step. Nothing else does: not the plural of a kind asked along a relationship each node has one of at most ("the
previous versions of X"), which a generated benchmark's questions use whatever the data holds ("which 3 applications
are instances of the application 'crm'": one step, on the network graph)."""

from __future__ import annotations

from dataclasses import replace

from app.cypher.candidates import CandidateQuery, Hop, takes_closure
from app.text2cypher.features import FOR, Facts, feature


def closures(c: CandidateQuery, hop: Hop, most: int) -> list[CandidateQuery]:
    """``c`` extended by a chain of 1 to ``most`` of ``hop``'s relationships, where the hop joins a kind to itself
    (the node before it has its label), one way (not a relationship that holds both ways), ``c`` takes no chain yet
    and its last hop is of another type (after one of the same, the chain is the longer one from the node before);
    else nothing."""
    before = c.hops[-1].label if c.hops else c.anchor.label
    if most < 1 or not hop.label or hop.label != before or hop.direction == "both" or takes_closure(c.hops):
        return []
    if c.hops and c.hops[-1].rel_type == hop.rel_type:
        return []
    return [CandidateQuery(c.anchor, (*c.hops, replace(hop, closure=most)))]


@feature("closure", FOR)
def closure(f: Facts) -> int:
    """For a candidate with a hop along a chain: 1 where the question asks along one (``QuestionLiterals.closure``), -1
    otherwise (where it asks for one step, or says neither); 0 for a candidate without such a hop."""
    return (f.lits.closure or -1) if takes_closure(f.candidate.hops) else 0
