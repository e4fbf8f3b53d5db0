import json, numpy as np
from pathlib import Path
from app.eval import metrics as M
from app.training.fusion import _load, ranked, train, QuestionCandidates


def newest(name):
    return max(Path("var/eval-h15/fusion").glob(f"{name}-*.jsonl"), key=lambda p: p.stat().st_mtime)


def augment(ds, seeds=2):
    qs = _load(newest(ds))
    D = {q["id"]: q for q in json.load(open(f"var/issue15-it/{ds}-2.json"))}
    out = []
    for qid, q in qs.items():
        best = {}
        for r in D[qid]["r3"]:
            if r["seed"] >= seeds:
                continue
            for h in r["hits"][:5]:
                best[h["title"]] = max(best.get(h["title"], -1), h["score"])
        feats = [dict(f) for f in q.feats]
        titles = list(q.titles)
        for i, t in enumerate(titles):
            if t in best:
                feats[i]["bridge"] = best[t]
        for t, s in best.items():
            if t not in titles:
                titles.append(t)
                feats.append({"bridge": s})
        out.append(QuestionCandidates(qid, q.support, titles, feats))
    return out


H, Mu = augment("hotpotqa"), augment("musique")


def r5(model, qs, k=5):
    return round(100 * np.mean([M.recall_at_k(ranked(q, model.score(q.feats)), q.support, k) for q in qs]), 1)


import app.models.fusion as F

for sig in [
    ("vector", "page", "section", "entity", "path", "bm25"),
    ("vector", "page", "section", "entity", "path", "bm25", "bridge"),
    ("vector", "path", "bm25", "bridge"),
    ("vector", "bridge"),
]:
    for hidden in (4, 16):
        try:
            m1, _ = train(H, signals=sig, hidden=hidden)
            m2, _ = train(Mu, signals=sig, hidden=hidden)
            print(sig, hidden, "H->M", r5(m1, Mu), "M->H", r5(m2, H), "in-dom M", r5(m2, Mu))
        except Exception as e:
            print("ERR", e)
