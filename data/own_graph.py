"""What the makers of the project's own graphs (``data/<graph>/make.py``) share: a string as a Cypher literal, and
writing the graph's script (``<graph>.cypher``) and its questions with their gold queries (``questions.jsonl``, the
shape ``python -m app eval --dataset text2cypher`` loads)."""

import json
from pathlib import Path


def q(s: str) -> str:
    """``s`` as a single-quoted Cypher string."""
    return "'" + s.replace("'", "\\'") + "'"


def write(here: Path, name: str, statements: list[str], questions: list[tuple[str, str]]) -> None:
    """The script of ``statements`` and the ``(question, gold Cypher)`` pairs, ids ``<name>-0001`` on."""
    (here / f"{name}.cypher").write_text("\n".join(statements) + "\n")
    with open(here / "questions.jsonl", "w") as f:
        for i, (question, cypher) in enumerate(questions):
            row = dict(
                id=f"{name}-{i + 1:04d}", question=question, gold_cypher=cypher, gold_rows=[{"x": 1}], runs=True,
                type="probe",
            )  # fmt: skip
            f.write(json.dumps(row) + "\n")
    print(f"{len(statements)} statements, {len(questions)} questions in {here}")
