"""Copies (issue 25): a state copied in any of the four ways plays on exactly like the original.

The server computes its bots' moves in worker processes from pickled states, search bots clone,
tests and tools deep-copy, and tables are rebuilt from position documents. Every memo a state
carries must survive all four: **every memo survives pickle, copy, clone and position round
trips; never key a memo by identity** (``id()``, an object's default hash, ``is``). An id means
nothing in another process, and not even in this one once its object is gone. The island
engine once kept its maritime log lines in a dict keyed by ``id()`` of the listed actions: in
the server's bot workers (spawned processes, pickled states) every maritime trade of a hard
bot raised KeyError, and the table silently played the clock's default move instead. Nothing
in-process saw it: clones and deep copies in the same process keep the same objects, so only a
pickle **into another process** shows it.

:func:`check_copies` plays a random game (the one :func:`.play_random` plays for the seed) on
the *original* and, at some steps (the *copy points*), copies the original

* (a) by ``pickle`` into a process of a **spawned** pool (``multiprocessing``'s spawn context:
  a fresh interpreter, nothing inherited), which unpickles it, plays the rest of the game's
  action texts and sends back the digest of every step;
* (b) by ``copy.deepcopy``;
* (c) by ``clone()``;
* (d) by ``game.load_position(state.position())`` (through JSON text).

Every copy plays the remaining action *texts* of the game to the end: the pickled copy and the
deep copy apply their own listed action of each text (as a bot in a worker does; ``parse_action``
of the text must name the same action), the clone and the loaded position the action parsed from
the text (as the server applies what a seat sends); the original plays the actions of the game.
At every step of every copy the seat to move, the acting seats and the legal action texts of each
acting seat (at chance nodes the outcomes and their probabilities) must be the original's; at
the copy point, every ``observe_every`` steps after it and at the end also the observation of
every seat and of the spectator, the log lines each of them gained since the last such step, the
whole log of each (at the copy point and the end), and at some of them the fingerprint (the
full state: at the copy point, every ``fingerprint_every`` such steps and at the end). The
spawned process sends back the hash of each of these; a difference is then asked for in detail
and named (which component, where in it). Copies made in this process play in lockstep with the
original, interleaved with it, so a memo shared between a copy and the original shows too.

Copy points: ``points`` steps drawn from the seed, and the step right before the last action of
each kind in ``cover`` (the first word of an action's text: ``trade``, ``complete``,
``commit``...), so that a copy plays that kind of step with the memos of the earlier ones in
it; a kind that the game of a seed never plays is an error (choose another seed or a longer
game). The check returns a :class:`CopyReport`: which kinds of action happened before some
copy point (their memos were copied) and which were played by copies.

The spawned pool is costly to start (a fresh interpreter imports the game); give one to many
calls (:func:`copy_pool`, one per test module) or let each call start and stop its own.
"""

from __future__ import annotations

import copy
import hashlib
import json
import multiprocessing
import pickle
import traceback
from collections.abc import Iterable, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from hexfolk.core.actions import Action
from hexfolk.core.game import CHANCE, Game, State
from hexfolk.core.rng import make_rng
from hexfolk.core.testing.checks import ConformanceError, _first_difference, play_random

_STREAM = "copies"
SPAWNED = "pickled into a spawned process"
DEEPCOPY = "copy.deepcopy"
CLONE = "clone()"
POSITION = "load_position(position())"
HOW = (SPAWNED, DEEPCOPY, CLONE, POSITION)
"""The four ways of copying, as the failures name them."""
FINGERPRINT = "the fingerprint"

Raw = dict[str, Any]
"""A step's components by name (``"the observation of seat 1"``) as plain values."""
Digest = dict[str, str]
"""The same components hashed (what a spawned process sends back)."""


def copy_pool(workers: int = 1) -> ProcessPoolExecutor:
    """A pool of ``workers`` spawned processes for :func:`check_copies` (shut it down after)."""
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))


@dataclass
class CopyReport:
    """What :func:`check_copies` covered."""

    points: int = 0
    """Copy points, over all seeds (each copied four ways)."""
    steps: int = 0
    """Steps played by copies, over all seeds and copies."""
    carried: set[str] = field(default_factory=set)
    """Kinds of action (first words) played before some copy point: their memos were copied."""
    replayed: set[str] = field(default_factory=set)
    """Kinds of action played by the copies after a copy point."""


def check_copies(
    game: Game,
    seeds: Iterable[int],
    *,
    turn_cap: int | None = None,
    points: int = 2,
    cover: Sequence[str] = (),
    observe_every: int = 6,
    fingerprint_every: int = 4,
    pool: Executor | None = None,
) -> CopyReport:
    """Copies made by pickle into a spawned process, deepcopy, clone and position round trip
    play on exactly like the original (see the module docstring); raises
    :class:`.ConformanceError` naming the game, seed, way of copying, copy point, step and
    what differed. Every memo survives pickle, copy, clone and position round trips: never
    key one by identity.

    ``points``: copy points drawn from the seed; ``cover``: kinds of action (first words of
    their texts) right before whose last occurrence a copy is also taken (each must occur);
    ``observe_every``: steps between two comparisons of the observations and logs of a copy
    (the seat to move and the legal actions are compared at every step);
    ``fingerprint_every``: such comparisons between two of the fingerprint; ``pool``: spawned
    processes (:func:`copy_pool`), None starts one for this call."""
    own = pool is None
    executor = copy_pool() if pool is None else pool
    settings = _Settings(max(1, observe_every), max(1, fingerprint_every))
    report = CopyReport()
    try:
        for seed in seeds:
            _check_seed(game, seed, turn_cap, points, cover, settings, executor, report)
    finally:
        if own:
            executor.shutdown(cancel_futures=True)
    return report


def _name(game: Game) -> str:
    return f"{game.id} ({game.num_players} players)"


def _kind(text: str) -> str:
    return text.split(" ", 1)[0]


def _copy_points(
    texts: Sequence[str], seed: int, points: int, cover: Sequence[str], where: str
) -> list[int]:
    rng = make_rng(seed, _STREAM, "points")
    chosen = {int(rng.random() * len(texts)) for _ in range(points)} if texts else set()
    kinds = [_kind(t) for t in texts]
    for wanted in cover:
        at = [i for i, k in enumerate(kinds) if k == wanted]
        if not at:
            raise ConformanceError(
                f"{where}: the game never plays a {wanted!r} step, so no copy meets it: "
                "choose another seed or a longer game (turn_cap)"
            )
        # right before its last occurrence: the earlier ones are carried (if any), the last
        # is replayed, and the copies have the fewest steps to play
        chosen.add(at[-1])
    return sorted(p for p in chosen if p < len(texts))


# --- what is compared when ---------------------------------------------------------------------
@dataclass(frozen=True)
class _Settings:
    observe_every: int
    fingerprint_every: int


@dataclass(frozen=True)
class _Schedule:
    """The steps of one copy's walk (``start``..``end``) and what is compared at each: the
    seat to move and the legal actions always; at the *full* steps (the start, every
    ``observe_every`` steps, the end) also every observation, the log lines gained since the
    previous full step, the whole logs (at the start and the end) and at some the fingerprint."""

    start: int
    end: int
    settings: _Settings

    def full(self, step: int) -> bool:
        return (
            step in (self.start, self.end) or (step - self.start) % self.settings.observe_every == 0
        )

    def previous(self, step: int) -> int:
        """The full step before the full step ``step`` (> start)."""
        every = self.settings.observe_every
        return self.start + (step - self.start - 1) // every * every

    def fingerprint(self, step: int) -> bool:
        every = self.settings.observe_every * self.settings.fingerprint_every
        return step in (self.start, self.end) or (step - self.start) % every == 0

    def wholes(self, step: int) -> bool:
        return step in (self.start, self.end)


def _viewers(game: Game) -> list[int | None]:
    return [*range(game.num_players), None]


def _who(viewer: int | None) -> str:
    return "the spectator" if viewer is None else f"seat {viewer}"


def _components(
    state: State, viewers: Sequence[int | None], full: bool, fingerprint: bool, wholes: bool
) -> tuple[Raw, list[list[Any]] | None]:
    """The components of a step's comparison (full: the observations, the whole logs if
    ``wholes``, the fingerprint if ``fingerprint``) and each viewer's log (full only)."""
    player = state.current_player()
    acting = state.acting_seats()
    raw: Raw = {"the seat to move": [player, list(acting)]}
    if player == CHANCE:
        raw["the chance outcomes"] = [[str(o), p] for o, p in state.chance_outcomes()]
    else:
        raw["the legal actions"] = {
            str(seat): [str(a) for a in state.legal_actions_for(seat)] for seat in acting
        }
    if not full:
        return raw, None
    logs: list[list[Any]] = []
    for viewer in viewers:
        view = state.observation(viewer)
        log = view.get("log") if isinstance(view, dict) else None
        if isinstance(log, list):
            view = {k: v for k, v in view.items() if k != "log"}
            if wholes:
                raw[f"the whole log of {_who(viewer)}"] = log
        else:
            log = []
        logs.append(log)
        raw[f"the observation of {_who(viewer)}"] = view
    if fingerprint:
        raw[FINGERPRINT] = state.fingerprint()
    return raw, logs


def _gained(viewers: Sequence[int | None], logs: Sequence[list[Any]], since: Sequence[int]) -> Raw:
    return {f"the log lines {_who(v)} gained": log[at:] for v, log, at in zip(viewers, logs, since)}


class _Walker:
    """One state walking a schedule: its components at each step, with the log lengths of
    its previous full step to tell the lines gained since."""

    def __init__(self, state: State, schedule: _Schedule, viewers: list[int | None]):
        self.state = state
        self.schedule = schedule
        self.viewers = viewers
        self.lengths: list[int] = []
        self.wholes = True
        """Compare whole logs (False: a position that does not carry the history)."""

    def components(self, step: int, *, detail: str | None = None) -> Raw:
        sch = self.schedule
        full = sch.full(step) or detail is not None
        fp = sch.fingerprint(step) or detail == FINGERPRINT
        wholes = (sch.wholes(step) and self.wholes) or detail is not None
        raw, logs = _components(self.state, self.viewers, full, fp, wholes)
        if logs is not None:
            if step > sch.start and self.lengths:
                raw.update(_gained(self.viewers, logs, self.lengths))
            if sch.full(step):
                self.lengths = [len(log) for log in logs]
        return raw


def _expected(
    base: Raw,
    logs: list[list[Any]] | None,
    lengths_at: dict[int, list[int]],
    schedule: _Schedule,
    step: int,
    viewers: Sequence[int | None],
    wholes: bool = True,
) -> Raw:
    """The original's components as the copy of ``schedule`` computes its own at ``step``."""
    keep = ["the seat to move", "the legal actions", "the chance outcomes"]
    if schedule.full(step):
        keep += [f"the observation of {_who(v)}" for v in viewers]
        if schedule.wholes(step) and wholes:
            keep += [f"the whole log of {_who(v)}" for v in viewers]
        if schedule.fingerprint(step):
            keep.append(FINGERPRINT)
    out = {k: base[k] for k in keep if k in base}
    if schedule.full(step) and step > schedule.start and logs is not None:
        out.update(_gained(viewers, logs, lengths_at[schedule.previous(step)]))
    return out


_MISSING = object()


def _differs(mine: dict[str, Any], theirs: dict[str, Any]) -> str | None:
    """The first component that one has and the other lacks or has otherwise (None: all
    agree): raw values or their hashes."""
    for name in [*mine, *(k for k in theirs if k not in mine)]:
        if mine.get(name, _MISSING) != theirs.get(name, _MISSING):
            return name
    return None


def _detail(name: str, copied: Any, original: Any) -> str:
    if copied is _MISSING or original is _MISSING:
        return "the copy has it" if original is _MISSING else "the original has it"
    if name == FINGERPRINT:
        return f"copy {copied}, original {original}"
    return f"copy != original at {_first_difference(copied, original)}"


def _hash(value: Any) -> str:
    blob = json.dumps(value, sort_keys=True, separators=(",", ":"), default=repr)
    return hashlib.blake2b(blob.encode(), digest_size=10).hexdigest()


def _hashed(raw: Raw, known: dict[str, str] | None = None) -> Digest:
    """``raw`` with its values hashed; ``known``: hashes of this step's components that are
    the same for every copy (all but the log lines gained), filled as they are made."""
    if known is None:
        return {name: _hash(value) for name, value in raw.items()}
    out: Digest = {}
    for name, value in raw.items():
        if name.startswith("the log lines"):
            out[name] = _hash(value)
            continue
        h = known.get(name)
        if h is None:
            h = known[name] = _hash(value)
        out[name] = h
    return out


def _trace(exc: BaseException) -> str:
    return "".join(traceback.format_exception(exc)[-6:])


def _play(state: State, text: str, listed: bool) -> None:
    """Apply the step ``text``: the state's own listed action of that text (a bot's choice
    among ``legal_actions()``; a chance outcome among ``chance_outcomes()``), checking that
    ``parse_action`` names the same action, or (``listed`` False) the parsed action (as the
    server applies what a seat sends)."""
    parsed = state.parse_action(text)
    if listed:
        if state.current_player() == CHANCE:
            choices = [o for o, _ in state.chance_outcomes()]
        else:
            choices = state.legal_actions()
        action = next((a for a in choices if str(a) == text), parsed)
        if action != parsed:
            raise ConformanceError(f"parse_action({text!r}) is {parsed!r}, not {action!r}")
        parsed = action
    state.apply(parsed)


# --- one seed ----------------------------------------------------------------------------------
def _check_seed(
    game: Game,
    seed: int,
    turn_cap: int | None,
    points: int,
    cover: Sequence[str],
    settings: _Settings,
    pool: Executor,
    report: CopyReport,
) -> None:
    where = f"{_name(game)} seed {seed}"
    actions = play_random(game, seed, turn_cap=turn_cap).actions
    texts = tuple(str(a) for a in actions)
    steps = _copy_points(texts, seed, points, cover, where)
    end = len(texts)
    viewers = _viewers(game)
    original = game.new_initial_state()
    lengths_at: dict[int, list[int]] = {}
    local: list[_Copy] = []
    spawned: list[tuple[_Schedule, Future[_Result]]] = []
    expected: dict[tuple[int, int], Digest] = {}
    """(copy point, step) -> the original's digest as the spawned copy from there has it."""
    try:
        for step in range(end + 1):
            schedules = [c.schedule for c in local] + [sch for sch, _ in spawned]
            new = _Schedule(step, end, settings) if step in steps else None
            if new is not None:
                schedules.append(new)
            if schedules:
                full = any(sch.full(step) for sch in schedules)
                fp = any(sch.fingerprint(step) for sch in schedules if sch.full(step))
                wholes = any(sch.wholes(step) for sch in schedules)
                base, logs = _components(original, viewers, full, fp, wholes)
                for c in local:
                    want = _expected(base, logs, lengths_at, c.schedule, step, viewers, c.wholes)
                    c.compare(step, want, where)
                hashes: dict[str, str] = {}
                for sch, _ in spawned:
                    want = _expected(base, logs, lengths_at, sch, step, viewers)
                    expected[sch.start, step] = _hashed(want, hashes)
                if logs is not None:
                    lengths_at[step] = [len(log) for log in logs]
                if new is not None:
                    want = _expected(base, logs, lengths_at, new, step, viewers)
                    local.extend(_local_copies(game, original, new, want, where))
                    spawned.append((new, _spawn(original, new, texts, pool, where)))
                    expected[step, step] = _hashed(want, {})
                    report.points += 1
                    report.carried.update(_kind(t) for t in texts[:step])
                    report.replayed.update(_kind(t) for t in texts[step:])
                    report.steps += 4 * (end - step)
            if step == end:
                break
            for c in local:
                c.play(step, texts[step], where)
            original.apply(actions[step])
    except BaseException:
        for _, future in spawned:  # a module's shared pool is not left busy with them
            future.cancel()
        raise
    for sch, future in spawned:
        _compare_spawned(game, actions, texts, sch, future.result(), expected, pool, where)


# --- the copies made in this process -----------------------------------------------------------
class _Copy(_Walker):
    """A copy played in lockstep with the original, interleaved with it."""

    def __init__(self, how: str, state: State, schedule: _Schedule, viewers: list[int | None]):
        super().__init__(state, schedule, viewers)
        self.how = how
        self.listed = how == DEEPCOPY
        """Play the copy's own listed action of each text (as a bot does), else the action
        parsed from the text (as the server does)."""

    def label(self, where: str) -> str:
        return f"{where}: the copy by {self.how} taken at step {self.schedule.start}"

    def compare(self, step: int, want: Raw, where: str) -> None:
        """The copy's components now equal the original's ``want`` (compared by ``==``)."""
        try:
            mine = self.components(step)
        except Exception as exc:
            raise ConformanceError(
                f"{self.label(where)} fails at step {step}: {exc!r}\n{_trace(exc)}"
            ) from exc
        name = _differs(mine, want)
        if name is not None:
            detail = _detail(name, mine.get(name, _MISSING), want.get(name, _MISSING))
            raise ConformanceError(f"{self.label(where)} differs at step {step}: {name} ({detail})")

    def play(self, step: int, text: str, where: str) -> None:
        try:
            _play(self.state, text, self.listed)
        except Exception as exc:
            raise ConformanceError(
                f"{self.label(where)} refuses or fails step {step} ({text!r}), which the "
                f"original plays: {exc!r}\n{_trace(exc)}"
            ) from exc


def _local_copies(
    game: Game, original: State, schedule: _Schedule, want: Raw, where: str
) -> list[_Copy]:
    viewers = _viewers(game)
    made: list[_Copy] = []
    for how in (DEEPCOPY, CLONE, POSITION):
        try:
            if how == DEEPCOPY:
                state = copy.deepcopy(original)
            elif how == CLONE:
                state = original.clone()
            else:
                doc = json.loads(json.dumps(original.position()))
                state = game.load_position(doc)
        except Exception as exc:
            raise ConformanceError(
                f"{where}: copying the state by {how} at step {schedule.start} fails: "
                f"{exc!r}\n{_trace(exc)}"
            ) from exc
        c = _Copy(how, state, schedule, viewers)
        if how == POSITION:
            # a game whose positions leave the history out (as FEN) compares new lines only
            view = state.observation(None)
            log = view.get("log") if isinstance(view, dict) else None
            c.wholes = not isinstance(log, list) or log == want.get(
                "the whole log of the spectator"
            )
        c.compare(schedule.start, want if c.wholes else _no_wholes(want), where)
        made.append(c)
    return made


def _no_wholes(raw: Raw) -> Raw:
    return {k: v for k, v in raw.items() if not k.startswith("the whole log")}


# --- the copy pickled into a spawned process ---------------------------------------------------
@dataclass(frozen=True)
class _Result:
    """What the spawned process sends back: the digest of each step it played, or where it
    failed (step and the exception, with its traceback), or one component's raw value."""

    digests: list[Digest]
    failed: tuple[int, str] | None = None
    raw: Any = None


def _spawn(
    original: State, schedule: _Schedule, texts: Sequence[str], pool: Executor, where: str
) -> Future[_Result]:
    try:
        blob = pickle.dumps(original, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as exc:
        raise ConformanceError(
            f"{where}: the state at step {schedule.start} does not pickle: {exc!r}"
        ) from exc
    return pool.submit(_play_spawned, blob, schedule, tuple(texts[schedule.start :]), None)


def _play_spawned(
    blob: bytes, schedule: _Schedule, texts: tuple[str, ...], detail: tuple[int, str] | None
) -> _Result:
    """In the spawned process: unpickle, play ``texts`` from ``schedule.start`` on and digest
    every step (with ``detail`` = (step, component): send that component's raw value there)."""
    digests: list[Digest] = []
    step = schedule.start
    try:
        state = pickle.loads(blob)
        walker = _Walker(state, schedule, _viewers(state.game))
        for step in range(schedule.start, schedule.end + 1):
            if detail is not None and step == detail[0]:
                raw = walker.components(step, detail=detail[1])
                return _Result([], raw=raw.get(detail[1], _MISSING))
            digests.append(_hashed(walker.components(step)))
            if step < schedule.end:
                _play(state, texts[step - schedule.start], True)
    except Exception as exc:
        return _Result(digests, (step, f"{exc!r}\n{_trace(exc)}"))
    return _Result(digests)


def _compare_spawned(
    game: Game,
    actions: Sequence[Action],
    texts: Sequence[str],
    schedule: _Schedule,
    result: _Result,
    expected: dict[tuple[int, int], Digest],
    pool: Executor,
    where: str,
) -> None:
    start = schedule.start
    label = f"{where}: the copy {SPAWNED} at step {start}"
    for i, digest in enumerate(result.digests):
        step = start + i
        name = _differs(digest, expected[start, step])
        if name is None:
            continue
        here = _state_at(game, actions, start)
        blob = pickle.dumps(here, protocol=pickle.HIGHEST_PROTOCOL)
        walk = (blob, schedule, tuple(texts[start:]), (step, name))
        theirs = pool.submit(_play_spawned, *walk).result().raw
        walker = _Walker(here, schedule, _viewers(game))
        for s in range(start, step):
            walker.components(s)
            here.apply(actions[s])
        mine = walker.components(step, detail=name).get(name, _MISSING)
        raise ConformanceError(
            f"{label} differs at step {step}: {name} ({_detail(name, theirs, mine)})"
        )
    if result.failed is not None:
        step, error = result.failed
        text = texts[step] if step < len(texts) else "the end"
        raise ConformanceError(
            f"{label} fails at step {step} ({text!r}), which the original plays: {error}"
        )


def _state_at(game: Game, actions: Sequence[Action], step: int) -> State:
    state = game.new_initial_state()
    for action in actions[:step]:
        state.apply(action)
    return state
