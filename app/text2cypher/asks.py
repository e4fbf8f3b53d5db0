"""What a question asks of one graph: from the graph's property profiles (``profiles.py``), what "the first k" and
"the top k" rank by where the question does not say, and the label its head word asks for. The question stage
(``question.py``) reads the question with no knowledge of any graph; this reads its literals against the schema.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from app.cypher.shapes import Shape
from app.text import phrase_at
from app.text2cypher.profiles import Profiles
from app.text2cypher.question import QuestionLiterals
from app.text2cypher.words import Matcher, content_words, kind_nouns, label_nouns, noun_lemmas


def first_k(lits: QuestionLiterals, profiles: Profiles) -> None:
    """What "the first k" and "the top k" rank by where the question does not say. "The first k" of something whose
    year the question names ("the first 3 movies Keanu Reeves acted in, with their release years") are the earliest
    k: the question then asks by time (``time_order`` "ASC", the noun after "first" saying whose year), as "the 3
    oldest" would. Without a named year, or with a year named only by its condition ("the first 5 questions asked in
    2021"), a list of them takes the earliest k once chosen (``lits.dated``, ``earliest``), as a user reading "first"
    expects and as any k of them would also answer. "The top k" of a kind with one year of its own that dates no
    birth (the lexicon's ``birth``), where the question names no measure to rank by (``lits.top_noun``), are the
    latest k ("the top 5 movies directed by someone born in 1967"); of the doers of something, the ones that did it
    most ("the top 3 producers of movies with a tagline including 'Speed'"; ``lits.top_doer``, read by the
    ``counted`` feature). Sets ``lits.time_order`` and ``lits.time_noun`` (or ``lits.top_doer``, or
    ``lits.dated``) when the question has no time superlative of its own."""
    if lits.time_order is not None:
        # "the 3 most recent comments", where comments have no time of their own: the numbers that number them
        # (``LabelProfile.sequence``) stand for it, as for "the first 3" (``earliest``)
        if lits.time_noun is not None and own_year(profiles, lits.time_noun, lits.match) is None:
            numbered = numbering(profiles, lits.time_noun, lits.match)
            if numbered is not None:
                lits.dated, lits.by_number = (*numbered, lits.time_order), True
        return
    # a word a condition takes ("released after 2000") or whose value a number is ("listening on port 80") names no
    # measure to rank by
    said = [w for w in lits.words if w not in lits.conditioned and w not in lits.value_words.values()]
    first = next((w for w in lits.first_words if any(lits.match.named(lab, [w]) for lab in profiles.labels)), None)
    if first is not None:  # "the first 3 accepted answers": the answers
        lits.first_noun = first
    noun = lits.first_noun if lits.first_noun is not None else lits.top_noun
    year = own_year(profiles, noun, lits.match) if noun is not None else None
    if lits.first_noun is not None:
        years = [
            p.key
            for prof in (*profiles.labels.values(), *profiles.rels.values())
            for p in prof.properties
            if p.temporal
        ]
        if any(lits.match.named(key, said) for key in years):
            lits.time_order, lits.time_noun = "ASC", lits.first_noun
        else:
            lits.dated = earliest(profiles, lits.first_noun, lits.match)
        return
    if lits.top_noun is None:
        return
    measures = [p.key for prof in (*profiles.labels.values(), *profiles.rels.values()) for p in prof.numeric()]
    if any(
        lits.match.named(key, said) for key in measures if year is None or key != year[1]
    ):  # "the top 5 movies with ratings"
        return
    if year is not None:
        lits.time_order, lits.time_noun = "DESC", lits.top_noun
        lits.dated = (*year, "DESC")
    else:
        lits.top_doer = lits.top_noun


def stated_values(lits: QuestionLiterals, profiles: Profiles) -> None:
    """Set ``lits.values``: the values of relationships' categorical properties (``Profiles.values``) and of nodes'
    lists of kinds (``Profiles.listed``) the question names outside quotes, as a whole word run in any case ("taught
    in fall 2023"), unless the run is one lower-case word (a value such as "active" or "lead" is also a plain word of
    the question) other than a noun's plural ("the developers on X": ``Developer``) that is no label's own word
    ("verified members" are members, not those whose role is "member"; nor one naming the relationship that holds
    the value: "the members of X", ``MEMBER_OF``) or than a relationship's value a word for the
    relationship follows, not a noun for its doer ("a severe allergy": ``ALLERGIC_TO``'s severity; "active shippers"
    are people), or a list's element one of the two words before it names the list ("tagged with waterfall": the
    trails' ``tags``). A number inside such a value is part of it ("Fall 2023"), no constant of its own."""
    said = lits.said
    values = dict.fromkeys(v for vs in (*profiles.values.values(), *profiles.listed.values()) for v in vs)
    held = {v: rel for (rel, _), vs in profiles.values.items() for v in vs}
    keyed = {v: key for (_, key), vs in profiles.listed.items() for v in vs}
    words = re.findall(r"[A-Za-z]+", said) if values else []
    kinds = kind_nouns(profiles.labels)  # "members" names ``Member``: no role
    plurals = {lemma: w for w in words for lemma in noun_lemmas(w.lower()) if lemma != w.lower() and lemma not in kinds}
    for value in values:
        if value in lits.texts:
            continue
        m = phrase_at(said, value)
        plural = plurals.get(value.lower()) if m is None else None  # "the developers on X": Developer, in the plural
        if plural is not None and value in held and lits.match.named(held[value], [plural]):
            continue  # "the members of X" name ``MEMBER_OF``, not a role "member" on it
        if plural is not None:
            m = re.search(rf"(?<!\w){plural}(?!\w)", said, flags=re.IGNORECASE)
        after = re.match(r"\s+([A-Za-z]+)", said[m.end() :]) if m is not None else None
        word = after.group(1).lower() if after is not None else ""  # "a severe allergy", not "active shippers"
        typed = value in held and not word.endswith(lits.lex.agent_endings) and lits.match.named(held[value], [word])
        before = content_words(said[: m.start()])[-2:] if m is not None and value in keyed else []
        typed = typed or (bool(before) and lits.match.named(keyed[value], before))  # "tagged with waterfall": ``tags``
        if m is None or (plural is None and " " not in value and m.group(0).islower() and not typed):
            continue
        lits.values.append(value)
        _inside(lits, value)


def linked_names(lits: QuestionLiterals, names: Sequence[str]) -> None:
    """A number inside the name of an entity the question names word for word ("when was 11 Birch Close listed",
    "who directed Apollo 13") is part of that name: no count, limit or value of its own."""
    for name in names:
        if re.search(r"[A-Za-z]", name) and phrase_at(lits.said, name):
            _inside(lits, name)


def _inside(lits: QuestionLiterals, value: str) -> None:
    """The numbers inside ``value`` out of the question's numbers, limits, counts and comparisons."""
    inside = {float(n) for n in re.findall(r"\d+(?:\.\d+)?", value)}
    for v in inside & set(lits.numbers):
        lits.numbers = [n for n in lits.numbers if n != v]
        lits.limits = [k for k in lits.limits if k != v]
        lits.counts = [k for k in lits.counts if k != v]
        lits.ops.pop(v, None)
        lits.value_words.pop(v, None)


def asked_kind(lits: QuestionLiterals, profiles: Profiles) -> None:
    """Set ``lits.kind_head``, the first of the question's head words that names a label of the graph, and
    ``lits.nameless``, the labels no "who" asks for. Where no head word names a label, the label's noun after the first
    "of" does, after them ("the names and IPs of all switches": what they are of). A head word followed by a label's
    noun is one noun phrase whose last word is its head ("all software versions for X" asks for versions, "which
    machine types" for types, "the most frequently commented tags" for tags): that word comes first. It must be the
    label's noun itself ("questions tagged with X" is no phrase: "tagged" only shares a stem with ``Tag``). Words
    before that noun that name a flag of its label ("which low-cost airlines", ``lowCost``) say which of them are asked
    for (``flagged_kind``): the noun is the head."""
    flagged = flagged_kind(lits, profiles)
    if flagged is not None:
        noun, lits.flags = flagged
        lits.heads = [noun, *(h for h in lits.heads if h != noun and h not in lits.flags)]
    head = next((h for h in lits.heads if any(lits.match.named(label, [h]) for label in profiles.labels)), None)
    owner = lits.lex.patterns["owner"].search(lits.said) if head is None and lits.heads else None
    if owner is not None and any(is_label_noun(owner.group(1), label, lits) for label in profiles.labels):
        head = owner.group(1).lower()  # "what are the names and IPs of all switches ...": switches, after the
        lits.heads = [*(h for h in lits.heads if h != head), head]  # words that name what of them is asked
    # a noun a compound's head follows is singular ("machine types"): after a plural the word is a verb ("which
    # customers bank with X")
    after = _next_word(lits.said, head) if head is not None and noun_lemmas(head) == {head} else None
    if after is not None and any(is_label_noun(after, label, lits) for label in profiles.labels):
        lits.heads = [after, *(h for h in lits.heads if h != after)]
        head = after
    lits.kind_head = head
    lits.plural_kind = head is not None and head == lits.heads[0] and is_plural_label_noun(head, lits, profiles)
    lits.nameless = profiles.nameless()
    lits.labels = list(profiles.labels)
    lits.numbered = frozenset(
        (p.label, p.key) for prof in profiles.labels.values() for p in prof.properties if p.whole and not p.repeats
    )


def flagged_kind(lits: QuestionLiterals, profiles: Profiles) -> tuple[str, list[str]] | None:
    """``(noun, flag words)`` where the question's head words open with words that each name a boolean property of
    the label the noun right after them names ("which low-cost airlines", "all international airports in X"): an
    adjective that picks some of those nodes (a condition, ``conditions.stated``), not a property asked for."""
    if not lits.heads or lits.heads[0] not in lits.words:
        return None
    start = lits.words.index(lits.heads[0])
    for i in range(start, min(len(lits.words), start + FLAG_WORDS + 1)):
        labels = [label for label in profiles.labels if is_label_noun(lits.words[i], label, lits)]
        if labels:
            flags = lits.words[start:i]
            keys = [p.key for lab in labels for p in profiles.labels[lab].properties if p.kind == "bool"]
            flagged = all(any(lits.match.named(k, [w]) for k in keys) for w in flags)
            return (lits.words[i], flags) if flags and flagged else None
    return None


FLAG_WORDS = 3
"""How many words before a label's noun may name its flags ("which low-cost airlines")."""


def about_the_graph(lits: QuestionLiterals, terms: Sequence[str]) -> bool:
    """Whether the question says it is about the graph, however little of it the cross-encoder reads there: a head
    word names one of its labels (``lits.kind_head``: "the names of all DataCenters located in ...") and what each of
    its compared numbers counts is something the graph has a word for among its ``terms`` (``SchemaProfile.terms``:
    "which movies have more than 1000 votes" asks about votes, where no label, relationship or property is one)."""
    if lits.kind_head is None:
        return False
    return all(any(lits.match.named(t, [w]) for t in terms) for w in lits.counted_by.values())


def earliest(profiles: Profiles, noun: str, match: Matcher) -> tuple[str, str, str] | None:
    """``(label, key, "ASC")``: the order "the first k" of the kind ``noun`` names are taken in, where the question
    says none: its one year of its own (``own_year``), else the whole numbers that number its nodes
    (``LabelProfile.sequence``: "the first 3 users" by their id); None where neither is known."""
    year = own_year(profiles, noun, match) or numbering(profiles, noun, match)
    return (*year, "ASC") if year is not None else None


def numbering(profiles: Profiles, noun: str, match: Matcher) -> tuple[str, str] | None:
    """``(label, key)``: the whole numbers that number the nodes of the one kind ``noun`` names
    (``LabelProfile.sequence``); None where no such kind, or several, has them."""
    numbered = [(prof.label, prof.sequence) for prof in profiles.labels.values() if prof.sequence]
    named = [pair for pair in numbered if match.named(pair[0], [noun])]
    return named[0] if len(named) == 1 else None


def own_year(profiles: Profiles, noun: str, match: Matcher) -> tuple[str, str] | None:
    """``(label, key)``: the one year property of the kind ``noun`` names, where it dates no birth (the lexicon's
    ``birth``); None when that kind has none, or several."""
    own = [
        (prof.label, p.key)
        for prof in profiles.labels.values()
        if match.named(prof.label, [noun])
        for p in prof.properties
        if p.temporal
    ]
    if len(own) != 1 or match.dates_birth(own[0][1]):
        return None
    return own[0]


def _next_word(text: str, word: str) -> str | None:
    """The word right after the first ``word`` in ``text`` (nothing but spaces between them), lower-cased."""
    m = re.search(rf"\b{re.escape(word)}\s+(\w+)", text, re.IGNORECASE)
    return m.group(1).lower() if m else None


def is_label_noun(word: str, label: str, lits: QuestionLiterals) -> bool:
    """Whether ``word`` is label ``label``'s noun, one or more ("versions" for ``Version``, "datacenter" for
    ``DataCenter``), not a word that only shares its stem."""
    w = word.lower()
    nouns = label_nouns(label)
    if any(lits.lex.irregular_plurals.get(n) == w for n in nouns):
        return True
    return any(w == n or (n.endswith(a) and w == n[: len(n) - len(a)] + b) for n in nouns for a, b in lits.lex.plurals)


def is_plural_label_noun(word: str, lits: QuestionLiterals, profiles: Profiles) -> bool:
    """Whether ``word`` is a label's noun in the plural ("users" for ``User``, "people" for ``Person``), not the
    label's own word ("status", "address")."""
    w = word.lower()
    return any(is_label_noun(w, label, lits) and w not in label_nouns(label) for label in profiles.labels)


COUNTED_WORDS = 2
"""How many words past its superlatives a number's noun may be ("the 3 most viewed questions")."""


def counted_kinds(lits: QuestionLiterals, k: int) -> frozenset[str]:
    """The labels whose nodes the number ``k`` counts: those whose noun is the first of the ``COUNTED_WORDS`` words
    after it (past superlatives) that is a label's noun ("the 3 questions having the lowest view counts", "the top 3
    most viewed questions"; "people" for ``Person``). None where a doer's noun comes first ("the 3 oldest actors and
    the movies they produced") or no label's noun follows."""
    near = [w for w in lits.limit_words.get(k, []) if w not in lits.lex.degree][:COUNTED_WORDS]
    for w in near:
        named = frozenset(label for label in lits.labels if is_label_noun(w, label, lits))
        if named:
            return named
        if w.endswith(lits.lex.agent_endings):  # a doer's noun ("the 3 oldest actors"): it counts those
            return frozenset()
    return frozenset()


def counts_kind(lits: QuestionLiterals, k: int, label: str) -> bool:
    """Whether the number ``k`` counts nodes of ``label`` (``counted_kinds``): "the tags of the 3 questions ..."
    counts questions, "the top 3 tags" tags."""
    return label in counted_kinds(lits, k)


def answer_counts(lits: QuestionLiterals) -> list[int | None]:
    """How many answers a ranking or a greatest / least may take: the question's small numbers (``lits.limits``)
    but those it compares with ("a rating above 90", "at least 3 movies"), unless one also counts answers ("the top
    3 ... at least 3"); where none is left, one ("who has reviewed the most movies with a rating above 90": not the
    top 90), or all of them in order where it asks for its kind in the plural (``plural_kind``: "which users have
    asked the most questions")."""
    stated: list[int | None] = [k for k in lits.limits if k not in lits.ops or k in lits.counts]
    return stated or [None if lits.plural_kind else 1]


def superlative_value(c: Shape, lits: QuestionLiterals) -> int:
    """-1 for the one node holding the greatest or least value of a property where a superlative question names the
    property and no kind of the pattern, its noun singular ("what is the highest CVSS score": the score, not the
    vulnerability; "what is the longest trail" names trails; a "which" or "who" asks for things, and so does a
    plural: "what are the highest-rated reviews"); else 0. No +1 for the value itself: every ``max`` / ``min`` of a
    property a word names would gain, and crowd the shapes that take the question's conditions."""
    if c.kind != "top" or c.limit not in (None, 1) or not c.prop or lits.order is None:
        return 0
    if ("ASC" if c.fn == "ASC" else "DESC") != lits.order:
        return 0
    if lits.asks_which or lits.asks_who or not lits.match.named(c.prop, lits.heads):
        return 0
    if noun_lemmas(lits.heads[-1]) - {lits.heads[-1]}:  # "what are the highest-rated reviews": several things
        return 0
    nodes = range(1, len(c.hops) + 2)
    return -1 if not any(lits.match.kind_named(c, v, lits.heads) for v in nodes) else 0
