"""A small airline graph none of the service's code names (session 48): a code that identifies an airport, flags
("international", ``lowCost``) said as adjectives, times of day as ISO text, a categorical value at the far end of a
linked entity's path or two hops from it, two kinds no relationship joins, "5 million", "the total amount"."""

from __future__ import annotations

from typing import Any

import pytest

from app.container import Container
from app.text2cypher.question import question_literals

NS = "airline_schema"
COUNTRIES = [("France", "Europe"), ("Japan", "Asia"), ("Spain", "Europe")]
CITIES = [
    ("Valmora", "France", 6_200_000),
    ("Brekston", "France", 900_000),
    ("Tovik", "Japan", 7_100_000),
    ("Sarento", "Spain", 450_000),
]
AIRPORTS = [  # name, code, city, international, elevation
    ("Valmora International", "VMX", "Valmora", True, 2024),
    ("Valmora Airfield", "VAF", "Valmora", False, 310),
    ("Brekston Regional", "BRK", "Brekston", True, 95),
    ("Tovik International", "TVK", "Tovik", True, 40),
    *((f"Sarento Field {i}", f"S{chr(65 + i)}{chr(90 - i)}", "Sarento", i % 2 == 0, 500 + 10 * i) for i in range(20)),
]
AIRLINES = [("Aurora Air", "France", False), ("Kestrel Jet", "France", True), ("Zephyr Lines", "Japan", True)]
STATUS = ["On time", "Delayed", "On time", "Cancelled"]
TIERS = ["Gold", "Silver", "Bronze"]
FIRST = ["Amara", "Bruno", "Celine", "Dario", "Elif", "Farah", "Goran", "Hana", "Imre", "Joelle", "Karim", "Leona"]


def script() -> str:
    lines = [f"CREATE (:Country {{countryName: '{c}', continent: '{k}'}});" for c, k in COUNTRIES]
    for city, country, pop in CITIES:
        lines.append(f"CREATE (:City {{cityName: '{city}', population: {pop}}});")
        lines.append(
            f"MATCH (a:City {{cityName: '{city}'}}), (b:Country {{countryName: '{country}'}}) "
            "CREATE (a)-[:LOCATED_IN]->(b);"
        )
    for name, code, city, intl, elev in AIRPORTS:
        lines.append(
            f"CREATE (:Airport {{airportName: '{name}', iataCode: '{code}', "
            f"international: {'true' if intl else 'false'}, elevationFt: {elev}}});"
        )
        lines.append(
            f"MATCH (a:Airport {{iataCode: '{code}'}}), (c:City {{cityName: '{city}'}}) CREATE (a)-[:SERVES]->(c);"
        )
    for name, country, low in AIRLINES:
        lines.append(f"CREATE (:Airline {{airlineName: '{name}', lowCost: {'true' if low else 'false'}}});")
        lines.append(
            f"MATCH (a:Airline {{airlineName: '{name}'}}), (c:Country {{countryName: '{country}'}}) "
            "CREATE (a)-[:HEADQUARTERED_IN]->(c);"
        )
    for i in range(24):
        airline, (_, code, *_rest) = AIRLINES[i % 3][0], AIRPORTS[i % len(AIRPORTS)]
        number = f"{airline[:2].upper()}{100 + i}"
        lines.append(
            f"CREATE (:Flight {{flightNumber: '{number}', status: '{STATUS[i % 4]}', "
            f"departureTime: '{2024 + i % 2}-0{1 + i % 9}-1{i % 10}T08:30:00'}});"
        )
        lines.append(
            f"MATCH (a:Airline {{airlineName: '{airline}'}}), (f:Flight {{flightNumber: '{number}'}}) "
            "CREATE (a)-[:OPERATES]->(f);"
        )
        lines.append(
            f"MATCH (f:Flight {{flightNumber: '{number}'}}), (a:Airport {{iataCode: '{code}'}}) "
            "CREATE (f)-[:DEPARTS_FROM]->(a);"
        )
    for i in range(12):
        lines.append(f"CREATE (:Passenger {{fullName: '{FIRST[i]} Lind', loyaltyTier: '{TIERS[i % 3]}'}});")
        for j in range(3):
            k = (i * 3 + j) % 24
            number = f"{AIRLINES[k % 3][0][:2].upper()}{100 + k}"
            lines.append(
                f"MATCH (p:Passenger {{fullName: '{FIRST[i]} Lind'}}), (f:Flight {{flightNumber: '{number}'}}) "
                f"CREATE (p)-[:BOOKED {{price: {100 + 10 * i + j}.5}}]->(f);"
            )
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
async def airline(container: Container) -> Container:
    await container.ingestor.ingest_cypher(NS, script())
    return container


async def best(c: Container, question: str) -> tuple[Any, list[dict[str, Any]]]:
    """The top-ranked candidate of ``question`` and its rows."""
    t2c: Any = c.retrievers["text2cypher"]
    e = await t2c.enumerate(NS, question)
    scores = t2c.scores(e)
    top = e.candidates[max(range(len(scores)), key=scores.__getitem__)]
    rows = await c.graph.read(NS, top.execution_query(), {"limit": 1000})
    return top, [{k: v for k, v in r.items() if k != "labels"} for r in rows]  # a path's answers carry their labels


async def gold(c: Container, cypher: str) -> set[Any]:
    return {next(iter(r.values())) for r in await c.graph.read(NS, cypher)}


async def test_a_text_id_a_question_names_links_to_its_node(airline: Container) -> None:
    """The airport's ``iataCode`` is its id (a code, each node its own): "the airport with IATA code BRK" names the
    node, which the question's query anchors at and names by its display value."""
    profile = await airline.profiler.get(NS)
    assert profile.labels["Airport"].id == "iataCode" and profile.labels["Airport"].display == "airportName"
    links = await airline.deps.linker.link(NS, "Which city is served by the airport with IATA code BRK?")
    assert ("BRK", ["Airport"], "iataCode") in [(x.name, x.labels, x.key) for x in links]
    top, rows = await best(airline, "Which city is served by the airport with IATA code BRK?")
    assert '{iataCode: "BRK"}' in top.text
    assert {v for r in rows for v in r.values()} == {"Brekston"}


async def test_a_flag_said_before_its_kind_is_a_condition_on_it(airline: Container) -> None:
    """ "Which international airports are there in France?": the airports two hops from France that are
    international, not their ``international`` values; likewise "which low-cost airlines are headquartered in
    France"."""
    top, rows = await best(airline, "Which international airports are there in France?")
    assert "x3.international = true" in top.text
    assert {v for r in rows for v in r.values()} == {"Valmora International", "Brekston Regional"}
    top, rows = await best(airline, "Which low-cost airlines are headquartered in France?")
    assert "lowCost = true" in top.text
    assert {v for r in rows for v in r.values()} == {"Kestrel Jet"}


async def test_a_year_of_a_time_held_as_text_is_one_constant(airline: Container) -> None:
    """ "How many flights departed in 2024?": the year of the flights' ISO times, once; not also a condition that an
    airport's elevation is 2024 (a number the question states once counts once)."""
    top, rows = await best(airline, "How many flights departed in 2024?")
    assert 'departureTime STARTS WITH "2024"' in top.text and "elevationFt" not in top.text
    assert rows[0]["number"] == 12


async def test_the_nodes_of_a_value_another_entity_pins_are_named_by_their_display_value(airline: Container) -> None:
    """A categorical value at the far end of the path from a linked entity ("which flights of Aurora Air were
    delayed") returns the flights' numbers, not the value itself; one two hops from the entity ("which passengers
    with Gold status booked flights of Aurora Air") lists the passengers."""
    top, rows = await best(airline, "Which flights of Aurora Air were delayed?")
    assert "x2.status" not in top.text
    want = await gold(
        airline,
        "MATCH (:Airline {airlineName: 'Aurora Air'})-[:OPERATES]->(f:Flight {status: 'Delayed'}) "
        "RETURN f.flightNumber",
    )
    assert want and {v for r in rows for v in r.values()} == want
    _, rows = await best(airline, "Which passengers with Gold status booked flights of Aurora Air?")
    want = await gold(
        airline,
        "MATCH (p:Passenger {loyaltyTier: 'Gold'})-[:BOOKED]->(:Flight)<-[:OPERATES]-"
        "(:Airline {airlineName: 'Aurora Air'}) RETURN DISTINCT p.fullName",
    )
    assert want and {v for r in rows for v in r.values()} == want


async def test_two_kinds_no_relationship_joins_are_counted_through_the_kind_between(airline: Container) -> None:
    """ "Which country has the most airports?": Country and Airport are joined only through City (or an airline's
    country), with no word for either relationship."""
    t2c: Any = airline.retrievers["text2cypher"]
    e = await t2c.enumerate(NS, "Which country has the most airports?")
    texts = [c.text for c in e.candidates]
    assert any(t.startswith("MATCH (x1:Country)<-[:LOCATED_IN]-(x2:City)<-[:SERVES]-(x3:Airport)") for t in texts)


async def test_scaled_numbers_totals_and_counts_of_another_kind(airline: Container) -> None:
    """ "more than 5 million" is 5000000, "145,000" 145000; "the total amount X paid" a sum; "how many cities are
    there on each continent" counts cities for each continent, not how many continents there are."""
    assert 5_000_000.0 in question_literals("Which cities have a population of more than 5 million?").numbers
    assert 2_500_000_000.0 in question_literals("Which have more than 2.5 billion?").numbers
    # digits grouped by commas are one number; numbers a comma and a space list are two
    assert question_literals("Which employees earn more than 145,000?").numbers == [145_000.0]
    assert question_literals("Which earn between 1,000 and 2,000,000.5?").ranges == [(1000.0, 2_000_000.5)]
    assert question_literals("Which ports are 80, 443 or 8080?").numbers == [80.0, 443.0, 8080.0]
    # a property whose key says the scale ("budgetMillions") holds the number said (``conditions``)
    assert question_literals("Which clubs have a budget of less than 20 million?").scaled == {2e7: (20.0, "million")}
    top, rows = await best(airline, "Which cities have a population of more than 5 million?")
    assert {v for r in rows for v in r.values()} == {"Valmora", "Tovik"}
    top, rows = await best(airline, "What is the total amount Elif Lind has paid for bookings?")
    assert "sum(r1.price)" in top.text and rows[0]["value"] == pytest.approx(3 * 140.5 + 3)
    top, rows = await best(airline, "How many cities are there on each continent?")
    assert {(r["continent"], r["number"]) for r in rows} == {("Europe", 3), ("Asia", 1)}


async def test_an_element_of_a_list_of_kinds_said_without_quotes_is_a_condition(container: Container) -> None:
    """Pilots hold lists of ratings (few kinds, each held by many): "which pilots hold the Seaplane rating" is the
    pilots whose list holds ``Seaplane``; a number inside such a list is no kind (``profile.list_values``)."""
    ns, kinds = "pilot_lists", ["Instrument", "Multi-engine", "Seaplane", "Night"]
    lines = [
        f"CREATE (:Pilot {{pilotName: 'Pilot {FIRST[i % 12]} {i}', ratings: {[kinds[i % 4], kinds[(i + 1) % 4]]!r}, "
        f"hours: {1000 + 37 * i}}});"
        for i in range(24)
    ]
    await container.ingestor.ingest_cypher(ns, "\n".join(lines) + "\n")
    t2c: Any = container.retrievers["text2cypher"]
    e = await t2c.enumerate(ns, "Which pilots hold the Seaplane rating?")
    assert "Seaplane" in e.lits.values
    scores = t2c.scores(e)
    top = e.candidates[max(range(len(scores)), key=scores.__getitem__)]
    assert '"Seaplane" IN x1.ratings' in top.text
    rows = await container.graph.read(ns, top.execution_query(), {"limit": 100})
    assert len(rows) == 12
