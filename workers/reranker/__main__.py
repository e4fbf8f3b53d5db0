"""``python -m workers.reranker [--host H] [--port P] [--model PATH_OR_ID] [--device D]``: run the service with
uvicorn. Every other setting comes from ``RERANKER_*`` environment variables (``settings.py``)."""

from __future__ import annotations

import argparse
import logging

import uvicorn

from workers.reranker.server import create_app
from workers.reranker.settings import RerankerServiceSettings


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m workers.reranker", description=__doc__)
    parser.add_argument("--host", help="bind address (RERANKER_HOST, default 0.0.0.0)")
    parser.add_argument("--port", type=int, help="port (RERANKER_PORT, default 8080)")
    parser.add_argument("--model", help="CrossEncoder path or hub id (RERANKER_MODEL)")
    parser.add_argument("--device", help="cuda / cpu / cuda:N (RERANKER_DEVICE; default: cuda when available)")
    args = parser.parse_args(argv)
    overrides = {k: v for k, v in vars(args).items() if v is not None}
    settings = RerankerServiceSettings(**overrides)
    logging.basicConfig(level=settings.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # one process: the batcher only coalesces requests that reach the same process (scale with replicas instead)
    uvicorn.run(create_app(settings), host=settings.host, port=settings.port, log_level=settings.log_level, workers=1)


if __name__ == "__main__":
    main()
