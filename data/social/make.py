"""A small social graph of a schema none of the service's code was written against (session 52): members named by a
lower-case ``handle`` with a ``fullName``, a ``city``, a boolean ``verified`` and a ``joinedAt`` timestamp as text;
posts named by a ``postId`` with a long ``body``, a ``postedAt`` timestamp, a ``views`` count and a ``language``;
topics named by ``topicName``; communities named by ``communityName`` with a ``founded`` year and a boolean
``isPrivate``. Members follow members (``FOLLOWS`` with a ``since`` date: a relationship from a label to itself),
write, like and are mentioned in posts; posts reply to posts (``REPLY_TO``) and are about topics; members join
communities with a ``role`` on the relationship. 50 questions with gold Cypher written by hand before the service was
run on it; the first measurement of it is the one an unseen graph gets (reports/summary.md, session 52).

``python data/social/make.py`` writes ``social.cypher`` and ``questions.jsonl`` here (``make eval-own``). The
project's own data, not a public benchmark."""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from own_graph import q, write  # noqa: E402

HERE = Path(__file__).resolve().parent
rng = random.Random(52)

CITIES = ["Lisbon", "Oslo", "Austin", "Nairobi", "Osaka"]
LANGUAGES = ["English", "English", "English", "Spanish", "Portuguese", "Japanese"]
TOPICS = ["graph databases", "hiking", "jazz", "street food", "climate", "retro games"]
COMMUNITIES = [  # name, founded, private, topic
    ("Trail Seekers", 2016, False, "hiking"),
    ("Blue Note Circle", 2019, True, "jazz"),
    ("Node and Edge", 2021, False, "graph databases"),
    ("Night Market Club", 2018, True, "street food"),
    ("Pixel Veterans", 2022, False, "retro games"),
]
FIRST = "Mira Tomas Leona Kofi Aiko Rafael Ingrid Samir Nadia Joao Hana Erik Zuri Paulo Yuki Greta".split()
LAST = "Kovac Haugen Mendes Otieno Tanaka Silva Berg Haddad Petrov Costa Mori Lind Wanjiru Ramos Sato Falk".split()
WORDS = (
    "today finally tried new amazing weekend morning thoughts about the best way to learn share your favourite "
    "question for everyone honestly cannot believe how quickly this changed my mind after reading long thread"
).split()

L: list[str] = []
for t in TOPICS:
    L.append(f"CREATE (:Topic {{topicName: {q(t)}}});")
for name, year, private, topic in COMMUNITIES:
    L.append(
        f"CREATE (:Community {{communityName: {q(name)}, founded: {year}, isPrivate: {str(private).lower()}}});"
    )
    L.append(
        f"MATCH (c:Community {{communityName: {q(name)}}}), (t:Topic {{topicName: {q(topic)}}}) "
        "CREATE (c)-[:FOCUSES_ON]->(t);"
    )

members = []
handles: set[str] = set()
full_names: set[str] = set()
while len(members) < 30:
    first, last = rng.choice(FIRST), rng.choice(LAST)
    full = f"{first} {last}"
    style = rng.randrange(3)
    handle = (
        f"{first.lower()}_{last[0].lower()}"
        if style == 0
        else f"{first.lower()}{rng.randint(10, 99)}"
        if style == 1
        else f"{last.lower()}{first.lower()[:2]}"
    )
    if handle in handles or full in full_names:
        continue
    handles.add(handle)
    full_names.add(full)
    m = dict(
        handle=handle, full=full, city=rng.choice(CITIES), verified=rng.random() < 0.3,
        joined=f"{rng.randint(2019, 2024)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:00",
    )  # fmt: skip
    members.append(m)
    L.append(
        f"CREATE (:Member {{handle: {q(handle)}, fullName: {q(full)}, city: {q(m['city'])}, "
        f"verified: {str(m['verified']).lower()}, joinedAt: {q(m['joined'])}}});"
    )

follows: dict[tuple[str, str], str] = {}
for m in members:
    for other in rng.sample(members, rng.randint(0, 7)):
        if other is m:
            continue
        since = f"{rng.randint(2020, 2024)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        follows[(m["handle"], other["handle"])] = since
        L.append(
            f"MATCH (a:Member {{handle: {q(m['handle'])}}}), (b:Member {{handle: {q(other['handle'])}}}) "
            f"CREATE (a)-[:FOLLOWS {{since: {q(since)}}}]->(b);"
        )

writers = members[:24]  # the last six never write
posts = []
for i in range(120):
    pid = f"P-{1001 + i}"
    author = rng.choice(writers)
    body = " ".join(rng.choice(WORDS) for _ in range(rng.randint(12, 25))).capitalize() + "."
    p = dict(
        id=pid, author=author["handle"], views=rng.randint(5, 2000), language=rng.choice(LANGUAGES),
        posted=f"{rng.randint(2021, 2024)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:00",
        topics=rng.sample(TOPICS, rng.randint(1, 2)),
    )  # fmt: skip
    posts.append(p)
    L.append(
        f"CREATE (:Post {{postId: {q(pid)}, body: {q(body)}, postedAt: {q(p['posted'])}, views: {p['views']}, "
        f"language: {q(p['language'])}}});"
    )
    L.append(
        f"MATCH (m:Member {{handle: {q(author['handle'])}}}), (p:Post {{postId: {q(pid)}}}) CREATE (m)-[:WROTE]->(p);"
    )
    for t in p["topics"]:
        L.append(
            f"MATCH (p:Post {{postId: {q(pid)}}}), (t:Topic {{topicName: {q(t)}}}) CREATE (p)-[:ABOUT]->(t);"
        )
    if i > 10 and rng.random() < 0.35:
        parent = rng.choice(posts[:i])
        p["reply_to"] = parent["id"]
        L.append(
            f"MATCH (p:Post {{postId: {q(pid)}}}), (r:Post {{postId: {q(parent['id'])}}}) CREATE (p)-[:REPLY_TO]->(r);"
        )
    if rng.random() < 0.4:
        for who in rng.sample(members, rng.randint(1, 2)):
            L.append(
                f"MATCH (p:Post {{postId: {q(pid)}}}), (m:Member {{handle: {q(who['handle'])}}}) "
                "CREATE (p)-[:MENTIONS]->(m);"
            )
    for who in rng.sample(members, rng.randint(0, 5)):
        L.append(
            f"MATCH (m:Member {{handle: {q(who['handle'])}}}), (p:Post {{postId: {q(pid)}}}) CREATE (m)-[:LIKED]->(p);"
        )

for name, *_ in COMMUNITIES:
    joined = rng.sample(members, rng.randint(5, 11))
    for k, m in enumerate(joined):
        role = "admin" if k == 0 else "moderator" if k < 3 else "member"
        on = f"{rng.randint(2019, 2024)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        L.append(
            f"MATCH (m:Member {{handle: {q(m['handle'])}}}), (c:Community {{communityName: {q(name)}}}) "
            f"CREATE (m)-[:JOINED {{role: {q(role)}, on: {q(on)}}}]->(c);"
        )

# the constants the questions name, picked from what was made
popular = max(members, key=lambda m: sum(1 for (_, b) in follows if b == m["handle"]))["handle"]
fan = next(a for (a, b) in follows if b == popular)
follower_pair = next(iter(follows))
writer = max(writers, key=lambda m: sum(1 for p in posts if p["author"] == m["handle"]))["handle"]
replied = max(posts, key=lambda p: sum(1 for r in posts if r.get("reply_to") == p["id"]))["id"]
post1, post2 = posts[3]["id"], posts[57]["id"]
m1, m2, m3 = members[2], members[7], members[12]
city = CITIES[1]
comm = COMMUNITIES[2][0]
comm2 = COMMUNITIES[0][0]

Q = [
    (f"Who follows {popular}?", f"MATCH (f:Member)-[:FOLLOWS]->(:Member {{handle: {q(popular)}}}) RETURN f.handle"),
    (f"Whom does {fan} follow?", f"MATCH (:Member {{handle: {q(fan)}}})-[:FOLLOWS]->(f:Member) RETURN f.handle"),
    (
        f"How many followers does {popular} have?",
        f"MATCH (f:Member)-[:FOLLOWS]->(:Member {{handle: {q(popular)}}}) RETURN count(f)",
    ),
    (
        "Which member has the most followers?",
        "MATCH (f:Member)-[:FOLLOWS]->(m:Member) RETURN m.handle, count(f) AS n ORDER BY n DESC LIMIT 1",
    ),
    (f"Which posts did {writer} write?", f"MATCH (:Member {{handle: {q(writer)}}})-[:WROTE]->(p:Post) RETURN p.postId"),
    (
        f"How many posts has {writer} written?",
        f"MATCH (:Member {{handle: {q(writer)}}})-[:WROTE]->(p:Post) RETURN count(p)",
    ),
    (f"Who wrote post {post1}?", f"MATCH (m:Member)-[:WROTE]->(:Post {{postId: {q(post1)}}}) RETURN m.handle"),
    (
        f"Which posts are replies to {replied}?",
        f"MATCH (r:Post)-[:REPLY_TO]->(:Post {{postId: {q(replied)}}}) RETURN r.postId",
    ),
    (
        f"Who replied to {replied}?",
        f"MATCH (m:Member)-[:WROTE]->(:Post)-[:REPLY_TO]->(:Post {{postId: {q(replied)}}}) RETURN DISTINCT m.handle",
    ),
    (f"What topics is post {post2} about?", f"MATCH (:Post {{postId: {q(post2)}}})-[:ABOUT]->(t:Topic) RETURN t.topicName"),
    (
        f"Which posts are about {TOPICS[2]}?",
        f"MATCH (p:Post)-[:ABOUT]->(:Topic {{topicName: {q(TOPICS[2])}}}) RETURN p.postId",
    ),
    ("How many posts are about each topic?", "MATCH (p:Post)-[:ABOUT]->(t:Topic) RETURN t.topicName, count(p)"),
    (
        "Which topic has the most posts?",
        "MATCH (p:Post)-[:ABOUT]->(t:Topic) RETURN t.topicName, count(p) AS n ORDER BY n DESC LIMIT 1",
    ),
    (f"Which members live in {city}?", f"MATCH (m:Member {{city: {q(city)}}}) RETURN m.handle"),
    ("How many verified members are there?", "MATCH (m:Member) WHERE m.verified = true RETURN count(m)"),
    (
        f"Which verified members live in {CITIES[0]}?",
        f"MATCH (m:Member {{city: {q(CITIES[0])}}}) WHERE m.verified = true RETURN m.handle",
    ),
    ("Which members joined in 2022?", "MATCH (m:Member) WHERE m.joinedAt STARTS WITH '2022' RETURN m.handle"),
    (
        "Who are the 3 members who joined most recently?",
        "MATCH (m:Member) RETURN m.handle ORDER BY m.joinedAt DESC LIMIT 3",
    ),
    (
        f"Which posts mention {m1['handle']}?",
        f"MATCH (p:Post)-[:MENTIONS]->(:Member {{handle: {q(m1['handle'])}}}) RETURN p.postId",
    ),
    (
        f"Who has mentioned {m1['handle']} in a post?",
        f"MATCH (a:Member)-[:WROTE]->(:Post)-[:MENTIONS]->(:Member {{handle: {q(m1['handle'])}}}) RETURN DISTINCT a.handle",
    ),
    (
        f"How many likes did post {post1} get?",
        f"MATCH (m:Member)-[:LIKED]->(:Post {{postId: {q(post1)}}}) RETURN count(m)",
    ),
    (f"Which posts did {m2['handle']} like?", f"MATCH (:Member {{handle: {q(m2['handle'])}}})-[:LIKED]->(p:Post) RETURN p.postId"),
    ("What are the 5 most viewed posts?", "MATCH (p:Post) RETURN p.postId, p.views ORDER BY p.views DESC LIMIT 5"),
    (
        f"What is the average number of views of posts about {TOPICS[0]}?",
        f"MATCH (p:Post)-[:ABOUT]->(:Topic {{topicName: {q(TOPICS[0])}}}) RETURN avg(p.views)",
    ),
    ("Which posts were written in Japanese?", "MATCH (p:Post {language: 'Japanese'}) RETURN p.postId"),
    ("How many posts were written in Spanish?", "MATCH (p:Post {language: 'Spanish'}) RETURN count(p)"),
    (
        f"Which communities has {m3['handle']} joined?",
        f"MATCH (:Member {{handle: {q(m3['handle'])}}})-[:JOINED]->(c:Community) RETURN c.communityName",
    ),
    (
        f"Who are the admins of {comm}?",
        f"MATCH (m:Member)-[:JOINED {{role: 'admin'}}]->(:Community {{communityName: {q(comm)}}}) RETURN m.handle",
    ),
    (
        f"How many members does {comm2} have?",
        f"MATCH (m:Member)-[:JOINED]->(:Community {{communityName: {q(comm2)}}}) RETURN count(m)",
    ),
    (
        "Which community has the most members?",
        "MATCH (m:Member)-[:JOINED]->(c:Community) RETURN c.communityName, count(m) AS n ORDER BY n DESC LIMIT 1",
    ),
    ("Which communities are private?", "MATCH (c:Community) WHERE c.isPrivate = true RETURN c.communityName"),
    ("Which communities were founded before 2019?", "MATCH (c:Community) WHERE c.founded < 2019 RETURN c.communityName"),
    (
        f"Which topic does {comm} focus on?",
        f"MATCH (:Community {{communityName: {q(comm)}}})-[:FOCUSES_ON]->(t:Topic) RETURN t.topicName",
    ),
    (
        f"When did {follower_pair[0]} start following {follower_pair[1]}?",
        f"MATCH (:Member {{handle: {q(follower_pair[0])}}})-[r:FOLLOWS]->(:Member {{handle: {q(follower_pair[1])}}}) RETURN r.since",
    ),
    (
        f"Which members did {fan} start following in 2023?",
        f"MATCH (:Member {{handle: {q(fan)}}})-[r:FOLLOWS]->(f:Member) WHERE r.since STARTS WITH '2023' RETURN f.handle",
    ),
    (f"What is the full name of {m2['handle']}?", f"MATCH (m:Member {{handle: {q(m2['handle'])}}}) RETURN m.fullName"),
    (f"What is the handle of {m3['full']}?", f"MATCH (m:Member {{fullName: {q(m3['full'])}}}) RETURN m.handle"),
    (f"When was post {post2} posted?", f"MATCH (p:Post {{postId: {q(post2)}}}) RETURN p.postedAt"),
    (
        f"Which posts by {writer} have more than 500 views?",
        f"MATCH (:Member {{handle: {q(writer)}}})-[:WROTE]->(p:Post) WHERE p.views > 500 RETURN p.postId",
    ),
    (
        f"Which members wrote posts about {TOPICS[1]}?",
        f"MATCH (m:Member)-[:WROTE]->(:Post)-[:ABOUT]->(:Topic {{topicName: {q(TOPICS[1])}}}) RETURN DISTINCT m.handle",
    ),
    (
        f"What is the most viewed post about {TOPICS[4]}?",
        f"MATCH (p:Post)-[:ABOUT]->(:Topic {{topicName: {q(TOPICS[4])}}}) RETURN p.postId ORDER BY p.views DESC LIMIT 1",
    ),
    (
        f"Which members are moderators of {comm2}?",
        f"MATCH (m:Member)-[:JOINED {{role: 'moderator'}}]->(:Community {{communityName: {q(comm2)}}}) RETURN m.handle",
    ),
    ("How many posts were published in 2023?", "MATCH (p:Post) WHERE p.postedAt STARTS WITH '2023' RETURN count(p)"),
    ("Which members have never written a post?", "MATCH (m:Member) WHERE NOT (m)-[:WROTE]->() RETURN m.handle"),
    (
        f"Who liked posts written by {writer}?",
        f"MATCH (l:Member)-[:LIKED]->(:Post)<-[:WROTE]-(:Member {{handle: {q(writer)}}}) RETURN DISTINCT l.handle",
    ),
    (
        f"Which members from {city} follow {popular}?",
        f"MATCH (f:Member {{city: {q(city)}}})-[:FOLLOWS]->(:Member {{handle: {q(popular)}}}) RETURN f.handle",
    ),
    (
        "List the members who follow more than 5 people.",
        "MATCH (m:Member)-[:FOLLOWS]->(f:Member) WITH m, count(f) AS n WHERE n > 5 RETURN m.handle",
    ),
    (
        f"What is the earliest post about {TOPICS[3]}?",
        f"MATCH (p:Post)-[:ABOUT]->(:Topic {{topicName: {q(TOPICS[3])}}}) RETURN p.postId ORDER BY p.postedAt ASC LIMIT 1",
    ),
    (
        f"Find posts written by '{writer}' that are about '{TOPICS[1]}'.",
        f"MATCH (:Member {{handle: {q(writer)}}})-[:WROTE]->(p:Post)-[:ABOUT]->(:Topic {{topicName: {q(TOPICS[1])}}}) RETURN p.postId",
    ),
    (
        f"Show the communities that focus on '{TOPICS[2]}'.",
        f"MATCH (c:Community)-[:FOCUSES_ON]->(:Topic {{topicName: {q(TOPICS[2])}}}) RETURN c.communityName",
    ),
]
write(HERE, "social", L, Q)
