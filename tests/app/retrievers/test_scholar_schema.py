"""What ``data/scholar`` (session 60; a research-publications graph, measured first with that session's starting code)
showed: a pattern from every node of a label that holds the question's entity by a condition on its last node was read
with no regard to which end of the relationship the entity is ("which papers does 'X' cite" answered by the papers
citing X); a count of the one node a name pins looked like an answer ("how many citations does 'X' have": 1); two
researchers sharing a paper read "other researcher with the same wrote as X"; the title of the paper a DOI names lost
to a path through citations (its ``paperTitle`` counted as a key the question does not say); and "which conferences"
named no venue (the word is a value of the venue's ``kind``)."""

from __future__ import annotations

from app.cypher.candidates import Anchor, CandidateQuery, Hop
from app.cypher.shapes import Filter, Shape
from app.text2cypher import features
from app.text2cypher.lexicon import load as load_lexicon
from app.text2cypher.question import question_literals
from app.text2cypher.reading import reading

PAPERS = CandidateQuery(Anchor(None, "Paper", "paperTitle"), (Hop("CITES", "out", "Paper", "paperTitle"),))
TITLE = "Curriculum Policies for Sparse Rewards"


def feature(c: CandidateQuery | Shape, question: str, name: str) -> float:
    return features.compute([c], question, question_literals(question))[0][name]


def test_the_entity_a_condition_holds_at_the_end_of_a_pattern_does_what_the_verb_says() -> None:
    q = f"Which papers does '{TITLE}' cite?"
    citing = Shape(PAPERS, 1, "list", filters=(Filter(2, "paperTitle", "=", TITLE),))  # the papers citing X
    cited = Shape(PAPERS, 2, "list", filters=(Filter(1, "paperTitle", "=", TITLE),))  # what X cites
    assert feature(citing, q, "agent_by") == -1.0
    assert feature(cited, q, "agent_by") == 0.0  # the right way round is no better than another relationship
    q = f"Which papers cite '{TITLE}'?"  # no verb after the name: neither
    assert feature(citing, q, "agent_by") == feature(cited, q, "agent_by") == 0.0


def test_a_count_of_the_node_a_name_pins_is_no_answer() -> None:
    q = f"How many citations does '{TITLE}' have?"
    pinned = Shape(PAPERS, 1, "count", filters=(Filter(1, "paperTitle", "=", TITLE),))
    citing = Shape(PAPERS, 1, "count", filters=(Filter(2, "paperTitle", "=", TITLE),))
    assert feature(pinned, q, "echoed_answer") == 1.0
    assert feature(citing, q, "echoed_answer") == 0.0
    assert feature(pinned, f"How many papers are titled '{TITLE}'?", "echoed_answer") == 0.0  # counts those papers


def test_sharing_a_verb_s_relationship_reads_as_doing_it_to_the_same_thing() -> None:
    co = CandidateQuery(
        Anchor("Mart Kask", "Researcher", "authorName"),
        (Hop("WROTE", "out", "Paper", "paperTitle"), Hop("WROTE", "in", "Researcher", "authorName")),
    )
    said = reading(co, load_lexicon())
    assert "other researcher that wrote the same paper as Mart Kask" in said, said
    genre = CandidateQuery(
        Anchor("Heat", "Movie", "title"), (Hop("IN_GENRE", "out", "Genre"), Hop("IN_GENRE", "in", "Movie"))
    )
    assert "other movie with the same in genre as Heat" in reading(genre, load_lexicon())  # a noun's: as before


def test_the_display_value_of_the_node_a_key_names_is_no_unnamed_key() -> None:
    doi = Anchor("10.5555/sch.2017.191", "Paper", "doi", display="paperTitle")
    title = Shape(CandidateQuery(doi, ()), 1, "attr", prop="paperTitle")
    year = Shape(CandidateQuery(doi, ()), 1, "attr", prop="year")
    q = "Which paper has the DOI 10.5555/sch.2017.191?"
    assert feature(title, q, "schema_named") == 1.0  # "DOI" named, the title is the paper itself
    assert feature(year, q, "schema_named") == 0.0  # the year is a key nothing names


def test_a_value_a_condition_holds_names_its_node() -> None:
    path = CandidateQuery(
        Anchor("Ethan Cole", "Researcher", "authorName"),
        (Hop("WROTE", "out", "Paper", "paperTitle"), Hop("PUBLISHED_IN", "out", "Venue", "venueName")),
    )
    venues = Shape(path, 3, "list", filters=(Filter(3, "kind", "=", "conference"),))
    papers = Shape(path, 2, "list", filters=(Filter(3, "kind", "=", "conference"),))
    q = "At which conferences has Ethan Cole published?"
    assert question_literals(q).asks_which
    assert (feature(venues, q, "answer_kind"), feature(papers, q, "answer_kind")) == (1.0, -1.0)
    # only the noun the question asks "which" of: "academic" here says what kind of descendants
    kadri = Anchor("Kadri Tamm", "Researcher", "authorName")
    inst = CandidateQuery(kadri, (Hop("AFFILIATED_WITH", "out", "Institution", "instName"),))
    academic = Shape(inst, 2, "list", filters=(Filter(2, "sector", "=", "academic"),))
    assert feature(academic, "Who are all the academic descendants of Kadri Tamm, at any level?", "answer_kind") < 1
