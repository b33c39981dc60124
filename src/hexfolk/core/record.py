"""Match records: game id + rules version + players + options + seed + every action text.

A record replays bit for bit: :func:`replay` parses every text against the state it was played
in (chance outcomes included) and fails loudly, naming the step, when a record is corrupt or
tampered with. Records are JSON, never pickles.

Entries keep the arrival order of the steps. A step taken by ``current_player()`` (or a chance
outcome) is its plain action text, as it always was; a step taken by another acting seat (an
answer to a trade offer, a discard or a combat commitment that arrived before the seat the
sequential walk names) is written ``"@<seat> <action text>"`` (:func:`record_entry`) and
replayed with ``parse_action_for`` / ``apply_for``.

A record is checked whole: besides every step, :func:`replay` compares every result field it
can derive (finished, winners, scores, turns), the final fingerprint, and the periodic
``checkpoints`` ``[step, fingerprint]`` (the state after that many entries, every
:data:`CHECKPOINT_EVERY` steps), so a changed step -- a tampered chance outcome that still
replays legally -- is named within the checkpoint interval where it was changed. Records
without checkpoints (written before they existed) still replay.

A record of a game that started from a position (``hexfolk play --position``) carries that
position document (``position``); its steps replay from :meth:`Game.load_position` of it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hexfolk.core.actions import Action
from hexfolk.core.errors import (
    ActionError,
    HexfolkError,
    OptionError,
    PositionError,
    RecordError,
)
from hexfolk.core.game import JSON, Game, State
from hexfolk.core.registry import load_game

FORMAT = "hexfolk-record"
FORMAT_VERSION = 1

CHECKPOINT_EVERY = 50
"""Steps between two checkpoints of a record (the state's fingerprint after that many steps)."""

SEAT_MARK = "@"
"""Prefix of an entry taken by a seat other than ``current_player()``: ``"@2 discard o"``."""


def record_entry(state: State, seat: int | None, action: Action | str) -> str:
    """The record entry of ``action`` taken by ``seat`` in ``state`` (before it is applied).

    ``seat`` None (a chance outcome, or "whoever is to move") and ``seat ==
    state.current_player()`` give the plain action text; any other seat gives
    ``"@<seat> <text>"``."""
    text = str(action)
    if seat is None or seat == state.current_player():
        return text
    return f"{SEAT_MARK}{seat} {text}"


def split_entry(entry: str) -> tuple[int | None, str]:
    """``(seat, action text)`` of a record entry (seat None for a plain entry); raise
    RecordError for a malformed seat mark."""
    if not entry.startswith(SEAT_MARK):
        return None, entry
    head, _, text = entry.partition(" ")
    digits = head[len(SEAT_MARK) :]
    if not digits.isdigit() or not digits.isascii() or not text.strip():
        raise RecordError(f"record entry {entry!r} is not '@<seat> <action>'")
    return int(digits), text


def apply_entry(state: State, entry: str) -> Action:
    """Parse one record entry against ``state`` and apply it (checked); return the action.
    Raise ActionError when it is not legal there, RecordError when it is malformed."""
    seat, text = split_entry(entry)
    if seat is None:
        action = state.parse_action(text)
        state.apply_unchecked(action)
        return action
    if not 0 <= seat < state.game.num_players:
        raise RecordError(f"record entry {entry!r} names seat {seat}, not at this table")
    action = state.parse_action_for(seat, text)
    state.apply_for(seat, action)
    return action


def result_of(state: State) -> dict[str, Any]:
    """The result fields ``state`` determines: ``finished`` (the game ended by its rules),
    ``winners`` (empty unless finished), ``scores`` and ``turns``. One formula for every
    record (:meth:`MatchRecord.played`) and for the replay's check (:func:`check_result`)."""
    finished = state.is_terminal()
    return {
        "finished": finished,
        "winners": state.winners() if finished else [],
        "scores": state.scores(),
        "turns": state.turn_count(),
    }


@dataclass
class MatchRecord:
    """Everything needed to rebuild a match. ``actions`` are the record entries in arrival
    order: canonical action texts, ``"@<seat> <text>"`` for a step by a seat other than the
    one ``current_player()`` named (:func:`record_entry`)."""

    game: str
    rules_version: str
    players: int
    options: dict[str, Any]
    seed: int
    actions: list[str] = field(default_factory=list)
    bots: list[str] = field(default_factory=list)
    result: dict[str, Any] = field(default_factory=dict)
    final_fingerprint: str | None = None
    checkpoints: list[tuple[int, str]] = field(default_factory=list)
    """``(step, fingerprint)``: the state's fingerprint after the first ``step`` entries, every
    :data:`CHECKPOINT_EVERY` steps (:class:`Checkpoints`); empty in records made before."""
    position: JSON | None = None
    """The position document the game started from (:meth:`Game.load_position`, e.g.
    ``hexfolk play --position``); ``None`` (and absent from the JSON): the game's initial
    state, :meth:`Game.new_initial_state`."""

    @classmethod
    def played(
        cls,
        game: Game,
        seed: int,
        entries: Sequence[str],
        state: State,
        *,
        bots: Sequence[str] = (),
        checkpoints: Sequence[tuple[int, str]] = (),
        position: JSON | None = None,
        fingerprint: bool = True,
        **result: Any,
    ) -> MatchRecord:
        """The record of ``game`` played from its start (or ``position``) through
        ``entries`` to ``state``: the one construction :class:`~hexfolk.core.Match`,
        ``hexfolk play`` and :meth:`from_steps` share. The result is :func:`result_of`
        ``state`` plus the keyword fields given (``quit=True``, ``table="..."``);
        ``fingerprint=False`` leaves the final fingerprint out (a record of a match whose
        actions were not kept)."""
        return cls(
            game=game.id,
            rules_version=game.rules_version,
            players=game.num_players,
            options=dict(game.options),
            seed=seed,
            actions=list(entries),
            bots=list(bots),
            result={**result_of(state), **result},
            final_fingerprint=state.fingerprint() if fingerprint else None,
            checkpoints=list(checkpoints),
            position=position,
        )

    def to_json(self) -> dict[str, Any]:
        extra: dict[str, Any] = {}
        if self.checkpoints:
            extra["checkpoints"] = [[step, fp] for step, fp in self.checkpoints]
        if self.position is not None:
            extra["position"] = self.position
        return {
            **extra,
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "game": self.game,
            "rules_version": self.rules_version,
            "players": self.players,
            "options": self.options,
            "seed": self.seed,
            "bots": self.bots,
            "actions": self.actions,
            "result": self.result,
            "final_fingerprint": self.final_fingerprint,
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=None, separators=(",", ":"), sort_keys=True)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.dumps() + "\n", encoding="utf-8")

    @classmethod
    def from_json(cls, data: Any) -> MatchRecord:
        """Validate the shape of a decoded record; raise RecordError naming the bad field."""
        if not isinstance(data, dict):
            raise RecordError("a record is a JSON object")
        if data.get("format") != FORMAT:
            raise RecordError(f"not a hexfolk record (format field is {data.get('format')!r})")
        if data.get("format_version") != FORMAT_VERSION:
            raise RecordError(f"unsupported record format version {data.get('format_version')!r}")
        checks: list[tuple[str, type | tuple[type, ...]]] = [
            ("game", str),
            ("rules_version", str),
            ("players", int),
            ("options", dict),
            ("seed", int),
            ("actions", list),
        ]
        for key, typ in checks:
            if not isinstance(data.get(key), typ) or isinstance(data.get(key), bool):
                raise RecordError(f"record field {key!r} is missing or has the wrong type")
        if not all(isinstance(a, str) for a in data["actions"]):
            raise RecordError("record field 'actions' must hold only action texts")
        fp = data.get("final_fingerprint")
        if fp is not None and not isinstance(fp, str):
            raise RecordError("record field 'final_fingerprint' must be text")
        checkpoints = _checkpoints_from_json(data.get("checkpoints"), len(data["actions"]))
        result = data.get("result") or {}
        if not isinstance(result, dict):
            raise RecordError("record field 'result' must be an object")
        position = data.get("position")
        if position is not None and not isinstance(position, dict):
            raise RecordError("record field 'position' must be a position document (an object)")
        return cls(
            game=data["game"],
            rules_version=data["rules_version"],
            players=data["players"],
            options=data["options"],
            seed=data["seed"],
            actions=list(data["actions"]),
            bots=list(data.get("bots") or []),
            result=dict(result),
            final_fingerprint=fp,
            checkpoints=checkpoints,
            position=position,
        )

    @classmethod
    def loads(cls, text: str) -> MatchRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"record is not valid JSON: {exc}") from None
        return cls.from_json(data)

    @classmethod
    def load(cls, path: str | Path) -> MatchRecord:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"cannot read record {path}: {exc}") from None
        return cls.loads(text)

    def make_game(self) -> Game:
        try:
            game = load_game(self.game, self.players, self.options)
        except (OptionError, HexfolkError) as exc:
            raise RecordError(f"record names a game that cannot be set up: {exc}") from None
        if game.rules_version != self.rules_version:
            raise RecordError(
                f"record was made with {self.game} rules {self.rules_version}; "
                f"this build has {game.rules_version}"
            )
        return game

    def start_state(self, game: Game) -> State:
        """The state the record's first entry is played in: ``game``'s initial state, or the
        one its :attr:`position` describes (RecordError if that document is refused)."""
        if self.position is None:
            return game.new_initial_state()
        try:
            return game.load_position(self.position)
        except PositionError as exc:
            raise RecordError(f"record's start position is refused: {exc}") from None
        except NotImplementedError as exc:
            raise RecordError(f"record starts from a position, but {exc}") from None

    def states(self, game: Game | None = None) -> Iterator[tuple[State, str | None]]:
        """Yield ``(state, next_action_text)`` along the record, last with ``None``.

        ``game`` replays with a given game object instead of the registry's (tests of doubles).
        """
        state = self.start_state(game or self.make_game())
        for i, text in enumerate(self.actions):
            yield state, text
            try:
                apply_entry(state, text)
            except ActionError as exc:
                raise RecordError(f"record step {i} ({text!r}) does not replay: {exc}") from None
            except RecordError as exc:
                raise RecordError(f"record step {i}: {exc}") from None
        yield state, None

    @classmethod
    def from_steps(
        cls,
        game: Game,
        seed: int,
        steps: Iterable[tuple[int | None, str]],
        *,
        bots: Sequence[str] = (),
        result: dict[str, Any] | None = None,
        position: JSON | None = None,
    ) -> MatchRecord:
        """The record of a game played as ``steps``: ``(seat, action text)`` in arrival order
        (seat None for chance outcomes and steps of the seat to move), e.g. a table server's
        event log, from the game's start or from ``position``. Every step is replayed
        (checked) to write its entry (:func:`record_entry`) and the final fingerprint;
        ``result`` defaults to the replayed state's (:func:`result_of`). Raises RecordError
        naming the first step that is not legal."""
        state = game.new_initial_state() if position is None else game.load_position(position)
        entries: list[str] = []
        marks = Checkpoints()
        for i, (seat, text) in enumerate(steps):
            entry = record_entry(state, seat, text.strip())
            try:
                apply_entry(state, entry)
            except (ActionError, RecordError) as exc:
                raise RecordError(f"step {i} ({entry!r}) is not legal: {exc}") from None
            entries.append(entry)
            marks.after_step(len(entries), state)
        record = cls.played(
            game, seed, entries, state, bots=bots, checkpoints=marks.items, position=position
        )
        if result is not None:
            record.result = dict(result)
        return record


class Checkpoints:
    """Collects a record's checkpoints while a game is played: call :meth:`after_step` with
    the number of entries so far and the state after them."""

    def __init__(self, every: int = CHECKPOINT_EVERY):
        self.every = every
        self.items: list[tuple[int, str]] = []

    def after_step(self, steps: int, state: State) -> None:
        if self.every > 0 and steps % self.every == 0:
            self.items.append((steps, state.fingerprint()))


def _checkpoints_from_json(value: Any, steps: int) -> list[tuple[int, str]]:
    """Validate ``checkpoints``: ``[[step, fingerprint], ...]``, steps increasing, in range."""
    if value is None:
        return []
    bad = RecordError("record field 'checkpoints' must be a list of [step, fingerprint] pairs")
    if not isinstance(value, list):
        raise bad
    out: list[tuple[int, str]] = []
    for item in value:
        if not (isinstance(item, list) and len(item) == 2):
            raise bad
        step, fp = item
        if not isinstance(step, int) or isinstance(step, bool) or not isinstance(fp, str):
            raise bad
        if not 0 < step <= steps or (out and step <= out[-1][0]):
            raise RecordError(
                f"record checkpoint at step {step} is out of order or beyond the "
                f"{steps} recorded steps"
            )
        out.append((step, fp))
    return out


def replay(record: MatchRecord, *, verify: bool = True, game: Game | None = None) -> State:
    """Rebuild the final state of a record; raise RecordError on any mismatch.

    With ``verify`` the record is checked whole: every checkpoint (the fingerprint after its
    step; a mismatch names the steps since the previous checkpoint, where the record was
    changed), the final fingerprint, and every result field the replay can derive
    (``finished``, ``winners``, ``scores``, ``turns``).
    """
    final: State | None = None
    marks = dict(record.checkpoints) if verify else {}
    previous = 0
    for step, (state, _) in enumerate(record.states(game)):
        final = state
        expected = marks.get(step)
        if expected is not None:
            if state.fingerprint() != expected:
                raise RecordError(
                    f"record steps {previous + 1}..{step}: the state after step {step} does not "
                    f"match the record's checkpoint, so one of these steps was changed"
                )
            previous = step
    assert final is not None
    if verify:
        if record.final_fingerprint is not None and final.fingerprint() != record.final_fingerprint:
            since = f" (a step after {previous} was changed)" if record.checkpoints else ""
            raise RecordError(
                f"record's final fingerprint does not match the replayed state{since}"
            )
        check_result(record, final)
    return final


def check_result(record: MatchRecord, final: State) -> None:
    """Every field of ``record.result`` the replayed final state determines must agree
    (missing fields are not checked: records written before them still replay)."""
    result = record.result
    derived = result_of(final)
    derived["scores"] = [float(x) for x in derived["scores"]]
    for key, value in derived.items():
        if key not in result:
            continue
        stored = result[key]
        if key == "scores":
            ok = isinstance(stored, list) and all(
                isinstance(x, int | float) and not isinstance(x, bool) for x in stored
            )
            same = ok and [float(x) for x in stored] == value
        elif key == "winners":
            same = isinstance(stored, list) and list(stored) == value
        else:
            same = type(stored) is type(value) and stored == value
        if not same:
            raise RecordError(f"record says {key} {stored!r}, the replay gives {value!r}")
