"""A small clinical graph of a schema none of the service's code was written against (session 53): patients named by
a ``patientId`` ("PT-0007") with a ``firstName`` and a ``lastName`` in two properties, a ``birthDate`` as text, a
lower-case ``sex`` and a ``bloodType``; doctors by ``name`` with a ``specialty`` and ``yearsExperience``; hospitals by
``name`` with a ``city`` and ``beds``; conditions by ``description`` with an ``icd10`` code and a boolean ``chronic``;
medications by ``name`` with a ``drugClass``. A visit is a node of its own (``Encounter``: ``encounterId``, ``date``,
``visitType``, ``cost`` as a float) between the patient, the doctor, the hospital, the diagnoses and the
prescriptions (``PRESCRIBED`` with ``dosageMg`` and ``durationDays``); patients are ``ALLERGIC_TO`` medications with a
``severity``, medications ``TREATS`` conditions, doctors ``WORKS_AT`` hospitals ``since`` a year. 50 questions with
gold Cypher written by hand before the service was run on it, in the form a generated benchmark's gold takes (a
patient answered by first and last name); the first measurement of it is the one an unseen graph gets
(reports/summary.md, session 53).

``python data/clinic/make.py`` writes ``clinic.cypher`` and ``questions.jsonl`` here (``make eval-own``). The
project's own data, not a public benchmark."""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from own_graph import q, write  # noqa: E402

HERE = Path(__file__).resolve().parent
rng = random.Random(53)

HOSPITALS = [  # name, city, beds
    ("St. Brigid Hospital", "Cork", 420),
    ("Lakeside Medical Center", "Tampere", 310),
    ("Northgate Clinic", "Cork", 85),
    ("Riverside General Hospital", "Graz", 560),
    ("Hillcrest Hospital", "Porto", 240),
]
SPECIALTIES = ["Cardiology", "Pediatrics", "Neurology", "General Practice", "Pulmonology", "Dermatology"]
CONDITIONS = [  # description, icd10, chronic
    ("Asthma", "J45", True),
    ("Hypertension", "I10", True),
    ("Type 2 diabetes", "E11", True),
    ("Migraine", "G43", True),
    ("Influenza", "J11", False),
    ("Bronchitis", "J40", False),
    ("Eczema", "L30", True),
    ("Atrial fibrillation", "I48", True),
    ("Iron deficiency anemia", "D50", False),
    ("Sprained ankle", "S93", False),
]
MEDICATIONS = [  # name, drug class, conditions it treats
    ("Salbutamol", "bronchodilator", ["Asthma", "Bronchitis"]),
    ("Lisinopril", "ACE inhibitor", ["Hypertension"]),
    ("Metformin", "antidiabetic", ["Type 2 diabetes"]),
    ("Sumatriptan", "triptan", ["Migraine"]),
    ("Oseltamivir", "antiviral", ["Influenza"]),
    ("Amoxicillin", "antibiotic", ["Bronchitis"]),
    ("Doxycycline", "antibiotic", ["Bronchitis"]),
    ("Hydrocortisone", "corticosteroid", ["Eczema", "Asthma"]),
    ("Apixaban", "anticoagulant", ["Atrial fibrillation"]),
    ("Ferrous sulfate", "iron supplement", ["Iron deficiency anemia"]),
    ("Ibuprofen", "NSAID", ["Migraine", "Sprained ankle"]),
]
SPECIALTY_OF = {  # the doctors who see a condition
    "Asthma": ["Pulmonology", "General Practice", "Pediatrics"], "Hypertension": ["Cardiology", "General Practice"],
    "Type 2 diabetes": ["General Practice"], "Migraine": ["Neurology"], "Influenza": ["General Practice", "Pediatrics"],
    "Bronchitis": ["Pulmonology", "General Practice"], "Eczema": ["Dermatology", "Pediatrics"],
    "Atrial fibrillation": ["Cardiology"], "Iron deficiency anemia": ["General Practice"],
    "Sprained ankle": ["General Practice", "Pediatrics"],
}  # fmt: skip
FIRST = "Ana Bruno Clara Dmitri Elif Farid Greta Hugo Ines Jonas Kaia Luca Maren Nils Olga Pavel Rosa Stefan".split()
LAST = "Pereira Novak Lindqvist Moreau Keller Santos Varga Nieminen Horvat Duarte Brandt Kowalski Ryan Egger".split()
DOCTORS = "Lena Fischer|Tomas Ahern|Priya Raman|Marco Bellini|Sofia Lund|Jakob Weiss|Aoife Byrne|Rui Carvalho|Hanna Virtanen|Felix Gruber|Nora Quinn|Pedro Alves".split(
    "|"
)
VISIT_TYPES = ["outpatient", "outpatient", "outpatient", "emergency", "inpatient", "telehealth"]
BLOOD = ["O+", "O+", "A+", "A+", "B+", "AB+", "O-", "A-"]

L: list[str] = []
for name, city, beds in HOSPITALS:
    L.append(f"CREATE (:Hospital {{name: {q(name)}, city: {q(city)}, beds: {beds}}});")
for desc, code, chronic in CONDITIONS:
    L.append(f"CREATE (:Condition {{description: {q(desc)}, icd10: {q(code)}, chronic: {str(chronic).lower()}}});")
for name, cls, treats in MEDICATIONS:
    L.append(f"CREATE (:Medication {{name: {q(name)}, drugClass: {q(cls)}}});")
    for c in treats:
        L.append(
            f"MATCH (m:Medication {{name: {q(name)}}}), (c:Condition {{description: {q(c)}}}) CREATE (m)-[:TREATS]->(c);"
        )

doctors = []
for i, name in enumerate(DOCTORS):
    d = dict(
        name=name, specialty=SPECIALTIES[i % len(SPECIALTIES)], years=rng.randint(2, 30),
        hospital=HOSPITALS[i % len(HOSPITALS)][0], since=rng.randint(2005, 2022),
    )  # fmt: skip
    doctors.append(d)
    L.append(f"CREATE (:Doctor {{name: {q(name)}, specialty: {q(d['specialty'])}, yearsExperience: {d['years']}}});")
    L.append(
        f"MATCH (d:Doctor {{name: {q(name)}}}), (h:Hospital {{name: {q(d['hospital'])}}}) "
        f"CREATE (d)-[:WORKS_AT {{since: {d['since']}}}]->(h);"
    )

patients = []
full_names: set[str] = set()
while len(patients) < 40:
    first, last = rng.choice(FIRST), rng.choice(LAST)
    if f"{first} {last}" in full_names:
        continue
    full_names.add(f"{first} {last}")
    p = dict(
        id=f"PT-{len(patients) + 1:04d}", first=first, last=last, sex=rng.choice(["female", "male"]),
        born=f"{rng.randint(1938, 2015)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}", blood=rng.choice(BLOOD),
    )  # fmt: skip
    patients.append(p)
    L.append(
        f"CREATE (:Patient {{patientId: {q(p['id'])}, firstName: {q(first)}, lastName: {q(last)}, "
        f"birthDate: {q(p['born'])}, sex: {q(p['sex'])}, bloodType: {q(p['blood'])}}});"
    )
    for med in rng.sample(MEDICATIONS, rng.choice([0, 0, 0, 1, 1, 2])):
        L.append(
            f"MATCH (p:Patient {{patientId: {q(p['id'])}}}), (m:Medication {{name: {q(med[0])}}}) "
            f"CREATE (p)-[:ALLERGIC_TO {{severity: {q(rng.choice(['mild', 'mild', 'severe']))}}}]->(m);"
        )

encounters = []
for i in range(160):
    p = rng.choice(patients)
    year = rng.choice([2022, 2023, 2023, 2024, 2024])
    date = f"{year}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
    cond = rng.choice(CONDITIONS)[0]
    doc = rng.choice([d for d in doctors if d["specialty"] in SPECIALTY_OF[cond]])
    kind = rng.choice(VISIT_TYPES)
    cost = round(rng.uniform(40, 300) * (4 if kind == "inpatient" else 2 if kind == "emergency" else 1), 2)
    e = dict(
        id=f"E-{year}-{i + 1:04d}", patient=p["id"], date=date, cond=cond, doctor=doc["name"],
        hospital=doc["hospital"], kind=kind, cost=cost, meds=[],
    )  # fmt: skip
    encounters.append(e)
    L.append(f"CREATE (:Encounter {{encounterId: {q(e['id'])}, date: {q(date)}, visitType: {q(kind)}, cost: {cost}}});")
    at = f"MATCH (e:Encounter {{encounterId: {q(e['id'])}}}), "
    L.append(at + f"(p:Patient {{patientId: {q(p['id'])}}}) CREATE (p)-[:HAD_ENCOUNTER]->(e);")
    L.append(at + f"(d:Doctor {{name: {q(doc['name'])}}}) CREATE (e)-[:ATTENDED_BY]->(d);")
    L.append(at + f"(h:Hospital {{name: {q(doc['hospital'])}}}) CREATE (e)-[:TOOK_PLACE_AT]->(h);")
    L.append(at + f"(c:Condition {{description: {q(cond)}}}) CREATE (e)-[:DIAGNOSED_WITH]->(c);")
    if kind != "telehealth" or rng.random() < 0.5:
        for med in [m for m in MEDICATIONS if cond in m[2]][:2]:
            if rng.random() < 0.7:
                dose, days = rng.choice([5, 10, 20, 50, 100, 250, 500]), rng.choice([3, 5, 7, 10, 14, 30, 90])
                e["meds"].append((med[0], dose, days))
                L.append(
                    at + f"(m:Medication {{name: {q(med[0])}}}) "
                    f"CREATE (e)-[:PRESCRIBED {{dosageMg: {dose}, durationDays: {days}}}]->(m);"
                )

# the constants the questions name, picked from what was made
busy = max(patients, key=lambda p: sum(1 for e in encounters if e["patient"] == p["id"]))
pa, pb, pc = patients[4], patients[11], patients[20]
allergic = next(m for m in MEDICATIONS if any(f"'{m[0]}'" in s and "ALLERGIC_TO" in s for s in L))[0]
doc1, doc2 = doctors[2], doctors[6]
h1, h2 = HOSPITALS[0][0], HOSPITALS[3][0]
with_meds = next(e for e in encounters if e["meds"])
pd = next(p for p in patients if any(e["patient"] == p["id"] for e in encounters) and p is not busy)
P = "p.firstName, p.lastName"

Q = [
    ("How many patients are there?", "MATCH (p:Patient) RETURN count(p)"),
    (f"Which doctors work at {h1}?", f"MATCH (d:Doctor)-[:WORKS_AT]->(:Hospital {{name: {q(h1)}}}) RETURN d.name"),
    (f"What is the specialty of {doc1['name']}?", f"MATCH (d:Doctor {{name: {q(doc1['name'])}}}) RETURN d.specialty"),
    ("Which hospitals are in Cork?", "MATCH (h:Hospital {city: 'Cork'}) RETURN h.name"),
    ("Which hospital has the most beds?", "MATCH (h:Hospital) RETURN h.name ORDER BY h.beds DESC LIMIT 1"),
    (
        f"How many encounters took place at {h2}?",
        f"MATCH (e:Encounter)-[:TOOK_PLACE_AT]->(:Hospital {{name: {q(h2)}}}) RETURN count(e)",
    ),
    (
        f"Which conditions has patient {busy['id']} been diagnosed with?",
        f"MATCH (:Patient {{patientId: {q(busy['id'])}}})-[:HAD_ENCOUNTER]->(:Encounter)-[:DIAGNOSED_WITH]->(c:Condition) "
        "RETURN DISTINCT c.description",
    ),
    (
        f"Which medications were prescribed to patient {busy['id']}?",
        f"MATCH (:Patient {{patientId: {q(busy['id'])}}})-[:HAD_ENCOUNTER]->(:Encounter)-[:PRESCRIBED]->(m:Medication) "
        "RETURN DISTINCT m.name",
    ),
    (
        f"What is the total cost of all encounters of patient {busy['id']}?",
        f"MATCH (:Patient {{patientId: {q(busy['id'])}}})-[:HAD_ENCOUNTER]->(e:Encounter) RETURN sum(e.cost)",
    ),
    (
        f"Which patients are allergic to {allergic}?",
        f"MATCH (p:Patient)-[:ALLERGIC_TO]->(:Medication {{name: {q(allergic)}}}) RETURN {P}",
    ),
    ("Which patients have blood type O-?", f"MATCH (p:Patient {{bloodType: 'O-'}}) RETURN {P}"),
    ("How many female patients are there?", "MATCH (p:Patient {sex: 'female'}) RETURN count(p)"),
    (
        "Which medications treat asthma?",
        "MATCH (m:Medication)-[:TREATS]->(:Condition {description: 'Asthma'}) RETURN m.name",
    ),
    ("Which doctors specialize in cardiology?", "MATCH (d:Doctor {specialty: 'Cardiology'}) RETURN d.name"),
    (
        "How many doctors does each hospital have?",
        "MATCH (d:Doctor)-[:WORKS_AT]->(h:Hospital) RETURN h.name, count(d)",
    ),
    (
        "Which doctor attended the most encounters?",
        "MATCH (e:Encounter)-[:ATTENDED_BY]->(d:Doctor) RETURN d.name, count(e) AS n ORDER BY n DESC LIMIT 1",
    ),
    ("Which patients were born before 1950?", f"MATCH (p:Patient) WHERE p.birthDate < '1950' RETURN {P}"),
    ("Who is the oldest patient?", f"MATCH (p:Patient) RETURN {P} ORDER BY p.birthDate ASC LIMIT 1"),
    (
        "What is the average cost of emergency encounters?",
        "MATCH (e:Encounter {visitType: 'emergency'}) RETURN avg(e.cost)",
    ),
    (
        "Which encounters happened in March 2024?",
        "MATCH (e:Encounter) WHERE e.date STARTS WITH '2024-03' RETURN e.encounterId",
    ),
    ("How many encounters were there in 2023?", "MATCH (e:Encounter) WHERE e.date STARTS WITH '2023' RETURN count(e)"),
    (
        f"Which patients were seen by {doc1['name']}?",
        f"MATCH (p:Patient)-[:HAD_ENCOUNTER]->(:Encounter)-[:ATTENDED_BY]->(:Doctor {{name: {q(doc1['name'])}}}) "
        f"RETURN DISTINCT {P}",
    ),
    (
        f"Which hospitals has patient {pa['id']} visited?",
        f"MATCH (:Patient {{patientId: {q(pa['id'])}}})-[:HAD_ENCOUNTER]->(:Encounter)-[:TOOK_PLACE_AT]->(h:Hospital) "
        "RETURN DISTINCT h.name",
    ),
    (
        f"What dosage of {with_meds['meds'][0][0]} was prescribed in encounter {with_meds['id']}?",
        f"MATCH (:Encounter {{encounterId: {q(with_meds['id'])}}})-[r:PRESCRIBED]->(:Medication {{name: "
        f"{q(with_meds['meds'][0][0])}}}) RETURN r.dosageMg",
    ),
    (
        "Which medications were prescribed for more than 30 days?",
        "MATCH (:Encounter)-[r:PRESCRIBED]->(m:Medication) WHERE r.durationDays > 30 RETURN DISTINCT m.name",
    ),
    ("Which conditions are chronic?", "MATCH (c:Condition) WHERE c.chronic = true RETURN c.description"),
    (
        "How many patients have been diagnosed with migraine?",
        "MATCH (p:Patient)-[:HAD_ENCOUNTER]->(:Encounter)-[:DIAGNOSED_WITH]->(:Condition {description: 'Migraine'}) "
        "RETURN count(DISTINCT p)",
    ),
    (
        "What is the most common diagnosis?",
        "MATCH (:Encounter)-[:DIAGNOSED_WITH]->(c:Condition) RETURN c.description, count(*) AS n ORDER BY n DESC LIMIT 1",
    ),
    (
        "Which patients have a severe allergy?",
        f"MATCH (p:Patient)-[:ALLERGIC_TO {{severity: 'severe'}}]->(:Medication) RETURN DISTINCT {P}",
    ),
    ("What is the ICD-10 code of eczema?", "MATCH (c:Condition {description: 'Eczema'}) RETURN c.icd10"),
    ("Which condition has the code I48?", "MATCH (c:Condition {icd10: 'I48'}) RETURN c.description"),
    ("What is the drug class of Apixaban?", "MATCH (m:Medication {name: 'Apixaban'}) RETURN m.drugClass"),
    ("Which medications are antibiotics?", "MATCH (m:Medication {drugClass: 'antibiotic'}) RETURN m.name"),
    (
        f"When did patient {pb['id']} last have an encounter?",
        f"MATCH (:Patient {{patientId: {q(pb['id'])}}})-[:HAD_ENCOUNTER]->(e:Encounter) RETURN max(e.date)",
    ),
    (
        "List the 5 most expensive encounters.",
        "MATCH (e:Encounter) RETURN e.encounterId, e.cost ORDER BY e.cost DESC LIMIT 5",
    ),
    (
        "Which doctors have more than 20 years of experience?",
        "MATCH (d:Doctor) WHERE d.yearsExperience > 20 RETURN d.name",
    ),
    (
        f"Since when has {doc2['name']} worked at {doc2['hospital']}?",
        f"MATCH (:Doctor {{name: {q(doc2['name'])}}})-[r:WORKS_AT]->(:Hospital {{name: {q(doc2['hospital'])}}}) "
        "RETURN r.since",
    ),
    (
        f"What is the blood type of {pc['first']} {pc['last']}?",
        f"MATCH (p:Patient {{firstName: {q(pc['first'])}, lastName: {q(pc['last'])}}}) RETURN p.bloodType",
    ),
    (
        f"What is the date of birth of patient {pa['id']}?",
        f"MATCH (p:Patient {{patientId: {q(pa['id'])}}}) RETURN p.birthDate",
    ),
    (
        "Which patients had a telehealth encounter?",
        f"MATCH (p:Patient)-[:HAD_ENCOUNTER]->(:Encounter {{visitType: 'telehealth'}}) RETURN DISTINCT {P}",
    ),
    (
        f"How many encounters did {pd['first']} {pd['last']} have?",
        f"MATCH (:Patient {{firstName: {q(pd['first'])}, lastName: {q(pd['last'])}}})-[:HAD_ENCOUNTER]->(e:Encounter) "
        "RETURN count(e)",
    ),
    (
        f"Which neurology doctors work at {HOSPITALS[2][0]}?",
        f"MATCH (d:Doctor {{specialty: 'Neurology'}})-[:WORKS_AT]->(:Hospital {{name: {q(HOSPITALS[2][0])}}}) RETURN d.name",
    ),
    (
        "What is the average number of beds of hospitals in Cork?",
        "MATCH (h:Hospital {city: 'Cork'}) RETURN avg(h.beds)",
    ),
    (
        f"Which patients were diagnosed with asthma at {h1}?",
        f"MATCH (p:Patient)-[:HAD_ENCOUNTER]->(e:Encounter)-[:DIAGNOSED_WITH]->(:Condition {{description: 'Asthma'}}), "
        f"(e)-[:TOOK_PLACE_AT]->(:Hospital {{name: {q(h1)}}}) RETURN DISTINCT {P}",
    ),
    (
        "How many times has Metformin been prescribed?",
        "MATCH (:Encounter)-[r:PRESCRIBED]->(:Medication {name: 'Metformin'}) RETURN count(r)",
    ),
    (
        "Which doctors have diagnosed hypertension?",
        "MATCH (d:Doctor)<-[:ATTENDED_BY]-(:Encounter)-[:DIAGNOSED_WITH]->(:Condition {description: 'Hypertension'}) "
        "RETURN DISTINCT d.name",
    ),
    ("Which patients have no allergies?", f"MATCH (p:Patient) WHERE NOT (p)-[:ALLERGIC_TO]->() RETURN {P}"),
    (
        "Which hospital has the highest total cost of encounters?",
        "MATCH (e:Encounter)-[:TOOK_PLACE_AT]->(h:Hospital) RETURN h.name, sum(e.cost) AS total ORDER BY total DESC LIMIT 1",
    ),
    (
        f"What was the total cost of encounters at {h2} in 2024?",
        f"MATCH (e:Encounter)-[:TOOK_PLACE_AT]->(:Hospital {{name: {q(h2)}}}) WHERE e.date STARTS WITH '2024' "
        "RETURN sum(e.cost)",
    ),
    (
        f"Find the encounters of patient {busy['id']} that cost more than 500.",
        f"MATCH (:Patient {{patientId: {q(busy['id'])}}})-[:HAD_ENCOUNTER]->(e:Encounter) WHERE e.cost > 500 "
        "RETURN e.encounterId",
    ),
]
write(HERE, "clinic", L, Q)
