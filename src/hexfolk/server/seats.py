"""Lobby seats over a typed table settings object: who sits where, what the host may change
before the start, and how a table describes itself (``table_json``).

A seat is a :class:`Seat` (``open``, a ``person`` or a ``bot`` of a level); the table's
settings are a :class:`TableSettings`. Both are stored in the table row as plain JSON (the row's
``seats`` column keeps the same dicts as before), and read back from it with :func:`seats_of`
and :meth:`TableSettings.of`. Every lobby operation here is a pure function of the seats: it
returns new seats or raises an :class:`~hexfolk.server.errors.ApiError` and changes nothing.
A live table applies them (:mod:`hexfolk.server.table_lobby`); the room runs that in its task,
saves the row and then has the connections told (:mod:`hexfolk.server.room`).
"""

from __future__ import annotations

import dataclasses
import weakref
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from hexfolk.server.errors import ApiError, forbidden
from hexfolk.server.models import PlayerRow, TableRow

SeatKind = Literal["open", "person", "bot"]


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat: ``open``, a ``person`` (``player_id``, the name they had when they sat
    down) or a ``bot`` of ``level``."""

    kind: SeatKind
    player_id: str | None = None
    name: str | None = None
    level: str | None = None

    @classmethod
    def open(cls) -> Seat:
        return cls("open")

    @classmethod
    def person(cls, player: PlayerRow) -> Seat:
        return cls("person", player_id=player.id, name=player.name)

    @classmethod
    def bot(cls, level: str | None) -> Seat:
        return cls("bot", level=level)

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> Seat:
        kind = doc.get("kind", "open")
        if kind == "person":
            pid = doc.get("player_id")
            return cls("person", player_id=str(pid) if pid else None, name=doc.get("name"))
        if kind == "bot":
            return cls("bot", level=doc.get("level"))
        return cls("open")

    def to_json(self) -> dict[str, Any]:
        """The stored form (the row's ``seats`` column)."""
        if self.kind == "person":
            return {"kind": "person", "player_id": self.player_id, "name": self.name}
        if self.kind == "bot":
            return {"kind": "bot", "level": self.level}
        return {"kind": "open"}

    def held_by(self, player_id: str | None) -> bool:
        return self.kind == "person" and player_id is not None and self.player_id == player_id


_TYPED: weakref.WeakKeyDictionary[TableRow, tuple[list[dict[str, Any]], tuple[Seat, ...]]]
_TYPED = weakref.WeakKeyDictionary()
"""Each live row's seats as last typed, with the ``row.seats`` list they were read from: a
step reads them several times (the view's seats and undo offer, the bots, the sender), and a
change replaces the list (:func:`store_seats`; nothing writes into it)."""


def seats_of(row: TableRow) -> list[Seat]:
    """The row's seats, typed (a new list each call; read once per ``row.seats`` list)."""
    raw = row.seats
    known = _TYPED.get(row)
    if known is None or known[0] is not raw:
        known = (raw, tuple(Seat.from_json(s) for s in raw))
        _TYPED[row] = known
    return list(known[1])


def store_seats(row: TableRow, seats: Sequence[Seat]) -> None:
    """Write ``seats`` into the row (a new list: the row's column value changes)."""
    row.seats = [s.to_json() for s in seats]


@dataclass(frozen=True, slots=True)
class TableSettings:
    """What the host chooses before the start (``POST /api/tables``, ``PATCH``)."""

    players: int
    options: dict[str, Any]
    clock: float | None
    commit_clock: float | None
    public: bool
    spectators: bool
    disconnect_policy: str
    grace: float
    bot_delay: float
    rated: bool
    """A rated game: accounts only (``docs/ratings.md``)."""
    min_karma: int | None

    @classmethod
    def of(cls, row: TableRow) -> TableSettings:
        return cls(**{f.name: getattr(row, f.name) for f in dataclasses.fields(cls)})

    def changed(self, changes: Mapping[str, Any]) -> TableSettings:
        """These settings with ``changes`` (already validated by ``lobby``); an unknown key
        is a bug and raises ``TypeError``."""
        return dataclasses.replace(self, **changes)

    def write(self, row: TableRow) -> None:
        for f in dataclasses.fields(self):
            setattr(row, f.name, getattr(self, f.name))


def lobby_columns(row: TableRow) -> dict[str, Any]:
    """The columns a lobby change saves: the seats, the settings, the status and the host."""
    settings = {f.name: getattr(row, f.name) for f in dataclasses.fields(TableSettings)}
    return {
        "seats": row.seats,
        **settings,
        "status": row.status,
        "host_id": row.host_id,
        "updated_at": row.updated_at,
    }


# --- who sits where ---------------------------------------------------------------------------
def seat_of(seats: Sequence[Seat], player_id: str | None) -> int | None:
    """The seat ``player_id`` holds, or None."""
    for i, seat in enumerate(seats):
        if seat.held_by(player_id):
            return i
    return None


def person_seats(seats: Sequence[Seat]) -> list[int]:
    return [i for i, s in enumerate(seats) if s.kind == "person"]


def open_seats(seats: Sequence[Seat]) -> list[int]:
    return [i for i, s in enumerate(seats) if s.kind == "open"]


def persons(seats: Sequence[Seat]) -> dict[str, int]:
    """Who holds which seat: player id → seat."""
    return {s.player_id: i for i, s in enumerate(seats) if s.kind == "person" and s.player_id}


# --- the checks -------------------------------------------------------------------------------
def require_host(row: TableRow, player: PlayerRow, what: str) -> None:
    """The one host check (403 ``forbidden``): used by the room's lobby operations and by
    ``PATCH /api/tables/{id}`` before it checks the values."""
    if player.id != row.host_id:
        raise forbidden(f"only the host may {what}")


def admitted(row: TableRow, player: PlayerRow | None, spectate: bool) -> int | None:
    """The seat a new connection plays (None: it watches), or 403 ``forbidden`` at a table
    without spectators for anyone but its seated players and its host; a seated player's
    spectator tab is refused there too (issue 25)."""
    if spectate and not row.spectators:
        raise forbidden(
            "this table does not allow spectators; "
            'a seated player connects without "as": "spectator" to play the seat'
        )
    seat = None if spectate or player is None else seat_of(seats_of(row), player.id)
    is_host = player is not None and player.id == row.host_id
    if seat is None and not row.spectators and not is_host:
        raise forbidden("this table does not allow spectators")
    return seat


def require_lobby(row: TableRow) -> None:
    if row.status != "lobby":
        raise ApiError("not_in_lobby", f"the table is {row.status}; seats are fixed", 409)


def seat_index(seats: Sequence[Seat], seat: int) -> int:
    if not 0 <= seat < len(seats):
        raise ApiError("no_such_seat", f"seats are 0..{len(seats) - 1}, not {seat}")
    return seat


# --- the lobby operations (new seats, or a refusal) --------------------------------------------
def take_seat(seats: Sequence[Seat], player: PlayerRow, seat: int | None) -> list[Seat]:
    """``player`` sits down at ``seat`` (None: the first open one)."""
    if seat_of(seats, player.id) is not None:
        raise ApiError("already_seated", "you already hold a seat at this table", 409)
    if seat is None:
        free = open_seats(seats)
        if not free:
            raise ApiError("table_full", "no seat is open", 409)
        index = free[0]
    else:
        index = seat_index(seats, seat)
        if seats[index].kind != "open":
            raise ApiError("seat_taken", f"seat {index} is not open", 409)
    out = list(seats)
    out[index] = Seat.person(player)
    return out


def leave_seat(seats: Sequence[Seat], player: PlayerRow) -> list[Seat]:
    index = seat_of(seats, player.id)
    if index is None:
        raise ApiError("no_seat", "you hold no seat at this table", 409)
    out = list(seats)
    out[index] = Seat.open()
    return out


def change_seat(seats: Sequence[Seat], seat: int, kind: str, level: str | None) -> list[Seat]:
    """The host makes a seat a bot of ``level`` or open."""
    index = seat_index(seats, seat)
    out = list(seats)
    out[index] = Seat.bot(level) if kind == "bot" else Seat.open()
    return out


def kick(seats: Sequence[Seat], seat: int) -> list[Seat]:
    index = seat_index(seats, seat)
    if seats[index].kind != "person":
        raise ApiError("no_person", f"nobody sits at seat {index}", 409)
    out = list(seats)
    out[index] = Seat.open()
    return out


def fill_bots(seats: Sequence[Seat], level: str) -> list[Seat]:
    return [Seat.bot(level) if s.kind == "open" else s for s in seats]


def resize(seats: Sequence[Seat], players: int) -> list[Seat]:
    """The seats for ``players`` players: the first ones kept, new ones open."""
    out = list(seats[:players])
    return out + [Seat.open() for _ in range(players - len(out))]


def require_full(seats: Sequence[Seat]) -> None:
    """Every seat is a person or a bot (before the start)."""
    free = open_seats(seats)
    if free:
        raise ApiError(
            "seats_open",
            f"seat(s) {', '.join(map(str, free))} are open: let people join or fill them with bots",
            409,
        )


def require_startable(row: TableRow, player: PlayerRow) -> None:
    """The host starts the game of a table in its lobby whose seats are all taken."""
    require_host(row, player, "start the game")
    require_lobby(row)
    require_full(seats_of(row))


def may_watch(row: TableRow, player_id: str) -> bool:
    """A person may watch this table: it allows spectators, or they are its host."""
    return bool(row.spectators) or player_id == row.host_id


def played_by_person(row: TableRow, seat: int, stand_in: Collection[int]) -> bool:
    """A person plays ``seat`` now (not a bot, no stand-in for them)."""
    return seats_of(row)[seat].kind == "person" and seat not in stand_in


# --- a lobby change -------------------------------------------------------------------------
def change_lobby(
    row: TableRow,
    player: PlayerRow,
    change: Callable[[list[Seat]], list[Seat]],
    *,
    host: str | None = None,
    settings: Mapping[str, Any] | None = None,
) -> dict[str, int]:
    """A lobby change before the start, written into ``row`` (a refusal changes nothing):
    ``change`` makes the new seats (a function of this module); the host alone may do ``host``
    (its words in the refusal) and change the (already checked) ``settings``, the seats
    following their player count. Returns the people moved out of their seats by the host
    (player id → seat; none without ``host``)."""
    if host is not None:
        require_host(row, player, host)
    require_lobby(row)
    seats = seats_of(row)
    before = persons(seats)
    new = TableSettings.of(row).changed(settings) if settings is not None else None
    if new is not None:
        seats = resize(seats, new.players)
    seats = change(seats)
    if new is not None:
        new.write(row)
    store_seats(row, seats)
    if host is None:
        return {}
    now = persons(seats)
    return {pid: seat for pid, seat in before.items() if pid not in now}


# --- the description ------------------------------------------------------------------------
def seats_json(
    row: TableRow,
    names: Mapping[str, str],
    connected: Collection[int] = (),
    stand_in: Collection[int] = (),
) -> list[dict[str, Any]]:
    """The table's seats as the API shows them: a person's name, and whether the seat has a
    socket open (``connected``) or a bot standing in for it (``stand_in``)."""
    out = []
    for i, seat in enumerate(seats_of(row)):
        entry: dict[str, Any] = {"seat": i, "kind": seat.kind}
        if seat.kind == "bot":
            entry["level"] = seat.level
            entry["name"] = f"bot ({seat.level})"
        elif seat.kind == "person":
            entry["player_id"] = seat.player_id
            entry["name"] = names.get(str(seat.player_id), seat.name or "?")
            entry["connected"] = i in connected
            entry["stand_in"] = i in stand_in
        out.append(entry)
    return out


def table_json(
    row: TableRow,
    names: Mapping[str, str],
    version: int,
    seats: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """A table's public description (what ``GET /api/tables/{id}`` returns): settings, seats,
    status; never its seed. Without ``seats``: the seats of a table no room holds (nobody
    connected, no stand-in)."""
    return {
        "id": row.id,
        "game": row.game,
        "players": row.players,
        "options": row.options,
        "clock": row.clock,
        "commit_clock": row.commit_clock,
        "public": row.public,
        "spectators": row.spectators,
        "disconnect": {"policy": row.disconnect_policy, "grace": row.grace},
        "bot_delay": row.bot_delay,
        "rated": bool(row.rated),
        "min_karma": row.min_karma,
        "seats": seats if seats is not None else seats_json(row, names),
        "status": row.status,
        "host": {"id": row.host_id, "name": names.get(row.host_id, "?")},
        "version": version,
        "seeded": row.seeded,
        "created_at": row.created_at,
        "started_at": row.started_at,
        "finished_at": row.finished_at,
        "rematch_of": row.rematch_of,
        "rematch_id": row.rematch_id,
        "error": row.error,
    }
