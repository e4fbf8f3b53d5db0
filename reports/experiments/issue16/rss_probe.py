"""RSS of the service process (in-process container, demo data in var/demo from make demo) while 32 retrievals of
one mode run at once, three rounds: python reports/experiments/issue16/rss_probe.py text2cypher [rounds]."""

import asyncio, json, os, sys, time
from pathlib import Path
from app.container import Container
from app.schemas import RetrieveRequest
from app.settings import Settings


def rss():
    for line in open(f"/proc/{os.getpid()}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) // 1024


async def main():
    s = Settings().model_copy(update={"data_dir": Path("var/demo")})
    c = await Container.start(s)
    qs = [json.loads(l) for l in open("data/demo/questions.jsonl")]
    print("start", rss(), flush=True)
    mode = sys.argv[1]
    for rnd in range(int(sys.argv[2]) if len(sys.argv) > 2 else 3):
        t = time.perf_counter()

        async def one(q):
            try:
                await c.qa.retrieve(RetrieveRequest(question=q["question"], namespace="demo", mode=mode, cache=False))
                return 200
            except Exception as e:
                return type(e).__name__

        out = await asyncio.gather(*(one(q) for q in (qs + qs)[:32]))
        print(rnd, rss(), f"{time.perf_counter() - t:.1f}s", {x: out.count(x) for x in set(out)}, flush=True)
    await c.close()


asyncio.run(main())
