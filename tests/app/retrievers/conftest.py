"""The example mode of ``examples/retrieval_mode``, installed the way pip installs a package: its module on the path
and a ``*.dist-info`` folder whose ``entry_points.txt`` is written from the example's own ``pyproject.toml``. The
registry then finds it exactly as it finds a third-party mode (``importlib.metadata`` entry points)."""

from __future__ import annotations

import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.retrievers.registry import GROUP, installed_modes
from tests.conftest import ROOT

EXAMPLE = ROOT / "examples" / "retrieval_mode"


def example_entry_points() -> dict[str, str]:
    project = tomllib.loads((EXAMPLE / "pyproject.toml").read_text())["project"]
    eps: dict[str, str] = project["entry-points"][GROUP]
    return eps


def install_example(site: Path) -> list[str]:
    """Write the dist-info into ``site``; return the path entries to add."""
    project = tomllib.loads((EXAMPLE / "pyproject.toml").read_text())["project"]
    dist = site / f"{project['name'].replace('-', '_')}-{project['version']}.dist-info"
    dist.mkdir(parents=True, exist_ok=True)
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n")
    lines = [f"[{GROUP}]", *(f"{name} = {target}" for name, target in example_entry_points().items())]
    (dist / "entry_points.txt").write_text("\n".join(lines) + "\n")
    return [str(site), str(EXAMPLE)]


@pytest.fixture(scope="module")
def example_mode(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The example installed for one test module; its mode name."""
    entries = install_example(tmp_path_factory.mktemp("site"))
    sys.path[:0] = entries
    installed_modes.cache_clear()
    try:
        (name,) = example_entry_points()
        yield name
    finally:
        for e in entries:
            sys.path.remove(e)
        installed_modes.cache_clear()
