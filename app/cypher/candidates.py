"""Candidate Cypher enumeration (GraphRAFT step 2): the text of every valid query of the supported shapes.

For the linked entities of a question, queries are built from the graph's schema, using only label-type-label
triples that exist: 1..max_hops paths from one entity returning the far node, and 2-hop paths connecting two linked
entities returning the middle node. Intermediate nodes carry their label (a type filter). Queries are parameter-free
text in one canonical form, e.g.

    MATCH (x1:Person {name: "Tom Hanks"})<-[:ACTED_IN]-(x2:Movie) RETURN x2.title

so that a model can generate them token by token under the trie constraint. What runs (execution, existence and
count queries) adds a ``WHERE`` clause so that the same text means the same answers on every engine:

* **relationship uniqueness made explicit** (``r1 <> r2`` for hops of one type): Neo4j never re-uses an edge within
  one MATCH pattern, FalkorDB does (measured: ``(x1:Movie)-[:DIRECTED_BY]->(:Person)<-[:DIRECTED_BY]-(x3:Movie)``
  returns x1 itself as x3 on FalkorDB, not on Neo4j);
* **no path comes back to a linked entity**: every other node of the path differs from it (``x3 <> x1``), as
  question answering over a graph expects (the films "that share directors with X" are other films; the answer to
  "who starred with X" is never X) and as MetaQA's gold answers are built.

The canonical text the model generates stays without that clause.

This module only builds text and never talks to a database; the retriever prunes candidates that return nothing.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from app.cypher.queries import cypher_string, ident
from app.cypher.schema import SchemaTriple

Direction = Literal["out", "in"]
Path = tuple["Anchor", tuple["Hop", ...]]


@dataclass(frozen=True)
class Hop:
    rel_type: str
    direction: Direction
    label: str
    """Label of the node the hop reaches."""
    key: str = "name"
    """Display property of that label (``name``, ``title``)."""

    def arrow(self, var: str = "") -> str:
        t = ident(self.rel_type, "relationship type")
        return f"-[{var}:{t}]->" if self.direction == "out" else f"<-[{var}:{t}]-"


@dataclass(frozen=True)
class Anchor:
    """A linked entity: its display value, the property holding it, and the label used in the pattern."""

    name: str
    label: str
    key: str = "name"

    def node(self, var: str) -> str:
        return f"({var}:{ident(self.label, 'label')} {{{ident(self.key, 'property')}: {cypher_string(self.name)}}})"


@dataclass(frozen=True)
class CandidateQuery:
    anchor: Anchor
    hops: tuple[Hop, ...]
    end: Anchor | None = None
    """Second linked entity closing the path; the node before it is returned then."""

    @property
    def return_index(self) -> int:
        return len(self.hops) if self.end is not None else len(self.hops) + 1

    @property
    def return_hop(self) -> Hop:
        return self.hops[self.return_index - 2]

    @property
    def return_var(self) -> str:
        return f"x{self.return_index}"

    def match_clause(self, *, named: bool = False) -> str:
        """The MATCH pattern; ``named`` names the relationships ``r1``.. (for :meth:`where_clause`)."""
        parts = [self.anchor.node("x1")]
        for i, hop in enumerate(self.hops, start=2):
            arrow = hop.arrow(f"r{i - 1}" if named else "")
            if self.end is not None and i == len(self.hops) + 1:
                parts.append(arrow + self.end.node(f"x{i}"))
            else:
                parts.append(f"{arrow}(x{i}:{ident(hop.label, 'label')})")
        return "MATCH " + "".join(parts)

    def where_clause(self) -> str:
        """`` WHERE r1 <> r3 AND x3 <> x1``: no edge is used twice (for every pair of hops of one type) and no node of a
        linked entity is reached again by another node of the path (needs ``match_clause(named=True)``)."""
        n = len(self.hops)
        conds = [
            f"r{i + 1} <> r{j + 1}"
            for i in range(n)
            for j in range(i + 1, n)
            if self.hops[i].rel_type == self.hops[j].rel_type
        ]
        linked = ["x1"] + ([f"x{n + 1}"] if self.end is not None else [])
        for k in range(2, n + 2):
            conds += [f"x{k} <> {lv}" for lv in linked if lv != f"x{k}"]
        return " WHERE " + " AND ".join(conds)

    def _guarded(self) -> str:
        return self.match_clause(named=True) + self.where_clause()

    @property
    def text(self) -> str:
        """The canonical query the model generates."""
        return f"{self.match_clause()} RETURN {self.return_var}.{self.return_hop.key}"

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

    def exists_query(self) -> str:
        return f"{self._guarded()} RETURN 1 AS ok LIMIT 1"

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
            parts.append(f"{hop.arrow()}(x{i}:{hop.label}{shown})")
        return "pattern: " + "".join(parts)


class SchemaGraph:
    """Label-level adjacency from the schema's triples; ``display_keys`` maps a label to its name-like property."""

    def __init__(self, triples: Iterable[SchemaTriple], display_keys: dict[str, str] | None = None) -> None:
        self.display_keys = display_keys or {}
        self.adjacency: dict[str, list[Hop]] = defaultdict(list)
        for t in triples:
            self.adjacency[t.source].append(Hop(t.rel_type, "out", t.target, self.key(t.target)))
            self.adjacency[t.target].append(Hop(t.rel_type, "in", t.source, self.key(t.source)))
        for hops in self.adjacency.values():
            hops.sort(key=lambda h: (h.rel_type, h.direction, h.label))

    def key(self, label: str) -> str:
        return self.display_keys.get(label, "name")

    def first_paths(
        self, name: str, key: str, labels: Sequence[str], edges: Iterable[tuple[str, str, str]] | None
    ) -> list[Path]:
        """1-hop paths out of an entity: from the entity's actual ``(rel_type, direction, other label)`` edges when
        known (pruning by edge existence), else every schema hop of its labels."""
        out: list[Path] = []
        allowed = None if edges is None else set(edges)
        for lab in labels:
            for hop in self.adjacency.get(lab, []):
                if allowed is None or (hop.rel_type, hop.direction, hop.label) in allowed:
                    out.append((Anchor(name, lab, key), (hop,)))
        return out

    def extend(self, paths: Iterable[Path]) -> list[Path]:
        """Every one-hop extension of the given paths that the schema allows."""
        return [(a, (*hops, nxt)) for a, hops in paths for nxt in self.adjacency.get(hops[-1].label, [])]

    def connecting(self, start: Path, end_name: str, end_key: str, end_labels: Sequence[str]) -> list[CandidateQuery]:
        """Close a 1-hop path from one entity at a second entity: (a)-h1-(x2)-h2-(b), returning x2."""
        anchor, (h1,) = start
        return [
            CandidateQuery(anchor, (h1, h2), end=Anchor(end_name, h2.label, end_key))
            for h2 in self.adjacency.get(h1.label, [])
            if h2.label in end_labels
        ]
