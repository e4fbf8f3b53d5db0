"""A small real-estate graph of a schema none of the service's code was written against (session 58): homes by
``address`` ("14 Alder Lane": a number inside the display value) with a categorical ``kind``, integer ``bedrooms`` and
``yearBuilt``, a float ``floorArea`` and a boolean ``hasGarden``; neighborhoods by ``hoodName`` with a ``city`` and an
integer ``walkScore``; agents by ``agentName`` with an ``agency`` and a ``licensed`` date as text ("2011-05-02");
buyers by an id ``buyerId`` ("B-1042"). Homes are ``LOCATED_IN`` a neighborhood; agents ``LIST`` homes
(``askingPrice``, ``listedOn``); buyers ``PURCHASED`` homes (``price``, ``closedOn``) and ``TOURED`` homes (``on``);
neighborhoods are ``ADJACENT_TO`` each other (stored one way, meant both ways). 40 questions with gold Cypher written
by hand before the service was run on it (reports/summary.md, session 58).

``python data/realty/make.py`` writes ``realty.cypher`` and ``questions.jsonl`` here (``make eval-own``). The
project's own data, not a public benchmark."""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from own_graph import q, write  # noqa: E402

HERE = Path(__file__).resolve().parent
rng = random.Random(588)

HOODS = [("Riverside", "Porto", 88), ("Old Quarter", "Porto", 95), ("Hillcrest", "Porto", 61),
         ("Marina Sur", "Valencia", 79), ("Orchard Park", "Valencia", 54), ("Cabanyal", "Valencia", 91)]  # fmt: skip
ADJ = [("Riverside", "Old Quarter"), ("Old Quarter", "Hillcrest"), ("Marina Sur", "Cabanyal"),
       ("Orchard Park", "Marina Sur")]  # fmt: skip
AGENTS = [("Mira Okafor", "Casa Norte", "2011-05-02"), ("Tomas Leal", "Casa Norte", "2016-09-14"),
          ("Ines Varga", "Blue Key Realty", "2008-02-20"), ("Rafael Duarte", "Blue Key Realty", "2019-11-03"),
          ("Sofia Brandt", "Harbor Homes", "2014-06-30")]  # fmt: skip
STREETS = ["Alder Lane", "Quay Street", "Fig Terrace", "Lantern Row", "Cork Avenue", "Salt Road", "Birch Close",
           "Tile Street"]  # fmt: skip
KINDS = ["apartment", "townhouse", "villa"]

L: list[str] = []
for name, city, walk in HOODS:
    L.append(f"CREATE (:Neighborhood {{hoodName: {q(name)}, city: {q(city)}, walkScore: {walk}}});")
for a, b in ADJ:
    L.append(f"MATCH (a:Neighborhood {{hoodName: {q(a)}}}), (b:Neighborhood {{hoodName: {q(b)}}}) CREATE (a)-[:ADJACENT_TO]->(b);")
for name, agency, since in AGENTS:
    L.append(f"CREATE (:Agent {{agentName: {q(name)}, agency: {q(agency)}, licensed: {q(since)}}});")
homes = []
addresses = set()
while len(homes) < 30:
    addr = f"{rng.randint(2, 98)} {rng.choice(STREETS)}"
    if addr in addresses:
        continue
    addresses.add(addr)
    kind = rng.choice(KINDS)
    h = dict(addr=addr, kind=kind, hood=rng.choice(HOODS)[0], beds=rng.randint(1, 3) + (2 if kind == "villa" else 0),
             area=round(rng.uniform(45, 90) * (2.2 if kind == "villa" else 1.0), 1), built=rng.randint(1905, 2022),
             garden=kind != "apartment" and rng.random() < 0.6, agent=rng.choice(AGENTS)[0])  # fmt: skip
    h["ask"] = int(h["area"] * rng.randint(2600, 5200) // 1000 * 1000)
    h["listed"] = f"20{rng.randint(22, 24)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
    homes.append(h)
    L.append(
        f"CREATE (:Home {{address: {q(addr)}, kind: {q(kind)}, bedrooms: {h['beds']}, floorArea: {h['area']}, "
        f"yearBuilt: {h['built']}, hasGarden: {'true' if h['garden'] else 'false'}}});"
    )
    L.append(f"MATCH (h:Home {{address: {q(addr)}}}), (n:Neighborhood {{hoodName: {q(h['hood'])}}}) CREATE (h)-[:LOCATED_IN]->(n);")
    L.append(
        f"MATCH (a:Agent {{agentName: {q(h['agent'])}}}), (h:Home {{address: {q(addr)}}}) "
        f"CREATE (a)-[:LISTS {{askingPrice: {h['ask']}, listedOn: {q(h['listed'])}}}]->(h);"
    )
buyers = [f"B-{1000 + rng.randint(1, 999)}" for _ in range(18)]
buyers = sorted(set(buyers))
tours: dict[str, list[dict]] = {}
for b in buyers:
    L.append(f"CREATE (:Buyer {{buyerId: {q(b)}}});")
    tours[b] = rng.sample(homes, rng.randint(1, 4))
    for h in tours[b]:
        day = f"20{rng.randint(22, 24)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        L.append(f"MATCH (b:Buyer {{buyerId: {q(b)}}}), (h:Home {{address: {q(h['addr'])}}}) CREATE (b)-[:TOURED {{on: {q(day)}}}]->(h);")
sold = rng.sample(homes, 14)
for i, h in enumerate(sold):
    b = buyers[i] if i < len(buyers) else rng.choice(buyers)
    h["buyer"] = b
    h["price"] = int(h["ask"] * rng.uniform(0.9, 1.05)) // 500 * 500
    h["closed"] = f"20{rng.randint(23, 25)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
    L.append(
        f"MATCH (b:Buyer {{buyerId: {q(b)}}}), (h:Home {{address: {q(h['addr'])}}}) "
        f"CREATE (b)-[:PURCHASED {{price: {h['price']}, closedOn: {q(h['closed'])}}}]->(h);"
    )

# the constants the questions name, picked from what was made
home = sold[0]
busy_hood = max([x[0] for x in HOODS], key=lambda n: sum(1 for h in homes if h["hood"] == n))
agent = max([a[0] for a in AGENTS], key=lambda n: sum(1 for h in homes if h["agent"] == n))
toured = max(homes, key=lambda h: sum(1 for b in buyers if h in tours[b]))
tourist = max(buyers, key=lambda b: len(tours[b]))
buyer = home["buyer"]
plain = next(h for h in homes if h not in sold)
town_hood = max([x[0] for x in HOODS], key=lambda n: sum(1 for h in homes if h["hood"] == n and h["kind"] == "townhouse"))
sold_hood = max([x[0] for x in HOODS], key=lambda n: sum(1 for h in sold if h["hood"] == n))

Q = [
    ("How many homes are there?", "MATCH (h:Home) RETURN count(h)"),
    ("Which homes are villas?", "MATCH (h:Home {kind: 'villa'}) RETURN h.address"),
    (f"Which neighborhood is {home['addr']} in?",
     f"MATCH (:Home {{address: {q(home['addr'])}}})-[:LOCATED_IN]->(n:Neighborhood) RETURN n.hoodName"),
    (f"Which homes are in {busy_hood}?",
     f"MATCH (h:Home)-[:LOCATED_IN]->(:Neighborhood {{hoodName: {q(busy_hood)}}}) RETURN h.address"),
    ("How many homes are in each neighborhood?",
     "MATCH (h:Home)-[:LOCATED_IN]->(n:Neighborhood) RETURN n.hoodName, count(h)"),
    ("Which neighborhoods are in Porto?", "MATCH (n:Neighborhood {city: 'Porto'}) RETURN n.hoodName"),
    ("Which homes have a garden?", "MATCH (h:Home) WHERE h.hasGarden = true RETURN h.address"),
    ("Which homes have more than 3 bedrooms?", "MATCH (h:Home) WHERE h.bedrooms > 3 RETURN h.address"),
    ("What is the largest home?", "MATCH (h:Home) RETURN h.address ORDER BY h.floorArea DESC LIMIT 1"),
    ("Which homes were built before 1950?", "MATCH (h:Home) WHERE h.yearBuilt < 1950 RETURN h.address"),
    ("What is the average floor area of the apartments?",
     "MATCH (h:Home {kind: 'apartment'}) RETURN avg(h.floorArea)"),
    (f"Who listed {plain['addr']}?",
     f"MATCH (a:Agent)-[:LISTS]->(:Home {{address: {q(plain['addr'])}}}) RETURN a.agentName"),
    (f"What is the asking price of {plain['addr']}?",
     f"MATCH (:Agent)-[r:LISTS]->(:Home {{address: {q(plain['addr'])}}}) RETURN r.askingPrice"),
    (f"Which homes does {agent} list?",
     f"MATCH (:Agent {{agentName: {q(agent)}}})-[:LISTS]->(h:Home) RETURN h.address"),
    ("Which agents work for Casa Norte?", "MATCH (a:Agent {agency: 'Casa Norte'}) RETURN a.agentName"),
    ("Which agent lists the most homes?",
     "MATCH (a:Agent)-[:LISTS]->(h:Home) RETURN a.agentName, count(h) AS n ORDER BY n DESC LIMIT 1"),
    (f"Which home did buyer {buyer} purchase?",
     f"MATCH (:Buyer {{buyerId: {q(buyer)}}})-[:PURCHASED]->(h:Home) RETURN h.address"),
    (f"How much did {buyer} pay for {home['addr']}?",
     f"MATCH (:Buyer {{buyerId: {q(buyer)}}})-[r:PURCHASED]->(:Home {{address: {q(home['addr'])}}}) RETURN r.price"),
    (f"Who bought {home['addr']}?",
     f"MATCH (b:Buyer)-[:PURCHASED]->(:Home {{address: {q(home['addr'])}}}) RETURN b.buyerId"),
    ("Which homes were sold in 2024?",
     "MATCH (:Buyer)-[r:PURCHASED]->(h:Home) WHERE r.closedOn STARTS WITH '2024' RETURN h.address"),
    ("What was the highest price paid for a home?", "MATCH (:Buyer)-[r:PURCHASED]->(:Home) RETURN max(r.price)"),
    ("Which home sold for the highest price?",
     "MATCH (:Buyer)-[r:PURCHASED]->(h:Home) RETURN h.address ORDER BY r.price DESC LIMIT 1"),
    ("Which homes have not been sold?", "MATCH (h:Home) WHERE NOT (:Buyer)-[:PURCHASED]->(h) RETURN h.address"),
    (f"Which homes did {tourist} tour?", f"MATCH (:Buyer {{buyerId: {q(tourist)}}})-[:TOURED]->(h:Home) RETURN h.address"),
    (f"Which neighborhoods are adjacent to {ADJ[0][1]}?",
     f"MATCH (:Neighborhood {{hoodName: {q(ADJ[0][1])}}})-[:ADJACENT_TO]-(n:Neighborhood) RETURN n.hoodName"),
    ("What is the walk score of Cabanyal?", "MATCH (n:Neighborhood {hoodName: 'Cabanyal'}) RETURN n.walkScore"),
    ("Which neighborhood has the highest walk score?",
     "MATCH (n:Neighborhood) RETURN n.hoodName ORDER BY n.walkScore DESC LIMIT 1"),
    (f"Which homes in {town_hood} are townhouses?",
     f"MATCH (h:Home {{kind: 'townhouse'}})-[:LOCATED_IN]->(:Neighborhood {{hoodName: {q(town_hood)}}}) RETURN h.address"),
    (f"What is the total value of the homes sold in {sold_hood}?",
     f"MATCH (:Buyer)-[r:PURCHASED]->(:Home)-[:LOCATED_IN]->(:Neighborhood {{hoodName: {q(sold_hood)}}}) RETURN sum(r.price)"),
    (f"When was {plain['addr']} listed?",
     f"MATCH (:Agent)-[r:LISTS]->(:Home {{address: {q(plain['addr'])}}}) RETURN r.listedOn"),
    (f"Which agents list homes in {busy_hood}?",
     f"MATCH (a:Agent)-[:LISTS]->(:Home)-[:LOCATED_IN]->(:Neighborhood {{hoodName: {q(busy_hood)}}}) RETURN DISTINCT a.agentName"),
    (f"How many bedrooms does {plain['addr']} have?", f"MATCH (h:Home {{address: {q(plain['addr'])}}}) RETURN h.bedrooms"),
    (f"When was {home['addr']} built?", f"MATCH (h:Home {{address: {q(home['addr'])}}}) RETURN h.yearBuilt"),
    (f"Which buyers toured {toured['addr']}?",
     f"MATCH (b:Buyer)-[:TOURED]->(:Home {{address: {q(toured['addr'])}}}) RETURN b.buyerId"),
    (f"What is the average asking price of the homes listed by {agent}?",
     f"MATCH (:Agent {{agentName: {q(agent)}}})-[r:LISTS]->(:Home) RETURN avg(r.askingPrice)"),
    ("Which agent has been licensed the longest?", "MATCH (a:Agent) RETURN a.agentName ORDER BY a.licensed ASC LIMIT 1"),
    ("List the villas in Valencia.",
     "MATCH (h:Home {kind: 'villa'})-[:LOCATED_IN]->(:Neighborhood {city: 'Valencia'}) RETURN h.address"),
    ("How many homes of each kind are there?", "MATCH (h:Home) RETURN h.kind, count(h)"),
    ("Which homes are listed for more than 400,000?",
     "MATCH (:Agent)-[r:LISTS]->(h:Home) WHERE r.askingPrice > 400000 RETURN h.address"),
    ("Which buyers purchased a home they never toured?",
     "MATCH (b:Buyer)-[:PURCHASED]->(h:Home) WHERE NOT (b)-[:TOURED]->(h) RETURN b.buyerId"),
]  # fmt: skip
write(HERE, "realty", L, Q)
