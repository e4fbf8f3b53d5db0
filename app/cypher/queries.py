"""All Cypher text of the service outside candidate enumeration (``candidates.py``): ingestion, retrievers, schema
introspection and the engine-specific statements of the graph stores (dialect-specific ones are named by engine).

Labels, relationship types and property keys cannot be query parameters, so the builders here validate them against
a strict identifier pattern before putting them into query text; values always travel as parameters."""

from __future__ import annotations

import re
from collections.abc import Sequence

from app.errors import InvalidInputError

ENTITY_LABEL = "Entity"
PAGE_LABEL = "Page"
SUBCHAPTER_LABEL = "SubChapter"
CHUNK_LABEL = "Chunk"
HAS_CHUNK = "HAS_CHUNK"
IS_CHUNK_OF = "IS_CHUNK_OF"
HAS_SUBCHAPTER = "HAS_SUBCHAPTER"
IS_SUBCHAPTER_OF = "IS_SUBCHAPTER_OF"
NEXT_CHUNK = "NEXT"
PREVIOUS_CHUNK = "PREVIOUS"
CITES = "CITES"
CITED_IN = "CITED_IN"
ABOUT = "ABOUT"
DOCUMENT_LABELS = (PAGE_LABEL, SUBCHAPTER_LABEL, CHUNK_LABEL)
UNNAMED_LABELS = (SUBCHAPTER_LABEL, CHUNK_LABEL)
"""The service's own document structure below a page: its nodes name nothing (a heading such as "History" is not an
entity to link), so the schema profile gives them no display property."""
"""Labels of the document structure (``app/ingest/structure.py``)."""

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,127}$")


def is_ident(name: str) -> bool:
    """Whether ``name`` may stand in query text as a label, relationship type or property key."""
    return bool(_IDENT.match(name))


def ident(name: str, what: str = "identifier") -> str:
    if not _IDENT.match(name):
        raise InvalidInputError(f"invalid {what} {name!r}: letters, digits and '_' only, not starting with a digit")
    return name


def cypher_string(value: str) -> str:
    """A double-quoted Cypher string literal."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def merge_entities(label: str | None) -> str:
    """MERGE entity nodes by name, adding ``label`` (rows: {name, id})."""
    extra = f" SET n:`{ident(label, 'label')}`" if label and label != ENTITY_LABEL else ""
    return f"UNWIND $rows AS row MERGE (n:{ENTITY_LABEL} {{name: row.name}}) SET n.id = row.id{extra}"


def merge_relationships(rel_type: str) -> str:
    """MERGE typed relationships between existing entity nodes (rows: {s, o})."""
    t = ident(rel_type, "relationship type")
    return (
        f"UNWIND $rows AS row MATCH (a:{ENTITY_LABEL} {{name: row.s}}) MATCH (b:{ENTITY_LABEL} {{name: row.o}}) "
        f"MERGE (a)-[:`{t}`]->(b)"
    )


MERGE_PAGES = (
    f"UNWIND $rows AS row MERGE (p:{PAGE_LABEL} {{id: row.id}}) "
    "SET p.title = row.title, p.source = row.source, p.uri = row.uri, p.hash = NULL"
)
"""A page being written has no digest until ``SET_PAGE_HASHES`` ends its ingest: a page an interrupted ingest left
half done never looks unchanged, so the next ingest of it replaces its parts."""
SET_PAGE_HASHES = f"UNWIND $rows AS row MATCH (p:{PAGE_LABEL} {{id: row.id}}) SET p.hash = row.hash"
"""The last write of a document ingest, after its graph parts and vectors (rows: {id, hash})."""
MERGE_SUBCHAPTERS = (
    f"UNWIND $rows AS row MERGE (s:{SUBCHAPTER_LABEL} {{id: row.id}}) SET s.uri = row.uri, s.heading = row.heading, "
    "s.path = row.path, s.level = row.level, s.page_id = row.page_id"
)
"""A subchapter's heading is ``heading``, not ``title``/``name``: headings ("History") are not entities to link."""
MERGE_CHUNKS = (
    f"UNWIND $rows AS row MERGE (c:{CHUNK_LABEL} {{id: row.id}}) SET c.text = row.text, c.index = row.index, "
    "c.uri = row.uri, c.page_id = row.page_id, c.section = row.section, c.section_id = row.section_id"
)


def link_by_id(src_label: str, rel_type: str, dst_label: str) -> str:
    """MERGE ``(a:src)-[:rel]->(b:dst)`` between nodes given by id (rows: {a, b})."""
    a, r, b = ident(src_label, "label"), ident(rel_type, "relationship type"), ident(dst_label, "label")
    return f"UNWIND $rows AS row MATCH (a:`{a}` {{id: row.a}}) MATCH (b:`{b}` {{id: row.b}}) MERGE (a)-[:`{r}`]->(b)"


PAGE_HASHES = f"UNWIND $ids AS pid MATCH (p:{PAGE_LABEL} {{id: pid}}) RETURN pid, p.hash AS hash"
"""The stored digest of each page among ``$ids`` that exists (an unchanged document is skipped)."""
MERGE_ABOUT = (
    f"UNWIND $rows AS row MATCH (p:{PAGE_LABEL} {{id: row.a}}) MATCH (e:{ENTITY_LABEL} {{name: row.name}}) "
    f"MERGE (p)-[:{ABOUT}]->(e)"
)
MERGE_CITES = (
    f"UNWIND $rows AS row MATCH (c:{CHUNK_LABEL} {{id: row.c}}) MATCH (e:{ENTITY_LABEL} {{name: row.name}}) "
    f"MERGE (c)-[r:{CITES}]->(e) ON CREATE SET r.via = row.via MERGE (e)-[:{CITED_IN}]->(c)"
)
"""``via``: ``link`` (the chunk links to it) or ``mention`` (its name occurs in the text)."""


def merge_cites_to(label: str, key: str) -> str:
    """``MERGE_CITES`` for nodes of a graph with its own labels (a Cypher script's ``Person``, ``Movie``): the node
    whose ``key`` (``name`` or ``title``) is ``row.name`` (rows: {c, name, via})."""
    lb, k = ident(label, "label"), ident(key, "property key")
    return (
        f"UNWIND $rows AS row MATCH (c:{CHUNK_LABEL} {{id: row.c}}) MATCH (e:`{lb}` {{`{k}`: row.name}}) "
        f"MERGE (c)-[r:{CITES}]->(e) ON CREATE SET r.via = row.via MERGE (e)-[:{CITED_IN}]->(c)"
    )


PAGES_ENTITIES = (
    f"UNWIND $ids AS pid MATCH (p:{PAGE_LABEL} {{id: pid}}) OPTIONAL MATCH (p)-[:{ABOUT}]->(a:{ENTITY_LABEL}) "
    f"OPTIONAL MATCH (p)<-[:{IS_CHUNK_OF}]-(:{CHUNK_LABEL})-[:{CITES}]->(e:{ENTITY_LABEL}) "
    "WITH collect(DISTINCT a.name) + collect(DISTINCT e.name) AS names UNWIND names AS name RETURN DISTINCT name"
)
"""The entities that pages among ``$ids`` are about or cite (what a change or delete may leave unused)."""
ENTITY_USE = (
    f"UNWIND $names AS nm MATCH (e:{ENTITY_LABEL} {{name: nm}}) "
    f"OPTIONAL MATCH (e)-[c:{CITED_IN}]->(:{CHUNK_LABEL}) WITH nm, e, count(c) AS cited "
    f"OPTIONAL MATCH (e)<-[a:{ABOUT}]-(:{PAGE_LABEL}) WITH nm, e, cited, count(a) AS about "
    f"OPTIONAL MATCH (e)<-[l:{CITES}]-(:{CHUNK_LABEL}) WHERE l.via = 'link' "
    "WITH nm, e, cited, about, count(l) AS linked "
    f"OPTIONAL MATCH (e)-[k]-() WHERE NOT type(k) IN ['{CITES}', '{CITED_IN}', '{ABOUT}'] "
    "RETURN nm AS name, cited, about, linked, count(k) AS facts"
)
"""For each entity: how many chunks cite it, pages are about it, chunks link to it, and its other edges (facts)."""
DELETE_ENTITIES = f"UNWIND $rows AS row MATCH (e:{ENTITY_LABEL} {{name: row.name}}) DETACH DELETE e"
LIST_PAGES = (
    f"MATCH (p:{PAGE_LABEL}) OPTIONAL MATCH (p)<-[:{IS_CHUNK_OF}]-(c:{CHUNK_LABEL}) "
    "WITH p, count(c) AS chunks RETURN p.id AS id, p.title AS title, p.source AS source, chunks "
    "ORDER BY title, id SKIP $offset LIMIT $limit"
)
"""The namespace's documents (a page each), with their chunk counts, a page at a time."""
PAGE_CHUNK_TOTAL = (
    f"MATCH (p:{PAGE_LABEL} {{id: $id}}) OPTIONAL MATCH (p)<-[:{IS_CHUNK_OF}]-(c:{CHUNK_LABEL}) "
    "RETURN p.id AS id, count(c) AS chunks"
)
"""A document's chunk count; no row when there is no such page (``p.id`` is the grouping key: a bare ``count``
would answer 0 for a missing page)."""
DELETE_PAGES = f"UNWIND $rows AS row MATCH (p:{PAGE_LABEL} {{id: row.id}}) DETACH DELETE p"
DELETE_PAGE_PARTS = (
    f"UNWIND $rows AS row MATCH (p:{PAGE_LABEL} {{id: row.id}})-[:{HAS_CHUNK}|{IS_CHUNK_OF}|{IS_SUBCHAPTER_OF}]-(n) "
    "WITH DISTINCT n DETACH DELETE n"
)
"""A page's chunks and subchapters with their links (the page itself stays): what an edit rewrites."""

ENTITY_OUT_FACTS = (
    f"MATCH (n:{ENTITY_LABEL} {{name: $name}})-[r]->(m) RETURN type(r) AS rel, m.name AS other LIMIT $limit"
)
ENTITY_IN_FACTS = (
    f"MATCH (n:{ENTITY_LABEL} {{name: $name}})<-[r]-(m) RETURN type(r) AS rel, m.name AS other LIMIT $limit"
)
ENTITY_NODE = f"MATCH (n:{ENTITY_LABEL} {{name: $name}}) RETURN n.id AS id, labels(n) AS labels LIMIT 1"


def first_display_value(label: str, key: str, rel_type: str) -> str:
    """The display value ``key`` of one ``label`` node with an outgoing ``rel_type`` edge."""
    lb, k, t = ident(label, "label"), ident(key, "property key"), ident(rel_type, "relationship type")
    return f"MATCH (a:`{lb}`)-[:`{t}`]->() WHERE a.`{k}` IS NOT NULL RETURN a.`{k}` AS v LIMIT 1"


def one_hop_example(source: str, key: str, rel_type: str, target: str, target_key: str, value: str | int) -> str:
    """A one-hop query from the ``source`` node whose ``key`` is ``value``, returning the targets' ``target_key``:
    the one-shot example of the free text2cypher prompt, in the graph's own vocabulary."""
    a, r, b = ident(source, "label"), ident(rel_type, "relationship type"), ident(target, "label")
    k, tk = ident(key, "property key"), ident(target_key, "property key")
    literal = str(value) if isinstance(value, int) else cypher_string(str(value))
    return f"MATCH (a:{a} {{{k}: {literal}}})-[:{r}]->(b:{b}) RETURN b.{tk}"


# --- schema introspection and counts (engine-neutral) ----------------------------------------------------------
SCHEMA_TRIPLES_QUERY = (
    "MATCH (a)-[r]->(b) WITH labels(a) AS la, type(r) AS t, labels(b) AS lb RETURN la, t, lb, count(*) AS n"
)
HAS_NODES = "MATCH (n) RETURN count(n) > 0 AS has"


def label_count(label: str) -> str:
    """How many nodes carry ``label`` (``c``)."""
    return f"MATCH (n:`{ident(label, 'label')}`) RETURN count(n) AS c"


def label_sample(label: str) -> str:
    """The property maps of at most ``$sample`` nodes of ``label`` (``p``): what the schema profile measures."""
    return f"MATCH (n:`{ident(label, 'label')}`) WITH n LIMIT $sample RETURN properties(n) AS p"


def display_values(label: str, key: str) -> str:
    """Every ``label`` node's ``key`` value (``v``) and labels: the names the entity linker and index read."""
    lb, k = ident(label, "label"), ident(key, "property key")
    return f"MATCH (n:`{lb}`) WHERE n.`{k}` IS NOT NULL RETURN n.`{k}` AS v, labels(n) AS labels"


def value_counts(name: str, key: str, *, edge: bool = False) -> str:
    """Each distinct ``key`` value of the ``name`` nodes (``edge``: of the relationships of type ``name``) (``v``)
    and how many hold it (``c``): a categorical property's values, which the linker knows as constants (of a
    relationship's: conditions a question may name)."""
    k = ident(key, "property key")
    element = f"()-[n:`{ident(name, 'relationship type')}`]->()" if edge else f"(n:`{ident(name, 'label')}`)"
    return f"MATCH {element} WHERE n.`{k}` IS NOT NULL RETURN n.`{k}` AS v, count(*) AS c"


def list_element_counts(label: str, key: str) -> str:
    """Each distinct element of the ``label`` nodes' list property ``key`` (``v``) and how many nodes hold it
    (``c``): the values of a list of kinds (skills, genres, languages) a question may name."""
    k = ident(key, "property key")
    return (
        f"MATCH (n:`{ident(label, 'label')}`) WHERE n.`{k}` IS NOT NULL UNWIND n.`{k}` AS v "
        "RETURN v, count(DISTINCT n) AS c"
    )


def relationship_sample(rel_type: str) -> str:
    """The property maps of at most ``$sample`` relationships of ``rel_type`` (``p``)."""
    return f"MATCH ()-[r:`{ident(rel_type, 'relationship type')}`]->() WITH r LIMIT $sample RETURN properties(r) AS p"


def most_linked(rel_type: str, source: str, target: str, *, forward: bool) -> str:
    """The most ``target`` nodes one of at most ``$sample`` ``source`` nodes is linked to by ``rel_type`` (``forward``;
    else the most sources one target node has): ``m``. 1 says each has one at most."""
    r = ident(rel_type, "relationship type")
    a, b = ident(source, "label"), ident(target, "label")
    near, far = ("a", "b") if forward else ("b", "a")
    return (
        f"MATCH (a:`{a}`)-[:`{r}`]->(b:`{b}`) WITH DISTINCT {near} LIMIT $sample "
        f"MATCH (a:`{a}`)-[:`{r}`]->(b:`{b}`) WITH {near}, count(DISTINCT {far}) AS n RETURN max(n) AS m"
    )


INGEST_LOG_LABEL = "_IngestLog"
"""Bookkeeping nodes (labels starting with ``_`` are hidden from schema introspection)."""
INGEST_LOG_FIND = f"MATCH (m:{INGEST_LOG_LABEL} {{_sha: $sha}}) RETURN m._sha AS sha"
INGEST_LOG_ADD = f"MERGE (m:{INGEST_LOG_LABEL} {{_sha: $sha}}) SET m._kind = $kind"
JOURNAL_LABEL = "_IngestJournal"
"""One node per ingest under way (or interrupted, or failed) in the namespace it writes to, keyed by the content's
SHA-256; deleted when the ingest completes (``app/ingest/journal.py``)."""
_J = f"(j:{JOURNAL_LABEL} {{_sha: $sha}})"
JOURNAL_BEGIN = (
    f"MERGE {_J} SET j._kind = $kind, j._state = 'running', j._owner = $owner, j._beat = $now, "
    "j._started = coalesce(j._started, $now), j._source = $source, j._payload = $payload, "
    "j._next = coalesce(j._next, 0), j._error = NULL, "
    "j._attempts = CASE WHEN $recovering THEN coalesce(j._attempts, 0) + 1 ELSE 1 END"
)
"""``_attempts``: how many times the entry was started; a recovery counts on, an ingest a caller asked for again
starts at 1."""
JOURNAL_BEAT = f"MATCH {_J} WHERE j._owner = $owner SET j._beat = $now"
JOURNAL_NEXT = f"MATCH {_J} SET j._next = $next"
JOURNAL_STOP = (
    f"MATCH {_J} SET j._state = $state, j._error = $error, j._owner = NULL, j._next = coalesce($next, j._next)"
)
JOURNAL_END = f"MATCH {_J} DELETE j"


VET_GRAPH_SEED = "CREATE ()"
"""Makes the throwaway graph exist: ``GRAPH.EXPLAIN`` needs one (``FalkorDBGraphStore.vet``)."""
_PROCEDURE_CALL = re.compile(r"\bCALL\s+[A-Za-z_][\w.]*\s*\(", re.IGNORECASE)


def with_marker(statement: str, marker: str) -> list[str]:
    """Single queries that run a script statement and then the journal's marker (``JOURNAL_NEXT``), in the order to
    try them. First the marker after the statement: ``count(*)`` leaves exactly one row for it, also when the
    statement matched nothing (a newline ends a trailing ``//`` comment). A statement that ends in its own
    ``RETURN`` is refused in that form: then the statement inside a ``CALL`` subquery, which keeps its rows to
    itself. A procedure call never goes inside ``CALL { }``: FalkorDB 4.16.3 dies of a segfault on
    ``CALL { CALL db.labels() }``."""
    tail = f"\nWITH count(*) AS _applied\n{marker}"
    forms = [f"{statement}{tail}"]
    if not _PROCEDURE_CALL.search(statement):
        forms.append(f"CALL {{\n{statement}\n}}{tail}")
    return forms


JOURNAL_OPEN = (
    f"MATCH (j:{JOURNAL_LABEL}) RETURN j._sha AS sha, j._kind AS kind, j._state AS state, j._owner AS owner, "
    "j._beat AS beat, j._started AS started, j._source AS source, j._next AS next, j._error AS error, "
    "coalesce(j._attempts, 1) AS attempts "
    "ORDER BY j._started"
)
JOURNAL_PAYLOAD = f"MATCH {_J} RETURN j._payload AS payload"
"""The kept content (up to 20 MB) is read only to finish an ingest, never to list entries."""
COUNT_NODES_QUERY = f"MATCH (n) WHERE NOT n:{INGEST_LOG_LABEL} AND NOT n:{JOURNAL_LABEL} RETURN count(n) AS c"
COUNT_RELS_QUERY = "MATCH ()-[r]->() RETURN count(r) AS c"


# --- engine-specific statements (the syntax differs between FalkorDB and Neo4j) -------------------------------
FALKORDB_LABELS = "CALL db.labels()"
FALKORDB_RELATIONSHIP_TYPES = "CALL db.relationshipTypes()"
FALKORDB_PROPERTY_KEYS = "CALL db.propertyKeys()"
NEO4J_LABELS = "CALL db.labels() YIELD label RETURN label"
NEO4J_RELATIONSHIP_TYPES = "CALL db.relationshipTypes() YIELD relationshipType RETURN relationshipType"
NEO4J_PROPERTY_KEYS = "CALL db.propertyKeys() YIELD propertyKey RETURN propertyKey"
NEO4J_DATABASES = "SHOW DATABASES YIELD name RETURN name"
NEO4J_DELETE_ALL = "MATCH (n) CALL { WITH n DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS"


def falkordb_node_index(label: str, prop: str) -> str:
    return f"CREATE INDEX FOR (n:`{ident(label, 'label')}`) ON (n.`{ident(prop, 'property')}`)"


def neo4j_node_index(name: str, label: str, prop: str) -> str:
    return (
        f"CREATE INDEX {ident(name, 'index name')} IF NOT EXISTS "
        f"FOR (n:`{ident(label, 'label')}`) ON (n.`{ident(prop, 'property')}`)"
    )


# --- lexical index (BM25 over document chunks) -----------------------------------------------------------------
ALL_CHUNKS = (
    f"MATCH (c:{CHUNK_LABEL})-[:{IS_CHUNK_OF}]->(p:{PAGE_LABEL}) "
    "RETURN c.id AS id, c.text AS text, c.index AS index, p.id AS page_id, p.title AS title, p.source AS source, "
    "c.section AS section, c.section_id AS section_id, c.uri AS uri"
)
"""Every chunk with its page's fields: what the BM25 index of a namespace is built from."""


# --- hybrid document retrieval: from pages, sections and entities to chunks -------------------------------------
PAGE_CHUNK_IDS = (
    f"UNWIND $ids AS pid MATCH (c:{CHUNK_LABEL})-[:{IS_CHUNK_OF}]->(p:{PAGE_LABEL} {{id: pid}}) "
    "RETURN pid AS src, c.id AS id, c.page_id AS page_id LIMIT $limit"
)
SECTION_CHUNK_IDS = (
    f"UNWIND $ids AS sid MATCH (s:{SUBCHAPTER_LABEL} {{id: sid}})-[:{HAS_CHUNK}]->(c:{CHUNK_LABEL}) "
    "RETURN sid AS src, c.id AS id, c.page_id AS page_id LIMIT $limit"
)
"""The chunks directly under each subchapter (not those of its subsections)."""
ENTITY_CHUNK_IDS = (
    f"UNWIND $names AS nm MATCH (e:{ENTITY_LABEL} {{name: nm}})-[:{CITED_IN}]->(c:{CHUNK_LABEL}) "
    "RETURN nm AS src, c.id AS id, c.page_id AS page_id LIMIT $limit"
)
"""The chunks citing each entity."""
ENTITY_PAGE_CHUNK_IDS = (
    f"UNWIND $names AS nm MATCH (e:{ENTITY_LABEL} {{name: nm}})<-[:{ABOUT}]-(:{PAGE_LABEL})"
    f"<-[:{IS_CHUNK_OF}]-(c:{CHUNK_LABEL}) RETURN nm AS src, c.id AS id, c.page_id AS page_id LIMIT $limit"
)
"""The chunks of the pages about each entity."""
BRIDGE_CHUNK_IDS = (
    f"UNWIND $ids AS cid MATCH (c:{CHUNK_LABEL} {{id: cid}})-[:{CITES}]->(e:{ENTITY_LABEL})"
    f"<-[:{ABOUT}]-(p:{PAGE_LABEL})<-[:{IS_CHUNK_OF}]-(t:{CHUNK_LABEL}) WHERE p.id <> c.page_id "
    "RETURN cid AS src, e.name AS name, t.id AS id, t.page_id AS page_id LIMIT $limit"
)
"""One bridge hop: from each chunk to the entities it cites that have a page of their own, and that page's chunks."""


# --- graph modes: a node set's neighbourhood --------------------------------------------------------------------
def display_of(v: str, by_label: Sequence[tuple[str, str | None]], keys: Sequence[str]) -> tuple[str, str]:
    """Cypher for node ``v``'s display value and the name of the property holding it: its first label in
    ``by_label`` ((label, display property or None for a label whose nodes name nothing) pairs, most specific
    first) that it carries, else the first of ``keys`` it has."""
    props = [ident(k, "property key") for k in keys] or ["name"]

    def then(k: str | None, as_key: bool) -> str:
        if k is None:
            return "null"
        return cypher_string(k) if as_key else f"{v}.`{ident(k, 'property key')}`"

    value_cases = " ".join(f"WHEN {v}:`{ident(lb, 'label')}` THEN {then(k, False)}" for lb, k in by_label)
    key_cases = " ".join(f"WHEN {v}:`{ident(lb, 'label')}` THEN {then(k, True)}" for lb, k in by_label)
    fallback = "coalesce(" + ", ".join(f"{v}.`{k}`" for k in props) + ")"
    fallback_key = "CASE " + " ".join(f"WHEN {v}.`{k}` IS NOT NULL THEN {cypher_string(k)}" for k in props) + " END"
    if not by_label:
        return fallback, fallback_key
    return f"CASE {value_cases} ELSE {fallback} END", f"CASE {key_cases} ELSE {fallback_key} END"


def neighbours(
    label: str | None,
    key: str,
    direction: str,
    by_label: Sequence[tuple[str, str | None]] = (),
    keys: Sequence[str] = ("name", "title"),
) -> str:
    """Edges of the nodes named in ``$names`` (``(:label {key: name})``; any node with that ``key`` when ``label``
    is None) in one direction, at most ``$limit`` rows: ``src, rel, other, labels, key`` (``other`` is the node
    reached's display value, ``key`` the property holding it: ``display_of``)."""
    k = ident(key, "property")
    node = f"(n {{`{k}`: nm}})" if label is None else f"(n:`{ident(label, 'label')}` {{`{k}`: nm}})"
    arrow = "-[r]->" if direction == "out" else "<-[r]-"
    value, which = display_of("m", by_label, keys)
    return (
        f"UNWIND $names AS nm MATCH {node}{arrow}(m) "
        f"WITH nm, type(r) AS rel, m, {value} AS other, {which} AS key WHERE other IS NOT NULL "
        "RETURN nm AS src, rel, toString(other) AS other, labels(m) AS labels, key LIMIT $limit"
    )


# --- make bench-save-race (app/eval/bench_save_race.py): a graph of many relationships, read and written ---------
SAVE_RACE_SETUP = (
    "UNWIND range(0, $n - 1) AS i CREATE (:A {id: i})",
    "CREATE INDEX FOR (a:A) ON (a.id)",
    "MATCH (a:A), (b:A) WHERE b.id = (a.id * 7 + 3) % $n CREATE (a)-[:R]->(b), (a)-[:R]->(b), (a)-[:S]->(b)",
)
SAVE_RACE_READS = (
    "MATCH (a:A {id: $i})-[r]->(b)-[s]->(c) RETURN count(r), count(s)",
    "MATCH (a:A)-[r:R]->(b:A) WHERE a.id < $i RETURN count(r)",
)
SAVE_RACE_WRITES = (
    "MATCH (a:A {id: $i}), (b:A {id: $j}) CREATE (a)-[:R]->(b)",
    "MATCH (a:A {id: $i})-[r:R]->() WITH r LIMIT 1 DELETE r",
)
