"""Readiness for a load balancer (``GET /healthz``): this process answers 200 only when it can
reach its database and, when one is configured, Redis; 503 otherwise, with the reason.

Each check is bounded by :data:`HEALTH_TIMEOUT` seconds, so a load balancer's probe (nginx,
HAProxy, Kubernetes) gets its answer in at most twice that. The answer names the process
(:func:`process_id`), so that a probe through a proxy tells which process answered.
"""

from __future__ import annotations

import asyncio
import os
import socket
from typing import Any

from sqlalchemy import text

from hexfolk.server.store import Store

HEALTH_TIMEOUT = 2.0
"""Seconds each readiness check (the database's ``SELECT 1``, Redis's ``PING``) may take."""


def process_id() -> str:
    """This process's identity: ``host:pid`` (also in every JSON log line)."""
    return f"{socket.gethostname()}:{os.getpid()}"


def _why(exc: BaseException) -> str:
    if isinstance(exc, TimeoutError):
        return f"no answer within {HEALTH_TIMEOUT:g} s"
    cause = exc.__cause__ or exc
    words = str(cause).strip().splitlines()
    return f"{type(cause).__name__}: {words[0]}" if words else type(cause).__name__


async def database_problem(store: Store) -> str | None:
    """None when the database answers ``SELECT 1`` in time, else why not."""

    async def probe() -> None:
        async with store.engine.connect() as conn:
            await conn.execute(text("SELECT 1"))

    try:
        await asyncio.wait_for(probe(), HEALTH_TIMEOUT)
    except Exception as exc:
        return f"database: {_why(exc)}"
    return None


async def redis_problem(client: Any) -> str | None:
    """None when Redis answers ``PING`` in time, else why not (``client``: a
    ``redis.asyncio.Redis``)."""
    try:
        await asyncio.wait_for(client.ping(), HEALTH_TIMEOUT)
    except Exception as exc:
        return f"redis: {_why(exc)}"
    return None


def redis_client(url: str) -> Any:
    """The health check's own Redis client for ``url`` (its connects and reads bounded by
    :data:`HEALTH_TIMEOUT`)."""
    from redis.asyncio import Redis

    return Redis.from_url(url, socket_connect_timeout=HEALTH_TIMEOUT, socket_timeout=HEALTH_TIMEOUT)
