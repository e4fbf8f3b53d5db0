"""The code's shape, checked: import layers and no cycles (import-linter, contracts in pyproject.toml), modes that
never import each other, and all Cypher text in ``app/cypher/``."""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

import grimp
import pytest

from app.retrievers.registry import installed_modes
from tests.conftest import ROOT

CYPHER = re.compile(
    r"\b(MATCH|MERGE)\s*\(|\bRETURN\s+\w|\bCALL\s+(db\.|\{)|\bCREATE\s+(INDEX|CONSTRAINT|\()|\bSHOW\s+DATABASES|\bUNWIND\s+\$"
)
# synthetic candidate strings for the constrained-decoding benchmark: token sequences, never executed anywhere
NOT_SERVICE_CYPHER = {"app/eval/bench_constrained.py"}


def test_import_contracts_are_kept() -> None:
    """Layers of app/ (each imports only from below), no cycles in any package, the grounded core independent of
    the gateway and the workers, the gateway independent of the workers (see ``[tool.importlinter]``)."""
    from importlinter.cli import lint_imports

    cwd = Path.cwd()
    os.chdir(ROOT)
    try:
        assert lint_imports(no_cache=True, no_logo=True) == 0
    finally:
        os.chdir(cwd)


def test_modes_never_import_another_mode_or_the_registry() -> None:
    """Modes reach each other only through ``RetrieverDeps.modes``."""
    graph = grimp.build_graph("app", cache_dir=None)
    modules = {cls.__module__ for cls in installed_modes().values() if cls.__module__.startswith("app.")}
    assert len(modules) >= 3
    for m in modules:
        imported = graph.find_modules_directly_imported_by(m)
        assert not imported & ((modules - {m}) | {"app.retrievers.registry"}), m


def _strings(tree: ast.AST) -> list[tuple[int, str]]:
    """String literals (f-string parts included), docstrings excluded."""
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            out.append((node.lineno, node.value))
        elif isinstance(node, ast.JoinedStr):
            text = "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
            out.append((node.lineno, text))
    return out


def test_all_cypher_text_lives_in_app_cypher() -> None:
    offenders = []
    for path in sorted((ROOT / "app").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith("app/cypher/") or rel in NOT_SERVICE_CYPHER:
            continue
        for line, text in _strings(ast.parse(path.read_text())):
            if CYPHER.search(text):
                offenders.append(f"{rel}:{line}: {text[:60]!r}")
    assert not offenders, "Cypher text outside app/cypher/:\n" + "\n".join(offenders)


@pytest.mark.parametrize("text", ["MATCH (n) RETURN n", "UNWIND $rows AS row", "CALL db.labels()", "MERGE (a)"])
def test_the_cypher_detector_sees_cypher(text: str) -> None:
    assert CYPHER.search(text)


WORD = re.compile(r"^[a-z]+$")
# not knowledge of a language: the benchmark's synthetic titles; the HTML tags that end a block of text
NOT_WORD_LISTS = {"app/eval/bench_constrained.py", "app/ingest/parsers.py"}


def _word_lists(tree: ast.AST) -> list[tuple[int, list[str]]]:
    """List, tuple and set literals of eight or more lower-case words."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.List | ast.Tuple | ast.Set) and len(node.elts) >= 8:
            words = [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
            if len(words) == len(node.elts) and all(WORD.match(w) for w in words):
                out.append((node.lineno, words))
    return out


def test_no_word_list_of_a_language_is_code() -> None:
    """What the service knows of English (function words, question words, number words, frames) is data
    (``app/lexicon/``, ``app/text2cypher/lexicons/``, ``app/stores/graph/lexicon/``): another language is another
    file, not an edit to code."""
    offenders = []
    for path in sorted((ROOT / "app").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel not in NOT_WORD_LISTS:
            offenders += [f"{rel}:{line}: {words[:6]}" for line, words in _word_lists(ast.parse(path.read_text()))]
    assert not offenders, "word lists in code:\n" + "\n".join(offenders)


def test_the_word_list_detector_sees_a_word_list() -> None:
    tree = ast.parse('WORDS = frozenset(["a", "an", "the", "of", "in", "on", "at", "to"])\nOTHER = ("x", "Y1")')
    assert [line for line, _ in _word_lists(tree)] == [1]
