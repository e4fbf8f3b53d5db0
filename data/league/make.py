"""A small football league graph of a schema none of the service's code was written against (6 labels, each named by
a property of its own: ``clubName``, ``fullName``, ``stadiumName``, ``matchCode``...; dates as ISO text, measures as
integers every node holds its own value of, quantities on relationships), and 55 questions with gold Cypher written
by hand before the service was run on it (session 47). Deterministic: ``python data/league/make.py`` writes
``league.cypher`` and ``questions.jsonl`` here; then ``python -m app eval --dataset text2cypher --path data/league
--modes text2cypher --fresh`` (``make eval-own``). The project's own data, not a public benchmark: the misses it
showed were fixed in session 47, so it is a development set now, not a held-out one."""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from own_graph import q, write  # noqa: E402

HERE = Path(__file__).resolve().parent
rng = random.Random(11)
FIRST = ["Luca", "Mateo", "Jonas", "Emil", "Tariq", "Kenji", "Diego", "Pavel", "Omar", "Felix", "Rafael", "Andre", "Sami", "Niko", "Hugo", "Bruno", "Ivan", "Marco", "Tomas", "Leon", "Yusuf", "Elias", "Noah", "Adrian", "Victor"]
LAST = ["Ferreira", "Lindqvist", "Okafor", "Tanaka", "Moreau", "Novak", "Haddad", "Costa", "Brandt", "Ivanov", "Rossi", "Mendes", "Kowalski", "Sato", "Duarte", "Larsen", "Bauer", "Petrov", "Silva", "Nakamura", "Fischer", "Romero", "Kovac", "Jensen", "Ortiz"]
NATS = ["Brazil", "Spain", "Japan", "Nigeria", "France", "Germany", "Sweden", "Portugal"]
POS = ["Goalkeeper", "Defender", "Midfielder", "Forward"]
TOWNS = ["Riverton", "Ashford", "Kingsbury", "Eastvale", "Marlow", "Brightwater", "Oakridge", "Fenwick", "Stonebridge", "Westmere", "Harrowgate", "Redcliff", "Elmstead", "Thornbury", "Coldwell", "Ravensholm", "Briarwood", "Glenmoor", "Ironvale", "Hollowell", "Sunmere", "Duncaster", "Wexley", "Norcross"]
SUFF = ["Rovers", "United", "Athletic", "City", "Wanderers", "Albion", "Town", "Rangers"]
LEAGUES = [
    ("Premier Coastal League", "England", 1992),
    ("Northern Division", "Scotland", 1975),
    ("Highland Cup League", "Wales", 2004),
]
L = []


for n, c, f in LEAGUES:
    L.append(f"CREATE (:League {{leagueName: {q(n)}, country: {q(c)}, founded: {f}}});")
clubs = []
for i, t in enumerate(TOWNS):
    name = f"{t} {SUFF[i % len(SUFF)]}"
    code = (t[:3]).upper()
    lg = LEAGUES[i % 3][0]
    clubs.append(
        dict(
            name=name,
            code=code,
            city=t,
            founded=rng.randint(1870, 1990),
            budget=round(rng.uniform(8, 180), 1),
            league=lg,
        )
    )
    c = clubs[-1]
    L.append(
        f"CREATE (:Club {{clubName: {q(name)}, shortCode: {q(code)}, city: {q(t)}, foundedYear: {c['founded']}, budgetMillions: {c['budget']}}});"
    )
    L.append(
        f"MATCH (c:Club {{clubName: {q(name)}}}), (l:League {{leagueName: {q(lg)}}}) CREATE (c)-[:COMPETES_IN]->(l);"
    )
    st = f"{t} {['Park', 'Arena', 'Ground', 'Stadium'][i % 4]}"
    c["stadium"] = st
    cap = rng.randint(8000, 75000)
    c["cap"] = cap
    opened = f"{rng.randint(1920, 2018)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
    L.append(f"CREATE (:Stadium {{stadiumName: {q(st)}, capacity: {cap}, openedOn: {q(opened)}}});")
    L.append(
        f"MATCH (c:Club {{clubName: {q(name)}}}), (s:Stadium {{stadiumName: {q(st)}}}) CREATE (c)-[:PLAYS_AT]->(s);"
    )
    coach = f"{rng.choice(FIRST)} {rng.choice(LAST)}-{t[:2]}"
    coach = f"{FIRST[(i * 7) % 25]} {LAST[(i * 11 + 3) % 25]}"
    c["coach"] = coach
    L.append(f"CREATE (:Coach {{fullName: {q(coach)}, nationality: {q(NATS[i % 8])}}});")
    L.append(
        f"MATCH (k:Coach {{fullName: {q(coach)}}}), (c:Club {{clubName: {q(name)}}}) CREATE (k)-[:MANAGES {{since: '{rng.randint(2015, 2023)}-07-01'}}]->(c);"
    )
players = []
used = set()
for c in clubs:
    for j in range(12):
        while True:
            n = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
            if n not in used and n not in {x["coach"] for x in clubs}:
                used.add(n)
                break
        p = dict(
            name=n,
            club=c["name"],
            birth=f"{rng.randint(1988, 2005)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
            nat=rng.choice(NATS),
            pos=POS[j % 4],
            value=round(rng.uniform(0.5, 90), 1),
            shirt=j + 1 + 10 * (j // 4),
            since=f"{rng.randint(2016, 2024)}-07-01",
        )
        players.append(p)
        L.append(
            f"CREATE (:Player {{fullName: {q(n)}, birthDate: {q(p['birth'])}, nationality: {q(p['nat'])}, position: {q(p['pos'])}, marketValue: {p['value']}}});"
        )
        L.append(
            f"MATCH (p:Player {{fullName: {q(n)}}}), (c:Club {{clubName: {q(c['name'])}}}) CREATE (p)-[:PLAYS_FOR {{shirtNumber: {p['shirt']}, since: {q(p['since'])}}}]->(c);"
        )
matches = []
for k in range(160):
    h, a = rng.sample(clubs, 2)
    code = f"M-{k + 1:04d}"
    date = f"{rng.choice([2022, 2023, 2024])}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
    att = rng.randint(3000, h["cap"])
    hg, ag = rng.randint(0, 4), rng.randint(0, 3)
    matches.append(dict(code=code, home=h, away=a))
    L.append(
        f"CREATE (:Match {{matchCode: {q(code)}, playedOn: {q(date)}, attendance: {att}, homeGoals: {hg}, awayGoals: {ag}}});"
    )
    L.append(
        f"MATCH (m:Match {{matchCode: {q(code)}}}), (h:Club {{clubName: {q(h['name'])}}}), (a:Club {{clubName: {q(a['name'])}}}), (s:Stadium {{stadiumName: {q(h['stadium'])}}}) CREATE (m)-[:HOME_TEAM]->(h), (m)-[:AWAY_TEAM]->(a), (m)-[:HELD_AT]->(s);"
    )
    scorers = [p for p in players if p["club"] in (h["name"], a["name"]) and p["pos"] != "Goalkeeper"]
    for g in range(hg + ag):
        p = rng.choice(scorers)
        L.append(
            f"MATCH (p:Player {{fullName: {q(p['name'])}}}), (m:Match {{matchCode: {q(code)}}}) CREATE (p)-[:SCORED_IN {{minute: {rng.randint(1, 90)}}}]->(m);"
        )

Q = [
    (
        "How many players play for Ashford United?",
        "MATCH (p:Player)-[:PLAYS_FOR]->(:Club {clubName: 'Ashford United'}) RETURN count(p)",
    ),
    (
        "Which stadium does Kingsbury Athletic play at?",
        "MATCH (:Club {clubName: 'Kingsbury Athletic'})-[:PLAYS_AT]->(s:Stadium) RETURN s.stadiumName",
    ),
    ("What is the capacity of Marlow Park?", "MATCH (s:Stadium {stadiumName: 'Marlow Park'}) RETURN s.capacity"),
    (
        "List the top 5 players by market value.",
        "MATCH (p:Player) RETURN p.fullName, p.marketValue ORDER BY p.marketValue DESC LIMIT 5",
    ),
    (
        "Which players of Ashford United were born after 2000?",
        "MATCH (p:Player)-[:PLAYS_FOR]->(:Club {clubName: 'Ashford United'}) WHERE p.birthDate >= '2001' RETURN p.fullName",
    ),
    ("Who manages Eastvale City?", "MATCH (k:Coach)-[:MANAGES]->(:Club {clubName: 'Eastvale City'}) RETURN k.fullName"),
    (
        "Which clubs compete in the Northern Division?",
        "MATCH (c:Club)-[:COMPETES_IN]->(:League {leagueName: 'Northern Division'}) RETURN c.clubName",
    ),
    (
        "How many goals has Diego Larsen scored?",
        "MATCH (:Player {fullName: 'Diego Larsen'})-[g:SCORED_IN]->(:Match) RETURN count(g)",
    ),
    (
        "Which players scored in match M-0003?",
        "MATCH (p:Player)-[:SCORED_IN]->(:Match {matchCode: 'M-0003'}) RETURN DISTINCT p.fullName",
    ),
    (
        "What is the average attendance of matches held at Marlow Park?",
        "MATCH (m:Match)-[:HELD_AT]->(:Stadium {stadiumName: 'Marlow Park'}) RETURN avg(m.attendance)",
    ),
    ("Which club has the largest budget?", "MATCH (c:Club) RETURN c.clubName ORDER BY c.budgetMillions DESC LIMIT 1"),
    ("List the clubs founded before 1900.", "MATCH (c:Club) WHERE c.foundedYear < 1900 RETURN c.clubName"),
    ("How many matches were played in 2023?", "MATCH (m:Match) WHERE m.playedOn STARTS WITH '2023' RETURN count(m)"),
    (
        "Which Brazilian players play for Ashford United?",
        "MATCH (p:Player {nationality: 'Brazil'})-[:PLAYS_FOR]->(:Club {clubName: 'Ashford United'}) RETURN p.fullName",
    ),
    (
        "Which goalkeepers play for Kingsbury Athletic?",
        "MATCH (p:Player {position: 'Goalkeeper'})-[:PLAYS_FOR]->(:Club {clubName: 'Kingsbury Athletic'}) RETURN p.fullName",
    ),
    (
        "What is the nationality of the coach of Fenwick Rangers?",
        "MATCH (k:Coach)-[:MANAGES]->(:Club {clubName: 'Fenwick Rangers'}) RETURN k.nationality",
    ),
    (
        "Which league does Oakridge Town compete in?",
        "MATCH (:Club {clubName: 'Oakridge Town'})-[:COMPETES_IN]->(l:League) RETURN l.leagueName",
    ),
    (
        "What shirt number does Victor Brandt wear?",
        "MATCH (:Player {fullName: 'Victor Brandt'})-[r:PLAYS_FOR]->(:Club) RETURN r.shirtNumber",
    ),
    (
        "How many clubs compete in each league?",
        "MATCH (c:Club)-[:COMPETES_IN]->(l:League) RETURN l.leagueName, count(c)",
    ),
    (
        "Which stadium has the largest capacity?",
        "MATCH (s:Stadium) RETURN s.stadiumName ORDER BY s.capacity DESC LIMIT 1",
    ),
    (
        "Which clubs play at stadiums with a capacity over 60000?",
        "MATCH (c:Club)-[:PLAYS_AT]->(s:Stadium) WHERE s.capacity > 60000 RETURN c.clubName",
    ),
    (
        "What is the total market value of the players of Riverton Rovers?",
        "MATCH (p:Player)-[:PLAYS_FOR]->(:Club {clubName: 'Riverton Rovers'}) RETURN sum(p.marketValue)",
    ),
    (
        "Who is the oldest player at Kingsbury Athletic?",
        "MATCH (p:Player)-[:PLAYS_FOR]->(:Club {clubName: 'Kingsbury Athletic'}) RETURN p.fullName ORDER BY p.birthDate ASC LIMIT 1",
    ),
    (
        "Which matches did Marlow Wanderers play at home?",
        "MATCH (m:Match)-[:HOME_TEAM]->(:Club {clubName: 'Marlow Wanderers'}) RETURN m.matchCode",
    ),
    (
        "List the 3 matches with the highest attendance.",
        "MATCH (m:Match) RETURN m.matchCode, m.attendance ORDER BY m.attendance DESC LIMIT 3",
    ),
    (
        "Which club does Hugo Tanaka play for?",
        "MATCH (:Player {fullName: 'Hugo Tanaka'})-[:PLAYS_FOR]->(c:Club) RETURN c.clubName",
    ),
    ("When did Ashford Arena open?", "MATCH (s:Stadium {stadiumName: 'Ashford Arena'}) RETURN s.openedOn"),
    (
        "Which players have played for Ashford United since 2024?",
        "MATCH (p:Player)-[r:PLAYS_FOR]->(:Club {clubName: 'Ashford United'}) WHERE r.since >= '2024' RETURN p.fullName",
    ),
    (
        "Find the forwards with a market value above 80.",
        "MATCH (p:Player {position: 'Forward'}) WHERE p.marketValue > 80 RETURN p.fullName",
    ),
    (
        "What is the average market value of defenders?",
        "MATCH (p:Player {position: 'Defender'}) RETURN avg(p.marketValue)",
    ),
    (
        "How many different nationalities are there among the players of Ashford United?",
        "MATCH (p:Player)-[:PLAYS_FOR]->(:Club {clubName: 'Ashford United'}) RETURN count(DISTINCT p.nationality)",
    ),
    ("Which coaches are from Spain?", "MATCH (k:Coach {nationality: 'Spain'}) RETURN k.fullName"),
    ("In which city is Brightwater Albion based?", "MATCH (c:Club {clubName: 'Brightwater Albion'}) RETURN c.city"),
    (
        "Which players scored in matches held at Riverton Park?",
        "MATCH (p:Player)-[:SCORED_IN]->(:Match)-[:HELD_AT]->(:Stadium {stadiumName: 'Riverton Park'}) RETURN DISTINCT p.fullName",
    ),
    (
        "How many goals were scored in matches held at Ashford Arena?",
        "MATCH (:Player)-[g:SCORED_IN]->(:Match)-[:HELD_AT]->(:Stadium {stadiumName: 'Ashford Arena'}) RETURN count(g)",
    ),
    (
        "What positions do the players of Eastvale City play?",
        "MATCH (p:Player)-[:PLAYS_FOR]->(:Club {clubName: 'Eastvale City'}) RETURN DISTINCT p.position",
    ),
    ("List all leagues.", "MATCH (l:League) RETURN l.leagueName"),
    ("How many matches had an attendance above 50000?", "MATCH (m:Match) WHERE m.attendance > 50000 RETURN count(m)"),
    ("What was the attendance of match M-0002?", "MATCH (m:Match {matchCode: 'M-0002'}) RETURN m.attendance"),
    (
        "Which players play for the same club as Bruno Romero?",
        "MATCH (:Player {fullName: 'Bruno Romero'})-[:PLAYS_FOR]->(c:Club)<-[:PLAYS_FOR]-(p:Player) RETURN p.fullName",
    ),
    (
        "Who has scored the most goals?",
        "MATCH (p:Player)-[g:SCORED_IN]->(:Match) RETURN p.fullName, count(g) AS goals ORDER BY goals DESC LIMIT 1",
    ),
    ("Which league was founded first?", "MATCH (l:League) RETURN l.leagueName ORDER BY l.founded ASC LIMIT 1"),
    (
        "In which country is the Highland Cup League played?",
        "MATCH (l:League {leagueName: 'Highland Cup League'}) RETURN l.country",
    ),
    (
        "Which clubs have a budget of less than 20 million?",
        "MATCH (c:Club) WHERE c.budgetMillions < 20 RETURN c.clubName",
    ),
    ("How many players were born in 1996?", "MATCH (p:Player) WHERE p.birthDate STARTS WITH '1996' RETURN count(p)"),
    (
        "Which club is managed by Pavel Duarte?",
        "MATCH (:Coach {fullName: 'Pavel Duarte'})-[:MANAGES]->(c:Club) RETURN c.clubName",
    ),
    (
        "In which minute did Omar Nakamura score his goals?",
        "MATCH (:Player {fullName: 'Omar Nakamura'})-[g:SCORED_IN]->(:Match) RETURN g.minute",
    ),
    ("What is the short code of Fenwick Rangers?", "MATCH (c:Club {clubName: 'Fenwick Rangers'}) RETURN c.shortCode"),
    (
        "Which clubs in the Premier Coastal League were founded after 1950?",
        "MATCH (c:Club)-[:COMPETES_IN]->(:League {leagueName: 'Premier Coastal League'}) WHERE c.foundedYear > 1950 RETURN c.clubName",
    ),
    ("How many Japanese players are there?", "MATCH (p:Player {nationality: 'Japan'}) RETURN count(p)"),
    (
        "Which teams played against Marlow Wanderers at home?",
        "MATCH (m:Match)-[:HOME_TEAM]->(:Club {clubName: 'Marlow Wanderers'}), (m)-[:AWAY_TEAM]->(c:Club) RETURN DISTINCT c.clubName",
    ),
    ("What is the average number of home goals per match?", "MATCH (m:Match) RETURN avg(m.homeGoals)"),
    (
        "List the players of Riverton Rovers ordered by market value.",
        "MATCH (p:Player)-[:PLAYS_FOR]->(:Club {clubName: 'Riverton Rovers'}) RETURN p.fullName ORDER BY p.marketValue DESC",
    ),
    ("Which stadiums opened before 1950?", "MATCH (s:Stadium) WHERE s.openedOn < '1950' RETURN s.stadiumName"),
    (
        "How many players does each club in the Highland Cup League have?",
        "MATCH (p:Player)-[:PLAYS_FOR]->(c:Club)-[:COMPETES_IN]->(:League {leagueName: 'Highland Cup League'}) RETURN c.clubName, count(p)",
    ),
]
write(HERE, "league", L, Q)
