"""What ``data/orgchart`` (session 59; an organisation graph, measured first with that session's starting code)
showed: relationships between nodes of one kind (``REPORTS_TO`` between employees, ``PART_OF`` between units,
``REQUIRES`` between skills) are asked along their chains ("everyone who reports to X, directly or indirectly", "the
units under X at any level", "all the prerequisites of X, including indirect ones"), which no path of single hops
answers. A hop may now take such a chain (``Hop.closure``, ``app.text2cypher.closures``)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from app.container import Container
from app.cypher.candidates import Anchor, CandidateQuery, Hop
from app.cypher.shapes import UNLINKED, Filter, Shape
from app.text2cypher import features
from app.text2cypher.closures import closures
from app.text2cypher.lexicon import load as load_lexicon
from app.text2cypher.question import question_literals
from app.text2cypher.reading import reading

BOSS = Anchor("Ada Okafor", "Employee", "fullName")
UP = Hop("REPORTS_TO", "in", "Employee", "fullName")
NS = "orgchart_test"


def row(c: CandidateQuery | Shape, question: str) -> float:
    return features.compute([c], question, question_literals(question))[0]["closure"]


def test_a_hop_between_nodes_of_one_kind_may_take_its_chain() -> None:
    (chain,) = closures(CandidateQuery(BOSS, ()), UP, 8)
    assert chain.text == (
        'MATCH (x1:Employee {fullName: "Ada Okafor"})<-[:REPORTS_TO*1..8]-(x2:Employee) RETURN x2.fullName'
    )
    # a chain's relationships are a list: no condition names them (not even two hops of one type apart)
    two = CandidateQuery(BOSS, (chain.hops[0], Hop("WORKS_IN", "out", "Unit", "unitName")))
    assert two.where_conditions() == ["x2 <> x1", "x3 <> x1"]
    # not to another kind, not after a hop of the same type (that chain starts a node earlier), not twice, not with
    # a relationship that holds both ways, and not where enumeration is told so
    assert closures(CandidateQuery(BOSS, ()), Hop("WORKS_IN", "out", "Unit", "unitName"), 8) == []
    assert closures(CandidateQuery(BOSS, (UP,)), UP, 8) == []
    assert closures(chain, Hop("MENTORS", "out", "Employee", "fullName"), 8) == []
    assert closures(CandidateQuery(BOSS, ()), Hop("KNOWS", "both", "Employee", "fullName"), 8) == []
    assert closures(CandidateQuery(BOSS, ()), UP, 0) == []


def test_the_reading_says_the_chain() -> None:
    (chain,) = closures(CandidateQuery(BOSS, ()), UP, 8)
    said = reading(chain, load_lexicon())
    assert said.endswith("reports to Ada Okafor (employee) at any level, directly or indirectly"), said
    assert "indirectly" not in reading(CandidateQuery(BOSS, (UP,)), load_lexicon())


def test_the_question_says_whether_it_asks_along_the_chain() -> None:
    (chain,) = closures(CandidateQuery(BOSS, ()), UP, 8)
    assert row(chain, "Which employees report to Ada Okafor directly or indirectly?") == 1.0
    assert row(chain, "How many people are in Ada Okafor's team at any level?") == 1.0
    assert row(chain, "Who reports directly to Ada Okafor?") == -1.0
    assert row(chain, "Which employees report to Ada Okafor?") == -1.0
    assert row(CandidateQuery(BOSS, (UP,)), "Which employees report to Ada Okafor directly or indirectly?") == 0.0
    # nothing else asks along a chain: not the plural of a kind a relationship gives each node one of (a generated
    # benchmark asks "which 3 applications are instances of X" whatever the data holds)
    crm = CandidateQuery(Anchor("crm", "Application"), ())
    (instances,) = closures(crm, Hop("INSTANCE", "out", "Application"), 8)
    assert row(instances, "Which 3 applications are instances of the application 'crm'?") == -1.0


def test_what_a_node_lacks_is_taken_the_way_its_role_says() -> None:
    """ "Which skills have no prerequisites": "prerequisites" names what ``REQUIRES`` reaches, so the skills lack what
    they would require; "which members have no followers": "followers" names ``FOLLOWS``'s doer, so nobody follows
    them; a verb's form names no role ("never reviewed": 0, the reading says the verb's way)."""
    skills = CandidateQuery(Anchor(None, "Skill", "skillName"), ())

    def lacked(label: str, rel: str, direction: str, question: str) -> float:
        s = Shape(replace(skills, anchor=Anchor(None, label)), 1, "list")
        s = replace(s, filters=(Filter(1, rel, UNLINKED, (direction, label)),))
        return features.compute([s], question, question_literals(question))[0]["lacked_role"]

    q = "Which skills have no prerequisites?"
    assert (lacked("Skill", "REQUIRES", "out", q), lacked("Skill", "REQUIRES", "in", q)) == (1.0, -1.0)
    q = "Which members have no followers?"
    assert (lacked("Member", "FOLLOWS", "in", q), lacked("Member", "FOLLOWS", "out", q)) == (1.0, -1.0)
    assert lacked("Person", "REVIEWED", "out", "Which people never reviewed a movie?") == 0.0
    assert lacked("Skill", "REQUIRES", "in", "Which skills are there?") == 0.0


ORG = [
    "CREATE (:Employee {fullName: 'Ada Okafor', grade: 9}), (:Employee {fullName: 'Bruno Berg', grade: 7}),"
    " (:Employee {fullName: 'Carla Moreau', grade: 5}), (:Employee {fullName: 'Dmitri Petrov', grade: 3}),"
    " (:Employee {fullName: 'Elif Yilmaz', grade: 3}), (:Employee {fullName: 'Femi Adeyemi', grade: 2});",
    "MATCH (a:Employee {fullName: 'Bruno Berg'}), (b:Employee {fullName: 'Ada Okafor'})"
    " CREATE (a)-[:REPORTS_TO {since: 2019}]->(b);",
    "MATCH (a:Employee {fullName: 'Carla Moreau'}), (b:Employee {fullName: 'Bruno Berg'})"
    " CREATE (a)-[:REPORTS_TO {since: 2020}]->(b);",
    "MATCH (a:Employee {fullName: 'Dmitri Petrov'}), (b:Employee {fullName: 'Carla Moreau'})"
    " CREATE (a)-[:REPORTS_TO {since: 2021}]->(b);",
    "MATCH (a:Employee {fullName: 'Elif Yilmaz'}), (b:Employee {fullName: 'Carla Moreau'})"
    " CREATE (a)-[:REPORTS_TO {since: 2022}]->(b);",
    "MATCH (a:Employee {fullName: 'Femi Adeyemi'}), (b:Employee {fullName: 'Bruno Berg'})"
    " CREATE (a)-[:REPORTS_TO {since: 2023}]->(b);",
]


async def test_everyone_under_someone_at_any_level(container: Container) -> None:
    """On a real store: the chain is enumerated, runs (FalkorDB; the same text on Neo4j) and holds every level; the
    feature speaks for it where the question asks along the chain and against it where it asks for one step."""
    await container.ingestor.ingest_cypher(NS, "\n".join(ORG) + "\n")
    t2c: Any = container.retrievers["text2cypher"]
    q = "Which employees report to Bruno Berg directly or indirectly?"
    e = await t2c.enumerate(NS, q)
    texts = [c.text for c in e.candidates]
    chain = 'MATCH (x1:Employee {fullName: "Bruno Berg"})<-[:REPORTS_TO*1..8]-(x2:Employee) RETURN x2.fullName'
    step = 'MATCH (x1:Employee {fullName: "Bruno Berg"})<-[:REPORTS_TO]-(x2:Employee) RETURN x2.fullName'
    assert chain in texts and step in texts
    # no chain is extended further, and no condition on or value of a chain's relationships is enumerated
    bad = [t for t in texts if "*1..8]" in t and ("since" in t or t.count("[:") > 1)]
    assert not bad, bad[:5]
    rows = await container.graph.read(NS, chain)
    assert {r["x2.fullName"] for r in rows} == {"Carla Moreau", "Dmitri Petrov", "Elif Yilmaz", "Femi Adeyemi"}
    assert e.features[texts.index(chain)]["closure"] == 1.0 and e.features[texts.index(step)]["closure"] == 0.0
    e = await t2c.enumerate(NS, "Who reports directly to Bruno Berg?")
    texts = [c.text for c in e.candidates]
    assert e.features[texts.index(chain)]["closure"] == -1.0
