"""User names and passwords of accounts (``docs/server.md``, "Accounts").

Passwords are hashed with Argon2id (``argon2-cffi``'s defaults, RFC 9106's second
recommendation: 64 MiB, 3 passes, 4 lanes, 16-byte salt), in a worker thread so that the event
loop never waits on one, at most :data:`.HASHES_AT_ONCE` at once. An unknown user name is
checked against a dummy hash of the same parameters, so that it costs what a wrong password
costs. Nothing here logs: a password never leaves these functions but as its hash.
"""

from __future__ import annotations

import asyncio
import functools
import secrets
import threading
import unicodedata

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from hexfolk.server.errors import ApiError
from hexfolk.server.limits import (
    HASHES_AT_ONCE,
    PASSWORD_MAX,
    PASSWORD_MIN,
    USERNAME_MAX,
    USERNAME_MIN,
)

HASHER = PasswordHasher()
"""Argon2id with the library's defaults (``argon2.profiles.RFC_9106_LOW_MEMORY``)."""
_AT_ONCE = threading.BoundedSemaphore(HASHES_AT_ONCE)
_PUNCT = set("-_.")


def validate_username(raw: object) -> str:
    """A user name: :data:`.USERNAME_MIN` to :data:`.USERNAME_MAX` letters (any script),
    digits, ``-``, ``_`` or ``.``, NFC-normalized. Raises ApiError ``bad_username``."""
    if not isinstance(raw, str):
        raise ApiError("bad_username", "a user name is text")
    name = unicodedata.normalize("NFC", raw.strip())
    if not USERNAME_MIN <= len(name) <= USERNAME_MAX:
        raise ApiError(
            "bad_username",
            f"a user name has {USERNAME_MIN} to {USERNAME_MAX} characters, not {len(name)}",
        )
    for ch in name:
        category = unicodedata.category(ch)
        if ch in _PUNCT or category[0] in "LM" or category == "Nd":
            continue
        raise ApiError(
            "bad_username", "a user name holds letters, digits and - _ . only (no spaces)"
        )
    return name


def username_key(name: str) -> str:
    """The user name as compared: NFKC, case-folded (``Ann`` and ``ANN`` are one name). Any
    text gets a key (a sign-in with a malformed name is refused like an unknown one)."""
    return unicodedata.normalize("NFKC", name.strip()).casefold()[: USERNAME_MAX * 3]


def normalize_password(raw: str) -> str:
    """The password as hashed: NFKC (the same letters typed on another keyboard match)."""
    return unicodedata.normalize("NFKC", raw)


def validate_password(raw: str, username: str) -> str:
    """A new password: :data:`.PASSWORD_MIN` to :data:`.PASSWORD_MAX` characters, not the
    user name. Raises ApiError ``bad_password`` (which never quotes the password)."""
    password = normalize_password(raw)
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise ApiError(
            "bad_password",
            f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters, not {len(password)}",
        )
    if username_key(password) == username_key(username):
        raise ApiError("bad_password", "a password is not the user name")
    return password


def _hash(password: str) -> str:
    with _AT_ONCE:
        return HASHER.hash(password)


def _verify(stored: str, password: str) -> bool:
    with _AT_ONCE:
        try:
            return HASHER.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return False


@functools.cache
def _dummy_hash() -> str:
    """A hash of a random password nobody knows, with :data:`HASHER`'s parameters (made once
    per process)."""
    return HASHER.hash(secrets.token_urlsafe(24))


async def warm() -> str:
    """The dummy hash (made once per process)."""
    return await asyncio.to_thread(_dummy_hash)


def warm_in_background() -> None:
    """Start making the dummy hash in a thread of its own (at the server's start, which does
    not wait for it): the first unknown user name then finds it made."""
    threading.Thread(target=_dummy_hash, name="dummy-hash", daemon=True).start()


async def hash_password(password: str) -> str:
    """The Argon2id hash of ``password`` (a normalized one), computed in a worker thread."""
    return await asyncio.to_thread(_hash, password)


async def verify_password(stored: str | None, password: str) -> bool:
    """Does ``password`` match the hash ``stored``? ``stored`` None (no such user name): the
    dummy hash is checked instead, at the same cost, and the answer is False."""
    if stored is None:
        await asyncio.to_thread(_verify, await warm(), normalize_password(password))
        return False
    return await asyncio.to_thread(_verify, stored, normalize_password(password))


def needs_rehash(stored: str) -> bool:
    """Was ``stored`` made with other parameters than :data:`HASHER`'s (then a successful
    sign-in stores a new hash)?"""
    return HASHER.check_needs_rehash(stored)
