"""The schema profile's choices, read off property values alone: no property name is special."""

from __future__ import annotations

from app.settings import LabelOverride, ProfileSettings
from app.stores.graph.profile import label_profile, profile_properties, value_kind

CFG = ProfileSettings()


def _suppliers(n: int = 40) -> list[dict[str, object]]:
    countries = ["Japan", "Brazil", "Norway", "Kenya"]
    return [
        {
            "supplierRef": f"SUP-{i:04d}",
            "companyName": f"Harbour Trading {i}",
            "country": countries[i % 4],
            "homePage": f"https://example.org/suppliers/{i}",
            "founded": f"19{50 + i % 40}-0{1 + i % 9}-1{i % 10}",
            "rowHash": f"{i:04x}9f3a7c2be01d",
            "rating": 1.5 + i % 3,
            "active": i % 2 == 0,
            "notes": "A long description of the supplier and its history. " * 3,
        }
        for i in range(n)
    ]


def test_each_property_gets_a_kind_and_its_measures() -> None:
    assert [value_kind(v) for v in ("x", "1996-07-04", "1996-07-04T00:00:00", 3, 2.5, True, [1])] == [
        "text", "date", "date", "integer", "float", "boolean", "list",
    ]  # fmt: skip
    props = profile_properties(_suppliers(), 40)
    assert props["founded"].kind == "date" and props["founded"].lo == "1950-01-10"
    assert props["rating"].kind == "float" and (props["rating"].lo, props["rating"].hi) == (1.5, 3.5)
    assert props["country"].distinct == 4 and props["country"].filled == 1.0 and props["country"].unique == 0.1
    assert props["homePage"].url_like == 1.0 and props["rowHash"].opaque == 1.0
    assert len(props["companyName"].samples) == 5


def test_the_display_id_categorical_and_typed_properties_come_from_the_values() -> None:
    prof = label_profile("Supplier", 40, _suppliers(), CFG, None)
    # the short, unique, word-like text names the node; not the URL, the hash, the long notes or the code
    assert prof.display == "companyName"
    assert prof.id == "supplierRef"  # unique and code-like
    assert prof.categorical == ["country"]
    assert prof.temporal == ["founded"] and prof.numeric == ["rating"] and prof.boolean == ["active"]


def test_the_word_values_of_a_handful_of_nodes_are_categorical_though_none_is_shared() -> None:
    """The city of each of four museums names them ("which museums are in Seville"), as a shared value would; a code
    is no such value, nor are the cities of more nodes than a handful, each its own, nor a long text."""
    places = [("Kestrel Gallery", "Utrecht"), ("Museo Calvario", "Seville"), ("Northbank", "Leeds"), ("Vesna", "Kranj")]
    museums = [
        {"museumName": n, "city": c, "wing": f"W{i}", "motto": f"Art for everyone in {c} since long ago {i}" * 2}
        for i, (n, c) in enumerate(places)
    ]
    assert label_profile("Museum", 4, museums, CFG, None).categorical == ["city"]
    towns = [{"museumName": f"Museum {i}", "city": f"Town {i}"} for i in range(60)]
    assert label_profile("Museum", 60, towns, CFG, None).categorical == []


def test_a_node_named_by_more_than_its_display_property_keeps_its_other_names() -> None:
    """A customer displayed by its contact's name is also named by its company's (a question may say either); a
    category, a code or a long text is no name."""
    customers = [
        {"customerID": f"C{i:03d}", "companyName": f"Harbour Trading {i}", "contactName": f"Ana {i}",
         "country": ["Japan", "Brazil"][i % 2], "notes": "A long description of the customer and its orders. " * 3}
        for i in range(40)
    ]  # fmt: skip
    prof = label_profile("Customer", 40, customers, CFG, None)
    assert prof.display == "contactName" and prof.names == ["companyName"]
    assert label_profile("Supplier", 40, _suppliers(), CFG, None).names == []


def test_a_label_without_text_is_named_by_its_whole_number_and_few_nodes_give_no_id() -> None:
    ports = [{"port": p, "proto": "tcp"} for p in (22, 80, 443, 7474, 7687)]
    prof = label_profile("Port", 5, ports, CFG, None)
    assert prof.display == "proto" or prof.display == "port"
    only_numbers = label_profile("Port", 5, [{"port": p} for p in (22, 80, 443)], CFG, None)
    assert only_numbers.display == "port" and only_numbers.id is None


def test_an_operator_override_wins() -> None:
    override = LabelOverride(display="supplierRef", categorical=[])
    prof = label_profile("Supplier", 40, _suppliers(), CFG, override)
    assert prof.display == "supplierRef" and prof.categorical == [] and prof.overridden == ["display", "categorical"]


def test_the_service_s_document_structure_below_a_page_names_nothing() -> None:
    chunks = [{"text": f"Chunk {i} text " * 20, "section": "History", "uri": f"Doc#{i}"} for i in range(30)]
    assert label_profile("Chunk", 30, chunks, CFG, None).display is None
    assert label_profile("Passage", 30, chunks, CFG, None).display == "uri"  # a user's label of that shape is named


def test_a_label_of_few_nodes_is_named_by_its_short_name_even_when_it_reads_as_a_code() -> None:
    """With a handful of nodes the share of codes says little: ``DC1`` names the one data centre, not its address."""
    prof = label_profile("DataCenter", 1, [{"name": "DC1", "location": "Iceland, Reykjavik"}], CFG, None)
    assert prof.display == "name"


def test_a_measure_every_node_holds_its_own_value_of_is_no_id() -> None:
    """A stadium's capacity and a club's founding year differ from node to node as an id does; they measure, so
    they stay numbers to order and total by. Whole numbers identify where their key says so or where they number
    the nodes (1 to N, with gaps); one-word names that are no codes (a city) identify nothing either."""
    towns = ["Riverton", "Ashford", "Kingsbury", "Eastvale", "Marlow", "Fenwick", "Oakridge", "Redcliff"]
    stadiums = [
        {"stadiumName": f"{t} Park {i}", "capacity": 8000 + 1913 * i, "city": t + "ville" * (i // 8)}
        for i, t in ((i, towns[i % 8]) for i in range(30))
    ]
    prof = label_profile("Stadium", 30, stadiums, CFG, None)
    assert prof.id is None and prof.numeric == ["capacity"]
    numbered = [{**s, "seq": 3 + 2 * i} for i, s in enumerate(stadiums)]  # 3, 5, ... 61: numbers 30 nodes
    assert label_profile("Stadium", 30, numbered, CFG, None).id == "seq"
    keyed = [{**s, "stadiumId": 100_000 + 7919 * i} for i, s in enumerate(stadiums)]  # sparse, but its key says id
    prof = label_profile("Stadium", 30, keyed, CFG, None)
    assert prof.id == "stadiumId" and prof.numeric == ["capacity"]


def test_a_code_beside_a_whole_number_id_still_names_its_node() -> None:
    """A gene shown by its full name has a whole-number id and a symbol: the symbol is a code a question names it by
    ("the gene BRCA1"), linked as a text id would be; a shared value, the id itself, a hash or a long text is none."""
    genes = [
        {"symbol": f"G{i}X{i % 7}", "fullName": f"growth factor receptor {i}", "entrezId": 1000 + 37 * i,
         "chromosome": str(1 + i % 5), "digest": f"{i:04x}9f3a7c2be01d", "notes": "A long note on the gene. " * 5}
        for i in range(30)
    ]  # fmt: skip
    prof = label_profile("Gene", 30, genes, CFG, None)
    assert prof.display == "fullName" and prof.id == "entrezId" and prof.codes == ["symbol"]
    assert label_profile("Supplier", 40, _suppliers(), CFG, None).codes == []  # its code is its id already
