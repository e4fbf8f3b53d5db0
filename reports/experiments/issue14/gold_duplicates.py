"""How many scored movies gold queries return the same row more than once, and how a run fares on them.

    python reports/experiments/issue14/gold_duplicates.py DATA_DIR RUN.jsonl

A gold query that returns one row per match without DISTINCT ("the top 5 youngest producers": a producer of two
movies comes back twice, so 5 rows hold 3 people) can only be matched, as a multiset of rows, by a query that
repeats rows the same way. The service's queries return distinct rows. RUN.jsonl: records of ``python -m app eval
--dataset text2cypher ...`` (``reports/text2cypher/.runs/``)."""

import asyncio
import json
import sys
from pathlib import Path

sys.path.insert(0, ".")
from app.container import Container
from app.eval.loaders import load_text2cypher
from app.eval.runner import _row_key
from app.settings import Settings
from app.stores.graph.base import plain_rows

DATA = Path("../shared/data/neo4j_movies_text2cypher")


async def main() -> None:
    data_dir, run = sys.argv[1:]
    by_id = {q.id: q for q in load_text2cypher(DATA).questions}
    records = [json.loads(x) for x in Path(run).read_text().splitlines()]
    scored = [r for r in records if isinstance(r.get("metrics"), dict)]
    s = Settings().model_copy(update={"data_dir": Path(data_dir)})
    c = await Container.start(s, with_llm=False, modes=["text2cypher", "vector"])
    repeated = []
    try:
        for r in scored:
            rows = plain_rows(await c.graph.read("text2cypher", by_id[r["id"]].meta["cypher"], max_rows=100_000))
            if len({_row_key(x) for x in rows}) < len(rows):
                repeated.append(r)
    finally:
        await c.close()
    strict = sum(int(r["metrics"]["execution_accuracy"]) for r in repeated)
    answer = sum(int(r["metrics"]["answer_accuracy"]) for r in repeated)
    print(f"{len(scored)} scored; {len(repeated)} gold queries return a row more than once")
    print(f"  of those, this run: strict {strict}, answer {answer}")
    for r in repeated:
        print(f"  {r['id']} {int(r['metrics']['answer_accuracy'])} {by_id[r['id']].question}")


asyncio.run(main())
