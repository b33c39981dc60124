"""The access log: one line per HTTP request (method, path, status, milliseconds), as plain
ASGI middleware.

Only the path and status are written, never headers (a token) or bodies; a load balancer's and
Prometheus's probes (:data:`PROBES`, one every few seconds per process) at DEBUG, everything
else at INFO. Plain ASGI rather than Starlette's ``BaseHTTPMiddleware`` (``@app.middleware``),
which runs every request through a task group and a memory stream: opening a table page asks
for some 40 files, each of which paid that.
"""

from __future__ import annotations

import logging
import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send

PROBES = frozenset({"/healthz", "/metrics"})
"""Paths logged at DEBUG: asked every few seconds by a load balancer and by Prometheus."""
log = logging.getLogger("hexfolk.server")


class AccessLog:
    """Log each HTTP request when its handling ends (status 500 when it raised)."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 500

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            ms = (time.perf_counter() - start) * 1000
            path = scope.get("path", "")
            level = logging.DEBUG if path in PROBES else logging.INFO
            log.log(level, "%s %s %d %.1fms", scope.get("method"), path, status, ms)
