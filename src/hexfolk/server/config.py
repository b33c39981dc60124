"""Server configuration: where the data lives, which database, and the test-only switches."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from hexfolk.server.limits import ACTION_RATE

DATA_ENV = "HEXFOLK_DATA"
"""Environment variable naming the data folder (overridden by ``--data-dir``)."""


def default_data_dir() -> Path:
    """``$HEXFOLK_DATA``, else ``$XDG_DATA_HOME/hexfolk``, else ``~/.local/share/hexfolk``."""
    env = os.environ.get(DATA_ENV)
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".local" / "share"
    return base / "hexfolk"


def sqlite_url(data_dir: Path) -> str:
    """The embedded database: ``<data dir>/hexfolk.sqlite`` (WAL mode)."""
    return f"sqlite+aiosqlite:///{(data_dir / 'hexfolk.sqlite').resolve()}"


@dataclass
class ServerConfig:
    """Everything ``hexfolk serve`` can set. ``db_url`` ``None`` means SQLite in ``data_dir``."""

    host: str = "127.0.0.1"
    port: int = 8000
    db_url: str | None = None
    data_dir: Path | None = None
    allow_seeded_tables: bool = False
    """Only then may ``POST /api/tables`` set ``seed`` (tests, duplicate games)."""
    testing: bool = False
    """Test switch: allows clocks and grace periods of a fraction of a second (never in play)."""
    bot_workers: int = 2
    """Worker processes for level bots (shared by every table)."""
    action_rate: tuple[int, float] = ACTION_RATE
    """At most this many action messages per this many seconds per connection."""
    sqlite_synchronous: str = "FULL"
    """SQLite ``PRAGMA synchronous``: FULL (default: every acknowledged action is on disk) or
    NORMAL (faster; survives a killed process, not a power cut)."""

    analysis_budget: str = "default"
    """The budget of the post-game analyses (``--analysis-budget``, ``hexfolk analyze
    --budget``'s syntax; ``docs/analysis.md``, "On the server")."""

    redis_url: str | None = None
    """Many processes (``--redis``): the Redis that relays connections between the processes
    of one site; needs PostgreSQL. None: one process, nothing of it runs."""
    redis_prefix: str = "hexfolk"
    """The prefix of every Redis channel this site uses (``--redis-prefix``)."""
    lease_seconds: float = 10.0
    """A table's lease holds this long after its last renewal (``--lease-seconds``; renewed
    every 0.3 × this). Shorter only in tests."""

    def resolved_data_dir(self) -> Path:
        return (self.data_dir or default_data_dir()).expanduser()

    def resolved_db_url(self) -> str:
        if self.db_url:
            return self.db_url
        return sqlite_url(self.resolved_data_dir())

    def is_sqlite(self) -> bool:
        return self.resolved_db_url().startswith("sqlite")
