"""The page's table socket seen from the test (Playwright's WebSocket route): every frame both
ways is kept, and views from the server can be held back, as a slow or lossy network would, so a
test can put the page behind the server on purpose (a stale click, a resync)."""

from __future__ import annotations

import json
import re
from typing import Any


class Tap:
    """Route the page's ``/ws/tables/...`` sockets through the test. ``sent``: the page's frames
    to the server; ``received``: the server's frames passed on to the page; ``drop_views``: how
    many of the next ``view`` frames are kept from the page (``dropped``)."""

    def __init__(self, page: Any):
        self.sent: list[dict[str, Any]] = []
        self.received: list[dict[str, Any]] = []
        self.dropped: list[dict[str, Any]] = []
        self.drop_views = 0
        page.route_web_socket(re.compile(r".*/ws/tables/.*"), self._route)

    def _route(self, ws: Any) -> None:
        server = ws.connect_to_server()

        def up(message: str | bytes) -> None:
            self.sent.append(json.loads(message))
            server.send(message)

        def down(message: str | bytes) -> None:
            msg = json.loads(message)
            if msg.get("type") == "view" and self.drop_views > 0:
                self.drop_views -= 1
                self.dropped.append(msg)
                return
            self.received.append(msg)
            ws.send(message)

        ws.on_message(up)
        server.on_message(down)

    def sent_of(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.sent if m.get("type") == kind]

    def received_of(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.received if m.get("type") == kind]
