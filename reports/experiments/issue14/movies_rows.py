"""Per-question rows of a movies eval run: strict / answer accuracy, the question, the query the service chose and
the gold query; with two runs, only the questions whose result changed.

    python reports/experiments/issue14/movies_rows.py RUN.jsonl [miss|form|all]
    python reports/experiments/issue14/movies_rows.py OLD.jsonl NEW.jsonl

RUN.jsonl: a record file of ``python -m app eval --dataset text2cypher ...`` (``reports/text2cypher/.runs/``); the
records carry the chosen query. ``miss``: answer wrong; ``form``: answer right, strict wrong."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, ".")
from app.eval.loaders import load_text2cypher

DATA = Path("../shared/data/neo4j_movies_text2cypher")


def rows(path: str) -> dict[str, dict[str, Any]]:
    out = {}
    for line in Path(path).read_text().splitlines():
        r = json.loads(line)
        if "metrics" in r:
            m = r["metrics"]
            out[r["id"]] = {"e": int(m["execution_accuracy"]), "a": int(m["answer_accuracy"]), "q": r.get("query")}
    return out


def show(qid: str, r: dict[str, Any], questions: dict[str, Any], was: dict[str, Any] | None = None) -> None:
    q = questions[qid]
    head = f"{was['e']}{was['a']} -> " if was else ""
    print(f"{qid} {head}{r['e']}{r['a']} {q.question}")
    if was:
        print(f"    was:  {was['q']}")
    print(f"    ours: {r['q']}\n    gold: {' '.join(q.meta['cypher'].split())}")


def main() -> None:
    questions = {q.id: q for q in load_text2cypher(DATA).questions}
    first = rows(sys.argv[1])
    if len(sys.argv) > 2 and sys.argv[2].endswith(".jsonl"):
        second = rows(sys.argv[2])
        for qid, r in second.items():
            if qid in first and (first[qid]["e"], first[qid]["a"]) != (r["e"], r["a"]):
                show(qid, r, questions, first[qid])
        runs = [first, second]
    else:
        which = sys.argv[2] if len(sys.argv) > 2 else "all"
        for qid, r in first.items():
            if which == "all" or (which == "miss" and not r["a"]) or (which == "form" and r["a"] and not r["e"]):
                show(qid, r, questions)
        runs = [first]
    for run in runs:
        n = len(run)
        print(f"{n} scored: strict {sum(r['e'] for r in run.values())}, answer {sum(r['a'] for r in run.values())}")


if __name__ == "__main__":
    main()
