"""The ``help`` texts of terminal play: the short help, each game's costs card and a line of
help on every card name (``help plenty``, ``help costs``, ``help objective 5``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hexfolk.core import Game

SHORT_HELP = (
    "type a number from the menu, or an action as the menu writes it: places by the board's",
    "  labels (settle 12, road 12-13, robber F, move worker D5); the engine's ids also work;",
    "  board  the map        hand  your cards     players  everyone's tracks",
    "  log    recent lines   list  every action   offers   open offers (island)",
    "  mats   every mat (Scythe)   help costs   help CARD (e.g. help plenty)",
    "  decline-all on|off   (island) answer every offer with no   quit  leave (saves --record)",
)

ISLAND_COSTS = (
    "costs (IR-56..IR-61): road = 1 lumber + 1 brick; settlement = 1 lumber + 1 brick + 1 wool "
    "+ 1 grain; city = 2 grain + 3 ore (replaces your settlement); development card = 1 wool "
    "+ 1 grain + 1 ore",
    "bank trade 4:1 (IR-52), a 3:1 harbor 3:1, a 2:1 harbor 2 of its resource for 1 (IR-53);"
    " pieces: 15 roads, 5 settlements, 4 cities",
)

ISLAND_CARDS: dict[str, str] = {
    "knight": "Knight: move the robber and steal a card, before or after the roll; 3 knights "
    "played take Largest Army (IR-45, IR-72). `play knight`",
    "roads": "Road Building: place 2 free roads (IR-64). `play roads`",
    "plenty": "Year of Plenty: take any 2 cards from the bank (IR-64). `play plenty 1l 1o`",
    "monopoly": "Monopoly: name a resource; every other player gives you all of it (IR-64)."
    " `play monopoly w`",
    "vp": "Victory Point card: 1 VP, kept hidden, never played (IR-63)",
    "robber": "the robber blocks its hex's production (IR-44); a 7 or a knight moves it and "
    "steals 1 card (IR-42, IR-43)",
    "offer": "`offer 1l for 1o`: every other seat may accept, reject or counter; you "
    "`complete N with S` when you like (IR-49, IR-50)",
    "harbor": "a harbor on a spot of yours trades 3:1, or 2:1 in its resource (IR-53)",
    "dev": "a development card costs 1 wool + 1 grain + 1 ore; at most one played a turn, "
    "never one bought this turn (IR-62)",
}
ISLAND_ALIASES = {
    "road-building": "roads",
    "building": "roads",
    "year": "plenty",
    "year-of-plenty": "plenty",
    "victory": "vp",
    "point": "vp",
    "offers": "offer",
    "harbors": "harbor",
    "development": "dev",
}


def _amounts(cost: Mapping[str, Any]) -> str:
    words = {"coins": "$", "combat_cards": "combat card", "popularity": "popularity"}
    parts = []
    for key, n in cost.items():
        if key == "coins":
            parts.append(f"${n}")
        else:
            name = words.get(key, key.replace("_", " "))
            parts.append(f"{n} {name}{'s' if key == 'combat_cards' and n != 1 else ''}")
    return " and ".join(parts) or "nothing"


def _benefit(benefit: Any) -> str:
    if isinstance(benefit, list):
        return "; ".join(_benefit(b) for b in benefit)
    if isinstance(benefit, Mapping):
        if "choose" in benefit:
            return "choose " + " or ".join(str(c) for c in benefit["choose"])
        return _amounts(benefit)
    return f"a {benefit} action" if isinstance(benefit, str) else str(benefit)


def scythe_costs(game: Game, observation: Mapping[str, Any], viewer: int | None) -> list[str]:
    """The Scythe costs card: top actions, the produce track, your bottom actions today."""
    comp = (game.board_geometry() or {}).get("components") or {}
    out = [
        "top actions: "
        + "; ".join(f"{k} costs {_amounts(v)}" for k, v in (comp.get("top_costs") or {}).items())
    ]
    track = comp.get("produce_track") or []
    out.append(
        "produce costs: "
        + "; ".join(f"{t['min_workers']}+ workers out: {_amounts(t['cost'])}" for t in track)
    )
    for pl in observation.get("player_state") or []:
        if pl["seat"] == viewer and pl.get("bottom_costs"):
            mats = comp.get("mats") or {}
            res = {
                s["bottom"]: s["resource"] for s in (mats.get(pl["mat"]) or {}).get("sections", [])
            }
            out.append(
                "your bottom actions now: "
                + "; ".join(
                    f"{b} {n} {res.get(b, '')}".rstrip() for b, n in pl["bottom_costs"].items()
                )
            )
    return out


def scythe_card(game: Game, words: list[str]) -> list[str] | None:
    """``objective 5``, ``factory 3``, ``encounter 12``, a tile, a faction or a mat name."""
    comp = (game.board_geometry() or {}).get("components") or {}
    if len(words) == 2 and words[1].isdigit():
        kind, n = words[0], words[1]
        if kind in ("objective", "obj") and n in (comp.get("objectives") or {}):
            o = comp["objectives"][n]
            return [f"objective {n} {o['name']}: {o['condition']}"]
        if kind == "factory" and n in (comp.get("factory_cards") or {}):
            f = comp["factory_cards"][n]
            return [
                f"factory card {n}: pay {_amounts(f['cost'])} for {_benefit(f['benefit'])}; "
                f"move {f.get('move_steps', 1)}"
            ]
        if kind == "encounter" and n in (comp.get("encounter_cards") or {}):
            opts = comp["encounter_cards"][n]["options"]
            return [f"encounter card {n}:"] + [
                f"  option {i}: pay {_amounts(o['cost'])} for {_benefit(o['benefit'])}"
                for i, o in enumerate(opts, start=1)
            ]
    name = " ".join(words)
    tiles = comp.get("tiles") or {}
    if name in tiles:
        t = tiles[name]
        ladder = ", ".join(f"{a}+: ${b}" for a, b in t.get("ladder", []))
        return [f"structure bonus {name}: {t.get('counts', '')} ({ladder})"]
    factions = comp.get("factions") or {}
    if name in factions:
        f = factions[name]
        return [
            f"{f['name']}: power {f['power']}, {f['combat_cards']} combat cards, ability "
            f"{f['ability']}; mechs: {', '.join(f.get('mech_abilities', []))}"
        ]
    mats = comp.get("mats") or {}
    if name in mats:
        m = mats[name]
        return [
            f"mat {name}: popularity {m['popularity']}, ${m['coins']}; "
            + "; ".join(
                f"{s['top']}/{s['bottom']} {s['cost']} {s['resource']} +${s['coins']}"
                for s in m["sections"]
            )
        ]
    return None


def help_lines(
    game: Game, topic: str, observation: Mapping[str, Any], viewer: int | None
) -> list[str]:
    """``help`` (no topic): the short help; ``help costs``: the costs card; ``help NAME``:
    one card's help; anything else says which topics there are."""
    words = topic.lower().split()
    if not words:
        return list(SHORT_HELP)
    if game.id == "island":
        if words[0] in ("costs", "cost", "prices"):
            return list(ISLAND_COSTS)
        key = ISLAND_ALIASES.get(words[0], words[0])
        if key in ISLAND_CARDS:
            return [ISLAND_CARDS[key]]
        return [
            f"no help on {topic!r}; try: help costs, "
            + ", ".join(f"help {k}" for k in ISLAND_CARDS)
        ]
    if game.id == "scythe":
        if words[0] in ("costs", "cost"):
            return scythe_costs(game, observation, viewer)
        found = scythe_card(game, words)
        if found:
            return found
        return [
            f"no help on {topic!r}; try: help costs, help objective N, help factory N, "
            "help encounter N, help FACTION (e.g. help nordic), help MAT, help TILE"
        ]
    return [f"no help on {topic!r} for {game.name}"]
