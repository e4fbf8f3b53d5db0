"""Answer accuracy for text2cypher (issue 39: "the gold values appear in the answer").

The rule of the independent scorer (``../shared/tools/score_text2cypher.py``, its ``answer_scores``), on rows as the
eval reads them: every non-null gold value (cells flattened through lists; a node or map is one value) appears among
the service's values, where a gold node also counts as found when the service returns its display value (its
label's display property under the namespace's schema profile, ``Display``) and a gold scalar also when it is a
property of a node the service returns; or the gold result is one row and the service returned exactly one
non-null value, found among that row's; or, where the gold query ends in a LIMIT, the service returned at least as
many rows as the gold, each made of values of the un-limited gold result (its *pool*). The stricter first-column
comparison (``runner.answers_equal``) is reported beside it as ``answer_first_column``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.cypher.candidates import DEFAULT_DISPLAY, Display
from app.eval.relaxed import plain
from app.stores.graph.base import plain_value

TOL = 1e-6


@dataclass(frozen=True)
class Atom:
    """One value of a result: ``value`` as plain data (a node as its property dict), ``shown`` a node's display
    value (None for anything else or a node without one)."""

    value: Any
    shown: Any = None


def _is_num(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def close(a: Any, b: Any) -> bool:
    """Equal as the scorer compares values: numbers within ``TOL`` (18 == 18.0; booleans are not numbers), maps key
    by key, lists as multisets."""
    if _is_num(a) and _is_num(b):
        if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
            return True
        return math.isclose(a, b, rel_tol=TOL, abs_tol=TOL)
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(close(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        left = list(b)
        for x in a:
            j = next((j for j, y in enumerate(left) if close(x, y)), None)
            if j is None:
                return False
            left.pop(j)
        return not left
    if type(a) is not type(b):
        return False
    return bool(a == b)


def node_display(node: Mapping[str, Any], display: Display = DEFAULT_DISPLAY) -> Any:
    """A node's display value (``display``: the namespace's schema profile, ``runner.display_of``): its label's
    display property, else the first of the profile's display properties it has; None where it has none."""
    props = node.get("properties") or {}
    by_label = dict(display.by_label)
    for key in [by_label[lab] for lab in node.get("labels") or [] if lab in by_label] + list(display.keys):
        if props.get(key) is not None:
            return props[key]
    return None


def atoms(rows: Sequence[Mapping[str, Any]], display: Display = DEFAULT_DISPLAY) -> list[list[Atom]]:
    """Each row's non-null values, flattened through lists."""
    out: list[list[Atom]] = []
    for row in rows:
        found: list[Atom] = []
        for v in row.values():
            _walk(v, display, found)
        out.append(found)
    return out


def _walk(v: Any, display: Display, found: list[Atom]) -> None:
    v = plain_value(v)
    if isinstance(v, list | tuple):
        for x in v:
            _walk(x, display, found)
    elif isinstance(v, Mapping) and isinstance(v.get("properties"), Mapping) and "labels" in v:
        found.append(Atom(plain(v), node_display(v, display)))
    elif v is not None:
        found.append(Atom(plain(v)))


def _found(g: Atom, among: list[Atom]) -> bool:
    """``g`` is among the values, or (a node) its display value is, or (a scalar) it is a property of a node there."""
    if any(close(g.value, s.value) for s in among):
        return True
    if isinstance(g.value, Mapping):
        return g.shown is not None and any(close(g.shown, s.value) for s in among if not isinstance(s.value, Mapping))
    derived = [
        x for s in among if isinstance(s.value, Mapping) for x in s.value.values() if not isinstance(x, Mapping | list)
    ]
    return any(close(g.value, x) for x in derived if x is not None)


def answer_found(
    service: Sequence[Mapping[str, Any]],
    gold: Sequence[Mapping[str, Any]],
    pool: Sequence[Mapping[str, Any]] | None = None,
    display: Display = DEFAULT_DISPLAY,
) -> bool:
    """The service's rows answer the question whose gold rows are ``gold`` (``pool``: the gold query's rows without
    its final LIMIT, where it has one)."""
    g_rows, s_rows = atoms(gold, display), atoms(service, display)
    g_all, s_all = [a for r in g_rows for a in r], [a for r in s_rows for a in r]
    if not g_all:
        return False
    if all(_found(g, s_all) for g in g_all):
        return True
    if len(gold) == 1 and len(s_all) == 1 and _found(s_all[0], g_all):
        return True
    if pool:
        p_all = [a for r in atoms(pool, display) for a in r]
        good = sum(1 for r in s_rows if r and all(_found(v, p_all) for v in r))
        return good >= len(gold)
    return False
