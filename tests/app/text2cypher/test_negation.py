"""Conditions a question states without a constant: a boolean property true or false, a property some nodes lack
there or missing, a count that is zero; and constants stated in words (numbers, signs, years of a Unix time). Read
off a small help-desk graph of made-up names (a ``Ticket`` with a boolean ``is_resolved``, a ``reply_count`` that may
be zero, an ``escalation_code`` some tickets lack)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from app.cypher.candidates import Anchor, CandidateQuery, Hop
from app.cypher.shapes import ABSENT, EXISTS, Filter, Shape
from app.retrievers.text2cypher import Text2CypherRetriever
from app.retrievers.types import RetrievalQuery
from app.text2cypher import lexicon
from app.text2cypher.conditions import negates_again, redundant, stated, year_filter
from app.text2cypher.profiles import Property
from app.text2cypher.question import question_literals
from app.text2cypher.reading import flag_text, reading

NS = "helpdesk"
EN = lexicon.load()
DESK = """
CREATE (a:Agent {handle: 'Orla Quenby'}), (b:Agent {handle: 'Ivo Strand'}),
       (t1:Ticket {subject: 'Printer jams on tray two', is_resolved: true, reply_count: 3, escalation_code: 'E-7'}),
       (t2:Ticket {subject: 'VPN drops at noon', is_resolved: false, reply_count: 0}),
       (t3:Ticket {subject: 'Badge reader offline', is_resolved: false, reply_count: 2, escalation_code: 'E-2'}),
       (t4:Ticket {subject: 'Mailbox quota warning', is_resolved: true, reply_count: 0}),
       (a)-[:HANDLED]->(t1), (a)-[:HANDLED]->(t2), (b)-[:HANDLED]->(t3), (b)-[:HANDLED]->(t4)
"""
TICKET = Anchor(None, "Ticket", "subject")
RESOLVED = Property("Ticket", "is_resolved", "bool", values=(True, False))
REPLIES = Property("Ticket", "reply_count", "number", 0, 3, (3, 0, 2, 0))
CODE = Property("Ticket", "escalation_code", "text", values=("E-7", "E-2"), partial=True)
ACCEPTED_REPLY = Property("Ticket", "accepted_reply_id", "number", 10, 90, (10, 90), partial=True)


def test_a_negation_governs_the_words_after_it() -> None:
    lits = question_literals("Which tickets were not resolved but have replies?")
    assert lits.negated == ["resolved"] and "replies" in lits.affirmed
    assert question_literals("List tickets without an escalation code.").negated == ["escalation", "code"]
    assert question_literals("Find the tickets with zero replies.").negated == ["replies"]
    assert question_literals("Which agents handled no fewer than 2 tickets?").negated == []  # a comparison


def test_conditions_stated_without_a_constant() -> None:
    def conds(question: str) -> set[Filter]:
        return set(stated([RESOLVED, REPLIES, CODE], question_literals(question)))

    assert conds("Which tickets are resolved?") == {Filter(0, "is_resolved", "=", True)}
    assert conds("Which tickets were not resolved?") == {Filter(0, "is_resolved", "=", False)}
    assert conds("List tickets without an escalation code.") == {Filter(0, "escalation_code", ABSENT, None)}
    assert conds("List tickets with an escalation code.") == {Filter(0, "escalation_code", EXISTS, None)}
    assert conds("Find the tickets with no replies.") == {Filter(0, "reply_count", "=", 0)}
    assert conds("Which tickets have the most replies?") == set()  # a measure named, nothing negated
    assert conds("Find the tickets with a reply count of zero.") == set()  # a constant: ``conditions`` takes it
    assert question_literals("Find the tickets with a reply count of zero.").ops[0.0] == "="


def test_a_prefix_negates_the_rest_of_its_word() -> None:
    """ "unresolved tickets" are the tickets not resolved, "unreplied" ones have no replies (the lexicon's
    ``negating_prefix``); "unique" or "United" negate nothing a schema names."""

    def conds(question: str) -> set[Filter]:
        return set(stated([RESOLVED, REPLIES, CODE], question_literals(question)))

    lits = question_literals("Which tickets are unresolved?")
    assert lits.negated == ["resolved"] and "unresolved" not in lits.affirmed
    assert conds("Which tickets are unresolved?") == {Filter(0, "is_resolved", "=", False)}
    assert conds("List the unreplied tickets.") == {Filter(0, "reply_count", "=", 0)}
    assert conds("List the unique subjects of tickets handled in the United Kingdom.") == set()
    assert conds("Which tickets are resolved?") == {Filter(0, "is_resolved", "=", True)}


def test_a_shape_states_no_more_negations_than_the_question() -> None:
    """ "tickets with no escalation code" lack the code; a second negation beside it (no replies, not resolved) says
    what the question does not; a question with two negations takes two."""
    tickets = CandidateQuery(TICKET, ())
    lacks_code = Filter(1, "escalation_code", ABSENT, None)
    lits = question_literals("Which tickets have no escalation code?")
    assert lits.negations == 1
    s = Shape(tickets, 1, "list", filters=(lacks_code,))
    assert negates_again(s, Filter(1, "reply_count", "=", 0), lits)
    assert negates_again(s, Filter(1, "is_resolved", "=", False), lits)
    assert not negates_again(s, Filter(1, "is_resolved", "=", True), lits)
    assert not negates_again(Shape(tickets, 1, "list"), lacks_code, lits)
    two = question_literals("Which tickets have no escalation code and are unresolved?")
    assert two.negations == 2 and not negates_again(s, Filter(1, "is_resolved", "=", False), two)
    zero = question_literals("Which tickets have 0 replies and no escalation code?")
    assert not negates_again(Shape(tickets, 1, "list", filters=(Filter(1, "reply_count", "=", 0),)), lacks_code, zero)


def test_a_negation_speaks_of_the_property_its_words_name_best() -> None:
    """Of the properties a negation's words name, the one whose words they name most and that leaves fewest of its
    own words unsaid (a measure word such as "count" goes without saying): "no replies" is ``reply_count`` zero,
    "without an accepted reply" ``accepted_reply_id`` missing."""

    def conds(question: str) -> set[Filter]:
        return set(stated([REPLIES, ACCEPTED_REPLY], question_literals(question)))

    assert conds("Find the tickets with no replies.") == {Filter(0, "reply_count", "=", 0)}
    assert conds("Find the tickets without an accepted reply.") == {Filter(0, "accepted_reply_id", ABSENT, None)}
    # a property that has a value condition cannot also be missing; a flag's True is no number 1
    assert redundant(Filter(1, "escalation_code", "=", "E-7"), Filter(1, "escalation_code", ABSENT, None))
    assert not redundant(Filter(1, "is_resolved", "=", True), Filter(1, "reply_count", "=", 1))
    assert redundant(Filter(1, "subject", "=", "VPN drops"), Filter(1, "subject", "=", "Badge reader offline"))


def test_flags_and_missing_properties_read_and_run_as_cypher() -> None:
    assert flag_text("is_resolved", False, EN) == "is not resolved"
    assert flag_text("archived", False, EN) == "not archived"
    s = Shape(CandidateQuery(TICKET, ()), 1, "list", filters=(Filter(1, "is_resolved", "=", False),))
    assert "WHERE x1.is_resolved = false" in s.text and "ticket is not resolved" in reading(s, EN)
    s = Shape(CandidateQuery(TICKET, ()), 1, "list", filters=(Filter(1, "escalation_code", ABSENT, None),))
    assert "WHERE x1.escalation_code IS NULL" in s.text and "without an escalation code" in reading(s, EN)


async def test_negated_questions_on_a_graph(t2c: Text2CypherRetriever) -> None:
    """The conditions are among the candidates, run, and select what the question says."""
    await t2c.deps.graph.execute(NS, DESK)
    t2c.invalidate(NS)
    try:
        profiles = await t2c.profiles.get(NS, await t2c.schema(NS))
        kinds = {p.key: p.kind for p in profiles.labels["Ticket"].properties}
        assert kinds["is_resolved"] == "bool" and kinds["reply_count"] == "number"

        async def rows(question: str, where: str) -> list[Any]:
            e = await t2c.enumerate(NS, question)
            chosen = [c for c in e.candidates if isinstance(c, Shape) and c.kind == "list" and where in c.text]
            assert chosen, [c.text for c in e.candidates][:20]
            got = await t2c.deps.graph.read(NS, chosen[0].execution_query(), {"limit": 10})
            return sorted(str(r["name"]) for r in got)

        unresolved = ["Badge reader offline", "VPN drops at noon"]
        assert await rows("Which tickets were not resolved?", "x1.is_resolved = false") == unresolved
        assert await rows("Which tickets are resolved?", "x1.is_resolved = true") == [
            "Mailbox quota warning",
            "Printer jams on tray two",
        ]
        assert await rows("List the tickets without an escalation code.", "x1.escalation_code IS NULL") == [
            "Mailbox quota warning",
            "VPN drops at noon",
        ]
        assert await rows("Find the tickets with no replies.", "x1.reply_count = 0") == [
            "Mailbox quota warning",
            "VPN drops at noon",
        ]
        res = await t2c.retrieve(RetrievalQuery(question="Which tickets were not resolved?", namespace=NS))
        assert res.trace.query is not None and "is_resolved = false" in res.trace.query
    finally:
        await t2c.deps.graph.execute(NS, "MATCH (n) DETACH DELETE n")
        t2c.invalidate(NS)


def test_number_words_signs_and_years_of_unix_time() -> None:
    """ "more than two replies" compares with 2; "a negative score" with 0; a year said of a Unix time reads as the
    year it is, not as the seconds it holds."""
    lits = question_literals("Which tickets have more than two replies?")
    assert 2.0 in lits.numbers and lits.ops[2.0] == ">"
    lits = question_literals("Which replies have a negative score?")
    assert 0.0 in lits.numbers and lits.ops[0.0] == "<"
    opened = Property("Ticket", "opened", "number", 1.58e9, 1.64e9, (1587740000, 1609459300))
    lits = question_literals("List the tickets opened before 2021.")
    f = year_filter(opened, "<", 2021, lits)
    assert f.cypher() == "x0.opened < 1609459200" and f.said is not None and "2021" in f.said
    ticket = Shape(CandidateQuery(TICKET, ()), 1, "list", filters=(replace(f, var=1),))
    assert "2021" in reading(ticket, EN) and "1609459200" not in reading(ticket, EN)


async def test_the_answer_is_the_best_query_that_finds_something(t2c: Text2CypherRetriever, monkeypatch: Any) -> None:
    """Execution-guided: where the best-ranked query finds nothing and the next finds rows, the next answers (the
    trace says which); where none finds anything, the best one's empty answer stands."""
    await t2c.deps.graph.execute(NS, DESK)
    t2c.invalidate(NS)
    read = t2c.deps.graph.read
    refused: set[str] = set()

    async def reads(ns: str, cypher: str, *args: Any, **kw: Any) -> list[Any]:
        return [] if cypher in refused else await read(ns, cypher, *args, **kw)

    monkeypatch.setattr(t2c.deps.graph, "read", reads)
    question = RetrievalQuery(question="Which tickets were not resolved?", namespace=NS)
    try:
        first = await t2c.retrieve(question)
        assert first.trace.answered_rank == 0 and first.trace.rows and len(first.trace.ranked) > 1
        e = await t2c.enumerate(NS, question.question)
        by_text = {c.text: c for c in e.candidates}
        refused.add(by_text[first.trace.ranked[0].query].execution_query())
        second = await t2c.retrieve(question)
        assert second.trace.answered_rank == 1 and second.trace.rows and second.trace.query != first.trace.query
        refused.update(by_text[r.query].execution_query() for r in second.trace.ranked)
        none = await t2c.retrieve(question)
        assert all(x.rows == 0 for x in none.trace.executed) and none.trace.answered_rank == 0
        assert none.trace.query == first.trace.query
    finally:
        await read(NS, "MATCH (n) RETURN count(n)")
        await t2c.deps.graph.execute(NS, "MATCH (n) DETACH DELETE n")
        t2c.invalidate(NS)


async def test_the_ends_of_a_stated_span_bound_it_together() -> None:
    """ "between 1 and 3 replies" is one condition, the span; neither end is a value of its own (a ticket with 3
    replies, more than 1 reply), which would name the property twice."""
    from app.text2cypher.conditions import conditions
    from app.text2cypher.profiles import LabelProfile, Profiles

    profiles = Profiles({"Ticket": LabelProfile("Ticket", "subject", [REPLIES])})
    lits = question_literals("Which tickets have a reply count between 1 and 3?")
    found = (await conditions(None, NS, profiles, lits))[("Ticket", False)]  # type: ignore[arg-type]
    assert found == [Filter(0, "reply_count", "range", (1, 4))]
    # a number apart from the span is still a value ("more than 2 replies" beside a span of years elsewhere)
    apart = question_literals("Which tickets have more than 2 replies?")
    assert (await conditions(None, NS, profiles, apart))[("Ticket", False)] == [Filter(0, "reply_count", ">", 2)]


def test_what_a_node_lacks_is_named_by_the_type_else_by_the_other_end() -> None:
    """ "Tickets nobody handled" lack ``HANDLED`` (its type named); "agents without tickets" lack a relationship to
    a ``Ticket`` (the other end named) unless the negated words state a condition on a property of their own; the
    lack reads as Cypher each way round, and never beside the relationship the pattern takes there."""
    from app.cypher.shapes import UNLINKED
    from app.text2cypher.conditions import takes, unlinked
    from app.text2cypher.profiles import LabelProfile, Profiles

    profiles = Profiles(
        {"Ticket": LabelProfile("Ticket", "subject", []), "Agent": LabelProfile("Agent", "handle", [])},
        links={("Agent", "HANDLED", "Ticket"), ("Agent", "MENTORS", "Agent")},
    )
    handled = Filter(0, "HANDLED", UNLINKED, ("in", "Agent"))
    assert unlinked("Ticket", profiles, question_literals("Which tickets has nobody handled?")) == [handled]
    lits = question_literals("Which agents have no tickets?")
    assert unlinked("Agent", profiles, lits) == [Filter(0, "HANDLED", UNLINKED, ("out", "Ticket"))]
    assert unlinked("Agent", profiles, lits, by_label=False) == []
    assert unlinked("Agent", profiles, question_literals("Which agents have tickets?")) == []
    assert replace(handled, var=1).cypher() == "NOT (x1)<-[:HANDLED]-(:Agent)"
    assert Filter(2, "MENTORS", UNLINKED, ("out", "Agent")).cypher() == "NOT (x2)-[:MENTORS]->(:Agent)"
    path = CandidateQuery(Anchor(None, "Agent", "handle"), (Hop("HANDLED", "out", "Ticket", "subject"),))
    assert takes(Shape(path, 2, "list"), replace(handled, var=2))  # the handled tickets, handled by no agent
    assert not takes(Shape(path, 2, "list"), Filter(1, "HANDLED", UNLINKED, ("in", "Agent")))
