"""What ``data/transit`` (session 58; a city-transit graph, measured first with that session's starting code) showed:
two names a question says as they are stored ("stations served by both M1 and M2") are both stated, as quoted
constants are, so a path that leaves one out is no better for being shorter; "since when" asks for a point in time,
a relationship's date alone, even where a candidate pairs it with the other end. How many of one kind each of another
has through a kind the question does not name is in ``test_any_schema.py``."""

from __future__ import annotations

from app.cypher.candidates import Anchor, CandidateQuery, Hop
from app.cypher.shapes import Shape
from app.text2cypher import features
from app.text2cypher.answer_form import answer_form
from app.text2cypher.question import question_literals

M1, M2 = Anchor("M1", "Line", "lineCode"), Anchor("M2", "Line", "lineCode")
STOPS = Hop("STOPS_AT", "out", "Station", "stationName")


def row(c: CandidateQuery | Shape, question: str) -> dict[str, float]:
    return features.compute([c], question, question_literals(question))[0]


def test_names_said_as_stored_are_stated_constants() -> None:
    q = "Which stations are served by both M1 and M2?"
    one = CandidateQuery(M1, (STOPS,))
    both = CandidateQuery(M1, (STOPS, Hop("STOPS_AT", "in", "Line", "lineCode")), end=M2)
    assert (row(one, q)["constants"], row(both, q)["constants"]) == (1.0, 2.0)
    # a name the question does not say as it is stored (another case, a fuzzy link) is no stated constant
    assert row(one, "Which stations does the m1 line serve?")["constants"] == 0.0
    assert row(CandidateQuery(Anchor("M1 Express", "Line", "lineCode"), (STOPS,)), q)["constants"] == 0.0
    # nor is a value of plain lower-case words, which is also the question's own word
    status = CandidateQuery(Anchor("delivered", "Shipment", "status"), ())
    assert row(status, "Which shipments were delivered to Dunmore Pharma?")["constants"] == 0.0


def test_since_when_asks_for_the_date_alone() -> None:
    vehicle = CandidateQuery(Anchor("V-222", "Vehicle", "fleetNo"), (Hop("ASSIGNED_TO", "out", "Line", "lineCode"),))
    since = Shape(vehicle, 2, "attr", prop="since", prop_on=1, temporal=True)
    q = "Since when has vehicle V-222 been assigned to its line?"
    assert question_literals(q).asks_when and not question_literals("Who listed V-222?").asks_when
    assert row(since, q)["answer_kind"] == 1.0
    form = answer_form(
        Shape(vehicle, 2, "attr", prop="since", prop_on=1, temporal=True, paired=True), question_literals(q)
    )
    assert not form.paired  # the line is named, but a "when" asks for the date
