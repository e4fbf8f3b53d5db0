"""Async client of the LLM worker's OpenAI-compatible chat API (``llm.backend=vllm``).

Every call has a timeout; connection errors and 429/5xx are retried with back-off, other errors are not; closing a
stream (client disconnect) closes the HTTP response, which makes vLLM abort the request.

A namespace's self-tuned adapter (``python -m app tune``) is brought to the worker on first use
(``ensure_adapter``: ``POST /v1/grounded/loras``, again whenever ``tune`` rewrote it), so the worker needs no
per-namespace flags; it needs ``--enable-lora`` and to see the adapters folder (the same volume, at the same path or
at ``llm.vllm_adapters_dir``). A worker that cannot serve it leaves the namespace on the base model, said in the
request's warnings and retried after ``adapter_retry_s``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import httpx

from app.errors import DependencyError, DependencyTimeoutError
from app.llm.adapters import TunedAdapter
from app.llm.base import Generation, Message
from grounded import DecodingMethod, ScoredCandidate

log = logging.getLogger(__name__)
RETRYABLE_STATUS = {429, 502, 503, 504}


class VLLMClient:
    backend = "vllm"

    def __init__(
        self,
        base_url: str,
        *,
        model: str | None = None,
        timeout_s: float = 120.0,
        retries: int = 2,
        lora: str | None = None,
        adapters_dir: Path | None = None,
        worker_adapters_dir: str | None = None,
        adapter_retry_s: float = 60.0,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.model_name = model or ""
        self.lora = lora
        """LoRA adapter the worker serves for ``/v1/grounded`` (``--grounded-lora NAME=PATH``); None = base model."""
        self.timeout_s = timeout_s
        self.retries = retries
        self.adapters_dir = adapters_dir
        """The namespace adapters folder as this process sees it (``Settings.namespace_adapters_dir``)."""
        self.worker_adapters_dir = worker_adapters_dir
        """The same folder as the worker sees it; None = the same path."""
        self.adapter_retry_s = adapter_retry_s
        self._client: httpx.AsyncClient | None = None
        self._served: dict[str, int] = {}
        """Adapter name -> the version this client registered with the worker."""
        self._refused: dict[str, tuple[float, int, str]] = {}
        """Adapter name -> (when, version, why) the worker last refused it."""
        self._adapter_locks: dict[str, asyncio.Lock] = {}

    async def start(self) -> None:
        if self._client is None:
            self._client = httpx.AsyncClient(base_url=self.base_url, timeout=httpx.Timeout(self.timeout_s, connect=5))
        if not self.model_name:
            try:
                r = await self._client.get("/v1/models")
                r.raise_for_status()
                self.model_name = r.json()["data"][0]["id"]
            except (httpx.HTTPError, KeyError, IndexError) as exc:
                log.warning("LLM worker at %s not reachable at start-up: %s", self.base_url, exc)

    async def close(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            await client.aclose()

    def _c(self) -> httpx.AsyncClient:
        if self._client is None:
            raise DependencyError("llm_worker", "client is not started")
        return self._client

    async def ping(self) -> bool:
        try:
            r = await self._c().get("/health", timeout=2)
            return r.status_code == 200
        except httpx.HTTPError:
            return False

    def _body(self, messages: Sequence[Message], max_new_tokens: int, temperature: float, stream: bool) -> dict:
        return {
            "model": self.model_name,
            "messages": list(messages),
            "max_tokens": max_new_tokens,
            "temperature": temperature,
            "stream": stream,
        }

    async def post_json(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        """POST with retries on retryable failures only."""
        delay = 0.25
        for attempt in range(self.retries + 1):
            try:
                r = await self._c().post(path, json=body)
            except httpx.TimeoutException as exc:
                if attempt == self.retries:
                    raise DependencyTimeoutError("llm_worker", f"no answer within {self.timeout_s:.0f}s") from exc
            except httpx.TransportError as exc:
                if attempt == self.retries:
                    raise DependencyError("llm_worker", f"unreachable: {exc}") from exc
            else:
                if r.status_code < 400:
                    data: dict[str, Any] = r.json()
                    return data
                if r.status_code not in RETRYABLE_STATUS or attempt == self.retries:
                    raise DependencyError("llm_worker", f"HTTP {r.status_code}: {r.text[:300]}")
            await asyncio.sleep(delay)
            delay *= 2
        raise AssertionError("unreachable")

    async def generate(
        self, messages: Sequence[Message], *, max_new_tokens: int, temperature: float = 0.0
    ) -> Generation:
        data = await self.post_json("/v1/chat/completions", self._body(messages, max_new_tokens, temperature, False))
        usage = data.get("usage") or {}
        return Generation(
            text=(data["choices"][0]["message"]["content"] or "").strip(),
            tokens_in=int(usage.get("prompt_tokens", 0)),
            tokens_out=int(usage.get("completion_tokens", 0)),
            model=str(data.get("model", self.model_name)),
        )

    def worker_path(self, adapter: TunedAdapter) -> str:
        """The adapter's folder on the worker's file system."""
        if self.worker_adapters_dir and self.adapters_dir is not None:
            try:
                rel = adapter.path.resolve().relative_to(self.adapters_dir.resolve())
            except ValueError:
                return str(adapter.path)
            return f"{self.worker_adapters_dir.rstrip('/')}/{rel.as_posix()}"
        return str(adapter.path)

    def serves(self, adapter: TunedAdapter) -> bool:
        """Whether the worker serves this version of ``adapter`` (registered by ``ensure_adapter``)."""
        return self._served.get(adapter.name) == adapter.version

    async def ensure_adapter(self, adapter: TunedAdapter) -> str | None:
        """Register ``adapter`` with the worker unless it already serves this version. None when served, else why
        not (a refusal is remembered for ``adapter_retry_s`` so that requests do not each ask again)."""
        version = adapter.version
        if self._served.get(adapter.name) == version:
            return None
        refused = self._refused.get(adapter.name)
        if refused is not None and refused[1] == version and time.monotonic() - refused[0] < self.adapter_retry_s:
            return refused[2]
        lock = self._adapter_locks.setdefault(adapter.name, asyncio.Lock())
        async with lock:
            if self._served.get(adapter.name) == version:
                return None
            path = self.worker_path(adapter)
            try:
                await self.post_json("/v1/grounded/loras", {"name": adapter.name, "path": path})
            except DependencyError as exc:
                self._refused[adapter.name] = (time.monotonic(), version, exc.message)
                log.warning("the LLM worker does not serve adapter %s from %s: %s", adapter.name, path, exc.message)
                return exc.message
            self._served[adapter.name] = version
            self._refused.pop(adapter.name, None)
            log.info("adapter %s registered with the LLM worker (%s)", adapter.name, path)
            return None

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
        """Top-m candidates from the worker's ``/v1/grounded``, which takes the same method vocabulary: it scores
        candidates exactly (prompt log-probabilities, prefix cache) for ``exact``, ``best_first`` and ``beam`` (the
        same top-m, exact) and decodes greedily under its trie logits processor for ``greedy``. A namespace
        ``adapter`` is selected by its name (the worker serves it: ``--grounded-lora text2cypher-NS=PATH``)."""
        body: dict[str, Any] = {
            "messages": list(messages),
            "candidates": list(candidates),
            "top_m": top_m,
            "method": method,
        }
        if adapter is not None:
            body["lora"] = adapter.name
        elif self.lora:
            body["lora"] = self.lora
        data = await self.post_json("/v1/grounded", body)
        out: list[ScoredCandidate] = []
        for r in data.get("ranked", []):
            i = int(r["index"])
            if not 0 <= i < len(candidates) or r.get("text") != candidates[i]:
                raise DependencyError("llm_worker", "grounded answer names a query that is not a candidate")
            out.append(ScoredCandidate(i, candidates[i], float(r["logprob"])))
        return out

    async def stream(
        self, messages: Sequence[Message], *, max_new_tokens: int, temperature: float = 0.0
    ) -> AsyncIterator[str]:
        body = self._body(messages, max_new_tokens, temperature, True)
        try:
            async with self._c().stream("POST", "/v1/chat/completions", json=body) as r:
                if r.status_code >= 400:
                    raise DependencyError("llm_worker", f"HTTP {r.status_code}")
                async for line in r.aiter_lines():
                    if not line.startswith("data: "):
                        continue
                    payload = line[6:].strip()
                    if payload == "[DONE]":
                        break
                    delta = json.loads(payload)["choices"][0].get("delta", {}).get("content")
                    if delta:
                        yield delta
        except httpx.TimeoutException as exc:
            raise DependencyTimeoutError("llm_worker", "stream timed out") from exc
        except httpx.TransportError as exc:
            raise DependencyError("llm_worker", f"unreachable: {exc}") from exc
