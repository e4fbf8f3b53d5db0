"""What ``data/museum`` (session 57; a museum-collection graph, measured first with that session's code) showed: "the
oldest artist" was born first, not the first to die; "the 3 most expensive acquisitions" compares prices, nothing
counted (neither how many of something each answer has, nor how many hold each price); two values a question names
("which Spanish artists made oil paintings") pin each other's nodes. The city of each of a handful of museums is
categorical (``tests/app/stores/test_profile.py``)."""

from __future__ import annotations

from app.cypher.candidates import Anchor, CandidateQuery, Hop
from app.cypher.shapes import Shape
from app.text2cypher import features
from app.text2cypher.measures import pinned
from app.text2cypher.question import question_literals


def row(c: CandidateQuery | Shape, question: str) -> dict[str, float]:
    return features.compute([c], question, question_literals(question))[0]


def test_the_oldest_is_born_first_not_the_first_to_die() -> None:
    artist = CandidateQuery(Anchor(None, "Artist", "fullName"), ())
    born, died = (Shape(artist, 1, "top", prop=k, fn="ASC", limit=1, temporal=True) for k in ("born", "died"))
    q = "Who is the oldest artist?"
    assert (row(born, q)["time_order"], row(died, q)["time_order"]) == (1.0, 0.0)
    assert row(died, "Which artist died first?")["time_order"] == 1.0  # a question that names the death


def test_the_most_expensive_counts_nothing() -> None:
    assert question_literals("List the 3 most expensive acquisitions.").most_noun is None
    assert question_literals("Which museum has the most artworks?").most_noun == "artworks"
    acquired = CandidateQuery(Anchor(None, "Museum", "museumName"), (Hop("ACQUIRED", "out", "Artwork", "workTitle"),))
    common = Shape(acquired, 2, "common", prop="priceEur", prop_on=1, fn="DESC", limit=3)
    most = Shape(acquired, 1, "group", other=2, fn="DESC", limit=3)
    q = "List the 3 most expensive acquisitions."
    assert (row(common, q)["counted_measure"], row(most, q)["counted_measure"]) == (1.0, 1.0)
    assert row(common, "What are the 3 most common prices?")["counted_measure"] == 0.0
    assert row(most, "Which museum has the most artworks?")["counted_measure"] == 0.0


def test_two_values_a_question_names_pin_each_others_nodes() -> None:
    class Shared:
        """Profiles where every anchor is a value many nodes share (``Profiles.shared``)."""

        def shared(self, anchor: Anchor) -> bool:
            return True

        def ordered(self, *args: object, **kwargs: object) -> list[object]:
            return []

    spanish, oil = Anchor("Spanish", "Artist", "nationality"), Anchor("oil", "Artwork", "medium")
    path = CandidateQuery(spanish, (Hop("CREATED", "out", "Artwork", "medium"),), end=oil)
    lits = question_literals("Which Spanish artists made oil paintings?")
    lists = {s.target for s in pinned(path, Shared(), lits, [None], False) if s.kind == "list"}  # type: ignore[arg-type]
    assert lists == {1, 2}  # the Spanish artists who made oil works, and the oil works Spanish artists made
