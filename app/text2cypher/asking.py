"""How ``tune`` asks its training questions: the lexicon's ``[questions]`` table (``app.text2cypher.lexicon``), read
into frames and phrases that ``phrasing.path_question`` and ``phrasing.shape_question`` fill."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, eq=False)
class Asking:
    """How ``tune`` asks its training questions (the lexicon's ``[questions]`` table; ``phrasing.path_question``,
    ``phrasing.shape_question``): frames and phrases, one drawn at random where there are several."""

    path: tuple[str, ...]
    outer: tuple[str, ...]
    attribute: tuple[str, ...]
    anchor: tuple[str, ...]
    unknown_kind: tuple[str, ...]
    plural: str
    turn_back: dict[str, tuple[str, ...]]
    shapes: dict[str, tuple[str, ...]]
    words: dict[str, str]
    pattern: dict[str, tuple[str, ...]]
    filters: dict[str, tuple[str, ...]]
    ops: dict[str, tuple[str, ...]]
    having: dict[str, tuple[str, ...]]
    aggregates: dict[str, tuple[str, ...]]


ASKING_KEYS = {
    "turn_back": ("in", "out"),
    "shapes": ("list", "list_k", "count", "agg", "top", "group", "group_avg", "top_time", "top_linked",
               "top_linked_time", "top_staged", "top_staged_time", "attr", "attr_pair", "common", "common_all",
               "attr_of", "agg_time"),
    "words": ("highest", "lowest", "most", "fewest", "least", "average", "number_of"),
    "pattern": ("leaves", "enters", "having_leaves", "having_enters", "quantity", "time_leaves", "time_enters",
                "joined"),
    "filters": ("exists_edge", "exists_own", "exists_linked", "decade", "between", "compared", "edge", "own",
                "linked", "absent_edge", "absent_own", "absent_linked", "flag_edge", "flag_own", "flag_linked"),
}  # fmt: skip
"""The tables of ``[questions]`` and the keys each must have (the frames the code fills)."""


def asking_of(q: dict[str, Any]) -> Asking:
    def options(v: Any) -> tuple[str, ...]:
        out = (v,) if isinstance(v, str) else tuple(str(x) for x in v)
        if not out:
            raise ValueError("a frame list is empty")
        return out

    tables = {
        t: {str(k): options(v) for k, v in dict(q[t]).items()}
        for t in ("turn_back", "shapes", "pattern", "filters", "ops", "having", "aggregates")
    }
    for t, keys in ASKING_KEYS.items():
        missing = [k for k in keys if k not in (q[t] if t == "words" else tables[t])]
        if missing:
            raise KeyError(f"questions.{t}: {', '.join(missing)}")
    return Asking(
        path=options(q["path"]),
        outer=options(q["outer"]),
        attribute=options(q["attribute"]),
        anchor=options(q["anchor"]),
        unknown_kind=options(q["unknown_kind"]),
        plural=str(q["plural"]),
        words={str(k): str(v) for k, v in dict(q["words"]).items()},
        **tables,
    )
