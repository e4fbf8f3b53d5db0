"""The graph schema as the service sees it: label-type-label triples, labels, relationship types and property keys,
and how triples are read off ``(labels(a), type(r), labels(b), count)`` rows. Pure data: no database access."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class SchemaTriple:
    """One (source label)-[type]->(target label) combination that exists in the graph."""

    source: str
    rel_type: str
    target: str

    def pattern(self) -> str:
        return f"(:{self.source})-[:{self.rel_type}]->(:{self.target})"


@dataclass
class GraphSchema:
    labels: list[str] = field(default_factory=list)
    relationship_types: list[str] = field(default_factory=list)
    property_keys: list[str] = field(default_factory=list)
    triples: list[SchemaTriple] = field(default_factory=list)
    edge_counts: list[dict[str, Any]] = field(default_factory=list)
    """The ``(la, t, lb, n)`` rows (labels of the start, type, labels of the end, how many) the triples were read
    off: the schema profile's relationship counts and endpoints."""

    def is_empty(self) -> bool:
        return not self.labels

    def to_text(self) -> str:
        """Compact schema description used in prompts."""
        lines = ["Node labels: " + ", ".join(self.labels)]
        lines.append("Relationship types: " + ", ".join(self.relationship_types))
        lines.append("Property keys: " + ", ".join(self.property_keys))
        lines.append("Patterns:")
        lines.extend("  " + t.pattern() for t in self.triples)
        return "\n".join(lines)


def visible_labels(labels: Iterable[str]) -> list[str]:
    """Labels (or property keys) that describe data: bookkeeping names start with ``_``."""
    return [x for x in labels if not x.startswith("_")]


def triples_from_rows(
    rows: Iterable[dict[str, Any]], generic_label: str = "Entity", min_share: float = 0.1
) -> list[SchemaTriple]:
    """Label-level triples from ``(labels(a), type, labels(b), count)`` rows.

    Nodes can carry several labels. Some label sets are kinds of node the data was written with (``Network:Zone``,
    ``Router:Egress``: a label that never stands alone), others are accidents of typing (a name that is both a movie
    and a year, where ``Movie`` and ``Year`` each stand alone far more often), which would make every label
    combination look like schema. An edge between nodes of kinds is schema however rare (40 racks holding switches
    beside 8,000 holding machines; 40 zone networks routing interfaces beside 8,000 machines); otherwise a
    relationship type keeps only the source and target labels that cover at least ``min_share`` of its edges. The
    generic linking label is left out when a node has a more specific one.
    """
    src: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    dst: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    total: dict[str, int] = defaultdict(int)
    pairs: set[tuple[str, str, str]] = set()
    plain: set[tuple[str, str, str]] = set()  # edges between nodes of kinds
    ends: list[tuple[list[str], str, list[str], int]] = []
    alone: dict[frozenset[str], int] = defaultdict(int)  # edge ends per exact label set
    for row in rows:
        la = [x for x in visible_labels(row["la"]) if x != generic_label] or visible_labels(row["la"])
        lb = [x for x in visible_labels(row["lb"]) if x != generic_label] or visible_labels(row["lb"])
        n = int(row.get("n", 1))
        ends.append((la, str(row["t"]), lb, n))
        alone[frozenset(la)] += n
        alone[frozenset(lb)] += n

    def kind(labels: list[str]) -> bool:
        """One label, or a set some label of which does not stand alone on more edge ends than the set does."""
        own = alone[frozenset(labels)]
        return len(labels) <= 1 or any(alone[frozenset([x])] <= own for x in labels)

    for la, t, lb, n in ends:
        total[t] += n
        for a in la:
            src[t][a] += n
        for b in lb:
            dst[t][b] += n
        pairs.update((a, t, b) for a in la for b in lb)
        if kind(la) and kind(lb):
            plain.update((a, t, b) for a in la for b in lb)
    out = {
        SchemaTriple(a, t, b)
        for a, t, b in pairs
        if (a, t, b) in plain or (src[t][a] >= min_share * total[t] and dst[t][b] >= min_share * total[t])
    }
    return sorted(out, key=lambda x: (x.rel_type, x.source, x.target))
