"""The fan-out: what each connection is sent of the table's game. One view per viewer and
version (:func:`~hexfolk.server.views.build_parts`, built when a connection of that viewer
asks), the log lines a connection lacks (its diff since what it was sent, or since the version
a reconnecting client names), and the sending.

Where a reconnecting client's log stands is known from its version alone, at any process: the
log lengths of the recent versions this process sent are kept (:data:`RECONNECT_WINDOW`);
another version's is replayed from the event log (:meth:`.TableCore.state_at`; the last
:data:`PAST_KEPT` replayed versions are kept, so the clients of a table that moved, which
mostly name the same few versions, share them; at most :data:`REPLAY_LIMIT` replays, beyond
which a client gets the whole log, unflagged). Only when the client's lines are not in the
log any more (a later undo took back a step it saw; a version the table never reached) does
its view carry the whole log, flagged ``log_rewritten``.

A view message carries the viewer's observation, the log from ``log_start``, the acting seats,
the viewer's legal actions and refused standing actions, the clocks, the time-out marks of the
lines sent, the seats and the viewer's undo offer (``docs/protocol.md``, "view").
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from hexfolk.core import State
from hexfolk.server.crowd import Connection, Crowd
from hexfolk.server.limits import RECONNECT_WINDOW, REPLAY_LIMIT, RateLimit
from hexfolk.server.models import TableRow
from hexfolk.server.table_core import TableCore
from hexfolk.server.views import ViewParts, build_parts

LOG_TAIL = 16
"""The last 16 log lines a connection was sent are compared with the log now: an engine may
reorder its newest lines (Scythe puts the two combat commitments in commitment order when the
second arrives), and the view then resends from the first line that changed."""

PAST_KEPT = 8
"""The log positions of the last 8 versions replayed for reconnecting clients are kept."""

Viewer = int | None
Position = tuple[int, tuple[str, ...]]
"""A viewer's log at a version: its length and its :func:`tail_of`."""


class FanOut:
    """Views of one table for its crowd. ``seats`` and ``undo_offer`` give the view's
    ``seats`` and ``undo`` fields (they depend on who is connected)."""

    def __init__(
        self,
        row: TableRow,
        core: TableCore,
        crowd: Crowd,
        seats: Callable[[], list[dict[str, Any]]],
        undo_offer: Callable[[int | None], dict[str, Any] | None],
    ):
        self.row = row
        self.core = core
        self.crowd = crowd
        self.seats = seats
        self.undo_offer = undo_offer
        self._parts: dict[Viewer, ViewParts] = {}
        self._tails: dict[Viewer, tuple[str, ...]] = {}
        """The :func:`tail_of` of each viewer's log in :attr:`_parts` (made once per view)."""
        self._parts_version = -1
        self._log_lens: OrderedDict[int, dict[Viewer, Position]] = OrderedDict()
        self._past: OrderedDict[int, dict[Viewer, Position] | None] = OrderedDict()
        """Positions replayed for reconnecting clients (None: that version's log is gone)."""
        self.replays = RateLimit(*REPLAY_LIMIT)
        """The replays for reconnecting clients allowed (:data:`REPLAY_LIMIT`)."""

    def forget(self, *, log_rewritten: bool = False) -> None:
        """Views built so far are out of date (a new version, a rebuilt state); after an undo
        (``log_rewritten``) no older version's log lengths are true any more."""
        self._parts, self._tails = {}, {}
        if log_rewritten:
            self._log_lens.clear()
            self._past.clear()

    def parts(self, viewer: Viewer) -> ViewParts:
        """``viewer``'s view of this version (built once, shared by its connections)."""
        core = self.core
        assert core.state is not None
        if self._parts_version != core.version:
            self._parts, self._tails, self._parts_version = {}, {}, core.version
        parts = self._parts.get(viewer)
        if parts is None:
            parts = build_parts(core.state, viewer, core.legal_for)
            self._parts[viewer] = parts
            tail = self._tails[viewer] = tail_of(parts.log)
            lens = self._log_lens.setdefault(core.version, {})
            lens[viewer] = (len(parts.log), tail)
            # the reconnect window counts versions (not the versions a view was built at)
            while self._log_lens and next(iter(self._log_lens)) < core.version - RECONNECT_WINDOW:
                self._log_lens.popitem(last=False)
        return parts

    def send_view(
        self, conn: Connection, *, since: int | None = None, full: bool = False, past: bool = True
    ) -> None:
        """Send ``conn`` the view now: the log lines it lacks (all of them with ``full``,
        flagged ``log_rewritten``; a reconnect names the version it saw last in ``since``).
        Without ``past`` (a resync of a live connection) a ``since`` this process does not
        hold in memory is not replayed: the lines the connection was not sent yet go."""
        core = self.core
        assert core.state is not None
        parts = self.parts(conn.seat)
        start = agreed(parts.log, conn.log_sent, conn.log_tail)
        rewritten = False
        if full:
            start = 0
        elif since is not None:
            known = self.position(since, conn.seat, replay=past)
            if known is not None:
                start = agreed(parts.log, *known)
            elif past:
                start, rewritten = 0, since in self._past  # else: beyond the replay limit
        now = time.time()
        msg: dict[str, Any] = {
            "type": "view",
            "table": self.row.id,
            "version": core.version,
            "status": self.row.status,
            "seat": conn.seat,
            "observation": parts.observation,
            "log_start": start,
            "log": parts.log_json(start),
            "acting": core.state.acting_seats(),
            "legal": parts.legal,
            "refused": parts.refused,
            "clocks": core.clock.view(now),
            "timeouts": core.timeouts.for_view(conn.seat, start, len(parts.log)),
            "server_time": now,
            "seats": self.seats(),
            "undo": self.undo_offer(conn.seat),
        }
        if self.row.status == "finished":
            msg["result"] = self.row.result
        if rewritten or full:
            msg["log_rewritten"] = True
        conn.log_sent = len(parts.log)
        conn.log_tail = self._tails[conn.seat]
        conn.send(msg)

    def position(self, version: int, viewer: Viewer, *, replay: bool = True) -> Position | None:
        """Where ``viewer``'s log stood at ``version`` (what a client that saw that version
        holds), or None when those lines are not the table's log any more (or, without
        ``replay``, when this process holds no position of that version in memory)."""
        core = self.core
        if core.version - RECONNECT_WINDOW <= version <= core.version:
            known = self._log_lens.get(version, {}).get(viewer)
            if known is not None:
                return known
        if not replay:
            return None
        if version not in self._past:
            if not core.gone(version) and not self.replays.allow():
                return None  # beyond the replay limit: not known
            state = core.state_at(version)
            self._past[version] = None if state is None else positions(state)
            while len(self._past) > PAST_KEPT:
                self._past.popitem(last=False)
        past = self._past[version]
        return None if past is None else past.get(viewer)

    def send_views(self, *, seat: int | None = None, full: bool = False) -> None:
        """Every connection's view (only ``seat``'s connections when given)."""
        if self.core.state is None:
            return
        for conn in self.crowd:
            if seat is None or conn.seat == seat:
                self.send_view(conn, full=full)


def positions(state: State) -> dict[Viewer, Position]:
    """Every viewer's log position in ``state``: the seats' and the spectators'."""
    out: dict[Viewer, Position] = {}
    for viewer in [*range(state.game.num_players), None]:
        log = state.observation(viewer).get("log")
        lines = log if isinstance(log, list) else []
        out[viewer] = (len(lines), tail_of(lines))
    return out


def tail_of(log: list[str]) -> tuple[str, ...]:
    """The last :data:`LOG_TAIL` lines of ``log`` as plain sentences: what :func:`agreed`
    compares. Plain ``str`` (not the engine's :class:`~hexfolk.core.LogLine` objects) because
    these tails are kept for every version of the reconnect window: tuples of plain strings
    are no work for the garbage collector, tuples of line objects are (the tails of 200
    tables cost the server load benchmark a tenth of its CPU in collections)."""
    return tuple(map(str, log[-LOG_TAIL:]))


def agreed(log: list[str], sent: int, tail: tuple[str, ...]) -> int:
    """Where a connection's log (``sent`` lines ending with ``tail``) first differs from
    ``log``: ``sent`` when it is a prefix of it, else the first changed line (0 when the
    change is older than the tail)."""
    if sent > len(log):
        return 0
    k = len(tail)
    seen = log[sent - k : sent] if k else []
    if list(tail) == seen:
        return sent
    if len(seen) != k:
        return 0
    for j in range(k):
        if seen[j] != tail[j]:
            return sent - k + j
    return sent
