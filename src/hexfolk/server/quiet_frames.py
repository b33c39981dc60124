"""No WebSocket frame in a log line: at DEBUG the ``websockets`` library logs every frame in and
out (``"< %s"``, ``"> %s"``) on uvicorn's ``uvicorn.error`` logger, and a frame may hold a
player's token (the ``hello``) or a chat line. :func:`install` drops those records (issue 30
point 2: no token in any log); the server's own lines say what happened without them."""

from __future__ import annotations

import logging

FRAME_FORMATS = frozenset({"< %s", "> %s"})
"""The formats of the library's frame records."""
LOGGERS = ("uvicorn.error", "websockets.server", "websockets.protocol", "websockets")
"""Where a server's frame records are made (uvicorn hands its own logger to the library)."""


class NoFrames(logging.Filter):
    """Drops a WebSocket frame's record."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.msg not in FRAME_FORMATS


_FILTER = NoFrames()


def install() -> None:
    """Drop frame records on every logger the server's WebSocket library logs frames on (once,
    however many apps a process makes)."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)
