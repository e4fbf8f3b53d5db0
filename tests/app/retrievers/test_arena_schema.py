"""What ``data/arena`` (session 57; an online-gaming graph, measured first with that session's code) showed: "above
level 70" compares the level, though the property's word stands between the comparison and the number; "the members
of X" name ``MEMBER_OF``, not a role "member" on it; "which players from APAC are members of a guild" asks for the
players a value names that have such a relationship, read with it; rivals are rivals both ways."""

from __future__ import annotations

from typing import ClassVar

from app.cypher.candidates import Anchor, CandidateQuery, Hop
from app.cypher.shapes import Filter, Shape
from app.text2cypher import features
from app.text2cypher.asks import stated_values
from app.text2cypher.lexicon import load
from app.text2cypher.measures import either_way, holding
from app.text2cypher.profiles import Profiles
from app.text2cypher.question import question_literals
from app.text2cypher.reading import reading


def test_a_comparison_before_the_property_word_compares_its_number() -> None:
    assert question_literals("Which players are above level 70?").ops == {70.0: ">"}
    assert question_literals("Which players below level 10 own items?").ops == {10.0: "<"}
    assert question_literals("Which racks are in zone 4?").ops == {4.0: "="}  # the value of what the word names
    assert question_literals("Which processes listen on port 80?").value_words == {80.0: "port"}


def test_the_word_for_a_relationship_is_no_value_of_it() -> None:
    profiles = Profiles(values={("MEMBER_OF", "role"): ["leader", "officer", "member"]})
    for question, want in [
        ("Who are the members of Iron Lotus?", []),
        ("Which players from APAC are members of a guild?", []),
        ("List the officers of Iron Lotus.", ["officer"]),  # a value no word for the relationship says
    ]:
        lits = question_literals(question)
        stated_values(lits, profiles)
        assert lits.values == want, question


def test_the_nodes_a_value_names_that_have_a_relationship_read_with_it() -> None:
    apac = Anchor("APAC", "Player", "region", display="gamertag")
    held = Shape(CandidateQuery(apac, (Hop("MEMBER_OF", "out", "Guild", "guildName"),)), 1, "list")
    assert "RETURN DISTINCT x1.gamertag" in held.text
    assert reading(held, load()) == "player with region APAC member of a guild (player)"


def test_only_a_word_that_names_no_label_asks_for_the_nodes_that_have_the_relationship() -> None:
    class Shared:
        """Profiles of a graph of players, guilds, hikers and trails whose every linked value is shared."""

        labels: ClassVar[dict[str, None]] = {"Player": None, "Guild": None, "Hiker": None, "Trail": None}

        def shared(self, anchor: Anchor) -> bool:
            return True

    def lists(anchor: Anchor, rel: str, label: str, question: str) -> set[int]:
        path = CandidateQuery(anchor, (Hop(rel, "out", label, "name"),))
        return {s.target for s in holding(path, Shared(), question_literals(question))}  # type: ignore[arg-type]

    apac = Anchor("APAC", "Player", "region", display="gamertag")
    assert lists(apac, "MEMBER_OF", "Guild", "Which players from APAC are members of a guild?") == {1}
    kiwi = Anchor("New Zealand", "Hiker", "home_country", display="username")
    assert lists(kiwi, "HIKED", "Trail", "Which hikers are from New Zealand?") == set()  # "hikers": the kind


def test_rivals_are_rivals_both_ways() -> None:
    (hop,) = either_way([Hop("RIVAL_OF", "out", "Guild", "guildName")], "Guild", load())
    assert hop.direction == "both"


def _row(c: CandidateQuery | Shape, question: str) -> dict[str, float]:
    lits = question_literals(question)
    lits.labels = ["Player", "Match", "Game"]
    return features.compute([c], question, lits)[0]


MATCH = Anchor("MT-1", "Match", "matchId")
PLAYED = CandidateQuery(MATCH, (Hop("PLAYED_IN", "in", "Player", "gamertag"),))


def test_who_won_asks_for_the_players_whose_flag_the_verb_names() -> None:
    """(Session 58.) "Who won match X": the players whose ``PLAYED_IN`` has ``won`` true, not whether each won."""
    q = "Who won match MT-1?"
    winners = Shape(PLAYED, 2, "list", filters=(Filter(1, "won", "=", True, edge=True),))
    flags = Shape(PLAYED, 2, "attr", prop="won", prop_on=1)
    assert (_row(winners, q)["answer_kind"], _row(flags, q)["answer_kind"]) == (1.0, -1.0)
    assert _row(Shape(PLAYED, 2, "list"), q)["answer_kind"] == -1.0  # every player of the match
    assert _row(flags, "Who won match MT-1 and their scores?")["answer_kind"] != -1.0  # asks for more
    # a node's text may be a name: "who is the CEO of X" may ask for a property of X
    ceo = Shape(CandidateQuery(Anchor("Acme", "Company", "companyName"), ()), 1, "attr", prop="ceo")
    assert _row(ceo, "Who is the CEO of Acme?")["answer_kind"] != -1.0


def test_a_count_for_each_counts_what_its_head_word_names_and_played_names_no_players() -> None:
    """(Session 58.) "How many matches were played of each game": each game with its matches, not its players; the
    verb "played" names the act, not the ``Player`` nodes ("players" names them)."""
    game = Anchor(None, "Game", "title")
    matches = CandidateQuery(game, (Hop("OF_GAME", "in", "Match", "matchId"),))
    players = CandidateQuery(game, (*matches.hops, Hop("PLAYED_IN", "in", "Player", "gamertag")))
    q = "How many matches were played of each game?"
    by_matches, by_players = (
        Shape(matches, 1, "group", fn="DESC", other=2),
        Shape(players, 1, "group", fn="DESC", other=3),
    )
    assert (_row(by_matches, q)["counted"], _row(by_players, q)["counted"]) == (1.0, 0.0)
    assert _row(by_matches, q)["label_missed"] == 0.0
    assert _row(by_matches, "How many players played in each game?")["label_missed"] == 1.0
