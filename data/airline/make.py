"""A small airline graph of a schema none of the service's code was written against (session 48): countries with a
``continent``, cities with a ``population``, airports named by ``airportName`` with an ``iataCode``, a boolean
``international`` and an ``openedOn`` date as text; airlines with an ``icaoCode``, a ``foundedYear``, a boolean
``lowCost`` and an ``alliance`` some lack; aircraft types named by their ``model``; flights named by a code
(``flightNumber``) with a ``departureTime`` as ISO text, a ``status`` and a duration; passengers with a ``passportNo``,
a ``loyaltyTier`` and a ``birthDate``; fares, classes and booking dates on ``BOOKED``, distances on ``ROUTE_TO``
between airports. 55 questions with gold Cypher written by hand before the service was run on it, in the phrasings
and return forms of the public text2cypher sets (display values, the measure beside a ranking).

``python data/airline/make.py`` writes ``airline.cypher`` and ``questions.jsonl`` here (``make eval-own``). The
project's own data, not a public benchmark."""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from own_graph import q, write  # noqa: E402

HERE = Path(__file__).resolve().parent
rng = random.Random(31)


COUNTRIES = [
    ("Germany", "Europe"),
    ("France", "Europe"),
    ("Spain", "Europe"),
    ("Norway", "Europe"),
    ("Japan", "Asia"),
    ("India", "Asia"),
    ("Brazil", "South America"),
    ("Mexico", "North America"),
    ("Canada", "North America"),
    ("Kenya", "Africa"),
    ("Egypt", "Africa"),
    ("Australia", "Oceania"),
]
CITY_NAMES = [
    "Valmora",
    "Brekston",
    "Ostrava Nova",
    "Kellholm",
    "Sarento",
    "Duvanne",
    "Marisol",
    "Tovik",
    "Quenby",
    "Lorrach",
    "Amberly",
    "Castelo Rio",
    "Pinecrest",
    "Yaruko",
    "Halvard",
    "Nakuri",
    "Zefira",
    "Port Elin",
    "Wendmark",
    "Solano Bay",
    "Ravenna Hills",
    "Tarsk",
]
SUFFIX = ["International", "Regional", "Airfield", "City Airport"]
L = []
for c, cont in COUNTRIES:
    L.append(f"CREATE (:Country {{countryName: {q(c)}, continent: {q(cont)}}});")
cities = []
for i, n in enumerate(CITY_NAMES):
    country = COUNTRIES[i % len(COUNTRIES)][0]
    pop = rng.randint(80, 9000) * 1000
    cities.append(dict(name=n, country=country, pop=pop))
    L.append(f"CREATE (:City {{cityName: {q(n)}, population: {pop}}});")
    L.append(
        f"MATCH (a:City {{cityName: {q(n)}}}), (b:Country {{countryName: {q(country)}}}) CREATE (a)-[:LOCATED_IN]->(b);"
    )
airports = []
codes = set()
for i in range(28):
    city = cities[i % len(cities)]
    suffix = SUFFIX[(i // len(cities)) % 2 + (2 if i % 5 == 0 else 0)]
    name = f"{city['name']} {suffix}"
    while True:
        code = "".join(rng.choice("ABCDEFGHJKLMNPRSTVWXZ") for _ in range(3))
        if code not in codes:
            codes.add(code)
            break
    ap = dict(
        name=name,
        code=code,
        city=city["name"],
        country=city["country"],
        elev=rng.randint(3, 2400),
        intl=suffix == "International" or rng.random() < 0.3,
        opened=f"{rng.randint(1928, 2015)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
    )
    airports.append(ap)
    L.append(
        f"CREATE (:Airport {{airportName: {q(name)}, iataCode: {q(code)}, elevationFt: {ap['elev']}, "
        f"international: {'true' if ap['intl'] else 'false'}, openedOn: {q(ap['opened'])}}});"
    )
    L.append(
        f"MATCH (a:Airport {{iataCode: {q(code)}}}), (c:City {{cityName: {q(city['name'])}}}) "
        "CREATE (a)-[:SERVES]->(c);"
    )
AIRLINES = [
    ("Aurora Air", "AU", "Norway", False, "Polar Union"),
    ("Bluecrest Airways", "BC", "Canada", False, "Horizon Group"),
    ("Kestrel Jet", "KJ", "Spain", True, None),
    ("Meridian Wings", "MW", "France", False, "Horizon Group"),
    ("Nordlys Express", "NX", "Norway", True, "Polar Union"),
    ("Pacifica Airlines", "PA", "Australia", False, "Star Circle"),
    ("Sahel Sky", "SS", "Egypt", False, "Star Circle"),
    ("Tundra Hopper", "TH", "Canada", True, None),
    ("Verano Air", "VA", "Mexico", True, "Horizon Group"),
    ("Zephyr Airlines", "ZA", "Japan", False, "Star Circle"),
    ("Indigo Trail", "IT", "India", False, None),
]
founded = rng.sample(range(1931, 2019), len(AIRLINES))
airlines = []
for (n, pfx, country, low, alliance), year in zip(AIRLINES, founded, strict=True):
    props = f"airlineName: {q(n)}, icaoCode: {q(pfx + 'X')}, foundedYear: {year}, lowCost: {'true' if low else 'false'}"
    if alliance:
        props += f", alliance: {q(alliance)}"
    L.append(f"CREATE (:Airline {{{props}}});")
    L.append(
        f"MATCH (a:Airline {{airlineName: {q(n)}}}), (c:Country {{countryName: {q(country)}}}) CREATE (a)-[:HEADQUARTERED_IN]->(c);"
    )
    home = [a for a in airports if a["country"] == country] or airports[:2]
    hubs = home[:2]
    for h in hubs:
        L.append(
            f"MATCH (a:Airline {{airlineName: {q(n)}}}), (p:Airport {{iataCode: {q(h['code'])}}}) CREATE (a)-[:HUB_AT]->(p);"
        )
    airlines.append(dict(name=n, pfx=pfx, country=country, low=low, alliance=alliance, year=year, hubs=hubs))
TYPES = [
    ("A320neo", "Airbus", 186, 6300),
    ("A350-900", "Airbus", 315, 15000),
    ("A220-300", "Airbus", 140, 6200),
    ("737 MAX 8", "Boeing", 178, 6570),
    ("787-9", "Boeing", 290, 14140),
    ("777-300ER", "Boeing", 396, 13650),
    ("E195-E2", "Embraer", 132, 4800),
    ("E175", "Embraer", 88, 3700),
    ("ATR 72-600", "ATR", 70, 1400),
]
for m, man, seats, rng_km in TYPES:
    L.append(f"CREATE (:AircraftType {{model: {q(m)}, manufacturer: {q(man)}, seats: {seats}, rangeKm: {rng_km}}});")
routes = {}
flights = []
used = set()
STATUS = ["On time"] * 6 + ["Delayed"] * 3 + ["Cancelled"]
for i in range(210):
    al = rng.choice(airlines)
    while True:
        num = f"{al['pfx']}{rng.randint(100, 999)}"
        if num not in used:
            used.add(num)
            break
    dep = rng.choice(al["hubs"] + rng.sample(airports, 2))
    arr = rng.choice([a for a in airports if a["code"] != dep["code"]])
    key = (dep["code"], arr["code"])
    if key not in routes:
        routes[key] = rng.randint(250, 11800)
    dist = routes[key]
    dur = int(dist / 13.5) + rng.randint(25, 45)
    typ = rng.choice([t for t in TYPES if t[3] >= dist] or TYPES[1:2])
    f = dict(
        num=num,
        airline=al["name"],
        dep=dep,
        arr=arr,
        dur=dur,
        type=typ[0],
        status=rng.choice(STATUS),
        time=f"{rng.choice([2024, 2025])}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T{rng.randint(5, 22):02d}:{rng.choice(['00', '15', '30', '45'])}:00",
    )
    flights.append(f)
    L.append(
        f"CREATE (:Flight {{flightNumber: {q(num)}, departureTime: {q(f['time'])}, durationMinutes: {dur}, status: {q(f['status'])}}});"
    )
    L.append(
        f"MATCH (a:Airline {{airlineName: {q(al['name'])}}}), (f:Flight {{flightNumber: {q(num)}}}) CREATE (a)-[:OPERATES]->(f);"
    )
    L.append(
        f"MATCH (f:Flight {{flightNumber: {q(num)}}}), (a:Airport {{iataCode: {q(dep['code'])}}}) CREATE (f)-[:DEPARTS_FROM]->(a);"
    )
    L.append(
        f"MATCH (f:Flight {{flightNumber: {q(num)}}}), (a:Airport {{iataCode: {q(arr['code'])}}}) CREATE (f)-[:ARRIVES_AT]->(a);"
    )
    L.append(
        f"MATCH (f:Flight {{flightNumber: {q(num)}}}), (t:AircraftType {{model: {q(typ[0])}}}) CREATE (f)-[:FLOWN_WITH]->(t);"
    )
for (a, b), d in sorted(routes.items()):
    L.append(
        f"MATCH (a:Airport {{iataCode: {q(a)}}}), (b:Airport {{iataCode: {q(b)}}}) CREATE (a)-[:ROUTE_TO {{distanceKm: {d}}}]->(b);"
    )
PF = "Amara Bruno Celine Dario Elif Farah Goran Hana Imre Joelle Karim Leona Milan Nadia Oren Priya Quentin Rosa Stefan Talia".split()
PL = "Achebe Bergman Cortez Dimitrov Eriksen Fujita Galan Horvat Iqbal Jovanovic Kaur Laine".split()
TIERS = ["Bronze"] * 4 + ["Silver"] * 3 + ["Gold"] * 2 + ["Platinum"]
passengers = []
for i in range(80):
    n = f"{PF[i % 20]} {PL[(i * 7 + i // 20) % 12]}"
    p = dict(
        name=n,
        passport=f"P{rng.randint(1000000, 9999999)}",
        tier=rng.choice(TIERS),
        born=f"{rng.randint(1948, 2006)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
    )
    passengers.append(p)
    L.append(
        f"CREATE (:Passenger {{fullName: {q(n)}, passportNo: {q(p['passport'])}, loyaltyTier: {q(p['tier'])}, birthDate: {q(p['born'])}}});"
    )
FARES = ["Economy"] * 6 + ["Business"] * 3 + ["First"]
for k in range(320):
    p, f = rng.choice(passengers), rng.choice(flights)
    fare = rng.choice(FARES)
    price = round(rng.uniform(60, 400) * {"Economy": 1, "Business": 3.2, "First": 6.5}[fare], 2)
    L.append(
        f"MATCH (p:Passenger {{fullName: {q(p['name'])}}}), (f:Flight {{flightNumber: {q(f['num'])}}}) "
        f"CREATE (p)-[:BOOKED {{fareClass: {q(fare)}, price: {price}, bookedOn: '2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}'}}]->(f);"
    )

# the entities the questions name, picked from the data with a fixed seed
pick = random.Random(5)
A1, A2, A3 = pick.sample(airlines, 3)
AP1, AP2, AP3 = pick.sample(airports, 3)
F1, F2, F3 = pick.sample(flights, 3)
P1, P2, P3 = pick.sample(passengers, 3)
C1 = pick.choice(cities)
R1 = pick.choice(sorted(routes))
ap_code = {a["code"]: a for a in airports}
FL1 = pick.choice([f for f in flights if f["airline"] == A1["name"]])

Q = [
    (
        "How many airports are there in Germany?",
        "MATCH (a:Airport)-[:SERVES]->(:City)-[:LOCATED_IN]->(:Country {countryName: 'Germany'}) RETURN count(a)",
    ),
    ("Which airlines are low-cost carriers?", "MATCH (a:Airline) WHERE a.lowCost = true RETURN a.airlineName"),
    (
        f"What is the IATA code of {AP1['name']}?",
        f"MATCH (a:Airport {{airportName: {q(AP1['name'])}}}) RETURN a.iataCode",
    ),
    (
        f"Which city is served by the airport with IATA code {AP2['code']}?",
        f"MATCH (:Airport {{iataCode: {q(AP2['code'])}}})-[:SERVES]->(c:City) RETURN c.cityName",
    ),
    (
        "List the 3 aircraft types with the most seats.",
        "MATCH (t:AircraftType) RETURN t.model, t.seats ORDER BY t.seats DESC LIMIT 3",
    ),
    ("Which aircraft types are made by Embraer?", "MATCH (t:AircraftType {manufacturer: 'Embraer'}) RETURN t.model"),
    (
        f"How many flights does {A1['name']} operate?",
        f"MATCH (:Airline {{airlineName: {q(A1['name'])}}})-[:OPERATES]->(f:Flight) RETURN count(f)",
    ),
    (
        f"Which flights depart from {AP3['name']}?",
        f"MATCH (f:Flight)-[:DEPARTS_FROM]->(:Airport {{airportName: {q(AP3['name'])}}}) RETURN f.flightNumber",
    ),
    (
        "Which airport has the highest elevation?",
        "MATCH (a:Airport) RETURN a.airportName ORDER BY a.elevationFt DESC LIMIT 1",
    ),
    (
        "Which airlines are members of the Horizon Group alliance?",
        "MATCH (a:Airline {alliance: 'Horizon Group'}) RETURN a.airlineName",
    ),
    (
        f"What is the average duration of flights operated by {A2['name']}?",
        f"MATCH (:Airline {{airlineName: {q(A2['name'])}}})-[:OPERATES]->(f:Flight) RETURN avg(f.durationMinutes)",
    ),
    ("Which passengers have Platinum status?", "MATCH (p:Passenger {loyaltyTier: 'Platinum'}) RETURN p.fullName"),
    ("How many flights were cancelled?", "MATCH (f:Flight {status: 'Cancelled'}) RETURN count(f)"),
    (
        f"Which flights of {A1['name']} were delayed?",
        f"MATCH (:Airline {{airlineName: {q(A1['name'])}}})-[:OPERATES]->(f:Flight {{status: 'Delayed'}}) RETURN f.flightNumber",
    ),
    (
        f"Who booked flight {F1['num']}?",
        f"MATCH (p:Passenger)-[:BOOKED]->(:Flight {{flightNumber: {q(F1['num'])}}}) RETURN DISTINCT p.fullName",
    ),
    (
        "Which passengers have booked a First class ticket?",
        "MATCH (p:Passenger)-[:BOOKED {fareClass: 'First'}]->(:Flight) RETURN DISTINCT p.fullName",
    ),
    (
        f"What is the total amount {P1['name']} has paid for bookings?",
        f"MATCH (:Passenger {{fullName: {q(P1['name'])}}})-[r:BOOKED]->(:Flight) RETURN sum(r.price)",
    ),
    ("Which airline was founded first?", "MATCH (a:Airline) RETURN a.airlineName ORDER BY a.foundedYear ASC LIMIT 1"),
    (
        f"In which country is {A3['name']} headquartered?",
        f"MATCH (:Airline {{airlineName: {q(A3['name'])}}})-[:HEADQUARTERED_IN]->(c:Country) RETURN c.countryName",
    ),
    (
        f"Which airports are hubs of {A2['name']}?",
        f"MATCH (:Airline {{airlineName: {q(A2['name'])}}})-[:HUB_AT]->(a:Airport) RETURN a.airportName",
    ),
    (
        f"How many passengers booked flights departing from {AP1['name']}?",
        f"MATCH (p:Passenger)-[:BOOKED]->(:Flight)-[:DEPARTS_FROM]->(:Airport {{airportName: {q(AP1['name'])}}}) RETURN count(DISTINCT p)",
    ),
    (
        f"What is the distance between {ap_code[R1[0]]['name']} and {ap_code[R1[1]]['name']}?",
        f"MATCH (:Airport {{airportName: {q(ap_code[R1[0]]['name'])}}})-[r:ROUTE_TO]->(:Airport {{airportName: {q(ap_code[R1[1]]['name'])}}}) RETURN r.distanceKm",
    ),
    (
        "Which cities have a population of more than 5 million?",
        "MATCH (c:City) WHERE c.population > 5000000 RETURN c.cityName",
    ),
    ("Which countries are in Asia?", "MATCH (c:Country {continent: 'Asia'}) RETURN c.countryName"),
    (
        "How many airlines are headquartered in each country?",
        "MATCH (a:Airline)-[:HEADQUARTERED_IN]->(c:Country) RETURN c.countryName, count(a)",
    ),
    (
        "Which airline operates the most flights?",
        "MATCH (a:Airline)-[:OPERATES]->(f:Flight) RETURN a.airlineName, count(f) AS n ORDER BY n DESC LIMIT 1",
    ),
    (
        "How many flights departed in 2024?",
        "MATCH (f:Flight) WHERE f.departureTime >= '2024' AND f.departureTime < '2025' RETURN count(f)",
    ),
    (
        f"Which aircraft type is used on flight {F2['num']}?",
        f"MATCH (:Flight {{flightNumber: {q(F2['num'])}}})-[:FLOWN_WITH]->(t:AircraftType) RETURN t.model",
    ),
    (
        "List the flights that take longer than 800 minutes.",
        "MATCH (f:Flight) WHERE f.durationMinutes > 800 RETURN f.flightNumber",
    ),
    (
        "Which international airports are there in France?",
        "MATCH (a:Airport {international: true})-[:SERVES]->(:City)-[:LOCATED_IN]->(:Country {countryName: 'France'}) RETURN a.airportName",
    ),
    ("What is the range of the 787-9?", "MATCH (t:AircraftType {model: '787-9'}) RETURN t.rangeKm"),
    (
        f"Which airlines fly to {AP2['name']}?",
        f"MATCH (a:Airline)-[:OPERATES]->(:Flight)-[:ARRIVES_AT]->(:Airport {{airportName: {q(AP2['name'])}}}) RETURN DISTINCT a.airlineName",
    ),
    (f"When was {P2['name']} born?", f"MATCH (p:Passenger {{fullName: {q(P2['name'])}}}) RETURN p.birthDate"),
    (
        f"What is the passport number of {P3['name']}?",
        f"MATCH (p:Passenger {{fullName: {q(P3['name'])}}}) RETURN p.passportNo",
    ),
    (
        "What is the average price of a First class booking?",
        "MATCH (:Passenger)-[r:BOOKED {fareClass: 'First'}]->(:Flight) RETURN avg(r.price)",
    ),
    (
        f"Which airports serve {C1['name']}?",
        f"MATCH (a:Airport)-[:SERVES]->(:City {{cityName: {q(C1['name'])}}}) RETURN a.airportName",
    ),
    (
        f"How many flights arrive at {AP3['code']}?",
        f"MATCH (f:Flight)-[:ARRIVES_AT]->(:Airport {{iataCode: {q(AP3['code'])}}}) RETURN count(f)",
    ),
    (
        "What is the largest city in Brazil by population?",
        "MATCH (c:City)-[:LOCATED_IN]->(:Country {countryName: 'Brazil'}) RETURN c.cityName ORDER BY c.population DESC LIMIT 1",
    ),
    ("Which airlines are not part of any alliance?", "MATCH (a:Airline) WHERE a.alliance IS NULL RETURN a.airlineName"),
    (
        "Which passenger paid the highest price for a single booking?",
        "MATCH (p:Passenger)-[r:BOOKED]->(:Flight) RETURN p.fullName ORDER BY r.price DESC LIMIT 1",
    ),
    (
        "Which aircraft type has the longest range?",
        "MATCH (t:AircraftType) RETURN t.model ORDER BY t.rangeKm DESC LIMIT 1",
    ),
    ("How many Boeing aircraft types are there?", "MATCH (t:AircraftType {manufacturer: 'Boeing'}) RETURN count(t)"),
    (
        "Which flights are flown with the A220-300?",
        "MATCH (f:Flight)-[:FLOWN_WITH]->(:AircraftType {model: 'A220-300'}) RETURN f.flightNumber",
    ),
    (
        "Which passengers have booked more than 6 flights?",
        "MATCH (p:Passenger)-[:BOOKED]->(f:Flight) WITH p, count(f) AS n WHERE n > 6 RETURN p.fullName",
    ),
    (
        f"What is the status of flight {F3['num']}?",
        f"MATCH (f:Flight {{flightNumber: {q(F3['num'])}}}) RETURN f.status",
    ),
    ("Which airports opened before 1940?", "MATCH (a:Airport) WHERE a.openedOn < '1940' RETURN a.airportName"),
    ("List the airlines founded after 2000.", "MATCH (a:Airline) WHERE a.foundedYear > 2000 RETURN a.airlineName"),
    (
        f"What are the destinations of flights departing from {AP1['name']}?",
        f"MATCH (:Airport {{airportName: {q(AP1['name'])}}})<-[:DEPARTS_FROM]-(:Flight)-[:ARRIVES_AT]->(d:Airport) RETURN DISTINCT d.airportName",
    ),
    (
        "How many cities are there on each continent?",
        "MATCH (c:City)-[:LOCATED_IN]->(co:Country) RETURN co.continent, count(c)",
    ),
    (
        "Which country has the most airports?",
        "MATCH (a:Airport)-[:SERVES]->(:City)-[:LOCATED_IN]->(c:Country) RETURN c.countryName, count(a) AS n ORDER BY n DESC LIMIT 1",
    ),
    (
        "What is the average number of seats of Airbus aircraft types?",
        "MATCH (t:AircraftType {manufacturer: 'Airbus'}) RETURN avg(t.seats)",
    ),
    (
        f"Which flights operated by {A1['name']} depart from {FL1['dep']['name']}?",
        f"MATCH (:Airline {{airlineName: {q(A1['name'])}}})-[:OPERATES]->(f:Flight)-[:DEPARTS_FROM]->(:Airport {{airportName: {q(FL1['dep']['name'])}}}) RETURN f.flightNumber",
    ),
    (
        "Which low-cost airlines are headquartered in Canada?",
        "MATCH (a:Airline {lowCost: true})-[:HEADQUARTERED_IN]->(:Country {countryName: 'Canada'}) RETURN a.airlineName",
    ),
    (
        "What is the longest flight by duration?",
        "MATCH (f:Flight) RETURN f.flightNumber, f.durationMinutes ORDER BY f.durationMinutes DESC LIMIT 1",
    ),
    (
        f"Which passengers with Gold status booked flights of {A3['name']}?",
        f"MATCH (p:Passenger {{loyaltyTier: 'Gold'}})-[:BOOKED]->(:Flight)<-[:OPERATES]-(:Airline {{airlineName: {q(A3['name'])}}}) RETURN DISTINCT p.fullName",
    ),
]
write(HERE, "airline", L, Q)
