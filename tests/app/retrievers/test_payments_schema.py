"""A small payments graph none of the service's code names (what ``data/payments`` showed, session 53): money moves
between accounts on the relationship itself (``TRANSFERRED_TO`` with an ``amount``, twice between the same two
accounts), customers own accounts held at banks. "from X" starts a relationship named for where it goes and "to X"
ends it; a count of what the question names by a relationship's word counts the relationships, not the nodes they
reach (unless the word is a noun for the doer: "followers"); a plural noun is no modifier of the noun after it
("which customers bank with X": "bank" is a verb there, the customers are asked for)."""

from __future__ import annotations

import httpx
import pytest

from app.container import Container
from app.cypher.candidates import Anchor, CandidateQuery, Hop
from app.cypher.shapes import Shape
from app.text2cypher.answer_form import counts_edges
from app.text2cypher.asks import asked_kind
from app.text2cypher.question import question_literals
from tests.app.retrievers.asking import ask, values

NS = "payments_schema"
ACCOUNTS = [("ACC-1", "Aino Laine", "Nordlys Bank"), ("ACC-2", "Kestrel Logistics", "Nordlys Bank")]
ACCOUNTS += [("ACC-3", "Marta Sousa", "Hansa Bank"), ("ACC-4", "Marta Sousa", "Hansa Bank")]
TRANSFERS = [("ACC-1", "ACC-2", 100.0), ("ACC-1", "ACC-2", 250.0), ("ACC-3", "ACC-2", 40.0), ("ACC-2", "ACC-1", 7.5)]


def script() -> str:
    lines = [f"CREATE (:Bank {{bankName: '{b}'}});" for b in ("Nordlys Bank", "Hansa Bank")]
    lines += [f"CREATE (:Customer {{name: '{c}'}});" for c in ("Aino Laine", "Kestrel Logistics", "Marta Sousa")]
    for number, owner, bank in ACCOUNTS:
        lines.append(f"CREATE (:Account {{accountNumber: '{number}'}});")
        lines.append(
            f"MATCH (c:Customer {{name: '{owner}'}}), (a:Account {{accountNumber: '{number}'}}) "
            "CREATE (c)-[:OWNS]->(a);"
        )
        lines.append(
            f"MATCH (a:Account {{accountNumber: '{number}'}}), (b:Bank {{bankName: '{bank}'}}) "
            "CREATE (a)-[:HELD_AT]->(b);"
        )
    for src, dst, amount in TRANSFERS:
        lines.append(
            f"MATCH (a:Account {{accountNumber: '{src}'}}), (b:Account {{accountNumber: '{dst}'}}) "
            f"CREATE (a)-[:TRANSFERRED_TO {{amount: {amount}}}]->(b);"
        )
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
async def payments(container: Container) -> Container:
    await container.ingestor.ingest_cypher(NS, script())
    return container


async def test_from_x_starts_a_relationship_named_for_where_it_goes(
    payments: Container, client: httpx.AsyncClient
) -> None:
    trace = await ask(client, NS, "What is the total amount transferred from account ACC-1?")
    assert values(trace) == [pytest.approx(350.0)]
    trace = await ask(client, NS, "What is the total amount transferred to account ACC-1?")
    assert values(trace) == [pytest.approx(7.5)]


async def test_a_count_of_transfers_counts_the_transfers(payments: Container, client: httpx.AsyncClient) -> None:
    """ACC-2 received three transfers from two accounts."""
    trace = await ask(client, NS, "How many transfers did account ACC-2 receive?")
    assert "count(r" in trace["query"] and values(trace) == [3]


def test_a_noun_for_the_doer_counts_the_doers() -> None:
    path = CandidateQuery(Anchor("ana", "Member", "handle"), (Hop("FOLLOWS", "in", "Member", "handle"),))
    follows = Shape(path, 2, "count")
    assert not counts_edges(follows, question_literals("How many followers does ana have?"))
    assert counts_edges(follows, question_literals("How many follows does ana have?"))
    acted = Shape(
        CandidateQuery(Anchor("X", "Person", "name"), (Hop("ACTED_IN", "out", "Movie", "title"),)), 2, "count"
    )
    assert not counts_edges(acted, question_literals("How many movies did X act in?"))


async def test_a_plural_noun_modifies_no_noun_after_it(payments: Container, client: httpx.AsyncClient) -> None:
    profiles = await payments.retrievers["text2cypher"].enumerator.profiles.get(
        NS, await payments.retrievers["text2cypher"].enumerator.schema(NS)
    )
    lits = question_literals("Which customers bank with Hansa Bank?")
    asked_kind(lits, profiles)
    assert lits.kind_head == "customers"
    trace = await ask(client, NS, "Which customers bank with Hansa Bank?")
    assert values(trace) == ["Marta Sousa"]
