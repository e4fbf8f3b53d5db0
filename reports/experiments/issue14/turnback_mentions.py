"""Issue 14, session 6 (not shipped): no mention penalty for the second use of a relation on a turn-back path
("films that share the director of X" names the relation once), offline on the session-2 MetaQA dump with the
answer preview. Usage: python reports/experiments/issue14/turnback_mentions.py"""
import json, math, re, sys, pickle, collections, os
sys.path.insert(0, '.')
from app.retrievers.shapes import mentions
rows = [json.loads(l) for l in open('var/t2c_metaqa_tuned2.jsonl')]
cache = 'var/t2c_preview_cache.pkl'
if os.path.exists(cache):
    new = pickle.load(open(cache, 'rb'))
else:  # the 32 most relevant readings with two example answers, scored again (as answer_preview.py)
    from app.models.reranker import CrossEncoderReranker, default_reranker
    rr = CrossEncoderReranker(default_reranker())
    new = []
    for r in rows:
        top = sorted(range(len(r['texts'])), key=lambda i: -r['rel'][i])[:32]
        shown = [r['readings'][i] + (', such as ' + ', '.join(a.replace('_', ' ') for a in list(dict.fromkeys(r['ans'][i]))[:2]) if r['ans'][i] else '') for i in top]
        new.append(dict(zip(top, rr.score_sync(r['q'], shown))) if top else {})
    pickle.dump(new, open(cache, 'wb'))
def hit(r, i): return bool(r['ans'][i]) and r['ans'][i][0] in set(r['gold'])
def hops(t): return re.findall(r'(<?-)\[:([A-Za-z_]+)\](->?)', t)
def men_var(q, t, var):
    hs = hops(t)
    terms = [h[1] for h in hs]
    hit_, miss = mentions(q, terms)
    if var == 'base': return hit_ - miss
    # turn-back: the same type on consecutive hops in opposite directions
    tb = sum(1 for a, b in zip(hs, hs[1:]) if a[1] == b[1] and a[0] != b[0])
    if var == 'nopen':   # a turn-back's second use is not penalised when unnamed
        return hit_ - max(0, miss - tb)
    if var == 'cue':     # ... only when the question says so: same, share, also, other, co-
        cue = re.search(r"\b(same|shares?|shared|sharing|also|other|co)\b", q.lower()) is not None
        return hit_ - (max(0, miss - tb) if cue else miss)
    if var.startswith('cueb'):  # ... and a turn-back is what a sharing cue asks for
        cue = re.search(r"\b(same|shares?|shared|sharing|also|other|co)\b", q.lower()) is not None
        b = float(var[4:] or 1)
        return hit_ - (max(0, miss - tb) if cue else miss) + (b if cue and tb else 0)
    if var == 'once':    # a turn-back counts its relation once
        return hit_ - miss + (tb if miss >= tb else 0)
for var in ('base', 'cue', 'cueb1', 'cueb2', 'cueb3', 'cueb4'):
    for w in (1.0,):
      for cw in ((2.0,) if var != 'cueb2' else (1.5, 2.0, 3.0, 4.0)):
        res = {'rel': collections.Counter(), 'comb': collections.Counter()}
        for r, nw in zip(rows, new):
            if not nw: continue
            top = list(nw)
            rel = {i: nw[i] + w * men_var(r['q'], r['texts'][i], var) for i in top}
            res['rel'][r['hops']] += hit(r, max(top, key=lambda i: rel[i]))
            pool = [i for i in sorted(top, key=lambda i: -rel[i])[:16] if r['lp'][i] is not None]
            m = max(r['lp'][i] for i in pool); z = m + math.log(sum(math.exp(r['lp'][i] - m) for i in pool))
            res['comb'][r['hops']] += hit(r, max(pool, key=lambda i: cw * rel[i] + r['lp'][i] - z))
        print(var, w, cw, dict(sorted(res['rel'].items())), dict(sorted(res['comb'].items())))
