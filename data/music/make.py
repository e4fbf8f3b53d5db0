"""A small music-streaming graph of a schema none of the service's code was written against (session 50): artists
named by ``stageName`` with a ``debutYear`` and a ``homeCountry``; albums named by ``albumTitle`` with a
``releasedOn`` date as text and a ``recordLabel``; tracks named by ``trackName`` with an ``isrc`` code, a
``lengthSec``, a ``bpm`` and a boolean ``explicit``; genres named by ``style``; listeners named by ``username`` with
a ``country``, a boolean ``premium`` and a ``signedUpOn`` date; playlists named by ``playlistTitle`` with a boolean
``isPublic``; play counts and the last date on ``STREAMED``, a track's number on ``HAS_TRACK``, guest artists on
``FEATURED_ON`` (beside a playlist's ``FEATURES``). 48 questions with gold Cypher written by hand before the service
was run on it; the first measurement of it is the one an unseen graph gets (reports/summary.md, session 50).

``python data/music/make.py`` writes ``music.cypher`` and ``questions.jsonl`` here (``make eval-own``). The
project's own data, not a public benchmark."""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from own_graph import q, write  # noqa: E402

HERE = Path(__file__).resolve().parent
rng = random.Random(41)

COUNTRIES = ["Sweden", "Brazil", "Nigeria", "South Korea", "Canada", "Ireland"]
LABELS = ["Lumen Records", "Blue Hour Music", "Static Bloom", "Northline Audio"]
STYLES = ["Synthpop", "Afrobeat", "Jazz Fusion", "Indie Folk", "Drum and Bass", "Bossa Nova", "Post-Rock", "Trip Hop"]
A1 = "Nova Velvet Echo Lunar Static Amber Cobalt Paper Neon Silver Hollow Wild".split()
A2 = "Reyes Harbor Kites Saints Motel Tides Lanterns Wolves Orchard Parade Atlas Comets".split()
W1 = "Midnight Electric Broken Golden Quiet Falling Crystal Endless Burning Distant Northern Secret Restless Paper Silent Velvet".split()
W2 = "Satellites Rivers Signals Gardens Mirrors Highways Letters Horizons Engines Fires Shadows Waves Bridges Ghosts Skylines Harbors".split()
T1 = "Glass Neon Velvet Hollow Summer Winter Lonely Atomic Sugar Wicked Gentle Fading Bright Savage Tender Cosmic Rusty Frozen Lucky Twisted Bitter Honey Iron Moonlit".split()
T2 = "Hearts Roads Dreams Streets Lights Wires Flowers Oceans Stars Clouds Machines Voices Windows Rooms Trains Seasons Tigers Kisses Echoes Stones Feathers Candles Rockets Sirens".split()
U1 = "sky moss rook fern jade onyx pike wren zinc opal lynx reed".split()

L: list[str] = []
for s in STYLES:
    L.append(f"CREATE (:Genre {{style: {q(s)}}});")

artists = []
used_a: set[str] = set()
while len(artists) < 24:
    n = f"{rng.choice(A1)} {rng.choice(A2)}"
    if n in used_a:
        continue
    used_a.add(n)
    a = dict(name=n, debut=rng.randint(1988, 2019), country=rng.choice(COUNTRIES))
    artists.append(a)
    L.append(f"CREATE (:Artist {{stageName: {q(n)}, debutYear: {a['debut']}, homeCountry: {q(a['country'])}}});")

titles: set[str] = set()


def title(first: list[str], second: list[str]) -> str:
    while True:
        t = f"{rng.choice(first)} {rng.choice(second)}"
        if t not in titles:
            titles.add(t)
            return t


albums = []
tracks = []
for i in range(60):
    a = artists[i % 24] if i < 48 else rng.choice(artists)
    al = dict(
        title=title(W1, W2),
        artist=a["name"],
        released=f"{rng.randint(max(a['debut'], 2000), 2024)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
        label=rng.choice(LABELS),
        tracks=[],
    )
    albums.append(al)
    L.append(
        f"CREATE (:Album {{albumTitle: {q(al['title'])}, releasedOn: {q(al['released'])}, recordLabel: {q(al['label'])}}});"
    )
    L.append(
        f"MATCH (a:Artist {{stageName: {q(a['name'])}}}), (al:Album {{albumTitle: {q(al['title'])}}}) CREATE (a)-[:RECORDED]->(al);"
    )
    style = rng.choice(STYLES)
    for k in range(rng.randint(5, 9)):
        t = dict(
            name=title(T1, T2),
            isrc=f"QZ{rng.randint(10, 99)}{rng.randint(100000, 999999)}",
            length=rng.randint(125, 420),
            bpm=rng.randint(70, 178),
            explicit=rng.random() < 0.25,
            style=style if rng.random() < 0.8 else rng.choice(STYLES),
            album=al["title"],
            artist=a["name"],
        )
        tracks.append(t)
        al["tracks"].append(t)
        L.append(
            f"CREATE (:Track {{trackName: {q(t['name'])}, isrc: {q(t['isrc'])}, lengthSec: {t['length']}, bpm: {t['bpm']}, explicit: {str(t['explicit']).lower()}}});"
        )
        L.append(
            f"MATCH (al:Album {{albumTitle: {q(al['title'])}}}), (t:Track {{trackName: {q(t['name'])}}}) CREATE (al)-[:HAS_TRACK {{trackNo: {k + 1}}}]->(t);"
        )
        L.append(
            f"MATCH (t:Track {{trackName: {q(t['name'])}}}), (g:Genre {{style: {q(t['style'])}}}) CREATE (t)-[:OF_STYLE]->(g);"
        )
for t in rng.sample(tracks, 40):
    guest = rng.choice([a for a in artists if a["name"] != t["artist"]])
    t.setdefault("guests", []).append(guest["name"])
    L.append(
        f"MATCH (a:Artist {{stageName: {q(guest['name'])}}}), (t:Track {{trackName: {q(t['name'])}}}) CREATE (a)-[:FEATURED_ON]->(t);"
    )

listeners = []
for i in range(80):
    u = f"{U1[i % 12]}_{U1[(i * 5 + i // 12) % 12]}{10 + i}"
    m = dict(
        name=u,
        country=rng.choice(COUNTRIES),
        premium=rng.random() < 0.4,
        signed=f"{rng.randint(2015, 2024)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
    )
    listeners.append(m)
    L.append(
        f"CREATE (:Listener {{username: {q(u)}, country: {q(m['country'])}, premium: {str(m['premium']).lower()}, signedUpOn: {q(m['signed'])}}});"
    )
streamed = set()
for k in range(1100):
    m, t = rng.choice(listeners), rng.choice(tracks[:480])
    if (m["name"], t["name"]) in streamed:
        continue
    streamed.add((m["name"], t["name"]))
    L.append(
        f"MATCH (l:Listener {{username: {q(m['name'])}}}), (t:Track {{trackName: {q(t['name'])}}}) CREATE (l)-[:STREAMED {{plays: {rng.randint(1, 40)}, lastOn: '{rng.randint(2022, 2024)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}'}}]->(t);"
    )
for k in range(300):
    m, a = rng.choice(listeners), rng.choice(artists)
    L.append(
        f"MATCH (l:Listener {{username: {q(m['name'])}}}), (a:Artist {{stageName: {q(a['name'])}}}) MERGE (l)-[:FOLLOWS]->(a);"
    )
playlists = []
PW = "Morning Run,Late Night,Focus,Road Trip,Rainy Day,Sunday Brunch,Deep Work,Summer Heat,Workout,Chill Out".split(",")
for i in range(30):
    p = dict(name=f"{PW[i % 10]} {['Mix', 'Vibes', 'Essentials'][i // 10]}", public=rng.random() < 0.6)
    playlists.append(p)
    owner = rng.choice(listeners)
    p["owner"] = owner["name"]
    L.append(f"CREATE (:Playlist {{playlistTitle: {q(p['name'])}, isPublic: {str(p['public']).lower()}}});")
    L.append(
        f"MATCH (l:Listener {{username: {q(owner['name'])}}}), (p:Playlist {{playlistTitle: {q(p['name'])}}}) CREATE (l)-[:CURATES]->(p);"
    )
    for t in rng.sample(tracks, rng.randint(4, 14)):
        L.append(
            f"MATCH (p:Playlist {{playlistTitle: {q(p['name'])}}}), (t:Track {{trackName: {q(t['name'])}}}) CREATE (p)-[:FEATURES]->(t);"
        )

# the things the questions name, picked from what was written (a name that has what the question asks about)
art = artists[5]["name"]
al1, al2, al3 = albums[7], albums[12], albums[20]
tr1, tr2 = al1["tracks"][0]["name"], al2["tracks"][1]["name"]
guested = next(t for t in tracks if t.get("guests"))
lsn = listeners[3]["name"]
pair = sorted(streamed)[10]
ctry = artists[0]["country"]
prem_ctry = listeners[1]["country"]
pl = playlists[4]["name"]
curator = playlists[9]["owner"]

Q = [
    (
        f"How many albums has {art} released?",
        f"MATCH (:Artist {{stageName: {q(art)}}})-[:RECORDED]->(al:Album) RETURN count(al)",
    ),
    (
        f"Which tracks are on the album {al1['title']}?",
        f"MATCH (:Album {{albumTitle: {q(al1['title'])}}})-[:HAS_TRACK]->(t:Track) RETURN t.trackName",
    ),
    (f"How long is the track {tr1} in seconds?", f"MATCH (t:Track {{trackName: {q(tr1)}}}) RETURN t.lengthSec"),
    (f"Which artists are from {ctry}?", f"MATCH (a:Artist {{homeCountry: {q(ctry)}}}) RETURN a.stageName"),
    ("How many listeners have a premium account?", "MATCH (l:Listener) WHERE l.premium = true RETURN count(l)"),
    (
        f"List the explicit tracks on {al2['title']}.",
        f"MATCH (:Album {{albumTitle: {q(al2['title'])}}})-[:HAS_TRACK]->(t:Track) WHERE t.explicit = true RETURN t.trackName",
    ),
    (
        f"What is the average length of the tracks on {al3['title']}?",
        f"MATCH (:Album {{albumTitle: {q(al3['title'])}}})-[:HAS_TRACK]->(t:Track) RETURN avg(t.lengthSec)",
    ),
    (
        "Which album has the most tracks?",
        "MATCH (al:Album)-[:HAS_TRACK]->(t:Track) RETURN al.albumTitle, count(t) AS n ORDER BY n DESC LIMIT 1",
    ),
    (
        f"Who recorded the album {al3['title']}?",
        f"MATCH (a:Artist)-[:RECORDED]->(:Album {{albumTitle: {q(al3['title'])}}}) RETURN a.stageName",
    ),
    (
        f"Which genre is the track {tr2}?",
        f"MATCH (:Track {{trackName: {q(tr2)}}})-[:OF_STYLE]->(g:Genre) RETURN g.style",
    ),
    ("Which artists debuted before 1995?", "MATCH (a:Artist) WHERE a.debutYear < 1995 RETURN a.stageName"),
    (
        "Which albums were released in 2019?",
        "MATCH (al:Album) WHERE al.releasedOn STARTS WITH '2019' RETURN al.albumTitle",
    ),
    (
        "What are the 5 longest tracks?",
        "MATCH (t:Track) RETURN t.trackName, t.lengthSec ORDER BY t.lengthSec DESC LIMIT 5",
    ),
    (
        f"How many times has {pair[0]} played {pair[1]}?",
        f"MATCH (:Listener {{username: {q(pair[0])}}})-[r:STREAMED]->(:Track {{trackName: {q(pair[1])}}}) RETURN r.plays",
    ),
    (
        f"Which tracks did {lsn} stream?",
        f"MATCH (:Listener {{username: {q(lsn)}}})-[:STREAMED]->(t:Track) RETURN t.trackName",
    ),
    (
        f"Which listeners follow {art}?",
        f"MATCH (l:Listener)-[:FOLLOWS]->(:Artist {{stageName: {q(art)}}}) RETURN l.username",
    ),
    (
        f"How many followers does {art} have?",
        f"MATCH (l:Listener)-[:FOLLOWS]->(:Artist {{stageName: {q(art)}}}) RETURN count(l)",
    ),
    (
        "Which artist has the most followers?",
        "MATCH (l:Listener)-[:FOLLOWS]->(a:Artist) RETURN a.stageName, count(l) AS n ORDER BY n DESC LIMIT 1",
    ),
    (
        f"Which playlists does {curator} curate?",
        f"MATCH (:Listener {{username: {q(curator)}}})-[:CURATES]->(p:Playlist) RETURN p.playlistTitle",
    ),
    (
        f"How many tracks are in the playlist {pl}?",
        f"MATCH (:Playlist {{playlistTitle: {q(pl)}}})-[:FEATURES]->(t:Track) RETURN count(t)",
    ),
    ("Which tracks have a tempo above 175 bpm?", "MATCH (t:Track) WHERE t.bpm > 175 RETURN t.trackName"),
    (
        f"Which tracks does {guested['guests'][0]} appear on as a guest?",
        f"MATCH (:Artist {{stageName: {q(guested['guests'][0])}}})-[:FEATURED_ON]->(t:Track) RETURN t.trackName",
    ),
    ("List all genres.", "MATCH (g:Genre) RETURN g.style"),
    (
        "Which record label released the most albums?",
        "MATCH (al:Album) RETURN al.recordLabel, count(al) AS n ORDER BY n DESC LIMIT 1",
    ),
    (
        f"How many albums were released on {LABELS[1]}?",
        f"MATCH (al:Album {{recordLabel: {q(LABELS[1])}}}) RETURN count(al)",
    ),
    (f"What is the ISRC of {tr2}?", f"MATCH (t:Track {{trackName: {q(tr2)}}}) RETURN t.isrc"),
    (f"When was {al1['title']} released?", f"MATCH (al:Album {{albumTitle: {q(al1['title'])}}}) RETURN al.releasedOn"),
    (
        "Which listeners signed up in 2023?",
        "MATCH (l:Listener) WHERE l.signedUpOn STARTS WITH '2023' RETURN l.username",
    ),
    (
        f"Which artists have recorded {STYLES[2]} tracks?",
        f"MATCH (a:Artist)-[:RECORDED]->(:Album)-[:HAS_TRACK]->(:Track)-[:OF_STYLE]->(:Genre {{style: {q(STYLES[2])}}}) RETURN DISTINCT a.stageName",
    ),
    (
        f"What is the total number of plays of {pair[1]}?",
        f"MATCH (:Listener)-[r:STREAMED]->(:Track {{trackName: {q(pair[1])}}}) RETURN sum(r.plays)",
    ),
    (
        f"Which premium listeners are from {prem_ctry}?",
        f"MATCH (l:Listener {{country: {q(prem_ctry)}}}) WHERE l.premium = true RETURN l.username",
    ),
    ("How many tracks have never been streamed?", "MATCH (t:Track) WHERE NOT ()-[:STREAMED]->(t) RETURN count(t)"),
    (
        f"What is the shortest track on {al2['title']}?",
        f"MATCH (:Album {{albumTitle: {q(al2['title'])}}})-[:HAS_TRACK]->(t:Track) RETURN t.trackName ORDER BY t.lengthSec ASC LIMIT 1",
    ),
    (
        "How many tracks does each genre have?",
        "MATCH (t:Track)-[:OF_STYLE]->(g:Genre) RETURN g.style, count(t)",
    ),
    (
        "Who are the 3 most recently signed-up listeners?",
        "MATCH (l:Listener) RETURN l.username ORDER BY l.signedUpOn DESC LIMIT 3",
    ),
    (
        f"Which public playlists include {guested['name']}?",
        f"MATCH (p:Playlist)-[:FEATURES]->(:Track {{trackName: {q(guested['name'])}}}) WHERE p.isPublic = true RETURN p.playlistTitle",
    ),
    (
        f"Which listeners streamed tracks by {art}?",
        f"MATCH (l:Listener)-[:STREAMED]->(:Track)<-[:HAS_TRACK]-(:Album)<-[:RECORDED]-(:Artist {{stageName: {q(art)}}}) RETURN DISTINCT l.username",
    ),
    (
        f"What is the average tempo of {STYLES[0]} tracks?",
        f"MATCH (t:Track)-[:OF_STYLE]->(:Genre {{style: {q(STYLES[0])}}}) RETURN avg(t.bpm)",
    ),
    (
        f"Which albums by {art} were released after 2015?",
        f"MATCH (:Artist {{stageName: {q(art)}}})-[:RECORDED]->(al:Album) WHERE al.releasedOn >= '2016' RETURN al.albumTitle",
    ),
    (
        f"Which track has {lsn} played the most?",
        f"MATCH (:Listener {{username: {q(lsn)}}})-[r:STREAMED]->(t:Track) RETURN t.trackName ORDER BY r.plays DESC LIMIT 1",
    ),
    (f"How many artists are from {ctry}?", f"MATCH (a:Artist {{homeCountry: {q(ctry)}}}) RETURN count(a)"),
    (
        f"Which tracks on {al1['title']} are longer than 300 seconds?",
        f"MATCH (:Album {{albumTitle: {q(al1['title'])}}})-[:HAS_TRACK]->(t:Track) WHERE t.lengthSec > 300 RETURN t.trackName",
    ),
    (f"In which year did {art} debut?", f"MATCH (a:Artist {{stageName: {q(art)}}}) RETURN a.debutYear"),
    (
        "Which artists have recorded more than 3 albums?",
        "MATCH (a:Artist)-[:RECORDED]->(al:Album) WITH a, count(al) AS n WHERE n > 3 RETURN a.stageName",
    ),
    (
        f"Which listeners played {pair[1]} more than 10 times?",
        f"MATCH (l:Listener)-[r:STREAMED]->(:Track {{trackName: {q(pair[1])}}}) WHERE r.plays > 10 RETURN l.username",
    ),
    (
        f"When did {pair[0]} last stream {pair[1]}?",
        f"MATCH (:Listener {{username: {q(pair[0])}}})-[r:STREAMED]->(:Track {{trackName: {q(pair[1])}}}) RETURN r.lastOn",
    ),
    (
        "Which country has the most listeners?",
        "MATCH (l:Listener) RETURN l.country, count(l) AS n ORDER BY n DESC LIMIT 1",
    ),
    (
        f"List the albums of {LABELS[2]} ordered by release date.",
        f"MATCH (al:Album {{recordLabel: {q(LABELS[2])}}}) RETURN al.albumTitle ORDER BY al.releasedOn",
    ),
]
write(HERE, "music", L, Q)
