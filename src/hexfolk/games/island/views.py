"""What leaves an island state: per-seat observations, full state, statistics, sampled worlds,
and the text rendering of an observation."""

from __future__ import annotations

import random
from itertools import chain
from typing import TYPE_CHECKING, Any, TypeVar

from hexfolk.games.island.actions import bundle_text
from hexfolk.games.island.ascii_map import draw_board
from hexfolk.games.island.labels import labels
from hexfolk.games.island.log import fingerprinted
from hexfolk.games.island.maps import board_topology
from hexfolk.games.island.phases import DISCARD, NO_WIN_PHASES, OVER, PHASE_NAMES
from hexfolk.games.island.position import IslandPosition
from hexfolk.games.island.rules import (
    DEV_CARDS,
    DEV_NAMES,
    DICE_PIPS,
    DICE_TOTAL,
    NRES,
    RESOURCES,
)
from hexfolk.games.island.score import total_vp, visible_vp, vp_breakdown, vp_counts
from hexfolk.games.island.stats import GAIN_SOURCES, LOSS_SINKS
from hexfolk.games.island.words import (
    DEV_WORDS,
    and_list,
    cards_words,
    discards_words,
    hand_words,
    log_words,
    offer_words,
    tiles_of,
)

if TYPE_CHECKING:
    from hexfolk.core import Game

P = TypeVar("P", bound=IslandPosition)


JSON = dict[str, Any]


# A hand by name, written out as a dict display: it builds the dict in half the time of
# ``dict(zip(RESOURCES, hand))`` (an observation writes three: its own hands and the bank);
# the checks below keep the names those of RESOURCES and DEV_NAMES, in their order.
def _hand_json(hand: list[int]) -> dict[str, int]:
    lumber, brick, wool, grain, ore = hand
    return {"lumber": lumber, "brick": brick, "wool": wool, "grain": grain, "ore": ore}


def _dev_json(dev: list[int]) -> dict[str, int]:
    knight, vp, roads, plenty, monopoly = dev
    return {"knight": knight, "vp": vp, "roads": roads, "plenty": plenty, "monopoly": monopoly}


assert list(_hand_json(list(range(NRES))).items()) == list(zip(RESOURCES, range(NRES)))
assert list(_dev_json([0, 1, 2, 3, 4]).items()) == list(zip(DEV_NAMES, range(5)))


def observation(st: IslandPosition, seat: int | None, *, log: bool = True) -> JSON:
    """The view of ``seat`` (None: spectator), as plain JSON (IR-74, table of section 14);
    ``log=False``: with an empty log (the kernel's ``State.observation``)."""
    over = st.phase == OVER
    hands, dev_cards, dev_bought, knights = st.hands, st.dev_cards, st.dev_bought, st.knights
    road_length, roads_left = st.road_length, st.roads_left
    settlements_left, cities_left, decline_all = st.settlements_left, st.cities_left, st.decline_all
    players = []
    for p in range(st.n):
        visible = visible_vp(st, p)
        info: JSON = {
            "seat": p,
            "cards": sum(hands[p]),
            "dev_cards": sum(dev_cards[p]),
            "dev_bought_this_turn": sum(dev_bought[p]),
            "knights": knights[p],
            "visible_vp": visible,
            "road_length": road_length[p],
            "roads_left": roads_left[p],
            "settlements_left": settlements_left[p],
            "cities_left": cities_left[p],
        }
        if decline_all >> p & 1:
            info["declines_offers"] = True
        if over or p == seat:  # IR-7: everything is revealed at the end
            info["hand"] = _hand_json(hands[p])
            info["dev_hand"] = _dev_json(dev_cards[p])
            info["vp"] = total_vp(st, p, visible)
        players.append(info)
    # the pieces, by node or edge: from each seat's few pieces, not a walk over the board
    owner, level, edge_owner = st.node_owner, st.node_level, st.edge_owner
    settlements: list[list[int]] = []
    cities: list[list[int]] = []
    nodes, edges = pieces_order(st)
    for v in nodes:  # one walk over the sorted nodes splits both kinds
        if level[v] == 1:
            settlements.append([v, owner[v]])
        elif level[v] == 2:
            cities.append([v, owner[v]])
    acting = st.acting_seats()
    to_move = st.current_player()
    # an acting seat beside the one the sequential walk names sees its own decision (for the
    # seat the walk names, prompt_for is prompt)
    if seat is not None and seat != to_move and seat in acting:
        prompt = st.prompt_for(seat)
    else:
        prompt = st.prompt()
    obs: JSON = {
        "game": "island",
        "seat": seat,
        "phase": PHASE_NAMES[st.phase],
        "turn": st.turn,
        "active": st.active,
        "to_move": to_move if to_move >= 0 else None,
        "prompt": prompt.to_json() if prompt else None,
        "acting": acting,
        "board": _board_view(st),
        "settlements": settlements,
        "cities": cities,
        "roads": [[e, edge_owner[e]] for e in edges],
        "players": players,
        "bank": None if st.game.options["hide_bank"] else _hand_json(st.bank),
        "deck": sum(st.deck),
        "longest_road": st.longest_road,
        "largest_army": st.largest_army,
        "offers": [o.to_json() for o in st.offers],
        "discards": None if st.discards is None else _discard_view(st, seat),
        "winner": st.winner if over else None,
        "log": st.visible_log(seat) if log else [],
    }
    return obs


def pieces_order(st: IslandPosition) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The nodes with a building and the edges with a road, each sorted (the views list the
    pieces by node and edge), kept in ``build_cache`` until a piece is placed."""
    left = (sum(st.roads_left), sum(st.settlements_left))
    hit = st.build_cache.get(-1)
    if hit is not None and hit[0] == left:
        return hit[1]
    order = (
        tuple(sorted(chain.from_iterable(st.buildings))),
        tuple(sorted(chain.from_iterable(st.roads))),
    )
    st.build_cache[-1] = (left, order)
    return order


def _board_view(st: IslandPosition) -> JSON:
    """The board: ``map`` (``hex19``/``hex30``/``hex44`` or a map id), the engine ``layout``
    text (by engine hex id), the robber's hex; on a map also ``island``, the drawn island
    with coordinates, lakes and coastline (``maps.layout_text``: Driftland's geometry)."""
    board: JSON = {
        "map": st.game.board_id,
        "layout": st.layout_tables.layout_text if st.layout_tables else None,
        "robber": st.robber,
    }
    if st.game.map is not None:
        board["island"] = st.island
    return board


def _discard_view(st: IslandPosition, seat: int | None) -> JSON | None:
    c = st.discards
    if c is None:
        return None
    out: JSON = {
        "seats": list(c.seats),
        "need": {str(q): st.discard_need[q] for q in c.seats},
        "committed": [q for q in c.seats if c.value_for(q) is not None],
    }
    if seat is not None and c.value_for(seat) is not None:
        out["own"] = bundle_text(c.value_for(seat))
    if seat is not None and st.phase == DISCARD and seat in c.seats and c.value_for(seat) is None:
        out["selected"] = bundle_text(st.discard_partial[seat])
    return out


def full_state(st: IslandPosition) -> JSON:
    """Every field, hidden ones included (hashing, debugging)."""
    n = st.n
    return {
        "phase": PHASE_NAMES[st.phase],
        "seat": st.seat,
        "active": st.active,
        "resume": PHASE_NAMES[st.resume],
        "turn": st.turn,
        "setup_index": st.setup_index,
        "setup_node": st.setup_node,
        "rolled": st.rolled,
        "dev_played": st.dev_played,
        "winner": st.winner,
        "layout": st.layout_tables.layout.text() if st.layout_tables else None,
        **({"island": st.island} if st.game.map is not None else {}),
        "robber": st.robber,
        "node_owner": st.node_owner,
        "node_level": st.node_level,
        "edge_owner": st.edge_owner,
        "bank": st.bank,
        "hands": st.hands,
        "dev": st.dev_cards,
        "dev_new": st.dev_bought,
        "deck": st.deck,
        "knights": st.knights,
        "pieces_left": [st.roads_left, st.settlements_left, st.cities_left],
        "road_length": st.road_length,
        "longest_road": st.longest_road,
        "largest_army": st.largest_army,
        "discards": None
        if st.discards is None
        else {
            "seats": list(st.discards.seats),
            "values": {str(q): list(st.discards.value_for(q) or ()) for q in st.discards.seats},
        },
        "discard_need": st.discard_need,
        "discard_partial": [list(x) for x in st.discard_partial],
        "steal": [st.thief, st.victim],
        "free_roads": st.free_roads,
        "offers": [o.to_json() for o in st.offers],
        "next_offer": st.next_offer,
        "decline_all": st.decline_all,
        "rejected": [[bundle_text(a), bundle_text(b)] for a, b in st.rejected],
        "sbp": [st.sbp_queue, st.sbp_joined],
        "deficit": [
            [o, p, list(d)]
            for i, d in enumerate(st.deficit)
            if d and any(d)
            for o, p in [divmod(i, n)]
        ],
        "log": fingerprinted(st.log_as_written()),
        "stats": st.stats,
    }


def summary(st: IslandPosition) -> JSON:
    """End-of-game statistics (IR-80); public (everything is revealed at the end)."""
    n = st.n
    dice = st.stat("dice")
    rolls = sum(dice)
    players = []
    for p in range(n):

        def one(name: str, p: int = p) -> int:
            return st.stat(name, p)[0]

        gain, loss, rolled = st.stat("gain", p), st.stat("loss", p), st.stat("rolls", p)
        maritime = st.stat("maritime", p)
        bought, played = st.stat("dev_bought", p), st.stat("dev_played", p)
        players.append(
            {
                "seat": p,
                "vp": total_vp(st, p),
                "vp_breakdown": vp_breakdown(st, p).to_json(),
                "vp_counts": vp_counts(st, p),
                "hand": _hand_json(st.hands[p]),
                "dev_hand": _dev_json(st.dev_cards[p]),
                "gained": {
                    name: _hand_json(gain[i * NRES : i * NRES + NRES])
                    for i, name in enumerate(GAIN_SOURCES)
                },
                "lost": {
                    name: _hand_json(loss[i * NRES : i * NRES + NRES])
                    for i, name in enumerate(LOSS_SINKS)
                },
                "blocked_by_robber": one("blocked"),
                "lost_to_shortage": one("shortage"),
                "rolls": {str(k): rolled[k] for k in range(2, 13)},
                "sevens": rolled[7],
                "robber_moves": one("robber_moves"),
                "steals_made": one("steals"),
                "steals_suffered": one("stolen_from"),
                "knights": st.knights[p],
                "offers": one("offers"),
                "counter_offers": one("counters"),
                "trades": one("trades"),
                "maritime_lots_by_ratio": {f"{k + 2}:1": maritime[k] for k in range(3)},
                "dev_bought": {DEV_CARDS[c]: bought[c] for c in range(5)},
                "dev_played": {DEV_CARDS[c]: played[c] for c in range(5)},
                "built": dict(zip(("roads", "settlements", "cities"), st.stat("built", p))),
                "road_length": st.road_length[p],
                "turns_with_longest_road": one("longest_road_turns"),
                "turns_with_largest_army": one("largest_army_turns"),
                "turns": one("turns"),
                "special_build_slots": one("sbp_slots"),
            }
        )
    return {
        "winner": st.winner if st.winner >= 0 else None,
        "scores": st.scores(),
        "turns": st.turn,
        "rounds": (st.turn + n - 1) // n,
        "dice": {
            str(k): {
                "rolled": dice[k],
                "expected": round(rolls * DICE_PIPS[k] / DICE_TOTAL, 2),
            }
            for k in range(2, 13)
        },
        "players": players,
    }


def sample_consistent_state(st: P, seat: int | None, rng: random.Random) -> P:
    """A world ``seat`` cannot tell from ``st``: unseen resource cards and others' development
    cards redrawn; everything the seat observed is kept."""
    n = st.n
    o = n if seat is None else seat
    w = st.clone()
    # 1. resource cards whose type the observer never saw (steals between others)
    pool: list[int] = []
    slots: list[tuple[int, int]] = []
    for p in range(n):
        d = st.deficit[o * n + p] if p != o else None
        if d and any(d):
            for r in range(NRES):
                pool.extend([r] * d[r])
            slots.append((p, sum(d)))
    if pool:
        rng.shuffle(pool)
        i = 0
        for p, k in slots:
            dealt = [0] * NRES
            for r in pool[i : i + k]:
                dealt[r] += 1
            i += k
            d = st.deficit[o * n + p]
            assert d is not None
            w.hands[p] = [st.hands[p][r] - d[r] + dealt[r] for r in range(NRES)]
            w.deficit[o * n + p] = tuple(dealt)
            w.uncertain[p] |= sum(1 << r for r in range(NRES) if dealt[r])
        for i2, dd in enumerate(w.deficit):
            if dd is not None:
                hand = w.hands[i2 % n]
                if any(dd[r] > hand[r] for r in range(NRES)):
                    w.deficit[i2] = tuple(min(dd[r], hand[r]) for r in range(NRES))
    # 2. hidden discard choices of other seats
    if st.discards is not None:
        old = st.discards
        w.discards = old.redrawn(
            o, lambda q, value: tuple(_sub_multiset(w.hands[q], sum(value), rng))
        )
        if st.phase == DISCARD:
            for q in old.seats:
                if q != o and old.value_for(q) is None and any(st.discard_partial[q]):
                    k = sum(st.discard_partial[q])
                    w.discard_partial[q] = tuple(_sub_multiset(w.hands[q], k, rng))
    # 3. other players' development cards, from the cards the observer has not seen
    others = [p for p in range(n) if p != o]
    unseen = list(st.deck)
    for p in others:
        for c in range(5):
            unseen[c] += st.dev_cards[p][c]
    cards = [c for c in range(5) for _ in range(unseen[c])]
    check_active = st.phase not in NO_WIN_PHASES and st.active != o
    target = st.game.options["vp_target"]
    for _attempt in range(50):
        rng.shuffle(cards)
        i = 0
        for p in others:
            k = sum(st.dev_cards[p])
            m = sum(st.dev_bought[p])
            hand = [0] * 5
            fresh = [0] * 5
            for j, c in enumerate(cards[i : i + k]):
                hand[c] += 1
                if j < m:
                    fresh[c] += 1
            i += k
            w.dev_cards[p] = hand
            w.dev_bought[p] = fresh
        deck = [0] * 5
        for c in cards[i:]:
            deck[c] += 1
        w.deck = deck
        if not check_active or total_vp(w, st.active) < target:
            break
    else:  # no sample kept the active player below the target: keep the cards as they are
        w.dev_cards = [x[:] for x in st.dev_cards]
        w.dev_bought = [x[:] for x in st.dev_bought]
        w.deck = st.deck[:]
    return w


def _sub_multiset(hand: list[int], k: int, rng: random.Random) -> list[int]:
    cards = [r for r in range(NRES) for _ in range(hand[r])]
    rng.shuffle(cards)
    out = [0] * NRES
    for r in cards[:k]:
        out[r] += 1
    return out


def _holder(seat: int) -> str:
    return f"seat {seat}" if seat >= 0 else "nobody"


def _dev_words(dev: JSON) -> str:
    parts = [
        f"{v} {DEV_WORDS_PLURAL.get(k, k)}" if v > 1 else DEV_WORDS[k] for k, v in dev.items() if v
    ]
    return and_list(parts) or "none"


DEV_WORDS_PLURAL = {
    "knight": "knights",
    "vp": "victory point cards",
    "roads": "road building cards",
    "plenty": "year of plenty cards",
    "monopoly": "monopoly cards",
}


def render(game: Game, obs: JSON) -> str:
    """Readable text of an observation, in sentences (issue 17: no raw data)."""
    lines = []
    seat = obs["seat"]
    who = "spectator" if seat is None else f"seat {seat}"
    lines.append(
        f"island [{who}] turn {obs['turn']} active seat {obs['active']} phase {obs['phase']}"
    )
    tiles = tiles_of(obs["board"]["layout"])
    if obs["board"]["layout"]:
        # the map shows hexes, tokens, the robber, buildings, roads and every id (ascii_map)
        lines.append(draw_board(obs))
    for pl in obs["players"]:
        dev = pl["dev_cards"]
        txt = (
            f"  seat {pl['seat']}: {cards_words(pl['cards'])}, {dev} development "
            f"card{'' if dev == 1 else 's'}, {pl.get('vp', pl['visible_vp'])} VP"
            f"{'' if 'vp' in pl else ' visible'}, road {pl['road_length']}, knights "
            f"{pl['knights']}; left: {pl['roads_left']} roads, {pl['settlements_left']} "
            f"settlements, {pl['cities_left']} cities"
        )
        if "hand" in pl:
            txt += (
                f" | hand: {hand_words(pl['hand'])} | development cards: "
                f"{_dev_words(pl['dev_hand'])}"
            )
        lines.append(txt)
    bank = obs["bank"]
    lines.append(
        ("bank: " + hand_words(bank, "no cards") if bank else "bank: hidden")
        + f" | deck {obs['deck']} | longest road {_holder(obs['longest_road'])} | "
        f"largest army {_holder(obs['largest_army'])}"
    )
    n = len(obs["players"])
    for off in obs["offers"]:
        lines.append(offer_words(off, obs["active"], n))
    if obs["discards"]:
        lines.extend("discards: " + d for d in discards_words(obs["discards"]))
    if obs["prompt"]:
        lines.append("prompt: " + obs["prompt"]["text"])
    if obs["winner"] is not None:
        lines.append(f"winner: seat {obs['winner']}")
    places = labels(board_topology(obs["board"])) if obs["board"]["layout"] else None
    for entry in obs["log"][-3:]:
        lines.append("log: " + log_words(entry, tiles, places))
    return "\n".join(lines)


_BREAKDOWN_WORDS = {
    "settlements": "settlements",
    "cities": "cities",
    "vp_cards": "victory point cards",
    "longest_road": "Longest Road",
    "largest_army": "Largest Army",
}


def _counts(items: JSON, names: dict[str, str] | None = None) -> str:
    parts = [f"{v} {(names or {}).get(k, k).replace('_', ' ')}" for k, v in items.items() if v]
    return and_list(parts) or "none"


def render_summary(summary: JSON) -> str:
    """Readable text of :func:`summary` (IR-80), in sentences (issue 17: no raw data)."""
    if not summary:
        return "no statistics"
    lines = []
    winner = summary.get("winner")
    lines.append(f"seat {winner} wins" if winner is not None else "nobody has won")
    # the commands print scores and turns themselves and pass the rest (replay, play)
    if "scores" in summary:
        scores = summary["scores"]
        lines.append("scores: " + ", ".join(f"seat {p} {v:g} VP" for p, v in enumerate(scores)))
    if "turns" in summary:
        lines.append(f"{summary['turns']} turns")
    if "rounds" in summary:
        lines.append(f"{summary['rounds']} rounds")
    dice = summary.get("dice") or {}
    if dice:
        lines.append(
            "dice rolled (expected): "
            + ", ".join(f"{k}: {d['rolled']} ({d['expected']})" for k, d in dice.items())
        )
    for pl in summary.get("players") or []:
        p = pl["seat"]
        worth = _counts(
            {f"from {_BREAKDOWN_WORDS.get(k, k)}": v for k, v in pl["vp_breakdown"].items()}
        )
        lines.append(f"seat {p}: {pl['vp']} VP ({worth})")
        lines.append(
            f"  holds {hand_words(pl['hand'])}; development cards: {_dev_words(pl['dev_hand'])}"
        )
        for label, key in (("gained", "gained"), ("lost", "lost")):
            parts = [
                f"{hand_words(cards)} by {how}"
                for how, cards in pl[key].items()
                if any(cards.values())
            ]
            lines.append(f"  {label}: " + ("; ".join(parts) or "nothing"))
        rolls = (
            ", ".join(f"{k} {v} time{'s' if v != 1 else ''}" for k, v in pl["rolls"].items() if v)
            or "none"
        )
        lines.append(
            f"  the robber blocked {cards_words(pl['blocked_by_robber'])} (IR-44); the bank "
            f"could not pay {cards_words(pl['lost_to_shortage'])} (IR-37); rolls: {rolls}"
        )
        lines.append(
            f"  robber moves {pl['robber_moves']}, steals made {pl['steals_made']}, steals "
            f"suffered {pl['steals_suffered']}, knights {pl['knights']}; offers {pl['offers']}, "
            f"counter-offers {pl['counter_offers']}, trades {pl['trades']}; maritime lots: "
            + _counts({f"at {k}": v for k, v in pl["maritime_lots_by_ratio"].items()})
        )
        lines.append(
            f"  development cards bought: {_counts(pl['dev_bought'])}; played: "
            f"{_counts(pl['dev_played'])}"
        )
        lines.append(
            f"  built: {_counts(pl['built'])}; road length {pl['road_length']}; turns "
            f"{pl['turns']}, with Longest Road {pl['turns_with_longest_road']}, with Largest "
            f"Army {pl['turns_with_largest_army']}; special build slots "
            f"{pl['special_build_slots']}"
        )
    return "\n".join(lines)


__all__ = [
    "full_state",
    "observation",
    "render",
    "render_summary",
    "sample_consistent_state",
    "summary",
]
