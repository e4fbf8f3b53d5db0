"""Candidate Cypher enumeration (GraphRAFT step 2): the text of every valid query of the supported shapes.

Candidates are read off the data, not off a label schema: from a linked entity, the relationship types and
directions that actually leave the nodes a path reaches (:meth:`CandidateQuery.extension_query`, one read per path)
extend it by one hop, up to ``max_hops``; two linked entities are joined through the nodes between them
(:meth:`Anchor.connecting_query`). So on a graph without labels (plain triple files) a path is a sequence of
relationship types and directions, and on a labelled graph each hop also names the label of the nodes it reaches.
Every candidate therefore matches something when it is built, whatever the graph. Queries are parameter-free text in
one canonical form, e.g.

    MATCH (x1:Person {name: "Tom Hanks"})<-[:ACTED_IN]-(x2:Movie) RETURN x2.title
    MATCH (x1:Entity {name: "Kismet"})-[:DIRECTED_BY]->(x2) RETURN x2.name

so that a model can generate them token by token under the trie constraint. What runs (execution, extension and
count queries) adds a ``WHERE`` clause so that the same text means the same answers on every engine:

* **relationship uniqueness made explicit** (``r1 <> r2`` for hops of one type): Neo4j never re-uses an edge within
  one MATCH pattern, FalkorDB does (measured: ``(x1:Movie)-[:DIRECTED_BY]->(:Person)<-[:DIRECTED_BY]-(x3:Movie)``
  returns x1 itself as x3 on FalkorDB, not on Neo4j);
* **no path comes back to a linked entity**: every other node of the path differs from it (``x3 <> x1``), as
  question answering over a graph expects (the films "that share directors with X" are other films; the answer to
  "who starred with X" is never X).

The canonical text the model generates stays without that clause.

This module only builds text and reads rows it is given; it never talks to a database.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from app.cypher.queries import ENTITY_LABEL, cypher_string, ident
from app.cypher.schema import visible_labels

Direction = Literal["out", "in", "both"]
"""Which way a hop takes its relationship: leaving the node before it, entering it, or either (a relationship
that holds both ways, stored in one: ``Lexicon.reciprocal``)."""


def goes_back(first: Direction, then: Direction) -> bool:
    """Whether a hop in direction ``then`` right after one in ``first`` on the same relationship type goes straight
    back along it (``X -r-> v <-r- ?``); a hop either way never does."""
    return "both" not in (first, then) and first != then


@dataclass(frozen=True)
class Display:
    """Which property names a node: per label (the namespace's schema profile, ``app/stores/graph/profile.py``), and
    the display properties in the order a node of no known label is read by."""

    keys: tuple[str, ...] = ("name", "title")
    by_label: tuple[tuple[str, str], ...] = ()
    unnamed: frozenset[str] = frozenset()
    """Labels whose nodes name nothing (the profile gives them no display property): never reached."""

    @classmethod
    def of(cls, by_label: Mapping[str, str | None], keys: Iterable[str]) -> Display:
        pairs = tuple(sorted((lab, k) for lab, k in by_label.items() if k))
        unnamed = frozenset(lab for lab, k in by_label.items() if not k)
        return cls(tuple(keys) or ("name",), pairs, unnamed)

    def key_expr(self, v: str) -> str:
        """The name of the first display property node ``v`` has (Cypher)."""
        cases = " ".join(f"WHEN {v}.`{ident(k, 'property')}` IS NOT NULL THEN {cypher_string(k)}" for k in self.keys)
        return f"CASE {cases} END"

    def guard(self, v: str) -> str:
        """Node ``v`` has a display value (Cypher)."""
        return "(" + " OR ".join(f"{v}.`{ident(k, 'property')}` IS NOT NULL" for k in self.keys) + ")"

    def key_of(self, label: str, fallback: str) -> str:
        return dict(self.by_label).get(label, fallback)


DEFAULT_DISPLAY = Display()


@dataclass(frozen=True)
class Hop:
    rel_type: str
    direction: Direction
    label: str
    """Label of the node the hop reaches; empty on a graph without labels (no label filter)."""
    key: str = "name"
    """Display property of that label (``name``, ``title``)."""
    closure: int = 0
    """Where not 0, the hop takes 1 to ``closure`` relationships of its type in a row, along a chain of one kind of
    node (``-[:REPORTS_TO*1..8]->``: "everyone who reports to X, directly or indirectly"; ``app.text2cypher.closures``).
    Such a relationship binds a list: no condition, property or count names it."""

    def arrow(self, var: str = "") -> str:
        t = ident(self.rel_type, "relationship type")
        if self.closure:
            var, t = "", f"{t}*1..{self.closure}"
        if self.direction == "both":
            return f"-[{var}:{t}]-"
        return f"-[{var}:{t}]->" if self.direction == "out" else f"<-[{var}:{t}]-"

    def node(self, var: str) -> str:
        return f"({var}:{ident(self.label, 'label')})" if self.label else f"({var})"


@dataclass(frozen=True)
class Anchor:
    """A linked entity: its display value, the property holding it, and the label used in the pattern. Without a
    name it stands for every node of its label (the label-anchored shapes of ``app.cypher.shapes``)."""

    name: str | None
    label: str
    key: str = "name"
    number: bool = False
    """The value is stored as a whole number (a port): compared as one."""
    display: str = ""
    """The label's display property, where the linked value is held by another (a country many customers share):
    what the anchor's nodes are named by. Empty: ``key``."""
    also: tuple[tuple[str, str], ...] = ()
    """``(key, value)`` of the other properties the same nodes hold, named in one breath with ``name`` (a first and a
    last name: "Olga Moreau", ``EntityLink.also``)."""

    def node(self, var: str) -> str:
        if self.name is None:
            return f"({var}:{ident(self.label, 'label')})"
        value = self.name if self.number and self.name.lstrip("-").isdigit() else cypher_string(self.name)
        held = "".join(f", {ident(k, 'property')}: {cypher_string(v)}" for k, v in self.also)
        return f"({var}:{ident(self.label, 'label')} {{{ident(self.key, 'property')}: {value}{held}}})"

    def connecting_query(self, other: Anchor, display: Display = DEFAULT_DISPLAY) -> str:
        """The distinct ``(t1, o1, t2, o2, l, k)`` of the paths ``self -t1- x -t2- other`` (``o1``: the first edge
        leaves ``self``; ``o2``: the second leaves ``x``; ``l``, ``k``: the middle node's labels and display
        property), at most ``$limit`` rows."""
        return (
            f"MATCH {self.node('x1')}-[r1]-(x2)-[r2]-{other.node('x3')} "
            f"WHERE x2 <> x1 AND x2 <> x3 AND x3 <> x1 AND r1 <> r2 AND {display.guard('x2')} "
            "RETURN DISTINCT type(r1) AS t1, startNode(r1) = x1 AS o1, type(r2) AS t2, startNode(r2) = x2 AS o2, "
            f"labels(x2) AS l, {display.key_expr('x2')} AS k LIMIT $limit"
        )

    def adjacent_query(self, other: Anchor) -> str:
        """The distinct ``(t, o)`` of the relationships between ``self`` and ``other``: type, and whether it leaves
        ``self``."""
        return (
            f"MATCH {self.node('x1')}-[r]-{other.node('x2')} WHERE x1 <> x2 "
            "RETURN DISTINCT type(r) AS t, startNode(r) = x1 AS o LIMIT $limit"
        )


@dataclass(frozen=True)
class CandidateQuery:
    anchor: Anchor
    hops: tuple[Hop, ...]
    end: Anchor | None = None
    """Second linked entity closing the path; the node before it is returned then."""
    nodes: bool = False
    """:attr:`text` returns the answer nodes themselves, not their display values (the form a question that asks
    for things, not their names, is answered in: ``app.text2cypher.answer_form.answer_form``); candidates are enumerated
    and scored without it."""

    @property
    def return_index(self) -> int:
        return len(self.hops) if self.end is not None else len(self.hops) + 1

    @property
    def return_hop(self) -> Hop:
        return self.hops[self.return_index - 2]

    @property
    def return_var(self) -> str:
        return f"x{self.return_index}"

    @property
    def size(self) -> int:
        """How much the query says: its hops (the ``relevance`` scoring prefers the smallest of near-equal ones)."""
        return len(self.hops)

    def linked(self) -> list[tuple[int, Anchor]]:
        """The path's linked entities with the number of the node each is: the anchor (``x1``) where it has a name,
        and the entity closing the path."""
        ends = [(1, self.anchor), *([(len(self.hops) + 1, self.end)] if self.end is not None else [])]
        return [(var, a) for var, a in ends if a.name is not None]

    def labels(self) -> list[str]:
        """The label of each of the path's nodes, ``x1`` first (empty where none)."""
        return [self.node_kind(i)[0] for i in range(1, len(self.hops) + 2)]

    def node_kind(self, index: int) -> tuple[str, str]:
        """The label (empty when none) and display property of the path's node ``x{index}``."""
        if index == 1:
            return self.anchor.label, self.anchor.display or self.anchor.key
        if self.end is not None and index == len(self.hops) + 1:
            return self.end.label, self.end.display or self.end.key
        hop = self.hops[index - 2]
        return hop.label, hop.key

    def match_clause(self, *, named: bool = False) -> str:
        """The MATCH pattern; ``named`` names the relationships ``r1``.. (for :meth:`where_clause`)."""
        parts = [self.anchor.node("x1")]
        for i, hop in enumerate(self.hops, start=2):
            arrow = hop.arrow(f"r{i - 1}" if named else "")
            if self.end is not None and i == len(self.hops) + 1:
                parts.append(arrow + self.end.node(f"x{i}"))
            else:
                parts.append(arrow + hop.node(f"x{i}"))
        return "MATCH " + "".join(parts)

    def where_clause(self) -> str:
        """`` WHERE r1 <> r3 AND x3 <> x1``: no edge is used twice (for every pair of hops of one type) and no node of a
        linked entity is reached again by another node of the path (needs ``match_clause(named=True)``)."""
        conds = self.where_conditions()
        return " WHERE " + " AND ".join(conds) if conds else ""

    def where_conditions(self) -> list[str]:
        """The conditions of :meth:`where_clause`."""
        n = len(self.hops)
        conds = [
            f"r{i + 1} <> r{j + 1}"
            for i in range(n)
            for j in range(i + 1, n)
            if self.hops[i].rel_type == self.hops[j].rel_type and not (self.hops[i].closure or self.hops[j].closure)
        ]
        linked = (["x1"] if self.anchor.name is not None else []) + ([f"x{n + 1}"] if self.end is not None else [])
        for k in range(2, n + 2):
            conds += [f"x{k} <> {lv}" for lv in linked if lv != f"x{k}"]
        return conds

    def extension_query(self, display: Display = DEFAULT_DISPLAY) -> str:
        """The distinct ``(t, out, l, k)`` of the edges leaving the path's end nodes (at most ``$nodes`` of them):
        relationship type, whether the edge leaves the end node, the labels and display property of the node it
        reaches. A path without hops is its anchor. Nodes without a display value and the anchor are not reached.

        An end node reached from many anchor nodes (a name that 1,600 nodes share) is read once, with the anchor
        nodes it was reached from (``s``): an edge counts where some anchor node of the end node is not the node it
        reaches, which is ``size(s) > 1 OR y <> s[0]`` (the same rows as a guard per pair of anchor and end node,
        which read each end node's edges once per anchor node: 6 s where this takes 15 ms)."""
        n = len(self.hops)
        if not n:
            head, other = self._guarded() + " WITH x1, x1 AS e", "y <> x1"
        else:
            head = self._guarded() + f" WITH DISTINCT x1, x{n + 1} AS e LIMIT $nodes WITH e, collect(x1) AS s"
            other = "(size(s) > 1 OR y <> s[0])"
        return (
            f"{head} MATCH (e)-[r]-(y) WHERE {other} AND {display.guard('y')} "
            f"RETURN DISTINCT type(r) AS t, startNode(r) = e AS out, labels(y) AS l, {display.key_expr('y')} AS k"
        )

    def _guarded(self) -> str:
        return self.match_clause(named=True) + self.where_clause()

    @property
    def text(self) -> str:
        """The canonical query the model generates (with :attr:`nodes`, the distinct answer nodes)."""
        if self.nodes:
            return f"{self.match_clause()} RETURN DISTINCT {self.return_var}"
        return f"{self.match_clause()} RETURN {self.return_var}.{self.return_hop.key}"

    @property
    def same_query(self) -> str:
        """The query as :attr:`Shape.same_query` compares queries (a path has no conditions to put in order)."""
        return self.text

    def _distinct_answers(self) -> str:
        """What :meth:`answer_query` and :attr:`answer_text` return: the answer nodes, or their display values."""
        rv = self.return_var
        return f"RETURN DISTINCT {rv if self.nodes else f'{rv}.{self.return_hop.key} AS name'}"

    @property
    def answer_text(self) -> str:
        """:attr:`text` as the mode reports its answers: each display value once (the nodes themselves, with
        :attr:`nodes`), as :meth:`answer_query` reads them."""
        return f"{self.match_clause()} {self._distinct_answers()}"

    def answer_query(self) -> str:
        """The distinct answers as :attr:`text` returns them, with the path's guards and ``$limit`` rows at most."""
        return f"{self._guarded()} {self._distinct_answers()} LIMIT $limit"

    def execution_query(self) -> str:
        """What runs: the same pattern, returning the answer's display value and labels plus the intermediate
        nodes' values (for the textualised pattern). Rows are paths, so one answer may repeat; ``$limit`` caps rows."""
        rv, key = self.return_var, self.return_hop.key
        cols = [f"{rv}.{key} AS name", f"labels({rv}) AS labels"]
        cols += [
            f"x{i}.{h.key} AS v{i}"
            for i, h in enumerate(self.hops, start=2)
            if i != self.return_index and not (self.end is not None and i == len(self.hops) + 1)
        ]
        return f"{self._guarded()} RETURN {', '.join(cols)} LIMIT $limit"

    def count_query(self) -> str:
        """Distinct answers and how many are in ``$gold``, aggregated inside the query (training-data synthesis:
        no node is materialised)."""
        return (
            f"{self._guarded()} WITH DISTINCT {self.return_var}.{self.return_hop.key} AS v "
            "RETURN count(v) AS total, sum(CASE WHEN v IN $gold THEN 1 ELSE 0 END) AS hits"
        )

    def pattern_text(self, row: dict[str, object]) -> str:
        """The paper's textualised path: ``pattern: (x1:Person {name: "A"})<-[:ACTED_IN]-(x2:Movie {title: "B"})``."""
        parts = [self.anchor.node("x1")]
        for i, hop in enumerate(self.hops, start=2):
            if self.end is not None and i == len(self.hops) + 1:
                parts.append(hop.arrow() + self.end.node(f"x{i}"))
                continue
            value = row.get("name") if i == self.return_index else row.get(f"v{i}")
            shown = f" {{{hop.key}: {cypher_string(str(value))}}}" if value is not None else ""
            parts.append(f"{hop.arrow()}(x{i}{':' + hop.label if hop.label else ''}{shown})")
        return "pattern: " + "".join(parts)


GENERIC_LABELS = frozenset({ENTITY_LABEL})
"""Labels every ingested entity carries (for linking): they tell nothing about a node, so hops do not name them."""


def specific_labels(labels: Iterable[str]) -> list[str]:
    """The labels that describe a node's kind (not the generic linking label, not bookkeeping labels)."""
    return [x for x in visible_labels(labels) if x not in GENERIC_LABELS]


def takes_closure(hops: Iterable[Hop]) -> bool:
    """Whether a pattern's hops take a chain of a relationship (``Hop.closure``)."""
    return any(h.closure for h in hops)


def anchor_labels(labels: Sequence[str]) -> list[str]:
    """The labels a linked node is matched under in candidate queries: its specific ones, else what it has."""
    return specific_labels(labels) or list(labels) or [ENTITY_LABEL]


def _reached(row: dict[str, Any], rel: str, leaves: str, display: Display = DEFAULT_DISPLAY) -> list[Hop]:
    """The hops a row describes: its relationship type ``row[rel]``, leaving the node it starts from when
    ``row[leaves]``, reaching nodes of each specific label in ``row["l"]`` (no label when they have none) whose
    display property is the label's (``display``), else ``row["k"]``."""
    d: Direction = "out" if row.get(leaves) else "in"
    key = str(row.get("k") or display.keys[0])
    labels = specific_labels(row.get("l") or [])
    if labels and all(lab in display.unnamed for lab in labels):
        return []
    named = [lab for lab in labels if lab not in display.unnamed] or [""]
    return [Hop(str(row[rel]), d, lab, display.key_of(lab, key)) for lab in named]


def hops_from_rows(rows: Iterable[dict[str, Any]], display: Display = DEFAULT_DISPLAY) -> list[Hop]:
    """The hops of :meth:`CandidateQuery.extension_query` rows: one per relationship type, direction and specific
    label of the reached nodes, in a stable order."""
    hops = {h for r in rows for h in _reached(r, "t", "out", display)}
    return sorted(hops, key=lambda h: (h.rel_type, h.direction, h.label, h.key))


def links_from_rows(a: Anchor, b: Anchor, rows: Iterable[dict[str, Any]]) -> list[CandidateQuery]:
    """The one-hop patterns ``(a)-r-(b)`` of :meth:`Anchor.adjacent_query` rows, closed by the second entity (what
    the relationship between two linked entities says: its properties). Each reads from the relationship's start,
    so the query is the same whichever entity was linked first."""
    out: dict[CandidateQuery, None] = {}
    for r in rows:
        src, dst = (a, b) if r.get("o") else (b, a)
        out[CandidateQuery(src, (Hop(str(r["t"]), "out", dst.label, dst.key),), end=dst)] = None
    return list(out)


def joins_from_rows(
    a: Anchor, b: Anchor, rows: Iterable[dict[str, Any]], display: Display = DEFAULT_DISPLAY
) -> list[CandidateQuery]:
    """The candidates of :meth:`Anchor.connecting_query` rows: ``(a)-h1-(x)-h2-(b)`` returning ``x``, one per
    middle-node label, in row order without repeats."""
    out: dict[CandidateQuery, None] = {}
    for r in rows:
        h2 = Hop(str(r["t2"]), "out" if r.get("o2") else "in", b.label, b.key)
        out.update((CandidateQuery(a, (h1, h2), end=b), None) for h1 in _reached(r, "t1", "o1", display))
    return list(out)
