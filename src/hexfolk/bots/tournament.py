"""The tournament runner: many seeded games between bots, in one process or many.

A tournament is described by a :class:`TournamentSpec` (a game class, player count, options,
one bot code per *entry*, a master seed, a turn cap). Game ``g`` is played with the seed
:func:`game_seed` ``(seed, g)`` and with seats rotated: entry ``i`` sits at seat ``(i + g) mod n``
(:func:`seat_of_entry`). Outcomes are aggregated in game order into running sums
(:class:`TournamentStats`), so the result is the same bit for bit whatever the number of worker
processes, and memory does not grow with the number of games: nothing is kept per game except
the records written to ``record_dir``.

Worker processes (``multiprocessing``, spawn-safe) import the game class by its
``module:qualname`` (so a game registered only in the parent, such as the test toy game, works
there too), import the modules of the bots' classes, and play the game indexes handed to them
in ordered chunks.
"""

from __future__ import annotations

import importlib
import math
import multiprocessing
import os
import signal
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hexfolk.bots.registry import make_bot
from hexfolk.core import (
    Bot,
    Game,
    Match,
    MatchRecord,
    OptionError,
    RecordError,
    derive_seed,
    register,
    replay,
)
from hexfolk.core.record import CHECKPOINT_EVERY

__all__ = [
    "GameCrashed",
    "GameOutcome",
    "TournamentResult",
    "TournamentSpec",
    "TournamentStats",
    "class_ref",
    "game_seed",
    "iter_outcomes",
    "load_class_ref",
    "play_game",
    "record_name",
    "run_tournament",
    "seat_of_entry",
    "seats_for_game",
    "wilson_interval",
]


# --- seeds, seats, statistics ------------------------------------------------------------------
def game_seed(seed: int, game_index: int) -> int:
    """The seed of game ``game_index`` of a tournament with master seed ``seed``."""
    return derive_seed(seed, "game", game_index)


def seat_of_entry(entry: int, game_index: int, players: int) -> int:
    """The seat of entry ``entry`` (its place in ``--players``) in game ``game_index``."""
    return (entry + game_index) % players


def seats_for_game(entries: Sequence[str], game_index: int) -> list[str]:
    """The bot codes in seat order for game ``game_index`` (entries rotated by the index)."""
    n = len(entries)
    by_seat = [""] * n
    for i, code in enumerate(entries):
        by_seat[seat_of_entry(i, game_index, n)] = code
    return by_seat


PART_SUFFIX = ".part"
"""A record being written is ``game-000007.json.part`` until it is complete."""


def record_name(game_index: int) -> str:
    """File name of the record of game ``game_index`` in a record directory."""
    return f"game-{game_index:06d}.json"


def wilson_interval(
    successes: float, trials: int, z: float = 1.959963984540054
) -> tuple[float, float]:
    """Wilson score interval of a success rate (95% by default).

    ``successes`` may be fractional (a shared win counts as a fraction of a win). With no trials
    the interval is the whole ``[0, 1]``.
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = min(max(successes / trials, 0.0), 1.0)
    z2 = z * z
    denom = 1.0 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1.0 - p) / trials + z2 / (4 * trials * trials)) / denom
    lo = 0.0 if p <= 0.0 else max(0.0, centre - half)
    hi = 1.0 if p >= 1.0 else min(1.0, centre + half)
    return (lo, hi)


# --- game classes by reference -----------------------------------------------------------------
def class_ref(cls: type) -> str:
    """``module:qualname`` of a class, importable in another process."""
    return f"{cls.__module__}:{cls.__qualname__}"


def load_class_ref(ref: str) -> type:
    """Import the class named by :func:`class_ref`; raise OptionError if that fails."""
    module_name, sep, qualname = ref.partition(":")
    if not sep or "<locals>" in qualname or module_name == "__main__":
        raise OptionError(f"{ref!r} cannot be imported by worker processes")
    try:
        obj: Any = importlib.import_module(module_name)
        for part in qualname.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError) as exc:
        raise OptionError(f"cannot import {ref!r}: {exc}") from exc
    if not isinstance(obj, type):
        raise OptionError(f"{ref!r} is not a class")
    return obj


# --- the spec and one game -----------------------------------------------------------------------
@dataclass(frozen=True)
class TournamentSpec:
    """Everything a worker needs to play any game of a tournament (picklable, small).

    ``bots`` holds one bot code per entry (``"random"``); ``turn_cap`` ``None`` uses the
    game's default cap, ``0`` means no cap. ``record_dir``: write one record per game there.
    """

    game_ref: str
    players: int
    options: Mapping[str, Any]
    bots: tuple[str, ...]
    seed: int
    games: int
    turn_cap: int | None = None
    record_dir: str | None = None
    setup_modules: tuple[str, ...] = ()
    verify: bool = False
    """Replay every game's record (read back from its JSON text) and report those that fail."""

    @classmethod
    def create(
        cls,
        game_class: type[Game],
        bots: Sequence[str],
        *,
        games: int,
        seed: int = 0,
        options: Mapping[str, Any] | None = None,
        turn_cap: int | None = None,
        record_dir: str | Path | None = None,
        verify: bool = False,
    ) -> TournamentSpec:
        """Validate everything in this process (game, options, player count, bot codes) and
        return the spec. Raises OptionError (or another HexfolkError) with a clear message."""
        if games < 0:
            raise OptionError(f"the number of games must be 0 or more, not {games}")
        if turn_cap is not None and turn_cap < 0:
            raise OptionError(f"the turn cap must be 0 (no cap) or more, not {turn_cap}")
        game = game_class(len(bots), dict(options or {}))
        modules: list[str] = []
        for code in bots:
            bot = make_bot(code, game.id)
            mod = type(bot).__module__
            if mod not in modules and mod != "__main__":
                modules.append(mod)
        return cls(
            game_ref=class_ref(game_class),
            players=len(bots),
            options=dict(game.options),
            bots=tuple(bots),
            seed=seed,
            games=games,
            turn_cap=turn_cap,
            record_dir=None if record_dir is None else str(record_dir),
            setup_modules=tuple(modules),
            verify=verify,
        )

    def make_game(self) -> Game:
        """Build the game (importing and registering its class if needed)."""
        cls = load_class_ref(self.game_ref)
        register(cls)
        game: Game = cls(self.players, dict(self.options))
        return game


@dataclass(frozen=True)
class GameOutcome:
    """What one game contributes to the sums. ``returns``/``scores`` are indexed by *entry*."""

    index: int
    seed: int
    finished: bool
    turns: int
    decisions: int
    returns: tuple[float, ...]
    scores: tuple[float, ...]
    seat_returns: tuple[float, ...]
    """Indexed by seat (for the seat-position statistics)."""
    replay_error: str | None = None
    """With ``verify``: why the game's record does not replay (``None``: it replays)."""


class GameCrashed(RuntimeError):
    """A game of the tournament raised (an engine or bot bug): which one, and the traceback."""

    def __init__(self, index: int, seed: int, details: str):
        super().__init__(index, seed, details)
        self.index = index
        self.seed = seed
        self.details = details

    def __str__(self) -> str:
        last = self.details.strip().splitlines()[-1] if self.details.strip() else "?"
        return f"game {self.index} (seed {self.seed}) crashed: {last}"


def play_game(spec: TournamentSpec, game: Game, index: int) -> GameOutcome:
    """Play game ``index`` of ``spec`` (fresh bots, derived seed, rotated seats).

    Any exception is re-raised as :class:`GameCrashed` naming the game index and its seed.
    """
    try:
        return _play_game(spec, game, index)
    except Exception as exc:
        raise GameCrashed(index, game_seed(spec.seed, index), traceback.format_exc()) from exc


def _play_game(spec: TournamentSpec, game: Game, index: int) -> GameOutcome:
    n = spec.players
    seed = game_seed(spec.seed, index)
    codes = seats_for_game(spec.bots, index)
    bots: list[Bot] = [make_bot(code, game.id) for code in codes]
    keep = spec.record_dir is not None or spec.verify
    every = CHECKPOINT_EVERY if keep else 0
    result = Match(game, bots, seed, turn_cap=spec.turn_cap, checkpoint_every=every).run(
        keep_actions=keep
    )
    record = result.record
    record.bots = list(codes)
    text = record.dumps()
    if spec.record_dir is not None:
        path = Path(spec.record_dir) / record_name(index)
        part = path.with_name(path.name + PART_SUFFIX)  # whole or absent, even after Ctrl-C
        part.write_text(text + "\n", encoding="utf-8")
        os.replace(part, path)
        text = path.read_text(encoding="utf-8")  # verify what was written
    replay_error = verify_record(text, game) if spec.verify else None
    seat_returns = result.returns
    seat_scores = result.scores
    entries = range(n)
    return GameOutcome(
        index=index,
        seed=seed,
        finished=result.finished,
        turns=result.turns,
        decisions=result.decisions,
        returns=tuple(float(seat_returns[seat_of_entry(i, index, n)]) for i in entries),
        scores=tuple(float(seat_scores[seat_of_entry(i, index, n)]) for i in entries),
        seat_returns=tuple(float(x) for x in seat_returns),
        replay_error=replay_error,
    )


def verify_record(text: str, game: Game) -> str | None:
    """Replay a record's JSON text with ``game`` (fingerprint and winners checked): ``None``
    when it replays, else the reason."""
    try:
        replay(MatchRecord.loads(text), game=game)
    except RecordError as exc:
        return str(exc)
    return None


# --- running sums ------------------------------------------------------------------------------
@dataclass
class TournamentStats:
    """Running sums over the games seen so far (added in game order)."""

    players: int
    games: int = 0
    finished: int = 0
    turns: int = 0
    decisions: int = 0
    wins: list[float] = field(default_factory=list)
    score_sums: list[float] = field(default_factory=list)
    seat_wins: list[float] = field(default_factory=list)
    replay_failures: list[tuple[int, str]] = field(default_factory=list)
    """``(game index, reason)`` of every record that did not replay (with ``verify``)."""

    def __post_init__(self) -> None:
        n = self.players
        self.wins = self.wins or [0.0] * n
        self.score_sums = self.score_sums or [0.0] * n
        self.seat_wins = self.seat_wins or [0.0] * n

    def add(self, outcome: GameOutcome) -> None:
        self.games += 1
        self.finished += int(outcome.finished)
        self.turns += outcome.turns
        self.decisions += outcome.decisions
        if outcome.replay_error is not None:
            self.replay_failures.append((outcome.index, outcome.replay_error))
        for i in range(self.players):
            self.wins[i] += outcome.returns[i]
            self.score_sums[i] += outcome.scores[i]
            self.seat_wins[i] += outcome.seat_returns[i]

    @property
    def capped(self) -> int:
        return self.games - self.finished

    @property
    def mean_turns(self) -> float:
        return self.turns / self.games if self.games else 0.0

    def win_rate(self, entry: int) -> float:
        return self.wins[entry] / self.games if self.games else 0.0

    def mean_score(self, entry: int) -> float:
        return self.score_sums[entry] / self.games if self.games else 0.0


@dataclass
class TournamentResult:
    """The sums of a finished tournament plus its wall-clock time."""

    spec: TournamentSpec
    stats: TournamentStats
    seconds: float
    game_id: str
    workers: int = 1
    interrupted: bool = False
    """Ctrl-C stopped the tournament: the sums cover the games finished before it."""

    @property
    def games_per_second(self) -> float:
        return self.stats.games / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        """The summary as plain JSON (what ``hexfolk simulate --json`` prints)."""
        st = self.stats
        seats = []
        for i, code in enumerate(self.spec.bots):
            lo, hi = wilson_interval(st.wins[i], st.games)
            seats.append(
                {
                    "entry": i,
                    "bot": code,
                    "wins": st.wins[i],
                    "win_rate": st.win_rate(i),
                    "ci95": [lo, hi],
                    "mean_score": st.mean_score(i),
                }
            )
        by_seat = []
        for s in range(st.players):
            lo, hi = wilson_interval(st.seat_wins[s], st.games)
            rate = st.seat_wins[s] / st.games if st.games else 0.0
            by_seat.append({"seat": s, "wins": st.seat_wins[s], "win_rate": rate, "ci95": [lo, hi]})
        return {
            "game": self.game_id,
            "players": st.players,
            "options": dict(self.spec.options),
            "seed": self.spec.seed,
            "turn_cap": self.spec.turn_cap,
            "games": st.games,
            "finished": st.finished,
            "capped": st.capped,
            "seconds": self.seconds,
            "games_per_second": self.games_per_second,
            "mean_turns": st.mean_turns,
            "mean_decisions": st.decisions / st.games if st.games else 0.0,
            "workers": self.workers,
            "seats": seats,
            "by_seat": by_seat,
            "interrupted": self.interrupted,
            "games_planned": self.spec.games,
            "verified": self.spec.verify,
            "replay_failures": [
                {"game": index, "error": error} for index, error in st.replay_failures
            ],
        }


# --- running: in process or in a pool ------------------------------------------------------------
_WORKER: dict[str, Any] = {}


def _worker_init(spec: TournamentSpec) -> None:
    # Ctrl-C reaches the whole process group: the parent stops the pool, workers stay quiet
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for mod in spec.setup_modules:
        importlib.import_module(mod)
    _WORKER["spec"] = spec
    _WORKER["game"] = spec.make_game()


def _worker_play(index: int) -> GameOutcome:
    return play_game(_WORKER["spec"], _WORKER["game"], index)


def default_chunksize(games: int, workers: int) -> int:
    """Games per task: a few tasks per worker, at most 64 games each."""
    return max(1, min(64, games // max(1, workers * 8)))


def _bounded(
    indexes: Iterable[int], slots: threading.Semaphore, stop: threading.Event
) -> Iterator[int]:
    """Yield indexes, each taking a slot (released when its outcome is consumed)."""
    for i in indexes:
        while not slots.acquire(timeout=0.1):
            if stop.is_set():
                return
        if stop.is_set():
            return
        yield i


def _play_chunk(spec: TournamentSpec, indexes: list[int]) -> list[GameOutcome]:
    """Play a chunk of games in one (Ray) task."""
    for mod in spec.setup_modules:
        importlib.import_module(mod)
    game = spec.make_game()
    return [play_game(spec, game, i) for i in indexes]


def _iter_ray(spec: TournamentSpec, address: str, chunksize: int | None) -> Iterator[GameOutcome]:
    """Play the games as Ray tasks, a bounded number of chunks in flight, yielded in order.

    ``address`` ``"auto"`` joins a running cluster if there is one and otherwise starts a local
    Ray instance; any other value is a cluster address (``ray://host:10001``, ``host:6379``).
    """
    try:
        import ray
    except ImportError:
        raise OptionError("--ray needs Ray: pip install 'hexfolk[scale]'") from None
    load_class_ref(spec.game_ref)
    started_here = False
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if address == "auto":
            try:
                ray.init(address="auto", **kwargs)
            except (ConnectionError, RuntimeError):
                ray.init(**kwargs)
        else:
            ray.init(address=address, **kwargs)
        started_here = True
    try:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        size = chunksize or default_chunksize(spec.games, cpus)
        remote = ray.remote(_play_chunk)
        chunks = [
            list(range(start, min(start + size, spec.games)))
            for start in range(0, spec.games, size)
        ]
        window = cpus * 3
        pending: dict[int, Any] = {}
        next_submit = 0
        for want in range(len(chunks)):
            while next_submit < len(chunks) and len(pending) < window:
                pending[next_submit] = remote.remote(spec, chunks[next_submit])
                next_submit += 1
            outcomes: list[GameOutcome] = ray.get(pending.pop(want))
            yield from outcomes
    finally:
        if started_here:
            ray.shutdown()


def iter_outcomes(
    spec: TournamentSpec,
    *,
    workers: int = 1,
    chunksize: int | None = None,
    ray_address: str | None = None,
) -> Iterator[GameOutcome]:
    """Play every game of ``spec`` and yield the outcomes in game order.

    ``workers == 1`` plays in this process; more uses a spawn pool with ordered ``imap`` over
    the game indexes in chunks. At most a few chunks per worker are in flight at once, so
    memory stays flat however many games run.
    """
    if spec.record_dir is not None:
        Path(spec.record_dir).mkdir(parents=True, exist_ok=True)
    if ray_address is not None:
        yield from _iter_ray(spec, ray_address, chunksize)
        return
    if workers <= 1 or spec.games <= 1:
        game = spec.make_game()
        for index in range(spec.games):
            yield play_game(spec, game, index)
        return
    load_class_ref(spec.game_ref)  # fail here, clearly, if workers could not import it
    size = chunksize or default_chunksize(spec.games, workers)
    slots = threading.Semaphore(size * workers * 4)
    stop = threading.Event()
    ctx = multiprocessing.get_context("spawn")
    pool = ctx.Pool(processes=workers, initializer=_worker_init, initargs=(spec,))
    try:
        feed = _bounded(range(spec.games), slots, stop)
        for outcome in pool.imap(_worker_play, feed, chunksize=size):
            slots.release()
            yield outcome
        pool.close()
    finally:
        stop.set()
        pool.terminate()
        pool.join()


def run_tournament(
    spec: TournamentSpec,
    *,
    workers: int = 1,
    chunksize: int | None = None,
    progress: Callable[[GameOutcome], None] | None = None,
    ray_address: str | None = None,
) -> TournamentResult:
    """Play the tournament and return its sums; ``progress`` is called after each game.
    Ctrl-C (KeyboardInterrupt) stops it cleanly: the result holds the games finished so far
    and ``interrupted`` is set.

    ``ray_address`` runs the games as Ray tasks instead (see :func:`_iter_ray`); the sums are the
    same bit for bit as with one process, since outcomes are added in game order.
    """
    game_id = getattr(load_class_ref(spec.game_ref), "id", "?")
    stats = TournamentStats(players=spec.players)
    start = time.perf_counter()
    outcomes = iter_outcomes(spec, workers=workers, chunksize=chunksize, ray_address=ray_address)
    interrupted = False
    try:
        for outcome in outcomes:
            stats.add(outcome)
            if progress is not None:
                progress(outcome)
    except KeyboardInterrupt:  # Ctrl-C: stop cleanly with the games finished so far
        interrupted = True
    finally:
        close = getattr(outcomes, "close", None)  # a generator: stops the pool (or Ray) now
        if close is not None:
            close()
    if interrupted and spec.record_dir is not None:  # records cut off while being written
        for part in Path(spec.record_dir).glob("game-*.json" + PART_SUFFIX):
            part.unlink(missing_ok=True)
    seconds = time.perf_counter() - start
    return TournamentResult(
        spec, stats, seconds, str(game_id), workers=max(1, workers), interrupted=interrupted
    )
