import json, sys, numpy as np
from collections import defaultdict
from app.eval import metrics as M

ds = sys.argv[1]
D = json.load(open(f"var/issue15-it/{ds}-2.json"))


def R(f, k=5):
    return round(100 * np.mean([M.recall_at_k(f(q), q["support"], k) for q in D]), 1)


miss = found = 0
for q in D:
    top5 = M.dedupe(x["title"] for x in q["r1"])[:5]
    for t in set(q["support"]) - set(top5):
        miss += 1
        if any(h["title"] == t for r in q["r3"] for h in r["hits"][:3]):
            found += 1
print("missed", miss, "in some entity-query top3", found)
r1 = lambda q: M.dedupe(x["title"] for x in q["r1"])
print("r1", R(r1))
for keep in (1, 2, 3):
    for seeds in (1, 2, 3):
        for agg in ("max", "sum"):

            def f(q, keep=keep, seeds=seeds, agg=agg):
                top = r1(q)
                best = defaultdict(float)
                for r in q["r3"]:
                    if r["seed"] >= seeds:
                        continue
                    for h in r["hits"][:5]:
                        if h["title"] in top[:keep]:
                            continue
                        best[h["title"]] = (
                            max(best[h["title"]], h["score"]) if agg == "max" else best[h["title"]] + h["score"]
                        )
                # interleave: keep r1 top-keep, then alternate r1 rest and bridge hits
                b = sorted(best, key=lambda t: -best[t])
                out = top[:keep]
                rest = top[keep:]
                for x, y in zip(b, rest):
                    out += [x, y]
                return M.dedupe(out + b + rest)

            print(f"keep {keep} seeds {seeds} {agg}", R(f), end="; ")
        print()
