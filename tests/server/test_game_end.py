"""The game-end hooks (:mod:`hexfolk.server.game_end`): each runs in its own task, a failing one
is counted and logged, never swallowed, and never stops the others."""

from __future__ import annotations

import asyncio
import logging

import pytest

from hexfolk.server.game_end import GameEnd
from hexfolk.server.models import TableRow


def test_every_hook_runs_and_a_failing_one_is_counted_and_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    seen: list[str] = []

    async def rate(row: TableRow) -> None:
        await asyncio.sleep(0)
        seen.append(f"rated {row.id}")

    async def broken(row: TableRow) -> None:
        raise RuntimeError("no analysis today")

    async def main() -> GameEnd:
        end = GameEnd()
        end.add(broken)
        end.add(rate)
        end.finished(TableRow(id="t1"))
        await end.drain()
        return end

    with caplog.at_level(logging.ERROR, logger="hexfolk.server.game_end"):
        end = asyncio.run(main())
    assert seen == ["rated t1"]
    assert end.failures == 1
    assert "table t1: a game-end hook" in caplog.text
    assert "no analysis today" in caplog.text
