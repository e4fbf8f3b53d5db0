"""The text2cypher mode's settings (``modes.text2cypher``, ``GRAPHRAG_MODES__TEXT2CYPHER__TOP_M=3``)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.settings import ModeConfig
from grounded import DecodingMethod


class Text2CypherConfig(ModeConfig):
    """``modes.text2cypher``: the bounds of enumeration, how candidates are scored and ranked, and how many run."""

    max_mentions: int = Field(3, ge=1, le=20)
    """Entity mentions linked per question (each may match several nodes)."""
    max_hops: int = Field(3, ge=1, le=4)
    """Longest path from a linked entity, in relationships."""
    closure_hops: int = Field(8, ge=0, le=32)
    """The most relationships of one type in a row a hop along a chain of one kind of node takes ("everyone who
    reports to X, directly or indirectly": ``app.text2cypher.closures``); 0: no such hops."""
    max_candidates: int = Field(5000, ge=1, le=200_000)
    """Bound on candidate queries per question (enumeration stops there and the trace says so)."""
    expand_beam: int = Field(64, ge=1, le=100_000)
    """Paths of one length extended by another hop: all of them when there are this many or fewer, else the most
    relevant ones (the bound that keeps dense graphs tractable; the trace counts the paths left unextended)."""
    extension_nodes: int = Field(20_000, ge=1)
    """End nodes of a path whose relationships are read to extend it."""
    extension_timeout_s: float = Field(2.0, gt=0, le=600)
    """Deadline of one path's extension read; past it the path stays unextended and a warning says so. The reads of
    paths through nodes of many thousands of relationships took the graph's full query deadline each (9 s, several
    per question on the network graph) and rarely led anywhere a question goes."""
    extension_budget_s: float = Field(3.0, gt=0, le=600)
    """Time for all of a question's path extension reads together: a read that would start past it is not made (the
    path stays unextended and a warning says so), and one that starts near it gets what is left. On the network
    graph, anchors of high fan-out ('java', 'webserver') spent some 6 s in reads that timed out level after level."""
    scoring: Literal["auto", "combined", "llm", "relevance"] = "auto"
    """``relevance``: the ranker's score alone (the cross-encoder's relevance and the other features, weighed by
    ``ranker``; no LLM), the shallowest path within ``depth_margin`` of the best first; ``combined``: the LLM scores
    the ``llm_candidates`` best, ranked by the score plus the LLM's log-softmax times the ranker's ``llm`` weight (the
    namespace's ``ranker.json`` where ``tune`` wrote one, else ``ranker``'s; none: no LLM); ``llm``: the LLM alone over
    every candidate (GraphRAFT as published); ``auto``: ``combined`` with a tuned text2cypher adapter, else
    ``relevance``. The measurements behind these choices (MetaQA, movies) are in reports/summary.md (issue 14)."""
    depth_margin: float = Field(0.5, ge=0.0, le=20.0)
    """``relevance`` scoring: answer with the shallowest path scoring within this of the best path."""
    llm_floor: float = Field(4.0, ge=0.0, le=1000.0)
    """``combined``: the LLM's log-softmax counts down to ``-llm_floor`` at most. A tuned 135M model is several nats
    sure of shapes it was trained on ("what are the movies written by X") when the question says something it never
    saw ("what types are the movies written by X"), and the other features should still be able to outvote it."""
    shapes: bool = True
    """Also enumerate the shapes of ``app.cypher.shapes`` (counts, aggregates, property conditions from the question's
    constants, orderings, most/fewest, label-anchored questions) where the graph's labels have properties."""
    shape_paths: int = Field(4, ge=0, le=100)
    """Entity-anchored paths (the most relevant, at most 2 hops) whose answers are counted, aggregated, ordered."""
    shape_budget: int = Field(100, ge=0, le=100_000)
    """Base shapes the cross-encoder scores at most per question (0: every one): beyond it, those whose labels,
    relationship types and properties the question names least are dropped (``enumerate_shapes.within_budget``).
    The base shapes grow with the schema (some 500 a question on 5 labels, 1,200 on 17), and reading them was most of a
    question's time. Measured (60 sampled per set, untuned; reports/summary.md Session 22): 300 and 150 gave Stack
    Overflow / network relaxed execution 16.7 / 30.0% at p50 2.36 / 3.34 s; 200 and 100 gave 15.0 / 31.7% at 1.74 /
    2.44 s, and movies (100 sampled) 43.1 -> 44.8%. Session 24, 100 and 50 against 200 and 100, same host: Stack
    Overflow relaxed 15.0 -> 15.0%, answers 31.7 -> 30.0%, p50 2.02 -> 1.42 s; network 31.7 -> 33.3%, answers 50.0 ->
    51.7%, p50 2.51 -> 1.64 s; movies execution 44.8 -> 44.8%, answers 75.9 -> 77.6%, p50 1.40 -> 0.84 s."""
    condition_budget: int = Field(50, ge=0, le=100_000)
    """Label-anchored shapes with conditions the cross-encoder scores at most per condition stage (0: every one),
    chosen as ``shape_budget`` chooses: every number of a question fits many numeric properties ("racks in zone 1
    with more than 5 machines": 650 shapes with one condition on the network graph)."""
    filter_beam: int = Field(12, ge=1, le=1000)
    """Shapes (the most relevant) given each condition the question's constants allow, per stage (two stages: one
    condition, then a second): with the base shapes, what bounds the shape candidates."""
    label_min_relevance: float = Field(-6.0, ge=-100.0, le=100.0)
    """Shapes that name no entity (label-anchored) are all dropped when the most relevant of them scores below this:
    a question about nothing in the graph ("what is the weather today?" scores about -10 against every one) gets no
    query rather than a list of some label's nodes. Read off a few such questions and the movies validation
    questions (their best label-anchored shape: -3.5 at least). Not where the question says it is about the graph
    (``asks.about_the_graph``: a head word names a label, and each number it compares counts something the graph
    has a word for): it is about that kind, however little else of it the cross-encoder reads."""
    lexicon: str = "en"
    """The language questions are read in: a bundled lexicon (``en``) or the path of a lexicon file
    (``app/text2cypher/lexicons/en.toml`` shows the keys)."""
    namespace_ranker: bool = True
    """``combined`` scoring of a tuned namespace: weigh the tuned LLM as the namespace's ``ranker.json`` says (``tune``
    fits it on held-back pairs: the largest weight, halving the fitted one, that loses none of them the untuned ranker
    gets right and gains enough that chance is unlikely, by the sign test; none at all, and the LLM is not run, where
    no weight does) instead of by the mode's ``ranker`` (whose ``llm`` weight stays for an adapter without a
    ``ranker.json`` and a model tuned elsewhere, served in the LLM role). On Stack Overflow (60 sampled, relaxed
    execution / answers): untuned 15.0 / 31.7; the bundled rankers' ``llm`` weight 0.5 (the ``relevance_weight`` 2 of
    issue 14) gave 13.3 / 30.0 and the fitted weight 1.05 11.7 / 28.3; the no-harm weight is 0 there, and on MetaQA
    too, where 0.5 gains 3-5 points per hop that the held-back questions do not show (reports/summary.md, sessions
    23 and 24)."""
    ranker: str = "default"
    """The weights of the ranking features (``app/text2cypher/features.py``): a bundled ranker or the path of a ranker
    file (``app/text2cypher/rank.py``)."""
    answer_examples: int = Field(2, ge=0, le=10)
    """Example answers in a candidate's reading before the cross-encoder scores it again ("release year of entity
    directed by X, such as 1999, 2004"): on a graph without labels the examples say what kind of thing the query
    returns, which the reading alone cannot. 0 turns the preview off. Only paths whose answers have no label are
    previewed (MetaQA validation questions: reports/summary.md, issue 14)."""
    preview_candidates: int = Field(32, ge=1, le=1000)
    """The most relevant paths without an answer label that run (a few rows each) to read their example answers."""
    llm_candidates: int = Field(16, ge=1, le=10_000)
    """Candidates the LLM scores in ``combined`` scoring (the most relevant ones)."""
    decoding: Literal["auto"] | DecodingMethod = "auto"
    """``exact``: score every candidate (tree-packed, prompt KV shared); ``best_first``: exact top-m by best-first
    search over the trie with jump-forward (few passes for a confident model; greedy completion past
    ``max_forwards``); ``beam``: beam search under the trie mask; ``greedy``: one constrained greedy decode (top-1);
    ``auto``: exact up to ``exact_max_candidates`` candidates, best-first above. ``combined`` scoring needs every
    score and always decodes ``exact``."""
    exact_max_candidates: int = Field(16, ge=1)
    """``auto`` decoding scores every candidate exactly up to this many candidates."""
    max_forwards: int = Field(48, ge=1)
    """Forward passes best-first search may spend before it completes the best hypotheses greedily."""
    top_m: int = Field(5, ge=1, le=50)
    """Queries ranked; they run in order until ``max_answers`` distinct answers are collected (a copy of a query
    ranked above, its conditions in another order, is dropped and its place left empty)."""
    max_answers: int = Field(20, ge=1, le=1000)
    """Distinct answer nodes collected (one item each)."""
    answer_rows: int = Field(1000, ge=1, le=100_000)
    """Rows of the answering query the trace carries at most (``rows``; ``rows_truncated`` says when it had more):
    the whole answer, not the first rows the items were collected from ("which services started before ..." may
    have hundreds)."""
    answer_form: Literal["question", "names"] = "question"
    """What the top-ranked query (the trace's ``query`` and ``rows``) returns: ``names``, the answers' display values,
    the form every candidate is enumerated and scored in; ``question``, the form the question asks for
    (``answer_form``): the nodes themselves unless it asks for names or titles, opens with "who" or asks for
    something beside each answer, both ends of a pair linked twice ("who acted in and directed the same movie").
    Items are the same either way (one per answer, from the display values)."""
