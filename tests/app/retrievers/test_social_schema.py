"""A small social graph none of the service's code names (what ``data/social`` showed, session 52): members named
by a ``fullName`` and a ``handle``, posts by a ``postId`` with a ``postedAt`` date, a relationship from members to
members, and a ``role`` on members' relationships to communities whose values include "member". A label's own word
names the label, not a relationship's value; "by X" says X does what the path's first relationship says; a verb's
relationship reads "post that X wrote"; a post's ``postedAt`` is not what "posts" names; the answers of the kind a
question names its entity of by a handle are handles; and the display value of that entity is an attribute."""

from __future__ import annotations

import httpx
import pytest

from app.container import Container
from app.cypher.candidates import Anchor, CandidateQuery, Hop
from app.text2cypher import features
from app.text2cypher.question import question_literals
from app.text2cypher.reading import acts, read_path
from tests.app.retrievers.asking import ask, values

NS = "social_schema"
MEMBERS = [  # handle, full name, verified
    ("ana_k", "Ana Kovac", True),
    ("ben77", "Ben Haugen", False),
    ("cruzca", "Carla Cruz", True),
    ("dev_o", "Devi Otieno", False),
    ("eli42", "Eli Tanaka", True),
]
POSTS = [  # id, author, views, mentions
    ("P-1", "ana_k", 900, "ben77"),
    ("P-2", "ana_k", 120, None),
    ("P-3", "ana_k", 700, None),
    ("P-4", "ben77", 950, "ana_k"),
    ("P-5", "cruzca", 880, "ana_k"),
    ("P-6", "dev_o", 40, "ana_k"),
]
FOLLOWS = [("ben77", "ana_k"), ("cruzca", "ana_k"), ("eli42", "ana_k"), ("ana_k", "dev_o")]
COMMUNITIES = ["Trail Seekers", "Blue Note Circle"]
ROLES = ["admin", "member", "moderator", "member", "member"]


def script() -> str:
    lines = [f"CREATE (:Member {{handle: '{h}', fullName: '{n}', verified: {str(v).lower()}}});" for h, n, v in MEMBERS]
    lines += [f"CREATE (:Community {{communityName: '{c}', founded: {2016 + i}}});" for i, c in enumerate(COMMUNITIES)]
    for pid, author, views, mention in POSTS:
        lines.append(f"CREATE (:Post {{postId: '{pid}', views: {views}, postedAt: '2023-0{pid[-1]}-01'}});")
        lines.append(f"MATCH (m:Member {{handle: '{author}'}}), (p:Post {{postId: '{pid}'}}) CREATE (m)-[:WROTE]->(p);")
        if mention:
            lines.append(
                f"MATCH (m:Member {{handle: '{mention}'}}), (p:Post {{postId: '{pid}'}}) CREATE (p)-[:MENTIONS]->(m);"
            )
    for a, b in FOLLOWS:
        lines.append(f"MATCH (a:Member {{handle: '{a}'}}), (b:Member {{handle: '{b}'}}) CREATE (a)-[:FOLLOWS]->(b);")
    for i, c in enumerate(COMMUNITIES):
        for j, (h, _, _) in enumerate(MEMBERS):
            lines.append(
                f"MATCH (m:Member {{handle: '{h}'}}), (c:Community {{communityName: '{c}'}}) "
                f"CREATE (m)-[:JOINED {{role: '{ROLES[(i + j) % len(ROLES)]}'}}]->(c);"
            )
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
async def social(container: Container) -> Container:
    await container.ingestor.ingest_cypher(NS, script())
    return container


async def test_a_labels_own_word_names_the_label_not_a_value_of_a_relationship(
    social: Container, client: httpx.AsyncClient
) -> None:
    """ "members" names ``Member``, not the members whose ``role`` on ``JOINED`` is "member"; "moderators" still
    names that value."""
    assert [x.name for x in await social.deps.linker.link(NS, "How many verified members are there?")] == []
    trace = await ask(client, NS, "How many verified members are there?")
    assert "role" not in trace["query"] and values(trace) == [3]
    trace = await ask(client, NS, "Which members are moderators of Trail Seekers?")
    assert '"moderator"' in trace["query"]


async def test_by_names_who_does_what_the_path_says(social: Container, client: httpx.AsyncClient) -> None:
    """ "posts by ana_k" are those ana_k wrote, not those that mention her; the path with the condition on views is
    among the paths the shapes grow from because the ranker's features, not only relevance, choose them."""
    trace = await ask(client, NS, "Which posts by ana_k have more than 500 views?")
    assert "WROTE" in trace["query"] and "MENTIONS" not in trace["query"]
    assert sorted(values(trace)) == ["P-1", "P-3"]


async def test_posts_names_the_posts_not_their_posting_dates(social: Container, client: httpx.AsyncClient) -> None:
    trace = await ask(client, NS, "Which posts did ana_k write?")
    assert "postedAt" not in trace["query"] and sorted(values(trace)) == ["P-1", "P-2", "P-3"]


async def test_answers_are_named_as_the_question_names_its_entity(social: Container, client: httpx.AsyncClient) -> None:
    """The question names a member by the handle (the display property is ``fullName``): the members it asks for are
    handles too; and the full name of a member it names by the handle is an attribute of that member."""
    profile = await social.profiler.get(NS)
    assert profile.labels["Member"].display == "fullName"
    trace = await ask(client, NS, "Who follows ana_k?")
    assert sorted(values(trace)) == ["ben77", "cruzca", "eli42"]
    trace = await ask(client, NS, "What is the full name of cruzca?")
    assert values(trace) == ["Carla Cruz"]


def test_a_verbs_relationship_reads_as_what_its_start_did() -> None:
    assert acts("WROTE") and acts("ACTED_IN") and acts("DEPENDS_ON")
    assert not acts("HAS_GENRE") and not acts("PLACE_OF_BIRTH") and not acts("DIRECTED_BY") and not acts("REPLY_TO")
    assert not acts("BORN_IN") and not acts("LOCATED_IN")  # a participle that is no past tense; a state (lexicon)
    hops = [("WROTE", "out", "post"), ("LIKED", "in", "member")]
    assert read_path("ana_k", hops) == ["ana_k", "post that ana_k wrote", "member liked post that ana_k wrote"]
    assert read_path("X", [("HAS_GENRE", "out", "genre")])[-1] == "has genre of X"


def test_agent_by_reads_which_end_does_it() -> None:
    q = "Which posts by ana_k have more than 500 views?"
    lits = question_literals(q)
    a = Anchor("ana_k", "Member", "handle")
    wrote = CandidateQuery(a, (Hop("WROTE", "out", "Post", "postId"),))
    mentioned = CandidateQuery(a, (Hop("MENTIONS", "in", "Post", "postId"),))
    authored = CandidateQuery(a, (Hop("AUTHOR", "in", "Post", "postId"),))  # a noun's: no say
    rows = features.compute([wrote, mentioned, authored], q, lits)
    assert [r["agent_by"] for r in rows] == [1.0, -1.0, 0.0]
    directed = CandidateQuery(Anchor("X", "Person", "name"), (Hop("DIRECTED_BY", "in", "Movie", "title"),))
    assert (
        features.compute([directed], "movies directed by X", question_literals("movies directed by X"))[0]["agent_by"]
        == 1.0
    )
    assert (
        features.compute([wrote], "posts that mention ana_k", question_literals("posts that mention ana_k"))[0][
            "agent_by"
        ]
        == 0.0
    )


def test_which_city_names_what_a_nouns_relationship_points_to() -> None:
    """ "Which city is X's club in": the node ``HOME_CITY`` points to is a city, so a path that goes on past it to the
    clubs with that home city answers something else (-1); on "where was the spouse of X born" the word "spouse"
    is what the question starts from, not what it asks for (no ``wh_kind``)."""
    q = "Which city is the club of Ana Brisk in?"
    lits = question_literals(q)
    assert lits.wh_kind == "city"
    club = CandidateQuery(Anchor("Ana_Brisk", "Entity", "name"), (Hop("PLAYS_FOR", "out", "", "name"),))
    past = CandidateQuery(
        club.anchor, (*club.hops, Hop("HOME_CITY", "out", "", "name"), Hop("HOME_CITY", "in", "", "name"))
    )
    assert features.compute([past], q, lits)[0]["answer_kind"] == -1.0
    assert question_literals("Where was the spouse of Ana Brisk born?").wh_kind is None
