"""The island game as an RL environment: action catalogue and observation encoding.

Built from the notation of ``docs/island.md`` and ``state.observation(seat)`` only; the board's
sizes come from the game's public ``topology``, the vocabulary (resource letters, development
cards, ratios) from its rules tables. Seats in the features are *relative* to the
observing seat (0 = itself, 1 = the next seat clockwise...); seats in action texts stay
absolute (``robber 5 steal 2``, ``complete @1 with 2``), as the notation writes them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from hexfolk.core import Action, Game
from hexfolk.games.island import rules as R
from hexfolk.rl.codec import Codec, Features, relative, scaled

JSON = dict[str, Any]

LETTERS = "".join(R.LETTERS)
"""Resource letters of the notation, in notation order."""
RESOURCES = R.RESOURCES
"""Resource names of the observation's hands and bank, in notation order."""
TERRAINS = "".join(R.TERRAIN_LETTERS)
"""Terrain letters of a layout text (forest, hills, pasture, fields, mountains, desert)."""
HARBORS = LETTERS + "3"
"""Harbor kinds of a layout text (a resource, or ``3`` generic)."""
DEV_NAMES = R.DEV_NAMES
OFFER_SLOTS = R.MAX_OPEN_OFFERS
"""Open offers at once (IR-50); offer numbers are keyed by their slot."""
MARITIME_RATIOS = (R.RESOURCE_HARBOR_RATIO, R.GENERIC_RATIO, R.BANK_RATIO)
PHASES = (
    "setup-settlement",
    "setup-road",
    "pre-roll",
    "discard",
    "robber",
    "main",
    "road-building",
    "answer",
    "sbp-signup",
    "sbp-build",
    "over",
)
"""Prompt kinds of the observing seat (one-hot; chance kinds never reach an agent)."""
ANSWERS = ("accept", "reject", "counter")
TOKENS = R.DICE_SUMS


def bundle(counts: Sequence[int]) -> str:
    """Canonical bundle text (``1l 2o``; ``-`` for none)."""
    words = [f"{c}{LETTERS[r]}" for r, c in enumerate(counts) if c]
    return " ".join(words) if words else "-"


def parse_bundle(text: str) -> list[int]:
    """Counts per resource of a canonical bundle text."""
    counts = [0] * len(LETTERS)
    if text == "-":
        return counts
    for word in text.split():
        counts[LETTERS.index(word[-1])] += int(word[:-1])
    return counts


def _one(r: int) -> list[int]:
    return [1 if i == r else 0 for i in range(len(LETTERS))]


def catalogue(players: int, hexes: int, nodes: int, edges: int) -> list[str]:
    """Every action key of an island configuration, in index order (``docs/rl.md``)."""
    nres = len(LETTERS)
    keys = ["end", "roll", "buy", "play knight", "play roads", "robber stay", "sbp join"]
    keys.append("sbp pass")
    keys += [f"settle {v}" for v in range(nodes)]
    keys += [f"city {v}" for v in range(nodes)]
    keys += [f"road {e}" for e in range(edges)]
    keys += [f"robber {h}" for h in range(hexes)]
    keys += [f"robber {h} steal {q}" for h in range(hexes) for q in range(players)]
    keys += [f"discard {c}" for c in LETTERS]
    keys += [f"play monopoly {c}" for c in LETTERS]
    plenty = [
        [(i == r) + (i == s) for i in range(nres)] for r in range(nres) for s in range(r, nres)
    ]
    plenty += [_one(r) for r in range(nres)]
    keys += ["play plenty " + bundle(b) for b in plenty]
    for k in MARITIME_RATIOS:
        keys += [
            f"trade {k}{LETTERS[r]} for 1{LETTERS[s]}"
            for r in range(nres)
            for s in range(nres)
            if s != r
        ]
    keys += [f"offer 1{a} for 1{b}" for a in LETTERS for b in LETTERS if a != b]
    for slot in range(1, OFFER_SLOTS + 1):
        keys += [f"accept @{slot}", f"reject @{slot}", f"withdraw @{slot}"]
        keys += [f"counter @{slot}: 1{c}" for c in LETTERS]
        keys += [f"complete @{slot} with {q}" for q in range(players)]
    return keys


_SLOTTED = frozenset(("accept", "reject", "withdraw", "counter", "complete"))
"""Actions naming an offer by number: keyed by the offer's slot."""
_OFFER_ID = re.compile(r"^(accept|reject|withdraw) (\d+)$")
_COUNTER = re.compile(r"^counter (\d+): (.+) for (.+)$")
_COMPLETE = re.compile(r"^complete (\d+) with (\d+)$")


class IslandCodec(Codec):
    """Catalogue and encoder of one island configuration (player count, options)."""

    def __init__(self, game: Game):
        if not getattr(game, "fixed_geometry", True):
            raise ValueError(
                f"{game.options.get('map')}: the map draws a new coastline every game, so no "
                "action space of fixed size fits it (hexfolk.rl needs a fixed board)"
            )
        topo: Any = getattr(game, "topology")  # noqa: B009 - the island game's public geometry
        self.players = n = game.num_players
        self.hexes = hexes = topo.num_hexes
        self.nodes = nodes = topo.num_nodes
        self.edges = edges = topo.num_edges
        self.harbors = harbors = len(topo.harbor_slots)
        self.vp_target = float(game.options["vp_target"])
        f = Features()
        nres = len(LETTERS)
        self.o_phase = f.add("phase", len(PHASES), "prompt kind of the seat, one-hot")
        self.o_prompt = f.add(
            "prompt", 3, "cards still to discard /10, cards of the discard /10, free roads /2"
        )
        self.o_turn = f.add("turn", 1, "turn number /200")
        self.o_hex = f.add(
            "hexes",
            hexes * (len(TERRAINS) + len(TOKENS) + 1),
            "per hex: terrain one-hot (L B W G O D), token one-hot (2..12), robber here",
        )
        self.o_harbor = f.add(
            "harbors", harbors * len(HARBORS), "per harbor slot: kind l b w g o 3"
        )
        self.o_node = f.add("nodes", nodes * 2 * n, "per node, per relative seat: settlement, city")
        self.o_edge = f.add("edges", edges * n, "per edge, per relative seat: road")
        self.o_player = f.add(
            "players",
            n * 14,
            "per relative seat: cards /20, development cards /10, bought this turn /5, "
            "knights /10, visible VP /target, road length /15, roads left /15, settlements "
            "left /5, cities left /4, declines offers, holds Longest Road, holds Largest Army, "
            "active, acting",
        )
        self.o_hand = f.add("hand", nres, "own hand per resource /10")
        self.o_dev = f.add("dev_hand", len(DEV_NAMES), "own development cards per kind /5")
        self.o_vp = f.add("vp", 1, "own total VP /target")
        self.o_bank = f.add("bank", nres + 1, "bank per resource /19, bank hidden")
        self.o_deck = f.add("deck", 1, "development cards left /25")
        per_offer = 1 + 2 * nres + n * (len(ANSWERS) + nres)
        self.o_offer = f.add(
            "offers",
            OFFER_SLOTS * per_offer,
            "per offer slot: open, give per resource /5, get per resource /5, per relative "
            "seat: answer one-hot (accept reject counter) and the counter's give /5",
        )
        self.per_offer = per_offer
        self.o_discard = f.add(
            "discards",
            n * 2 + 1 + nres,
            "per relative seat: owes a discard, has committed; a discard is under way; own "
            "cards picked so far per resource /10",
        )
        self.per_hex = len(TERRAINS) + len(TOKENS) + 1
        self.rel = [[relative(s, o, n) for o in range(n)] for s in range(n)]
        """``rel[seat][other]``: where ``other`` sits from ``seat``."""
        self._layouts: dict[str, tuple[int, ...]] = {}
        super().__init__(game, catalogue(n, hexes, nodes, edges), f)

    def _layout_ones(self, layout: str) -> tuple[int, ...]:
        """Indices of the hex and harbor features that are 1 for a layout text (cached: the
        layout is fixed for a whole game)."""
        cached = self._layouts.get(layout)
        if cached is None:
            ones = []
            hex_text, harbor_text, _robber = layout.split(" ")
            words = hex_text.split(".")
            if len(words) != self.hexes or len(harbor_text) != self.harbors:
                raise ValueError(
                    f"layout of {len(words)} hexes and {len(harbor_text)} harbors on a board "
                    f"of {self.hexes} and {self.harbors}: {layout!r}"
                )
            for h, word in enumerate(words):
                base = self.o_hex + h * self.per_hex
                ones.append(base + TERRAINS.index(word[0]))
                if len(word) > 1:
                    ones.append(base + len(TERRAINS) + TOKENS.index(int(word[1:])))
            for i, c in enumerate(harbor_text):
                ones.append(self.o_harbor + i * len(HARBORS) + HARBORS.index(c))
            if len(self._layouts) > 64:
                self._layouts.clear()
            cached = self._layouts[layout] = tuple(ones)
        return cached

    # --------------------------------------------------------------------- actions
    def dynamic(self, action: Action) -> bool:
        return str(action).split(" ", 1)[0] in _SLOTTED

    def keys(self, legal: Sequence[Action], observation: JSON) -> list[str]:
        slots = {str(o["id"]): i + 1 for i, o in enumerate(observation["offers"])}
        out = []
        for action in legal:
            text = str(action)
            head = text.split(" ", 1)[0]
            if head in ("accept", "reject", "withdraw"):
                m = _OFFER_ID.match(text)
                if m:
                    text = f"{m.group(1)} @{slots.get(m.group(2), 0)}"
            elif head == "counter":
                m = _COUNTER.match(text)
                if m:
                    text = f"counter @{slots.get(m.group(1), 0)}: {m.group(2)}"
            elif head == "complete":
                m = _COMPLETE.match(text)
                if m:
                    text = f"complete @{slots.get(m.group(1), 0)} with {m.group(2)}"
            out.append(text)
        return out

    # --------------------------------------------------------------------- observation
    def write(self, obs: JSON, vec: np.ndarray) -> None:
        n = self.players
        seat = obs["seat"]
        if seat is None:
            seat = 0
        prompt = obs.get("prompt")
        kind = prompt["kind"] if prompt and prompt["seat"] == seat else obs["phase"]
        if kind in PHASES:
            vec[self.o_phase + PHASES.index(kind)] = 1.0
        if prompt and prompt["seat"] == seat:
            data = prompt["data"]
            vec[self.o_prompt] = scaled(data.get("left", 0) if kind == "discard" else 0, 10)
            vec[self.o_prompt + 1] = scaled(data.get("need", 0), 10)
            vec[self.o_prompt + 2] = scaled(
                data.get("left", 0) if kind == "road-building" else 0, 2
            )
        vec[self.o_turn] = scaled(obs["turn"], 200)
        board = obs["board"]
        layout = board["layout"]
        ones: list[int] = []
        if layout:
            ones.extend(self._layout_ones(layout))
        robber = board["robber"]
        if robber is not None and robber >= 0:
            ones.append(self.o_hex + robber * self.per_hex + self.per_hex - 1)
        o_node, o_edge = self.o_node, self.o_edge
        rel = self.rel[seat]
        ones.extend([o_node + (v * n + rel[o]) * 2 for v, o in obs["settlements"]])
        ones.extend([o_node + (v * n + rel[o]) * 2 + 1 for v, o in obs["cities"]])
        ones.extend([o_edge + e * n + rel[o] for e, o in obs["roads"]])
        vec[ones] = 1.0
        acting = obs.get("acting") or []
        target = self.vp_target
        for info in obs["players"]:
            p = info["seat"]
            base = self.o_player + relative(seat, p, n) * 14
            vec[base : base + 14] = (
                scaled(info["cards"], 20),
                scaled(info["dev_cards"], 10),
                scaled(info["dev_bought_this_turn"], 5),
                scaled(info["knights"], 10),
                scaled(info["visible_vp"], target),
                scaled(info["road_length"], 15),
                scaled(info["roads_left"], 15),
                scaled(info["settlements_left"], 5),
                scaled(info["cities_left"], 4),
                1.0 if info.get("declines_offers") else 0.0,
                1.0 if obs["longest_road"] == p else 0.0,
                1.0 if obs["largest_army"] == p else 0.0,
                1.0 if obs["active"] == p else 0.0,
                1.0 if p in acting else 0.0,
            )
            if p == seat and "hand" in info:
                hand = info["hand"]
                vec[self.o_hand : self.o_hand + len(RESOURCES)] = [
                    min(hand[name] / 10, 1.0) for name in RESOURCES
                ]
                dev = info["dev_hand"]
                vec[self.o_dev : self.o_dev + len(DEV_NAMES)] = [
                    min(dev[name] / 5, 1.0) for name in DEV_NAMES
                ]
                vec[self.o_vp] = scaled(info["vp"], target)
        bank = obs["bank"]
        if bank is None:
            vec[self.o_bank + len(RESOURCES)] = 1.0
        else:
            vec[self.o_bank : self.o_bank + len(RESOURCES)] = [
                min(bank[name] / 19, 1.0) for name in RESOURCES
            ]
        vec[self.o_deck] = scaled(obs["deck"], 25)
        nres = len(LETTERS)
        for i, offer in enumerate(obs["offers"][:OFFER_SLOTS]):
            base = self.o_offer + i * self.per_offer
            vec[base] = 1.0
            for r, c in enumerate(parse_bundle(offer["give"])):
                vec[base + 1 + r] = scaled(c, 5)
            for r, c in enumerate(parse_bundle(offer["get"])):
                vec[base + 1 + nres + r] = scaled(c, 5)
            for s, answer in offer["answers"].items():
                at = base + 1 + 2 * nres + relative(seat, int(s), n) * (len(ANSWERS) + nres)
                if isinstance(answer, dict):
                    vec[at + 2] = 1.0
                    for r, c in enumerate(parse_bundle(answer["counter"]["give"])):
                        vec[at + len(ANSWERS) + r] = scaled(c, 5)
                else:
                    vec[at + ANSWERS.index(answer)] = 1.0
        discards = obs["discards"]
        if discards:
            committed = discards["committed"]
            for q in discards["seats"]:
                at = self.o_discard + relative(seat, q, n) * 2
                vec[at] = 1.0
                vec[at + 1] = 1.0 if q in committed else 0.0
            vec[self.o_discard + 2 * n] = 1.0
            picked = discards.get("selected") or discards.get("own")
            if picked:
                for r, c in enumerate(parse_bundle(picked)):
                    vec[self.o_discard + 2 * n + 1 + r] = scaled(c, 10)
