"""Paraphrased training questions: cheap checks, the round trip through the retriever, and the templates a kept
rewrite gives the other pairs of its query's pattern."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from app.container import Container
from app.retrievers.text2cypher import Text2CypherRetriever
from app.training import paraphrase
from app.training.paraphrase import acceptable, clean, paraphrase_pairs, round_trip
from app.training.selftune import _paraphrase
from tests.conftest import SABLE


def test_clean_keeps_the_first_line_without_labels_or_quotes() -> None:
    assert clean('  "Which year was Cargo released?"\nIt was 2009.') == "Which year was Cargo released?"
    assert clean("Question: who built it?") == "who built it?"


def test_cheap_checks_reject_the_source_again_a_lost_name_and_a_ramble() -> None:
    src = "what is the release year of Cargo?"
    assert acceptable(src, "When was Cargo released?", "Cargo")
    assert not acceptable(src, "What is the release year of Cargo", "Cargo")  # the source again
    assert not acceptable(src, "When was it released?", "Cargo")  # the anchor is gone
    assert not acceptable(src, "When was Cargo released? " + "It was a year. " * 20, "Cargo")
    assert acceptable("how many movies have a rating above 8?", "count the movies rated over 8", None)


def _checker(container: Container) -> Text2CypherRetriever:
    t2c = container.retrievers["text2cypher"]
    assert isinstance(t2c, Text2CypherRetriever)
    return Text2CypherRetriever(t2c.deps, t2c.config.model_copy(update={"scoring": "relevance"}))


async def test_the_round_trip_holds_for_a_question_that_means_its_query_only(container: Container) -> None:
    r = _checker(container)
    q = "Who was the maker of the Sable Class?"
    assert await round_trip(r, "demo", q, SABLE)
    e = await r.enumerate("demo", q)
    other = next(c.text for c in e.candidates if c.text != SABLE)
    assert not await round_trip(r, "demo", q, other)
    assert not await round_trip(r, "demo", "Who was the maker of the Nonesuch Class?", SABLE)  # nothing linked


async def test_tune_skips_paraphrasing_and_says_why_when_the_model_is_not_there(container: Container) -> None:
    r = container.retrievers["text2cypher"]
    assert isinstance(r, Text2CypherRetriever)
    pairs = [{"question": "made by of Sable Class?", "cypher": SABLE, "anchor": "Sable Class"}]
    kept, stats = await _paraphrase(container.settings, r, "demo", pairs, "/nonexistent/model", 5, float("inf"), 1)
    assert kept == [] and "/nonexistent/model is not available" in stats["skipped"]


def _pairs() -> list[dict[str, Any]]:
    pattern = 'MATCH (x1:Entity {name: ""})-[:MADE_BY]->(x2) RETURN x2.name'
    out: list[dict[str, Any]] = []
    for name in ("Alpha One", "Beta Two", "Gamma Three", "Delta Four"):
        cypher = pattern.replace('""', f'"{name}"')
        out.append({"question": f"made by of {name}?", "cypher": cypher, "anchor": name, "pattern": pattern})
    out.append({"question": "how many entity made by?", "cypher": "MATCH ... count", "hops": 1, "shape": "count"})
    return out


async def test_a_kept_rewrite_is_a_template_for_its_pattern_and_failures_are_dropped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pairs = _pairs()
    passes = {"who made Alpha One?", "count what was made"}

    async def fake_round_trip(r: Any, namespace: str, question: str, cypher: str) -> bool:
        return question in passes

    monkeypatch.setattr(paraphrase, "round_trip", fake_round_trip)

    def rewrite(questions: Sequence[str]) -> list[str]:
        out = []
        for q in questions:
            if q.startswith("made by of Alpha One"):
                out.append("who made Alpha One?")  # passes
            elif q.startswith("made by of Beta Two"):
                out.append("made by of Beta Two")  # the source again: rejected before the round trip
            elif q.startswith("how many"):
                out.append("count what was made")  # passes, no anchor: kept for itself only
            else:
                out.append(q.replace("made by of", "who built"))  # fails the round trip
        return out

    kept, stats = await paraphrase_pairs(
        None,  # type: ignore[arg-type]
        "ns",
        pairs,
        rewrite,
        n=100,
        deadline=float("inf"),
        rng=random.Random(0),
        reuse=2,
    )
    assert stats == {"tried": 5, "passed_round_trip": 2, "kept": 4, "rejected_before_round_trip": 1}
    by_q = {k["question"]: k for k in kept}
    assert by_q["who made Alpha One?"]["cypher"] == pairs[0]["cypher"]
    assert by_q["count what was made"]["cypher"] == "MATCH ... count"
    swapped = [k for k in kept if k["question"] not in passes]
    assert len(swapped) == 2  # reuse=2 other anchors of the pattern, each with its own name and query
    for k in swapped:
        assert k["question"] == f"who made {k['anchor']}?" and k["anchor"] in k["cypher"]
        assert k["paraphrase_of"] == f"made by of {k['anchor']}?"


async def test_paraphrasing_stops_at_n_pairs(monkeypatch: pytest.MonkeyPatch) -> None:
    async def always(r: Any, namespace: str, question: str, cypher: str) -> bool:
        return True

    monkeypatch.setattr(paraphrase, "round_trip", always)
    kept, stats = await paraphrase_pairs(
        None,  # type: ignore[arg-type]
        "ns",
        _pairs(),
        lambda qs: [f"please: {q}" for q in qs],
        n=3,
        deadline=float("inf"),
        rng=random.Random(1),
        batch=1,
    )
    # one anchored rewrite gives its pattern's 3 other pairs a template too: at most 2 rewrites are needed
    assert len(kept) == stats["kept"] == 3 and stats["tried"] <= 2
