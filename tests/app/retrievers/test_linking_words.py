"""Which single words of a question the linker reads as the schema's words rather than as a node's name."""

from app.retrievers.linking import NameIndex


def test_a_handle_or_code_that_starts_with_a_schema_word_is_no_schema_word() -> None:
    """ "the top 3 chefs" speaks of the label ``Chef``; "chef_ana" (a user's handle) and "chef1" are names, however
    they begin, and a question's full stop does not change a word."""
    idx = NameIndex(schema_words=frozenset({"chef", "uuid"}))
    assert idx.names_schema("chefs") and idx.names_schema("chefs?") and idx.names_schema("UUID")
    assert not idx.names_schema("chef_ana") and not idx.names_schema("chef1") and not idx.names_schema("Chefs")
