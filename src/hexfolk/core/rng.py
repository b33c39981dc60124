"""Seeded random streams. Nothing in Hexfolk uses the ``random`` module's global functions.

Streams are derived from a master seed and a label with SHA-256, so they are identical across
processes, machines and Python hash seeds.
"""

from __future__ import annotations

import hashlib
import random


def derive_seed(seed: int, *labels: object) -> int:
    """A 64-bit seed derived from ``seed`` and labels (stable everywhere)."""
    text = ":".join([str(seed), *map(str, labels)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def make_rng(seed: int, *labels: object) -> random.Random:
    """A fresh ``random.Random`` for the stream ``(seed, labels...)``."""
    return random.Random(derive_seed(seed, *labels))
