"""Evaluation harness: loaders on small hand-made files, sampling, execution accuracy, and a resumable run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.cypher.candidates import Display
from app.errors import InvalidInputError
from app.eval.loaders import Benchmark, EvalQuestion, load_benchmark, load_kgqa, load_metaqa, load_text2cypher
from app.eval.runner import (
    Evaluator,
    RunLog,
    aggregate,
    answers_equal,
    node_display,
    results_equal,
    run_eval,
    sample_questions,
    to_markdown,
    write_latest,
)
from app.retrievers.types import CypherTrace
from app.stores.graph.base import NodeValue, plain_rows
from app.stores.graph.profile import SchemaProfile
from tests.conftest import make_settings


def write_metaqa(root: Path) -> None:
    root.mkdir()
    (root / "kb_reconstructed.txt").write_text(
        "Kismet|directed_by|William Dieterle\nBlockade|directed_by|William Dieterle\n"
    )
    lines = [f"who directed [Kismet] {i}\tWilliam Dieterle" for i in range(12)]
    (root / "1-hop_qa_dev.txt").write_text("\n".join(lines) + "\n")
    (root / "1-hop_qa_dev_qtype.txt").write_text("\n".join(["movie_to_director"] * 12) + "\n")
    (root / "2-hop_qa_dev.txt").write_text("which films share the director of [Kismet]\tBlockade\n")
    consistent = {"1-hop_qa_dev": [0, 1, 2, 5, 10, 11], "2-hop_qa_dev": [0]}
    (root / "kb_consistent_dev_lines.json").write_text(json.dumps({"description": "", "lines": consistent}))


def test_metaqa_loader_strips_brackets_and_splits_validation_from_train(tmp_path: Path) -> None:
    write_metaqa(tmp_path / "m")
    val = load_metaqa(tmp_path / "m", part="validation")
    assert [q.id for q in val.questions] == ["1hop-0", "1hop-5", "1hop-10", "2hop-0"]
    q = val.questions[0]
    assert q.question == "who directed Kismet 0" and q.meta["topic_entity"] == "Kismet"
    assert q.answers == ["William Dieterle"] and q.qtype == "movie_to_director" and q.meta["hops"] == 1
    train = load_metaqa(tmp_path / "m", part="train")
    assert [q.id for q in train.questions] == ["1hop-1", "1hop-2", "1hop-11"]  # never a multiple of 5
    assert val.kind == "kg" and val.kg is not None and val.kg.format == "metaqa"


def test_kgqa_and_text2cypher_loaders(tmp_path: Path) -> None:
    (tmp_path / "WC2014.txt").write_text("y\tr\tb\nb\tr2\tc_(1999)\n")  # any name: found by its content
    (tmp_path / "PQ-2H.txt").write_text("what is x of y\tb/c/\ty#r#b#r2#c\n")
    (tmp_path / "PQ-3H.txt").write_text("what is z of y\tc_(1999)(c_(1999)/c/)\ty#r#b#r2#c#r3#d\n")
    (tmp_path / "WC-C.txt").write_text("who is q of y and p of z\tu(u/)\t4\ty#r#u#r2#z\n")  # path in column 4
    bench = load_kgqa(tmp_path)
    assert bench.kg is not None and bench.kg.path.name == "WC2014.txt"
    by_type = {q.qtype: q for q in bench.questions}
    assert by_type["PQ-2H"].answers == ["b", "c"] and by_type["PQ-2H"].meta["hops"] == 2
    assert by_type["PQ-3H"].answers == ["c_(1999)", "c"] and by_type["PQ-3H"].meta["hops"] == 3
    assert by_type["WC-C"].answers == ["u"] and by_type["WC-C"].meta["hops"] == 2
    t = tmp_path / "t2c"
    t.mkdir()
    (t / "movies.cypher").write_text("CREATE (:Movie {title: 'X'});\n")
    (t / "q.csv").write_text(
        "question,cypher,type,database,syntax_error,timeout,returns_results,false_schema\n"
        "ok,MATCH (m:Movie) RETURN m.title,Simple,movies,False,False,True,\n"
        "broken,MATCH (m RETURN m,Simple,movies,True,False,False,\n"
        "empty,MATCH (m:Movie {title: 'Y'}) RETURN m,Simple,movies,False,False,False,\n"
        "offschema,MATCH (m:Movie) RETURN m.rating,Simple,movies,False,False,True,Movie.rating\n"
        "unscripted,MATCH (m:Movie) RETURN m.votes,Simple,movies,False,False,True,\n"  # flagged in-schema, but the
        # script never sets votes: the database the CSV was written for has it, this graph does not
        "built,MATCH (m:Movie {title: 'a.votes'}) RETURN collect({votes: m.title}),Simple,movies,False,False,True,\n"
    )
    tc = load_text2cypher(t)
    assert [q.question for q in tc.questions] == ["ok", "built"] and tc.kind == "cypher"
    j = tmp_path / "t2c_jsonl"  # the other-schema development sets: a script and questions.jsonl
    j.mkdir()
    (j / "shop.cypher").write_text("CREATE (:Product {productName: 'Chai'});\n")
    rows = [
        {"id": "s-1", "question": "ok", "gold_cypher": "MATCH (p:Product) RETURN p", "gold_rows": [{}], "runs": True},
        # a value holding a line separator (U+2028): one JSON line still, not two
        {"id": "s-0", "question": "x", "gold_cypher": "MATCH (p) RETURN p", "gold_rows": [{"t": "a\u2028b"}]},
        {"id": "s-2", "question": "fails", "gold_cypher": "MATCH (p RETURN p", "gold_rows": None, "runs": False},
        {"id": "s-3", "question": "empty", "gold_cypher": "MATCH (p:X) RETURN p", "gold_rows": [], "runs": True},
    ]
    (j / "questions.jsonl").write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n")
    tj = load_text2cypher(j)
    assert [(q.id, q.meta["cypher"]) for q in tj.questions] == [
        ("s-1", "MATCH (p:Product) RETURN p"),
        ("s-0", "MATCH (p) RETURN p"),
    ]
    assert tj.script is not None and tj.script.name == "shop.cypher"


def test_sampling_is_stratified_by_hops_and_seeded(tmp_path: Path) -> None:
    write_metaqa(tmp_path / "m")
    bench = load_metaqa(tmp_path / "m", part="all")
    a = sample_questions(bench, 2, seed=1)
    assert [q.meta["hops"] for q in a] == [1, 1, 2]
    assert [q.id for q in a] == [q.id for q in sample_questions(bench, 2, seed=1)]


def test_execution_accuracy_compares_row_multisets() -> None:
    gold = [{"p.name": "A", "m.title": "X"}, {"p.name": "B", "m.title": "Y"}]
    assert results_equal([{"t": "Y", "n": "B"}, {"t": "X", "n": "A"}], gold)  # names and order do not matter
    assert not results_equal([{"n": "A", "t": "X"}], gold)
    assert not results_equal([{"n": "A", "t": "X"}] * 2 + [{"n": "B", "t": "Y"}], gold)  # multiplicity counts
    assert results_equal([{"c": 1}], [{"count(*)": 1}]) and not results_equal([{"c": 1}], [{"c": "1"}])


async def test_a_gold_query_that_finds_nothing_here_is_not_scored() -> None:
    """The data set keeps questions whose gold returns rows on its own database. A gold query that returns nothing on
    this graph (a property the graph lacks) is not scored: any query finding nothing would count as right."""

    class Graph:
        async def read(self, ns: str, query: str, params: Any = None, **kw: Any) -> list[dict[str, Any]]:
            if "votes" in query:
                return []
            if "BROKEN" in query:
                raise InvalidInputError("not Cypher this engine runs")
            return [{"m.title": "X"}]

    class Profiler:
        async def get(self, ns: str) -> SchemaProfile:
            return SchemaProfile(ns)

    class C:
        graph = Graph()
        profiler = Profiler()

    ev = Evaluator(C(), Benchmark("text2cypher", []), "ns", 0)  # type: ignore[arg-type]
    trace = CypherTrace(query="MATCH (m) RETURN m.title", rows=[{"name": "X"}])

    def q(cypher: str) -> EvalQuestion:
        return EvalQuestion(id="1", question="?", answers=[], qtype="t", meta={"cypher": cypher})

    assert await ev._score_cypher(trace, q("MATCH (m) WHERE m.votes > 1 RETURN m.title")) == "gold_returns_no_rows_here"
    assert await ev._score_cypher(trace, q("BROKEN")) == "gold_query_unsupported_by_engine"
    scored = await ev._score_cypher(trace, q("MATCH (m:Movie) RETURN m.title"))
    assert scored == {
        "produced_query": 1.0,
        "executable": 1.0,
        "execution_accuracy": 1.0,
        "execution_accuracy_relaxed": 1.0,
        "answer_accuracy": 1.0,
        "answer_first_column": 1.0,
    }
    # a gold LIMIT without ORDER BY picks one of equals: another row of the un-limited result is right too
    other = CypherTrace(query="MATCH (m) RETURN m.title LIMIT 1", rows=[{"name": "Y"}])
    Graph.read = _two_titles  # type: ignore[method-assign]
    scored = await ev._score_cypher(other, q("MATCH (m:Film) RETURN m.title LIMIT 1"))
    assert scored["execution_accuracy"] == 0.0 and scored["execution_accuracy_relaxed"] == 1.0
    assert scored["answer_accuracy"] == 1.0 and scored["answer_first_column"] == 0.0  # Y is one of the pool's


async def _two_titles(self: Any, ns: str, query: str, params: Any = None, **kw: Any) -> list[dict[str, Any]]:
    return [{"m.title": "X"}] if "LIMIT" in query else [{"m.title": "X"}, {"m.title": "Y"}]


def test_answer_accuracy_compares_the_first_column() -> None:
    """The looser metric reported beside execution accuracy: the first column's values as a set, a node by its
    display value; other columns and repeats do not matter, other answers do."""
    gold = [
        {"p": NodeValue("7", ["Person"], {"name": "A", "born": 1960})},
        {"p": NodeValue("8", ["Person"], {"name": "B"})},
    ]
    assert answers_equal([{"name": "B", "born": 1970}, {"name": "A", "born": 1960}, {"name": "A", "born": 1960}], gold)
    assert not results_equal([{"name": "A"}, {"name": "B"}], gold)
    assert not answers_equal([{"name": "A"}], gold) and not answers_equal([{"born": 1960}, {"born": None}], gold)


def test_answer_accuracy_reads_a_node_by_its_labels_display_property() -> None:
    """Any schema: a gold node is compared by the display property its label has in the namespace's profile (a user
    by ``display_name``, an interface by ``ip``), not by ``name`` or ``title`` alone."""
    gold = [
        {"u": NodeValue("1", ["User"], {"uuid": 9, "display_name": "cybersam"})},
        {"u": NodeValue("2", ["User", "Admin"], {"uuid": 10, "display_name": "Graphileon", "title": "Dr"})},
    ]
    ours = [{"name": "cybersam"}, {"name": "Graphileon"}]
    assert not answers_equal(ours, gold)  # no profile: name, else title (the first user has neither)
    profile = Display.of({"User": "display_name", "Admin": None}, ("display_name", "title"))
    assert answers_equal(ours, gold, profile)
    assert not answers_equal([{"name": "cybersam"}, {"name": "Dr"}], gold, profile)  # its label's property first
    assert node_display({"labels": ["Rack"], "properties": {"title": "R1"}}, profile) == "R1"  # profile's keys next
    assert node_display({"labels": [], "properties": {"uuid": 3}}, profile) is None


def test_nodes_in_a_trace_compare_with_the_gold_nodes() -> None:
    """A trace carries nodes as JSON (``plain_rows``); the gold query's rows hold ``NodeValue``: the same node is
    the same row."""
    gold = [{"m": NodeValue("1", ["Movie"], {"title": "X", "released": 1999})}]
    ours = plain_rows([{"x1": NodeValue("1", ["Movie"], {"title": "X", "released": 1999})}])
    assert ours == [{"x1": {"element_id": "1", "labels": ["Movie"], "properties": {"title": "X", "released": 1999}}}]
    assert results_equal(ours, gold) and answers_equal(ours, gold) and answers_equal([{"name": "X"}], gold)
    assert not results_equal([{"name": "X"}], gold)
    other = plain_rows([{"x1": NodeValue("2", ["Movie"], {"title": "X", "released": 2003})}])
    assert not results_equal(other, gold) and answers_equal(other, gold)  # another node of that title
    # an embedding on the node is named by its length, on both sides of the comparison
    vector = [0.5] * 384
    embedded = plain_rows([{"m": NodeValue("3", ["Movie"], {"title": "Y", "embedding": vector, "roles": ["a"] * 40})}])
    assert embedded[0]["m"]["properties"] == {"title": "Y", "embedding": "<384 numbers>", "roles": ["a"] * 40}
    assert results_equal(
        embedded, [{"m": NodeValue("3", ["Movie"], {"title": "Y", "embedding": vector, "roles": ["a"] * 40})}]
    )


def test_reports_count_candidate_queries_per_hop() -> None:
    recs = [
        {"id": "a", "qtype": "t", "hops": 1, "latency_ms": 1.0, "metrics": {"hits@1": 1.0}, "candidates": 4},
        {"id": "b", "qtype": "t", "hops": 1, "latency_ms": 1.0, "metrics": {"hits@1": 0.0}, "candidates": 10},
        {
            "id": "c",
            "qtype": "t",
            "hops": 3,
            "latency_ms": 1.0,
            "metrics": {"hits@1": 1.0},
            "candidates": 300,
            "truncated": True,
        },
        {"id": "d", "qtype": "t", "hops": 3, "latency_ms": 1.0, "metrics": {"hits@1": 1.0}},  # a mode without any
    ]
    cand = aggregate(recs)["candidates"]
    assert list(cand) == ["all", "1-hop", "3-hop"]
    assert cand["1-hop"] == {"questions": 2, "mean": 7.0, "p50": 10.0, "p95": 10.0, "max": 10.0, "truncated_pct": 0.0}
    assert cand["3-hop"]["truncated_pct"] == 100.0 and cand["all"]["mean"] == 104.7
    report = {
        "kind": "kg",
        "dataset": "m",
        "timestamp": "t",
        "questions": 4,
        "seed": 1,
        "namespace": "m",
        "ingest": {"seconds": 0.0, "counts": {}},
        "modes": {"text2cypher": aggregate(recs) | {"type_counts": {}}},
    }
    assert "3-hop 300.0 / 300 / 300 / 300 (100% truncated)" in to_markdown(report)
    assert aggregate(recs[3:])["candidates"] == {}  # modes that enumerate nothing report nothing


async def test_a_run_writes_reports_and_resumes(tmp_path: Path) -> None:
    data = tmp_path / "hp"
    data.mkdir()
    corpus = {
        "Drummel Viaduct": ["The Drummel Viaduct has 27 arches."],
        "Harl Tunnel": ["The Harl Tunnel is 3,140 metres long."],
        "Kestrel Class": ["The Kestrel Class was designed by Aurelia Quenby."],
    }
    (data / "x_corpus.json").write_text(json.dumps(corpus))
    qs = [
        {
            "_id": "q1",
            "question": "How many arches has the Drummel Viaduct?",
            "answer": "27",
            "supporting_facts": [["Drummel Viaduct", 0]],
            "type": "bridge",
        },
        {
            "_id": "q2",
            "question": "Who designed the Kestrel Class?",
            "answer": "Aurelia Quenby",
            "supporting_facts": [["Kestrel Class", 0]],
            "type": "comparison",
        },
    ]
    (data / "x.json").write_text(json.dumps(qs))
    assert load_benchmark("hotpotqa", data).kind == "passages"
    settings = make_settings(tmp_path / "d")
    reports = tmp_path / "reports"
    rep = await run_eval(
        settings, dataset="hotpotqa", path=data, modes=["vector"], limit=None, namespace="hp", reports_dir=reports
    )
    overall = rep["modes"]["vector"]["overall"]
    assert overall["recall@1"] == 100.0 and overall["mrr"] == 100.0 and overall["items"] == 100.0
    assert rep["modes"]["vector"]["curve"][0] == 100.0
    stamp = rep["timestamp"]
    for suffix in (".json", ".md", "-by-type.png", "-by-context-size.png"):
        assert (reports / "hotpotqa" / f"{stamp}{suffix}").exists()
    assert "recall@5" in (reports / "latest.md").read_text()
    # resume: the per-question log is reused, not recomputed
    (run_file,) = (reports / "hotpotqa" / ".runs").glob("vector-*.jsonl")
    recs = RunLog.load(run_file)
    recs["q1"]["metrics"]["recall@1"] = 0.0  # a marker that only a reused record can carry
    run_file.write_text("".join(json.dumps(r) + "\n" for r in recs.values()))
    again = await run_eval(
        settings, dataset="hotpotqa", path=data, modes=["vector"], limit=None, namespace="hp", reports_dir=reports
    )
    assert again["modes"]["vector"]["overall"]["recall@1"] == 50.0
    # other settings (or code) that change results: the old per-question log is not reused
    changed = settings.model_copy(
        update={"retrieval": settings.retrieval.model_copy(update={"max_question_chars": 1999})}
    )
    other = await run_eval(
        changed, dataset="hotpotqa", path=data, modes=["vector"], limit=None, namespace="hp", reports_dir=reports
    )
    assert other["modes"]["vector"]["overall"]["recall@1"] == 100.0
    assert other["per_question"]["vector"] != again["per_question"]["vector"]
    fresh = await run_eval(
        settings,
        dataset="hotpotqa",
        path=data,
        modes=["vector"],
        limit=None,
        namespace="hp",
        reports_dir=reports,
        fresh=True,
    )
    assert fresh["modes"]["vector"]["overall"]["recall@1"] == 100.0


@pytest.mark.parametrize("name", ["nope"])
def test_unknown_dataset(name: str, tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match="unknown dataset"):
        load_benchmark(name, tmp_path)


def test_retrained_adapter_changes_the_fingerprint(tmp_path: Path) -> None:
    """Retraining into the same adapter folder must not let cached answers or resumed eval results of the old
    adapter be reused."""
    import os

    from app.cache import settings_fingerprint

    adapter = tmp_path / "adapter"
    adapter.mkdir()
    (adapter / "adapter_model.safetensors").write_bytes(b"old weights")
    s = make_settings(tmp_path / "d")
    role = s.llm.text2cypher.model_copy(update={"adapter": adapter})
    s = s.model_copy(update={"llm": s.llm.model_copy(update={"text2cypher": role})})
    before = settings_fingerprint(s)
    assert settings_fingerprint(s) == before
    (adapter / "adapter_model.safetensors").write_bytes(b"new weights")
    st = (adapter / "adapter_model.safetensors").stat()
    os.utime(adapter / "adapter_model.safetensors", ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    assert settings_fingerprint(s) != before


def test_latest_keeps_sections_of_data_sets_without_a_local_report(tmp_path: Path) -> None:
    reports = tmp_path / "reports"
    (reports / "hotpotqa").mkdir(parents=True)
    (reports / "hotpotqa" / "20260101T000000.md").write_text("# hotpotqa — old\n\nR@5 1.0\n")
    (reports / "hotpotqa" / "20260102T000000.md").write_text("# hotpotqa — new\n\nR@5 2.0\n![p](x.png)\n")
    (reports / "latest.md").write_text(
        "# Latest\n\n<!-- section: musique -->\n## musique — kept\n\nR@5 63.2\n\n"
        "<!-- section: hotpotqa -->\n## hotpotqa — stale\n\nR@5 0.5\n"
    )
    text = write_latest(reports).read_text()
    assert "R@5 63.2" in text and "## musique — kept" in text  # no local musique report: its section stays
    assert "## hotpotqa — new" in text and "](hotpotqa/x.png)" in text
    assert "stale" not in text and "— old" not in text
    assert write_latest(reports).read_text() == text  # regenerating changes nothing
    assert text.index("hotpotqa — new") < text.index("musique — kept")  # one section per data set, sorted


def test_latest_replaces_an_unmarked_file(tmp_path: Path) -> None:
    reports = tmp_path / "reports"
    (reports / "musique").mkdir(parents=True)
    (reports / "musique" / "20260101T000000.md").write_text("# musique — x\n\nR@5 63.2\n")
    (reports / "latest.md").write_text("# Latest evaluation reports\n\n## musique — older, written before markers\n")
    text = write_latest(reports).read_text()
    assert "<!-- section: musique -->\n## musique — x" in text and "older" not in text


async def test_on_a_cypher_benchmark_a_mode_of_other_answers_is_measured_by_what_it_returns(tmp_path: Path) -> None:
    """Issue 39's "every mode returns items": a text2cypher set's questions asked in a mode that writes no Cypher
    (``vector``) are scored by whether it returned anything, not skipped; text2cypher beside it keeps its
    accuracies."""
    data = tmp_path / "shop"
    data.mkdir()
    (data / "shop.cypher").write_text(
        "CREATE (:Product {productName: 'Chai', unitPrice: 18});\n"
        "CREATE (:Product {productName: 'Chang', unitPrice: 19});\n"
    )
    rows = [
        {"id": "s-1", "question": "List the products.", "gold_cypher": "MATCH (p:Product) RETURN p.productName",
         "gold_rows": [{"p.productName": "Chai"}, {"p.productName": "Chang"}], "runs": True},
        {"id": "s-2", "question": "What is the unit price of Chai?",
         "gold_cypher": "MATCH (p:Product {productName: 'Chai'}) RETURN p.unitPrice",
         "gold_rows": [{"p.unitPrice": 18}], "runs": True},
    ]  # fmt: skip
    (data / "questions.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    rep = await run_eval(
        make_settings(tmp_path / "d"),
        dataset="text2cypher",
        path=data,
        modes=["vector", "text2cypher"],
        limit=None,
        namespace="shop",
        reports_dir=tmp_path / "reports",
    )
    assert "skipped_modes" not in rep
    vector = rep["modes"]["vector"]["overall"]
    assert vector == {"items": 100.0}  # the products' vectors answer both
    assert {"execution_accuracy", "answer_accuracy", "items"} <= set(rep["modes"]["text2cypher"]["overall"])
