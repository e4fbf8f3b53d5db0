"""Per movies question: gold result, every candidate executed; is any candidate right (strict / answer), at what
relevance rank. Relevance only (no LLM)."""
import asyncio, sys, json, time
sys.path.insert(0, '.')
from pathlib import Path
from app.settings import Settings
from app.container import Container
from app.eval.loaders import load_text2cypher
from app.eval.runner import sample_questions, results_equal, answers_equal
from app.retrievers.shapes import mentions, schema_terms
n, seed, out_file = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
async def main():
    s = Settings().model_copy(update={'data_dir': Path('var/eval-movies')})
    c = await Container.start(s, with_llm=False, modes=['text2cypher', 'vector'])
    r = c.retrievers['text2cypher']
    b = load_text2cypher(Path('../shared/data/neo4j_movies_text2cypher'))
    excl = {q.id for q in sample_questions(b, 30, 13)}
    pool = [q for q in b.questions if q.id not in excl] if seed != 13 else b.questions
    from app.eval.loaders import Benchmark
    import random
    qs = random.Random(seed).sample(pool, n) if seed != 13 else sample_questions(b, 30, 13)
    fh = open(out_file, 'w')
    st = dict(n=0, strict=0, ans=0, top_strict=0, top_ans=0)
    try:
        for q in qs:
            try:
                gold = await c.graph.read('text2cypher', q.meta['cypher'], max_rows=100000)
            except Exception:
                continue
            e = await r.enumerate('text2cypher', q.question)
            rel = [x + r.config.constant_weight * k for x, k in zip(e.relevance, e.constants)]
            order = sorted(range(len(e.candidates)), key=lambda i: -rel[i])
            S, A = [], []
            for rank, i in enumerate(order):
                cq = e.candidates[i]
                try:
                    rows = await c.graph.read('text2cypher', cq.execution_query(), {'limit': 1000}, max_rows=100000)
                except Exception as ex:
                    rows = []
                if results_equal(rows, gold): S.append(rank)
                if answers_equal(rows, gold): A.append(rank)
            lex = [mentions(q.question, schema_terms(e.candidates[i])) for i in order]
            allrel = [e.relevance[i] for i in order]; cons = [e.constants[i] for i in order]; men = [e.mentions[i] for i in order]
            st['n'] += 1; st['strict'] += bool(S); st['ans'] += bool(A)
            st['top_strict'] += bool(S and S[0] == 0); st['top_ans'] += bool(A and A[0] == 0)
            rec = dict(id=q.id, q=q.question, qtype=q.qtype, gold=q.meta['cypher'], gold_rows=[{k: str(v)[:60] for k, v in x.items()} for x in gold[:3]],
                       ngold=len(gold), S=S[:5], A=A[:5], Sall=S, Aall=A, cons=cons, men=men, lex=lex, rel=allrel, size=[e.candidates[i].size for i in order], kind=[type(e.candidates[i]).__name__ for i in order], n=len(order),
                       top=[(round(rel[i], 2), e.readings[i], e.candidates[i].text) for i in order[:5]],
                       firstA=(e.readings[order[A[0]]], e.candidates[order[A[0]]].text) if A else None)
            fh.write(json.dumps(rec) + '\n'); fh.flush()
            print(f"{'S' if S else ('A' if A else '-')} {S[:3]} {A[:3]} n={len(order)} | {q.question}")
    finally:
        await c.close()
    print(st)
asyncio.run(main())
