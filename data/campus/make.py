"""A small university graph of a schema none of the service's code was written against (session 56), with
multi-label nodes and snake_case keys: departments by ``dept_name`` with a ``building`` and a ``budget_eur``;
professors (``:Person:Professor``) and students (``:Person:Student``) by ``full_name`` (professors with an
``email``, a boolean ``tenured`` and a ``hired_on`` date as text; students with a ``student_no`` id, an
``enrolled_year`` and a float ``gpa``); courses by ``course_code`` ("CS101") with a ``title``, ``credits`` and a
``level`` ("undergraduate", "graduate"); rooms by ``room_id`` with a ``capacity``. Professors ``WORK_IN`` departments,
``TEACH`` courses (a ``semester`` such as "Fall 2024") and ``ADVISE`` students; students ``MAJOR_IN`` departments and
are ``ENROLLED_IN`` courses (a float ``grade``); courses are ``OFFERED_BY`` a department, ``HELD_IN`` a room and
``REQUIRE`` other courses. 45 questions with gold Cypher written by hand before the service was run on it
(reports/summary.md, session 56).

``python data/campus/make.py`` writes ``campus.cypher`` and ``questions.jsonl`` here (``make eval-own``). The
project's own data, not a public benchmark."""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from own_graph import q, write

HERE = Path(__file__).resolve().parent
rng = random.Random(562)

DEPTS = [("Computer Science", "Turing Hall", "CS"), ("Mathematics", "Noether Building", "MA"),
         ("Physics", "Curie Wing", "PH"), ("Linguistics", "Sapir House", "LI")]  # fmt: skip
FIRST = ["Amara", "Bastian", "Chiara", "Dmitri", "Elif", "Farid", "Greta", "Hiroshi", "Ines", "Jonah", "Kalani",
         "Lior", "Mirela", "Nuno", "Oona", "Priya", "Quentin", "Rosa", "Stellan", "Tamsin", "Umar", "Vera"]  # fmt: skip
LAST = ["Abara", "Brandvold", "Castellanos", "Dufresne", "Ekwueme", "Fitzroy", "Gallo", "Halvorsen", "Ibarra",
        "Jovanovic", "Kuroda", "Lindahl", "Mbeki", "Novotny", "Okonkwo",
        "Pellegrini"]  # fmt: skip
TOPICS = {
    "CS": [
        "Intro to Programming",
        "Data Structures",
        "Algorithms",
        "Databases",
        "Operating Systems",
        "Machine Learning",
    ],
    "MA": ["Calculus I", "Linear Algebra", "Probability", "Number Theory", "Topology"],
    "PH": ["Mechanics", "Electromagnetism", "Quantum Physics", "Thermodynamics"],
    "LI": ["Phonetics", "Syntax", "Semantics", "Historical Linguistics"],
}

L: list[str] = []
names: set[str] = set()


def person() -> str:
    while True:
        n = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
        if n not in names:
            names.add(n)
            return n


depts = []
for name, building, _ in DEPTS:
    d = dict(name=name, building=building, budget=rng.randint(8, 60) * 100000)
    depts.append(d)
    L.append(f"CREATE (:Department {{dept_name: {q(name)}, building: {q(building)}, budget_eur: {d['budget']}}});")
rooms = []
for r in ["A-101", "A-204", "B-012", "B-110", "C-300", "C-002"]:
    rooms.append(dict(id=r, cap=rng.choice([24, 40, 60, 120, 250])))
    L.append(f"CREATE (:Room {{room_id: {q(r)}, capacity: {rooms[-1]['cap']}}});")
courses = []
for (dept, _building, code), (_, titles) in zip(DEPTS, TOPICS.items(), strict=True):
    for k, title in enumerate(titles):
        c = dict(
            code=f"{code}{100 * (1 + k // 2) + rng.randint(1, 49)}", title=title, credits=rng.choice([3, 4, 5, 6, 8]),
            level="graduate" if k >= len(titles) - 2 else "undergraduate", dept=dept, room=rng.choice(rooms)["id"],
        )  # fmt: skip
        courses.append(c)
        L.append(
            f"CREATE (:Course {{course_code: {q(c['code'])}, title: {q(title)}, credits: {c['credits']}, "
            f"level: {q(c['level'])}}});"
        )
        L.append(
            f"MATCH (c:Course {{course_code: {q(c['code'])}}}), (d:Department {{dept_name: {q(dept)}}}) "
            "CREATE (c)-[:OFFERED_BY]->(d);"
        )
        L.append(
            f"MATCH (c:Course {{course_code: {q(c['code'])}}}), (r:Room {{room_id: {q(c['room'])}}}) "
            "CREATE (c)-[:HELD_IN]->(r);"
        )
reqs = []
for i, c in enumerate(courses):
    same = [x for x in courses[:i] if x["dept"] == c["dept"]]
    for p in rng.sample(same, min(len(same), rng.randint(0, 2))):
        reqs.append((c["code"], p["code"]))
        L.append(
            f"MATCH (a:Course {{course_code: {q(c['code'])}}}), (b:Course {{course_code: {q(p['code'])}}}) "
            "CREATE (a)-[:REQUIRES]->(b);"
        )
profs = []
for d in depts:
    for _ in range(3):
        n = person()
        p = dict(name=n, dept=d["name"], tenured=rng.random() < 0.5,
                 hired=f"{rng.randint(1998, 2023)}-{rng.choice(['01', '09'])}-01",
                 email=n.lower().replace(" ", ".") + "@uni.example")  # fmt: skip
        profs.append(p)
        L.append(
            f"CREATE (:Person:Professor {{full_name: {q(n)}, email: {q(p['email'])}, "
            f"tenured: {'true' if p['tenured'] else 'false'}, hired_on: {q(p['hired'])}}});"
        )
        L.append(
            f"MATCH (p:Professor {{full_name: {q(n)}}}), (d:Department {{dept_name: {q(d['name'])}}}) "
            "CREATE (p)-[:WORKS_IN]->(d);"
        )
teach = []
for c in courses:
    own = [p for p in profs if p["dept"] == c["dept"]]
    for p in rng.sample(own, rng.randint(1, 2)):
        sem = rng.choice(["Fall 2023", "Spring 2024", "Fall 2024"])
        teach.append((p["name"], c["code"], sem))
        L.append(
            f"MATCH (p:Professor {{full_name: {q(p['name'])}}}), (c:Course {{course_code: {q(c['code'])}}}) "
            f"CREATE (p)-[:TEACHES {{semester: {q(sem)}}}]->(c);"
        )
students = []
enrol = []
for i in range(40):
    n = person()
    d = rng.choice(depts)
    s = dict(
        name=n, no=f"S{rng.randint(2019, 2024)}-{i + 100:04d}", gpa=round(rng.uniform(1.8, 4.0), 2), dept=d["name"]
    )
    s["year"] = int(s["no"][1:5])
    students.append(s)
    L.append(
        f"CREATE (:Person:Student {{full_name: {q(n)}, student_no: {q(s['no'])}, enrolled_year: {s['year']}, "
        f"gpa: {s['gpa']}}});"
    )
    L.append(
        f"MATCH (s:Student {{full_name: {q(n)}}}), (d:Department {{dept_name: {q(d['name'])}}}) "
        "CREATE (s)-[:MAJORS_IN]->(d);"
    )
    adv = rng.choice([p for p in profs if p["dept"] == d["name"]])
    s["advisor"] = adv["name"]
    L.append(
        f"MATCH (p:Professor {{full_name: {q(adv['name'])}}}), (s:Student {{full_name: {q(n)}}}) "
        "CREATE (p)-[:ADVISES]->(s);"
    )
    for c in rng.sample(courses, rng.randint(2, 5)):
        g = round(rng.choice([1.0, 1.7, 2.0, 2.3, 2.7, 3.0, 3.3, 3.7, 4.0]), 1)
        enrol.append((n, c["code"], g))
        L.append(
            f"MATCH (s:Student {{full_name: {q(n)}}}), (c:Course {{course_code: {q(c['code'])}}}) "
            f"CREATE (s)-[:ENROLLED_IN {{grade: {g}}}]->(c);"
        )

# the constants the questions name, picked from what was made
prof = max(profs, key=lambda p: sum(1 for t in teach if t[0] == p["name"]))
popular = max(courses, key=lambda c: sum(1 for e in enrol if e[1] == c["code"]))
needy = max(courses, key=lambda c: sum(1 for r in reqs if r[0] == c["code"]))
base = max(courses, key=lambda c: sum(1 for r in reqs if r[1] == c["code"]))
stud = students[5]
pair = next(e for e in enrol if e[0] == stud["name"])
pair_title = next(c["title"] for c in courses if c["code"] == pair[1])
mentor = max(profs, key=lambda p: sum(1 for s in students if s["advisor"] == p["name"]))
sem_t = next(t for t in teach if t[2] == "Fall 2024")
room_c = courses[3]
busy_room = max(rooms, key=lambda r: sum(1 for c in courses if c["room"] == r["id"]))["id"]

Q = [
    ("How many students are there?", "MATCH (s:Student) RETURN count(s)"),
    ("How many professors are tenured?", "MATCH (p:Professor) WHERE p.tenured = true RETURN count(p)"),
    (f"Which courses does {prof['name']} teach?",
     f"MATCH (:Professor {{full_name: {q(prof['name'])}}})-[:TEACHES]->(c:Course) RETURN c.title"),
    (f"Who teaches {popular['title']}?",
     f"MATCH (p:Professor)-[:TEACHES]->(:Course {{title: {q(popular['title'])}}}) RETURN p.full_name"),
    (f"Which students are enrolled in {popular['code']}?",
     f"MATCH (s:Student)-[:ENROLLED_IN]->(:Course {{course_code: {q(popular['code'])}}}) RETURN s.full_name"),
    (f"Which courses are prerequisites of {needy['code']}?",
     f"MATCH (:Course {{course_code: {q(needy['code'])}}})-[:REQUIRES]->(p:Course) RETURN p.title"),
    (f"Which courses require {base['title']}?",
     f"MATCH (c:Course)-[:REQUIRES]->(:Course {{title: {q(base['title'])}}}) RETURN c.title"),
    (f"Who advises {stud['name']}?",
     f"MATCH (p:Professor)-[:ADVISES]->(:Student {{full_name: {q(stud['name'])}}}) RETURN p.full_name"),
    (f"How many students does {mentor['name']} advise?",
     f"MATCH (:Professor {{full_name: {q(mentor['name'])}}})-[:ADVISES]->(s:Student) RETURN count(s)"),
    (f"Which department does {prof['name']} work in?",
     f"MATCH (:Professor {{full_name: {q(prof['name'])}}})-[:WORKS_IN]->(d:Department) RETURN d.dept_name"),
    ("Which students major in Physics?",
     "MATCH (s:Student)-[:MAJORS_IN]->(:Department {dept_name: 'Physics'}) RETURN s.full_name"),
    (f"What is the GPA of {stud['name']}?", f"MATCH (s:Student {{full_name: {q(stud['name'])}}}) RETURN s.gpa"),
    ("Which student has the highest GPA?", "MATCH (s:Student) RETURN s.full_name ORDER BY s.gpa DESC LIMIT 1"),
    ("List the 5 students with the lowest GPA.", "MATCH (s:Student) RETURN s.full_name ORDER BY s.gpa ASC LIMIT 5"),
    ("Which courses are worth more than 5 credits?", "MATCH (c:Course) WHERE c.credits > 5 RETURN c.title"),
    ("Which graduate courses are offered by Mathematics?",
     "MATCH (c:Course {level: 'graduate'})-[:OFFERED_BY]->(:Department {dept_name: 'Mathematics'}) RETURN c.title"),
    ("How many courses does each department offer?",
     "MATCH (c:Course)-[:OFFERED_BY]->(d:Department) RETURN d.dept_name, count(c)"),
    ("Which department offers the most courses?",
     "MATCH (c:Course)-[:OFFERED_BY]->(d:Department) RETURN d.dept_name, count(c) AS n ORDER BY n DESC LIMIT 1"),
    ("What is the average GPA of students majoring in Linguistics?",
     "MATCH (s:Student)-[:MAJORS_IN]->(:Department {dept_name: 'Linguistics'}) RETURN avg(s.gpa)"),
    (f"Which room is {room_c['title']} held in?",
     f"MATCH (:Course {{title: {q(room_c['title'])}}})-[:HELD_IN]->(r:Room) RETURN r.room_id"),
    ("Which rooms have a capacity of at least 100?", "MATCH (r:Room) WHERE r.capacity >= 100 RETURN r.room_id"),
    (f"What grade did {stud['name']} get in {pair_title}?",
     f"MATCH (:Student {{full_name: {q(stud['name'])}}})-[e:ENROLLED_IN]->(:Course {{title: {q(pair_title)}}}) "
     "RETURN e.grade"),
    (f"What is the average grade in {popular['title']}?",
     f"MATCH (:Student)-[e:ENROLLED_IN]->(:Course {{title: {q(popular['title'])}}}) RETURN avg(e.grade)"),
    ("Which professors were hired before 2010?",
     "MATCH (p:Professor) WHERE p.hired_on < '2010' RETURN p.full_name"),
    ("Which professor was hired most recently?",
     "MATCH (p:Professor) RETURN p.full_name ORDER BY p.hired_on DESC LIMIT 1"),
    ("Which students enrolled in 2022?", "MATCH (s:Student) WHERE s.enrolled_year = 2022 RETURN s.full_name"),
    (f"Which courses has {stud['name']} taken?",
     f"MATCH (:Student {{full_name: {q(stud['name'])}}})-[:ENROLLED_IN]->(c:Course) RETURN c.title"),
    ("Which professors teach graduate courses?",
     "MATCH (p:Professor)-[:TEACHES]->(:Course {level: 'graduate'}) RETURN DISTINCT p.full_name"),
    ("What is the budget of the Physics department?",
     "MATCH (d:Department {dept_name: 'Physics'}) RETURN d.budget_eur"),
    ("Which department has the largest budget?",
     "MATCH (d:Department) RETURN d.dept_name ORDER BY d.budget_eur DESC LIMIT 1"),
    ("Which building is the Linguistics department in?",
     "MATCH (d:Department {dept_name: 'Linguistics'}) RETURN d.building"),
    ("Which students are advised by tenured professors?",
     "MATCH (p:Professor)-[:ADVISES]->(s:Student) WHERE p.tenured = true RETURN DISTINCT s.full_name"),
    (f"How many credits is {needy['title']} worth?",
     f"MATCH (c:Course {{title: {q(needy['title'])}}}) RETURN c.credits"),
    ("Which courses have no prerequisites?",
     "MATCH (c:Course) WHERE NOT (c)-[:REQUIRES]->() RETURN c.title"),
    (f"Which courses did {sem_t[0]} teach in Fall 2024?",
     f"MATCH (:Professor {{full_name: {q(sem_t[0])}}})-[:TEACHES {{semester: 'Fall 2024'}}]->(c:Course) "
     "RETURN c.title"),
    (f"What is the email address of {mentor['name']}?",
     f"MATCH (p:Professor {{full_name: {q(mentor['name'])}}}) RETURN p.email"),
    (f"Which students take a course taught by {prof['name']}?",
     f"MATCH (s:Student)-[:ENROLLED_IN]->(:Course)<-[:TEACHES]-(:Professor {{full_name: {q(prof['name'])}}}) "
     "RETURN DISTINCT s.full_name"),
    ("How many students are enrolled in each course?",
     "MATCH (s:Student)-[:ENROLLED_IN]->(c:Course) RETURN c.title, count(s)"),
    ("Which course has the most students enrolled?",
     "MATCH (s:Student)-[:ENROLLED_IN]->(c:Course) RETURN c.title, count(s) AS n ORDER BY n DESC LIMIT 1"),
    (f"Which students got a grade above 3.5 in {popular['title']}?",
     f"MATCH (s:Student)-[e:ENROLLED_IN]->(:Course {{title: {q(popular['title'])}}}) WHERE e.grade > 3.5 "
     "RETURN s.full_name"),
    (f"What is the student number of {stud['name']}?",
     f"MATCH (s:Student {{full_name: {q(stud['name'])}}}) RETURN s.student_no"),
    ("Which professors advise students majoring in Computer Science?",
     "MATCH (p:Professor)-[:ADVISES]->(:Student)-[:MAJORS_IN]->(:Department {dept_name: 'Computer Science'}) "
     "RETURN DISTINCT p.full_name"),
    (f"What level is {needy['title']}?", f"MATCH (c:Course {{title: {q(needy['title'])}}}) RETURN c.level"),
    ("List all departments.", "MATCH (d:Department) RETURN d.dept_name"),
    (f"Which courses are held in room {busy_room}?",
     f"MATCH (c:Course)-[:HELD_IN]->(:Room {{room_id: {q(busy_room)}}}) RETURN c.title"),
]  # fmt: skip
write(HERE, "campus", L, Q)
