"""The database tables (SQLAlchemy 2 declarative models). Migrations live in ``migrations/``.

Times are UNIX seconds (floats, UTC). A table's game state is never stored: it is rebuilt by
replaying its ``events`` (append-only, unique per ``(table_id, seq)``).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    """Declarative base of every Hexfolk table."""


class PlayerRow(Base):
    """A player: a guest identity, and an account too when it has an :class:`AccountRow`. Its
    tokens are its :class:`SessionRow` rows (only their SHA-256 is kept)."""

    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[float] = mapped_column(Float)


class TableRow(Base):
    """A table: its settings, seats, status, clocks, and the secret seed of its chance steps."""

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    clock: Mapped[float | None] = mapped_column(Float, nullable=True)
    commit_clock: Mapped[float | None] = mapped_column(Float, nullable=True)
    public: Mapped[bool] = mapped_column(Boolean)
    spectators: Mapped[bool] = mapped_column(Boolean)
    disconnect_policy: Mapped[str] = mapped_column(String(16))
    grace: Mapped[float] = mapped_column(Float)
    bot_delay: Mapped[float] = mapped_column(Float)
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), index=True)
    host_id: Mapped[str] = mapped_column(String(32), ForeignKey("players.id"))
    seed: Mapped[int] = mapped_column(BigInteger)
    seeded: Mapped[bool] = mapped_column(Boolean, default=False)
    version: Mapped[int] = mapped_column(Integer, default=0)
    clock_state: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    rematch_of: Mapped[str | None] = mapped_column(String(32), nullable=True)
    rematch_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    """A rated game (``docs/ratings.md``): accounts only; its end updates the ratings."""
    created_at: Mapped[float] = mapped_column(Float)
    updated_at: Mapped[float] = mapped_column(Float)
    started_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    min_karma: Mapped[int | None] = mapped_column(Integer, nullable=True, default=None)
    """The least karma (percent) a person needs to take a seat (``docs/profiles.md``); None:
    anyone may sit down."""


class EventRow(Base):
    """One step of a table's game, in order: a seat's action or a chance outcome."""

    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("table_id", "seq", name="uq_events_table_seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("tables.id"))
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    """``action`` (a seat), ``chance`` (drawn by the room), ``undo`` (a seat takes back its
    latest steps: every step of the game as played from ``undoes`` on)."""
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    action: Mapped[str] = mapped_column(Text)
    timeout: Mapped[bool] = mapped_column(Boolean, default=False)
    stand_in: Mapped[bool] = mapped_column(Boolean, default=False)
    bot: Mapped[bool] = mapped_column(Boolean, default=False)
    bot_failed: Mapped[bool] = mapped_column(Boolean, default=False)
    """A bot's step played by the clock's default because the bot failed to choose."""
    at: Mapped[float] = mapped_column(Float)
    undoes: Mapped[int | None] = mapped_column(Integer, nullable=True, default=None)
    """An ``undo`` event: the first ``seq`` it takes back."""


class ChatRow(Base):
    """A chat line of a table."""

    __tablename__ = "chat"
    __table_args__ = (Index("ix_chat_table", "table_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("tables.id"))
    player_id: Mapped[str] = mapped_column(String(32))
    name: Mapped[str] = mapped_column(String(64))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float)


class HeartbeatRow(Base):
    """The server's last sign of life (one row); after a crash, clocks resume from it."""

    __tablename__ = "heartbeat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    alive_at: Mapped[float] = mapped_column(Float)


class LeaseRow(Base):
    """Who owns a live table when many server processes share the database
    (``docs/server.md``, "Many processes"): the owner process, its fencing ``token`` (one
    higher at every change of owner) and until when the lease holds (database clock)."""

    __tablename__ = "leases"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    owner: Mapped[str] = mapped_column(String(64))
    token: Mapped[int] = mapped_column(BigInteger)
    expires_at: Mapped[float] = mapped_column(Float)
    renewed_at: Mapped[float] = mapped_column(Float)


class ProcessRow(Base):
    """A live server process of a site of many (one row per process start): when it last
    said it is alive (database clock) and how many tables it owns."""

    __tablename__ = "server_processes"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    alive_at: Mapped[float] = mapped_column(Float, index=True)
    started_at: Mapped[float] = mapped_column(Float)
    tables: Mapped[int] = mapped_column(Integer, default=0)


class AccountRow(Base):
    """A player who claimed its guest identity with a user name and a password (Argon2id
    hash). The player row, its games and its tables stay the same."""

    __tablename__ = "accounts"

    player_id: Mapped[str] = mapped_column(String(32), ForeignKey("players.id"), primary_key=True)
    username: Mapped[str] = mapped_column(String(64))
    username_key: Mapped[str] = mapped_column(String(64), unique=True)
    """The user name folded for comparison (NFKC, case-folded): names differing only by case
    are one name."""
    password_hash: Mapped[str] = mapped_column(Text)
    created_at: Mapped[float] = mapped_column(Float)
    password_changed_at: Mapped[float] = mapped_column(Float)


class SessionRow(Base):
    """A token of a player: a guest's token, or a device signed in to an account. Only the
    SHA-256 of the token is stored; ``id`` names the session to its owner (the sessions list,
    "sign out this device") without showing anything that proves who one is."""

    __tablename__ = "sessions"
    __table_args__ = (Index("ix_sessions_player", "player_id"),)

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    id: Mapped[str] = mapped_column(String(32), unique=True)
    player_id: Mapped[str] = mapped_column(String(32), ForeignKey("players.id"))
    created_at: Mapped[float] = mapped_column(Float)
    last_seen_at: Mapped[float] = mapped_column(Float)
    label: Mapped[str] = mapped_column(String(64), default="")


class RatingRow(Base):
    """An account's current skill in one game and player-count family (``docs/ratings.md``):
    OpenSkill's ``mu`` and ``sigma``, the ``rating`` shown for them and the rated games
    counted."""

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_board", "game", "family", "rating"),)

    player_id: Mapped[str] = mapped_column(String(32), ForeignKey("players.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    family: Mapped[str] = mapped_column(String(16), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    rating: Mapped[int] = mapped_column(Integer)
    games: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[float] = mapped_column(Float)


class RatingHistoryRow(Base):
    """One player's rating change from one rated game; unique per (table, player): a table is
    rated once, however often its game-end hook runs."""

    __tablename__ = "rating_history"
    __table_args__ = (
        UniqueConstraint("table_id", "player_id", name="uq_rating_history_table_player"),
        Index("ix_rating_history_player", "player_id", "game", "family", "at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("tables.id"))
    player_id: Mapped[str] = mapped_column(String(32), ForeignKey("players.id"))
    game: Mapped[str] = mapped_column(String(32))
    family: Mapped[str] = mapped_column(String(16))
    place: Mapped[int] = mapped_column(Integer)
    """0 for the best (``hexfolk.ratings.placings``)."""
    left: Mapped[bool] = mapped_column(Boolean)
    """The player left the game: placed last (``docs/ratings.md``, "Leaving")."""
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)
    rating_after: Mapped[int] = mapped_column(Integer)
    at: Mapped[float] = mapped_column(Float)


class PlayRow(Base):
    """One seat of a finished game (``docs/profiles.md``): who played it (``player_id``; None
    for a bot), whether it won, and whether its person ``stayed`` to the end (the karma rule,
    :mod:`hexfolk.server.karma`). Written once the game is over (:mod:`hexfolk.server.plays`),
    from the table row and its events; a profile, "my games" and karma read only these."""

    __tablename__ = "plays"
    __table_args__ = (Index("ix_plays_player", "player_id", "started_at"),)

    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    game: Mapped[str] = mapped_column(String(32))
    players: Mapped[int] = mapped_column(Integer)
    started_at: Mapped[float] = mapped_column(Float)
    finished_at: Mapped[float] = mapped_column(Float)
    won: Mapped[bool] = mapped_column(Boolean)
    stayed: Mapped[bool] = mapped_column(Boolean)


class AnalysisRow(Base):
    """The post-game analysis of a finished table (issue 29, ``docs/analysis.md``, "On the
    server"): its status (``queued``, ``running``, ``ready``, ``failed``), progress (0..1),
    the :class:`~hexfolk.analysis.GameAnalysis` JSON once ready, the error once failed, and the
    server process computing it (``worker``: the claim; one process computes each analysis)."""

    __tablename__ = "analyses"
    __table_args__ = (Index("ix_analyses_status", "status"),)

    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("tables.id"), primary_key=True)
    status: Mapped[str] = mapped_column(String(16))
    progress: Mapped[float] = mapped_column(Float, default=0.0)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    worker: Mapped[str | None] = mapped_column(String(64), nullable=True)
    budget: Mapped[str] = mapped_column(String(128), default="")
    queued_at: Mapped[float] = mapped_column(Float)
    started_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)
