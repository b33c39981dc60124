"""Undo over the socket for the undo tests: one request and its answer."""

from __future__ import annotations

from typing import Any

from hexfolk.server.client import TableConnection


async def undo_answer(conn: TableConnection, steps: int | str) -> dict[str, Any]:
    """Undo on the newest view; the ``undone`` answer (once the view has caught up with it) or
    the ``error``."""
    view = conn.view
    assert view is not None
    await conn.undo(steps, view["version"], ref="u")
    while True:
        msg = await conn.recv()
        if msg["type"] in ("undone", "error") and msg.get("ref") == "u":
            if msg["type"] == "undone":
                await conn.wait_for(lambda v, at=msg["version"]: v["version"] >= at)
            return msg
