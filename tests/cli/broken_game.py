"""A game module that fails while importing (stands for a half-written game)."""

raise RuntimeError("half-written rules")
