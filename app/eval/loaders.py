"""Benchmark loaders: questions with gold answers/supporting passages, and the corpus to ingest."""

from __future__ import annotations

import json
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
class Benchmark:
    name: str
    questions: list[EvalQuestion]
    corpus: list[Document]


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


LOADERS = {"hotpotqa": load_hotpotqa, "musique": load_musique}


def load_benchmark(name: str, path: Path) -> Benchmark:
    try:
        loader = LOADERS[name]
    except KeyError:
        raise InvalidInputError(f"unknown dataset {name!r}; available: {sorted(LOADERS)}") from None
    return loader(path)
