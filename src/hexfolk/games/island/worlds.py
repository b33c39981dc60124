"""Island worlds rebuilt from one seat's observation (``IslandGame.world_from_observation``).

A remote client (``hexfolk connect``) holds only ``observation(seat)``; a search bot needs full
states to search. :func:`world_from_observation` writes a position document
(:mod:`~.positions`) from what the observation shows and draws the rest at random, then loads
it with :func:`~.positions.load_position`, so the engine's invariants are checked.

What the observation does not carry is decided here (``docs/island.md``, "Worlds from an
observation"):

* other seats' hands: first the cards the seat knows they hold (:func:`known_cards`, followed
  through the visible log as a player at the table would), then the cards their open
  commitments show (the ``give`` of an open offer, the ``get`` of an offer accepted, the
  ``give`` of a counter-offer), the rest drawn from the cards nobody shows (each resource's
  cards minus the bank, when shown, minus the seat's own hand) by the seat's card count;
  ``unknown_cards`` names the cards beyond the known ones, so a search from the world redraws
  exactly those;
* development cards: the deck's composition minus the seat's own cards and the cards played
  (knights from the public counts, the others from the public log lines of the ``plays`` forms),
  dealt to the other seats by their counts (the first ``dev_bought_this_turn`` of them bought
  this turn), the rest in the deck; the seat's own cards bought this turn from its private log
  lines of form ``draws``, the newest ``dev_bought_this_turn`` of them (IR-61);
* the turn's flags from the log's forms and params (``docs/log.md``) since the last ``ends``:
  ``rolled`` (a ``rolls`` line of the active seat, or the phase), ``card_played`` (a
  ``knight``, ``road_building``, ``plenty`` or ``monopoly`` line of the active seat),
  ``resume`` (``main`` once rolled, else ``pre-roll``), ``free_roads`` (two minus the roads
  built since ``road_building``), the offers refused by every seat this turn (IR-51) and
  the next offer number (one past the highest ``offer`` param seen); the setup's counters from the
  pieces on the board;
* a 7's discards: another seat's committed discard, and the cards the prompt says it has
  chosen so far, are drawn from its drawn hand; the special
  build phase (5+ players): seats still to sign up are the acting ones, the seats that answered
  already are taken as having passed (a sign-up is secret until the window closes);
* buildings and roads are listed by node and edge id (the building order is not shown), the log
  is rebuilt as public lines (the seat's own private lines included: the world is the seat's
  own), and the statistics start at zero (the observation carries none).
"""

from __future__ import annotations

import random
from typing import Any

from hexfolk.core import LogLine, PositionError, State
from hexfolk.games.island.actions import bundle_text, parse_bundle
from hexfolk.games.island.position import IslandRules
from hexfolk.games.island.rules import (
    COST_CITY,
    COST_DEV,
    COST_ROAD,
    COST_SETTLEMENT,
    DEV_NAMES,
    KNIGHT,
    NRES,
    RESOURCES,
)

JSON = dict[str, Any]

_PLAYED = {"road_building": "roads", "plenty": "plenty", "monopoly": "monopoly"}
"""The development card each ``plays`` form names (a knight is counted apart)."""
_PLAYS = frozenset({"knight", *_PLAYED})


def _bundle(text: str) -> list[int]:
    return list(parse_bundle(text.split(), "an offer")) if text and text != "-" else [0] * NRES


def _counts(cards: dict[str, int]) -> list[int]:
    """A bundle param (``{"ore": 2}``) as counts by resource."""
    return [cards.get(r, 0) for r in RESOURCES]


def _form(line: Any) -> str:
    """The form of a log line (``text`` for an old document's line, which carries none)."""
    return getattr(line, "form", "text")


def _this_turn(log: list[LogLine]) -> list[LogLine]:
    """The log lines since the last ``ends`` (the whole log during the setup)."""
    for i in range(len(log) - 1, -1, -1):
        if _form(log[i]) == "ends":
            return log[i + 1 :]
    return list(log)


def _played_cards(log: list[LogLine], n: int) -> list[list[int]]:
    """Per seat, the non-knight development cards its public ``plays`` lines name."""
    played = [[0] * len(DEV_NAMES) for _ in range(n)]
    for line in log:
        card = _PLAYED.get(_form(line))
        if card is not None:
            played[line.params["seat"]][DEV_NAMES.index(card)] += 1
    return played


_BUILD_COST = {"settlement": COST_SETTLEMENT, "city": COST_CITY, "road": COST_ROAD}
"""What the ``settlement``, ``city`` and ``road`` lines cost their seat."""


def known_cards(log: list[LogLine], seat: int, n: int) -> list[list[int]]:
    """Per seat, the cards ``seat`` knows it holds for certain (a lower bound per resource),
    followed through the seat's visible log as a player at the table would: production, the
    setup's cards, trades with the bank and between seats, builds and purchases at their cost,
    discards, Year of Plenty and Monopoly are public; a steal between two other seats takes
    one card of any kind from the victim (each kind it was known to hold may be one fewer);
    a steal the seat took part in names the card (its private log line)."""
    known = [[0] * NRES for _ in range(n)]

    def gain(p: int, cards: list[int] | tuple[int, ...]) -> None:
        known[p] = [a + b for a, b in zip(known[p], cards)]

    def spend(p: int, cards: list[int] | tuple[int, ...]) -> None:
        known[p] = [max(0, a - b) for a, b in zip(known[p], cards)]

    free_roads = 0
    for i, line in enumerate(log):
        form = _form(line)
        if form == "text":
            continue
        x = line.params
        if form == "receives":
            gain(x["seat"], _counts(x["cards"]))
        elif form == "production":
            for part in x["paid"]:
                gain(part["seat"], _counts(part["cards"]))
        elif form == "trade_with":
            p, q, give, get = x["seat"], x["partner"], _counts(x["give"]), _counts(x["get"])
            spend(p, give)
            gain(p, get)
            spend(q, get)
            gain(q, give)
        elif form == "trade":
            spend(x["seat"], _counts(x["give"]))
            gain(x["seat"], _counts(x["get"]))
        elif form == "road_building":
            free_roads = 2
        elif form in _BUILD_COST:
            if form == "road" and free_roads:
                free_roads -= 1
            else:
                spend(x["seat"], _BUILD_COST[form])
        elif form == "buys":
            spend(x["seat"], COST_DEV)
        elif form == "discards":
            spend(x["seat"], _counts(x["cards"]))
        elif form == "plenty":
            gain(x["seat"], _counts(x["cards"]))
        elif form == "monopoly":
            r, p = RESOURCES.index(x["resource"]), x["seat"]
            own = known[p][r]
            for q in range(n):
                known[q][r] = 0
            known[p][r] = own + x["count"]
        elif form == "steals":
            thief, victim = x["seat"], x["victim"]
            named = log[i + 1] if i + 1 < len(log) else None
            if (
                named is not None
                and _form(named) == "stole"
                and (named.params["seat"], named.params["victim"]) == (thief, victim)
            ):
                card = [0] * NRES
                card[RESOURCES.index(named.params["resource"])] = 1
                spend(victim, card)
                gain(thief, card)
            else:
                known[victim] = [max(0, a - 1) for a in known[victim]]
        elif form == "ends":
            free_roads = 0
    return known


def _needs(obs: JSON, n: int) -> list[list[int]]:
    """Per seat, the cards its open commitments show it holds (offers, acceptances, counters)."""
    need = [[0] * NRES for _ in range(n)]

    def at_least(p: int, cards: list[int]) -> None:
        need[p] = [max(a, b) for a, b in zip(need[p], cards)]

    active = obs["active"]
    for offer in obs["offers"]:
        at_least(active, _bundle(offer["give"]))
        for key, answer in offer.get("answers", {}).items():
            if answer == "accept":
                at_least(int(key), _bundle(offer["get"]))
            elif isinstance(answer, dict) and "counter" in answer:
                at_least(int(key), _bundle(answer["counter"]["give"]))
    return need


def _deal_hands(
    obs: JSON, seat: int, n: int, bank_size: int, rng: random.Random
) -> tuple[list[list[int]], list[int], list[list[int]]]:
    """Every seat's hand, the bank, and per seat the cards of its hand ``seat`` cannot know
    (the seat's own as shown; the others' known cards, then the rest drawn)."""
    players = obs["players"]
    own = [players[seat]["hand"][r] for r in RESOURCES]
    shown_bank = obs["bank"]
    pool = [bank_size - own[i] for i in range(NRES)]
    if shown_bank is not None:
        pool = [pool[i] - shown_bank[r] for i, r in enumerate(RESOURCES)]
    need = _needs(obs, n)
    certain = known_cards(obs["log"], seat, n)
    hands: list[list[int]] = [[0] * NRES for _ in range(n)]
    hands[seat] = own
    others = [p for p in range(n) if p != seat]
    for p in others:
        if "hand" in players[p]:  # the game is over: every hand is shown (IR-7)
            hands[p] = [players[p]["hand"][r] for r in RESOURCES]
            pool = [a - b for a, b in zip(pool, hands[p])]
    for p in others:  # the followed cards, then what open commitments show (an old offer's
        # answer may no longer be covered: as far as the count allows)
        if "hand" not in players[p]:
            room = players[p]["cards"]
            for wanted in (certain[p], need[p]):
                for r in range(NRES):
                    k = max(0, min(wanted[r] - hands[p][r], pool[r], room))
                    hands[p][r] += k
                    pool[r] -= k
                    room -= k
    if any(x < 0 for x in pool):
        raise PositionError("the shown hands and bank hold more cards than the game has")
    cards = [r for r in range(NRES) for _ in range(pool[r])]
    rng.shuffle(cards)
    for p in others:
        missing = players[p]["cards"] - sum(hands[p])
        if missing < 0 or missing > len(cards):
            raise PositionError(f"seat {p}'s card count does not fit the unseen cards")
        for r in cards[:missing]:
            hands[p][r] += 1
        cards = cards[missing:]
    if shown_bank is not None:
        bank = [shown_bank[r] for r in RESOURCES]
        if cards:
            raise PositionError("the unseen cards do not add up to the hands' counts")
    else:  # IR-10 with a hidden bank: what no hand holds is in the bank
        bank = [bank_size - sum(h[r] for h in hands) for r in range(NRES)]
    unknown = [
        [max(0, h - c) for h, c in zip(hands[p], certain[p])]
        if p != seat and "hand" not in players[p]
        else [0] * NRES
        for p in range(n)
    ]
    return hands, bank, unknown


def _deal_dev(
    game: IslandRules, obs: JSON, seat: int, n: int, rng: random.Random
) -> tuple[list[list[int]], list[list[int]], list[int]]:
    """Development cards: per seat held and bought this turn, and the deck."""
    players = obs["players"]
    log: list[LogLine] = obs["log"]
    own = [players[seat]["dev_hand"][c] for c in DEV_NAMES]
    played = _played_cards(log, n)
    pool = [game.deck[c] - own[c] - sum(pl[c] for pl in played) for c in range(len(DEV_NAMES))]
    pool[KNIGHT] -= sum(pl["knights"] for pl in players)
    held = [[0] * len(DEV_NAMES) for _ in range(n)]
    fresh = [[0] * len(DEV_NAMES) for _ in range(n)]
    held[seat] = own
    drawn = [
        DEV_NAMES.index(line.params["card"])
        for line in log
        if _form(line) == "draws" and line.params["seat"] == seat
    ]
    new = players[seat]["dev_bought_this_turn"]  # IR-61: the newest draws are the new cards
    for c in drawn[len(drawn) - new :] if new else []:
        fresh[seat][c] += 1
    fresh[seat] = [min(a, b) for a, b in zip(fresh[seat], own)]
    over = "dev_hand" in players[(seat + 1) % n]
    if over:
        for p in range(n):
            held[p] = [players[p]["dev_hand"][c] for c in DEV_NAMES]
        pool = [pool[c] - sum(held[p][c] for p in range(n) if p != seat) for c in range(5)]
    if any(x < 0 for x in pool):
        raise PositionError("the log's played cards do not fit the development deck (IR-10)")
    cards = [c for c in range(len(DEV_NAMES)) for _ in range(pool[c])]
    rng.shuffle(cards)
    if not over:
        for p in range(n):
            if p == seat:
                continue
            k, m = players[p]["dev_cards"], players[p]["dev_bought_this_turn"]
            if k > len(cards):
                raise PositionError(f"seat {p} holds more development cards than are unseen")
            for j, c in enumerate(cards[:k]):
                held[p][c] += 1
                if j < m:
                    fresh[p][c] += 1
            cards = cards[k:]
    if len(cards) != obs["deck"]:
        raise PositionError(
            f"{len(cards)} development cards are unseen; the observation's deck has {obs['deck']}"
        )
    deck = [cards.count(c) for c in range(len(DEV_NAMES))]
    return held, fresh, deck


def _turn(obs: JSON, n: int) -> JSON:
    log = _this_turn(obs["log"])
    active, phase = obs["active"], obs["phase"]
    rolled = any(_form(line) == "rolls" and line.params["seat"] == active for line in log)
    if phase in ("pre-roll", "dice"):
        rolled = False
    elif phase == "main":
        rolled = True
    card_played = any(_form(line) in _PLAYS and line.params["seat"] == active for line in log)
    roads = len(obs["roads"])
    setup = phase in ("layout", "setup-settlement", "setup-road")
    setup_node = -1
    for line in obs["log"]:
        if _form(line) == "settles":
            setup_node = line.params["node"]
    return {
        "phase": phase,
        "seat": -1 if obs["to_move"] is None else obs["to_move"],
        "active": active,
        "resume": "main" if rolled else "pre-roll",
        "number": obs["turn"],
        "rolled": rolled,
        "card_played": card_played,
        "setup_index": min(roads, 2 * n) if setup else 2 * n,
        "setup_settlement": setup_node,
        "winner": obs["winner"],
    }


def _free_roads(obs: JSON) -> int:
    if obs["phase"] != "road-building":
        return 0
    log = _this_turn(obs["log"])
    for i in range(len(log) - 1, -1, -1):
        line = log[i]
        if _form(line) == "road_building" and line.params["seat"] == obs["active"]:
            built = sum(1 for later in log[i + 1 :] if _form(later) == "road")
            return max(1, 2 - built)
    return 2


def _offers_refused(obs: JSON) -> tuple[list[list[str]], int]:
    """IR-51: the offers refused by every seat this turn, and the next offer number."""
    made: dict[str, tuple[str, str]] = {}
    refused: list[list[str]] = []
    top = max([o["id"] for o in obs["offers"]], default=0)
    for line in obs["log"]:
        if "offer" in getattr(line, "params", ()):
            top = max(top, line.params["offer"])
    active = obs["active"]
    for line in _this_turn(obs["log"]):
        form = _form(line)
        if form == "offers" and line.params["seat"] == active:
            x = line.params
            made[x["offer"]] = (
                bundle_text(tuple(_counts(x["give"]))),
                bundle_text(tuple(_counts(x["get"]))),
            )
            continue
        if (
            form in ("rejected_all", "withdraws")
            and line.params.get("seat", active) == active
            and line.params["offer"] in made
            and (form == "rejected_all" or not _answered(obs["log"], line.params["offer"]))
        ):
            give, get = made[line.params["offer"]]
            refused.append([give, get])
    return refused, top + 1


def _answered(log: list[LogLine], offer_id: int) -> bool:
    """Whether a seat accepted or countered offer ``#offer_id`` (a withdrawn offer nobody took
    up counts as refused, IR-51)."""
    for line in log:
        if (
            _form(line) == "answers"
            and line.params["offer"] == offer_id
            and any(a["answer"] in ("accepts", "counters") for a in line.params["answers"])
        ):
            return True
    return False


def _special_build(obs: JSON, n: int) -> JSON:
    phase = obs["phase"]
    if phase == "sbp-signup":
        return {"to_answer": list(obs["acting"]), "joined": []}
    if phase == "sbp-build":
        log = _this_turn(obs["log"])
        joined = [line.params["seat"] for line in log if _form(line) == "sbp_join"]
        seat = obs["to_move"]
        if seat in joined:
            joined = joined[joined.index(seat) :]
        return {"to_answer": [], "joined": joined or [seat]}
    return {"to_answer": [], "joined": []}


def _some_of(hand: list[int], k: int, rng: random.Random) -> tuple[int, ...]:
    """``k`` cards of ``hand`` drawn at random, as counts by resource."""
    cards = [r for r in range(NRES) for _ in range(hand[r])]
    rng.shuffle(cards)
    pick = [0] * NRES
    for r in cards[:k]:
        pick[r] += 1
    return tuple(pick)


def _discards(
    obs: JSON, seat: int, hands: list[list[int]], rng: random.Random
) -> tuple[JSON | None, dict[int, JSON]]:
    view = obs["discards"]
    if view is None:
        return None, {}
    committed: dict[str, str] = {}
    per_seat: dict[int, JSON] = {}
    for key, owed in view["need"].items():
        q = int(key)
        info: JSON = {"owed": owed, "chosen": "-"}
        if q == seat and view.get("selected"):
            info["chosen"] = view["selected"]
        prompt = obs.get("prompt") or {}
        if q != seat and prompt.get("kind") == "discard" and prompt.get("seat") == q:
            picked = owed - prompt["data"]["left"]  # the prompt shows how many it has chosen
            if picked > 0:
                info["chosen"] = bundle_text(_some_of(hands[q], picked, rng))
        if q in view["committed"]:
            if q == seat:
                committed[key] = view["own"]
            else:
                committed[key] = bundle_text(_some_of(hands[q], owed, rng))
        per_seat[q] = info
    return {"seats": list(view["seats"]), "committed": committed}, per_seat


def world_from_observation(game: IslandRules, obs: JSON, seat: int, rng: random.Random) -> State:
    """A state whose ``observation(seat)`` is ``obs``, the hidden parts drawn from ``rng``
    (the module docstring lists what is drawn and how)."""
    n = game.num_players
    if obs.get("game") != "island" or obs.get("seat") != seat or len(obs["players"]) != n:
        raise PositionError(f"the observation is not seat {seat}'s view of this island game")
    players = obs["players"]
    hands, bank, unknown = _deal_hands(obs, seat, n, game.bank_size, rng)
    held, fresh, deck = _deal_dev(game, obs, seat, n, rng)
    discards, owed = _discards(obs, seat, hands, rng)
    refused, next_offer = _offers_refused(obs)
    board = obs["board"]
    buildings: list[list[list[Any]]] = [[] for _ in range(n)]
    for kind in ("settlements", "cities"):
        for v, p in obs[kind]:
            buildings[p].append([v, kind[:-1] if kind == "settlements" else "city"])
    roads: list[list[int]] = [[] for _ in range(n)]
    for e, p in obs["roads"]:
        roads[p].append(e)
    seats = []
    for p in range(n):
        info: JSON = {
            "seat": p,
            "hand": dict(zip(RESOURCES, hands[p])),
            "dev_cards": dict(zip(DEV_NAMES, held[p])),
            "bought_this_turn": dict(zip(DEV_NAMES, fresh[p])),
            "knights": players[p]["knights"],
            "road_length": players[p]["road_length"],
            "declines_offers": bool(players[p].get("declines_offers")),
        }
        if p in owed:
            info["discard"] = owed[p]
        seats.append(info)
    phase = obs["phase"]
    steal = None
    if phase == "steal":
        robs = next((x for x in reversed(obs["log"]) if _form(x) == "robs"), None)
        if robs is None:
            raise PositionError("the phase is steal but the log names no victim (IR-43)")
        steal = {"thief": robs.params["seat"], "victim": robs.params["victim"]}
    doc: JSON = {
        "game": game.id,
        "players": n,
        "options": dict(game.options),
        "board": {
            "map": board["map"],
            "layout": board.get("island") if game.map is not None else board["layout"],
        },
        "robber": board["robber"],
        "turn": _turn(obs, n),
        "prompt": obs["prompt"] if obs["to_move"] == seat else None,
        "buildings": buildings,
        "roads": roads,
        "seats": seats,
        "bank": dict(zip(RESOURCES, bank)),
        "deck": dict(zip(DEV_NAMES, deck)),
        "awards": {
            "longest_road": None if obs["longest_road"] < 0 else obs["longest_road"],
            "largest_army": None if obs["largest_army"] < 0 else obs["largest_army"],
        },
        "discards": discards,
        "steal": steal,
        "free_roads": _free_roads(obs),
        "offers": obs["offers"],
        "next_offer": next_offer,
        "rejected_offers": refused,
        "special_build": _special_build(obs, n),
        "unknown_cards": [
            [seat, p, bundle_text(tuple(unknown[p]))] for p in range(n) if any(unknown[p])
        ],
        "log": [[None, line] for line in obs["log"]],  # lines as they are (LogLine values)
    }
    return game.load_position(doc)


__all__ = ["known_cards", "world_from_observation"]
