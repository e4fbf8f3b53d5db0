"""A small concert and festival graph of a schema none of the service's code was written against (session 56):
venues by ``venueName`` with a ``city`` and a ``capacity``; artists by ``stageName`` with a ``genre`` and a
``formedYear``; events by ``title`` with an ``eventCode`` ("EV-24-031"), a ``date`` as text, a float ``ticketPrice``
and a boolean ``soldOut``; fans by ``username`` with an integer ``age`` and a ``country``; sponsors by ``brand``.
Artists ``PERFORM_AT`` events (``setMinutes``) and ``COLLABORATED_WITH`` artists; events are ``HELD_AT`` a venue;
fans ``BOUGHT`` tickets for events (``quantity``, ``paidEur``) and ``FOLLOW`` artists; sponsors ``SPONSOR`` events
(``amountEur``). 40 questions with gold Cypher written by hand before the service was run on it (reports/summary.md,
session 56: measured once, its misses not yet read).

``python data/festival/make.py`` writes ``festival.cypher`` and ``questions.jsonl`` here (``make eval-own``). The
project's own data, not a public benchmark."""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from own_graph import q, write  # noqa: E402

HERE = Path(__file__).resolve().parent
rng = random.Random(563)

VENUES = [("Harbour Arena", "Lisbon"), ("Old Tram Depot", "Lisbon"), ("Velvet Hall", "Ghent"),
          ("Northlight Park", "Tallinn"), ("Cinder Club", "Ghent")]  # fmt: skip
ARTISTS = [("The Marrow Lanterns", "rock"), ("Dulce Ferro", "jazz"), ("Kite Parade", "indie"),
           ("Salt & Cipher", "electronic"), ("Ondine Quartet", "jazz"), ("Grey Harbour", "rock"),
           ("Mira Vale", "pop"), ("Copper Saints", "rock"), ("Lowtide Choir", "indie"), ("Nova Atlas", "electronic")]  # fmt: skip
TITLES = ["Spring Static", "Harbour Lights Night", "Blue Hour Sessions", "Midsummer Drift", "Neon Tide",
          "Autumn Ember", "Winter Lanterns", "Riverbank Weekender", "Velvet Sundays", "Northern Echo"]  # fmt: skip
SPONSORS = ["Brisa Cola", "Fjordline Telecom", "Ocre Bank", "Palisade Audio"]
COUNTRIES = ["Portugal", "Belgium", "Estonia", "Spain", "Germany"]

L: list[str] = []
for name, city in VENUES:
    L.append(f"CREATE (:Venue {{venueName: {q(name)}, city: {q(city)}, capacity: {rng.choice([300, 800, 1500, 5000, 12000])}}});")
artists = []
for name, genre in ARTISTS:
    a = dict(name=name, genre=genre, formed=rng.randint(1988, 2021))
    artists.append(a)
    L.append(f"CREATE (:Artist {{stageName: {q(name)}, genre: {q(genre)}, formedYear: {a['formed']}}});")
collab = set()
for _ in range(7):
    a, b = rng.sample(artists, 2)
    if (b["name"], a["name"]) not in collab and (a["name"], b["name"]) not in collab:
        collab.add((a["name"], b["name"]))
        L.append(
            f"MATCH (a:Artist {{stageName: {q(a['name'])}}}), (b:Artist {{stageName: {q(b['name'])}}}) "
            "CREATE (a)-[:COLLABORATED_WITH]->(b);"
        )
events = []
for i, title in enumerate(TITLES):
    e = dict(
        title=title, code=f"EV-{rng.choice([23, 24])}-{i * 7 + 11:03d}", price=round(rng.uniform(25, 140), 2),
        venue=rng.choice(VENUES)[0], sold=rng.random() < 0.3, acts=rng.sample(artists[:-1], rng.randint(1, 3)),
    )  # fmt: skip
    e["date"] = f"20{e['code'][3:5]}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
    events.append(e)
    L.append(
        f"CREATE (:Event {{title: {q(title)}, eventCode: {q(e['code'])}, date: {q(e['date'])}, "
        f"ticketPrice: {e['price']}, soldOut: {'true' if e['sold'] else 'false'}}});"
    )
    L.append(f"MATCH (e:Event {{title: {q(title)}}}), (v:Venue {{venueName: {q(e['venue'])}}}) CREATE (e)-[:HELD_AT]->(v);")
    for a in e["acts"]:
        L.append(
            f"MATCH (a:Artist {{stageName: {q(a['name'])}}}), (e:Event {{title: {q(title)}}}) "
            f"CREATE (a)-[:PERFORMS_AT {{setMinutes: {rng.choice([30, 45, 60, 75, 90])}}}]->(e);"
        )
fans = []
buys = []
for i in range(30):
    f = dict(user=f"{rng.choice(['loud', 'quiet', 'lucky', 'night', 'tiny', 'velvet'])}_{rng.choice(['owl', 'fox', 'moth', 'wren'])}{i}",
             age=rng.randint(16, 64), country=rng.choice(COUNTRIES))  # fmt: skip
    fans.append(f)
    L.append(f"CREATE (:Fan {{username: {q(f['user'])}, age: {f['age']}, country: {q(f['country'])}}});")
    for e in rng.sample(events, rng.randint(0, 3)):
        n = rng.randint(1, 4)
        buys.append((f["user"], e["title"], n))
        L.append(
            f"MATCH (f:Fan {{username: {q(f['user'])}}}), (e:Event {{title: {q(e['title'])}}}) "
            f"CREATE (f)-[:BOUGHT {{quantity: {n}, paidEur: {round(n * e['price'], 2)}}}]->(e);"
        )
    for a in rng.sample(artists, rng.randint(0, 3)):
        L.append(
            f"MATCH (f:Fan {{username: {q(f['user'])}}}), (a:Artist {{stageName: {q(a['name'])}}}) CREATE (f)-[:FOLLOWS]->(a);"
        )
spons = []
for s in SPONSORS:
    for e in rng.sample(events, rng.randint(1, 3)):
        spons.append((s, e["title"]))
        L.append(
            f"MATCH (s:Sponsor {{brand: {q(s)}}}), (e:Event {{title: {q(e['title'])}}}) "
            f"CREATE (s)-[:SPONSORS {{amountEur: {rng.randint(2, 40) * 1000}}}]->(e);"
        )
L = [f"CREATE (:Sponsor {{brand: {q(s)}}});" for s in SPONSORS] + L

# the constants the questions name, picked from what was made
big = max(events, key=lambda e: len(e["acts"]))
buyer = max(fans, key=lambda f: sum(1 for b in buys if b[0] == f["user"]))["user"]
sold_ev = max(events, key=lambda e: sum(1 for b in buys if b[1] == e["title"]))["title"]
act = big["acts"][0]["name"]
star = artists[1]["name"]
venue = max(VENUES, key=lambda v: sum(1 for e in events if e["venue"] == v[0]))[0]
sponsor = max(SPONSORS, key=lambda s: sum(1 for x in spons if x[0] == s))
pair = next(iter(sorted(collab)))

Q = [
    ("How many events are there?", "MATCH (e:Event) RETURN count(e)"),
    ("Which events are sold out?", "MATCH (e:Event) WHERE e.soldOut = true RETURN e.title"),
    (f"Which artists perform at {big['title']}?",
     f"MATCH (a:Artist)-[:PERFORMS_AT]->(:Event {{title: {q(big['title'])}}}) RETURN a.stageName"),
    (f"Where is {big['title']} held?", f"MATCH (:Event {{title: {q(big['title'])}}})-[:HELD_AT]->(v:Venue) RETURN v.venueName"),
    ("Which events are held in Lisbon?", "MATCH (e:Event)-[:HELD_AT]->(:Venue {city: 'Lisbon'}) RETURN e.title"),
    (f"How many tickets did {buyer} buy?",
     f"MATCH (:Fan {{username: {q(buyer)}}})-[b:BOUGHT]->(:Event) RETURN sum(b.quantity)"),
    (f"Which fans bought tickets for {sold_ev}?",
     f"MATCH (f:Fan)-[:BOUGHT]->(:Event {{title: {q(sold_ev)}}}) RETURN f.username"),
    ("Which artist has the most followers?",
     "MATCH (f:Fan)-[:FOLLOWS]->(a:Artist) RETURN a.stageName, count(f) AS n ORDER BY n DESC LIMIT 1"),
    (f"Which fans follow {star}?", f"MATCH (f:Fan)-[:FOLLOWS]->(:Artist {{stageName: {q(star)}}}) RETURN f.username"),
    (f"What genre is {act}?", f"MATCH (a:Artist {{stageName: {q(act)}}}) RETURN a.genre"),
    ("Which artists play jazz?", "MATCH (a:Artist {genre: 'jazz'}) RETURN a.stageName"),
    ("Which venue has the largest capacity?", "MATCH (v:Venue) RETURN v.venueName ORDER BY v.capacity DESC LIMIT 1"),
    (f"What is the ticket price of {sold_ev}?", f"MATCH (e:Event {{title: {q(sold_ev)}}}) RETURN e.ticketPrice"),
    ("Which events have a ticket price above 100?", "MATCH (e:Event) WHERE e.ticketPrice > 100 RETURN e.title"),
    ("What is the cheapest event?", "MATCH (e:Event) RETURN e.title ORDER BY e.ticketPrice ASC LIMIT 1"),
    (f"Which sponsors sponsor {spons[0][1]}?",
     f"MATCH (s:Sponsor)-[:SPONSORS]->(:Event {{title: {q(spons[0][1])}}}) RETURN s.brand"),
    (f"How much did {sponsor} spend on sponsorships in total?",
     f"MATCH (:Sponsor {{brand: {q(sponsor)}}})-[s:SPONSORS]->(:Event) RETURN sum(s.amountEur)"),
    (f"Which events did {act} perform at in 2024?",
     f"MATCH (:Artist {{stageName: {q(act)}}})-[:PERFORMS_AT]->(e:Event) WHERE e.date STARTS WITH '2024' RETURN e.title"),
    (f"How long was the set of {act} at {big['title']}?",
     f"MATCH (:Artist {{stageName: {q(act)}}})-[p:PERFORMS_AT]->(:Event {{title: {q(big['title'])}}}) RETURN p.setMinutes"),
    (f"Which artists collaborated with {pair[0]}?",
     f"MATCH (:Artist {{stageName: {q(pair[0])}}})-[:COLLABORATED_WITH]-(a:Artist) RETURN a.stageName"),
    ("Which events take place in July 2023?", "MATCH (e:Event) WHERE e.date STARTS WITH '2023-07' RETURN e.title"),
    ("How many fans are from Portugal?", "MATCH (f:Fan {country: 'Portugal'}) RETURN count(f)"),
    (f"What is the average age of the fans who bought tickets for {sold_ev}?",
     f"MATCH (f:Fan)-[:BOUGHT]->(:Event {{title: {q(sold_ev)}}}) RETURN avg(f.age)"),
    ("Which event has the most buyers?",
     "MATCH (f:Fan)-[:BOUGHT]->(e:Event) RETURN e.title, count(f) AS n ORDER BY n DESC LIMIT 1"),
    ("List the 3 most expensive events.", "MATCH (e:Event) RETURN e.title ORDER BY e.ticketPrice DESC LIMIT 3"),
    ("Which artists were formed before 2000?", "MATCH (a:Artist) WHERE a.formedYear < 2000 RETURN a.stageName"),
    ("Which venue hosts the most events?",
     "MATCH (e:Event)-[:HELD_AT]->(v:Venue) RETURN v.venueName, count(e) AS n ORDER BY n DESC LIMIT 1"),
    (f"Which fans bought tickets for events at {venue}?",
     f"MATCH (f:Fan)-[:BOUGHT]->(:Event)-[:HELD_AT]->(:Venue {{venueName: {q(venue)}}}) RETURN DISTINCT f.username"),
    ("How many events does each venue host?", "MATCH (e:Event)-[:HELD_AT]->(v:Venue) RETURN v.venueName, count(e)"),
    ("Which artists have never performed?", "MATCH (a:Artist) WHERE NOT (a)-[:PERFORMS_AT]->() RETURN a.stageName"),
    (f"What is the total amount paid by {buyer}?",
     f"MATCH (:Fan {{username: {q(buyer)}}})-[b:BOUGHT]->(:Event) RETURN sum(b.paidEur)"),
    (f"Which events are sponsored by {sponsor}?",
     f"MATCH (:Sponsor {{brand: {q(sponsor)}}})-[:SPONSORS]->(e:Event) RETURN e.title"),
    ("Who is the youngest fan?", "MATCH (f:Fan) RETURN f.username ORDER BY f.age ASC LIMIT 1"),
    (f"What is the event code of {big['title']}?", f"MATCH (e:Event {{title: {q(big['title'])}}}) RETURN e.eventCode"),
    (f"Which city is {venue} in?", f"MATCH (v:Venue {{venueName: {q(venue)}}}) RETURN v.city"),
    ("Which artists performed at sold-out events?",
     "MATCH (a:Artist)-[:PERFORMS_AT]->(e:Event) WHERE e.soldOut = true RETURN DISTINCT a.stageName"),
    (f"When is {big['title']}?", f"MATCH (e:Event {{title: {q(big['title'])}}}) RETURN e.date"),
    ("Which fans follow artists that play rock?",
     "MATCH (f:Fan)-[:FOLLOWS]->(:Artist {genre: 'rock'}) RETURN DISTINCT f.username"),
    ("How many artists perform at each event?",
     "MATCH (a:Artist)-[:PERFORMS_AT]->(e:Event) RETURN e.title, count(a)"),
    ("Which sponsor gave the largest amount to a single event?",
     "MATCH (sp:Sponsor)-[s:SPONSORS]->(:Event) RETURN sp.brand ORDER BY s.amountEur DESC LIMIT 1"),
]  # fmt: skip
write(HERE, "festival", L, Q)
