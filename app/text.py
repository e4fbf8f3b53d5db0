"""Word lists shared by entity linking, citation attribution and training-pair synthesis: one stopword list, read
from ``app/lexicon/en.toml``.

What this module must not do: hold words of one data set or domain, or any word list in code.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from pathlib import Path


def _words(language: str = "en") -> dict[str, list[str]]:
    """The shared word lists of a language (``app/lexicon/<language>.toml``: data, not code)."""
    with (Path(__file__).parent / "lexicon" / f"{language}.toml").open("rb") as f:
        return tomllib.load(f)


_LEXICON = _words()
FUNCTION_WORDS = frozenset(_LEXICON["function"])
"""English function words."""
QUESTION_NOUNS = frozenset(_LEXICON["question_nouns"])
"""Nouns a question uses about itself ("answer the question from the passages")."""
STOPWORDS = FUNCTION_WORDS | QUESTION_NOUNS
"""English function words and the question nouns that name no entity. Entity linking skips a one-word mention
that is one of them, citation attribution does not count them as content words, and training-pair synthesis ignores
them in relationship-type names."""


def surface(name: str) -> str:
    """An identifier-style entity name as text: ``united_kingdom`` -> ``united kingdom`` (questions and answers use
    spaces where some graphs store underscores)."""
    return " ".join(name.replace("_", " ").split()) if "_" in name else name


# a name: words that start with a capital or a digit, joined by spaces or by the particles inside names
_NAME_SPAN = re.compile(r"[^\W\d_a-z][\w'’.-]*|\d[\w'’.,-]*")
NAME_PARTICLES = frozenset(_LEXICON["name_particles"])
"""Lower-case words that may stand inside a name (``Bank of England``, ``Ludwig van Beethoven``)."""
_TOKEN = re.compile(r"[^\s()\[\]{}\";:!?]+")
_WORD = re.compile(r"\w+")
_ENDS_RUN = re.compile(r"(?:[,;]|(?<!\b\w)\.)$")
"""A word ending a clause or a sentence (not an initial such as ``J.``) ends a name."""


def phrase_at(text: str, phrase: str, *, case: bool = False) -> re.Match[str] | None:
    """Where ``phrase`` stands in ``text`` as whole words (no word character right before or after it), in any case
    unless ``case``."""
    return re.search(rf"(?<!\w){re.escape(phrase)}(?!\w)", text, 0 if case else re.IGNORECASE)


def name_spans(text: str, *, known: str = "", exclude: Iterable[str] = ()) -> list[str]:
    """The names a passage mentions, in reading order, each once: runs of capitalised (or numeric) words, with name
    particles inside a run; leading function words (``The``, ``In``) dropped. A name that ``known`` (the question)
    already contains, whose every word it contains, or that is in ``exclude`` is left out. This is the reader of
    the iterative mode: the names of a passage are the bridge entities it may lead to."""
    known_l = known.lower()
    known_words = set(_WORD.findall(known_l))
    skip = {e.lower() for e in exclude}
    out: list[str] = []
    seen: set[str] = set()
    words = [m.group(0) for m in _TOKEN.finditer(text)]
    cores = [w.strip(".,'’") for w in words]
    i = 0
    while i < len(words):
        if not _NAME_SPAN.fullmatch(cores[i]):
            i += 1
            continue
        j = i + 1
        while j < len(words) and not _ENDS_RUN.search(words[j - 1]):
            if _NAME_SPAN.fullmatch(cores[j]):
                j += 1
            elif words[j] in NAME_PARTICLES and j + 1 < len(words) and _NAME_SPAN.fullmatch(cores[j + 1]):
                j += 2
            else:
                break
        run = cores[i:j]
        i = j
        while run and run[0].lower() in STOPWORDS:
            run.pop(0)
        name = " ".join(run).strip()
        low = name.lower()
        if len(name) < 3 or low in seen or low in skip or low in known_l:
            continue
        if set(_WORD.findall(low)) <= known_words:
            continue
        seen.add(low)
        out.append(name)
    return out


def identifier_words(identifier: str) -> str:
    """A schema identifier in words: ``DIRECTED_BY`` / ``directedBy`` / ``directed_by`` -> ``directed by``."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", identifier)
    return " ".join(spaced.replace("_", " ").split()).lower()
