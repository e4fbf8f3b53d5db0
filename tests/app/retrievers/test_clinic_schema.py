"""A small clinical graph none of the service's code names (what ``data/clinic`` showed, session 53): patients named
by a ``patientId`` with their first and last names in two properties, a handful of hospitals with a ``city`` two of
them share, visits as nodes of their own with a ``date`` as text, and a ``severity`` on patients' allergies. Two
values of one label said side by side are one node's; a small label's text property whose values repeat is a
category a question names; a month said with its year narrows a date to that month; a lower-case value of a
relationship's property right before a word for that relationship is a condition ("a severe allergy"); a small
label's codes are its id, and its names link in lower case."""

from __future__ import annotations

import httpx
import pytest

from app.container import Container
from app.cypher.candidates import Anchor
from app.retrievers.linking import EntityLink, joined
from app.text2cypher.question import question_literals
from tests.app.retrievers.asking import ask, values

NS = "clinic_schema"
PATIENTS = [  # id, first, last, allergy severity (to Ibuprofen)
    ("PT-1", "Olga", "Moreau", "severe"),
    ("PT-2", "Olga", "Santos", "mild"),
    ("PT-3", "Nils", "Moreau", None),
    ("PT-4", "Ana", "Ryan", "severe"),
    ("PT-5", "Hugo", "Ryan", None),
]
HOSPITALS = [
    ("St. Brigid Hospital", "Cork", 420),
    ("Northgate Clinic", "Cork", 85),
    ("Hillcrest Hospital", "Porto", 240),
]
VISITS = [  # id, patient, hospital, date
    ("E-1", "PT-1", "St. Brigid Hospital", "2024-03-02"),
    ("E-2", "PT-1", "Northgate Clinic", "2024-05-17"),
    ("E-3", "PT-1", "Hillcrest Hospital", "2023-03-09"),
    ("E-4", "PT-2", "St. Brigid Hospital", "2024-03-28"),
    ("E-5", "PT-3", "Hillcrest Hospital", "2024-11-30"),
]


CONDITIONS = [("Asthma", "J45"), ("Eczema", "L30"), ("Migraine", "G43"), ("Atrial fibrillation", "I48")]


def script() -> str:
    lines = ["CREATE (:Medication {name: 'Ibuprofen'});"]
    lines += [f"CREATE (:Condition {{description: '{d}', icd10: '{c}'}});" for d, c in CONDITIONS]
    for pid, first, last, severity in PATIENTS:
        lines.append(f"CREATE (:Patient {{patientId: '{pid}', firstName: '{first}', lastName: '{last}'}});")
        if severity:
            lines.append(
                f"MATCH (p:Patient {{patientId: '{pid}'}}), (m:Medication {{name: 'Ibuprofen'}}) "
                f"CREATE (p)-[:ALLERGIC_TO {{severity: '{severity}'}}]->(m);"
            )
    lines += [f"CREATE (:Hospital {{name: '{n}', city: '{c}', beds: {b}}});" for n, c, b in HOSPITALS]
    for eid, pid, hospital, date in VISITS:
        lines.append(f"CREATE (:Encounter {{encounterId: '{eid}', date: '{date}'}});")
        lines.append(
            f"MATCH (p:Patient {{patientId: '{pid}'}}), (e:Encounter {{encounterId: '{eid}'}}) "
            "CREATE (p)-[:HAD_ENCOUNTER]->(e);"
        )
        lines.append(
            f"MATCH (e:Encounter {{encounterId: '{eid}'}}), (h:Hospital {{name: '{hospital}'}}) "
            "CREATE (e)-[:TOOK_PLACE_AT]->(h);"
        )
        lines.append(
            f"MATCH (e:Encounter {{encounterId: '{eid}'}}), (c:Condition {{description: 'Asthma'}}) "
            "CREATE (e)-[:DIAGNOSED_WITH]->(c);"
        )
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
async def clinic(container: Container) -> Container:
    await container.ingestor.ingest_cypher(NS, script())
    return container


async def test_a_first_and_a_last_name_said_together_name_one_patient(
    clinic: Container, client: httpx.AsyncClient
) -> None:
    """ "Olga Moreau": two patients are named Olga and two Moreau; only PT-1 is both (three visits)."""
    links = await clinic.deps.linker.link(NS, "How many encounters did Olga Moreau have?")
    assert [(x.name, x.key, x.also) for x in links] == [("Olga", "firstName", (("lastName", "Moreau"),))]
    trace = await ask(client, NS, "How many encounters did Olga Moreau have?")
    assert 'lastName: "Moreau"' in trace["query"] and values(trace) == [3]


def test_values_only_a_space_parts_are_joined_and_others_are_not() -> None:
    q = "Is Olga Moreau in Cork?"
    olga = EntityLink("Olga", "Olga", ["Patient"], "firstName", 9.0, "exact", (3, 7))
    moreau = EntityLink("Moreau", "Moreau", ["Patient"], "lastName", 11.0, "exact", (8, 14))
    cork = EntityLink("Cork", "Cork", ["Hospital"], "city", 9.0, "exact", (18, 22))
    (one, other) = joined(q, [moreau, olga, cork])
    assert (one.name, one.also, one.span, one.mention, other) == (
        "Olga",
        (("lastName", "Moreau"),),
        (3, 14),
        "Olga Moreau",
        cork,
    )
    apart = EntityLink("Moreau", "Moreau", ["Patient"], "lastName", 11.0, "exact", (18, 24))
    assert len(joined("Is Olga or Moreau here?", [olga, apart])) == 2  # a word between: two mentions
    anchor = Anchor("Olga", "Patient", "firstName", display="patientId", also=(("lastName", "Moreau"),))
    assert anchor.node("x1") == '(x1:Patient {firstName: "Olga", lastName: "Moreau"})'


async def test_a_small_labels_shared_value_is_a_category(clinic: Container, client: httpx.AsyncClient) -> None:
    """Three hospitals, two in Cork: ``city`` is categorical though most of its values are one hospital's."""
    profile = await clinic.profiler.get(NS)
    assert profile.labels["Hospital"].categorical == ["city"]
    trace = await ask(client, NS, "What is the average number of beds of hospitals in Cork?")
    assert 'city: "Cork"' in trace["query"] and values(trace) == [pytest.approx(252.5)]


async def test_a_month_with_its_year_narrows_a_date(clinic: Container, client: httpx.AsyncClient) -> None:
    lits = question_literals("How many encounters were there before Sept. 2024 or in March of 2023?")
    assert lits.months == {2024.0: (9, "Sept"), 2023.0: (3, "March")} and 2024.0 in lits.numbers
    trace = await ask(client, NS, "Which encounters happened in March 2024?")
    assert '"2024-03"' in trace["query"] and sorted(values(trace, "encounterId")) == ["E-1", "E-4"]


async def test_a_lower_case_value_before_its_relationships_word(clinic: Container, client: httpx.AsyncClient) -> None:
    """ "a severe allergy": ``severity`` "severe" on ``ALLERGIC_TO`` (one lower-case word is a value only where a word
    for the relationship follows it)."""
    trace = await ask(client, NS, "Which patients have a severe allergy?")
    assert '"severe"' in trace["query"]
    assert sorted(tuple(row.values()) for row in trace["rows"]) == [("Ana", "Ryan"), ("Olga", "Moreau")]


async def test_a_small_labels_code_names_its_node(clinic: Container, client: httpx.AsyncClient) -> None:
    """Four conditions, each with its own ICD-10 code: too few values for uniqueness to say "identifier" by itself,
    but codes, and every node was read: the code is the label's id, a question names the condition by it, and the
    condition it asks for is its description."""
    profile = await clinic.profiler.get(NS)
    assert profile.labels["Condition"].id == "icd10" and profile.labels["Hospital"].id is None
    trace = await ask(client, NS, "Which condition has the code I48?")
    assert 'icd10: "I48"' in trace["query"] and values(trace) == ["Atrial fibrillation"]


async def test_a_small_labels_name_in_lower_case(clinic: Container) -> None:
    """ "asthma" names the condition Asthma (one of a handful of conditions) though the question names a hospital by
    its capitals too."""
    q = "Which patients were diagnosed with asthma at St. Brigid Hospital?"
    links = await clinic.deps.linker.link(NS, q)
    assert {(x.name, x.key) for x in links} == {("Asthma", "description"), ("St. Brigid Hospital", "name")}


async def test_patients_are_named_by_their_first_and_last_names(clinic: Container, client: httpx.AsyncClient) -> None:
    """A patient is shown by ``patientId`` (the only property unique to each) but named by a first and a last name
    (``LabelProfile.parts``): the patients a question asks for are named by both."""
    profile = await clinic.profiler.get(NS)
    assert profile.labels["Patient"].display == "patientId"
    assert profile.labels["Patient"].parts == ["firstName", "lastName"] and profile.labels["Hospital"].parts == []
    trace = await ask(client, NS, "Which patients are allergic to Ibuprofen?")
    assert "x2.firstName AS firstName, x2.lastName AS lastName" in trace["query"], trace["query"]
    assert sorted(tuple(row.values()) for row in trace["rows"]) == [
        ("Ana", "Ryan"),
        ("Olga", "Moreau"),
        ("Olga", "Santos"),
    ]
