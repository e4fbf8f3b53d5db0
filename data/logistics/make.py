"""A small freight-logistics graph of a schema none of the service's code was written against (session 56):
warehouses by ``siteCode`` ("WH-ROT") with a ``city``, a ``capacityM3`` and an ``opened`` date as text; carriers by
``carrierName`` with a float ``rating`` and a ``mode`` ("road", "air", "sea"); customers by ``companyName`` with a
``customerRef`` id ("C-1042") and a ``country``; products by ``label`` (a property named like a graph word) with a
``sku``, a ``category``, a float ``unitWeightKg`` and a boolean ``hazardous``; shipments by ``trackingNo`` with a
lower-case ``status``, a ``shippedOn`` date as text, a float ``weightKg`` and a boolean ``express``. Shipments are
``SHIPPED_FROM`` a warehouse, ``DELIVERED_TO`` a customer, ``HANDLED_BY`` a carrier (a float ``cost``) and ``CONTAIN``
products (an integer ``quantity``); warehouses ``STOCK`` products (``units``) and ``SUPPLY`` other warehouses
(``leadDays``); customers ``PREFER`` carriers. 45 questions with gold Cypher written by hand before the service was
run on it (reports/summary.md, session 56).

``python data/logistics/make.py`` writes ``logistics.cypher`` and ``questions.jsonl`` here (``make eval-own``). The
project's own data, not a public benchmark."""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from own_graph import q, write

HERE = Path(__file__).resolve().parent
rng = random.Random(561)

SITES = [("WH-ROT", "Rotterdam"), ("WH-HAM", "Hamburg"), ("WH-ANT", "Antwerp"), ("WH-LYO", "Lyon"), ("WH-MIL", "Milan"),
         ("WH-ROT2", "Rotterdam")]  # fmt: skip
CARRIERS = [("Northwind Freight", "road"), ("Bluefin Logistics", "sea"), ("Skylane Cargo", "air"),
            ("Ridgeway Haulage", "road"), ("Meridian Air", "air")]  # fmt: skip
COUNTRIES = ["Germany", "France", "Netherlands", "Italy", "Spain", "Poland"]
COMPANIES = [
    "Alder Foods", "Brightmoor Retail", "Castellan Tools", "Dunmore Pharma", "Evergreen Garden", "Fjord Outfitters",
    "Granite Labs", "Harbor Books", "Ironleaf Furniture", "Juniper Toys", "Kestrel Bikes", "Lumen Electronics",
]  # fmt: skip
CATEGORIES = ["electronics", "furniture", "chemicals", "food", "apparel"]
ITEMS = {
    "electronics": ["USB hub", "LED panel", "router board", "battery pack"],
    "furniture": ["oak desk", "office chair", "shelf unit"],
    "chemicals": ["solvent drum", "cleaning agent", "lithium cells"],
    "food": ["coffee beans", "olive oil", "rice sacks"],
    "apparel": ["rain jacket", "work boots", "wool socks"],
}
STATUSES = ["delivered"] * 5 + ["in transit"] * 2 + ["delayed"] * 2 + ["returned"]

L: list[str] = []
warehouses = []
for code, city in SITES:
    w = dict(
        code=code,
        city=city,
        cap=rng.randint(8, 90) * 1000,
        opened=f"{rng.randint(2001, 2020)}-{rng.randint(1, 12):02d}-01",
    )
    warehouses.append(w)
    L.append(
        f"CREATE (:Warehouse {{siteCode: {q(code)}, city: {q(city)}, capacityM3: {w['cap']}, "
        f"opened: {q(w['opened'])}}});"
    )
carriers = []
for name, mode in CARRIERS:
    c = dict(name=name, mode=mode, rating=round(rng.uniform(2.5, 4.9), 1))
    carriers.append(c)
    L.append(f"CREATE (:Carrier {{carrierName: {q(name)}, mode: {q(mode)}, rating: {c['rating']}}});")
customers = []
for name in COMPANIES:
    c = dict(name=name, ref=f"C-{1000 + rng.randint(1, 8999)}", country=rng.choice(COUNTRIES))
    customers.append(c)
    L.append(f"CREATE (:Customer {{companyName: {q(name)}, customerRef: {q(c['ref'])}, country: {q(c['country'])}}});")
    for k in rng.sample(carriers, rng.randint(0, 2)):
        L.append(
            f"MATCH (c:Customer {{companyName: {q(name)}}}), (k:Carrier {{carrierName: {q(k['name'])}}}) "
            "CREATE (c)-[:PREFERS]->(k);"
        )
products = []
for cat, items in ITEMS.items():
    for label in items:
        p = dict(label=label, cat=cat, sku=f"SKU-{rng.randint(10000, 99999)}", kg=round(rng.uniform(0.1, 40), 2),
                 haz=cat == "chemicals" or label == "battery pack")  # fmt: skip
        products.append(p)
        L.append(
            f"CREATE (:Product {{label: {q(label)}, sku: {q(p['sku'])}, category: {q(cat)}, unitWeightKg: {p['kg']}, "
            f"hazardous: {'true' if p['haz'] else 'false'}}});"
        )
stock = []
for w in warehouses:
    for p in rng.sample(products, rng.randint(4, 9)):
        stock.append((w["code"], p["label"], rng.randint(10, 5000)))
        L.append(
            f"MATCH (w:Warehouse {{siteCode: {q(w['code'])}}}), (p:Product {{label: {q(p['label'])}}}) "
            f"CREATE (w)-[:STOCKS {{units: {stock[-1][2]}}}]->(p);"
        )
supply = []
for w in warehouses:
    for o in rng.sample([x for x in warehouses if x is not w], rng.randint(0, 2)):
        supply.append((w["code"], o["code"], rng.randint(1, 9)))
        L.append(
            f"MATCH (a:Warehouse {{siteCode: {q(w['code'])}}}), (b:Warehouse {{siteCode: {q(o['code'])}}}) "
            f"CREATE (a)-[:SUPPLIES {{leadDays: {supply[-1][2]}}}]->(b);"
        )
shipments = []
shipped_items = set()
for _ in range(60):
    s = dict(
        no=f"TRK{rng.randint(1000000, 9999999)}", status=rng.choice(STATUSES), kg=round(rng.uniform(5, 1200), 1),
        on=f"{rng.choice([2023, 2024])}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}", express=rng.random() < 0.3,
        wh=rng.choice(warehouses)["code"], cust=rng.choice(customers)["name"], carrier=rng.choice(carriers)["name"],
        cost=round(rng.uniform(40, 2500), 2), items=rng.sample(products[:-2], rng.randint(1, 3)),
    )  # fmt: skip
    shipments.append(s)
    L.append(
        f"CREATE (:Shipment {{trackingNo: {q(s['no'])}, status: {q(s['status'])}, weightKg: {s['kg']}, "
        f"shippedOn: {q(s['on'])}, express: {'true' if s['express'] else 'false'}}});"
    )
    L.append(
        f"MATCH (s:Shipment {{trackingNo: {q(s['no'])}}}), (w:Warehouse {{siteCode: {q(s['wh'])}}}) "
        "CREATE (s)-[:SHIPPED_FROM]->(w);"
    )
    L.append(
        f"MATCH (s:Shipment {{trackingNo: {q(s['no'])}}}), (c:Customer {{companyName: {q(s['cust'])}}}) "
        "CREATE (s)-[:DELIVERED_TO]->(c);"
    )
    L.append(
        f"MATCH (s:Shipment {{trackingNo: {q(s['no'])}}}), (k:Carrier {{carrierName: {q(s['carrier'])}}}) "
        f"CREATE (s)-[:HANDLED_BY {{cost: {s['cost']}}}]->(k);"
    )
    for p in s["items"]:
        shipped_items.add(p["label"])
        L.append(
            f"MATCH (s:Shipment {{trackingNo: {q(s['no'])}}}), (p:Product {{label: {q(p['label'])}}}) "
            f"CREATE (s)-[:CONTAINS {{quantity: {rng.randint(1, 200)}}}]->(p);"
        )

# the constants the questions name, picked from what was made
s1, s2, s3 = shipments[3], shipments[11], shipments[27]
busy_cust = max(customers, key=lambda c: sum(1 for s in shipments if s["cust"] == c["name"]))["name"]
st = stock[5]
stocked = max(products, key=lambda p: sum(1 for x in stock if x[1] == p["label"]))["label"]
sup = supply[0]
fed = max(warehouses, key=lambda w: sum(1 for x in supply if x[1] == w["code"]))["code"]
feeder = max(warehouses, key=lambda w: sum(1 for x in supply if x[0] == w["code"]))["code"]
pref = max(carriers, key=lambda c: sum(1 for line in L if "PREFERS" in line and q(c["name"]) in line))["name"]
wh = shipments[0]["wh"]
cust2 = customers[4]

Q = [
    ("How many shipments are there?", "MATCH (s:Shipment) RETURN count(s)"),
    ("How many warehouses are in Rotterdam?", "MATCH (w:Warehouse {city: 'Rotterdam'}) RETURN count(w)"),
    ("Which shipments are delayed?", "MATCH (s:Shipment {status: 'delayed'}) RETURN s.trackingNo"),
    (
        f"Which carrier handled shipment {s1['no']}?",
        f"MATCH (:Shipment {{trackingNo: {q(s1['no'])}}})-[:HANDLED_BY]->(c:Carrier) RETURN c.carrierName",
    ),
    (
        f"Which shipments were delivered to {busy_cust}?",
        f"MATCH (s:Shipment)-[:DELIVERED_TO]->(:Customer {{companyName: {q(busy_cust)}}}) RETURN s.trackingNo",
    ),
    (
        f"What products does shipment {s2['no']} contain?",
        f"MATCH (:Shipment {{trackingNo: {q(s2['no'])}}})-[:CONTAINS]->(p:Product) RETURN p.label",
    ),
    (
        f"How many units of {st[1]} does {st[0]} stock?",
        f"MATCH (:Warehouse {{siteCode: {q(st[0])}}})-[s:STOCKS]->(:Product {{label: {q(st[1])}}}) RETURN s.units",
    ),
    (
        f"Which warehouses stock {stocked}?",
        f"MATCH (w:Warehouse)-[:STOCKS]->(:Product {{label: {q(stocked)}}}) RETURN w.siteCode",
    ),
    ("Which customers are in Germany?", "MATCH (c:Customer {country: 'Germany'}) RETURN c.companyName"),
    ("Which products are hazardous?", "MATCH (p:Product) WHERE p.hazardous = true RETURN p.label"),
    ("Which carrier has the highest rating?", "MATCH (c:Carrier) RETURN c.carrierName ORDER BY c.rating DESC LIMIT 1"),
    ("List the 3 heaviest shipments.", "MATCH (s:Shipment) RETURN s.trackingNo ORDER BY s.weightKg DESC LIMIT 3"),
    ("Which shipments weigh more than 1000 kg?", "MATCH (s:Shipment) WHERE s.weightKg > 1000 RETURN s.trackingNo"),
    (
        f"What is the total weight of the shipments delivered to {busy_cust}?",
        f"MATCH (s:Shipment)-[:DELIVERED_TO]->(:Customer {{companyName: {q(busy_cust)}}}) RETURN sum(s.weightKg)",
    ),
    (
        "How many shipments did each carrier handle?",
        "MATCH (s:Shipment)-[:HANDLED_BY]->(c:Carrier) RETURN c.carrierName, count(s)",
    ),
    (
        "Which warehouse shipped the most shipments?",
        "MATCH (s:Shipment)-[:SHIPPED_FROM]->(w:Warehouse) RETURN w.siteCode, count(s) AS n ORDER BY n DESC LIMIT 1",
    ),
    (
        "Which shipments were shipped in March 2024?",
        "MATCH (s:Shipment) WHERE s.shippedOn STARTS WITH '2024-03' RETURN s.trackingNo",
    ),
    (
        f"Which customers prefer {pref}?",
        f"MATCH (c:Customer)-[:PREFERS]->(:Carrier {{carrierName: {q(pref)}}}) RETURN c.companyName",
    ),
    (f"What is the capacity of warehouse {wh}?", f"MATCH (w:Warehouse {{siteCode: {q(wh)}}}) RETURN w.capacityM3"),
    (
        "Which warehouse has the largest capacity?",
        "MATCH (w:Warehouse) RETURN w.siteCode ORDER BY w.capacityM3 DESC LIMIT 1",
    ),
    (
        f"Which warehouses supply {fed}?",
        f"MATCH (w:Warehouse)-[:SUPPLIES]->(:Warehouse {{siteCode: {q(fed)}}}) RETURN w.siteCode",
    ),
    (
        f"Which warehouses does {feeder} supply?",
        f"MATCH (:Warehouse {{siteCode: {q(feeder)}}})-[:SUPPLIES]->(w:Warehouse) RETURN w.siteCode",
    ),
    (
        f"What is the lead time in days from {sup[0]} to {sup[1]}?",
        f"MATCH (:Warehouse {{siteCode: {q(sup[0])}}})-[s:SUPPLIES]->(:Warehouse {{siteCode: {q(sup[1])}}}) "
        "RETURN s.leadDays",
    ),
    (
        "Which express shipments are in transit?",
        "MATCH (s:Shipment {status: 'in transit'}) WHERE s.express = true RETURN s.trackingNo",
    ),
    (
        "How many shipments were delivered to customers in France?",
        "MATCH (s:Shipment)-[:DELIVERED_TO]->(:Customer {country: 'France'}) RETURN count(s)",
    ),
    ("Which products are in the electronics category?", "MATCH (p:Product {category: 'electronics'}) RETURN p.label"),
    (
        f"What is the average cost of shipments handled by {carriers[0]['name']}?",
        f"MATCH (:Shipment)-[h:HANDLED_BY]->(:Carrier {{carrierName: {q(carriers[0]['name'])}}}) RETURN avg(h.cost)",
    ),
    ("Which carriers ship by air?", "MATCH (c:Carrier {mode: 'air'}) RETURN c.carrierName"),
    (
        "Which customer received the most shipments?",
        "MATCH (s:Shipment)-[:DELIVERED_TO]->(c:Customer) RETURN c.companyName, count(s) AS n ORDER BY n DESC LIMIT 1",
    ),
    (f"When was shipment {s3['no']} shipped?", f"MATCH (s:Shipment {{trackingNo: {q(s3['no'])}}}) RETURN s.shippedOn"),
    (
        f"What is the status of shipment {s1['no']}?",
        f"MATCH (s:Shipment {{trackingNo: {q(s1['no'])}}}) RETURN s.status",
    ),
    (
        "Which shipments contain hazardous products?",
        "MATCH (s:Shipment)-[:CONTAINS]->(p:Product) WHERE p.hazardous = true RETURN DISTINCT s.trackingNo",
    ),
    (
        f"Which customers received shipments handled by {carriers[2]['name']}?",
        "MATCH (c:Customer)<-[:DELIVERED_TO]-(:Shipment)-[:HANDLED_BY]->"
        f"(:Carrier {{carrierName: {q(carriers[2]['name'])}}}) "
        "RETURN DISTINCT c.companyName",
    ),
    ("Which products have never been shipped?", "MATCH (p:Product) WHERE NOT ()-[:CONTAINS]->(p) RETURN p.label"),
    ("How many products are in each category?", "MATCH (p:Product) RETURN p.category, count(p)"),
    ("Which warehouses opened before 2010?", "MATCH (w:Warehouse) WHERE w.opened < '2010' RETURN w.siteCode"),
    (
        f"What is the customer reference of {cust2['name']}?",
        f"MATCH (c:Customer {{companyName: {q(cust2['name'])}}}) RETURN c.customerRef",
    ),
    (
        f"Which city is warehouse {warehouses[2]['code']} in?",
        f"MATCH (w:Warehouse {{siteCode: {q(warehouses[2]['code'])}}}) RETURN w.city",
    ),
    (
        f"Which shipments from {wh} were delayed?",
        f"MATCH (s:Shipment {{status: 'delayed'}})-[:SHIPPED_FROM]->(:Warehouse {{siteCode: {q(wh)}}}) "
        "RETURN s.trackingNo",
    ),
    ("What is the lightest product?", "MATCH (p:Product) RETURN p.label ORDER BY p.unitWeightKg ASC LIMIT 1"),
    ("What is the average weight of a shipment?", "MATCH (s:Shipment) RETURN avg(s.weightKg)"),
    ("How many shipments were returned?", "MATCH (s:Shipment {status: 'returned'}) RETURN count(s)"),
    (
        "Which carrier handled the most expensive shipment?",
        "MATCH (:Shipment)-[h:HANDLED_BY]->(c:Carrier) RETURN c.carrierName ORDER BY h.cost DESC LIMIT 1",
    ),
    (
        f"Which products did {busy_cust} receive?",
        f"MATCH (:Customer {{companyName: {q(busy_cust)}}})<-[:DELIVERED_TO]-(:Shipment)-[:CONTAINS]->(p:Product) "
        "RETURN DISTINCT p.label",
    ),
    (
        "Which shipment was shipped most recently?",
        "MATCH (s:Shipment) RETURN s.trackingNo ORDER BY s.shippedOn DESC LIMIT 1",
    ),
]
write(HERE, "logistics", L, Q)
