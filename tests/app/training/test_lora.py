"""LoRA fine-tuning of the text2cypher model: a round trip through an adapter the service loads."""

from __future__ import annotations

from typing import Any

from app.container import Container
from app.llm.local import LocalLLM
from tests.conftest import SABLE


def test_lora_training_produces_an_adapter_the_service_loads(tmp_path: Any, container: Container) -> None:
    import json

    from app.training.lora import train_lora

    llm = container.llm
    assert isinstance(llm, LocalLLM) and llm.model_path is not None
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text(
        "".join(
            json.dumps({"question": f"Which manufacturer built the Sable Class? {i}", "cypher": SABLE, "hops": 1})
            + "\n"
            for i in range(4)
        )
    )
    (tmp_path / "pairs.schema.json").write_text(
        json.dumps({"labels": [], "relationship_types": [], "property_keys": [], "triples": []})
    )
    stats = train_lora(
        base_model=llm.model_path,
        pairs_file=pairs,
        schema_file=tmp_path / "pairs.schema.json",
        out_dir=tmp_path / "adapter",
        epochs=1,
        batch_size=2,
        top_layers=1,
        rank=2,
    )
    assert stats["steps"] == 2 and (tmp_path / "adapter" / "adapter_config.json").exists()
    tuned = LocalLLM(None, models_dir=llm.models_dir, adapter=tmp_path / "adapter")
    tuned.warm_up()
    assert tuned.model_name.endswith("+adapter")
    (best,) = tuned._choose_sync(
        [{"role": "user", "content": "Which manufacturer built the Sable Class?"}],
        [SABLE, SABLE + " LIMIT 1"],
        1,
        "exact",
    )
    assert best.text in (SABLE, SABLE + " LIMIT 1")
