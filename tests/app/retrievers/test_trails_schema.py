"""What ``data/trails`` (session 54; a hiking graph keyed in snake_case, measured first with that session's code)
showed: an element of a list of kinds said in lower case after a word for the list ("trails tagged with waterfall")
is a condition, and a count of what a word shares only a stem with a label's noun ("hikes", ``Hiker``) while it names
the relationship (``HIKED``) counts the relationships."""

from __future__ import annotations

from app.cypher.candidates import Anchor, CandidateQuery, Hop
from app.cypher.shapes import Shape
from app.text2cypher.answer_form import counts_edges
from app.text2cypher.asks import stated_values
from app.text2cypher.profiles import Profiles
from app.text2cypher.question import question_literals


def test_a_list_element_after_a_word_for_the_list_is_stated() -> None:
    profiles = Profiles(listed={("Trail", "tags"): ["waterfall", "forest", "dog-friendly"]})
    for question, want in [
        ("Which trails are tagged with waterfall?", ["waterfall"]),
        ("Which trails have the tag forest?", ["forest"]),
        ("Which trails go through a forest?", []),  # no word for the list before it: a plain word
        ("Which trails have a Waterfall tag?", ["waterfall"]),
    ]:
        lits = question_literals(question)
        stated_values(lits, profiles)
        assert lits.values == want, question


def test_hikes_count_the_hikes_not_the_hikers() -> None:
    hiked = CandidateQuery(Anchor(None, "Hiker", "username"), (Hop("HIKED", "out", "Trail", "trail_name"),))
    hikers = Shape(hiked, 1, "count")
    assert counts_edges(hikers, question_literals("How many hikes were rated 5?"))
    assert not counts_edges(hikers, question_literals("How many hikers hiked Misty Trail?"))
    person = CandidateQuery(Anchor(None, "Person", "name"), (Hop("PEOPLE", "out", "Movie", "title"),))
    assert not counts_edges(Shape(person, 1, "count"), question_literals("How many people are there?"))


def test_when_did_someone_first_do_asks_for_the_earliest_date() -> None:
    """ "When did X first hike?" (session 55): the earliest date of the relationship, not the trails."""
    from app.text2cypher import features

    hiked = CandidateQuery(Anchor("X", "Hiker", "username"), (Hop("HIKED", "out", "Trail", "trail_name"),))
    earliest = Shape(hiked, 2, "agg", prop="hiked_on", prop_on=1, fn="min", temporal=True)
    latest = Shape(hiked, 2, "agg", prop="hiked_on", prop_on=1, fn="max", temporal=True)
    for q, want in [("When did X first hike?", (1.0, 0.0)), ("When did X last hike?", (0.0, 1.0))]:
        lits = question_literals(q)
        rows = features.compute([earliest, latest], q, lits)
        assert (rows[0]["time_order"], rows[1]["time_order"]) == want, q
    q = "Which trail did the first hiker hike?"  # no time asked of the hikes
    assert question_literals(q).time_order is None
