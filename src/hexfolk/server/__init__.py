"""The Hexfolk table server: an HTTP lobby, WebSocket rooms and storage (FastAPI + uvicorn).

Layers inside the package, top to bottom: ``app`` (the FastAPI application) → ``lobby`` (HTTP
routes) and ``sockets`` (the WebSocket endpoint) → ``manager`` (the live rooms) → ``room`` (one
asyncio task per table) → ``views``, ``clock``, ``botpool`` → ``store`` (SQLAlchemy) →
``models`` / ``migrations``; ``config``, ``limits``, ``errors``, ``identity`` and ``protocol``
are shared leaves. ``client`` speaks only the wire protocol (HTTP + WebSocket). See
``docs/server.md`` and ``docs/protocol.md``.
"""

from hexfolk.server.config import ServerConfig

__all__ = ["ServerConfig"]
