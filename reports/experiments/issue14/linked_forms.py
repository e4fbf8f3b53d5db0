"""How the movies gold queries return a list the service answered with nodes (``RETURN DISTINCT x2``), by where the
chosen query's conditions lie: on the answer itself (``own``), only on a linked node (``linked-node``: "movies
produced by persons born in the 1950s"), on a relationship (``rel``). Counts per (answer label, where, the gold's
return columns, answer right, rows right) over one eval run's records (session 17).

    python reports/experiments/issue14/linked_forms.py RUN.jsonl

RUN.jsonl: a record file of ``python -m app eval --dataset text2cypher ...`` (``reports/text2cypher/.runs/``)."""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, ".")
sys.path.insert(0, str(Path(__file__).parent))
from return_forms import columns

from app.eval.loaders import load_text2cypher

DATA = Path("../shared/data/neo4j_movies_text2cypher")


def where_conditions(query: str, target: str) -> str:
    """``own``, ``linked-node``, ``rel``, ``mixed`` or ``none``: which of the query's elements its conditions are on."""
    where = query.split(" WHERE ")[1].split(" RETURN ")[0] if " WHERE " in query else ""
    found = set(re.findall(r"\b([xr]\d)\.", where)) | set(re.findall(r"\((x\d):\w+ \{", query))
    if not found:
        return "none"
    if found == {target}:
        return "own"
    if all(v.startswith("x") and v != target for v in found):
        return "linked-node"
    return "rel" if any(v.startswith("r") for v in found) else "mixed"


def main() -> None:
    questions = {q.id: q for q in load_text2cypher(DATA).questions}
    counts: Counter[tuple[str, str, str, int, int]] = Counter()
    for line in Path(sys.argv[1]).read_text().splitlines():
        r = json.loads(line)
        query = r.get("query") or ""
        m = re.search(r"RETURN DISTINCT (x\d)( LIMIT \d+)?$", query)
        if "metrics" not in r or m is None:
            continue
        target = m.group(1)
        label = re.search(r"\(" + target + r":(\w+)", query)
        cols = columns(" ".join(questions[r["id"]].meta["cypher"].split()))
        form = "node" if len(cols) == 1 and re.fullmatch(r"\w+", cols[0]) else ",".join(c.split(".")[-1] for c in cols)
        metrics = r["metrics"]
        key = (label.group(1) if label else "?", where_conditions(query, target), form)
        counts[(*key, int(metrics["answer_accuracy"]), int(metrics["execution_accuracy"]))] += 1
    for key, n in sorted(counts.items(), key=lambda kv: (kv[0][:2], -kv[1])):
        print(n, key)


if __name__ == "__main__":
    main()
