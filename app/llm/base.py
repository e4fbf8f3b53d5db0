"""The LLM contract shared by the in-process model and the vLLM worker client, and the models of a running service
by role (``LLMs``)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol, TypedDict, runtime_checkable

from app.llm.adapters import TunedAdapter
from app.settings import TunableRole
from grounded import DecodingMethod, ScoredCandidate

Role = Literal["answer"] | TunableRole
ROLES: tuple[Role, ...] = ("answer", "text2cypher", "agent")


class Message(TypedDict):
    role: str
    content: str


@dataclass
class Generation:
    text: str
    tokens_in: int
    tokens_out: int
    model: str


@runtime_checkable
class LLM(Protocol):
    backend: str
    model_name: str

    async def start(self) -> None:
        """Load weights / open the client. Idempotent."""

    async def close(self) -> None: ...

    async def ping(self) -> bool: ...

    async def generate(
        self, messages: Sequence[Message], *, max_new_tokens: int, temperature: float = 0.0
    ) -> Generation: ...

    def stream(
        self, messages: Sequence[Message], *, max_new_tokens: int, temperature: float = 0.0
    ) -> AsyncIterator[str]:
        """Yield text pieces as they are generated; closing the iterator cancels generation."""


@runtime_checkable
class GroundedChooser(Protocol):
    """A model that picks among enumerated candidate queries under the token-trie constraint."""

    model_name: str

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
        """Top-m distinct candidates with ``log P(candidate + EOS | prompt)``, best first (``grounded.DecodingMethod``
        says what each method does; ``max_forwards`` bounds best-first search), under ``adapter`` (a namespace's
        tuned LoRA, ``app.llm.adapters``) when given."""


@dataclass
class LLMs:
    """The language models of a running service, by role. Roles without a model of their own share the answer
    model's object; ``tuned`` names the roles a fine-tuned adapter serves. Built by ``app.llm.build_llms``."""

    answer: LLM | None = None
    text2cypher: LLM | None = None
    agent: LLM | None = None
    tuned: frozenset[TunableRole] = field(default_factory=frozenset)

    def get(self, role: Role) -> LLM | None:
        model: LLM | None = getattr(self, role)
        return model

    def distinct(self) -> list[LLM]:
        """Each model object once (start and close them once)."""
        out: list[LLM] = []
        for role in ROLES:
            model = self.get(role)
            if model is not None and all(model is not m for m in out):
                out.append(model)
        return out

    async def start(self) -> None:
        for model in self.distinct():
            await model.start()
