"""Run records: the versioned schema, the append-only store, and provenance."""
