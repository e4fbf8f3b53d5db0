"""A small graph of hiking trails of a schema none of the service's code was written against (session 54), keyed in
snake_case: trails by ``trail_name`` with a ``length_km`` (float), an ``elevation_gain_m``, a lower-case
``difficulty``, a boolean ``is_loop`` and a list of ``tags``; parks by ``park_name`` with a ``region`` and an
``established`` year; peaks by ``peak_name`` with an ``elevation_m``; campsites by ``site_name`` with a ``capacity``;
hikers by ``username`` with a ``home_country`` and a ``joined_on`` date as text. Trails are ``IN_PARK`` parks, ``REACH``
peaks and ``CONNECT_TO`` other trails; campsites are ``NEAR`` trails; hikers ``HIKED`` trails (``hiked_on`` as text,
``duration_min``, ``rating`` 1-5, several times the same trail). 40 questions with gold Cypher written by hand before
the service was run on it, and measured first with the session's final code (reports/summary.md, session 54).

``python data/trails/make.py`` writes ``trails.cypher`` and ``questions.jsonl`` here (``make eval-own``). The
project's own data, not a public benchmark."""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from own_graph import q, write  # noqa: E402

HERE = Path(__file__).resolve().parent
rng = random.Random(541)

PARKS = [  # park_name, region, established
    ("Hollow Pine National Park", "Highlands", 1932),
    ("Saltmarsh Reserve", "Coast", 1971),
    ("Ironridge State Park", "Highlands", 1958),
    ("Larkfield Country Park", "Lowlands", 1994),
]
PEAKS = [  # peak_name, elevation_m, park
    ("Mount Corrin", 1840, "Hollow Pine National Park"),
    ("Blackcap", 1512, "Hollow Pine National Park"),
    ("Eagle Tor", 1208, "Ironridge State Park"),
    ("Windy Knoll", 640, "Larkfield Country Park"),
    ("Grey Fell", 1377, "Ironridge State Park"),
]
WORDS_A = "Cedar Falcon Misty Otter Copper Fern Granite Heron Juniper Bramble Raven Willow Lantern Quarry".split()
WORDS_B = "Loop Ridge Trail Path Traverse Climb Way Circuit".split()
TAGS = ["waterfall", "forest", "views", "wildflowers", "dog-friendly", "lake", "historic", "birding"]
COUNTRIES = ["Canada", "Norway", "Chile", "Scotland", "Japan", "New Zealand"]

L: list[str] = []
for name, region, year in PARKS:
    L.append(f"CREATE (:Park {{park_name: {q(name)}, region: {q(region)}, established: {year}}});")
for name, elev, park in PEAKS:
    L.append(f"CREATE (:Peak {{peak_name: {q(name)}, elevation_m: {elev}}});")

trails = []
used: set[str] = set()
for i in range(26):
    while True:
        name = f"{rng.choice(WORDS_A)} {rng.choice(WORDS_B)}"
        if name not in used:
            break
    used.add(name)
    park = PARKS[i % len(PARKS)][0]
    t = dict(
        name=name, park=park, length=round(rng.uniform(1.5, 24.0), 1), gain=rng.randint(40, 1400),
        difficulty=rng.choice(["easy", "easy", "moderate", "moderate", "hard"]), loop=rng.random() < 0.4,
        tags=sorted(rng.sample(TAGS, rng.randint(1, 3))),
    )  # fmt: skip
    trails.append(t)
    tags = "[" + ", ".join(q(x) for x in t["tags"]) + "]"
    L.append(
        f"CREATE (:Trail {{trail_name: {q(name)}, length_km: {t['length']}, elevation_gain_m: {t['gain']}, "
        f"difficulty: {q(t['difficulty'])}, is_loop: {'true' if t['loop'] else 'false'}, tags: {tags}}});"
    )
    L.append(
        f"MATCH (t:Trail {{trail_name: {q(name)}}}), (p:Park {{park_name: {q(park)}}}) CREATE (t)-[:IN_PARK]->(p);"
    )
for name, _elev, park in PEAKS:
    for t in [t for t in trails if t["park"] == park and t["gain"] > 500][:3]:
        L.append(
            f"MATCH (t:Trail {{trail_name: {q(t['name'])}}}), (p:Peak {{peak_name: {q(name)}}}) CREATE (t)-[:REACH]->(p);"
        )
links = set()
for _ in range(18):
    a, b = rng.sample(trails, 2)
    if a["park"] == b["park"] and (b["name"], a["name"]) not in links:
        links.add((a["name"], b["name"]))
for a, b in sorted(links):
    L.append(
        f"MATCH (a:Trail {{trail_name: {q(a)}}}), (b:Trail {{trail_name: {q(b)}}}) CREATE (a)-[:CONNECT_TO]->(b);"
    )
sites = []
for i, word in enumerate("Birch Hollow|Lakeside|Summit Camp|Fox Den|Riverbend|Stargazer".split("|")):
    t = trails[(i * 5) % len(trails)]
    sites.append((word, t["name"]))
    L.append(f"CREATE (:Campsite {{site_name: {q(word)}, capacity: {rng.choice([4, 8, 12, 20, 30])}}});")
    L.append(
        f"MATCH (c:Campsite {{site_name: {q(word)}}}), (t:Trail {{trail_name: {q(t['name'])}}}) CREATE (c)-[:NEAR]->(t);"
    )
hikers = []
for i in range(22):
    u = dict(
        name=f"{rng.choice(['trail', 'peak', 'moss', 'summit', 'wander', 'ridge'])}_{rng.choice(['fox', 'owl', 'lynx', 'wren', 'elk'])}{i}",
        country=rng.choice(COUNTRIES), joined=f"{rng.randint(2016, 2024)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
    )  # fmt: skip
    hikers.append(u)
    L.append(
        f"CREATE (:Hiker {{username: {q(u['name'])}, home_country: {q(u['country'])}, joined_on: {q(u['joined'])}}});"
    )
hikes = []
for _ in range(90):
    u, t = rng.choice(hikers), rng.choice(trails)
    h = dict(
        user=u["name"], trail=t["name"], rating=rng.randint(1, 5), duration=int(t["length"] * rng.uniform(12, 25)),
        on=f"{rng.choice([2022, 2023, 2024])}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
    )  # fmt: skip
    hikes.append(h)
    L.append(
        f"MATCH (h:Hiker {{username: {q(u['name'])}}}), (t:Trail {{trail_name: {q(t['name'])}}}) "
        f"CREATE (h)-[:HIKED {{hiked_on: {q(h['on'])}, duration_min: {h['duration']}, rating: {h['rating']}}}]->(t);"
    )

# the constants the questions name, picked from what was made
busy = max(hikers, key=lambda u: sum(1 for h in hikes if h["user"] == u["name"]))
popular = max(trails, key=lambda t: sum(1 for h in hikes if h["trail"] == t["name"]))
hard = next(t for t in trails if t["difficulty"] == "hard")
loop = next(t for t in trails if t["loop"])
linked = sorted(links)[0][0]
site, site_trail = sites[1]
country = hikers[3]["country"]

Q = [
    ("How many trails are there?", "MATCH (t:Trail) RETURN count(t)"),
    (
        "Which trails are in Saltmarsh Reserve?",
        "MATCH (t:Trail)-[:IN_PARK]->(:Park {park_name: 'Saltmarsh Reserve'}) RETURN t.trail_name",
    ),
    ("What is the longest trail?", "MATCH (t:Trail) RETURN t.trail_name ORDER BY t.length_km DESC LIMIT 1"),
    ("List the hard trails.", "MATCH (t:Trail {difficulty: 'hard'}) RETURN t.trail_name"),
    ("Which trails are loops?", "MATCH (t:Trail) WHERE t.is_loop = true RETURN t.trail_name"),
    (
        "Which trails are tagged with waterfall?",
        "MATCH (t:Trail) WHERE 'waterfall' IN t.tags RETURN t.trail_name",
    ),
    ("How high is Mount Corrin?", "MATCH (p:Peak {peak_name: 'Mount Corrin'}) RETURN p.elevation_m"),
    (
        "Which trails reach Eagle Tor?",
        "MATCH (t:Trail)-[:REACH]->(:Peak {peak_name: 'Eagle Tor'}) RETURN t.trail_name",
    ),
    (
        f"What is the length of {hard['name']}?",
        f"MATCH (t:Trail {{trail_name: {q(hard['name'])}}}) RETURN t.length_km",
    ),
    (
        f"Which trails has {busy['name']} hiked?",
        f"MATCH (:Hiker {{username: {q(busy['name'])}}})-[:HIKED]->(t:Trail) RETURN DISTINCT t.trail_name",
    ),
    (
        f"How many times has {popular['name']} been hiked?",
        f"MATCH (:Hiker)-[h:HIKED]->(:Trail {{trail_name: {q(popular['name'])}}}) RETURN count(h)",
    ),
    (
        f"What is the average rating of {popular['name']}?",
        f"MATCH (:Hiker)-[h:HIKED]->(:Trail {{trail_name: {q(popular['name'])}}}) RETURN avg(h.rating)",
    ),
    (
        "Which park has the most trails?",
        "MATCH (t:Trail)-[:IN_PARK]->(p:Park) RETURN p.park_name, count(t) AS n ORDER BY n DESC LIMIT 1",
    ),
    ("Which parks are in the Highlands?", "MATCH (p:Park {region: 'Highlands'}) RETURN p.park_name"),
    ("When was Ironridge State Park established?", "MATCH (p:Park {park_name: 'Ironridge State Park'}) RETURN p.established"),
    (
        "List the trails longer than 15 km.",
        "MATCH (t:Trail) WHERE t.length_km > 15 RETURN t.trail_name",
    ),
    (
        "Which trails have an elevation gain of more than 1000 meters?",
        "MATCH (t:Trail) WHERE t.elevation_gain_m > 1000 RETURN t.trail_name",
    ),
    (
        f"Which hikers are from {country}?",
        f"MATCH (h:Hiker {{home_country: {q(country)}}}) RETURN h.username",
    ),
    ("Which hikers joined in 2023?", "MATCH (h:Hiker) WHERE h.joined_on STARTS WITH '2023' RETURN h.username"),
    (
        "Who has hiked the most trails?",
        "MATCH (h:Hiker)-[:HIKED]->(t:Trail) RETURN h.username, count(DISTINCT t) AS n ORDER BY n DESC LIMIT 1",
    ),
    (
        f"Which campsite is near {site_trail}?",
        f"MATCH (c:Campsite)-[:NEAR]->(:Trail {{trail_name: {q(site_trail)}}}) RETURN c.site_name",
    ),
    (f"What is the capacity of {site}?", f"MATCH (c:Campsite {{site_name: {q(site)}}}) RETURN c.capacity"),
    (
        f"Which trails connect to {linked}?",
        f"MATCH (:Trail {{trail_name: {q(linked)}}})-[:CONNECT_TO]-(t:Trail) RETURN DISTINCT t.trail_name",
    ),
    (
        "What is the total length of the trails in Hollow Pine National Park?",
        "MATCH (t:Trail)-[:IN_PARK]->(:Park {park_name: 'Hollow Pine National Park'}) RETURN sum(t.length_km)",
    ),
    (
        "Which peaks are in Ironridge State Park?",
        "MATCH (:Park {park_name: 'Ironridge State Park'})<-[:IN_PARK]-(:Trail)-[:REACH]->(p:Peak) RETURN DISTINCT p.peak_name",
    ),
    (
        "List the top 3 trails by average rating.",
        "MATCH (:Hiker)-[h:HIKED]->(t:Trail) RETURN t.trail_name, avg(h.rating) AS r ORDER BY r DESC LIMIT 3",
    ),
    (
        "How many hikes were rated 5?",
        "MATCH ()-[h:HIKED]->() WHERE h.rating = 5 RETURN count(h)",
    ),
    ("Which is the highest peak?", "MATCH (p:Peak) RETURN p.peak_name ORDER BY p.elevation_m DESC LIMIT 1"),
    (
        "How many trails does each park have?",
        "MATCH (t:Trail)-[:IN_PARK]->(p:Park) RETURN p.park_name, count(t)",
    ),
    (
        f"Which hikers have hiked {hard['name']}?",
        f"MATCH (h:Hiker)-[:HIKED]->(:Trail {{trail_name: {q(hard['name'])}}}) RETURN DISTINCT h.username",
    ),
    (
        "Which easy trails are dog-friendly?",
        "MATCH (t:Trail {difficulty: 'easy'}) WHERE 'dog-friendly' IN t.tags RETURN t.trail_name",
    ),
    (
        f"When did {busy['name']} first hike?",
        f"MATCH (:Hiker {{username: {q(busy['name'])}}})-[h:HIKED]->() RETURN min(h.hiked_on)",
    ),
    (
        "Which campsites have a capacity of at least 20?",
        "MATCH (c:Campsite) WHERE c.capacity >= 20 RETURN c.site_name",
    ),
    (
        "What is the average length of hard trails?",
        "MATCH (t:Trail {difficulty: 'hard'}) RETURN avg(t.length_km)",
    ),
    (
        "Which trails have never been hiked?",
        "MATCH (t:Trail) WHERE NOT (:Hiker)-[:HIKED]->(t) RETURN t.trail_name",
    ),
    (
        f"In which park is {loop['name']}?",
        f"MATCH (:Trail {{trail_name: {q(loop['name'])}}})-[:IN_PARK]->(p:Park) RETURN p.park_name",
    ),
    (
        "Which hikers have hiked trails in Saltmarsh Reserve?",
        "MATCH (h:Hiker)-[:HIKED]->(:Trail)-[:IN_PARK]->(:Park {park_name: 'Saltmarsh Reserve'}) RETURN DISTINCT h.username",
    ),
    (
        "What is the longest hike duration in minutes?",
        "MATCH ()-[h:HIKED]->() RETURN max(h.duration_min)",
    ),
    (
        "How many hikes took place in 2024?",
        "MATCH ()-[h:HIKED]->() WHERE h.hiked_on STARTS WITH '2024' RETURN count(h)",
    ),
    (
        "Which trails reach peaks higher than 1500 meters?",
        "MATCH (t:Trail)-[:REACH]->(p:Peak) WHERE p.elevation_m > 1500 RETURN DISTINCT t.trail_name",
    ),
]
write(HERE, "trails", L, Q)
