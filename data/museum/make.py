"""A small museum-collection graph of a schema none of the service's code was written against (session 57):
museums by ``museumName`` with a ``city`` and an integer ``founded``; artists by ``fullName`` with a ``nationality``,
an integer ``born`` and, for some, ``died``; artworks by ``workTitle`` with a categorical ``medium``, an integer
``yearCreated``, a float ``heightCm``, an integer ``insuredValueEur``, a boolean ``onDisplay`` and a list of
``themes``; exhibitions by ``exhibitionName`` with ``opensOn`` / ``closesOn`` dates as text; curators by
``curatorName`` with a ``staffId`` ("CUR-014"). Artists ``CREATED`` artworks and some ``INFLUENCED`` others; museums
``ACQUIRED`` artworks (``year``, ``priceEur``); some artworks are ``ON_LOAN_TO`` another museum (``until``);
exhibitions are ``HOSTED_BY`` a museum and ``SHOW`` artworks (``room``); curators ``ORGANISED`` exhibitions and are
``EMPLOYED_BY`` a museum (``since``). 40 questions with gold Cypher written by hand before the service was run on it
(reports/summary.md, session 57).

``python data/museum/make.py`` writes ``museum.cypher`` and ``questions.jsonl`` here (``make eval-own``). The
project's own data, not a public benchmark."""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from own_graph import q, write  # noqa: E402

HERE = Path(__file__).resolve().parent
rng = random.Random(571)

MUSEUMS = [("Kestrel Gallery", "Utrecht", 1889), ("Museo Calvario", "Seville", 1921),
           ("Northbank Art House", "Leeds", 1974), ("Vesna Collection", "Ljubljana", 2003)]  # fmt: skip
ARTISTS = [("Ines Valdour", "Spanish", 1841, 1903), ("Pieter Molenaar", "Dutch", 1862, 1931),
           ("Agnes Holloway", "British", 1905, 1988), ("Luka Breznik", "Slovenian", 1950, None),
           ("Rosa Santacruz", "Spanish", 1968, None), ("Hendrik Vos", "Dutch", 1899, 1966),
           ("Maud Ferrers", "British", 1930, 2011), ("Tomaz Kralj", "Slovenian", 1982, None)]  # fmt: skip
MEDIA = ["oil", "watercolour", "bronze", "marble", "ink", "photograph"]
THEMES = ["sea", "portrait", "city", "harvest", "night", "war", "garden"]
WORDS_A = ["Quiet", "Red", "Falling", "Northern", "Silent", "Golden", "Broken", "Distant", "Winter", "Open"]
WORDS_B = ["Harbour", "Orchard", "Window", "Bridge", "Mother", "Field", "Lantern", "Tide", "Room", "Garden"]
EXHIBITIONS = ["Light on Water", "Faces of the Century", "The Iron Age of Cities", "Gardens Remembered",
               "After Dark", "Paper and Ink"]  # fmt: skip
CURATORS = ["Elin Haugen", "Marco Ruiz", "Nadia Okafor", "Jasper Lindqvist", "Ana Petek"]

L: list[str] = []
for name, city, founded in MUSEUMS:
    L.append(f"CREATE (:Museum {{museumName: {q(name)}, city: {q(city)}, founded: {founded}}});")
for name, nat, born, died in ARTISTS:
    dies = f", died: {died}" if died else ""
    L.append(f"CREATE (:Artist {{fullName: {q(name)}, nationality: {q(nat)}, born: {born}{dies}}});")
influence = set()
for _ in range(6):
    a, b = sorted(rng.sample(ARTISTS, 2), key=lambda x: x[2])  # the elder influenced the younger
    if (a[0], b[0]) not in influence:
        influence.add((a[0], b[0]))
        L.append(
            f"MATCH (a:Artist {{fullName: {q(a[0])}}}), (b:Artist {{fullName: {q(b[0])}}}) CREATE (a)-[:INFLUENCED]->(b);"
        )
works = []
titles = set()
while len(works) < 36:
    title = f"{rng.choice(WORDS_A)} {rng.choice(WORDS_B)}"
    if title in titles:
        continue
    titles.add(title)
    artist = rng.choice(ARTISTS)
    year = rng.randint(artist[2] + 20, (artist[3] or 2024) - 1 if artist[3] else 2023)
    w = dict(
        title=title, artist=artist[0], medium=rng.choice(MEDIA), year=year, height=round(rng.uniform(18, 240), 1),
        value=rng.randint(4, 600) * 5000, display=rng.random() < 0.6, themes=rng.sample(THEMES, rng.randint(1, 3)),
        owner=rng.choice(MUSEUMS)[0],
    )  # fmt: skip
    works.append(w)
    themes = ", ".join(q(t) for t in w["themes"])
    L.append(
        f"CREATE (:Artwork {{workTitle: {q(title)}, medium: {q(w['medium'])}, yearCreated: {year}, "
        f"heightCm: {w['height']}, insuredValueEur: {w['value']}, onDisplay: {'true' if w['display'] else 'false'}, "
        f"themes: [{themes}]}});"
    )
    L.append(
        f"MATCH (a:Artist {{fullName: {q(artist[0])}}}), (w:Artwork {{workTitle: {q(title)}}}) CREATE (a)-[:CREATED]->(w);"
    )
    w["bought"] = rng.randint(max(year + 1, 1890), 2023)
    w["price"] = rng.randint(1, 200) * 2500
    L.append(
        f"MATCH (m:Museum {{museumName: {q(w['owner'])}}}), (w:Artwork {{workTitle: {q(title)}}}) "
        f"CREATE (m)-[:ACQUIRED {{year: {w['bought']}, priceEur: {w['price']}}}]->(w);"
    )
    if rng.random() < 0.2:
        w["loan"] = rng.choice([m[0] for m in MUSEUMS if m[0] != w["owner"]])
        w["until"] = f"2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        L.append(
            f"MATCH (w:Artwork {{workTitle: {q(title)}}}), (m:Museum {{museumName: {q(w['loan'])}}}) "
            f"CREATE (w)-[:ON_LOAN_TO {{until: {q(w['until'])}}}]->(m);"
        )
exhibitions = []
for i, name in enumerate(EXHIBITIONS):
    year = rng.choice([2023, 2024])
    month = rng.randint(1, 9)
    x = dict(name=name, museum=rng.choice(MUSEUMS)[0], opens=f"{year}-{month:02d}-01",
             closes=f"{year}-{month + 3:02d}-{rng.randint(10, 28)}", works=rng.sample(works, rng.randint(3, 7)))  # fmt: skip
    exhibitions.append(x)
    L.append(f"CREATE (:Exhibition {{exhibitionName: {q(name)}, opensOn: {q(x['opens'])}, closesOn: {q(x['closes'])}}});")
    L.append(
        f"MATCH (x:Exhibition {{exhibitionName: {q(name)}}}), (m:Museum {{museumName: {q(x['museum'])}}}) "
        "CREATE (x)-[:HOSTED_BY]->(m);"
    )
    for w in x["works"]:
        L.append(
            f"MATCH (x:Exhibition {{exhibitionName: {q(name)}}}), (w:Artwork {{workTitle: {q(w['title'])}}}) "
            f"CREATE (x)-[:SHOWS {{room: {rng.randint(1, 12)}}}]->(w);"
        )
curators = []
for i, name in enumerate(CURATORS):
    c = dict(name=name, staff=f"CUR-{i * 6 + 3:03d}", museum=rng.choice(MUSEUMS)[0])
    curators.append(c)
    L.append(f"CREATE (:Curator {{curatorName: {q(name)}, staffId: {q(c['staff'])}}});")
    L.append(
        f"MATCH (c:Curator {{curatorName: {q(name)}}}), (m:Museum {{museumName: {q(c['museum'])}}}) "
        f"CREATE (c)-[:EMPLOYED_BY {{since: {q(f'{rng.randint(2004, 2022)}-{rng.randint(1, 12):02d}-01')}}}]->(m);"
    )
for x in exhibitions:
    c = rng.choice(curators)
    x["curator"] = c["name"]
    L.append(
        f"MATCH (c:Curator {{curatorName: {q(c['name'])}}}), (x:Exhibition {{exhibitionName: {q(x['name'])}}}) "
        "CREATE (c)-[:ORGANISED]->(x);"
    )

# the constants the questions name, picked from what was made
prolific = max(ARTISTS, key=lambda a: sum(1 for w in works if w["artist"] == a[0]))[0]
big = max(exhibitions, key=lambda x: len(x["works"]))
work = big["works"][0]
home = max(MUSEUMS, key=lambda m: sum(1 for w in works if w["owner"] == m[0]))[0]
busy = max(curators, key=lambda c: sum(1 for x in exhibitions if x["curator"] == c["name"]))
elder = sorted(influence)[0][0]
loaned = next(w for w in works if "loan" in w)

Q = [
    ("How many artworks are there?", "MATCH (w:Artwork) RETURN count(w)"),
    ("Which artworks are made of bronze?", "MATCH (w:Artwork {medium: 'bronze'}) RETURN w.workTitle"),
    (f"Which artworks did {prolific} create?",
     f"MATCH (:Artist {{fullName: {q(prolific)}}})-[:CREATED]->(w:Artwork) RETURN w.workTitle"),
    (f"Who created {work['title']}?", f"MATCH (a:Artist)-[:CREATED]->(:Artwork {{workTitle: {q(work['title'])}}}) RETURN a.fullName"),
    (f"Which museum owns {work['title']}?",
     f"MATCH (m:Museum)-[:ACQUIRED]->(:Artwork {{workTitle: {q(work['title'])}}}) RETURN m.museumName"),
    (f"When did {home} acquire {next(w['title'] for w in works if w['owner'] == home)}?",
     f"MATCH (:Museum {{museumName: {q(home)}}})-[r:ACQUIRED]->(:Artwork {{workTitle: {q(next(w['title'] for w in works if w['owner'] == home))}}}) RETURN r.year"),
    ("Which artists are Dutch?", "MATCH (a:Artist {nationality: 'Dutch'}) RETURN a.fullName"),
    ("Which artists are still alive?", "MATCH (a:Artist) WHERE a.died IS NULL RETURN a.fullName"),
    ("Which artworks are on display?", "MATCH (w:Artwork) WHERE w.onDisplay = true RETURN w.workTitle"),
    ("What is the most valuable artwork?", "MATCH (w:Artwork) RETURN w.workTitle ORDER BY w.insuredValueEur DESC LIMIT 1"),
    ("Which is the tallest artwork?", "MATCH (w:Artwork) RETURN w.workTitle ORDER BY w.heightCm DESC LIMIT 1"),
    ("Which artworks were created before 1900?", "MATCH (w:Artwork) WHERE w.yearCreated < 1900 RETURN w.workTitle"),
    ("Which artworks have the theme sea?", "MATCH (w:Artwork) WHERE 'sea' IN w.themes RETURN w.workTitle"),
    (f"Which exhibitions are hosted by {home}?",
     f"MATCH (x:Exhibition)-[:HOSTED_BY]->(:Museum {{museumName: {q(home)}}}) RETURN x.exhibitionName"),
    (f"Which artworks are shown in {big['name']}?",
     f"MATCH (:Exhibition {{exhibitionName: {q(big['name'])}}})-[:SHOWS]->(w:Artwork) RETURN w.workTitle"),
    (f"How many artworks does {big['name']} show?",
     f"MATCH (:Exhibition {{exhibitionName: {q(big['name'])}}})-[:SHOWS]->(w:Artwork) RETURN count(w)"),
    (f"Who organised {big['name']}?",
     f"MATCH (c:Curator)-[:ORGANISED]->(:Exhibition {{exhibitionName: {q(big['name'])}}}) RETURN c.curatorName"),
    (f"Which museum employs {busy['name']}?",
     f"MATCH (:Curator {{curatorName: {q(busy['name'])}}})-[:EMPLOYED_BY]->(m:Museum) RETURN m.museumName"),
    ("Which museum has the most artworks?",
     "MATCH (m:Museum)-[:ACQUIRED]->(w:Artwork) RETURN m.museumName, count(w) AS n ORDER BY n DESC LIMIT 1"),
    ("How many artworks did each museum acquire?",
     "MATCH (m:Museum)-[:ACQUIRED]->(w:Artwork) RETURN m.museumName, count(w)"),
    (f"Which artists did {elder} influence?",
     f"MATCH (:Artist {{fullName: {q(elder)}}})-[:INFLUENCED]->(a:Artist) RETURN a.fullName"),
    ("Which exhibitions open in 2024?", "MATCH (x:Exhibition) WHERE x.opensOn STARTS WITH '2024' RETURN x.exhibitionName"),
    (f"When does {big['name']} close?", f"MATCH (x:Exhibition {{exhibitionName: {q(big['name'])}}}) RETURN x.closesOn"),
    (f"Which museum is {loaned['title']} on loan to?",
     f"MATCH (:Artwork {{workTitle: {q(loaned['title'])}}})-[:ON_LOAN_TO]->(m:Museum) RETURN m.museumName"),
    ("Which artworks are on loan?", "MATCH (w:Artwork)-[:ON_LOAN_TO]->(:Museum) RETURN w.workTitle"),
    (f"What is the total insured value of the artworks of {home}?",
     f"MATCH (:Museum {{museumName: {q(home)}}})-[:ACQUIRED]->(w:Artwork) RETURN sum(w.insuredValueEur)"),
    ("What is the average height of the marble artworks?",
     "MATCH (w:Artwork {medium: 'marble'}) RETURN avg(w.heightCm)"),
    (f"How much did {home} pay in total for its acquisitions?",
     f"MATCH (:Museum {{museumName: {q(home)}}})-[r:ACQUIRED]->(:Artwork) RETURN sum(r.priceEur)"),
    ("Which artworks were acquired after 2000?", "MATCH (:Museum)-[r:ACQUIRED]->(w:Artwork) WHERE r.year > 2000 RETURN w.workTitle"),
    ("Which artist created the most artworks?",
     "MATCH (a:Artist)-[:CREATED]->(w:Artwork) RETURN a.fullName, count(w) AS n ORDER BY n DESC LIMIT 1"),
    ("Who is the oldest artist?", "MATCH (a:Artist) RETURN a.fullName ORDER BY a.born ASC LIMIT 1"),
    ("Which museums are in Seville?", "MATCH (m:Museum {city: 'Seville'}) RETURN m.museumName"),
    ("Which museum was founded first?", "MATCH (m:Museum) RETURN m.museumName ORDER BY m.founded ASC LIMIT 1"),
    ("Which artists have artworks in exhibitions at Kestrel Gallery?",
     "MATCH (a:Artist)-[:CREATED]->(:Artwork)<-[:SHOWS]-(:Exhibition)-[:HOSTED_BY]->(:Museum {museumName: 'Kestrel Gallery'}) RETURN DISTINCT a.fullName"),
    (f"In which room of {big['name']} is {work['title']} shown?",
     f"MATCH (:Exhibition {{exhibitionName: {q(big['name'])}}})-[s:SHOWS]->(:Artwork {{workTitle: {q(work['title'])}}}) RETURN s.room"),
    ("Which Spanish artists made oil paintings?",
     "MATCH (a:Artist {nationality: 'Spanish'})-[:CREATED]->(:Artwork {medium: 'oil'}) RETURN DISTINCT a.fullName"),
    ("List the 3 most expensive acquisitions.",
     "MATCH (:Museum)-[r:ACQUIRED]->(w:Artwork) RETURN w.workTitle ORDER BY r.priceEur DESC LIMIT 3"),
    (f"What is the staff id of {busy['name']}?", f"MATCH (c:Curator {{curatorName: {q(busy['name'])}}}) RETURN c.staffId"),
    ("Which artworks have never been exhibited?",
     "MATCH (w:Artwork) WHERE NOT ()-[:SHOWS]->(w) RETURN w.workTitle"),
    ("How many artworks of each medium are there?", "MATCH (w:Artwork) RETURN w.medium, count(w)"),
]  # fmt: skip
write(HERE, "museum", L, Q)
