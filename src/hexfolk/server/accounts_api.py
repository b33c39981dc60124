"""The accounts' HTTP API (``/api/account/...``, tag ``accounts``; :mod:`.accounts` holds the
rules, ``docs/server.md`` "Accounts" the story).

Every call but ``POST /api/account/signin`` proves itself with ``Authorization: Bearer
<token>`` (401 ``no_token`` / ``bad_token`` otherwise). Passwords travel only in request bodies
(never in a URL), are never echoed, logged or stored but as their Argon2id hash; a token is
returned once, to the device it belongs to.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Request
from pydantic import BaseModel, ConfigDict, Field, SecretStr

from hexfolk.server import accounts
from hexfolk.server.accounts import Signed
from hexfolk.server.attempts import Attempts
from hexfolk.server.config import ServerConfig
from hexfolk.server.identity import bearer_token
from hexfolk.server.lobby import Svc
from hexfolk.server.models import SessionRow
from hexfolk.server.session_sockets import SessionSockets

router = APIRouter(prefix="/api/account", tags=["accounts"])


def attempts_for(config: ServerConfig) -> Attempts:
    """The password-attempt counters of a process: in Redis for a site of many (shared by
    its processes), else in memory."""
    if config.redis_url is not None:
        return Attempts.in_redis(config.redis_url, config.redis_prefix)
    return Attempts.in_memory()


def _attempts(request: Request) -> Attempts:
    found: Attempts = request.app.state.attempts
    return found


def _address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def _end_sockets(request: Request, token_hashes: list[str]) -> None:
    """Close this process's table sockets of the ended sessions at once (the other processes'
    sweeps find theirs: :mod:`.session_sockets`)."""
    sockets: SessionSockets = request.app.state.session_sockets
    sockets.end(token_hashes)


def _label(request: Request) -> str:
    return accounts.device_label(request.headers.get("user-agent"))


async def signed_in(svc: Svc, authorization: Annotated[str | None, Header()] = None) -> Signed:
    """The player, session and account of the request's token (401 otherwise)."""
    return await accounts.authenticate(svc.store, bearer_token(authorization))


Me = Annotated[Signed, Depends(signed_in)]
Counters = Annotated[Attempts, Depends(_attempts)]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", hide_input_in_errors=True)


class Credentials(_Body):
    """A user name (3-24 letters, digits, ``-_.``; case does not matter at sign-in) and a
    password (8-256 characters)."""

    username: str = Field(examples=["ann"])
    password: SecretStr


class NewPassword(_Body):
    """The current password and the new one (8-256 characters)."""

    current: SecretStr
    new: SecretStr


def _account_json(signed: Signed, username: str | None) -> dict[str, Any]:
    return {"id": signed.player.id, "name": signed.player.name, "username": username}


def _session_json(row: SessionRow, mine: SessionRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "label": row.label,
        "created_at": row.created_at,
        "last_seen_at": row.last_seen_at,
        "current": row.token_hash == mine.token_hash,
    }


@router.get("")
async def account(me: Me) -> dict[str, Any]:
    """This player: ``username`` null for a guest."""
    return _account_json(me, me.account.username if me.account else None)


@router.post("/claim", status_code=201)
async def claim(body: Credentials, me: Me, svc: Svc, request: Request) -> dict[str, Any]:
    """The guest becomes an account: same player id, games and tables. Answers a new
    ``token`` for this device; the guest token stops working (409 ``already_claimed``,
    ``username_taken``; 400 ``bad_username``, ``bad_password``)."""
    name, token = await accounts.claim(
        svc.store, me, body.username, body.password.get_secret_value(), _label(request)
    )
    _end_sockets(request, [me.session.token_hash])  # they reconnect with the new token
    return {**_account_json(me, name), "token": token}


@router.post("/signin")
async def sign_in(
    body: Credentials, svc: Svc, counters: Counters, request: Request
) -> dict[str, Any]:
    """Sign in on this device: a new ``token`` (a new session) for the account's player.
    401 ``bad_credentials`` for an unknown name and a wrong password alike; 429
    ``too_many_attempts`` (``Retry-After``) past the limits."""
    player, account, token = await accounts.sign_in(
        svc.store,
        counters,
        body.username,
        body.password.get_secret_value(),
        _address(request),
        _label(request),
    )
    return {"id": player.id, "name": player.name, "username": account.username, "token": token}


@router.post("/signout")
async def sign_out(me: Me, svc: Svc, request: Request) -> dict[str, Any]:
    """End this session: its token stops working, its table sockets close (409
    ``not_an_account`` for a guest)."""
    await accounts.sign_out(svc.store, me)
    _end_sockets(request, [me.session.token_hash])
    return {"ok": True}


@router.post("/password")
async def change_password(
    body: NewPassword, me: Me, svc: Svc, counters: Counters, request: Request
) -> dict[str, Any]:
    """Change the password (403 ``wrong_password`` when ``current`` is wrong; counted like a
    sign-in). Every other session is signed out (``ended``: how many); this one stays."""
    ended = await accounts.change_password(
        svc.store,
        counters,
        me,
        body.current.get_secret_value(),
        body.new.get_secret_value(),
        _address(request),
    )
    _end_sockets(request, ended)
    return {"ok": True, "ended": len(ended)}


@router.get("/sessions")
async def sessions(me: Me, svc: Svc) -> dict[str, Any]:
    """The devices signed in to this player, last used first (``current``: this one)."""
    rows = await accounts.sessions_of(svc.store, me)
    return {"sessions": [_session_json(r, me.session) for r in rows]}


@router.delete("/sessions/{session_id}")
async def end_session(session_id: str, me: Me, svc: Svc, request: Request) -> dict[str, Any]:
    """Sign out one device of this account (404 when it is not one of its)."""
    _end_sockets(request, [await accounts.end_session(svc.store, me, session_id)])
    return {"ok": True}


@router.post("/sessions/end-others")
async def end_other_sessions(me: Me, svc: Svc, request: Request) -> dict[str, Any]:
    """Sign out every other device of this account (``ended``: how many); their table
    sockets close."""
    ended = await accounts.end_other_sessions(svc.store, me)
    _end_sockets(request, ended)
    return {"ok": True, "ended": len(ended)}
