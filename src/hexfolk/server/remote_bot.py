"""A bot playing a seat over the wire (``hexfolk connect``): it sees only the view the server
sends (the seat's observation and legal action texts).

Bots that only read ``observation.data`` (island ``easy`` and ``medium``, ``random``) play as
they do locally. A search bot (island ``hard``, every Scythe level) asks for resampled worlds
(``sample_world``): over the wire these come from :meth:`Game.world_from_observation`, a full
state rebuilt from the seat's observation alone with everything hidden drawn at random (the
first world of a decision is rebuilt from the observation; the next ones are redrawn from it
with ``sample_consistent_state``, which redraws exactly what the seat cannot see). Both games
of this project have the hook; only for a game without it (its ``world_from_observation``
raises NotImplementedError) does the seat fall back to the random bot for that decision,
counted in :attr:`RemoteBot.fell_back` and said once at the end (``docs/server.md``).
"""

from __future__ import annotations

import asyncio
import random
import traceback
from collections.abc import Callable
from typing import Any

from hexfolk.bots.registry import make_bot
from hexfolk.core import Action, Bot, Game, LogLine, State, load_game
from hexfolk.server.client import TableConnection


class NoWorldOverTheWire(NotImplementedError):
    """A remote bot asked for a resampled world of a game that cannot rebuild one."""


class WireObservation:
    """The observation a remote bot gets: the view's JSON, the seat, the game; its worlds are
    rebuilt from the observation (:meth:`Game.world_from_observation`)."""

    def __init__(
        self, data: dict[str, Any], seat: int, game: Game, people: frozenset[int] = frozenset()
    ):
        self.data = data
        self.seat = seat
        self.game = game
        self.people = people
        """The seats the table lists as a person's (:attr:`hexfolk.core.Observation.people`;
        over the wire every connected seat is one, another remote bot's too)."""
        self._world: State | None = None

    @property
    def rebuilt(self) -> bool:
        """Whether a world was rebuilt from this observation."""
        return self._world is not None

    def sample_world(self, rng: random.Random) -> State:
        """A full state this seat cannot tell from the real one, drawn from ``rng``."""
        if self._world is None:
            try:
                self._world = self.game.world_from_observation(self.data, self.seat, rng)
            except NotImplementedError as exc:
                raise NoWorldOverTheWire(str(exc)) from exc
            return self._world.clone()
        return self._world.sample_consistent_state(self.seat, rng)


def people_of(table: dict[str, Any]) -> frozenset[int]:
    """The seats of ``table`` (a ``table`` message's description) held by a person."""
    return frozenset(
        int(entry["seat"]) for entry in table.get("seats") or () if entry.get("kind") == "person"
    )


class RemoteBot:
    """Chooses an action text from a ``view`` message."""

    def __init__(self, code: str, table: dict[str, Any]):
        self.code = code
        self.game = load_game(table["game"], table["players"], table["options"])
        self.bot: Bot = make_bot(code, self.game.id)
        self.people = people_of(table)
        """The seats people play, from the table's seats (the table's context for the bot)."""
        self.fallback: Bot = make_bot("random", self.game.id)
        self.fell_back = 0
        """Decisions the random bot took because the game cannot rebuild a world."""
        self.searched = 0
        """Decisions that used worlds rebuilt from the observation."""
        self.replaced = 0
        """Choices the table refused (a world may allow what the table does not, e.g. a trade
        with a seat whose hidden hand can no longer pay), replaced by a random listed one."""
        self.decisions = 0
        """Decisions taken (one per view that asked this seat for one)."""
        self.failures = 0
        """Decisions the bot failed to take (it raised): reported with the traceback and
        replaced by a random listed action, so the seat's clock does not run out."""
        self.rate_limited = 0
        """Actions the server refused as too fast (``rate_limited``), sent again after a pause."""

    def replace(self, view: dict[str, Any], rng: random.Random) -> str:
        """A random listed action for ``view``, after the table refused this bot's choice."""
        self.replaced += 1
        return str(rng.choice(view["legal"])["action"])

    def choose(self, view: dict[str, Any], log: list[LogLine], rng: random.Random) -> str:
        """``view``: the newest ``view`` message; ``log``: the seat's whole log so far (the
        view carries only new lines; :class:`~hexfolk.core.LogLine` values again, with their
        forms and params), put back into the observation as the engine has it."""
        seat = int(view["seat"])
        legal: list[Action] = [self.game.parse_canonical(e["action"]) for e in view["legal"]]
        data = dict(view["observation"])
        data["log"] = list(log)
        obs = WireObservation(data, seat, self.game, self.people)
        try:
            action = self.bot.choose(obs, legal, rng)  # type: ignore[arg-type]
        except NoWorldOverTheWire:
            self.fell_back += 1
            action = self.fallback.choose(obs, legal, rng)  # type: ignore[arg-type]
        else:
            self.searched += obs.rebuilt
        return str(action)


RATE_RETRY = 0.25
"""Seconds ``play_seat`` waits before it sends an action refused as ``rate_limited`` again."""

REFUSED = frozenset(("illegal", "malformed", "ambiguous"))
"""Error codes of an action the engine refused (``docs/protocol.md``)."""


class ConnectionClosed(ConnectionError):
    """The server closed the table connection before the game ended."""


class ServerRefused(ConnectionError):
    """The server refused the connection's identity (a bad or missing token, no such table)."""


def _decide(
    player: RemoteBot,
    view: dict[str, Any],
    log: list[LogLine],
    rng: random.Random,
    report: Callable[[str], None],
) -> str:
    """The bot's choice; a bot that raises is reported with its traceback, counted, and a
    random listed action is played instead (the seat's clock never runs out for it)."""
    player.decisions += 1
    try:
        return player.choose(view, log, rng)
    except Exception:
        player.failures += 1
        report(
            f"bot failure: the {player.code} bot raised; a random listed action plays\n"
            + traceback.format_exc().rstrip()
        )
        return str(rng.choice(view["legal"])["action"])


async def play_seat(
    conn: TableConnection,
    player: RemoteBot,
    rng: random.Random,
    report: Callable[[str], None] = lambda _line: None,
    *,
    max_decisions: int | None = None,
) -> dict[str, Any]:
    """Play ``conn``'s seat with ``player`` until the game ends (or, with ``max_decisions``,
    until it has taken that many decisions); return the last view.

    This is ``hexfolk connect``'s loop: it decides on the newest view only, once per version,
    and passes every other error message to ``report`` (a refused action is decided again on
    the next view; one refused as ``rate_limited`` is sent again after :data:`RATE_RETRY` s,
    which a connection paced to the server's rate never sees). Raises :class:`ServerRefused`
    for a bad token or table, and :class:`ConnectionClosed` when the server closes the
    connection."""
    acted = -1
    last = ""
    while True:
        try:
            msg = await conn.recv(timeout=3600)
        except TimeoutError:
            continue
        kind = msg.get("type")
        if kind == "error":
            report(f"server: {msg.get('code')}: {msg.get('message')}")
            if msg.get("code") in ("bad_token", "no_token", "not_found"):
                raise ServerRefused(str(msg.get("message")))
            current = conn.view
            if (
                msg.get("code") == "rate_limited"
                and current is not None
                and current["legal"]
                and current["version"] == acted
            ):  # too fast for the server: the same choice again after a pause
                player.rate_limited += 1
                await asyncio.sleep(RATE_RETRY)
                await conn.act(last, current["version"])
            elif (
                msg.get("code") in REFUSED
                and current is not None
                and current["legal"]
                and current["version"] == acted
            ):  # the table refused the choice: a listed action instead, once per refusal
                last = player.replace(current, rng)
                await conn.act(last, current["version"])
            continue
        if kind != "view":
            continue
        view: dict[str, Any] = msg
        if view["status"] == "finished":
            return view
        if view is not conn.view:
            continue  # a newer view is already queued: decide on that one
        if view["legal"] and view["version"] != acted:
            if max_decisions is not None and player.decisions >= max_decisions:
                return view
            acted = view["version"]
            last = _decide(player, view, conn.log, rng, report)
            await conn.act(last, view["version"])
        if conn.closed.is_set():
            raise ConnectionClosed("the server closed the connection")
