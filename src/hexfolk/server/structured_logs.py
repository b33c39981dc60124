"""Structured log lines (``hexfolk serve --log-format json``): each line one JSON object.

Its keys: ``time`` (UTC, ISO 8601 with milliseconds), ``level``, ``logger``, ``message``,
``process`` (this process's identity, ``host:pid``, as ``/healthz`` names it), ``pid``, and
``table`` when the line is about a table, and ``exception`` (the traceback) when it carries one.

Which table a line is about, first found of:

1. ``extra={"table": id}`` given to the logging call;
2. the :data:`TABLE` context variable: a room's task, and every task it starts (bots, timers),
   runs in :func:`table_context` (``Room.start``);
3. a message that starts ``"table %s"`` (the server's convention for lines about a table,
   e.g. a connection opened at the endpoint): its first argument.
"""

from __future__ import annotations

import contextvars
import json
import logging
import os
import socket
import sys
import time
from typing import Any

TABLE: contextvars.ContextVar[str | None] = contextvars.ContextVar("hexfolk_table", default=None)
"""The table the current task works for (None outside a room)."""

LOG_FORMATS = ("text", "json")
"""The values of ``--log-format``."""

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
"""The default, human-readable line (``--log-format text``)."""


def table_context(table_id: str) -> contextvars.Context:
    """A copy of the current context with :data:`TABLE` set to ``table_id``: run a room's
    ``create_task`` in it (``ctx.run(...)``) and its task and their children log the table."""
    ctx = contextvars.copy_context()
    ctx.run(TABLE.set, table_id)
    return ctx


def table_of(record: logging.LogRecord) -> str | None:
    """The table a log record is about, or None (see the module's docstring)."""
    given = getattr(record, "table", None)
    if given is not None:
        return str(given)
    current = TABLE.get()
    if current is not None:
        return current
    if isinstance(record.msg, str) and record.msg.startswith("table %s") and record.args:
        args = record.args if isinstance(record.args, tuple) else (record.args,)
        return str(args[0])
    return None


class JsonFormatter(logging.Formatter):
    """One JSON object per record (the keys in the module's docstring)."""

    def __init__(self) -> None:
        super().__init__()
        self.host = socket.gethostname()

    def format(self, record: logging.LogRecord) -> str:
        seconds = time.gmtime(record.created)
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", seconds) + f".{int(record.msecs):03d}Z"
        pid = record.process or os.getpid()
        line: dict[str, Any] = {
            "time": stamp,
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "process": f"{self.host}:{pid}",
            "pid": pid,
        }
        table = table_of(record)
        if table is not None:
            line["table"] = table
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def configure(level: str, fmt: str) -> None:
    """Log to stderr at ``level`` in ``fmt`` (``text`` or ``json``): one handler on the root
    logger, which uvicorn's loggers reach too when ``fmt`` is json (they are then left
    unconfigured by uvicorn: ``log_config=None``)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else logging.Formatter(TEXT_FORMAT))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())
