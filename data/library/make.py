"""A small library graph of a schema none of the service's code was written against (Author ``penName``, Book
``bookTitle`` with an ``isbn`` code, ``pages``, ``price``, ``language``, ISO ``publishedOn``; Member ``memberName``
with a ``memberNo`` code and a ``city``; ratings and loan lengths on relationships), and 45 questions with gold Cypher
written by hand before the service was run on it (session 47). ``python data/library/make.py`` writes
``library.cypher`` and ``questions.jsonl`` here (``make eval-own``). The project's own data: session 47 measured it
first with the changes read off the league graph alone (``data/league``), then changed two things its misses showed,
so it is a development set now too."""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from own_graph import q, write  # noqa: E402

HERE = Path(__file__).resolve().parent
rng = random.Random(23)


ADJ = "Silent Hidden Crimson Broken Distant Golden Burning Frozen Forgotten Hollow Quiet Wandering Iron Glass Paper Velvet".split()
NOUN = "River Garden Empire Harbor Lantern Mountain Orchard Mirror Compass Forest Tower Voyage Winter Archive Island Signal".split()
GENRES = ["Fantasy", "Science Fiction", "Mystery", "Romance", "History", "Poetry"]
LANGS = ["English", "French", "German", "Spanish"]
CITIES = ["Lyon", "Leeds", "Porto", "Graz", "Turin"]
PUBS = ["Northwind Press", "Bluefield Books", "Harbor House", "Quill & Ink", "Meridian Publishing"]
AFIRST = "Clara Tomas Ines Henrik Ada Marcel Lena Oskar Nora Felipe Greta Julien Mira Anton Sofia".split()
ALAST = "Vance Holm Duval Brandt Moreau Castillo Lind Weber Rossi Novak Albers Quint Faro Engel Sorel".split()
L = []
for g in GENRES:
    L.append(f"CREATE (:Genre {{genreLabel: {q(g)}}});")
for p in PUBS:
    L.append(f"CREATE (:Publisher {{publisherName: {q(p)}, foundedIn: {rng.randint(1890, 2005)}}});")
authors = []
for i in range(30):
    n = f"{AFIRST[i % 15]} {ALAST[(i * 7 + i // 15) % 15]}"
    authors.append(n)
    L.append(f"CREATE (:Author {{penName: {q(n)}, bornIn: {rng.randint(1940, 1995)}}});")
books = []
used = set()
for i in range(150):
    while True:
        t = f"The {rng.choice(ADJ)} {rng.choice(NOUN)}"
        if t not in used:
            used.add(t)
            break
    b = dict(
        title=t,
        isbn=f"978-{rng.randint(10000, 99999)}-{i:03d}",
        pages=rng.randint(90, 900),
        pub=f"{rng.randint(1995, 2023)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
        price=round(rng.uniform(6, 45), 2),
        lang=rng.choice(LANGS),
        author=rng.choice(authors),
        publisher=rng.choice(PUBS),
        genre=rng.choice(GENRES),
    )
    books.append(b)
    L.append(
        f"CREATE (:Book {{bookTitle: {q(t)}, isbn: {q(b['isbn'])}, pages: {b['pages']}, publishedOn: {q(b['pub'])}, price: {b['price']}, language: {q(b['lang'])}}});"
    )
    L.append(
        f"MATCH (a:Author {{penName: {q(b['author'])}}}), (b:Book {{bookTitle: {q(t)}}}) CREATE (a)-[:WROTE]->(b);"
    )
    L.append(
        f"MATCH (b:Book {{bookTitle: {q(t)}}}), (p:Publisher {{publisherName: {q(b['publisher'])}}}) CREATE (b)-[:PUBLISHED_BY]->(p);"
    )
    L.append(
        f"MATCH (b:Book {{bookTitle: {q(t)}}}), (g:Genre {{genreLabel: {q(b['genre'])}}}) CREATE (b)-[:IN_GENRE]->(g);"
    )
MF = "Ana Ben Cara Dev Eli Fay Gus Hal Ivy Jon Kai Lia Max Noe Oli Pia Rex Sam Tia Uma".split()
ML = "Abbott Baker Carter Dalton Ellis Foster Grant Hayes Irwin Jarvis Keller Lowell".split()
members = []
for i in range(60):
    n = f"{MF[i % 20]} {ML[(i * 5 + i // 20) % 12]}"
    m = dict(
        name=n,
        no=f"M{1000 + i * 37}",
        city=rng.choice(CITIES),
        joined=f"{rng.randint(2010, 2024)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
    )
    members.append(m)
    L.append(
        f"CREATE (:Member {{memberName: {q(n)}, memberNo: {q(m['no'])}, city: {q(m['city'])}, joinedOn: {q(m['joined'])}}});"
    )
for k in range(260):
    m, b = rng.choice(members), rng.choice(books[:120])
    L.append(
        f"MATCH (m:Member {{memberName: {q(m['name'])}}}), (b:Book {{bookTitle: {q(b['title'])}}}) CREATE (m)-[:BORROWED {{borrowedOn: '{rng.randint(2019, 2024)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}', days: {rng.randint(1, 42)}}}]->(b);"
    )
for k in range(200):
    m, b = rng.choice(members), rng.choice(books)
    L.append(
        f"MATCH (m:Member {{memberName: {q(m['name'])}}}), (b:Book {{bookTitle: {q(b['title'])}}}) CREATE (m)-[:REVIEWED {{stars: {rng.randint(1, 5)}}}]->(b);"
    )

Q = [
    (
        "How many books has Marcel Castillo written?",
        "MATCH (:Author {penName: 'Marcel Castillo'})-[:WROTE]->(b:Book) RETURN count(b)",
    ),
    (
        "Which books were published by Harbor House?",
        "MATCH (b:Book)-[:PUBLISHED_BY]->(:Publisher {publisherName: 'Harbor House'}) RETURN b.bookTitle",
    ),
    ("How many pages does The Distant Harbor have?", "MATCH (b:Book {bookTitle: 'The Distant Harbor'}) RETURN b.pages"),
    (
        "List the 5 longest books by number of pages.",
        "MATCH (b:Book) RETURN b.bookTitle, b.pages ORDER BY b.pages DESC LIMIT 5",
    ),
    ("Which books are written in French?", "MATCH (b:Book {language: 'French'}) RETURN b.bookTitle"),
    ("How many German books are there?", "MATCH (b:Book {language: 'German'}) RETURN count(b)"),
    ("Which members live in Porto?", "MATCH (m:Member {city: 'Porto'}) RETURN m.memberName"),
    (
        "Which authors have written Fantasy books?",
        "MATCH (a:Author)-[:WROTE]->(:Book)-[:IN_GENRE]->(:Genre {genreLabel: 'Fantasy'}) RETURN DISTINCT a.penName",
    ),
    (
        "What is the average price of books published by Bluefield Books?",
        "MATCH (b:Book)-[:PUBLISHED_BY]->(:Publisher {publisherName: 'Bluefield Books'}) RETURN avg(b.price)",
    ),
    (
        "Who wrote The Silent Mirror?",
        "MATCH (a:Author)-[:WROTE]->(:Book {bookTitle: 'The Silent Mirror'}) RETURN a.penName",
    ),
    (
        "Which genre does The Hollow Tower belong to?",
        "MATCH (:Book {bookTitle: 'The Hollow Tower'})-[:IN_GENRE]->(g:Genre) RETURN g.genreLabel",
    ),
    (
        "Which books did Ana Abbott borrow?",
        "MATCH (:Member {memberName: 'Ana Abbott'})-[:BORROWED]->(b:Book) RETURN DISTINCT b.bookTitle",
    ),
    (
        "How many times was The Burning Garden borrowed?",
        "MATCH (:Member)-[r:BORROWED]->(:Book {bookTitle: 'The Burning Garden'}) RETURN count(r)",
    ),
    ("Which member joined first?", "MATCH (m:Member) RETURN m.memberName ORDER BY m.joinedOn ASC LIMIT 1"),
    ("What is the most expensive book?", "MATCH (b:Book) RETURN b.bookTitle ORDER BY b.price DESC LIMIT 1"),
    ("Which books were published after 2020?", "MATCH (b:Book) WHERE b.publishedOn >= '2021' RETURN b.bookTitle"),
    ("What is the ISBN of The Golden Tower?", "MATCH (b:Book {bookTitle: 'The Golden Tower'}) RETURN b.isbn"),
    ("Which books cost less than 8?", "MATCH (b:Book) WHERE b.price < 8 RETURN b.bookTitle"),
    (
        "List the books by Ines Vance ordered by publication date.",
        "MATCH (:Author {penName: 'Ines Vance'})-[:WROTE]->(b:Book) RETURN b.bookTitle ORDER BY b.publishedOn",
    ),
    (
        "What is the average star rating of The Crimson Compass?",
        "MATCH (:Member)-[r:REVIEWED]->(:Book {bookTitle: 'The Crimson Compass'}) RETURN avg(r.stars)",
    ),
    (
        "How many books does each publisher have?",
        "MATCH (b:Book)-[:PUBLISHED_BY]->(p:Publisher) RETURN p.publisherName, count(b)",
    ),
    (
        "Which publisher has published the most books?",
        "MATCH (b:Book)-[:PUBLISHED_BY]->(p:Publisher) RETURN p.publisherName, count(b) AS n ORDER BY n DESC LIMIT 1",
    ),
    (
        "Which authors have written more than 6 books?",
        "MATCH (a:Author)-[:WROTE]->(b:Book) WITH a, count(b) AS n WHERE n > 6 RETURN a.penName",
    ),
    (
        "Which books has Cara Keller reviewed?",
        "MATCH (:Member {memberName: 'Cara Keller'})-[:REVIEWED]->(b:Book) RETURN DISTINCT b.bookTitle",
    ),
    ("How many members are from Lyon?", "MATCH (m:Member {city: 'Lyon'}) RETURN count(m)"),
    (
        "Which Science Fiction books have more than 800 pages?",
        "MATCH (b:Book)-[:IN_GENRE]->(:Genre {genreLabel: 'Science Fiction'}) WHERE b.pages > 800 RETURN b.bookTitle",
    ),
    ("When did Dev Dalton join?", "MATCH (m:Member {memberName: 'Dev Dalton'}) RETURN m.joinedOn"),
    (
        "What is the total number of pages of the books written by Clara Holm?",
        "MATCH (:Author {penName: 'Clara Holm'})-[:WROTE]->(b:Book) RETURN sum(b.pages)",
    ),
    (
        "In which genres has Tomas Weber written books?",
        "MATCH (:Author {penName: 'Tomas Weber'})-[:WROTE]->(:Book)-[:IN_GENRE]->(g:Genre) RETURN DISTINCT g.genreLabel",
    ),
    ("List all genres.", "MATCH (g:Genre) RETURN g.genreLabel"),
    ("How many books have never been borrowed?", "MATCH (b:Book) WHERE NOT (:Member)-[:BORROWED]->(b) RETURN count(b)"),
    (
        "Which books were borrowed for more than 40 days?",
        "MATCH (:Member)-[r:BORROWED]->(b:Book) WHERE r.days > 40 RETURN DISTINCT b.bookTitle",
    ),
    (
        "Who borrowed The Broken Winter?",
        "MATCH (m:Member)-[:BORROWED]->(:Book {bookTitle: 'The Broken Winter'}) RETURN DISTINCT m.memberName",
    ),
    (
        "Which Spanish books were published by Bluefield Books?",
        "MATCH (b:Book {language: 'Spanish'})-[:PUBLISHED_BY]->(:Publisher {publisherName: 'Bluefield Books'}) RETURN b.bookTitle",
    ),
    (
        "Which author wrote the longest book?",
        "MATCH (a:Author)-[:WROTE]->(b:Book) RETURN a.penName ORDER BY b.pages DESC LIMIT 1",
    ),
    (
        "Which members borrowed books written by Felipe Moreau?",
        "MATCH (m:Member)-[:BORROWED]->(:Book)<-[:WROTE]-(:Author {penName: 'Felipe Moreau'}) RETURN DISTINCT m.memberName",
    ),
    ("What is the member number of Eli Irwin?", "MATCH (m:Member {memberName: 'Eli Irwin'}) RETURN m.memberNo"),
    (
        "In which language is The Forgotten Tower written?",
        "MATCH (b:Book {bookTitle: 'The Forgotten Tower'}) RETURN b.language",
    ),
    (
        "What is the cheapest Fantasy book?",
        "MATCH (b:Book)-[:IN_GENRE]->(:Genre {genreLabel: 'Fantasy'}) RETURN b.bookTitle ORDER BY b.price ASC LIMIT 1",
    ),
    (
        "Which publisher published The Broken Winter?",
        "MATCH (:Book {bookTitle: 'The Broken Winter'})-[:PUBLISHED_BY]->(p:Publisher) RETURN p.publisherName",
    ),
    ("How many books are there in each genre?", "MATCH (b:Book)-[:IN_GENRE]->(g:Genre) RETURN g.genreLabel, count(b)"),
    (
        "What is the average number of pages of Poetry books?",
        "MATCH (b:Book)-[:IN_GENRE]->(:Genre {genreLabel: 'Poetry'}) RETURN avg(b.pages)",
    ),
    ("Which members joined after 2023?", "MATCH (m:Member) WHERE m.joinedOn >= '2024' RETURN m.memberName"),
    (
        "Who are the 3 most recently joined members?",
        "MATCH (m:Member) RETURN m.memberName ORDER BY m.joinedOn DESC LIMIT 3",
    ),
    ("Which authors were born before 1950?", "MATCH (a:Author) WHERE a.bornIn < 1950 RETURN a.penName"),
]
write(HERE, "library", L, Q)
