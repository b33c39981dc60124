"""The request body limit (``limits.BODY_MAX``), as plain ASGI middleware around the app.

A request that declares a ``Content-Length`` over the limit is answered 413 before its body is
read; a body without one (chunked) is counted as it arrives and refused as soon as it passes
the limit, else handed on whole. Nothing behind this middleware sees a body over the limit.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from hexfolk.server.errors import ApiError

log = logging.getLogger("hexfolk.server")


class BodyLimit:
    """Refuse HTTP request bodies over ``limit`` bytes with ``413 too_large``."""

    def __init__(self, app: ASGIApp, limit: int):
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length")
        if declared is not None:
            try:
                too_big = int(declared) > self.limit
            except ValueError:  # the HTTP parser refuses it before us; never trust it here
                too_big = True
            if too_big:
                await self._refuse(scope, send)
                return
            await self.app(scope, receive, send)
            return
        if b"transfer-encoding" not in headers:  # no body at all
            await self.app(scope, receive, send)
            return
        parts: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await self._refuse(scope, send)
                return
            parts.append(chunk)
            if not message.get("more_body", False):
                break
        whole: list[Message] = [{"type": "http.request", "body": b"".join(parts)}]

        async def replay() -> Message:
            return whole.pop() if whole else await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, send: Send) -> None:
        err = ApiError("too_large", f"a request body is at most {self.limit} bytes", 413)
        body = json.dumps({"error": err.to_json()}).encode()
        log.info(
            "%s %s 413 (body over %d bytes)", scope.get("method"), scope.get("path"), self.limit
        )
        headers: list[Any] = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
        ]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": body})
