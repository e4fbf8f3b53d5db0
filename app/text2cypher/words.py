"""Whether a question's words name a schema's words: a label, a relationship type or a property key is named by a
word sharing its stem, a form of the same verb, or a compound holding it ("directors" and ``DIRECTED``, "written"
and ``WROTE``, "screenwriters" and ``WRITTEN_BY``).

What this module must not do: know any graph's words. The doer nouns come from the lexicon, verb forms from
lemminflect's dictionary.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Sequence

from lemminflect import getAllLemmas, getAllLemmasOOV, getInflection

from app.cypher.candidates import Hop
from app.cypher.shapes import Filter, Shape
from app.text import FUNCTION_WORDS, identifier_words
from app.text2cypher.lexicon import Lexicon


def stem_match(a: str, b: str) -> bool:
    """Two words share a stem: a common prefix of at least 3 letters, falling short of the shorter word by at most
    2 (``directed``/``directors``, ``acted``/``actors``, ``reviews``/``reviewed``)."""
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n >= 3 and n >= min(len(a), len(b)) - 2


@functools.lru_cache(maxsize=8192)
def verb_lemmas(word: str) -> frozenset[str]:
    """The verbs an English word form is a form of (``wrote``, ``written`` → write), from lemminflect's dictionary;
    none for a word it does not know as a verb."""
    return frozenset(getAllLemmas(word, upos="VERB").get("VERB", ()))


@functools.lru_cache(maxsize=1024)
def participle(word: str) -> bool:
    """Whether an English word form is a verb's past participle other than its plain form ("killed", "written"; not
    "dead", nor "put")."""
    return any(word in getInflection(v, "VBN") for v in verb_lemmas(word) if v != word)


@functools.lru_cache(maxsize=8192)
def noun_lemmas(word: str) -> frozenset[str]:
    """The nouns an English word form is a form of (``goalkeepers`` → goalkeeper), from lemminflect's dictionary
    and, for a plural it does not know ("midfielders"), its rules; the word itself among them."""
    known = getAllLemmas(word, upos="NOUN").get("NOUN", ())
    if not known and word.endswith("s"):
        known = getAllLemmasOOV(word, upos="NOUN").get("NOUN", ())
    return frozenset({word, *known})


@functools.lru_cache(maxsize=1024)
def content_words(text: str) -> tuple[str, ...]:
    """A text's words that are no function words ("question" and "answer" stay: a graph of questions and answers
    names its labels so). Cached: a question is read once per candidate (some 300 times a movies question)."""
    return tuple(w for w in re.findall(r"[a-z]+", text.lower()) if w not in FUNCTION_WORDS)


@functools.lru_cache(maxsize=4096)
def term_words(term: str) -> tuple[str, ...]:
    """A schema term's content words (``HAS_GENRE`` → ``genre``). Cached: the schema's few terms are read for every
    candidate. A label ``Question`` or a key ``answer_count`` keeps its words: they are the graph's, and so are words
    of two letters (``ip``, ``OS``: ``names`` takes them only whole)."""
    return tuple(w for w in identifier_words(term).split() if w not in FUNCTION_WORDS and len(w) >= 2)


def label_nouns(label: str) -> tuple[str, ...]:
    """A label's noun in the singular: its words run together, and its last word ("datacenter", "center" for
    ``DataCenter``)."""
    said = identifier_words(label).split()
    return ("".join(said), *said[-1:])


def kind_nouns(labels: Iterable[str]) -> frozenset[str]:
    """The last word of each label (``Member``, ``DataCenter``: "member", "center"): a question word one of them is a
    form of ("members") names that kind, whatever value or key shares the word."""
    return frozenset(n[-1] for lab in labels if lab and (n := label_nouns(lab)))


def held_words(s: Shape, var: int) -> list[str]:
    """The values of one word a shape holds node ``x{var}`` to by a linked value or an equality condition on a
    property other than its display value (a venue's ``kind`` "conference")."""
    display = s.path.node_kind(var)[1]
    held = [a.name for v, a in s.path.linked() if v == var and a.key != display and a.name]
    held += [f.value for f in s.filters if picks(f) and f.var == var and f.key != display]
    return [v for v in held if v.isalpha()]


def picks(f: Filter) -> bool:
    """A condition that a node's property equals a text: the question states that node (``identity_terms``)."""
    return f.op == "=" and not f.edge and not f.listed and isinstance(f.value, str)


class Matcher:
    """Word matching in one language (its doer nouns from the lexicon)."""

    def __init__(self, lex: Lexicon) -> None:
        self.lex = lex
        # a word pair is asked some 70,000 times a question on a schema of 17 labels (each candidate's features)
        self.names: Callable[[str, str], bool] = functools.lru_cache(maxsize=1 << 16)(self._names)

    def same_verb(self, a: str, b: str) -> bool:
        """Two words are forms of one verb, or one is the noun for the doer of the other ("wrote" / "written" /
        "writers"): irregular forms share no stem."""
        return bool(verb_lemmas(a) & verb_lemmas(b)) or self.doer_form(a, b) or self.doer_form(b, a)

    def only_begins(self, term_word: str, word: str, spared: Sequence[str], kinds: frozenset[str]) -> bool:
        """Whether a question word for a kind of the pattern (``spared``) only begins like a relationship type's word
        that is no kind: no form of it ("shipment" / ``SHIPPED_FROM``, where "answers" is a form of ``ANSWERED``)."""
        if word not in spared or term_word in kinds:
            return False
        return not (stem_match(term_word, word) or self.same_verb(term_word, word))

    def doer_form(self, verb: str, word: str) -> bool:
        """Whether ``word`` is the lemma of ``verb`` with one of the lexicon's doer suffixes ("write" / "writers",
        "depends" / "dependents")."""
        return any(word == v + s for v in verb_lemmas(verb) for s in self.lex.agent_suffixes)

    def _names(self, term_word: str, word: str) -> bool:
        """A question word names a schema word: they share a stem, are forms of one verb (``WROTE`` named by "written"
        or "writers"), or the word begins with the schema word's first four letters or ends in a form of it they
        begin (a compound: ``written`` in "screenwriters", ``rating`` in "ratings"; ``_compound``), or the word is an
        adjective comparing by that measure ("longest" names ``duration``: the lexicon's ``measures``), or the word
        is a verb's form and the schema word a noun of what it says ("born" names ``birth``: the lexicon's
        ``senses``). A schema word of two letters is named by itself or its plural only ("IPs" names ``ip``). A word
        of the question's frame names a schema word only as itself or its plural ("list" names no ``LISTENS``;
        "name" names ``name``)."""
        if len(term_word) < 3:  # too short for a stem: the word itself or its plural ("IPs")
            return word in (term_word, term_word + "s")
        if word in self.lex.frame:  # "list" names no ``LISTENS``, "provide" no ``PROVIDED``; "name" names ``name``
            return word in (term_word, term_word + "s") or term_word == word + "s"
        return (
            stem_match(term_word, word)
            or any(stem_match(term_word, m) for m in self.lex.measures.get(word, ()))
            or (len(term_word) >= 4 and self._compound(term_word, word))
            or self.same_verb(term_word, word)
            or term_word in self.lex.senses.get(word, ())
        )

    def _compound(self, term_word: str, word: str) -> bool:
        """``word`` begins with the schema word's first four letters ("ratings": ``rating``), or ends in a form of it
        that they begin ("screenwriters": ``written``); not four letters inside another word ("department" names no
        ``MENTORS``)."""
        at = word.find(term_word[:4])
        while at > 0:
            tail = word[at:]  # a word of its own, not a suffix ("ment")
            if len(tail) >= len(term_word) - 2 and (stem_match(term_word, tail) or self.same_verb(term_word, tail)):
                return True
            at = word.find(term_word[:4], at + 1)
        return at == 0

    def named(self, term: str, qwords: Sequence[str]) -> bool:
        return any(self.names(w, q) for w in term_words(term) for q in qwords)

    def mentions(
        self,
        question: str,
        terms: Sequence[str],
        optional: Sequence[str] = (),
        *,
        keys: Sequence[str] = (),
        reserved: Sequence[str] = (),
        spared: Sequence[str] = (),
        kinds: frozenset[str] = frozenset(),
    ) -> tuple[int, int]:
        """How many of ``terms`` and then ``keys`` (one per use) the question mentions, and how many it does not. A
        term is mentioned when one of its content words is named by a question word not already taken by another use
        (``names``), so a path that takes one relationship twice needs it named twice ("the director of X also
        directed which films"). Each of a term's words takes its own question word, so that the words of one phrase
        name one use ("a view count between 50 and 100" names ``view_count`` once: its second use, the upper bound
        of two conditions, is unnamed). The ``reserved`` words are taken before ``keys`` (after ``terms``): a word
        that says what kind of thing a quoted constant is ("the version '7.1'": ``kind_words``) names no property
        (a service's ``versions``), though it may name a relationship. The ``spared`` words name no key but may name
        an ``optional`` term ("posts" names no ``postedAt``; "the track X" still names ``trackName``). Nor does one name
        a relationship type whose word is one of the ``kinds`` (the nouns of the pattern's labels): "releases" names
        the ``Release`` a path reaches, and its ``HAS_RELEASE`` is neither named nor missed (a path to releases is no
        better than none for saying the word, and no worse than another path to them), though "answers" names
        ``ANSWERED``, and "shipment" names no ``SHIPPED_FROM`` (it only begins like it: ``only_begins``); one such word
        spares one use ("the track X" spares one ``HAS_TRACK``, not the two of a path through X's album). A term takes
        another word before one of them ("which hikers hiked X": ``HIKED`` takes "hiked", and "hikers" names no
        ``hiked_on``). An ``optional`` term counts when a word left over names it, and is no miss when none does
        (``identity_terms``)."""
        qwords = content_words(question)
        taken: set[int] = set()

        def took(t: str, shy: bool = False) -> int:
            """1: a word names the use; 0 (with ``shy``): only a word for a kind the type is named for does, which
            counts the use neither way; -1: none does."""
            hit = spent = False
            for w in term_words(t):
                k = None  # the first word naming it, or a spared one where no other does ("hikers hiked")
                for j, q in enumerate(qwords):
                    if j not in taken and self.names(w, q) and not (shy and self.only_begins(w, q, spared, kinds)):
                        if q not in spared:
                            k = j
                            break
                        k = j if k is None else k
                if k is not None:
                    taken.add(k)
                    kind_word = shy and w in kinds and qwords[k] in spared  # "releases", ``HAS_RELEASE``
                    spent, hit = spent or kind_word, hit or not kind_word
            return 1 if hit else 0 if spent else -1

        uses = [took(t, shy=True) for t in terms]
        for r in reserved:
            k = next((j for j, q in enumerate(qwords) if j not in taken and q == r), None)
            if k is not None:
                taken.add(k)
        kept = {j for j, q in enumerate(qwords) if j not in taken and q in spared}
        taken |= kept
        uses += [took(t) for t in keys]
        taken -= kept
        named = uses.count(1)
        return named + sum(took(t) == 1 for t in optional), uses.count(-1)

    def kind_words(self, beside: dict[str, list[tuple[str, int]]], labels: Sequence[str]) -> tuple[str, ...]:
        """The words that say what kind of thing each quoted constant is: of the words around it (``beside``), the
        nearest that name one of the graph's ``labels`` ("the version '7.1'", "the 'crm' service")."""
        out: list[str] = []
        for near in beside.values():
            kinds = [(d, w) for w, d in near if any(self.named(lab, [w]) for lab in labels)]
            if kinds:
                out.append(min(kinds)[1])
        return tuple(out)

    def doer(self, hop: Hop, i: int) -> int:
        """The node of hop ``i`` (between ``x{i}`` and ``x{i+1}``) that does what its relationship type says: the
        node it starts at, or the one it points to where the type is named in the passive (the lexicon's
        ``passive``: ``WRITTEN_BY`` is done by its end)."""
        source = i if hop.direction == "out" else i + 1
        return 2 * i + 1 - source if self.passive(hop.rel_type) else source

    def passive(self, rel_type: str) -> bool:
        """Whether a relationship type is named in the passive (its last word is one of the lexicon's ``passive``)."""
        words = identifier_words(rel_type).split()
        return bool(words) and words[-1] in self.lex.passive

    def kind_named(self, s: Shape, var: int, heads: Sequence[str], *, label: bool = True, nouns: bool = False) -> bool:
        """Whether the question's head words name node ``x{var}`` of the shape's pattern: its label ("movies"; not
        where ``label`` is False), or it as the doer of a relationship it starts ("actors" for the source of
        ``ACTED_IN``, "producers" of ``PRODUCED``; of one named in the passive, the end it points to: "writers" of
        ``WRITTEN_BY``), or, with ``nouns``, it as the end of a relationship whose last word is a noun the head word is
        a form of ("which city" for what ``HOME_CITY`` points to, "what genres" for ``HAS_GENRE``'s: a noun names what
        it points to, so "which city is X in" asks for no club with a home city; a verb's form is no such noun:
        "answers" names no end of ``ANSWERED``). Only for the noun a "which" / "what" opens on (``wh_kind``): in
        "where was the spouse of X born" the word "spouse" names what the question starts from. That noun names the node
        a condition holds to a value of one word it is a form of, too ("at which conferences": the venues of kind
        "conference"; "the academic descendants of X" names no institution of sector "academic")."""
        kind = s.path.node_kind(var)[0]
        if label and kind and self.named(kind, heads):
            return True
        if label and nouns and any(v.lower() in noun_lemmas(h) for v in held_words(s, var) for h in heads):
            return True
        for i, hop in enumerate(s.hops, start=1):
            words = term_words(hop.rel_type)
            if self.doer(hop, i) == var and words and any(self.is_doer(words[0], h) for h in heads):
                return True
            pointed = {"out": i + 1, "in": i}.get(hop.direction)
            if nouns and var == pointed and words and any(words[-1] in noun_lemmas(h) for h in heads):
                return True  # a relationship named by a noun names the node it points to ("which city": HOME_CITY's)
        return False

    def role_end(self, s: Shape, said: str, head: str) -> int:
        """Where a head word names both ends of a shape's relationship (one kind), whether what the question says those
        things are (after a form of "be" right after the head word: the lexicon's ``said_to_be``) names the end the
        shape is about by its role: the doer of a verb's relationship ("which packages are dependents of X": of
        ``DEPENDS_ON``), or what the verb reaches where the word is a noun of it that is neither a form of it nor its
        doer ("dependencies", "requirements": what is depended on, required). +1 for the shape's end, -1 for
        another, 0 where none says ("which characters killed members of X": the verb says)."""
        after = re.search(rf"\b{re.escape(head)}\s+(.*)", said, re.IGNORECASE)
        if after is None or not self.lex.pattern("said_to_be").match(after.group(1)):
            return 0
        for h in content_words(after.group(1)):
            ends = self.role_ends(s, h)
            if ends:
                return 0 if len(ends) > 1 else 1 if s.target in ends else -1
        return 0

    def role_ends(self, s: Shape, head: str) -> set[int]:
        """The nodes of a shape's pattern a noun names by their role in a relationship (``role_named``:
        "dependencies" names what ``DEPENDS_ON`` reaches)."""
        return {v for v in range(1, len(s.hops) + 2) if self.role_named(s, v, head)}

    def role_named(self, s: Shape, var: int, head: str) -> bool:
        """Whether ``head`` names node ``x{var}`` by its role in a relationship (``role_end``); a verb's form names no
        role ("transfer")."""
        if verb_lemmas(head):
            return False
        for i, hop in enumerate(s.hops, start=1):
            words = term_words(hop.rel_type)
            if not words or not self.names(words[0], head):
                continue
            doer = self.doer(hop, i)
            if doer == var and self.is_doer(words[0], head):
                return True
            if doer != var and var in (i, i + 1) and verb_lemmas(words[0]):
                return not self.is_doer(words[0], head)  # "dependencies": what the verb reaches
        return False

    def is_doer(self, verb: str, word: str) -> bool:
        """Whether ``word`` is a noun for the doer of ``verb``: a doer's ending on a word naming it ("actors",
        "screenwriters"), or the verb with one of the lexicon's suffixes ("dependents"; not "requirements")."""
        return (word.endswith(self.lex.agent_endings) and self.names(verb, word)) or self.doer_form(verb, word)

    def dates_birth(self, key: str) -> bool:
        """Whether a property dates a birth (the lexicon's birth words): a ranking by it compares ages."""
        return any(w.startswith(self.lex.birth) for w in term_words(key))

    def dates_death(self, key: str) -> bool:
        """Whether a property dates a death (the lexicon's death words)."""
        return any(w.startswith(self.lex.death) for w in term_words(key))


@functools.lru_cache(maxsize=8)
def matcher(lex: Lexicon) -> Matcher:
    return Matcher(lex)
