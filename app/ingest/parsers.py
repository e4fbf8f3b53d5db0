"""Parsers for what can be ingested: KG triples (MetaQA ``s|r|o``, TSV, CSV), documents (JSON, JSONL, Markdown
folders) and Cypher scripts; and the sentence-aware chunker. Pure functions, no I/O beyond reading the input."""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from app.cypher.queries import is_ident
from app.errors import InvalidInputError


@dataclass(frozen=True)
class Triple:
    subject: str
    relation: str
    object: str


@dataclass(frozen=True)
class Section:
    """A part of a document under one heading path: ``()`` is the text before the first heading (the page's own),
    ``("History", "Early years")`` the text under ``## History`` / ``### Early years``."""

    path: tuple[str, ...]
    text: str


@dataclass(frozen=True)
class Link:
    """A link in a document's text: the words shown and where they point (a URL, a file, a page title)."""

    text: str
    target: str


@dataclass(frozen=True)
class Document:
    title: str
    text: str
    source: str = ""
    key: str = ""
    """Identity for idempotent re-ingestion; defaults to the title. Corpora that repeat a title for different
    passages (MuSiQue) get ``"Title (2)"``-style keys."""
    sections: tuple[Section, ...] = ()
    """The text by heading (Markdown, HTML); empty: the whole ``text`` is the page's own section."""
    links: tuple[Link, ...] = ()

    @property
    def doc_key(self) -> str:
        return self.key or self.title

    def parts(self) -> tuple[Section, ...]:
        return self.sections or (Section((), self.text),)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Document:
        """The inverse of ``dataclasses.asdict`` (what the ingest journal keeps of inline documents)."""
        return cls(
            str(d["title"]),
            str(d["text"]),
            str(d.get("source", "")),
            str(d.get("key", "")),
            sections=tuple(Section(tuple(s["path"]), s["text"]) for s in d.get("sections", ())),
            links=tuple(Link(ln["text"], ln["target"]) for ln in d.get("links", ())),
        )

    def all_headings(self) -> list[tuple[str, ...]]:
        """Every heading path, parents before children (a heading with no text of its own included)."""
        out: dict[tuple[str, ...], None] = {}
        for s in self.parts():
            for i in range(1, len(s.path) + 1):
                out.setdefault(s.path[:i])
        return list(out)


@dataclass(frozen=True)
class Chunk:
    index: int
    text: str
    """Title line + chunk body: the title (and the heading path, ``Title > Section > Sub``) heads every chunk."""
    section: tuple[str, ...] = ()
    """The heading path of the section the chunk belongs to (``()``: the page's own text)."""
    local_index: int = 0
    """Position among its section's chunks (``index`` counts over the whole document)."""


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
    try:
        with open(path, encoding="utf-8") as fh:
            return list(parse_triple_lines(fh, fmt, source=str(path)))
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise InvalidInputError(f"{path}: not {fmt} text in UTF-8 ({type(exc).__name__})") from exc


RESERVED_LABELS = frozenset({"Page", "SubChapter", "Chunk"})
"""The document structure's labels (``app/ingest/structure.py``): a triple's node never takes one, nor any label
starting with ``_`` (the service's own bookkeeping: the ingest journal and log)."""


def check_label_map(labels: dict[str, tuple[str, str]], source: str = "labels") -> dict[str, tuple[str, str]]:
    """``labels`` as given, or ``InvalidInputError`` naming the first label a triple's node may not take."""
    for rel, pair in labels.items():
        for label in pair:
            if not is_ident(label):
                raise InvalidInputError(
                    f"{source}: {rel!r} maps to {label!r}, not a label: letters, digits and '_' only, not starting "
                    "with a digit"
                )
            if label.startswith("_") or label in RESERVED_LABELS:
                raise InvalidInputError(
                    f"{source}: {rel!r} maps to the label {label!r}, which the service keeps for itself "
                    f"(labels starting with '_' and {', '.join(sorted(RESERVED_LABELS))})"
                )
    return labels


def load_label_map(path: Path | None) -> dict[str, tuple[str, str]]:
    if path is None:
        return {}
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InvalidInputError(f"labels file {path}: cannot be read as JSON ({type(exc).__name__})") from exc
    if not isinstance(raw, dict):
        raise InvalidInputError(f"labels file {path}: expected {{relation: [subject_label, object_label]}}")
    out: dict[str, tuple[str, str]] = {}
    for rel, pair in raw.items():
        if not (isinstance(pair, list) and len(pair) == 2):
            raise InvalidInputError(f"labels file {path}: {rel!r} must map to [subject_label, object_label]")
        out[rel] = (str(pair[0]), str(pair[1]))
    return check_label_map(out, f"labels file {path}")


# --- documents ----------------------------------------------------------------------------------------------
def _docs_from_json(data: Any, source: str) -> Iterator[Document]:
    if isinstance(data, dict):  # HotpotQA corpus: {title: [sentences]}
        for title, sents in data.items():
            yield Document(str(title), _text_of(sents, f"{source}[{title!r}]"), source)
        return
    if not isinstance(data, list):
        raise InvalidInputError(f"{source}: expected a list of {{title, text}} objects or a {{title: text}} map")
    seen: dict[str, int] = {}
    for i, obj in enumerate(data):
        if not isinstance(obj, dict) or "text" not in obj:
            raise InvalidInputError(f"{source}[{i}]: each document needs 'text' (and 'title')")
        text = _text_of(obj["text"], f"{source}[{i}].text")
        title = str(obj.get("title") or f"{Path(source).stem}-{i}")
        seen[title] = seen.get(title, 0) + 1
        key = str(obj.get("id") or (title if seen[title] == 1 else f"{title} ({seen[title]})"))
        yield Document(title, text, source, key)


def _text_of(value: Any, where: str) -> str:
    """A document's text: a string, or a list of strings (sentences) joined."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return "".join(value)
    raise InvalidInputError(f"{where}: a document's text must be a string or a list of strings")


_MD_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_MD_LINK = re.compile(r"!?\[([^\]]*)\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
_MD_FENCE = re.compile(r"^\s*(```|~~~)")


def _sections_document(
    title: str, parts: list[tuple[tuple[str, ...], list[str]]], links: list[Link], source: str
) -> Document:
    sections = tuple(Section(path, "\n".join(lines).strip()) for path, lines in parts)
    sections = tuple(s for s in sections if s.text or s.path)
    text = "\n\n".join(s.text for s in sections if s.text)
    flat = len(sections) <= 1 and all(not s.path for s in sections)
    return Document(title, text, source, sections=() if flat else sections, links=tuple(dict.fromkeys(links)))


def parse_markdown(text: str, fallback_title: str, source: str) -> Document:
    """Title from the first ``# `` heading (else ``fallback_title``); deeper headings open sections (``##`` a
    top-level one, ``###`` one under it, ...); links ``[words](target)`` keep their words in the text and are
    recorded (images keep their alt text); headings inside fenced code are text."""
    title: str | None = None
    stack: list[tuple[int, str]] = []
    parts: list[tuple[tuple[str, ...], list[str]]] = [((), [])]
    links: list[Link] = []
    fenced = False

    def unlink(m: re.Match[str]) -> str:
        if not m.group(0).startswith("!") and m.group(1).strip():
            links.append(Link(m.group(1).strip(), m.group(2)))
        return m.group(1)

    for line in text.splitlines():
        if _MD_FENCE.match(line):
            fenced = not fenced
        m = None if fenced else _MD_HEADING.match(line)
        if m is None:
            parts[-1][1].append(_MD_LINK.sub(unlink, line))
            continue
        level, heading = len(m.group(1)), _MD_LINK.sub(unlink, m.group(2)).strip()
        if level == 1 and title is None:
            title = heading or fallback_title
            continue
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, heading or "(untitled)"))
        parts.append((tuple(h for _, h in stack), []))
    return _sections_document(title or fallback_title, parts, links, source)


class _HTMLText(HTMLParser):
    """Text, headings and links of an HTML page (scripts, styles and ``<head>`` other than ``<title>`` dropped)."""

    BLOCK = frozenset(
        {"p", "div", "li", "ul", "ol", "br", "tr", "table", "section", "article", "blockquote", "pre", "dd", "dt"}
    )
    SKIP = frozenset({"script", "style", "noscript", "template", "svg"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.title = ""
        self.h1 = ""
        self.stack: list[tuple[int, str]] = []
        self.parts: list[tuple[tuple[str, ...], list[str]]] = [((), [""])]
        self.links: list[Link] = []
        self._skip = 0
        self._in_title = False
        self._heading: tuple[int, list[str]] | None = None
        self._link: tuple[str, list[str]] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.SKIP:
            self._skip += 1
        elif tag == "title":
            self._in_title = True
        elif len(tag) == 2 and tag[0] == "h" and tag[1] in "123456":
            self._heading = (int(tag[1]), [])
        elif tag == "a":
            self._link = (dict(attrs).get("href") or "", [])
        elif tag in self.BLOCK:
            self.parts[-1][1].append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP:
            self._skip = max(0, self._skip - 1)
        elif tag == "title":
            self._in_title = False
        elif self._heading is not None and tag == f"h{self._heading[0]}":
            level, words = self._heading
            self._heading = None
            heading = " ".join("".join(words).split())
            if level == 1 and not self.h1:
                self.h1 = heading
                return
            while self.stack and self.stack[-1][0] >= level:
                self.stack.pop()
            self.stack.append((level, heading or "(untitled)"))
            self.parts.append((tuple(h for _, h in self.stack), [""]))
        elif tag == "a" and self._link is not None:
            target, words = self._link
            self._link = None
            shown = " ".join("".join(words).split())
            if shown:
                self.links.append(Link(shown, target))
        elif tag in self.BLOCK:
            self.parts[-1][1].append("\n")

    def handle_data(self, data: str) -> None:
        if self._skip:
            return
        if self._in_title:
            self.title += data
            return
        if self._link is not None:
            self._link[1].append(data)
        if self._heading is not None:
            self._heading[1].append(data)
        else:
            self.parts[-1][1].append(data)


def parse_html(text: str, fallback_title: str, source: str) -> Document:
    """Title from ``<title>`` (else the first ``<h1>``, else ``fallback_title``); ``<h2>``-``<h6>`` open sections
    (and an ``<h1>`` after the first); ``<a href>`` links recorded; paragraphs and list items kept apart."""
    p = _HTMLText()
    p.feed(text)
    p.close()
    parts = []
    for path, pieces in p.parts:
        paragraphs = [" ".join(x.split()) for x in "".join(pieces).split("\n")]
        parts.append((path, [x for x in paragraphs if x]))
    title = " ".join(p.title.split()) or p.h1 or fallback_title
    return _sections_document(title, [(path, ["\n\n".join(lines)]) for path, lines in parts], p.links, source)


def source_files(path: Path) -> list[Path]:
    """The regular files of a folder (sorted) that stay inside it once links are followed: a link in the folder to
    a file elsewhere (``/etc/passwd``) is not read; or the file itself."""
    if not path.is_dir():
        return [path]
    root = path.resolve()
    return sorted(p for p in path.rglob("*") if p.is_file() and p.resolve().is_relative_to(root))


def read_documents(path: Path) -> list[Document]:
    """A folder of ``.md``/``.txt``/``.html``/``.json``/``.jsonl`` files, or one such file."""
    try:
        return _read_documents(path)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InvalidInputError(f"{path}: a document is not UTF-8 text or valid JSON ({type(exc).__name__})") from exc


def _read_documents(path: Path) -> list[Document]:
    docs: list[Document] = []
    for f in source_files(path):
        suffix = f.suffix.lower()
        if suffix in (".md", ".markdown", ".txt"):
            docs.append(parse_markdown(f.read_text(encoding="utf-8"), f.stem.replace("-", " "), str(f)))
        elif suffix in (".html", ".htm"):
            docs.append(parse_html(f.read_text(encoding="utf-8"), f.stem.replace("-", " "), str(f)))
        elif suffix == ".json":
            docs.extend(_docs_from_json(json.loads(f.read_text(encoding="utf-8")), str(f)))
        elif suffix == ".jsonl":
            with open(f, encoding="utf-8") as fh:
                objs = [json.loads(line) for line in fh if line.strip()]
            docs.extend(_docs_from_json(objs, str(f)))
    if not docs:
        raise InvalidInputError(f"no documents found under {path} (.md, .txt, .html, .json or .jsonl)")
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
    """Each section's text packed into chunks (``chunk_text``); a chunk never spans two sections. The title heads
    every chunk, with the heading path for a section's chunks (``Title > History > Early years``)."""
    chunks: list[Chunk] = []
    for section in doc.parts():
        if not section.text.strip() and (section.path or doc.sections):
            continue
        head = " > ".join((doc.title, *section.path))
        for i, body in enumerate(chunk_text(section.text, size, overlap)):
            chunks.append(Chunk(len(chunks), f"{head}\n{body}".strip(), section.path, i))
    return chunks


def chunk_text(text: str, size: int = 1024, overlap: float = 0.2) -> list[str]:
    """Pack whole sentences into chunks of about ``size`` characters; each new chunk starts with the trailing
    sentences of the previous one worth about ``overlap`` of its size."""
    sentences: list[str] = []
    for s in split_sentences(text):
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
    return [" ".join(c) for c in chunks]


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
