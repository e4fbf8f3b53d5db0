"""A small organisation graph of a schema none of the service's code was written against (session 59), with
relationships that join a label to itself: employees by ``staffId`` ("E-104") with a ``fullName``, a categorical
``title``, an integer ``salary`` and a ``hiredOn`` date as text; each employee but the chief ``REPORTS_TO`` one other
(a tree four levels deep); units by ``unitName`` with an integer ``budget``, each but the head office ``PART_OF``
one other (three levels); employees ``WORKS_IN`` a unit; units are ``LOCATED_AT`` a site (``siteName``, a
categorical ``country``); skills by ``skillName``, which ``REQUIRES`` other skills (prerequisites, a DAG);
employees ``HAS_SKILL`` (``level`` 1-5). 40 questions with gold Cypher written by hand before the service was run on
it (reports/summary.md, session 59); seven ask along a chain of one relationship ("directly or indirectly", "the
chain of managers above X", "at any level"), in the variable-length form a generated benchmark's gold takes.

``python data/orgchart/make.py`` writes ``orgchart.cypher`` and ``questions.jsonl`` here (``make eval-own``). The
project's own data, not a public benchmark."""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from own_graph import q, write  # noqa: E402

HERE = Path(__file__).resolve().parent
rng = random.Random(5959)

SITES = [("Lisbon Campus", "Portugal"), ("Porto Hub", "Portugal"), ("Leeds Office", "United Kingdom"),
         ("Austin Lab", "United States")]  # fmt: skip
# unit, parent, site, budget
UNITS = [("Head Office", None, "Lisbon Campus", 900000), ("Engineering Division", "Head Office", "Lisbon Campus", 640000),
         ("Operations Division", "Head Office", "Porto Hub", 410000), ("Finance Division", "Head Office", "Leeds Office", 380000),
         ("Platform Team", "Engineering Division", "Lisbon Campus", 260000), ("Data Team", "Engineering Division", "Austin Lab", 220000),
         ("Logistics Team", "Operations Division", "Porto Hub", 150000), ("Facilities Team", "Operations Division", "Porto Hub", 90000),
         ("Accounting Team", "Finance Division", "Leeds Office", 120000), ("Audit Team", "Finance Division", "Leeds Office", 70000),
         ("Cloud Squad", "Platform Team", "Austin Lab", 110000), ("Edge Squad", "Platform Team", "Lisbon Campus", 80000),
         ("Payroll Squad", "Accounting Team", "Leeds Office", 40000)]  # fmt: skip
SKILLS = {"Linear Algebra": [], "Python": [], "SQL": [], "Networking": [], "Accounting": [],
          "Statistics": ["Linear Algebra"], "Machine Learning": ["Python", "Statistics"],
          "Deep Learning": ["Machine Learning"], "Data Engineering": ["SQL", "Python"],
          "Cloud Architecture": ["Networking"], "Auditing": ["Accounting"]}  # fmt: skip
FIRST = ["Ada", "Bruno", "Carla", "Dmitri", "Elif", "Femi", "Greta", "Hugo", "Ines", "Jonas", "Kaito", "Lena", "Mateo",
         "Nadia", "Omar", "Priya", "Quentin", "Rosa", "Sven", "Tariq", "Uma", "Viktor", "Wen", "Yara", "Zoe", "Anton",
         "Beatriz", "Cyrus", "Dalia", "Emil", "Farah"]  # fmt: skip
LAST = ["Okafor", "Lindqvist", "Moreau", "Petrov", "Yilmaz", "Adeyemi", "Berg", "Castel", "Duarte", "Eklund", "Fujita",
        "Hartmann", "Ibarra", "Jansen", "Kovac", "Larsen", "Mensah", "Novak", "Ortega", "Pires", "Quist", "Rahman",
        "Silva", "Tanaka", "Ueda", "Vargas", "Weber", "Xu", "Young", "Zamora", "Abbas"]  # fmt: skip

L: list[str] = []
for name, country in SITES:
    L.append(f"CREATE (:Site {{siteName: {q(name)}, country: {q(country)}}});")
for name, parent, site, budget in UNITS:
    L.append(f"CREATE (:Unit {{unitName: {q(name)}, budget: {budget}}});")
    L.append(f"MATCH (u:Unit {{unitName: {q(name)}}}), (s:Site {{siteName: {q(site)}}}) CREATE (u)-[:LOCATED_AT]->(s);")
    if parent:
        L.append(f"MATCH (u:Unit {{unitName: {q(name)}}}), (p:Unit {{unitName: {q(parent)}}}) CREATE (u)-[:PART_OF]->(p);")
for s in SKILLS:
    L.append(f"CREATE (:Skill {{skillName: {q(s)}}});")
for s, reqs in SKILLS.items():
    for r in reqs:
        L.append(f"MATCH (a:Skill {{skillName: {q(s)}}}), (b:Skill {{skillName: {q(r)}}}) CREATE (a)-[:REQUIRES]->(b);")

people: list[dict] = []


def hire(title: str, boss: dict | None, unit: str) -> dict:
    i = len(people)
    p = dict(id=f"E-{101 + i * 3}", name=f"{FIRST[i]} {LAST[i]}", title=title, boss=boss, unit=unit,
             salary={"chief executive": 240000, "director": 160000, "manager": 110000}.get(title, rng.randrange(52000, 98000, 1000)),
             hired=f"{rng.randint(2008, 2024)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}")  # fmt: skip
    people.append(p)
    return p


chief = hire("chief executive", None, "Head Office")
teams = {"Engineering Division": ["Platform Team", "Data Team"], "Operations Division": ["Logistics Team", "Facilities Team"],
         "Finance Division": ["Accounting Team", "Audit Team"]}  # fmt: skip
subs = {"Platform Team": ["Cloud Squad", "Edge Squad"], "Accounting Team": ["Payroll Squad"]}
for division, ts in teams.items():
    d = hire("director", chief, division)
    for t in ts:
        m = hire("manager", d, t)
        places = subs.get(t, [t])
        for k in range(rng.randint(2, 4)):
            hire(rng.choice(["engineer", "engineer", "analyst"]), m, places[k % len(places)])
for p in people:
    L.append(
        f"CREATE (:Employee {{staffId: {q(p['id'])}, fullName: {q(p['name'])}, title: {q(p['title'])}, "
        f"salary: {p['salary']}, hiredOn: {q(p['hired'])}}});"
    )
    L.append(f"MATCH (e:Employee {{staffId: {q(p['id'])}}}), (u:Unit {{unitName: {q(p['unit'])}}}) CREATE (e)-[:WORKS_IN]->(u);")
    if p["boss"]:
        L.append(
            f"MATCH (e:Employee {{staffId: {q(p['id'])}}}), (b:Employee {{staffId: {q(p['boss']['id'])}}}) "
            f"CREATE (e)-[:REPORTS_TO]->(b);"
        )
    for s in rng.sample(sorted(SKILLS), rng.randint(1, 3)):
        L.append(
            f"MATCH (e:Employee {{staffId: {q(p['id'])}}}), (s:Skill {{skillName: {q(s)}}}) "
            f"CREATE (e)-[:HAS_SKILL {{level: {rng.randint(1, 5)}}}]->(s);"
        )

# the constants the questions name, picked from what was made
staff = [p for p in people if p["title"] in ("engineer", "analyst")]
worker = staff[0]  # reports to a manager, who reports to a director
deep = next(p for p in staff if p["unit"].endswith("Squad"))
director = people[1]
manager = people[2]
other_mgr = next(p for p in people if p["title"] == "manager" and p is not manager)
E = lambda p: q(p["name"])  # noqa: E731
Q = [
    ("How many employees are there?", "MATCH (e:Employee) RETURN count(e)"),
    (f"Who does {worker['name']} report to?",
     f"MATCH (:Employee {{fullName: {E(worker)}}})-[:REPORTS_TO]->(m:Employee) RETURN m.fullName"),
    (f"Who reports directly to {manager['name']}?",
     f"MATCH (e:Employee)-[:REPORTS_TO]->(:Employee {{fullName: {E(manager)}}}) RETURN e.fullName"),
    (f"Which employees report to {director['name']} directly or indirectly?",
     f"MATCH (e:Employee)-[:REPORTS_TO*]->(:Employee {{fullName: {E(director)}}}) RETURN e.fullName"),
    (f"List the chain of managers above {deep['name']}.",
     f"MATCH (:Employee {{fullName: {E(deep)}}})-[:REPORTS_TO*]->(m:Employee) RETURN m.fullName"),
    (f"How many employees are in {director['name']}'s reporting line, at any level?",
     f"MATCH (e:Employee)-[:REPORTS_TO*]->(:Employee {{fullName: {E(director)}}}) RETURN count(DISTINCT e)"),
    ("Which units are part of the Engineering Division?",
     "MATCH (u:Unit)-[:PART_OF]->(:Unit {unitName: 'Engineering Division'}) RETURN u.unitName"),
    ("Which units belong to the Engineering Division at any level?",
     "MATCH (u:Unit)-[:PART_OF*]->(:Unit {unitName: 'Engineering Division'}) RETURN u.unitName"),
    ("Which unit is the Cloud Squad part of?",
     "MATCH (:Unit {unitName: 'Cloud Squad'})-[:PART_OF]->(u:Unit) RETURN u.unitName"),
    ("Which skills does Machine Learning require?",
     "MATCH (:Skill {skillName: 'Machine Learning'})-[:REQUIRES]->(s:Skill) RETURN s.skillName"),
    ("What are all the prerequisites of Deep Learning, including indirect ones?",
     "MATCH (:Skill {skillName: 'Deep Learning'})-[:REQUIRES*]->(s:Skill) RETURN DISTINCT s.skillName"),
    ("Which employees work in the Data Team?",
     "MATCH (e:Employee)-[:WORKS_IN]->(:Unit {unitName: 'Data Team'}) RETURN e.fullName"),
    (f"What is the salary of {worker['name']}?", f"MATCH (e:Employee {{fullName: {E(worker)}}}) RETURN e.salary"),
    ("Which employee earns the most?", "MATCH (e:Employee) RETURN e.fullName ORDER BY e.salary DESC LIMIT 1"),
    ("What is the average salary of engineers?", "MATCH (e:Employee {title: 'engineer'}) RETURN avg(e.salary)"),
    ("Which employees were hired before 2015?",
     "MATCH (e:Employee) WHERE e.hiredOn < '2015' RETURN e.fullName"),
    ("Who was hired most recently?", "MATCH (e:Employee) RETURN e.fullName ORDER BY e.hiredOn DESC LIMIT 1"),
    ("How many employees work in each unit?",
     "MATCH (e:Employee)-[:WORKS_IN]->(u:Unit) RETURN u.unitName, count(e)"),
    ("Which unit has the largest budget?", "MATCH (u:Unit) RETURN u.unitName ORDER BY u.budget DESC LIMIT 1"),
    ("Where is the Data Team located?",
     "MATCH (:Unit {unitName: 'Data Team'})-[:LOCATED_AT]->(s:Site) RETURN s.siteName"),
    ("Which units are located in Portugal?",
     "MATCH (u:Unit)-[:LOCATED_AT]->(:Site {country: 'Portugal'}) RETURN u.unitName"),
    ("Which employees have the skill SQL?",
     "MATCH (e:Employee)-[:HAS_SKILL]->(:Skill {skillName: 'SQL'}) RETURN e.fullName"),
    ("Which skill do the most employees have?",
     "MATCH (:Employee)-[:HAS_SKILL]->(s:Skill) RETURN s.skillName, count(*) AS n ORDER BY n DESC LIMIT 1"),
    ("Which employees have Python at level 4 or higher?",
     "MATCH (e:Employee)-[r:HAS_SKILL]->(:Skill {skillName: 'Python'}) WHERE r.level >= 4 RETURN e.fullName"),
    ("Which managers have more than 2 direct reports?",
     "MATCH (e:Employee)-[:REPORTS_TO]->(m:Employee) WITH m, count(e) AS n WHERE n > 2 RETURN m.fullName"),
    ("Who has the most direct reports?",
     "MATCH (e:Employee)-[:REPORTS_TO]->(m:Employee) RETURN m.fullName, count(e) AS n ORDER BY n DESC LIMIT 1"),
    ("Which employees have no manager?",
     "MATCH (e:Employee) WHERE NOT (e)-[:REPORTS_TO]->(:Employee) RETURN e.fullName"),
    ("How many directors are there?", "MATCH (e:Employee {title: 'director'}) RETURN count(e)"),
    ("Which employees work in units located at the Porto Hub?",
     "MATCH (e:Employee)-[:WORKS_IN]->(:Unit)-[:LOCATED_AT]->(:Site {siteName: 'Porto Hub'}) RETURN e.fullName"),
    ("What is the total budget of the units at the Leeds Office?",
     "MATCH (u:Unit)-[:LOCATED_AT]->(:Site {siteName: 'Leeds Office'}) RETURN sum(u.budget)"),
    (f"Which employees share a manager with {worker['name']}?",
     f"MATCH (:Employee {{fullName: {E(worker)}}})-[:REPORTS_TO]->(:Employee)<-[:REPORTS_TO]-(e:Employee) RETURN e.fullName"),
    (f"Which analysts report to {other_mgr['name']}?",
     f"MATCH (e:Employee {{title: 'analyst'}})-[:REPORTS_TO]->(:Employee {{fullName: {E(other_mgr)}}}) RETURN e.fullName"),
    ("Which skills have no prerequisites?",
     "MATCH (s:Skill) WHERE NOT (s)-[:REQUIRES]->(:Skill) RETURN s.skillName"),
    (f"What is the title of {deep['name']}?", f"MATCH (e:Employee {{fullName: {E(deep)}}}) RETURN e.title"),
    (f"Who is the manager of {deep['name']}'s manager?",
     f"MATCH (:Employee {{fullName: {E(deep)}}})-[:REPORTS_TO]->(:Employee)-[:REPORTS_TO]->(m:Employee) RETURN m.fullName"),
    ("How many units does the Finance Division contain at all levels?",
     "MATCH (u:Unit)-[:PART_OF*]->(:Unit {unitName: 'Finance Division'}) RETURN count(DISTINCT u)"),
    ("What are all the units above the Payroll Squad in the hierarchy?",
     "MATCH (:Unit {unitName: 'Payroll Squad'})-[:PART_OF*]->(u:Unit) RETURN u.unitName"),
    ("Which employees earn more than 90000?", "MATCH (e:Employee) WHERE e.salary > 90000 RETURN e.fullName"),
    (f"Who is employee {worker['id']}?", f"MATCH (e:Employee {{staffId: {q(worker['id'])}}}) RETURN e.fullName"),
    ("Which skills require Python?",
     "MATCH (s:Skill)-[:REQUIRES]->(:Skill {skillName: 'Python'}) RETURN s.skillName"),
]  # fmt: skip
write(HERE, "orgchart", L, Q)
