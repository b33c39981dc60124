"""Guest identities: a display name and a secret token; only the token's SHA-256 is stored."""

from __future__ import annotations

import hashlib
import secrets
import unicodedata

from hexfolk.server.errors import ApiError
from hexfolk.server.limits import NAME_MAX, NAME_MIN

_PUNCT = set(" -_.")


def validate_name(raw: object) -> str:
    """A display name: 1..24 characters of letters (any script), digits, space, ``-``, ``_``,
    ``.``; spaces at the ends are dropped, inner runs of spaces kept as one. Raises ApiError."""
    if not isinstance(raw, str):
        raise ApiError("bad_name", "a name is text")
    name = " ".join(unicodedata.normalize("NFC", raw).split(" "))
    name = " ".join(part for part in name.strip().split(" ") if part)
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise ApiError(
            "bad_name", f"a name has {NAME_MIN} to {NAME_MAX} characters, not {len(name)}"
        )
    for ch in name:
        if ch in _PUNCT:
            continue
        category = unicodedata.category(ch)
        if category.startswith("L") or category.startswith("M") or category == "Nd":
            continue
        raise ApiError(
            "bad_name",
            f"a name may hold letters, digits, spaces and - _ . only, not {ch!r}",
        )
    return name


def new_token() -> str:
    """A fresh secret player token (256 bits, URL-safe)."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """The stored form of a token: its SHA-256 in hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_id(nbytes: int = 12) -> str:
    """An unguessable id (players: 12 bytes; tables: 16 bytes, the invite link)."""
    return secrets.token_urlsafe(nbytes)


def bearer_token(header: str | None) -> str:
    """The token of an ``Authorization: Bearer <token>`` header; ApiError when missing."""
    if not header:
        raise ApiError("no_token", "send Authorization: Bearer <your player token>", 401)
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError("no_token", "send Authorization: Bearer <your player token>", 401)
    return token.strip()
