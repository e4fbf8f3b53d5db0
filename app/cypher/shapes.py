"""Grounded query shapes beyond "the nodes at the end of a path" (issue 14): counts, aggregates, property filters and
comparisons, ordering with a limit, most/fewest, and questions that name no entity.

A :class:`Shape` is a pattern (a :class:`~app.cypher.candidates.CandidateQuery`: a path from a linked entity, or
from every node of a label, :class:`~app.cypher.candidates.Anchor` without a name) plus what is asked of one of its
nodes. Every part is read off the graph: labels and relationship types from the schema, property keys and their
kinds and value ranges from the data (:func:`property_profile_query`), constants from the question (numbers, quoted
text; a text constant only where a node's property holds it, checked by :func:`text_match_query`). So each shape is
valid Cypher over the graph's own vocabulary, e.g.

    MATCH (x1:Person) WHERE x1.born > 1950 RETURN DISTINCT x1.name AS name
    MATCH (x1:Person {name: "Keanu Reeves"})-[:ACTED_IN]->(x2:Movie) RETURN count(DISTINCT x2) AS count
    MATCH (x1:Person)-[:PRODUCED]->(x2:Movie) RETURN x1.name AS name, count(DISTINCT x2) AS count
        ORDER BY count DESC LIMIT 1

The first column is the answer (a node's display value, or the number asked for). Like candidates, what runs adds
the path's guard conditions (:meth:`CandidateQuery.where_conditions`) and a row limit. This module only builds text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from app.cypher.candidates import Anchor, CandidateQuery, Hop
from app.cypher.queries import cypher_string, ident

ShapeKind = Literal["list", "count", "agg", "top", "group"]
AGGREGATES = ("avg", "max", "min", "sum")
NUMBER_OPS = (">", "<", "=")
TEXT_OPS = ("=", "CONTAINS", "STARTS WITH")


def property_keys_query(label: str) -> str:
    """The property keys of (a sample of ``$sample``) nodes of ``label``."""
    return f"MATCH (n:{ident(label, 'label')}) WITH n LIMIT $sample UNWIND keys(n) AS k RETURN DISTINCT k"


def property_profile_query(label: str, key: str) -> str:
    """How many nodes of ``label`` have ``key``, its least and greatest value, and a few values (their kind)."""
    v = f"n.{ident(key, 'property')}"
    return (
        f"MATCH (n:{ident(label, 'label')}) WHERE {v} IS NOT NULL "
        f"RETURN count(n) AS c, min({v}) AS lo, max({v}) AS hi, collect({v})[..$sample] AS sample"
    )


def text_match_query(label: str, key: str) -> str:
    """Whether some node of ``label`` has ``key`` equal to, starting with, or containing ``$s``."""
    v = f"n.{ident(key, 'property')}"
    return (
        f"MATCH (n:{ident(label, 'label')}) WHERE {v} CONTAINS $s "
        f"RETURN sum(CASE WHEN {v} = $s THEN 1 ELSE 0 END) AS eq, "
        f"sum(CASE WHEN {v} STARTS WITH $s THEN 1 ELSE 0 END) AS starts, count(n) AS contains"
    )


def _literal(value: float | int | str) -> str:
    if isinstance(value, str):
        return cypher_string(value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return repr(value)


@dataclass(frozen=True)
class Filter:
    """A condition on a property of the pattern's node ``x{var}``: ``op`` is a comparison, ``CONTAINS``,
    ``STARTS WITH``, or ``range`` (``lo <= v < hi``, ``value`` a pair)."""

    var: int
    key: str
    op: str
    value: Any

    def cypher(self) -> str:
        v = f"x{self.var}.{ident(self.key, 'property')}"
        if self.op == "range":
            lo, hi = self.value
            return f"{v} >= {_literal(lo)} AND {v} < {_literal(hi)}"
        if self.op not in NUMBER_OPS + TEXT_OPS + (">=", "<="):
            raise ValueError(f"unknown filter operator {self.op!r}")
        return f"{v} {self.op} {_literal(self.value)}"


@dataclass(frozen=True)
class Shape:
    """What is asked of node ``x{target}`` of ``path``: ``list`` its display values (``limit`` of them when set);
    ``count`` them; ``agg`` (``fn`` of ``AGGREGATES``) over its property ``prop``; ``top``: the ``limit`` with the
    greatest (``fn`` "DESC") or least ("ASC") ``prop``; ``group``: the ``limit`` with the most ("DESC") or fewest
    ("ASC") distinct ``x{other}``. ``filters`` restrict the matches first."""

    path: CandidateQuery
    target: int
    kind: ShapeKind
    filters: tuple[Filter, ...] = ()
    prop: str | None = None
    fn: str | None = None
    other: int | None = None
    limit: int | None = None

    @property
    def anchor(self) -> Anchor:
        return self.path.anchor

    @property
    def hops(self) -> tuple[Hop, ...]:
        return self.path.hops

    @property
    def size(self) -> int:
        """Hops, conditions and the operation (``relevance`` scoring prefers the smallest of near-equal ones)."""
        return self.path.size + len(self.filters) + (self.kind != "list") + (self.limit is not None)

    def _return(self) -> str:
        t = f"x{self.target}"
        key = ident(self.path.node_kind(self.target)[1], "property")
        lim = f" LIMIT {int(self.limit)}" if self.limit is not None else ""
        if self.kind == "list":
            return f"RETURN DISTINCT {t}.{key} AS name{lim}"
        if self.kind == "count":
            return f"RETURN count(DISTINCT {t}) AS number"
        if self.kind == "agg":
            fn = self.fn if self.fn in AGGREGATES else "avg"
            return f"RETURN {fn}({t}.{ident(self.prop or '', 'property')}) AS value"
        order = "ASC" if self.fn == "ASC" else "DESC"
        if self.kind == "top":
            p = ident(self.prop or "", "property")
            return f"RETURN DISTINCT {t}.{key} AS name, {t}.{p} AS {p} ORDER BY {p} {order}{lim}"
        return f"RETURN {t}.{key} AS name, count(DISTINCT x{self.other}) AS number ORDER BY number {order}{lim}"

    def conditions(self) -> list[str]:
        conds = [f.cypher() for f in self.filters]
        if self.kind in ("top", "agg") and self.prop:
            conds.append(f"x{self.target}.{ident(self.prop, 'property')} IS NOT NULL")
        return conds

    @property
    def text(self) -> str:
        """The canonical query the model generates."""
        conds = self.conditions()
        where = " WHERE " + " AND ".join(conds) if conds else ""
        return f"{self.path.match_clause()}{where} {self._return()}"

    def execution_query(self) -> str:
        """What runs: the path's guards added, and ``$limit`` rows at most for a list without its own limit."""
        conds = self.path.where_conditions() + self.conditions()
        where = " WHERE " + " AND ".join(conds) if conds else ""
        tail = " LIMIT $limit" if self.kind == "list" and self.limit is None else ""
        return f"{self.path.match_clause(named=True)}{where} {self._return()}{tail}"

    def pattern_text(self, row: dict[str, Any]) -> str:
        return "query: " + self.text
