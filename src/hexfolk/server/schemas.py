"""Request bodies of the HTTP API (pydantic models, so they appear in the OpenAPI schema)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt

BotLevel = Literal["random", "easy", "medium", "hard"]
ClockSetting = Any
"""A clock: seconds (one of its presets), ``"unlimited"`` or null. Any other value is refused
by the lobby (``bad_clock``) with the list of presets, not by the schema."""


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewPlayer(_Body):
    """``POST /api/players``: a display name (1-24 letters, digits, space, ``-_.``)."""

    name: str = Field(examples=["Ann"])


class SeatSpec(_Body):
    """One seat when creating a table: ``open``, a ``bot`` of a level, or the ``host``."""

    kind: Literal["open", "bot", "host"] = "open"
    level: BotLevel | None = None


class Disconnect(_Body):
    """What happens to the seat of a person who disconnects: ``wait``, or a ``bot`` plays it
    after ``grace`` seconds (until the person returns)."""

    policy: Literal["wait", "bot"] = "bot"
    grace: StrictInt | StrictFloat = 60


class NewTable(_Body):
    """``POST /api/tables``. Options are checked by the game's own option specs."""

    game: str = Field(examples=["island"])
    players: StrictInt | None = Field(default=None, examples=[4])
    options: dict[str, Any] = Field(default_factory=dict, examples=[{"vp_target": 10}])
    clock: ClockSetting = Field(
        default=120,
        description='seconds per turn: 30, 45, 60, 90, 120, 180, 240, 300; null or "unlimited"',
    )
    commit_clock: ClockSetting = Field(
        default=None,
        description="seconds per secret combat commitment (Scythe): 15, 30, 45, 60, 90, 120; "
        'null or "unlimited"; omitted: 60, or unlimited with an unlimited turn clock',
    )
    public: StrictBool = True
    spectators: StrictBool = True
    disconnect: Disconnect = Field(default_factory=Disconnect)
    bot_delay: StrictInt | StrictFloat = Field(default=0.8, description="0..5 s")
    seats: list[SeatSpec] | None = Field(
        default=None, description="one per player; default: the host at seat 0, others open"
    )
    seed: StrictInt | None = Field(
        default=None, description="only on a server started with --allow-seeded-tables"
    )
    rated: StrictBool = Field(
        default=False,
        description="a rated game (docs/ratings.md): accounts only; false: casual",
    )
    min_karma: StrictInt | None = Field(
        default=None, description="the least karma (1..100 %) to take a seat; null: none"
    )


class TableChanges(_Body):
    """``PATCH /api/tables/{id}`` (host, before the start): any subset of the settings."""

    players: StrictInt | None = None
    options: dict[str, Any] | None = None
    clock: ClockSetting = Field(
        default=None, description='seconds, or "unlimited"; omitted: unchanged'
    )
    commit_clock: ClockSetting = Field(
        default=None, description='seconds, or "unlimited"; omitted: unchanged'
    )
    public: StrictBool | None = None
    spectators: StrictBool | None = None
    disconnect: Disconnect | None = None
    bot_delay: StrictInt | StrictFloat | None = None
    rated: StrictBool | None = Field(
        default=None, description="rated (accounts only) or casual; omitted: unchanged"
    )
    min_karma: StrictInt | None = Field(
        default=None, description="1..100 (%), or null for none; omitted: unchanged"
    )


class SeatChange(_Body):
    """``PUT /api/tables/{id}/seats/{seat}`` (host): make a seat ``open`` or a ``bot``."""

    kind: Literal["open", "bot"]
    level: BotLevel | None = None


class JoinSeat(_Body):
    """``POST /api/tables/{id}/join``: a seat number, or null for the first open seat."""

    seat: StrictInt | None = None


class Kick(_Body):
    seat: StrictInt


class FillBots(_Body):
    level: BotLevel = "medium"
