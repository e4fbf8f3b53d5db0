"""A small knowledge graph of plain triples about an invented world (session 51), in the generic KGQA layout that
``python -m app eval --dataset kgqa`` loads: one tab-separated triples file (``kb.txt``, entity names with
underscores, lower-case relation names) and question files ``question<TAB>a/b/<TAB>e1#r1#e2...`` of one-hop (``W-1H``),
two-hop (``W-2H``), three-hop (``W-3H``) and conjunctive (``W-C``: two constraints on one answer) questions. The
questions were written by hand before the service was run on the graph; their answers are computed here by following
the written path (every object reached, or the subjects meeting both constraints), so a question's gold is what the
graph says. People, their birthplaces, spouses, children, professions, employers and schools; cities in countries
with capitals, currencies and languages; companies with founders, headquarters and industries; football players with
clubs, national teams and positions; books with authors and genres.

``python data/worldkg/make.py`` writes the files here. The project's own data, not a public benchmark."""

import random
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
rng = random.Random(51)

COUNTRIES = {  # country: (capital, currency, language)
    "Norland": ("Vessby", "Norland_krona", "Norlandic"),
    "Estavia": ("Port_Amar", "Estavian_dinar", "Estavian"),
    "Quorra": ("Quillon", "Quorran_mark", "Quorran"),
    "Valdoria": ("San_Teodro", "Valdorian_peso", "Valdorian"),
    "Sunmark": ("Halvik", "Sunmark_crown", "Norlandic"),
}
CITIES = {
    "Norland": ["Vessby", "Grimstad_Bay", "Oddholm"],
    "Estavia": ["Port_Amar", "Kesh", "Dunmere"],
    "Quorra": ["Quillon", "Taravel"],
    "Valdoria": ["San_Teodro", "Miravel", "Costa_Lume"],
    "Sunmark": ["Halvik", "Brenna"],
}
FIRST = "Arlo Bette Cyrus Dagny Elias Freya Gideon Hanna Ivo Jorun Kasimir Lene Matteo Nadia Osric Pia Rafe Saga Tobin Una Viggo Wren Ximena Yusuf".split()
LAST = "Venn Aldana Brisk Corvo Dahl Ekberg Falk Granados Holm Ibarra Juhl Kestrel Lind Moreau Norrby Ostrander Pires Quist".split()
PROFESSIONS = ["architect", "novelist", "surgeon", "economist", "film_director", "chemist", "footballer", "politician"]
INDUSTRIES = ["shipbuilding", "software", "pharmaceuticals", "mining", "publishing"]
GENRES = ["crime_fiction", "poetry", "historical_novel", "science_fiction"]
RELIGIONS = ["Lumenism", "Old_Rite", "none"]

T: list[tuple[str, str, str]] = []


def add(s: str, r: str, o: str) -> None:
    T.append((s, r, o))


for country, (capital, currency, lang) in COUNTRIES.items():
    add(country, "capital", capital)
    add(country, "currency", currency)
    add(country, "official_language", lang)
    for c in CITIES[country]:
        add(c, "contained_by", country)
all_cities = [c for cs in CITIES.values() for c in cs]
country_of = {c: k for k, cs in CITIES.items() for c in cs}

UNIS = {"Vessby_Institute_of_Technology": "Vessby", "University_of_Kesh": "Kesh", "Quillon_College": "Quillon",
        "Miravel_University": "Miravel", "Brenna_Academy": "Brenna"}  # fmt: skip
for u, c in UNIS.items():
    add(u, "located_in", c)

people: list[str] = []
used: set[str] = set()
while len(people) < 60:
    n = f"{rng.choice(FIRST)}_{rng.choice(LAST)}"
    if n not in used:
        used.add(n)
        people.append(n)
info: dict[str, dict] = {}
for p in people:
    city = rng.choice(all_cities)
    d = dict(born=city, nat=country_of[city] if rng.random() < 0.85 else rng.choice(list(COUNTRIES)),
             prof=rng.choice(PROFESSIONS), uni=rng.choice(list(UNIS)), rel=rng.choice(RELIGIONS))  # fmt: skip
    info[p] = d
    add(p, "place_of_birth", d["born"])
    add(p, "nationality", d["nat"])
    add(p, "profession", d["prof"])
    add(p, "institution", d["uni"])
    if d["rel"] != "none":
        add(p, "religion", d["rel"])
# marriages and children (both directions, as Freebase-like dumps keep them)
order = people[:]
rng.shuffle(order)
for a, b in zip(order[0:24:2], order[1:24:2]):
    add(a, "spouse", b)
    add(b, "spouse", a)
    for child in rng.sample(order[24:], rng.randint(1, 2)):
        if any(r == "parents" and s == child for s, r, _ in T) and rng.random() < 0.7:
            continue
        for parent in (a, b):
            add(parent, "children", child)
            add(child, "parents", parent)

COMPANIES = {"Halvik_Shipyards": ("Halvik", "shipbuilding"), "Quillsoft": ("Quillon", "software"),
             "Marrow_Pharma": ("Dunmere", "pharmaceuticals"), "Costa_Minerals": ("Costa_Lume", "mining"),
             "Bluequay_Press": ("Grimstad_Bay", "publishing"), "Taravel_Systems": ("Taravel", "software"),
             "Oddholm_Ore": ("Oddholm", "mining")}  # fmt: skip
non_players = [p for p in people if info[p]["prof"] != "footballer"]
for comp, (city, ind) in COMPANIES.items():
    add(comp, "headquarters", city)
    add(comp, "industry", ind)
    add(comp, "founder", rng.choice(non_players))
for p in non_players:
    if rng.random() < 0.6:
        add(p, "employer", rng.choice(list(COMPANIES)))

CLUBS = {"FC_Vessby": "Vessby", "Kesh_Rovers": "Kesh", "Quillon_Athletic": "Quillon", "Miravel_United": "Miravel",
         "Halvik_Town": "Halvik"}  # fmt: skip
for club, city in CLUBS.items():
    add(club, "home_city", city)
POSITIONS = ["goalkeeper", "defender", "midfielder", "forward"]
players = []
pl_used: set[str] = set()
while len(players) < 40:
    n = f"{rng.choice(FIRST)}_{rng.choice(LAST)}"
    if n in used or n in pl_used:
        continue
    pl_used.add(n)
    players.append(n)
    add(n, "plays_for", rng.choice(list(CLUBS)))
    add(n, "national_team", rng.choice(list(COUNTRIES)))
    add(n, "position", rng.choice(POSITIONS))
W1 = "Salt Winter Glass Iron Hollow Amber Silent Paper Crimson Northern".split()
W2 = "Harbour Letters Orchard Tide Crown Lantern Archive Meridian Sparrow Ledger".split()
writers = [p for p in people if info[p]["prof"] in ("novelist", "economist", "politician")]
books: list[str] = []
while len(books) < 18:
    b = f"The_{rng.choice(W1)}_{rng.choice(W2)}"
    if b not in books:
        books.append(b)
        add(b, "author", rng.choice(writers))
        add(b, "genre", rng.choice(GENRES))
        add(b, "publisher", rng.choice(["Bluequay_Press", "Kesh_House", "Amber_Leaf_Books"]))

T = list(dict.fromkeys(T))
out: dict[tuple[str, str], list[str]] = defaultdict(list)
inn: dict[tuple[str, str], list[str]] = defaultdict(list)
for s, r, o in T:
    out[s, r].append(o)
    inn[o, r].append(s)


def follow(e: str, *rels: str) -> list[str]:
    """Every entity reached from ``e`` along ``rels`` (``~r``: the relation read backwards, subject from object)."""
    cur = [e]
    for r in rels:
        back = r.startswith("~")
        cur = list(dict.fromkeys(o for x in cur for o in (inn[x, r[1:]] if back else out[x, r])))
    return cur


def subjects(*pairs: tuple[str, str]) -> list[str]:
    """The subjects holding every ``(relation, object)`` pair."""
    sets = [set(inn[o, r]) for r, o in pairs]
    return sorted(set.intersection(*sets))


# (question, topic entity, relations followed): one-, two- and three-hop questions
PATHS = {
    "W-1H": [
        ("Where was Hanna Pires born?", "Hanna_Pires", ["place_of_birth"]),
        ("what is the profession of saga_ekberg", "Saga_Ekberg", ["profession"]),
        ("Who is Tobin Kestrel married to?", "Tobin_Kestrel", ["spouse"]),
        ("Which company was founded by Freya Corvo?", "Freya_Corvo", ["~founder"]),
        ("Who wrote The Paper Crown?", "The_Paper_Crown", ["author"]),
        ("what club does Ximena_Lind play for", "Ximena_Lind", ["plays_for"]),
        ("What is the capital of Valdoria?", "Valdoria", ["capital"]),
        ("Which country is Taravel in?", "Taravel", ["contained_by"]),
        ("What industry is Halvik Shipyards in?", "Halvik_Shipyards", ["industry"]),
        ("Who are the children of Matteo Venn?", "Matteo_Venn", ["children"]),
        ("Which players play for Miravel United?", "Miravel_United", ["~plays_for"]),
        ("what position does Tobin Ekberg play", "Tobin_Ekberg", ["position"]),
    ],
    "W-2H": [
        ("In which country was Hanna Pires born?", "Hanna_Pires", ["place_of_birth", "contained_by"]),
        ("What is the nationality of Tobin Kestrel's spouse?", "Tobin_Kestrel", ["spouse", "nationality"]),
        ("where was the founder of Quillsoft born", "Quillsoft", ["founder", "place_of_birth"]),
        ("What currency is used in the country Saga_Holm is a national of?", "Saga_Holm", ["nationality", "currency"]),
        ("Which city is the company that employs Rafe Juhl headquartered in?", "Rafe_Juhl", ["employer", "headquarters"]),
        ("What is the profession of the author of The Salt Orchard?", "The_Salt_Orchard", ["author", "profession"]),
        ("Which city is the home of the club Lene Dahl plays for?", "Lene_Dahl", ["plays_for", "home_city"]),
        ("what is the capital of the national team country of Una_Moreau", "Una_Moreau", ["national_team", "capital"]),
        ("Who are the parents of Matteo Venn's children married to?", "Matteo_Venn", ["children", "parents", "spouse"]),
        ("Which university did the spouse of Lene Ibarra attend?", "Lene_Ibarra", ["spouse", "institution"]),
        ("What language is spoken officially in the country where Kesh is?", "Kesh", ["contained_by", "official_language"]),
        ("Where were the children of Osric Ostrander born?", "Osric_Ostrander", ["children", "place_of_birth"]),
        ("Which books were written by the parents of Freya Kestrel?", "Freya_Kestrel", ["parents", "~author"]),
        ("In which city is the university Nadia Quist attended located?", "Nadia_Quist", ["institution", "located_in"]),
        ("What religion does the spouse of Pia Quist follow?", "Pia_Quist", ["spouse", "religion"]),
        ("Who publishes the books of Lene Norrby?", "Lene_Norrby", ["~author", "publisher"]),
        ("what industry is the employer of Yusuf_Juhl in", "Yusuf_Juhl", ["employer", "industry"]),
        ("Who founded the company Wren Moreau works for?", "Wren_Moreau", ["employer", "founder"]),
        ("What genre are the books written by Tobin Moreau?", "Tobin_Moreau", ["~author", "genre"]),
        ("Which players play for the club based in Kesh?", "Kesh", ["~home_city", "~plays_for"]),
    ],
    "W-3H": [
        ("What is the currency of the country where Hanna Pires was born?", "Hanna_Pires",
         ["place_of_birth", "contained_by", "currency"]),
        ("In which country was the spouse of Tobin Kestrel born?", "Tobin_Kestrel",
         ["spouse", "place_of_birth", "contained_by"]),
        ("what is the capital of the country where the founder of Marrow Pharma was born", "Marrow_Pharma",
         ["founder", "place_of_birth", "contained_by", "capital"]),
        ("Where was the spouse of the author of The Paper Crown born?", "The_Paper_Crown",
         ["author", "spouse", "place_of_birth"]),
        ("Which country is the headquarters city of Saga_Ekberg's employer in?", "Saga_Ekberg",
         ["employer", "headquarters", "contained_by"]),
        ("What is the official language of the country of the club Arlo Granados plays for?", "Arlo_Granados",
         ["plays_for", "home_city", "contained_by", "official_language"]),
        ("Where was the founder of the company Dagny Pires works for born?", "Dagny_Pires",
         ["employer", "founder", "place_of_birth"]),
        ("What are the professions of the spouses of Nadia Falk's parents?", "Nadia_Falk",
         ["parents", "spouse", "profession"]),
        ("Which company employs the parents of the author of The Amber Lantern?", "The_Amber_Lantern",
         ["author", "parents", "employer"]),
        ("In which city is the company founded by the child of Viggo Moreau headquartered?", "Viggo_Moreau",
         ["children", "~founder", "headquarters"]),
        ("what country is the university attended by the founder of Costa_Minerals in", "Costa_Minerals",
         ["founder", "institution", "located_in", "contained_by"]),
        ("Who founded the employer of the spouse of Matteo Venn?", "Matteo_Venn", ["spouse", "employer", "founder"]),
        ("Which country is the birthplace of the author of The Northern Crown in?", "The_Northern_Crown",
         ["author", "place_of_birth", "contained_by"]),
        ("What country were the children of Kasimir Juhl born in?", "Kasimir_Juhl",
         ["children", "place_of_birth", "contained_by"]),
        ("what religion do the parents of the founder of Taravel Systems follow", "Taravel_Systems",
         ["founder", "parents", "religion"]),
    ],
}
# (question, constraints the answers all meet: (relation, object) on the answer as subject)
CONJ = [
    ("Which players play for Kesh Rovers and for the Norland national team?", [("plays_for", "Kesh_Rovers"),
     ("national_team", "Norland")]),
    ("Which goalkeepers play for FC Vessby?", [("plays_for", "FC_Vessby"), ("position", "goalkeeper")]),
    ("who are the forwards of Halvik_Town", [("plays_for", "Halvik_Town"), ("position", "forward")]),
    ("Which architects were born in Taravel?", [("profession", "architect"), ("place_of_birth", "Taravel")]),
    ("Which economists studied at the University of Kesh?", [("profession", "economist"),
     ("institution", "University_of_Kesh")]),
    ("Who works for Oddholm Ore and was born in Taravel?", [("employer", "Oddholm_Ore"), ("place_of_birth", "Taravel")]),
    ("Which science fiction books did Matteo Venn write?", [("author", "Matteo_Venn"), ("genre", "science_fiction")]),
    ("which books published by Bluequay_Press are historical novels", [("publisher", "Bluequay_Press"),
     ("genre", "historical_novel")]),
    ("Which surgeons have Quorra nationality?", [("profession", "surgeon"), ("nationality", "Quorra")]),
    ("Who studied at Quillon College and works at Costa Minerals?", [("institution", "Quillon_College"),
     ("employer", "Costa_Minerals")]),
    ("Which Valdoria national team players play for Quillon Athletic?", [("national_team", "Valdoria"),
     ("plays_for", "Quillon_Athletic")]),
    ("Which midfielders play for the national team of Estavia?", [("position", "midfielder"),
     ("national_team", "Estavia")]),
    ("Which software companies are headquartered in Taravel?", [("industry", "software"),
     ("headquarters", "Taravel")]),
    ("Who follows Old Rite and was born in Port Amar?", [("religion", "Old_Rite"), ("place_of_birth", "Port_Amar")]),
    ("Which film directors work for Taravel Systems?", [("profession", "film_director"),
     ("employer", "Taravel_Systems")]),
]


def write() -> None:
    with open(HERE / "kb.txt", "w") as f:
        for s, r, o in T:
            f.write(f"{s}\t{r}\t{o}\n")
    n = 0
    for name, rows in PATHS.items():
        with open(HERE / f"{name}.txt", "w") as f:
            for question, topic, rels in rows:
                answers = follow(topic, *rels)
                assert answers, question
                path = "#".join([topic, *(x for r in rels for x in (r, "_"))])
                f.write(f"{question}\t{'/'.join(answers)}/\t{path}\n")
                n += 1
    with open(HERE / "W-C.txt", "w") as f:
        for question, pairs in CONJ:
            answers = subjects(*pairs)
            assert answers, question
            path = "#".join(x for r, o in pairs for x in (o, r, "_"))
            f.write(f"{question}\t{'/'.join(answers)}/\t{path}\n")
            n += 1
    print(len(T), "triples,", n, "questions in", HERE)


if __name__ == "__main__":
    write()
