"""Scythe at the terminal: the compact decision view (the players' tracks, your units,
resources and mat), the map and the mats on request, all within the terminal's width."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from hexfolk.cli.terminal import scythe_map
from hexfolk.cli.terminal.game_view import GameView
from hexfolk.cli.terminal.screen import Size, fit
from hexfolk.core import Action, Game, LogLine
from hexfolk.games.scythe.log_forms import LOG, words_for
from hexfolk.games.scythe.territory_labels import LABELS

JSON = Mapping[str, Any]


def _geometry(game: Game) -> JSON:
    return game.board_geometry() or {}


def player_line(pl: JSON, obs: JSON, viewer: int | None) -> str:
    """``"P0 rusviet: power 3, pop 4, $6, stars 0, cards 2, workers 2, mechs 0"`` (cards are
    combat cards, workers those on the board)."""
    seat = int(pl["seat"])
    head = f"P{seat}" + (" (you)" if seat == viewer else "")
    if obs.get("active") == seat:
        head = "▶ " + head
    head += f" {pl.get('faction') or '?'}"
    if "power" not in pl:
        return head
    parts = [
        f"power {pl['power']}",
        f"pop {pl['popularity']}",
        f"${pl['coins']}",
        f"stars {pl['star_total']}",
        f"cards {pl['combat_cards']}",
        f"workers {pl['workers_out']}",
        f"mechs {len(pl.get('mechs') or [])}",
    ]
    return f"{head}: " + ", ".join(parts)


def _me(obs: JSON, viewer: int | None) -> JSON | None:
    for pl in obs.get("player_state") or []:
        if pl["seat"] == viewer:
            return pl
    return None


def own_lines(obs: JSON, viewer: int | None) -> list[str]:
    """The viewer's combat cards, objectives, resources and where their units stand."""
    me = _me(obs, viewer)
    if me is None:
        return []
    lines = []
    cards = me.get("hand")
    if cards is not None:
        lines.append(
            f"your combat cards: {', '.join(str(c) for c in cards) or 'none'}; "
            f"objectives: {', '.join(str(o) for o in me.get('objective_cards') or []) or 'none'}"
            " (help objective N)"
        )
    board = obs.get("board") or {}
    res: dict[str, int] = {}
    places = []
    seat = str(viewer)
    for name, entry in board.items():
        units = (entry.get("units") or {}).get(seat)
        if entry.get("controller") == viewer:
            for r, n in (entry.get("resources") or {}).items():
                res[r] = res.get(r, 0) + int(n)
        if units:
            where = LABELS.label("territory", name)
            places.append(scythe_map.units_words({seat: units}).split(" ", 1)[1] + f" on {where}")
    lines.append("your resources: " + (", ".join(f"{n} {r}" for r, n in res.items()) or "none"))
    if places:
        lines.append("your units: " + "; ".join(places))
    return lines


def mat_lines(obs: JSON, pl: JSON, geometry: JSON) -> list[str]:
    """A player mat's four sections in words with today's bottom costs and cubes."""
    mats = (geometry.get("components") or {}).get("mats") or {}
    mat = mats.get(pl.get("mat") or "")
    if not mat:
        return []
    costs = pl.get("bottom_costs") or {}
    cubes = pl.get("cubes") or {}
    recruits = set(pl.get("recruits") or [])
    out = [
        f"P{pl['seat']} mat {pl['mat']} (upgrades: {', '.join(pl.get('upgrades') or []) or 'none'};"
        f" last section: {pl.get('last_section') or '-'})"
    ]
    for i, sec in enumerate(mat["sections"], start=1):
        bottom = sec["bottom"]
        used = " (used last turn)" if pl.get("last_section") == i else ""
        out.append(
            f"  {i}. {sec['top']} | {bottom}: {costs.get(bottom, sec['cost'])} {sec['resource']}, "
            f"+${sec['coins']}; {cubes.get(bottom, 0)} upgrades"
            + ("; recruit" if bottom in recruits else "")
            + used
        )
    return out


def _at(place: Any) -> str:
    """A place of the observation (its id, ``"r4c6"``, or index) by its board label (``G4``)."""
    return LABELS.label("territory", place)


def compact(game: Game, obs: JSON, viewer: int | None, size: Size) -> list[str]:
    """What a decision needs: every player's tracks, the viewer's cards and units, the mat
    when a section is chosen, a combat or an encounter in progress."""
    lines = [player_line(pl, obs, viewer) for pl in obs.get("player_state") or []]
    lines += own_lines(obs, viewer)
    combat = obs.get("combat")
    if combat:
        lines.append(
            f"combat on {_at(combat['territory'])}: P{combat['attacker']} attacks "
            f"P{combat['defender']}"
        )
    enc = obs.get("encounter")
    if enc:
        lines.append(f"encounter card {enc['card']} on {_at(enc['territory'])}")
    sel = obs.get("selected")
    if sel:
        carrying = ", ".join(f"{n} {k}" for k, n in (sel.get("carrying") or {}).items() if n)
        lines.append(
            f"moving your {sel['kind']} from {_at(sel['at'])}"
            + (f", carrying {carrying}" if carrying else "")
        )
    return fit(lines, size.columns)


def board(game: Game, obs: JSON, size: Size) -> list[str]:
    """The map: the engine's full drawing when the terminal is wide enough for it, else the
    condensed grid; then every occupied territory in words."""
    geometry = _geometry(game)
    full = _engine_map(game, obs)
    if full and max(len(x) for x in full) <= size.columns:
        out = full
    else:
        out = [*scythe_map.grid(obs, geometry), scythe_map.LEGEND]
    out = out + ["where things are:"] + ["  " + line for line in scythe_map.occupied(obs, geometry)]
    return fit(out, size.columns)


def _engine_map(game: Game, obs: JSON) -> list[str]:
    """The map part of the engine's rendering (up to the players' table)."""
    out = []
    for line in game.render_observation(dict(obs)).split("\n")[1:]:
        if line.startswith("seat ") and "faction" in line:
            break
        out.append(line)
    return out


def mats(game: Game, obs: JSON, size: Size) -> list[str]:
    """Every player's mat, in words."""
    geometry = _geometry(game)
    out: list[str] = []
    for pl in obs.get("player_state") or []:
        out += mat_lines(obs, pl, geometry)
    return fit(out or ["the mats are not dealt yet"], size.columns)


_UNIT = {"C": "character", "W": "worker(s)", "M": "mech(s)"}


def hint(obs: JSON, engine_hint: str) -> str:
    """A menu hint in words (``"you W"`` -> ``"your worker(s)"``)."""
    return re.sub(
        r"\byou ([CWM]+)\b",
        lambda m: "your " + " and ".join(_UNIT[c] for c in dict.fromkeys(m[1])),
        engine_hint,
    )


def log_sentence(line: Any, obs: JSON, viewer: int | None) -> str:
    """A Scythe log entry in words, read from its form and params (a line object, or its JSON
    ``{form, params, text}`` as a remote table sends it); the first seat it names is marked
    ``P<n> (you)`` when it is the viewer's. A plain line (an old record's) is shown as it is."""
    if isinstance(line, LogLine):
        form, params = line.form, line.params
    elif isinstance(line, Mapping) and line.get("form") in LOG.templates:
        form, params = line["form"], line.get("params") or {}
    else:
        return str(line.get("text", "")) if isinstance(line, Mapping) else str(line)
    try:
        return words_for(form, params, viewer)
    except (KeyError, IndexError, TypeError, ValueError):  # a malformed entry: its own text
        return str(line.get("text", "")) if isinstance(line, Mapping) else str(line)


def place_words(action: JSON, place: Callable[[str, Any], str]) -> str | None:
    """The words of an action that names a territory, with each written by ``place(kind, id)``
    (the board's labels: ``move mech G4``, ``to F4``, ``produce C3``, ``build mill Nordic
    base``...), from the action's structured form (``Action.to_json()``); None for an action
    that names none (its text is its words). With ``place`` writing the id, the words are the
    action's text (``tests/cli/test_terminal_labels.py`` checks every action)."""
    kind = action.get("kind")

    def at(key: str) -> str:
        return place("territory", action[key])

    if kind in ("trade", "gain", "pay"):
        return f"{kind} {action['resource']} {at('territory')}"
    if kind == "produce":
        amount = action.get("amount")
        return f"produce {at('territory')}" + (f" {amount}" if amount else "")
    if kind == "move":
        return f"move {action['unit']} {at('from')}"
    if kind == "step":
        return f"to {at('to')}"
    if kind == "fight":
        return f"fight {at('territory')}"
    if kind == "retreat":
        return f"retreat {at('to')}" + ("" if action.get("workers", True) else " no-workers")
    if kind == "deploy":
        return f"deploy {action['ability']} {at('territory')}"
    if kind == "build":
        return f"build {action['structure']} {at('territory')}"
    return None


class ScytheView(GameView):
    """Scythe's terminal view (:func:`.game_view.view_for` finds it as ``VIEW``)."""

    def compact(self, obs: JSON, viewer: int | None, size: Size) -> list[str]:
        return compact(self.game, obs, viewer, size)

    def board(self, obs: JSON, size: Size) -> list[str]:
        return board(self.game, obs, size)

    def mats(self, obs: JSON, size: Size) -> list[str]:
        return mats(self.game, obs, size)

    def hand_lines(self, obs: JSON, viewer: int | None) -> list[str]:
        return own_lines(obs, viewer)

    def players(self, obs: JSON, viewer: int | None, size: Size) -> list[str]:
        rows = [player_line(p, obs, viewer) for p in obs.get("player_state", [])]
        return fit(rows, size.columns)

    def action_words(self, obs: JSON, action: Action) -> str:
        words = place_words(action.to_json(), LABELS.label)
        return str(action) if words is None else words

    def hint(self, obs: JSON, action: Action, engine_hint: str) -> str:
        return hint(obs, engine_hint)

    def sentence(self, line: Any, obs: JSON, viewer: int | None) -> str:
        return log_sentence(line, obs, viewer)


VIEW = ScytheView
"""This game's terminal view."""
