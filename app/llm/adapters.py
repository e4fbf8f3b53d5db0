"""Per-namespace LoRA adapters (``python -m app tune``): where they live and which one serves a namespace.

``<settings.namespace_adapters_dir>/<namespace>/<role>/`` holds a peft adapter (``adapter_config.json`` and its
weights) plus ``training.json`` (how it was made). ``tune`` writes the folder next to its final place and renames it
into place, so a running service never sees half an adapter; the local model reloads an adapter whose files changed.
With ``llm.backend=vllm`` the worker serves the same folder under the adapter's ``name``
(``--grounded-lora text2cypher-NS=PATH``) and requests select it by that name.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

from app.settings import Settings, TunableRole

CONFIG_FILE = "adapter_config.json"


@dataclass(frozen=True)
class TunedAdapter:
    name: str
    """``<role>-<namespace>``: the LoRA name the vLLM worker serves it under."""
    path: Path

    @property
    def version(self) -> int:
        """Changes when the adapter is rewritten (the local model then reloads it)."""
        return max((f.stat().st_mtime_ns for f in self.path.iterdir() if f.is_file()), default=0)

    def base_model(self) -> str:
        """The base model folder the adapter was trained on (as peft recorded it)."""
        return str(json.loads((self.path / CONFIG_FILE).read_text()).get("base_model_name_or_path") or "")


def adapter_dir(settings: Settings, namespace: str, role: TunableRole = "text2cypher") -> Path:
    return settings.namespace_adapters_dir / namespace / role


def namespace_adapter(settings: Settings, namespace: str, role: TunableRole = "text2cypher") -> TunedAdapter | None:
    """The namespace's adapter for ``role``, or None when ``tune`` has not made one."""
    path = adapter_dir(settings, namespace, role)
    return TunedAdapter(f"{role}-{namespace}", path) if (path / CONFIG_FILE).is_file() else None


def adapter_version(settings: Settings, namespace: str, role: TunableRole = "text2cypher") -> int:
    """The namespace's adapter's version (0: none; -1 while one is being moved into place)."""
    try:
        adapter = namespace_adapter(settings, namespace, role)
        return adapter.version if adapter is not None else 0
    except OSError:
        return -1


def install_adapter(built: Path, target: Path) -> None:
    """Move a finished adapter folder into place, replacing the previous one (each step a rename)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    old = target.with_name(target.name + ".old")
    shutil.rmtree(old, ignore_errors=True)
    if target.exists():
        target.rename(old)
    built.rename(target)
    shutil.rmtree(old, ignore_errors=True)
