"""Parsers for what can be ingested: KG triples (MetaQA ``s|r|o``, TSV, CSV), documents (JSON, JSONL, Markdown
folders) and Cypher scripts; and the sentence-aware chunker. Pure functions, no I/O beyond reading the input."""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.errors import InvalidInputError


@dataclass(frozen=True)
class Triple:
    subject: str
    relation: str
    object: str


@dataclass(frozen=True)
class Document:
    title: str
    text: str
    source: str = ""
    key: str = ""
    """Identity for idempotent re-ingestion; defaults to the title. Corpora that repeat a title for different
    passages (MuSiQue) get ``"Title (2)"``-style keys."""

    @property
    def doc_key(self) -> str:
        return self.key or self.title


@dataclass(frozen=True)
class Chunk:
    index: int
    text: str
    """Title line + chunk body: the title is kept with every chunk."""


# --- triples ------------------------------------------------------------------------------------------------
_REL_CLEAN = re.compile(r"[^A-Za-z0-9_]+")


def normalise_relation(rel: str) -> str:
    """Relationship type from a relation name: ``directed_by`` -> ``DIRECTED_BY``."""
    t = _REL_CLEAN.sub("_", rel.strip()).strip("_").upper()
    if not t:
        raise InvalidInputError(f"relation {rel!r} has no usable characters")
    return "R_" + t if t[0].isdigit() else t


def _clean(field: str) -> str:
    return " ".join(field.strip().split())


def triples_from_rows(rows: Iterable[Sequence[str]], source: str = "input") -> Iterator[Triple]:
    for n, row in enumerate(rows, start=1):
        if len(row) != 3:
            raise InvalidInputError(f"{source}:{n}: expected 3 fields, got {len(row)}")
        s, r, o = (_clean(c) for c in row)
        if not (s and r and o):
            raise InvalidInputError(f"{source}:{n}: empty subject, relation or object")
        yield Triple(s, r, o)


def parse_triple_lines(lines: Iterable[str], fmt: str, source: str = "input") -> Iterator[Triple]:
    """``fmt``: ``metaqa`` (``s|r|o``), ``tsv`` (three tab-separated columns) or ``csv`` (three columns, optional
    header ``subject,relation,object``)."""
    if fmt == "csv":
        rows: Iterable[list[str]] = csv.reader(lines)
    else:
        sep = "|" if fmt == "metaqa" else "\t"
        rows = (line.rstrip("\n").split(sep) for line in lines)
    for n, row in enumerate(rows, start=1):
        if not row or all(not c.strip() for c in row):
            continue
        if n == 1 and [c.strip().lower() for c in row] in (
            ["subject", "relation", "object"],
            ["s", "r", "o"],
        ):
            continue
        if len(row) != 3:
            raise InvalidInputError(f"{source}:{n}: expected 3 fields in {fmt} format, got {len(row)}")
        yield from triples_from_rows([row], source=f"{source}:{n}")


def read_triples(path: Path, fmt: str) -> list[Triple]:
    with open(path, encoding="utf-8") as fh:
        return list(parse_triple_lines(fh, fmt, source=str(path)))


def load_label_map(path: Path | None) -> dict[str, tuple[str, str]]:
    if path is None:
        return {}
    raw = json.loads(Path(path).read_text(encoding="utf-8"))
    out: dict[str, tuple[str, str]] = {}
    for rel, pair in raw.items():
        if not (isinstance(pair, list) and len(pair) == 2):
            raise InvalidInputError(f"labels file {path}: {rel!r} must map to [subject_label, object_label]")
        out[rel] = (str(pair[0]), str(pair[1]))
    return out


# --- documents ----------------------------------------------------------------------------------------------
def _docs_from_json(data: Any, source: str) -> Iterator[Document]:
    if isinstance(data, dict):  # HotpotQA corpus: {title: [sentences]}
        for title, sents in data.items():
            text = "".join(sents) if isinstance(sents, list) else str(sents)
            yield Document(str(title), text, source)
        return
    if not isinstance(data, list):
        raise InvalidInputError(f"{source}: expected a list of {{title, text}} objects or a {{title: text}} map")
    seen: dict[str, int] = {}
    for i, obj in enumerate(data):
        if not isinstance(obj, dict) or "text" not in obj:
            raise InvalidInputError(f"{source}[{i}]: each document needs 'text' (and 'title')")
        text = obj["text"]
        if isinstance(text, list):
            text = "".join(text)
        title = str(obj.get("title") or f"{Path(source).stem}-{i}")
        seen[title] = seen.get(title, 0) + 1
        key = str(obj.get("id") or (title if seen[title] == 1 else f"{title} ({seen[title]})"))
        yield Document(title, str(text), source, key)


def parse_markdown(text: str, fallback_title: str, source: str) -> Document:
    lines = text.splitlines()
    title = fallback_title
    for i, line in enumerate(lines):
        if line.startswith("# "):
            title = line[2:].strip()
            lines = lines[:i] + lines[i + 1 :]
            break
    return Document(title, "\n".join(lines).strip(), source)


def read_documents(path: Path) -> list[Document]:
    """A folder of ``.md``/``.txt``/``.json``/``.jsonl`` files, or one such file."""
    files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    docs: list[Document] = []
    for f in files:
        suffix = f.suffix.lower()
        if suffix in (".md", ".markdown", ".txt"):
            docs.append(parse_markdown(f.read_text(encoding="utf-8"), f.stem.replace("-", " "), str(f)))
        elif suffix == ".json":
            docs.extend(_docs_from_json(json.loads(f.read_text(encoding="utf-8")), str(f)))
        elif suffix == ".jsonl":
            with open(f, encoding="utf-8") as fh:
                objs = [json.loads(line) for line in fh if line.strip()]
            docs.extend(_docs_from_json(objs, str(f)))
    if not docs:
        raise InvalidInputError(f"no documents found under {path} (.md, .txt, .json or .jsonl)")
    return docs


# --- chunking -----------------------------------------------------------------------------------------------
_SENT_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[A-Z0-9\"'(\[])|\n{2,}")


def split_sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENT_END.split(text) if s and s.strip()]


def _split_long(sentence: str, size: int) -> list[str]:
    words, parts, cur = sentence.split(), [], ""
    for w in words:
        if cur and len(cur) + 1 + len(w) > size:
            parts.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}" if cur else w
    if cur:
        parts.append(cur)
    return parts


def chunk_document(doc: Document, size: int = 1024, overlap: float = 0.2) -> list[Chunk]:
    """Pack whole sentences into chunks of about ``size`` characters; each new chunk starts with the trailing
    sentences of the previous one worth about ``overlap`` of its size. The title heads every chunk."""
    sentences: list[str] = []
    for s in split_sentences(doc.text):
        sentences.extend(_split_long(s, size) if len(s) > size else [s])
    chunks: list[list[str]] = []
    cur: list[str] = []
    for s in sentences:
        if cur and sum(len(x) + 1 for x in cur) + len(s) > size:
            chunks.append(cur)
            keep: list[str] = []
            budget = overlap * size
            for prev in reversed(cur):
                # the last sentence is carried over even when it alone exceeds the budget (up to half a chunk),
                # so that a boundary never falls between two chunks without shared context
                over = sum(len(x) + 1 for x in keep) + len(prev) > budget
                if over and (keep or len(prev) > size // 2 or overlap == 0):
                    break
                keep.insert(0, prev)
            cur = keep
        cur.append(s)
    if cur or not chunks:
        chunks.append(cur)
    return [Chunk(i, f"{doc.title}\n{' '.join(c)}".strip()) for i, c in enumerate(chunks)]


# --- cypher scripts -----------------------------------------------------------------------------------------
def split_cypher_script(text: str) -> list[str]:
    """Statements separated by ``;`` at the end of a line; ``//`` comment lines and ``:`` client commands
    (``:begin``) are dropped."""
    statements, cur = [], []
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("//") or stripped.startswith(":"):
            continue
        if stripped.endswith(";"):
            cur.append(stripped[:-1])
            statements.append("\n".join(cur).strip())
            cur = []
        else:
            cur.append(line)
    if cur and "\n".join(cur).strip():
        statements.append("\n".join(cur).strip())
    return [s for s in statements if s]


_SCHEMA_STMT = re.compile(
    r"^CREATE\s+(?:CONSTRAINT|INDEX)\b.*?\bFOR\s*\(\s*\w+\s*:\s*`?(\w+)`?\s*\)\s*"
    r"(?:REQUIRE|ON)\s*\(?\s*\w+\.`?(\w+)`?",
    re.IGNORECASE | re.DOTALL,
)


def parse_schema_statement(statement: str) -> tuple[str, str] | None:
    """``(label, property)`` of a ``CREATE INDEX``/``CREATE CONSTRAINT`` statement on one node property."""
    m = _SCHEMA_STMT.match(statement.strip())
    return (m.group(1), m.group(2)) if m else None
