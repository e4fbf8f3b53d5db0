"""Which return forms and orders of the service's chosen query would equal the gold rows (offline, no LLM).

    python reports/experiments/issue14/form_probe.py DATA_DIR RUN.jsonl OUT.jsonl

For every scored question whose chosen query is a plain list (``RETURN DISTINCT xN[.key AS name] [LIMIT k]``) the
query is rewritten with other RETURN clauses and orders (the node; its display value; with the target's own
properties the WHERE names; with its year; ordered by its year; ...), each run against the graph and compared with
the gold rows as the eval compares them (``results_equal``). Writes one line per question: the variants that match.
"""

import asyncio
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, ".")
from app.container import Container
from app.eval.loaders import load_text2cypher
from app.eval.runner import answers_equal, results_equal
from app.settings import Settings
from app.stores.graph.base import plain_rows

DATA = Path("../shared/data/neo4j_movies_text2cypher")
LIST = re.compile(r"^(?P<body>MATCH .*?) RETURN DISTINCT (?P<var>x\d)(?:\.(?P<key>\w+) AS name)?(?: LIMIT (?P<k>\d+))?$")
DISPLAY = {"Movie": "title", "Person": "name"}


def label_of(body: str, var: str) -> str | None:
    m = re.search(r"\(" + var + r":(\w+)", body)
    return m.group(1) if m else None


async def main() -> None:
    data_dir, run, out = sys.argv[1:]
    bench = load_text2cypher(DATA)
    by_id = {q.id: q for q in bench.questions}
    s = Settings().model_copy(update={"data_dir": Path(data_dir)})
    c = await Container.start(s, with_llm=False, modes=["vector"])
    ns = "text2cypher"
    try:
        # which properties of each label are years (the service's own test: whole numbers 1000-2100)
        with open(out, "w") as f:
            for line in Path(run).read_text().splitlines():
                r = json.loads(line)
                if "metrics" not in r:
                    continue
                q = by_id[r["id"]]
                m = LIST.match(r["query"] or "")
                if not m:
                    continue
                body, var, k = m["body"], m["var"], m["k"]
                lab = label_of(body, var)
                disp = DISPLAY.get(lab or "", "name")
                conds = sorted(set(re.findall(var + r"\.(\w+)", body.split(" WHERE ", 1)[1]))) if " WHERE " in body else []
                others = [v for v in re.findall(r"\((x\d)", body) if v != var]
                lim = f" LIMIT {k}" if k else ""
                year = "released" if lab == "Movie" else ("born" if lab == "Person" else None)
                variants = {
                    "node": f"RETURN DISTINCT {var}",
                    "disp": f"RETURN DISTINCT {var}.{disp} AS name",
                    "disp+cond": f"RETURN DISTINCT {var}.{disp} AS name" + "".join(f", {var}.{p} AS {p}" for p in conds if p != disp),
                    "disp+year": f"RETURN DISTINCT {var}.{disp} AS name, {var}.{year} AS y" if year else None,
                    "disp+cond+year": f"RETURN DISTINCT {var}.{disp} AS name" + "".join(f", {var}.{p} AS {p}" for p in sorted(set(conds) | {year}) if p != disp) if year else None,
                    "disp+other": f"RETURN DISTINCT {var}.{disp} AS name" + "".join(f", {o}.{DISPLAY.get(label_of(body, o) or '', 'name')} AS o{o}" for o in others),
                    "node+other": f"RETURN DISTINCT {var}" + "".join(f", {o}" for o in others),
                    "disp(nodistinct)": f"RETURN {var}.{disp} AS name",
                    "node(nodistinct)": f"RETURN {var}",
                }
                res = {}
                gold = await c.graph.read(ns, q.meta["cypher"], max_rows=100_000)
                for name, ret in variants.items():
                    if ret is None:
                        continue
                    for order in ("", "ASC", "DESC"):
                        if order and (not k or not year):
                            continue
                        tail = f" ORDER BY {var}.{year} {order}" if order else ""
                        text = f"{body} {ret}{tail}{lim}"
                        try:
                            rows = plain_rows(await c.graph.read(ns, text, max_rows=100_000))
                        except Exception as exc:  # noqa: BLE001
                            res[name + (":" + order if order else "")] = f"error {exc}"
                            continue
                        key = name + (":" + order if order else "")
                        res[key] = "strict" if results_equal(rows, gold) else ("answer" if answers_equal(rows, gold) else "")
                rec = {"id": r["id"], "q": q.question, "ours": r["query"], "gold": " ".join(q.meta["cypher"].split()),
                       "e": r["metrics"]["execution_accuracy"], "a": r["metrics"]["answer_accuracy"],
                       "label": lab, "conds": conds, "k": k, "match": [n for n, v in res.items() if v == "strict"]}
                f.write(json.dumps(rec) + "\n")
    finally:
        await c.close()


asyncio.run(main())
