import json, math, re, sys
sys.path.insert(0, '.')
from app.retrievers.shapes import mentions
rows = [json.loads(l) for l in open('var/t2c_metaqa_tuned2.jsonl')]
def hit(r, i):
    a = r['ans'][i]; return bool(a) and a[0] in set(r['gold'])
for r in rows:
    r['lex'] = [mentions(r['q'], set(re.findall(r'\[:([A-Za-z_]+)\]', t))) for t in r['texts']]
def ev(a, b, w=2.0, K=16, llm=True):
    res = {1: 0, 2: 0, 3: 0}
    for r in rows:
        n = len(r['texts'])
        if not n: continue
        rel = [r['rel'][i] + a * r['lex'][i][0] - b * r['lex'][i][1] for i in range(n)]
        if not llm:
            i = max(range(n), key=lambda i: rel[i])
        else:
            pool = [i for i in sorted(range(n), key=lambda i: -rel[i])[:K] if r['lp'][i] is not None]
            if not pool: continue
            m = max(r['lp'][i] for i in pool); z = m + math.log(sum(math.exp(r['lp'][i] - m) for i in pool))
            i = max(pool, key=lambda i: w * rel[i] + r['lp'][i] - z)
        res[r['hops']] += hit(r, i)
    return res
print('base', ev(0, 0), ev(0, 0, llm=False))
for a in (0.5, 1, 2):
    for b in (0, 0.5, 1):
        print(a, b, ev(a, b), ev(a, b, llm=False))
