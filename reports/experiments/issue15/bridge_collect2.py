import asyncio, json, re, sys, time
from pathlib import Path
import numpy as np
from app.cli import _settings
from app.container import Container
from app.stores.vector.base import collection_name
from app.eval.loaders import load_benchmark

SPAN = re.compile(r"\b(?:[A-Z0-9][\w'’.-]*)(?:\s+(?:of|the|de|and|von|van|la|du|del|for)?\s*[A-Z0-9][\w'’.-]*)*")


def spans(text, question, title):
    ql = question.lower()
    out = []
    for m in SPAN.finditer(text):
        s = m.group(0).strip(" .")
        if len(s) < 3 or s.lower() in ql or s == title or s in out:
            continue
        if all(w.lower() in ql for w in s.split()):
            continue
        out.append(s)
    return out


async def main(ds):
    c = await Container.start(_settings(Path("var/eval-h15")), with_llm=False)
    D = json.load(open(f"var/issue15-it/{ds}.json"))
    b = load_benchmark(ds, Path(f"../shared/data/{ds}_hipporag100"))
    Qs = {q.id: q.question for q in b.questions}
    try:
        times = []
        for q in D:
            qq = Qs[q["id"]]
            queries = []
            for i, t in enumerate(q["texts"]):
                for e in spans(t, qq, q["r1"][i]["title"])[:8]:
                    queries.append((i, e))
            t0 = time.perf_counter()
            vecs = (
                await c.embedder.embed([c.embedder.query_instruction + qq + " " + e for _, e in queries])
                if queries
                else []
            )
            res = []
            for (i, e), v in zip(queries, vecs):
                hits = await c.vectors.search(collection_name(ds, "chunks"), v, top_k=10)
                res.append({"seed": i, "e": e, "hits": [{"title": h.payload["title"], "score": h.score} for h in hits]})
            times.append(1000 * (time.perf_counter() - t0))
            q["r3"] = res
        print(ds, "p50 ms", np.percentile(times, 50), "mean queries", np.mean([len(q["r3"]) for q in D]))
    finally:
        await c.close()
    json.dump(D, open(f"var/issue15-it/{ds}-2.json", "w"))


asyncio.run(main(sys.argv[1]))
