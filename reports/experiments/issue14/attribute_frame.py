"""Issue 14, session 12: (1) "what N are the M <phrase>" asks for an attribute N of the M the phrase describes, so a
path whose last hop is named by the phrase (and not by N) ends at the described set, one hop short
(shapes.attribute_frame, ATTRIBUTE_PENALTY); (2) the LLM's log-softmax clipped at -floor in the combined score
(Text2CypherConfig.llm_floor). Offline on the session-2 MetaQA dump with the answer preview (as
turnback_mentions.py, whose cache it reads), on top of the shipped rule (mentions per use, sharing words,
TURN_BACK_BONUS 2); combined = 2 * relevance + log-softmax over the 16 most relevant.

    python reports/experiments/issue14/attribute_frame.py [--misses]
"""
import json, math, re, sys, pickle, collections
sys.path.insert(0, '.')
from app.retrievers.shapes import mentions, question_literals, _named
rows = [json.loads(l) for l in open('var/t2c_metaqa_tuned2.jsonl')]
new = pickle.load(open('var/t2c_preview_cache.pkl', 'rb'))  # written by turnback_mentions.py
def hit(r, i): return bool(r['ans'][i]) and r['ans'][i][0] in set(r['gold'])
def hops(t): return re.findall(r'(<?-)\[:([A-Za-z_]+)\](->?)', t)
def shipped(q, t):
    hs = hops(t)
    hit_, miss = mentions(q, [h[1] for h in hs])
    tb = sum(1 for a, b in zip(hs, hs[1:]) if a[1] == b[1] and a[0] != b[0])
    return hit_ - miss + ((min(miss, tb) + 2) if question_literals(q).asks_sharing and tb else 0)
def frame(q, t):  # shapes.attribute_frame on a path without labels, in penalty units
    lits = question_literals(q)
    if lits.asked is None:
        return 0
    last = hops(t)[-1][1]
    return int(_named(last, lits.described) and not _named(last, [lits.asked]))
def pick(r, nw, pen, floor, cw=2.0):
    top = list(nw)
    rel = {i: nw[i] + shipped(r['q'], r['texts'][i]) - pen * frame(r['q'], r['texts'][i]) for i in top}
    pool = [i for i in sorted(top, key=lambda i: -rel[i])[:16] if r['lp'][i] is not None]
    m = max(r['lp'][i] for i in pool); z = m + math.log(sum(math.exp(r['lp'][i] - m) for i in pool))
    sc = {i: cw * rel[i] + max(r['lp'][i] - z, -floor) for i in pool}
    return max(top, key=lambda i: rel[i]), max(pool, key=lambda i: sc[i]), sc, rel, z
for pen in (0, 2, 4, 8):
    for floor in (math.inf, 3, 4, 5, 6, 8):
        res = {'rel': collections.Counter(), 'comb': collections.Counter()}
        for r, nw in zip(rows, new):
            if not nw: continue
            a, b, *_ = pick(r, nw, pen, floor)
            res['rel'][r['hops']] += hit(r, a)
            res['comb'][r['hops']] += hit(r, b)
        print(f"penalty {pen} floor {floor}: relevance {dict(sorted(res['rel'].items()))} "
              f"combined {dict(sorted(res['comb'].items()))}")
if '--misses' in sys.argv:  # the 2-hop questions still missed with the shipped values
    for r, nw in zip(rows, new):
        if not nw or r['hops'] != 2: continue
        _, j, sc, rel, z = pick(r, nw, 4, 4)
        if hit(r, j): continue
        print('Q', r['q'])
        for i in sorted(sc, key=lambda i: -sc[i])[:4]:
            print(f"   {'*' if hit(r, i) else ' '} comb {sc[i]:6.2f} rel {rel[i]:6.2f} lp {r['lp'][i]-z:6.2f} {r['texts'][i][20:]}")
