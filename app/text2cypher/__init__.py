"""Text2cypher as typed stages (the mode itself, ``app.retrievers.text2cypher``, only orchestrates them):

* ``question``: what a question states, read with a lexicon (``lexicon``, ``lexicons/*.toml``);
* ``profiles``: what each label and relationship type holds (kinds, ranges, values);
* ``enumeration``: the candidate queries (paths from linked entities: this module; shapes: ``enumerate_shapes``,
  with ``conditions``), each read as text (``reading``) and scored by the cross-encoder;
* ``features``: each ranking signal a registered, named feature (and ``asked``: what the question asks for that a
  pattern holds or lacks; ``ordered``: the order it takes its answers in); ``rank``: a ranker file weighs them;
* ``answer_form``: the chosen query in the form the question asks for;
* ``prompt``: what the LLM scores candidates under.

What this package must not do: import the retrievers, the service or any graph's words.
"""

from app.text2cypher import asked, closures, lacking, ordered, said  # noqa: F401  (register their features beside those of ``features``)
