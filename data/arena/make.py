"""A small online-gaming graph of a schema none of the service's code was written against (session 57): players by
``gamertag`` (a lower-case handle with digits, "vortex_77") with a ``region`` and an integer ``level``; guilds by
``guildName`` with a ``founded`` year; games by ``title`` with a ``genre`` and a ``releaseYear``; matches by
``matchId`` ("MT-2024-0153") with a ``mode`` and a ``playedAt`` date-time as text ("2024-05-03T19:20:00"); items by
``itemName`` with a ``rarity`` and an integer ``priceGold``. Players are ``MEMBER_OF`` a guild (``role``, ``since``),
``PLAYED_IN`` matches (``score``, ``kills``, a boolean ``won``), ``OWN`` items and are ``FRIENDS_WITH`` each other
(stored one way, meant both ways); matches are ``OF_GAME`` a game; guilds are ``RIVAL_OF`` guilds. 40 questions with
gold Cypher written by hand before the service was run on it (reports/summary.md, session 57).

``python data/arena/make.py`` writes ``arena.cypher`` and ``questions.jsonl`` here (``make eval-own``). The
project's own data, not a public benchmark."""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from own_graph import q, write  # noqa: E402

HERE = Path(__file__).resolve().parent
rng = random.Random(577)

GAMES = [("Starfall Tactics", "strategy", 2019), ("Crimson Circuit", "racing", 2021),
         ("Hollow Keep", "roguelike", 2018), ("Tidebreaker", "shooter", 2022)]  # fmt: skip
GUILDS = [("Iron Lotus", 2016), ("Night Cartographers", 2019), ("Velvet Anvil", 2020), ("Sable Owls", 2021)]
ITEMS = [("Ember Blade", "legendary", 5200), ("Frost Cloak", "epic", 1800), ("Scout Boots", "common", 90),
         ("Moonlit Bow", "rare", 640), ("Thunder Helm", "epic", 2100), ("Copper Ring", "common", 45),
         ("Wyrm Shield", "legendary", 6100), ("Swift Gloves", "rare", 520)]  # fmt: skip
REGIONS = ["EU", "NA", "APAC", "LATAM"]
ROLES = ["leader", "officer", "member"]
STEMS = ["vortex", "pixel", "nova", "rune", "ghost", "ember", "lynx", "quill"]

L: list[str] = []
for title, genre, year in GAMES:
    L.append(f"CREATE (:Game {{title: {q(title)}, genre: {q(genre)}, releaseYear: {year}}});")
for name, founded in GUILDS:
    L.append(f"CREATE (:Guild {{guildName: {q(name)}, founded: {founded}}});")
for name, rarity, price in ITEMS:
    L.append(f"CREATE (:Item {{itemName: {q(name)}, rarity: {q(rarity)}, priceGold: {price}}});")
L.append("MATCH (a:Guild {guildName: 'Iron Lotus'}), (b:Guild {guildName: 'Sable Owls'}) CREATE (a)-[:RIVAL_OF]->(b);")
L.append("MATCH (a:Guild {guildName: 'Velvet Anvil'}), (b:Guild {guildName: 'Iron Lotus'}) CREATE (a)-[:RIVAL_OF]->(b);")
players = []
tags = set()
while len(players) < 28:
    tag = f"{rng.choice(STEMS)}_{rng.randint(2, 99)}"
    if tag in tags:
        continue
    tags.add(tag)
    joined = rng.choice([*GUILDS, None])
    p = dict(tag=tag, region=rng.choice(REGIONS), level=rng.randint(3, 80), guild=joined[0] if joined else None)
    players.append(p)
    L.append(f"CREATE (:Player {{gamertag: {q(tag)}, region: {q(p['region'])}, level: {p['level']}}});")
    if p["guild"]:
        p["role"] = rng.choice(ROLES)
        L.append(
            f"MATCH (p:Player {{gamertag: {q(tag)}}}), (g:Guild {{guildName: {q(p['guild'])}}}) "
            f"CREATE (p)-[:MEMBER_OF {{role: {q(p['role'])}, since: {q(f'20{rng.randint(16, 24)}-0{rng.randint(1, 9)}-15')}}}]->(g);"
        )
    for item in rng.sample(ITEMS, rng.randint(0, 3)):
        L.append(
            f"MATCH (p:Player {{gamertag: {q(tag)}}}), (i:Item {{itemName: {q(item[0])}}}) CREATE (p)-[:OWNS]->(i);"
        )
friends = set()
for _ in range(18):
    a, b = rng.sample(players, 2)
    if (b["tag"], a["tag"]) not in friends and (a["tag"], b["tag"]) not in friends:
        friends.add((a["tag"], b["tag"]))
        L.append(
            f"MATCH (a:Player {{gamertag: {q(a['tag'])}}}), (b:Player {{gamertag: {q(b['tag'])}}}) "
            "CREATE (a)-[:FRIENDS_WITH]->(b);"
        )
matches = []
for i in range(20):
    game = rng.choice(GAMES)[0]
    m = dict(id=f"MT-{rng.choice([2023, 2024])}-{i * 13 + 101:04d}", game=game, mode=rng.choice(["ranked", "casual"]))
    m["at"] = f"{m['id'][3:7]}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T{rng.randint(10, 23)}:{rng.choice(['00', '15', '30', '45'])}:00"
    m["who"] = rng.sample(players, rng.randint(2, 5))
    matches.append(m)
    L.append(f"CREATE (:Match {{matchId: {q(m['id'])}, mode: {q(m['mode'])}, playedAt: {q(m['at'])}}});")
    L.append(f"MATCH (m:Match {{matchId: {q(m['id'])}}}), (g:Game {{title: {q(game)}}}) CREATE (m)-[:OF_GAME]->(g);")
    winner = rng.choice(m["who"])
    for p in m["who"]:
        L.append(
            f"MATCH (p:Player {{gamertag: {q(p['tag'])}}}), (m:Match {{matchId: {q(m['id'])}}}) "
            f"CREATE (p)-[:PLAYED_IN {{score: {rng.randint(100, 5000)}, kills: {rng.randint(0, 30)}, "
            f"won: {'true' if p is winner else 'false'}}}]->(m);"
        )

# the constants the questions name, picked from what was made
busy = max(players, key=lambda p: sum(1 for m in matches if p in m["who"]))
member = next(p for p in players if p["guild"])
guild = max([g[0] for g in GUILDS], key=lambda g: sum(1 for p in players if p["guild"] == g))
match = max(matches, key=lambda m: len(m["who"]))
friend = max(players, key=lambda p: sum(1 for f in friends if p["tag"] in f))["tag"]

Q = [
    ("How many players are there?", "MATCH (p:Player) RETURN count(p)"),
    ("Which players are from the EU region?", "MATCH (p:Player {region: 'EU'}) RETURN p.gamertag"),
    (f"Which guild is {member['tag']} a member of?",
     f"MATCH (:Player {{gamertag: {q(member['tag'])}}})-[:MEMBER_OF]->(g:Guild) RETURN g.guildName"),
    (f"Who are the members of {guild}?", f"MATCH (p:Player)-[:MEMBER_OF]->(:Guild {{guildName: {q(guild)}}}) RETURN p.gamertag"),
    (f"Who leads {guild}?",
     f"MATCH (p:Player)-[:MEMBER_OF {{role: 'leader'}}]->(:Guild {{guildName: {q(guild)}}}) RETURN p.gamertag"),
    ("Which guild has the most members?",
     "MATCH (p:Player)-[:MEMBER_OF]->(g:Guild) RETURN g.guildName, count(p) AS n ORDER BY n DESC LIMIT 1"),
    (f"Which matches did {busy['tag']} play in?",
     f"MATCH (:Player {{gamertag: {q(busy['tag'])}}})-[:PLAYED_IN]->(m:Match) RETURN m.matchId"),
    (f"How many matches has {busy['tag']} won?",
     f"MATCH (:Player {{gamertag: {q(busy['tag'])}}})-[r:PLAYED_IN]->(:Match) WHERE r.won = true RETURN count(r)"),
    (f"Who won match {match['id']}?",
     f"MATCH (p:Player)-[r:PLAYED_IN]->(:Match {{matchId: {q(match['id'])}}}) WHERE r.won = true RETURN p.gamertag"),
    (f"Which game was match {match['id']} of?",
     f"MATCH (:Match {{matchId: {q(match['id'])}}})-[:OF_GAME]->(g:Game) RETURN g.title"),
    (f"What was the score of {match['who'][0]['tag']} in match {match['id']}?",
     f"MATCH (:Player {{gamertag: {q(match['who'][0]['tag'])}}})-[r:PLAYED_IN]->(:Match {{matchId: {q(match['id'])}}}) RETURN r.score"),
    ("Which items are legendary?", "MATCH (i:Item {rarity: 'legendary'}) RETURN i.itemName"),
    ("What is the most expensive item?", "MATCH (i:Item) RETURN i.itemName ORDER BY i.priceGold DESC LIMIT 1"),
    ("Which items cost less than 100 gold?", "MATCH (i:Item) WHERE i.priceGold < 100 RETURN i.itemName"),
    (f"Which items does {busy['tag']} own?", f"MATCH (:Player {{gamertag: {q(busy['tag'])}}})-[:OWNS]->(i:Item) RETURN i.itemName"),
    ("Which players own the Ember Blade?", "MATCH (p:Player)-[:OWNS]->(:Item {itemName: 'Ember Blade'}) RETURN p.gamertag"),
    (f"Who are the friends of {friend}?",
     f"MATCH (:Player {{gamertag: {q(friend)}}})-[:FRIENDS_WITH]-(f:Player) RETURN f.gamertag"),
    ("Which player has the highest level?", "MATCH (p:Player) RETURN p.gamertag ORDER BY p.level DESC LIMIT 1"),
    ("Which players are above level 70?", "MATCH (p:Player) WHERE p.level > 70 RETURN p.gamertag"),
    ("What is the average level of the players in the NA region?", "MATCH (p:Player {region: 'NA'}) RETURN avg(p.level)"),
    ("Which games are shooters?", "MATCH (g:Game {genre: 'shooter'}) RETURN g.title"),
    ("Which game was released first?", "MATCH (g:Game) RETURN g.title ORDER BY g.releaseYear ASC LIMIT 1"),
    ("How many matches were played of each game?", "MATCH (m:Match)-[:OF_GAME]->(g:Game) RETURN g.title, count(m)"),
    ("Which matches were ranked?", "MATCH (m:Match {mode: 'ranked'}) RETURN m.matchId"),
    ("Which matches were played in 2024?", "MATCH (m:Match) WHERE m.playedAt STARTS WITH '2024' RETURN m.matchId"),
    (f"When was match {match['id']} played?", f"MATCH (m:Match {{matchId: {q(match['id'])}}}) RETURN m.playedAt"),
    ("Which guilds are rivals of Iron Lotus?",
     "MATCH (:Guild {guildName: 'Iron Lotus'})-[:RIVAL_OF]-(g:Guild) RETURN g.guildName"),
    (f"What is the total number of kills of {busy['tag']}?",
     f"MATCH (:Player {{gamertag: {q(busy['tag'])}}})-[r:PLAYED_IN]->(:Match) RETURN sum(r.kills)"),
    ("Which player has won the most matches?",
     "MATCH (p:Player)-[r:PLAYED_IN]->(:Match) WHERE r.won = true RETURN p.gamertag, count(r) AS n ORDER BY n DESC LIMIT 1"),
    ("Who scored the highest in a single match?",
     "MATCH (p:Player)-[r:PLAYED_IN]->(:Match) RETURN p.gamertag ORDER BY r.score DESC LIMIT 1"),
    ("Which players have never played a match?", "MATCH (p:Player) WHERE NOT (p)-[:PLAYED_IN]->() RETURN p.gamertag"),
    (f"Which players of {guild} own legendary items?",
     f"MATCH (:Guild {{guildName: {q(guild)}}})<-[:MEMBER_OF]-(p:Player)-[:OWNS]->(:Item {{rarity: 'legendary'}}) RETURN DISTINCT p.gamertag"),
    ("Which players played Hollow Keep?",
     "MATCH (p:Player)-[:PLAYED_IN]->(:Match)-[:OF_GAME]->(:Game {title: 'Hollow Keep'}) RETURN DISTINCT p.gamertag"),
    ("How many players are in each region?", "MATCH (p:Player) RETURN p.region, count(p)"),
    ("Which guild was founded most recently?", "MATCH (g:Guild) RETURN g.guildName ORDER BY g.founded DESC LIMIT 1"),
    ("List the officers of every guild.", "MATCH (p:Player)-[:MEMBER_OF {role: 'officer'}]->(g:Guild) RETURN p.gamertag, g.guildName"),
    (f"How many friends does {friend} have?",
     f"MATCH (:Player {{gamertag: {q(friend)}}})-[:FRIENDS_WITH]-(f:Player) RETURN count(DISTINCT f)"),
    ("What is the rarity of the Frost Cloak?", "MATCH (i:Item {itemName: 'Frost Cloak'}) RETURN i.rarity"),
    ("How many players took part in each match?", "MATCH (p:Player)-[:PLAYED_IN]->(m:Match) RETURN m.matchId, count(p)"),
    ("Which players from APAC are members of a guild?",
     "MATCH (p:Player {region: 'APAC'})-[:MEMBER_OF]->(:Guild) RETURN p.gamertag"),
]  # fmt: skip
write(HERE, "arena", L, Q)
