"""Text2cypher question shapes beyond entity-anchored paths: the question's constants, the shapes' Cypher, and on a
small labelled graph with properties, that every shape runs, the count stays bounded and the intended shape is
among the candidates (and the one chosen where the question names its operation)."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from typing import Any

import pytest

from app.cypher.candidates import Anchor, CandidateQuery, Hop
from app.cypher.schema import GraphSchema, SchemaTriple
from app.cypher.shapes import Filter, Shape
from app.retrievers.text2cypher import Text2CypherRetriever, distinct
from app.retrievers.types import RetrievalQuery
from app.stores.graph.profile import RelationshipProfile, identifies_by_key
from app.text2cypher import features, lexicon
from app.text2cypher.answer_form import answer_form
from app.text2cypher.asks import counts_kind, is_label_noun
from app.text2cypher.conditions import conditions, filters_for
from app.text2cypher.counting import is_chain_end, pins_chain_end
from app.text2cypher.enumerate_shapes import ShapeEnumerator
from app.text2cypher.enumeration import Enumeration
from app.text2cypher.features import turned_back
from app.text2cypher.measures import commons
from app.text2cypher.phrasing import shape_question
from app.text2cypher.profiles import LabelProfile, Profiles, Property, single_links
from app.text2cypher.question import QuestionLiterals, question_literals
from app.text2cypher.reading import reading

NS = "shapes"
EN = lexicon.load()
ORDERING = ("unasked_order", "opposite_order", "unordered_superlative")


def feature(name: str, c: Any, lits: QuestionLiterals, question: str = "") -> float:
    """One feature of one candidate (``app.text2cypher.features``)."""
    return features.compute([c], question, lits)[0][name]


def ordering(c: Any, lits: QuestionLiterals) -> list[str]:
    """The ordering features that fire for a candidate."""
    return [n for n in ORDERING if feature(n, c, lits)]


def shape_reading(s: Shape) -> str:
    return reading(s, EN)


def constants_used(c: Any, lits: QuestionLiterals) -> float:
    return feature("constants", c, lits)


def answer_kind(c: Any, lits: QuestionLiterals) -> float:
    return feature("answer_kind", c, lits)


def count_intent(c: Any, lits: QuestionLiterals) -> float:
    return feature("count_form", c, lits)


LIBRARY = """
CREATE (a:Author {name: 'Ilse Varga', born: 1948}), (b:Author {name: 'Tomas Reyl', born: 1961}),
       (c:Author {name: 'Nadia Oss', born: 1975}), (d:Author {name: 'Pell Amundsen', born: 1990}),
       (b1:Book {title: 'Salt Roads', published: 1982, pages: 310}),
       (b2:Book {title: 'The Quiet Harbour', published: 1995, pages: 224}),
       (b3:Book {title: 'Glass Orchard', published: 2004, pages: 412, award: 'Lantern Prize'}),
       (b4:Book {title: 'Northern Ledger', published: 2011, pages: 198}),
       (b5:Book {title: 'Harbour Lights', published: 2016, pages: 256}),
       (a)-[:WROTE]->(b1), (a)-[:WROTE]->(b2), (b)-[:WROTE]->(b2), (b)-[:WROTE]->(b3),
       (c)-[:WROTE]->(b4), (c)-[:WROTE]->(b5), (d)-[:WROTE]->(b5), (a)-[:WROTE]->(b4),
       (a)-[:EDITED]->(b1), (b)-[:EDITED]->(b4), (a)-[:ILLUSTRATED]->(b1), (c)-[:ILLUSTRATED]->(b2),
       (k1:Critic {name: 'Mira Holt'}), (k2:Critic {name: 'Aron Fisk'}),
       (k1)-[:REVIEWED {rating: 9, summary: 'Quietly brilliant', tags: ['sea', 'memoir']}]->(b2),
       (k1)-[:REVIEWED {rating: 6, summary: 'Uneven', tags: ['city']}]->(b3),
       (k2)-[:REVIEWED {rating: 4, summary: 'Too long', tags: ['sea']}]->(b3),
       (k2)-[:REVIEWED {rating: 7, summary: 'Nothing like Ilse Varga', tags: []}]->(b4)
"""
BOOK = Anchor(None, "Book", "title")
AUTHOR = Anchor(None, "Author", "name")
WROTE = CandidateQuery(AUTHOR, (Hop("WROTE", "out", "Book", "title"),))


def test_question_constants() -> None:
    lits = question_literals("List the first three books published in the 1990s with 'Harbour' in the title, top 5")
    assert lits.texts == ["Harbour"]
    assert lits.ranges == [(1990.0, 2000.0)] and 1990.0 not in lits.numbers
    assert lits.limits == [5, 3]
    pair = question_literals("Which authors were born from 1950 to 1970?")
    assert pair.numbers == [1950.0, 1970.0] and (1950.0, 1971.0) in pair.ranges
    assert question_literals("Who wrote Don't Look Back?").texts == []  # an apostrophe is no quote
    # a full stop after a number ends the sentence; it is no decimal point
    assert question_literals("List all movies released in the 1980s.").ranges == [(1980.0, 1990.0)]
    assert question_literals("List 3 people born before 1960.").numbers == [3.0, 1960.0]
    assert question_literals("Rated 7.5 or more.").numbers == [7.5]
    assert question_literals("Released between 1990 and 2000, or 2005-2008").ranges == [(1990, 2001), (2005, 2009)]
    two = question_literals("Which movies were released after 2005 and directed by someone born before 1960?")
    assert two.numbers == [2005.0, 1960.0] and two.ranges == []  # two conditions, not a span
    # a divisor is no number to compare with, nor a limit
    div = question_literals("List the first 3 books published in a year divisible by 10.")
    assert (div.divisors, div.numbers, div.limits) == ([10], [3.0], [3])
    assert question_literals("Books whose pages are a multiple of 4").divisors == [4]


def test_divisible_by_is_a_condition() -> None:
    f = Filter(1, "published", "divisible by", 5)
    assert f.cypher() == "x1.published % 5 = 0"
    books = Shape(CandidateQuery(BOOK, ()), 1, "list", filters=(f,))
    lits = question_literals("Which books were published in a year divisible by 5?")
    assert constants_used(books, lits) == 1
    assert shape_reading(books) == "book with book published divisible by 5"


def test_count_intent() -> None:
    path = CandidateQuery(Anchor(None, "Book", "title"), ())
    count, listing = Shape(path, 1, "count"), Shape(path, 1, "list")
    assert count_intent(count, question_literals("How many books were published after 2000?")) == 1
    assert count_intent(listing, question_literals("How many books were published after 2000?")) == -1
    assert count_intent(count, question_literals("Count the books of 1999.")) == 1
    assert count_intent(count, question_literals("Which books were published after 2000?")) == -1
    assert count_intent(listing, question_literals("Which books were published after 2000?")) == 0
    # a question that opens by asking for the number of something asks how many; a ranking by a number does not
    assert count_intent(count, question_literals("What is the total number of books published after 2000?")) == 1
    assert count_intent(count, question_literals("What's the number of books of 1999?")) == 1
    assert not question_literals("List the top 5 authors by the number of books.").asks_count


def sharing(c: Any, q: str) -> tuple[float, float]:
    """The ``shares`` and ``shared_named_once`` features of a candidate for question ``q``."""
    lits = question_literals(q)
    return feature("shares", c, lits, q), feature("shared_named_once", c, lits, q)


def test_sharing_intent_favours_paths_that_turn_back() -> None:
    x = Anchor("White Palace", "Entity", "name")
    back = CandidateQuery(x, (Hop("DIRECTED_BY", "out", ""), Hop("DIRECTED_BY", "in", "")))
    prefix = CandidateQuery(x, (Hop("DIRECTED_BY", "out", ""),))
    onward = CandidateQuery(x, (Hop("DIRECTED_BY", "out", ""), Hop("WRITTEN_BY", "in", "")))
    assert (len(turned_back(back)), len(turned_back(prefix)), len(turned_back(onward))) == (1, 0, 0)
    q = "the director of White Palace also made which movies"

    # "director" names DIRECTED_BY once: the second use is forgiven, and the turn-back is what "also" asks for
    assert sharing(back, q) == (1, 1) and sharing(prefix, q) == (0, 0)
    assert sharing(back, "who co-wrote films with Donald Ford") == (1, 1)
    assert sharing(back, "who directed White Palace") == (0, 0)  # no sharing asked
    assert sharing(onward, q) == (0, 0)
    # only the turned-back relationship's unnamed use is forgiven: both uses of DIRECTED_BY are named here, and the
    # path's unnamed third hop stays unnamed
    named = "the director of White Palace also directed which movies"
    on = CandidateQuery(x, (*back.hops, Hop("WRITTEN_BY", "out", "")))
    assert sharing(on, named) == (1, 0)
    # two relationships to the same node, where the question asks for the same one and names both
    same = Shape(WROTE, 1, "list", also=("EDITED",))
    for q, bonus in [
        ("Who wrote and edited the same book?", 1),
        ("Who wrote and edited a book?", 0),  # no sharing asked
        ("Who wrote the same book as Ilse Varga?", 0),  # EDITED unnamed
    ]:
        assert sharing(same, q) == (bonus, 0), q


def test_attribute_frame_asks_past_the_described_set() -> None:
    x = Anchor("Jon Bon Jovi", "Entity", "name")
    movies = CandidateQuery(x, (Hop("STARRED_ACTORS", "in", ""),))
    genres = CandidateQuery(x, (Hop("STARRED_ACTORS", "in", ""), Hop("HAS_GENRE", "out", "")))
    lits = question_literals("what types are the movies starred by Jon Bon Jovi")
    assert (lits.asked, lits.described[0]) == ("types", "starred")
    # the path named by "starred by" returns the movies, not their types: one hop short
    assert feature("attribute_stop", movies, lits) == 1 and feature("attribute_stop", genres, lits) == 0
    # the asked noun names the last relationship, or the label it reaches: the path answers it
    year = CandidateQuery(Anchor("Booty Call", "Entity"), (Hop("RELEASE_YEAR", "out", ""),))
    assert feature("attribute_stop", year, question_literals("what year was the film Booty Call released")) == 0
    directed = CandidateQuery(Anchor("Lana Wachowski", "Person"), (Hop("DIRECTED", "out", "Movie", "title"),))
    assert (
        feature("attribute_stop", directed, question_literals("which movies are the ones directed by Lana Wachowski"))
        == 0
    )
    # no such frame
    assert question_literals("what are the movies starred by Jon Bon Jovi").asked is None
    assert feature("attribute_stop", movies, question_literals("which movies did Jon Bon Jovi star in")) == 0


def test_answer_kind_favours_the_node_the_question_asks_for() -> None:
    authors, books = Shape(WROTE, 1, "list", limit=3), Shape(WROTE, 2, "list", limit=3)
    # the label named after the question's opening
    lits = question_literals("List the first 3 books that someone wrote")
    assert lits.heads == ["books", "someone"]
    assert (answer_kind(books, lits), answer_kind(authors, lits)) == (1, -1)
    # the doer of a relationship the node starts ("writer" is not a stem of WROTE, "wroters" would be)
    acted = CandidateQuery(Anchor(None, "Person", "name"), (Hop("ACTED_IN", "out", "Movie", "title"),))
    lits = question_literals("Find the top 3 actors by number of movies")
    people = Shape(acted, 1, "group", fn="DESC", other=2, limit=3)
    movies = Shape(acted, 2, "group", fn="DESC", other=1, limit=3)
    assert (answer_kind(people, lits), answer_kind(movies, lits)) == (1, -1)
    # what a count counts is named the same way
    assert answer_kind(Shape(WROTE, 2, "count"), question_literals("How many books are there?")) == 1
    # a verb is not its doer: "directed" names no node, "movies" does
    directed = CandidateQuery(Anchor(None, "Person", "name"), (Hop("DIRECTED", "out", "Movie", "title"),))
    assert answer_kind(Shape(directed, 2, "list"), question_literals("Which movies were directed by women?")) == 1
    # the first head word that names a node decides: the books, though "authors" names the others
    lits = question_literals("List the books whose authors were born before 1950")
    assert (answer_kind(Shape(WROTE, 2, "list"), lits), answer_kind(Shape(WROTE, 1, "list"), lits)) == (1, -1)
    # a property's values: +1 when the first head word naming something of the pattern names the property
    assert answer_kind(Shape(WROTE, 1, "attr", prop="born"), question_literals("List the authors' birth years")) == 0
    roles = Shape(acted, 1, "attr", prop="roles", prop_on=1, paired=True)
    assert answer_kind(roles, question_literals("What are the roles of actors in 'Speed Racer'?")) == 1
    assert answer_kind(roles, question_literals("Which actors had roles in 'Speed Racer'?")) == 0
    # a head word naming a label of the graph that the pattern lacks: the pattern answers something else ("which
    # reviews were written by X" asks for reviews, not X's books)
    lits = question_literals("Which reviews were written by the author Ann Rule?")
    assert answer_kind(books, lits) == 0  # "reviews" names no node of the pattern: no opinion
    lits.kind_head = "reviews"  # ``asked_kind``: "reviews" names the graph's label Review
    assert answer_kind(books, lits) == -1
    # ... nor does a value of the anchor's own ("which reviews ...": not the birth year of Ann Rule)
    ann = Shape(CandidateQuery(Anchor("Ann Rule", "Author"), ()), 1, "attr", prop="born")
    assert answer_kind(ann, lits) == -1
    # nothing named: no opinion, but a "who" asks for the end that does what the relationship says (the authors)
    assert answer_kind(books, question_literals("Which are the top 3 youngest readers?")) == 0
    readers = question_literals("Who are the top 3 youngest readers?")
    assert (answer_kind(books, readers), answer_kind(authors, readers)) == (-1, 1)
    # a path: about the nodes it ends at
    assert answer_kind(WROTE, question_literals("List the books")) == 1
    assert answer_kind(WROTE, question_literals("List the authors")) == -1
    # a relationship type named in the passive: its doer is the node it points to
    written = CandidateQuery(BOOK, (Hop("WRITTEN_BY", "out", "Author", "name"),))
    lits = question_literals("Find the top 3 writers by number of books")
    assert answer_kind(Shape(written, 2, "group", fn="DESC", other=1, limit=3), lits) == 1
    assert answer_kind(Shape(written, 1, "group", fn="DESC", other=2, limit=3), lits) == -1


def test_a_who_question_asks_for_the_doer_of_its_verb() -> None:
    reviewed = CandidateQuery(Anchor(None, "Critic", "name"), (Hop("REVIEWED", "out", "Book", "title"),))
    critics, books = Shape(reviewed, 1, "list"), Shape(reviewed, 2, "list")
    lits = question_literals("Who reviewed books with a rating above 5?")
    assert lits.doer == ("reviewed", False)
    # "books" names the books, but "who reviewed" asks for the one that reviews
    assert (answer_kind(critics, lits), answer_kind(books, lits)) == (1, -1)
    # passive: "who was followed" asks for the one followed
    follows = CandidateQuery(Anchor(None, "Person", "name"), (Hop("FOLLOWS", "out", "Person", "name"),))
    lits = question_literals("Who was followed by the most people?")
    assert lits.doer == ("followed", True)
    followed = Shape(follows, 2, "group", fn="DESC", other=1, limit=1)
    assert (answer_kind(followed, lits), answer_kind(replace(followed, target=1, other=2), lits)) == (1, -1)
    # "who are the ..." names no verb: the head words decide, as before
    assert question_literals("Who are the top 3 youngest readers?").doer is None
    # a verb that names none of the shape's relationships: the head words decide ("books")
    assert answer_kind(books, question_literals("Who edited the books?")) == 1
    # no verb and no head word naming a node: "who" asks for the doer of the one relationship
    rated = Shape(reviewed, 1, "group", prop="rating", prop_on=1, fn="DESC", limit=1)
    lits = question_literals("Who has the highest average review rating?")
    assert lits.doer is None
    assert (answer_kind(rated, lits), answer_kind(replace(rated, target=2), lits)) == (1, -1)
    # "who does X <verb> (to)": X does it, and the answer is what it reaches (the one followed, not the follower)
    lits = question_literals("Who does 'Steven' follow?")
    assert lits.doer == ("follow", True)
    assert (answer_kind(followed, lits), answer_kind(replace(followed, target=1, other=2), lits)) == (1, -1)
    assert question_literals("Who does Ada Whitfield report to?").doer == ("report", True)
    assert question_literals("Who does the most reviews?").doer is None  # "does" the verb, no name its subject


def test_order_intent_follows_the_question_superlative() -> None:
    acted = CandidateQuery(Anchor(None, "Person", "name"), (Hop("ACTED_IN", "out", "Movie", "title"),))
    most = Shape(acted, 1, "group", fn="DESC", other=2, limit=3)
    fewest = replace(most, fn="ASC")
    top = question_literals("Find the top 3 actors")
    assert (top.order, top.superlative) == ("DESC", False)  # "top": the most first, but no superlative
    assert (ordering(most, top), ordering(fewest, top)) == ([], ["opposite_order"])
    low = question_literals("Who are the top 3 actors with the fewest movies?")
    assert (ordering(most, low), ordering(fewest, low)) == (["opposite_order"], [])  # the superlative over "top"
    # nothing asks for an order: no ordering, and no greatest or least value
    plain = question_literals("Which books have a title containing 'Harbour'?")
    assert not plain.orders
    newest = Shape(WROTE, 2, "top", prop="published", fn="DESC", limit=1)
    assert ordering(newest, plain) == ["unasked_order"]
    assert ordering(Shape(WROTE, 2, "agg", prop="pages", fn="max"), plain) == ["unasked_order"]
    assert ordering(Shape(WROTE, 2, "agg", prop="pages", fn="avg"), plain) == []
    assert ordering(newest, question_literals("List the books ordered by year")) == []
    # a superlative asks for the greatest or least, not the first k in no order; "top" alone may mean the first k
    first3 = Shape(WROTE, 2, "list", limit=3)
    assert ordering(first3, question_literals("What are the 3 most common book titles?")) == ["unordered_superlative"]
    assert ordering(first3, question_literals("List the top 3 books written by someone")) == []
    # a ranking by a measure asks for the greatest first, as a superlative does
    ranked = question_literals("Who are the first 2 authors by the number of books written?")
    assert (ranked.order, ranked.superlative) == ("DESC", True)
    assert ordering(Shape(WROTE, 1, "list", limit=2), ranked) == ["unordered_superlative"]
    assert ordering(Shape(WROTE, 1, "group", fn="DESC", other=2, limit=2), ranked) == []
    # nor a list in no order, however long
    most = question_literals("Who has written the most books published after 2000?")
    assert ordering(Shape(WROTE, 1, "list"), most) == ["unordered_superlative"]
    assert ordering(Shape(WROTE, 1, "list"), question_literals("Who has written books after 2000?")) == []
    # a bound is no superlative
    bound = question_literals("List 2 authors who wrote at least 3 books.")
    assert not bound.superlative and bound.order is None
    # a time superlative's year ordering is time_order's to score
    youngest = Shape(WROTE, 1, "top", prop="born", fn="DESC", limit=3, temporal=True)
    assert ordering(replace(youngest, fn="ASC"), question_literals("Who are the top 3 youngest authors?")) == []


def test_a_number_stated_once_is_used_once() -> None:
    reviewed = CandidateQuery(Anchor(None, "Critic", "name"), (Hop("REVIEWED", "out", "Book", "title"),))
    above = Filter(1, "rating", ">", 90, edge=True)
    lits = question_literals("Who reviewed books with a rating higher than 90?")
    listed = Shape(reviewed, 1, "list", filters=(above,))
    assert constants_used(listed, lits) == 1
    assert constants_used(replace(listed, limit=90), lits) < 1  # 90 is the rating's bound, not a limit too
    twice = question_literals("List 90 critics who reviewed books with a rating higher than 90.")
    assert constants_used(replace(listed, limit=90), twice) == 2
    # nor is the value of what the word before a number names ("listen on port 80"): the services on port 80, not
    # any 80 services
    listens = CandidateQuery(Anchor(None, "Service", "name"), (Hop("LISTENS", "out", "Port", "port"),))
    lits = question_literals("Which services listen on port 80?")
    assert constants_used(Shape(listens, 1, "list", limit=80), lits) == 0
    assert constants_used(Shape(listens, 1, "list", filters=(Filter(2, "port", "=", 80),)), lits) == 1
    # a threshold on how many ("at least three books", in words or digits) is no limit: the authors with at least 3
    # books, not any 3 authors
    for question in ("List the authors who wrote at least three books.", "List the authors with more than 3 books."):
        lits = question_literals(question)
        assert constants_used(Shape(WROTE, 1, "list", limit=3), lits) == 0
        assert constants_used(Shape(WROTE, 1, "list", other=2, having=(">=", 3)), lits) == 1
    top = question_literals("List the top three authors who wrote more than three books.")
    assert constants_used(Shape(WROTE, 1, "list", limit=3), top) == 1  # "top three" counts answers as well


def test_the_comparison_a_number_takes() -> None:
    """The words before a number say how a condition compares with it, and a number that says how many answers to
    give is no condition value; a number compared with is no limit."""
    lits = question_literals("List 3 books published after the year 1990 with a rating of 9 or more pages under 300.")
    assert lits.ops == {1990.0: ">", 9.0: ">=", 300.0: "<"}
    assert lits.counts == [3.0]
    assert question_literals("Books with exactly 2 tags, rated at most 7").ops == {2.0: "=", 7.0: "<="}
    assert question_literals("Which books were published in 1995?").ops == {1995.0: "="}
    assert question_literals("Which books were published between 1990 and 2000?").ops == {}  # a range
    # a number right after a word naming what it is a value of is that value ("port 80", "zone 4"); not the ends
    # of a span, nor a count of answers ("limit to 5", "the top 3")
    assert question_literals("Which services listen on port 80 in zone 4?").ops == {80.0: "=", 4.0: "="}
    # a number said twice, once as how many and once as a value: the value is still a value ("zone 3")
    lits = question_literals("List the top 3 types of crates by weight in aisles in zone 3.")
    assert lits.counts == [3.0] and lits.ops == {3.0: "="}
    lits = question_literals("Show the tags of questions with over 100 views, limit to 5 tags. Limit the results to 3.")
    assert lits.counts == [5.0, 3.0] and lits.ops == {100.0: ">"}
    # a threshold on how many takes the comparison the question states ("exactly 2 books")
    exactly = ShapeEnumerator.base_shapes(
        GraphSchema(triples=[SchemaTriple("Author", "WROTE", "Book")]),
        Profiles(labels={"Author": LabelProfile("Author", "name", []), "Book": LabelProfile("Book", "title", [])}),
        [],
        question_literals("Which authors wrote exactly 2 books?"),
    )
    assert {s.having for s in exactly if s.having} == {("=", 2)}
    assert "WHERE number = 2" in next(s for s in exactly if s.having).text
    # a threshold on how many takes a compared number, not one that counts answers
    having = Shape(WROTE, 1, "list", having=(">", 3))
    assert constants_used(having, question_literals("Which authors wrote books? Limit to the top 3.")) == 0
    assert constants_used(having, question_literals("Which authors wrote more than 3 books?")) == 1
    reviewed = CandidateQuery(Anchor(None, "Critic", "name"), (Hop("REVIEWED", "out", "Book", "title"),))
    above = Filter(1, "rating", ">", 90, edge=True)
    listed = Shape(reviewed, 2, "list", filters=(above,))
    lits = question_literals("Find all books with a rating above 90.")
    # 90 is compared with: as a limit as well it costs (the limit is used again, and it is no count of answers)
    assert constants_used(listed, lits) == 1 and constants_used(replace(listed, limit=90), lits) == -1


def test_time_superlatives_order_by_a_year() -> None:
    # a property is a year when all its values are whole numbers of a calendar's range
    born = Property("Author", "born", "number", 1948.0, 1990.0, (1948, 1961, 1975, 1990))
    assert born.temporal
    assert not Property("Book", "pages", "number", 198.0, 412.0, (310, 224)).temporal
    assert not Property("Movie", "rating", "number", 1.5, 9.5, (1.5, 9.5)).temporal
    youngest = Shape(WROTE, 1, "top", prop="born", fn="DESC", limit=3, temporal=True)
    oldest = replace(youngest, fn="ASC")
    lits = question_literals("Who are the top 3 youngest authors?")
    assert lits.time_order == "DESC"
    # the superlative names the year it orders by, in its direction (+2: an unnamed use counted as named)
    assert (feature("time_order", youngest, lits), feature("time_order", oldest, lits)) == (1, 0)
    assert feature("time_order", oldest, question_literals("List the 3 oldest authors.")) == 1
    assert question_literals("What are the most recent books?").time_order == "DESC"
    assert question_literals("Which books are the oldest and the newest?").time_order is None  # both: no reading
    # the earliest year's value is read so, but "the oldest book" asks for the book; a number that is no year is no
    # point in time
    first = Shape(WROTE, 2, "agg", prop="published", fn="min", temporal=True)
    assert feature(
        "time_order", first, question_literals("Which is the oldest book?")
    ) == 0 and "oldest" in shape_reading(first)
    assert feature("time_order", replace(youngest, temporal=False), lits) == 0
    # the superlative's noun says whose year it is: the book's, not its author's (-1 since session 56)
    by_book = replace(oldest, prop="published", prop_var=2)
    book_q = question_literals("Who wrote the oldest book?")
    assert book_q.time_noun == "book"
    assert (feature("time_order", by_book, book_q), feature("time_order", oldest, book_q)) == (1, -1)
    assert feature("time_order", by_book, question_literals("List the 3 oldest authors.")) == -1
    assert (
        feature("time_order", by_book, question_literals("Who is the oldest one?")) == 0
    )  # no noun: the target's own year
    # the reading says what the ordering means
    assert "youngest" in shape_reading(youngest) and "oldest" in shape_reading(oldest)
    assert "youngest" not in shape_reading(replace(youngest, temporal=False))


def test_property_columns_never_clash_with_the_query_own() -> None:
    """A property called like a column the query names itself (or like a pattern variable) comes back under another
    name: a shirt ``number``, a relationship's ``name``."""
    played = CandidateQuery(Anchor(None, "Player", "name"), (Hop("PLAYED_FOR", "out", "Club", "name"),))
    shirt = Shape(played, 1, "common", prop="number", fn="DESC", limit=3)
    assert "RETURN x1.number AS number_value, count(*) AS number" in shirt.text
    role = Shape(played, 1, "attr", prop="name", prop_on=1, paired=True)
    assert role.text.endswith("RETURN DISTINCT x1.name AS name, r1.name AS name_value")
    top = Shape(played, 1, "top", prop="x2", fn="DESC", limit=1)
    assert "AS x2_value ORDER BY x2_value DESC" in top.text


def test_two_conditions_added_in_either_order_are_one_ranked_query() -> None:
    after, before = Filter(1, "published", ">", 1990), Filter(1, "published", "<", 2000)
    one = Shape(CandidateQuery(BOOK, ()), 1, "list", filters=(after, before))
    other = replace(one, filters=(before, after))
    third = replace(one, filters=(after,))
    assert one.text != other.text and one.same_query == other.same_query != third.same_query
    assert WROTE.same_query == WROTE.text
    e = Enumeration(links=[], candidates=[one, other, WROTE, third])
    # the copy is dropped (it would find what the query above it found) and its place is not filled from below
    assert distinct(e, [1, 0, 2]) == [1, 2]
    assert distinct(e, [0, 2, 3, 1]) == [0, 2, 3]


def test_shape_text_and_execution_forms() -> None:
    count = Shape(CandidateQuery(BOOK, ()), 1, "count", filters=(Filter(1, "published", ">", 2000),))
    assert count.text == "MATCH (x1:Book) WHERE x1.published > 2000 RETURN count(DISTINCT x1) AS number"
    top = Shape(WROTE, 1, "group", fn="DESC", other=2, limit=1)
    assert top.text == (
        "MATCH (x1:Author)-[:WROTE]->(x2:Book) RETURN x1.name AS name, count(DISTINCT x2) AS number "
        "ORDER BY number DESC LIMIT 1"
    )
    # as it runs once chosen: grouped by the node (two authors of one name are two groups)
    assert replace(top, form="nodes").text == (
        "MATCH (x1:Author)-[:WROTE]->(x2:Book) WITH x1, count(DISTINCT x2) AS number ORDER BY number DESC LIMIT 1 "
        "RETURN x1.name AS name, number"
    )
    oldest = Shape(WROTE, 1, "top", prop="born", fn="ASC", limit=2, filters=(Filter(2, "title", "CONTAINS", "Har"),))
    assert oldest.text == (
        'MATCH (x1:Author)-[:WROTE]->(x2:Book) WHERE x2.title CONTAINS "Har" AND x1.born IS NOT NULL '
        "WITH DISTINCT x1 ORDER BY x1.born ASC LIMIT 2 RETURN x1.name AS name, x1.born AS born ORDER BY born ASC"
    )  # the first 2 authors, not the first 2 (name, year) rows: two authors of one name and year are two
    decade = Shape(CandidateQuery(BOOK, ()), 1, "list", filters=(Filter(1, "published", "range", (1990, 2000)),))
    assert "x1.published >= 1990 AND x1.published < 2000" in decade.text
    assert decade.execution_query().endswith("RETURN DISTINCT x1.title AS name LIMIT $limit")
    # an entity-anchored path keeps its guards in what runs, not in the text
    anchored = Shape(CandidateQuery(Anchor("Ilse Varga", "Author"), WROTE.hops), 2, "count")
    assert "x2 <> x1" in anchored.execution_query() and "<>" not in anchored.text
    assert shape_reading(count) == "how many: number of book with book published after or more than 2000"
    lits = question_literals("How many books were published after 2000?")
    assert constants_used(count, lits) == 1 and constants_used(WROTE, lits) == 0
    with pytest.raises(ValueError):
        Filter(1, "published", "; DETACH DELETE", 1).cypher()
    awarded = Shape(CandidateQuery(BOOK, ()), 1, "count", filters=(Filter(1, "award", "IS NOT NULL", None),))
    assert awarded.text == "MATCH (x1:Book) WHERE x1.award IS NOT NULL RETURN count(DISTINCT x1) AS number"
    assert shape_reading(awarded) == "how many: number of book with book that has an award"
    assert constants_used(awarded, lits) == 0  # it states no constant
    # each answer beside a value of the linked entity: "who wrote Glass Orchard and what year was it published?"
    orchard = CandidateQuery(Anchor("Glass Orchard", "Book"), (Hop("WROTE", "in", "Author", "name"),))
    year = Shape(orchard, 2, "attr", prop="published", prop_var=1, paired=True)
    assert year.text.endswith("RETURN DISTINCT x2.name AS name, x1.published AS published")
    assert shape_reading(year) == "author wrote Glass Orchard (author) and the book published"
    # an ordering by how many elements a list holds
    tagged = Shape(CandidateQuery(Anchor(None, "Critic", "name"), (Hop("REVIEWED", "out", "Book", "title"),)), 2,
                   "top", prop="tags", fn="DESC", limit=2, prop_on=1, sized=True)  # fmt: skip
    assert tagged.text == (
        "MATCH (x1:Critic)-[r1:REVIEWED]->(x2:Book) WHERE r1.tags IS NOT NULL "
        "RETURN DISTINCT x2.title AS name, r1.tags AS tags ORDER BY size(tags) DESC LIMIT 2"
    )
    longest = "top 2 book that a critic reviewed (book) with the most reviewed tags: the longest reviewed tags lists"
    assert shape_reading(tagged).startswith(longest)
    # a ranking by how many different values each target has ("the critics with the most diverse tags")
    varied = Shape(tagged.path, 1, "group", prop="tags", prop_on=1, fn="DESC", limit=1, distinct=True)
    assert replace(varied, form="nodes").text == (
        "MATCH (x1:Critic)-[r1:REVIEWED]->(x2:Book) WITH x1, count(DISTINCT r1.tags) AS number "
        "ORDER BY number DESC LIMIT 1 RETURN x1.name AS name, number"
    )
    assert shape_reading(varied).endswith("with the most different reviewed tags: the highest number of distinct "
                                          "reviewed tags")  # fmt: skip
    assert question_literals("Which critic gave the most diverse tags?").asks_variety
    assert question_literals("Which reviews have the longest tag lists?").asks_length
    assert not question_literals("List the books with the most tags.").asks_length  # "the most" counts as often
    assert not question_literals("Which critic gave the most tags?").asks_variety


def test_the_answer_takes_the_form_the_question_asks_for() -> None:
    """Things, unless the question asks for names, opens with "who" or asks for more beside each answer; both ends
    of a pair linked twice; an ordering's nodes unless the question names what orders them."""

    def form(c: CandidateQuery | Shape, question: str) -> str:
        return answer_form(c, question_literals(question)).text.split(" RETURN ")[-1]

    books = Shape(CandidateQuery(BOOK, ()), 1, "list", filters=(Filter(1, "published", ">", 2000),))
    assert form(books, "Which books were published after 2000?") == "DISTINCT x1"
    assert form(books, "Find the first 3 books published after 2000.") == "DISTINCT x1"
    assert form(books, "What are the titles of books published after 2000?") == "x1.title AS name"
    assert form(books, "Name the books published after 2000.") == "x1.title AS name"
    assert form(books, "Which books came out after 2000, with their page counts?") == "x1.title AS name"
    assert form(books, "Which books came out after 2000 and what are their pages?") == "x1.title AS name"
    # one name per node: two books of one title are two answers
    assert answer_form(books, question_literals("Name the books published after 2000.")).text.endswith(
        "WHERE x1.published > 2000 WITH DISTINCT x1 RETURN x1.title AS name"
    )
    authors = Shape(WROTE, 1, "list", filters=(Filter(2, "published", ">", 2000),))
    assert form(authors, "Who wrote books published after 2000?") == "x1.name AS name"
    assert form(authors, "Find the authors of books published after 2000.") == "DISTINCT x1"
    # "someone named 'X'" is a condition, not a request for names
    assert form(books, "List the books whose author is someone named 'Ilse Varga'.") == "DISTINCT x1"
    same = Shape(WROTE, 1, "list", also=("EDITED",))
    assert form(same, "Who wrote and edited the same book?") == "DISTINCT x1.name AS name, x2.title AS title"
    assert form(same, "What are the names of authors who wrote and edited the same book?").endswith("AS name")
    # ... and when it asks for the other end beside each answer
    assert form(same, "Who wrote and edited the same book and what are those books?") == (
        "DISTINCT x1.name AS name, x2.title AS title"
    )
    newest = Shape(CandidateQuery(BOOK, ()), 1, "top", prop="published", fn="DESC", limit=2)
    assert form(newest, "List the 2 newest books.") == "DISTINCT x1 ORDER BY x1.published DESC LIMIT 2"
    # an ordering returns the things ordered, unless the question ranks them "by" the property, which it then sees
    assert form(newest, "List the 2 most recently published books.") == "DISTINCT x1 ORDER BY x1.published DESC LIMIT 2"
    by_year = form(newest, "List 2 books by publication year, latest first.")
    assert by_year == "x1.title AS name, x1.published AS published ORDER BY published DESC"
    # ... and names alone where it asks for names (or the display property by its words), in that order
    switches = Shape(CandidateQuery(Anchor(None, "Switch", "ip"), ()), 1, "list")
    assert form(switches, "What are the IPs of the switches?") == "x1.ip AS name"
    assert form(switches, "List the switches.") == "DISTINCT x1"
    assert form(switches, "What are the IP addresses of the switches?") == "x1.ip AS name"  # a word between
    assert form(switches, "What are the IP addresses for switches in zone 2?") == "x1.ip AS name"
    assert form(switches, "List all switch IPs.") == "x1.ip AS name"  # the kind and its value as one noun
    assert form(switches, "List the switches with an IP starting with '10.1'.") == "DISTINCT x1"  # a condition's
    # ... and so does a path from a named node ("what is the IP of the switch linked to X")
    linked = CandidateQuery(Anchor("R1", "Router", "name"), (Hop("ROUTES", "out", "Switch", "ip"),))
    assert form(linked, "What is the IP of the switch routed by 'R1'?") == "x2.ip"
    assert form(linked, "What are the switches routed by 'R1'?") == "DISTINCT x2"
    titles = answer_form(newest, question_literals("What are the titles of the 2 most recently published books?"))
    assert titles.text.endswith("WITH DISTINCT x1 ORDER BY x1.published DESC LIMIT 2 RETURN x1.title AS name")
    youngest = Shape(CandidateQuery(AUTHOR, ()), 1, "top", prop="born", fn="DESC", limit=2)
    names = answer_form(youngest, question_literals("What are the names of the 2 youngest authors?"))
    assert names.text.endswith("ORDER BY x1.born DESC LIMIT 2 RETURN x1.name AS name")
    # an ordering by what the targets are linked to keeps the display values (DISTINCT needs the ordered column),
    # with the node it is ordered by where the question names it
    by_book = Shape(WROTE, 1, "top", prop="published", fn="DESC", limit=1, prop_var=2)
    assert form(by_book, "Which author has the newest work?") == by_book.text.split(" RETURN ")[-1]
    pairs = replace(by_book, form="pairs").text.split(" RETURN ")[-1]
    assert form(by_book, "Which author has the newest book?") == pairs
    # a ranking by a birth year compares ages: each name with the year
    eldest = Shape(CandidateQuery(AUTHOR, ()), 1, "top", prop="born", fn="ASC", limit=2, temporal=True)
    expected = "x1.name AS name, x1.born AS born ORDER BY born ASC"
    assert form(eldest, "List the 2 oldest authors.") == expected
    count = Shape(CandidateQuery(BOOK, ()), 1, "count")
    assert answer_form(count, question_literals("How many books are there?")) == count
    most = Shape(WROTE, 1, "group", fn="DESC", other=2, limit=1)
    assert form(most, "What are the names of the authors with the most books?").startswith("x1.name AS name, number")
    # a relationship's property beside the node it is asked of, unless that node is the linked entity
    reviewed = CandidateQuery(Anchor("Glass Orchard", "Book"), (Hop("REVIEWED", "in", "Critic", "name"),))
    ratings = Shape(reviewed, 2, "attr", prop="rating", prop_on=1)
    expected = "DISTINCT x2.name AS name, r1.rating AS rating"
    assert form(ratings, "What are the ratings of the critics of Glass Orchard?") == expected
    assert form(ratings, "What are the names of the critics of Glass Orchard and their ratings?") == expected
    gave = CandidateQuery(Anchor("Mira Holt", "Critic"), (Hop("REVIEWED", "out", "Book", "title"),))
    own = Shape(gave, 1, "attr", prop="rating", prop_on=1)
    assert form(own, "What ratings did Mira Holt give?") == "DISTINCT r1.rating AS rating"
    path = CandidateQuery(Anchor("Ilse Varga", "Author"), WROTE.hops)
    assert form(path, "List the books Ilse Varga wrote.") == "DISTINCT x2"

    assert form(path, "What are the titles Ilse Varga wrote?") == "x2.title"
    assert (
        answer_form(path, question_literals("Find the books Ilse Varga wrote."))
        .answer_query()
        .endswith("RETURN DISTINCT x2 LIMIT $limit")
    )
    # "which" picks out which ones: by name where they are picked by what they are linked to; a kind's nodes picked
    # by their own properties stay nodes ("Which books were published after 2000?" above)
    assert form(path, "Which books did Ilse Varga write?") == "x2.title"
    assert form(authors, "Which authors wrote books published after 2000?") == "x1.name AS name"
    # an ordering by how many elements a list holds returns each target with its list
    tagged = Shape(WROTE, 2, "top", prop="tags", fn="DESC", limit=1, prop_on=1, sized=True)
    assert form(tagged, "Which book has the most tags?") == (
        "DISTINCT x2.title AS name, r1.tags AS tags ORDER BY size(tags) DESC LIMIT 1"
    )


@pytest.fixture
async def library(t2c: Text2CypherRetriever) -> Any:
    await t2c.deps.graph.execute(NS, LIBRARY)
    t2c.invalidate(NS)
    try:
        yield t2c
    finally:
        await t2c.deps.graph.execute(NS, "MATCH (n) DETACH DELETE n")
        t2c.invalidate(NS)


QUESTIONS = [
    (
        "How many books were published after 2000?",
        "MATCH (x1:Book) WHERE x1.published > 2000 RETURN count(DISTINCT x1) AS number",
        [{"number": 3}],
    ),
    (
        "Which books were published in the 1990s?",
        "MATCH (x1:Book) WHERE x1.published >= 1990 AND x1.published < 2000 RETURN DISTINCT x1.title AS name",
        [{"name": "The Quiet Harbour"}],
    ),
    (
        "Which author wrote the most books?",
        "MATCH (x1:Author)-[:WROTE]->(x2:Book) RETURN x1.name AS name, count(DISTINCT x2) AS number "
        "ORDER BY number DESC LIMIT 1",
        [{"name": "Ilse Varga", "number": 3}],
    ),
    (
        "What is the average pages of books?",
        "MATCH (x1:Book) WHERE x1.pages IS NOT NULL RETURN avg(x1.pages) AS value",
        [{"value": 280.0}],
    ),
    (  # two relationships between the same two nodes
        "Which authors wrote and edited the same book?",
        "MATCH (x1:Author)-[:EDITED]->(x2:Book), (x1)-[:WROTE]->(x2) RETURN DISTINCT x1.name AS name",
        [{"name": "Ilse Varga"}],
    ),
    (  # a condition on a relationship's property
        "Which books were reviewed with the summary 'Quietly brilliant'?",
        'MATCH (x1:Critic)-[r1:REVIEWED]->(x2:Book) WHERE r1.summary = "Quietly brilliant" '
        "RETURN DISTINCT x2.title AS name",
        [{"name": "The Quiet Harbour"}],
    ),
    (  # ... on an element of a list property
        "Which books were reviewed with the tag 'sea'?",
        'MATCH (x1:Critic)-[r1:REVIEWED]->(x2:Book) WHERE "sea" IN r1.tags RETURN DISTINCT x2.title AS name',
        None,
    ),
    (  # most by the average of a relationship's property
        "Which critic gave the highest average rating?",
        "MATCH (x1:Critic)-[r1:REVIEWED]->(x2:Book) WHERE r1.rating IS NOT NULL "
        "RETURN x1.name AS name, avg(r1.rating) AS value ORDER BY value DESC LIMIT 1",
        [{"name": "Mira Holt", "value": 7.5}],
    ),
    (  # ordered by a relationship's property
        "Which book got the lowest review rating?",
        "MATCH (x1:Critic)-[r1:REVIEWED]->(x2:Book) WHERE r1.rating IS NOT NULL "
        "RETURN DISTINCT x2.title AS name, r1.rating AS rating ORDER BY rating ASC LIMIT 1",
        [{"name": "Glass Orchard", "rating": 4}],
    ),
    (  # a threshold on how many of the other end ("more than one"), counted
        "How many authors wrote more than one book?",
        "MATCH (x1:Author)-[:WROTE]->(x2:Book) WITH x1, count(DISTINCT x2) AS number WHERE number > 1 "
        "RETURN count(x1) AS number",
        [{"number": 3}],
    ),
    (  # ... or listed with their number, at most k of them ("at least" includes the number)
        "List 2 authors who wrote at least 3 books.",
        "MATCH (x1:Author)-[:WROTE]->(x2:Book) WITH x1, count(DISTINCT x2) AS number WHERE number >= 3 "
        "RETURN x1.name AS name, number LIMIT 2",
        [{"name": "Ilse Varga", "number": 3}],
    ),
    (  # a property only some books have, named by the question: a condition that it is there
        "Which books have won an award?",
        "MATCH (x1:Book) WHERE x1.award IS NOT NULL RETURN DISTINCT x1.title AS name",
        [{"name": "Glass Orchard"}],
    ),
    (  # a time superlative: an ordering by a year
        "Who is the youngest author?",
        "MATCH (x1:Author) WHERE x1.born IS NOT NULL WITH DISTINCT x1 ORDER BY x1.born DESC LIMIT 1 "
        "RETURN x1.name AS name, x1.born AS born ORDER BY born DESC",
        [{"name": "Pell Amundsen", "born": 1990}],
    ),
    (  # an entity's answers with a condition ...
        "Which books published after 2000 did Ilse Varga write?",
        'MATCH (x1:Author {name: "Ilse Varga"})-[:WROTE]->(x2:Book) WHERE x2.published > 2000 '
        "RETURN DISTINCT x2.title AS name",
        [{"name": "Northern Ledger"}],
    ),
    (  # ... or the first k of them
        "Name the first 2 books Nadia Oss wrote.",
        'MATCH (x1:Author {name: "Nadia Oss"})-[:WROTE]->(x2:Book) RETURN DISTINCT x2.title AS name LIMIT 2',
        None,
    ),
    (  # ordered by what they are linked to: the author of the earliest book
        "Who wrote the oldest book?",
        "MATCH (x1:Author)-[:WROTE]->(x2:Book) WHERE x2.published IS NOT NULL "
        "RETURN DISTINCT x1.name AS name, x2.published AS published ORDER BY published ASC LIMIT 1",
        [{"name": "Ilse Varga", "published": 1982}],
    ),
    (  # the first k of something whose year the question names: the earliest k
        "List the first 2 books Ilse Varga wrote and the years they were published.",
        'MATCH (x1:Author {name: "Ilse Varga"})-[:WROTE]->(x2:Book) WHERE x2.published IS NOT NULL '
        "WITH DISTINCT x2 ORDER BY x2.published ASC LIMIT 2 RETURN x2.title AS name, x2.published AS published "
        "ORDER BY published ASC",
        [{"name": "Salt Roads", "published": 1982}, {"name": "The Quiet Harbour", "published": 1995}],
    ),
    (  # a linked entity's own property
        "When was Nadia Oss born?",
        'MATCH (x1:Author {name: "Nadia Oss"}) RETURN DISTINCT x1.born AS born',
        [{"born": 1975}],
    ),
    (  # the property of the relationship between two linked entities
        "What rating did Mira Holt give The Quiet Harbour?",
        'MATCH (x1:Critic {name: "Mira Holt"})-[r1:REVIEWED]->(x2:Book {title: "The Quiet Harbour"}) '
        "RETURN DISTINCT r1.rating AS rating",
        [{"rating": 9}],
    ),
    (  # the values of a property over an entity's answers ...
        "How many pages do the books of Tomas Reyl have?",
        'MATCH (x1:Author {name: "Tomas Reyl"})-[:WROTE]->(x2:Book) RETURN DISTINCT x2.pages AS pages',
        None,
    ),
    (  # ... each with its node
        "List the critics of Glass Orchard and their ratings.",
        'MATCH (x1:Book {title: "Glass Orchard"})<-[r1:REVIEWED]-(x2:Critic) '
        "RETURN DISTINCT x2.name AS name, r1.rating AS rating",
        None,
    ),
    (  # ... and over a label's nodes with a condition
        "What are the birth years of authors who wrote books published after 2010?",
        "MATCH (x1:Author)-[:WROTE]->(x2:Book) WHERE x2.published > 2010 RETURN DISTINCT x1.born AS born",
        None,
    ),
    (  # how many of a kind a linked entity is linked to, by the schema: none here
        "How many critics reviewed Salt Roads?",
        'MATCH (x1:Book {title: "Salt Roads"})<-[:REVIEWED]-(x2:Critic) RETURN count(DISTINCT x2) AS number',
        [{"number": 0}],
    ),
    (  # quoted text that links an entity may also be what a text holds
        "Which books were reviewed with a summary mentioning 'Ilse Varga'?",
        'MATCH (x1:Critic)-[r1:REVIEWED]->(x2:Book) WHERE r1.summary CONTAINS "Ilse Varga" '
        "RETURN DISTINCT x2.title AS name",
        [{"name": "Northern Ledger"}],
    ),
    (  # how many elements a list holds
        "Which books were reviewed with more than 1 tag?",
        "MATCH (x1:Critic)-[r1:REVIEWED]->(x2:Book) WHERE size(r1.tags) > 1 RETURN DISTINCT x2.title AS name",
        [{"name": "The Quiet Harbour"}],
    ),
    (  # the most common value of a list property's elements
        "What is the most common tag in reviews?",
        "MATCH (x1:Critic)-[r1:REVIEWED]->(x2:Book) WHERE r1.tags IS NOT NULL UNWIND r1.tags AS tags "
        "RETURN tags, count(*) AS number ORDER BY number DESC LIMIT 1",
        [{"tags": "sea", "number": 2}],
    ),
    (  # ... of a property
        "Which review ratings are the most common?",
        "MATCH (x1:Critic)-[r1:REVIEWED]->(x2:Book) WHERE r1.rating IS NOT NULL "
        "RETURN r1.rating AS rating, count(*) AS number ORDER BY number DESC",
        None,
    ),
    (  # three relationships between the same two nodes, where the question names each
        "Which authors wrote, edited and illustrated the same book?",
        "MATCH (x1:Author)-[:EDITED]->(x2:Book), (x1)-[:ILLUSTRATED]->(x2), (x1)-[:WROTE]->(x2) "
        "RETURN DISTINCT x1.name AS name",
        [{"name": "Ilse Varga"}],
    ),
    (  # a year that is a multiple of a number
        "Which books were published in a year divisible by 5?",
        "MATCH (x1:Book) WHERE x1.published % 5 = 0 RETURN DISTINCT x1.title AS name",
        [{"name": "The Quiet Harbour"}],
    ),
    (
        "Which books have a title containing 'Harbour'?",
        'MATCH (x1:Book) WHERE x1.title CONTAINS "Harbour" RETURN DISTINCT x1.title AS name',
        None,
    ),
]


@pytest.mark.parametrize(("question", "query", "rows"), QUESTIONS, ids=[q for q, _, _ in QUESTIONS])
async def test_shapes_on_a_labelled_graph(library: Text2CypherRetriever, question: str, query: str, rows: Any) -> None:
    t2c = library
    e = await t2c.enumerate(NS, question)
    texts = [c.text for c in e.candidates]
    assert query in texts
    # bounded: the base shapes and two beams of conditions (less the label-anchored ones below the relevance floor)
    assert e.base_shapes > 0 and len(e.candidates) <= e.base_shapes + 2 * t2c.config.filter_beam * 40
    assert max(r for r, c in zip(e.relevance or [], e.candidates, strict=True) if isinstance(c, Shape)) >= -6
    shapes = [c for c in e.candidates if isinstance(c, Shape)]
    for s in shapes:  # every shape is valid Cypher over the graph's own vocabulary
        await t2c.deps.graph.read(NS, s.execution_query(), {"limit": 5})
    if rows is not None:
        got = await t2c.deps.graph.read(
            NS, shapes[[s.text for s in shapes].index(query)].execution_query(), {"limit": 50}
        )
        assert got == rows


async def test_the_top_query_returns_nodes_when_the_question_asks_for_things(
    library: Text2CypherRetriever, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The trace's query and rows take the question's form; the items are the same answers either way."""
    q = RetrievalQuery(question="Which books were published after 2005?", namespace=NS)
    res = await library.retrieve(q)
    assert res.trace.query == "MATCH (x1:Book) WHERE x1.published > 2005 RETURN DISTINCT x1"
    nodes = sorted(row["x1"]["properties"]["title"] for row in res.trace.rows)
    assert nodes == ["Harbour Lights", "Northern Ledger"] and res.trace.rows[0]["x1"]["labels"] == ["Book"]
    first = [it.node.name for it in res.items if it.node is not None and it.provenance["query_rank"] == 1]
    assert sorted(first) == nodes
    monkeypatch.setattr(library, "config", library.config.model_copy(update={"answer_form": "names"}))
    named = await library.retrieve(q)
    assert named.trace.query == "MATCH (x1:Book) WHERE x1.published > 2005 RETURN DISTINCT x1.title AS name"
    assert sorted(row["name"] for row in named.trace.rows) == nodes
    assert [it.id for it in named.items] == [it.id for it in res.items]


async def test_an_answer_form_that_finds_nothing_keeps_the_answers_that_ran(
    library: Text2CypherRetriever, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the question's answer form finds nothing although the query that ran found answers (a "first 3" taken
    in the order of a date those answers lack), the answers are the query's as it ran, and a warning says so."""
    import app.retrievers.text2cypher as module

    def dated(c: Any, lits: Any, profiles: Any = None) -> Any:  # an order by a date no book has
        return replace(c, filters=(*c.filters, Filter(1, "published", ">", 9999)), form="nodes")

    q = RetrievalQuery(question="Which books were published after 2005?", namespace=NS)
    monkeypatch.setattr(module, "answer_form", dated)
    res = await library.retrieve(q)
    assert res.trace.query == "MATCH (x1:Book) WHERE x1.published > 2005 RETURN DISTINCT x1.title AS name"
    assert sorted(row["name"] for row in res.trace.rows) == ["Harbour Lights", "Northern Ledger"]
    assert any("answer form found nothing" in w for w in res.warnings)


async def test_the_trace_carries_the_whole_answer_up_to_answer_rows(
    t2c: Text2CypherRetriever, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Items are collected from the first ``max_answers * 10`` (at least 50) rows of each query; the trace's rows are
    the answering query's whole result, ``answer_rows`` at most, and say when there was more."""
    ns = "many_crates"
    crates = "UNWIND range(1, 80) AS i CREATE (:Crate {label: 'crate ' + toString(i), kg: 10 * i})"
    await t2c.deps.graph.execute(ns, crates)
    t2c.invalidate(ns)
    try:
        monkeypatch.setattr(t2c, "config", t2c.config.model_copy(update={"max_answers": 2}))
        q = RetrievalQuery(question="List all the crates.", namespace=ns)
        res = await t2c.retrieve(q)
        assert res.trace.query == "MATCH (x1:Crate) RETURN DISTINCT x1"
        assert len(res.trace.rows) == 80 and not res.trace.rows_truncated and len(res.items) == 2
        monkeypatch.setattr(t2c, "config", t2c.config.model_copy(update={"answer_rows": 30}))
        res = await t2c.retrieve(q)
        assert len(res.trace.rows) == 30 and res.trace.rows_truncated
        # the cap cuts rows that all ran in the form asked (100 let run, 80 there, not read again): still said
        update = {"answer_rows": 30, "max_answers": 10, "answer_form": "names"}
        monkeypatch.setattr(t2c, "config", t2c.config.model_copy(update=update))
        res = await t2c.retrieve(q)
        assert len(res.trace.rows) == 30 and res.trace.rows_truncated
    finally:
        await t2c.deps.graph.execute(ns, "MATCH (n) DETACH DELETE n")
        t2c.invalidate(ns)


async def test_a_count_question_answers_with_a_value_item(library: Text2CypherRetriever) -> None:
    res = await library.retrieve(RetrievalQuery(question="How many books were published after 2000?", namespace=NS))
    trace = res.trace
    assert trace.query is not None and trace.error is None
    assert trace.query.startswith("MATCH (x1:Book) WHERE x1.published")
    assert "count(DISTINCT x1)" in trace.query
    top = res.items[0]
    assert top.node is None and top.source.kind == "path" and top.provenance["value"] == trace.rows[0]["number"]


@pytest.mark.parametrize(
    ("question", "query", "value"),
    [
        ("When was Nadia Oss born?", 'MATCH (x1:Author {name: "Nadia Oss"}) RETURN DISTINCT x1.born AS born', 1975),
        (
            "What rating did Aron Fisk give to Glass Orchard?",
            'MATCH (x1:Critic {name: "Aron Fisk"})-[r1:REVIEWED]->(x2:Book {title: "Glass Orchard"}) '
            "RETURN DISTINCT r1.rating AS rating",
            4,
        ),
    ],
)
async def test_a_property_question_answers_with_its_value(
    library: Text2CypherRetriever, question: str, query: str, value: Any
) -> None:
    """A question that asks what a named entity's property is (or a relationship's between two named entities)
    is answered with the value, not with a path that happens to end at numbers."""
    res = await library.retrieve(RetrievalQuery(question=question, namespace=NS))
    assert res.trace.query == query and res.trace.error is None
    top = res.items[0]
    assert top.node is None and top.provenance["value"] == value


def test_a_ranking_shows_what_the_question_asks_beside_each_answer() -> None:
    """ "the top 2 books with the most pages and what are their prices": each title, its price and its pages, in
    that order; nothing beside where the question asks nothing more, nor the display value or the ranking's measure
    again."""
    pages = Property("Book", "pages", "number", 90.0, 900.0, (120, 480))
    price = Property("Book", "list_price", "number", 5.0, 80.0, (9.5, 25.0))
    profiles = Profiles(labels={"Book": LabelProfile("Book", "title", [pages, price])})
    longest = Shape(CandidateQuery(BOOK, ()), 1, "top", prop="pages", fn="DESC", limit=2)
    asked = answer_form(
        longest, question_literals("What are the top 2 books with the most pages and their list prices?"), profiles
    )
    assert isinstance(asked, Shape) and asked.shown == ((1, "list_price", False),)
    assert asked.text.endswith(
        "RETURN DISTINCT x1.title AS name, x1.list_price AS list_price, x1.pages AS pages ORDER BY pages DESC LIMIT 2"
    )
    plain = answer_form(longest, question_literals("What are the top 2 books with the most pages?"), profiles)
    assert isinstance(plain, Shape) and plain.shown == ()
    again = answer_form(longest, question_literals("List the 2 longest books and their pages."), profiles)
    assert isinstance(again, Shape) and again.shown == ()


def test_no_sum_of_years() -> None:
    """Years are summed by no shape (their sum means nothing); their average, least and greatest stay."""
    from app.text2cypher.measures import measures
    from app.text2cypher.profiles import LabelProfile, Profiles, Property

    prof = LabelProfile("Author", "name", [Property("Author", "born", "number", 1948, 1990, (1948, 1961, 1990))])
    fns = {s.fn for s in measures(CandidateQuery(AUTHOR, ()), 1, Profiles({"Author": prof}), [1], False)}
    assert "sum" not in fns and {"avg", "min", "max"} <= fns


@pytest.mark.parametrize(
    ("question", "order", "names"),
    [
        ("Who are the 2 youngest authors?", "DESC", ["Pell Amundsen", "Nadia Oss"]),
        ("Which is the oldest book?", "ASC", ["Salt Roads"]),
    ],
)
async def test_a_time_superlative_is_answered_by_an_ordering(
    library: Text2CypherRetriever, question: str, order: str, names: list[str]
) -> None:
    res = await library.retrieve(RetrievalQuery(question=question, namespace=NS))
    trace = res.trace
    assert trace.query is not None and "ORDER BY" in trace.query and order in trace.query, trace.query
    assert [it.node.name for it in res.items if it.node is not None and it.provenance["query_rank"] == 1] == names
    # "which is the oldest book" asks for the book; "who are the youngest authors", for their names
    assert [r.get("name") or r["x1"]["properties"]["title"] for r in trace.rows] == names


async def test_years_read_as_points_in_time_only_when_asked(library: Text2CypherRetriever) -> None:
    """Orderings by a year read "the latest born: the youngest" only for a question with a time superlative;
    elsewhere they keep "the highest born" (the time words drew the cross-encoder to them)."""
    asked = await library.enumerate(NS, "Who is the youngest author?")
    plain = await library.enumerate(NS, "Which author wrote the most books?")
    timed = [c for c in asked.candidates if isinstance(c, Shape) and c.temporal]
    assert timed and {c.prop for c in timed} == {"born", "published"}  # years; pages are not
    # (a property's values, ``attr``, are marked as points in time whatever the question: "when" asks for them)
    assert not any(isinstance(c, Shape) and c.temporal and c.kind != "attr" for c in plain.candidates)
    assert not any("youngest" in r for r in plain.readings)


async def test_tuning_pairs_for_shapes(library: Text2CypherRetriever) -> None:
    """``tune``'s shape pairs: constants drawn from the data and stated in the question; every query returns
    something; several shapes are covered."""
    import random

    from app.training.selftune import shape_pairs

    pairs = await shape_pairs(library, NS, 60, random.Random(3))
    assert len(pairs) == 60
    # each kind drawn about as often, a property's values and its most common values included
    assert {"list", "count", "agg", "top", "group", "attr", "common"} <= {p["shape"] for p in pairs}
    for p in pairs:
        assert p["question"] == " ".join(p["question"].split())
        rows = await library.deps.graph.read(NS, p["cypher"])
        assert rows and any(v not in (None, 0) for row in rows for v in row.values())
        for quoted in re.findall(r'"([^"]*)"', p["cypher"]):
            assert f"'{quoted}'" in p["question"]


def test_the_first_k_of_something_whose_year_is_named_are_the_earliest() -> None:
    from app.text2cypher.asks import first_k
    from app.text2cypher.profiles import LabelProfile, Profiles

    published = Property("Book", "published", "number", 1982.0, 2016.0, (1982, 1995, 2004))
    born = Property("Author", "born", "number", 1948.0, 1990.0, (1948, 1961))
    profiles = Profiles(
        {"Book": LabelProfile("Book", "title", [published]), "Author": LabelProfile("Author", "name", [born])}
    )
    lits = question_literals("List the first 2 books Ilse Varga wrote and the years they were published.")
    first_k(lits, profiles)
    assert (lits.time_order, lits.time_noun) == ("ASC", "books")
    by_year = Shape(CandidateQuery(Anchor("Ilse Varga", "Author"), WROTE.hops), 2, "top", prop="published",
                    fn="ASC", limit=2, temporal=True)  # fmt: skip
    assert feature("time_order", by_year, lits) == 1
    # no year named, or one named only by its condition: the first 2 are the earliest 2 once a list is chosen
    for question in ("List the first 2 books Ilse Varga wrote.", "List the first 2 books published after 1990."):
        lits = question_literals(question)
        first_k(lits, profiles)
        assert (lits.time_order, lits.dated) == (None, ("Book", "published", "ASC")), question
    # a kind no year dates: in the order of the whole numbers that number its nodes; a birth year does not date
    profiles.labels["Reader"] = LabelProfile("Reader", "name", [], sequence="uid")
    for question, dated in (
        ("List the first 2 readers.", ("Reader", "uid", "ASC")),
        ("List the first 2 authors born after 1950.", None),
    ):
        lits = question_literals(question)
        first_k(lits, profiles)
        assert lits.dated == dated, question
    # a word between a comparison and its number names the condition, not an order ("after timestamp ...")
    started = Property("Visit", "startTime", "number", 1.6e12, 1.7e12, (1606165629748, 1654093511000))
    profiles.labels["Visit"] = LabelProfile("Visit", "name", [started])
    lits = question_literals("List the first 2 visits that started after timestamp 1606165629748.")
    first_k(lits, profiles)
    assert (lits.time_order, lits.dated) == (None, ("Visit", "startTime", "ASC"))
    # "the top k" where nothing says by what: a dated kind's latest, the doers of something by how much they did it
    pages = Property("Book", "pages", "number", 198.0, 412.0, (310, 224))
    profiles.labels["Book"].properties.append(pages)
    lits = question_literals("List the top 2 books written by someone born before 1960.")
    first_k(lits, profiles)
    assert (lits.time_order, lits.time_noun, lits.top_doer) == ("DESC", "books", None)
    lits = question_literals("Who are the top 2 writers of books published after 1990?")
    first_k(lits, profiles)
    assert (lits.time_order, lits.top_doer) == (None, "writers")
    for question in ("List the top 2 books by pages.", "List the top 2 longest books."):
        lits = question_literals(question)
        first_k(lits, profiles)
        assert (lits.time_order, lits.top_doer) == (None, None), question


def test_the_most_recent_k_of_a_kind_with_no_time_of_its_own_come_by_its_numbers() -> None:
    """ "The 2 most recent readers", where readers have no year of their own but whole numbers that number them:
    a list of 2 readers, taken in the order of those numbers, the highest first; a kind with a year of its own keeps
    its year's ordering."""
    from app.text2cypher.answer_form import answer_form
    from app.text2cypher.asks import first_k
    from app.text2cypher.profiles import LabelProfile, Profiles

    published = Property("Book", "published", "number", 1982.0, 2016.0, (1982, 1995, 2004))
    profiles = Profiles(
        {"Book": LabelProfile("Book", "title", [published]), "Reader": LabelProfile("Reader", "name", [], "uid")}
    )
    lits = question_literals("List the 2 most recent readers.")
    first_k(lits, profiles)
    assert lits.dated == ("Reader", "uid", "DESC")
    readers = Shape(CandidateQuery(Anchor(None, "Reader", "name"), ()), 1, "list", limit=2)
    assert (feature("time_order", readers, lits), feature("unordered_superlative", readers, lits)) == (1, 0)
    assert (
        answer_form(readers, lits).text
        == "MATCH (x1:Reader) WHERE x1.uid IS NOT NULL RETURN DISTINCT x1 ORDER BY x1.uid DESC LIMIT 2"
    )
    read = CandidateQuery(Anchor(None, "Reader", "name"), (Hop("READ", "out", "Book", "title"),))
    by_books = Shape(read, 1, "top", prop="published", fn="DESC", limit=2, prop_var=2, temporal=True)
    assert feature("time_order", by_books, lits) == -1  # not the readers of the latest books
    lits = question_literals("List the 2 most recent books.")
    first_k(lits, profiles)
    assert lits.dated is None and not lits.by_number
    books = Shape(CandidateQuery(Anchor(None, "Book", "title"), ()), 1, "list", limit=2)
    assert (feature("time_order", books, lits), feature("unordered_superlative", books, lits)) == (0, 1)


def test_the_top_k_of_a_dated_kind_come_in_its_order() -> None:
    """ "The top k" of a kind with a year of its own, where nothing says by what, are the latest k once a list of
    them is chosen; "the first k" the earliest k; not a kind dated by its birth, nor a list without a limit."""
    from app.text2cypher.asks import first_k
    from app.text2cypher.profiles import LabelProfile, Profiles

    published = Property("Book", "published", "number", 1982.0, 2016.0, (1982, 1995, 2004))
    born = Property("Author", "born", "number", 1948.0, 1990.0, (1948, 1961))
    profiles = Profiles(
        {"Book": LabelProfile("Book", "title", [published]), "Author": LabelProfile("Author", "name", [born])}
    )

    def chosen(c: Shape, question: str) -> str:
        lits = question_literals(question)
        first_k(lits, profiles)
        return answer_form(c, lits).text

    varga = CandidateQuery(Anchor("Ilse Varga", "Author"), WROTE.hops)
    first2 = Shape(varga, 2, "list", limit=2)
    assert chosen(first2, "List the first 2 books Ilse Varga wrote.").endswith(
        "RETURN DISTINCT x2 ORDER BY x2.published ASC LIMIT 2"
    )
    assert chosen(first2, "Name the first 2 books Ilse Varga wrote.").endswith(
        "WITH DISTINCT x2 ORDER BY x2.published ASC LIMIT 2 RETURN x2.title AS name"
    )
    assert chosen(first2, "Find the top 2 books Ilse Varga wrote.").endswith(
        "WHERE x2.published IS NOT NULL RETURN DISTINCT x2 ORDER BY x2.published DESC LIMIT 2"
    )
    assert chosen(first2, "Name the top 2 books Ilse Varga wrote.").endswith(
        "WITH DISTINCT x2 ORDER BY x2.published DESC LIMIT 2 RETURN x2.title AS name"
    )
    assert (
        chosen(first2, "List 2 books Ilse Varga wrote.")
        == answer_form(first2, question_literals("List 2 books Ilse Varga wrote.")).text
    )
    assert "ORDER BY" not in chosen(first2, "List 2 books Ilse Varga wrote.")
    authors = Shape(WROTE, 1, "list", limit=2, filters=(Filter(1, "born", ">", 1950),))
    assert "ORDER BY" not in chosen(authors, "List the first 2 authors born after 1950.")  # a birth year
    assert "ORDER BY" not in chosen(Shape(varga, 2, "list"), "List the first books Ilse Varga wrote.")


async def test_the_first_k_books_run_earliest_first(library: Text2CypherRetriever) -> None:
    varga = CandidateQuery(Anchor("Ilse Varga", "Author"), WROTE.hops)
    ordered = replace(Shape(varga, 2, "list", limit=2), ordered=("published", "ASC"), form="nodes")
    rows = await library.deps.graph.read(NS, ordered.execution_query(), {"limit": 50})
    assert [r["x2"].properties["title"] for r in rows] == ["Salt Roads", "The Quiet Harbour"]
    named = await library.deps.graph.read(NS, replace(ordered, form="names").execution_query(), {"limit": 50})
    assert named == [{"name": "Salt Roads"}, {"name": "The Quiet Harbour"}]
    latest = await library.deps.graph.read(
        NS, replace(ordered, ordered=("published", "DESC")).execution_query(), {"limit": 50}
    )
    assert [r["x2"].properties["title"] for r in latest] == ["Northern Ledger", "The Quiet Harbour"]
    awarded = Shape(CandidateQuery(BOOK, ()), 1, "list", limit=2, filters=(Filter(1, "award", "CONTAINS", "Lantern"),))
    shown = replace(awarded, ordered=("published", "ASC"), shown=((1, "award", False),))
    got = await library.deps.graph.read(NS, shown.execution_query(), {"limit": 50})
    assert got == [{"name": "Glass Orchard", "award": "Lantern Prize"}]


async def test_the_top_k_are_k_nodes_not_k_distinct_rows(library: Text2CypherRetriever) -> None:
    """ "The 3 longest books": two books of one title and length are two of the three (a top returning each name
    and value DISTINCT took them as one and reached a fourth book)."""
    await library.deps.graph.execute(NS, "CREATE (:Book {title: 'Glass Orchard', published: 2020, pages: 412})")
    longest = Shape(CandidateQuery(BOOK, ()), 1, "top", prop="pages", fn="DESC", limit=3)
    rows = await library.deps.graph.read(NS, longest.execution_query(), {"limit": 50})
    assert rows == [
        {"name": "Glass Orchard", "pages": 412},
        {"name": "Glass Orchard", "pages": 412},
        {"name": "Salt Roads", "pages": 310},
    ]


def test_which_shows_the_text_a_partial_condition_matched() -> None:
    """ "Which books have a title containing 'Harbour'?": each title with the value matched; not where the question
    quotes a whole value, nor a list question (it gets the nodes, every property with them)."""
    contains = Shape(CandidateQuery(BOOK, ()), 1, "list", filters=(Filter(1, "award", "CONTAINS", "Lantern"),))

    def form(c: Shape, question: str) -> str:
        return answer_form(c, question_literals(question)).text.split(" RETURN ")[-1]

    assert question_literals("Which books have an award containing the word 'Lantern'?").partial == {"Lantern": None}
    assert question_literals("Which zones have an IP starting with '10.2'?").partial == {"10.2": "STARTS WITH"}
    assert question_literals("Which people have a name ending in 'son'?").partial == {"son": "ENDS WITH"}
    assert form(contains, "Which books have an award containing the word 'Lantern'?") == (
        "DISTINCT x1.title AS name, x1.award AS award"
    )
    assert form(contains, "Which books have 'Lantern' mentioned in their award?") == (
        "DISTINCT x1.title AS name, x1.award AS award"
    )
    assert form(contains, "Which books have the award 'Lantern'?") == "DISTINCT x1"
    assert form(contains, "List the books with an award containing 'Lantern'.") == "DISTINCT x1"
    reviewed = CandidateQuery(CandidateQuery(Anchor(None, "Critic", "name"), ()).anchor, (
        Hop("REVIEWED", "out", "Book", "title"),
    ))  # fmt: skip
    summary = Shape(reviewed, 2, "list", filters=(Filter(1, "summary", "CONTAINS", "brilliant", edge=True),))
    assert form(summary, "Which books have reviews with a summary mentioning 'brilliant'?") == (
        "DISTINCT x2.title AS name, r1.summary AS summary"
    )
    first = replace(contains, limit=2)
    lits = question_literals("Which are the first 2 books with an award containing 'Lantern'?")
    lits.dated = ("Book", "published", "ASC")  # first_k's reading
    assert answer_form(first, lits).text.split(" WHERE ")[-1] == (
        'x1.award CONTAINS "Lantern" AND x1.published IS NOT NULL WITH DISTINCT x1, x1.award AS award '
        "ORDER BY x1.published ASC LIMIT 2 RETURN x1.title AS name, award"
    )
    critics = replace(summary, target=1)
    assert form(critics, "Which critics wrote a summary mentioning 'brilliant'?") == (
        "DISTINCT x1.name AS name, r1.summary AS summary"
    )


def test_an_ordering_by_what_the_answer_is_linked_to_names_it() -> None:
    """ "Who wrote the newest book?": each author, the book and its year, where the question names the book."""

    def form(c: Shape, question: str) -> str:
        return answer_form(c, question_literals(question)).text.split(" RETURN ")[-1]

    by_book = Shape(WROTE, 1, "top", prop="published", fn="DESC", limit=1, prop_var=2, temporal=True)
    assert form(by_book, "Who wrote the newest book?") == (
        "DISTINCT x1.name AS name, x2.title AS title, x2.published AS published ORDER BY published DESC LIMIT 1"
    )
    assert form(by_book, "What are the names of the authors with the newest works?") == (
        "DISTINCT x1.name AS name, x2.published AS published ORDER BY published DESC LIMIT 1"
    )
    reviewed = CandidateQuery(Anchor(None, "Critic", "name"), (Hop("REVIEWED", "out", "Book", "title"),))
    rating = Shape(reviewed, 1, "top", prop="rating", fn="DESC", limit=1, prop_on=1)
    assert form(rating, "Which critic reviewed the book with the highest rating?") == (
        "DISTINCT x1.name AS name, x2.title AS title, r1.rating AS rating ORDER BY rating DESC LIMIT 1"
    )
    lowest = Shape(reviewed, 2, "top", prop="rating", fn="ASC", limit=2, prop_on=1)
    assert form(lowest, "Name 2 books with the lowest ratings.") == (
        "DISTINCT x2.title AS name, r1.rating AS rating ORDER BY rating ASC LIMIT 2"
    )


def test_a_ranking_takes_no_number_the_question_compares_with() -> None:
    from app.text2cypher.asks import answer_counts

    assert answer_counts(question_literals("Which critic reviewed the most books with a rating above 6?")) == [1]
    assert answer_counts(question_literals("Which 3 authors wrote at least 2 books?")) == [3]
    assert answer_counts(question_literals("List the top 2 authors with at least 2 books.")) == [2]
    assert answer_counts(question_literals("Name 3 books with exactly 3 tags.")) == [3]


def test_a_greatest_asked_of_a_kind_in_the_plural_ranks_them_all() -> None:
    """ "Which authors wrote the most books?" asks for the authors in that order, all of them; "which author" for
    the one first; a stated number for that many. A label's own word ending in "s" is no plural."""
    from app.text2cypher.asks import answer_counts, asked_kind

    profiles = Profiles({k: LabelProfile(k, "name", []) for k in ("Author", "Book", "Person", "Status")})
    asked = {
        "Which authors wrote the most books?": [None],
        "Which author wrote the most books?": [1],
        "Which 2 authors wrote the most books?": [2],
        "Which status has the most books?": [1],
        "What is the highest number of books an author wrote?": [1],
    }
    for question, ks in asked.items():
        lits = question_literals(question)
        asked_kind(lits, profiles)
        assert answer_counts(lits) == ks, question


def test_tuning_states_values_and_list_sizes() -> None:
    """Tuning phrases a property's values, its most common values and a condition on a list's size in words."""
    import random

    from app.text2cypher.phrasing import shape_question

    rng = random.Random(5)
    critic = CandidateQuery(Anchor(None, "Critic", "name"), (Hop("REVIEWED", "out", "Book", "title"),))
    born = shape_question(Shape(CandidateQuery(Anchor("Nadia Oss", "Author"), ()), 1, "attr", prop="born"), rng, EN)
    assert "born" in born and "Nadia Oss" in born
    tags = shape_question(Shape(critic, 2, "common", prop="tags", prop_on=1, fn="DESC", limit=2, listed=True), rng, EN)
    assert "most" in tags and "reviewed tags" in tags
    sized = Shape(critic, 2, "list", filters=(Filter(1, "tags", ">", 1, edge=True, sized=True),))
    assert "number of tags" in shape_question(sized, rng, EN)


def test_tuning_states_an_ordering_by_a_linked_node() -> None:
    """A shape that orders authors by their books' year is stated as such: by the book's year, or as the author
    of the oldest book; never as "the oldest authors"."""
    import random

    from app.text2cypher.phrasing import shape_question

    by_book = Shape(WROTE, 1, "top", prop="published", fn="ASC", limit=1, prop_var=2, temporal=True)
    said = {shape_question(by_book, random.Random(i), EN) for i in range(40)}
    assert any("the oldest book" in q or "the earliest book" in q for q in said)
    assert any("lowest book published" in q for q in said)
    assert not any(re.search(r"(oldest|earliest) authors?", q) for q in said)


def test_schema_words_the_question_mentions() -> None:
    from app.text2cypher.terms import schema_terms
    from app.text2cypher.words import matcher

    mentions = matcher(EN).mentions

    both = Shape(WROTE, 1, "list", also=("EDITED",))
    assert schema_terms(both) == ["WROTE", "EDITED"]
    assert mentions("Which authors wrote and edited the same book?", schema_terms(both)) == (2, 0)
    assert mentions("Who are the directors?", ["DIRECTED", "ACTED_IN"]) == (1, 1)  # a shared stem
    assert mentions("Which actors were born after 1970?", ["ACTED_IN", "born"]) == (2, 0)
    assert mentions("What is the weather?", ["WROTE"]) == (0, 1)
    assert mentions("Which screenwriters worked with X?", ["WRITTEN_BY"]) == (1, 0)  # a compound
    # forms of an irregular verb share no stem: "written", "wrote" and "writers" all name WROTE
    assert mentions("Who has written, directed and produced the same movie?", ["WROTE", "DIRECTED"]) == (2, 0)
    assert mentions("Which writers also directed?", ["WROTE"]) == (1, 0)
    assert mentions("Who wrote X?", ["WRITTEN_BY"]) == (1, 0)

    # the words of one phrase name one use: the second condition on a view count is unnamed
    assert mentions("questions with a view count between 50 and 100", ["view_count"]) == (1, 0)
    assert mentions("questions with a view count between 50 and 100", ["view_count", "view_count"]) == (1, 1)
    # one use per question word: a relationship taken twice must be named twice
    assert mentions("the director of X also directed which films", ["DIRECTED_BY", "DIRECTED_BY"]) == (2, 0)
    assert mentions("who directed X", ["DIRECTED_BY", "DIRECTED_BY"]) == (1, 1)
    listed = Filter(1, "tags", "CONTAINS", "se", edge=True, listed=True)
    assert listed.cypher() == 'any(e IN r1.tags WHERE e CONTAINS "se")'


def test_the_word_that_says_what_a_quoted_constant_is_names_no_property() -> None:
    from app.text2cypher.words import matcher

    m = matcher(EN)
    q = "Which services are instances of version '9.4'?"
    lits = question_literals(q)
    lits.labels = ["Service", "Version", "Machine"]
    assert m.kind_words(lits.beside, lits.labels) == ("version",)
    # "version" says what '9.4' is: it names no service's ``versions`` (a condition the question does not state)
    assert m.mentions(q, ["INSTANCE"], keys=["versions"]) == (2, 0)
    assert m.mentions(q, ["INSTANCE"], keys=["versions"], reserved=("version",)) == (1, 1)
    # a relationship may still take it: "tagged 'neo4j'" names ``TAGGED`` and says the constant is a tag
    tagged = "Which questions are tagged 'neo4j'?"
    kinds = m.kind_words(question_literals(tagged).beside, ["Question", "Tag"])
    assert kinds == ("tagged",) and m.mentions(tagged, ["TAGGED"], reserved=kinds) == (1, 0)
    assert m.kind_words(question_literals("Which movies mention 'Neo'?").beside, ["Person", "Genre"]) == ()

    version = Anchor("9.4", "Version", "name")
    instances = CandidateQuery(version, (Hop("INSTANCE", "in", "Service", "name"),))
    plain = Shape(instances, 2, "list")
    having = replace(plain, filters=(Filter(2, "versions", "IS NOT NULL", None),))
    assert feature("schema_named", plain, lits, q) == 1
    assert feature("schema_named", having, lits, q) == 0  # was 2: "version" named the condition too


def test_a_kind_the_question_names_and_the_pattern_lacks() -> None:
    """ "Which ports are used by processes on machine X?": a pattern through the machine's interfaces holds no
    process; a word that names a relationship type or key the pattern uses ("types" of ``TYPE``, "zone" of a rack's
    ``zone``) asks for no node of that kind."""
    machine = Anchor("DC1-M-1", "Machine", "name")
    q = "Which ports are used by processes on the machine 'DC1-M-1'?"
    lits = question_literals(q)
    lits.labels = ["Machine", "Process", "Port", "Interface", "Type", "Rack", "OS"]
    through_processes = CandidateQuery(
        machine, (Hop("RUNS", "out", "Process", "name"), Hop("LISTENS", "out", "Port", "port"))
    )
    through_interfaces = CandidateQuery(
        machine, (Hop("ROUTES", "out", "Interface", "ip"), Hop("EXPOSES", "out", "Port", "port"))
    )
    assert feature("label_missed", Shape(through_processes, 3, "list"), lits, q) == 0
    assert feature("label_missed", Shape(through_interfaces, 3, "list"), lits, q) == 1
    assert feature("label_missed", through_interfaces, lits, q) == 1  # a plain path as well
    # "types" may name the ``TYPE`` a pattern takes; a two-letter label is named by itself ("OS")
    q = "List the types of machines in zone 4 running an OS."
    lits = question_literals(q)
    lits.labels = ["Machine", "Type", "Rack", "OS", "Zone"]
    rack = CandidateQuery(Anchor(None, "Rack", "name"), (Hop("HOLDS", "out", "Machine", "name"),))
    in_zone = (Filter(1, "zone", "=", 4),)
    assert feature("label_missed", Shape(rack, 2, "list", filters=in_zone), lits, q) == 2  # no Type, no OS
    typed = (*in_zone, Filter(2, "type", "=", "xl"))  # a machine's ``type`` takes "types"
    assert feature("label_missed", Shape(rack, 2, "list", filters=typed), lits, q) == 1
    assert feature("label_missed", Shape(rack, 2, "list"), lits, q) == 3  # nor does anything take "zone"
    # a relationship type takes no word that is a label's own ("routers" are routers, whatever ``ROUTES``); a
    # returned property takes none ("the versions of 'RHEL'" are versions, not its ``versions`` list)
    q = "List the top 3 routers located in zone 1."
    lits = question_literals(q)
    lits.labels = ["Router", "Zone", "Interface"]
    zone = CandidateQuery(Anchor(None, "Zone", "ip"), (Hop("ROUTES", "out", "Interface", "ip"),))
    router = CandidateQuery(Anchor(None, "Router", "name"), ())
    zone_1 = (Filter(1, "zone", "=", 1),)
    assert feature("label_missed", Shape(zone, 1, "group", fn="DESC", other=2, limit=3, filters=zone_1), lits, q) == 1
    assert feature("label_missed", Shape(router, 1, "list", limit=3, filters=zone_1), lits, q) == 0
    q = "Which versions of software are installed on 'RHEL'?"
    lits = question_literals(q)
    lits.labels = ["Software", "Version"]
    rhel = Anchor("RHEL", "Software", "name")
    assert feature("label_missed", Shape(CandidateQuery(rhel, ()), 1, "attr", prop="versions"), lits, q) == 1
    versions = CandidateQuery(rhel, (Hop("VERSION", "out", "Version", "name"),))
    assert feature("label_missed", Shape(versions, 2, "list"), lits, q) == 0
    # "important" names no ``Port``: stems only, no compounds
    lits = question_literals("Which machines are important?")
    lits.labels = ["Machine", "Port"]
    assert feature("label_missed", Shape(rack, 2, "list"), lits) == 0


def test_a_ranking_that_counts_what_the_superlative_names() -> None:

    by_books = Shape(WROTE, 1, "group", fn="DESC", other=2, limit=2)
    by_authors = Shape(WROTE, 2, "group", fn="DESC", other=1, limit=2)
    q = "Name 2 authors who wrote the most books published after 1990."
    lits = question_literals(q)
    assert lits.most_noun == "books"
    assert feature("counted", by_books, lits) == 1 and feature("counted", by_authors, lits) == 0
    assert feature("counted", Shape(WROTE, 1, "list", limit=2), lits) == 0
    lits = question_literals("Which 2 books have the highest number of distinct authors?")
    assert lits.most_noun == "authors" and feature("counted", by_authors, lits) == 1
    assert feature("counted", by_books, question_literals("Which author wrote the longest book?")) == 0
    # or by a number of its own whose words name what is counted ("the most books": ``book_count``)
    by_count = Shape(CandidateQuery(AUTHOR, ()), 1, "top", prop="book_count", fn="DESC", limit=1)
    lits = question_literals("Which author wrote the most books?")
    assert feature("counted", by_count, lits) == 1
    assert feature("counted", replace(by_count, prop="age"), lits) == 0
    lits = question_literals("Who are the top 2 writers of books published after 1990?")
    lits.top_doer = "writers"  # first_k's reading: nothing says by what to rank them
    assert feature("counted", by_books, lits) == 1 and feature("counted", by_authors, lits) == 0


def test_the_shape_budget_keeps_what_the_question_names() -> None:
    """Past ``shape_budget``, the label-anchored shapes whose labels, relationship types and properties the question
    names least are dropped; those anchored at a linked entity always stay; the order is the enumeration's."""
    from app.text2cypher.enumerate_shapes import within_budget
    from app.text2cypher.terms import lexical_overlap

    critic = Anchor(None, "Critic", "name")
    reviewed = CandidateQuery(critic, (Hop("REVIEWED", "out", "Book", "title"),))
    named = CandidateQuery(Anchor("Ilse Varga", "Author", "name"), (Hop("WROTE", "out", "Book", "title"),))
    shapes = [
        Shape(CandidateQuery(critic, ()), 1, "list"),
        Shape(CandidateQuery(BOOK, ()), 1, "top", prop="pages", fn="DESC", limit=3),
        Shape(reviewed, 1, "count"),
        Shape(named, 2, "list"),
        Shape(CandidateQuery(BOOK, ()), 1, "list"),
    ]
    lits = question_literals("Which 3 books have the most pages?")
    assert [lexical_overlap(lits.match, s, lits.words) for s in shapes] == [0, 2, 1, 1, 1]
    kept = within_budget(shapes, lits, 2)
    # the two label-anchored shapes that name "books" and "pages" most (the smaller of the ties), and the entity's
    assert kept == [shapes[1], shapes[3], shapes[4]]
    assert within_budget(shapes, lits, 10) == shapes
    # among ties, what the ranking features say before the cross-encoder reads them (a count is not what it asks)
    prior = [1.0 if s.kind == "count" else 0.0 for s in shapes]
    asked: list[Shape] = []

    def before(xs: list[Shape], _: Any) -> list[float]:
        asked.extend(xs)
        return [prior[shapes.index(x)] for x in xs]

    assert within_budget(shapes, lits, 2, before) == shapes[1:4]
    assert asked == [shapes[2], shapes[4]]  # only the shapes tied at the cut are asked (the prior is costly)


async def test_quoted_text_is_a_whole_value_unless_the_question_says_part(library: Text2CypherRetriever) -> None:
    """'X' is a value some property equals ("the critic 'Mira Holt'"), never a part of another text; a part only
    where the question says so ("containing", "starting with", "ending in"), and that part."""

    async def ops(question: str, text: str) -> set[str]:
        e = await library.enumerate(NS, question)
        found = set()
        for c in e.candidates:
            for f in c.filters if isinstance(c, Shape) else ():
                if f.value == text:
                    found.add(f.op)
        return found

    assert await ops("Which critics reviewed books with the summary 'Uneven'?", "Uneven") == {"="}
    partial = {"CONTAINS", "STARTS WITH", "ENDS WITH"}  # Harbour Lights, The Quiet Harbour
    assert await ops("Which books have a title containing 'Harbour'?", "Harbour") == partial
    # and the part it says: "ending in 'Lights'" is no title that holds 'Lights' anywhere, nor "starting with" one
    # that ends with it
    assert await ops("Which books have a title ending in 'Lights'?", "Lights") == {"ENDS WITH"}
    assert await ops("Which books have a title starting with 'Salt'?", "Salt") == {"STARTS WITH"}


def test_a_quoted_constant_belongs_to_the_kind_named_beside_it() -> None:
    """ "the critic named 'Mira Holt'": the constant is a critic's name, not a book's title."""
    reviewed = CandidateQuery(Anchor(None, "Critic", "name"), (Hop("REVIEWED", "out", "Book", "title"),))
    on_critic = Shape(reviewed, 2, "list", filters=(Filter(1, "name", "=", "Mira Holt"),))
    on_book = Shape(reviewed, 2, "list", filters=(Filter(2, "title", "=", "Mira Holt"),))
    lits = question_literals("Which books did the critic named 'Mira Holt' review?")
    assert lits.beside["Mira Holt"] == [("critic", 2), ("named", 1), ("review", 1)]
    assert feature("quoted_kind", on_critic, lits) == 1 and feature("quoted_kind", on_book, lits) == 0
    anchored = CandidateQuery(Anchor("Mira Holt", "Critic"), reviewed.hops)
    assert feature("quoted_kind", anchored, lits) == 1
    assert feature("quoted_kind", on_critic, question_literals("Which books did Mira Holt review?")) == 0
    # both kinds named near the quote: the nearer one holds it ("the 'Salt Roads' book": a book, not a critic)
    near = question_literals("Which critics reviewed the 'Salt Roads' book?")
    salt = [
        Shape(reviewed, 1, "list", filters=(Filter(v, k, "=", "Salt Roads"),)) for v, k in ((1, "name"), (2, "title"))
    ]
    assert [feature("quoted_kind", s, near) for s in salt] == [0, 1]
    # a nearer kind of the graph's that the pattern has not: the edition's name, not the critic's
    edition = question_literals("Which books did the critic named 'Mira Holt' of the edition review?")
    assert feature("quoted_kind", on_critic, edition) == 1  # the graph's labels unknown: the pattern's nearest
    edition.labels = ["Critic", "Book", "Edition"]
    assert feature("quoted_kind", on_critic, edition) == 0
    near.labels = edition.labels
    assert [feature("quoted_kind", s, near) for s in salt] == [0, 1]


def test_a_stored_count_is_the_count() -> None:
    """Where the target's label holds how many of the other end's kind it is linked to (``Ticket.reply_count`` for
    ``Reply``), no shape counts the links ("the tickets with the most replies" ranks by ``reply_count``); a kind
    without such a number is counted as before."""
    from app.text2cypher.counting import stores_count

    replies = Property("Ticket", "reply_count", "number", 0, 9, (0, 3, 9))
    profiles = Profiles(
        labels={
            "Ticket": LabelProfile("Ticket", "subject", [replies]),
            "Reply": LabelProfile("Reply", "body", []),
            "Agent": LabelProfile("Agent", "handle", []),
        }
    )
    schema = GraphSchema(
        triples=[SchemaTriple("Reply", "REPLIES_TO", "Ticket"), SchemaTriple("Agent", "HANDLED", "Ticket")]
    )
    replied = CandidateQuery(Anchor(None, "Reply", "body"), (Hop("REPLIES_TO", "out", "Ticket", "subject"),))
    lits = question_literals("Which 3 tickets have the most replies?")
    assert stores_count(profiles, replied, 2, 1, lits) and not stores_count(profiles, replied, 1, 2, lits)
    shapes = ShapeEnumerator.base_shapes(schema, profiles, [], lits)
    groups = {(s.path.hops[0].rel_type, s.target) for s in shapes if s.kind == "group" and not s.prop}
    assert ("REPLIES_TO", 2) not in groups and {("REPLIES_TO", 1), ("HANDLED", 2), ("HANDLED", 1)} <= groups
    assert any(s.kind == "top" and s.prop == "reply_count" for s in shapes)


def helpdesk(
    *triples: tuple[str, str, str],
    single: set[tuple[str, str, str, str]] | None = None,
    props: dict[str, list[Property]] | None = None,
) -> Any:
    """A help desk's label profiles (agents, notes, tickets, queues; ``props`` per label) and the schema of
    ``triples``."""
    keys = {"Agent": "handle", "Note": "id", "Ticket": "subject", "Queue": "name"}
    owned = props or {}
    profiles = Profiles(
        labels={k: LabelProfile(k, v, owned.get(k, [])) for k, v in keys.items()}, single=single or set()
    )
    return profiles, GraphSchema(triples=[SchemaTriple(*t) for t in triples])


def test_a_relationship_made_a_node_is_one_pattern() -> None:
    """Two relationship types of one verb through a node (``(Agent)-[:COMMENTED]->(Note)-[:COMMENTED_ON]->(Ticket)``)
    make a label-anchored pattern of their own: "which agents commented on more than 2 tickets" counts tickets per
    agent through the notes."""
    profiles, schema = helpdesk(
        ("Agent", "COMMENTED", "Note"), ("Note", "COMMENTED_ON", "Ticket"), ("Agent", "OPENED", "Ticket")
    )
    lits = question_literals("Which agents commented on more than 2 tickets?")
    shapes = ShapeEnumerator.base_shapes(schema, profiles, [], lits)
    long = [s for s in shapes if len(s.hops) == 2]
    assert {h.rel_type for s in long for h in s.hops} == {"COMMENTED", "COMMENTED_ON"}  # not OPENED: another verb
    having = [s for s in long if s.having == (">", 2) and s.target == 1 and s.limit is None]
    assert having and having[0].other == 3
    assert "WITH x1, count(DISTINCT x3) AS number WHERE number > 2" in having[0].text


async def test_plain_lists_take_conditions_past_the_shape_budget(library: Text2CypherRetriever) -> None:
    """The plain list of a label's nodes takes the question's conditions even where the shape budget keeps the
    cross-encoder from reading it bare (the orderings by the property the question names fill the budget); a range
    takes no other bound on its property."""
    question = "List the first 2 books with pages between 200 and 300."
    full = await library.enumerate(NS, question)
    ranged = [c for c in full.candidates if "x1.pages >= 200 AND x1.pages < 301" in c.text]
    assert ranged and all(re.split(" (?:WITH|RETURN) ", c.text)[0].count("x1.pages") == 2 for c in ranged)
    config = library.config
    library.config = config.model_copy(update={"shape_budget": 1})
    try:
        tight = await library.enumerate(NS, question)
    finally:
        library.config = config
    assert tight.pruned > 0
    assert any(
        isinstance(c, Shape) and c.kind == "list" and c.path.hops == () and "x1.pages >= 200" in c.text
        for c in tight.candidates
    )


def test_of_two_kinds_side_by_side_the_last_is_asked_for() -> None:
    """ "all book editions of 'Salt Roads'": one noun phrase, whose last word (editions) is its head; "the books
    with editions" asks for books."""
    from app.text2cypher.asks import asked_kind

    profiles = Profiles(
        {k: LabelProfile(k, "title", []) for k in ("Book", "Tag")} | {"Edition": LabelProfile("Edition", "isbn", [])}
    )
    has = CandidateQuery(Anchor(None, "Book", "title"), (Hop("HAS", "out", "Edition", "isbn"),))
    books, editions = Shape(has, 1, "list"), Shape(has, 2, "list")
    lits = question_literals("List all book editions of 'Salt Roads'.")
    asked_kind(lits, profiles)
    assert lits.kind_head == "editions"
    assert (feature("answer_kind", editions, lits), feature("answer_kind", books, lits)) == (1, -1)
    lits = question_literals("List all books with editions.")
    asked_kind(lits, profiles)
    assert lits.kind_head == "books"
    # ... nor a participle before a label's noun: "the most frequently reviewed books" asks for books
    lits = question_literals("What are the top 3 most frequently reviewed books?")
    asked_kind(lits, Profiles({**profiles.labels, "Review": LabelProfile("Review", "id", [])}))
    assert lits.kind_head == "books"
    # a verb that shares a label's stem makes no noun phrase: "books tagged with 'sea'" asks for books
    lits = question_literals("List all books tagged with 'sea'.")
    asked_kind(lits, profiles)
    assert lits.heads[:2] == ["books", "tagged"] and lits.kind_head == "books"
    assert (feature("answer_kind", editions, lits), feature("answer_kind", books, lits)) == (-1, 1)
    # what the asked values are of, where the words before name none ("the titles and ISBNs of all editions")
    lits = question_literals("What are the titles and ISBNs of all editions with 300 pages?")
    asked_kind(lits, profiles)
    assert lits.kind_head == "editions" and lits.heads[-1] == "editions"
    assert (feature("answer_kind", editions, lits), feature("answer_kind", books, lits)) == (1, -1)
    # a phrase fronted with "for" sets the scene: what is asked follows it
    lits = question_literals("For the 3 books with the most editions, list their tags.")
    asked_kind(lits, profiles)
    assert lits.kind_head == "tags"


def test_who_asks_for_a_kind_with_names_and_negated_kinds_are_not_walked_through() -> None:
    """ "Who reviewed ...": not a kind shown by numbers (``Profiles.nameless``); "books that have no reviews": no
    pattern through the reviews."""
    from app.text2cypher.asks import asked_kind

    ticket_no = Property("Note", "number", "number", 1.0, 90.0, (1, 2, 90))
    profiles = Profiles(
        {
            "Note": LabelProfile("Note", "number", [ticket_no]),
            "Critic": LabelProfile("Critic", "name", []),
            "Book": LabelProfile("Book", "title", []),
        }
    )
    assert profiles.nameless() == ["Note"]
    noted = CandidateQuery(Anchor(None, "Note", "number"), (Hop("ON", "out", "Book", "title"),))
    critics = CandidateQuery(Anchor(None, "Critic", "name"), (Hop("REVIEWED", "out", "Book", "title"),))
    lits = question_literals("Who commented on the book 'Salt Roads'?")
    asked_kind(lits, profiles)
    assert feature("nameless_who", Shape(noted, 1, "list"), lits) == 1
    assert feature("nameless_who", Shape(critics, 1, "list"), lits) == 0
    assert feature("nameless_who", Shape(noted, 2, "list"), lits) == 0  # the books
    lits = question_literals("Which notes are on the book 'Salt Roads'?")
    asked_kind(lits, profiles)
    assert feature("nameless_who", Shape(noted, 1, "list"), lits) == 0  # no "who"
    lits = question_literals("List the books that have no reviews by critics.")
    assert feature("negated_kind", Shape(critics, 2, "list"), lits) == 1
    assert feature("negated_kind", Shape(CandidateQuery(BOOK, ()), 1, "list"), lits) == 0
    lits = question_literals("List the books critics reviewed.")
    assert feature("negated_kind", Shape(critics, 2, "list"), lits) == 0


def test_comparisons_said_around_a_number() -> None:
    """ "at or after" is ``>=`` (not the ``>`` of its "after"), "on or before" ``<=``; a word for the kind of
    value may stand between a comparison and its number ("after timestamp 1606165629748")."""
    cases = {
        "Which books came out at or after 1995?": (1995.0, ">="),
        "Which books came out on or before 1995?": (1995.0, "<="),
        "Which services started after timestamp 1606165629748?": (1606165629748.0, ">"),
        "Which books came out after the year 1995?": (1995.0, ">"),
    }
    for question, (number, op) in cases.items():
        lits = question_literals(question)
        assert lits.ops.get(number) == op and number not in lits.valued, question


def test_aggregates_are_taken_where_asked() -> None:
    """An average or a total where the question asks for one (not "the total number of"), a greatest or least where
    it has a superlative; any aggregate it does not ask for speaks against the candidate."""
    books = CandidateQuery(BOOK, ())
    avg = Shape(books, 1, "agg", prop="pages", fn="avg")
    total = Shape(books, 1, "agg", prop="pages", fn="sum")
    most = Shape(books, 1, "agg", prop="pages", fn="max")
    per_author = Shape(WROTE, 1, "group", prop="pages", fn="DESC", limit=1)
    lits = question_literals("What is the average number of pages of the books?")
    assert lits.aggregated == {"avg"}
    assert [feature("aggregate_asked", s, lits) for s in (avg, total, most)] == [1, -1, -1]
    lits = question_literals("What is the total number of books?")
    assert lits.aggregated == set() and feature("aggregate_asked", total, lits) == -1
    lits = question_literals("How many pages do the books have in total?")
    assert lits.aggregated == {"sum"} and feature("aggregate_asked", total, lits) == 1
    lits = question_literals("Which author has the highest average pages per book?")
    assert feature("aggregate_asked", per_author, lits) == 1 and feature("aggregate_asked", most, lits) == 0
    lits = question_literals("List the books of Ilse Varga.")
    assert feature("aggregate_asked", per_author, lits) == -1
    assert feature("aggregate_asked", Shape(books, 1, "list"), lits) == 0


def test_two_relationships_through_a_named_kind_are_a_chain() -> None:
    """Where the question names both ends' kinds and one of the relationships, two relationships through a middle
    kind are one label-anchored pattern ("the agents who wrote notes on the most tickets": tickets per agent through
    the notes), read from the end it does not ask for; a question naming one end only has no chain; each chain
    once, whichever end it is read from."""
    profiles, schema = helpdesk(("Agent", "WROTE", "Note"), ("Note", "ABOUT", "Ticket"), ("Agent", "OPENED", "Ticket"))
    lits = question_literals("Which 3 agents wrote notes on the most tickets?")
    shapes = ShapeEnumerator.base_shapes(schema, profiles, [], lits)
    chains = {tuple(h.rel_type for h in s.hops) for s in shapes if len(s.hops) == 2 and s.kind == "group"}
    # (Note)<-[WROTE]-(Agent)-[OPENED]->(Ticket) too; not (Agent)-[OPENED]->(Ticket)<-[ABOUT]-(Note): neither named
    # (its ends are listed: the question names its middle kind, ``test_the_ends_of_a_chain_whose_every_kind_is_named``)
    assert {frozenset(c) for c in chains} == {frozenset({"WROTE", "ABOUT"}), frozenset({"WROTE", "OPENED"})}
    groups = [
        s for s in shapes if s.kind == "group" and not s.prop and len(s.hops) == 2 and s.fn == "DESC" and s.limit == 3
    ]
    agents = [s for s in groups if s.path.node_kind(s.target)[0] == "Agent"]
    assert len(agents) == 1 and agents[0].path.node_kind(agents[0].other or 0)[0] == "Ticket"
    assert shape_reading(agents[0]).startswith("top 3 agent wrote note about a ticket (agent) with the most ticket")
    assert not any(
        len(s.hops) == 2
        for s in ShapeEnumerator.base_shapes(
            schema, profiles, [], question_literals("Which 3 agents opened the most tickets?")
        )
    )

    def chained(question: str) -> set[tuple[str | None, tuple[str, int] | None]]:
        shapes = ShapeEnumerator.base_shapes(schema, profiles, [], question_literals(question))
        return {(s.kind, s.having) for s in shapes if len(s.hops) == 2}

    # a chain is asked what the question states of it: a comparison with a number, a superlative; not a threshold
    # from a number that is a value ("tickets in queue 2"); a list of one end where the question names the kind in
    # the middle too (``test_the_ends_of_a_chain_whose_every_kind_is_named``)
    assert chained("Which agents wrote notes on more than 2 tickets?") == {("list", (">", 2)), ("list", None)}
    assert chained("How many agents wrote notes on tickets in queue 2?") == {("list", None)}


def test_the_ends_of_a_chain_whose_every_kind_is_named() -> None:
    """ "The top 3 tickets by priority that agents in team 2 wrote notes about" names all three kinds of
    (Agent)-[WROTE]->(Note)-[ABOUT]->(Ticket): each end is listed, and ordered by a number of its own, as a one-hop
    pattern's answers are; the conditions go on either end (``ShapeEnumerator.enumerate``), but not a name the
    question states, which the linked entity's own path reads. A chain whose middle kind is one of its ends'
    ("tickets linked to tickets") is no such chain."""
    priority = Property("Ticket", "priority", "number", 1.0, 5.0)
    profiles, schema = helpdesk(("Agent", "WROTE", "Note"), ("Note", "ABOUT", "Ticket"), props={"Ticket": [priority]})
    lits = question_literals("List the top 3 tickets by priority that agents in team 2 wrote notes about.")
    shapes = [s for s in ShapeEnumerator.base_shapes(schema, profiles, [], lits) if len(s.hops) == 2]
    tops = [s for s in shapes if s.kind == "top" and s.prop == "priority" and s.limit == 3 and s.fn == "DESC"]
    ends = [s for s in tops if not s.staged and s.prop_var is None]
    assert [s.path.node_kind(s.target)[0] for s in ends] == ["Ticket"]
    assert "ORDER BY x3.priority DESC LIMIT 3" in ends[0].text
    assert any(s.kind == "list" and s.path.node_kind(s.target)[0] == "Agent" for s in shapes)
    chained = {s.path for s in shapes}
    assert ends[0].path.anchor.label == "Agent"  # x1
    assert is_chain_end(ends[0], chained) and pins_chain_end(ends[0], Filter(1, "handle", "=", "ada"), chained)
    assert not pins_chain_end(ends[0], Filter(1, "team", "=", 2), chained)
    # no middle kind of its own: (Ticket)-[LINKS]->(Ticket)-[ABOUT]->... is not read as named in the middle
    profiles, schema = helpdesk(("Ticket", "LINKS", "Ticket"), ("Agent", "OPENED", "Ticket"))
    lits = question_literals("List the tickets linked to tickets agents opened.")
    assert not any(
        s.kind == "list" and len(s.hops) == 2 for s in ShapeEnumerator.base_shapes(schema, profiles, [], lits)
    )


def test_nothing_is_ranked_by_how_many_of_what_each_has_one_of() -> None:
    """Each note is about one ticket, each ticket filed in one queue (``Profiles.single``, read off the data's
    fan-out): through a chain "the notes filed in the most queues" ranks nothing and is not enumerated; the queues
    with the most notes are. Nor through one hop: "the notes about the most tickets" ranks nothing, "the tickets
    with the most notes" does. An entity-anchored path of two hops ranks its answers by how many of the node before
    them they reach ("which agent wrote the most notes about 'Printer jam'")."""
    single = {
        ("Note", "ABOUT", "out", "Ticket"),
        ("Note", "WROTE", "in", "Agent"),
        ("Ticket", "FILED_IN", "out", "Queue"),
    }
    profiles, schema = helpdesk(
        ("Note", "ABOUT", "Ticket"), ("Agent", "WROTE", "Note"), ("Ticket", "FILED_IN", "Queue"), single=single
    )
    about = CandidateQuery(Anchor(None, "Note", "id"), (Hop("ABOUT", "out", "Ticket", "subject"),))
    assert profiles.one_each(about, 1, 2) and not profiles.one_each(about, 2, 1)
    lits = question_literals("Which notes were filed in the most queues?")
    shapes = ShapeEnumerator.base_shapes(schema, profiles, [], lits)
    chain = {s.path.node_kind(s.target)[0] for s in shapes if s.kind == "group" and len(s.hops) == 2}
    assert chain == {"Queue"}  # not the notes: each reaches one queue
    one_hop = {(s.path.hops[0].rel_type, s.target) for s in shapes if s.kind == "group" and len(s.hops) == 1}
    assert ("ABOUT", 2) in one_hop and ("ABOUT", 1) not in one_hop
    jam = CandidateQuery(
        Anchor("Printer jam", "Ticket", "subject"),
        (Hop("ABOUT", "in", "Note", "id"), Hop("WROTE", "in", "Agent", "handle")),
    )
    lits = question_literals("Which agent wrote the most notes about 'Printer jam'?")
    shapes = ShapeEnumerator.base_shapes(schema, profiles, [jam], lits)
    most = [s for s in shapes if s.kind == "group" and s.path == jam and s.fn == "DESC"]
    assert most and most[0].target == 3 and most[0].other == 2
    assert most[0].text == (
        'MATCH (x1:Ticket {subject: "Printer jam"})<-[:ABOUT]-(x2:Note)<-[:WROTE]-(x3:Agent) '
        "RETURN x3.handle AS name, count(DISTINCT x2) AS number ORDER BY number DESC LIMIT 1"
    )
    # each note has one ticket: ranking the notes of a ticket's path by their tickets is not enumerated
    back = CandidateQuery(
        Anchor("Ann", "Agent", "handle"), (Hop("OPENED", "out", "Ticket", "subject"), Hop("ABOUT", "in", "Note", "id"))
    )
    assert profiles.one_each(back, 3, 2)
    shapes = ShapeEnumerator.base_shapes(schema, profiles, [back], question_literals("Which note has the most?"))
    assert not any(s.kind == "group" and s.path == back for s in shapes)


async def test_a_key_the_first_nodes_lack_is_profiled(t2c: Text2CypherRetriever) -> None:
    """A label that groups others (every ``Job`` is a ``Batch`` or a ``Daemon`` job): its first nodes (all batch
    jobs) hold no ``pid``, the daemons further on do; the profile has it (``common_keys_query``), so "jobs with a pid
    below 110" is a condition."""
    graph, ns = t2c.deps.graph, "grouping_labels"  # a namespace of its own: no profile of another test's graph
    await graph.execute(ns, "UNWIND range(1, 600) AS i CREATE (:Job:Batch {name: 'batch-' + toString(i)})")
    await graph.execute(
        ns, "UNWIND range(1, 30) AS i CREATE (:Job:Daemon {name: 'daemon-' + toString(i), pid: 100 + i})"
    )
    t2c.invalidate(ns)
    try:
        schema = await graph.schema(ns)
        profiles = await t2c.profiles.get(ns, schema)
        assert [(p.key, p.lo, p.hi, p.partial) for p in profiles.labels["Job"].numeric()] == [("pid", 101, 130, True)]
        found = await conditions(graph, ns, profiles, question_literals("Which jobs have a pid below 110?"))
        assert ("pid", "<", 110) in [(f.key, f.op, f.value) for f in found[("Job", False)]]
    finally:
        await graph.execute(ns, "MATCH (n) DETACH DELETE n")
        t2c.invalidate(ns)


async def test_the_most_common_values_only_of_a_property_whose_values_repeat(t2c: Text2CypherRetriever) -> None:
    """ "the most common X" counts how often each value occurs: a ticket's body text and its reference number are
    each ticket's own (every value once among the sampled nodes: ``Property.repeats`` False), so no candidate ranks
    them so unless the question asks how often; a priority repeats."""
    graph, ns = t2c.deps.graph, "repeating_values"
    await graph.execute(
        ns,
        "UNWIND range(1, 40) AS i CREATE (:Case {subject: 'case ' + toString(i), body: 'I cannot log in, try ' + "
        "toString(i), parent_case_id: 1000 + i, priority: ['low', 'high'][i % 2]})",
    )
    t2c.invalidate(ns)
    try:
        schema = await graph.schema(ns)
        profiles = await t2c.profiles.get(ns, schema)
        case = profiles.labels["Case"]
        repeats = {p.key: p.repeats for p in [*case.properties, *case.identifiers]}
        assert repeats == {"subject": False, "body": False, "parent_case_id": False, "priority": True}
        cases = CandidateQuery(Anchor(None, "Case", "subject"), ())
        assert {c.prop for c in commons(cases, 1, profiles, [3], None)} == {"priority"}
        # ... unless the question asks how often ("the 3 most common bodies": each occurs once, and that is the answer)
        assert {c.prop for c in commons(cases, 1, profiles, [3], None, frequency=True)} == {"priority", "body"}
        assert question_literals("What are the 3 most common bodies of cases?").asks_frequency
        assert not question_literals("What are the bodies of the 3 highest priority cases?").asks_frequency
    finally:
        await graph.execute(ns, "MATCH (n) DETACH DELETE n")
        t2c.invalidate(ns)


def test_single_links_are_read_off_enough_relationships() -> None:
    """Each answer answers one question, read off 500 of them: a rule (``Profiles.single``); each of three people
    follows one other: no rule (a "top 3 followers by number of people they follow" may still be asked)."""
    answered = RelationshipProfile(
        "ANSWERED", 500, [("Answer", "Question", 500)], {}, fanout=[("Answer", "Question", 1, 7)]
    )
    follows = RelationshipProfile("FOLLOWS", 3, [("Person", "Person", 3)], {}, fanout=[("Person", "Person", 1, 2)])
    assert single_links([answered, follows]) == {("Answer", "ANSWERED", "out", "Question")}


def test_the_targets_ranked_by_an_average_or_total_of_what_they_are_linked_to() -> None:
    """ "the author with the highest average pages per book" groups the authors by the average of their books'
    pages; "the highest total" by the sum; only where the question asks for one (the candidates stay few)."""
    schema = GraphSchema(triples=[SchemaTriple("Author", "WROTE", "Book")])
    pages = Property("Book", "pages", "number", 198.0, 412.0, (310, 224))
    profiles = Profiles(
        labels={"Author": LabelProfile("Author", "name", []), "Book": LabelProfile("Book", "title", [pages])}
    )

    def grouped(question: str) -> set[tuple[str, int | None]]:
        shapes = ShapeEnumerator.base_shapes(schema, profiles, [], question_literals(question))
        return {(s.agg, s.prop_var) for s in shapes if s.kind == "group" and s.prop == "pages" and s.target == 1}

    assert grouped("Which author has the highest average pages per book?") == {("avg", 2)}
    assert grouped("Which author has the highest total pages of their books?") == {("sum", 2)}
    assert grouped("Which author wrote the most books?") == set()
    total = Shape(WROTE, 1, "group", prop="pages", prop_var=2, agg="sum", fn="DESC", limit=1)
    assert total.text == (
        "MATCH (x1:Author)-[:WROTE]->(x2:Book) WHERE x2.pages IS NOT NULL "
        "RETURN x1.name AS name, sum(x2.pages) AS value ORDER BY value DESC LIMIT 1"
    )
    assert shape_reading(total) == "top 1 author wrote a book (author) with the highest total book pages"
    lits = question_literals("Which author has the highest total pages of their books?")
    assert feature("aggregate_asked", total, lits) == 1
    assert feature("aggregate_asked", replace(total, agg="avg"), lits) == -1


async def test_an_id_is_a_condition_only_where_the_question_names_it() -> None:
    """A label's numeric id is no measure, ordering or condition of its own (``LabelProfile.identifiers``), but a
    comparison the question states on it by the id's own words is a condition: "customers with an id above 500"
    (``customerID``), not "customers with more than 500 orders", where "customers" names only the label."""
    cid = Property("Customer", "customerID", "number", 1.0, 90000.0, (12, 345))
    profiles = Profiles(labels={"Customer": LabelProfile("Customer", "companyName", [], identifiers=[cid])})
    assert profiles.labels["Customer"].numeric() == [] and profiles.labels["Customer"].ordered() == []

    async def on_customers(question: str) -> list[tuple[str, str, object]]:
        found = await conditions(None, "ns", profiles, question_literals(question))  # type: ignore[arg-type]
        return [(f.key, f.op, f.value) for f in found[("Customer", False)]]

    assert await on_customers("Which customers have an id above 500?") == [("customerID", ">", 500)]
    assert await on_customers("Which customers placed more than 500 orders?") == []


async def test_a_number_keyed_as_an_id_is_no_measure() -> None:
    """A number whose key says it identifies something (``accepted_reply_id``: ``Property.reference``) is no
    measure, ordering or time ("the tickets with the most replies" are not ranked by it), but its presence is a
    condition where the question names it ("tickets with an accepted reply") and so is a comparison stated on it by
    its own words; that presence only where the question names all its words but the id ("replies" is no accepted
    reply)."""
    assert identifies_by_key("accepted_reply_id") and identifies_by_key("employeeID") and identifies_by_key("uuid")
    assert not identifies_by_key("pid") and not identifies_by_key("reply_count") and not identifies_by_key("idea")
    ref = Property("Ticket", "accepted_reply_id", "number", 1.6e9, 1.7e9, (1600000000, 1690000000), True, True)
    replies = Property("Ticket", "reply_count", "number", 0.0, 9.0, (0, 3))
    prof = LabelProfile("Ticket", "subject", [ref, replies])
    assert prof.numeric() == [replies] and prof.ordered() == [replies] and prof.references() == [ref]
    assert ref.epoch is None and not ref.temporal  # its values would read as Unix time
    profiles = Profiles(labels={"Ticket": prof})

    async def on_tickets(question: str) -> list[tuple[str, str, object]]:
        found = await conditions(None, "ns", profiles, question_literals(question))  # type: ignore[arg-type]
        return [(f.key, f.op, f.value) for f in found[("Ticket", False)] if f.key == ref.key]

    assert [op for _, op, _ in await on_tickets("Which tickets have an accepted reply?")] == ["IS NOT NULL"]
    # its words are one noun phrase: "replies" alone names the replies, not the accepted one
    assert await on_tickets("What are the 3 tickets with the most replies?") == []
    assert await on_tickets("Which tickets has the agent replied to?") == []
    assert [op for _, op, _ in await on_tickets("Which tickets have no accepted reply?")] == ["IS NULL"]
    assert await on_tickets("Which replies to tickets have not been accepted?") == []
    assert ("accepted_reply_id", ">", 1650000000) in await on_tickets(
        "Which tickets have an accepted reply id above 1650000000?"
    )
    assert await on_tickets("Which tickets were opened after 2021?") == []
    schema = GraphSchema(triples=[])
    lits = question_literals("What are the 3 tickets with the most replies?")
    tops = {s.prop for s in ShapeEnumerator.base_shapes(schema, profiles, [], lits) if s.kind in ("top", "agg")}
    assert tops == {"reply_count"}


async def test_a_number_a_measure_is_compared_with_is_no_year() -> None:
    """ "applications with a PID less than 2000": 2000 is a PID, not a year of the start time held as Unix
    milliseconds (``QuestionLiterals.compared_by``); "started before 2000" and "born before 1980" are years."""
    pid = Property("Application", "pid", "number", 0.0, 9999.0, (38, 2834))
    start = Property("Application", "startTime", "number", 1.6e12, 1.61e12, (1606477615631, 1606563321674))
    profiles = Profiles(labels={"Application": LabelProfile("Application", "name", [pid, start])})

    async def on_apps(question: str) -> set[str]:
        found = await conditions(None, "ns", profiles, question_literals(question))  # type: ignore[arg-type]
        return {f.key for f in found[("Application", False)] if f.value is not None}

    assert question_literals("Which applications have a PID less than 2000?").compared_by == {2000.0: "pid"}
    assert await on_apps("Which applications have a PID less than 2000?") == {"pid"}
    assert "startTime" in await on_apps("Which applications started before 2000?")


def test_a_number_is_a_value_of_what_the_word_before_it_names() -> None:
    """ "shelves in zone 4": the condition on ``zone`` (+1), not on the shelf's ``row`` (-1); and the word "shelves"
    names shelves, not a shelf's ``shelf`` number, in ``schema_named`` and ``answer_kind``."""
    shelf = CandidateQuery(Anchor(None, "Shelf", "name"), ())
    lits = question_literals("List the shelves in zone 4.")
    assert lits.value_words == {4.0: "zone"}
    in_zone = Shape(shelf, 1, "list", filters=(Filter(1, "zone", "=", 4),))
    in_row = Shape(shelf, 1, "list", filters=(Filter(1, "row", "=", 4),))
    assert feature("value_named", in_zone, lits) == 1 and feature("value_named", in_row, lits) == -1
    numbers = Shape(shelf, 1, "attr", prop="shelf")
    assert features.label_echoes(numbers) == {"shelf"}
    assert feature("schema_named", numbers, lits, "List the shelves in zone 4.") == 0
    assert feature("answer_kind", numbers, lits) == 0
    zones = question_literals("List the zones of shelves.")
    assert feature("answer_kind", Shape(shelf, 1, "attr", prop="zone"), zones) == 1


def test_a_comparison_after_a_property_word_names_that_property() -> None:
    """ "the comments with a score of 3", "a PID less than 500": +1 for the condition on the property the word before
    the comparison names (``lits.compared_by``), 0 for a condition on another number (no -1: the word before a
    comparison often names no property, "asked before 2021"); and +1 where the word after the number names it ("more
    than one answer": ``lits.counted_by``)."""
    comment = CandidateQuery(Anchor(None, "Comment", "uuid"), ())
    lits = question_literals("List the comments with a score of 3.")
    assert feature("value_named", Shape(comment, 1, "list", filters=(Filter(1, "score", "=", 3),)), lits) == 1
    assert feature("value_named", Shape(comment, 1, "list", filters=(Filter(1, "replies", "=", 3),)), lits) == 0
    app = CandidateQuery(Anchor(None, "Application", "name"), ())
    pid = question_literals("Which applications have a PID less than 500?")
    assert feature("value_named", Shape(app, 1, "list", filters=(Filter(1, "pid", "<", 500),)), pid) == 1
    asked = question_literals("Which questions were asked before 2021 with more than 2 answers?")
    answers = Shape(
        CandidateQuery(Anchor(None, "Question", "title"), ()), 1, "list", filters=(Filter(1, "answers", ">", 2),)
    )
    assert feature("value_named", answers, asked) == 1  # "2 answers": the number of answers (``counted_by``)
    # ... and the word after a compared number names what it counts: the question's answer count, not an answer's score
    one = question_literals("List the 5 most recent questions with more than one answer.")
    assert one.counted_by == {1.0: "answer"}
    question = CandidateQuery(Anchor(None, "Question", "title"), (Hop("ANSWERED", "in", "Answer", "uuid"),))
    counted = Shape(question, 1, "list", filters=(Filter(1, "answer_count", ">", 1),))
    assert feature("value_named", counted, one) == 1
    assert feature("value_named", replace(counted, filters=(Filter(2, "score", ">", 1),)), one) == 0
    assert question_literals("Which answers have a score of 3 or more?").counted_by == {}


async def test_plain_counts_take_conditions_where_the_question_asks_how_many(library: Text2CypherRetriever) -> None:
    config = library.config
    library.config = config.model_copy(update={"shape_budget": 1})
    try:
        e = await library.enumerate(NS, "How many books have pages between 200 and 300?")
    finally:
        library.config = config
    assert any(
        isinstance(c, Shape) and c.kind == "count" and c.path.hops == () and "x1.pages >= 200" in c.text
        for c in e.candidates
    )


def test_an_end_nothing_asks_for_speaks_against_a_shape() -> None:
    """ "List the first 2 books published after 1990": not only the books someone reviewed (a ``Critic`` end the
    question never names, reached by a relationship it never names); an end that is named, conditioned, counted or
    whose relationship the question names is no such end."""
    critic = Anchor(None, "Critic", "name")
    reviewed = CandidateQuery(critic, (Hop("REVIEWED", "out", "Book", "title"),))
    after = Filter(2, "published", ">", 1990)
    lits = question_literals("List the first 2 books published after 1990.")
    assert feature("unnamed_leaf", Shape(reviewed, 2, "list", filters=(after,), limit=2), lits) == 1
    plain = Shape(CandidateQuery(BOOK, ()), 1, "list", filters=(replace(after, var=1),))
    assert feature("unnamed_leaf", plain, lits) == 0
    for question in ("List the books critics reviewed after 1990.", "List the books reviewed after 1990."):
        assert feature("unnamed_leaf", Shape(reviewed, 2, "list", filters=(after,)), question_literals(question)) == 0
    counted = Shape(reviewed, 2, "group", other=1, fn="DESC", limit=2)
    assert feature("unnamed_leaf", counted, lits) == 0
    rated = Shape(reviewed, 2, "list", filters=(Filter(1, "rating", ">", 8, edge=True),))
    assert feature("unnamed_leaf", rated, question_literals("List the books rated above 8.")) == 0


def test_the_first_k_count_what_the_words_after_them_name() -> None:
    """ "the first 2 awarded books": the noun is the first word after "first 2" that names a label."""
    from app.text2cypher.asks import first_k

    published = Property("Book", "published", "number", 1982.0, 2016.0, (1982, 1995, 2004))
    profiles = Profiles({"Book": LabelProfile("Book", "title", [published])})
    lits = question_literals("List the first 2 awarded books.")
    assert lits.first_words[:2] == ["awarded", "books"]
    first_k(lits, profiles)
    assert lits.first_noun == "books" and lits.dated == ("Book", "published", "ASC")


def test_an_entity_path_ends_at_what_the_question_asks_for() -> None:
    """ "Which books did Ilse Varga write?": the path that ends at her books (+1), not one that goes on from them to
    their critics (-1)."""
    varga = Anchor("Ilse Varga", "Author", "name")
    wrote = Hop("WROTE", "out", "Book", "title")
    books = CandidateQuery(varga, (wrote,))
    critics = CandidateQuery(varga, (wrote, Hop("REVIEWED", "in", "Critic", "name")))
    lits = question_literals("Which books did Ilse Varga write?")
    assert feature("answer_kind", books, lits) == 1 and feature("answer_kind", critics, lits) == -1
    assert feature("answer_kind", critics, question_literals("Which critics reviewed Ilse Varga's books?")) == 1


def test_digits_of_a_code_are_no_numbers() -> None:
    """ "the router named DC1-R-2" states no number 2 (no limit of 2); a span of numbers ("1990-2000") still is."""
    lits = question_literals("Which interfaces connect to the router named DC1-R-2?")
    assert lits.numbers == [] and lits.limits == []
    assert question_literals("List machines of type xl-16/256/625 in rack 3.").numbers == [3.0]
    assert question_literals("Which books came out 1990-2000?").ranges == [(1990.0, 2001.0)]


def test_the_top_k_of_a_dated_kind_with_a_valued_condition_are_the_latest() -> None:
    """ "the top 2 books on shelf 4": "shelf" is the word a value belongs to, no measure to rank by; the top 2 are the
    latest published."""
    from app.text2cypher.asks import first_k

    published = Property("Book", "published", "number", 1982.0, 2016.0, (1982, 1995, 2004))
    shelf = Property("Book", "shelf", "number", 1.0, 9.0, (1, 4, 9))
    profiles = Profiles({"Book": LabelProfile("Book", "title", [published, shelf])})
    lits = question_literals("What are the top 2 books on shelf 4?")
    assert lits.value_words == {4.0: "shelf"}
    first_k(lits, profiles)
    assert lits.dated == ("Book", "published", "DESC")


def test_a_key_is_named_by_the_words_it_says_beyond_its_label() -> None:
    """``customerID`` of a ``Customer`` is an id: "customers" names the label, not the key (``own_key``); a schema
    word of two letters is named by itself or its plural ("IPs" names ``ip``), not by a word it begins."""
    from app.text2cypher.terms import own_key

    assert own_key("customerID", "Customer") == "id" and own_key("productName", "Product") == "name"
    assert own_key("unitPrice", "Product") == "unitPrice" and own_key("rack", "Rack") == "rack"
    assert own_key("deptCode", "Department") == "code" and own_key("staffId", "Professor") == "staffId"
    customer = CandidateQuery(Anchor(None, "Customer", "companyName"), ())
    ids = Shape(customer, 1, "attr", prop="customerID")
    question = "Which customers are from Germany?"
    assert feature("schema_named", ids, question_literals(question), question) == -1  # unnamed, not named
    question = "What are the customer IDs of customers from Germany?"
    assert feature("schema_named", ids, question_literals(question), question) == 1
    m = question_literals("What are the IPs?").match
    assert m.names("ip", "ips") and m.names("ip", "ip") and not m.names("ip", "ipsum") and not m.names("os", "host")
    # a word of the question's frame names a schema word only as itself: "List ..." names no ``LISTENS``,
    # "Provide ..." no ``PROVIDED``
    assert not m.names("listens", "list") and not m.names("provided", "provide") and m.names("name", "name")


def test_a_list_pinned_to_the_name_the_question_states_echoes_it() -> None:
    """ "Who does 'Steven' report to?": the employees named Steven are what the question says, not its answer."""
    employee = CandidateQuery(
        Anchor(None, "Employee", "firstName"), (Hop("REPORTS_TO", "out", "Employee", "firstName"),)
    )
    steven = Filter(1, "firstName", "=", "Steven")
    lits = question_literals("Who does 'Steven' report to?")
    assert feature("echoed_answer", Shape(employee, 1, "list", filters=(steven,)), lits) == 1
    assert feature("echoed_answer", Shape(employee, 2, "list", filters=(steven,)), lits) == 0
    assert feature("echoed_answer", Shape(employee, 1, "count", filters=(steven,)), lits) == 0


def test_a_property_pinned_by_the_anchor_the_question_states_echoes_it() -> None:
    """ "Which professors have the rank Associate?": the rank of the professors anchored at ``{rank: "Associate"}``
    is what the question says; their names are the answer."""
    anchored = CandidateQuery(Anchor("Associate", "Professor", "rank", display="fullName"), ())
    lits = question_literals("Which professors have the rank Associate?")
    assert feature("echoed_answer", Shape(anchored, 1, "attr", prop="rank"), lits) == 1
    assert feature("echoed_answer", Shape(anchored, 1, "attr", prop="salary"), lits) == 0
    assert feature("echoed_answer", Shape(anchored, 1, "list"), lits) == 0
    by_condition = Shape(CandidateQuery(Anchor(None, "Professor", "fullName"), ()), 1, "attr", prop="rank")
    pinned = Filter(1, "rank", "=", "Associate")
    assert feature("echoed_answer", replace(by_condition, filters=(pinned,)), lits) == 1


def test_an_anchor_key_and_a_condition_on_a_stated_text_read_alike() -> None:
    """ "Which zone routes to the interface with IP '10.2.8.254'?": the interface anchored at ``{ip: ...}`` and the
    interfaces with ``WHERE x2.ip = ...`` name ``ip`` alike (``identity_terms``): named where a word names the key, no
    miss where none does."""
    hop = (Hop("ROUTES", "in", "Zone", "ip"),)
    anchored = Shape(CandidateQuery(Anchor("10.2.8.254", "Interface", "ip"), hop), 2, "list")
    labelled = Shape(
        CandidateQuery(Anchor(None, "Interface", "ip"), hop), 2, "list", filters=(Filter(1, "ip", "=", "10.2.8.254"),)
    )
    named = "Which zone routes to the interface with IP '10.2.8.254'?"
    unnamed = "Which zone routes to '10.2.8.254'?"
    for question, score in ((named, 2), (unnamed, 1)):
        lits = question_literals(question)
        assert feature("schema_named", anchored, lits, question) == score
        assert feature("schema_named", labelled, lits, question) == score


def test_an_adjective_names_the_measure_it_compares_by() -> None:
    """ "The 5 longest tracks" rank by a duration, "the best paid professor" by a salary (the lexicon's
    ``measures``): the adjective names the property as its own word would."""
    m = question_literals("Find the 5 longest tracks.").match
    assert m.names("duration", "longest") and m.names("length", "shortest") and m.names("salary", "paid")
    assert not m.names("duration", "largest") and not m.names("price", "longest")
    track = CandidateQuery(Anchor(None, "Track", "trackTitle"), ())
    longest = Shape(track, 1, "top", prop="durationSec", fn="DESC", limit=5)
    question = "Find the 5 longest tracks."
    assert feature("schema_named", longest, question_literals(question), question) == 1


def test_a_which_question_is_not_answered_by_one_aggregate() -> None:
    """ "Which tracks did user007 play the most times?": the tracks, not the greatest number of plays."""
    played = CandidateQuery(Anchor("user007", "Listener", "username"), (Hop("PLAYED", "out", "Track", "trackTitle"),))
    lits = question_literals("Which tracks did user007 play the most times?")
    assert feature("answer_kind", Shape(played, 2, "agg", prop="times", prop_on=1, fn="max"), lits) == -1
    assert feature("answer_kind", Shape(played, 2, "top", prop="times", prop_on=1, fn="DESC", limit=1), lits) == 1


def test_what_two_linked_entities_share_is_listed_with_a_limit_and_counted() -> None:
    """A path through a node two linked entities share (the tickets two agents both handled) is listed with the
    question's limit and counted where the question asks how many, read as what the node is to each."""
    profiles, schema = helpdesk(("Agent", "HANDLED", "Ticket"))
    hop = Hop("HANDLED", "out", "Ticket", "subject")
    joined = CandidateQuery(Anchor("ana", "Agent", "handle"), (hop, Hop("HANDLED", "in", "Agent", "handle")))
    joined = replace(joined, end=Anchor("bo", "Agent", "handle"))
    lits = question_literals("How many tickets did 'ana' and 'bo' handle together, and which are the first 2?")
    shapes = [s for s in ShapeEnumerator.base_shapes(schema, profiles, [], lits, joined=[joined]) if s.path == joined]
    assert {(s.kind, s.target, s.limit) for s in shapes} == {("list", 2, 2), ("count", 2, None)}
    listed = next(s for s in shapes if s.kind == "list")
    assert listed.text == (
        'MATCH (x1:Agent {handle: "ana"})-[:HANDLED]->(x2:Ticket)<-[:HANDLED]-(x3:Agent {handle: "bo"}) '
        "RETURN DISTINCT x2.subject AS name LIMIT 2"
    )
    assert reading(listed, lexicon.load()) == "first 2 ticket handled of ana and handled of bo (ticket)"
    which = question_literals("Which 2 tickets did 'ana' and 'bo' handle?")
    shapes = [s for s in ShapeEnumerator.base_shapes(schema, profiles, [], which, joined=[joined]) if s.path == joined]
    assert [(s.kind, s.limit) for s in shapes] == [("list", 2)]


def test_a_label_pattern_of_a_relationship_that_holds_both_ways_is_one_pattern() -> None:
    """Between two nodes of one kind a relationship type that holds both ways is one label-anchored pattern taken
    either way, asked of its first node (the second is alike), and a name that node itself equals is no condition
    of it (it would count that one node)."""
    profiles, schema = helpdesk(("Agent", "PAIRED_WITH", "Agent"), ("Agent", "HANDLED", "Ticket"))
    lits = question_literals("How many agents has 'ana' paired with?")
    shapes = ShapeEnumerator.base_shapes(schema, profiles, [], lits)
    paired = [s for s in shapes if s.hops and s.hops[0].rel_type == "PAIRED_WITH"]
    assert paired and {(s.hops[0].direction, s.target) for s in paired} == {("both", 1)}
    count = next(s for s in paired if s.kind == "count")
    assert count.text == "MATCH (x1:Agent)-[:PAIRED_WITH]-(x2:Agent) RETURN count(DISTINCT x1) AS number"
    named = Filter(1, "handle", "=", "ana")
    conditions = {("Agent", False): [named]}
    assert [f.var for f in filters_for(count, conditions, profiles)] == [2]
    handled = [s for s in shapes if s.hops and s.hops[0].rel_type == "HANDLED"]
    assert {s.hops[0].direction for s in handled} == {"out"}


def test_the_number_of_different_things_counts_the_things() -> None:
    """The agents "with the most different tickets" are ranked by how many tickets (a kind of node) each has, not by
    how many different values of a property; those "with the most diverse priorities" by how many different values."""
    props = {"Ticket": [Property("Ticket", "subject", "text"), Property("Ticket", "priority", "number", 1.0, 5.0)]}
    profiles, schema = helpdesk(("Agent", "HANDLED", "Ticket"), props=props)
    for question, varied in [
        ("Who are the 3 agents with the most different tickets handled?", False),
        ("Who are the 3 agents with the most diverse priorities handled?", True),
    ]:
        lits = question_literals(question)
        assert lits.asks_variety
        shapes = ShapeEnumerator.base_shapes(schema, profiles, [], lits)
        assert any(s.kind == "group" and s.distinct for s in shapes) == varied, question
        assert any(s.kind == "group" and s.prop is None and s.other == 2 for s in shapes)  # the tickets counted


def test_an_ordering_takes_a_bound_on_the_property_it_orders_by() -> None:
    """The top 5 tickets "with a priority below 3" are ordered by priority among those below 3: an ordering takes a
    condition on the property it orders by; an aggregate of a property takes none on it."""
    profiles, _ = helpdesk(props={"Ticket": [Property("Ticket", "priority", "number", 1.0, 5.0)]})
    tickets = CandidateQuery(Anchor(None, "Ticket", "subject"), ())
    below = Filter(1, "priority", "<", 3)
    conditions = {("Ticket", False): [below]}
    top = Shape(tickets, 1, "top", prop="priority", fn="DESC", limit=5)
    assert filters_for(top, conditions, profiles) == [below]
    assert filters_for(Shape(tickets, 1, "agg", prop="priority", fn="max"), conditions, profiles) == []
    assert "WHERE x1.priority < 3" in replace(top, filters=(below,)).text
    # one value of it orders nothing: "the top 3 ... in zone 3" is no ordering by zone
    pinned = Filter(1, "priority", "=", 3)
    assert filters_for(top, {("Ticket", False): [pinned]}, profiles) == []


def test_a_count_of_the_nodes_one_name_pins_ranks_nothing() -> None:
    """ "The top 3 tickets of queue 'ops'" are no tickets ranked by how many queues named ops hold them (each counts
    1): a ranking or a threshold on how many ``x{other}`` takes no condition pinning ``x{other}`` by its name; a
    condition on another of its properties ("queues in zone 2") it still takes, and the tickets' own name as well."""
    profiles, _ = helpdesk(
        props={"Queue": [Property("Queue", "name", "text"), Property("Queue", "zone", "number", 1.0, 4.0)]}
    )
    held = CandidateQuery(Anchor(None, "Queue", "name"), (Hop("HOLDS", "out", "Ticket", "subject"),))
    named, zoned = Filter(1, "name", "=", "ops"), Filter(1, "zone", "=", 2)
    subject = Filter(2, "subject", "=", "printer")
    conditions = {("Queue", False): [named, zoned], ("Ticket", False): [subject]}
    ranked = Shape(held, 2, "group", fn="DESC", other=1, limit=3)
    assert filters_for(ranked, conditions, profiles) == [zoned, subject]
    over = Shape(held, 2, "list", other=1, having=(">", 1))
    assert filters_for(over, conditions, profiles) == [zoned, subject]
    assert filters_for(Shape(held, 2, "list", limit=3), conditions, profiles) == [named, zoned, subject]


def test_the_answers_linked_to_the_k_nodes_a_ranking_picks_first() -> None:
    """ "the authors of the 3 longest books": the 3 books first, then every author of theirs (``Shape.staged``), where
    the question's number counts books (``asks.counts_kind``); "the top 3 authors by their books' pages" ranks the
    authors. ``limit_kind`` is 1 for a shape that limits another kind than the one the number counts."""
    pages = Property("Book", "pages", "number", 90.0, 900.0, (120, 480))
    profiles = Profiles(
        labels={"Book": LabelProfile("Book", "title", [pages]), "Author": LabelProfile("Author", "name", [])}
    )
    schema = GraphSchema(triples=[SchemaTriple("Author", "WROTE", "Book")])

    def tops(question: str) -> list[Shape]:
        lits = question_literals(question)
        lits.labels = ["Author", "Book"]
        shapes = ShapeEnumerator.base_shapes(schema, profiles, [], lits)
        return [s for s in shapes if s.kind == "top" and s.prop_var == 2 and s.fn == "DESC" and s.limit == 3]

    staged = tops("Who wrote the 3 books with the most pages?")
    assert [s.staged for s in staged] == [True]
    assert staged[0].text == (
        "MATCH (x1:Author)-[:WROTE]->(x2:Book) WHERE x2.pages IS NOT NULL WITH DISTINCT x2 ORDER BY x2.pages DESC "
        "LIMIT 3 MATCH (x1:Author)-[:WROTE]->(x2:Book) WHERE x2.pages IS NOT NULL RETURN DISTINCT x1.name AS name"
    )
    assert reading(staged[0], lexicon.load()) == "author wrote a book (author), of the 3 book with the highest pages"
    asked = shape_question(staged[0], random.Random(0), lexicon.load())  # tune's question for it
    assert "3 books" in asked and ("belong to" in asked or "of the top" in asked)
    assert [s.staged for s in tops("Who are the top 3 authors with the most book pages?")] == [False]
    lits = question_literals("Who wrote the 3 books with the most pages?")
    lits.labels = ["Author", "Book"]
    flat = replace(staged[0], staged=False)
    assert feature("limit_kind", flat, lits) == 1 and feature("limit_kind", staged[0], lits) == 0
    assert feature("counted", staged[0], lits) == 1  # ranked by the books' own pages, as "the most pages" asks
    group = Shape(WROTE, 1, "group", fn="DESC", other=2, limit=3)
    assert feature("limit_kind", group, lits) == 1  # the 3 authors with the most books: not the 3 books
    # "For the 3 books ..., list their authors": each book, what ranked it, and its authors
    fronted = answer_form(staged[0], question_literals("For the 3 books with the most pages, list their authors."))
    assert fronted.text.endswith("RETURN DISTINCT x2.title AS title, x2.pages AS pages, x1.name AS name")
    assert answer_form(staged[0], lits).text.endswith("RETURN DISTINCT x1.name AS name")


def test_the_answers_linked_to_the_k_nodes_with_the_most_of_a_kind() -> None:
    """ "the genres of the 3 books with the most comments": the 3 books with the most comments first, then their genres
    (a staged ``group``), the pattern going on from the books to the reviews the question names; "who reviewed the
    3 most reviewed books" counts the middle of (Reader)-[REVIEWED]->(Review)-[REVIEWS]->(Book). None where the
    question's number counts no books, nor by a count the books store."""
    labels = {
        "Book": LabelProfile("Book", "title", []),
        "Genre": LabelProfile("Genre", "name", []),
        "Comment": LabelProfile("Comment", "uuid", []),
        "Reader": LabelProfile("Reader", "name", []),
    }
    schema = GraphSchema(
        triples=[
            SchemaTriple("Book", "IN_GENRE", "Genre"),
            SchemaTriple("Comment", "COMMENTED_ON", "Book"),
            SchemaTriple("Reader", "COMMENTED", "Comment"),
        ]
    )

    def staged(question: str, profiles: Profiles) -> list[Shape]:
        lits = question_literals(question)
        lits.labels = list(labels)
        return [s for s in ShapeEnumerator.base_shapes(schema, profiles, [], lits) if s.is_staged and s.fn == "DESC"]

    plain = Profiles(labels=labels)
    assert question_literals("List the genres of the 3 books with the most comments.").ops == {}  # no "= 3"
    genres = [s for s in staged("List the genres of the 3 books with the most comments.", plain) if s.target == 1]
    texts = [s.text for s in genres]
    assert (
        "MATCH (x1:Genre)<-[:IN_GENRE]-(x2:Book)<-[:COMMENTED_ON]-(x3:Comment) WITH x2, count(DISTINCT x3) AS number "
        "ORDER BY number DESC LIMIT 3 MATCH (x1:Genre)<-[:IN_GENRE]-(x2:Book)<-[:COMMENTED_ON]-(x3:Comment) "
        "RETURN DISTINCT x1.name AS name"
    ) in texts
    shape = genres[texts.index(next(t for t in texts if "x1:Genre" in t))]
    assert reading(shape, lexicon.load()) == (
        "in genre of a book (genre), of the 3 book with the most comment: the highest number of comment"
    )
    readers = staged("Who commented on the 3 most commented books?", plain)
    assert any(
        s.text.startswith(
            "MATCH (x1:Reader)-[:COMMENTED]->(x2:Comment)-[:COMMENTED_ON]->(x3:Book) WITH x3, count(DISTINCT x2)"
        )
        for s in readers
    )
    assert answer_form(
        shape, question_literals("For the 3 books with the most comments, list their genres.")
    ).text.endswith(
        "WITH x2, count(DISTINCT x3) AS number ORDER BY number DESC LIMIT 3 MATCH (x1:Genre)<-[:IN_GENRE]-(x2:Book)"
        "<-[:COMMENTED_ON]-(x3:Comment) RETURN DISTINCT x2.title AS title, number, x1.name AS name"
    )
    assert answer_form(shape, question_literals("List the genres of the 3 books with the most comments.")) == shape
    assert staged("List the 3 genres with the most comments.", plain) == []  # the 3 count genres
    stored = Profiles(  # the books hold how many reviews each has
        labels=labels | {"Book": LabelProfile("Book", "title", [Property("Book", "comment_count", "number", 0.0, 9.0)])}
    )
    assert not any(
        "x1:Genre" in s.text for s in staged("List the genres of the 3 books with the most comments.", stored)
    )


def test_a_list_gives_the_properties_asked_beside_its_display_values() -> None:
    """ "what are the names and IPs of all switches in zone 4": each switch's IP (its display value) and its name;
    "which switches are in zone 4" shows nothing beside them."""
    name = Property("Switch", "name", "text", values=("s-1", "s-2"))
    zone = Property("Switch", "zone", "number", 1.0, 4.0)
    profiles = Profiles(labels={"Switch": LabelProfile("Switch", "ip", [name, zone])})
    switches = Shape(CandidateQuery(Anchor(None, "Switch", "ip"), ()), 1, "list", filters=(Filter(1, "zone", "=", 4),))
    both = answer_form(switches, question_literals("What are the names and IPs of all switches in zone 4?"), profiles)
    assert both.text == "MATCH (x1:Switch) WHERE x1.zone = 4 RETURN DISTINCT x1.ip AS name, x1.name AS name_value"
    plain = answer_form(switches, question_literals("Which switches are in zone 4?"), profiles)
    assert isinstance(plain, Shape) and plain.shown == ()
    pinned = answer_form(switches, question_literals("What are the IPs of all switches in zone 4 of DC1?"), profiles)
    assert isinstance(pinned, Shape) and pinned.shown == ()  # "zone 4 of": a value stated, not a property asked
    # a path's answers too: "the names and IPs of the switches in rack R1"
    profiles = Profiles(labels=profiles.labels | {"Rack": LabelProfile("Rack", "name", [])})
    held = CandidateQuery(Anchor("R1", "Rack", "name"), (Hop("HOLDS", "out", "Switch", "ip"),))
    both = answer_form(held, question_literals("What are the names and IPs of the switches in rack 'R1'?"), profiles)
    assert both.text == (
        'MATCH (x1:Rack {name: "R1"})-[:HOLDS]->(x2:Switch) RETURN DISTINCT x2.ip AS name, x2.name AS name_value'
    )
    assert answer_form(held, question_literals("What are the IPs of the switches in rack 'R1'?"), profiles) == held


def test_a_list_shows_the_kind_the_question_asks_beside_each_answer() -> None:
    """ "List all machines in rack R1 and their types": each machine and the type it is linked to (the pattern one
    hop longer), and the word "types" is no kind the list misses; a property of that name is shown instead, and a
    kind two relationship types link to the answers, or one the pattern holds, is not guessed."""
    profiles = Profiles(
        labels={
            "Rack": LabelProfile("Rack", "name", []),
            "Machine": LabelProfile("Machine", "name", []),
            "Type": LabelProfile("Type", "name", []),
        },
        links={("Rack", "HOLDS", "Machine"), ("Machine", "TYPE", "Type")},
    )
    held = Shape(CandidateQuery(Anchor("R1", "Rack", "name"), (Hop("HOLDS", "out", "Machine", "name"),)), 2, "list")
    q = "List all machines in rack 'R1' and their types."
    lits = question_literals(q)
    lits.labels = ["Rack", "Machine", "Type"]
    assert answer_form(held, lits, profiles).text == (
        'MATCH (x1:Rack {name: "R1"})-[:HOLDS]->(x2:Machine)-[:TYPE]->(x3:Type) '
        "RETURN DISTINCT x2.name AS name, x3.name AS name_value"
    )
    assert answer_form(held.path, lits, profiles).text == answer_form(held, lits, profiles).text  # a path too
    assert feature("label_missed", held, lits, q) == 0
    assert feature("label_missed", replace(held, kind="count"), lits, q) == 1  # a count shows nothing beside
    plain = answer_form(held, question_literals("List all machines in rack 'R1'."), profiles)
    assert isinstance(plain, Shape) and plain.path == held.path and not plain.shown
    typed = Profiles(  # the machines' own ``type``: that property, not the linked kind
        labels=profiles.labels | {"Machine": LabelProfile("Machine", "name", [Property("Machine", "type", "text")])},
        links=profiles.links,
    )
    shown = answer_form(held, question_literals("List the names of all machines in rack 'R1' and their types."), typed)
    assert isinstance(shown, Shape) and shown.shown == ((2, "type", False),)
    twice = Profiles(labels=profiles.labels, links={*profiles.links, ("Type", "FITS", "Machine")})
    guessed = answer_form(held, lits, twice)  # TYPE or FITS: a guess
    assert isinstance(guessed, Shape) and guessed.path == held.path and not guessed.shown
    racks = answer_form(held, question_literals("List all machines in rack 'R1' and their racks."), profiles)
    assert isinstance(racks, Shape) and racks.path == held.path and not racks.shown


def test_a_label_noun_in_the_plural_as_english_forms_it() -> None:
    """ "switches" and "categories" are the nouns of ``Switch`` and ``Category`` (the lexicon's ``plurals``);
    "tagged" only shares a stem with ``Tag``; the number in "the first 3 switches that route through interfaces"
    counts switches."""
    lits = question_literals("List the first 3 switches that route through interfaces.")
    assert is_label_noun("switches", "Switch", lits) and is_label_noun("categories", "Category", lits)
    assert is_label_noun("datacenters", "DataCenter", lits) and not is_label_noun("tagged", "Tag", lits)
    lits.labels = ["Switch", "Interface"]
    assert counts_kind(lits, 3, "Switch") and not counts_kind(lits, 3, "Interface")
    people = question_literals("Find the first 3 people who acted in a movie released in the 1990s.")
    people.labels = ["Person", "Movie"]
    assert counts_kind(people, 3, "Person") and not counts_kind(people, 3, "Movie")  # "people": lexicon irregular
    viewed = question_literals("List all tags of the top 3 most viewed questions.")
    viewed.labels = ["Tag", "Question"]
    assert counts_kind(viewed, 3, "Question")  # past the superlative
    actors = question_literals("What are the names of the top 3 oldest actors and the movies they have produced?")
    actors.labels = ["Person", "Movie"]
    assert not counts_kind(actors, 3, "Movie")  # "actors" is a doer's noun: the 3 count actors
    assert not counts_kind(question_literals("Who directed the oldest movie?"), 1, "Movie")  # no number
    recently = question_literals("Who answered the 3 most recently asked questions?")  # an adverb of time
    recently.labels = ["User", "Question"]
    assert recently.time_order == "DESC" and counts_kind(recently, 3, "Question")
    assert not any("recently" in w for w in lexicon.load().time_words["DESC"])  # read, never written in a reading


def test_a_property_of_the_top_k_asked_by_its_words_in_their_order() -> None:
    """ "what are the list prices of the 2 books with the most pages": the 2 books in that order, their list prices
    alone (as "the titles of ..." gives the titles); nothing of the kind where the question asks for the books."""
    pages = Property("Book", "pages", "number", 90.0, 900.0, (120, 480))
    price = Property("Book", "list_price", "number", 5.0, 80.0, (9.5, 25.0))
    profiles = Profiles(labels={"Book": LabelProfile("Book", "title", [pages, price])})
    longest = Shape(CandidateQuery(BOOK, ()), 1, "top", prop="pages", fn="DESC", limit=2)
    lits = question_literals("What are the list prices of the 2 books with the most pages?")
    asked = answer_form(longest, lits, profiles)
    assert asked.text == (
        "MATCH (x1:Book) WHERE x1.pages IS NOT NULL WITH DISTINCT x1 ORDER BY x1.pages DESC LIMIT 2 "
        "RETURN x1.list_price AS list_price"
    )
    books = answer_form(longest, question_literals("What are the 2 books with the most pages?"), profiles)
    assert books.text.endswith("RETURN DISTINCT x1 ORDER BY x1.pages DESC LIMIT 2")
    cpu = Property("Type", "cpu", "number", 2.0, 64.0, (4, 32))
    kind = Property("Type", "type", "text", values=("xl", "s"))
    types = Profiles(labels={"Type": LabelProfile("Type", "name", [cpu, kind])})
    biggest = Shape(CandidateQuery(Anchor(None, "Type", "name"), ()), 1, "top", prop="cpu", fn="DESC", limit=3)
    named = answer_form(biggest, question_literals("What are the top 3 types of machines by CPU?"), types)
    assert isinstance(named, Shape) and named.returns is None  # "types" names the label, not a type's ``type``
