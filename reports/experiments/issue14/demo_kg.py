"""The demo KG questions in text2cypher mode, in process, with the LLM loaded (a namespace adapter made by
`python -m app tune --namespace demo --data-dir var/demo` is used when present). Usage:
    python reports/experiments/issue14/demo_kg.py var/demo
Prints per question: hit, top node, query, decoding (exact = the LLM scored: combined), ms; then hits/total."""

import asyncio, sys, json

sys.path.insert(0, ".")
from pathlib import Path
from app.settings import Settings
from app.container import Container
from app.retrievers.types import RetrievalQuery


async def main():
    s = Settings().model_copy(update={"data_dir": Path(sys.argv[1] if len(sys.argv) > 1 else "var/demo")})
    c = await Container.start(s, with_llm=True, modes=["text2cypher", "vector"])
    r = c.retrievers["text2cypher"]
    ok = 0
    n = 0
    try:
        for l in open("data/demo/questions.jsonl"):
            q = json.loads(l)
            if not q["kind"].startswith("kg"):
                continue
            n += 1
            res = await r.retrieve(RetrievalQuery(question=q["question"], namespace="demo", top_k=5))
            top = res.items[0].node.name if res.items else None
            ok += top in q["answers"]
            print(q["id"], top in q["answers"], top, res.trace.query, res.trace.decoding, res.timings_ms.get("total"))
    finally:
        await c.close()
    print(f"{ok}/{n}")


asyncio.run(main())
