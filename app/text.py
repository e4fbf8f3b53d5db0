"""Word lists shared by entity linking, citation attribution and training-pair synthesis: one stopword list.

What this module must not do: hold words of one data set or domain beyond the few question nouns below.
"""

from __future__ import annotations

STOPWORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "in",
        "on",
        "at",
        "to",
        "for",
        "from",
        "by",
        "with",
        "and",
        "or",
        "not",
        "no",
        "yes",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "do",
        "does",
        "did",
        "done",
        "has",
        "have",
        "had",
        "as",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "there",
        "their",
        "his",
        "her",
        "i",
        "you",
        "he",
        "she",
        "they",
        "we",
        "what",
        "which",
        "who",
        "whom",
        "whose",
        "when",
        "where",
        "how",
        "why",
        "answer",
        "context",
        "passage",
        "passages",
        "question",
    ]
)
"""English function words and the question nouns that name no entity. Entity linking skips a one-word mention
that is one of them, citation attribution does not count them as content words, and training-pair synthesis ignores
them in relationship-type names."""


def surface(name: str) -> str:
    """An identifier-style entity name as text: ``united_kingdom`` -> ``united kingdom`` (questions and answers use
    spaces where some graphs store underscores)."""
    return " ".join(name.replace("_", " ").split()) if "_" in name else name
