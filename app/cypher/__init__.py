"""All Cypher text the service builds lives in this package (dialect-neutral unless a function says otherwise)."""
