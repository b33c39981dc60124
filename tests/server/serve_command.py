"""``hexfolk serve`` run as a command, for the tests of its start-up errors."""

from __future__ import annotations

import subprocess
import sys


def serve(*args: str) -> tuple[int, list[str]]:
    """Run ``hexfolk serve`` (60 s at most); its exit code and its non-empty output lines."""
    done = subprocess.run(
        [sys.executable, "-m", "hexfolk.cli.main", "serve", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )
    lines = [ln for ln in (done.stdout + done.stderr).splitlines() if ln.strip()]
    return done.returncode, lines
