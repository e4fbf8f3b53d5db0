"""Issue 14, session 2: can the local LLM name the kind of each relation end (subject/object of each relationship
type) from three sample nodes and their facts? Usage (one heavy job at a time):
    python reports/experiments/issue14/kinds_llm.py var/eval-kg2 metaqa catalog:qwen2.5-coder-0.5b-instruct
Prints, per relationship type and side (a = subject, b = object), the votes of three prompts (README: findings)."""

import asyncio, sys, time
from collections import Counter

sys.path.insert(0, ".")
from pathlib import Path
from app.settings import Settings
from app.container import Container
from app.llm.local import LocalLLM

SHOTS = [
    ("Lima", "capital of: Peru; population: 9,750,000; located in: Lima Province", "city"),
    ("Ada Lovelace", "born in: London; field: mathematics; parent of: Byron King-Noel", "person"),
    ("1912", "founding year of: Fenway Park, Titanic voyage", "year"),
    ("Nestle", "headquartered in: Vevey; industry: food; founded by: Henri Nestle", "company"),
]


async def main():
    s = Settings().model_copy(update={"data_dir": Path(sys.argv[1])})
    c = await Container.start(s, with_llm=False, modes=["vector"])
    ns = sys.argv[2]
    ex = {}
    try:
        rels = [r["t"] for r in await c.graph.read(ns, "MATCH ()-[r]->() RETURN DISTINCT type(r) AS t", max_rows=500)]
        for t in rels:
            for side in ("a", "b"):
                pat = f"(n)-[:`{t}`]->()" if side == "a" else f"()-[:`{t}`]->(n)"
                nodes = await c.graph.read(
                    ns,
                    f"MATCH {pat} WITH DISTINCT n, rand() AS x ORDER BY x LIMIT 3 RETURN coalesce(n.name,n.title) AS name",
                    max_rows=10,
                )
                items = []
                for r in nodes:
                    out = await c.graph.read(
                        ns,
                        "MATCH (n {name:$n})-[r]->(m) RETURN type(r) AS t, m.name AS m LIMIT 4",
                        {"n": r["name"]},
                        max_rows=10,
                    )
                    inn = await c.graph.read(
                        ns,
                        "MATCH (n {name:$n})<-[r]-(m) RETURN type(r) AS t, m.name AS m LIMIT 3",
                        {"n": r["name"]},
                        max_rows=10,
                    )
                    facts = [f"{x['t'].lower().replace('_', ' ')}: {x['m']}" for x in out] + [
                        f"{x['t'].lower().replace('_', ' ')} of: {x['m']}" for x in inn
                    ]
                    items.append((r["name"], "; ".join(facts)))
                ex[(t, side)] = items
    finally:
        await c.close()
    llm = LocalLLM(sys.argv[3], models_dir=Path.home() / ".cache/graphrag-service", threads=2)
    llm.warm_up()
    for (t, side), items in ex.items():
        votes = Counter()
        t1 = time.time()
        for name, facts in items:
            msgs = [
                {"role": "system", "content": "Name the kind of the thing described, with one singular common noun."}
            ]
            for n_, f_, k_ in SHOTS:
                msgs += [{"role": "user", "content": f"{n_} ({f_})"}, {"role": "assistant", "content": k_}]
            msgs += [{"role": "user", "content": f"{name} ({facts})"}]
            g = await llm.generate(msgs, max_new_tokens=5)
            votes[g.text.lower()] += 1
        print(f"{t:20s} {side} {votes.most_common()} {time.time() - t1:.1f}s  e.g. {items[0]}"[:200])


asyncio.run(main())
