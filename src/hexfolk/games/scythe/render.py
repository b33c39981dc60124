"""Readable text of a Scythe observation (terminal play, golden playthroughs).

Built from the observation and the public data tables only: a header, the board map
(:func:`hexfolk.games.scythe.display.draw_map`), a table of every player's public mat state,
the viewer's own mat section by section, the viewer's cards and objectives, the structure
bonus tile, the card or combat under way, the prompt and the recent log. Lines stay within
about 125 columns.
"""

from __future__ import annotations

import textwrap
from typing import Any

from hexfolk.games.scythe import data as D
from hexfolk.games.scythe.display import (
    ability_text,
    bottom_exhausted,
    draw_map,
    factory_text,
    gain_text,
    map_legend,
    objective_text,
    option_text,
    produce_cost,
    section_of,
    tile_text,
    top_text,
    track_cost_text,
    units_text,
)
from hexfolk.games.scythe.ended_by import ended_by_text
from hexfolk.games.scythe.log_forms import and_list, cards_words, winners_words
from hexfolk.games.scythe.territory_labels import LABELS

JSON = dict[str, Any]


def _label(loc: str) -> str:
    """A place of the observation (its board id) by its board label (``G4``)."""
    return LABELS.label("territory", loc)


LOG_LINES = 6
WIDTH = 124  # text lines are wrapped to this width (the map is narrower)


def _wrap(lines: list[str]) -> list[str]:
    out = []
    for line in lines:
        if len(line) <= WIDTH:
            out.append(line)
            continue
        indent = " " * (len(line) - len(line.lstrip()) + 4)
        out += textwrap.wrap(line, WIDTH, subsequent_indent=indent, break_on_hyphens=False)
    return out


def _header(obs: JSON) -> str:
    seat = obs.get("seat")
    me = "spectator" if seat is None else f"you are P{seat}"
    current = obs.get("current")
    who = f"P{current} to move" if isinstance(current, int) and current >= 0 else ""
    if obs.get("phase") == "over":
        who = "game over"
    parts = [f"Scythe - turn {obs['turn']}", who, f"phase {obs['phase']}", me]
    return " | ".join(p for p in parts if p)


def _players_table(obs: JSON) -> list[str]:
    seat = obs.get("seat")
    order = obs.get("order") or []
    head = (
        f"{'seat':<8} {'faction':<8} {'mat':<12} {'power':>5} {'pop':>4} {'coins':>5} "
        f"{'stars':>5} {'cards':>5} {'obj':>3} {'workers':>7} {'mechs':>5} {'build':>5} "
        f"{'upgr':>4} {'recr':>4} {'factory':>7} {'last':>4}"
    )
    lines = [head]
    details = []
    for pl in obs.get("player_state", []):
        q = pl["seat"]
        tag = f"P{q}" + (" you" if q == seat else "") + ("*" if obs.get("current") == q else "")
        faction = pl.get("faction") or "?"
        mat = pl.get("mat") or "?"
        if "power" not in pl:
            lines.append(f"{tag:<8} {faction:<8} {mat:<12}")
            continue
        last = pl.get("last_section")
        if last == D.FACTORY_SECTION + 1:
            last_text = "fact"
        else:
            last_text = str(last) if last is not None else "-"
        factory = pl.get("factory_card")
        lines.append(
            f"{tag:<8} {faction:<8} {mat:<12} {pl['power']:>5} {pl['popularity']:>4} "
            f"{pl['coins']:>5} {pl['star_total']:>3}/{D.STARS_TO_END} {pl['combat_cards']:>5} "
            f"{pl['objectives']:>3} {pl['workers_out']:>5}/{D.WORKERS_TOTAL} "
            f"{len(pl['mechs']):>3}/{D.MECHS} {len(pl['structures']):>3}/{len(D.STRUCTURES)} "
            f"{len(pl['upgrades']):>2}/{len(D.TOP_BOXES)} "
            f"{len(pl['recruits']):>2}/{len(D.BOTTOM_ACTIONS)} "
            f"{factory if factory is not None else '-':>7} {last_text:>4}"
        )
        bits = []
        if pl["stars"]:
            bits.append("stars " + ", ".join(f"{k} {v}" for k, v in pl["stars"].items()))
        if pl["mechs"]:
            bits.append("mechs " + ", ".join(pl["mechs"]))
        if pl["structures"]:
            bits.append("built " + ", ".join(f"{k} {v}" for k, v in pl["structures"].items()))
        if pl["recruits"]:
            bits.append("recruits " + ", ".join(pl["recruits"]))
        if pl["upgrades"]:
            bits.append("upgraded " + ", ".join(pl["upgrades"]))
        if bits:
            details.append(f"  P{q}: " + "; ".join(bits))
    if order:
        lines.append("  clockwise: " + " ".join(f"P{q}" for q in order) + "   (* = to move)")
    return lines + details


def _own_mat(obs: JSON, pl: JSON) -> list[str]:
    """The viewer's mat: every section's top and bottom action as they stand now."""
    mat = pl.get("mat")
    now = obs.get("section") if obs.get("active") == pl.get("seat") else None
    if mat not in D.MAT_INDEX or "power" not in pl:
        return []
    last = pl.get("last_section")
    used = f"; section {last} was used last turn" if last in range(1, D.MAT_SECTIONS + 1) else ""
    lines = [
        f"Your mat: {mat}{used}",
        f"  # {'top action (cost: gain)':<48}| {'bottom action: cost +coins':<30}| cubes | recruit",
    ]
    for i in range(D.MAT_SECTIONS):
        sec = section_of(pl, i)
        assert sec is not None
        bottom = sec["bottom"]
        cost = pl["bottom_costs"].get(bottom, sec["cost"])
        slots = sec["cost"] - sec["min"]
        cubes = pl["cubes"].get(bottom, 0)
        recruit = "enlisted" if bottom in pl["recruits"] else "-"
        note = bottom_exhausted(pl, bottom)
        used = "  <- last turn (unavailable)" if last == i + 1 else ""
        if now == i + 1:
            used = "  <- this turn"
        top = f"{sec['top']}: {top_text(sec['top'], pl)}"
        bot = f"{bottom} {cost} {sec['resource']} +${sec['coins']}"
        if note:
            bot += f" ({note})"
        lines.append(f"  {i + 1} {top:<48}| {bot:<30}| {cubes}/{slots}   | {recruit}{used}")
    track = "  ".join(f"{m}+: {track_cost_text(c)}" for m, c in D.PRODUCE_TRACK if c)
    now = track_cost_text(produce_cost(int(pl["workers_out"])))
    lines.append(f"  produce track: {pl['workers_out']} workers out -> {now} now  ({track})")
    free = [
        f"{s['id']} " + ", ".join(gain_text(k, v) for k, v in s["gain"].items())
        for s in D.ENLIST_SPACES
        if s["id"] not in pl["enlist_spaces_used"]
    ]
    if free:
        lines.append("  enlist one-time bonuses left: " + "; ".join(free))
    faction = pl.get("faction")
    if faction in D.FACTION_INDEX:
        f = D.FACTIONS[D.FACTION_INDEX[faction]]
        mechs = ", ".join(m + ("*" if m in pl["mechs"] else "") for m in f["mech_abilities"])
        lines.append(
            f"  ability {f['ability']}: {ability_text(f['ability'], faction)}; "
            f"mechs (* out): {mechs}"
        )
    return lines


def _other_mats(obs: JSON) -> list[str]:
    seat = obs.get("seat")
    out = []
    for pl in obs.get("player_state", []):
        if pl["seat"] == seat or pl.get("mat") not in D.MAT_INDEX or "power" not in pl:
            continue
        parts = []
        for i in range(D.MAT_SECTIONS):
            sec = section_of(pl, i)
            assert sec is not None
            cost = pl["bottom_costs"].get(sec["bottom"], sec["cost"])
            mark = "x" if pl.get("last_section") == i + 1 else str(i + 1)
            parts.append(f"{mark} {sec['top']}/{sec['bottom']} {cost}{sec['resource'][0]}")
        out.append(f"P{pl['seat']} mat {pl['mat']}: " + "  ".join(parts) + "  (x = last used)")
    return out


def _cards(obs: JSON, pl: JSON) -> list[str]:
    lines = []
    if "hand" in pl:
        hand = " ".join(str(v) for v in pl["hand"]) or "none"
        lines.append(f"Your combat cards: {hand}")
    for holder, values in sorted((obs.get("known_cards") or {}).items()):
        lines.append(f"You know P{holder} holds: {' '.join(str(v) for v in values)}")
    for number in pl.get("objective_cards", []):
        lines.append(f"Your objective {objective_text(number)}")
    if pl.get("discarded_objectives"):
        lines.append(
            "Your discarded objectives: " + " ".join(str(n) for n in pl["discarded_objectives"])
        )
    card = pl.get("factory_card")
    if card is not None:
        lines.append(f"Your Factory card {card}: {factory_text(card)}")
    for number in obs.get("factory_offer_cards") or []:
        lines.append(f"Factory offer card {number}: {factory_text(number)}")
    return lines


def _public(obs: JSON) -> list[str]:
    lines = []
    if obs.get("tile"):
        lines.append(f"Structure bonus tile: {tile_text(obs['tile'])}")
    for number in obs.get("revealed_objectives", []):
        lines.append(f"Revealed objective {objective_text(number)}")
    discard = obs.get("combat_discard") or {}
    deck = obs.get("encounter_deck") or {}
    lines.append(
        f"Combat deck {obs.get('combat_deck', 0)}, discard "
        + (" ".join(f"{k}x{v}" for k, v in discard.items()) or "none")
        + f"; encounter deck {deck.get('unknown', 0) + len(deck.get('bottom', []))}"
        + f"; Factory offer {obs.get('factory_offer', 0)}"
    )
    return lines


def _under_way(obs: JSON) -> list[str]:
    lines = []
    sel = obs.get("selected")
    if sel:
        carry = sel.get("carrying") or {}
        what = ", ".join(f"{v} {k}" for k, v in carry.items() if v) or "nothing"
        lines.append(f"Moving: {sel['kind']} on {_label(sel['at'])}, carrying {what}")
    if obs.get("combats"):
        lines.append("Combats to resolve: " + " ".join(obs["combats"]))
    combat = obs.get("combat")
    if combat:
        view = combat.get("commitments") or {}
        lines.append(
            f"Combat on {_label(combat['territory'])}: P{combat['attacker']} attacks "
            f"P{combat['defender']}" + (f"; {commitments_words(view)}" if view else "")
        )
    enc = obs.get("encounter")
    if enc:
        lines.append(f"Encounter card {enc['card']} on {_label(enc['territory'])}:")
        for k, option in enumerate(enc["options"], start=1):
            done = " (chosen)" if k in enc.get("chosen", []) else ""
            lines.append(f"  option {k}: {option_text(option)}{done}")
    if obs.get("pending_gains"):
        parts = []
        for g in obs["pending_gains"]:
            if g[0] == "res":
                parts.append(f"{g[1]} resources of any kind")
            elif g[0] == "act":
                parts.append(" or ".join(g[1]))
            elif g[0] == "put":
                parts.append(f"{g[2]} {D.RESOURCES[g[1]]}")
            elif g[0] == "worker":
                parts.append(f"{g[1]} worker(s)")
            elif g[0] == "produce":
                parts.append(f"Produce on up to {g[1]} territories")
            else:
                parts.append(str(g[0]))
        lines.append("Gains to take: " + "; ".join(parts))
    result = obs.get("result")
    if result:
        stated = {"ended_by": result.get("ended_by"), "end_reason": result.get("reason", "")}
        why = ended_by_text(stated)
        lines.append(
            f"Game over ({why}): " + winners_words(winners_of(result.get("returns") or []))
        )
        for q, row in enumerate(result.get("breakdown") or []):
            lines.append(f"  P{q}: {breakdown_words(row)}")
    return lines


def commitments_words(view: JSON) -> str:
    """SR-43 C2 as a sentence: who has committed (never what, except to the committer)."""
    seats = [int(q) for q in view.get("seats", [])]
    done = [int(q) for q in view.get("committed", [])]
    waiting = [f"P{q}" for q in seats if q not in done]
    parts = []
    if done:
        parts.append(and_list([f"P{q}" for q in done]) + (" has" if len(done) == 1 else " have"))
        parts[-1] += " committed"
    if waiting:
        parts.append("waiting for " + and_list(waiting))
    values = view.get("values") or {}
    for q, value in values.items():
        parts.append(f"P{q} revealed {_commitment_words(value)}")
    own = view.get("own")
    if own is not None:
        parts.append(f"you committed {_commitment_words(own)}")
    return "; ".join(parts)


def _commitment_words(value: Any) -> str:
    dial, cards = value
    return f"dial {dial} and {cards_words(list(cards))}"


def winners_of(returns: list[float]) -> list[int]:
    """The seats with the best return (OQ-16: a shared win splits it); none before the end."""
    best = max(returns, default=0.0)
    return [q for q, r in enumerate(returns) if r == best and r > 0]


def breakdown_words(row: JSON) -> str:
    """SR-53..SR-56: one player's fortune, item by item, then the tie-breakers (SR-56)."""
    items = [
        f"${row['coins']} in coins",
        f"${row['star_coins']} for {row['stars']} stars",
        f"${row['territory_coins']} for {row['territories']} territories",
        f"${row['resource_coins']} for {row['resources']} resources",
        f"${row['tile_coins']} from the structure bonus",
    ]
    return (
        f"fortune ${row['fortune']} = "
        + " + ".join(items)
        + f"; popularity {row['popularity']}, power {row['power']}, "
        + f"{row['units_and_structures']} workers, mechs and structures"
    )


def render_summary(summary: JSON) -> str:
    """The end-of-game statistics (``State.summary()``, or the part of it a caller passes on)
    in sentences: who won, why the game ended, every player's fortune item by item."""
    factions = summary.get("factions") or []
    mats = summary.get("mats") or []

    def who(q: int) -> str:
        f = factions[q] if q < len(factions) and factions[q] else None
        m = mats[q] if q < len(mats) and mats[q] else None
        named = ", ".join(x for x in (f and f.capitalize(), m and f"{m} mat") if x)
        return f"P{q} ({named})" if named else f"P{q}"

    lines = []
    reason = ended_by_text(summary)
    turns = f" after {summary['turns']} turns" if "turns" in summary else ""
    if reason:
        lines.append(f"The game ended{turns}: {reason}.")
    elif "end_reason" in summary:
        lines.append(f"The game has not ended{turns}.")
    if "winners" in summary:
        winners = [int(q) for q in summary["winners"] or []]
        won = winners_words(winners)
        lines.append(won[:1].upper() + won[1:] + ".")
    scores = summary.get("scores") or []
    breakdown = summary.get("breakdown") or []
    for q in range(max(len(scores), len(breakdown), len(factions))):
        if q < len(breakdown):
            lines.append(f"{who(q)}: {breakdown_words(breakdown[q])}")
        elif q < len(scores):
            lines.append(f"{who(q)}: fortune ${scores[q]:g}")
        else:
            lines.append(who(q))
    return "\n".join(lines)


def render(obs: JSON) -> str:
    """The full text of ``obs`` (a ScytheState observation) for a person."""
    seat = obs.get("seat")
    me: JSON = next((p for p in obs.get("player_state", []) if p.get("seat") == seat), {})
    lines = [_header(obs)]
    if obs.get("order"):
        lines += draw_map(obs)
        lines += map_legend()
    text: list[str] = []
    text += _players_table(obs)
    text += _own_mat(obs, me)
    text += _other_mats(obs)
    text += _cards(obs, me)
    if obs.get("order"):
        text += _public(obs)
    text += _under_way(obs)
    pr = obs.get("prompt")
    if pr:
        text.append(f"Prompt for P{pr['seat']}: {pr['text']}")
    log = obs.get("log") or []
    if log:
        text.append("Recent log:")
        text += [f"  | {entry}" for entry in log[-LOG_LINES:]]
    return "\n".join(lines + _wrap(text))


__all__ = ["breakdown_words", "commitments_words", "render", "render_summary", "units_text"]
