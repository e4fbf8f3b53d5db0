"""Offline: how much would kind words for relation ends help the relevance ranking? Kinds from a given map
(experiment only: a stand-in for kinds an LLM names per relation slot)."""

import json, re, sys

sys.path.insert(0, ".")
from collections import defaultdict
from app.retrievers.kg import read_path, with_kind, words
from onnxmodels import OnnxCrossEncoder, resolve_model

KM = {k.upper(): v for k, v in json.load(open("var/metaqa_kinds_oracle.json")).items()}
ce = OnnxCrossEncoder(resolve_model("packaged:reranker_en"), max_length=128, batch_size=32)
rows = [json.loads(l) for l in open("var/t2c_metaqa.jsonl")]
hop_re = re.compile(r"(<-|-)\[:(\w+)\](->|-)")


def hops_of(text):
    return [(t, "out" if b == "->" else "in") for a, t, b in hop_re.findall(text)]


out = open("var/t2c_kinds.jsonl", "w")
for r in rows:
    if not r["texts"]:
        out.write(json.dumps(r) + "\n")
        continue
    m = re.search(r'\{name: "((?:[^"\\]|\\.)*)"\}', r["texts"][0])
    readings = []
    for t in r["texts"]:
        anchor = re.search(r'\{name: "((?:[^"\\]|\\.)*)"\}', t).group(1).replace('\\"', '"')
        hs = hops_of(t)
        if "RETURN x2" in t and len(hs) == 2:
            readings.append(r["readings"][r["texts"].index(t)])
            continue
        ks = [(KM[h][1] if d == "out" else KM[h][0]).lower() for h, d in hs]
        readings.append(with_kind(read_path(anchor, [(h, d, k) for (h, d), k in zip(hs, ks)])[-1], ks[-1]))
    r["rel_kinds"] = ce.score([(r["q"], x) for x in readings])
    r["readings_kinds"] = readings
    out.write(json.dumps(r) + "\n")
