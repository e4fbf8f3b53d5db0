"""Score the text2cypher mode on chosen movies questions, in process, the way ``python -m app eval`` scores them
(same ``Evaluator``, same metrics), to measure a scoring change on the questions it is about before a full run.

    python reports/experiments/issue14/subset_eval.py DATA_DIR OUT.jsonl (IDS_FILE | RUN.jsonl) [regex]

IDS_FILE: one question id per line; or a run's records (every scored id), optionally only the questions matching
``regex``. Writes one record per question to OUT.jsonl (the eval's record form) and prints strict / answer accuracy."""

import asyncio
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, ".")
from app.container import Container
from app.eval.loaders import load_text2cypher
from app.eval.runner import Evaluator
from app.settings import Settings

DATA = Path("../shared/data/neo4j_movies_text2cypher")


async def main() -> None:
    data_dir, out, ids_file, *pattern = sys.argv[1:]
    bench = load_text2cypher(DATA)
    by_id = {q.id: q for q in bench.questions}
    lines = Path(ids_file).read_text().splitlines()
    ids = [json.loads(x)["id"] for x in lines if x.startswith("{") and "metrics" in x] or [x.strip() for x in lines]
    if pattern:
        ids = [i for i in ids if re.search(pattern[0], by_id[i].question, re.IGNORECASE)]
    s = Settings().model_copy(update={"data_dir": Path(data_dir)})
    c = await Container.start(s, with_llm=True)
    strict = answer = n = 0
    try:
        ev = Evaluator(c, bench, "text2cypher", 0)
        with open(out, "w") as f:
            for k, qid in enumerate(ids):
                rec = await ev.one("text2cypher", by_id[qid], k)
                f.write(json.dumps(rec, default=str) + "\n")
                m = rec.get("metrics")
                if isinstance(m, dict):
                    n += 1
                    strict += int(m["execution_accuracy"])
                    answer += int(m["answer_accuracy"])
    finally:
        await c.close()
    print(f"{n} scored: strict {strict}, answer {answer}")


asyncio.run(main())
