"""A small software-package registry graph of a schema none of the service's code was written against (session 55):
packages by ``slug`` with ``weeklyDownloads``, a boolean ``deprecated``, a list of ``keywords`` and a
``firstPublished`` date as text; releases by ``tag`` ("slug@1.2.0") with a ``version``, a ``publishedAt`` ISO
date-time with a zone and a ``sizeKb`` (float); maintainers by ``login`` with a ``location``; organisations by
``orgName``; licences by ``spdx`` with a boolean ``osiApproved``; vulnerabilities by ``cveId`` with a lower-case
``severity`` and a ``cvss`` score. Packages ``DEPENDS_ON`` other packages (a version ``range`` and a boolean ``dev``),
are ``LICENSED_UNDER`` a licence and ``HAS_RELEASE`` releases; maintainers ``MAINTAINS`` packages (``since``, a
year), ``PUBLISHED`` releases, ``STARRED`` packages and are ``MEMBER_OF`` organisations; vulnerabilities ``AFFECTS``
releases. 45 questions with gold Cypher written by hand before the service was run on it (reports/summary.md,
session 55).

``python data/registry/make.py`` writes ``registry.cypher`` and ``questions.jsonl`` here (``make eval-own``). The
project's own data, not a public benchmark."""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from own_graph import q, write  # noqa: E402

HERE = Path(__file__).resolve().parent
rng = random.Random(551)

LICENSES = [("MIT", True), ("Apache-2.0", True), ("BSD-3-Clause", True), ("GPL-3.0-only", True), ("SSPL-1.0", False)]
ORGS = ["Nimbus Labs", "Quillwork", "Open Harbor Foundation", "Tessellate"]
CITIES = ["Berlin", "Lisbon", "Toronto", "Osaka", "Nairobi"]
KEYWORDS = ["http", "cli", "parser", "testing", "async", "logging", "crypto", "date"]
PREFIX = "tiny fast micro hyper neat swift plain sober".split()
STEM = "router lexer logger fetch queue cache schema clock hasher prompt mocker retry".split()

L: list[str] = []
for spdx, osi in LICENSES:
    L.append(f"CREATE (:License {{spdx: {q(spdx)}, osiApproved: {'true' if osi else 'false'}}});")
for org in ORGS:
    L.append(f"CREATE (:Org {{orgName: {q(org)}}});")

packages = []
used: set[str] = set()
for i in range(30):
    while True:
        slug = f"{rng.choice(PREFIX)}-{rng.choice(STEM)}"
        if slug not in used:
            break
    used.add(slug)
    p = dict(
        slug=slug, downloads=rng.choice([rng.randint(50, 5000), rng.randint(5000, 90000), rng.randint(90000, 2500000)]),
        deprecated=rng.random() < 0.15, keywords=sorted(rng.sample(KEYWORDS, rng.randint(1, 3))),
        first=f"{rng.randint(2013, 2023)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
        license=rng.choice([x[0] for x in LICENSES[:3]] * 3 + [x[0] for x in LICENSES[3:]]),
    )  # fmt: skip
    packages.append(p)
    kw = "[" + ", ".join(q(k) for k in p["keywords"]) + "]"
    L.append(
        f"CREATE (:Package {{slug: {q(slug)}, weeklyDownloads: {p['downloads']}, "
        f"deprecated: {'true' if p['deprecated'] else 'false'}, keywords: {kw}, firstPublished: {q(p['first'])}}});"
    )
    L.append(
        f"MATCH (p:Package {{slug: {q(slug)}}}), (l:License {{spdx: {q(p['license'])}}}) CREATE (p)-[:LICENSED_UNDER]->(l);"
    )
deps = []
for i, p in enumerate(packages):
    for d in rng.sample(packages[:i], min(i, rng.randint(0, 3))):
        dep = dict(src=p["slug"], dst=d["slug"], range=f"^{rng.randint(0, 4)}.{rng.randint(0, 9)}.0", dev=rng.random() < 0.3)
        deps.append(dep)
        L.append(
            f"MATCH (a:Package {{slug: {q(p['slug'])}}}), (b:Package {{slug: {q(d['slug'])}}}) "
            f"CREATE (a)-[:DEPENDS_ON {{range: {q(dep['range'])}, dev: {'true' if dep['dev'] else 'false'}}}]->(b);"
        )
maintainers = []
for i in range(18):
    m = dict(
        login=f"{rng.choice(['octo', 'byte', 'lambda', 'pixel', 'null', 'kern'])}-{rng.choice(['kat', 'wolf', 'moth', 'finch', 'crab'])}{i}",
        city=rng.choice(CITIES), org=rng.choice(ORGS + [None]),
    )  # fmt: skip
    maintainers.append(m)
    L.append(f"CREATE (:Maintainer {{login: {q(m['login'])}, location: {q(m['city'])}}});")
    if m["org"]:
        L.append(
            f"MATCH (m:Maintainer {{login: {q(m['login'])}}}), (o:Org {{orgName: {q(m['org'])}}}) CREATE (m)-[:MEMBER_OF]->(o);"
        )
maint = []
for p in packages:
    for m in rng.sample(maintainers, rng.randint(1, 2)):
        since = rng.randint(int(p["first"][:4]), 2024)
        maint.append((m["login"], p["slug"], since))
        L.append(
            f"MATCH (m:Maintainer {{login: {q(m['login'])}}}), (p:Package {{slug: {q(p['slug'])}}}) "
            f"CREATE (m)-[:MAINTAINS {{since: {since}}}]->(p);"
        )
stars = set()
for _ in range(60):
    m, p = rng.choice(maintainers), rng.choice(packages)
    if (m["login"], p["slug"]) not in stars:
        stars.add((m["login"], p["slug"]))
        L.append(
            f"MATCH (m:Maintainer {{login: {q(m['login'])}}}), (p:Package {{slug: {q(p['slug'])}}}) CREATE (m)-[:STARRED]->(p);"
        )
releases = []
for p in packages:
    owners = [m for m, s, _ in maint if s == p["slug"]]
    year = int(p["first"][:4])
    for k in range(rng.randint(1, 4)):
        version = f"{k + 1}.{rng.randint(0, 5)}.{rng.randint(0, 9)}"
        year = min(2024, year + rng.randint(0, 2))
        r = dict(
            tag=f"{p['slug']}@{version}", version=version, pkg=p["slug"], by=rng.choice(owners),
            at=f"{year}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:00Z",
            size=round(rng.uniform(4, 900), 1),
        )  # fmt: skip
        releases.append(r)
        L.append(
            f"CREATE (:Release {{tag: {q(r['tag'])}, version: {q(version)}, publishedAt: {q(r['at'])}, sizeKb: {r['size']}}});"
        )
        L.append(
            f"MATCH (p:Package {{slug: {q(p['slug'])}}}), (r:Release {{tag: {q(r['tag'])}}}) CREATE (p)-[:HAS_RELEASE]->(r);"
        )
        L.append(
            f"MATCH (m:Maintainer {{login: {q(r['by'])}}}), (r:Release {{tag: {q(r['tag'])}}}) CREATE (m)-[:PUBLISHED]->(r);"
        )
vulns = []
for i in range(12):
    v = dict(
        cve=f"CVE-{rng.randint(2019, 2024)}-{rng.randint(1000, 49999)}",
        severity=["medium", "high", "low", "critical", "medium"][i % 5], cvss=round(rng.uniform(2.0, 9.9), 1),
        hits=rng.sample(releases, rng.randint(1, 3)),
    )  # fmt: skip
    vulns.append(v)
    L.append(f"CREATE (:Vulnerability {{cveId: {q(v['cve'])}, severity: {q(v['severity'])}, cvss: {v['cvss']}}});")
    for r in v["hits"]:
        L.append(
            f"MATCH (v:Vulnerability {{cveId: {q(v['cve'])}}}), (r:Release {{tag: {q(r['tag'])}}}) CREATE (v)-[:AFFECTS]->(r);"
        )

# the constants the questions name, picked from what was made
dependents = {p["slug"]: sum(1 for d in deps if d["dst"] == p["slug"]) for p in packages}
core = max(packages, key=lambda p: dependents[p["slug"]])["slug"]
needy = max(packages, key=lambda p: sum(1 for d in deps if d["src"] == p["slug"]))["slug"]
devy = next(d["src"] for d in deps if d["dev"])
busy = max(maintainers, key=lambda m: sum(1 for x in maint if x[0] == m["login"]))["login"]
many = max(packages, key=lambda p: sum(1 for r in releases if r["pkg"] == p["slug"]))["slug"]
pair = next(x for x in maint if x[1] == many)
rel = releases[7]
vuln = next(v for v in vulns if len(v["hits"]) > 1)
joined = next(m for m in maintainers if m["org"])
starred = max(packages, key=lambda p: sum(1 for s in stars if s[1] == p["slug"]))["slug"]
dep_pair = next(d for d in deps if d["src"] == needy)

Q = [
    ("How many packages are there?", "MATCH (p:Package) RETURN count(p)"),
    ("Which packages are deprecated?", "MATCH (p:Package) WHERE p.deprecated = true RETURN p.slug"),
    (f"Which packages depend on {core}?", f"MATCH (p:Package)-[:DEPENDS_ON]->(:Package {{slug: {q(core)}}}) RETURN p.slug"),
    (f"What does {needy} depend on?", f"MATCH (:Package {{slug: {q(needy)}}})-[:DEPENDS_ON]->(d:Package) RETURN d.slug"),
    (f"Who maintains {many}?", f"MATCH (m:Maintainer)-[:MAINTAINS]->(:Package {{slug: {q(many)}}}) RETURN m.login"),
    (f"Which packages does {busy} maintain?", f"MATCH (:Maintainer {{login: {q(busy)}}})-[:MAINTAINS]->(p:Package) RETURN p.slug"),
    (f"What license does {core} use?", f"MATCH (:Package {{slug: {q(core)}}})-[:LICENSED_UNDER]->(l:License) RETURN l.spdx"),
    (
        "How many packages are licensed under MIT?",
        "MATCH (p:Package)-[:LICENSED_UNDER]->(:License {spdx: 'MIT'}) RETURN count(p)",
    ),
    (
        "Which package has the most weekly downloads?",
        "MATCH (p:Package) RETURN p.slug ORDER BY p.weeklyDownloads DESC LIMIT 1",
    ),
    (
        "List the top 5 packages by weekly downloads.",
        "MATCH (p:Package) RETURN p.slug ORDER BY p.weeklyDownloads DESC LIMIT 5",
    ),
    (
        "Which packages have more than 100000 weekly downloads?",
        "MATCH (p:Package) WHERE p.weeklyDownloads > 100000 RETURN p.slug",
    ),
    (
        f"What is the latest release of {many}?",
        f"MATCH (:Package {{slug: {q(many)}}})-[:HAS_RELEASE]->(r:Release) RETURN r.tag ORDER BY r.publishedAt DESC LIMIT 1",
    ),
    (
        f"How many releases does {many} have?",
        f"MATCH (:Package {{slug: {q(many)}}})-[:HAS_RELEASE]->(r:Release) RETURN count(r)",
    ),
    (
        "Which releases were published in 2023?",
        "MATCH (r:Release) WHERE r.publishedAt STARTS WITH '2023' RETURN r.tag",
    ),
    ("Which vulnerabilities are critical?", "MATCH (v:Vulnerability {severity: 'critical'}) RETURN v.cveId"),
    (
        f"Which releases are affected by {vuln['cve']}?",
        f"MATCH (:Vulnerability {{cveId: {q(vuln['cve'])}}})-[:AFFECTS]->(r:Release) RETURN r.tag",
    ),
    (
        "Which packages have a release affected by a critical vulnerability?",
        "MATCH (p:Package)-[:HAS_RELEASE]->(:Release)<-[:AFFECTS]-(:Vulnerability {severity: 'critical'}) "
        "RETURN DISTINCT p.slug",
    ),
    (f"What is the CVSS score of {vuln['cve']}?", f"MATCH (v:Vulnerability {{cveId: {q(vuln['cve'])}}}) RETURN v.cvss"),
    ("Which maintainers are located in Berlin?", "MATCH (m:Maintainer {location: 'Berlin'}) RETURN m.login"),
    (
        f"Which organization is {joined['login']} a member of?",
        f"MATCH (:Maintainer {{login: {q(joined['login'])}}})-[:MEMBER_OF]->(o:Org) RETURN o.orgName",
    ),
    (
        "How many members does Quillwork have?",
        "MATCH (m:Maintainer)-[:MEMBER_OF]->(:Org {orgName: 'Quillwork'}) RETURN count(m)",
    ),
    (
        "Which package has the most dependents?",
        "MATCH (d:Package)-[:DEPENDS_ON]->(p:Package) RETURN p.slug, count(d) AS n ORDER BY n DESC LIMIT 1",
    ),
    (
        f"Which packages are dev dependencies of {devy}?",
        f"MATCH (:Package {{slug: {q(devy)}}})-[:DEPENDS_ON {{dev: true}}]->(d:Package) RETURN d.slug",
    ),
    ("Which packages have the keyword parser?", "MATCH (p:Package) WHERE 'parser' IN p.keywords RETURN p.slug"),
    ("Which licenses are OSI approved?", "MATCH (l:License) WHERE l.osiApproved = true RETURN l.spdx"),
    (f"Who published {rel['tag']}?", f"MATCH (m:Maintainer)-[:PUBLISHED]->(:Release {{tag: {q(rel['tag'])}}}) RETURN m.login"),
    (f"What is the size of {rel['tag']} in KB?", f"MATCH (r:Release {{tag: {q(rel['tag'])}}}) RETURN r.sizeKb"),
    (
        f"What is the average size of the releases of {many}?",
        f"MATCH (:Package {{slug: {q(many)}}})-[:HAS_RELEASE]->(r:Release) RETURN avg(r.sizeKb)",
    ),
    (
        f"Which maintainers starred {starred}?",
        f"MATCH (m:Maintainer)-[:STARRED]->(:Package {{slug: {q(starred)}}}) RETURN m.login",
    ),
    (
        f"How many stars does {starred} have?",
        f"MATCH (:Maintainer)-[s:STARRED]->(:Package {{slug: {q(starred)}}}) RETURN count(s)",
    ),
    ("Which packages has nobody starred?", "MATCH (p:Package) WHERE NOT ()-[:STARRED]->(p) RETURN p.slug"),
    (
        f"Since when has {pair[0]} maintained {pair[1]}?",
        f"MATCH (:Maintainer {{login: {q(pair[0])}}})-[m:MAINTAINS]->(:Package {{slug: {q(pair[1])}}}) RETURN m.since",
    ),
    (
        "Which packages were first published before 2016?",
        "MATCH (p:Package) WHERE p.firstPublished < '2016' RETURN p.slug",
    ),
    (
        "How many packages does each license have?",
        "MATCH (p:Package)-[:LICENSED_UNDER]->(l:License) RETURN l.spdx, count(p)",
    ),
    (
        "Which maintainer maintains the most packages?",
        "MATCH (m:Maintainer)-[:MAINTAINS]->(p:Package) RETURN m.login, count(p) AS n ORDER BY n DESC LIMIT 1",
    ),
    (
        f"Which version range of {dep_pair['dst']} does {needy} require?",
        f"MATCH (:Package {{slug: {q(needy)}}})-[d:DEPENDS_ON]->(:Package {{slug: {q(dep_pair['dst'])}}}) RETURN d.range",
    ),
    (
        f"How many vulnerabilities affect releases of {vuln['hits'][0]['pkg']}?",
        f"MATCH (:Package {{slug: {q(vuln['hits'][0]['pkg'])}}})-[:HAS_RELEASE]->(:Release)<-[:AFFECTS]-(v:Vulnerability) "
        "RETURN count(DISTINCT v)",
    ),
    (
        f"List the releases of {many} published after 2018.",
        f"MATCH (:Package {{slug: {q(many)}}})-[:HAS_RELEASE]->(r:Release) WHERE r.publishedAt >= '2019' RETURN r.tag",
    ),
    ("What is the highest CVSS score?", "MATCH (v:Vulnerability) RETURN max(v.cvss)"),
    (
        f"Which deprecated packages depend on {core}?",
        f"MATCH (p:Package {{deprecated: true}})-[:DEPENDS_ON]->(:Package {{slug: {q(core)}}}) RETURN p.slug",
    ),
    (
        f"Which maintainers published releases of {many}?",
        f"MATCH (m:Maintainer)-[:PUBLISHED]->(:Release)<-[:HAS_RELEASE]-(:Package {{slug: {q(many)}}}) RETURN DISTINCT m.login",
    ),
    (
        f"Which packages depend on packages maintained by {busy}?",
        f"MATCH (p:Package)-[:DEPENDS_ON]->(:Package)<-[:MAINTAINS]-(:Maintainer {{login: {q(busy)}}}) RETURN DISTINCT p.slug",
    ),
    (
        "Which packages are licensed under a license that is not OSI approved?",
        "MATCH (p:Package)-[:LICENSED_UNDER]->(l:License) WHERE l.osiApproved = false RETURN p.slug",
    ),
    (
        "How many maintainers are in each location?",
        "MATCH (m:Maintainer) RETURN m.location, count(m)",
    ),
    (
        "What is the average CVSS score of high severity vulnerabilities?",
        "MATCH (v:Vulnerability {severity: 'high'}) RETURN avg(v.cvss)",
    ),
]
write(HERE, "registry", L, Q)
