"""Benchmark loaders: questions with gold answers/supporting passages, and the corpus to ingest."""

from __future__ import annotations

import csv
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.errors import InvalidInputError
from app.ingest.parsers import Document


@dataclass
class EvalQuestion:
    id: str
    question: str
    answers: list[str]
    support: list[str] = field(default_factory=list)
    """Gold supporting passage titles."""
    qtype: str = ""
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass
class KGSource:
    path: Path
    format: str
    labels: Path | None = None


@dataclass
class Benchmark:
    name: str
    questions: list[EvalQuestion]
    corpus: list[Document] = field(default_factory=list)
    kg: KGSource | None = None
    script: Path | None = None

    @property
    def kind(self) -> str:
        """``passages`` (gold = supporting titles), ``kg`` (gold = answer nodes) or ``cypher`` (gold = a query)."""
        return "cypher" if self.script is not None else ("kg" if self.kg is not None else "passages")


def _find(path: Path, suffix: str) -> Path:
    hits = sorted(path.glob(f"*{suffix}"))
    if not hits:
        raise InvalidInputError(f"no *{suffix} file under {path}")
    return hits[0]


def load_hotpotqa(path: Path) -> Benchmark:
    """HotpotQA distractor format (``question``, ``answer``, ``supporting_facts``, ``type``) + ``{title: [sents]}``
    corpus (the HippoRAG 100-question slice)."""
    corpus_file = _find(path, "_corpus.json")
    qfile = next(p for p in sorted(path.glob("*.json")) if p != corpus_file)
    raw = json.loads(qfile.read_text(encoding="utf-8"))
    questions = [
        EvalQuestion(
            id=str(q["_id"]),
            question=q["question"],
            answers=[q["answer"]],
            support=sorted({t for t, _ in q["supporting_facts"]}),
            qtype=q.get("type", ""),
            meta={"level": q.get("level")},
        )
        for q in raw
    ]
    corpus = json.loads(corpus_file.read_text(encoding="utf-8"))
    docs = [Document(str(t), "".join(s), str(corpus_file)) for t, s in corpus.items()]
    return Benchmark("hotpotqa", questions, docs)


def load_musique(path: Path) -> Benchmark:
    """MuSiQue-Ans (``paragraphs`` with ``is_supporting``, ``answer_aliases``) + ``[{title, text}]`` corpus."""
    from app.ingest.parsers import read_documents

    corpus_file = _find(path, "_corpus.json")
    qfile = next(p for p in sorted(path.glob("*.json")) if p != corpus_file)
    raw = json.loads(qfile.read_text(encoding="utf-8"))
    questions = []
    for q in raw:
        hops = str(q["id"]).split("hop")[0]
        questions.append(
            EvalQuestion(
                id=str(q["id"]),
                question=q["question"],
                answers=[q["answer"], *q.get("answer_aliases", [])],
                support=sorted({p["title"] for p in q["paragraphs"] if p.get("is_supporting")}),
                qtype=f"{hops}hop" if hops.isdigit() else "",
            )
        )
    return Benchmark("musique", questions, read_documents(corpus_file))


_BRACKETS = re.compile(r"\[([^\]]+)\]")


def load_metaqa(path: Path, *, split: str = "dev", part: str = "validation") -> Benchmark:
    """MetaQA vanilla ``{1,2,3}-hop_qa_<split>.txt`` (``question<TAB>a|b``) with ``*_qtype.txt``, restricted to the
    KB-consistent lines (``part``: ``validation`` = line numbers that are multiples of 5, ``train`` = the others,
    ``all``). Topic-entity brackets are stripped from the question (kept in ``meta``)."""
    consistent = json.loads((path / "kb_consistent_dev_lines.json").read_text())["lines"] if split == "dev" else None
    questions: list[EvalQuestion] = []
    for hop in (1, 2, 3):
        name = f"{hop}-hop_qa_{split}"
        qfile = path / f"{name}.txt"
        if not qfile.exists():
            continue
        lines = qfile.read_text(encoding="utf-8").splitlines()
        types_file = path / f"{name}_qtype.txt"
        qtypes = types_file.read_text(encoding="utf-8").splitlines() if types_file.exists() else [""] * len(lines)
        keep = set(consistent[name]) if consistent is not None else set(range(len(lines)))
        for i, line in enumerate(lines):
            if i not in keep or (part == "validation" and i % 5) or (part == "train" and not i % 5):
                continue
            q, answers = line.split("\t")
            m = _BRACKETS.search(q)
            questions.append(
                EvalQuestion(
                    id=f"{hop}hop-{i}",
                    question=" ".join(_BRACKETS.sub(r"\1", q).split()),
                    answers=answers.split("|"),
                    qtype=qtypes[i],
                    meta={"hops": hop, "line": i, "topic_entity": m.group(1) if m else None},
                )
            )
    if not questions:
        raise InvalidInputError(f"no MetaQA question files under {path}")
    return Benchmark("metaqa", questions, kg=KGSource(path / "kb_reconstructed.txt", "metaqa"))


def _kgqa_fields(line: str) -> list[str]:
    parts = line.rstrip("\n").split("\t")
    return parts if len(parts) > 1 else line.split()


def _is_triples_file(path: Path, sample: int = 50) -> bool:
    """A file of ``s<TAB>r<TAB>o`` lines (whitespace-separated when there is no tab): three fields per line and no
    relation path (``a#r#b``) among them, so a ``question<TAB>answers<TAB>path`` file is never taken for one."""
    lines = [x for x in path.read_text(encoding="utf-8", errors="replace").splitlines()[: sample * 2] if x.strip()]
    lines = lines[:sample]
    return bool(lines) and all(len(f := _kgqa_fields(x)) == 3 and not any("#" in c for c in f) for x in lines)


def kgqa_answers(field: str) -> list[str]:
    """``a(a/alias/)`` (an answer and its aliases, PathQuestion style) -> ``["a", "alias"]``; ``a/b/`` or ``a|b`` ->
    ``["a", "b"]``. Parentheses inside an answer (``Film_(1999)``) stay part of it."""
    field = field.strip()
    parts = re.split(r"[/|]", field)
    if field.endswith("/)"):  # the alias list's "(" is the one matching the final ")"
        depth = 0
        for k in range(len(field) - 1, 0, -1):
            depth += {")": 1, "(": -1}.get(field[k], 0)
            if depth == 0:
                parts = [field[:k], *field[k + 1 : -1].split("/")]
                break
    return list(dict.fromkeys(a.strip() for a in parts if a.strip()))


def load_kgqa(path: Path) -> Benchmark:
    """Generic KGQA (PathQuestion / WC2014 layout): question files with ``question<TAB>answers<TAB>path`` lines
    (answers ``a(a/alias/)`` or ``a/b/``; the path ``e1#r1#e2#r2#e3`` in whichever column holds ``#``) and one
    triples file, found by its content (three fields per line, no path), whatever its name. Each question's type is
    its file's name (``PQ-2H``, ``WC-C``); ``meta["hops"]`` counts the relations of its path."""
    files = sorted(p for p in path.glob("*.txt"))
    kbs = [p for p in files if _is_triples_file(p)]
    if not kbs:
        raise InvalidInputError(f"no triples file (lines of subject, relation, object; no '#' path) under {path}")
    if len(kbs) > 1:  # prefer the one named like a KB, else the largest
        named = [p for p in kbs if "kb" in p.name.lower() or "triple" in p.name.lower()]
        kbs = sorted(named or kbs, key=lambda p: -p.stat().st_size)
    kb = kbs[0]
    questions = []
    for f in files:
        if f in kbs:
            continue
        for i, line in enumerate(f.read_text(encoding="utf-8").splitlines()):
            parts = line.split("\t")
            if len(parts) < 2 or not parts[0].strip():
                continue
            rel_path = next((c.strip() for c in parts[1:] if "#" in c), "")
            hops = (len(rel_path.split("#")) - 1) // 2 if rel_path else 0
            questions.append(
                EvalQuestion(
                    id=f"{f.stem}-{i}",
                    question=parts[0].strip(),
                    answers=kgqa_answers(parts[1]),
                    qtype=f.stem,
                    meta={"path": rel_path, "hops": hops},
                )
            )
    return Benchmark("kgqa", questions, kg=KGSource(kb, "tsv"))


_STRING = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")
_PATTERN_MAP = re.compile(r"[(\[]\s*(?=[\w:])\w*\s*(?::\s*\w+\s*)*\{([^{}]*)\}")
"""The property map of a node or relationship pattern: ``(m:Movie {title: ''})``, ``[:ACTED_IN {roles: ['']}]``
(not a map a query builds: ``collect({actor: p.name})``)."""
_MAP_KEY = re.compile(r"(?:^|,)\s*([A-Za-z_]\w*)\s*:")
_PROPERTY = re.compile(r"(?<![\w.])[A-Za-z_]\w*\.([A-Za-z_]\w*)\b(?![.(])")
"""``n.key`` (not ``apoc.coll.sort(...)`` or ``date.truncate(...)``: a function's namespace is no property)."""


def cypher_property_keys(text: str) -> set[str]:
    """The property keys a Cypher text names: in a pattern's map (``(m:Movie {title: 'X'})``) and as ``n.key``;
    string literals ignored."""
    bare = _STRING.sub("''", text)
    keys = {k for m in _PATTERN_MAP.finditer(bare) for k in _MAP_KEY.findall(m.group(1))}
    return keys | set(_PROPERTY.findall(bare))


def load_text2cypher(path: Path) -> Benchmark:
    """A folder with a Cypher script and either ``questions.jsonl`` (the development sets of other schemas,
    ``_load_text2cypher_jsonl``) or the Neo4j text2cypher CSV (``question``, ``cypher``, ``type``, flags) for the
    movies graph; of the CSV, clean rows only (no
    syntax error, no timeout, returns results, and in the schema that the folder's ``.cypher`` script creates: the
    CSV's own ``false_schema`` flag was computed against the database it was written for, whose schema holds a
    ``votes`` property that the script never sets; a gold query naming a property the script never sets asks about
    what this graph lacks). Answers are the gold query's results, computed at evaluation time against the
    ingested graph."""
    script = _find(path, ".cypher")
    if (path / "questions.jsonl").exists():
        return _load_text2cypher_jsonl(path / "questions.jsonl", script)
    csv_file = _find(path, ".csv")
    keys = cypher_property_keys(script.read_text(encoding="utf-8"))
    questions = []
    with open(csv_file, encoding="utf-8", newline="") as fh:
        for i, row in enumerate(csv.DictReader(fh)):
            clean = (
                row.get("syntax_error") == "False"
                and row.get("timeout") == "False"
                and row.get("returns_results") == "True"
                and not row.get("false_schema")
                and cypher_property_keys(row["cypher"]) <= keys
            )
            if clean:
                questions.append(
                    EvalQuestion(
                        id=f"row-{i}",
                        question=row["question"],
                        answers=[],
                        qtype=row.get("type", ""),
                        meta={"cypher": row["cypher"]},
                    )
                )
    return Benchmark("text2cypher", questions, script=script)


def _load_text2cypher_jsonl(qfile: Path, script: Path) -> Benchmark:
    """The development sets of other schemas (``questions.jsonl``: ``id``, ``question``, ``gold_cypher``,
    ``gold_rows``, ``type``): the questions whose gold query ran and returned rows where the set was built. The gold
    rows are computed again on the ingested graph at evaluation time, as for the movies set."""
    questions: list[EvalQuestion] = []
    for line in qfile.read_text(encoding="utf-8").split("\n"):  # not splitlines: text holds U+2028 and the like
        if not line.strip():
            continue
        row = json.loads(line)
        if row.get("runs") is False or not row.get("gold_rows") or not row.get("gold_cypher"):
            continue
        questions.append(
            EvalQuestion(
                id=str(row.get("id") or f"row-{len(questions)}"),
                question=str(row["question"]),
                answers=[],
                qtype=str(row.get("type") or ""),
                meta={"cypher": str(row["gold_cypher"])},
            )
        )
    return Benchmark("text2cypher", questions, script=script)


LOADERS = {
    "hotpotqa": load_hotpotqa,
    "musique": load_musique,
    "metaqa": load_metaqa,
    "kgqa": load_kgqa,
    "text2cypher": load_text2cypher,
}


def load_benchmark(name: str, path: Path) -> Benchmark:
    try:
        loader = LOADERS[name]
    except KeyError:
        raise InvalidInputError(f"unknown dataset {name!r}; available: {sorted(LOADERS)}") from None
    return loader(path)
