"""Movies dev sample: the candidates the LLM would score (the 32 most relevant by the service's relevance: cross-
encoder + constants + mentions), each run against gold (strict / answer level), and the configured LLM's exact
log-prob of each (``python -m app`` settings: GRAPHRAG_LLM__MODEL picks the model; a namespace adapter trained on
that model is used, and then the prompt has no schema, as in the service). Offline analysis: movies_llm_analyse.py.

    python reports/experiments/issue14/movies_llm_choice.py 40 7 var/mchoice_smol.jsonl
    GRAPHRAG_LLM__MODEL=catalog:qwen2.5-coder-0.5b-instruct python reports/experiments/issue14/movies_llm_choice.py 40 7 var/mchoice_qwen.jsonl
"""
import asyncio, sys, json, time, random
sys.path.insert(0, '.')
from pathlib import Path
from app.settings import Settings
from app.container import Container
from app.eval.loaders import load_text2cypher
from app.eval.runner import sample_questions, results_equal, answers_equal
from app.retrievers.text2cypher import build_messages
from app.cypher.shapes import Shape

n, seed, out_file = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
POOL = int(sys.argv[4]) if len(sys.argv) > 4 else 32
NS = 'text2cypher'


async def main():
    s = Settings().model_copy(update={'data_dir': Path('var/eval-movies')})
    c = await Container.start(s, with_llm=True, modes=['text2cypher', 'vector'])
    r = c.retrievers['text2cypher']
    cfg = r.config
    b = load_text2cypher(Path('../shared/data/neo4j_movies_text2cypher'))
    excl = {q.id for q in sample_questions(b, 30, 13)}
    pool_q = [q for q in b.questions if q.id not in excl]
    qs = random.Random(seed).sample(pool_q, n) if seed != 13 else sample_questions(b, 30, 13)
    schema = await r.schema(NS)
    adapter = r.adapter_for(NS)
    print('adapter', adapter, 'tuned', r.tuned_for(NS), flush=True)
    done = {json.loads(l)['id'] for l in open(out_file)} if Path(out_file).exists() else set()
    qs = [q for q in qs if q.id not in done]
    fh = open(out_file, 'a')
    try:
        for q in qs:
            try:
                gold = await c.graph.read(NS, q.meta['cypher'], max_rows=100000)
            except Exception:
                continue
            e = await r.enumerate(NS, q.question)
            rel = [x + cfg.constant_weight * k + cfg.mention_weight * m
                   for x, k, m in zip(e.relevance, e.constants, e.mentions)]
            order = sorted(range(len(e.candidates)), key=lambda i: -rel[i])[:POOL]
            S, A = [], []
            for i in order:
                cq = e.candidates[i]
                try:
                    rows = await c.graph.read(NS, cq.execution_query(), {'limit': 1000}, max_rows=100000)
                except Exception:
                    rows = []
                if not isinstance(cq, Shape):  # what the service answers with (trace.rows): the distinct names
                    rows = [{'name': x} for x in dict.fromkeys(str(w['name']) for w in rows if w.get('name') is not None)]
                S.append(results_equal(rows, gold)); A.append(answers_equal(rows, gold))
            msgs = build_messages(schema, q.question, with_schema=not r.tuned_for(NS))
            t0 = time.time()
            if not order:
                fh.write(json.dumps(dict(id=q.id, q=q.question, gold=q.meta['cypher'], rel=[], ce=[], lp=[], S=[], A=[], texts=[], readings=[], size=[], n=0, t_llm=0.0)) + '\n')
                print('- no candidates |', q.question, flush=True)
                continue
            sc = await r.chooser.choose(msgs, [e.candidates[i].text for i in order], top_m=len(order),
                                        method='exact', adapter=adapter)
            dt = time.time() - t0
            lp = [None] * len(order)
            for x in sc:
                lp[x.index] = x.logprob
            rec = dict(id=q.id, q=q.question, gold=q.meta['cypher'], ngold=len(gold), rel=[rel[i] for i in order], ce=[e.relevance[i] for i in order],
                       lp=lp, S=S, A=A, texts=[e.candidates[i].text for i in order], readings=[e.readings[i] for i in order],
                       size=[e.candidates[i].size for i in order], n=len(e.candidates), t_llm=dt)
            fh.write(json.dumps(rec) + '\n'); fh.flush()
            best = max(range(len(order)), key=lambda j: lp[j] if lp[j] is not None else -1e9)
            print(f"{'S' if any(S) else ('A' if any(A) else '-')} llm1={'S' if S[best] else ('A' if A[best] else '-')} rel1={'S' if S[0] else ('A' if A[0] else '-')} t={dt:.1f}s | {q.question}", flush=True)
    finally:
        await c.close()

asyncio.run(main())
