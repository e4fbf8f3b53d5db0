"""Issue 14, session 2: does the local LLM paraphrase verbalised training questions usefully? Ten pairs of a tune
run, Qwen2.5-Coder-0.5B. Usage: python reports/experiments/issue14/paraphrase_llm.py var/eval-kg2/adapters/metaqa/text2cypher/pairs.jsonl"""

import asyncio, sys, json, time, random

sys.path.insert(0, ".")
from pathlib import Path
from app.llm.local import LocalLLM

ps = [json.loads(l) for l in open(sys.argv[1])]
random.seed(5)
ps = random.sample(ps, 10)


async def main():
    llm = LocalLLM("catalog:qwen2.5-coder-0.5b-instruct", models_dir=Path.home() / ".cache/graphrag-service", threads=2)
    llm.warm_up()
    for p in ps:
        msgs = [
            {
                "role": "system",
                "content": "Rewrite the question as a person would ask it, in plain English. Keep every name exactly. Answer with the question only.",
            },
            {"role": "user", "content": p["question"]},
        ]
        t = time.time()
        g = await llm.generate(msgs, max_new_tokens=40)
        print(f"{time.time() - t:.1f}s | {p['question']} -> {g.text}")


asyncio.run(main())
