"""Retrieval modes: one module per mode, each registered in the ``graphrag.retrievers`` entry-point group
(``registry.py``), built on the contract in ``base.py``. ``linking.py`` is the entity linker every mode shares."""
