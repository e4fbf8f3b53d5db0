"""Self-supervised text2cypher tuning: pairs built from the graph alone, a time-bounded LoRA, and an adapter the
service finds for its namespace (and only there)."""

from __future__ import annotations

import random
import shutil
from collections import defaultdict
from pathlib import Path
from typing import Any

from app.container import Container
from app.cypher.candidates import Anchor, CandidateQuery, Hop
from app.cypher.shapes import ABSENT, EXISTS, Shape
from app.llm.adapters import adapter_dir, install_adapter, namespace_adapter
from app.llm.local import LocalLLM
from app.retrievers.base import RunContext
from app.retrievers.text2cypher import Text2CypherRetriever, Text2CypherTrace
from app.text2cypher import lexicon
from app.text2cypher.phrasing import path_question
from app.text2cypher.profiles import LabelProfile, Profiles, Property
from app.training.selftune import _random_filter, anchor_of, build_pairs, tune
from tests.conftest import SABLE, ingest_demo, make_settings

EN = lexicon.load()


def test_verbalised_questions_name_the_anchor_and_every_relation() -> None:
    c = CandidateQuery(Anchor("Curlew_Class", "Entity"), (Hop("DESIGNED_BY", "out", ""), Hop("BORN_IN", "out", "City")))
    rng = random.Random(0)
    for _ in range(20):
        q = path_question(c, rng, EN)
        assert "Curlew Class" in q and "designed" in q and "born" in q


def test_paths_that_turn_back_are_also_asked_as_sharing() -> None:
    # X -designed_by-> v <-designed_by- ? ("same designer as X") and X <-built- v -built-> ? ("built with X")
    shares = CandidateQuery(
        Anchor("Curlew_Class", "Entity"), (Hop("DESIGNED_BY", "out", ""), Hop("DESIGNED_BY", "in", ""))
    )
    co = CandidateQuery(Anchor("Ossendale", "Entity"), (Hop("BUILT", "in", ""), Hop("BUILT", "out", "")))
    rng = random.Random(1)
    for c, frames in ((shares, EN.asking.turn_back["in"]), (co, EN.asking.turn_back["out"])):
        qs = [path_question(c, rng, EN) for _ in range(60)]
        assert all(c.anchor.name.replace("_", " ") in q for q in qs)
        framed = [q for q in qs if any(q.startswith(f.split("{")[0]) and f.split("{")[0] for f in frames)]
        assert 10 <= len(framed) < 60  # about half: the plain reading stays in the training data too
        assert any(" same " in q or " also " in q or " with " in q for q in framed)


async def test_pairs_from_the_graph_alone_are_answerable_and_unambiguous(container: Container) -> None:
    pairs, stats = await build_pairs(
        container,
        "demo",
        max_pairs=60,
        deadline=float("inf"),
        seed=3,
        per_depth=2,
        max_answers=20,
        expand_beam=4,
    )
    assert stats["pairs"] == len(pairs) == 60 and set(stats["pairs_by_hops"]) == {1, 2, 3}
    t2c = container.retrievers["text2cypher"]
    assert isinstance(t2c, Text2CypherRetriever)
    answers_by_anchor: dict[str, list[frozenset[str]]] = defaultdict(list)
    idx = await container.deps.linker.index("demo")
    for p in pairs:
        # the query is one the retriever enumerates from that anchor, and it answers with 1..20 nodes
        ((name, labels, key),) = idx.named(p["anchor"])
        e = await t2c.enumerate_from("demo", [anchor_of(name, labels, key)], None)
        (cand,) = [c for c in e.candidates if c.text == p["cypher"]]
        rows = await container.graph.read("demo", cand.execution_query(), {"limit": 1000})
        got = frozenset(str(r["name"]) for r in rows)
        assert 1 <= len(got) == p["answers"] <= 20 and p["hops"] == len(cand.hops)
        assert got not in answers_by_anchor[p["anchor"]]  # no two questions of an anchor share their answers
        answers_by_anchor[p["anchor"]].append(got)


def test_training_stops_within_its_time_budget_and_leaves_out_a_pair_too_long(
    tmp_path: Path, smollm2_dir: Path
) -> None:
    from app.training.lora import train_lora_pairs

    def train(pairs: list[dict[str, Any]], out: str) -> dict[str, Any]:
        return train_lora_pairs(
            base_model=smollm2_dir,
            pairs=pairs,
            schema=None,
            out_dir=tmp_path / out,
            epochs=1,
            batch_size=1,
            rank=2,
            top_layers=1,
            max_seconds=0.01,
        )

    pairs = [{"question": f"Which manufacturer built the Sable Class? {i}", "cypher": SABLE} for i in range(40)]
    stats = train(pairs, "a")
    # the budget is spent by the first step: training stops there and the adapter is saved
    assert stats["planned_steps"] == 40 and stats["steps"] == 1 and stats["epochs_done"] == 0.025
    assert stats["too_long"] == 0 and (tmp_path / "a" / "adapter_config.json").exists()
    quoted = {"question": "Which books say " + "a long body of text " * 200 + "?", "cypher": SABLE}
    stats = train([*pairs, quoted], "b")
    assert stats["too_long"] == 1 and stats["examples"] == 40  # left out before any batch is built


def test_a_long_text_is_never_an_equalitys_constant() -> None:
    """Tuning's conditions quote a value a person would type: a post's whole body (thousands of characters on the
    Stack Overflow graph) is never an equality's constant, only one of its words or its first letter; a short value
    is."""
    body = "I am having trouble parallelizing code that reads some files and writes to neo4j. " * 40
    book = CandidateQuery(Anchor(None, "Book", "title"), ())
    props = [Property("Book", "body", "text", values=(body,)), Property("Book", "genre", "text", values=("Fantasy",))]
    profiles = Profiles(labels={"Book": LabelProfile("Book", "title", props)})
    rng = random.Random(0)
    made = [f for _ in range(300) if (f := _random_filter(Shape(book, 1, "list"), profiles, rng, 80.0)) is not None]
    long_ops = {f.op for f in made if f.key == "body"}
    assert long_ops and "=" not in long_ops and long_ops <= {"CONTAINS", "STARTS WITH", EXISTS, ABSENT}
    assert any(f.key == "genre" and f.op == "=" and f.value == "Fantasy" for f in made)


def test_installing_an_adapter_replaces_the_previous_one(tmp_path: Path) -> None:
    target = tmp_path / "ns" / "text2cypher"
    for version in ("one", "two"):
        built = tmp_path / f"built-{version}"
        built.mkdir()
        (built / "adapter_config.json").write_text("{}")
        (built / "v").write_text(version)
        install_adapter(built, target)
        assert (target / "v").read_text() == version and not built.exists()
    assert sorted(p.name for p in target.parent.iterdir()) == ["text2cypher"]


async def test_a_namespace_adapter_serves_its_namespace_only(
    container: Container, t2c: Text2CypherRetriever, smollm2_dir: Path, tmp_path: Path
) -> None:
    from app.training.lora import train_lora_pairs

    llm = container.llm
    assert isinstance(llm, LocalLLM)
    question = "Which manufacturer built the Sable Class?"
    e = await t2c.enumerate("demo", question)
    texts = [c.text for c in e.candidates]
    messages = [{"role": "user", "content": question}]
    before = await llm.choose(messages, texts[:4], top_m=4, method="exact")
    assert t2c.adapter_for("demo") is None and not t2c.tuned_for("demo")
    built = tmp_path / "built"
    train_lora_pairs(
        base_model=smollm2_dir,
        pairs=[{"question": question, "cypher": SABLE}] * 8,
        schema=None,
        out_dir=built,
        epochs=1,
        batch_size=4,
        lr=3e-3,
        rank=2,
        top_layers=2,
    )
    target = adapter_dir(container.settings, "demo")
    install_adapter(built, target)
    try:
        adapter = t2c.adapter_for("demo")
        assert adapter is not None and adapter == namespace_adapter(container.settings, "demo")
        assert t2c.tuned_for("demo") and t2c.adapter_for("other") is None
        tuned = await llm.choose(messages, texts[:4], top_m=4, method="exact", adapter=adapter)
        assert {r.text: r.logprob for r in tuned} != {r.text: r.logprob for r in before}
        # the plain model is unchanged for every other call (answers, other namespaces)
        again = await llm.choose(messages, texts[:4], top_m=4, method="exact")
        assert [(r.text, round(r.logprob, 4)) for r in again] == [(r.text, round(r.logprob, 4)) for r in before]
        # auto scoring combines relevance with the tuned model's scores, on the prompt without the schema
        ctx = RunContext(mode="text2cypher", trace=Text2CypherTrace())
        ranked, _, method = await t2c.choose("demo", question, e, ctx)
        assert method == "exact" and all(r.logprob is not None for r in ranked)
    finally:
        shutil.rmtree(target.parent, ignore_errors=True)
    assert t2c.adapter_for("demo") is None


class WorkerLikeChooser:
    """A grounded chooser that, like the vLLM worker client, serves adapters only once ``ensure_adapter`` brought
    them (here: refused with ``reason``, or accepted when it is None)."""

    def __init__(self, inner: Any, reason: str | None) -> None:
        self.inner, self.reason = inner, reason
        self.brought: list[str] = []
        self.asked: list[Any] = []

    async def ensure_adapter(self, adapter: Any) -> str | None:
        self.brought.append(adapter.name)
        return self.reason

    def serves(self, adapter: Any) -> bool:
        return self.reason is None and adapter.name in self.brought

    async def choose(self, messages: Any, candidates: Any, **kw: Any) -> Any:
        self.asked.append(kw.pop("adapter", None))
        return await self.inner.choose(messages, candidates, **kw)


async def test_a_worker_gets_the_namespace_adapter_on_first_use_or_the_request_says_it_did_not(
    container: Container, t2c: Text2CypherRetriever
) -> None:
    question = "Which manufacturer built the Sable Class?"
    e = await t2c.enumerate("demo", question)
    target = adapter_dir(container.settings, "demo")
    target.mkdir(parents=True)
    (target / "adapter_config.json").write_text("{}")
    saved = t2c.chooser
    try:
        for reason in ("HTTP 409: LoRA is off on this worker", None):
            fake = WorkerLikeChooser(container.llm, reason)
            t2c.chooser = fake
            ctx = RunContext(mode="text2cypher", trace=Text2CypherTrace())
            ranked, _, _ = await t2c.choose("demo", question, e, ctx)
            assert fake.brought == ["text2cypher-demo"] and ranked
            warned = [w for w in ctx.warnings if "does not serve this namespace's tuned adapter" in w]
            if reason is None:  # served: the LLM is asked with the adapter, and nothing is said
                assert not warned and fake.asked and fake.asked[0] is not None
            else:  # refused: relevance ranks (auto scoring, untuned), and the warning names the worker's reason
                assert warned and "LoRA is off" in warned[0] and not fake.asked
    finally:
        t2c.chooser = saved
        shutil.rmtree(target.parent, ignore_errors=True)


async def test_tune_end_to_end_and_the_service_uses_the_adapter(tmp_path: Path) -> None:
    settings = make_settings(tmp_path / "data")
    c = await Container.start(settings, with_llm=False, modes=["text2cypher", "vector"])
    try:  # the models are loaded before tune's clock starts: its pair budget (a quarter of 12 s) builds pairs only
        await ingest_demo(c)
        stats: dict[str, Any] = await tune(
            settings, "demo", minutes=0.2, max_pairs=24, rank=2, top_layers=1, paraphrase_share=0, container=c
        )
    finally:
        await c.close()
    assert stats["pairs"] == 24 and stats["training"]["steps"] >= 1 and "off" in stats["paraphrases"]["skipped"]
    assert (Path(stats["adapter"]) / "pairs.jsonl").exists()
    c = await Container.start(settings, modes=["text2cypher", "vector"])
    try:
        r = c.retrievers["text2cypher"]
        assert isinstance(r, Text2CypherRetriever) and r.adapter_for("demo") is not None
        from app.retrievers.types import RetrievalQuery

        res = await r.retrieve(RetrievalQuery(question="Which manufacturer built the Sable Class?", namespace="demo"))
        assert res.trace.model_dump()["decoding"] == "exact" and res.items
    finally:
        await c.close()
