import time, sys, statistics, random
sys.path.insert(0, ".")
from onnxmodels import OnnxCrossEncoder, resolve_model
random.seed(0)
words = "directed by written by starred actors release year has genre of entity other with the same as".split()
q = "the director of The Hangover also directed which films"
texts = [" ".join(random.choice(words) for _ in range(random.randint(6, 22))) + " The Hangover" for _ in range(150)]
ms = {bs: OnnxCrossEncoder(resolve_model("packaged:reranker_en"), batch_size=bs, batch_tokens=10**9) for bs in (1, 4, 8, 16, 32)}
t = {bs: [] for bs in ms}
for _ in range(6):
    for bs, m in ms.items():
        s = time.perf_counter(); m.score([(q, x) for x in texts]); t[bs].append(time.perf_counter() - s)
for bs in ms: print(bs, f"{statistics.median(t[bs])*1000:.0f} ms for 150 short pairs")
