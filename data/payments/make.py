"""A small payments graph of a schema none of the service's code was written against (session 53): customers (people
and companies in one ``name``, a ``customerId``, a ``segment``, a ``riskScore``) own accounts (``accountNumber``
"ACC-10023", a ``type``, a ``balance`` as a float, an ``opened`` date as text) held at banks (``bankName``, a
``swiftCode``) based in countries (``name``, ``isoCode``); money moves between accounts on the relationship itself
(``TRANSFERRED_TO`` with an ``amount``, a ``currency``, a ``timestamp`` as ISO text and a ``reference``, several
between the same two accounts); alerts (``alertId``, ``raisedOn``, ``status``, ``reason``) flag accounts. 40 questions
with gold Cypher written by hand before the service was run on it; the first measurement of it is the one an unseen
graph gets (reports/summary.md, session 53).

``python data/payments/make.py`` writes ``payments.cypher`` and ``questions.jsonl`` here (``make eval-own``). The
project's own data, not a public benchmark."""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from own_graph import q, write  # noqa: E402

HERE = Path(__file__).resolve().parent
rng = random.Random(530)

COUNTRIES = [("Finland", "FI"), ("Germany", "DE"), ("Estonia", "EE"), ("Portugal", "PT"), ("Cyprus", "CY")]
BANKS = [  # name, swift, country
    ("Nordlys Bank", "NRDLFIHH", "Finland"),
    ("Hansa Kreditbank", "HKRBDEFF", "Germany"),
    ("Rheinufer Sparkasse", "RHSPDE33", "Germany"),
    ("Baltic Harbour Bank", "BHBKEE22", "Estonia"),
    ("Banco Atlantico Norte", "BATNPTPL", "Portugal"),
    ("Limassol Trust Bank", "LTBKCY2N", "Cyprus"),
]
PEOPLE = "Aino Laine|Jonas Becker|Marta Sousa|Kristjan Tamm|Eleni Georgiou|Lukas Wagner|Sofia Almeida|Mikko Nieminen|Anna Schulz|Tiago Ferreira|Liis Kask|Petra Hoffmann".split(
    "|"
)
COMPANIES = "Aurora Textiles Ltd|Kestrel Logistics GmbH|Solmar Trading Lda|Baltic Amber Export OU|Orion Shell Holdings Ltd|Vantaa Tool Works Oy|Meridian Bay Imports".split(
    "|"
)
TYPES = ["checking", "checking", "savings", "business"]
REASONS = ["structuring", "high-risk country", "rapid movement", "unusual volume"]
STATUSES = ["open", "open", "closed", "escalated"]
CURRENCIES = ["EUR", "EUR", "EUR", "USD"]

L: list[str] = []
for name, code in COUNTRIES:
    L.append(f"CREATE (:Country {{name: {q(name)}, isoCode: {q(code)}}});")
for name, swift, country in BANKS:
    L.append(f"CREATE (:Bank {{bankName: {q(name)}, swiftCode: {q(swift)}}});")
    L.append(f"MATCH (b:Bank {{bankName: {q(name)}}}), (c:Country {{name: {q(country)}}}) CREATE (b)-[:BASED_IN]->(c);")

customers = []
for i, name in enumerate(PEOPLE + COMPANIES):
    company = name in COMPANIES
    c = dict(
        id=f"C-{1001 + i}", name=name, segment="corporate" if company else rng.choice(["retail", "retail", "private"]),
        risk=rng.randint(5, 95),
    )  # fmt: skip
    customers.append(c)
    L.append(
        f"CREATE (:Customer {{customerId: {q(c['id'])}, name: {q(name)}, segment: {q(c['segment'])}, "
        f"riskScore: {c['risk']}}});"
    )

accounts = []
for c in customers:
    for _ in range(rng.choice([1, 1, 2, 3])):
        a = dict(
            number=f"ACC-{10001 + len(accounts) * 7}", owner=c["name"], bank=rng.choice(BANKS)[0],
            type="business" if c["segment"] == "corporate" and rng.random() < 0.7 else rng.choice(TYPES[:3]),
            balance=round(rng.uniform(100, 250000), 2),
            opened=f"{rng.randint(2015, 2023)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
        )  # fmt: skip
        accounts.append(a)
        L.append(
            f"CREATE (:Account {{accountNumber: {q(a['number'])}, type: {q(a['type'])}, balance: {a['balance']}, "
            f"opened: {q(a['opened'])}}});"
        )
        L.append(
            f"MATCH (c:Customer {{name: {q(c['name'])}}}), (a:Account {{accountNumber: {q(a['number'])}}}) "
            "CREATE (c)-[:OWNS]->(a);"
        )
        L.append(
            f"MATCH (a:Account {{accountNumber: {q(a['number'])}}}), (b:Bank {{bankName: {q(a['bank'])}}}) "
            "CREATE (a)-[:HELD_AT]->(b);"
        )

transfers = []
senders = accounts[: len(accounts) - 4]  # the last four never send
for i in range(220):
    src = rng.choice(senders)
    dst = rng.choice([a for a in accounts if a is not src])
    amount = round(rng.choice([rng.uniform(20, 2000), rng.uniform(2000, 20000), rng.uniform(20000, 90000)]), 2)
    t = dict(
        src=src["number"], dst=dst["number"], amount=amount, currency=rng.choice(CURRENCIES),
        ts=f"{rng.choice([2022, 2023, 2023, 2024])}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:00Z",
        ref=f"INV-{rng.randint(2022, 2024)}-{100 + i}",
    )  # fmt: skip
    transfers.append(t)
    L.append(
        f"MATCH (a:Account {{accountNumber: {q(t['src'])}}}), (b:Account {{accountNumber: {q(t['dst'])}}}) "
        f"CREATE (a)-[:TRANSFERRED_TO {{amount: {amount}, currency: {q(t['currency'])}, timestamp: {q(t['ts'])}, "
        f"reference: {q(t['ref'])}}}]->(b);"
    )

alerts = []
for i in range(18):
    acc = rng.choice(accounts)
    al = dict(
        id=f"AL-{i + 1:04d}", account=acc["number"], status=rng.choice(STATUSES), reason=rng.choice(REASONS),
        raised=f"{rng.choice([2023, 2024])}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
    )  # fmt: skip
    alerts.append(al)
    L.append(
        f"CREATE (:Alert {{alertId: {q(al['id'])}, raisedOn: {q(al['raised'])}, status: {q(al['status'])}, "
        f"reason: {q(al['reason'])}}});"
    )
    L.append(
        f"MATCH (al:Alert {{alertId: {q(al['id'])}}}), (a:Account {{accountNumber: {q(acc['number'])}}}) "
        "CREATE (al)-[:FLAGS]->(a);"
    )

# the constants the questions name, picked from what was made
busy = max(senders, key=lambda a: sum(1 for t in transfers if t["src"] == a["number"]))
popular = max(accounts, key=lambda a: sum(1 for t in transfers if t["dst"] == a["number"]))
multi = next(c for c in customers if sum(1 for a in accounts if a["owner"] == c["name"]) >= 2)
company = next(c for c in customers if c["segment"] == "corporate")
bank1, bank2 = BANKS[1][0], BANKS[3][0]
acc1 = accounts[5]
alert1 = alerts[2]
ref = transfers[17]["ref"]
some = accounts[9]

Q = [
    ("How many accounts are there?", "MATCH (a:Account) RETURN count(a)"),
    (
        f"Which accounts does {multi['name']} own?",
        f"MATCH (:Customer {{name: {q(multi['name'])}}})-[:OWNS]->(a:Account) RETURN a.accountNumber",
    ),
    (
        f"Which bank holds account {acc1['number']}?",
        f"MATCH (:Account {{accountNumber: {q(acc1['number'])}}})-[:HELD_AT]->(b:Bank) RETURN b.bankName",
    ),
    (f"What is the SWIFT code of {bank1}?", f"MATCH (b:Bank {{bankName: {q(bank1)}}}) RETURN b.swiftCode"),
    ("Which banks are based in Germany?", "MATCH (b:Bank)-[:BASED_IN]->(:Country {name: 'Germany'}) RETURN b.bankName"),
    (
        f"What is the total amount transferred from account {busy['number']}?",
        f"MATCH (:Account {{accountNumber: {q(busy['number'])}}})-[r:TRANSFERRED_TO]->() RETURN sum(r.amount)",
    ),
    (
        f"How many transfers did account {popular['number']} receive?",
        f"MATCH ()-[r:TRANSFERRED_TO]->(:Account {{accountNumber: {q(popular['number'])}}}) RETURN count(r)",
    ),
    ("What is the amount of the largest transfer?", "MATCH ()-[r:TRANSFERRED_TO]->() RETURN max(r.amount)"),
    (
        "Which accounts received transfers of more than 85000?",
        "MATCH ()-[r:TRANSFERRED_TO]->(b:Account) WHERE r.amount > 85000 RETURN DISTINCT b.accountNumber",
    ),
    (
        "How many transfers were made in June 2023?",
        "MATCH ()-[r:TRANSFERRED_TO]->() WHERE r.timestamp STARTS WITH '2023-06' RETURN count(r)",
    ),
    ("Which customers have a risk score above 80?", "MATCH (c:Customer) WHERE c.riskScore > 80 RETURN c.name"),
    (
        "What is the average balance of savings accounts?",
        "MATCH (a:Account {type: 'savings'}) RETURN avg(a.balance)",
    ),
    (
        "Which accounts are flagged by open alerts?",
        "MATCH (:Alert {status: 'open'})-[:FLAGS]->(a:Account) RETURN DISTINCT a.accountNumber",
    ),
    ("How many alerts are escalated?", "MATCH (al:Alert {status: 'escalated'}) RETURN count(al)"),
    (
        f"What is the reason for alert {alert1['id']}?",
        f"MATCH (al:Alert {{alertId: {q(alert1['id'])}}}) RETURN al.reason",
    ),
    (
        "Which customer owns the account with the highest balance?",
        "MATCH (c:Customer)-[:OWNS]->(a:Account) RETURN c.name ORDER BY a.balance DESC LIMIT 1",
    ),
    (
        "Which accounts were opened in 2020?",
        "MATCH (a:Account) WHERE a.opened STARTS WITH '2020' RETURN a.accountNumber",
    ),
    (
        f"Who owns account {some['number']}?",
        f"MATCH (c:Customer)-[:OWNS]->(:Account {{accountNumber: {q(some['number'])}}}) RETURN c.name",
    ),
    (
        f"To which accounts did account {busy['number']} transfer money?",
        f"MATCH (:Account {{accountNumber: {q(busy['number'])}}})-[:TRANSFERRED_TO]->(b:Account) RETURN DISTINCT b.accountNumber",
    ),
    (
        "How many accounts does each bank hold?",
        "MATCH (a:Account)-[:HELD_AT]->(b:Bank) RETURN b.bankName, count(a)",
    ),
    (
        "Which bank holds the most accounts?",
        "MATCH (a:Account)-[:HELD_AT]->(b:Bank) RETURN b.bankName, count(a) AS n ORDER BY n DESC LIMIT 1",
    ),
    (
        f"What is the total balance of the accounts owned by {multi['name']}?",
        f"MATCH (:Customer {{name: {q(multi['name'])}}})-[:OWNS]->(a:Account) RETURN sum(a.balance)",
    ),
    (
        f"Which corporate customers have accounts at {bank1}?",
        f"MATCH (c:Customer {{segment: 'corporate'}})-[:OWNS]->(:Account)-[:HELD_AT]->(:Bank {{bankName: {q(bank1)}}}) "
        "RETURN DISTINCT c.name",
    ),
    (
        "List the top 3 accounts by total amount received.",
        "MATCH ()-[r:TRANSFERRED_TO]->(b:Account) RETURN b.accountNumber, sum(r.amount) AS total ORDER BY total DESC LIMIT 3",
    ),
    (
        "Which accounts have never sent a transfer?",
        "MATCH (a:Account) WHERE NOT (a)-[:TRANSFERRED_TO]->() RETURN a.accountNumber",
    ),
    (
        "Which customers own accounts flagged for structuring?",
        "MATCH (c:Customer)-[:OWNS]->(:Account)<-[:FLAGS]-(:Alert {reason: 'structuring'}) RETURN DISTINCT c.name",
    ),
    ("What is the ISO code of Estonia?", "MATCH (c:Country {name: 'Estonia'}) RETURN c.isoCode"),
    (
        "How many transfers of more than 10000 were made in USD?",
        "MATCH ()-[r:TRANSFERRED_TO]->() WHERE r.amount > 10000 AND r.currency = 'USD' RETURN count(r)",
    ),
    (
        f"What amount was transferred with reference {ref}?",
        f"MATCH ()-[r:TRANSFERRED_TO {{reference: {q(ref)}}}]->() RETURN r.amount",
    ),
    (
        f"When was account {acc1['number']} opened?",
        f"MATCH (a:Account {{accountNumber: {q(acc1['number'])}}}) RETURN a.opened",
    ),
    (
        f"Which business accounts are held at {bank2}?",
        f"MATCH (a:Account {{type: 'business'}})-[:HELD_AT]->(:Bank {{bankName: {q(bank2)}}}) RETURN a.accountNumber",
    ),
    (
        f"What is the risk score of {company['name']}?",
        f"MATCH (c:Customer {{name: {q(company['name'])}}}) RETURN c.riskScore",
    ),
    ("Which customers are in the retail segment?", "MATCH (c:Customer {segment: 'retail'}) RETURN c.name"),
    (
        f"When did account {busy['number']} make its first transfer?",
        f"MATCH (:Account {{accountNumber: {q(busy['number'])}}})-[r:TRANSFERRED_TO]->() RETURN min(r.timestamp)",
    ),
    (
        f"Which customers bank with {bank2}?",
        f"MATCH (c:Customer)-[:OWNS]->(:Account)-[:HELD_AT]->(:Bank {{bankName: {q(bank2)}}}) RETURN DISTINCT c.name",
    ),
    (
        "How many accounts are held at banks in Germany?",
        "MATCH (a:Account)-[:HELD_AT]->(:Bank)-[:BASED_IN]->(:Country {name: 'Germany'}) RETURN count(a)",
    ),
    ("Which alerts were raised in 2024?", "MATCH (al:Alert) WHERE al.raisedOn STARTS WITH '2024' RETURN al.alertId"),
    (
        f"Which accounts sent money to accounts owned by {company['name']}?",
        f"MATCH (a:Account)-[:TRANSFERRED_TO]->(:Account)<-[:OWNS]-(:Customer {{name: {q(company['name'])}}}) "
        "RETURN DISTINCT a.accountNumber",
    ),
    (
        "What is the average amount of transfers in USD?",
        "MATCH ()-[r:TRANSFERRED_TO]->() WHERE r.currency = 'USD' RETURN avg(r.amount)",
    ),
    (
        f"How many alerts have been raised on accounts of {multi['name']}?",
        f"MATCH (:Customer {{name: {q(multi['name'])}}})-[:OWNS]->(:Account)<-[:FLAGS]-(al:Alert) RETURN count(al)",
    ),
]
write(HERE, "payments", L, Q)
