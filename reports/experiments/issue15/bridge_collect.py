"""Iterative retrieval experiment: round 1 = hybrid learned (model trained on the other corpus); round 2 = dense
search with question + each of the top-M passages."""

import asyncio, json, sys, time
from pathlib import Path
import numpy as np
from app.cli import _settings
from app.container import Container
from app.eval.loaders import load_benchmark
from app.retrievers.base import RunContext
from app.retrievers.hybrid import HybridTrace
from app.retrievers.types import RetrievalQuery
from app.stores.vector.base import collection_name
from app.models.fusion import FusionModel

M = 3


async def main(ds, other):
    s = _settings(Path("var/eval-h15"))
    c = await Container.start(s, with_llm=False)
    model = FusionModel.load(Path(f"app/retrievers/fusion/{other}.json"))
    out = []
    try:
        h = c.retrievers.get_mode("hybrid")
        b = load_benchmark(ds, Path(f"../shared/data/{ds}_hipporag100"))
        for q in b.questions:
            ctx = RunContext(mode="hybrid", trace=HybridTrace())
            p, f = await h.candidates(RetrievalQuery(question=q.question, namespace=ds), ctx)
            ids = list(f)
            sc = model.score([f[i] for i in ids])
            order = [ids[i] for i in np.argsort(-sc)]
            r1 = [
                {"id": i, "title": p[i]["title"], "score": float(sc[ids.index(i)]), "vector": f[i].get("vector")}
                for i in order[:40]
            ]
            seeds = order[:M]
            texts = [q.question + " " + p[i]["title"] + ". " + p[i]["text"] for i in seeds]
            t0 = time.perf_counter()
            vecs = await c.embedder.embed([c.embedder.query_instruction + t for t in texts])
            r2 = []
            for v in vecs:
                hits = await c.vectors.search(collection_name(ds, "chunks"), v, top_k=20)
                r2.append([{"id": x.id, "title": x.payload["title"], "score": x.score} for x in hits])
            out.append(
                {
                    "id": q.id,
                    "support": q.support,
                    "r1": r1,
                    "r2": r2,
                    "ms2": 1000 * (time.perf_counter() - t0),
                    "texts": [p[i]["text"] for i in seeds],
                }
            )
    finally:
        await c.close()
    Path(f"var/issue15-it/{ds}.json").write_text(json.dumps(out))


asyncio.run(main(sys.argv[1], sys.argv[2]))
