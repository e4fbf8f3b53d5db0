"""``ranker check``: rankers side by side on a benchmark's questions from one enumeration each, with the questions a
ranker gains and loses against the first one named."""

from __future__ import annotations

import json
from pathlib import Path

from app.eval.ranker_check import check
from tests.app.eval.test_runner import write_metaqa
from tests.conftest import make_settings


async def test_rankers_are_compared_per_question_on_one_enumeration(tmp_path: Path) -> None:
    write_metaqa(tmp_path / "m")
    backwards = tmp_path / "backwards.json"  # puts the least relevant candidate first
    backwards.write_text(json.dumps({"weights": {"relevance": -1.0}}))
    reports = tmp_path / "reports"
    rep = await check(
        make_settings(tmp_path / "d"),
        dataset="metaqa",
        path=tmp_path / "m",
        rankers=["hand", str(backwards)],
        limit=None,
        reports_dir=reports,
    )
    hand, back = rep["rankers"]["hand"], rep["rankers"][str(backwards)]
    assert rep["scored"] == rep["questions"] == 4  # the validation part of the consistent questions
    assert hand["hits@1"] == 100.0 and hand["per_hop"]["1"]["hits@1"] == 100.0
    assert back["hits@1"] < hand["hits@1"] and back["queries_changed"] > 0
    assert back["lost"] and not back["gained"] and not hand["lost"]  # the baseline loses nothing to itself
    assert len(back["lost"]) == round((hand["hits@1"] - back["hits@1"]) * 4 / 100)
    (md,) = (reports / "ranker_check").glob("metaqa-*.md")
    assert f"## {backwards} against hand" in md.read_text() and "- lost: " in md.read_text()
    (js,) = (reports / "ranker_check").glob("metaqa-*.json")
    per = json.loads(js.read_text())["per_question"]
    assert all(set(x["rankers"]) == {"hand", str(backwards)} for x in per)
