"""The CLI's ingest and ask commands (in-process, on a temporary data dir)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from app.cli import cli
from tests.conftest import DEMO


def test_ingest_then_retrieve_only_ask(tmp_path: Path) -> None:
    runner = CliRunner()
    args = ["--data-dir", str(tmp_path)]
    r = runner.invoke(cli, ["ingest", "--namespace", "demo", "--format", "documents", str(DEMO / "docs"), *args])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout[r.stdout.index("{") :])
    # a page and the entity its title names per document, and the chunks
    assert out["counts"]["documents"] == 36 and out["graph"]["nodes"] == 2 * 36 + out["counts"]["chunks"]
    r = runner.invoke(
        cli,
        [
            "ask",
            "How many arches does the Drummel Viaduct have?",
            "--namespace",
            "demo",
            "--retrieve-only",
            *args,
        ],
    )
    assert r.exit_code == 0, r.output
    body = json.loads(r.stdout[r.stdout.index("{") :])
    assert body["items"][0]["source"]["title"] == "The Drummel Viaduct"
    # the documents command lists them and removes one (the CLI side of DELETE /admin/documents/{id})
    r = runner.invoke(cli, ["documents", "--namespace", "demo", *args])
    assert r.exit_code == 0, r.output
    listed = json.loads(r.stdout[r.stdout.index("[") :])
    (viaduct,) = [d for d in listed if d["title"] == "The Drummel Viaduct"]
    assert len(listed) == 36
    r = runner.invoke(cli, ["documents", "--namespace", "demo", "--delete", viaduct["id"], *args])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout[r.stdout.index("[") :])[0]["counts"]["chunks"] == viaduct["chunks"]
    r = runner.invoke(cli, ["documents", "--namespace", "demo", "--delete", viaduct["id"], *args])
    assert r.exit_code == 2 and "no document" in r.output


def test_ingest_reports_bad_input_with_exit_code_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("only|two\n")
    r = CliRunner().invoke(cli, ["ingest", "--format", "metaqa", str(bad), "--data-dir", str(tmp_path / "d")])
    assert r.exit_code == 2 and "expected 3 fields" in r.output


def test_index_attaches_a_graph_and_reports_what_it_embedded(tmp_path: Path) -> None:
    """``python -m app index``: the display property per label, and a second run embeds nothing again."""
    runner = CliRunner()
    args = ["--data-dir", str(tmp_path)]
    script = tmp_path / "shop.cypher"
    script.write_text("CREATE (:Supplier {companyName: 'Exotic Liquids'})-[:SUPPLIES]->(:Product {sku: 'CHAI-1'});\n")
    assert (
        runner.invoke(cli, ["ingest", "--namespace", "shop", "--format", "cypher", str(script), *args]).exit_code == 0
    )
    r = runner.invoke(cli, ["index", "--namespace", "shop", *args])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout[r.stdout.index("{") :])
    assert out["display"] == {"Product": "sku", "Supplier": "companyName"}
    assert out["counts"]["entities"] == 2 and out["counts"]["entities_unchanged"] == 2  # the ingest indexed them
    r = runner.invoke(cli, ["index", "--namespace", "nothing_here", *args])
    assert r.exit_code == 2 and "holds no graph" in r.output
