"""A small drug-discovery graph of a schema none of the service's code was written against (session 61): drugs by
``genericName`` (lower case: "imatinib", "insulin glargine") with a ``drugbankId`` ("DB00619"), an integer
``approvalYear``, a boolean ``withdrawn``, a float ``molecularWeight``, a categorical ``route`` ("oral", "inhaled"...)
and a list of ``brandNames``; genes by ``symbol`` ("EGFR") with a ``fullName``, a ``chromosome`` held as text ("17")
and an integer ``entrezId``; diseases by ``diseaseLabel`` with an ``icd10`` code and a categorical ``category``
("oncology"...); clinical trials by ``nctId`` ("NCT04211234", no name) with a long ``officialTitle``, an integer
``phase``, a categorical ``status``, a ``startDate`` as text and an integer ``enrollment``; sponsors by
``sponsorName`` with a categorical ``country`` and ``kind``; side effects by ``effectName``. Drugs ``TARGETS`` genes
(``action``: "inhibitor", "agonist"...), genes are ``ASSOCIATED_WITH`` diseases (a float ``score``), drugs are
``INDICATED_FOR`` diseases and ``CAUSES`` side effects (a float ``frequency``) and ``INTERACTS_WITH`` other drugs
(``severity``; stored one way, asked both ways), diseases are a ``SUBTYPE_OF`` others (a tree), trials ``TESTS``
drugs, ``STUDIES`` diseases and are ``SPONSORED_BY`` sponsors, sponsors ``MARKETS`` drugs. 44 questions with gold
Cypher written by hand before the service was run on it (reports/summary.md, session 61).

``python data/pharma/make.py`` writes ``pharma.cypher`` and ``questions.jsonl`` here (``make eval-own``). The
project's own data, not a public benchmark; the facts are simplified."""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from own_graph import q, write  # noqa: E402

HERE = Path(__file__).resolve().parent
rng = random.Random(6161)

# genericName, drugbankId, approvalYear, withdrawn, molecularWeight, route, brandNames
DRUGS = [("imatinib", "DB00619", 2001, False, 493.6, "oral", ["Gleevec", "Glivec"]),
         ("gefitinib", "DB00317", 2003, False, 446.9, "oral", ["Iressa"]),
         ("erlotinib", "DB00530", 2004, False, 393.4, "oral", ["Tarceva"]),
         ("osimertinib", "DB09330", 2015, False, 499.6, "oral", ["Tagrisso"]),
         ("trastuzumab", "DB00072", 1998, False, 148000.0, "intravenous", ["Herceptin"]),
         ("pembrolizumab", "DB09037", 2014, False, 146000.0, "intravenous", ["Keytruda"]),
         ("olaparib", "DB09074", 2014, False, 434.5, "oral", ["Lynparza"]),
         ("tamoxifen", "DB00675", 1977, False, 371.5, "oral", ["Nolvadex"]),
         ("metformin", "DB00331", 1995, False, 129.2, "oral", ["Glucophage"]),
         ("sitagliptin", "DB01261", 2006, False, 407.3, "oral", ["Januvia"]),
         ("insulin glargine", "DB00047", 2000, False, 6063.0, "subcutaneous", ["Lantus", "Toujeo"]),
         ("atorvastatin", "DB01076", 1996, False, 558.6, "oral", ["Lipitor"]),
         ("cerivastatin", "DB00439", 1997, True, 459.5, "oral", ["Baycol"]),
         ("warfarin", "DB00682", 1954, False, 308.3, "oral", ["Coumadin"]),
         ("aspirin", "DB00945", 1950, False, 180.2, "oral", ["Bayer", "Ecotrin"]),
         ("clopidogrel", "DB00758", 1997, False, 321.8, "oral", ["Plavix"]),
         ("rofecoxib", "DB00533", 1999, True, 314.4, "oral", ["Vioxx"]),
         ("salbutamol", "DB01001", 1982, False, 239.3, "inhaled", ["Ventolin", "ProAir"]),
         ("fluticasone", "DB00588", 1994, False, 500.6, "inhaled", ["Flovent"]),
         ("omalizumab", "DB00043", 2003, False, 149000.0, "subcutaneous", ["Xolair"]),
         ("amiodarone", "DB01118", 1985, False, 645.3, "oral", ["Cordarone"]),
         ("donepezil", "DB00843", 1996, False, 379.5, "oral", ["Aricept"])]  # fmt: skip
GENES = [("EGFR", "epidermal growth factor receptor", "7", 1956), ("ERBB2", "erb-b2 receptor tyrosine kinase 2", "17", 2064),
         ("ABL1", "ABL proto-oncogene 1", "9", 25), ("KIT", "KIT proto-oncogene", "4", 3815),
         ("BRCA1", "BRCA1 DNA repair associated", "17", 672), ("PARP1", "poly(ADP-ribose) polymerase 1", "1", 142),
         ("TP53", "tumor protein p53", "17", 7157), ("ESR1", "estrogen receptor 1", "6", 2099),
         ("PDCD1", "programmed cell death 1", "2", 5133),
         ("HMGCR", "3-hydroxy-3-methylglutaryl-CoA reductase", "5", 3156),
         ("VKORC1", "vitamin K epoxide reductase complex subunit 1", "16", 79001),
         ("PTGS1", "prostaglandin-endoperoxide synthase 1", "9", 5742),
         ("PTGS2", "prostaglandin-endoperoxide synthase 2", "1", 5743), ("P2RY12", "purinergic receptor P2Y12", "3", 64805),
         ("ADRB2", "adrenoceptor beta 2", "5", 154), ("NR3C1", "glucocorticoid receptor", "5", 2908),
         ("IGHE", "immunoglobulin heavy constant epsilon", "14", 3497), ("DPP4", "dipeptidyl peptidase 4", "2", 1803),
         ("PRKAA1", "AMP-activated protein kinase catalytic subunit alpha 1", "5", 5562),
         ("INSR", "insulin receptor", "19", 3643), ("ACHE", "acetylcholinesterase", "7", 43),
         ("KCNH2", "potassium voltage-gated channel subfamily H member 2", "7", 3757),
         ("APOE", "apolipoprotein E", "19", 348), ("TCF7L2", "transcription factor 7 like 2", "10", 6934),
         ("IL13", "interleukin 13", "5", 3596)]  # fmt: skip
# diseaseLabel, icd10, category, parent
DISEASES = [("cancer", "C80", "oncology", None), ("lung cancer", "C34", "oncology", "cancer"),
            ("non-small cell lung cancer", "C34.9", "oncology", "lung cancer"),
            ("small cell lung cancer", "C34.1", "oncology", "lung cancer"),
            ("breast cancer", "C50", "oncology", "cancer"),
            ("HER2-positive breast cancer", "C50.9", "oncology", "breast cancer"),
            ("leukemia", "C95", "oncology", "cancer"), ("chronic myeloid leukemia", "C92.1", "oncology", "leukemia"),
            ("gastrointestinal stromal tumor", "C49.A", "oncology", "cancer"), ("ovarian cancer", "C56", "oncology", "cancer"),
            ("melanoma", "C43", "oncology", "cancer"), ("pancreatic cancer", "C25", "oncology", "cancer"),
            ("cardiovascular disease", "I51.6", "cardiovascular", None),
            ("atrial fibrillation", "I48", "cardiovascular", "cardiovascular disease"),
            ("coronary artery disease", "I25", "cardiovascular", "cardiovascular disease"),
            ("venous thrombosis", "I82", "cardiovascular", "cardiovascular disease"),
            ("hypercholesterolemia", "E78.0", "metabolic", None), ("diabetes mellitus", "E14", "metabolic", None),
            ("type 2 diabetes", "E11", "metabolic", "diabetes mellitus"),
            ("type 1 diabetes", "E10", "metabolic", "diabetes mellitus"),
            ("asthma", "J45", "respiratory", None), ("Alzheimer disease", "G30", "neurological", None),
            ("osteoarthritis", "M19", "musculoskeletal", None)]  # fmt: skip
TARGETS = [("imatinib", "ABL1", "inhibitor"), ("imatinib", "KIT", "inhibitor"), ("gefitinib", "EGFR", "inhibitor"),
           ("erlotinib", "EGFR", "inhibitor"), ("osimertinib", "EGFR", "inhibitor"), ("trastuzumab", "ERBB2", "antibody"),
           ("pembrolizumab", "PDCD1", "antibody"), ("olaparib", "PARP1", "inhibitor"), ("tamoxifen", "ESR1", "antagonist"),
           ("metformin", "PRKAA1", "activator"), ("sitagliptin", "DPP4", "inhibitor"), ("insulin glargine", "INSR", "agonist"),
           ("atorvastatin", "HMGCR", "inhibitor"), ("cerivastatin", "HMGCR", "inhibitor"), ("warfarin", "VKORC1", "inhibitor"),
           ("aspirin", "PTGS1", "inhibitor"), ("aspirin", "PTGS2", "inhibitor"), ("rofecoxib", "PTGS2", "inhibitor"),
           ("clopidogrel", "P2RY12", "antagonist"), ("salbutamol", "ADRB2", "agonist"), ("fluticasone", "NR3C1", "agonist"),
           ("omalizumab", "IGHE", "antibody"), ("amiodarone", "KCNH2", "inhibitor"), ("donepezil", "ACHE", "inhibitor"),
           ("erlotinib", "ERBB2", "inhibitor")]  # fmt: skip
INDICATED = {"imatinib": ["chronic myeloid leukemia", "gastrointestinal stromal tumor"],
             "gefitinib": ["non-small cell lung cancer"], "erlotinib": ["non-small cell lung cancer", "pancreatic cancer"],
             "osimertinib": ["non-small cell lung cancer"], "pembrolizumab": ["non-small cell lung cancer", "melanoma"],
             "trastuzumab": ["HER2-positive breast cancer"], "olaparib": ["ovarian cancer", "breast cancer"],
             "tamoxifen": ["breast cancer"], "metformin": ["type 2 diabetes"], "sitagliptin": ["type 2 diabetes"],
             "insulin glargine": ["type 1 diabetes", "type 2 diabetes"],
             "atorvastatin": ["hypercholesterolemia", "coronary artery disease"], "cerivastatin": ["hypercholesterolemia"],
             "warfarin": ["venous thrombosis", "atrial fibrillation"], "aspirin": ["coronary artery disease"],
             "clopidogrel": ["coronary artery disease"], "rofecoxib": ["osteoarthritis"], "salbutamol": ["asthma"],
             "fluticasone": ["asthma"], "omalizumab": ["asthma"], "amiodarone": ["atrial fibrillation"],
             "donepezil": ["Alzheimer disease"]}  # fmt: skip
ASSOCIATED = [("EGFR", "non-small cell lung cancer", 0.92), ("ERBB2", "HER2-positive breast cancer", 0.95),
              ("ERBB2", "breast cancer", 0.71), ("ABL1", "chronic myeloid leukemia", 0.97),
              ("KIT", "gastrointestinal stromal tumor", 0.93), ("KIT", "melanoma", 0.41), ("BRCA1", "breast cancer", 0.89),
              ("BRCA1", "ovarian cancer", 0.86), ("TP53", "breast cancer", 0.63), ("TP53", "lung cancer", 0.58),
              ("TP53", "ovarian cancer", 0.55), ("TP53", "small cell lung cancer", 0.61), ("ESR1", "breast cancer", 0.74),
              ("PDCD1", "melanoma", 0.38), ("HMGCR", "hypercholesterolemia", 0.81), ("APOE", "Alzheimer disease", 0.88),
              ("APOE", "coronary artery disease", 0.44), ("APOE", "hypercholesterolemia", 0.52),
              ("TCF7L2", "type 2 diabetes", 0.79), ("INSR", "type 2 diabetes", 0.46), ("INSR", "type 1 diabetes", 0.22),
              ("PRKAA1", "type 2 diabetes", 0.35), ("DPP4", "type 2 diabetes", 0.31), ("VKORC1", "venous thrombosis", 0.57),
              ("ADRB2", "asthma", 0.49), ("IL13", "asthma", 0.66), ("IGHE", "asthma", 0.52),
              ("KCNH2", "atrial fibrillation", 0.47), ("PTGS2", "osteoarthritis", 0.39)]  # fmt: skip
INTERACTS = [("warfarin", "aspirin", "major"), ("warfarin", "amiodarone", "major"), ("atorvastatin", "warfarin", "moderate"),
             ("clopidogrel", "aspirin", "moderate"), ("imatinib", "warfarin", "moderate"),
             ("amiodarone", "atorvastatin", "moderate"), ("cerivastatin", "clopidogrel", "major"),
             ("fluticasone", "salbutamol", "minor"), ("metformin", "sitagliptin", "minor"),
             ("tamoxifen", "warfarin", "major"), ("erlotinib", "warfarin", "moderate")]  # fmt: skip
EFFECTS = ["nausea", "diarrhoea", "headache", "rash", "bleeding", "myopathy", "hypoglycaemia", "fatigue", "tremor",
           "QT prolongation", "neutropenia"]  # fmt: skip
CAUSES = {"imatinib": [("nausea", 0.42), ("rash", 0.31), ("fatigue", 0.35)], "gefitinib": [("rash", 0.58), ("diarrhoea", 0.52)],
          "erlotinib": [("rash", 0.69), ("diarrhoea", 0.48)], "osimertinib": [("diarrhoea", 0.41), ("rash", 0.34)],
          "trastuzumab": [("headache", 0.21), ("fatigue", 0.27)], "pembrolizumab": [("fatigue", 0.32), ("rash", 0.17)],
          "olaparib": [("nausea", 0.64), ("fatigue", 0.55), ("neutropenia", 0.18)], "tamoxifen": [("nausea", 0.12)],
          "metformin": [("nausea", 0.26), ("diarrhoea", 0.53)], "sitagliptin": [("headache", 0.06)],
          "insulin glargine": [("hypoglycaemia", 0.33)], "atorvastatin": [("myopathy", 0.05), ("diarrhoea", 0.07)],
          "cerivastatin": [("myopathy", 0.12)], "warfarin": [("bleeding", 0.15)],
          "aspirin": [("bleeding", 0.08), ("nausea", 0.09)], "clopidogrel": [("bleeding", 0.09), ("rash", 0.04)],
          "rofecoxib": [("headache", 0.05)], "salbutamol": [("tremor", 0.2), ("headache", 0.07)],
          "fluticasone": [("headache", 0.11)], "omalizumab": [("headache", 0.15)],
          "amiodarone": [("QT prolongation", 0.1), ("nausea", 0.25)], "donepezil": [("nausea", 0.11), ("diarrhoea", 0.1)]}  # fmt: skip
SPONSORS = [("Halvorsen Pharma", "Norway", "industry"), ("Meridian Biologics", "United States", "industry"),
            ("Aldercrest Therapeutics", "Switzerland", "industry"),
            ("Basel Institute of Clinical Research", "Switzerland", "academic"),
            ("National Heart Research Agency", "United Kingdom", "government"),
            ("University of Leeds", "United Kingdom", "academic")]  # fmt: skip
MARKETS = {"Halvorsen Pharma": ["metformin", "sitagliptin", "warfarin", "aspirin", "salbutamol", "fluticasone"],
           "Meridian Biologics": ["trastuzumab", "pembrolizumab", "omalizumab", "insulin glargine", "olaparib"],
           "Aldercrest Therapeutics": ["imatinib", "gefitinib", "erlotinib", "osimertinib", "tamoxifen", "atorvastatin",
                                       "clopidogrel", "amiodarone", "donepezil"]}  # fmt: skip
STATUSES = ["recruiting", "active", "completed", "completed", "terminated"]

L: list[str] = []
for name, dbid, year, withdrawn, mw, route, brands in DRUGS:
    L.append(
        f"CREATE (:Drug {{genericName: {q(name)}, drugbankId: {q(dbid)}, approvalYear: {year}, "
        f"withdrawn: {str(withdrawn).lower()}, molecularWeight: {mw}, route: {q(route)}, "
        f"brandNames: [{', '.join(q(b) for b in brands)}]}});"
    )
for symbol, full, chrom, entrez in GENES:
    L.append(f"CREATE (:Gene {{symbol: {q(symbol)}, fullName: {q(full)}, chromosome: {q(chrom)}, entrezId: {entrez}}});")
for label, icd, cat, _ in DISEASES:
    L.append(f"CREATE (:Disease {{diseaseLabel: {q(label)}, icd10: {q(icd)}, category: {q(cat)}}});")
for label, _, _, parent in DISEASES:
    if parent:
        L.append(
            f"MATCH (a:Disease {{diseaseLabel: {q(label)}}}), (b:Disease {{diseaseLabel: {q(parent)}}}) "
            f"CREATE (a)-[:SUBTYPE_OF]->(b);"
        )
for e in EFFECTS:
    L.append(f"CREATE (:SideEffect {{effectName: {q(e)}}});")
for name, country, kind in SPONSORS:
    L.append(f"CREATE (:Sponsor {{sponsorName: {q(name)}, country: {q(country)}, kind: {q(kind)}}});")
for d, g, action in TARGETS:
    L.append(
        f"MATCH (d:Drug {{genericName: {q(d)}}}), (g:Gene {{symbol: {q(g)}}}) CREATE (d)-[:TARGETS {{action: {q(action)}}}]->(g);"
    )
for d, diseases in INDICATED.items():
    for s in diseases:
        L.append(f"MATCH (d:Drug {{genericName: {q(d)}}}), (s:Disease {{diseaseLabel: {q(s)}}}) CREATE (d)-[:INDICATED_FOR]->(s);")
for g, s, score in ASSOCIATED:
    L.append(
        f"MATCH (g:Gene {{symbol: {q(g)}}}), (s:Disease {{diseaseLabel: {q(s)}}}) "
        f"CREATE (g)-[:ASSOCIATED_WITH {{score: {score}}}]->(s);"
    )
for a, b, sev in INTERACTS:
    L.append(
        f"MATCH (a:Drug {{genericName: {q(a)}}}), (b:Drug {{genericName: {q(b)}}}) "
        f"CREATE (a)-[:INTERACTS_WITH {{severity: {q(sev)}}}]->(b);"
    )
for d, effects in CAUSES.items():
    for e, f in effects:
        L.append(
            f"MATCH (d:Drug {{genericName: {q(d)}}}), (e:SideEffect {{effectName: {q(e)}}}) "
            f"CREATE (d)-[:CAUSES {{frequency: {f}}}]->(e);"
        )
for s, drugs in MARKETS.items():
    for d in drugs:
        L.append(f"MATCH (s:Sponsor {{sponsorName: {q(s)}}}), (d:Drug {{genericName: {q(d)}}}) CREATE (s)-[:MARKETS]->(d);")

# trials: each tests one drug (some two) in a disease the drug is indicated for
trials = []
pairs = [(d, s) for d, ss in INDICATED.items() for s in ss]
for i in range(26):
    drug, disease = pairs[(i * 7) % len(pairs)]
    drugs = [drug] + ([next(d for d, ss in INDICATED.items() if disease in ss and d != drug)] if i % 6 == 5 and sum(
        disease in ss for ss in INDICATED.values()) > 1 else [])  # fmt: skip
    phase = 1 + (i * 5) % 4
    status = STATUSES[(i * 3) % len(STATUSES)]
    year = 2015 + (i * 3) % 9
    start = f"{year}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
    enrollment = rng.randint(4, 90) * 10
    sponsor = SPONSORS[(i * 5) % len(SPONSORS)][0]
    nct = f"NCT0{3000000 + i * 137911:07d}"
    title = (
        f"A Phase {phase}, Multicentre Study of {' and '.join(drugs).title()} in Adults with {disease[0].upper()}"
        f"{disease[1:]}: Safety, Tolerability and Efficacy Over {rng.choice([24, 48, 52])} Weeks"
    )
    trials.append(dict(nct=nct, drugs=drugs, disease=disease, phase=phase, status=status, start=start, n=enrollment,
                       sponsor=sponsor))  # fmt: skip
    L.append(
        f"CREATE (:Trial {{nctId: {q(nct)}, officialTitle: {q(title)}, phase: {phase}, status: {q(status)}, "
        f"startDate: {q(start)}, enrollment: {enrollment}}});"
    )
    for d in drugs:
        L.append(f"MATCH (t:Trial {{nctId: {q(nct)}}}), (d:Drug {{genericName: {q(d)}}}) CREATE (t)-[:TESTS]->(d);")
    L.append(f"MATCH (t:Trial {{nctId: {q(nct)}}}), (s:Disease {{diseaseLabel: {q(disease)}}}) CREATE (t)-[:STUDIES]->(s);")
    L.append(f"MATCH (t:Trial {{nctId: {q(nct)}}}), (s:Sponsor {{sponsorName: {q(sponsor)}}}) CREATE (t)-[:SPONSORED_BY]->(s);")

# the constants the questions name, picked from what was made
tested = next(d for d in ("pembrolizumab", "olaparib", "metformin") if any(d in t["drugs"] for t in trials))
some_trial = trials[4]["nct"]
phase3 = next(t["disease"] for t in trials if t["phase"] == 3)
T = lambda s: q(s)  # noqa: E731
Q = [
    ("How many drugs are there?", "MATCH (d:Drug) RETURN count(d)"),
    ("Which genes does imatinib target?", "MATCH (:Drug {genericName: 'imatinib'})-[:TARGETS]->(g:Gene) RETURN g.symbol"),
    ("Which drugs target EGFR?", "MATCH (d:Drug)-[:TARGETS]->(:Gene {symbol: 'EGFR'}) RETURN d.genericName"),
    ("Which drugs are antibodies against their target?",
     "MATCH (d:Drug)-[t:TARGETS]->(:Gene) WHERE t.action = 'antibody' RETURN DISTINCT d.genericName"),
    ("Which diseases is metformin indicated for?",
     "MATCH (:Drug {genericName: 'metformin'})-[:INDICATED_FOR]->(s:Disease) RETURN s.diseaseLabel"),
    ("Which drugs are indicated for asthma?",
     "MATCH (d:Drug)-[:INDICATED_FOR]->(:Disease {diseaseLabel: 'asthma'}) RETURN d.genericName"),
    ("Which genes are associated with breast cancer?",
     "MATCH (g:Gene)-[:ASSOCIATED_WITH]->(:Disease {diseaseLabel: 'breast cancer'}) RETURN g.symbol"),
    ("Which gene has the strongest association with type 2 diabetes?",
     "MATCH (g:Gene)-[a:ASSOCIATED_WITH]->(:Disease {diseaseLabel: 'type 2 diabetes'}) RETURN g.symbol "
     "ORDER BY a.score DESC LIMIT 1"),
    (f"Which trials test {tested}?",
     f"MATCH (t:Trial)-[:TESTS]->(:Drug {{genericName: {T(tested)}}}) RETURN t.nctId"),
    ("How many trials are recruiting?", "MATCH (t:Trial) WHERE t.status = 'recruiting' RETURN count(t)"),
    (f"Which phase 3 trials study {phase3}?",
     f"MATCH (t:Trial)-[:STUDIES]->(:Disease {{diseaseLabel: {T(phase3)}}}) WHERE t.phase = 3 RETURN t.nctId"),
    (f"Who sponsors trial {some_trial}?",
     f"MATCH (:Trial {{nctId: {T(some_trial)}}})-[:SPONSORED_BY]->(s:Sponsor) RETURN s.sponsorName"),
    ("Which sponsor runs the most trials?",
     "MATCH (:Trial)-[:SPONSORED_BY]->(s:Sponsor) RETURN s.sponsorName, count(*) AS n ORDER BY n DESC LIMIT 1"),
    ("How many trials does each sponsor run?",
     "MATCH (t:Trial)-[:SPONSORED_BY]->(s:Sponsor) RETURN s.sponsorName, count(t)"),
    ("Which drugs interact with warfarin?",
     "MATCH (:Drug {genericName: 'warfarin'})-[:INTERACTS_WITH]-(d:Drug) RETURN d.genericName"),
    ("Which drugs have a major interaction with warfarin?",
     "MATCH (:Drug {genericName: 'warfarin'})-[i:INTERACTS_WITH]-(d:Drug) WHERE i.severity = 'major' "
     "RETURN d.genericName"),
    ("Which drugs have been withdrawn?", "MATCH (d:Drug) WHERE d.withdrawn = true RETURN d.genericName"),
    ("Which drugs were approved before 1990?", "MATCH (d:Drug) WHERE d.approvalYear < 1990 RETURN d.genericName"),
    ("What is the molecular weight of aspirin?", "MATCH (d:Drug {genericName: 'aspirin'}) RETURN d.molecularWeight"),
    ("Which drug has the highest molecular weight?",
     "MATCH (d:Drug) RETURN d.genericName ORDER BY d.molecularWeight DESC LIMIT 1"),
    ("What is the DrugBank ID of imatinib?", "MATCH (d:Drug {genericName: 'imatinib'}) RETURN d.drugbankId"),
    ("Which drug has the DrugBank ID DB00945?", "MATCH (d:Drug {drugbankId: 'DB00945'}) RETURN d.genericName"),
    ("Which diseases are subtypes of lung cancer?",
     "MATCH (s:Disease)-[:SUBTYPE_OF]->(:Disease {diseaseLabel: 'lung cancer'}) RETURN s.diseaseLabel"),
    ("Which diseases are a kind of cancer at any level?",
     "MATCH (s:Disease)-[:SUBTYPE_OF*]->(:Disease {diseaseLabel: 'cancer'}) RETURN DISTINCT s.diseaseLabel"),
    ("Which side effects does metformin cause?",
     "MATCH (:Drug {genericName: 'metformin'})-[:CAUSES]->(e:SideEffect) RETURN e.effectName"),
    ("Which drugs cause bleeding?",
     "MATCH (d:Drug)-[:CAUSES]->(:SideEffect {effectName: 'bleeding'}) RETURN d.genericName"),
    ("What is the most frequent side effect of olaparib?",
     "MATCH (:Drug {genericName: 'olaparib'})-[c:CAUSES]->(e:SideEffect) RETURN e.effectName "
     "ORDER BY c.frequency DESC LIMIT 1"),
    ("Which trials started in 2021?", "MATCH (t:Trial) WHERE t.startDate STARTS WITH '2021' RETURN t.nctId"),
    ("Which trials started after June 2020?", "MATCH (t:Trial) WHERE t.startDate > '2020-06-30' RETURN t.nctId"),
    ("What is the total enrollment of the trials that study asthma?",
     "MATCH (t:Trial)-[:STUDIES]->(:Disease {diseaseLabel: 'asthma'}) RETURN sum(t.enrollment)"),
    ("What is the average enrollment of completed trials?",
     "MATCH (t:Trial) WHERE t.status = 'completed' RETURN avg(t.enrollment)"),
    ("Which drugs are taken orally?", "MATCH (d:Drug) WHERE d.route = 'oral' RETURN d.genericName"),
    ("Which drugs are indicated for a disease associated with TP53?",
     "MATCH (d:Drug)-[:INDICATED_FOR]->(:Disease)<-[:ASSOCIATED_WITH]-(:Gene {symbol: 'TP53'}) RETURN DISTINCT d.genericName"),
    ("Which drugs target genes associated with asthma?",
     "MATCH (d:Drug)-[:TARGETS]->(:Gene)-[:ASSOCIATED_WITH]->(:Disease {diseaseLabel: 'asthma'}) RETURN DISTINCT d.genericName"),
    ("Which sponsors are based in Switzerland?",
     "MATCH (s:Sponsor) WHERE s.country = 'Switzerland' RETURN s.sponsorName"),
    ("Which drugs does Meridian Biologics market?",
     "MATCH (:Sponsor {sponsorName: 'Meridian Biologics'})-[:MARKETS]->(d:Drug) RETURN d.genericName"),
    ("Which drug is sold under the brand name Glivec?",
     "MATCH (d:Drug) WHERE 'Glivec' IN d.brandNames RETURN d.genericName"),
    ("What are the brand names of insulin glargine?",
     "MATCH (d:Drug {genericName: 'insulin glargine'}) RETURN d.brandNames"),
    ("How many genes are on chromosome 17?", "MATCH (g:Gene) WHERE g.chromosome = '17' RETURN count(g)"),
    ("Which oncology diseases have no drug indicated for them?",
     "MATCH (s:Disease {category: 'oncology'}) WHERE NOT (:Drug)-[:INDICATED_FOR]->(s) RETURN s.diseaseLabel"),
    ("Which other drugs target a gene that erlotinib targets?",
     "MATCH (:Drug {genericName: 'erlotinib'})-[:TARGETS]->(:Gene)<-[:TARGETS]-(d:Drug) "
     "WHERE d.genericName <> 'erlotinib' RETURN DISTINCT d.genericName"),
    ("Which trials are run by academic sponsors?",
     "MATCH (t:Trial)-[:SPONSORED_BY]->(:Sponsor {kind: 'academic'}) RETURN t.nctId"),
    ("How many drugs target each gene?", "MATCH (d:Drug)-[:TARGETS]->(g:Gene) RETURN g.symbol, count(d)"),
    ("Which drug is tested in the most trials?",
     "MATCH (:Trial)-[:TESTS]->(d:Drug) RETURN d.genericName, count(*) AS n ORDER BY n DESC LIMIT 1"),
    ("What is the full name of the gene BRCA1?", "MATCH (g:Gene {symbol: 'BRCA1'}) RETURN g.fullName"),
    ("What is the ICD-10 code of asthma?", "MATCH (s:Disease {diseaseLabel: 'asthma'}) RETURN s.icd10"),
]  # fmt: skip
write(HERE, "pharma", L, Q)
