"""The local launcher (``hexfolk serve --processes N``): N server processes on one machine that
together form one site, all on the same address and port.

Each child is ``hexfolk serve --reuse-port`` with the launcher's own options: every child binds
the port with ``SO_REUSEPORT`` (Linux), so the kernel spreads the incoming connections over the
processes that listen. The first child starts alone (it migrates the database); the others start
once it answers ``/healthz``, within :data:`FIRST_READY_TIMEOUT` seconds.

SIGTERM or SIGINT (Ctrl-C) stops every child with SIGTERM (each closes its tables); a child that
has not ended :data:`STOP_TIMEOUT` seconds later is killed. A child that ends on its own is
reported (one line on stderr) and started again after :data:`RESTART_DELAY` seconds; a child
that ends more than :data:`RESTART_LIMIT` times within :data:`RESTART_WINDOW` seconds stops the
whole site (exit code 1): it would only crash again.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from collections import deque
from collections.abc import Callable, Sequence
from types import FrameType
from typing import TextIO

import httpx

FIRST_READY_TIMEOUT = 120.0
"""Seconds the launcher waits for the first process to answer ``/healthz`` (migrations)."""
STOP_TIMEOUT = 30.0
"""Seconds a child has to end after SIGTERM before it is killed (SIGKILL)."""
RESTART_DELAY = 1.0
"""Seconds before a child that ended on its own is started again."""
RESTART_LIMIT = 5
"""More restarts than this of one child within :data:`RESTART_WINDOW` stop the site."""
RESTART_WINDOW = 60.0
"""Seconds over which :data:`RESTART_LIMIT` is counted."""
POLL = 0.2
"""Seconds between the launcher's looks at its children."""


def exit_text(code: int) -> str:
    """``code`` of :meth:`subprocess.Popen.poll` in words (a signal's name when negative)."""
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


class Launcher:
    """Runs ``count`` children, ``command(index)`` each (index 1..count); ``health_url`` is
    the site's ``/healthz`` (the first child must answer it before the others start)."""

    def __init__(
        self,
        count: int,
        command: Callable[[int], Sequence[str]],
        health_url: str,
        out: TextIO = sys.stderr,
    ):
        self.count = count
        self.command = command
        self.health_url = health_url
        self.out = out
        self.children: dict[int, subprocess.Popen[bytes]] = {}
        self.exits: dict[int, deque[float]] = {i: deque() for i in range(1, count + 1)}
        self.stopping = False

    def say(self, line: str) -> None:
        print(f"hexfolk launcher: {line}", file=self.out, flush=True)

    def _start(self, index: int) -> None:
        child = subprocess.Popen(list(self.command(index)))
        self.children[index] = child
        self.say(f"process {index} started (pid {child.pid})")

    def _stop_signal(self, signum: int, _frame: FrameType | None) -> None:
        self.stopping = True

    def _first_ready(self) -> bool:
        deadline = time.monotonic() + FIRST_READY_TIMEOUT
        first = self.children[1]
        while time.monotonic() < deadline and not self.stopping:
            if first.poll() is not None:
                self.say(f"process 1 ended at start ({exit_text(first.returncode)})")
                return False
            try:
                if httpx.get(self.health_url, timeout=2).status_code == 200:
                    return True
            except httpx.HTTPError:
                pass
            time.sleep(POLL)
        if not self.stopping:
            self.say(f"process 1 did not answer {self.health_url} in {FIRST_READY_TIMEOUT:g} s")
        return False

    def run(self) -> int:
        """Start the site and watch it until a stop signal; the exit code (0: stopped by a
        signal, 1: a child could not start or kept crashing)."""
        previous = {
            sig: signal.signal(sig, self._stop_signal) for sig in (signal.SIGTERM, signal.SIGINT)
        }
        code = 0
        try:
            self._start(1)
            if not self._first_ready():
                return 0 if self.stopping else 1
            for index in range(2, self.count + 1):
                self._start(index)
            self.say(f"{self.count} processes serve {self.health_url.rsplit('/', 1)[0]}/")
            code = self._watch()
            return code
        finally:
            self._stop_all()
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    def _watch(self) -> int:
        while not self.stopping:
            time.sleep(POLL)
            for index, child in list(self.children.items()):
                if self.stopping or child.poll() is None:
                    continue
                now = time.monotonic()
                exits = self.exits[index]
                exits.append(now)
                while exits and exits[0] < now - RESTART_WINDOW:
                    exits.popleft()
                why = exit_text(child.returncode)
                if len(exits) > RESTART_LIMIT:
                    self.say(
                        f"process {index} (pid {child.pid}) ended ({why}) "
                        f"{len(exits)} times in {RESTART_WINDOW:g} s: stopping the site"
                    )
                    return 1
                self.say(
                    f"process {index} (pid {child.pid}) ended ({why}); "
                    f"restarting it in {RESTART_DELAY:g} s"
                )
                time.sleep(RESTART_DELAY)
                if not self.stopping:
                    self._start(index)
        return 0

    def _stop_all(self) -> None:
        running = [c for c in self.children.values() if c.poll() is None]
        if running:
            self.say(f"stopping {len(running)} processes")
        for child in running:
            child.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_TIMEOUT
        for child in running:
            try:
                child.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                self.say(f"pid {child.pid} did not stop in {STOP_TIMEOUT:g} s: killed")
                child.kill()
                child.wait(10)
