"""Migration scripts, one per schema version."""
