"""Entity recognition and linking (GraphRAFT step 1).

Mentions are found by n-gram matching against the namespace's entity names (exact; case-insensitive only when the
span has a capital letter or digit, so an ordinary word such as "gender" never links to a node named "Gender", and
not the capital a question opens with, so "List the top 5 ..." never links to a node named "list"; nor a lower-case
word that names a label, relationship type or property key, so "the top 3 tags" never links to a tag named "tags"; an
exact-case match and longer spans rank higher; overlapping spans give way to longer ones). Mentions with no exact
match fall back to vector similarity: each *mention* (a capitalised or quoted span, else the question's content
words) is embedded and searched in the ``entities`` collection. Each link names the node (display value, labels,
the property holding the value) and a score.

One linker serves every mode of a service (``RetrieverDeps.linker``): the name index is read from the graph once per
namespace and dropped when the namespace is re-ingested.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Literal

from app.concurrency import BuiltOnce
from app.models.embedder import Embedder
from app.settings import ProfileSettings
from app.stores.graph.base import GraphStore
from app.stores.graph.profile import SchemaProfiler, categorical_values, named_nodes
from app.stores.vector.base import VectorHit, VectorStore, collection_name
from app.text import STOPWORDS, surface
from app.text2cypher.lexicon import Lexicon
from app.text2cypher.lexicon import load as load_lexicon
from app.text2cypher.words import kind_nouns, noun_lemmas, stem_match, term_words

_TOKEN = re.compile(r"\S+")
_TRAILING = ".,;:!?\"')]"
_CLOSING = "\"')]"
"""What closes a quote or a bracket: stripped alone, a name's own last character stays ("... in neo4j?")."""
_LEADING = "\"'(["
_QUOTED = re.compile(r"\"([^\"]+)\"|'([^']{2,})'")
_SENTENCE_END = ".?!"
_CAPITALISED = re.compile(r"\b[A-Z0-9][\w'&.-]*(?:\s+(?:of|the|and|de|la|von|van)?\s*[A-Z0-9][\w'&.-]*)*")


def _exact_link(
    idx: NameIndex,
    text: str,
    name: str,
    labels: list[str],
    key: str,
    span: tuple[int, int],
    exact_case: bool,
    capital: bool = False,
) -> EntityLink:
    """An exact mention of a named node: the longer the mention, the better; its exact case and a capital that is
    not a sentence's first letter say more."""
    score = len(text) + (5.0 if exact_case else 0.0) + (2.0 if capital else 0.0)
    return EntityLink(text, name, labels, key, score, "exact", span, (name, key) in idx.numbers)


def joined(question: str, links: list[EntityLink]) -> list[EntityLink]:
    """``links`` with each two that only a space parts, linked to one label by two of its properties, said as one:
    the nodes holding both values ("Olga Moreau": ``firstName`` Olga, ``lastName`` Moreau;
    a person's name kept in two parts). The first of the two holds the other in ``also``; neither stays alone."""
    out = list(links)
    for a in links:
        for b in links:
            if a not in out or b not in out or a is b or a.key == b.key or not (a.span and b.span):
                continue
            shared = [lab for lab in a.labels if lab in b.labels]
            if shared and a.span[1] < b.span[0] and not question[a.span[1] : b.span[0]].strip():
                span = (a.span[0], b.span[1])
                out[out.index(a)] = replace(
                    a,
                    mention=question[span[0] : span[1]],
                    labels=shared,
                    span=span,
                    score=a.score + b.score,
                    also=(*a.also, (b.key, b.name)),
                )
                out.remove(b)
    return out


def _opens_sentence(text: str, at: int) -> bool:
    """Position ``at`` of ``text`` opens a sentence: nothing but space before it, or a full stop, "?" or "!"."""
    before = text[:at].rstrip().rstrip(_LEADING).rstrip()
    return not before or before[-1] in _SENTENCE_END


@dataclass
class EntityLink:
    mention: str
    name: str
    labels: list[str]
    key: str
    score: float
    method: Literal["exact", "vector"]
    span: tuple[int, int] | None = None
    number: bool = False
    """The stored value is a whole number (a port), not text: a query compares it as one."""
    also: tuple[tuple[str, str], ...] = ()
    """``(key, value)`` of other properties of the same nodes the mention names with ``name``: values of one label
    said side by side are one node's ("Olga Moreau": a ``firstName`` and a ``lastName``; ``joined``)."""


def _common_noun(name: str) -> bool:
    """A display value stored in lower case, of words only ("goalkeeper", "film_director"; not "dc1-r2")."""
    return name.islower() and all(w.isalpha() for w in re.split(r"[ _-]+", name) if w)


@dataclass
class NameIndex:
    """Lower-cased entity name (and its spoken form, ``_`` read as a space) -> [(name, labels, key)]."""

    by_lower: dict[str, list[tuple[str, list[str], str]]] = field(default_factory=dict)
    max_tokens: int = 1
    numbers: set[tuple[str, str]] = field(default_factory=set)
    """(name, key) of the display values stored as whole numbers."""
    categorical: set[tuple[str, str]] = field(default_factory=set)
    """(name, key) of the values of categorical properties (a position, a country): a common noun a question may
    say in lower case and in the plural ("which goalkeepers ...": ``Goalkeeper``)."""
    few: set[tuple[str, str]] = field(default_factory=set)
    """(name, key) of the display values of labels of few nodes (no more than a categorical property's values): a
    handful of things of a kind (diseases, genres), which a question may name in lower case ("treat asthma")."""
    schema_words: frozenset[str] = frozenset()
    """The words of the namespace's labels, relationship types and property keys (``Tag``, ``HAS_GENRE``, ``uuid``):
    a question's lower-case word that names one of them speaks of the schema, not of a node of that name."""

    kinds: frozenset[str] = frozenset()
    """The last word of each label in lower case (``words.kind_nouns``): a word that is one of them in the plural or
    singular names the kind, whatever value shares its word (``names_kind``)."""

    def names_kind(self, text: str) -> bool:
        """``text`` is a label's own word ("members" and ``Member``), not just of its stem."""
        return bool(noun_lemmas(text.rstrip(_TRAILING).lower()) & self.kinds)

    def names_schema(self, text: str) -> bool:
        """``text`` is one word in lower case or capitals that names a schema word (the same stem: "tags" and ``Tag``,
        "UUID" and ``uuid``); not a handle or code such as "chef_ana" or "dc1" (no word of the language)."""
        word = text.rstrip(_TRAILING)
        plain = word.isalpha() and (word.islower() or (word.isupper() and len(word) > 1))
        return plain and any(stem_match(word.lower(), w) for w in self.schema_words)

    def values_of(self, text: str, *, common: bool = True) -> list[tuple[str, list[str], str]]:
        """The common nouns a word or words name as a noun's singular ("goalkeepers": ``Goalkeeper``, "film
        directors": ``film_director``; the last word's lemma): values of categorical properties, and (``common``)
        the nodes whose display value the graph stores in lower case (a knowledge graph of triples keeps a
        profession or a genre as a node of its own)."""
        head, _, last = text.lower().rpartition(" ")
        return [
            entry
            for lemma in noun_lemmas(last)
            for entry in self.by_lower.get(f"{head} {lemma}" if head else lemma, [])
            if (entry[0], entry[2]) in self.categorical or (common and _common_noun(entry[0]))
        ]

    def named(self, name: str) -> list[tuple[str, list[str], str]]:
        """The nodes whose display value is exactly ``name`` (case included): ``(name, labels, key)`` each."""
        return [entry for entry in self.by_lower.get(name.lower(), []) if entry[0] == name]


class EntityLinker:
    def __init__(
        self,
        graph: GraphStore,
        vectors: VectorStore,
        embedder: Embedder,
        profiler: SchemaProfiler | None = None,
        *,
        max_mentions: int = 3,
        per_mention: int = 3,
        min_vector_score: float | None = None,
        max_index_rows: int = 5_000_000,
        max_nodes_per_name: int = 100,
        language: Lexicon | None = None,
    ) -> None:
        self.graph = graph
        self.language = language or load_lexicon()
        """The language questions are asked in: a single unquoted word of its own ("list", "unique") names no node."""
        self.vectors = vectors
        self.embedder = embedder
        self.profiler = profiler if profiler is not None else SchemaProfiler(graph, ProfileSettings())
        """The namespaces' schema profiles: which property names a node of each label."""
        self.max_mentions = max_mentions
        self.per_mention = per_mention
        self.min_vector_score = embedder.match_floor if min_vector_score is None else min_vector_score
        self.max_index_rows = max_index_rows
        self.max_nodes_per_name = max_nodes_per_name
        """A display value more nodes share than this names a kind of thing (a port number every machine has, the
        version every process of it runs), not an entity: it is not linked (a condition on the property says it)."""
        self._indexes: BuiltOnce[NameIndex] = BuiltOnce()

    def invalidate(self, namespace: str) -> None:
        self._indexes.invalidate(namespace)

    def indexed(self, namespace: str) -> bool:
        """Whether the namespace's name index is built (and current)."""
        return self._indexes.built(namespace)

    async def index(self, namespace: str) -> NameIndex:
        return await self._indexes.get(namespace, lambda: self._build_index(namespace))

    async def _build_index(self, namespace: str) -> NameIndex:
        profile = await self.profiler.get(namespace)
        nodes = await named_nodes(self.graph, namespace, profile, max_rows=self.max_index_rows, timeout_s=120)
        # the values of categorical properties name the nodes that hold them ("suppliers in Japan")
        values = await categorical_values(self.graph, namespace, profile, max_values=10_000, timeout_s=120)
        nodes += values
        idx = NameIndex(
            schema_words=frozenset(w for t in profile.terms() for w in term_words(t)),
            kinds=kind_nouns(profile.labels),
        )
        idx.categorical = {(v.name, v.key) for v in values}
        small = {
            lab for lab, lp in profile.labels.items() if lp.count <= self.profiler.settings.categorical_max_distinct
        }
        idx.few = {(n.name, n.key) for n in nodes if set(n.labels) & small}
        for node in nodes:
            if node.count > self.max_nodes_per_name:
                continue
            name, labels, key = node.name, list(node.labels), node.key
            if isinstance(node.value, int):
                idx.numbers.add((name, key))
            idx.by_lower.setdefault(name.lower(), []).append((name, labels, key))
            spoken = surface(name)
            if spoken != name:  # "united_kingdom" is mentioned as "united kingdom"
                idx.by_lower.setdefault(spoken.lower(), []).append((name, labels, key))
            idx.max_tokens = max(idx.max_tokens, len(spoken.split()))
        idx.max_tokens = min(idx.max_tokens, 12)
        return idx

    def exact_mentions(self, question: str, idx: NameIndex) -> list[EntityLink]:
        tokens = [(m.start(), m.end()) for m in _TOKEN.finditer(question)]
        whole = [m.span(1) for m in self.language.pattern("the_data").finditer(question)]  # "in the dataset"
        found: list[EntityLink] = []
        for i in range(len(tokens)):
            for j in range(i, min(len(tokens), i + idx.max_tokens)):
                start, end = tokens[i][0], tokens[j][1]
                while start < end and question[start] in _LEADING:
                    start += 1
                span = question[start:end]
                variants = {span, span.rstrip(_TRAILING), span.rstrip(_CLOSING)}
                for text in variants:
                    direct = idx.by_lower.get(text.lower(), [])
                    entries = direct or (self.word_values(text, idx) if j == i else idx.values_of(text))
                    if not entries:
                        continue
                    if j == i and (text.lower() in STOPWORDS or len(text) < 2):
                        continue
                    quoted = question[start - 1 : start] in _LEADING
                    if not quoted and any(a <= start and start + len(text) <= b for a, b in whole):
                        continue  # "tags used in the dataset": the data asked of, not a tag named "dataset"
                    schema = j == i and idx.names_schema(text) and not quoted
                    if schema and (idx.names_kind(text) or not idx.values_of(text, common=False)):
                        # "the top 3 tags" asks about the label Tag, not a tag named "tags" ('tags' does); only a
                        # categorical value keeps such a word ("goalkeepers", a position, beside a key ``goals``),
                        # unless the word is a label's own: "verified members" are members, not those whose role
                        # on a relationship is "member"
                        continue
                    s, e = start, start + len(text)
                    # the capital a sentence opens with says nothing of a name: "List the top 5 ...", "... Limit to
                    # the top 3" are no mentions of nodes named "list" and "limit"
                    opens = _opens_sentence(question, s) and text[1:] == text[1:].lower()
                    if j == i and not quoted and (text.islower() or opens) and self.language.speaks(text):
                        continue  # "list all unique tags": the question's own words, not a tag named "unique"
                    for name, labels, key in entries:
                        exact_case = surface(name) == text or name == text
                        value = len(text) > 3 and (
                            not direct or (name, key) in idx.categorical or (name, key) in idx.few
                        )
                        if not exact_case and (text.islower() or opens) and not value:
                            continue  # "gender" is a word, not the node "Gender": lower case links only exactly
                        capital = text[:1].isupper() and not opens
                        found.append(_exact_link(idx, text, name, labels, key, (s, e), exact_case, capital))
        for m in _QUOTED.finditer(question):  # a quoted name longer than any span tried above is one mention still
            text = m.group(1) or m.group(2)
            if len(text.split()) > idx.max_tokens:
                s = m.start() + 1
                for name, labels, key in idx.by_lower.get(text.lower(), []):
                    found.append(_exact_link(idx, text, name, labels, key, (s, s + len(text)), name == text))
        # longest / best-scoring first; a mention overlapping a better one is dropped
        found.sort(key=lambda link: (-link.score, link.span or (0, 0)))
        chosen: list[EntityLink] = []
        for link in found:
            assert link.span is not None
            clash = any(c.span and link.span[0] < c.span[1] and c.span[0] < link.span[1] for c in chosen)
            same_span = any(c.span == link.span for c in chosen)
            if clash and not same_span:
                continue
            chosen.append(link)
        return joined(question, chosen)

    def word_values(self, word: str, idx: NameIndex) -> list[tuple[str, list[str], str]]:
        """What one word names that is not written as it is stored: a categorical value as a noun's plural
        ("goalkeepers": ``Goalkeeper``), or a place by its adjective (the lexicon's ``demonyms``: "Brazilian"
        players, ``Brazil``)."""
        if not word:
            return []
        places = self.language.demonyms.get(word.lower(), ())
        return idx.values_of(word) or [e for p in places for e in idx.by_lower.get(p.lower(), [])]

    @staticmethod
    def fallback_mentions(question: str, idx: NameIndex | None = None, language: Lexicon | None = None) -> list[str]:
        """The spans the vector fallback looks up: quoted text, capitalised spans (not one capitalised word a
        sentence opens with, "List ...", nor one that names a schema word, "Tags", in ``idx``; nor a word of the
        ``language`` a sentence opens with, "Show 5."; nor the data as a whole, "in the dataset"), else the question's
        content words."""
        language = language or load_lexicon()
        quoted = _QUOTED.findall(question)
        question = language.pattern("the_data").sub(" ", question)  # "in the dataset" names no node
        spans = [a or b for a, b in quoted]
        for m in re.finditer(_CAPITALISED, question):
            span, opens = m.group(0), _opens_sentence(question, m.start())
            first, _, rest = span.partition(" ")
            if opens and rest and language.speaks(first):
                span, opens = rest.strip(), False
            if span.lower() in STOPWORDS:
                continue
            if " " not in span and (opens or (idx and idx.names_schema(span.lower()))):
                continue
            spans.append(span)
        if not spans:
            words = [w for w in re.findall(r"[\w'-]+", question) if w.lower() not in STOPWORDS]
            spans = [" ".join(words)] if words else []
        # a span without a letter ("5", "4.", "10.2") is a value the question states, not a name to look up by
        # meaning: its embedding is near any other number's (a version "4.5", "5.1"); the exact index links it
        # nor are numbers joined by a word ("between 50 and 100")
        named = [s for s in spans if any(ch.isalpha() for w in s.split() if w.lower() not in STOPWORDS for ch in w)]
        return list(dict.fromkeys(s.strip() for s in named))

    async def link(self, namespace: str, question: str, *, max_mentions: int | None = None) -> list[EntityLink]:
        """The question's entity mentions linked to nodes (at most ``max_mentions`` mentions, default the
        linker's; each may match several nodes)."""
        limit = self.max_mentions if max_mentions is None else max_mentions
        idx = await self.index(namespace)
        exact = self.exact_mentions(question, idx)
        mentions: list[EntityLink] = []
        seen_spans: list[tuple[int, int]] = []
        for link in exact:
            if link.span not in seen_spans:
                if len(seen_spans) >= limit:
                    continue
                seen_spans.append(link.span or (0, 0))
            mentions.append(link)
        if mentions:
            return mentions
        coll = collection_name(namespace, "entities")
        out: list[EntityLink] = []
        for mention in self.fallback_mentions(question, idx, self.language)[:limit]:
            vec = await self.embedder.embed_one(mention)
            for hit in await self.vectors.search(coll, vec, top_k=self.per_mention):
                if hit.score >= self.min_vector_score:
                    out += _vector_links(idx, mention, hit)
        out.sort(key=lambda link: -link.score)
        return out

    async def nearest(self, namespace: str, question: str) -> list[EntityLink]:
        """The node whose name is nearest the whole question by vector, with no floor (several where nodes share
        that name): where the question names no node ("which orders are the oldest?"), what a mode that starts from
        one can start from. Empty where the namespace has no entity vectors."""
        idx = await self.index(namespace)
        vec = await self.embedder.embed_one(question)
        hits = await self.vectors.search(collection_name(namespace, "entities"), vec, top_k=1)
        return _vector_links(idx, question, hits[0]) if hits else []


def _vector_links(idx: NameIndex, mention: str, hit: VectorHit) -> list[EntityLink]:
    """The nodes an entity vector's hit names (several where nodes of other labels share the name), linked from
    ``mention`` with the hit's score."""
    name = str(hit.payload.get("name"))
    return [
        EntityLink(mention, name, labels, key, hit.score, "vector", number=(name, key) in idx.numbers)
        for _, labels, key in idx.named(name)
    ]
