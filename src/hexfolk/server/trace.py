"""An optional latency trace of the server (for ``benchmarks/server_load.py --trace``).

Off unless the environment variable ``HEXFOLK_TRACE`` names a file: then the server times,
for every person's action, each stage from the frame received to the new view sent, samples
the event loop's lag every 5 ms, times every callback of the loop and keeps the slowest ones
by name, times the group-commit writer's transactions, and writes the summary as JSON to
that file at shutdown. Nothing of it reaches a client; it costs nothing when off. With
``HEXFOLK_PROFILE`` naming a file too, the event loop's thread is profiled (``cProfile``) and
the statistics are written there (``python -m pstats FILE``).

Stages of an action (seconds, each from the previous one):

* ``queue``: the frame parsed → the room's task starts the job (waiting behind other jobs);
* ``apply``: the engine's parse and apply (and the undo's ``reveals_to`` check);
* ``commit``: waiting for the group-commit writer (the transaction holding the step);
* ``views``: building and queueing every connection's view;
* ``send``: the actor's view queued → its frame written to the socket (JSON encoding and the
  writer task's wait);
* ``total``: frame received → the actor's new view written;
* ``act_commit``, ``act_views``: ``commit`` and ``views`` of a person's action alone (the two
  above count the bots' steps too).
"""

from __future__ import annotations

import asyncio
import cProfile
import json
import os
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

SLOW_CALLBACK = 0.010
"""Loop callbacks longer than 10 ms are counted by name."""
LAG_EVERY = 0.005


class Trace:
    """Collects the figures; :data:`TRACE` is the process's one instance."""

    def __init__(self, path: str | None):
        self.path = path
        self.enabled = bool(path)
        self.stages: dict[str, list[float]] = defaultdict(list)
        self.lag: list[float] = []
        self.slow: dict[str, list[float]] = defaultdict(list)
        self.busy = 0.0
        self.started = time.perf_counter()
        self._lag_task: asyncio.Task[None] | None = None
        self.profile_path = os.environ.get("HEXFOLK_PROFILE") if self.enabled else None
        self._profiler: cProfile.Profile | None = None

    def add(self, stage: str, seconds: float, act: bool = False) -> None:
        """Count ``seconds`` for ``stage`` (and for ``act_<stage>`` too when ``act``: a
        person's action, whose own share the click-to-redraw split reads)."""
        if self.enabled:
            self.stages[stage].append(seconds)
            if act:
                self.stages[f"act_{stage}"].append(seconds)

    def start(self) -> None:
        """Start sampling the running loop (lag and slow callbacks)."""
        if not self.enabled or self._lag_task is not None:
            return
        self.started = time.perf_counter()
        self._patch_handles()
        self._lag_task = asyncio.get_running_loop().create_task(self._sample_lag())
        if self.profile_path:
            self._profiler = cProfile.Profile()
            self._profiler.enable()

    async def _sample_lag(self) -> None:
        while True:
            t = time.perf_counter()
            await asyncio.sleep(LAG_EVERY)
            self.lag.append(time.perf_counter() - t - LAG_EVERY)

    def _patch_handles(self) -> None:
        trace = self
        original = asyncio.events.Handle._run

        def timed_run(handle: asyncio.events.Handle) -> None:
            t = time.perf_counter()
            try:
                original(handle)
            finally:
                d = time.perf_counter() - t
                trace.busy += d
                if d >= SLOW_CALLBACK:
                    trace.slow[_name(handle)].append(d)

        asyncio.events.Handle._run = timed_run  # type: ignore[method-assign,assignment]

    def summary(self) -> dict[str, Any]:
        wall = time.perf_counter() - self.started
        return {
            "wall": wall,
            "loop_busy": self.busy / wall if wall else 0.0,
            "stages": {k: _pct(v) for k, v in self.stages.items()},
            "lag": _pct(self.lag),
            "slow_callbacks": sorted(
                ({"name": k, **_pct(v), "sum": sum(v)} for k, v in self.slow.items()),
                key=lambda e: -float(e["sum"]),
            )[:15],
        }

    def dump(self) -> None:
        if self.enabled and self.path:
            if self._lag_task is not None:
                self._lag_task.cancel()
            if self._profiler is not None and self.profile_path:
                self._profiler.disable()
                self._profiler.dump_stats(self.profile_path)
            Path(self.path).write_text(json.dumps(self.summary(), indent=1))


def _name(handle: asyncio.events.Handle) -> str:
    """A slow callback's name: for a task, its coroutine chain down to where it waits now,
    and the room's job (``fn``) when it is a room's task."""
    cb = getattr(handle, "_callback", None)
    task = getattr(cb, "__self__", None)
    if not isinstance(task, asyncio.Task):
        return repr(cb)[:120]
    chain: list[str] = []
    coro: Any = task.get_coro()
    job = ""
    while coro is not None and len(chain) < 6:
        frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
        if frame is None:
            break
        chain.append(f"{frame.f_code.co_name}:{frame.f_lineno}")
        fn = frame.f_locals.get("fn")
        if fn is not None and not job:
            job = f" [job {getattr(fn, '__qualname__', fn)}]"
        coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
    return " > ".join(chain) + job


def _pct(values: list[float]) -> dict[str, float]:
    if not values:
        return {"n": 0}
    v = sorted(values)
    n = len(v)
    return {
        "n": n,
        "p50_ms": v[n // 2] * 1000,
        "p90_ms": v[min(n - 1, int(n * 0.9))] * 1000,
        "p99_ms": v[min(n - 1, int(n * 0.99))] * 1000,
        "max_ms": v[-1] * 1000,
    }


TRACE = Trace(os.environ.get("HEXFOLK_TRACE"))
