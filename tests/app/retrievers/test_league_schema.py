"""A small league graph none of the service's code names: the nodes a categorical value names, as a question says
it (a common noun in lower case and in the plural, "which goalkeepers ..."; a place by its adjective, "Brazilian
players"), pinned by another entity the question names ("... play for Ashford United"); counts for each of the
nodes between a named entity and what is counted; "first" after a verb as the earliest."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from app.container import Container

NS = "league_schema"
CLUBS = ["Ashford United", "Marlow Wanderers", "Fenwick Rangers"]
POSITIONS = ["Goalkeeper", "Defender", "Midfielder", "Forward"]
COUNTRIES = ["Brazil", "Japan", "Spain"]
FIRST = ["Luca", "Mateo", "Jonas", "Emil", "Tariq", "Kenji", "Diego", "Pavel", "Omar", "Felix", "Hugo", "Bruno"]


def script() -> str:
    lines = [f"CREATE (:Club {{clubName: '{c}', foundedYear: {1880 + 17 * i}}});" for i, c in enumerate(CLUBS)]
    lines.append("CREATE (:League {leagueName: 'Highland Cup'});")
    lines += [f"MATCH (c:Club {{clubName: '{c}'}}), (l:League) CREATE (c)-[:COMPETES_IN]->(l);" for c in CLUBS[:2]]
    for i, club in enumerate(CLUBS):
        for j in range(12):
            name = f"{FIRST[j]} {club.split()[0]}son"
            lines.append(
                f"CREATE (:Player {{fullName: '{name}', position: '{POSITIONS[j % 4]}', "
                f"nationality: '{COUNTRIES[j % 3]}', goals: {(i * 12 + j) % 9}}});"
            )
            lines.append(
                f"MATCH (p:Player {{fullName: '{name}'}}), (c:Club {{clubName: '{club}'}}) "
                "CREATE (p)-[:PLAYS_FOR]->(c);"
            )
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
async def league(container: Container) -> Container:
    await container.ingestor.ingest_cypher(NS, script())
    return container


@pytest.mark.parametrize(
    ("question", "value", "key", "reading"),
    [
        # "goalkeepers" is the value Goalkeeper in the plural and in lower case (and shares no more than a stem
        # with the property key ``goals``)
        ("Which goalkeepers play for Ashford United?", "Goalkeeper", "position", "player with position Goalkeeper"),
        ("Which Brazilian players play for Ashford United?", "Brazil", "nationality", "player with nationality Brazil"),
    ],
)
async def test_a_word_names_the_nodes_of_a_categorical_value_another_entity_pins(
    league: Container, client: httpx.AsyncClient, question: str, value: str, key: str, reading: str
) -> None:
    profile = await league.profiler.get(NS)
    assert sorted(profile.labels["Player"].categorical) == ["nationality", "position"]
    links = await league.deps.linker.link(NS, question)
    assert (value, ["Player"], key) in [(x.name, x.labels, x.key) for x in links]
    t2c: Any = league.retrievers["text2cypher"]
    e = await t2c.enumerate(NS, question)
    wanted = (
        f'MATCH (x1:Player {{{key}: "{value}"}})-[:PLAYS_FOR]->(x2:Club {{clubName: "Ashford United"}}) '
        "RETURN DISTINCT x1.fullName AS name"
    )
    texts = [c.text for c in e.candidates]
    assert wanted in texts
    assert e.readings[texts.index(wanted)] == f"{reading} plays for Ashford United (player)"
    r = await client.post("/retrieve", json={"question": question, "namespace": NS, "mode": "text2cypher"})
    assert r.status_code == 200, r.text
    gold = await league.graph.read(
        NS,
        f"MATCH (p:Player {{{key}: '{value}'}})-[:PLAYS_FOR]->(:Club {{clubName: 'Ashford United'}}) "
        "RETURN p.fullName AS n",
    )
    got = {v for row in r.json()["trace"]["rows"] for v in row.values()}
    assert got == {g["n"] for g in gold} and len(gold) in (3, 4)


async def test_a_word_that_is_no_form_of_a_value_links_none(league: Container) -> None:
    """Neither a stem a value shares ("keepers") nor a place the graph does not hold ("Swedish") is a value."""
    for question in ("Which keepers play for Ashford United?", "Which Swedish players play for Ashford United?"):
        assert [x.name for x in await league.deps.linker.link(NS, question)] == ["Ashford United"]


async def test_a_count_for_each_node_between_the_entity_and_what_is_counted(league: Container) -> None:
    """ "How many players does each club in the Highland Cup have?": the clubs of that league, each with how many
    players it has, not one count of them all; read as "each club ...", not as the path to the players."""
    t2c: Any = league.retrievers["text2cypher"]
    e = await t2c.enumerate(NS, "How many players does each club in the Highland Cup have?")
    wanted = (
        'MATCH (x1:League {leagueName: "Highland Cup"})<-[:COMPETES_IN]-(x2:Club)<-[:PLAYS_FOR]-(x3:Player) '
        "RETURN x2.clubName AS name, count(DISTINCT x3) AS number ORDER BY number DESC"
    )
    texts = [c.text for c in e.candidates]
    assert wanted in texts
    assert e.readings[texts.index(wanted)] == "each club competes in Highland Cup (club) with its number of player"
    scores = t2c.scores(e)
    assert max(range(len(texts)), key=scores.__getitem__) == texts.index(wanted)
    rows = await league.graph.read(NS, wanted)
    assert {(r["name"], r["number"]) for r in rows} == {(c, 12) for c in CLUBS[:2]}


async def test_first_after_a_verb_in_the_past_asks_for_the_earliest(league: Container) -> None:
    t2c: Any = league.retrievers["text2cypher"]
    e = await t2c.enumerate(NS, "Which club was founded first?")
    assert e.lits.time_order == "ASC" and e.lits.superlative
    scores = t2c.scores(e)
    best = e.candidates[max(range(len(scores)), key=scores.__getitem__)]
    assert [r["name"] for r in await league.graph.read(NS, best.execution_query())] == [CLUBS[0]]
    assert (await t2c.enumerate(NS, "List the first 2 clubs")).lits.time_order is None  # a limit, no time
    assert (await t2c.enumerate(NS, "Which player joined last?")).lits.time_order == "DESC"


async def test_how_many_of_a_number_the_answers_hold_reads_the_number(league: Container) -> None:
    """ "How many goals has X scored?" where players hold ``goals``: the number, not a count of anything nor of how
    many different values it takes; "how many different goal counts" still counts those."""
    t2c: Any = league.retrievers["text2cypher"]
    player = f"{FIRST[4]} {CLUBS[1].split()[0]}son"
    e = await t2c.enumerate(NS, f"How many goals has {player} scored?")
    scores = t2c.scores(e)
    best = e.candidates[max(range(len(scores)), key=scores.__getitem__)]
    assert best.text == f'MATCH (x1:Player {{fullName: "{player}"}}) RETURN DISTINCT x1.goals AS goals'
    assert not any("count(DISTINCT x1.goals)" in c.text for c in e.candidates)
    e = await t2c.enumerate(NS, f"How many different goals values do the players of {CLUBS[1]} have?")
    assert any("count(DISTINCT x2.goals)" in c.text for c in e.candidates)
