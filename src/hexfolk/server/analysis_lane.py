"""The bot pool's low-priority lane: one worker process that analyses finished games (issue 29,
``docs/analysis.md``, "On the server").

Live tables always go first. The lane is a process of its own beside the pool's bot workers
(never one of them: a bot decision never waits behind an analysis in a queue), started with the
lowest CPU priority, ``nice`` :data:`ANALYSIS_NICE` (19): whenever a bot worker or the server's
event loop wants a core the analysis is busy on, the kernel's scheduler gives the core to them
(a nice-19 task gets about 1.5% of a core that a nice-0 task also wants). One analysis runs at a
time (the lane has one worker; :mod:`.analyses` queues the rest). The benchmark
``benchmarks/analysis_priority.py`` measures the bot decision latency of live tables with and
without analyses running.

The worker rebuilds the table's match record itself (from the table's settings and its event
log, passed as plain data), so not even the replay of the record runs on the event loop, then
calls :func:`hexfolk.analysis.analyze_record` with a progress callback that sends
``(job, fraction)`` through a multiprocessing queue at most every :data:`PROGRESS_EVERY`
seconds (and at the end); a thread of the server reads it and hands each report to the event
loop. A worker that dies (killed, out of memory) fails the analysis it was running with
:class:`AnalysisWorkerDied` (nothing is retried in a loop: a game that kills its worker
would kill the next one too), and the next analysis starts a fresh worker.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

log = logging.getLogger("hexfolk.server.analysis_lane")

ANALYSIS_NICE = 19
"""The analysis worker's ``nice`` value: the lowest CPU priority (Linux: -20 .. 19)."""
PROGRESS_EVERY = 0.25
"""The worker reports an analysis's progress at most every 0.25 s (and at its end)."""

Progress = Callable[[float], None]

_reports: Any = None
"""In the worker: the queue its progress reports go to (set by :func:`_start_worker`)."""


class AnalysisWorkerDied(RuntimeError):
    """The analysis worker process ended in the middle of an analysis."""


def _start_worker(
    watch: Callable[[int], None] | None, parent: int, reports: Any, nice: int
) -> None:
    """In the worker, once: end with the server (``watch(parent)``: the bot pool's
    :func:`~.botpool._watch_parent`), take the lowest priority, keep the progress queue."""
    global _reports
    if watch is not None:
        watch(parent)
    os.nice(max(0, nice - os.nice(0)))
    _reports = reports


def analyse_table(
    job: int,
    table: dict[str, Any],
    events: list[dict[str, Any]],
    names: dict[str, str],
    budget: str,
) -> dict[str, Any]:
    """In the worker: the analysis JSON of a finished table (``table``: its row's ``id``,
    ``game``, ``players``, ``options``, ``seats``; ``events``: its event rows' ``seq``,
    ``kind``, ``seat``, ``action``, ``undoes``), built from the same record
    ``GET /api/tables/{id}/record`` publishes."""
    from hexfolk.analysis import Budget, analyze_record
    from hexfolk.server.models import EventRow, TableRow
    from hexfolk.server.records import build_record

    row = TableRow(**table)
    record = build_record(row, [EventRow(**e) for e in events], names)
    last = 0.0

    def progress(done: int, total: int) -> None:
        nonlocal last
        now = time.monotonic()
        if _reports is not None and (done == total or now - last >= PROGRESS_EVERY):
            last = now
            _reports.put((job, done / total if total else 1.0))

    return analyze_record(record, Budget.parse(budget), progress=progress).to_json()


def worker_nice() -> int:
    """In the worker: its ``nice`` value (the tests and the benchmark ask it)."""
    return os.nice(0)


class AnalysisLane:
    """``await lane.run(table, events, names, budget, progress)`` → the analysis JSON."""

    def __init__(self, watch: Callable[[int], None] | None = None, nice: int = ANALYSIS_NICE):
        self.watch, self.nice = watch, nice
        self._executor: ProcessPoolExecutor | None = None
        self._reports: Any = None
        self._reader: threading.Thread | None = None
        self._jobs = itertools.count(1)
        self._progress: dict[int, tuple[asyncio.AbstractEventLoop, Progress]] = {}

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            ctx = multiprocessing.get_context("spawn")
            self._reports = ctx.Queue()
            self._executor = ProcessPoolExecutor(
                max_workers=1,
                mp_context=ctx,
                initializer=_start_worker,
                initargs=(self.watch, os.getpid(), self._reports, self.nice),
            )
            self._reader = threading.Thread(
                target=self._read,
                args=(self._reports,),
                name="hexfolk-analysis-progress",
                daemon=True,
            )
            self._reader.start()
        return self._executor

    def _read(self, reports: Any) -> None:
        """(A thread) hand every progress report to the loop of the analysis it belongs to."""
        while True:
            try:
                item = reports.get()
            except (EOFError, OSError, ValueError):
                return
            if item is None:
                return
            job, fraction = item
            target = self._progress.get(job)
            if target is not None:
                loop, progress = target
                with contextlib.suppress(RuntimeError):  # the loop is closed
                    loop.call_soon_threadsafe(progress, fraction)

    async def run(
        self,
        table: dict[str, Any],
        events: list[dict[str, Any]],
        names: dict[str, str],
        budget: str,
        progress: Progress,
    ) -> dict[str, Any]:
        """The analysis JSON (:func:`analyse_table`); ``progress(fraction)`` is called on this
        loop as the worker reports. Raises what the analysis raised, or
        :class:`AnalysisWorkerDied`."""
        job = next(self._jobs)
        loop = asyncio.get_running_loop()
        self._progress[job] = (loop, progress)
        call = functools.partial(analyse_table, job, table, events, names, budget)
        try:
            result: dict[str, Any] = await loop.run_in_executor(self._pool(), call)
            return result
        except BrokenProcessPool:
            self.shutdown()
            raise AnalysisWorkerDied("the analysis worker process died") from None
        finally:
            self._progress.pop(job, None)

    async def ask_nice(self) -> int:
        """The worker's ``nice`` value (starting it if needed)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool(), worker_nice)

    def shutdown(self) -> None:
        """Stop the worker now, in the middle of an analysis too (its table's analysis stays
        ``running`` in the database and is queued again at the next start)."""
        if self._executor is not None:
            # the executor has no way to stop a running call: its processes are ended
            processes = list((getattr(self._executor, "_processes", None) or {}).values())
            self._executor.shutdown(wait=False, cancel_futures=True)
            for proc in processes:
                if proc.is_alive():
                    proc.terminate()
            self._executor = None
        if self._reports is not None:
            with contextlib.suppress(OSError, ValueError):
                self._reports.put(None)  # the reader thread ends
            self._reports = None
