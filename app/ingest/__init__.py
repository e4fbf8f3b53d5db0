"""Ingestion: parsers for triples, documents and Cypher scripts, and the service that writes them to both stores."""
