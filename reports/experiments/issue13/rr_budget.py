import json, time, sys, statistics, random
import numpy as np
sys.path.insert(0, ".")
from onnxmodels import OnnxCrossEncoder, resolve_model

def run_budget(self, encodings, budget, cap=64):
    order = sorted(range(len(encodings)), key=lambda i: len(encodings[i].ids))
    out = [None] * len(encodings)
    batches, cur = [], []
    for i in order:
        w = len(encodings[i].ids)  # sorted: this is the widest so far
        if cur and (len(cur) + 1) * w > budget or len(cur) >= cap:
            batches.append(cur); cur = []
        cur.append(i)
    if cur: batches.append(cur)
    for idx in batches:
        width = max(len(encodings[i].ids) for i in idx)
        ids = np.zeros((len(idx), width), dtype=np.int64); mask = np.zeros_like(ids); types = np.zeros_like(ids)
        for row, i in enumerate(idx):
            e = encodings[i]; n = len(e.ids)
            ids[row, :n], mask[row, :n], types[row, :n] = e.ids, e.attention_mask, e.type_ids
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
        res = self.session.run(None, {k: v for k, v in feeds.items() if k in self.input_names})[0]
        for row, i in enumerate(idx): out[i] = res[row]
    return out

m = OnnxCrossEncoder(resolve_model("packaged:reranker_en"), batch_size=1, batch_tokens=10**9)
def score(pairs, budget):
    enc = m.tokenizer.encode_batch(pairs)
    if budget is None: return m.run(enc)
    return run_budget(m, enc, budget)

random.seed(0)
corpus = json.load(open("../shared/data/hotpotqa_hipporag100/hotpotqa_train_corpus.json"))
qs = json.load(open("../shared/data/hotpotqa_hipporag100/hotpotqa_train.json"))
texts = [k + "\n" + "".join(v) for k, v in corpus.items()]
words = "directed by written by starred actors release year has genre of entity other with the same as".split()
short = [" ".join(random.choice(words) for _ in range(random.randint(6, 22))) + " The Hangover" for _ in range(150)]
long_sets = [[(qs[i]["question"], p) for p in random.sample(texts, 20)] for i in range(12)]
short_set = [("the director of The Hangover also directed which films", x) for x in short]
for budget in (None, 128, 256, 384, 512, 1024):
    tl, ts = [], []
    for rep in range(2):
        for ps in long_sets:
            s = time.perf_counter(); score(ps, budget); tl.append(time.perf_counter() - s)
        s = time.perf_counter(); score(short_set, budget); ts.append(time.perf_counter() - s)
    print(f"budget {budget}: long 20 pairs {statistics.median(tl)*1000:.0f} ms, short 150 pairs {statistics.median(ts)*1000:.0f} ms")
