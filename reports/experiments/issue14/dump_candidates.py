"""Per question: every text2cypher candidate with relevance (CE), LLM logprob (exact, all candidates), answers."""

import asyncio, sys, json, time

sys.path.insert(0, ".")
from pathlib import Path
from app.settings import Settings
from app.container import Container
from app.eval.loaders import load_benchmark
from app.eval.runner import sample_questions
from app.retrievers.text2cypher import build_messages

ds, path, data_dir, ns, limit, out_file = sys.argv[1:7]
LLM = len(sys.argv) <= 7 or sys.argv[7] != "nollm"


async def main():
    bench = load_benchmark(ds, Path(path))
    qs = sample_questions(bench, int(limit), 13)
    s = Settings().model_copy(update={"data_dir": Path(data_dir)})
    c = await Container.start(s, with_llm=LLM, modes=["text2cypher", "vector"])
    r = c.retrievers["text2cypher"]
    done = set()
    if Path(out_file).exists():
        done = {json.loads(l)["id"] for l in open(out_file)}
    fh = open(out_file, "a")
    try:
        schema = await r.schema(ns)
        for q in qs:
            if q.id in done:
                continue
            t0 = time.time()
            e = await r.enumerate(ns, q.question)
            t1 = time.time()
            lps = None
            if LLM and e.candidates:
                msgs = build_messages(schema, q.question, with_schema=not r.tuned_for(ns))
                pool = sorted(range(len(e.candidates)), key=lambda i: -e.relevance[i])[:32]
                sc = await r.chooser.choose(
                    msgs,
                    [e.candidates[i].text for i in pool],
                    top_m=len(pool),
                    method="exact",
                    adapter=r.adapter_for(ns),
                )
                lps = [None] * len(e.candidates)
                for x in sc:
                    lps[pool[x.index]] = x.logprob
            t2 = time.time()
            ans = []
            top32 = set(sorted(range(len(e.candidates)), key=lambda i: -e.relevance[i])[:32])
            for j, cq in enumerate(e.candidates):
                if j not in top32:
                    ans.append([])
                    continue
                rows = await c.graph.read(ns, cq.execution_query(), {"limit": 50})
                ans.append(list(dict.fromkeys(str(x["name"]) for x in rows if x.get("name") is not None))[:20])
            fh.write(
                json.dumps(
                    dict(
                        id=q.id,
                        q=q.question,
                        hops=q.meta.get("hops"),
                        qtype=q.qtype,
                        gold=q.answers,
                        links=[l.name for l in e.links],
                        texts=[x.text for x in e.candidates],
                        nh=[len(x.hops) for x in e.candidates],
                        readings=e.readings,
                        rel=e.relevance,
                        lp=lps,
                        ans=ans,
                        t_enum=t1 - t0,
                        t_llm=t2 - t1,
                        unext=e.unextended,
                    )
                )
                + "\n"
            )
            fh.flush()
    finally:
        await c.close()


asyncio.run(main())
