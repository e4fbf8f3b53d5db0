import json, sys, math
from collections import defaultdict

rows = [json.loads(l) for l in open(sys.argv[1])]
if len(sys.argv) > 2 and sys.argv[2] == "kinds":  # relevance re-scored with kind words (kinds.py)
    for r in rows:
        r["rel"] = r.get("rel_kinds", r["rel"])


def hit(r, i):
    a = r["ans"][i]
    return bool(a) and a[0] in set(r["gold"])


def lse(xs):
    m = max(xs)
    return m + math.log(sum(math.exp(x - m) for x in xs))


def pick(r, kind, w=1.0, K=16, lam=0.0, margin=None):
    n = len(r["texts"])
    if not n:
        return None
    rel = r["rel"]
    lp = r["lp"]
    nh = r["nh"]
    if kind == "rel":
        s = [rel[i] - lam * nh[i] for i in range(n)]
        if margin is not None:
            top = max(s)
            ok = [i for i in range(n) if s[i] >= top - margin]
            d = min(nh[i] for i in ok)
            return max((i for i in ok if nh[i] == d), key=lambda i: s[i])
        return max(range(n), key=lambda i: s[i])
    if kind == "llm":
        return max((i for i in range(n) if lp[i] is not None), key=lambda i: lp[i])
    if kind == "margin-llm":  # the LLM picks among the paths within `margin` of the most relevant one
        top = max(rel)
        return max((i for i in range(n) if rel[i] >= top - margin and lp[i] is not None), key=lambda i: lp[i])
    pool = [i for i in sorted(range(n), key=lambda i: -rel[i])[:K] if lp[i] is not None]
    z = lse([lp[i] for i in pool])
    return max(pool, key=lambda i: w * rel[i] + (lp[i] - z) - lam * nh[i])


def evaluate(**kw):
    res = defaultdict(lambda: [0, 0])
    for r in rows:
        i = pick(r, **kw)
        res[r["hops"]][1] += 1
        if i is not None and hit(r, i):
            res[r["hops"]][0] += 1
    return {h: round(100 * a / b) for h, (a, b) in sorted(res.items())}


print(
    "n",
    len(rows),
    "oracle",
    {
        h: round(
            100
            * sum(any(hit(r, i) for i in range(len(r["texts"]))) for r in rows if r["hops"] == h)
            / max(1, sum(r["hops"] == h for r in rows))
        )
        for h in (1, 2, 3)
    },
)
print("rel", evaluate(kind="rel"))
print("llm", evaluate(kind="llm") if rows[0]["lp"] else "-")
for lam in (0.5, 1.0, 1.5, 2.0):
    print("rel-lam", lam, evaluate(kind="rel", lam=lam))
for m in (0.25, 0.5, 1.0, 1.5):
    print("rel-margin", m, evaluate(kind="rel", margin=m))
if rows[0]["lp"]:
    for K in (8, 16, 32):
        for w in (0.25, 0.5, 1.0, 2.0, 3.0, 4.0, 6.0):
            for lam in (0, 0.5, 1.0):
                print("comb K", K, "w", w, "lam", lam, evaluate(kind="comb", K=K, w=w, lam=lam))
if rows[0]['lp']:
    for m in (0.25, 0.5, 1.0, 1.5, 2.0):
        print('margin-llm', m, evaluate(kind='margin-llm', margin=m))
import statistics

print(
    "t_enum p50",
    statistics.median(r["t_enum"] for r in rows),
    "t_llm p50",
    statistics.median(r["t_llm"] for r in rows),
    "ncand p50",
    statistics.median(len(r["texts"]) for r in rows),
    "max",
    max(len(r["texts"]) for r in rows),
)
