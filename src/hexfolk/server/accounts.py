"""Accounts and sessions (issue 30; ``docs/server.md``, "Accounts").

A player is a guest until it *claims* its identity with a user name and a password: the player
row (its id, name, games and tables) stays the same, and an :class:`.AccountRow` is added. Every
token of a player is a *session* (:class:`.SessionRow`, stored as its SHA-256 only): a guest
has one, the token it was made with; an account has one per signed-in device.

- **claim**: the guest's session is replaced by a new one (a new token: whoever else held the
  guest token is out).
- **sign in**: a new session with a new token, for the same player id; at most
  :data:`.SESSIONS_PER_ACCOUNT`, the one unused for longest goes first.
- **sign out**: this session ends. A guest cannot sign out (it could never come back).
- **change password**: needs the current one; every other session of the account ends, this
  one stays.
- **sessions**: the account's devices (a public id, a label from the browser, when made and
  last used); any one, or every one but this, can be signed out.

Password attempts (sign-in, change of password) are counted by :mod:`.attempts`.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from hexfolk.server.attempts import Attempts
from hexfolk.server.errors import ApiError
from hexfolk.server.identity import hash_token, new_id, new_token
from hexfolk.server.limits import SESSION_SEEN_EVERY, SESSIONS_PER_ACCOUNT
from hexfolk.server.models import AccountRow, PlayerRow, SessionRow
from hexfolk.server.passwords import (
    hash_password,
    needs_rehash,
    normalize_password,
    validate_password,
    validate_username,
    verify_password,
)
from hexfolk.server.passwords import username_key as fold
from hexfolk.server.store import Store

log = logging.getLogger("hexfolk.server.accounts")

BAD_CREDENTIALS = ApiError("bad_credentials", "the user name or the password is wrong", 401)
"""The one answer to an unknown user name and to a wrong password."""


@dataclass(frozen=True)
class Signed:
    """Who a request is: the player, the session its token is, the account (None: a guest)."""

    player: PlayerRow
    session: SessionRow
    account: AccountRow | None


def device_label(user_agent: str | None) -> str:
    """A short name for a device from its browser's ``User-Agent`` ("Firefox · Android"),
    shown in the sessions list; "" when it says nothing known."""
    ua = user_agent or ""
    browser = next(
        (
            name
            for key, name in (
                ("Edg/", "Edge"),
                ("OPR/", "Opera"),
                ("Firefox/", "Firefox"),
                ("Chrome/", "Chrome"),
                ("Chromium/", "Chromium"),
                ("Safari/", "Safari"),
                ("python-httpx", "httpx"),
            )
            if key in ua
        ),
        "",
    )
    system = next(
        (
            name
            for key, name in (
                ("Android", "Android"),
                ("iPhone", "iPhone"),
                ("iPad", "iPad"),
                ("Windows", "Windows"),
                ("Mac OS", "macOS"),
                ("CrOS", "ChromeOS"),
                ("Linux", "Linux"),
            )
            if key in ua
        ),
        "",
    )
    return " · ".join(x for x in (browser, system) if x)


def _new_session(player_id: str, label: str, now: float) -> tuple[str, SessionRow]:
    token = new_token()
    row = SessionRow(
        token_hash=hash_token(token),
        id=new_id(12),
        player_id=player_id,
        created_at=now,
        last_seen_at=now,
        label=label[:64],
    )
    return token, row


async def authenticate(store: Store, token: str) -> Signed:
    """The player, session and account of a token (401 ``bad_token`` when none); the session's
    ``last_seen_at`` is brought up to date at most every :data:`.SESSION_SEEN_EVERY` s."""
    token_hash = hash_token(token)
    async with store.sessions() as s:
        found = (
            await s.execute(
                select(PlayerRow, SessionRow, AccountRow)
                .join(SessionRow, SessionRow.player_id == PlayerRow.id)
                .outerjoin(AccountRow, AccountRow.player_id == PlayerRow.id)
                .where(SessionRow.token_hash == token_hash)
            )
        ).one_or_none()
    if found is None:
        raise ApiError("bad_token", "this player token is not known here", 401)
    player, session, account = found
    now = time.time()
    if now - session.last_seen_at >= SESSION_SEEN_EVERY:
        async with store.sessions() as s, s.begin():
            await s.execute(
                update(SessionRow)
                .where(SessionRow.token_hash == token_hash)
                .values(last_seen_at=now)
            )
        session.last_seen_at = now
    return Signed(player, session, account)


async def claim(
    store: Store, me: Signed, username: str, password: str, label: str
) -> tuple[str, str]:
    """The guest ``me`` becomes an account named ``username``; returns the user name (as
    stored) and the new token (the guest's token ends). 409 ``already_claimed`` /
    ``username_taken``; 400 ``bad_username``, ``bad_password``."""
    if me.account is not None:
        raise ApiError("already_claimed", "this player already has an account", 409)
    name = validate_username(username)
    key = fold(name)
    secret = validate_password(password, name)
    async with store.sessions() as s:
        taken = await s.scalar(select(AccountRow.player_id).where(AccountRow.username_key == key))
    if taken is not None:
        raise _taken()
    stored = await hash_password(secret)
    now = time.time()
    token, session = _new_session(me.player.id, label or me.session.label, now)
    try:
        async with store.sessions() as s, s.begin():
            s.add(
                AccountRow(
                    player_id=me.player.id,
                    username=name,
                    username_key=key,
                    password_hash=stored,
                    created_at=now,
                    password_changed_at=now,
                )
            )
            await s.flush()
            await s.execute(
                delete(SessionRow).where(SessionRow.token_hash == me.session.token_hash)
            )
            s.add(session)
    except IntegrityError:  # claimed at the same moment: by this player, or the name by another
        async with store.sessions() as s:
            mine = await s.get(AccountRow, me.player.id)
        if mine is not None:
            raise ApiError("already_claimed", "this player already has an account", 409) from None
        raise _taken() from None
    log.info("player %s claimed an account", me.player.id)
    return name, token


def _taken() -> ApiError:
    return ApiError("username_taken", "this user name is taken; choose another", 409)


async def sign_in(
    store: Store, attempts: Attempts, username: str, password: str, address: str, label: str
) -> tuple[PlayerRow, AccountRow, str]:
    """A new session of the account named ``username``: its player, the account, the new
    token. An unknown name and a wrong password get the same 401 ``bad_credentials`` after the
    same work (a dummy hash is checked for an unknown name); 429 ``too_many_attempts``."""
    key = fold(username)
    await attempts.attempt(key, address)
    async with store.sessions() as s:
        found = (
            await s.execute(
                select(AccountRow, PlayerRow)
                .join(PlayerRow, PlayerRow.id == AccountRow.player_id)
                .where(AccountRow.username_key == key)
            )
        ).one_or_none()
    stored = None if found is None else found[0].password_hash
    if not await verify_password(stored, password) or found is None:
        raise BAD_CREDENTIALS
    account, player = found
    now = time.time()
    token, session = _new_session(player.id, label, now)
    rehashed = None
    if needs_rehash(account.password_hash):  # made with older parameters
        rehashed = await hash_password(normalize_password(password))
    async with store.sessions() as s, s.begin():
        s.add(session)
        if rehashed is not None:
            await s.execute(
                update(AccountRow)
                .where(AccountRow.player_id == player.id)
                .values(password_hash=rehashed)
            )
        await s.flush()
        keep = (
            select(SessionRow.token_hash)
            .where(SessionRow.player_id == player.id)
            .order_by(SessionRow.last_seen_at.desc(), SessionRow.created_at.desc())
            .limit(SESSIONS_PER_ACCOUNT)
        )
        kept = list((await s.execute(keep)).scalars())
        await s.execute(
            delete(SessionRow).where(
                SessionRow.player_id == player.id, SessionRow.token_hash.not_in(kept)
            )
        )
    log.info("player %s signed in (session %s)", player.id, session.id)
    return player, account, token


async def sign_out(store: Store, me: Signed) -> None:
    """End this session (an account's device). 409 ``not_an_account`` for a guest."""
    if me.account is None:
        raise ApiError(
            "not_an_account",
            "a guest cannot sign out: it could never come back (claim it first)",
            409,
        )
    async with store.sessions() as s, s.begin():
        await s.execute(delete(SessionRow).where(SessionRow.token_hash == me.session.token_hash))
    log.info("player %s signed out (session %s)", me.player.id, me.session.id)


def _account(me: Signed) -> AccountRow:
    if me.account is None:
        raise ApiError("not_an_account", "this player has no account (claim it first)", 409)
    return me.account


async def change_password(
    store: Store, attempts: Attempts, me: Signed, current: str, new: str, address: str
) -> list[str]:
    """Set a new password (the current one must match: 403 ``wrong_password``; counted as a
    password attempt); every other session ends. Returns their token hashes."""
    account = _account(me)
    await attempts.attempt(account.username_key, address)
    if not await verify_password(account.password_hash, current):
        raise ApiError("wrong_password", "the current password is wrong", 403)
    secret = validate_password(new, account.username)
    stored = await hash_password(secret)
    async with store.sessions() as s, s.begin():
        await s.execute(
            update(AccountRow)
            .where(AccountRow.player_id == me.player.id)
            .values(password_hash=stored, password_changed_at=time.time())
        )
        ended = await _end_others(s, me)
    log.info("player %s changed its password (%d other sessions ended)", me.player.id, len(ended))
    return ended


async def _end_others(s: AsyncSession, me: Signed) -> list[str]:
    others = (SessionRow.player_id == me.player.id) & (
        SessionRow.token_hash != me.session.token_hash
    )
    ended = list((await s.execute(select(SessionRow.token_hash).where(others))).scalars())
    await s.execute(delete(SessionRow).where(others))
    return ended


async def sessions_of(store: Store, me: Signed) -> list[SessionRow]:
    """The account's sessions, last used first (a guest's: its one)."""
    async with store.sessions() as s:
        rows = await s.execute(
            select(SessionRow)
            .where(SessionRow.player_id == me.player.id)
            .order_by(SessionRow.last_seen_at.desc(), SessionRow.created_at.desc())
        )
        return list(rows.scalars())


async def end_session(store: Store, me: Signed, session_id: str) -> str:
    """Sign out one of the account's sessions (this one too): its token hash. 404 when it is
    not one of its."""
    _account(me)
    async with store.sessions() as s, s.begin():
        token_hash = await s.scalar(
            select(SessionRow.token_hash).where(
                SessionRow.player_id == me.player.id, SessionRow.id == session_id
            )
        )
        if token_hash is None:
            raise ApiError("not_found", "no such session of this account", 404)
        await s.execute(delete(SessionRow).where(SessionRow.token_hash == token_hash))
    log.info("player %s ended session %s", me.player.id, session_id)
    return str(token_hash)


async def end_other_sessions(store: Store, me: Signed) -> list[str]:
    """Sign out every session of the account but this one: their token hashes."""
    _account(me)
    async with store.sessions() as s, s.begin():
        ended = await _end_others(s, me)
    log.info("player %s ended its %d other sessions", me.player.id, len(ended))
    return ended
