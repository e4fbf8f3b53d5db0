"""A small graph of a saga's characters of a schema none of the service's code was written against (session 54), in the
style of the character networks computed from novels: characters by ``name`` with a ``gender``, a ``birthYear``, a
boolean ``alive``, an optional ``nickname`` and the figures a graph algorithm wrote on them (``pageRank`` as a float,
``community`` and ``degree`` as integers); houses by ``name`` with a ``seat``, a ``region`` and a ``founded`` year;
books by ``title`` with a ``number`` and a ``published`` year. Characters interact with characters
(``INTERACTS_WITH {weight, book}``, stored in one direction, read as either: the gold queries leave the direction
out), ``KILLED`` others in a ``book``, are the ``CHILD_OF`` their parents, are ``MEMBER_OF`` a house and
``APPEARS_IN`` books (``chapters``); houses are ``SWORN_TO`` houses. 45 questions with gold Cypher written by hand
before the service was run on it, in the form a generated benchmark's gold takes; the first measurement of it is the
one an unseen graph gets (reports/summary.md, session 54).

``python data/saga/make.py`` writes ``saga.cypher`` and ``questions.jsonl`` here (``make eval-own``). The project's
own data, not a public benchmark."""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from own_graph import q, write  # noqa: E402

HERE = Path(__file__).resolve().parent
rng = random.Random(54)

HOUSES = [  # name, seat, region, founded
    ("House Varn", "Greywater Hold", "the North", 112),
    ("House Ostrell", "Saltspire", "the Coast", 87),
    ("House Drumm", "Emberfall", "the Reach", 203),
    ("House Halloway", "Thornwick", "the North", 156),
    ("House Keswyck", "Ravensmoor", "the Vale", 64),
    ("House Marrow", "Ashgate", "the Reach", 241),
]
SWORN = [("House Halloway", "House Varn"), ("House Keswyck", "House Varn"), ("House Marrow", "House Drumm")]
BOOKS = [  # title, number, published
    ("A Crown of Ash", 1, 1998),
    ("The Salt Throne", 2, 2001),
    ("Winter's Ledger", 3, 2004),
    ("The Drowned Keep", 4, 2009),
    ("A Choir of Gulls", 5, 2015),
]
GIVEN_M = "Edric Tomas Brann Alaric Corwin Dunstan Garrick Halvard Ivo Joren Kell Lothar Merek Osric Piers Rowan".split()
GIVEN_F = "Lysa Maren Elsbeth Ysolde Brienne Catelyn Dagny Fenna Gwen Hild Idony Jorah Kestra Liane Mirela Nessa".split()
NICKNAMES = ["the Grey", "Half-Hand", "the Quiet", "Stormborn", "the Red", "Two-Swords", "the Lame", "Oakheart"]

L: list[str] = []
for name, seat, region, founded in HOUSES:
    L.append(f"CREATE (:House {{name: {q(name)}, seat: {q(seat)}, region: {q(region)}, founded: {founded}}});")
for a, b in SWORN:
    L.append(f"MATCH (a:House {{name: {q(a)}}}), (b:House {{name: {q(b)}}}) CREATE (a)-[:SWORN_TO]->(b);")
for title, number, year in BOOKS:
    L.append(f"CREATE (:Book {{title: {q(title)}, number: {number}, published: {year}}});")

chars = []
used: set[str] = set()
for hi, (house, *_rest) in enumerate(HOUSES):
    family = house.split()[1]
    for j in range(rng.randint(6, 10)):
        female = rng.random() < 0.45
        given = rng.choice([g for g in (GIVEN_F if female else GIVEN_M) if f"{g} {family}" not in used])
        name = f"{given} {family}"
        used.add(name)
        chars.append(dict(name=name, house=house, female=female))
for given in ["Wat", "Sella", "Gorm", "Tansy", "Bram"]:  # the houseless: one name each
    chars.append(dict(name=given, house=None, female=given in ("Sella", "Tansy")))
for c in chars:
    c["born"] = rng.randint(240, 300)
    c["alive"] = True
    c["nickname"] = rng.choice(NICKNAMES) if rng.random() < 0.15 else None
    c["community"] = rng.randint(0, 5)

interactions = []  # (a, b, book, weight), a before b in chars
for _ in range(260):
    a, b = rng.sample(range(len(chars)), 2)
    a, b = min(a, b), max(a, b)
    interactions.append((a, b, rng.randint(1, 5), rng.randint(1, 40)))
kills = []
for _ in range(14):
    k, v = rng.sample(range(len(chars)), 2)
    if not chars[v]["alive"]:
        continue
    chars[v]["alive"] = False
    kills.append((k, v, rng.randint(1, 5)))
for c in chars:
    others = {b for a, b, *_ in interactions if a == chars.index(c)} | {
        a for a, b, *_ in interactions if b == chars.index(c)
    }
    c["degree"] = len(others)
    c["pageRank"] = round(0.15 + 0.6 * len(others) * rng.uniform(0.5, 1.5), 4)
for c in chars:
    props = (
        f"name: {q(c['name'])}, gender: {q('female' if c['female'] else 'male')}, birthYear: {c['born']}, "
        f"alive: {'true' if c['alive'] else 'false'}, pageRank: {c['pageRank']}, community: {c['community']}, "
        f"degree: {c['degree']}"
    )
    if c["nickname"]:
        props += f", nickname: {q(c['nickname'])}"
    L.append(f"CREATE (:Character {{{props}}});")
    if c["house"]:
        L.append(
            f"MATCH (c:Character {{name: {q(c['name'])}}}), (h:House {{name: {q(c['house'])}}}) CREATE (c)-[:MEMBER_OF]->(h);"
        )
    for title, number, _y in BOOKS:
        if rng.random() < 0.55 or number == 1 and c["house"]:
            L.append(
                f"MATCH (c:Character {{name: {q(c['name'])}}}), (b:Book {{title: {q(title)}}}) "
                f"CREATE (c)-[:APPEARS_IN {{chapters: {rng.randint(1, 30)}}}]->(b);"
            )
for a, b, book, w in interactions:
    L.append(
        f"MATCH (a:Character {{name: {q(chars[a]['name'])}}}), (b:Character {{name: {q(chars[b]['name'])}}}) "
        f"CREATE (a)-[:INTERACTS_WITH {{weight: {w}, book: {book}}}]->(b);"
    )
for k, v, book in kills:
    L.append(
        f"MATCH (a:Character {{name: {q(chars[k]['name'])}}}), (b:Character {{name: {q(chars[v]['name'])}}}) "
        f"CREATE (a)-[:KILLED {{book: {book}}}]->(b);"
    )
by_house: dict[str, list[dict]] = {}
for c in chars:
    by_house.setdefault(c["house"], []).append(c)
for house, members in by_house.items():
    if house is None:
        continue
    elders = sorted(members, key=lambda c: c["born"])[:2]
    for c in members:
        if c not in elders and rng.random() < 0.6:
            c["parents"] = elders
            for parent in elders:
                L.append(
                    f"MATCH (c:Character {{name: {q(c['name'])}}}), (p:Character {{name: {q(parent['name'])}}}) "
                    "CREATE (c)-[:CHILD_OF]->(p);"
                )

# the constants the questions name, picked from what was made
hub = max(chars, key=lambda c: c["degree"])
killer = max(chars, key=lambda c: sum(1 for k, *_ in kills if chars[k] is c))
victim = chars[kills[0][1]]
pair = interactions[3]
a_name, b_name = chars[pair[0]]["name"], chars[pair[1]]["name"]
nick = next(c for c in chars if c["nickname"])
parent = next(c for c in by_house["House Ostrell"] if c in sorted(by_house["House Ostrell"], key=lambda c: c["born"])[:2])
child = next(c for c in chars if c["house"] == "House Drumm" and c.get("parents"))
ranked = sorted(c["pageRank"] for c in chars)[-6]  # five or six above it
high = int(ranked)
loner = "Wat"

Q = [
    ("How many characters are there?", "MATCH (c:Character) RETURN count(c)"),
    (
        "Which characters are members of House Ostrell?",
        "MATCH (c:Character)-[:MEMBER_OF]->(:House {name: 'House Ostrell'}) RETURN c.name",
    ),
    ("Who has the highest page rank?", "MATCH (c:Character) RETURN c.name ORDER BY c.pageRank DESC LIMIT 1"),
    (
        "List the top 5 characters by degree.",
        "MATCH (c:Character) RETURN c.name, c.degree ORDER BY c.degree DESC LIMIT 5",
    ),
    (
        f"Which characters interacted with {hub['name']}?",
        f"MATCH (:Character {{name: {q(hub['name'])}}})-[:INTERACTS_WITH]-(o:Character) RETURN DISTINCT o.name",
    ),
    (
        f"Who killed {victim['name']}?",
        f"MATCH (k:Character)-[:KILLED]->(:Character {{name: {q(victim['name'])}}}) RETURN k.name",
    ),
    (
        f"How many characters did {killer['name']} kill?",
        f"MATCH (:Character {{name: {q(killer['name'])}}})-[:KILLED]->(v:Character) RETURN count(v)",
    ),
    ("Which characters are in community 3?", "MATCH (c:Character {community: 3}) RETURN c.name"),
    (
        "What is the average page rank of the members of House Drumm?",
        "MATCH (c:Character)-[:MEMBER_OF]->(:House {name: 'House Drumm'}) RETURN avg(c.pageRank)",
    ),
    (
        "Which house has the most members?",
        "MATCH (c:Character)-[:MEMBER_OF]->(h:House) RETURN h.name, count(c) AS members ORDER BY members DESC LIMIT 1",
    ),
    (
        "Which characters appear in The Drowned Keep?",
        "MATCH (c:Character)-[:APPEARS_IN]->(:Book {title: 'The Drowned Keep'}) RETURN c.name",
    ),
    (
        f"In how many chapters of A Crown of Ash does {hub['name']} appear?",
        f"MATCH (:Character {{name: {q(hub['name'])}}})-[r:APPEARS_IN]->(:Book {{title: 'A Crown of Ash'}}) "
        "RETURN r.chapters",
    ),
    ("How many characters are still alive?", "MATCH (c:Character) WHERE c.alive = true RETURN count(c)"),
    (
        "Which members of House Varn are dead?",
        "MATCH (c:Character)-[:MEMBER_OF]->(:House {name: 'House Varn'}) WHERE c.alive = false RETURN c.name",
    ),
    (
        f"Who did {hub['name']} interact with the most?",
        f"MATCH (:Character {{name: {q(hub['name'])}}})-[r:INTERACTS_WITH]-(o:Character) "
        "RETURN o.name ORDER BY r.weight DESC LIMIT 1",
    ),
    (
        f"Who are the children of {parent['name']}?",
        f"MATCH (c:Character)-[:CHILD_OF]->(:Character {{name: {q(parent['name'])}}}) RETURN c.name",
    ),
    (
        f"Who are the parents of {child['name']}?",
        f"MATCH (:Character {{name: {q(child['name'])}}})-[:CHILD_OF]->(p:Character) RETURN p.name",
    ),
    (
        "Which houses are sworn to House Varn?",
        "MATCH (h:House)-[:SWORN_TO]->(:House {name: 'House Varn'}) RETURN h.name",
    ),
    ("What is the seat of House Keswyck?", "MATCH (h:House {name: 'House Keswyck'}) RETURN h.seat"),
    ("Which houses are in the North?", "MATCH (h:House {region: 'the North'}) RETURN h.name"),
    ("How many books were published after 2003?", "MATCH (b:Book) WHERE b.published > 2003 RETURN count(b)"),
    (
        "Which female characters belong to House Halloway?",
        "MATCH (c:Character {gender: 'female'})-[:MEMBER_OF]->(:House {name: 'House Halloway'}) RETURN c.name",
    ),
    (
        f"List the characters with a page rank above {high}.",
        f"MATCH (c:Character) WHERE c.pageRank > {high} RETURN c.name",
    ),
    (
        f"Which characters did {hub['name']} interact with in book 2?",
        f"MATCH (:Character {{name: {q(hub['name'])}}})-[r:INTERACTS_WITH]-(o:Character) WHERE r.book = 2 "
        "RETURN DISTINCT o.name",
    ),
    (
        f"What is the total interaction weight between {a_name} and {b_name}?",
        f"MATCH (:Character {{name: {q(a_name)}}})-[r:INTERACTS_WITH]-(:Character {{name: {q(b_name)}}}) "
        "RETURN sum(r.weight)",
    ),
    (
        "Which characters killed members of House Ostrell?",
        "MATCH (k:Character)-[:KILLED]->(:Character)-[:MEMBER_OF]->(:House {name: 'House Ostrell'}) "
        "RETURN DISTINCT k.name",
    ),
    (
        "Who killed the most characters?",
        "MATCH (k:Character)-[:KILLED]->(v:Character) RETURN k.name, count(v) AS kills ORDER BY kills DESC LIMIT 1",
    ),
    (
        "Which book has the most characters?",
        "MATCH (c:Character)-[:APPEARS_IN]->(b:Book) RETURN b.title, count(c) AS n ORDER BY n DESC LIMIT 1",
    ),
    (
        "Which characters appear in more than 3 books?",
        "MATCH (c:Character)-[:APPEARS_IN]->(b:Book) WITH c, count(b) AS books WHERE books > 3 RETURN c.name",
    ),
    (
        f"What house does {victim['name']} belong to?",
        f"MATCH (:Character {{name: {q(victim['name'])}}})-[:MEMBER_OF]->(h:House) RETURN h.name",
    ),
    (
        "How many members does each house have?",
        "MATCH (c:Character)-[:MEMBER_OF]->(h:House) RETURN h.name, count(c)",
    ),
    ("When was House Marrow founded?", "MATCH (h:House {name: 'House Marrow'}) RETURN h.founded"),
    (
        "Which characters do not belong to any house?",
        "MATCH (c:Character) WHERE NOT (c)-[:MEMBER_OF]->(:House) RETURN c.name",
    ),
    (
        f"Which characters are in the same community as {hub['name']}?",
        f"MATCH (a:Character {{name: {q(hub['name'])}}}), (b:Character) WHERE b.community = a.community AND b <> a "
        "RETURN b.name",
    ),
    ("What is the title of book 3?", "MATCH (b:Book {number: 3}) RETURN b.title"),
    (
        "Who are the 3 characters with the lowest degree?",
        "MATCH (c:Character) RETURN c.name, c.degree ORDER BY c.degree ASC LIMIT 3",
    ),
    (
        f"How many interactions does {loner} have?",
        f"MATCH (:Character {{name: {q(loner)}}})-[r:INTERACTS_WITH]-() RETURN count(r)",
    ),
    (
        "Which characters were killed in book 2?",
        "MATCH ()-[:KILLED {book: 2}]->(v:Character) RETURN v.name",
    ),
    (
        f"What is the nickname of {nick['name']}?",
        f"MATCH (c:Character {{name: {q(nick['name'])}}}) RETURN c.nickname",
    ),
    (
        "Which characters were born before 245?",
        "MATCH (c:Character) WHERE c.birthYear < 245 RETURN c.name",
    ),
    (
        "Who is the oldest member of House Keswyck?",
        "MATCH (c:Character)-[:MEMBER_OF]->(:House {name: 'House Keswyck'}) RETURN c.name ORDER BY c.birthYear LIMIT 1",
    ),
    (
        "Which characters interacted with members of House Marrow?",
        "MATCH (c:Character)-[:INTERACTS_WITH]-(:Character)-[:MEMBER_OF]->(:House {name: 'House Marrow'}) "
        "RETURN DISTINCT c.name",
    ),
    (f"What is the gender of {loner}?", f"MATCH (c:Character {{name: {q(loner)}}}) RETURN c.gender"),
    (
        "How many houses are sworn to House Varn?",
        "MATCH (h:House)-[:SWORN_TO]->(:House {name: 'House Varn'}) RETURN count(h)",
    ),
    (
        "What is the average number of chapters per book appearance?",
        "MATCH ()-[r:APPEARS_IN]->() RETURN avg(r.chapters)",
    ),
]
write(HERE, "saga", L, Q)
