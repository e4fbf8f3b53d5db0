"""What ``data/registry`` (session 55; a package registry graph, measured first with that session's starting code)
showed: a kind named once names the answers, not both ends of a relationship between two of its nodes; a word for a
kind of the pattern names that kind, not a relationship it shares a stem with ("releases", ``HAS_RELEASE``;
"maintainers", ``MAINTAINS``), and a relationship takes a verb before such a word ("hikers who hiked": ``hiked_on``
is not named); "dependents" are the doers of ``DEPENDS_ON``; "what is the highest CVSS score" asks for the score."""

from __future__ import annotations

from app.cypher.candidates import Anchor, CandidateQuery, Hop
from app.cypher.shapes import Filter, Shape
from app.text2cypher import features
from app.text2cypher.question import question_literals


def row(c: CandidateQuery | Shape, question: str) -> dict[str, float]:
    return features.compute([c], question, question_literals(question))[0]


DEPENDS = CandidateQuery(Anchor(None, "Package", "slug"), (Hop("DEPENDS_ON", "out", "Package", "slug"),))


def test_a_kind_named_once_names_one_end_of_a_relationship_within_it() -> None:
    q = "How many packages are there?"
    assert row(Shape(DEPENDS, 1, "count"), q)["unnamed_leaf"] == 1.0
    q = "How many packages depend on other packages?"
    assert row(Shape(DEPENDS, 1, "count"), q)["unnamed_leaf"] == 0.0


def test_a_word_for_a_kind_of_the_pattern_names_no_relationship() -> None:
    released = CandidateQuery(Anchor(None, "Package", "slug"), (Hop("HAS_RELEASE", "out", "Release", "tag"),))
    alone = CandidateQuery(Anchor(None, "Release", "tag"), ())
    q = "Which releases were published in 2023?"
    through = Shape(released, 2, "list", filters=(Filter(1, "firstPublished", "STARTS WITH", "2023"),))
    own = Shape(alone, 1, "list", filters=(Filter(1, "publishedAt", "STARTS WITH", "2023"),))
    assert row(through, q)["schema_named"] == row(own, q)["schema_named"] == 1.0
    q = "Which packages have releases?"  # no better for the kind's word, and no worse
    assert row(Shape(released, 1, "list"), q)["schema_named"] == 0.0


def test_one_word_for_a_kind_spares_one_use_of_a_type_named_for_it() -> None:
    q = "Which genre is the track X?"
    direct = CandidateQuery(Anchor("X", "Track", "trackName"), (Hop("OF_STYLE", "out", "Genre", "style"),))
    around = CandidateQuery(
        Anchor("X", "Track", "trackName"),
        (
            Hop("HAS_TRACK", "in", "Album", "albumTitle"),
            Hop("HAS_TRACK", "out", "Track", "trackName"),
            Hop("OF_STYLE", "out", "Genre", "style"),
        ),
    )
    assert row(direct, q)["schema_named"] > row(around, q)["schema_named"]
    q = "How many versions does the software X have?"  # the link named for versions, over another to them
    versions = [
        Shape(CandidateQuery(Anchor("X", "Software", "name"), (Hop(t, "out", "Version", "name"),)), 2, "count")
        for t in ("VERSION", "DEPENDS_ON")
    ]
    assert row(versions[0], q)["schema_named"] > row(versions[1], q)["schema_named"]


def test_a_relationship_takes_the_verb_before_the_word_for_a_kind() -> None:
    hiked = CandidateQuery(Anchor("Misty Trail", "Trail", "trail_name"), (Hop("HIKED", "in", "Hiker", "username"),))
    q = "Which hikers have hiked Misty Trail?"
    dated = Shape(hiked, 2, "attr", prop="hiked_on", prop_on=1, paired=True)
    assert row(Shape(hiked, 2, "list"), q)["schema_named"] > row(dated, q)["schema_named"]


def test_dependents_are_the_doers_of_depends_on() -> None:
    q = "Which package has the most dependents?"
    most = [Shape(DEPENDS, t, "group", other=o, fn="DESC", limit=1) for t, o in ((2, 1), (1, 2))]
    rows = features.compute(most, q, question_literals(q))
    assert rows[0]["counted"] > rows[1]["counted"]


def test_a_superlative_naming_only_a_property_asks_for_its_value() -> None:
    vuln = CandidateQuery(Anchor(None, "Vulnerability", "cveId"), ())
    highest = Shape(vuln, 1, "agg", prop="cvss", fn="max")
    top = Shape(vuln, 1, "top", prop="cvss", fn="DESC", limit=1)
    q = "What is the highest CVSS score?"
    assert (row(highest, q)["answer_kind"], row(top, q)["answer_kind"]) == (0.0, -1.0)
    q = "Which vulnerability has the highest CVSS score?"
    assert row(top, q)["answer_kind"] >= 0.0 and row(highest, q)["answer_kind"] <= 0.0
    q = "What are the highest CVSS scores?"  # several: the vulnerabilities, as much as their scores
    assert row(top, q)["answer_kind"] == row(highest, q)["answer_kind"] == 0.0
