"""Offline: does a per-token (or per-hop) bonus on the tuned LLM's log-probability stop 2-hop questions from taking
the 1-hop prefix? Same rows and formula as the shipped combined scoring (turnback_mentions.py), plus beta x tokens.

    python reports/experiments/issue14/length_prior.py var/t2c_metaqa_tuned2.jsonl
"""

import json, math, pickle, re, sys
from collections import defaultdict

sys.path.insert(0, ".")
from app.retrievers.shapes import mentions
from app.settings import Settings
from app.llm.local import ensure_converted_smollm2
from transformers import AutoTokenizer

rows = [json.loads(l) for l in open(sys.argv[1])]
new = pickle.load(open("/work/scratch/preview_cache.pkl", "rb"))  # CE scores with the answer preview (miss5.py)
tok = AutoTokenizer.from_pretrained(ensure_converted_smollm2(Settings().model_cache_dir))


def hit(r, i):
    return bool(r["ans"][i]) and r["ans"][i][0] in set(r["gold"])


prep = []
for r, nw in zip(rows, new):
    if not nw:
        prep.append(None)
        continue
    top = list(nw)
    rel = {}
    for i in top:
        m = mentions(r["q"], re.findall(r"\[:([A-Za-z_]+)\]", r["texts"][i]))
        rel[i] = nw[i] + m[0] - m[1]
    pool = [i for i in sorted(top, key=lambda i: -rel[i])[:16] if r["lp"][i] is not None]
    ntok = {i: len(tok(r["texts"][i])["input_ids"]) for i in pool}
    nh = {i: r["texts"][i].count("[:") for i in pool}
    prep.append((rel, pool, ntok, nh))


def run(beta, kind):
    hits = defaultdict(list)
    for r, p in zip(rows, prep):
        if p is None:
            hits[r["hops"]].append(0)
            continue
        rel, pool, ntok, nh = p
        if not pool:
            hits[r["hops"]].append(0)
            continue
        lp = {i: r["lp"][i] + beta * (ntok[i] if kind == "tok" else nh[i]) for i in pool}
        m = max(lp.values())
        z = m + math.log(sum(math.exp(v - m) for v in lp.values()))
        best = max(pool, key=lambda i: 2 * rel[i] + lp[i] - z)
        hits[r["hops"]].append(int(hit(r, best)))
    return " / ".join(f"{100 * sum(v) / len(v):.0f}" for _, v in sorted(hits.items()))


print("shipped formula, no bonus:", run(0, "tok"))
for beta in (0.05, 0.1, 0.2, 0.3, 0.5):
    print(f"+{beta} per token:", run(beta, "tok"))
for beta in (0.5, 1, 2, 3, 4):
    print(f"+{beta} per hop:", run(beta, "hop"))
