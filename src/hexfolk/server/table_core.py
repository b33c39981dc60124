"""The table core: one table's game, synchronous. State, versions, undo, chance draws and
time-outs: an event goes in (a person's action, a bot's move, an undo, a clock expiry), the
steps it made come out pending, and :meth:`TableCore.commit` (after the store wrote them)
makes them the table's new version. No sockets, no asyncio, no database: unit tests drive it
directly (``tests/server/test_table_core.py``); the room (:mod:`hexfolk.server.room`) wires it
to the store, the connections and the timers.

An action is checked in this order, each refusal with its own code and nothing changed: the
seat owes a decision now (``not_your_turn``) → the version (``stale``; an older version is
accepted when the seat's decision and legal actions have not changed since) → the engine's
parse (``malformed`` / ``illegal`` / ``ambiguous``) → apply. The step and the chance outcomes
it triggers are pending until committed together with the new clocks.

An undo (:mod:`hexfolk.server.undo`) takes back the seat's latest steps of its turn: it is an
event of its own, the state is rebuilt without the steps it took back (from a kept copy of the
state before them, else by replaying the log), and the new version's views carry the whole log.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

from hexfolk.core import (
    Action,
    ActionError,
    AmbiguousActionError,
    IllegalActionError,
    MalformedActionError,
    State,
    derive_seed,
    load_game,
    make_rng,
)
from hexfolk.server.clock import TableClock
from hexfolk.server.errors import ApiError
from hexfolk.server.limits import TIMEOUT_STEPS_MAX
from hexfolk.server.models import EventRow, TableRow
from hexfolk.server.store import Step
from hexfolk.server.timeout_marks import TimeoutMarks, log_lengths, rebuild
from hexfolk.server.undo import Undoable, final_reason, live_events, reveals, undoable

UNDO_CACHE_MAX = 64
"""At most this many states before a person's undoable steps are kept (else: replay)."""
CHANCE_MAX = 10_000
"""A chance node that draws more than this many outcomes in a row is an engine bug."""


@dataclass(frozen=True, slots=True)
class Accepted:
    """A person's action the core took: its canonical text, and whether the step may reveal
    something to its actor while it can still be undone (the room then checks it a moment
    later, :meth:`TableCore.reveal_check`)."""

    seq: int
    seat: int
    action: Action
    before: State | None
    """The state before the step, kept for an undo; None when the step can never be undone
    (final, or a chance draw or a new turn followed it)."""
    check_reveal: bool


@dataclass(frozen=True, slots=True)
class Commit:
    """The pending steps with the table columns to store together (one transaction)."""

    steps: list[Step]
    values: dict[str, Any]
    full: bool
    """An undo rewrote the log: views carry the whole log again."""

    def described(self) -> list[str]:
        """Each step as the server's log names it: ``event <seq> <kind> <who>[ flags]``."""
        out = []
        for st in self.steps:
            who = "chance" if st.seat is None else f"seat {st.seat}"
            flags = "".join(f" {n}" for n in ("timeout", "stand_in", "bot") if getattr(st, n))
            out.append(f"event {st.seq} {st.kind} {who}{flags}")
        return out


class TableCore:
    """One table's game. ``row`` is the table's row (shared with the room): the core reads its
    game, seed and clock settings and writes its status, result, version and clocks on commit."""

    def __init__(self, row: TableRow):
        self.row = row
        self.state: State | None = None
        self.version = row.version
        self.clock = TableClock.from_json(row.clock, row.commit_clock, row.clock_state)
        self.timeouts = TimeoutMarks()
        """Which log lines of each viewer the clock's defaults wrote (``timeouts`` in views)."""
        self.pending: list[Step] = []
        self.live: list[Step] = []
        """The game as played: the committed steps without the undone ones (``turn`` set)."""
        self.undos: list[tuple[int, int]] = []
        """Every committed undo: its ``seq`` and the first ``seq`` it took back."""
        self.before: dict[int, State] = {}
        """The state before each of the latest person steps that may be undone (by seq)."""
        self.decision_since: dict[int, int] = {}
        """From which version each seat's decision (its legal actions) is unchanged."""
        self._signatures: dict[int, tuple[str, ...]] = {}
        self._legal: dict[int, tuple[int, list[Action]]] = {}
        self._offers: dict[int, dict[str, Any] | None] = {}

    # --- loading ------------------------------------------------------------------------------
    def new_state(self) -> State:
        return load_game(self.row.game, self.row.players, self.row.options).new_initial_state()

    def load(self, events: Sequence[EventRow]) -> None:
        """Rebuild the state by replaying the committed event log (nothing else is trusted)."""
        self._forget()
        self.pending = []
        self.decision_since = {}
        self._signatures = {}
        if self.row.status == "lobby":
            self.state = None
            self.version = 0
            return
        for i, ev in enumerate(events):
            if ev.seq != i + 1:
                raise RuntimeError(f"table {self.row.id}: event {ev.seq} out of order")
        live = [
            Step(
                ev.seq,
                ev.kind,
                ev.seat,
                ev.action,
                timeout=ev.timeout,
                stand_in=ev.stand_in,
                bot=ev.bot,
                bot_failed=ev.bot_failed,
                at=ev.at,
                reveals=None,
            )
            for ev in live_events(events)
        ]
        self.state, self.live = self.replay(live)
        self.undos = [(ev.seq, _first_undone(ev)) for ev in events if ev.kind == "undo"]
        self.before = {}
        self.version = len(events)
        self.clock = TableClock.from_json(
            self.row.clock, self.row.commit_clock, self.row.clock_state
        )
        self.timeouts = rebuild(self.new_state(), self.live)
        self.note_decisions()

    def replay(self, steps: Sequence[Step]) -> tuple[State, list[Step]]:
        """The state after ``steps`` (the game as played) from the start, and the steps with
        ``turn`` (``turn_count()`` before each) and a person step's ``final`` filled in."""
        state = self.new_state()
        out: list[Step] = []
        for st in steps:
            turn = state.turn_count()
            if st.kind == "chance":
                out.append(dataclasses.replace(st, turn=turn))
                state.apply(state.parse_action(st.action))
            else:
                assert st.seat is not None
                action = state.parse_action_for(st.seat, st.action)
                person = not (st.bot or st.timeout or st.stand_in)
                final = final_reason(state, st.seat, action) if person else None
                state.apply_for(st.seat, action)
                if state.is_chance() or state.turn_count() != turn:
                    final = None  # behind a barrier of its own: never asked (as in :meth:`act`)
                out.append(dataclasses.replace(st, turn=turn, final=final))
        return state, out

    def gone(self, version: int) -> bool:
        """Is what the views of ``version`` showed no longer the game: a later undo took back
        a step of it, or the table has not reached ``version`` (or has no game)?"""
        if self.state is None or not 0 <= version <= self.version:
            return True
        return any(seq > version and first <= version for seq, first in self.undos)

    def state_at(self, version: int) -> State | None:
        """The state the views of ``version`` showed, replayed from the game as played (where
        a reconnecting client's log stands, :meth:`.FanOut.send_view`); None when it is
        :meth:`gone`."""
        if self.gone(version):
            return None
        state = self.new_state()
        for st in self.live:  # in seq order; the steps only (no undo questions asked)
            if st.seq > version:
                break
            if st.kind == "chance" or st.seat is None:
                state.apply(state.parse_action(st.action))
            else:
                state.apply_for(st.seat, state.parse_action_for(st.seat, st.action))
        return state

    def start(self) -> None:
        """The game begins (the room has checked the seats): version 0, its first chance
        steps drawn and pending."""
        self.state = self.new_state()
        self.version = 0
        self.undos = []
        self.clock = TableClock(self.row.clock, self.row.commit_clock)
        self.draw_chance()

    def settings_changed(self) -> None:
        """The host changed the settings in the lobby: a clock of the new limits."""
        self.clock = TableClock(self.row.clock, self.row.commit_clock)

    def _forget(self) -> None:
        self._legal = {}
        self._offers = {}

    # --- what the seats may do --------------------------------------------------------------
    def legal_for(self, seat: int) -> list[Action]:
        """``state.legal_actions_for(seat)`` of this version, listed once: the decision marks
        and the views of one click share it (keyed by seat and version, by value)."""
        assert self.state is not None
        cached = self._legal.get(seat)
        if cached is not None and cached[0] == self.version and not self.pending:
            return cached[1]
        actions = self.state.legal_actions_for(seat)
        if not self.pending:  # a state with uncommitted steps is no version
            self._legal[seat] = (self.version, actions)
        return actions

    def note_decisions(self) -> None:
        """Remember from which version each seat's decision (its legal actions) is unchanged."""
        state = self.state
        if state is None:
            return
        acting = set(state.acting_seats())
        for seat in range(state.game.num_players):
            sig = tuple(str(a) for a in self.legal_for(seat)) if seat in acting else ()
            if self._signatures.get(seat) != sig or seat not in self.decision_since:
                self._signatures[seat] = sig
                self.decision_since[seat] = self.version

    def version_ok(self, seat: int, version: int) -> bool:
        """Is an action of ``seat`` sent at ``version`` still meant for now?"""
        if version == self.version:
            return True
        return self.decision_since.get(seat, self.version) <= version < self.version

    def undoable(self, seat: int) -> Undoable:
        """How many of ``seat``'s latest steps may be undone now (see :mod:`.undo`)."""
        assert self.state is not None
        return undoable(self.live, [st.turn for st in self.live], seat, self.state.turn_count())

    def undo_offer(self, seat: int, by_person: bool) -> dict[str, Any] | None:
        """The view's ``undo`` field for ``seat`` (None: nothing to undo). ``by_person``: a
        person plays the seat now (a bot seat or a seat a stand-in plays never undoes)."""
        if self.state is None or self.row.status != "playing" or not by_person:
            return None
        if seat not in self._offers:
            can = self.undoable(seat)
            self._offers[seat] = (
                {"steps": can.steps, "turn": can.steps, "last": self.live[-1].action}
                if can.steps
                else None
            )
        return self._offers[seat]

    # --- events in ----------------------------------------------------------------------------
    def next_seq(self) -> int:
        return self.version + len(self.pending) + 1

    def record(
        self,
        kind: str,
        seat: int | None,
        text: str,
        *,
        turn: int = -1,
        undoes: int | None = None,
        reveals: bool | None = False,
        final: str | None = None,
        **flags: bool,
    ) -> None:
        """Append a pending step."""
        self.pending.append(
            Step(
                self.next_seq(),
                kind,
                seat,
                text,
                at=time.time(),
                undoes=undoes,
                reveals=reveals,
                turn=turn,
                final=final,
                **flags,
            )
        )

    def draw_chance(self) -> None:
        """Draw every chance step now due, with the table's secret seed (pending steps)."""
        state = self.state
        assert state is not None
        guard = 0
        while state.is_chance():
            rng = make_rng(self.row.seed, "chance", self.next_seq())
            outcome = state.sample_chance(rng)
            turn = state.turn_count()
            state.apply(outcome)
            self.record("chance", None, str(outcome), turn=turn)
            guard += 1
            if guard > CHANCE_MAX:
                raise RuntimeError("a chance node that never ends")

    def check_version(self, seat: int, version: int, what: str) -> None:
        if not self.version_ok(seat, version):
            raise ApiError(
                "stale",
                f"the game has moved on: you {what} version {version}, "
                f"it is at version {self.version} (the current view was sent)",
                version=self.version,
            )

    def act(self, seat: int, text: str, version: int) -> Accepted:
        """A person's action (the room has checked who sends it). A refusal raises
        :class:`ApiError` and changes nothing; else the step and the chance steps it
        triggers are pending."""
        state = self.state
        assert state is not None
        if seat not in state.acting_seats():
            raise ApiError("not_your_turn", f"seat {seat} owes no decision now")
        self.check_version(seat, version, "acted on")
        try:
            action = state.parse_action_for(seat, text)
            before = state.clone()
            turn = state.turn_count()
            state.apply_for(seat, action)
        except MalformedActionError as exc:
            raise ApiError("malformed", str(exc)) from None
        except AmbiguousActionError as exc:
            raise ApiError("ambiguous", str(exc)) from None
        except IllegalActionError as exc:  # the reason as data too (docs/protocol.md)
            if exc.data is None:
                raise ApiError("illegal", str(exc)) from None
            raise ApiError("illegal", str(exc), reason=exc.data) from None
        except ActionError as exc:
            raise ApiError("illegal", str(exc)) from None
        seq = self.next_seq()
        # a step a chance draw or a new turn follows is behind a barrier of its own (1 or 3):
        # every walk of the undo rules stops before it, so whether it is final (barrier 5,
        # asked of the state before the step: Scythe clones and steps it) is never read
        final = None
        candidate = not state.is_chance() and state.turn_count() == turn
        if candidate:
            final = final_reason(before, seat, action)
            candidate = final is None
        # a final step, or one a chance draw or a new turn follows, can never be undone: no
        # need to keep the state before it or to ask whether it revealed something
        if candidate:
            self.before[seq] = before
        # the engine's word: a step that cannot show anything hidden needs no reveal check
        unknown = candidate and before.can_reveal(seat, action)
        self.record(
            "action",
            seat,
            str(action),
            turn=turn,
            reveals=None if unknown else False,
            final=final,
        )
        self.draw_chance()
        return Accepted(seq, seat, action, before if candidate else None, unknown)

    def bot_move(
        self, seat: int, version: int, text: str, *, stand_in: bool, failed: bool = False
    ) -> bool:
        """A bot's choice for ``seat`` made at ``version``: applied (True) while it is still
        meant for now, else nothing changes (False: the room asks the bot again)."""
        state = self.state
        if state is None or self.row.status != "playing" or seat not in state.acting_seats():
            return False
        if not self.version_ok(seat, version):
            return False
        action = state.parse_action_for(seat, text)
        turn = state.turn_count()
        state.apply_for(seat, action)
        self.record(
            "action", seat, str(action), turn=turn, bot=True, stand_in=stand_in, bot_failed=failed
        )
        self.draw_chance()
        return True

    def undo(
        self,
        seat: int,
        steps: int | str,
        version: int,
        *,
        by_person: bool = True,
        offer_changed: Callable[[], None] = lambda: None,
    ) -> int:
        """Take back ``seat``'s latest ``steps`` (a number, or ``"turn"``): the number taken
        back, an ``undo`` step pending. ``by_person``: a person plays the seat now (a bot seat
        or a stand-in never undoes). ``offer_changed`` runs when settling the reveal flags
        changed what the seat's views offered (before a refusal, too)."""
        assert self.state is not None
        if version != self.version:
            raise ApiError(
                "stale",
                f"the game has moved on: you asked to undo at version {version}, "
                f"it is at version {self.version} (the current view was sent)",
                version=self.version,
            )
        if not by_person:
            raise ApiError("cannot_undo", "a bot plays this seat now", version=self.version)
        can = offered = self.undoable(seat)
        if can.steps:  # the offer trusts unknown reveal flags: settle them, then decide
            self.settle_reveals(can.steps)
            can = self.undoable(seat)
        if can.steps != offered.steps:
            offer_changed()
        if can.steps == 0:
            raise ApiError("cannot_undo", can.reason, version=self.version)
        n = can.steps if steps == "turn" else int(steps)
        if n > can.steps:
            raise ApiError(
                "cannot_undo",
                f"only {can.steps} of your steps can be taken back now ({can.reason})",
                version=self.version,
            )
        first = self.live[-n].seq
        base = self.before.get(first)
        if base is not None:
            self.state = base
        else:  # after a restart: rebuild from the log
            self.state, _ = self.replay(self.live[:-n])
        self.record("undo", seat, f"undo {n}", undoes=first)
        return n

    def expire(self, now: float, stand_in: Collection[int] = ()) -> list[tuple[int, int]]:
        """Apply the game's defaults for every seat whose clock ran out (IR-28), as time-out
        steps, while that seat still owes a decision of the expired turn or step: each timed
        out seat with the number of defaults applied (pending). When nothing was owed, fresh
        windows start for whoever acts."""
        state = self.state
        if state is None or self.row.status != "playing":
            return []
        timed_out: list[tuple[int, int]] = []
        for seat in self.clock.expired(now):
            window = self.clock.current(seat)
            assert window is not None
            applied = 0
            before = log_lengths(state) if self.clock.owes_under(seat, window, state) else {}
            while applied < TIMEOUT_STEPS_MAX and self.clock.owes_under(seat, window, state):
                rng = make_rng(self.row.seed, "timeout", seat, self.next_seq())
                action = state.timeout_action(seat, rng)
                if action is None:
                    break
                turn_before = state.turn_count()
                state.apply_for(seat, action)
                self.record(
                    "action",
                    seat,
                    str(action),
                    turn=turn_before,
                    timeout=True,
                    stand_in=seat in stand_in,
                )
                self.draw_chance()
                applied += 1
            if not applied:
                self.clock.drop(seat)
            else:
                self.timeouts.note(seat, before, log_lengths(state))
                timed_out.append((seat, applied))
            if state.is_terminal():
                break
        if not self.pending:
            # nothing was owed under the expired windows: start fresh ones for whoever acts
            self.clock.follow(state, now)
        return timed_out

    # --- committing -----------------------------------------------------------------------------
    def to_commit(self, now: float, *, full: bool = False) -> Commit:
        """The pending steps with the table's new columns (status and result at the end, the
        version, the clocks). Nothing is the table's until :meth:`committed`."""
        state = self.state
        assert state is not None
        values: dict[str, Any] = {}
        if state.is_terminal() and self.row.status == "playing":
            result = {
                "winners": state.winners(),
                "scores": state.scores(),
                "returns": state.returns(),
                "turns": state.turn_count(),
                "summary": state.summary(),
            }
            values.update(status="finished", result=result, finished_at=now)
        self.clock.follow(state, now)
        if state.is_terminal():
            self.clock.clear()
        if full:  # an undo rewrote the log: no mark outlives its lines
            self.timeouts.trim(log_lengths(state))
        values.update(version=self.version + len(self.pending), clock_state=self.clock.to_json())
        return Commit(list(self.pending), values, full)

    def committed(self, commit: Commit) -> None:
        """The store wrote ``commit``: it is the table's new version."""
        self.pending = []
        self.version = int(commit.values["version"])
        for key, value in commit.values.items():
            setattr(self.row, key, value)
        self._played(commit.steps)
        self._forget()
        self.note_decisions()

    def commit(self, now: float | None = None, *, full: bool = False) -> Commit:
        """:meth:`to_commit` and :meth:`committed` at once (a table without a store: tests)."""
        made = self.to_commit(time.time() if now is None else now, full=full)
        self.committed(made)
        return made

    def abort(self) -> None:
        """Drop the pending steps (a fault: the room rebuilds from the log)."""
        self.pending = []

    def _played(self, steps: Sequence[Step]) -> None:
        """Committed ``steps`` join the game as played; an undo takes its steps out of it.
        The kept states before undoable person steps are dropped at any other step."""
        for st in steps:
            if st.kind == "undo":
                first = _first_undone(st)
                self.undos.append((st.seq, first))
                while self.live and self.live[-1].seq >= first:
                    self.before.pop(self.live.pop().seq, None)
                continue
            self.live.append(st)
            if st.seq not in self.before:
                self.before.clear()
        while len(self.before) > UNDO_CACHE_MAX:
            del self.before[min(self.before)]

    # --- did a step reveal something ------------------------------------------------------
    def reveal_seed(self, seq: int) -> int:
        return derive_seed(self.row.seed, "reveal", seq)

    def reveal_still_asked(self, accepted: Accepted) -> bool:
        """Does the answer for ``accepted`` still matter (the step can still be undone, from
        the same kept state)? A quick turn's steps are past it by the time of the check."""
        if self.state is None or accepted.before is None:
            return False
        can = self.undoable(accepted.seat)
        undoable_now = any(st.seq == accepted.seq for st in self.live[len(self.live) - can.steps :])
        return undoable_now and self.before.get(accepted.seq) is accepted.before

    def reveal_known(self, seq: int, flag: bool) -> int | None:
        """The reveal check of step ``seq`` answered ``flag``: the seat whose undo offer it
        takes away (its views change), else None."""
        for i in range(len(self.live) - 1, -1, -1):
            st = self.live[i]
            if st.seq == seq:
                if st.reveals is None:
                    self.live[i] = dataclasses.replace(st, reveals=flag)
                    if flag and st.seat is not None:
                        self._offers.pop(st.seat, None)
                        return st.seat
                return None
            if st.seq < seq:
                return None
        return None

    def settle_reveals(self, n: int) -> None:
        """Make the reveal flags of the newest ``n`` steps exact (an undo is about to take
        them back): replay them from the state before the first, asking ``reveals_to``."""
        taken = self.live[-n:]
        if all(st.reveals is not None for st in taken):
            return
        start = self.before.get(taken[0].seq)
        probe = start.clone() if start is not None else self.replay(self.live[:-n])[0]
        for k, st in enumerate(taken):
            assert st.seat is not None
            action = probe.parse_action_for(st.seat, st.action)
            if st.reveals is None:
                flag = reveals(probe, st.seat, action, self.reveal_seed(st.seq))
                self.live[len(self.live) - n + k] = dataclasses.replace(st, reveals=flag)
            probe.apply_for(st.seat, action)
        self._offers.clear()


def _first_undone(step: Step | EventRow) -> int:
    """The first ``seq`` an undo event took back."""
    return step.undoes if step.undoes is not None else step.seq
