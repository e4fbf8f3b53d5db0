"""A graph the service was not developed on: no ``name`` or ``title`` anywhere, ids as strings, dates as text, numbers
on relationships, categorical values. Every mode reads it through the namespace's schema profile."""

from __future__ import annotations

import calendar
import random
from typing import Any

import httpx
import pytest

from app.container import Container
from app.cypher.candidates import Anchor, CandidateQuery, Hop, hops_from_rows
from app.retrievers.free_cypher import schema_example, schema_text
from app.retrievers.linking import EntityLinker, NameIndex
from app.text2cypher.asks import stated_values
from app.text2cypher.lexicon import load as load_lexicon
from app.text2cypher.question import question_literals

NS = "any_schema"
COUNTRIES = ["Japan", "Brazil", "Norway", "Kenya"]
SUPPLIERS = ["Exotic Liquids", "Harbour Trading", "Tokyo Traders", "Mayumi Foods", "Pavlova Goods", "Nord Ost Fisch"]
PRODUCTS = ["Chai Tea", "Aniseed Syrup", "Ikura Roe", "Konbu Kelp", "Tofu Blocks", "Pavlova Cake", "Gravad Lax",
            "Rogede Sild", "Spegesild", "Boston Crab Meat", "Chocolade Bar", "Maxilaku Candy"]  # fmt: skip
CATEGORIES = ["Beverages", "Condiments", "Seafood", "Confections"]
SHIPPERS = ["Speedy Express", "United Package", "Federal Shipping"]


def unix(date: str) -> int:
    y, m, d = (int(x) for x in date.split("-"))
    return calendar.timegm((y, m, d, 0, 0, 0, 0, 1, 0))


def script() -> str:
    rng = random.Random(7)
    lines = []
    for i, s in enumerate(SUPPLIERS):
        lines.append(
            f"CREATE (:Supplier {{supplierRef: 'SUP-{i:03d}', companyName: '{s}', country: '{COUNTRIES[i % 4]}'}});"
        )
    for i, c in enumerate(CATEGORIES):
        lines.append(f"CREATE (:Category {{categoryRef: 'CAT-{i}', categoryName: '{c}'}});")
    for i, p in enumerate(PRODUCTS):
        lines.append(
            f"CREATE (:Product {{productRef: 'PRD-{i:03d}', productName: '{p}', unitPrice: {5 + 3.5 * i}, "
            f"unitsInStock: {rng.randint(0, 120)}, discontinued: {str(i % 5 == 0).lower()}}});"
        )
        s, c = SUPPLIERS[i % len(SUPPLIERS)], CATEGORIES[i % len(CATEGORIES)]
        lines.append(
            f"MATCH (s:Supplier {{companyName: '{s}'}}), (p:Product {{productName: '{p}'}}) "
            "CREATE (s)-[:SUPPLIES]->(p);"
        )
        lines.append(
            f"MATCH (p:Product {{productName: '{p}'}}), (c:Category {{categoryName: '{c}'}}) "
            "CREATE (p)-[:PART_OF]->(c);"
        )
    for i in range(30):
        p = PRODUCTS[rng.randrange(len(PRODUCTS))]
        date = f"{1996 + i % 3}-{1 + i % 12:02d}-{1 + i % 27:02d}"  # also as Unix seconds: placedAt
        lines.append(
            f"CREATE (o:Order {{orderRef: 'ORD-{10248 + i}', orderDate: '{date}', placedAt: {unix(date)}, "
            f"shipCountry: '{COUNTRIES[i % 4]}'}}) WITH o MATCH (p:Product {{productName: '{p}'}}) "
            f"CREATE (o)-[:ORDERS {{quantity: {rng.randint(1, 40)}, discount: 0.05, "
            f"shipVia: '{SHIPPERS[i % 3]}'}}]->(p);"
        )
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
async def shop(container: Container) -> Container:
    await container.ingestor.ingest_cypher(NS, script())
    return container


async def test_the_profile_names_each_label_by_its_own_property(shop: Container, client: httpx.AsyncClient) -> None:
    r = await client.get(f"/namespaces/{NS}/schema")
    assert r.status_code == 200, r.text
    labels = {lp["label"]: lp for lp in r.json()["labels"]}
    assert labels["Supplier"]["display"] == "companyName" and labels["Product"]["display"] == "productName"
    assert labels["Category"]["display"] == "categoryName"
    assert labels["Order"]["temporal"] == ["orderDate", "placedAt"]  # ISO text, and Unix seconds
    assert "unitPrice" in labels["Product"]["numeric"] and labels["Product"]["boolean"] == ["discontinued"]
    rels = {rp["type"]: rp for rp in r.json()["relationships"]}
    assert rels["ORDERS"]["numeric"] == ["discount", "quantity"] and rels["ORDERS"]["endpoints"] == [
        ["Order", "Product", 30]
    ]
    # how many one node has at most, each way round: an order has one product; a product has one supplier, a
    # supplier several products
    assert rels["ORDERS"]["fanout"][0][:3] == ["Order", "Product", 1]
    (supplies,) = rels["SUPPLIES"]["fanout"]
    assert supplies[:2] == ["Supplier", "Product"] and supplies[2] > 1 and supplies[3] == 1
    assert (await client.get("/namespaces/nowhere_ns/schema")).status_code == 404
    assert (await client.get("/namespaces/Bad-Name/schema")).status_code == 422


async def test_the_linker_finds_a_node_by_its_display_value(shop: Container) -> None:
    links = await shop.deps.linker.link(NS, "Which products does Exotic Liquids supply?")
    assert [(x.name, x.labels, x.key) for x in links] == [("Exotic Liquids", ["Supplier"], "companyName")]


@pytest.mark.parametrize(
    "mode", ["vector", "neighborhood", "triplets", "traversal", "react", "text2cypher", "hybrid", "iterative", "bm25"]
)
async def test_every_mode_answers_on_a_graph_without_name_or_title(
    shop: Container, client: httpx.AsyncClient, mode: str
) -> None:
    q = {"question": "Which products does Exotic Liquids supply?", "namespace": NS, "mode": mode, "top_k": 10}
    r = await client.post("/retrieve", json=q)
    assert r.status_code == 200, r.text
    items = r.json()["items"]
    assert items, (mode, r.json().get("warnings"))
    text = " ".join(it["text"] for it in items)
    supplied = [p for i, p in enumerate(PRODUCTS) if SUPPLIERS[i % len(SUPPLIERS)] == "Exotic Liquids"]
    if mode == "bm25":  # no document here: the graph answers, and a warning says so
        assert any("answered from the graph" in w for w in r.json()["warnings"])
    if mode != "vector":  # a graph mode reads the supplier's products off the graph
        assert any(p in text for p in supplied), (mode, text[:500])


async def test_text2cypher_anchors_on_the_display_property(shop: Container, client: httpx.AsyncClient) -> None:
    q = {"question": "Which products does Exotic Liquids supply?", "namespace": NS, "mode": "text2cypher"}
    body = (await client.post("/retrieve", json=q)).json()
    query = body["trace"]["query"]
    assert "companyName" in query and "Exotic Liquids" in query, query
    names = {str(v) for row in body["trace"]["rows"] for v in row.values()}
    assert {"Chai Tea", "Gravad Lax"} <= names


async def test_how_many_different_values_of_a_property(shop: Container, client: httpx.AsyncClient) -> None:
    """ "How many different countries are the suppliers from?" counts the countries, not the suppliers: a count of a
    property's distinct values where the question's head word names the property."""
    q = {"question": "How many different countries are the suppliers from?", "namespace": NS, "mode": "text2cypher"}
    body = (await client.post("/retrieve", json=q)).json()
    assert body["trace"]["query"].endswith("RETURN count(DISTINCT x1.country) AS number"), body["trace"]["query"]
    assert body["trace"]["rows"] == [{"number": len(set(COUNTRIES))}] and len(SUPPLIERS) != len(COUNTRIES)
    t2c: Any = shop.retrievers["text2cypher"]
    e = await t2c.enumerate(NS, "How many suppliers are there?")  # no property named: no count of values
    assert not any("count(DISTINCT x1." in c.text for c in e.candidates)


async def test_the_free_cypher_prompt_holds_only_this_graph(shop: Container) -> None:
    profile = await shop.profiler.get(NS)
    text = schema_text(profile)
    assert "companyName" in text and "orderDate: date" in text and "ORDERS" in text
    example = await schema_example(shop.graph, NS, profile)
    assert example is not None
    prompt = text + example[0] + example[1]
    for other in ("Movie", "ACTED_IN", "title", "Person", "name:"):  # nothing of another graph
        assert other not in prompt, other


@pytest.mark.parametrize(
    ("question", "wanted"),
    [
        ("List the orders placed in 1997.", 'x1.orderDate STARTS WITH "1997"'),
        ("Which orders were placed after 1997?", 'x1.orderDate >= "1998"'),
        ("Which orders were placed before 1997?", 'x1.orderDate < "1997"'),
        ("Show the 3 most recent orders.", "ORDER BY x1.orderDate DESC LIMIT 3 RETURN x1.orderRef AS name"),
        ("What is the latest order date?", "max(x1.orderDate)"),
        ("Which orders were placed before 1997?", "x1.placedAt < 852076800"),  # Unix time: 1997-01-01
        ("List the orders placed in 1997.", "x1.placedAt >= 852076800 AND x1.placedAt < 883612800"),
    ],
)
async def test_dates_held_as_text_take_years_and_orderings(shop: Container, question: str, wanted: str) -> None:
    """A date stored as text ("1996-07-04") is temporal: a year said of it compares as text (which orders as time
    does), and orderings and the earliest / latest work on it; every such candidate runs."""
    t2c = shop.retrievers["text2cypher"]
    e = await t2c.enumerate(NS, question)  # type: ignore[attr-defined]
    texts = [c.text for c in e.candidates]
    hits = [t for t in texts if wanted in t]
    assert hits, [t for t in texts if "orderDate" in t][:10]
    for t in hits[:3]:
        await shop.graph.read(NS, t)  # executes on the engine


async def test_a_value_thousands_of_nodes_share_is_no_entity(container: Container) -> None:
    """A display value more nodes share than ``max_nodes_per_name`` (a port number on every machine) is a kind of
    thing: it is not linked, so no question anchors a path at thousands of nodes."""
    lines = [f"CREATE (:Machine {{host: 'node-{i:03d}'}})-[:EXPOSES]->(:Port {{port: 7474}});" for i in range(120)]
    lines += ["CREATE (:Machine {host: 'edge-1'})-[:EXPOSES]->(:Port {port: 9999});"]
    await container.ingestor.ingest_cypher("shared_names", "\n".join(lines) + "\n")
    links = await container.deps.linker.link("shared_names", "Which machines expose port 7474 and port 9999?")
    assert [(x.name, x.key, x.number) for x in links] == [("9999", "port", True)]


async def test_a_node_is_found_by_any_of_its_names_and_answers_by_its_display(container: Container) -> None:
    """Customers displayed by their contacts' names are also named by their companies': a question that names the
    company links to the customer, text2cypher anchors there, and the answers are named by their display."""
    lines = [
        f"CREATE (:Customer {{customerID: 'C{i:02d}', companyName: 'Harbour Trading {i}', contactName: 'Ana {i}'}})"
        f"-[:PURCHASED]->(:Order {{orderID: 'O{i:02d}', freight: {i}.5}});"
        for i in range(12)
    ]
    await container.ingestor.ingest_cypher("other_names", "\n".join(lines) + "\n")
    profile = await container.profiler.get("other_names")
    assert profile.labels["Customer"].display == "contactName" and profile.labels["Customer"].names == ["companyName"]
    question = "Which orders did 'Harbour Trading 7' purchase?"
    links = await container.deps.linker.link("other_names", question)
    assert ("Harbour Trading 7", ["Customer"], "companyName") in [(x.name, x.labels, x.key) for x in links]
    t2c: Any = container.retrievers["text2cypher"]
    e = await t2c.enumerate("other_names", question)
    wanted = 'MATCH (x1:Customer {companyName: "Harbour Trading 7"})-[:PURCHASED]->(x2:Order) RETURN x2.orderID'
    assert wanted in [c.text for c in e.candidates]
    assert [r["x2.orderID"] for r in await container.graph.read("other_names", wanted)] == ["O07"]


async def test_a_code_beside_a_whole_number_id_links_its_node(container: Container) -> None:
    """Genes shown by their full names, with whole-number ids, are also named by their symbols: "the gene GX7" links
    to that gene by its symbol, exactly, and text2cypher asks its full name of it (not of a gene whose full name
    the vector index finds near the symbol)."""
    lines = [
        f"CREATE (:Gene {{symbol: 'G{i}X{i % 7}', fullName: 'growth factor receptor {i}', entrezId: {1000 + 37 * i}}})"
        f"-[:ASSOCIATED_WITH]->(:Disease {{diseaseLabel: 'disease {i}'}});"
        for i in range(24)
    ]
    await container.ingestor.ingest_cypher("codes", "\n".join(lines) + "\n")
    gene = (await container.profiler.get("codes")).labels["Gene"]
    assert (gene.display, gene.id, gene.codes) == ("fullName", "entrezId", ["symbol"])
    question = "What is the full name of the gene G7X0?"
    links = await container.deps.linker.link("codes", question)
    assert ("G7X0", ["Gene"], "symbol") in [(x.name, x.labels, x.key) for x in links]
    t2c: Any = container.retrievers["text2cypher"]
    e = await t2c.enumerate("codes", question)
    wanted = [c.text for c in e.candidates if 'symbol: "G7X0"' in c.text and "fullName" in c.text]
    assert wanted, [c.text for c in e.candidates][:10]
    assert await container.graph.read("codes", wanted[0]) == [{"fullName": "growth factor receptor 7"}]


def test_a_number_is_never_linked_by_meaning() -> None:
    """The vector fallback looks up names, not numbers: "5" and "4." in a question embed near any version name
    ("5.1", "4.5"), so spans without a letter are left to the exact index (which links a port stated as 9999)."""
    spans = EntityLinker.fallback_mentions("Find the top 5 switches by rack number in zone 4. in 'DC1' or '10.2'")
    assert "DC1" in spans and all(any(ch.isalpha() for ch in s) for s in spans), spans


def test_the_capital_a_question_opens_with_and_schema_words_name_no_node() -> None:
    """ "List the top 5 ..." (or "... Limit to the top 3") is no mention of a tag named "list" ("limit"): a
    sentence's opening capital says nothing of a name; a name that opens a question in its own case still links.
    A word of the question's language ("list", "unique") said unquoted in lower case names no node; quoted, or a
    word the language does not know ("neo4j"), it does. "The top 3 tags" is no mention of a tag named "tags" where
    ``Tag`` is a label."""
    idx = NameIndex()
    for name in ("list", "Dune", "Gender", "limit", "unique", "neo4j"):
        idx.by_lower[name.lower()] = [(name, ["Tag"], "name")]
    linker = EntityLinker.__new__(EntityLinker)
    linker.language = load_lexicon()
    said = lambda q: [x.name for x in linker.exact_mentions(q, idx)]  # noqa: E731
    assert said("List the top 5 questions with the most answers") == []
    assert said("Which questions did Dune ask? Limit to the top 3.") == ["Dune"]
    assert said("Dune was written by whom?") == ["Dune"]
    assert said("Which questions are tagged list?") == []
    assert said("List all unique tags.") == []
    assert sorted(said("Which questions are tagged 'list' or 'unique'?")) == ["list", "unique"]
    assert said("Which questions are tagged neo4j?") == ["neo4j"]
    assert said("Which questions are tagged List?") == ["list"]  # a capital inside the question still links
    assert said("which gender is most common?") == []
    # a lower-case word that names the schema speaks of it, not of a node of that name (unless quoted)
    idx.schema_words = frozenset({"tag", "uuid"})
    idx.by_lower["tags"] = [("tags", ["Tag"], "name")]
    assert said("What are the top 3 tags?") == [] and said("Which questions are tagged 'tags'?") == ["tags"]
    assert said("Which questions are tagged neo4j?") == ["neo4j"]  # no schema word
    idx.by_lower["uuid"] = [("uuid", ["Tag"], "name")]
    assert said("Which users have a UUID below 500?") == []  # in capitals too
    # nor does the vector fallback look them up by meaning (a tag "list" is the nearest to "List")
    assert EntityLinker.fallback_mentions("List the questions Dune Tanaka tagged Tags", idx) == ["Dune Tanaka"]
    assert EntityLinker.fallback_mentions("Dune Tanaka asked what?", idx) == ["Dune Tanaka"]
    assert EntityLinker.fallback_mentions("Which did Dune Tanaka ask? Show 5.", idx) == ["Dune Tanaka"]
    assert "50 and 100" not in EntityLinker.fallback_mentions("Which have between 50 and 100 answers?", idx)


def test_the_data_asked_of_as_a_whole_names_no_node() -> None:
    """ "List all unique tags used in the dataset": the data the question is asked of at the end of a clause (the
    lexicon's ``the_data``), not a tag named "dataset", by its exact name or by meaning; the same word elsewhere, or
    quoted, still links."""
    idx = NameIndex()
    for name in ("dataset", "graph"):
        idx.by_lower[name] = [(name, ["Tag"], "name")]
    linker = EntityLinker.__new__(EntityLinker)
    linker.language = load_lexicon()
    said = lambda q: [x.name for x in linker.exact_mentions(q, idx)]  # noqa: E731
    assert said("List all unique tags used in the dataset.") == []
    assert said("How many questions tagged dataset are in the knowledge graph?") == ["dataset"]
    assert sorted(said("Which questions in the graph view are tagged dataset?")) == ["dataset", "graph"]  # mid-clause
    assert said("Which questions are tagged 'graph' in this database?") == ["graph"]
    assert sorted(said("Which questions in the 'dataset' are tagged graph?")) == ["dataset", "graph"]
    assert EntityLinker.fallback_mentions("List all unique Tags used across the Dataset.", idx) == ["Tags"]


def test_a_quoted_name_links_whole_however_long_and_whatever_it_ends_with() -> None:
    """A quoted display value that ends with a question mark links with it ("... in neo4j?'": only the quote is
    stripped, not the name's own last character); one of more words than the spans tried links whole."""
    idx = NameIndex()
    long = "why do I still get a null value after a null check in the query of this graph today"
    for name in ("getting null in neo4j?", long):
        idx.by_lower[name.lower()] = [(name, ["Question"], "title")]
    idx.max_tokens = 12
    linker = EntityLinker.__new__(EntityLinker)
    linker.language = load_lexicon()
    said = lambda q: [x.name for x in linker.exact_mentions(q, idx)]  # noqa: E731
    assert said("Who answered the question 'getting null in neo4j?' Limit to 3.") == ["getting null in neo4j?"]
    assert said(f"Who answered the question titled '{long}'?") == [long]
    assert said(f"Who answered the question titled {long}?") == []  # unquoted: only spans of at most 12 words


async def test_a_categorical_value_links_to_the_nodes_that_hold_it(shop: Container) -> None:
    """``shipCountry`` is categorical (4 distinct short values over 30 orders): "Japan" in a question names the
    orders shipped there, and text2cypher anchors a path at them."""
    profile = await shop.profiler.get(NS)
    assert profile.labels["Order"].categorical == ["shipCountry"]
    assert profile.labels["Supplier"].categorical == ["country"]  # a few suppliers, some in one country
    question = "Which products were ordered for shipping to Japan?"
    links = await shop.deps.linker.link(NS, question)
    assert ("Japan", ["Order"], "shipCountry") in [(x.name, x.labels, x.key) for x in links]
    e = await shop.retrievers["text2cypher"].enumerate(NS, question)  # type: ignore[attr-defined]
    wanted = 'MATCH (x1:Order {shipCountry: "Japan"})-[:ORDERS]->(x2:Product) RETURN x2.productName'
    assert wanted in [c.text for c in e.candidates]
    japan = await shop.graph.read(NS, "MATCH (o:Order {shipCountry: 'Japan'})-[:ORDERS]->(p) RETURN p.productName AS n")
    assert {r["x2.productName"] for r in await shop.graph.read(NS, wanted)} == {r["n"] for r in japan} != set()


async def test_the_nodes_a_categorical_value_names_are_counted_totalled_and_named_by_their_display(
    shop: Container,
) -> None:
    """The orders shipped to Japan are a set: how many there are, their totals and their first k are candidates
    anchored at the value, and they are named by the label's display property, never by the value itself."""
    display = (await shop.profiler.get(NS)).labels["Order"].display
    assert display and display != "shipCountry"
    t2c: Any = shop.retrievers["text2cypher"]
    e = await t2c.enumerate(NS, "How many orders were shipped to Japan?")
    texts = {c.text for c in e.candidates}
    count = 'MATCH (x1:Order {shipCountry: "Japan"}) RETURN count(DISTINCT x1) AS number'
    assert count in texts
    japan = await shop.graph.read(NS, "MATCH (o:Order) WHERE o.shipCountry = 'Japan' RETURN o")
    assert (await shop.graph.read(NS, count))[0]["number"] == len(japan) > 0
    listed = f'MATCH (x1:Order {{shipCountry: "Japan"}}) RETURN DISTINCT x1.{display} AS name'
    assert listed in texts
    assert {r["name"] for r in await shop.graph.read(NS, listed)} == {r["o"].properties[display] for r in japan}
    # the value they hold is the question's own: no candidate returns it, and their reading says what it is
    echo = 'MATCH (x1:Order {shipCountry: "Japan"}) RETURN DISTINCT x1.shipCountry'
    assert not any(t.startswith(echo) for t in texts)
    assert e.readings[[c.text for c in e.candidates].index(listed)] == "order with ship country Japan (order)"
    # conditions hold on the nodes a shared value names, as on every node of a label
    e = await t2c.enumerate(NS, "How many orders shipped to Japan were placed after 1997?")
    after = 'MATCH (x1:Order {shipCountry: "Japan"}) WHERE x1.orderDate >= "1998" RETURN count(DISTINCT x1) AS number'
    assert after in {c.text for c in e.candidates}
    e = await t2c.enumerate(NS, "Which orders shipped to Japan were placed after 1997?")
    listed = (
        f'MATCH (x1:Order {{shipCountry: "Japan"}}) WHERE x1.orderDate >= "1998" RETURN DISTINCT x1.{display} AS name'
    )
    assert listed in {c.text for c in e.candidates}
    e = await t2c.enumerate(NS, "What is the latest order date of orders shipped to Japan?")
    assert (
        'MATCH (x1:Order {shipCountry: "Japan"}) WHERE x1.orderDate IS NOT NULL RETURN max(x1.orderDate) AS value'
        in {c.text for c in e.candidates}
    )


async def test_a_relationship_value_the_question_names_is_a_condition_on_it(shop: Container) -> None:
    """``shipVia`` of ``ORDERS`` is categorical (3 values over 30 relationships): "United Package" in a question,
    unquoted and in any case, is a condition on the relationship; a number inside such a value is none of its own."""
    profile = await shop.profiler.get(NS)
    assert profile.relationships["ORDERS"].categorical == ["shipVia"]
    t2c: Any = shop.retrievers["text2cypher"]
    e = await t2c.enumerate(NS, "Which products were ordered with united package?")
    wanted = (
        'MATCH (x1:Order)-[r1:ORDERS]->(x2:Product) WHERE r1.shipVia = "United Package" '
        "RETURN DISTINCT x2.productName AS name"
    )
    feats = {c.text: f for c, f in zip(e.candidates, e.features, strict=True)}
    assert feats[wanted]["constants"] == 1
    want = await shop.graph.read(
        NS, "MATCH (:Order)-[:ORDERS {shipVia: 'United Package'}]->(p:Product) RETURN DISTINCT p.productName AS n"
    )
    assert {r["name"] for r in await shop.graph.read(NS, wanted)} == {r["n"] for r in want} != set()
    profiles = await t2c.profiles.get(NS, await t2c.enumerator.schema(NS))
    profiles.values[("SHIPPED", "term")] = ["Fall 2023", "active"]  # a value with a number; a plain word
    try:
        lits = question_literals("Which products were shipped in Fall 2023 by active shippers, more than 2 of them?")
        stated_values(lits, profiles)
        assert lits.values == ["Fall 2023"] and lits.numbers == [2.0]
    finally:
        del profiles.values[("SHIPPED", "term")]


async def test_what_a_node_lacks_is_a_condition_on_its_relationships(shop: Container) -> None:
    """ "Which products have never been ordered?": the products no ``ORDERS`` reaches (the type a negated word
    names), not the ones ordered; "suppliers with no products" lack a relationship to a ``Product`` of any type."""
    t2c: Any = shop.retrievers["text2cypher"]
    e = await t2c.enumerate(NS, "Which products have never been ordered?")
    texts = [c.text for c in e.candidates]
    wanted = "MATCH (x1:Product) WHERE NOT (x1)<-[:ORDERS]-(:Order) RETURN DISTINCT x1.productName AS name"
    assert wanted in texts
    assert e.readings[texts.index(wanted)].endswith("product not orders by any order")
    want = await shop.graph.read(
        NS,
        "MATCH (p:Product) OPTIONAL MATCH (p)<-[r:ORDERS]-() WITH p, count(r) AS k WHERE k = 0 "
        "RETURN p.productName AS n",
    )
    assert {r["name"] for r in await shop.graph.read(NS, wanted)} == {r["n"] for r in want} != set()
    ordered = await shop.graph.read(NS, "MATCH (p:Product)<-[:ORDERS]-() RETURN DISTINCT p.productName AS n")
    assert ordered and not {r["n"] for r in want} & {r["n"] for r in ordered}
    # never the lack of the relationship the pattern itself takes at that node
    assert not any("(x1:Product)<-[:ORDERS]-" in t and "NOT (x1)<-[:ORDERS]-" in t for t in texts)
    e = await t2c.enumerate(NS, "Which suppliers have no products?")
    assert "MATCH (x1:Supplier) WHERE NOT (x1)-[:SUPPLIES]->(:Product) RETURN DISTINCT x1.companyName AS name" in [
        c.text for c in e.candidates
    ]


async def test_a_count_asked_for_each_of_something_counts_each(shop: Container) -> None:
    """ "How many products are there in each category?": each category with its count, above the one count of all
    products (``per_group``); "each other" asks for no groups."""
    t2c: Any = shop.retrievers["text2cypher"]
    e = await t2c.enumerate(NS, "How many products are there in each category?")
    feats = {c.text: f for c, f in zip(e.candidates, e.features, strict=True)}
    grouped = (
        "MATCH (x1:Product)-[:PART_OF]->(x2:Category) "
        "RETURN x2.categoryName AS name, count(DISTINCT x1) AS number ORDER BY number DESC"
    )
    assert feats[grouped]["per_group"] == 1 and feats[grouped]["count_form"] == 1
    assert e.readings[[c.text for c in e.candidates].index(grouped)].startswith("each ")  # not "top None ..."
    single = "MATCH (x1:Product)-[:PART_OF]->(x2:Category) RETURN count(DISTINCT x1) AS number"
    assert feats[single]["per_group"] == -1
    rows = await shop.graph.read(NS, grouped)
    want = await shop.graph.read(
        NS, "MATCH (p:Product)-[:PART_OF]->(c:Category) RETURN c.categoryName AS n, count(p) AS k"
    )
    assert {(r["name"], r["number"]) for r in rows} == {(r["n"], r["k"]) for r in want} and len(rows) == 4
    assert question_literals("Which suppliers know each other?").per == []
    # a measure of the relationship each takes, over a label's nodes or the nodes a shared value names
    e = await t2c.enumerate(NS, "What is the average quantity ordered of each product?")
    by_product = (
        "MATCH (x1:Order)-[r1:ORDERS]->(x2:Product) WHERE r1.quantity IS NOT NULL "
        "RETURN x2.productName AS name, avg(r1.quantity) AS value ORDER BY value DESC"
    )
    assert by_product in {c.text for c in e.candidates}
    e = await t2c.enumerate(NS, "What is the total quantity of each order shipped to Japan?")
    texts = [c.text for c in e.candidates]
    by_order = (
        'MATCH (x1:Order {shipCountry: "Japan"})-[r1:ORDERS]->(x2:Product) WHERE r1.quantity IS NOT NULL '
        "RETURN x1.orderRef AS name, sum(r1.quantity) AS value ORDER BY value DESC"
    )
    assert by_order in texts
    assert e.readings[texts.index(by_order)].startswith("each order with ship country Japan (order)")
    # each of one kind with how many of another it reaches through a third the question does not name (session 58:
    # "how many vehicles does each operator have", no relationship between the two)
    e = await t2c.enumerate(NS, "How many suppliers does each category have?")
    chained = [c for c, f in zip(e.candidates, e.features, strict=True) if f["per_group"] == 1 and "Supplier" in c.text]
    assert [c.text for c in chained][:1] == [
        "MATCH (x1:Category)<-[:PART_OF]-(x2:Product)<-[:SUPPLIES]-(x3:Supplier) "
        "RETURN x1.categoryName AS name, count(DISTINCT x3) AS number ORDER BY number DESC"
    ]
    rows = await shop.graph.read(NS, chained[0].text)
    want = await shop.graph.read(
        NS,
        "MATCH (s:Supplier)-[:SUPPLIES]->(:Product)-[:PART_OF]->(c:Category) "
        "RETURN c.categoryName AS n, count(DISTINCT s) AS k",
    )
    assert {(r["name"], r["number"]) for r in rows} == {(r["n"], r["k"]) for r in want}


@pytest.mark.parametrize("mode", ["neighborhood", "react"])
async def test_a_mode_that_starts_from_a_node_says_when_the_question_names_none(
    shop: Container, client: httpx.AsyncClient, mode: str
) -> None:
    """A question about a kind of thing names no node: the mode starts from the node nearest to the question by
    vector and says so; a question of an empty namespace still gets nothing, and a warning."""
    q = {"question": "Which orders are the oldest?", "namespace": NS, "mode": mode}
    body = (await client.post("/retrieve", json=q)).json()
    assert body["items"], body
    assert any("names no node" in w and "nearest to it by vector" in w for w in body["warnings"]), body["warnings"]
    empty = {"question": "Which orders are the oldest?", "namespace": "nothing_here", "mode": mode}
    body = (await client.post("/retrieve", json=empty)).json()
    assert body["items"] == [], body


async def test_a_path_from_a_name_many_nodes_share_extends_as_from_each(container: Container) -> None:
    """The extension read of a path from a name many nodes share (an application deployed 30 times under one name,
    each an instance of one software) reads the end node once, and keeps the pair semantics: an edge back to another
    node of the name is a hop (another instance of the software), an edge back to the path's own anchor node is
    not (the software of a name one node holds)."""
    lines = ["CREATE (:Software {name: 'webapp'})-[:DEPENDS_ON]->(:Software {name: 'java'});"]
    lines += [
        f"MATCH (s:Software {{name: 'webapp'}}) CREATE (:Application {{name: 'webapp', pid: {i}}})-[:INSTANCE]->(s);"
        for i in range(30)
    ]
    lines += ["MATCH (s:Software {name: 'java'}) CREATE (:Application {name: 'solo'})-[:INSTANCE]->(s);"]
    await container.ingestor.ingest_cypher("shared_anchor", "\n".join(lines) + "\n")
    t2c: Any = container.retrievers["text2cypher"]
    display = await t2c.enumerator.display("shared_anchor")

    async def hops(name: str) -> set[tuple[str, str, str]]:
        path = CandidateQuery(Anchor(name, "Application"), (Hop("INSTANCE", "out", "Software", "name"),))
        rows = await container.graph.read("shared_anchor", path.extension_query(display), {"nodes": 1000})
        return {(h.rel_type, h.direction, h.label) for h in hops_from_rows(rows, display)}

    assert await hops("webapp") == {("DEPENDS_ON", "out", "Software"), ("INSTANCE", "in", "Application")}
    assert await hops("solo") == {("DEPENDS_ON", "in", "Software")}


async def test_a_relationship_that_holds_both_ways_is_taken_either_way(container: Container) -> None:
    """A relationship type whose name says it holds both ways (``COLLABORATED_WITH``: the lexicon's ``reciprocal``)
    between two nodes of one kind is one hop either way: "who has X collaborated with" holds the artists X
    collaborated with and those who collaborated with X, however each pair was stored. A type that says nothing
    of the kind (``FOLLOWS``) keeps its directions."""
    lines = [
        "CREATE (:Artist {artistName: 'Kojo Beats'}), (:Artist {artistName: 'Neon Orchard'}),"
        " (:Artist {artistName: 'Frost Harbor'}), (:Artist {artistName: 'Echo Parade'});",
        "MATCH (a:Artist {artistName: 'Neon Orchard'}), (b:Artist {artistName: 'Kojo Beats'})"
        " CREATE (a)-[:COLLABORATED_WITH]->(b), (a)-[:FOLLOWS]->(b);",
        "MATCH (a:Artist {artistName: 'Kojo Beats'}), (b:Artist {artistName: 'Frost Harbor'})"
        " CREATE (a)-[:COLLABORATED_WITH]->(b), (a)-[:FOLLOWS]->(b);",
    ]
    await container.ingestor.ingest_cypher("reciprocal", "\n".join(lines) + "\n")
    t2c: Any = container.retrievers["text2cypher"]
    e = await t2c.enumerate("reciprocal", "Which artists have collaborated with 'Kojo Beats'?")
    texts = [c.text for c in e.candidates]
    either = 'MATCH (x1:Artist {artistName: "Kojo Beats"})-[:COLLABORATED_WITH]-(x2:Artist) RETURN x2.artistName'
    assert either in texts and not any("-[:COLLABORATED_WITH]->" in t or "<-[:COLLABORATED_WITH]-" in t for t in texts)
    assert {r["x2.artistName"] for r in await container.graph.read("reciprocal", either)} == {
        "Neon Orchard",
        "Frost Harbor",
    }
    assert e.readings[texts.index(either)] == "artist collaborated with Kojo Beats (artist)"
    assert any('(x1:Artist {artistName: "Kojo Beats"})<-[:FOLLOWS]-(x2:Artist)' in t for t in texts)
    assert any('(x1:Artist {artistName: "Kojo Beats"})-[:FOLLOWS]->(x2:Artist)' in t for t in texts)
