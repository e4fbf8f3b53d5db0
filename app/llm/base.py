"""The LLM contract shared by the in-process model and the vLLM worker client."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Protocol, TypedDict, runtime_checkable


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


@dataclass
class RankedQuery:
    index: int
    """Position in the candidate list given to ``choose``."""
    text: str
    logprob: float
    """log P(candidate + EOS | prompt) under the model."""


@runtime_checkable
class GroundedChooser(Protocol):
    """A model that picks among enumerated candidate queries under the token-trie constraint."""

    model_name: str

    async def choose(
        self, messages: Sequence[Message], candidates: Sequence[str], *, top_m: int, method: str, max_forwards: int = 48
    ) -> list[RankedQuery]:
        """Top-m distinct candidates with log-probabilities, best first. ``method``: ``exact`` (score every
        candidate, prompt KV cache shared) or ``beam`` (beam search under the trie mask)."""
