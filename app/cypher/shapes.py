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

The first column is the answer (a node's display value, a property's value, or the number asked for); the chosen
shape may return the nodes themselves, or both ends of a pair, instead (:attr:`Shape.form`). Like candidates, what
runs adds the path's guard conditions (:meth:`CandidateQuery.where_conditions`) and a row limit.
This module only builds text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from app.cypher.candidates import Anchor, CandidateQuery, Hop
from app.cypher.queries import cypher_string, ident

ShapeKind = Literal["list", "count", "agg", "top", "group", "attr", "common"]
AnswerForm = Literal["names", "nodes", "pairs", "each"]
"""How a ``list`` or ``top`` returns its answers: their display values (what candidates are scored in), the nodes
themselves, or (a ``list`` whose ``also`` links two nodes twice) both nodes' display values; what a ``group`` groups
by: the display value (scored) or the node."""
AGGREGATES = ("avg", "max", "min", "sum")
NUMBER_OPS = (">", "<", "=")
TEXT_OPS = ("=", "CONTAINS", "STARTS WITH", "ENDS WITH")
HAVING_OPS = (">", ">=", "=", "<", "<=")
"""How a threshold on a count compares: "more than", "at least", "exactly", "fewer than", "at most"."""
MOD = "divisible by"
"""The operator of a condition that the property's whole number value is a multiple of ``value`` ("released in a
year divisible by 10"): ``x.p % value = 0``."""
EXISTS = "IS NOT NULL"
"""The operator of a condition that only asks for the property to be there ("movies with a tagline")."""
ABSENT = "IS NULL"
"""The operator of a condition that asks for the property not to be there ("questions without an accepted answer")."""
UNLINKED = "NOT LINKED"
"""The operator of a condition that the node has no relationship of the type ``key`` (``value``: the direction it
would take from the node, ``out`` or ``in``, and the label at its other end): "courses without prerequisites",
"people who never reviewed a movie"."""


def _element(name: str, edge: bool) -> str:
    """``MATCH (n:Label)`` or, for a relationship type (``edge``), ``MATCH ()-[n:TYPE]->()``: what a profile reads."""
    if edge:
        return f"MATCH ()-[n:{ident(name, 'relationship type')}]->()"
    return f"MATCH (n:{ident(name, 'label')})"


def property_keys_query(name: str, *, edge: bool = False) -> str:
    """The property keys of (a sample of ``$sample``) nodes of label ``name`` (``edge``: relationships of type
    ``name``)."""
    return f"{_element(name, edge)} WITH n LIMIT $sample UNWIND keys(n) AS k RETURN DISTINCT k"


def common_keys_query(name: str, *, edge: bool = False) -> str:
    """The property keys at least ``$least`` nodes of label ``name`` hold (``edge``: relationships of type ``name``),
    over all of them: a key the first nodes lack (a label that groups others: every ``Process`` is an
    ``Application``, a ``Service`` or an ``OS``, and only the first two have a ``pid``)."""
    return f"{_element(name, edge)} UNWIND keys(n) AS k WITH k, count(*) AS c WHERE c >= $least RETURN k"


def property_profile_query(name: str, key: str, *, edge: bool = False) -> str:
    """How many nodes of label ``name`` (``edge``: relationships of type ``name``) have ``key`` and how many there
    are, its least and greatest value, and a few values (their kind)."""
    v = f"n.{ident(key, 'property')}"
    return (
        f"{_element(name, edge)} RETURN count({v}) AS c, count(n) AS total, min({v}) AS lo, max({v}) AS hi, "
        f"collect({v})[..$sample] AS sample"
    )


def text_match_query(name: str, key: str, *, edge: bool = False, is_list: bool = False) -> str:
    """Whether some node of label ``name`` (``edge``: relationship of type ``name``) has ``key`` equal to, starting
    with, ending with, or containing ``$s`` (``is_list``: some element of the list property does)."""
    v = f"n.{ident(key, 'property')}"
    if is_list:
        return (
            f"{_element(name, edge)} WHERE any(e IN {v} WHERE e CONTAINS $s) "
            f"RETURN sum(CASE WHEN $s IN {v} THEN 1 ELSE 0 END) AS eq, 0 AS starts, 0 AS ends, count(n) AS contains"
        )
    return (
        f"{_element(name, edge)} WHERE {v} CONTAINS $s "
        f"RETURN sum(CASE WHEN {v} = $s THEN 1 ELSE 0 END) AS eq, "
        f"sum(CASE WHEN {v} STARTS WITH $s THEN 1 ELSE 0 END) AS starts, "
        f"sum(CASE WHEN {v} ENDS WITH $s THEN 1 ELSE 0 END) AS ends, count(n) AS contains"
    )


def _literal(value: float | int | str | bool) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return cypher_string(value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return repr(value)


RESERVED_COLUMNS = frozenset({"name", "number", "value", "labels"})
"""Column names a shape's query uses for itself (the answer's display value, a count, an aggregate)."""


def _column(key: str) -> str:
    """The column a property's values come back in: its key, unless that is a column the query already names or a
    pattern variable (``x1``, ``r2``): a relationship property called ``name``, a node property called ``number``."""
    k = ident(key, "property")
    return f"{k}_value" if k in RESERVED_COLUMNS or re.fullmatch(r"[xr]\d+", k) else k


@dataclass(frozen=True)
class Filter:
    """A condition on a property of the pattern's node ``x{var}`` (``edge``: of its relationship ``r{var}``, the
    ``var``-th hop): ``op`` is a comparison, ``CONTAINS``, ``STARTS WITH``, ``ENDS WITH``, ``range`` (``lo <= v <
    hi``, ``value`` a pair), ``MOD`` (a multiple of ``value``), ``EXISTS`` (the property is there; ``value`` None),
    ``ABSENT`` (it is not), or ``UNLINKED`` (the node has no relationship of the type ``key``; ``value`` its direction
    and other end). ``value`` is a bool for a boolean property (``=`` only). ``listed``: the property holds a list,
    and the condition holds for one of its elements; ``sized``: it compares how many elements the list holds."""

    var: int
    key: str
    op: str
    value: Any
    edge: bool = False
    listed: bool = False
    sized: bool = False
    """The condition is on how many elements the list property holds (``size(...)``: "more than 3 roles")."""
    said: str | None = field(default=None, compare=False)
    """How the question put it, where the value is no longer what it said ("before 2021" for a Unix time): what a
    reading shows in place of the comparison and value."""
    stated: float | None = field(default=None, compare=False)
    """The number the question stated, where the value holds it in another form (the year 2021 of a date)."""

    def cypher(self) -> str:
        if self.op == UNLINKED:
            direction, other = self.value
            t, end = ident(self.key, "relationship type"), f"(:{ident(other, 'label')})" if other else "()"
            return f"NOT (x{self.var})-[:{t}]->{end}" if direction == "out" else f"NOT (x{self.var})<-[:{t}]-{end}"
        v = f"{'r' if self.edge else 'x'}{self.var}.{ident(self.key, 'property')}"
        if self.sized:
            if self.op not in (*NUMBER_OPS, ">=", "<="):
                raise ValueError(f"unknown filter operator {self.op!r} on a list's size")
            return f"size({v}) {self.op} {_literal(self.value)}"
        if self.op not in NUMBER_OPS + TEXT_OPS + (">=", "<=", "range", MOD, EXISTS, ABSENT):
            raise ValueError(f"unknown filter operator {self.op!r}")
        if self.op in (EXISTS, ABSENT):
            return f"{v} {self.op}"
        if self.op == MOD:
            return f"{v} % {int(self.value)} = 0"
        if self.listed:
            if self.op == "=":
                return f"{_literal(self.value)} IN {v}"
            return f"any(e IN {v} WHERE e {self.op} {_literal(self.value)})"
        if self.op == "range":
            lo, hi = self.value
            return f"{v} >= {_literal(lo)} AND {v} < {_literal(hi)}"
        return f"{v} {self.op} {_literal(self.value)}"


@dataclass(frozen=True)
class Shape:
    """What is asked of node ``x{target}`` of ``path``: ``list`` its display values (``limit`` of them when set);
    ``count`` them; ``agg`` (``fn`` of ``AGGREGATES``) over the property ``prop``; ``top``: the ``limit`` with the
    greatest (``fn`` "DESC") or least ("ASC") ``prop``; ``group``: the ``limit`` with the most ("DESC") or fewest
    ("ASC") distinct ``x{other}`` or, with ``prop``, the greatest or least average (``agg``) ``prop``; ``attr``: the
    values of ``prop`` themselves (the tagline of a movie, the birth years of some people, the roles of an actor in a
    movie), with each target's display value beside them when ``paired``; ``common``: the ``limit`` most (``fn`` "DESC")
    or least ("ASC") frequent values of ``prop`` with how often each occurs (each element of a ``listed`` property
    counted apart). ``prop`` belongs to the target node, or to the relationship of hop ``prop_on`` (``r{prop_on}``).
    ``filters`` restrict the matches first. ``also``: relationship types that link ``x1`` and ``x2`` as well, in the
    first hop's direction (a person who acted in *and* directed a movie). ``having``: a threshold on how many
    ``x{other}`` each ``x{target}`` has."""

    path: CandidateQuery
    target: int
    kind: ShapeKind
    filters: tuple[Filter, ...] = ()
    prop: str | None = None
    fn: str | None = None
    other: int | None = None
    limit: int | None = None
    prop_on: int | None = None
    also: tuple[str, ...] = ()
    having: tuple[str, int] | None = None
    """``(op, k)``: only the ``x{target}`` linked to more than (``>``) or at least (``>=``) ``k`` distinct
    ``x{other}`` ("people who directed more than two movies"); a ``list`` returns each with that number, a ``count``
    counts them."""
    temporal: bool = False
    """``prop`` holds years: its greatest is the latest ("the youngest", "the newest"); its reading says so. An
    ``attr``'s values are points in time ("when was X listed": ``asked.answer_kind``)."""
    prop_var: int | None = None
    """``prop`` belongs to node ``x{prop_var}`` of the pattern, not to the target: a ``top`` orders the targets by
    what they are linked to ("who directed the oldest movie": the directors by their movies' release year)."""
    listed: bool = False
    """``prop`` holds lists: a ``common`` counts their elements (``UNWIND``)."""
    distinct: bool = False
    """``group`` with ``prop``: ranked by how many different values of ``prop`` each target has ("the actors with
    the most diverse roles": ``count(DISTINCT r1.roles)``), not by their average."""
    agg: str = "avg"
    """``group`` with ``prop`` (not ``distinct``): what ranks each target, ``avg`` or ``sum`` of its ``prop`` values
    ("the users with the highest average answer score", "the questions with the highest total score of their
    answers")."""
    sized: bool = False
    """``top``: ordered by how many elements the list ``prop`` holds ("the movies with the longest role lists"),
    each target returned with the list."""
    paired: bool = False
    """``attr``: each target's display value and its ``prop`` ("the actors of X and their roles"), not the distinct
    values alone ("the birth years of the actors of X")."""
    quantity: bool = False
    """``attr``, ``count``, ``agg``: ``prop`` holds numbers that are no point in time (a book's pages, a team's
    goals): "how many pages does X have" reads the number, counts its different values only where asked, and "the
    total number of pages of X's books" is their sum."""
    shown: tuple[tuple[int, str, bool], ...] = ()
    """``(var, key, edge)``: properties of node ``x{var}`` (``edge``: of relationship ``r{var}``) a ``list`` or a
    ``top`` returns beside each answer's display value ("which movies have a tagline containing 'freedom'": each
    title and its tagline; "the top 3 questions with the most answers and their view counts"); set on the chosen
    candidate only (``app.text2cypher.answer_form.answer_form``)."""
    staged: bool = False
    """``top`` by another node's property (``prop_var``): the targets linked to the ``limit`` of those nodes with the
    greatest or least ``prop``, all of them ("the tags of the 3 questions with the lowest view count": the 3
    questions first, then their tags), not the first ``limit`` target-node pairs in that order; ``group`` without
    ``prop``: the targets linked to the ``limit`` nodes ``x{prop_var}`` with the most or fewest distinct
    ``x{other}`` ("the tags of the 3 questions with the most comments")."""
    named_by: tuple[str, ...] = ()
    """The target's properties its answers are named by in place of its display value (a patient's ``firstName``
    and ``lastName``: ``LabelProfile.parts``); set on the chosen candidate only
    (``app.text2cypher.answer_form.answer_form``)."""
    edges: bool = False
    """A ``count`` of the relationships that reach the target (``r{target - 1}``), not of the targets: "how many
    transfers did X receive" counts two transfers between the same two accounts twice; set on the chosen count only
    (``app.text2cypher.answer_form.answer_form``)."""
    returns: str | None = None
    """A ``list`` in an order (``ordered``): the target's own property it returns in place of the display value ("what
    are the body markdowns of the top 3 highest scoring answers"); set on the chosen list only
    (``app.text2cypher.answer_form.answer_form``)."""
    ordered: tuple[str, str] | None = None
    """``(key, direction)``: a ``list`` with a ``limit`` takes its first k in the order of the target's own property
    ``key`` ("ASC" or "DESC"; "the first 3 movies Keanu Reeves acted in": the earliest released), those that have
    it; set on the chosen list only (``app.text2cypher.answer_form.answer_form``)."""
    form: AnswerForm = "names"
    """What a ``list`` (without ``having``) or a ``top`` returns: ``names`` the targets' display values; ``nodes``
    the target nodes (every property; a ``top`` ordered by the target's own property); ``pairs`` the display values
    of both nodes the relationships link (a ``list`` with ``also``), or of the target and the node it is ordered by
    (a ``top`` by another node's or a relationship's property: "who directed the oldest movie": each director, the
    movie and its year), or of each of the k nodes a ``staged`` ranking picks, what ranked it, and the target. A
    ``group`` in ``nodes`` form groups by the target node
    (``WITH x1, count(DISTINCT x2) AS number ORDER BY number DESC LIMIT k RETURN x1.name AS name, number``), in
    ``names`` form by its display value, which merges two nodes of one name; ``each``: a ``list``'s display values,
    one per distinct node (two nodes of one name are two answers: ``WITH DISTINCT x1 RETURN x1.name``). Candidates
    are enumerated and scored as ``names``; the chosen one takes the form the question asks for
    (``app.text2cypher.answer_form.answer_form``)."""

    @property
    def anchor(self) -> Anchor:
        return self.path.anchor

    @property
    def hops(self) -> tuple[Hop, ...]:
        return self.path.hops

    @property
    def size(self) -> int:
        """Hops, conditions and the operation (``relevance`` scoring prefers the smallest of near-equal ones)."""
        return (
            self.path.size
            + len(self.also)
            + len(self.filters)
            + (self.kind != "list")
            + (self.limit is not None)
            + (self.having is not None)
        )

    @property
    def names_edges(self) -> bool:
        """Whether the query refers to a relationship's property (its pattern names the relationships)."""
        named = self.prop_on is not None or self.edges
        return named or any(f.edge for f in self.filters) or any(e for _, _, e in self.shown)

    def owns_prop(self, var: int, *, edge: bool = False) -> bool:
        """Whether ``prop`` belongs to node ``x{var}`` (``edge``: to relationship ``r{var}``)."""
        return var == self.prop_on if edge else self.prop_on is None and var == (self.prop_var or self.target)

    def on_prop(self, f: Filter) -> bool:
        """Whether condition ``f`` is on the property the shape aggregates or orders by."""
        return f.key == self.prop and self.owns_prop(f.var, edge=f.edge)

    def ordered_by(self) -> int | None:
        """The node other than the target that a ``top``'s property belongs to, or that its relationship's property
        links the target to; None when the target owns the property."""
        if self.prop_var is not None and self.prop_var != self.target:
            return self.prop_var
        if self.prop_on is not None:
            ends = (self.prop_on, self.prop_on + 1)
            return next((v for v in ends if v != self.target), None) if self.target in ends else None
        return None

    @property
    def list_order(self) -> tuple[str, str] | None:
        """``ordered`` where it applies: a ``list`` with a ``limit`` and no ``also``."""
        return self.ordered if self.kind == "list" and self.limit is not None and not self.also else None

    @staticmethod
    def _ref(var: int, key: str, edge: bool) -> str:
        return f"{'r' if edge else 'x'}{var}.{ident(key, 'property')}"

    def _prop_ref(self) -> str:
        if self.prop_on is not None:
            return self._ref(self.prop_on, self.prop or "", True)
        return self._ref(self.prop_var or self.target, self.prop or "", False)

    def _shown_columns(self) -> list[tuple[str, str]]:
        """``(reference, column)`` of each property ``shown`` beside the answers."""
        return [(self._ref(v, k, e), _column(k)) for v, k, e in self.shown]

    def _match(self, named: bool) -> str:
        clause = self.path.match_clause(named=named or self.names_edges)
        if self.also:
            d = self.hops[0].direction
            clause += "".join(", (x1)" + Hop(t, d, "").arrow() + "(x2)" for t in self.also)
        return clause

    def _return(self) -> str:
        t = f"x{self.target}"
        key = ident(self.path.node_kind(self.target)[1], "property")
        name = ", ".join(f"{t}.{ident(k, 'property')} AS {_column(k)}" for k in self.named_by) or f"{t}.{key} AS name"
        lim = f" LIMIT {int(self.limit)}" if self.limit is not None else ""
        if self.having is not None:
            op, k = self.having
            if op not in HAVING_OPS:
                raise ValueError(f"unknown threshold operator {op!r}")
            per = f"WITH {t}, count(DISTINCT x{int(self.other or 1)}) AS number WHERE number {op} {int(k)} "
            if self.kind == "count":
                return per + f"RETURN count({t}) AS number"
            return per + f"RETURN {name}, number{lim}"
        list_order = self.list_order
        if list_order is not None:
            by = f"{self._ref(self.target, list_order[0], False)} {'ASC' if list_order[1] == 'ASC' else 'DESC'}"
            if self.form == "nodes":
                return f"RETURN DISTINCT {t} ORDER BY {by}{lim}"
            if self.returns is not None:  # "the body markdowns of the top 3 answers": that property, in order
                ref, col = self._ref(self.target, self.returns, False), _column(self.returns)
                return f"WITH DISTINCT {t} ORDER BY {by}{lim} RETURN {ref} AS {col}"
            shown = self._shown_columns()
            kept = "".join(f", {ref} AS {col}" for ref, col in shown)
            beside = "".join(f", {col}" for _, col in shown)
            return f"WITH DISTINCT {t}{kept} ORDER BY {by}{lim} RETURN {name}{beside}"
        if self.kind == "list":
            if self.form == "nodes":
                return f"RETURN DISTINCT {t}{lim}"
            if self.form == "each" and not self.also and not self.shown:  # two nodes of one name are two answers
                return f"WITH DISTINCT {t} RETURN {name}{lim}"
            if self.form == "pairs" and self.also and self.target in (1, 2):
                o = 3 - self.target
                okey = ident(self.path.node_kind(o)[1], "property")
                return f"RETURN DISTINCT {name}, x{o}.{okey} AS {_column(okey)}{lim}"
            if self.shown:
                cols = "".join(f", {ref} AS {col}" for ref, col in self._shown_columns())
                return f"RETURN DISTINCT {name}{cols}{lim}"
            return f"RETURN DISTINCT {name}{lim}"
        if self.kind == "attr":
            p = _column(self.prop or "")
            if self.paired:
                return f"RETURN DISTINCT {name}, {self._prop_ref()} AS {p}{lim}"
            return f"RETURN DISTINCT {self._prop_ref()} AS {p}{lim}"
        if self.kind == "count" and self.edges:  # how many relationships reach the answers
            return f"RETURN count(r{max(self.target - 1, 1)}) AS number"
        if self.kind == "count":  # how many answers, or how many different values of a property of theirs
            return f"RETURN count(DISTINCT {self._prop_ref() if self.prop else t}) AS number"
        if self.kind == "common":
            p = _column(self.prop or "")
            order = "ASC" if self.fn == "ASC" else "DESC"
            head = (
                f"UNWIND {self._prop_ref()} AS {p} RETURN {p}" if self.listed else f"RETURN {self._prop_ref()} AS {p}"
            )
            return f"{head}, count(*) AS number ORDER BY number {order}{lim}"
        if self.kind == "agg":
            fn = self.fn if self.fn in AGGREGATES else "avg"
            return f"RETURN {fn}({self._prop_ref()}) AS value"
        order = "ASC" if self.fn == "ASC" else "DESC"
        if self.kind == "top":
            if self.form == "nodes" and self.owns_prop(self.target) and not self.sized:
                return f"RETURN DISTINCT {t} ORDER BY {self._prop_ref()} {order}{lim}"
            p = _column(self.prop or "")
            by = f"size({p})" if self.sized else p
            if self.owns_prop(self.target) and not self.sized and not self.shown:
                # the first k answers, not the first k (name, value) rows: two processes of one name and PID are two
                ref = self._prop_ref()
                ranked = f"WITH DISTINCT {t} ORDER BY {ref} {order}{lim}"
                return f"{ranked} RETURN {name}, {ref} AS {p} ORDER BY {p} {order}"
            linked = self.ordered_by()
            beside = ""
            if self.form == "pairs" and linked is not None:
                lkey = ident(self.path.node_kind(linked)[1], "property")
                beside = f", x{linked}.{lkey} AS {_column(lkey)}"
            beside += "".join(f", {ref} AS {col}" for ref, col in self._shown_columns())
            return f"RETURN DISTINCT {name}{beside}, {self._prop_ref()} AS {p} ORDER BY {by} {order}{lim}"
        if self.prop and self.distinct:
            agg, col = f"count(DISTINCT {self._prop_ref()})", "number"
        elif self.prop:
            if self.agg not in ("avg", "sum"):
                raise ValueError(f"unknown group aggregate {self.agg!r}")
            agg, col = f"{self.agg}({self._prop_ref()})", "value"
        else:
            agg, col = f"count(DISTINCT x{self.other})", "number"
        if self.form == "nodes":  # grouped by the node, not by its display value (two people of one name: two groups)
            return f"WITH {t}, {agg} AS {col} ORDER BY {col} {order}{lim} RETURN {name}, {col}"
        return f"RETURN {name}, {agg} AS {col} ORDER BY {col} {order}{lim}"

    def conditions(self) -> list[str]:
        conds = [f.cypher() for f in self.filters]
        # count() skips nulls; a condition on the property that it holds a value says so already
        bounded = any(self.on_prop(f) and f.op != ABSENT for f in self.filters)
        if self.kind in ("top", "agg", "group", "common") and self.prop and not self.distinct and not bounded:
            conds.append(f"{self._prop_ref()} IS NOT NULL")
        key = self.list_order[0] if self.list_order is not None else None
        if key is not None and not any(f.var == self.target and not f.edge and f.key == key for f in self.filters):
            conds.append(f"{self._ref(self.target, key, False)} IS NOT NULL")
        return conds

    @property
    def same_query(self) -> str:
        """:attr:`text` with its conditions in one order: shapes whose conditions differ only in the order the
        enumeration added them (each is ANDed) are one query."""
        if len(self.filters) < 2:
            return self.text
        return replace(self, filters=tuple(sorted(self.filters, key=Filter.cypher))).text

    @property
    def text(self) -> str:
        """The canonical query the model generates."""
        conds = self.conditions()
        where = " WHERE " + " AND ".join(conds) if conds else ""
        if self.is_staged:
            return self._staged(self._match(False), where)
        return f"{self._match(False)}{where} {self._return()}"

    @property
    def answer_text(self) -> str:
        """The query as the mode reports its answer: :attr:`text` (a shape's rows are its answer as it returns
        them; a path reports its distinct answers, :attr:`CandidateQuery.answer_text`)."""
        return self.text

    def execution_query(self) -> str:
        """What runs: the path's guards added, and ``$limit`` rows at most for a list without its own limit."""
        conds = self.path.where_conditions() + self.conditions()
        where = " WHERE " + " AND ".join(conds) if conds else ""
        if self.is_staged:
            return self._staged(self._match(True), where)
        tail = " LIMIT $limit" if self.kind in ("list", "attr") and self.limit is None else ""
        return f"{self._match(True)}{where} {self._return()}{tail}"

    @property
    def is_staged(self) -> bool:
        """``staged`` where it applies: with a ``limit``, a ``top`` by another node's property or a ``group`` of
        another node by how many ``x{other}`` it has."""
        if not self.staged or self.limit is None or self.ordered_by() is None:
            return False
        return self.kind == "top" or (self.kind == "group" and self.prop is None and self.other is not None)

    def _staged(self, match: str, where: str) -> str:
        """The ``limit`` nodes the pattern orders by first, then the targets the pattern links to them."""
        v, t = self.ordered_by(), f"x{self.target}"
        order = "ASC" if self.fn == "ASC" else "DESC"
        lim = int(self.limit or 1)
        if self.kind == "group":
            ranked = f"WITH x{v}, count(DISTINCT x{self.other}) AS number ORDER BY number {order} LIMIT {lim}"
            by = ", number"
        else:
            ranked = f"WITH DISTINCT x{v} ORDER BY {self._prop_ref()} {order} LIMIT {lim}"
            by = f", {self._prop_ref()} AS {_column(self.prop or '')}"
        name = f"{t}.{ident(self.path.node_kind(self.target)[1], 'property')} AS name"
        if self.form == "nodes":
            answer = f"RETURN DISTINCT {t}"
        elif self.form == "pairs":  # each of the k, what ranked it, and its answers
            vkey = ident(self.path.node_kind(v or 1)[1], "property")
            answer = f"RETURN DISTINCT x{v}.{vkey} AS {_column(vkey)}{by}, {name}"
        else:
            answer = f"RETURN DISTINCT {name}"
        return f"{match}{where} {ranked} {match}{where} {answer}"

    def pattern_text(self, row: dict[str, Any]) -> str:
        return "query: " + self.text
