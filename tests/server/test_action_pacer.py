"""The client's action pacer (``server/client.py``): the server counts an action when it
receives it (``docs/protocol.md``: more than 20 actions in 2 s on a connection are refused as
``rate_limited``), so a paced client measures each window from the action's answer once it has
come — a send held up on a busy machine cannot make two actions the client spaced a window
apart arrive closer than the window."""

from __future__ import annotations

import asyncio
import time

from hexfolk.server.client import PACING_MARGIN, ActionPacer


def _window(seconds: float) -> float:
    return seconds * PACING_MARGIN + 0.02


def test_a_full_window_waits_from_the_send_when_no_answer_came() -> None:
    async def go() -> float:
        pacer = ActionPacer(2, 0.2)
        t0 = time.monotonic()
        await pacer.wait()
        await pacer.wait()
        await pacer.wait()  # the third waits one window after the first send
        return time.monotonic() - t0

    assert _window(0.2) - 0.01 <= asyncio.run(go()) < _window(0.2) + 0.15


def test_the_window_starts_at_the_answer_once_it_has_come() -> None:
    async def go() -> tuple[float, float]:
        pacer = ActionPacer(2, 0.2)
        await pacer.wait()
        await pacer.wait()
        await asyncio.sleep(0.15)  # the first answer comes late (the server saw it late)
        answered = time.monotonic()
        pacer.answered()
        await pacer.wait()
        return answered, time.monotonic()

    answered, third = asyncio.run(go())
    assert third - answered >= _window(0.2) - 0.01  # not the send's window, 0.15 s sooner


def test_answers_without_sends_change_nothing() -> None:
    async def go() -> float:
        pacer = ActionPacer(1, 0.2)
        pacer.answered()  # an answer to nothing this pacer sent (an unpaced send)
        t0 = time.monotonic()
        await pacer.wait()
        return time.monotonic() - t0

    assert asyncio.run(go()) < 0.05
