"""Issue 14, session 6 (not shipped): relations read with role nouns ("director of X" for "directed by of X"; the nouns the 0.5B model named per relation in a scratch prompt, written out below) in the readings, rescored offline on the session-2 MetaQA dump with the answer preview. Usage: python reports/experiments/issue14/role_nouns.py base|noun|syn"""
sys.path.insert(0, '.')
from app.retrievers.shapes import mentions, _names, STOPWORDS
from app.retrievers.kg import words
from app.models.reranker import CrossEncoderReranker, default_reranker
variant = sys.argv[1]
NOUN = {"DIRECTED_BY": "director", "WRITTEN_BY": "writer", "STARRED_ACTORS": "actor", "HAS_GENRE": "genre",
        "HAS_TAGS": "tag", "IN_LANGUAGE": "language", "RELEASE_YEAR": "release year"}
SYN = {"HAS_GENRE": ["type", "style"], "DIRECTED_BY": [], "WRITTEN_BY": ["author"], "STARRED_ACTORS": ["star", "cast"]}
rows = [json.loads(l) for l in open('var/t2c_metaqa_tuned2.jsonl')]
rr = CrossEncoderReranker(default_reranker())
def relabel(rd):
    for rel, n in NOUN.items():
        w = words(rel)
        rd = rd.replace(f"same {w} as", f"same {n} as").replace(f"other entity {w} of the same", f"other {n} of the same")
        rd = re.sub(rf"(^|\s){w} of ", rf"\1{n} of ", rd)
    return rd
def shown(reading, ans):
    ex = [a.replace('_', ' ') for a in list(dict.fromkeys(ans))[:2]]
    return reading + (', such as ' + ', '.join(ex) if ex else '')
def ment(q, terms):
    if variant == 'base': return mentions(q, terms)
    qw = [w for w in re.findall(r"[a-z]+", q.lower()) if w not in STOPWORDS]
    taken=set()
    for t in terms:
        content = [w for w in words(t).split() if w not in STOPWORDS and len(w) >= 3] + NOUN.get(t, '').split() + (SYN.get(t, []) if variant=='syn' else [])
        k = next((j for j, x in enumerate(qw) if j not in taken and any(_names(w, x) for w in content)), None)
        if k is not None: taken.add(k)
    return len(taken), len(terms)-len(taken)
def hit(r, i): return bool(r['ans'][i]) and r['ans'][i][0] in set(r['gold'])
res = {'rel': {1:0,2:0,3:0}, 'comb': {1:0,2:0,3:0}}
shownex = 0
for r in rows:
    n = len(r['texts'])
    if not n: continue
    top = sorted(range(n), key=lambda i: -r['rel'][i])[:32]
    rds = [r['readings'][i] if variant == 'base' else relabel(r['readings'][i]) for i in top]
    if shownex < 3 and r['hops']==2: print(rds[:6]); shownex += 1
    new = dict(zip(top, rr.score_sync(r['q'], [shown(rd, r['ans'][i]) for rd, i in zip(rds, top)])))
    men = {i: ment(r['q'], re.findall(r'\[:([A-Za-z_]+)\]', r['texts'][i])) for i in top}
    rel = {i: new[i] + men[i][0] - men[i][1] for i in top}
    res['rel'][r['hops']] += hit(r, max(top, key=lambda i: rel[i]))
    pool = [i for i in sorted(top, key=lambda i: -rel[i])[:16] if r['lp'][i] is not None]
    m = max(r['lp'][i] for i in pool); z = m + math.log(sum(math.exp(r['lp'][i] - m) for i in pool))
    res['comb'][r['hops']] += hit(r, max(pool, key=lambda i: 2 * rel[i] + r['lp'][i] - z))
print(variant, res)
