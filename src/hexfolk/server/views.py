"""What one connection sees: its seat's observation, legal actions with hints, log lines, and
why its standing buttons are refused.

Everything here is built from ``state.observation(seat)`` (``None`` for spectators),
``state.legal_actions_for(seat)`` with ``game.describe_action(observation, action)``, and
``state.why_illegal_reason(seat, action)`` for the seat's own ``state.standing_actions(seat)`` (the
engine's reasons speak of what that seat may see); never from ``full_state``, the seed or
another seat's observation. Views are built per viewer and version only when a connection of
that viewer asks (``FanOut.parts``), so a seat without a connection costs nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hexfolk.core import Action, LogLine, State
from hexfolk.core.log_lines import text_line


@dataclass(frozen=True, slots=True)
class ViewParts:
    """One viewer's view of one version (shared by every connection of that viewer)."""

    observation: dict[str, Any]
    """The observation without its ``log``."""
    log: list[str]
    """The viewer's log lines as the observation holds them: :class:`~hexfolk.core.LogLine`
    objects (a plain string from an engine that logs text), equal as their sentences (the
    fan-out diffs them as text); :meth:`log_json` makes the lines sent of them."""
    legal: list[dict[str, Any]]
    """``[{"action": text, "kind": ..., <fields>..., "hint": text}]``: each legal action's text
    (the id a client sends back) with its structured form (``Action.to_json()``: its kind and
    named fields in the game's words) and its hint (empty unless the viewer's seat may act now)."""
    refused: list[dict[str, Any]]
    """``[{"action": text, "reason": text, "why": {code, params, rule}}]``: the seat's standing
    actions not legal now, each with the engine's reason as a sentence and as data (empty for
    spectators and when the game has no standing buttons)."""

    def log_json(self, start: int = 0) -> list[dict[str, Any]]:
        """The log lines from ``start`` on as the view message sends them (:func:`log_json`)."""
        return log_json(self.log[start:])


def build_parts(
    state: State,
    viewer: int | None,
    legal_for: Callable[[int], list[Action]] | None = None,
) -> ViewParts:
    """The view of ``viewer`` (a seat, or ``None`` for a spectator). ``legal_for`` lists a
    seat's legal actions (default ``state.legal_actions_for``; the table core passes its list
    of this version, so a click lists them once per acting seat)."""
    obs = state.observation(viewer)
    raw_log = obs.pop("log", None)
    # kept as given (a copy of the list, not of its lines): only the lines a connection lacks
    # are converted (:func:`log_json`), not the whole log at every version
    log: list[str] = list(raw_log) if isinstance(raw_log, list) else []
    legal: list[dict[str, Any]] = []
    allowed: set[Action] = set()
    if viewer is not None and viewer in state.acting_seats():
        describe = state.game.describe_action
        for action in (legal_for or state.legal_actions_for)(viewer):
            entry = action.to_json()
            entry["action"] = str(action)
            entry["hint"] = describe(obs, action)
            legal.append(entry)
            allowed.add(action)
    refused: list[dict[str, Any]] = []
    if viewer is not None and not state.is_terminal():
        # the standing buttons often share one reason ("it is seat 1's decision: ..."): an
        # equal reason (by value) reuses the sentence and data rendered for the one before
        last: Any = None
        text, why = "", {}
        for action in state.standing_actions(viewer):
            if action in allowed:
                continue  # legal now: no reason to ask for
            reason = state.why_illegal_reason(viewer, action)
            if reason is None:
                continue
            if reason != last:
                last, text, why = reason, reason.text, reason.to_json()
            refused.append({"action": str(action), "reason": text, "why": why})
    return ViewParts(obs, log, legal, refused)


def log_json(lines: list[Any]) -> list[dict[str, Any]]:
    """Log lines as the server sends them: each ``{"form", "params", "text"}``
    (``docs/protocol.md``, ``docs/log.md``; a plain string as a ``text`` line)."""
    return [(x if isinstance(x, LogLine) else text_line(str(x))).to_json() for x in lines]


def observation_json(obs: dict[str, Any]) -> dict[str, Any]:
    """An observation as sent whole (the replay's steps): its log as :func:`log_json`."""
    return {**obs, "log": log_json(obs["log"])} if "log" in obs else obs
