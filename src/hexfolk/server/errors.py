"""Errors the server sends: a code, a sentence and (for HTTP) a status.

HTTP answers them as ``{"error": {"code": ..., "message": ...}}``; sockets as
``{"type": "error", "code": ..., "message": ...}`` to the sender only.
"""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """A refusal with a stable ``code`` (see ``docs/protocol.md``) and a human ``message``."""

    def __init__(self, code: str, message: str, status: int = 400, **extra: Any):
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.extra = extra

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, **self.extra}


def not_found(what: str) -> ApiError:
    return ApiError("not_found", f"no such {what}", 404)


def forbidden(message: str) -> ApiError:
    return ApiError("forbidden", message, 403)


def conflict(code: str, message: str) -> ApiError:
    return ApiError(code, message, 409)
