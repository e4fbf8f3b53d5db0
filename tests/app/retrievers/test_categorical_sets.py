"""The nodes a categorical value names, as a question says it: a common noun in lower case and in the plural
("which goalkeepers ..."), a place by its adjective ("Brazilian players"), pinned by another entity the question
names ("... play for Ashford United")."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from app.container import Container

NS = "categorical_sets"
CLUBS = ["Ashford United", "Marlow Wanderers", "Fenwick Rangers"]
POSITIONS = ["Goalkeeper", "Defender", "Midfielder", "Forward"]
COUNTRIES = ["Brazil", "Japan", "Spain"]
FIRST = ["Luca", "Mateo", "Jonas", "Emil", "Tariq", "Kenji", "Diego", "Pavel", "Omar", "Felix", "Hugo", "Bruno"]


def script() -> str:
    lines = [f"CREATE (:Club {{clubName: '{c}', foundedYear: {1880 + 17 * i}}});" for i, c in enumerate(CLUBS)]
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
