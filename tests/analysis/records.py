"""Bot games and positions the analysis tests share (issue 29 point 6): short, seeded, real."""

from __future__ import annotations

from functools import cache

from hexfolk.bots.registry import make_bot
from hexfolk.core import Match, MatchRecord, load_game
from hexfolk.core.record import split_entry


@cache
def bot_record(game_id: str, players: int, codes: tuple[str, ...], seed: int, cap: int) -> str:
    """The record (JSON text) of a seeded bot game stopped at turn ``cap`` (0: played out)."""
    game = load_game(game_id, players)
    bots = [make_bot(code, game_id) for code in codes]
    return Match(game, bots, seed, turn_cap=cap).run().record.dumps()


def record(game_id: str, players: int, codes: tuple[str, ...], seed: int, cap: int) -> MatchRecord:
    """A fresh :class:`MatchRecord` of :func:`bot_record`."""
    return MatchRecord.loads(bot_record(game_id, players, codes, seed, cap))


def ending(full: MatchRecord, last: int) -> MatchRecord:
    """The record of ``full``'s last ``last`` steps, started from the position before them
    (``State.position()`` of the real game: a real position, hidden cards included)."""
    game = full.make_game()
    cut = len(full.actions) - last
    for step, (state, _) in enumerate(full.states(game)):
        if step == cut:
            position = state.position()
            break
    steps = [split_entry(e) for e in full.actions[cut:]]
    return MatchRecord.from_steps(game, full.seed, steps, position=position)
