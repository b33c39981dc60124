"""A bot playing a seat over the wire (``hexfolk connect``): it sees only the view the server
sends (the seat's observation and legal action texts).

Bots that only read ``observation.data`` (island ``easy`` and ``medium``, ``random``) play as
they do locally. A search bot asks for resampled worlds (``sample_world``), which need the true
state; a remote client has none, so for such a decision the seat falls back to the random bot
and says so once (see ``docs/server.md``).
"""

from __future__ import annotations

import random
from typing import Any

from hexfolk.bots.registry import make_bot
from hexfolk.core import Action, Bot, Game, load_game


class NoWorldOverTheWire(NotImplementedError):
    """A remote bot asked for a resampled world."""


class WireObservation:
    """The observation a remote bot gets: the view's JSON, the seat, the game."""

    def __init__(self, data: dict[str, Any], seat: int, game: Game):
        self.data = data
        self.seat = seat
        self.game = game

    def sample_world(self, rng: random.Random) -> Any:
        raise NoWorldOverTheWire("a remote client cannot resample hidden information")


class RemoteBot:
    """Chooses an action text from a ``view`` message."""

    def __init__(self, code: str, table: dict[str, Any]):
        self.code = code
        self.game = load_game(table["game"], table["players"], table["options"])
        self.bot: Bot = make_bot(code, self.game.id)
        self.fallback: Bot = make_bot("random", self.game.id)
        self.fell_back = 0

    def choose(self, view: dict[str, Any], log: list[str], rng: random.Random) -> str:
        """``view``: the newest ``view`` message; ``log``: the seat's whole log so far (the
        view carries only new lines), put back into the observation as the engine has it."""
        seat = int(view["seat"])
        legal: list[Action] = [self.game.parse_canonical(e["action"]) for e in view["legal"]]
        data = dict(view["observation"])
        data["log"] = list(log)
        obs = WireObservation(data, seat, self.game)
        try:
            action = self.bot.choose(obs, legal, rng)  # type: ignore[arg-type]
        except NoWorldOverTheWire:
            self.fell_back += 1
            action = self.fallback.choose(obs, legal, rng)  # type: ignore[arg-type]
        return str(action)
