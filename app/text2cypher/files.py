"""Where a stage's data file is: a bundled one by name (``en``, ``default``), or any file by path."""

from __future__ import annotations

from pathlib import Path

from app.errors import InvalidInputError


def data_file(folder: Path, name: str, suffix: str, what: str) -> Path:
    """``folder/<name><suffix>`` for a bundled name, ``name`` itself when it ends with ``suffix``; an
    ``InvalidInputError`` naming the bundled ones when there is no such file."""
    path = Path(name) if name.endswith(suffix) else folder / f"{name}{suffix}"
    if not path.is_file():
        known = ", ".join(sorted(p.stem for p in folder.glob(f"*{suffix}")))
        raise InvalidInputError(f"no text2cypher {what} {name!r} (bundled: {known}; or a path to a {suffix} file)")
    return path
