"""A small research-publications graph of a schema none of the service's code was written against (session 60):
papers by ``paperTitle`` (titles that hold topic words: "Graph Neural Networks for Traffic Forecasting") with a
``doi`` id ("10.5555/sch.2019.014"), an integer ``year``, a boolean ``openAccess`` and a long ``abstract``;
researchers by ``authorName`` (some with accents) with an ``orcid`` id and an integer ``hIndex``; institutions by
``instName`` with a categorical ``country`` and ``sector``; venues by ``venueName`` with a categorical ``kind``
("journal", "conference"); topics by ``topicName``; grants by ``grantCode`` ("ERC-2018-0417") with an integer
``amountEur`` and a categorical ``funder``. Researchers ``WROTE`` papers (``position`` 1..n, a boolean
``corresponding``), papers ``CITE`` earlier papers (a relationship from a label to itself, a DAG), are
``PUBLISHED_IN`` a venue, are ``ABOUT`` topics and ``FUNDED_BY`` grants; researchers are ``AFFILIATED_WITH`` an
institution (``since``, a year), ``ADVISED`` other researchers (a tree) and ``REVIEWED`` papers (``score`` 1-5,
``submittedOn`` a date as text). 42 questions with gold Cypher written by hand before the service was run on it
(reports/summary.md, session 60). The co-author question's gold leaves the author out in so many words: FalkorDB
matches both ``WROTE`` of one pattern to the same relationship, which Neo4j never does.

``python data/scholar/make.py`` writes ``scholar.cypher`` and ``questions.jsonl`` here (``make eval-own``). The
project's own data, not a public benchmark."""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from own_graph import q, write  # noqa: E402

HERE = Path(__file__).resolve().parent
rng = random.Random(6060)

INSTITUTIONS = [("University of Tartu", "Estonia", "academic"), ("Delft Institute of Technology", "Netherlands", "academic"),
                ("Max Weber Research Centre", "Germany", "academic"), ("Kestrel Labs", "Germany", "industry"),
                ("Universidad de Valparaíso", "Chile", "academic"), ("Harbor Robotics", "United States", "industry")]  # fmt: skip
VENUES = [("Journal of Machine Reasoning", "journal"), ("Transactions on Data Systems", "journal"),
          ("International Conference on Graph Learning", "conference"), ("Symposium on Robust Systems", "conference"),
          ("Workshop on Language Grounding", "conference")]  # fmt: skip
TOPICS = ["Graph Neural Networks", "Reinforcement Learning", "Information Retrieval", "Robotics", "Causal Inference",
          "Language Models"]  # fmt: skip
GRANTS = [("ERC-2018-0417", 1500000, "European Research Council"), ("NSF-2020-1187", 620000, "National Science Foundation"),
          ("ERC-2021-0093", 2000000, "European Research Council"), ("DFG-2019-5521", 480000, "German Research Foundation")]  # fmt: skip
PEOPLE = ["Kadri Tamm", "Pieter de Vries", "Johanna Weiß", "Lukas Brandt", "José Álvarez", "Camila Rojas", "Ethan Cole",
          "Maya Okonkwo", "Mart Kask", "Sanne Bakker", "Felix Hoffmann", "Inés Fuentes", "Noah Fischer", "Grace Liu",
          "Tobias Klein", "Anu Saar", "Ruben Jansen", "Valentina Soto", "Olivia Park", "Henrik Lund"]  # fmt: skip
# title, topics
PAPERS = [("Graph Neural Networks for Traffic Forecasting", ["Graph Neural Networks"]),
          ("Message Passing Beyond Pairwise Interactions", ["Graph Neural Networks"]),
          ("Curriculum Policies for Sparse Rewards", ["Reinforcement Learning"]),
          ("Dense Passage Retrieval at Scale", ["Information Retrieval", "Language Models"]),
          ("Learning to Grasp from Few Demonstrations", ["Robotics", "Reinforcement Learning"]),
          ("Counterfactual Estimates in Observational Data", ["Causal Inference"]),
          ("Instruction Tuning Small Language Models", ["Language Models"]),
          ("Knowledge Graphs as Retrieval Memory", ["Information Retrieval", "Graph Neural Networks"]),
          ("Robust Locomotion on Uneven Terrain", ["Robotics"]),
          ("Causal Discovery with Latent Confounders", ["Causal Inference"]),
          ("Reward Models Under Distribution Shift", ["Reinforcement Learning", "Language Models"]),
          ("Temporal Graph Attention", ["Graph Neural Networks"]),
          ("Query Expansion with Generated Documents", ["Information Retrieval", "Language Models"]),
          ("Sim-to-Real Transfer for Manipulation", ["Robotics"]),
          ("Invariant Prediction Across Environments", ["Causal Inference"]),
          ("Offline Policy Evaluation in Healthcare", ["Reinforcement Learning", "Causal Inference"]),
          ("Tokenizer Effects on Multilingual Models", ["Language Models"]),
          ("Scalable Link Prediction", ["Graph Neural Networks"]),
          ("Learned Sparse Representations for Search", ["Information Retrieval"]),
          ("Tactile Sensing for Dexterous Hands", ["Robotics"]),
          ("Hierarchical Planning with Options", ["Reinforcement Learning"]),
          ("Evaluating Retrieval-Augmented Generation", ["Information Retrieval", "Language Models"]),
          ("Graph Transformers for Molecules", ["Graph Neural Networks"]),
          ("Mediation Analysis for Policy Decisions", ["Causal Inference"]),
          ("Aligning Language Models with Feedback", ["Language Models", "Reinforcement Learning"]),
          ("Swarm Coordination Under Communication Loss", ["Robotics"])]  # fmt: skip

L: list[str] = []
for name, country, sector in INSTITUTIONS:
    L.append(f"CREATE (:Institution {{instName: {q(name)}, country: {q(country)}, sector: {q(sector)}}});")
for name, kind in VENUES:
    L.append(f"CREATE (:Venue {{venueName: {q(name)}, kind: {q(kind)}}});")
for t in TOPICS:
    L.append(f"CREATE (:Topic {{topicName: {q(t)}}});")
for code, amount, funder in GRANTS:
    L.append(f"CREATE (:Grant {{grantCode: {q(code)}, amountEur: {amount}, funder: {q(funder)}}});")

people = []
for i, name in enumerate(PEOPLE):
    p = dict(name=name, orcid=f"0000-000{i % 3 + 1}-{4000 + i * 37:04d}-{(i * 7919) % 9000 + 1000:04d}",
             h=rng.randint(3, 48), inst=INSTITUTIONS[i % len(INSTITUTIONS)][0], since=rng.randint(2006, 2023))  # fmt: skip
    people.append(p)
    L.append(f"CREATE (:Researcher {{authorName: {q(name)}, orcid: {q(p['orcid'])}, hIndex: {p['h']}}});")
    L.append(
        f"MATCH (r:Researcher {{authorName: {q(name)}}}), (i:Institution {{instName: {q(p['inst'])}}}) "
        f"CREATE (r)-[:AFFILIATED_WITH {{since: {p['since']}}}]->(i);"
    )
# advisors: a tree (the first four advised the next ones, who advised some of the rest)
advisor = {4: 0, 5: 0, 6: 1, 7: 2, 8: 4, 9: 4, 10: 5, 11: 7, 12: 8, 13: 6, 14: 2, 15: 9}
for s, a in advisor.items():
    L.append(
        f"MATCH (a:Researcher {{authorName: {q(PEOPLE[a])}}}), (s:Researcher {{authorName: {q(PEOPLE[s])}}}) "
        f"CREATE (a)-[:ADVISED]->(s);"
    )

papers = []
for i, (title, topics) in enumerate(PAPERS):
    year = 2014 + i * 10 // len(PAPERS) + rng.randint(0, 1)
    doi = f"10.5555/sch.{year}.{100 + i * 13:03d}"
    authors = rng.sample(range(len(PEOPLE)), rng.randint(1, 4))
    venue = VENUES[rng.randrange(len(VENUES))][0]
    oa = rng.random() < 0.5
    abstract = (
        f"We study {topics[0].lower()} and present {title.lower()}. Experiments on three benchmarks show consistent "
        f"gains over strong baselines, and an ablation isolates the contribution of each component."
    )
    p = dict(title=title, topics=topics, year=year, doi=doi, authors=authors, venue=venue, oa=oa, cites=[])
    if i >= 2:
        p["cites"] = sorted(rng.sample(range(i), rng.randint(0, min(3, i))))
    p["grant"] = GRANTS[rng.randrange(len(GRANTS))][0] if rng.random() < 0.45 else None
    papers.append(p)
    L.append(
        f"CREATE (:Paper {{paperTitle: {q(title)}, doi: {q(doi)}, year: {year}, openAccess: {str(oa).lower()}, "
        f"abstract: {q(abstract)}}});"
    )
    L.append(f"MATCH (p:Paper {{doi: {q(doi)}}}), (v:Venue {{venueName: {q(venue)}}}) CREATE (p)-[:PUBLISHED_IN]->(v);")
    for t in topics:
        L.append(f"MATCH (p:Paper {{doi: {q(doi)}}}), (t:Topic {{topicName: {q(t)}}}) CREATE (p)-[:ABOUT]->(t);")
    for pos, a in enumerate(authors, 1):
        L.append(
            f"MATCH (r:Researcher {{authorName: {q(PEOPLE[a])}}}), (p:Paper {{doi: {q(doi)}}}) "
            f"CREATE (r)-[:WROTE {{position: {pos}, corresponding: {str(pos == len(authors)).lower()}}}]->(p);"
        )
    for c in p["cites"]:
        L.append(f"MATCH (a:Paper {{doi: {q(doi)}}}), (b:Paper {{doi: {q(papers[c]['doi'])}}}) CREATE (a)-[:CITES]->(b);")
    if p["grant"]:
        L.append(f"MATCH (p:Paper {{doi: {q(doi)}}}), (g:Grant {{grantCode: {q(p['grant'])}}}) CREATE (p)-[:FUNDED_BY]->(g);")
    for r in rng.sample([k for k in range(len(PEOPLE)) if k not in authors], rng.randint(0, 2)):
        L.append(
            f"MATCH (r:Researcher {{authorName: {q(PEOPLE[r])}}}), (p:Paper {{doi: {q(doi)}}}) "
            f"CREATE (r)-[:REVIEWED {{score: {rng.randint(1, 5)}, submittedOn: "
            f"{q(f'{year - 1}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}')}}}]->(p);"
        )

# the constants the questions name, picked from what was made
cited = max(range(len(papers)), key=lambda i: sum(i in p["cites"] for p in papers))
root = papers[0]["title"]  # cited along chains
citing = next(p for p in papers if len(p["cites"]) >= 2)
multi = next(p for p in papers if len(p["authors"]) >= 3)
solo_author = PEOPLE[multi["authors"][0]]
prolific = max(range(len(PEOPLE)), key=lambda a: sum(a in p["authors"] for p in papers))
funded = next(p for p in papers if p["grant"])
reviewed = next(p for p in papers[5:] if any(f"(p:Paper {{doi: {q(p['doi'])}}}) CREATE (r)-[:REVIEWED" in s for s in L))
T = lambda s: q(s)  # noqa: E731
Q = [
    ("How many papers are there?", "MATCH (p:Paper) RETURN count(p)"),
    (f"Which papers did {PEOPLE[prolific]} write?",
     f"MATCH (:Researcher {{authorName: {T(PEOPLE[prolific])}}})-[:WROTE]->(p:Paper) RETURN p.paperTitle"),
    (f"Who wrote '{multi['title']}'?",
     f"MATCH (r:Researcher)-[:WROTE]->(:Paper {{paperTitle: {T(multi['title'])}}}) RETURN r.authorName"),
    (f"Which papers cite '{papers[cited]['title']}'?",
     f"MATCH (p:Paper)-[:CITES]->(:Paper {{paperTitle: {T(papers[cited]['title'])}}}) RETURN p.paperTitle"),
    (f"Which papers does '{citing['title']}' cite?",
     f"MATCH (:Paper {{paperTitle: {T(citing['title'])}}})-[:CITES]->(p:Paper) RETURN p.paperTitle"),
    (f"How many citations does '{papers[cited]['title']}' have?",
     f"MATCH (p:Paper)-[:CITES]->(:Paper {{paperTitle: {T(papers[cited]['title'])}}}) RETURN count(p)"),
    ("Which papers were published in 2019?", "MATCH (p:Paper) WHERE p.year = 2019 RETURN p.paperTitle"),
    ("Which papers in the Journal of Machine Reasoning were published after 2018?",
     "MATCH (p:Paper)-[:PUBLISHED_IN]->(:Venue {venueName: 'Journal of Machine Reasoning'}) WHERE p.year > 2018 "
     "RETURN p.paperTitle"),
    (f"Which venue published '{citing['title']}'?",
     f"MATCH (:Paper {{paperTitle: {T(citing['title'])}}})-[:PUBLISHED_IN]->(v:Venue) RETURN v.venueName"),
    ("Which papers are open access?", "MATCH (p:Paper) WHERE p.openAccess = true RETURN p.paperTitle"),
    ("Which venues are journals?", "MATCH (v:Venue {kind: 'journal'}) RETURN v.venueName"),
    ("Which researchers are affiliated with Kestrel Labs?",
     "MATCH (r:Researcher)-[:AFFILIATED_WITH]->(:Institution {instName: 'Kestrel Labs'}) RETURN r.authorName"),
    ("Which institutions are in Germany?", "MATCH (i:Institution {country: 'Germany'}) RETURN i.instName"),
    ("How many researchers are affiliated with institutions in Germany?",
     "MATCH (r:Researcher)-[:AFFILIATED_WITH]->(:Institution {country: 'Germany'}) RETURN count(r)"),
    ("Which researcher has the highest h-index?",
     "MATCH (r:Researcher) RETURN r.authorName ORDER BY r.hIndex DESC LIMIT 1"),
    (f"What is the h-index of {PEOPLE[3]}?", f"MATCH (r:Researcher {{authorName: {T(PEOPLE[3])}}}) RETURN r.hIndex"),
    ("Which paper is cited the most?",
     "MATCH (p:Paper)<-[:CITES]-(:Paper) RETURN p.paperTitle, count(*) AS n ORDER BY n DESC LIMIT 1"),
    ("Which papers are not cited by any paper?",
     "MATCH (p:Paper) WHERE NOT (:Paper)-[:CITES]->(p) RETURN p.paperTitle"),
    (f"Which papers cite '{root}' directly or indirectly?",
     f"MATCH (p:Paper)-[:CITES*]->(:Paper {{paperTitle: {T(root)}}}) RETURN DISTINCT p.paperTitle"),
    (f"Who advised {PEOPLE[8]}?",
     f"MATCH (a:Researcher)-[:ADVISED]->(:Researcher {{authorName: {T(PEOPLE[8])}}}) RETURN a.authorName"),
    (f"Which researchers did {PEOPLE[0]} advise?",
     f"MATCH (:Researcher {{authorName: {T(PEOPLE[0])}}})-[:ADVISED]->(s:Researcher) RETURN s.authorName"),
    (f"Who are all the academic descendants of {PEOPLE[0]}, at any level?",
     f"MATCH (:Researcher {{authorName: {T(PEOPLE[0])}}})-[:ADVISED*]->(s:Researcher) RETURN DISTINCT s.authorName"),
    ("Which papers are about Causal Inference?",
     "MATCH (p:Paper)-[:ABOUT]->(:Topic {topicName: 'Causal Inference'}) RETURN p.paperTitle"),
    ("How many papers are there on each topic?",
     "MATCH (p:Paper)-[:ABOUT]->(t:Topic) RETURN t.topicName, count(p)"),
    ("Which topic has the most papers?",
     "MATCH (:Paper)-[:ABOUT]->(t:Topic) RETURN t.topicName, count(*) AS n ORDER BY n DESC LIMIT 1"),
    (f"Which grant funded '{funded['title']}'?",
     f"MATCH (:Paper {{paperTitle: {T(funded['title'])}}})-[:FUNDED_BY]->(g:Grant) RETURN g.grantCode"),
    ("Which papers were funded by the European Research Council?",
     "MATCH (p:Paper)-[:FUNDED_BY]->(:Grant {funder: 'European Research Council'}) RETURN p.paperTitle"),
    ("What is the total amount of the grants from the European Research Council?",
     "MATCH (g:Grant {funder: 'European Research Council'}) RETURN sum(g.amountEur)"),
    (f"Who reviewed '{reviewed['title']}'?",
     f"MATCH (r:Researcher)-[:REVIEWED]->(:Paper {{paperTitle: {T(reviewed['title'])}}}) RETURN r.authorName"),
    ("Which papers received a review score of 5?",
     "MATCH (:Researcher)-[r:REVIEWED]->(p:Paper) WHERE r.score = 5 RETURN DISTINCT p.paperTitle"),
    (f"What is the average review score of '{reviewed['title']}'?",
     f"MATCH (:Researcher)-[r:REVIEWED]->(:Paper {{paperTitle: {T(reviewed['title'])}}}) RETURN avg(r.score)"),
    (f"Who has co-authored a paper with {solo_author}?",
     f"MATCH (:Researcher {{authorName: {T(solo_author)}}})-[:WROTE]->(:Paper)<-[:WROTE]-(c:Researcher) "
     f"WHERE c.authorName <> {T(solo_author)} RETURN DISTINCT c.authorName"),
    (f"Who is the first author of '{multi['title']}'?",
     f"MATCH (r:Researcher)-[w:WROTE]->(:Paper {{paperTitle: {T(multi['title'])}}}) WHERE w.position = 1 "
     f"RETURN r.authorName"),
    (f"Which papers was {PEOPLE[prolific]} the corresponding author of?",
     f"MATCH (:Researcher {{authorName: {T(PEOPLE[prolific])}}})-[w:WROTE]->(p:Paper) WHERE w.corresponding = true "
     f"RETURN p.paperTitle"),
    (f"What is the DOI of '{citing['title']}'?", f"MATCH (p:Paper {{paperTitle: {T(citing['title'])}}}) RETURN p.doi"),
    (f"Which paper has the DOI {papers[7]['doi']}?",
     f"MATCH (p:Paper {{doi: {T(papers[7]['doi'])}}}) RETURN p.paperTitle"),
    ("What are the 3 most recent papers?", "MATCH (p:Paper) RETURN p.paperTitle ORDER BY p.year DESC LIMIT 3"),
    ("Which researchers submitted a review in 2020?",
     "MATCH (r:Researcher)-[v:REVIEWED]->(:Paper) WHERE v.submittedOn STARTS WITH '2020' RETURN DISTINCT r.authorName"),
    ("How many papers has each venue published?",
     "MATCH (p:Paper)-[:PUBLISHED_IN]->(v:Venue) RETURN v.venueName, count(p)"),
    ("Which researchers have been affiliated with their institution since before 2010?",
     "MATCH (r:Researcher)-[a:AFFILIATED_WITH]->(:Institution) WHERE a.since < 2010 RETURN r.authorName"),
    ("Which papers were written by researchers at the University of Tartu?",
     "MATCH (:Institution {instName: 'University of Tartu'})<-[:AFFILIATED_WITH]-(:Researcher)-[:WROTE]->(p:Paper) "
     "RETURN DISTINCT p.paperTitle"),
    (f"At which conferences has {PEOPLE[prolific]} published?",
     f"MATCH (:Researcher {{authorName: {T(PEOPLE[prolific])}}})-[:WROTE]->(:Paper)-[:PUBLISHED_IN]->"
     f"(v:Venue {{kind: 'conference'}}) RETURN DISTINCT v.venueName"),
]  # fmt: skip
write(HERE, "scholar", L, Q)
