"""The island game at the terminal: the compact decision view, the board on request, the
menu hints in words and the log lines the engine does not write (a blocked production)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from hexfolk.cli.terminal.game_view import GameView
from hexfolk.cli.terminal.island_prompts import island_prompt_words
from hexfolk.cli.terminal.offers import offer_by_id, offers_lines, receive_words
from hexfolk.cli.terminal.screen import Size, fit
from hexfolk.cli.terminal.words import (
    RESOURCE_NAMES,
    and_list,
    bundle_words,
    hand_words,
    hex_tiles,
    hex_words,
    island_sentence,
    seat_words,
    tile_words,
)
from hexfolk.core import Action, Game, Places, Prompt
from hexfolk.core.hexgrid import corners_at
from hexfolk.games.island.ascii_map import draw_board
from hexfolk.games.island.words import board_labels

JSON = Mapping[str, Any]


def player_line(pl: JSON, obs: JSON, viewer: int | None) -> str:
    """One seat's public line: VP, cards, development cards, knights, road, awards."""
    seat = int(pl["seat"])
    name = f"seat {seat}" + (" (you)" if seat == viewer else "")
    vp = pl.get("vp", pl["visible_vp"])
    parts = [
        f"{vp} VP" if "vp" in pl else f"{vp} VP shown",
        f"{pl['cards']} cards",
        f"{pl['dev_cards']} dev",
        f"{pl['knights']} knights",
        f"road {pl['road_length']}",
    ]
    if obs.get("longest_road") == seat:
        parts.append("Longest Road")
    if obs.get("largest_army") == seat:
        parts.append("Largest Army")
    if pl.get("declines_offers"):
        parts.append("declines offers")
    if obs.get("active") == seat:
        name = "▶ " + name
    return f"{name}: " + ", ".join(parts)


def hand_lines(obs: JSON, viewer: int | None) -> list[str]:
    """The viewer's cards, development cards and pieces left (nothing for a spectator)."""
    for pl in obs.get("players", []):
        if pl["seat"] == viewer and "hand" in pl:
            dev = pl.get("dev_hand") or {}
            devs = and_list([f"{n} {_DEV_WORDS.get(k, k)}" for k, n in dev.items() if n])
            new = pl.get("dev_bought_this_turn", 0)
            return [
                f"your hand: {hand_words(pl['hand'])}",
                f"your development cards: {devs or 'none'}"
                + (f" ({new} bought this turn)" if new else "")
                + f"; pieces left: {pl['roads_left']} roads, {pl['settlements_left']} "
                f"settlements, {pl['cities_left']} cities",
            ]
    return []


_DEV_WORDS = {
    "knight": "knight",
    "vp": "victory point",
    "roads": "road building",
    "plenty": "year of plenty",
    "monopoly": "monopoly",
}


def discards_lines(obs: JSON, viewer: int | None) -> list[str]:
    """Who must discard after a 7, how many, who is done (IR-41), in words."""
    d = obs.get("discards")
    if not d:
        return []
    need = d.get("need") or {}
    done = set(d.get("committed") or [])
    parts = []
    for s in d.get("seats") or []:
        who = seat_words(int(s), viewer)
        state = "done" if s in done else "choosing"
        parts.append(
            f"{who} {'discard' if who == 'you' else 'discards'} {need.get(str(s), '?')} ({state})"
        )
    line = "after the 7: " + "; ".join(parts)
    if d.get("selected"):
        line += f"; you have chosen {bundle_words(str(d['selected']))} so far"
    if d.get("own"):
        line += f"; you discard {bundle_words(str(d['own']))}"
    return [line]


def status_lines(obs: JSON) -> list[str]:
    """The robber and the deck; the bank (unless hidden)."""
    board = obs.get("board") or {}
    first = []
    if board.get("robber") is not None and board.get("layout"):
        first.append(f"robber on {hex_words(obs, int(board['robber']))}")
    first.append(f"{obs.get('deck', 0)} development cards left")
    lines = ["; ".join(first)]
    bank = obs.get("bank")
    if bank:
        lines.append("bank: " + ", ".join(f"{n} {k}" for k, n in bank.items()))
    return lines


def compact(game: Game, obs: JSON, viewer: int | None, size: Size) -> list[str]:
    """What a decision needs: players, the viewer's hand, offers, discards, robber."""
    lines = [player_line(pl, obs, viewer) for pl in obs.get("players", [])]
    lines += hand_lines(obs, viewer)
    lines += offers_lines(obs, viewer)
    lines += discards_lines(obs, viewer)
    lines += status_lines(obs)
    return fit(lines, size.columns)


def board(game: Game, obs: JSON, size: Size) -> list[str]:
    """The map by the board's labels (:func:`map_lines`: the hexes' letters, the
    intersections' numbers, as the log and the menu name them) when it fits the width, else
    the hexes and the buildings as lists; the legend in words either way."""
    tiles = hex_tiles(obs)
    if not tiles:
        return ["the board is not laid out yet"]
    drawing = map_lines(obs)
    places = board_labels(obs.get("board"))
    out: list[str] = []
    if drawing and max(len(x) for x in drawing) <= size.columns:
        out += drawing
        out.append(
            "[A] hex over terrain and number (O8 = mountains 8, * the robber); the numbers "
            "between hexes are spots (settle 12, city 12), a road joins two (road 12-13); "
            "S2 settlement, C2 city, r2 road of seat 2"
        )
    else:
        out.append(
            "hexes: "
            + ", ".join(f"{_label(places, 'hex', h)} {tile_words(t)}" for h, t in enumerate(tiles))
        )
        for kind, place in (("settlements", "node"), ("cities", "node"), ("roads", "edge")):
            items = obs.get(kind) or []
            where = "edge" if place == "edge" else "spot"
            if items:
                out.append(
                    f"{kind}: "
                    + ", ".join(f"seat {o} on {where} {_label(places, place, v)}" for v, o in items)
                )
    return fit(out, size.columns)


def _label(places: Places | None, kind: str, value: int) -> str:
    return places.label(kind, value) if places is not None else str(value)


def map_lines(obs: JSON) -> list[str]:
    """The map by labels (:func:`~hexfolk.games.island.ascii_map.draw_board`, ``labelled``),
    without its harbor line."""
    return [x for x in draw_board(dict(obs), labelled=True).split("\n") if x][:-1]


def harbor_line(obs: JSON) -> str:
    """The harbors in words, at the labels of their spots (``"harbors (spots): 3:1 at 1-5,
    2:1 brick at 3-6"``)."""
    lines = draw_board(dict(obs), labelled=True).split("\n")
    if not lines[-1].startswith("harbors:"):
        return ""
    text = lines[-1][len("harbors:") :]
    text = re.sub(r"2:1 ([lbwgo])\b", lambda m: f"2:1 {RESOURCE_NAMES[m[1]]}", text)
    return "harbors (spots):" + text


_PLAYED = {
    "play_knight": "knight",
    "play_roads": "roads",
    "play_plenty": "plenty",
    "play_monopoly": "monopoly",
}
"""The kinds of playing a development card -> the card (a key of ``_DEV_WORDS``)."""


def _cards_words(cards: JSON) -> str:
    """An action's cards in their JSON form (``{"lumber": 1}``) in words (``"nothing"``)."""
    return hand_words(cards) if cards else "nothing"


def hint(obs: JSON, action: JSON, engine_hint: str) -> str:
    """A menu entry's hint in words: what an offer or trade gives and gets, what a spot
    touches, a hex by terrain and number. ``action`` is the entry's structured form
    (``Action.to_json()``: its kind and fields, ``docs/island.md``), never its text."""
    kind = action.get("kind")
    if kind in ("offer", "trade"):
        to = "the bank or a harbor" if kind == "trade" else "everyone"
        return f"offer {to} {_cards_words(action['give'])} for {_cards_words(action['get'])}"
    if kind in ("accept", "reject", "counter") and action.get("offer") is not None:
        if kind == "reject":
            return "say no to this offer"
        if kind == "counter":
            give, get = _cards_words(action["give"]), _cards_words(action["get"])
            return f"you would give {give} for {get}"
        offer = offer_by_id(obs, int(action["offer"]))
        if offer is not None:
            return receive_words(str(offer["give"]), str(offer["get"]))
    if kind == "discard":
        return f"put 1 {action['resource']} back"
    if kind == "complete" and action.get("seat") is not None:
        return f"make the trade of offer #{action['offer']} with seat {action['seat']}"
    if kind == "withdraw":
        return f"take back offer #{action['offer']}"
    if kind == "end":
        return "end your turn"
    if kind == "roll":
        return "roll the dice"
    if kind == "buy":
        return "buy a development card (1 wool, 1 grain, 1 ore)"
    if kind in _PLAYED:
        card = _PLAYED[kind]
        return f"play {_DEV_WORDS[card]}" + (
            f": {_cards_words(action['take'])}" if card == "plenty" else ""
        )
    # the engine's hint (ascii_map.describe) is in words already: what a spot touches, a hex
    # by label, terrain and number ("hex B, pasture 6"; a terrain-letter rewrite would read
    # the hex letters B, D, G, L, O, W as terrains)
    return engine_hint


def place_words(action: JSON, place: Callable[[str, Any], str]) -> str | None:
    """The words of an action that names a place, with each place written by ``place(kind,
    id)`` (the board's labels: ``settle 12``, ``city 7``, ``road 12-13``, ``robber F``,
    ``robber F steal 2``), from the action's structured form (``Action.to_json()``); None for
    an action that names no place (its text is its words). With ``place`` writing the id, the
    words are the action's text (``tests/cli/test_terminal_labels.py`` checks every action)."""
    kind = action.get("kind")
    if kind in ("settle", "city"):
        return f"{kind} {place('node', action['node'])}"
    if kind == "road":
        return f"road {place('edge', action['edge'])}"
    if kind == "robber" and action.get("hex") is not None:
        where = f"robber {place('hex', action['hex'])}"
        return where if action.get("victim") is None else f"{where} steal {action['victim']}"
    return None


def action_words(obs: JSON, action: Action) -> str:
    """``action`` as the terminal's menu shows it: places by the board's labels
    (:func:`place_words`), else its text."""
    places = board_labels(obs.get("board"))
    words = place_words(action.to_json(), places.label) if places is not None else None
    return str(action) if words is None else words


_ENGINE_NOTES = frozenset({"blocked", "short"})


def _form(line: Any) -> str | None:
    return getattr(line, "form", None)


def is_engine_note(line: str) -> bool:
    """Whether ``line`` is one of the engine's notes on a roll (the income the robber blocks,
    IR-44; what the bank could not pay, IR-37; logged since issue 17). The terminal tells the
    same per roll in its own notes (:func:`production_notes`), so it does not show these."""
    return _form(line) in _ENGINE_NOTES


def log_sentence(line: str, obs: JSON, viewer: int | None) -> str:
    """An island log line as a sentence (:func:`island_sentence`)."""
    return island_sentence(line, obs, viewer)


def blocked_production(game: Game, line: str, obs: JSON) -> str | None:
    """After a roll, the sentence saying whose production the robber blocks (IR-44), if any:
    ``"the robber on hex 5 (fields 11) blocks 1 card for seat 2"``."""
    board = obs.get("board") or {}
    tiles = hex_tiles(obs)
    if _form(line) != "rolls" or board.get("robber") is None or not tiles:
        return None
    robber = int(board["robber"])
    total = line.params["total"]  # type: ignore[attr-defined]
    if not 0 <= robber < len(tiles) or tiles[robber][1:] != str(total):
        return None
    corners = _hex_corners(game, obs, robber)
    if corners is None:
        return None
    lost: dict[int, int] = {}
    for key, amount in (("settlements", 1), ("cities", 2)):
        for node, owner in obs.get(key) or []:
            if node in corners:
                lost[owner] = lost.get(owner, 0) + amount
    if not lost:
        return None
    who = and_list(
        [f"{n} card{'s' if n > 1 else ''} for seat {s}" for s, n in sorted(lost.items())]
    )
    return f"the robber on {hex_words(obs, robber)} blocks {who} (IR-44)"


def _hex_corners(game: Game, obs: JSON, hex_id: int) -> set[int] | None:
    geo = game.board_geometry() or {}
    board = obs.get("board") or {}
    hexes, nodes = geo.get("hexes"), geo.get("nodes")
    if geo.get("board") != board.get("map") or not hexes or not nodes:
        return None
    if len(hexes) != len(hex_tiles(obs)):
        return None
    x, y = hexes[hex_id]
    where = {(nx, ny): i for i, (nx, ny) in enumerate(nodes)}
    return {where[p] for p in corners_at((x, y)) if p in where}


_TERRAIN_RESOURCE = {"L": "l", "B": "b", "W": "w", "G": "g", "O": "o"}
_LETTER_OF = {name: letter for letter, name in RESOURCE_NAMES.items()}


def owed_by_roll(game: Game, obs: JSON, total: int) -> dict[tuple[int, str], int] | None:
    """What a roll of ``total`` owes each (seat, resource letter) by the board shown (robber's
    hex left out, IR-36, IR-44); None when the board's geometry is not known here."""
    tiles = hex_tiles(obs)
    robber = (obs.get("board") or {}).get("robber")
    owed: dict[tuple[int, str], int] = {}
    for h, tile in enumerate(tiles):
        if tile[1:] != str(total) or h == robber or tile[:1] not in _TERRAIN_RESOURCE:
            continue
        corners = _hex_corners(game, obs, h)
        if corners is None:
            return None
        for key, amount in (("settlements", 1), ("cities", 2)):
            for node, owner in obs.get(key) or []:
                if node in corners:
                    k = (int(owner), _TERRAIN_RESOURCE[tile[:1]])
                    owed[k] = owed.get(k, 0) + amount
    return owed


def shortage(owed: dict[tuple[int, str], int], paid_line: str | None) -> str | None:
    """The sentence for cards a roll owed that the bank could not pay (IR-37), comparing what
    was owed with the ``production`` line's params (``paid``: ``{seat, cards}`` per seat), or
    None when nothing was paid."""
    paid: dict[tuple[int, str], int] = {}
    for part in getattr(paid_line, "params", {}).get("paid", []):
        for name, n in part["cards"].items():
            key = (int(part["seat"]), _LETTER_OF[name])
            paid[key] = paid.get(key, 0) + int(n)
    short: dict[str, list[str]] = {}
    for (seat, r), n in sorted(owed.items()):
        got = paid.get((seat, r), 0)
        if got < n:
            short.setdefault(r, []).append(f"seat {seat} gets {got} of {n}")
    if not short:
        return None
    parts = [f"{RESOURCE_NAMES[r]} ({', '.join(who)})" for r, who in short.items()]
    return f"the bank is short of {and_list(parts)} (IR-37)"


def production_notes(game: Game, lines: list[str], obs: JSON) -> dict[int, list[str]]:
    """Sentences to add after line ``i`` of ``lines`` (a run of log lines ending at the log's
    end): after a roll, whose income the robber blocks; after its production line (or after
    the roll when nothing was paid), what the bank could not pay."""
    notes: dict[int, list[str]] = {}
    for i, line in enumerate(lines):
        if _form(line) != "rolls" or line.params["total"] == 7:  # type: ignore[attr-defined]
            continue
        blocked = blocked_production(game, line, obs)
        if blocked:
            notes.setdefault(i, []).append(blocked)
        owed = owed_by_roll(game, obs, line.params["total"])  # type: ignore[attr-defined]
        if not owed:
            continue
        j = i + 1  # the production line comes after the engine's notes on the roll
        while j < len(lines) and is_engine_note(lines[j]):
            j += 1
        following = lines[j] if j < len(lines) else ""
        paid_here = _form(following) == "production"
        note = shortage(owed, following if paid_here else None)
        if note:
            notes.setdefault(j if paid_here else i, []).append(note)
    return notes


class IslandView(GameView):
    """The island's terminal view (:func:`.game_view.view_for` finds it as ``VIEW``)."""

    def compact(self, obs: JSON, viewer: int | None, size: Size) -> list[str]:
        return compact(self.game, obs, viewer, size)

    def board(self, obs: JSON, size: Size) -> list[str]:
        harbors = harbor_line(obs)
        return board(self.game, obs, size) + (fit([harbors], size.columns) if harbors else [])

    def hand_lines(self, obs: JSON, viewer: int | None) -> list[str]:
        return hand_lines(obs, viewer)

    def players(self, obs: JSON, viewer: int | None, size: Size) -> list[str]:
        return fit([player_line(p, obs, viewer) for p in obs.get("players", [])], size.columns)

    def offers(self, obs: JSON, viewer: int | None, size: Size) -> list[str]:
        return fit(offers_lines(obs, viewer) or ["no open offers"], size.columns)

    def action_words(self, obs: JSON, action: Action) -> str:
        return action_words(obs, action)

    def hint(self, obs: JSON, action: Action, engine_hint: str) -> str:
        return hint(obs, action.to_json(), engine_hint)

    def notes(self, lines: Sequence[str], obs: JSON) -> dict[int, list[str]]:
        return production_notes(self.game, list(lines), obs)

    def is_note(self, line: Any) -> bool:
        return is_engine_note(line)  # said by the terminal's own notes

    def sentence(self, line: Any, obs: JSON, viewer: int | None) -> str:
        return log_sentence(line, obs, viewer)

    def decision_words(self, prompt: Prompt, obs: JSON) -> str:
        node = prompt.data.get("settlement")  # the setup road's settlement, by id
        places = board_labels(obs.get("board"))
        if node is not None and places is not None:
            return f"place a road next to settlement {places.label('node', node)}"
        return super().decision_words(prompt, obs)

    def prompt_words(self, text: str) -> str:
        return island_prompt_words(super().prompt_words(text))


VIEW = IslandView
"""This game's terminal view."""
