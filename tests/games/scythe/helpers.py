"""Building real Scythe positions for scenario tests, through position documents.

Every helper that changes a state edits its position document (``state.position()``) and
loads it back with ``ScytheGame.load_position``, so a scenario can only be a position the
engine accepts (its invariants checked), and no test touches the engine's bookkeeping.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hexfolk.core import load_game
from hexfolk.core import testing as kit
from hexfolk.games.scythe import data as D
from hexfolk.games.scythe.state import ScytheState


def L(name: str) -> int:
    """Location id of a board name."""
    return D.LOC_INDEX[name]


def position(factions: str, mats: str, seed: int = 0, **options: object) -> ScytheState:
    """The first decision of a game with these factions and mats (setup chance resolved)."""
    players = len(factions.split(","))
    game = load_game("scythe", players, {"factions": factions, "mats": mats, **options})
    state = kit.start_position(game, seed)
    assert isinstance(state, ScytheState)
    return state


def edit(s: ScytheState, change: Callable[[dict[str, Any]], None]) -> None:
    """Change ``s`` through its position document: ``change`` edits the document (units by
    territory name, cards, tracks), which is loaded back (so its invariants are checked) and
    becomes ``s``'s content; the test keeps its reference to ``s``."""
    doc = s.position()
    change(doc)
    loaded = s.game.load_position(doc)
    assert isinstance(loaded, ScytheState)
    vars(s).clear()
    vars(s).update(vars(loaded))


def clear_board(s: ScytheState) -> None:
    """Send every unit off the board (character to its home base), clear resources."""

    def change(doc: dict[str, Any]) -> None:
        for p, seat in enumerate(doc["seats"]):
            seat["character"] = D.LOC_NAMES[D.HOME_OF[s.faction[p]]]
            seat["workers"] = [None] * D.WORKERS_TOTAL
            seat["mechs"] = {}
        doc["resources"] = {}

    edit(s, change)


def put_workers(s: ScytheState, p: int, loc: str, count: int) -> None:
    def change(doc: dict[str, Any]) -> None:
        workers = doc["seats"][p]["workers"]
        free = [j for j, where in enumerate(workers) if where is None]
        assert len(free) >= count, "not enough workers on the mat"
        for j in free[:count]:
            workers[j] = loc

    edit(s, change)


def put_mech(s: ScytheState, p: int, ability: str, loc: str) -> None:
    edit(s, lambda doc: doc["seats"][p]["mechs"].update({ability: loc}))


def put_char(s: ScytheState, p: int, loc: str) -> None:
    edit(s, lambda doc: doc["seats"][p].update(character=loc))


def put_res(s: ScytheState, loc: str, resource: str, count: int) -> None:
    def change(doc: dict[str, Any]) -> None:
        here = doc["resources"].setdefault(loc, {})
        here[resource] = here.get(resource, 0) + count

    edit(s, change)


def put_structure(s: ScytheState, p: int, kind: str, loc: str) -> None:
    edit(s, lambda doc: doc["seats"][p]["structures"].update({kind: loc}))


def set_hand(s: ScytheState, p: int, values: list[int]) -> None:
    """Give ``p`` exactly these combat cards (taken from / returned to the deck)."""

    def change(doc: dict[str, Any]) -> None:
        deck = doc["combat_deck"]
        for v in doc["seats"][p]["combat_cards"]:
            deck[str(v)] += 1
        for v in values:
            deck[str(v)] -= 1
        doc["seats"][p]["combat_cards"] = sorted(values)

    edit(s, change)


def give(
    s: ScytheState,
    p: int,
    *,
    recruits: tuple[str, ...] = (),
    upgrades: dict[str, str] | None = None,
    stars: dict[str, int] | None = None,
    factory_card: int | None = None,
    **tracks: int,
) -> None:
    """Give seat ``p`` recruits (each on the next free enlist space, SR-24), upgrades (top box
    -> the bottom action that takes its cube, SR-21), stars by source, a Factory card (taken
    from the offer) and track values (``power=``, ``popularity=``, ``coins=``)."""

    def change(doc: dict[str, Any]) -> None:
        seat = doc["seats"][p]
        for name in recruits:
            seat["recruits"].append(name)
            free = [x for x in D.ENLIST_SPACE_IDS if x not in seat["enlist_spaces"]]
            seat["enlist_spaces"].append(free[0])
        for box, bottom in (upgrades or {}).items():
            seat["upgrades"].append(box)
            seat["cubes"][bottom] += 1
        seat["stars"].update(stars or {})
        if factory_card is not None:
            if factory_card in doc["factory_offer"]:
                doc["factory_offer"].remove(factory_card)
            seat["factory_card"] = factory_card
        seat.update(tracks)

    edit(s, change)


def set_seat(s: ScytheState, p: int, **fields: Any) -> None:
    """Seat ``p``'s fields of the position document set to these values, in the document's
    words (``power=7``, ``last_section="factory"``, ``enlist_spaces=["coins", "cards"]``)."""

    def change(doc: dict[str, Any]) -> None:
        seat = doc["seats"][p]
        for key in fields:
            assert key in seat, f"a seat has no field {key!r}"
        seat.update(fields)

    edit(s, change)


def set_table(s: ScytheState, **fields: Any) -> None:
    """The position document's own fields set to these values (``active=1``,
    ``structure_tile="in_a_row"``, ``encounter_deck_bottom=[4, 2]``)."""

    def change(doc: dict[str, Any]) -> None:
        for key in fields:
            assert key in doc and key != "seats", f"the position has no field {key!r}"
        doc.update(fields)

    edit(s, change)


def set_turn(s: ScytheState, **fields: Any) -> None:
    """The turn's fields of the position document set to these values
    (``forced_retreat=True``)."""

    def change(doc: dict[str, Any]) -> None:
        for key in fields:
            assert key in doc["turn"], f"the turn has no field {key!r}"
        doc["turn"].update(fields)

    edit(s, change)


def set_objectives(s: ScytheState, p: int, numbers: list[int]) -> None:
    """Give seat ``p`` exactly these objective cards; another seat holding one of them gets a
    card nobody holds instead (each card is in one place, SR-51)."""

    def change(doc: dict[str, Any]) -> None:
        seats = doc["seats"]
        used = set(numbers) | set(doc["objectives_revealed"])
        for seat in seats:
            used |= set(seat["objectives"]) | set(seat["objectives_discarded"])
        free = iter(sorted(set(D.OBJECTIVE_BY_NUMBER) - used))
        for q, seat in enumerate(seats):
            if q != p:
                seat["objectives"] = [next(free) if o in numbers else o for o in seat["objectives"]]
        seats[p]["objectives"] = list(numbers)

    edit(s, change)


def hand(s: ScytheState, p: int) -> list[int]:
    nv = len(D.CARD_VALUES)
    return [D.CARD_VALUES[i] for i in range(nv) for _ in range(s.hand[p * nv + i])]


def play(s: ScytheState, *texts: str) -> ScytheState:
    """Apply action texts (parsed against the state) in order."""
    for t in texts:
        s.apply(s.parse_action(t))
    return s


def draw(s: ScytheState, *values: int) -> ScytheState:
    """Resolve pending combat-card draws with these values."""
    for v in values:
        assert s.is_chance(), "no draw is pending"
        s.apply(s.parse_action(f"draw {v}"))
    return s


def legal(s: ScytheState) -> list[str]:
    return [str(a) for a in s.legal_actions()]


def res_at(s: ScytheState, loc: str, resource: str) -> int:
    return s.resources[L(loc) * D.NRES + D.RES_INDEX[resource]]
