"""Offline, on the session-2 MetaQA candidate dump (dump_candidates.py -> var/t2c_metaqa_tuned2.jsonl): the 32 most
relevant paths' readings scored again by the cross-encoder with two of their answers ("..., such as A, B"), then
Hits@1 per hop for relevance alone and combined with the dumped LLM log-probs (16 most relevant, weight 2), with the
shipped mention rule (shapes.mentions: uses, stems and compounds). Usage:
    python reports/experiments/issue14/answer_preview.py [FORMAT such|colon|paren] [EXAMPLES 2]"""
import json, math, re, sys
sys.path.insert(0, '.')
from app.models.reranker import CrossEncoderReranker, default_reranker
from app.retrievers.shapes import mentions

fmt = sys.argv[1] if len(sys.argv) > 1 else 'such'
nex = int(sys.argv[2]) if len(sys.argv) > 2 else 2
rows = [json.loads(l) for l in open('var/t2c_metaqa_tuned2.jsonl')]
rr = CrossEncoderReranker(default_reranker())
SEP = {'such': ', such as ', 'colon': ': ', 'paren': ' ('}


def shown(reading, ans):
    ex = [a.replace('_', ' ') for a in list(dict.fromkeys(ans))[:nex]]
    if not ex:
        return reading
    return reading + SEP[fmt] + ', '.join(ex) + (')' if fmt == 'paren' else '')


def hit(r, i):
    return bool(r['ans'][i]) and r['ans'][i][0] in set(r['gold'])


for r in rows:
    n = len(r['texts'])
    r['top'] = sorted(range(n), key=lambda i: -r['rel'][i])[:32]
    r['new'] = dict(zip(r['top'], rr.score_sync(r['q'], [shown(r['readings'][i], r['ans'][i]) for i in r['top']]))) if n else {}
    r['men'] = {i: mentions(r['q'], re.findall(r'\[:([A-Za-z_]+)\]', r['texts'][i])) for i in r['top']}


def ev(preview, mw=1.0, llm=True, w=2.0, K=16):
    res = {1: 0, 2: 0, 3: 0}
    for r in rows:
        if not r['top']:
            continue
        rel = {i: (r['new'][i] if preview else r['rel'][i]) + mw * (r['men'][i][0] - r['men'][i][1]) for i in r['top']}
        if not llm:
            i = max(r['top'], key=lambda i: rel[i])
        else:
            pool = [i for i in sorted(r['top'], key=lambda i: -rel[i])[:K] if r['lp'][i] is not None]
            m = max(r['lp'][i] for i in pool)
            z = m + math.log(sum(math.exp(r['lp'][i] - m) for i in pool))
            i = max(pool, key=lambda i: w * rel[i] + r['lp'][i] - z)
        res[r['hops']] += hit(r, i)
    return res


for preview in (False, True):
    for mw in (0.0, 1.0):
        print(f'preview={preview} mention_weight={mw}: relevance alone {ev(preview, mw, llm=False)}, combined {ev(preview, mw)}')
