"""Learning text2cypher's ranker (``app.text2cypher.rank``) from a graph's own synthetic questions, no labelled ones.

1. **Collect** (``python -m app ranker collect --namespace NS --out FILE``): the self-tuning pairs of the namespace
   (``app.training.selftune``: entity paths and label-anchored shapes, each phrased as a question by generic English
   frames), each question run through the mode's enumeration as a user's would be (linking, candidates, readings,
   cross-encoder, features). A question is kept where its pair's query is among the candidates: that query is its
   positive, the others its negatives (the ``keep`` highest by the current ranker, the hard ones, and the positive).
2. **Fit** (``python -m app ranker fit FILE... --out RANKER``): a linear model over the features, ``score = w·x``,
   by the listwise loss (the softmax of the scores over a question's candidates against its positive) with an L2
   penalty, each weight keeping its feature's sign (``features.SIGNS``), scaled so that relevance weighs 1, on the
   questions of some graphs; reported on held-back questions of the same graphs, and on other
   graphs' files (``--check``), beside the ranker it replaces.

Questions of a benchmark are never used: only pairs built from a graph. The default ranker is fitted on graphs
other than the ones a reported number is measured on (the summary names which).
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from app.errors import InvalidInputError
from app.llm.adapters import TunedAdapter
from app.retrievers.text2cypher import Text2CypherRetriever
from app.text2cypher import rank
from app.text2cypher.features import FEATURES, FOR, LLM, RELEVANCE, SIGNS
from app.text2cypher.prompt import build_messages

NAMES = (RELEVANCE, *FEATURES)
"""The features a ranker is fitted over, in the order of a group's rows."""


@dataclass
class Group:
    """One synthetic question: its candidates' features and which candidate is its pair's query."""

    namespace: str
    question: str
    kind: str
    """The pair's kind: ``path`` (an entity path) or the shape's kind (``count``, ``top``...)."""
    names: list[str]
    rows: list[list[float]]
    positive: int
    positives: list[int] = field(default_factory=list)
    """Every candidate that answers the question (a question of a graph's own, written with its gold query: each
    candidate whose rows are the gold query's, ``ranker collect-gold``); empty: ``positive`` alone."""

    def right(self) -> list[int]:
        return self.positives or [self.positive]


def save(groups: Sequence[Group], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(asdict(g)) + "\n" for g in groups))


def read(paths: Sequence[Path]) -> list[Group]:
    out = []
    for p in paths:
        for line in p.read_text().splitlines():
            if line.strip():
                out.append(Group(**json.loads(line)))
    return out


def _matrix(g: Group, names: Sequence[str]) -> np.ndarray:
    """The group's rows in the columns ``names`` (a feature the file lacks is 0)."""
    idx = [g.names.index(n) if n in g.names else -1 for n in names]
    rows = np.asarray(g.rows, dtype=np.float64)
    return np.stack([rows[:, j] if j >= 0 else np.zeros(len(rows)) for j in idx], axis=1)


def fit(
    groups: Sequence[Group],
    names: Sequence[str] = NAMES,
    l2: float = 0.01,
    *,
    offsets: Sequence[np.ndarray] | None = None,
    blind: float = 0.0,
    prior: dict[str, float] | None = None,
) -> dict[str, float]:
    """The weights minimising the mean listwise loss over ``groups`` plus ``l2 * |w - prior|²``, each keeping the
    sign its feature points (``features.SIGNS``: a bonus is never learned as a penalty, nor the other way round; a
    feature the questions do not bear out weighs its ``prior``, 0 where there is none). ``offsets``: per group, a
    fixed score each candidate starts from (the weights fitted are those added to it). ``blind``: how much each
    question also counts read without its relevance (``blinded``)."""
    from scipy.optimize import minimize

    if not groups:
        raise InvalidInputError("no questions to fit a ranker on")
    starts = offsets if offsets is not None else [np.zeros(len(g.rows)) for g in groups]
    data = [(_matrix(g, names), g.right(), o, 1.0) for g, o in zip(groups, starts, strict=True)]
    if blind > 0 and RELEVANCE in names:
        data += [(blinded(x, names), pos, o, blind) for x, pos, o, _ in data]

    w0 = np.asarray([float((prior or {}).get(n, 0.0)) for n in names])

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        total, grad = 0.0, np.zeros_like(w)
        for x, pos, start, weight in data:
            s = start + x @ w
            top = s.max()
            p = np.exp(s - top)
            z = p.sum()
            right = s[pos]  # every candidate that answers: the loss is their share of the softmax, in logs
            best = right.max()
            q = np.exp(right - best)
            total += weight * (math.log(z) + top - best - math.log(q.sum()))
            grad += weight * (x.T @ (p / z) - x[pos].T @ (q / q.sum()))
        n = sum(d[3] for d in data)
        d = w - w0
        return total / n + l2 * float(d @ d), grad / n + 2 * l2 * d

    bounds = [(0.0, None) if SIGNS[n] == FOR else (None, 0.0) for n in names]
    res = minimize(loss, w0.copy(), jac=True, method="L-BFGS-B", bounds=bounds)
    return {n: round(float(v), 4) for n, v in zip(names, res.x, strict=True)}


def blinded(x: np.ndarray, names: Sequence[str]) -> np.ndarray:
    """A question's feature matrix with its relevance column made equal for every candidate: the question as the
    other features alone tell it. Synthetic questions are phrased by the verbaliser that writes the readings, so the
    cross-encoder ranks their positives first almost word for word and a fit on them alone learns the other features
    small (``shares`` 0.72 against the hand 2, session 24); a user's question is phrased otherwise, and there the
    features are what tell its candidates apart. Fitted with ``fit(blind=...)``."""
    out = x.copy()
    out[:, list(names).index(RELEVANCE)] = 0.0
    return out


def _firsts(groups: Sequence[Group], ranker: rank.Ranker) -> list[bool]:
    """Per group, whether ``ranker`` puts its positive first (ties: the first)."""
    out = []
    for g in groups:
        scores = ranker.scores([dict(zip(g.names, row, strict=True)) for row in g.rows])
        out.append(max(range(len(scores)), key=lambda i: scores[i]) in g.right())
    return out


def _percent(hits: Sequence[bool]) -> float:
    return round(100.0 * sum(hits) / len(hits), 1) if hits else 0.0


def hits_at_1(groups: Sequence[Group], ranker: rank.Ranker) -> float:
    """How often the ranker's best candidate is the group's positive (ties: the first), in percent."""
    return _percent(_firsts(groups, ranker))


def by_kind(groups: Sequence[Group], ranker: rank.Ranker) -> dict[str, float]:
    kinds = sorted({g.kind for g in groups})
    return {k: hits_at_1([g for g in groups if g.kind == k], ranker) for k in kinds}


L2_CHOICES = (0.001, 0.01, 0.1, 1.0, 3.0)
"""The L2 penalties ``fit --l2 auto`` chooses among."""


def choose_l2(
    groups: Sequence[Group], blind: float = 0.0, *, prior: dict[str, float] | None = None
) -> tuple[float, dict[str, float]]:
    """The penalty whose rankers do best on graphs they were not fitted on: per penalty, the mean over graphs of the
    Hits@1 on each graph's groups of the ranker fitted on the other graphs' (``left_out``; the choice is for graphs
    nobody has seen). One graph alone: 0.01."""
    if len({g.namespace for g in groups}) < 2:
        return 0.01, {}
    table = {}
    for l2 in L2_CHOICES:
        per = [hits_at_1(test, fitted) for _, test, fitted in left_out(groups, l2, blind=blind, prior=prior)]
        table[str(l2)] = round(sum(per) / len(per), 1)
    best = max(L2_CHOICES, key=lambda x: (table[str(x)], x))
    return best, table


def left_out(
    groups: Sequence[Group], l2: float, *, blind: float = 0.0, prior: dict[str, float] | None = None
) -> list[tuple[str, list[Group], rank.Ranker]]:
    """Per graph (the groups' ``namespace``): its groups, and the ranker fitted on the other graphs' groups alone."""
    return [
        (
            ns,
            [g for g in groups if g.namespace == ns],
            rank.Ranker(fit([g for g in groups if g.namespace != ns], l2=l2, blind=blind, prior=prior)),
        )
        for ns in sorted({g.namespace for g in groups})
    ]


def in_relevance_units(weights: dict[str, float]) -> dict[str, float]:
    """The weights scaled so that ``relevance`` weighs 1 (the same order of candidates): ``depth_margin`` and the
    LLM's weight are in the cross-encoder's units."""
    unit = weights.get(RELEVANCE, 0.0)
    return {n: round(w / unit, 4) for n, w in weights.items()} if unit > 0 else weights


def read_graphs(paths: Sequence[Path]) -> list[Group]:
    """The groups of ``paths``, each file one graph: its groups are named by the file (``gold_airline.jsonl``:
    ``gold_airline``), so that graphs loaded under one namespace name stay apart for ``choose_l2`` and
    ``other_graphs``."""
    out = []
    for p in paths:
        for g in read([p]):
            g.namespace = p.stem
            out.append(g)
    return out


def other_graphs(
    groups: Sequence[Group], baseline: rank.Ranker, l2: float, *, blind: float = 0.0, prior: dict[str, float] | None
) -> dict[str, dict[str, int]]:
    """Per graph, how many of its questions ``baseline`` and a ranker fitted on the other graphs' questions alone put
    a right candidate first (``left_out``): what the fit is worth on a graph it has never seen."""
    return {
        ns: right_first(test, baseline, fitted) for ns, test, fitted in left_out(groups, l2, blind=blind, prior=prior)
    }


def right_first(groups: Sequence[Group], baseline: rank.Ranker, learned: rank.Ranker) -> dict[str, int]:
    """How many of ``groups`` each ranker puts a right candidate first for."""
    return {
        "questions": len(groups),
        "baseline": sum(_firsts(groups, baseline)),
        "learned": sum(_firsts(groups, learned)),
    }


SIGNS_PRIOR = "signs:"
"""``--prior signs:S``: every feature drawn towards ``S`` times its sign (``features.SIGNS``), relevance towards 1."""


def prior_weights(prior: str) -> dict[str, float]:
    """The weights a fit is drawn towards: a bundled ranker's (``default``), or ``signs:S``, each feature's sign times
    ``S`` and relevance 1 (no magnitude set by hand for any one feature; ``S`` is one scale for all)."""
    if not prior.startswith(SIGNS_PRIOR):
        return dict(rank.load(prior).weights)
    try:
        scale = float(prior[len(SIGNS_PRIOR) :])
    except ValueError:
        raise InvalidInputError(f"prior {prior!r}: signs:S takes a number S") from None
    return {n: 1.0 if n == RELEVANCE else scale * SIGNS[n] for n in NAMES}


def learn(
    inputs: Sequence[Path],
    out: Path,
    *,
    checks: Sequence[Path] = (),
    holdout: float = 0.2,
    l2: float | None = None,
    baseline: str = "hand",
    seed: int = 13,
    blind: float = 0.0,
    prior: str | None = None,
    about: str | None = None,
) -> dict[str, Any]:
    """Fit a ranker on the groups of ``inputs`` (each file one graph; less ``holdout`` of them, held back to report
    on), write it to ``out``, and report it beside ``baseline`` (a bundled ranker) on the held-back groups, on
    ``checks`` (other graphs) and, with two graphs or more, per graph fitted on the others alone (``other_graphs``).
    ``l2`` None: chosen by ``choose_l2`` on the training groups. ``prior``: a bundled ranker the weights are drawn
    towards (``fit``'s ``prior``), or ``signs:S`` (``prior_weights``); none: towards 0. Each ``checks`` file is one
    graph, reported apart (``right_first_on_checks``)."""
    groups = read_graphs(inputs)
    rng = random.Random(seed)
    rng.shuffle(groups)
    cut = int(len(groups) * (1 - holdout))
    train, held = groups[:cut], groups[cut:]
    drawn = prior_weights(prior) if prior else None
    table: dict[str, float] = {}
    if l2 is None:
        l2, table = choose_l2(train, blind, prior=drawn)
    weights = in_relevance_units(fit(train, l2=l2, blind=blind, prior=drawn))
    before = rank.load(baseline)
    if LLM in before.weights:  # an LLM no ``tune`` has weighed counts as the baseline says (only ``tune`` weighs one)
        weights[LLM] = before.weights[LLM]
    learned = rank.Ranker(weights, name=str(out))
    other = read_graphs(checks) if checks else []
    graphs = sorted({g.namespace for g in train})
    report = {
        "trained_on": graphs,
        "questions": {"train": len(train), "held_back": len(held), "checks": len(other)},
        "l2": l2,
        "blind": blind,
        "prior": prior,
        "l2_other_graph_hits_at_1": table,
        "baseline": baseline,
        "hits_at_1": {
            "train": {"before": hits_at_1(train, before), "learned": hits_at_1(train, learned)},
            "held_back": {"before": hits_at_1(held, before), "learned": hits_at_1(held, learned)},
            "checks": {"before": hits_at_1(other, before), "learned": hits_at_1(other, learned)},
        },
        "held_back_by_kind": {"before": by_kind(held, before), "learned": by_kind(held, learned)},
    }
    if other:
        report["right_first_on_checks"] = {
            ns: right_first([g for g in other if g.namespace == ns], before, learned)
            for ns in sorted({g.namespace for g in other})
        }
    if len(graphs) > 1:
        report["right_first_on_a_graph_left_out"] = other_graphs(train, before, l2, blind=blind, prior=drawn)
    doc = {
        "about": about
        or "Weights of text2cypher's ranking features (app/text2cypher/features.py), learned by `python -m app "
        "ranker fit` from the questions of the graphs named in `trained_on`: the listwise loss over each question's "
        "candidates, its right ones the positives.",
        "learned": True,
        "standardise": False,
        "command": "python -m app ranker fit "
        + " ".join(str(p) for p in inputs)
        + f" --out {out} --l2 {l2} --blind {blind} --holdout {holdout}"
        + (f" --prior {prior}" if prior else ""),
        "report": report,
        "weights": weights,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=2) + "\n")
    return report


# --- the ranker of a tuned namespace --------------------------------------------------------------------------------
TUNED_NAMES = (*NAMES, LLM)


async def scored_groups(
    r: Text2CypherRetriever,
    namespace: str,
    pairs: Sequence[dict[str, Any]],
    adapter: TunedAdapter,
    *,
    deadline: float,
) -> list[Group]:
    """``pairs`` the adapter was not trained on, each run as a question: the ``llm_candidates`` best by the untuned
    ranker scored by the LLM under ``adapter``, with every feature and ``llm`` (the floored log-softmax); a pair
    whose query is not among them is left out (no ranker weight can choose it)."""
    chooser, cfg = r.chooser, r.config
    if chooser is None:
        return []
    out = []
    for p in pairs:
        if time.monotonic() > deadline:
            break
        e = await r.enumerate(namespace, p["question"])
        scores = r.scores(e)
        if not scores or e.relevance is None:
            continue
        pool = sorted(range(len(scores)), key=lambda i: -scores[i])[: cfg.llm_candidates]
        texts = [e.candidates[i].text for i in pool]
        if p["cypher"] not in texts:
            continue
        scored = await chooser.choose(
            build_messages(None, p["question"], with_schema=False),
            texts,
            top_m=len(pool),
            method="exact",
            max_forwards=cfg.max_forwards,
            adapter=adapter,
        )
        llm = rank.log_softmax({s.index: s.logprob for s in scored}, cfg.llm_floor)
        rows = []
        for k, i in enumerate(pool):
            f = e.features[i] | {RELEVANCE: e.relevance[i], LLM: llm.get(k, -cfg.llm_floor)}
            rows.append([f.get(n, 0.0) for n in TUNED_NAMES])
        out.append(
            Group(namespace, p["question"], p.get("shape", "path"), list(TUNED_NAMES), rows, texts.index(p["cypher"]))
        )
    return out


def _llm_weight(groups: Sequence[Group], untuned: rank.Ranker, l2: float) -> float:
    """The weight of ``llm`` beside ``untuned``'s score minimising the mean listwise loss over ``groups``
    (``score = untuned + w·llm``, ``w`` at least 0)."""
    offsets = [np.asarray(untuned.scores([dict(zip(g.names, row, strict=True)) for row in g.rows])) for g in groups]
    return fit(groups, (LLM,), l2, offsets=offsets)[LLM]


HALVINGS = 8
"""How many times ``tuned_ranker`` halves the LLM's fitted weight looking for one that loses no held-back question."""

SIGN_TEST_ALPHA = 0.05
"""How sure ``tuned_ranker`` must be that the tuned model helps: the one-sided sign test over the held-back questions
a weight changes (gained against lost) at this level; with none lost, at least 5 gained."""


def sign_test(gained: int, lost: int) -> float:
    """The one-sided sign test's p-value that ``gained`` answers won against ``lost`` lost is chance: the
    probability of at least ``gained`` heads in ``gained + lost`` fair coin tosses."""
    n = gained + lost
    return sum(math.comb(n, k) for k in range(gained, n + 1)) / 2**n if n else 1.0


def tuned_ranker(groups: Sequence[Group], untuned: rank.Ranker, *, l2: float = 0.01) -> dict[str, Any]:
    """The ranker file of a tuned namespace: ``untuned``'s weights and a weight on the tuned LLM's log-softmax. The
    weight is the one the listwise loss fits on ``groups`` (held-back pairs), halved until it turns none of the
    questions ``untuned`` answers right into a wrong one and puts enough others right that chance is an unlikely
    reason (``sign_test`` at ``SIGN_TEST_ALPHA``: 5 gained and none lost): tuning may add answers the untuned ranker
    misses, never take one it had. Where no halving does, the LLM weighs 0 (and is not run): tuned answers as
    untuned. The test is what 17 held-back network questions lacked: a weight that gained one of them (64.7 -> 70.6)
    lost 3 of 120 real ones (reports/summary.md, session 28).

    Why not the fitted weight itself: the held-back pairs are phrased by the same frames as the training pairs, so
    they overrate the tuned model. On Stack Overflow a weight of 1 (the fitted one was 1.05) lifted 66 held-back
    questions from 72.7 to 83.3% (+12 / -5) and took 60 real ones from 15.0 to 11.7% (+1 / -3); every weight that
    lost no held-back question (0.2 and below) lost no real one either (reports/summary.md, session 24)."""
    base = untuned.weights | {LLM: 0.0}
    report: dict[str, Any] = {"held_back_questions": len(groups)}
    if len(groups) < 10:
        report["chosen"] = "untuned (too few held-back questions to weigh the tuned model)"
        return {"weights": base, "report": report}
    before = _firsts(groups, untuned)
    fitted = _llm_weight(groups, untuned, l2)
    report |= {"hits_at_1_untuned": _percent(before), "llm_weight_fitted": fitted}
    tried: dict[str, dict[str, int]] = {}
    weight = fitted
    for _ in range(HALVINGS if fitted > 0 else 0):
        after = _firsts(groups, rank.Ranker(base | {LLM: weight}))
        gained = sum(1 for b, a in zip(before, after, strict=True) if a and not b)
        lost = sum(1 for b, a in zip(before, after, strict=True) if b and not a)
        tried[str(round(weight, 4))] = {"gained": gained, "lost": lost}
        if lost == 0 and sign_test(gained, lost) <= SIGN_TEST_ALPHA:
            report |= {
                "chosen": "learned (the tuned model counts)",
                "llm_weight": round(weight, 4),
                "hits_at_1_tuned": _percent(after),
                "tried": tried,
            }
            return {"weights": base | {LLM: round(weight, 4)}, "report": report}
        weight /= 2
    report |= {
        "chosen": "untuned (no weight on the tuned model gained enough held-back questions, by the sign test at "
        f"{SIGN_TEST_ALPHA}, without losing one)"
    }
    report["tried"] = tried
    return {"weights": base, "report": report}
