"""What ``data/logistics`` (session 56; a freight graph, measured first with that session's starting code) showed: a
word for a kind of the pattern that only begins like a relationship type's word names no use of it ("shipment" is no
form of ``SHIPPED_FROM``: a hop through the shipment's warehouse is unnamed), though a form of the type's word still
does ("answers" / ``ANSWERED``); a superlative of a measure ("lightest", "heaviest") orders in its direction and
compares that measure, not how many of something each answer is linked to. And from ``data/registry``'s two wrong
queries: "the dependencies of X" are what X depends on, "the dependents of X" what depends on X (the other,
"how many maintainers are in each location", is left: "maintainers" names ``MAINTAINS`` as "router" names
``ROUTES``, which the network questions need). And from ``data/campus`` (measured first with the code above): "which
students are advised by tenured professors" asks for students, not the professors' tenure; "prerequisites" names
``REQUIRES`` (the lexicon's ``senses``). And from the network development set (session 57): "the first 5 dependencies of
the software X" are what X depends on where no label is named "dependency"; "ratings" names the act, not what is
rated."""

from __future__ import annotations

from app.cypher.candidates import Anchor, CandidateQuery, Hop
from app.cypher.shapes import Shape
from app.text2cypher import features
from app.text2cypher.question import question_literals


def row(c: CandidateQuery | Shape, question: str) -> dict[str, float]:
    return features.compute([c], question, question_literals(question))[0]


SHIPMENT = Anchor("TRK1", "Shipment", "trackingNo")
HANDLED = Hop("HANDLED_BY", "out", "Carrier", "carrierName")


def test_a_kinds_word_names_no_type_it_only_begins_like() -> None:
    q = "Which carrier handled shipment TRK1?"
    direct = CandidateQuery(SHIPMENT, (HANDLED,))
    around = CandidateQuery(
        SHIPMENT,
        (
            Hop("SHIPPED_FROM", "out", "Warehouse", "siteCode"),
            Hop("SHIPPED_FROM", "in", "Shipment", "trackingNo"),
            HANDLED,
        ),
    )
    assert (row(direct, q)["schema_named"], row(around, q)["schema_named"]) == (1.0, -1.0)
    # the verb still names it, and a form of a type's word still names that type
    q = "Which warehouse was shipment TRK1 shipped from?"
    assert (
        row(CandidateQuery(SHIPMENT, (Hop("SHIPPED_FROM", "out", "Warehouse", "siteCode"),)), q)["schema_named"] == 1.0
    )
    answered = CandidateQuery(Anchor(None, "User", "display_name"), (Hop("ANSWERED", "out", "Answer", "uuid"),))
    assert row(answered, "Which users provided answers?")["schema_named"] == 1.0


def test_a_superlative_of_a_measure_orders_that_way_by_that_measure() -> None:
    lits = question_literals("What is the lightest product?")
    assert (lits.order, lits.superlative) == ("ASC", True)
    assert question_literals("List the 3 heaviest shipments.").order == "DESC"
    held = CandidateQuery(Anchor(None, "Shipment", "trackingNo"), (Hop("CONTAINS", "out", "Product", "label"),))
    fewest = Shape(held, 2, "group", other=1, fn="ASC", limit=1)
    lightest = Shape(
        CandidateQuery(Anchor(None, "Product", "label"), ()), 1, "top", prop="unitWeightKg", fn="ASC", limit=1
    )
    q = "What is the lightest product?"
    assert (row(fewest, q)["counted_measure"], row(lightest, q)["counted_measure"]) == (1.0, 0.0)
    assert row(fewest, "Which product is in the fewest shipments?")["counted_measure"] == 0.0
    assert row(fewest, "Which product has the largest number of shipments?")["counted_measure"] == 0.0


def test_dependencies_are_what_is_depended_on_and_dependents_what_depends() -> None:
    def of_x(direction: str) -> Shape:
        return Shape(
            CandidateQuery(Anchor("X", "Package", "slug"), (Hop("DEPENDS_ON", direction, "Package", "slug"),)),
            2,
            "list",
        )

    for q, wanted in (("Which packages are dependencies of X?", "out"), ("Which packages are dependents of X?", "in")):
        kinds = {d: row(of_x(d), q)["answer_kind"] for d in ("out", "in")}
        assert kinds == {d: 1.0 if d == wanted else -1.0 for d in ("out", "in")}, q
    # only what the question says the answers are: not a noun the verb takes, nor a verb, nor what is counted
    for q in (
        "Which packages does X depend on?",
        "Which packages depend on dependents of X?",
        "To which packages did X transfer dependencies?",
    ):
        assert row(of_x("out"), q)["answer_kind"] == row(of_x("in"), q)["answer_kind"], q
    most = [
        Shape(
            CandidateQuery(Anchor(None, "Package", "slug"), (Hop("DEPENDS_ON", "out", "Package", "slug"),)),
            t,
            "group",
            other=o,
            fn="DESC",
            limit=1,
        )
        for t, o in ((2, 1), (1, 2))
    ]
    q = "Which package has the most dependents?"
    assert row(most[0], q)["answer_kind"] == row(most[1], q)["answer_kind"]


def test_a_noun_of_a_verb_names_the_end_it_is_a_role_of() -> None:
    software = Anchor("X", "Software", "name")
    depends = Shape(CandidateQuery(software, (Hop("DEPENDS_ON", "out", "Service", "name"),)), 2, "list", limit=5)
    dependent = Shape(CandidateQuery(software, (Hop("DEPENDS_ON", "in", "Application", "name"),)), 2, "list", limit=5)
    q = "List the first 5 dependencies of the software 'X'."
    assert (row(depends, q)["answer_kind"], row(dependent, q)["answer_kind"]) == (1.0, -1.0)
    # a noun of the act itself names neither end: "ratings" are neither the raters nor what they rated
    recipe = Anchor("X", "Recipe", "recipeName")
    raters = Shape(CandidateQuery(recipe, (Hop("RATED", "in", "User", "userName"),)), 2, "count")
    rated = Shape(
        CandidateQuery(Anchor(None, "User", "userName"), (Hop("RATED", "out", "Recipe", "recipeName"),)), 2, "count"
    )
    q = "How many ratings has X received?"
    assert row(raters, q)["answer_kind"] == row(rated, q)["answer_kind"] == 0.0


def test_a_which_question_asks_for_its_kind_not_a_property_of_another() -> None:
    advises = CandidateQuery(Anchor(None, "Professor", "full_name"), (Hop("ADVISES", "out", "Student", "full_name"),))
    q = "Which students are advised by tenured professors?"
    tenure = Shape(advises, 1, "attr", prop="tenured")
    assert (row(tenure, q)["answer_kind"], row(Shape(advises, 2, "list"), q)["answer_kind"]) == (-1.0, 1.0)
    assert row(tenure, "Which professors are tenured?")["answer_kind"] == -1.0  # as before: the professors


def test_prerequisites_name_requires() -> None:
    requires = CandidateQuery(Anchor("CS348", "Course", "course_code"), (Hop("REQUIRES", "out", "Course", "title"),))
    q = "Which courses are prerequisites of CS348?"
    beside = CandidateQuery(Anchor("CS348", "Course", "course_code"), (Hop("FOLLOWS", "out", "Course", "title"),))
    assert row(requires, q)["schema_named"] == row(beside, q)["schema_named"] + 2  # one named, not one missed
    assert row(Shape(requires, 2, "list"), q)["answer_kind"] == 1.0  # what CS348 requires


def test_the_youngest_is_the_least_age_and_no_other_nodes_year() -> None:
    q = "Who is the youngest fan?"
    assert question_literals(q).order == "ASC"
    fan = CandidateQuery(Anchor(None, "Fan", "username"), ())
    follows = CandidateQuery(Anchor(None, "Fan", "username"), (Hop("FOLLOWS", "out", "Artist", "stageName"),))
    formed = Shape(follows, 1, "top", prop="formedYear", prop_var=2, fn="DESC", limit=1, temporal=True)
    by_age = [Shape(fan, 1, "top", prop="age", fn=d, limit=1) for d in ("ASC", "DESC")]
    assert row(formed, q)["time_order"] == -1.0
    assert [row(s, q)["opposite_order"] for s in by_age] == [0.0, 1.0]
    assert row(by_age[0], q)["schema_named"] == 1.0  # "youngest" names ``age``
