"""Scythe for people at a terminal: the board as a text map, card texts, and the short hints
shown next to each legal action (``ScytheGame.describe_action``). Everything is computed from
one seat's observation and the public data tables, never from the state.

The map puts every territory at its axial position: a cell of three lines per hex, rows offset
by half a cell, as on the printed board::

    D2 tun T ?         label, terrain code, T = printed tunnel, ? = encounter token
    0:CM3W 1:2M        units per seat: C character, M mechs, W workers (count before letter)
    mill0 2o 1f        structure (kind, seat) and resource tokens (oil metal food wood)

A ``~`` between two cells marks a river on that edge (a run of ``~`` under a cell marks the
river on its lower-left or lower-right edge). Home bases of the factions in play stand where
they are printed (``Nordic base``). Places are named by their board labels
(:mod:`.territory_labels`: ``D2``, ``Factory``, ``Nordic base``), in the map and the hints.
"""

from __future__ import annotations

from typing import Any

from hexfolk.core.hexgrid import centre
from hexfolk.games.scythe import data as D
from hexfolk.games.scythe.actions import (
    DECLINE_KEY,
    Bolster,
    Build,
    Carry,
    ChooseSection,
    Commit,
    Deploy,
    Done,
    EncounterOption,
    EndTurn,
    Enlist,
    FactoryTop,
    Fight,
    GainResource,
    MoveCoins,
    Pay,
    PayCard,
    Produce,
    Retreat,
    Reveal,
    SelectUnit,
    Skip,
    Step,
    Stop,
    TakeBottom,
    TakeFactory,
    TradePopularity,
    TradeResource,
    Upgrade,
    UseArtillery,
)
from hexfolk.games.scythe.territory_labels import LABELS

JSON = dict[str, Any]

CELL = 13  # characters per hex cell
HALF = 7  # columns between the cells of neighbouring half-columns (cells 14 apart in a row)
ROW = 4  # text lines per hex row: three of content, one for river marks

TERRAIN_CODE: dict[str, str] = {
    "mountain": "mtn",
    "farm": "frm",
    "tundra": "tun",
    "forest": "for",
    "village": "vil",
    "lake": "lake",
    "factory": "FACTORY",
}
RES_CODE: dict[str, str] = {r: r[0] for r in D.RESOURCES}
STRUCT_CODE: dict[str, str] = {s: s[:4] for s in D.STRUCTURES}
UNIT_LETTERS = (("character", "C"), ("mechs", "M"), ("workers", "W"))

# Short reminders of what the abilities do (rules text of scythe_rules.md, paraphrased).
ABILITY_TEXT: dict[str, str] = {
    "riverwalk": "cross rivers onto {riverwalk} (SR-26)",
    "seaworthy": "lakes are territories; may retreat onto a lake (SR-35)",
    "submerge": "enter and leave lakes, lake to lake (SR-36)",
    "township": "your villages and the Factory are adjacent (SR-37)",
    "underpass": "your mountains, tunnels and Mine are adjacent (SR-38)",
    "wayfare": "step to your or an inactive home base (SR-39)",
    "speed": "character and mechs +1 step (SR-34)",
    "artillery": "before combat: pay 1 power, opponent loses 2 (C1)",
    "scout": "before combat: take a random card of the opponent (C1)",
    "disarm": "before combat on a tunnel: opponent loses 2 power (C1)",
    "peoples-army": "+1 combat card with a worker there (C2)",
    "camaraderie": "no popularity loss for winning against workers (SR-44)",
    "swim": "workers cross rivers (SR-26)",
    "relentless": "may repeat a mat section (SR-6)",
    "coercion": "a combat card may replace one resource per turn (SR-41)",
    "meander": "two options on an encounter card (SR-41)",
    "dominate": "no combat-star cap, keeps both objectives (SR-52)",
}


# --- small texts --------------------------------------------------------------------------------
def units_text(units: JSON) -> str:
    """``CM3W`` for a character, one mech and three workers (empty for none)."""
    out = []
    for key, letter in UNIT_LETTERS:
        n = int(units.get(key, 0))
        if n:
            out.append(letter if n == 1 else f"{n}{letter}")
    return "".join(out)


def resources_text(res: JSON, sep: str = " ") -> str:
    """``2o 1f`` for two oil and a food (resource order of the data)."""
    return sep.join(f"{res[r]}{RES_CODE[r]}" for r in D.RESOURCES if res.get(r))


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def gain_text(key: str, amount: int) -> str:
    """One card gain in words: ``$2``, ``+1 popularity``, ``2 combat cards``, ``4 food``."""
    if key == "coins":
        return f"${amount}"
    if key in ("power", "popularity"):
        return f"+{amount} {key}"
    if key == "combat_cards":
        return _plural(amount, "combat card")
    if key == "worker":
        return _plural(amount, "worker")
    if key == "resources_any":
        return f"{amount} resources of any kind"
    if key == "produce":
        return f"produce on {amount} territories"
    return f"{amount} {key}"


def cost_text(cost: JSON) -> str:
    """A card cost in words (``free`` when empty)."""
    if not cost:
        return "free"
    parts = []
    for k, v in cost.items():
        parts.append(f"${v}" if k == "coins" else gain_text(k, v).lstrip("+"))
    return "pay " + ", ".join(parts)


def benefit_text(benefit: list[Any]) -> str:
    """A card benefit in words (granted actions named as on the card)."""
    parts = []
    for item in benefit:
        if isinstance(item, str):
            parts.append(item.capitalize())
            continue
        for k, v in item.items():
            if k == "choose":
                parts.append(" or ".join(x.capitalize() for x in v))
            else:
                parts.append(gain_text(k, v))
    return ", ".join(parts)


def declinable(benefit: list[Any]) -> list[str]:
    """The notation names of a benefit's fixed gains (the parts SR-47 lets one decline)."""
    keys = {k for item in benefit if isinstance(item, dict) for k in item}
    return [name for name, key in DECLINE_KEY.items() if key in keys]


def option_text(option: JSON) -> str:
    return f"{cost_text(option['cost'])} -> {benefit_text(option['benefit'])}"


def factory_text(number: int) -> str:
    card = D.FACTORY_BY_NUMBER[number]
    return (
        f"top: {cost_text(card['cost'])} -> {benefit_text(card['benefit'])}; "
        f"bottom: move 1 unit {card.get('move_steps', D.RULES['factory_move_steps'])} steps"
    )


def objective_text(number: int) -> str:
    o = D.OBJECTIVE_BY_NUMBER.get(number)
    if o is None:
        return f"objective {number}"
    return f"{number} {o['name']}: {o['condition']}"


def tile_text(tile_id: str) -> str:
    for t in D.TILES:
        if t["id"] == tile_id:
            ladder = " ".join(f"{n}+:${c}" for n, c in t["ladder"])
            return f"{tile_id} - {t['counts']} ({ladder})"
    return tile_id


def ability_text(ability: str, faction: str | None) -> str:
    text = ABILITY_TEXT.get(ability, "")
    if "{riverwalk}" in text:
        terrains = "its terrains"
        if faction in D.FACTION_INDEX:
            terrains = "/".join(D.FACTIONS[D.FACTION_INDEX[faction]]["riverwalk_terrains"])
        text = text.format(riverwalk=terrains)
    return text


def top_value(pl: JSON, box: str) -> int:
    """A top box's value for a player (upgraded or not), from the observation."""
    b = D.TOP_BOXES[D.TOP_BOX_INDEX[box]]
    return int(b["upgraded"] if box in pl.get("upgrades", []) else b["base"])


def track_cost_text(cost: JSON) -> str:
    if not cost:
        return "free"
    return " ".join(f"${v}" if k == "coins" else f"{v} {k[:3]}" for k, v in cost.items())


def top_text(top: str, pl: JSON) -> str:
    """What the top action of a section gives this player now (cost first)."""
    cost = D.TOP_COSTS.get(top, {})
    pay = f"{track_cost_text(cost)}: " if cost else ""
    structs = pl.get("structures", {})
    bonus = ""
    for struct, gain in D.STRUCTURE_BONUS.items():
        if struct in structs and D.STRUCTURE_FOR_TOP.get(top) == D.STRUCT_INDEX[struct]:
            bonus = "".join(f" +{v} {k[:3]}" for k, v in gain.items()) + f" ({struct})"
    if top == "move":
        return f"move {top_value(pl, 'move-units')} units or ${top_value(pl, 'move-coins')}"
    if top == "bolster":
        return (
            f"{pay}+{top_value(pl, 'bolster-power')} power or "
            f"+{top_value(pl, 'bolster-cards')} combat cards{bonus}"
        )
    if top == "trade":
        return (
            f"{pay}{D.RULES['trade_resources']} resources or "
            f"+{top_value(pl, 'trade-popularity')} popularity{bonus}"
        )
    if top == "produce":
        mill = " +mill" if "mill" in structs else ""
        cost_now = produce_cost(int(pl.get("workers_out", 0)))
        lead = f"{track_cost_text(cost_now)}: " if cost_now else ""
        return f"{lead}produce on {top_value(pl, 'produce-territories')} territories{mill}"
    return top


def produce_cost(workers_out: int) -> JSON:
    """SR-19: the produce track cost for this many workers on the board."""
    cost: JSON = {}
    for minimum, c in D.PRODUCE_TRACK:
        if workers_out >= minimum:
            cost = c
    return cost


def section_of(pl: JSON, index: int) -> JSON | None:
    mat = pl.get("mat")
    if mat not in D.MAT_INDEX:
        return None
    sections: list[JSON] = D.MATS[D.MAT_INDEX[mat]]["sections"]
    return sections[index] if 0 <= index < len(sections) else None


def bottom_text(pl: JSON, sec: JSON) -> str:
    """``deploy (3 metal, +2 coins)`` with the player's current cost."""
    bottom = sec["bottom"]
    cost = pl.get("bottom_costs", {}).get(bottom, sec["cost"])
    return f"{bottom} ({cost} {sec['resource']}, +{_plural(sec['coins'], 'coin')})"


def bottom_exhausted(pl: JSON, bottom: str) -> str:
    """A note when a bottom action's main benefit is used up (SR-12: coins still paid)."""
    if "power" not in pl:
        return ""
    if bottom == "upgrade" and len(pl.get("upgrades", [])) >= len(D.TOP_BOXES):
        return "all upgrades done"
    if bottom == "deploy" and len(pl.get("mechs", [])) >= D.MECHS:
        return "all mechs out"
    if bottom == "build" and len(pl.get("structures", {})) >= len(D.STRUCTURES):
        return "all built"
    if bottom == "enlist" and len(pl.get("recruits", [])) >= len(D.BOTTOM_ACTIONS):
        return "all enlisted"
    return ""


# --- the map ------------------------------------------------------------------------------------
def _shown_locations(obs: JSON) -> list[int]:
    """Every territory, and the home bases of the factions in play (or holding anything)."""
    in_play = {pl.get("faction") for pl in obs.get("player_state", [])}
    board = obs.get("board", {})
    out = list(range(D.NTERR))
    for h, home in enumerate(D.HOME_BASES):
        if home["faction"] in in_play or home["id"] in board:
            out.append(D.NTERR + h)
    return out


def _fit(text: str, name: str, notes: list[str], full: str) -> str:
    if len(text) <= CELL:
        return text
    notes.append(f"{name}: {full}")
    return text[: CELL - 1] + "+"


def cell_lines(loc: int, entry: JSON, notes: list[str]) -> list[str]:
    """The three lines of one map cell; overflowing details go to ``notes``."""
    name = LABELS.by_index[loc]
    if loc >= D.NTERR:
        first = name
    else:
        t = D.TERRITORIES[loc]
        # the Factory's label is its terrain: "Factory", not "Factory FACTORY"
        first = name if loc == D.FACTORY_LOC else f"{name} {TERRAIN_CODE[t['terrain']]}"
        marks = ("T" if t["tunnel"] else "") + ("?" if entry.get("encounter_token") else "")
        if marks:
            first += " " + marks
    units = entry.get("units", {})
    unit_parts = [f"{seat}:{units_text(units[seat])}" for seat in sorted(units, key=int)]
    second = " ".join(unit_parts)
    third_parts = []
    if "structure" in entry:
        s = entry["structure"]
        third_parts.append(f"{STRUCT_CODE[s['kind']]}{s['seat']}")
    res = entry.get("resources", {})
    if res:
        spaced = resources_text(res)
        third_parts.append(spaced)
    third = " ".join(third_parts)
    if len(third) > CELL and res:
        third = " ".join([*third_parts[:-1], resources_text(res, "")])
    full_units = ", ".join(f"seat {s}: {units_text(units[s])}" for s in sorted(units, key=int))
    full_parts = [f"{res[r]} {r}" for r in D.RESOURCES if res.get(r)]
    if "structure" in entry:
        s = entry["structure"]
        full_parts.insert(0, f"{s['kind']} of seat {s['seat']}")
    full_third = ", ".join(full_parts)
    return [
        first,
        _fit(second, name, notes, full_units),
        _fit(third, name, notes, full_third),
    ]


def _xy(loc: int) -> tuple[int, int]:
    q, r = D.AXIAL[loc]
    return centre((q, r))[0], r


def draw_map(obs: JSON) -> list[str]:
    """The board of an observation as text lines (see the module docstring)."""
    board: JSON = obs.get("board", {})
    shown = _shown_locations(obs)
    x0 = min(_xy(loc)[0] for loc in shown)
    rows = sorted({_xy(loc)[1] for loc in shown})
    row_of = {r: i for i, r in enumerate(rows)}
    grid: dict[tuple[int, int], str] = {}
    notes: list[str] = []

    def put(line: int, col: int, text: str) -> None:
        for i, ch in enumerate(text):
            grid[(line, col + i)] = ch

    origin: dict[int, tuple[int, int]] = {}
    for loc in shown:
        x, r = _xy(loc)
        top, col = row_of[r] * ROW, (x - x0) * HALF
        origin[loc] = (top, col)
        for i, text in enumerate(cell_lines(loc, board.get(D.LOC_NAMES[loc], {}), notes)):
            put(top + i, col, text)
    for loc in shown:
        top, col = origin[loc]
        for dest, river in D.GEO[loc]:
            if not river or dest not in origin:
                continue
            dx = _xy(dest)[0] - _xy(loc)[0]
            dr = _xy(dest)[1] - _xy(loc)[1]
            if dr == 0 and dx == 2:  # east: the gap column between the two cells
                for i in range(ROW - 1):
                    put(top + i, col + CELL, "~")
            elif dr == 1 and dx == 1:  # lower right
                put(top + ROW - 1, col + HALF, "~" * (CELL - HALF))
            elif dr == 1 and dx == -1:  # lower left
                put(top + ROW - 1, col, "~" * (CELL - HALF))
    height = len(rows) * ROW - 1
    width = max(c for _, c in grid) + 1
    lines = ["".join(grid.get((i, c), " ") for c in range(width)).rstrip() for i in range(height)]
    return lines + [f"  * {n}" for n in notes]


def map_legend() -> list[str]:
    products = D.BOARD["products"]
    terrains = "  ".join(f"{TERRAIN_CODE[t]} {t}>{p}" for t, p in products.items())
    return [
        f"{terrains}s  T tunnel  ? encounter  ~ river",
        "0:C2M3W seat 0's character, 2 mechs, 3 workers   2o 1m 3f 1w oil metal food wood   "
        "mill0 seat 0's mill (mine monu armo mill)",
    ]


# --- hints for the legal actions ----------------------------------------------------------------
def _me(obs: JSON) -> JSON:
    seat = obs.get("seat")
    for pl in obs.get("player_state", []):
        if pl.get("seat") == seat:
            return dict(pl)
    return {}


def _place_text(obs: JSON, loc: int, seat: int | None) -> str:
    """Terrain and what stands on a location: ``forest ? | P1 2W (they retreat)``."""
    name = D.LOC_NAMES[loc]
    entry = obs.get("board", {}).get(name, {})
    if loc >= D.NTERR:
        parts = ["home base"]
    else:
        t = D.TERRITORIES[loc]
        parts = [t["terrain"] + (" tunnel" if t["tunnel"] else "")]
        if entry.get("encounter_token"):
            parts.append("encounter ?")
    for s, u in sorted(entry.get("units", {}).items(), key=lambda kv: int(kv[0])):
        who = "you" if seat is not None and int(s) == seat else f"P{s}"
        parts.append(f"{who} {units_text(u)}")
    if "structure" in entry:
        st = entry["structure"]
        parts.append(f"{st['kind']} of P{st['seat']}")
    if entry.get("resources"):
        parts.append(resources_text(entry["resources"]))
    return ", ".join(parts)


def _terrain(loc: int) -> str:
    return "home base" if loc >= D.NTERR else str(D.TERRITORIES[loc]["terrain"])


def _enemy(obs: JSON, loc: int, seat: int | None) -> tuple[int, int]:
    """(character + mechs, workers) of other seats on ``loc``."""
    entry = obs.get("board", {}).get(D.LOC_NAMES[loc], {})
    fighters = workers = 0
    for s, u in entry.get("units", {}).items():
        if seat is None or int(s) != seat:
            fighters += int(u.get("character", 0)) + int(u.get("mechs", 0))
            workers += int(u.get("workers", 0))
    return fighters, workers


def _section_hint(obs: JSON, pl: JSON, section: int) -> str:
    if section == D.FACTORY_SECTION:
        card = pl.get("factory_card")
        return f"Factory card {card}: {factory_text(card)}" if card is not None else "Factory card"
    sec = section_of(pl, section)
    if sec is None:
        return ""
    out = f"{sec['top']}: {top_text(sec['top'], pl)} | {bottom_text(pl, sec)}"
    if sec["bottom"] in pl.get("recruits", []):
        bonus = D.RECRUIT_BONUS[D.BOTTOM_INDEX[sec["bottom"]]]
        out += " +" + " ".join(gain_text(k, v).lstrip("+") for k, v in bonus.items()) + " recruit"
    note = bottom_exhausted(pl, sec["bottom"])
    return out + (f"; {note}" if note else "")


def _prompt_kind(obs: JSON) -> str:
    pr = obs.get("prompt") or {}
    return str(pr.get("kind", ""))


def describe(obs: JSON, action: object) -> str:
    """A short hint for a person choosing ``action``, from the chooser's observation only."""
    seat = obs.get("seat")
    pl = _me(obs)
    kind = _prompt_kind(obs)
    if isinstance(action, ChooseSection):
        return _section_hint(obs, pl, action.section)
    if isinstance(action, MoveCoins):
        return f"+${action.amount or top_value(pl, 'move-coins')} instead of moving"
    if isinstance(action, Bolster):
        box = "bolster-power" if action.kind == "power" else "bolster-cards"
        n = action.amount or top_value(pl, box)
        what = f"+{n} power" if action.kind == "power" else f"draw {_plural(n, 'combat card')}"
        return f"{what}, pay ${D.TOP_COSTS['bolster'].get('coins', 0)}"
    if isinstance(action, TradePopularity):
        n = action.amount or top_value(pl, "trade-popularity")
        return f"+{n} popularity, pay ${D.TOP_COSTS['trade'].get('coins', 0)}"
    if isinstance(action, TradeResource):
        pay = f", pay ${D.TOP_COSTS['trade'].get('coins', 0)}" if kind == "top-action" else ""
        return f"+1 {D.RESOURCES[action.resource]} on {LABELS.by_index[action.loc]}{pay}"
    if isinstance(action, Produce):
        return _produce_hint(obs, pl, action)
    if isinstance(action, SelectUnit):
        return "from " + _place_text(obs, action.loc, seat)
    if isinstance(action, Step):
        return _step_hint(obs, action.loc, seat)
    if isinstance(action, Stop):
        sel = obs.get("selected") or {}
        return f"stay on {sel.get('at', '?')}"
    if isinstance(action, Carry):
        return "take nothing along" if not action.workers and not any(action.resources) else ""
    if isinstance(action, Done):
        return {
            "choose-unit": f"stop moving ({obs.get('units_moved', 0)} moved)",
            "produce": "produce nowhere else",
            "trade-second-token": "take only one resource",
            "encounter": "no second option",
            "gain": "leave the rest of the gain",
        }.get(kind, "")
    if isinstance(action, Skip):
        return {
            "top-action": "skip the top action",
            "bottom-action": "skip the bottom action: end of turn",
            "benefit": "no benefit (cost paid; coins still come)",
            "gain": "leave the granted action",
        }.get(kind, "")
    if isinstance(action, EndTurn):
        return "end your turn"
    if isinstance(action, TakeBottom):
        sec = section_of(pl, int(obs.get("section") or 0) - 1)
        if sec is None:
            return ""
        coins = " (no coins)" if not action.coins else ""
        return bottom_text(pl, sec) + coins
    if isinstance(action, Pay):
        return _pay_hint(obs, action)
    if isinstance(action, PayCard):
        if kind == "pay":
            return f"discard your {action.value} card instead of 1 resource (Coercion)"
        return f"discard your {action.value} combat card"
    if isinstance(action, Upgrade):
        return _upgrade_hint(pl, action)
    if isinstance(action, Deploy):
        n = len(pl.get("mechs", [])) + 1
        return (
            f"mech {n}/{D.MECHS} on {_terrain(action.loc)}: "
            f"{ability_text(action.ability, pl.get('faction'))}"
        )
    if isinstance(action, Build):
        return _build_hint(obs, action, seat)
    if isinstance(action, Enlist):
        space = D.ENLIST_SPACES[action.space]["gain"]
        now = ", ".join(gain_text(k, v) for k, v in space.items())
        bonus = D.RECRUIT_BONUS[action.recruit]
        ongoing = ", ".join(gain_text(k, v) for k, v in bonus.items())
        return (
            f"now {now}; then {ongoing} when you or a neighbour {D.BOTTOM_ACTIONS[action.recruit]}"
        )
    if isinstance(action, Reveal):
        o = D.OBJECTIVE_BY_NUMBER.get(action.number)
        return f"+1 star: {o['name'] if o else action.number}"
    if isinstance(action, Fight):
        return _fight_hint(obs, pl, action.loc)
    if isinstance(action, UseArtillery):
        art = D.RULES["artillery"]
        if action.use:
            return f"pay {art['cost_power']} power, the opponent loses {art['opponent_loses']}"
        return "keep your power"
    if isinstance(action, Commit):
        power = int(pl.get("power", 0))
        total = action.dial + sum(action.cards)
        return f"strength {total}; power {power} -> {power - action.dial}"
    if isinstance(action, Retreat):
        where = "home base" if action.loc >= D.NTERR else "the lake"
        workers = ", workers go home" if not action.workers else ""
        return f"retreat to {where}{workers}"
    if isinstance(action, EncounterOption):
        return _encounter_hint(obs, action)
    if isinstance(action, GainResource):
        pr = obs.get("prompt") or {}
        left = pr.get("data", {}).get("resources")
        more = f" ({left} to place)" if left else ""
        return f"+1 {D.RESOURCES[action.resource]} on {LABELS.by_index[action.loc]}{more}"
    if isinstance(action, TakeFactory):
        return factory_text(action.number)
    if isinstance(action, FactoryTop):
        card = pl.get("factory_card")
        if card is None:
            return ""
        rec = D.FACTORY_BY_NUMBER[card]
        text = f"{cost_text(rec['cost'])} -> {benefit_text(rec['benefit'])}"
        parts = declinable(rec["benefit"])
        if parts and not action.decline:
            text += f" (or e.g. top decline {parts[0]})"
        return text
    return ""


def _produce_hint(obs: JSON, pl: JSON, action: Produce) -> str:
    seat = obs.get("seat")
    entry = obs.get("board", {}).get(D.LOC_NAMES[action.loc], {})
    workers = int(entry.get("units", {}).get(str(seat), {}).get("workers", 0))
    mill = 1 if pl.get("structures", {}).get("mill") == D.LOC_NAMES[action.loc] else 0
    n = action.amount or workers + mill
    product = D.BOARD["products"].get(D.TERRITORIES[action.loc]["terrain"], "nothing")
    full = ""
    if product == "worker":
        left = D.WORKERS_TOTAL - int(pl.get("workers_out", 0))
        full = " (no workers left on the mat)" if left == 0 else ""
        n = min(n, left)
    mill_text = " with the mill" if mill else ""
    return f"+{n} {product}{'s' if product == 'worker' and n != 1 else ''}{mill_text}{full}"


def _step_hint(obs: JSON, loc: int, seat: int | None) -> str:
    sel = obs.get("selected") or {}
    text = _place_text(obs, loc, seat)
    at = D.LOC_INDEX.get(str(sel.get("at", "")))
    if at is not None:
        link = {d: river for d, river in D.GEO[at]}
        if loc not in link:
            text += " (not adjacent: tunnel/ability link)"
        elif link[loc]:
            text += " (across a river)"
    fighters, workers = _enemy(obs, loc, seat)
    if sel.get("kind") in ("character", "mech"):
        if fighters:
            text += ": COMBAT"
        elif workers:
            loss = D.RULES["displacement_popularity_loss"]
            text += f": their workers retreat, -{loss * workers} popularity"
    return text


def _pay_hint(obs: JSON, action: Pay) -> str:
    here = obs.get("board", {}).get(D.LOC_NAMES[action.loc], {}).get("resources", {})
    have = int(here.get(D.RESOURCES[action.resource], 0))
    left = (obs.get("prompt") or {}).get("data", {}).get("left")
    tail = f", {left} still to pay" if left else ""
    return f"1 of the {have} {D.RESOURCES[action.resource]} on {LABELS.by_index[action.loc]}{tail}"


def _upgrade_hint(pl: JSON, action: Upgrade) -> str:
    box = D.TOP_BOXES[action.box]
    bottom = D.BOTTOM_ACTIONS[action.bottom]
    cost = pl.get("bottom_costs", {}).get(bottom)
    sec = next(
        (s for i in range(D.MAT_SECTIONS) if (s := section_of(pl, i)) and s["bottom"] == bottom),
        None,
    )
    res = sec["resource"] if sec else ""
    cheaper = f"; {bottom} {cost} -> {int(cost) - 1} {res}" if cost is not None else ""
    return f"{box['id']} {box['base']} -> {box['upgraded']}{cheaper}"


def _build_hint(obs: JSON, action: Build, seat: int | None) -> str:
    struct = D.STRUCTURES[action.structure]
    top = next((t for t, s in D.STRUCTURE_FOR_TOP.items() if s == action.structure), "")
    bonus = D.STRUCTURE_BONUS.get(struct)
    if bonus:
        effect = ", ".join(gain_text(k, v) for k, v in bonus.items()) + f" when you {top}"
    elif struct == "mine":
        effect = "a tunnel for your moves"
    elif struct == "mill":
        effect = "produces there like a worker"
    else:
        effect = f"({top})"
    return f"{struct} on {_terrain(action.loc)}: {effect}"


def _fight_hint(obs: JSON, pl: JSON, loc: int) -> str:
    seat = obs.get("seat")
    entry = obs.get("board", {}).get(D.LOC_NAMES[loc], {})
    foes = []
    for s, u in sorted(entry.get("units", {}).items(), key=lambda kv: int(kv[0])):
        if seat is None or int(s) != seat:
            other: JSON = next(
                (p for p in obs.get("player_state", []) if p.get("seat") == int(s)), {}
            )
            foes.append(
                f"P{s} {units_text(u)} (power {other.get('power', '?')}, "
                f"{other.get('combat_cards', '?')} cards)"
            )
    mine = f"you: power {pl.get('power', '?')}, {pl.get('combat_cards', '?')} cards"
    return f"vs {', '.join(foes) or 'nobody'}; {mine}"


def _encounter_hint(obs: JSON, action: EncounterOption) -> str:
    enc = obs.get("encounter") or {}
    options = enc.get("options", [])
    if not 1 <= action.slot <= len(options):
        return ""
    option = options[action.slot - 1]
    text = option_text(option)
    parts = declinable(option["benefit"])
    if parts and not action.decline:
        text += f" (part: option {action.slot} decline {parts[-1]})"
    return text


__all__ = [
    "ABILITY_TEXT",
    "benefit_text",
    "cell_lines",
    "cost_text",
    "describe",
    "draw_map",
    "factory_text",
    "map_legend",
    "objective_text",
    "tile_text",
]
