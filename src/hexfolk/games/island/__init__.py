"""The island rules engine (being written)."""
