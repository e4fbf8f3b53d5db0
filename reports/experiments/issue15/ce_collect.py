"""CE scores of the top-12 first-stage candidates (learned model trained on the other corpus), per question."""

import asyncio
import json
import sys
import time
from pathlib import Path

import numpy as np

from app.cli import _settings
from app.container import Container
from app.eval.loaders import load_benchmark
from app.retrievers.base import RunContext
from app.retrievers.hybrid import HybridTrace
from app.retrievers.types import RetrievalQuery
from app.training.fusion import _load, train


def newest(name):
    """The newest candidate-signal cache that `python -m app fusion --data-dir var/eval-h15` wrote for a corpus."""
    return max(Path("var/eval-h15/fusion").glob(f"{name}-*.jsonl"), key=lambda p: p.stat().st_mtime)


N = 12


async def main(ds, other, threads, maxlen):
    s = _settings(Path("var/eval-h15"))
    s.reranker.threads = threads
    s.reranker.max_length = maxlen
    c = await Container.start(s, with_llm=False)
    model, _ = train(list(_load(newest(other)).values()))
    out = []
    try:
        h = c.retrievers.get_mode("hybrid")
        b = load_benchmark(ds, Path(f"../shared/data/{ds}_hipporag100"))
        times = []
        for q in b.questions:
            ctx = RunContext(mode="hybrid", trace=HybridTrace())
            p, f = await h.candidates(RetrievalQuery(question=q.question, namespace=ds), ctx)
            ids = list(f)
            sc = model.score([f[i] for i in ids])
            top = [ids[i] for i in np.argsort(-sc)[:N]]
            t0 = time.perf_counter()
            ce = await c.reranker.score(q.question, [p[i]["text"] for i in top])
            times.append(1000 * (time.perf_counter() - t0))
            out.append(
                {
                    "id": q.id,
                    "support": q.support,
                    "titles": [p[i]["title"] for i in ids],
                    "feats": [f[i] for i in ids],
                    "ce": {str(ids.index(t)): float(x) for t, x in zip(top, ce)},
                }
            )
        print(ds, threads, maxlen, "CE ms for 12: p50", np.percentile(times, 50))
    finally:
        await c.close()
    Path(f"var/ce-{ds}-{threads}-{maxlen}.json").write_text(json.dumps(out))


ds, other, threads, maxlen = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
asyncio.run(main(ds, other, threads, maxlen))
