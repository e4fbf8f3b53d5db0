"""Ask questions of a namespace in text2cypher mode, in process, and print the chosen query, its first rows and
the top-ranked candidates with their scores and readings. Usage:

    python reports/experiments/issue14/probe.py DATA_DIR NAMESPACE "question" ["question" ...]   # or questions on stdin
    LLM=1 ...   # load the LLM (combined scoring when the namespace has a tuned adapter); default: relevance alone

Run with GRAPHRAG_MODES__TEXT2CYPHER__SCORING=relevance to force relevance alone."""

import asyncio
import os
import sys
from pathlib import Path

sys.path.insert(0, ".")
from app.container import Container
from app.retrievers.types import RetrievalQuery
from app.settings import Settings


async def main() -> None:
    data_dir, ns, *qs = sys.argv[1:]
    s = Settings().model_copy(update={"data_dir": Path(data_dir)})
    c = await Container.start(s, with_llm=os.environ.get("LLM") == "1", modes=["text2cypher", "vector"])
    r = c.retrievers["text2cypher"]
    try:
        for q in qs or [line.strip() for line in sys.stdin if line.strip()]:
            t = (await r.retrieve(RetrievalQuery(question=q, namespace=ns, top_k=5))).trace
            print("Q:", q)
            print("  ->", t.query)
            print("  rows:", str(t.rows[:4])[:300])
            for rq in t.ranked:
                print(f"     {rq.score:7.3f} rel={rq.relevance} lp={rq.logprob} {rq.reading[:110]}")
    finally:
        await c.close()


asyncio.run(main())
