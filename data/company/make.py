"""A small company graph of a schema none of the service's code was written against (session 48): employees named by
``employeeName`` (some with accents) with an ``email`` that identifies them, a ``salary`` as a float, a ``hiredOn``
date as text, a list of ``skills``, a boolean ``remote`` and a ``level``; departments with a ``budget``; projects
with a ``projectCode``, a ``status``, ISO start and end dates and a budget; clients with an ``industry``; offices
with a ``country``; who reports to and mentors whom (relationships between nodes of one label); roles and hours on
``ASSIGNED_TO``. 40 questions with gold Cypher written by hand before the service was run on it, in the phrasings
and return forms of the public text2cypher sets.

``python data/company/make.py`` writes ``company.cypher`` and ``questions.jsonl`` here (``make eval-own``). The
project's own data, not a public benchmark."""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from own_graph import q, write  # noqa: E402

HERE = Path(__file__).resolve().parent
rng = random.Random(47)


OFFICES = [
    ("Lisbon Hub", "Portugal"),
    ("Porto Annex", "Portugal"),
    ("Berlin Loft", "Germany"),
    ("Austin Campus", "USA"),
]
DEPTS = ["Engineering", "Marketing", "Finance", "Research", "Support", "Design"]
CLIENTS = [
    ("Helix Health", "Healthcare"),
    ("Brightline Bank", "Finance"),
    ("Nordic Freight", "Logistics"),
    ("CarePoint Clinics", "Healthcare"),
    ("Vela Retail", "Retail"),
    ("Orbis Insurance", "Finance"),
]
FIRST = "José Ana Lukas Mei Priya Omar Sofia Jonas Chloé Mateus Ingrid Tariq Elena Ruben Yara Felix Nadia Hugo Lena Kofi".split()
LAST = "Núñez Pereira Becker Chen Raman Haddad Rossi Lind Dubois Costa Berg Aziz Moreau Silva Okafor".split()
SKILLS = ["Python", "SQL", "Java", "Kubernetes", "Figma", "Excel", "Go", "React", "Statistics", "Copywriting"]
LEVELS = ["Junior"] * 3 + ["Mid"] * 3 + ["Senior"] * 2 + ["Lead"]
ROLES = ["Developer"] * 3 + ["Tester"] * 2 + ["Analyst"] * 2 + ["Manager"]
STATUS = ["Active"] * 3 + ["Completed"] * 2 + ["On hold"]
L = []
for o, c in OFFICES:
    L.append(f"CREATE (:Office {{officeName: {q(o)}, country: {q(c)}}});")
for i, d in enumerate(DEPTS):
    L.append(f"CREATE (:Department {{deptName: {q(d)}, budget: {rng.randint(4, 90) * 50000}, floor: {i + 1}}});")
    L.append(
        f"MATCH (d:Department {{deptName: {q(d)}}}), (o:Office {{officeName: {q(OFFICES[i % 4][0])}}}) CREATE (d)-[:LOCATED_AT]->(o);"
    )
for c, ind in CLIENTS:
    L.append(f"CREATE (:Client {{clientName: {q(c)}, industry: {q(ind)}}});")
emps = []
for i in range(70):
    name = f"{FIRST[i % 20]} {LAST[(i * 4 + i // 20) % 15]}"
    e = dict(
        name=name,
        email=f"{name.split()[0][0].lower()}.{i:02d}@corp.example",
        salary=round(rng.uniform(38000, 150000), 2),
        hired=f"{rng.randint(2012, 2024)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
        skills=rng.sample(SKILLS, rng.randint(1, 5)),
        remote=rng.random() < 0.3,
        level=rng.choice(LEVELS),
        dept=DEPTS[i % 6] if i >= 6 else DEPTS[i],
    )
    emps.append(e)
    skills = "[" + ", ".join(q(s) for s in e["skills"]) + "]"
    L.append(
        f"CREATE (:Employee {{employeeName: {q(name)}, email: {q(e['email'])}, salary: {e['salary']}, hiredOn: {q(e['hired'])}, "
        f"skills: {skills}, remote: {'true' if e['remote'] else 'false'}, level: {q(e['level'])}}});"
    )
    L.append(
        f"MATCH (e:Employee {{employeeName: {q(name)}}}), (d:Department {{deptName: {q(e['dept'])}}}) CREATE (e)-[:WORKS_IN]->(d);"
    )
heads = emps[:6]
for e in emps[6:]:
    boss = next(h for h in heads if h["dept"] == e["dept"]) if rng.random() < 0.7 else rng.choice(emps[6:20])
    if boss is e:
        boss = heads[0]
    e["boss"] = boss["name"]
    L.append(
        f"MATCH (a:Employee {{employeeName: {q(e['name'])}}}), (b:Employee {{employeeName: {q(boss['name'])}}}) CREATE (a)-[:REPORTS_TO]->(b);"
    )
for k in range(25):
    a, b = rng.sample(emps, 2)
    L.append(
        f"MATCH (a:Employee {{employeeName: {q(a['name'])}}}), (b:Employee {{employeeName: {q(b['name'])}}}) CREATE (a)-[:MENTORS]->(b);"
    )
ADJ = "Atlas Beacon Cobalt Delta Ember Falcon Granite Harbor Iris Juniper Keystone Lumen Meridian Nimbus Onyx Prism Quartz Raven".split()
projects = []
for i, a in enumerate(ADJ):
    start = f"{rng.randint(2017, 2024)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
    p = dict(
        name=f"Project {a}",
        code=f"PRJ-{100 + i * 7}",
        status=rng.choice(STATUS),
        start=start,
        end=f"{int(start[:4]) + rng.randint(0, 2)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
        budget=round(rng.uniform(20000, 900000), 2),
        client=rng.choice(CLIENTS)[0],
    )
    projects.append(p)
    L.append(
        f"CREATE (:Project {{projectName: {q(p['name'])}, projectCode: {q(p['code'])}, status: {q(p['status'])}, "
        f"startDate: {q(p['start'])}, endDate: {q(p['end'])}, budget: {p['budget']}}});"
    )
    L.append(
        f"MATCH (p:Project {{projectName: {q(p['name'])}}}), (c:Client {{clientName: {q(p['client'])}}}) CREATE (p)-[:FOR_CLIENT]->(c);"
    )
assigned = set()
for k in range(120):
    e, p = rng.choice(emps[:66]), rng.choice(projects[:17])
    if (e["name"], p["name"]) in assigned:
        continue
    assigned.add((e["name"], p["name"]))
    L.append(
        f"MATCH (e:Employee {{employeeName: {q(e['name'])}}}), (p:Project {{projectName: {q(p['name'])}}}) "
        f"CREATE (e)-[:ASSIGNED_TO {{role: {q(rng.choice(ROLES))}, hoursPerWeek: {rng.choice([4, 8, 12, 16, 20, 30, 40])}}}]->(p);"
    )

pick = random.Random(9)
E1, E2, E3, E4, E5 = pick.sample(emps[6:], 5)
P1, P2, P3 = pick.sample(projects[:17], 3)
PA = pick.choice(sorted(assigned))
H = emps[2]
Q = [
    (
        f"Who does {E1['name']} report to?",
        f"MATCH (:Employee {{employeeName: {q(E1['name'])}}})-[:REPORTS_TO]->(m:Employee) RETURN m.employeeName",
    ),
    (
        f"Which employees report to {H['name']}?",
        f"MATCH (e:Employee)-[:REPORTS_TO]->(:Employee {{employeeName: {q(H['name'])}}}) RETURN e.employeeName",
    ),
    (
        "How many employees work in the Finance department?",
        "MATCH (e:Employee)-[:WORKS_IN]->(:Department {deptName: 'Finance'}) RETURN count(e)",
    ),
    (
        "List the employees who know Kubernetes.",
        "MATCH (e:Employee) WHERE 'Kubernetes' IN e.skills RETURN e.employeeName",
    ),
    ("Which employees work remotely?", "MATCH (e:Employee) WHERE e.remote = true RETURN e.employeeName"),
    (
        "What is the average salary in the Research department?",
        "MATCH (e:Employee)-[:WORKS_IN]->(:Department {deptName: 'Research'}) RETURN avg(e.salary)",
    ),
    ("Who is the highest paid employee?", "MATCH (e:Employee) RETURN e.employeeName ORDER BY e.salary DESC LIMIT 1"),
    ("Which projects are on hold?", "MATCH (p:Project {status: 'On hold'}) RETURN p.projectName"),
    (
        f"Which projects does {E2['name']} work on?",
        f"MATCH (:Employee {{employeeName: {q(E2['name'])}}})-[:ASSIGNED_TO]->(p:Project) RETURN p.projectName",
    ),
    (
        f"Who are the developers on {P1['name']}?",
        f"MATCH (e:Employee)-[:ASSIGNED_TO {{role: 'Developer'}}]->(:Project {{projectName: {q(P1['name'])}}}) RETURN e.employeeName",
    ),
    ("Which clients are in the healthcare industry?", "MATCH (c:Client {industry: 'Healthcare'}) RETURN c.clientName"),
    (
        "How many projects does Brightline Bank have?",
        "MATCH (p:Project)-[:FOR_CLIENT]->(:Client {clientName: 'Brightline Bank'}) RETURN count(p)",
    ),
    (
        "Which employees were hired in 2021?",
        "MATCH (e:Employee) WHERE e.hiredOn STARTS WITH '2021' RETURN e.employeeName",
    ),
    (
        f"What is the project code of {P2['name']}?",
        f"MATCH (p:Project {{projectName: {q(P2['name'])}}}) RETURN p.projectCode",
    ),
    (
        "Which department has the largest budget?",
        "MATCH (d:Department) RETURN d.deptName ORDER BY d.budget DESC LIMIT 1",
    ),
    (
        "Which employees work on projects for Helix Health?",
        "MATCH (e:Employee)-[:ASSIGNED_TO]->(:Project)-[:FOR_CLIENT]->(:Client {clientName: 'Helix Health'}) RETURN DISTINCT e.employeeName",
    ),
    (
        f"How many hours per week does {PA[0]} spend on {PA[1]}?",
        f"MATCH (:Employee {{employeeName: {q(PA[0])}}})-[r:ASSIGNED_TO]->(:Project {{projectName: {q(PA[1])}}}) RETURN r.hoursPerWeek",
    ),
    ("Which employees have more than 4 skills?", "MATCH (e:Employee) WHERE size(e.skills) > 4 RETURN e.employeeName"),
    (
        "Which senior employees work in the Engineering department?",
        "MATCH (e:Employee {level: 'Senior'})-[:WORKS_IN]->(:Department {deptName: 'Engineering'}) RETURN e.employeeName",
    ),
    (
        "Which office is the Marketing department located at?",
        "MATCH (:Department {deptName: 'Marketing'})-[:LOCATED_AT]->(o:Office) RETURN o.officeName",
    ),
    (
        "List the 5 most recently hired employees.",
        "MATCH (e:Employee) RETURN e.employeeName, e.hiredOn ORDER BY e.hiredOn DESC LIMIT 5",
    ),
    ("What is the total budget of all active projects?", "MATCH (p:Project {status: 'Active'}) RETURN sum(p.budget)"),
    ("Which projects started before 2019?", "MATCH (p:Project) WHERE p.startDate < '2019' RETURN p.projectName"),
    (
        "How many employees are there in each department?",
        "MATCH (e:Employee)-[:WORKS_IN]->(d:Department) RETURN d.deptName, count(e)",
    ),
    (
        "Which employee is assigned to the most projects?",
        "MATCH (e:Employee)-[:ASSIGNED_TO]->(p:Project) RETURN e.employeeName, count(p) AS n ORDER BY n DESC LIMIT 1",
    ),
    (
        "Which projects have no employees assigned?",
        "MATCH (p:Project) WHERE NOT (:Employee)-[:ASSIGNED_TO]->(p) RETURN p.projectName",
    ),
    (
        f"What is the email address of {E3['name']}?",
        f"MATCH (e:Employee {{employeeName: {q(E3['name'])}}}) RETURN e.email",
    ),
    (
        "Which departments are located in offices in Portugal?",
        "MATCH (d:Department)-[:LOCATED_AT]->(:Office {country: 'Portugal'}) RETURN d.deptName",
    ),
    (f"What skills does {E4['name']} have?", f"MATCH (e:Employee {{employeeName: {q(E4['name'])}}}) RETURN e.skills"),
    ("Which employees earn more than 145,000?", "MATCH (e:Employee) WHERE e.salary > 145000 RETURN e.employeeName"),
    (
        f"Who mentors {E5['name']}?",
        f"MATCH (m:Employee)-[:MENTORS]->(:Employee {{employeeName: {q(E5['name'])}}}) RETURN m.employeeName",
    ),
    (f"When did {P3['name']} end?", f"MATCH (p:Project {{projectName: {q(P3['name'])}}}) RETURN p.endDate"),
    (
        f"What is the salary of {emps[0]['name']}?",
        f"MATCH (e:Employee {{employeeName: {q(emps[0]['name'])}}}) RETURN e.salary",
    ),
    ("List all employees at the Lead level.", "MATCH (e:Employee {level: 'Lead'}) RETURN e.employeeName"),
    ("How many remote employees are there?", "MATCH (e:Employee {remote: true}) RETURN count(e)"),
    (
        "Which client has the most projects?",
        "MATCH (p:Project)-[:FOR_CLIENT]->(c:Client) RETURN c.clientName, count(p) AS n ORDER BY n DESC LIMIT 1",
    ),
    (
        "What is the average budget of projects for clients in the Finance industry?",
        "MATCH (p:Project)-[:FOR_CLIENT]->(:Client {industry: 'Finance'}) RETURN avg(p.budget)",
    ),
    (
        f"Which employees work in the same department as {E1['name']}?",
        f"MATCH (:Employee {{employeeName: {q(E1['name'])}}})-[:WORKS_IN]->(d:Department)<-[:WORKS_IN]-(e:Employee) WHERE e.employeeName <> {q(E1['name'])} RETURN e.employeeName",
    ),
    (
        "Which employees work on a project as a Manager?",
        "MATCH (e:Employee)-[:ASSIGNED_TO {role: 'Manager'}]->(:Project) RETURN DISTINCT e.employeeName",
    ),
    ("Which departments are on floor 3 or higher?", "MATCH (d:Department) WHERE d.floor >= 3 RETURN d.deptName"),
]
write(HERE, "company", L, Q)
