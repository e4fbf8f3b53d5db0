"""What ``data/pharma`` (session 61; a drug-discovery graph, measured first with that session's starting code) showed:
a chain of a relationship read "disease subtype of indirectly cancer", which the cross-encoder put below the one hop
for "which diseases are a kind of cancer at any level"; and "strongest" was no superlative ("the gene with the
strongest association with X": an order by the association's score read as one the question does not ask for)."""

from __future__ import annotations

from app.cypher.candidates import Anchor, CandidateQuery, Hop
from app.cypher.shapes import Shape
from app.text2cypher import features
from app.text2cypher.closures import closures
from app.text2cypher.lexicon import load as load_lexicon
from app.text2cypher.question import question_literals
from app.text2cypher.reading import reading

CANCER = Anchor("cancer", "Disease", "diseaseLabel")
SUBTYPE = Hop("SUBTYPE_OF", "in", "Disease", "diseaseLabel")


def test_a_chain_reads_as_one_at_any_level_after_the_entity() -> None:
    (chain,) = closures(CandidateQuery(CANCER, ()), SUBTYPE, 8)
    said = reading(chain, load_lexicon())
    assert said == "disease subtype of cancer (disease) at any level, directly or indirectly", said
    assert reading(CandidateQuery(CANCER, (SUBTYPE,)), load_lexicon()) == "disease subtype of cancer (disease)"
    counted = reading(Shape(chain, 2, "count"), load_lexicon())
    assert counted.endswith("at any level, directly or indirectly") and "indirectly cancer" not in counted, counted


def test_strongest_and_weakest_are_superlatives() -> None:
    genes = CandidateQuery(CANCER, (Hop("ASSOCIATED_WITH", "in", "Gene", "symbol"),))
    top = Shape(genes, 2, "top", prop="score", prop_on=1, fn="DESC", limit=1)
    bottom = Shape(genes, 2, "top", prop="score", prop_on=1, fn="ASC", limit=1)

    def row(s: Shape, q: str) -> dict[str, float]:
        return features.compute([s], q, question_literals(q))[0]

    q = "Which gene has the strongest association with cancer?"
    assert row(top, q)["unasked_order"] == 0.0
    assert row(top, q)["opposite_order"] == 0.0 and row(bottom, q)["opposite_order"] == 1.0
    q = "Which gene has the weakest association with cancer?"
    assert row(bottom, q)["unasked_order"] == 0.0 and row(top, q)["opposite_order"] == 1.0
