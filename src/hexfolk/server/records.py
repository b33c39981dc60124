"""Finished games: the match record (the kernel's :class:`MatchRecord`), the replay, the
statistics of stand-in and timed-out turns.

The record holds every step's text in order (chance outcomes included), so ``hexfolk replay``
rebuilds it without any seed; the table's secret seed is never published (``seed`` is 0).
A step played by a seat other than ``current_player()`` is written ``@<seat> <action>``
(the kernel's ``record_entry``). The record carries a checkpoint (the state's fingerprint)
every :data:`~hexfolk.core.record.CHECKPOINT_EVERY` (50) steps, so ``hexfolk replay`` names a
tampered step within 50 steps.

Everything here reads the game *as played*: undone steps and the ``undo`` events that took
them back are left out (:func:`~hexfolk.server.undo.live_events`); ``statistics`` counts the
undos per seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hexfolk.core import MatchRecord, State, load_game
from hexfolk.core.record import Checkpoints, record_entry
from hexfolk.server.models import EventRow, TableRow
from hexfolk.server.undo import live_events
from hexfolk.server.views import log_json, observation_json


def seat_labels(row: TableRow, names: dict[str, str]) -> list[str]:
    out = []
    for seat in row.seats:
        if seat.get("kind") == "bot":
            out.append(str(seat.get("level")))
        elif seat.get("kind") == "person":
            out.append(f"human:{names.get(str(seat.get('player_id')), 'person')}")
        else:
            out.append("open")
    return out


def replay_events(
    row: TableRow, events: Sequence[EventRow], marks: Checkpoints | None = None
) -> tuple[State, list[str]]:
    """The final state and the record's action texts (of the game as played), collecting
    checkpoints in ``marks`` when given."""
    game = load_game(row.game, row.players, row.options)
    state = game.new_initial_state()
    texts: list[str] = []
    for ev in live_events(events):
        if ev.kind == "chance":
            action = state.parse_action(ev.action)
            texts.append(str(action))
            state.apply(action)
        else:
            assert ev.seat is not None
            action = state.parse_action_for(ev.seat, ev.action)
            texts.append(record_entry(state, ev.seat, action))
            state.apply_for(ev.seat, action)
        if marks is not None:
            marks.after_step(len(texts), state)
    return state, texts


def build_record(row: TableRow, events: Sequence[EventRow], names: dict[str, str]) -> MatchRecord:
    """The kernel's match record of a table, with a checkpoint every 50 steps."""
    marks = Checkpoints()
    state, texts = replay_events(row, events, marks)
    return MatchRecord.played(
        state.game,
        0,
        texts,
        state,
        bots=seat_labels(row, names),
        checkpoints=marks.items,
        table=row.id,
    )


def statistics(events: Sequence[EventRow], players: int) -> dict[str, Any]:
    """Per seat: decisions, bot decisions, stand-in decisions, time-outs, bot failures (bot
    steps the clock's default played because the bot failed; of the game as played), and undos
    (how many undo requests the seat made)."""
    stats = [
        {
            "seat": s,
            "decisions": 0,
            "stand_in": 0,
            "timeouts": 0,
            "bot": 0,
            "bot_failures": 0,
            "undos": 0,
        }
        for s in range(players)
    ]
    for ev in events:
        if ev.kind == "undo" and ev.seat is not None and 0 <= ev.seat < players:
            stats[ev.seat]["undos"] += 1
    for ev in live_events(events):
        if ev.seat is None or not 0 <= ev.seat < players:
            continue
        entry = stats[ev.seat]
        entry["decisions"] += 1
        entry["stand_in"] += int(ev.stand_in)
        entry["timeouts"] += int(ev.timeout)
        entry["bot"] += int(ev.bot and not ev.stand_in)
        entry["bot_failures"] += int(bool(ev.bot_failed))
    return {"seats": stats}


def replay_steps(
    row: TableRow,
    events: Sequence[EventRow],
    start: int,
    limit: int,
    reveal: bool,
    new_log: bool = False,
) -> list[dict[str, Any]]:
    """Steps ``start..start+limit-1`` of a finished game: the public view after each step
    (and, with ``reveal``, every seat's view: allowed only once the game is over).

    With ``new_log`` a step's public view leaves its log out and the step carries the lines
    that changed since the step before (``log_start``, ``log``: as a view message does,
    ``docs/protocol.md``): a view's whole log in every step makes a page of 200 steps grow
    with the square of the game's length (85 MB and 24 s for the last page of a 4,300-step
    island game), while the browser shows the last lines of one step at a time."""
    game = load_game(row.game, row.players, row.options)
    state = game.new_initial_state()
    out: list[dict[str, Any]] = []
    before: list[Any] = []  # the public log after the step before (new_log)

    def snapshot(index: int, ev: EventRow | None) -> dict[str, Any]:
        nonlocal before
        step: dict[str, Any] = {
            "step": index,
            "seat": None if ev is None else ev.seat,
            "action": None if ev is None else ev.action,
            "timeout": bool(ev and ev.timeout),
            "stand_in": bool(ev and ev.stand_in),
        }
        obs = state.observation(None)
        if new_log:
            log = list(obs.pop("log", None) or [])
            since = changed_from(before, log)
            step["log_start"] = since
            step["log"] = log_json(log[since:])
            step["observation"] = obs
            before = log
        else:
            step["observation"] = observation_json(obs)
        if reveal:
            step["seats"] = [
                observation_json(state.observation(s)) for s in range(game.num_players)
            ]
        return step

    def public_log() -> list[Any]:
        return list(state.observation(None).get("log") or [])

    if start == 0:
        out.append(snapshot(0, None))
    elif new_log and start == 1:
        before = public_log()  # the first step sent says what changed since the start
    for i, ev in enumerate(live_events(events), start=1):
        if len(out) >= limit:
            break
        if ev.kind == "chance":
            state.apply(state.parse_action(ev.action))
        else:
            assert ev.seat is not None
            state.apply_for(ev.seat, state.parse_action_for(ev.seat, ev.action))
        if i >= start:
            out.append(snapshot(i, ev))
        elif new_log and i == start - 1:
            before = public_log()  # the first step sent says what changed since this one
    return out


def changed_from(before: list[Any], log: list[Any]) -> int:
    """The first line of ``log`` that is not ``before``'s (``len(before)`` when ``log`` only
    adds lines to it)."""
    n = min(len(before), len(log))
    if log[:n] == before[:n]:
        return n
    return next(i for i in range(n) if log[i] != before[i])
