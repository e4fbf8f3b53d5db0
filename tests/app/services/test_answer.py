"""The answer prompt and citation attribution."""

from __future__ import annotations

from app.retrievers.types import RetrievedItem, Source
from app.services.answer import attribute_citations, build_answer_messages, focus


def item(i: str, text: str) -> RetrievedItem:
    return RetrievedItem(id=i, text=text, score=1.0, source=Source(kind="chunk", namespace="n"), retriever="v")


def test_citations_prefer_markers_then_overlap_then_top_item() -> None:
    used = [item("a", "The viaduct has 27 arches."), item("b", "The tunnel is 3,140 metres long.")]
    by_marker = attribute_citations("It has 27 arches [1] [1] [9].", used)
    assert [(c.index, c.item_id, c.method) for c in by_marker] == [(1, "a", "marker")]
    by_overlap = attribute_citations("3,140 metres", used, question="How long is the tunnel?")
    assert [(c.item_id, c.method) for c in by_overlap] == [("b", "overlap")]
    fallback = attribute_citations("I do not know.", used)
    assert [(c.item_id, c.method) for c in fallback] == [("a", "top_item")]
    assert attribute_citations("anything", []) == []


def test_answer_prompt_numbers_items_within_the_budget() -> None:
    items = [item(str(i), f"passage {i} " + "word " * 400) for i in range(6)]
    messages, used = build_answer_messages("What?", items, context_chars=1200)
    user = messages[1]["content"]
    assert user.startswith("Context:\n[1] passage 0") and user.rstrip().endswith("Question: What?\nAnswer:")
    assert len(user) < 1200 + 200
    assert [f"[{n}]" in user for n in range(1, len(used) + 1)] == [True] * len(used)
    assert 2 <= len(used) < 6


def test_a_long_item_keeps_the_sentences_about_the_question_in_order() -> None:
    filler = " ".join(f"The line had station number {i} on its route." for i in range(30))
    text = f"The Harl Tunnel opened in 1871. {filler} The Harl Tunnel is 3,140 metres long. It was widened in 1902."
    out = focus(text, "How long is the Harl Tunnel?", 90)
    assert len(out) <= 100
    assert out.startswith("The Harl Tunnel opened in 1871. ...") and "The Harl Tunnel is 3,140 metres long." in out
    assert out.index("1871") < out.index("3,140") and out.endswith(" ...")
    # a single sentence over the limit is cut at its start
    assert focus("word " * 100, "What?", 50).endswith(" ...")
