"""What a node lacks, where the question names the missing relationship by a noun of a role in it: "skills with no
prerequisites" lack what they require, "members with no followers" lack those who follow them. The ``lacked_role``
feature says which way round a condition ``NOT (x)-[:TYPE]->()`` (``UNLINKED``) takes the relationship."""

from __future__ import annotations

from app.cypher.shapes import UNLINKED, Shape
from app.text2cypher.features import FOR, Facts, feature
from app.text2cypher.words import term_words, verb_lemmas


@feature("lacked_role", FOR)
def lacked_role(f: Facts) -> int:
    """For each condition that a node has no relationship of a type the question's negated words name by a noun of a
    role in it: +1 where the condition leaves the node the other end of that role, -1 where it does not. "Which skills
    have no prerequisites": "prerequisites" names what ``REQUIRES`` reaches (the lexicon's ``senses``), so the skills
    are the ones that would require (``NOT (x)-[:REQUIRES]->()``, not ``NOT (x)<-[:REQUIRES]-()``); "followers" names
    the doer of ``FOLLOWS``, so members with none are followed by nobody. A verb's form names no role ("never reviewed
    a movie": the verb's own direction, which the reading says). 0 without such a condition."""
    c, lits = f.candidate, f.lits
    if not isinstance(c, Shape) or not lits.negated:
        return 0
    m, out = lits.match, 0
    for flt in c.filters:
        verb = term_words(flt.key)[:1] if flt.op == UNLINKED else []
        named = next((w for w in lits.negated if verb and not verb_lemmas(w) and m.names(verb[0], w)), None)
        if named is not None:  # the node does what the type says where the type leaves it (not one in the passive)
            does = (flt.value[0] == "out") != m.passive(flt.key)
            out += 1 if does != m.is_doer(verb[0], named) else -1
    return out
