"""Most/fewest rankings (``WITH xN, count(DISTINCT xM) AS number ORDER BY number ... LIMIT k RETURN xN.key AS name,
number``): would another grouping of the same ranking equal the gold rows? Ties at the limit are broken by the
engine's row order, which the grouping key decides (offline, no LLM).

    python reports/experiments/issue14/group_probe.py DATA_DIR RUN.jsonl
"""

import asyncio
import collections
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, ".")
from app.container import Container
from app.eval.loaders import load_text2cypher
from app.eval.runner import results_equal
from app.settings import Settings
from app.stores.graph.base import plain_rows

DATA = Path("../shared/data/neo4j_movies_text2cypher")
GROUP = re.compile(
    r"^(?P<body>MATCH .*?) WITH (?P<v>x\d), count\(DISTINCT (?P<c>[\w.]+)\) AS number(?P<having> WHERE number [^ ]+ \d+)?"
    r"(?: ORDER BY number (?P<dir>ASC|DESC))?(?: LIMIT (?P<k>\d+))? RETURN (?P=v)\.(?P<key>\w+) AS name, number(?: LIMIT (?P<k2>\d+))?$"
)


async def main() -> None:
    data_dir, run = sys.argv[1:]
    bench = load_text2cypher(DATA)
    by_id = {q.id: q for q in bench.questions}
    c = await Container.start(Settings().model_copy(update={"data_dir": Path(data_dir)}), with_llm=False, modes=["vector"])
    tally: collections.Counter = collections.Counter()
    n = 0
    try:
        for line in Path(run).read_text().splitlines():
            r = json.loads(line)
            m = GROUP.match(r.get("query") or "") if "metrics" in r else None
            if not m:
                continue
            n += 1
            q = by_id[r["id"]]
            gold = await c.graph.read("text2cypher", q.meta["cypher"], max_rows=100_000)
            b, v, cnt, key = m["body"], m["v"], m["c"], m["key"]
            having = m["having"] or ""
            order = f" ORDER BY number {m['dir']}" if m["dir"] else ""
            lim = f" LIMIT {m['k'] or m['k2']}" if (m["k"] or m["k2"]) else ""
            variants = {
                "node": r["query"],
                "name": f"{b} WITH {v}.{key} AS name, count(DISTINCT {cnt}) AS number{having}{order}{lim} RETURN name, number",
                "node-nodistinct": f"{b} WITH {v}, count({cnt}) AS number{having}{order}{lim} RETURN {v}.{key} AS name, number",
                "return-name": f"{b} WITH {v}.{key} AS name, count({cnt}) AS number{having} RETURN name, number{order}{lim}",
                "return-node": f"{b} WITH {v}, count(DISTINCT {cnt}) AS number{having} RETURN {v}.{key} AS name, number{order}{lim}",
            }
            hits = []
            for name, text in variants.items():
                try:
                    rows = plain_rows(await c.graph.read("text2cypher", text, max_rows=100_000))
                except Exception as exc:  # noqa: BLE001
                    print("ERR", name, exc)
                    continue
                if results_equal(rows, gold):
                    hits.append(name)
                    tally[name] += 1
            print(r["id"], int(r["metrics"]["execution_accuracy"]), " ".join(hits), "|", q.question[:80])
    finally:
        await c.close()
    print(n, dict(tally))


asyncio.run(main())
