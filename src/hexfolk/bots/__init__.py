"""Bots: the random bot here; heuristic and search bots per game (later)."""

from hexfolk.bots.random_bot import RandomBot
from hexfolk.bots.registry import bot_names, make_bot

__all__ = ["RandomBot", "bot_names", "make_bot"]
