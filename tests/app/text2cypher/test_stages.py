"""The stages of ``app.text2cypher`` alone: the lexicon is data (a word added to a file changes what a question
states, a frame edited there the questions ``tune`` asks), the ranker is a file (its weights, and nothing else,
decide the order), every feature is registered once and weighed by the bundled ranker, and ``ranker fit`` learns
weights that put each question's positive first."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from app.cypher.candidates import Anchor, CandidateQuery, Hop
from app.cypher.shapes import Filter, Shape
from app.errors import InvalidInputError
from app.text2cypher import features, lexicon, rank
from app.text2cypher.conditions import asked_list
from app.text2cypher.features import FEATURES, LLM, RELEVANCE
from app.text2cypher.phrasing import path_question, shape_question
from app.text2cypher.question import question_literals
from app.text2cypher.reading import reading
from app.training.ranker import (
    NAMES,
    Group,
    _firsts,
    blinded,
    fit,
    hits_at_1,
    in_relevance_units,
    learn,
    prior_weights,
    save,
)

WROTE = CandidateQuery(Anchor(None, "Author", "name"), (Hop("WROTE", "out", "Book", "title"),))


def test_the_lexicon_is_data(tmp_path: Path) -> None:
    en = lexicon.load()
    assert en.number_words["three"] == 3 and "most" in en.count_words
    q = "List the first dozen books"
    assert question_literals(q, en).limits == []
    text = (lexicon.BUNDLED / "en.toml").read_text()
    assert "ten = 10 }" in text
    (tmp_path / "mine.toml").write_text(text.replace("ten = 10 }", "ten = 10, dozen = 12 }"))
    mine = lexicon.load(str(tmp_path / "mine.toml"))
    # a number word added to the file is a limit the question states, read by no code change
    assert question_literals(q, mine).limits == [12] and question_literals(q, mine).lex is mine


def test_a_missing_or_broken_lexicon_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match="no text2cypher lexicon"):
        lexicon.load("klingon")
    broken = tmp_path / "broken.toml"
    broken.write_text('max_limit = 100\n[words]\nframe = ["list"]\n')
    with pytest.raises(InvalidInputError, match="incomplete or malformed"):
        lexicon.load(str(broken))


def test_the_questions_tune_asks_are_data_too(tmp_path: Path) -> None:
    shape = Shape(CandidateQuery(Anchor(None, "Book", "title"), ()), 1, "count")
    en = lexicon.load()
    frames = en.asking.shapes["count"]
    said = {" ".join(f.format(K=k, P="", F="").split()).replace(" ?", "?") for f in frames for k in ("book", "books")}
    assert shape_question(shape, random.Random(0), en) in said
    text = (lexicon.BUNDLED / "en.toml").read_text()
    old = 'count = ["how many {K} {P}{F}?", "count the {K} {P}{F}", "what is the number of {K} {P}{F}?"]'
    assert old in text
    (tmp_path / "mine.toml").write_text(text.replace(old, 'count = ["tally of {K}{P}{F}"]'))
    mine = lexicon.load(str(tmp_path / "mine.toml"))
    # a frame edited in the file is the question tune asks, read by no code change
    assert shape_question(shape, random.Random(0), mine) == "tally of books"
    path = CandidateQuery(Anchor("Dune", "Book", "title"), (Hop("WROTE", "in", "Author"),))
    assert "Dune" in path_question(path, random.Random(0), mine)
    (tmp_path / "short.toml").write_text(text.replace(old, ""))
    with pytest.raises(InvalidInputError, match=r"questions\.shapes: count"):
        lexicon.load(str(tmp_path / "short.toml"))


def test_the_readings_are_data_too(tmp_path: Path) -> None:
    """Every frame a reading is written in comes from the lexicon (``[reading.frames]``, ``[reading.directions]``): a
    file of the same keys in other words reads the same candidates in them, and one that lacks a frame is refused,
    naming it."""
    en = lexicon.load()
    top = Shape(CandidateQuery(Anchor(None, "Book", "title"), ()), 1, "top", prop="pages", fn="DESC", limit=3)
    directed = CandidateQuery(Anchor("Dune", "Book", "title"), (Hop("DIRECTED_BY", "out", "Person", "name"),))
    assert reading(top, en) == "top 3 book with the highest pages"
    assert reading(directed, en) == "directed by of Dune (person)"
    text = (lexicon.BUNDLED / "en.toml").read_text()
    edits = {
        'top = "top {limit} {base} with the {top} {prop}"': 'top = "{limit} {base} au {prop} le plus {top}"',
        'of = "{rel} of {of}"  #': 'of = "{rel} de {of}"  #',
        'kind = "{text} ({kind})"  #': 'kind = "{text} [{kind}]"  #',
        'top = "highest", most': 'top = "haut", most',
    }
    for old, new in edits.items():
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    old = 'states = ["located", '
    assert text.count(old) == 1
    text = text.replace(old, 'states = ["acted", "located", ')  # a state, no deed, in this file alone
    (tmp_path / "mine.toml").write_text(text)
    mine = lexicon.load(str(tmp_path / "mine.toml"))
    assert reading(top, mine) == "3 book au pages le plus haut"
    assert reading(directed, mine) == "directed by de Dune [person]"
    acted = CandidateQuery(Anchor("Ana", "Person", "name"), (Hop("ACTED_IN", "out", "Movie", "title"),))
    assert reading(acted, en) == "movie that Ana acted in (movie)"
    assert reading(acted, mine) == "acted in de Ana [movie]"  # the question's lexicon says what a deed is
    (tmp_path / "short.toml").write_text(text.replace('same = "other {what} with the same {rel} as {of}"', ""))
    with pytest.raises(InvalidInputError, match=r"frames\.same\b"):
        lexicon.load(str(tmp_path / "short.toml"))


def test_no_stage_module_is_over_400_lines() -> None:
    """Issue 40: the package stays small stages; a module past 400 lines is split, not grown."""
    package = Path(features.__file__).parent
    sizes = {p.name: len(p.read_text().splitlines()) for p in package.glob("*.py")}
    assert len(sizes) > 10
    assert {n: k for n, k in sizes.items() if k > 400} == {}


def test_every_feature_is_registered_once_and_weighed_by_the_bundled_ranker() -> None:
    with pytest.raises(ValueError, match="registered twice"):
        features.feature("counted", features.FOR)(lambda f: 0)
    with pytest.raises(ValueError, match="FOR or AGAINST"):
        features.feature("sideways", 0)
    assert set(features.SIGNS) == {RELEVANCE, LLM, *FEATURES}  # every feature says which way it points
    default = rank.load()
    assert set(default.weights) == {RELEVANCE, LLM, *FEATURES}  # the LLM's where no ``tune`` has weighed it
    learned = rank.load("learned")  # the bundled learned ranker: fitted, signs kept, relevance 1
    assert learned.info["learned"] is True and learned.weights[RELEVANCE] == 1.0
    assert all(w * features.SIGNS[n] >= 0 for n, w in learned.weights.items())
    lits = question_literals("How many books are there?")
    [row] = features.compute([Shape(WROTE, 2, "count")], "How many books are there?", lits)
    assert set(row) == set(FEATURES) and row["count_form"] == 1.0
    assert all(fn.__doc__ for fn in FEATURES.values())  # each says what it measures


def test_the_total_number_of_a_quantity_is_its_sum_not_a_count_of_its_owners() -> None:
    """The question "What is the total number of pages of the books written by X" asks for the sum of the books'
    pages (a number that measures, every word of its key said after "the total number of"), not how many books there
    are; "how many books" still counts them, and "how many ports" is no sum of the ports' numbers (their kind)."""
    dune = CandidateQuery(Anchor("X", "Author", "name"), (Hop("WROTE", "out", "Book", "title"),))
    summed = Shape(dune, 2, "agg", prop="pages", fn="sum", quantity=True)
    counted = Shape(dune, 2, "count")
    q = "What is the total number of pages of the books written by X?"
    lits = question_literals(q)
    assert lits.asks_count and lits.heads[0] == "pages" and "sum" not in lits.aggregated
    rows = features.compute([summed, counted], q, lits)
    assert rows[0]["count_form"] == 1.0 and rows[0]["aggregate_asked"] == 1.0
    assert rows[1]["count_form"] == 1.0
    q = "How many books has X written?"
    rows = features.compute([summed, counted], q, question_literals(q))
    assert rows[0]["count_form"] == -1.0 and rows[0]["aggregate_asked"] == -1.0 and rows[1]["count_form"] == 1.0
    ports = CandidateQuery(Anchor("X", "Interface", "ip"), (Hop("EXPOSES", "out", "Port", "port"),))
    q = "How many ports does interface X expose?"
    [row] = features.compute([Shape(ports, 2, "agg", prop="port", fn="sum", quantity=True)], q, question_literals(q))
    assert row["count_form"] == -1.0 and row["aggregate_asked"] == -1.0


def test_how_many_of_a_number_the_stated_entity_holds_is_its_own_not_a_sum_over_its_kind() -> None:
    """ "How many credits is X worth" asks for course X's own credits: a sum of the credits of the courses X requires
    (its own kind, which holds the number too) is no quantity asked for; a sum over another kind still is."""
    x = Anchor("Machine Learning", "Course", "title")
    required = CandidateQuery(x, (Hop("REQUIRES", "out", "Course", "title"),))
    own = Shape(CandidateQuery(x, ()), 1, "attr", prop="credits", quantity=True)
    summed = Shape(required, 2, "agg", prop="credits", fn="sum", quantity=True)
    q = "How many credits is Machine Learning worth?"
    rows = features.compute([own, summed], q, question_literals(q))
    assert rows[0]["count_form"] == 1.0
    assert rows[1]["count_form"] == -1.0 and rows[1]["aggregate_asked"] == -1.0
    taught = CandidateQuery(Anchor("Ada", "Person", "name"), (Hop("TEACHES", "out", "Course", "title"),))
    q = "How many credits does Ada teach?"
    total = Shape(taught, 2, "agg", prop="credits", fn="sum", quantity=True)
    [row] = features.compute([total], q, question_literals(q))
    assert row["count_form"] == 1.0 and row["aggregate_asked"] == 1.0


def test_a_key_that_is_a_kind_of_the_pattern_names_that_kind_not_itself() -> None:
    """A relationship's ``trackNo`` reads as "track" (the ``No`` is a function word): "which tracks did X stream"
    names the tracks, not the numbers of the tracks on their albums, and "how many tracks are in playlist X" is no
    sum of those numbers; a key no node of the pattern is named by still answers ("the roles of the actors")."""
    streamed = CandidateQuery(
        Anchor("X", "Listener", "username"),
        (Hop("STREAMED", "out", "Track", "trackName"), Hop("HAS_TRACK", "in", "Album", "albumTitle")),
    )
    numbers = Shape(streamed, 3, "attr", prop="trackNo", prop_on=2)
    q = "Which tracks did X stream?"
    [row] = features.compute([numbers], q, question_literals(q))
    assert row["answer_kind"] == 0.0
    summed = Shape(streamed, 3, "agg", prop="trackNo", prop_on=2, fn="sum", quantity=True)
    q = "How many tracks did X stream?"
    [row] = features.compute([summed], q, question_literals(q))
    assert row["aggregate_asked"] == -1.0
    acted = CandidateQuery(Anchor("X", "Movie", "title"), (Hop("ACTED_IN", "in", "Person", "name"),))
    q = "What are the roles of the actors in X?"
    [row] = features.compute([Shape(acted, 2, "attr", prop="roles", prop_on=1)], q, question_literals(q))
    assert row["answer_kind"] == 1.0


def test_a_flag_before_its_kind_asks_for_the_flagged_nodes_not_the_flag() -> None:
    """ "List the explicit tracks on X": ``explicit`` picks tracks (``asks.flagged_kind``); the values of ``explicit``
    are not what is asked (-1), a list of tracks is."""
    on = CandidateQuery(Anchor("X", "Album", "albumTitle"), (Hop("HAS_TRACK", "out", "Track", "trackName"),))
    q = "List the explicit tracks on X."
    lits = question_literals(q)
    lits.heads, lits.flags = ["tracks"], ["explicit"]  # what asks.asked_kind reads off a profile with the flag
    rows = features.compute([Shape(on, 2, "attr", prop="explicit"), Shape(on, 2, "list")], q, lits)
    assert rows[0]["answer_kind"] == -1.0 and rows[1]["answer_kind"] == 1.0
    lits.flags = []
    assert features.compute([Shape(on, 2, "attr", prop="explicit")], q, lits)[0]["answer_kind"] == 0.0


def test_a_list_of_the_kind_asked_for_keeps_its_second_condition() -> None:
    """ "The vegetarian recipes that take at most 20 minutes": the plain list of recipes with one condition takes a
    second whatever the beam of one-condition shapes keeps (``conditions.asked_list``); a list of another kind, or of
    a pattern that is no plain list, does not."""
    recipes = CandidateQuery(Anchor(None, "Recipe", "recipeName"), ())
    chefs = CandidateQuery(Anchor(None, "Chef", "chefName"), ())
    plain = [Shape(recipes, 1, "list"), Shape(chefs, 1, "list")]
    lits = question_literals("List the vegetarian recipes that take at most 20 minutes.")
    lits.kind_head = "recipes"  # what asks.asked_kind reads off the profile
    quick = Filter(1, "prepMinutes", "<=", 20)
    assert asked_list(Shape(recipes, 1, "list", filters=(quick,)), plain, lits)
    assert not asked_list(Shape(chefs, 1, "list", filters=(Filter(1, "nationality", "=", "Italy"),)), plain, lits)
    assert not asked_list(Shape(recipes, 1, "list", filters=(quick,), limit=3), plain, lits)
    both = (quick, Filter(1, "vegetarian", "=", True))
    assert not asked_list(Shape(recipes, 1, "list", filters=both), plain, lits)


def test_the_ranker_is_its_weights(tmp_path: Path) -> None:
    feats = [{RELEVANCE: 1.0, "constants": 0.0}, {RELEVANCE: 0.0, "constants": 1.0}]
    assert rank.Ranker({RELEVANCE: 1.0, "constants": 2.0}).scores(feats) == [1.0, 2.0]
    assert rank.Ranker({RELEVANCE: 3.0, "constants": 2.0}).scores(feats) == [3.0, 2.0]
    # standardised per question: a weight means the same whatever the features' scale
    wide = [{RELEVANCE: 10.0}, {RELEVANCE: 0.0}]
    assert rank.Ranker({RELEVANCE: 1.0}, standardise=True).scores(wide) == [1.0, -1.0]
    (tmp_path / "r.json").write_text('{"weights": {"relevance": 1, "no_such_feature": 2}}')
    with pytest.raises(InvalidInputError, match="unknown features: no_such_feature"):
        rank.load(str(tmp_path / "r.json"))
    with pytest.raises(InvalidInputError, match="no text2cypher ranker"):
        rank.load("nowhere")
    assert LLM not in FEATURES and rank.log_softmax({0: 0.0, 1: -50.0}, 4.0)[1] == -4.0


def _groups(n: int) -> list[Group]:
    """Questions where the positive is the candidate that states the question's constant, though another candidate
    is a little more relevant: only a weight on ``constants`` puts it first."""
    out = []
    for q in range(n):
        rows = []
        for i in range(5):
            row = dict.fromkeys(NAMES, 0.0)
            row[RELEVANCE] = 1.0 + 0.1 * ((i + q) % 3)
            row["constants"] = 1.0 if i == q % 5 else 0.0
            rows.append([row[name] for name in NAMES])
        rows[(q + 1) % 5][0] = 2.0  # a distractor more relevant than the positive
        out.append(Group("g", f"q{q}", "path", list(NAMES), rows, q % 5))
    return out


def test_fitting_learns_what_puts_the_positive_first(tmp_path: Path) -> None:
    groups = _groups(40)
    weights = fit(groups)
    assert weights["constants"] > weights[RELEVANCE] > 0 or weights["constants"] > 1.0
    assert hits_at_1(groups, rank.Ranker(weights)) == 100.0
    assert hits_at_1(groups, rank.Ranker({RELEVANCE: 1.0})) < 50.0
    save(groups, tmp_path / "g.jsonl")
    report = learn([tmp_path / "g.jsonl"], tmp_path / "learned.json", holdout=0.25)
    assert report["questions"] == {"train": 30, "held_back": 10, "checks": 0}
    assert report["hits_at_1"]["held_back"]["learned"] == 100.0
    learned = rank.load(str(tmp_path / "learned.json"))  # the file is a ranker the mode can use
    assert learned.info["learned"] is True and learned.weights["constants"] > 0


def test_each_graph_is_reported_by_a_ranker_fitted_on_the_others_and_a_prior_holds_what_no_question_weighs(
    tmp_path: Path,
) -> None:
    """``ranker fit`` on several graphs' files (each file one graph, whatever namespace its questions were asked
    in) reports per graph what a ranker fitted on the other graphs alone puts first, beside the baseline; a feature
    no question exercises keeps the weight of the ``prior`` ranker (0 without one)."""
    for k in range(3):
        save(_groups(20), tmp_path / f"graph{k}.jsonl")  # all asked in the namespace "g"
    files = sorted(tmp_path.glob("graph*.jsonl"))
    report = learn(files, tmp_path / "l.json", holdout=0.0, l2=0.01, baseline="hand")
    per = report["right_first_on_a_graph_left_out"]
    assert set(per) == {"graph0", "graph1", "graph2"} == set(report["trained_on"])
    assert all(x["questions"] == 20 and x["learned"] == 20 for x in per.values())  # constants learned elsewhere
    assert all(x["baseline"] == sum(_firsts(_groups(20), rank.load("hand"))) for x in per.values())
    plain = rank.load(str(tmp_path / "l.json"))
    assert plain.weights["time_order"] == 0.0  # no question orders by time: nothing bears the weight out
    learn(files, tmp_path / "p.json", holdout=0.0, l2=0.01, baseline="hand", prior="default")
    drawn = rank.load(str(tmp_path / "p.json"))  # in relevance units, as the default's are
    assert drawn.info["report"]["prior"] == "default" and "--prior default" in drawn.info["command"]
    assert drawn.weights["time_order"] > 0.5 * rank.load("default").weights["time_order"] > 0


def test_a_prior_of_signs_draws_every_feature_to_one_scale_and_each_check_graph_is_reported_apart(
    tmp_path: Path,
) -> None:
    """``--prior signs:S``: each feature drawn towards ``S`` times its sign and relevance towards 1, so no feature's
    magnitude is set by hand; a feature no question exercises keeps ``S`` times its sign. ``--check`` files are each
    one graph, reported apart beside the baseline."""
    drawn = prior_weights("signs:2")
    assert drawn[RELEVANCE] == 1.0 and drawn["constants"] == 2.0 and drawn["unasked_order"] == -2.0
    assert set(drawn) == set(NAMES)
    with pytest.raises(InvalidInputError):
        prior_weights("signs:two")
    for k in range(2):
        save(_groups(20), tmp_path / f"graph{k}.jsonl")
    save(_groups(10), tmp_path / "other.jsonl")
    files = sorted(tmp_path.glob("graph*.jsonl"))
    report = learn(
        files,
        tmp_path / "s.json",
        holdout=0.0,
        l2=10.0,
        baseline="hand",
        prior="signs:2",
        checks=[tmp_path / "other.jsonl"],
    )
    weights = rank.load(str(tmp_path / "s.json")).weights
    assert abs(weights["time_order"] - 2.0) < 0.2 and abs(weights["unasked_order"] + 2.0) < 0.2  # unexercised
    assert report["right_first_on_checks"] == {
        "other": {"questions": 10, "baseline": sum(_firsts(_groups(10), rank.load("hand"))), "learned": 10}
    }


def test_a_learned_weight_keeps_its_features_sign(tmp_path: Path) -> None:
    """Questions whose positive happens to be the candidate a penalty feature marks: an unconstrained fit would learn
    the penalty as a bonus; the fit keeps it at 0 (against, never for), and the bonus the data bear out is learned."""
    groups = _groups(40)
    for g in groups:  # the positive also "orders where nothing asks for an order"
        col = g.names.index("unasked_order")
        g.rows[g.positive][col] = 1.0
    weights = fit(groups)
    assert features.SIGNS["unasked_order"] == features.AGAINST and weights["unasked_order"] == 0.0
    assert weights["constants"] > 0
    scaled = in_relevance_units({RELEVANCE: 2.0, "constants": 3.0, "unasked_order": -1.0})
    assert scaled == {RELEVANCE: 1.0, "constants": 1.5, "unasked_order": -0.5}  # the same order, relevance weighs 1


def test_a_question_with_several_right_candidates_is_fitted_on_all_of_them() -> None:
    """A graph's own question (``ranker collect-gold``) may be answered by several candidates (the same rows by two
    queries): the loss is their share of the softmax, so a feature every right one has is learned, and one a single
    right one has beside the wrong ones is not needed; a pick of any right one is a hit."""
    groups = []
    for q in range(30):
        rows = []
        for i in range(6):
            row = dict.fromkeys(NAMES, 0.0)
            row[RELEVANCE] = 0.5 if i == (q + 1) % 6 else 0.1 * ((i * 7 + q) % 5)
            row["constants"] = 1.0 if i in (q % 6, (q + 1) % 6) else 0.0  # the two right ones state the constant
            rows.append([row[name] for name in NAMES])
        right = sorted({q % 6, (q + 1) % 6})
        groups.append(Group("g", f"q{q}", "path", list(NAMES), rows, right[0], right))
    weights = fit(groups)
    assert weights["constants"] > 1.0
    assert hits_at_1(groups, rank.Ranker(weights)) == 100.0
    single = [Group(g.namespace, g.question, g.kind, g.names, g.rows, g.positive) for g in groups]
    assert hits_at_1(single, rank.Ranker(weights)) < 100.0  # the other right one is no hit where it is not marked


def test_a_fit_that_also_reads_questions_without_relevance_weighs_the_other_features_more() -> None:
    """Synthetic questions whose positive is both the most relevant candidate and the one stating the constant (as
    a question phrased like its reading is): relevance alone explains them, so a plain fit leaves ``constants``
    small beside it; read blind to relevance as well, the fit must learn ``constants`` to tell them apart."""
    groups = []
    for q in range(40):
        rows = []
        for i in range(5):
            row = dict.fromkeys(NAMES, 0.0)
            row[RELEVANCE] = 3.0 if i == q % 5 else 0.1 * ((i + q) % 3)
            row["constants"] = 1.0 if i in (q % 5, (q + 2) % 5) else 0.0  # a distractor states it too
            rows.append([row[name] for name in NAMES])
        groups.append(Group("g", f"q{q}", "path", list(NAMES), rows, q % 5))
    plain = in_relevance_units(fit(groups))
    blind = in_relevance_units(fit(groups, blind=1.0))
    assert blind["constants"] > 2 * plain["constants"] and blind["constants"] > 0.5
    assert hits_at_1(groups, rank.Ranker(blind)) == 100.0  # relevance still decides between the two stating it
    x = np.asarray(groups[0].rows)
    assert (blinded(x, NAMES)[:, 0] == 0).all() and (blinded(x, NAMES)[:, 1:] == x[:, 1:]).all()


def test_tunes_questions_also_ask_an_attribute_of_a_set_and_a_value_by_its_property() -> None:
    """The frames ``tune`` and ``ranker collect`` ask in include "what genre are the movies starred by X" (the form
    ``attribute_stop`` reads) and "racks with zone 4" (a number right after its property's word, the form
    ``value_named`` reads), so a ranker fitted on them sees both features at work."""
    from app.cypher.shapes import Filter

    en = lexicon.load()
    path = CandidateQuery(
        Anchor("Keanu Reeves", "Person", "name"),
        (Hop("STARRED", "out", "Movie"), Hop("GENRE", "out", "Genre")),
    )
    asked = {question_literals(path_question(path, random.Random(s), en), en).asked for s in range(200)}
    assert "genre" in asked
    shape = Shape(CandidateQuery(Anchor(None, "Rack", "name"), ()), 1, "list", filters=(Filter(1, "zone", "=", 4),))
    valued = [question_literals(shape_question(shape, random.Random(s), en), en).value_words for s in range(200)]
    assert {4.0: "zone"} in valued


def test_a_relationship_value_in_the_plural_is_stated() -> None:
    """A relationship's categorical value said as a plural noun in lower case ("the developers on X": ``Developer``)
    is a value the question states; the same word in the singular and lower case is a plain word ("who leads X" is
    no role ``Lead``)."""
    from app.text2cypher.asks import stated_values
    from app.text2cypher.profiles import Profiles

    profiles = Profiles(values={("ASSIGNED_TO", "role"): ["Developer", "Lead", "Fall 2023"]})
    for question, want in [
        ("Who are the developers on Project Atlas?", ["Developer"]),
        ("Who is the lead on Project Atlas?", []),
        ("Who is the Lead on Project Atlas?", ["Lead"]),
    ]:
        lits = question_literals(question)
        stated_values(lits, profiles)
        assert lits.values == want, question
