"""Best-Cypher synthesis (GraphRAFT step 5a): the best executing candidate, and how ties are broken."""

from __future__ import annotations

import asyncio

from app.cypher.candidates import Anchor, CandidateQuery, Hop
from app.eval.loaders import EvalQuestion
from app.retrievers.text2cypher import Text2CypherRetriever
from app.training.synth import best_query, tie_key
from tests.conftest import SABLE


async def test_synthesis_keeps_the_best_executing_candidate(t2c: Text2CypherRetriever) -> None:
    q = EvalQuestion("x", "Which manufacturer built the Sable Class?", ["Ossendale Engine Works"], meta={"hops": 1})
    rec = await best_query(t2c, "demo", q, asyncio.Semaphore(2))
    assert rec is not None
    assert (rec["cypher"], rec["hits"], rec["total"], rec["exact"]) == (SABLE, 1, 1, True)
    nothing = EvalQuestion("y", "Which manufacturer built the Sable Class?", ["Nobody"], meta={"hops": 1})
    assert await best_query(t2c, "demo", nothing, asyncio.Semaphore(2)) is None


def test_synthesis_ties_prefer_the_relation_the_question_names() -> None:
    """Candidates with the same results (a film's director who also wrote it, a 1-hop query that happens to return
    what the 3-hop one does): the tie goes to the one whose relationships the question's words name, in the order
    they are named from the entity outwards."""
    film = Anchor("Zelig", "Movie")
    w, w_in, d, d_in = (
        Hop("WRITTEN_BY", "out", "Person"),
        Hop("WRITTEN_BY", "in", "Movie"),
        Hop("DIRECTED_BY", "out", "Person"),
        Hop("DIRECTED_BY", "in", "Movie"),
    )
    genre, year = Hop("HAS_GENRE", "out", "Genre"), Hop("RELEASE_YEAR", "out", "Year")

    def best(question: str, *paths: tuple[Hop, ...]) -> tuple[Hop, ...]:
        return max(paths, key=lambda hops: tie_key(question, CandidateQuery(film, hops)))

    assert best("who is the writer of Zelig", (d,), (w,)) == (w,)
    assert best("who directed Zelig", (w,), (d,)) == (d,)
    assert best("who wrote Zelig", (d,), (w, w_in, w), (w,)) == (w,)  # a loop naming the same relation loses
    genre_of = "what is the genre of the movie Written on the Wind"  # the entity's own words name nothing
    assert max(
        [(w, w_in, genre), (genre,)],
        key=lambda h: tie_key(genre_of, CandidateQuery(Anchor("Written on the Wind", "Movie"), h)),
    ) == (genre,)
    # every hop named beats one unnamed hop, though both name "writ"
    q = "the films that share screenwriters with Zelig were released in which years"
    assert best(q, (d, w_in, year), (w, w_in, year)) == (w, w_in, year)
    # a 1-hop query returning the same genres loses to the path the question describes
    q = "what types are the movies directed by the director of Zelig"
    assert best(q, (genre,), (d, d_in, genre)) == (d, d_in, genre)
    # both name "writ" and "dire" on every hop: the hop named next to the entity comes first
    for q in (
        "who directed the films written by the writer of Zelig",
        "the movies written by the screenwriter of Zelig were directed by who",
    ):
        assert best(q, (d, w_in, d), (w, w_in, d)) == (w, w_in, d)
