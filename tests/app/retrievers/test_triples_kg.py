"""A knowledge graph of plain triples (no labels, one ``Entity`` kind, names with underscores) whose professions,
positions and genres are nodes stored in lower case: a question names them as common nouns, in the plural
("which goalkeepers ...", "which film directors ...") beside another entity, and the answers meet both. Also: the
items follow the order the mode ranked its queries in, and "born" names a relationship of a birth."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from app.container import Container
from app.text2cypher import lexicon
from app.text2cypher.words import Matcher

NS = "triples_kg"
TRIPLES = [
    ("Ada_Brisk", "plays_for", "Kesh_Rovers"),
    ("Ada_Brisk", "position", "goalkeeper"),
    ("Ben_Corvo", "plays_for", "Kesh_Rovers"),
    ("Ben_Corvo", "position", "midfielder"),
    ("Cai_Dahl", "plays_for", "Kesh_Rovers"),
    ("Cai_Dahl", "position", "goalkeeper"),
    ("Dov_Ekberg", "plays_for", "Halvik_Town"),
    ("Dov_Ekberg", "position", "goalkeeper"),
    ("Eli_Falk", "plays_for", "Halvik_Town"),
    ("Eli_Falk", "position", "midfielder"),
    ("Fay_Holm", "profession", "film_director"),
    ("Fay_Holm", "employer", "Taravel_Systems"),
    ("Gus_Lind", "profession", "surgeon"),
    ("Gus_Lind", "employer", "Taravel_Systems"),
    ("Hal_Quist", "profession", "film_director"),
    ("Hal_Quist", "employer", "Marrow_Pharma"),
    ("Fay_Holm", "place_of_birth", "Vessby"),
    ("Gus_Lind", "place_of_birth", "Oddholm"),
    ("Gus_Lind", "hobby", "position"),  # a node stored under a word of the schema
]


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path: Path = tmp_path_factory.mktemp("kg") / "kb.txt"
    path.write_text("".join(f"{s}\t{r}\t{o}\n" for s, r, o in TRIPLES))
    return path


@pytest.fixture(scope="module")
async def kg(container: Container, kb: Path) -> Container:
    await container.ingestor.ingest_path(NS, "tsv", kb)
    return container


@pytest.mark.parametrize(
    ("question", "common", "wanted"),
    [
        ("Which goalkeepers play for Kesh Rovers?", "goalkeeper", {"Ada_Brisk", "Cai_Dahl"}),
        # a plural lemminflect's dictionary does not hold: its rules
        ("Which midfielders play for Halvik Town?", "midfielder", {"Eli_Falk"}),
        # two words, the last in the plural
        ("Which film directors work for Taravel Systems?", "film_director", {"Fay_Holm"}),
    ],
)
async def test_a_lower_case_node_is_named_by_its_plural_and_answers_meet_both(
    kg: Container, client: httpx.AsyncClient, question: str, common: str, wanted: set[str]
) -> None:
    links = await kg.deps.linker.link(NS, question)
    assert common in [x.name for x in links]
    r = await client.post("/retrieve", json={"question": question, "namespace": NS, "mode": "text2cypher"})
    assert r.status_code == 200, r.text
    trace = r.json()["trace"]
    assert f'{{name: "{common}"}}' in trace["query"]
    assert {v for row in trace["rows"] for v in row.values()} == wanted


async def test_a_stem_of_a_lower_case_node_links_none(kg: Container) -> None:
    """Only a form of the stored word names it: "keepers" is not "goalkeeper", a capitalised stored name is no
    common noun ("Rovers" is not linked as a plural of anything)."""
    links = await kg.deps.linker.link(NS, "Which keepers play for Kesh Rovers?")
    assert [x.name for x in links] == ["Kesh_Rovers"]


async def test_a_word_of_the_schema_names_no_lower_case_node(kg: Container) -> None:
    """ "position" names the relationship ``position``, not the node stored as "position" (as "the top 3 tags" asks
    about the label, not a tag named "tags")."""
    links = await kg.deps.linker.link(NS, "Which position does Ada Brisk play?")
    assert [x.name for x in links] == ["Ada_Brisk"]


async def test_items_follow_the_order_of_the_ranked_queries(
    kg: Container, client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The order may put a query first that scores below the next (the shallowest path within ``depth_margin``):
    its answers still come first among the items, which are sorted by score."""
    t2c: Any = kg.retrievers["text2cypher"]
    choose = t2c.choose

    async def inverted(*args: Any, **kwargs: Any) -> Any:
        ranked, order, method = await choose(*args, **kwargs)
        assert len(ranked) >= 2
        ranked[1] = ranked[1].model_copy(update={"score": ranked[0].score + 3.0})
        return ranked, order, method

    monkeypatch.setattr(t2c, "choose", inverted)
    question = "Which club does Dov Ekberg play for?"
    r = await client.post("/retrieve", json={"question": question, "namespace": NS, "mode": "text2cypher"})
    assert r.status_code == 200, r.text
    body = r.json()
    trace, items = body["trace"], body["items"]
    assert trace["ranked"][1]["score"] > trace["ranked"][0]["score"]
    first = {v for row in trace["rows"] for v in row.values()}
    assert first == {"Halvik_Town"} and len(items) >= 2
    assert items[0]["node"]["name"] == "Halvik_Town" and items[0]["provenance"]["query_rank"] == 1


def test_born_names_a_relationship_of_a_birth() -> None:
    m = Matcher(lexicon.load())
    assert m.named("PLACE_OF_BIRTH", ["born"]) and m.named("DATE_OF_DEATH", ["died"])
    assert not m.named("PLACE_OF_BIRTH", ["died"]) and not m.named("EMPLOYER", ["born"])
    assert not m.named("born", ["birth"])  # one way: the noun names no verb's form
