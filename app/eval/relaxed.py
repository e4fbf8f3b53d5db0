"""Relaxed execution accuracy for text2cypher (issue 39): a gold query's final ``LIMIT k`` picks among equals.

Without ``ORDER BY`` the gold run's k rows are one arbitrary choice, so any k rows of the un-limited result (the
*pool*) are right; with ``ORDER BY`` and a sort column the final ``RETURN`` carries, row i may be any pool row with
the same sort value as gold row i (ties at the cut). These are the rules of the independent scorer
(``../shared/tools/score_text2cypher.py``); the functions here compute the pool and the sort column from the gold
query, so the eval reports the same figure and ``python -m app gold-pool`` can write them into a questions file
for that scorer."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from app.errors import AppError
from app.stores.graph.base import plain_value

_STR = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")
_COMMENT = re.compile(r"//[^\n]*")
_FINAL_LIMIT = re.compile(r"\s+LIMIT\s+(\d+)\s*;?\s*$", re.IGNORECASE)
_LIMIT_BEFORE_RETURN = re.compile(r"(\s+LIMIT\s+\d+)\s+RETURN\b(?!.*\bRETURN\b)", re.IGNORECASE | re.DOTALL)
_AGG = re.compile(r"\b(COUNT|SUM|AVG|MIN|MAX|COLLECT|STDEV|STDEVP|PERCENTILECONT|PERCENTILEDISC)\s*[({]")
_ORDER_ITEM = re.compile(
    r"\bORDER\s+BY\s+(.+?)(?:\s+(?:ASC|DESC|ASCENDING|DESCENDING)\b|,|\s+LIMIT\b|\s+SKIP\b|$)", re.IGNORECASE
)

_ALIASES = re.compile(r"(?:RETURN|,)\s*(\w+)\s+AS\s+`?(\w+)`?", re.IGNORECASE)

SortKey = int | tuple[int, str]
POOL_MAX_ROWS = 100_000
"""The most rows a pool query reads (the gold rows' own bound in the eval)."""


def _bare(query: str) -> str:
    """The query with string literals emptied and comments dropped, upper-cased, whitespace collapsed."""
    return " ".join(_COMMENT.sub(" ", _STR.sub("''", query)).upper().split())


def without_final_limit(query: str) -> str | None:
    """The query without its final ``LIMIT k`` (the pool's query), or None when it does not end in one. A ``LIMIT``
    that ends the ``WITH ... ORDER BY`` right before the last ``RETURN`` is final too where that ``RETURN`` only
    shows what the ``WITH`` kept (no aggregate, no further reading, no limit of its own: ``WITH t, count(q) AS n
    ORDER BY n LIMIT 3 RETURN t.name, n``)."""
    m = _FINAL_LIMIT.search(query)
    if m:
        return query[: m.start()]
    m = _LIMIT_BEFORE_RETURN.search(query)
    if m is None:
        return None
    tail = _bare(query[m.end() :])
    if _AGG.search(tail) or re.search(r"\b(MATCH|UNWIND|CALL|WITH|LIMIT|SKIP|UNION)\b", tail):
        return None
    head = _bare(query[: m.start()])
    with_at = head.rfind(" WITH ")
    if with_at < 0 or "ORDER BY" not in head[with_at:]:
        return None
    return query[: m.start()] + query[m.start() + len(m.group(1)) :]


def is_ordered(query: str) -> bool:
    """The result order is defined: an ORDER BY after the last RETURN, or in the WITH right before it when nothing
    in between reads the graph again and the RETURN does not aggregate."""
    s = _bare(query)
    if re.search(r"\bUNION\b", s):
        return False
    rets = [m.start() for m in re.finditer(r"\bRETURN\b", s)]
    if not rets:
        return False
    tail, head = s[rets[-1] :], s[: rets[-1]]
    if re.search(r"\bORDER BY\b", tail):
        return True
    withs = [m.start() for m in re.finditer(r"\bWITH\b", head)]
    if not withs:
        return False
    seg = head[withs[-1] :]
    return bool(
        re.search(r"\bORDER BY\b", seg) and not re.search(r"\b(MATCH|UNWIND|CALL)\b", seg) and not _AGG.search(tail)
    )


def sort_key(query: str, columns: Sequence[str]) -> SortKey | None:
    """Where the gold rows' first sort value sits: the index of the column the last ORDER BY names (an alias, or an
    expression such as ``q.view_count`` returned under its own text), or (index, property) of a returned node the
    ORDER BY reads a property of. None when the RETURN carries neither."""
    flat = " ".join(_COMMENT.sub(" ", query).split())
    items = list(_ORDER_ITEM.finditer(flat))
    if not items:
        return None
    m = items[-1]
    expr = flat[m.start(1) : m.end(1)].strip()
    names = [c.strip() for c in columns]
    folded = [c.lower() for c in names]
    if expr.lower() in folded:
        return folded.index(expr.lower())
    shown = _ALIASES.findall(flat[m.end(1) :])  # "ORDER BY n ... RETURN t.name, n AS uses": the column "uses"
    aliased = {a.lower(): b.lower() for a, b in shown}
    if expr.lower() in aliased and aliased[expr.lower()] in folded:
        return folded.index(aliased[expr.lower()])
    var, dot, prop = expr.partition(".")
    if dot and var.strip().lower() in folded and re.fullmatch(r"`?\w+`?", prop.strip()):
        return folded.index(var.strip().lower()), prop.strip().strip("`")
    return None


def plain(value: Any) -> Any:
    """A result value as plain data, as the scorer reads it: a node or relationship (``{element_id | type, labels,
    properties}``) as its property dict without the service's own ``_``-prefixed keys."""
    if isinstance(value, Mapping):
        props = value.get("properties")
        if isinstance(props, Mapping) and {"labels", "element_id", "type"} & value.keys():
            return {k: plain(v) for k, v in props.items() if not str(k).startswith("_")}
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


def _canon(v: Any) -> Hashable:
    """A hashable key of a plain value: numbers rounded (18 == 18.0), lists as multisets, maps by sorted keys."""
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return (type(v).__name__, v)
    if isinstance(v, int | float):
        return ("n", round(float(v), 6))
    if isinstance(v, Mapping):
        return ("m", tuple(sorted((str(k), _canon(x)) for k, x in v.items())))
    if isinstance(v, list | tuple):
        return ("l", tuple(sorted((_canon(x) for x in v), key=repr)))
    return ("o", repr(v))


def row_canon(row: Sequence[Any]) -> Hashable:
    """A row as a multiset of its values (column names and order ignored)."""
    return tuple(sorted((_canon(v) for v in row), key=repr))


def _sort_value(row: Sequence[Any], key: SortKey) -> Any:
    col, prop = (key, None) if isinstance(key, int) else key
    v = row[col] if col < len(row) else None
    return v.get(prop) if prop is not None and isinstance(v, Mapping) else v


def relaxed_equal(
    service: Sequence[Sequence[Any]],
    gold: Sequence[Sequence[Any]],
    pool: Sequence[Sequence[Any]] | None,
    *,
    ordered: bool,
    key: SortKey | None,
) -> bool:
    """The service's rows (plain values, :func:`plain`) are a right answer under a gold LIMIT that picks among
    equals; that they equal the gold rows is the caller's first check."""
    if not pool or len(service) != len(gold):
        return False
    if not ordered:
        return not Counter(map(row_canon, service)) - Counter(map(row_canon, pool))
    if key is None:
        return False
    used: set[int] = set()
    for s_row, g_row in zip(service, gold, strict=True):
        want, got = _canon(_sort_value(g_row, key)), row_canon(s_row)
        for j, p_row in enumerate(pool):
            if j not in used and _canon(_sort_value(p_row, key)) == want and row_canon(p_row) == got:
                used.add(j)
                break
        else:
            return False
    return True


def value_lists(rows: Sequence[Mapping[str, Any]]) -> list[list[Any]]:
    """Result rows as lists of plain values (a node as its property dict), as the relaxed comparison reads them."""
    return [[plain(plain_value(v)) for v in row.values()] for row in rows]


async def read_pool(graph: Any, namespace: str, pool_q: str) -> list[dict[str, Any]] | None:
    """The un-limited gold rows (``pool_q``: :func:`without_final_limit`'s query) on the namespace's graph; None
    where the engine refuses the query."""
    try:
        rows: list[dict[str, Any]] = await graph.read(namespace, pool_q, max_rows=POOL_MAX_ROWS)
    except AppError:
        return None
    return rows


async def add_pools(graph: Any, namespace: str, rows: list[dict[str, Any]]) -> int:
    """Give each question row (``gold_cypher``, ``gold_rows``) whose gold ends in a LIMIT its ``gold_pool`` (the
    un-limited rows, as lists of plain values) and, where the gold is ordered, its ``order_key``, read on the
    namespace's graph; returns how many got a pool. A pool query the engine refuses leaves its row as it was."""
    done = 0
    for row in rows:
        gold_q, gold = str(row.get("gold_cypher") or ""), list(row.get("gold_rows") or [])
        pool_q = without_final_limit(gold_q) if gold_q and gold else None
        if pool_q is None:
            continue
        pool = await read_pool(graph, namespace, pool_q)
        if pool is None:
            continue
        row["gold_pool"] = value_lists(pool)
        if is_ordered(gold_q):
            columns = list(gold[0]) if isinstance(gold[0], Mapping) else list(pool[0]) if pool else []
            key = sort_key(gold_q, columns)
            if key is not None:
                row["order_key"] = key if isinstance(key, int) else list(key)
        done += 1
    return done
