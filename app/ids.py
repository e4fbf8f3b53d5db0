"""Deterministic ids: re-ingesting the same data yields the same ids, which makes ingestion idempotent."""

from __future__ import annotations

import hashlib


def _h(*parts: str) -> str:
    return hashlib.sha1("\x1f".join(parts).encode("utf-8")).hexdigest()[:16]


def entity_id(name: str) -> str:
    return f"ent_{_h('entity', name)}"


def page_id(title: str) -> str:
    return f"page_{_h('page', title)}"


def chunk_id(title: str, index: int) -> str:
    return f"chunk_{_h('chunk', title, str(index))}"


def section_id(title: str, path: tuple[str, ...]) -> str:
    return f"sec_{_h('section', title, *path)}"
