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
