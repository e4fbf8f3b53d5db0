"""LLM access: the ``LLM`` protocol, the in-process transformers model, the vLLM worker client, and ``build_llms``,
the one place that turns settings into the service's models by role."""

from __future__ import annotations

from app.llm.base import LLM, LLMs, Message, Role
from app.settings import LLMRoleSettings, Settings

__all__ = ["LLM", "LLMs", "Message", "Role", "build_llms"]


def _model(settings: Settings, role: LLMRoleSettings | None = None) -> LLM:
    s = settings.llm
    if s.backend == "vllm":
        from app.llm.vllm_client import VLLMClient

        assert s.vllm_url is not None
        return VLLMClient(
            s.vllm_url,
            model=s.vllm_model,
            timeout_s=s.timeout_s,
            lora=role.vllm_lora if role is not None else None,
            adapters_dir=settings.namespace_adapters_dir,
            worker_adapters_dir=s.vllm_adapters_dir,
        )
    from app.llm.local import LocalLLM

    return LocalLLM(
        s.model,
        models_dir=settings.model_cache_dir,
        timeout_s=s.timeout_s,
        max_queue=s.max_queue,
        threads=s.threads,
        adapter=role.adapter if role is not None else None,
    )


def build_llms(settings: Settings, *, enabled: bool = True) -> LLMs:
    """The answer model, and for each other role either a model of its own (the answer model with the role's LoRA
    adapter) or the answer model itself. Nothing is loaded here (``LLMs.start`` does); ``enabled=False`` gives no
    models at all (offline jobs that never generate)."""
    if not enabled:
        return LLMs()
    answer = _model(settings)
    roles = settings.llm.roles()
    own = {name: _model(settings, role) if role.tuned else answer for name, role in roles.items()}
    tuned = frozenset(name for name, role in roles.items() if role.tuned)
    return LLMs(answer=answer, text2cypher=own["text2cypher"], agent=own["agent"], tuned=tuned)
