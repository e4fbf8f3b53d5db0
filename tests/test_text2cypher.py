"""Grounded text2cypher: candidate text, enumeration on the demo graph, the constraint under random weights, the
HTTP mode, and the free text2cypher baseline's checks."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from app.container import Container
from app.cypher.candidates import Anchor, CandidateQuery, Hop, SchemaGraph, cypher_string
from app.llm.local import LocalLLM
from app.retrievers.free_cypher import check_read_only, extract_cypher
from app.retrievers.text2cypher import Text2CypherRetriever
from app.retrievers.types import RetrievalQuery
from app.stores.graph.base import SchemaTriple
from tests.conftest import tiny_llama

SABLE = 'MATCH (x1:Locomotive {name: "Sable Class"})-[:MANUFACTURED_BY]->(x2:Manufacturer) RETURN x2.name'


def test_canonical_candidate_text_and_execution_forms() -> None:
    a = Anchor('Say "Hi"', "Movie", "title")
    c = CandidateQuery(a, (Hop("DIRECTED_BY", "out", "Person"), Hop("DIRECTED_BY", "in", "Movie", "title")))
    assert cypher_string('a"b\\c') == '"a\\"b\\\\c"'
    assert c.text == (
        'MATCH (x1:Movie {title: "Say \\"Hi\\""})-[:DIRECTED_BY]->(x2:Person)<-[:DIRECTED_BY]-(x3:Movie) '
        "RETURN x3.title"
    )
    assert c.execution_query() == (
        'MATCH (x1:Movie {title: "Say \\"Hi\\""})-[r1:DIRECTED_BY]->(x2:Person)<-[r2:DIRECTED_BY]-(x3:Movie) '
        "WHERE r1 <> r2 AND x2 <> x1 AND x3 <> x1 "
        "RETURN x3.title AS name, labels(x3) AS labels, x2.name AS v2 LIMIT $limit"
    )
    assert c.pattern_text({"name": "B", "v2": "D"}) == (
        'pattern: (x1:Movie {title: "Say \\"Hi\\""})-[:DIRECTED_BY]->(x2:Person {name: "D"})'
        '<-[:DIRECTED_BY]-(x3:Movie {title: "B"})'
    )
    end = CandidateQuery(
        Anchor("A", "Person"),
        (Hop("ACTED_IN", "out", "Movie", "title"), Hop("DIRECTED_BY", "out", "Person")),
        end=Anchor("B", "Person"),
    )
    assert end.text == (
        'MATCH (x1:Person {name: "A"})-[:ACTED_IN]->(x2:Movie)-[:DIRECTED_BY]->(x3:Person {name: "B"}) RETURN x2.title'
    )
    assert end.where_clause() == " WHERE x2 <> x1 AND x2 <> x3 AND x3 <> x1"


def test_schema_graph_follows_only_existing_triples() -> None:
    sg = SchemaGraph(
        [SchemaTriple("Movie", "DIRECTED_BY", "Person"), SchemaTriple("Movie", "IN_LANGUAGE", "Language")],
        {"Movie": "title"},
    )
    first = sg.first_paths("Jane", "name", ["Person"], edges={("DIRECTED_BY", "in", "Movie")})
    assert [h for _, h in first] == [(Hop("DIRECTED_BY", "in", "Movie", "title"),)]
    two = sg.extend(first)
    assert {h[-1] for _, h in two} == {Hop("DIRECTED_BY", "out", "Person"), Hop("IN_LANGUAGE", "out", "Language")}
    assert sg.first_paths("Jane", "name", ["Person"], edges=set()) == []  # no edges: nothing to enumerate


@pytest.fixture(scope="module")
def t2c(container: Container) -> Text2CypherRetriever:
    r = container.retrievers["text2cypher"]
    assert isinstance(r, Text2CypherRetriever)
    return r


async def test_enumeration_on_the_demo_graph(t2c: Text2CypherRetriever) -> None:
    links, cands, truncated = await t2c.candidates("demo", "Which manufacturer built the Sable Class?")
    assert links[0].name == "Sable Class" and links[0].method == "exact"
    texts = [c.text for c in cands]
    assert SABLE in texts and not truncated
    assert len(texts) == len(set(texts))
    for c in cands:  # every candidate was pruned to one that returns something
        assert await t2c.deps.graph.read("demo", c.exists_query())
    two_hop = [c for c in cands if len(c.hops) == 2]
    assert two_hop and max(len(c.hops) for c in cands) <= 3


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


@pytest.mark.parametrize("method", ["exact", "best_first", "beam"])
async def test_random_weights_only_ever_execute_candidates(
    t2c: Text2CypherRetriever, random_chooser: LocalLLM, method: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(t2c.cfg, "decoding", method)
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
        res = await t2c.retrieve(RetrievalQuery(question=q, namespace="demo", top_k=20))
        assert res.trace["decoding"] == method
        ranked = [r["query"] for r in res.trace["ranked"]]
        executed = [e["query"] for e in res.trace["executed"]]
        assert ranked and set(ranked) <= allowed and set(executed) <= allowed
        assert all(it.provenance["query"] in allowed for it in res.items)


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
    for item in body["items"]:
        assert item["node"]["name"] and item["node"]["id"] == item["source"]["node_id"] == item["id"]
        assert item["provenance"]["query"].startswith("MATCH (x1:")
        assert item["provenance"]["pattern"].startswith("pattern: (x1:")
        assert item["retriever"] == "text2cypher"
    assert {"entity_linking", "candidate_enumeration", "decoding", "cypher_execution"} <= set(body["timings_ms"])


async def test_no_entity_means_no_candidates_not_an_error(client: httpx.AsyncClient) -> None:
    r = await client.post("/retrieve", json={"question": "zzzz qqqq", "namespace": "demo", "mode": "text2cypher"})
    assert r.status_code == 200 and r.json()["items"] == []
    assert r.json()["trace"]["cypher"]["error"] == "no candidate queries"


def test_free_cypher_extraction_and_read_only_check() -> None:
    assert extract_cypher("Sure!\n```cypher\nMATCH (n) RETURN n;\n```") == "MATCH (n) RETURN n"
    assert extract_cypher("CREATE TABLE movies (id int)") is None
    assert check_read_only("MATCH (n) RETURN n") is None
    assert "DETACH" in (check_read_only("MATCH (n) DETACH DELETE n RETURN 1") or "")
    assert "DELETE" in (check_read_only("MATCH (n) DELETE n RETURN 1") or "")
    assert "SET" in (check_read_only("MATCH (n) SET n.x = 1 RETURN n") or "")
    assert check_read_only("MATCH (n)") == "the query returns nothing"


async def test_synthesis_keeps_the_best_executing_candidate(t2c: Text2CypherRetriever) -> None:
    import asyncio

    from app.eval.loaders import EvalQuestion
    from app.training.synth import best_query

    q = EvalQuestion("x", "Which manufacturer built the Sable Class?", ["Ossendale Engine Works"], meta={"hops": 1})
    rec = await best_query(t2c, "demo", q, asyncio.Semaphore(2))
    assert rec is not None
    assert (rec["cypher"], rec["hits"], rec["total"], rec["exact"]) == (SABLE, 1, 1, True)
    nothing = EvalQuestion("y", "Which manufacturer built the Sable Class?", ["Nobody"], meta={"hops": 1})
    assert await best_query(t2c, "demo", nothing, asyncio.Semaphore(2)) is None


def test_lora_training_produces_an_adapter_the_service_loads(tmp_path: Any, container: Container) -> None:
    import json

    from app.training.lora import train_lora

    llm = container.llm
    assert isinstance(llm, LocalLLM) and llm.model_path is not None
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text(
        "".join(
            json.dumps({"question": f"Which manufacturer built the Sable Class? {i}", "cypher": SABLE, "hops": 1})
            + "\n"
            for i in range(4)
        )
    )
    (tmp_path / "pairs.schema.json").write_text(
        json.dumps({"labels": [], "relationship_types": [], "property_keys": [], "triples": []})
    )
    stats = train_lora(
        base_model=llm.model_path,
        pairs_file=pairs,
        schema_file=tmp_path / "pairs.schema.json",
        out_dir=tmp_path / "adapter",
        epochs=1,
        batch_size=2,
        top_layers=1,
        rank=2,
    )
    assert stats["steps"] == 2 and (tmp_path / "adapter" / "adapter_config.json").exists()
    tuned = LocalLLM(None, models_dir=llm.models_dir, adapter=tmp_path / "adapter")
    tuned.warm_up()
    assert tuned.model_name.endswith("+adapter")
    (best,) = tuned._choose_sync(
        [{"role": "user", "content": "Which manufacturer built the Sable Class?"}],
        [SABLE, SABLE + " LIMIT 1"],
        1,
        "exact",
    )
    assert best.text in (SABLE, SABLE + " LIMIT 1")


def test_synthesis_ties_prefer_the_relation_the_question_names() -> None:
    """Candidates with the same results (a film's director who also wrote it, a 1-hop query that happens to return
    what the 3-hop one does): the tie goes to the one whose relationships the question's words name, in the order
    they are named from the entity outwards."""
    from app.training.synth import tie_key

    film = Anchor("Zelig", "Movie")
    w, w_in, d, d_in = (
        Hop("WRITTEN_BY", "out", "Person"),
        Hop("WRITTEN_BY", "in", "Movie"),
        Hop("DIRECTED_BY", "out", "Person"),
        Hop("DIRECTED_BY", "in", "Movie"),
    )
    genre, year = Hop("HAS_GENRE", "out", "Genre"), Hop("RELEASE_YEAR", "out", "Year")

    def best(question: str, *paths: tuple[Hop, ...]) -> tuple[Hop, ...]:
        return max(paths, key=lambda hops: tie_key(question, CandidateQuery(film, hops)))

    assert best("who is the writer of Zelig", (d,), (w,)) == (w,)
    assert best("who directed Zelig", (w,), (d,)) == (d,)
    assert best("who wrote Zelig", (d,), (w, w_in, w), (w,)) == (w,)  # a loop naming the same relation loses
    genre_of = "what is the genre of the movie Written on the Wind"  # the entity's own words name nothing
    assert max(
        [(w, w_in, genre), (genre,)],
        key=lambda h: tie_key(genre_of, CandidateQuery(Anchor("Written on the Wind", "Movie"), h)),
    ) == (genre,)
    # every hop named beats one unnamed hop, though both name "writ"
    q = "the films that share screenwriters with Zelig were released in which years"
    assert best(q, (d, w_in, year), (w, w_in, year)) == (w, w_in, year)
    # a 1-hop query returning the same genres loses to the path the question describes
    q = "what types are the movies directed by the director of Zelig"
    assert best(q, (genre,), (d, d_in, genre)) == (d, d_in, genre)
    # both name "writ" and "dire" on every hop: the hop named next to the entity comes first
    for q in (
        "who directed the films written by the writer of Zelig",
        "the movies written by the screenwriter of Zelig were directed by who",
    ):
        assert best(q, (d, w_in, d), (w, w_in, d)) == (w, w_in, d)
