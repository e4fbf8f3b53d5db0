"""LLM access: the ``LLM`` protocol, the in-process transformers model and the vLLM worker client."""

from __future__ import annotations

from app.llm.base import LLM, Generation, Message
from app.settings import Settings

__all__ = ["LLM", "Generation", "Message", "build_llm"]


def build_llm(settings: Settings) -> LLM:
    s = settings.llm
    if s.backend == "vllm":
        from app.llm.vllm_client import VLLMClient

        assert s.vllm_url is not None
        return VLLMClient(s.vllm_url, model=s.vllm_model, timeout_s=s.timeout_s)
    from app.llm.local import LocalLLM

    return LocalLLM(
        s.model,
        models_dir=settings.model_cache_dir,
        timeout_s=s.timeout_s,
        max_queue=s.max_queue,
        threads=s.threads,
    )
