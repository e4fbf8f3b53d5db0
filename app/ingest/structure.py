"""Documents as a graph (pure: no I/O): each document becomes a Page, a SubChapter per heading and Chunks, with
uris and the links between them, and the chunks' citations of entities are found by a gazetteer.

Nodes and uris (``uri`` is a property; ``id`` the deterministic node id the vector points carry):

* ``(:Page {uri: key})`` — ``key`` is the document key (the title, or ``Title (2)`` for a repeated title);
* ``(:SubChapter {uri: key#Section#Subsection})`` — ``HAS_SUBCHAPTER`` from its direct parent (page or
  subchapter), ``IS_SUBCHAPTER_OF`` to every ancestor;
* ``(:Chunk {uri: parent#n})`` — ``HAS_CHUNK`` from its direct parent only, ``IS_CHUNK_OF`` to every ancestor,
  ``NEXT``/``PREVIOUS`` between neighbours of one document;
* ``(:Entity {name})`` — ``(:Page)-[:ABOUT]->`` the entity its title names; ``(:Chunk)-[:CITES]->`` /
  ``<-[:CITED_IN]-`` the entities it mentions: links' targets, titles of the namespace's pages that occur in its text,
  and the names of the namespace's knowledge-graph entities (so documents and a KG in one namespace are joined).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from urllib.parse import unquote, urlsplit

from app.cypher import queries as Q
from app.ids import chunk_id, page_id, section_id
from app.ingest.parsers import Chunk, Document, chunk_document
from app.text import STOPWORDS

_PAREN = re.compile(r"\s*\([^()]*\)\s*$")
_TOKEN = re.compile(r"\S+")
_TRAILING = ".,;:!?\"')]}»”’"
_LEADING = "\"'([{«“‘"


def digest(doc: Document) -> str:
    """What a re-ingest compares: a document whose digest is unchanged is skipped."""
    h = hashlib.sha256()
    for part in (doc.title, doc.source, *(f"{'#'.join(s.path)}\x1e{s.text}" for s in doc.parts())):
        h.update(part.encode("utf-8") + b"\x1f")
    for link in doc.links:
        h.update(f"{link.text}\x1e{link.target}\x1f".encode())
    return h.hexdigest()[:32]


def aliases(title: str) -> list[str]:
    """How a title is written in running text: itself, and without a trailing parenthetical ("Ed Wood (film)" is
    mentioned as "Ed Wood")."""
    out = [title.strip()]
    bare = _PAREN.sub("", title).strip()
    if bare and bare != out[0]:
        out.append(bare)
    return [a for a in out if a]


@dataclass
class Gazetteer:
    """Surface form -> entity names; finds mentions in text, longest first, never overlapping. Case-sensitive, and a
    form must contain a capital letter or a digit (proper names: "Gender" is not found in "gender"), and must not
    be a lone stopword."""

    forms: dict[str, set[str]] = field(default_factory=dict)
    max_tokens: int = 1

    def add(self, form: str, name: str) -> None:
        form = " ".join(form.split())
        if len(form) < 2 or not any(ch.isupper() or ch.isdigit() for ch in form) or form.lower() in STOPWORDS:
            return
        self.forms.setdefault(form, set()).add(name)
        self.max_tokens = min(12, max(self.max_tokens, len(form.split())))

    def add_title(self, title: str) -> None:
        for form in aliases(title):
            self.add(form, title)

    @classmethod
    def of_titles(cls, titles: Iterable[str]) -> Gazetteer:
        """A gazetteer of ``titles`` and their running-text forms (``aliases``)."""
        g = cls()
        for t in titles:
            g.add_title(t)
        return g

    def __len__(self) -> int:
        return len(self.forms)

    def find(self, text: str) -> list[str]:
        """Entity names mentioned in ``text``, in order of first mention."""
        if not self.forms:
            return []
        toks = [(m.start(), m.end()) for m in _TOKEN.finditer(text)]
        found: dict[str, None] = {}
        i = 0
        while i < len(toks):
            start = toks[i][0]
            while start < toks[i][1] and text[start] in _LEADING:
                start += 1
            if start == toks[i][1] or not (text[start].isupper() or text[start].isdigit()):
                i += 1
                continue
            hit = 0
            for j in range(min(len(toks), i + self.max_tokens) - 1, i - 1, -1):
                span = text[start : toks[j][1]]
                names = self.forms.get(span) or self.forms.get(span.rstrip(_TRAILING))
                if names is None and span.endswith("'s"):
                    names = self.forms.get(span[:-2])
                if names:
                    for n in sorted(names):
                        found.setdefault(n)
                    hit = j - i + 1
                    break
            i += hit or 1
        return list(found)


def link_title(target: str, titles: dict[str, str]) -> str | None:
    """The page title a link points to: its last path segment without extension, ``-``/``_`` read as spaces,
    compared case-insensitively with ``titles`` (lower case -> title)."""
    parts = urlsplit(target)
    stem = PurePosixPath(unquote(parts.path or parts.fragment)).stem if (parts.path or parts.fragment) else ""
    key = " ".join(stem.replace("-", " ").replace("_", " ").split()).lower()
    return titles.get(key) if key else None


@dataclass
class PageRows:
    """Everything one document writes: rows for the graph writes and texts for the vector points."""

    page: dict[str, object]
    sections: list[dict[str, object]]
    chunks: list[dict[str, object]]
    chunk_objs: list[Chunk]
    links: dict[tuple[str, str, str], list[dict[str, str]]]
    """(source label, relationship, target label) -> rows ``{a, b}`` of ids."""

    @property
    def id(self) -> str:
        """The page's id."""
        return str(self.page["id"])


SECTION_SEP = " > "


def page_uri(doc: Document) -> str:
    return doc.doc_key


def section_uri(doc: Document, path: tuple[str, ...]) -> str:
    return "#".join((page_uri(doc), *path))


def build_page(doc: Document, size: int, overlap: float) -> PageRows:
    key = doc.doc_key
    pid = page_id(key)
    page: dict[str, object] = {
        "id": pid,
        "uri": page_uri(doc),
        "title": doc.title,
        "source": doc.source,
        "hash": digest(doc),
    }
    links: dict[tuple[str, str, str], list[dict[str, str]]] = {}

    def link(src: str, rel: str, dst: str, a: str, b: str) -> None:
        links.setdefault((src, rel, dst), []).append({"a": a, "b": b})

    def parent_label(path: tuple[str, ...]) -> str:
        return Q.SUBCHAPTER_LABEL if path else Q.PAGE_LABEL

    sec_ids: dict[tuple[str, ...], str] = {(): pid}
    sections = []
    for path in doc.all_headings():
        sid = section_id(key, path)
        sec_ids[path] = sid
        sections.append(
            {
                "id": sid,
                "uri": section_uri(doc, path),
                "heading": path[-1],
                "path": SECTION_SEP.join(path),
                "level": len(path),
                "page_id": pid,
                "title": doc.title,
            }
        )
        parent = path[:-1]
        link(parent_label(parent), Q.HAS_SUBCHAPTER, Q.SUBCHAPTER_LABEL, sec_ids[parent], sid)
        for i in range(len(path)):
            anc = path[:i]
            link(Q.SUBCHAPTER_LABEL, Q.IS_SUBCHAPTER_OF, parent_label(anc), sid, sec_ids[anc])
    chunk_objs = chunk_document(doc, size, overlap)
    chunks = []
    prev = None
    for c in chunk_objs:
        cid = chunk_id(key, c.index)
        parent_uri = section_uri(doc, c.section)
        chunks.append(
            {
                "id": cid,
                "uri": f"{parent_uri}#{c.local_index}",
                "text": c.text,
                "index": c.index,
                "page_id": pid,
                "section_id": sec_ids[c.section] if c.section else None,
                "section": SECTION_SEP.join(c.section),
            }
        )
        link(parent_label(c.section), Q.HAS_CHUNK, Q.CHUNK_LABEL, sec_ids[c.section], cid)
        for i in range(len(c.section) + 1):
            anc = c.section[:i]
            link(Q.CHUNK_LABEL, Q.IS_CHUNK_OF, parent_label(anc), cid, sec_ids[anc])
        if prev is not None:
            link(Q.CHUNK_LABEL, Q.NEXT_CHUNK, Q.CHUNK_LABEL, prev, cid)
            link(Q.CHUNK_LABEL, Q.PREVIOUS_CHUNK, Q.CHUNK_LABEL, cid, prev)
        prev = cid
    return PageRows(page, sections, chunks, chunk_objs, links)


def chunk_body(text: str) -> str:
    """A chunk's text without its heading line (the title and heading path that head every chunk)."""
    return text.split("\n", 1)[1] if "\n" in text else text


def citations(
    doc: Document,
    chunks: Iterable[Chunk],
    gazetteer: Gazetteer,
    titles: dict[str, str],
) -> list[tuple[int, str, str]]:
    """``(chunk index, entity name, via)`` for every entity a chunk of ``doc`` cites: ``link`` for the targets of
    the links whose words it contains (the linked page's title when the target names one of ``titles``, else the
    link's words), ``mention`` for the gazetteer's names found in its body. A document does not cite its own title
    (its page is ``ABOUT`` it)."""
    out: dict[tuple[int, str], str] = {}
    for c in chunks:
        body = chunk_body(c.text)
        for ln in doc.links:
            if ln.text and ln.text in body:
                name = link_title(ln.target, titles) or ln.text
                if name != doc.title:
                    out.setdefault((c.index, name), "link")
        for name in gazetteer.find(body):
            if name != doc.title:
                out.setdefault((c.index, name), "mention")
    return [(i, name, via) for (i, name), via in out.items()]
