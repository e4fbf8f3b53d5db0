"""The service's language models by role: one builder, shared objects where a role has no adapter, and the
text2cypher prompt that follows whether its model is a fine-tuned adapter."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from app.container import Container
from app.cypher.candidates import Anchor, CandidateQuery, Hop
from app.llm import build_llms
from app.llm.adapters import TunedAdapter
from app.llm.base import GroundedChooser, LLMs, Message
from app.llm.local import LocalLLM
from app.llm.vllm_client import VLLMClient
from app.retrievers.base import Retrievers
from app.retrievers.text2cypher import Enumeration, Text2CypherRetriever
from app.settings import LLMRoleSettings, LLMSettings, Settings
from app.text2cypher.prompt import INSTRUCTION
from grounded import DecodingMethod, ScoredCandidate


def settings(**llm: object) -> Settings:
    return Settings(_env_file=None, llm=LLMSettings(**llm))  # type: ignore[arg-type, call-arg]


def test_roles_without_an_adapter_share_the_answer_model() -> None:
    llms = build_llms(settings())
    assert isinstance(llms.answer, LocalLLM) and llms.answer.adapter is None
    assert llms.text2cypher is llms.answer and llms.agent is llms.answer
    assert llms.tuned == frozenset() and llms.distinct() == [llms.answer]
    assert build_llms(settings(), enabled=False) == LLMs()


def test_a_role_with_an_adapter_gets_its_own_model(tmp_path: Path) -> None:
    llms = build_llms(settings(text2cypher=LLMRoleSettings(adapter=tmp_path)))
    assert isinstance(llms.text2cypher, LocalLLM) and llms.text2cypher.adapter == tmp_path
    assert llms.text2cypher is not llms.answer and llms.agent is llms.answer
    assert llms.tuned == {"text2cypher"} and len(llms.distinct()) == 2


def test_on_the_worker_a_role_selects_its_lora_by_name() -> None:
    llms = build_llms(
        settings(backend="vllm", vllm_url="http://worker:8000", agent=LLMRoleSettings(vllm_lora="agent-lora"))
    )
    assert isinstance(llms.answer, VLLMClient) and llms.answer.lora is None
    assert isinstance(llms.agent, VLLMClient) and llms.agent.lora == "agent-lora"
    assert llms.text2cypher is llms.answer and llms.tuned == {"agent"}


class Capture:
    """A grounded chooser that records its prompt and picks the first candidate."""

    model_name = "capture"

    def __init__(self) -> None:
        self.messages: list[Message] = []

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
        self.messages = list(messages)
        return [ScoredCandidate(0, candidates[0], -0.1)]


async def test_the_text2cypher_prompt_has_the_schema_unless_the_model_is_a_tuned_adapter(container: Container) -> None:
    """The adapter was trained on the short prompt (no schema): the mode drops the schema whenever the text2cypher
    role is served by an adapter, locally or on the worker; the untuned model gets the schema."""
    cand = CandidateQuery(Anchor("Sable Class", "Locomotive"), (Hop("MANUFACTURED_BY", "out", "Manufacturer"),))
    prompts = {}
    for tuned in (frozenset(), frozenset({"text2cypher"})):
        chooser = Capture()
        assert isinstance(chooser, GroundedChooser)
        llms = LLMs(answer=container.llm, text2cypher=chooser, tuned=tuned)  # type: ignore[arg-type]
        r = Text2CypherRetriever(replace(container.deps, llms=llms, modes=Retrievers()))
        r.config = r.config.model_copy(update={"scoring": "llm"})
        e = Enumeration([], [cand], ["manufactured by of Sable Class (manufacturer)"], [1.0])
        ranked, order, method = await r.choose("demo", "Which manufacturer built the Sable Class?", e)
        assert ranked[0].query == cand.text and order == [0] and method == "exact"
        prompts[bool(tuned)] = chooser.messages[0]["content"]
    assert prompts[True] == INSTRUCTION
    assert prompts[False].startswith(INSTRUCTION + " Graph schema:\n") and "MANUFACTURED_BY" in prompts[False]
