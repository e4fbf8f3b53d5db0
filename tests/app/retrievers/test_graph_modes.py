"""The graph modes of issue 13 on the demo KG (real ONNX cross-encoder, real embedded stores)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from app.container import Container
from app.retrievers.react import ReactRetriever, ReactTrace
from app.retrievers.types import NodeRef, RetrievalQuery, RetrievedItem, Source
from app.schemas import GenerationTrace
from app.services.qa import ground_answer
from app.text2cypher.reading import read_path
from tests.conftest import DEMO

QUESTION = "Which manufacturer built the Sable Class?"
ANSWER = "Ossendale Engine Works"


async def retrieve(client: httpx.AsyncClient, mode: str, question: str = QUESTION, top_k: int = 5) -> dict[str, Any]:
    r = await client.post("/retrieve", json={"question": question, "namespace": "demo", "mode": mode, "top_k": top_k})
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


@pytest.mark.parametrize("mode", ["react", "neighborhood", "triplets", "traversal"])
async def test_each_graph_mode_puts_the_answer_node_first(client: httpx.AsyncClient, mode: str) -> None:
    body = await retrieve(client, mode)
    assert body["items"][0]["node"]["name"] == ANSWER, [it["node"]["name"] for it in body["items"]]
    assert "graph_expand" in body["timings_ms"] and "rerank" in body["timings_ms"]


async def test_react_shows_every_step_and_answers_with_the_shallowest_sufficient_path(
    client: httpx.AsyncClient,
) -> None:
    body = await retrieve(client, "react")
    trace = ReactTrace.model_validate(body["trace"])
    assert trace.start == ["Sable Class"] and trace.path == ["MANUFACTURED_BY>"]
    assert len(trace.steps) >= 1 and trace.steps[0].observation and trace.steps[0].action.startswith("list relations")
    # the path is read from the answer back to the start, as questions phrase it
    assert trace.steps[0].observation[0].text == "manufactured by of Sable Class (manufacturer)"
    assert "answer with the 1-hop path" in trace.steps[-1].thought


async def test_react_follows_two_hops_when_the_question_needs_them(client: httpx.AsyncClient) -> None:
    body = await retrieve(client, "react", "In which city was the designer of the Curlew Class born?")
    trace = ReactTrace.model_validate(body["trace"])
    assert len(trace.path) == 2, trace.path
    assert body["items"][0]["node"]["labels"]  # an answer node from the graph


async def test_react_on_an_unlabelled_graph_names_example_answers_and_counts_named_relations(
    container: Container, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without labels a path's text cannot say what it reaches: its end nodes do ("..., such as A"). A relation the
    question names ("manufacturer") adds ``mention_weight`` to the path's score; one it does not name takes it off."""
    await container.ingestor.ingest_path("bare_react", "metaqa", DEMO / "kg.txt")  # the demo KG, no labels file
    react = container.retrievers["react"]
    assert isinstance(react, ReactRetriever)
    q = RetrievalQuery(question=QUESTION, namespace="bare_react", top_k=5)
    monkeypatch.setattr(react, "config", react.config.model_copy(update={"mention_weight": 0.0}))
    plain = ReactTrace.model_validate((await react.retrieve(q)).trace.model_dump())
    monkeypatch.setattr(react, "config", react.config.model_copy(update={"mention_weight": 1.0}))
    res = await react.retrieve(q)
    trace = ReactTrace.model_validate(res.trace.model_dump())
    assert res.items[0].node is not None and res.items[0].node.name == ANSWER and trace.path == ["MANUFACTURED_BY>"]
    first = {o.text: o.score for o in trace.steps[0].observation}
    before = {o.text: o.score for o in plain.steps[0].observation}
    assert first["manufactured by of Sable Class, such as Ossendale Engine Works"] == pytest.approx(
        before["manufactured by of Sable Class, such as Ossendale Engine Works"] + 1.0, abs=1e-3
    )
    designed = next(t for t in first if t.startswith("designed by of Sable Class, such as "))
    assert first[designed] == pytest.approx(before[designed] - 1.0, abs=1e-3)
    labelled = ReactTrace.model_validate((await retrieve_trace(react, QUESTION)).model_dump())
    assert not any(", such as " in o.text for s in labelled.steps for o in s.observation)


async def retrieve_trace(react: ReactRetriever, question: str) -> Any:
    return (await react.retrieve(RetrievalQuery(question=question, namespace="demo", top_k=5))).trace


def test_a_path_is_read_back_from_its_end_and_a_turn_back_as_sharing() -> None:
    """``read_path`` (react's observations, text2cypher's relevance readings)."""
    assert read_path("X", [("DIRECTED_BY", "out", "person")]) == ["X", "directed by of X"]
    assert read_path("X", [("DIRECTED_BY", "out", "person"), ("DIRECTED_BY", "in", "movie")])[-1] == (
        "other movie with the same directed by as X"
    )
    assert read_path("X", [("DIRECTED_BY", "out", "person"), ("WROTE", "in", "")])[-1] == (
        "entity wrote directed by of X"
    )
    # X <-r- m -r-> ?: the same middle node
    assert read_path("Y", [("STARRED", "in", "movie"), ("STARRED", "out", "person")])[-1] == (
        "other person starred of the same movie as Y"
    )
    # no second turn-back in a row: it reads as a plain hop
    three = [("DIRECTED_BY", "out", "person"), ("DIRECTED_BY", "in", "movie"), ("DIRECTED_BY", "out", "person")]
    assert read_path("X", three)[-1] == "directed by of other movie with the same directed by as X"


async def test_no_linked_entity_is_no_error_the_nearest_node_is_the_start(client: httpx.AsyncClient) -> None:
    """A question naming no node gets no error: the mode starts from the node nearest to it by vector (as ``vector``
    answers any question) and warns that it did."""
    for mode in ("react", "neighborhood"):
        body = await retrieve(client, mode, "zzzz qqqq")
        assert any("names no node" in w and "nearest to it by vector" in w for w in body["warnings"]), body
        assert body["items"], body


def _item(name: str, score: float) -> RetrievedItem:
    return RetrievedItem(
        id=name,
        text=name,
        score=score,
        source=Source(kind="node", node_name=name, namespace="demo"),
        retriever="react",
        node=NodeRef(id=name, name=name),
        provenance={"x": 1},
    )


def test_an_answer_that_names_none_of_the_top_nodes_is_replaced_by_them() -> None:
    items = [_item(ANSWER, 3.0), _item("Harrow Shipworks", 1.0)]
    g = GenerationTrace()
    assert (
        ground_answer("It was built by Ossendale Engine Works.", items, g) == "It was built by Ossendale Engine Works."
    )
    assert g.grounding == "kept"
    g = GenerationTrace()
    assert ground_answer("Edmund Voss built it.", items, g) == "Ossendale Engine Works and Harrow Shipworks."
    assert (g.grounding, g.model_answer) == ("replaced", "Edmund Voss built it.")


def test_an_answer_to_a_value_question_states_the_top_value() -> None:
    """When the top item is a value (a count, a property's value), the answer must state it: the nodes that lower-
    ranked queries found do not count ("When was X born?" is not answered with the reviewers of X's movies)."""
    value = RetrievedItem(
        id="v",
        text="born of Keanu Reeves (person): 1964",
        score=0.6,
        source=Source(kind="path", namespace="demo"),
        retriever="text2cypher",
        provenance={"query": "MATCH (x1:Person) RETURN DISTINCT x1.born AS born", "value": 1964},
    )
    items = [value, _item("Jessica Thompson", 0.2)]
    g = GenerationTrace()
    assert ground_answer("Jessica Thompson.", items, g) == "1964."
    assert (g.grounding, g.model_answer) == ("replaced", "Jessica Thompson.")
    g = GenerationTrace()
    assert ground_answer("Keanu Reeves was born in 1964.", items, g) == "Keanu Reeves was born in 1964."
    assert g.grounding == "kept"
    mean = value.model_copy(update={"provenance": {"query": "q", "value": 75.66666666}})
    assert ground_answer("About 76.", [mean], GenerationTrace()) == "75.67."
    roles = value.model_copy(update={"provenance": {"query": "q", "value": ["Neo"]}})
    assert ground_answer("He played Neo.", [roles], GenerationTrace()) == "He played Neo."


async def test_ask_links_its_answer_back_to_graph_nodes(client: httpx.AsyncClient) -> None:
    r = await client.post("/ask", json={"question": QUESTION, "namespace": "demo", "mode": "react", "max_tokens": 24})
    assert r.status_code == 200, r.text
    body = r.json()
    assert ANSWER in body["answer"], body["answer"]  # grounded: the top node, whatever the 135M model wrote
    assert body["trace"]["generation"]["grounding"] in ("kept", "replaced")
    assert ANSWER in [n["name"] for n in body["answer_entities"]]
