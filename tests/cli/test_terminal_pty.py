"""Issue 17: `hexfolk play` in a real 80×24 terminal (tmux), for both games.

At every decision the visible screen (exactly 24 rows, nothing scrolled back) must hold the
decision and menu entry 1, and no line may be wider than 80 columns (``capture-pane -J``
joins lines the terminal wrapped, so a wrapped line shows up as a longer one). A bot's offer
is shown and the game goes on without any key pressed; readline's history recalls a line;
hot seat clears the screen before the next person's hand is shown.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

TMUX = shutil.which("tmux")
pytestmark = pytest.mark.skipif(TMUX is None, reason="needs tmux for a pseudo-terminal")
HEXFOLK = Path(sys.executable).parent / "hexfolk"
COLUMNS, ROWS = 80, 24


class Terminal:
    """One tmux session of ``COLUMNS`` × ``ROWS`` running a command."""

    def __init__(self, command: str, cwd: Path):
        assert TMUX is not None
        self.socket = f"hexfolk-test-{uuid.uuid4().hex[:12]}"
        self._tmux(
            "-f", "/dev/null", "new-session", "-d", "-x", str(COLUMNS), "-y", str(ROWS),
            "-c", str(cwd), f"{command}; echo GAME-EXITED; sleep 60",
        )  # fmt: skip
        self.path = self._tmux("display-message", "-p", "#{socket_path}").strip()

    def _tmux(self, *args: str) -> str:
        assert TMUX is not None
        res = subprocess.run(
            [TMUX, "-L", self.socket, *args], capture_output=True, text=True, timeout=30
        )
        assert res.returncode == 0, res.stderr
        return res.stdout

    def screen(self) -> list[str]:
        """The visible rows, wrapped lines joined."""
        text = self._tmux("capture-pane", "-p", "-J", "-t", "0")
        return [line.rstrip() for line in text.split("\n")][:ROWS]

    def type(self, text: str) -> None:
        self._tmux("send-keys", "-t", "0", "-l", text)
        self._tmux("send-keys", "-t", "0", "Enter")

    def key(self, name: str) -> None:
        self._tmux("send-keys", "-t", "0", name)

    def wait(self, ready: Callable[[list[str]], bool], seconds: float = 60) -> list[str]:
        end = time.monotonic() + seconds
        while True:
            screen = self.screen()
            if ready(screen):
                return screen
            assert time.monotonic() < end, "timed out; the screen:\n" + "\n".join(screen)
            time.sleep(0.05)

    def close(self) -> None:
        subprocess.run([TMUX or "tmux", "-L", self.socket, "kill-server"], capture_output=True)
        if self.path:
            Path(self.path).unlink(missing_ok=True)


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Callable[[str], Terminal]]:
    opened: list[Terminal] = []

    def start(args: str) -> Terminal:
        t = Terminal(f"{HEXFOLK} play {args}", tmp_path)
        opened.append(t)
        return t

    yield start
    for t in opened:
        t.close()


def _last(screen: list[str]) -> str:
    filled = [line for line in screen if line.strip()]
    return filled[-1] if filled else ""


def _at_prompt(screen: list[str]) -> bool:
    return bool(re.fullmatch(r"seat \d+>", _last(screen))) or "GAME-EXITED" in _last(screen)


def _check_fits(screen: list[str]) -> None:
    assert len(screen) <= ROWS
    for line in screen:
        assert len(line) <= COLUMNS, f"a line wider than {COLUMNS}: {line!r}"


def _window(screen: list[str]) -> re.Match[str] | None:
    """The offer window's prompt on the last line (``seat 0, offer #3>``), if it is there."""
    return re.match(r"seat 0, offer #(\d+)>", _last(screen))


def _to_prompt(t: Terminal, windows: set[str]) -> list[str]:
    """Wait for the person's own prompt, pressing nothing in the offer windows on the way
    (their offer numbers are added to ``windows``); return the screen."""
    while True:
        screen = t.wait(lambda s: _at_prompt(s) or _window(s) is not None)
        shown = _window(screen)
        if shown is None:
            return screen
        windows.add(shown[1])  # a bot's offer: press nothing, the game goes on
        last = _last(screen)
        t.wait(lambda s, last=last: _last(s) != last)


def _play_decisions(t: Terminal, count: int) -> tuple[list[str], int]:
    """Answer ``count`` decisions with 1, checking each screen; return the decisions seen and
    how many offers' windows passed with no key pressed."""
    seen: list[str] = []
    windows: set[str] = set()
    for _ in range(count):
        screen = _to_prompt(t, windows)
        if "GAME-EXITED" in _last(screen):
            break
        _check_fits(screen)
        decision = [line for line in screen if line.startswith("seat 0, your move:")]
        assert decision, "the decision is not on the visible screen:\n" + "\n".join(screen)
        assert any(re.match(r"\s+1\. ", line) for line in screen), "\n".join(screen)
        seen.append(decision[-1])
        t.type("1")
    return seen, len(windows)


def test_island_at_80x24_every_decision_visible_and_offers_do_not_block(terminal) -> None:  # type: ignore[no-untyped-def]
    t = terminal("island --players human,medium,medium,medium --seed 3 --offer-wait 0.2")
    seen, windows = _play_decisions(t, 14)
    assert any("setup settlement" in s for s in seen) and any("roll" in s for s in seen)
    assert any("trade, build" in s for s in seen), seen
    assert windows >= 1  # bots' offers came and went while nobody pressed a key
    _to_prompt(t, set())
    t.type("board")
    screen = t.wait(lambda s: _at_prompt(s) and any("harbors" in x for x in s))
    _check_fits(screen)


def test_scythe_at_80x24_every_decision_visible_and_the_map_fits(terminal) -> None:  # type: ignore[no-untyped-def]
    t = terminal("scythe --players human,random --seed 3")
    seen, _ = _play_decisions(t, 10)
    assert any("choose a section" in s for s in seen)
    assert len(set(s.split(":", 1)[1] for s in seen)) >= 3, seen
    t.wait(_at_prompt)
    t.type("board")
    screen = t.wait(lambda s: _at_prompt(s) and any("where things are" in x for x in s))
    _check_fits(screen)


def test_readline_history_and_help_cards(terminal) -> None:  # type: ignore[no-untyped-def]
    t = terminal("island --seed 2")
    t.wait(_at_prompt)
    t.type("help plenty")
    t.wait(lambda s: _at_prompt(s) and any("Year of Plenty" in x for x in s))
    t.key("Up")  # readline: the previous line again
    t.key("Enter")
    screen = t.wait(lambda s: _at_prompt(s) and sum("Year of Plenty:" in x for x in s) == 2)
    _check_fits(screen)
    t.type("help costs")
    screen = t.wait(lambda s: _at_prompt(s) and any("city = 2 grain + 3 ore" in x for x in s))
    _check_fits(screen)


def test_hot_seat_clears_the_screen_before_the_next_person(terminal) -> None:  # type: ignore[no-untyped-def]
    t = terminal("island --players human,human,random,random --seed 4")
    t.wait(_at_prompt)
    t.type("1")  # seat 0's settlement
    t.wait(lambda s: _at_prompt(s) and any("road next to" in x for x in s))
    t.type("1")  # seat 0's road; seat 1 is next
    screen = t.wait(lambda s: any("Hand over to seat 1" in x for x in s))
    assert not any("your hand" in x or "seat 0: your view" in x for x in screen), screen
    t.type("")
    screen = t.wait(_at_prompt)
    assert any("seat 1: your view" in x for x in screen) and not any(
        "seat 0: your view" in x for x in screen
    )
