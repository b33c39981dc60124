"""The scythe rules engine (being written)."""
