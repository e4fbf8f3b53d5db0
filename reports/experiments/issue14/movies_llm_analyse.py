"""Scoring rules over a movies_llm_choice.py dump: first choice right (strict / answer level) for relevance alone,
the LLM alone over the K most relevant, and relevance_weight * rel + log-softmax(LLM) over the K most relevant.

    python reports/experiments/issue14/movies_llm_analyse.py var/mchoice_smol.jsonl [var/mchoice_qwen.jsonl ...]
"""
import json, math, sys


def lsm(xs):
    m = max(xs)
    z = m + math.log(sum(math.exp(x - m) for x in xs))
    return [x - z for x in xs]


for f in [a for a in sys.argv[1:] if not a.startswith('--')]:
    recs = [json.loads(l) for l in open(f)]
    if '--rows' in sys.argv:  # only questions whose gold returns rows on this graph
        recs = [r for r in recs if r.get('ngold')]
    n = len(recs)
    print(f"{f}: {n} questions; any S in 32 {sum(any(r['S']) for r in recs)}, any A {sum(any(r['A']) for r in recs)}; "
          f"in 16: S {sum(any(r['S'][:16]) for r in recs)} A {sum(any(r['A'][:16]) for r in recs)}; "
          f"t_llm p50 {sorted(r['t_llm'] for r in recs)[n // 2]:.1f}s")
    rows = []
    def first(pick):
        s = a = 0
        for r in recs:
            if not r['lp']:
                continue
            j = pick(r)
            s += r['S'][j]; a += r['A'][j]
        return s, a
    rows.append(("relevance", first(lambda r: 0)))
    for K in (8, 16, 32):
        rows.append((f"llm alone K={K}", first(lambda r, K=K: max(range(min(K, len(r['lp']))), key=lambda j: r['lp'][j]))))
        for w in (0.25, 0.5, 1, 2, 4):
            def pick(r, K=K, w=w):
                k = min(K, len(r['lp']))
                l = lsm(r['lp'][:k])
                return max(range(k), key=lambda j: w * r['rel'][j] + l[j])
            rows.append((f"combined K={K} w={w}", first(pick)))
    for name, (s, a) in rows:
        print(f"  {name:24s} strict {s:2d}/{n} ({100*s/n:.0f}%)  answer {a:2d}/{n} ({100*a/n:.0f}%)")
