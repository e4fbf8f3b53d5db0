"""What ``data/realty`` (session 58; a real-estate graph, measured first with that session's code) showed: a "when"
question asks for a point in time, also one a relationship holds ("when was 11 Birch Close listed": the listing's
date, not who listed it); a number inside a linked entity's name ("11 Birch Close") is no limit; a relationship's
value asked of a linked entity is the value alone where the question names no kind for the other end ("the asking
price of X", no agent asked); "sold" names a purchase; "has been licensed the longest" is the earliest licence."""

from __future__ import annotations

from app.cypher.candidates import Anchor, CandidateQuery, Hop
from app.cypher.shapes import Shape
from app.text2cypher import features
from app.text2cypher.answer_form import answer_form
from app.text2cypher.asks import linked_names
from app.text2cypher.question import question_literals

HOME = Anchor("11 Birch Close", "Home", "address")
LISTED = CandidateQuery(HOME, (Hop("LISTS", "in", "Agent", "agentName"),))


def row(c: CandidateQuery | Shape, question: str) -> dict[str, float]:
    return features.compute([c], question, question_literals(question))[0]


def test_when_asks_for_a_point_in_time() -> None:
    q = "When was 11 Birch Close listed?"
    listed_on = Shape(LISTED, 2, "attr", prop="listedOn", prop_on=1, temporal=True)
    price = Shape(LISTED, 2, "attr", prop="askingPrice", prop_on=1, quantity=True)
    agents = Shape(LISTED, 2, "list")
    assert [row(s, q)["answer_kind"] for s in (listed_on, price, agents)] == [1.0, -1.0, -1.0]
    assert row(LISTED, q)["answer_kind"] == -1.0  # the entity's path lists the agents
    # not a "when" question: a date is no answer it asks for
    assert row(listed_on, "What is the asking price of 11 Birch Close?")["answer_kind"] != 1.0


def test_a_number_inside_a_linked_name_is_no_limit() -> None:
    lits = question_literals("When was 11 Birch Close listed?")
    assert 11 in lits.numbers  # the question alone cannot tell
    linked_names(lits, ["11 Birch Close"])
    assert 11 not in lits.numbers and 11 not in lits.limits
    kept = question_literals("Which 3 homes are on Birch Close?")
    linked_names(kept, ["Birch Close", "3"])  # a name the question does not say word for word, a bare number
    assert 3 in kept.numbers


def test_a_relationship_value_of_a_linked_entity_is_the_value_alone() -> None:
    q = "What is the asking price of 11 Birch Close?"
    price = Shape(LISTED, 2, "attr", prop="askingPrice", prop_on=1, quantity=True)
    assert not answer_form(price, question_literals(q)).paired
    # where the question names the other end's kind, each of them with its value
    assert answer_form(price, question_literals("What are the asking prices of the agents of 11 Birch Close?")).paired


def test_sold_names_a_purchase_and_licensed_longest_is_earliest() -> None:
    lits = question_literals("Which homes have not been sold?")
    assert lits.match.named("PURCHASED", ["sold"]) and not lits.match.named("SOLD_TO", ["bought"])
    assert question_literals("Which agent has been licensed the longest?").time_order == "ASC"
    assert question_literals("Which agent has been licensed the shortest time?").time_order == "DESC"
    assert question_literals("Which trail is the longest?").time_order is None
