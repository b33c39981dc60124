"""Every limit of the table server, with its number (``docs/server.md`` lists them all)."""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field

NAME_MIN = 1
NAME_MAX = 24
"""Display names: 1 to 24 characters."""

CHAT_MAX = 500
"""A chat message holds at most 500 characters."""
CHAT_RATE = (5, 10.0)
"""At most 5 chat messages per 10 seconds per connection."""


def chat_limits() -> dict[str, int | float]:
    """The chat's limits as the ``welcome`` announces them (the page shows these, never a copy):
    at most ``max`` characters a message, ``count`` messages per ``seconds``."""
    return {"max": CHAT_MAX, "count": CHAT_RATE[0], "seconds": CHAT_RATE[1]}


ACTION_RATE = (20, 2.0)
"""At most 20 action messages per 2 seconds per connection."""

MESSAGE_MAX = 16_384
"""A WebSocket message from a client is at most 16 KiB."""

GARBAGE_LIMIT = 20
"""A connection that sends 20 bad messages in a row is closed (code 1008): malformed frames
and messages refused for their rate (``rate_limited``). Any other message breaks the row."""

FLOOD_LIMIT = (40, 10.0)
"""A connection with more than 40 messages refused for their rate (``rate_limited``) within
10 s is closed (code 1008, reason ``flooding``), whatever comes between them."""

WIRE_INT_MAX = 2**53 - 1
"""Every whole number of a client message (versions, ``since``) is 0..2**53-1, the integers a
JavaScript client holds exactly; a larger one is a ``bad_message``."""

BODY_MAX = 65_536
"""An HTTP request body is at most 64 KiB (413 ``too_large``): a declared length over it is
refused before the body is read, a chunked body as soon as it passes the limit."""

HELLO_TIMEOUT = 10.0
"""A socket that has not said hello within 10 seconds is closed."""

RECONNECT_WINDOW = 256
"""The log lengths of the last 256 versions a process sent are kept for reconnecting clients
(another version's are replayed from the event log, within :data:`REPLAY_LIMIT`)."""
REPLAY_LIMIT = (4, 10.0)
"""At most 4 replays of a table's event log per 10 s for reconnecting clients (a replay blocks
the process for the game's length: a client beyond the limit gets the whole log instead)."""

CLOCK_PRESETS = (30, 45, 60, 90, 120, 180, 240, 300)
"""Turn clock presets in seconds (IR-26); ``None`` is unlimited."""
CLOCK_DEFAULT = 120
COMMIT_CLOCK_PRESETS = (15, 30, 45, 60, 90, 120)
"""Commitment clock presets in seconds (a secret combat commitment, Scythe); ``None`` is
unlimited."""
COMMIT_CLOCK_DEFAULT = 60
"""The commitment clock of a new table: 60 s, or unlimited when its turn clock is."""
OUT_OF_TURN_CAP = 60.0
"""A decision owed out of turn (a discard, an answer) gets at most 60 s (IR-27)."""

GRACE_DEFAULT = 60.0
GRACE_RANGE = (10.0, 600.0)
"""Disconnect grace before a stand-in bot takes a seat: 10..600 s, default 60 s."""

BOT_DELAY_DEFAULT = 0.8
BOT_DELAY_MAX = 5.0
"""Bots wait 0.8 s (0..5 s, set per table) before they act, so people can follow."""

TIMEOUT_STEPS_MAX = 500
"""Defaults applied for one expired clock are capped (a guard against a looping engine)."""

HEARTBEAT_SECONDS = 2.0
"""The server writes its heartbeat every 2 s; after a crash, clocks resume from it."""

TABLES_PER_PLAYER = 50
"""A player may host at most 50 tables that are not finished."""


@dataclass
class RateLimit:
    """A sliding-window limit: at most ``count`` events per ``seconds``."""

    count: int
    seconds: float
    _times: deque[float] = field(default_factory=deque)

    def allow(self, now: float | None = None) -> bool:
        """Record an event and say whether it is within the limit (refused events don't count)."""
        t = time.monotonic() if now is None else now
        while self._times and t - self._times[0] >= self.seconds:
            self._times.popleft()
        if len(self._times) >= self.count:
            return False
        self._times.append(t)
        return True


# --- accounts (docs/server.md, "Accounts") ----------------------------------------------------
USERNAME_MIN = 3
USERNAME_MAX = 24
"""A user name has 3 to 24 characters: letters (any script), digits, ``-``, ``_``, ``.``."""
PASSWORD_MIN = 8
PASSWORD_MAX = 256
"""A password has 8 to 256 characters (after NFKC normalization)."""
SIGNIN_PER_ACCOUNT = (10, 900)
"""At most 10 password attempts (sign-in, change of password) per user name per 15 minutes,
whether or not the name exists; more are refused (429 ``too_many_attempts``) unchecked."""
SIGNIN_PER_ADDRESS = (30, 900)
"""At most 30 password attempts per client address per 15 minutes."""
SESSIONS_PER_ACCOUNT = 20
"""An account keeps at most 20 sessions (devices): a sign-in past that signs out the one
unused for longest."""
SESSION_SEEN_EVERY = 300.0
"""A session's ``last_seen_at`` is written at most once per 5 minutes."""
HASHES_AT_ONCE = 2
"""At most 2 Argon2id hashes are computed at once per process (64 MiB each); others wait."""
SESSION_SWEEP = 15.0
"""Every 15 s a process closes the table sockets of sessions that ended elsewhere (another
process of the site); a session ended by the process itself closes its sockets at once."""
