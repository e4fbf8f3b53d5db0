"""How the movies gold queries return their answers, by the question's wording (session 16, ``answer_form``).

    python reports/experiments/issue14/return_forms.py [../shared/data/neo4j_movies_text2cypher]

Counts, over the clean rows' gold queries without aggregation: single-column answers that are nodes (``RETURN m``)
or display values (``RETURN m.title``), split by whether the question asks for names or titles or opens with
"who"/"whose" (``QuestionLiterals.asks_names`` / ``asks_who``), and whether the query orders; and how the gold
queries that count per node group (``WITH p, count(...)`` vs ``RETURN p.name, count(...)``)."""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, ".")
from app.eval.loaders import load_text2cypher
from app.retrievers.shapes import question_literals

DATA = Path(sys.argv[1] if len(sys.argv) > 1 else "../shared/data/neo4j_movies_text2cypher")
AGGREGATE = re.compile(r"count|avg|sum\(|max\(|min\(|collect|WITH", re.IGNORECASE)


def columns(cypher: str) -> list[str]:
    ret = re.split(r"\b(?:ORDER BY|LIMIT)\b", cypher.rsplit("RETURN", 1)[1])[0].strip()
    cols = re.split(r",(?![^\[\(]*[\]\)])", ret)
    return [re.sub(r"\s+AS\s+\w+", "", c.strip(), flags=re.IGNORECASE).replace("DISTINCT ", "") for c in cols]


def main() -> None:
    forms: Counter[tuple[str, str, str]] = Counter()
    grouping: Counter[str] = Counter()
    questions = load_text2cypher(DATA).questions
    for q in questions:
        cypher = " ".join(q.meta["cypher"].split())
        if re.search(r"WITH \w+, count\(", cypher, re.IGNORECASE):
            grouping["WITH node, count(...)"] += 1
        elif re.search(r"RETURN \w+\.\w+( AS \w+)?, count\(", cypher, re.IGNORECASE):
            grouping["RETURN node.name, count(...)"] += 1
        if AGGREGATE.search(cypher):
            continue
        cols = columns(cypher)
        if len(cols) == 1:
            kind = (
                "node"
                if re.fullmatch(r"\w+", cols[0])
                else "display"
                if re.fullmatch(r"\w+\.(title|name)", cols[0])
                else "other"
            )
        else:
            kind = f"{min(len(cols), 3)}+ columns" if len(cols) > 2 else "2 columns"
        lits = question_literals(q.question)
        asks = "asks names/who" if lits.asks_names or lits.asks_who else "asks things"
        forms[("ordered" if "ORDER BY" in cypher else "list", asks, kind)] += 1
    print(f"{len(questions)} clean rows")
    for key, n in sorted(forms.items()):
        print(" | ".join(key), n)
    for key, n in grouping.most_common():
        print(key, n)


if __name__ == "__main__":
    main()
