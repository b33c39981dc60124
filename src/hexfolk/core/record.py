"""Match records: game id + rules version + players + options + seed + every action text.

A record replays bit for bit: :func:`replay` parses every text against the state it was played
in (chance outcomes included) and fails loudly, naming the step, when a record is corrupt or
tampered with. Records are JSON, never pickles.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hexfolk.core.errors import ActionError, HexfolkError, OptionError, RecordError
from hexfolk.core.game import Game, State
from hexfolk.core.registry import load_game

FORMAT = "hexfolk-record"
FORMAT_VERSION = 1


@dataclass
class MatchRecord:
    """Everything needed to rebuild a match. ``actions`` are canonical action texts."""

    game: str
    rules_version: str
    players: int
    options: dict[str, Any]
    seed: int
    actions: list[str] = field(default_factory=list)
    bots: list[str] = field(default_factory=list)
    result: dict[str, Any] = field(default_factory=dict)
    final_fingerprint: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
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
        return cls(
            game=data["game"],
            rules_version=data["rules_version"],
            players=data["players"],
            options=data["options"],
            seed=data["seed"],
            actions=list(data["actions"]),
            bots=list(data.get("bots") or []),
            result=dict(data.get("result") or {}),
            final_fingerprint=fp,
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

    def states(self, game: Game | None = None) -> Iterator[tuple[State, str | None]]:
        """Yield ``(state, next_action_text)`` along the record, last with ``None``.

        ``game`` replays with a given game object instead of the registry's (tests of doubles).
        """
        state = (game or self.make_game()).new_initial_state()
        for i, text in enumerate(self.actions):
            yield state, text
            try:
                action = state.parse_action(text)
            except ActionError as exc:
                raise RecordError(f"record step {i} ({text!r}) does not replay: {exc}") from None
            state.apply_unchecked(action)
        yield state, None


def replay(record: MatchRecord, *, verify: bool = True, game: Game | None = None) -> State:
    """Rebuild the final state of a record; raise RecordError on any mismatch.

    With ``verify``, a recorded final fingerprint must match the rebuilt state, and so must a
    recorded list of winners.
    """
    final: State | None = None
    for state, _ in record.states(game):
        final = state
    assert final is not None
    if verify:
        if record.final_fingerprint is not None and final.fingerprint() != record.final_fingerprint:
            raise RecordError("record's final fingerprint does not match the replayed state")
        winners = record.result.get("winners")
        if winners is not None and final.is_terminal() and list(winners) != final.winners():
            raise RecordError(f"record says winners {winners}, the replay gives {final.winners()}")
    return final
