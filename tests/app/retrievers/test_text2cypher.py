"""Grounded text2cypher: enumeration on the demo graph, execution semantics on any engine, the constraint under
random weights, and the HTTP mode."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.container import Container
from app.cypher.candidates import Anchor, CandidateQuery, Hop
from app.cypher.shapes import Shape
from app.errors import DependencyTimeoutError
from app.llm.local import LocalLLM
from app.retrievers.base import RunContext
from app.retrievers.text2cypher import Enumeration, Text2CypherRetriever, Text2CypherTrace
from app.retrievers.types import RetrievalQuery
from app.text2cypher.answer_form import answer_form
from app.text2cypher.features import FEATURES
from app.text2cypher.preview import example_values
from app.text2cypher.question import question_literals
from app.training.ranker import Group
from tests.conftest import DEMO, SABLE, SABLE_ANSWERED, tiny_llama


async def test_enumeration_on_the_demo_graph(t2c: Text2CypherRetriever) -> None:
    links, found, truncated = await t2c.candidates("demo", "Which manufacturer built the Sable Class?")
    assert links[0].name == "Sable Class" and links[0].method == "exact"
    cands = [c for c in found if isinstance(c, CandidateQuery)]  # the paths (shapes: tests/.../test_shapes.py)
    texts = [c.text for c in cands]
    assert SABLE in texts and not truncated
    assert len(texts) == len(set(texts))
    # read off the data: almost every candidate returns something (a few lose their rows to the guards that stop
    # an edge being used twice), and every relationship of the entity starts one
    returning = [bool(await t2c.deps.graph.read("demo", c.execution_query(), {"limit": 1})) for c in cands]
    assert sum(returning) >= 0.9 * len(cands)
    first = {(c.hops[0].rel_type, c.hops[0].direction) for c in cands}
    assert first == {("DESIGNED_BY", "out"), ("MANUFACTURED_BY", "out"), ("ASSIGNED_TO", "out")}
    two_hop = [c for c in cands if len(c.hops) == 2]
    assert two_hop and max(len(c.hops) for c in cands) <= 3


async def test_relevance_ranks_the_path_a_question_names(t2c: Text2CypherRetriever) -> None:
    """The cross-encoder reads each path as a question phrases it; on the demo's 2-hop questions the intended
    path is the most relevant one (the LLM's choice is combined with this)."""
    e = await t2c.enumerate("demo", "In which city was the designer of the Curlew Class born?")
    assert e.relevance is not None and len(e.relevance) == len(e.candidates) == len(e.readings)
    best = max(range(len(e.candidates)), key=lambda i: e.relevance[i])  # type: ignore[index]
    assert [h.rel_type for h in e.candidates[best].hops] == ["DESIGNED_BY", "BORN_IN"]
    assert e.readings[best] == "born in of designed by of Curlew Class (city)"  # labelled: no example answers


async def test_the_preview_reads_example_answers_into_the_readings_of_unlabelled_paths(
    t2c: Text2CypherRetriever, container: Container, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a graph without labels the ``preview_candidates`` most relevant paths run for a few rows; those with answers
    are read again with ``answer_examples`` of them and rescored. Where the answers have a label, nothing is."""
    await container.ingestor.ingest_path("bare", "metaqa", DEMO / "kg.txt")  # the demo KG, no labels file
    q = "Which manufacturer built the Sable Class?"
    monkeypatch.setattr(t2c, "config", t2c.config.model_copy(update={"answer_examples": 0}))
    plain = await t2c.enumerate("bare", q)  # no preview
    assert plain.relevance is not None and not any(", such as " in r for r in plain.readings)
    monkeypatch.setattr(t2c, "config", t2c.config.model_copy(update={"preview_candidates": 3, "answer_examples": 1}))
    e = await t2c.enumerate("bare", q)
    assert e.relevance is not None and [c.text for c in e.candidates] == [c.text for c in plain.candidates]
    shown = [i for i, r in enumerate(e.readings) if ", such as " in r]
    assert 1 <= len(shown) <= 3 and all(e.readings[i].count(",") == 1 for i in shown)
    built = next(i for i, c in enumerate(e.candidates) if c.text.endswith("[:MANUFACTURED_BY]->(x2) RETURN x2.name"))
    assert e.readings[built] == "manufactured by of Sable Class, such as Ossendale Engine Works"
    changed = [i for i in range(len(e.candidates)) if e.relevance[i] != plain.relevance[i]]
    assert changed and set(changed) <= set(shown)  # only the previewed readings were scored again
    labelled = await t2c.enumerate("demo", q)
    assert not any(", such as " in r for r in labelled.readings)


def test_example_values_are_distinct_names_or_first_columns() -> None:
    rows = [{"name": "a_b", "v2": 1}, {"name": "a_b"}, {"name": None}, {"name": "c"}, {"name": "d"}]
    assert example_values(rows, 2) == ["a b", "c"]
    assert example_values([{"count": 7}], 2) == ["7"] and example_values([], 2) == []


async def test_the_expand_beam_bounds_enumeration(t2c: Text2CypherRetriever, monkeypatch: pytest.MonkeyPatch) -> None:
    full = await t2c.enumerate("demo", "Which manufacturer built the Sable Class?")
    monkeypatch.setattr(t2c, "config", t2c.config.model_copy(update={"expand_beam": 1}))
    narrow = await t2c.enumerate("demo", "Which manufacturer built the Sable Class?")
    paths = [{c.text for c in e.candidates if isinstance(c, CandidateQuery)} for e in (full, narrow)]
    assert narrow.unextended > 0 and len(paths[1]) < len(paths[0])
    assert paths[1] <= paths[0] and SABLE in paths[1]


async def test_path_extensions_keep_to_the_question_budget(
    t2c: Text2CypherRetriever, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Extension reads share one budget per question: once it is spent, no further read is made (the paths stay
    candidates, unextended, and a warning says so); the paths found before stay."""
    graph = t2c.enumerator.graph
    read = graph.read
    made: list[float] = []

    async def slow(namespace: str, query: str, *args: Any, **kwargs: Any) -> Any:
        if " AS out" in query:  # an extension read: a graph that takes its time
            made.append(kwargs["timeout_s"])
            await asyncio.sleep(0.3)
        return await read(namespace, query, *args, **kwargs)

    monkeypatch.setattr(graph, "read", slow)
    monkeypatch.setattr(t2c, "config", t2c.config.model_copy(update={"extension_budget_s": 0.4}))
    ctx = RunContext(mode="text2cypher", trace=Text2CypherTrace())
    t0 = time.monotonic()
    e = await t2c.enumerate("demo", "Which manufacturer built the Sable Class?", ctx)
    assert time.monotonic() - t0 < 5
    assert made and all(t <= 0.4 for t in made) and e.unextended > 0
    assert any("not extended" in w for w in ctx.warnings)
    assert SABLE in {c.text for c in e.candidates}  # the one-hop path, read within the budget


async def test_the_next_level_is_read_while_the_cross_encoder_reads_this_one(
    t2c: Text2CypherRetriever, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A level of paths the beam keeps whole is extended whatever its scores: its extension reads start while the
    cross-encoder scores it, and the longer paths still come in its scores' order (the best path's first)."""
    graph, enumerator = t2c.enumerator.graph, t2c.enumerator
    read = graph.read
    events: list[str] = []
    slow: list[float] = []  # how long an extension read takes (none, then 2 s)

    async def reads(namespace: str, query: str, *args: Any, **kwargs: Any) -> Any:
        if " AS out" in query:  # an extension read
            events.append("read")
            await asyncio.sleep(sum(slow))
        return await read(namespace, query, *args, **kwargs)

    async def scores(question: str, texts: list[str], ctx: Any) -> list[float]:
        events.append("scoring")
        await asyncio.sleep(0.2)  # a cross-encoder at work
        events.append("scored")
        return [float(i) for i in range(len(texts))]  # the last read the most relevant: the reverse order

    monkeypatch.setattr(graph, "read", reads)
    monkeypatch.setattr(enumerator, "rerank", scores)
    monkeypatch.setattr(t2c, "config", t2c.config.model_copy(update={"shapes": False, "answer_examples": 0}))
    e = await t2c.enumerate("demo", "Which manufacturer built the Sable Class?")
    first = events.index("scoring")  # the one-hop paths
    assert events[first + 1] == "read" and events.index("scored") > first + 1
    paths = [c for c in e.candidates if isinstance(c, CandidateQuery)]
    one = [c for c in paths if len(c.hops) == 1]
    two = [c.hops[0] for c in paths if len(c.hops) == 2]
    assert len(one) > 1 and two
    parents = list(dict.fromkeys(two))
    assert parents == [c.hops[0] for c in reversed(one) if c.hops[0] in parents]

    async def broken(question: str, texts: list[str], ctx: Any) -> list[float]:
        await asyncio.sleep(0.05)
        raise RuntimeError("the scorer broke")

    monkeypatch.setattr(enumerator, "rerank", broken)  # an error while the next level's (slow) reads are under way
    slow.append(2.0)
    with pytest.raises(RuntimeError):
        await t2c.enumerate("demo", "Which manufacturer built the Sable Class?")
    await asyncio.sleep(0.05)
    assert not [t for t in asyncio.all_tasks() if "_extend" in repr(t.get_coro())]  # they were called off


async def test_answers_never_include_the_linked_entity(t2c: Text2CypherRetriever) -> None:
    """Lines through the city where Selvane Main Line's operator is headquartered: the path comes back to the line
    itself through distinct edges (relationship uniqueness does not stop it); the executed query excludes it."""
    line = Anchor("Selvane Main Line", "RailwayLine")
    hops = (Hop("OPERATED_BY", "out", "RailwayCompany"), Hop("HEADQUARTERED_IN", "out", "City"))
    c = CandidateQuery(line, (*hops, Hop("CONNECTS", "in", "RailwayLine")))
    bare = c.match_clause() + " RETURN x4.name AS name"
    assert "Selvane Main Line" in {r["name"] for r in await t2c.deps.graph.read("demo", bare)}
    names = {r["name"] for r in await t2c.deps.graph.read("demo", c.execution_query(), {"limit": 100})}
    assert names and "Selvane Main Line" not in names


async def test_no_edge_is_used_twice_on_any_engine(t2c: Text2CypherRetriever) -> None:
    """Cities of the other lines run by Selvane Main Line's operator. FalkorDB, unlike Neo4j, lets the bare pattern
    re-use the OPERATED_BY edge (x3 = the line itself, adding Halvenmoor); the executed query names the edges and
    excludes that, so both engines answer the same: Sorrelby Branch's cities only."""
    line = Anchor("Selvane Main Line", "RailwayLine")
    op = Hop("OPERATED_BY", "out", "RailwayCompany")
    c = CandidateQuery(line, (op, Hop("OPERATED_BY", "in", "RailwayLine"), Hop("CONNECTS", "out", "City")))
    assert "r1 <> r2" in c.where_clause() and "x3 <> x1" in c.where_clause()
    names = {r["name"] for r in await t2c.deps.graph.read("demo", c.execution_query(), {"limit": 100})}
    assert names == {"Whitleven", "Sorrelby"}
    counted = (await t2c.deps.graph.read("demo", c.count_query(), {"gold": ["Sorrelby", "Halvenmoor"]}))[0]
    assert (counted["total"], counted["hits"]) == (2, 1)


@pytest.fixture
def random_chooser(t2c: Text2CypherRetriever, container: Container) -> Iterator[LocalLLM]:
    """The real LocalLLM code path with a tiny randomly initialised model and the real tokenizer."""

    real = container.llm
    assert isinstance(real, LocalLLM)
    tok = real.tokenizer
    fake = LocalLLM(None, models_dir=real.models_dir)
    fake.tokenizer = tok
    saved = t2c.chooser
    t2c.chooser = fake
    try:
        yield fake
    finally:
        t2c.chooser = saved
        fake._executor.shutdown()


@pytest.mark.parametrize(
    ("scoring", "method"),
    [("llm", "exact"), ("llm", "best_first"), ("llm", "beam"), ("llm", "greedy"), ("combined", "exact")],
)
async def test_random_weights_only_ever_execute_candidates(
    t2c: Text2CypherRetriever, random_chooser: LocalLLM, scoring: str, method: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    update = {"decoding": method, "scoring": scoring}
    monkeypatch.setattr(t2c, "config", t2c.config.model_copy(update=update))
    questions = [
        "Which manufacturer built the Sable Class?",
        "In which city was the designer of the Curlew Class born?",
        "Which river is crossed by the line that the Lynx Class locomotives are assigned to?",
    ]
    tok = random_chooser.tokenizer
    for seed in range(3):
        random_chooser.model = tiny_llama(len(tok), seed, tok.eos_token_id)
        q = random.Random(seed).choice(questions)
        _, cands, _ = await t2c.candidates("demo", q)
        allowed = {c.text for c in cands}
        # the top one, as the question asks, and a path's names once
        answered = {answer_form(c, question_literals(q)).answer_text for c in cands}
        res = await t2c.retrieve(RetrievalQuery(question=q, namespace="demo", top_k=20))
        trace = res.trace
        assert isinstance(trace, Text2CypherTrace) and trace.decoding == method
        ranked = [r.query for r in trace.ranked]
        executed = [e.query for e in trace.executed]
        assert ranked and set(ranked) <= allowed and set(executed) <= allowed
        assert trace.query in answered and (len(ranked) == 1 if method == "greedy" else len(ranked) >= 1)
        assert all(it.provenance["query"] in allowed for it in res.items)
        if scoring == "combined":  # the LLM scored the most relevant candidates, and both scores are shown
            assert all(r.logprob is not None and r.relevance is not None for r in trace.ranked)


class _TimedOut:
    """A grounded chooser whose model never answers in time (a stalled vLLM worker)."""

    async def choose(self, *args: Any, **kwargs: Any) -> list[Any]:
        raise DependencyTimeoutError("llm_worker", "no answer within 60s")


async def test_a_failed_llm_choice_degrades_to_relevance_and_says_so(
    t2c: Text2CypherRetriever, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cross-encoder's order still answers when the model times out; the result says it is degraded. With no
    relevance to fall back on the error stands."""
    q = "Which manufacturer built the Sable Class?"
    monkeypatch.setattr(t2c, "chooser", _TimedOut())
    monkeypatch.setattr(t2c, "config", t2c.config.model_copy(update={"scoring": "combined"}))
    res = await t2c.retrieve(RetrievalQuery(question=q, namespace="demo", top_k=5))
    trace = res.trace
    assert isinstance(trace, Text2CypherTrace) and trace.ranked[0].query == SABLE and trace.decoding is None
    # "which manufacturer" built it, reached through a relationship: picked out by name (answer_form)
    assert trace.query == SABLE_ANSWERED and trace.rows == [{"name": "Ossendale Engine Works"}]
    assert all(r.logprob is None for r in trace.ranked) and "Ossendale Engine Works" in res.items[0].text
    assert any("LLM's choice failed" in w for w in res.warnings)
    monkeypatch.setattr(t2c, "deps", dataclasses.replace(t2c.deps, reranker=None))
    with pytest.raises(DependencyTimeoutError):
        await t2c.retrieve(RetrievalQuery(question=q, namespace="demo", top_k=5))


class _Sure:
    """A grounded chooser many nats sure of one candidate (a tuned model on a question it never saw the like of)."""

    def __init__(self, logprobs: list[float]) -> None:
        self.logprobs = logprobs

    async def choose(self, messages: Any, candidates: list[str], **kwargs: Any) -> list[Any]:
        from grounded import ScoredCandidate

        return [ScoredCandidate(i, c, lp) for i, (c, lp) in enumerate(zip(candidates, self.logprobs, strict=False))]


async def test_combined_scoring_floors_the_llm_log_prob(
    t2c: Text2CypherRetriever, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The LLM's log-softmax counts down to ``-llm_floor`` at most, so a candidate the question's words favour by
    more than that (in units of the ranker's ``llm`` weight, 0.5 in the bundled default) still wins over one the model
    is sure of."""
    x = Anchor("Sable Class", "LocomotiveClass")
    first, second = (CandidateQuery(x, (Hop(t, "out", "Company"),)) for t in ("BUILT_BY", "OPERATED_BY"))
    e = Enumeration(links=[], candidates=[first, second], readings=["a", "b"], relevance=[3.0, 0.0])
    monkeypatch.setattr(t2c, "chooser", _Sure([-20.0, 0.0]))
    chosen = {}
    for floor in (4.0, 1000.0):
        update = {"scoring": "combined", "llm_floor": floor}
        monkeypatch.setattr(t2c, "config", t2c.config.model_copy(update=update))
        ranked, order, method = await t2c.choose("demo", "Which manufacturer built the Sable Class?", e)
        assert method == "exact" and sorted(order) == [0, 1] and ranked[0].logprob is not None
        chosen[floor] = ranked[0].query
    # 3 - 0.5 * 4 = 1 > 0 with the floor; 3 - 0.5 * 20 < 0 without it
    assert chosen == {4.0: first.text, 1000.0: second.text}


async def test_without_a_namespace_ranker_the_modes_ranker_weighs_the_llm(
    t2c: Text2CypherRetriever, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Where ``tune`` wrote no ``ranker.json`` (``scoring: combined`` set by hand, a model tuned elsewhere), the mode's
    ranker file holds the LLM's weight like any other (the bundled ones: 0.5); a ranker file that gives it none ranks
    without running it, and says so."""
    x = Anchor("Sable Class", "LocomotiveClass")
    first, second = (CandidateQuery(x, (Hop(t, "out", "Company"),)) for t in ("BUILT_BY", "OPERATED_BY"))
    e = Enumeration(links=[], candidates=[first, second], readings=["a", "b"], relevance=[1.0, 0.0])
    monkeypatch.setattr(t2c, "chooser", _Sure([-3.0, 0.0]))
    chosen, decoded, warned = {}, {}, {}
    for name, llm in {"trusts": 1.0, "bundled": None, "ignores": 0.0}.items():
        ranker = "default"
        if llm is not None:
            (tmp_path / f"{name}.json").write_text(json.dumps({"weights": {"relevance": 1.0, "llm": llm}}))
            ranker = str(tmp_path / f"{name}.json")
        update = {"scoring": "combined", "ranker": ranker}
        monkeypatch.setattr(t2c, "config", t2c.config.model_copy(update=update))
        ctx = RunContext(mode="text2cypher", trace=Text2CypherTrace())
        ranked, _, decoded[name] = await t2c.choose("demo", "Which manufacturer built the Sable Class?", e, ctx)
        chosen[name], warned[name] = ranked[0].query, ctx.warnings
    # 1 - 1 * 3 < 0: the LLM's favourite; 1 - 0.5 * 3 < 0 as well; with no weight the relevance alone decides
    assert chosen == {"trusts": second.text, "bundled": second.text, "ignores": first.text}
    assert decoded == {"trusts": "exact", "bundled": "exact", "ignores": None}
    assert warned["trusts"] == warned["bundled"] == [] and "gives the LLM no weight" in warned["ignores"][0]


async def test_text2cypher_over_http_names_answer_nodes(client: httpx.AsyncClient) -> None:
    r = await client.post(
        "/retrieve",
        json={"question": "Which manufacturer built the Sable Class?", "namespace": "demo", "mode": "text2cypher"},
    )
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["mode"] == "text2cypher" and body["items"]
    trace: dict[str, Any] = body["trace"]
    assert trace["candidate_queries"] >= 1 and trace["links"][0]["name"] == "Sable Class"
    assert trace["ranked"][0]["query"] == SABLE and trace["error"] is None
    assert trace["query"] == SABLE_ANSWERED  # "which manufacturer": picked out by name (answer_form), each once
    # each ranked query shows the features the ranker weighed (those that are not 0), its relevance among them
    first = trace["ranked"][0]
    assert first["features"]["relevance"] == first["relevance"] and set(first["features"]) <= {
        "relevance",
        "llm",
    } | set(FEATURES)
    Text2CypherTrace.model_validate(trace)  # the JSON is exactly the mode's trace model
    assert body["items"][0]["node"]["name"] == "Ossendale Engine Works"
    for item in body["items"]:
        if item["node"] is None:  # a lower-ranked count or aggregate
            assert item["source"]["kind"] == "path" and "value" in item["provenance"]
            continue
        assert item["node"]["name"] and item["node"]["id"] == item["source"]["node_id"] == item["id"]
        assert item["provenance"]["query"].startswith("MATCH (x1:")
        assert item["provenance"]["pattern"].startswith(("pattern: (x1:", "query: MATCH (x1:"))
        assert item["retriever"] == "text2cypher"
    assert {"entity_linking", "candidate_enumeration", "decoding", "cypher_execution"} <= set(body["timings_ms"])


async def test_no_entity_means_no_candidates_not_an_error(client: httpx.AsyncClient) -> None:
    r = await client.post("/retrieve", json={"question": "zzzz qqqq", "namespace": "demo", "mode": "text2cypher"})
    assert r.status_code == 200 and r.json()["items"] == []
    trace = r.json()["trace"]
    assert (trace["query"], trace["error"], trace["candidate_queries"]) == (None, "no candidate queries", 0)


async def test_a_question_about_a_kind_keeps_its_label_shapes_however_little_else_it_names(
    t2c: Text2CypherRetriever, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Label-anchored shapes are dropped where the question seems to be about nothing in the graph (all of them less
    relevant than ``label_min_relevance``), but not where its head word names a label and each number it compares
    counts something the graph has a word for (``about_the_graph``): that place nothing links to does not make a
    question about locomotives off the graph."""
    monkeypatch.setattr(t2c, "config", t2c.config.model_copy(update={"label_min_relevance": 100.0}))
    about = await t2c.enumerate("demo", "What are the names of all locomotives kept in Qqqq, Zzzz?")
    assert about.lits is not None and about.lits.kind_head == "locomotives"
    assert "MATCH (x1:Locomotive) RETURN DISTINCT x1.name AS name" in {c.text for c in about.candidates}
    off = await t2c.enumerate("demo", "What is the weather in Qqqq, Zzzz?")  # no label named: off the graph
    assert off.lits is not None and off.lits.kind_head is None
    assert not [c for c in off.candidates if isinstance(c, Shape) and c.anchor.name is None]
    # about locomotives, but about their votes, which the graph has no word for: off the graph too
    votes = await t2c.enumerate("demo", "Which locomotives have more than 1000 votes?")
    assert votes.lits is not None and votes.lits.kind_head == "locomotives"
    assert not [c for c in votes.candidates if isinstance(c, Shape) and c.anchor.name is None]


async def test_a_tuned_namespace_ranker_decides_how_much_the_llm_counts(
    t2c: Text2CypherRetriever, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a namespace ranker (``tune`` fits one beside the adapter), ``combined`` scoring weighs the LLM's
    log-softmax as that ranker says: a ranker that trusts the LLM takes its favourite, one that gives it no weight
    (tuning did not help on held-back pairs) keeps the features' order."""
    from app.text2cypher import rank

    x = Anchor("Sable Class", "LocomotiveClass")
    first, second = (CandidateQuery(x, (Hop(t, "out", "Company"),)) for t in ("BUILT_BY", "OPERATED_BY"))
    feats = [dict.fromkeys(FEATURES, 0.0) for _ in range(2)]
    e = Enumeration(links=[], candidates=[first, second], readings=["a", "b"], relevance=[3.0, 0.0], features=feats)
    monkeypatch.setattr(t2c, "chooser", _Sure([-20.0, 0.0]))
    monkeypatch.setattr(t2c, "config", t2c.config.model_copy(update={"scoring": "combined"}))
    chosen, decoded = {}, {}
    for name, weights in {"trusts": {"relevance": 1.0, "llm": 2.0}, "ignores": {"relevance": 1.0, "llm": 0.0}}.items():
        monkeypatch.setattr(t2c, "ranker_for", lambda adapter, w=weights: rank.Ranker(w))
        ranked, _, decoded[name] = await t2c.choose("demo", "Which manufacturer built the Sable Class?", e)
        chosen[name] = ranked[0]
    assert chosen["trusts"].query == second.text and chosen["ignores"].query == first.text
    # the trace shows what the ranker weighed: relevance, and the LLM's log-softmax (floored at -llm_floor)
    assert chosen["trusts"].features == {"llm": 0.0}  # its relevance is 0; the LLM is sure of it
    # a ranker that gives the LLM no weight does not run it: the untuned order, at the untuned cost
    assert decoded == {"trusts": "exact", "ignores": None} and chosen["ignores"].features == {"relevance": 3.0}


def test_a_tuned_ranker_counts_the_llm_only_where_it_helps_on_held_back_pairs() -> None:
    from app.text2cypher import rank
    from app.training.ranker import TUNED_NAMES, Group, tuned_ranker

    def groups(llm_knows: bool) -> list[Group]:
        out = []
        for q in range(40):
            rows = []
            for i in range(4):
                row = dict.fromkeys(TUNED_NAMES, 0.0)
                if llm_knows:  # relevance favours a wrong candidate, the tuned LLM the right one
                    row["relevance"], row["llm"] = float(i == (q + 1) % 4), 0.0 if i == q % 4 else -3.0
                else:  # relevance is right, and the LLM favours whichever
                    row["relevance"], row["llm"] = float(i == q % 4), 0.0 if i == (q * 7 + 2) % 4 else -3.0
                rows.append([row[n] for n in TUNED_NAMES])
            out.append(Group("g", f"q{q}", "path", list(TUNED_NAMES), rows, q % 4))
        return out

    untuned = rank.Ranker({"relevance": 1.0})
    helps = tuned_ranker(groups(True), untuned)
    assert helps["report"]["chosen"].startswith("learned") and helps["weights"]["llm"] > 0
    useless = tuned_ranker(groups(False), untuned)
    assert useless["report"]["chosen"].startswith("untuned") and useless["weights"]["llm"] == 0.0
    assert tuned_ranker(groups(True)[:5], untuned)["weights"]["llm"] == 0.0  # too few to weigh it


def held_back(n: int, *, fixed: Callable[[int], bool], broken: Callable[[int], bool]) -> list[Group]:
    """``n`` held-back questions of 4 candidates: where ``fixed``, relevance is wrong by 0.5 and the tuned LLM sure
    of the right one; where ``broken``, relevance is right by 2 and the LLM sure of a wrong one; else both right."""
    from app.training.ranker import TUNED_NAMES

    out = []
    for q in range(n):
        right, other = q % 4, (q + 1) % 4
        rows = []
        for i in range(4):
            row = dict.fromkeys(TUNED_NAMES, 0.0)
            if fixed(q):
                row["relevance"], row["llm"] = 0.5 * (i == other), 0.0 if i == right else -3.0
            else:
                row["relevance"] = 2.0 * (i == right)
                row["llm"] = 0.0 if i == (other if broken(q) else right) else -3.0
            rows.append([row[k] for k in TUNED_NAMES])
        out.append(Group("g", f"q{q}", "path", list(TUNED_NAMES), rows, right))
    return out


def test_a_tuned_ranker_never_loses_a_held_back_question_the_untuned_one_answers() -> None:
    """Half the held-back questions: relevance is wrong by 0.5 and the LLM sure of the right one; the other half:
    relevance right by 2 and the LLM sure of a wrong one. Any LLM weight between 1/6 and 2/3 gains the first half and
    keeps the second; the weight chosen is one of those (the fitted one halved as often as needed)."""
    from app.text2cypher import rank
    from app.training.ranker import tuned_ranker

    out = held_back(40, fixed=lambda q: q % 2 == 1, broken=lambda q: q % 2 == 0)
    made = tuned_ranker(out, rank.Ranker({"relevance": 1.0}))
    assert 1 / 6 < made["weights"]["llm"] < 2 / 3
    rep = made["report"]
    assert (rep["hits_at_1_untuned"], rep["hits_at_1_tuned"]) == (50.0, 100.0)
    assert any(t["lost"] for t in rep["tried"].values()) or rep["llm_weight_fitted"] == rep["llm_weight"]


def test_a_tuned_ranker_that_gains_too_few_held_back_questions_is_not_trusted() -> None:
    """17 held-back questions where the tuned LLM turns 1, then 5, wrong answers right and loses none: one gain is
    what chance gives (the sign test's p 0.5), five are not (p 1/32 under 0.05)."""
    from app.text2cypher import rank
    from app.training.ranker import sign_test, tuned_ranker

    def groups(fixed: int) -> list[Group]:
        return held_back(17, fixed=lambda q: q < fixed, broken=lambda q: False)

    assert sign_test(1, 0) == 0.5 and sign_test(5, 0) == 1 / 32 and sign_test(0, 0) == 1.0
    untuned = rank.Ranker({"relevance": 1.0})
    one = tuned_ranker(groups(1), untuned)
    assert one["weights"]["llm"] == 0.0 and one["report"]["chosen"].startswith("untuned")
    five = tuned_ranker(groups(5), untuned)
    assert five["weights"]["llm"] > 0 and five["report"]["chosen"].startswith("learned")


def test_the_namespace_ranker_installed_with_the_adapter_is_used_at_once(
    t2c: Text2CypherRetriever, monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    """``tune`` installs ``ranker.json`` with the adapter by one rename; the mode reads the file installed now (a
    later install replaces it without a restart), and none with ``namespace_ranker`` off."""
    import json

    from app.llm.adapters import TunedAdapter, install_adapter
    from app.text2cypher.rank import RANKER_FILE

    target = tmp_path / "adapters" / "demo" / "text2cypher"
    adapter = TunedAdapter("text2cypher-demo", target)

    def install(llm_weight: float) -> None:
        built = tmp_path / f"built-{llm_weight}"
        built.mkdir()
        (built / RANKER_FILE).write_text(json.dumps({"weights": {"relevance": 1.0, "llm": llm_weight}}))
        install_adapter(built, target)

    install(0.0)
    first = t2c.ranker_for(adapter)
    assert first is not None and first.weights["llm"] == 0.0
    install(0.25)  # a second tuning run swaps in its own
    second = t2c.ranker_for(adapter)
    assert second is not None and second.weights["llm"] == 0.25
    monkeypatch.setattr(t2c, "config", t2c.config.model_copy(update={"namespace_ranker": False}))
    assert t2c.ranker_for(adapter) is None and t2c.ranker_for(None) is None
