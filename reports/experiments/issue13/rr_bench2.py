import json, time, sys, statistics, random
sys.path.insert(0, ".")
from onnxmodels import OnnxCrossEncoder, resolve_model
corpus = json.load(open("../shared/data/hotpotqa_hipporag100/hotpotqa_train_corpus.json"))
qs = json.load(open("../shared/data/hotpotqa_hipporag100/hotpotqa_train.json"))
texts = [k + "\n" + "".join(v) for k, v in corpus.items()]
random.seed(0)
ms = {bs: OnnxCrossEncoder(resolve_model("packaged:reranker_en"), max_length=256, batch_size=bs, batch_tokens=10**9, threads=1) for bs in (1, 2, 4, 16)}
times = {bs: [] for bs in ms}; diffs = []
for i in range(40):
    q = qs[i]["question"]; pairs = [(q, p) for p in random.sample(texts, 20)]
    res = {}
    for bs, m in ms.items():
        t = time.perf_counter(); res[bs] = m.score(pairs); times[bs].append(time.perf_counter() - t)
    diffs.append(max(abs(a - b) for a, b in zip(res[1], res[16])))
for bs in ms:
    print(f"bs={bs}: p50 {statistics.median(times[bs][2:])*1000:.0f} ms  mean {statistics.mean(times[bs][2:])*1000:.0f}")
print("max |score(bs1)-score(bs16)|", max(diffs), "median", statistics.median(diffs))
