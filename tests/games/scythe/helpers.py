"""Building real Scythe positions for scenario tests."""

from __future__ import annotations

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


def clear_board(s: ScytheState) -> None:
    """Send every unit off the board (character to its home base), clear resources."""
    for p in range(s.n):
        s.place_character(p, D.HOME_OF[s.faction[p]])
        for i in range(D.WORKERS_TOTAL):
            s.place_worker(p, i, -1)
        for i in range(D.MECHS):
            s.place_mech(p, i, -1)
    s.resources = [0] * len(s.resources)
    s.refresh()


def put_workers(s: ScytheState, p: int, loc: str, count: int) -> None:
    base = p * D.WORKERS_TOTAL
    placed = 0
    for i in range(D.WORKERS_TOTAL):
        if placed == count:
            break
        if s.worker_loc[base + i] < 0:
            s.place_worker(p, i, L(loc))
            placed += 1
    assert placed == count, "not enough workers on the mat"
    s.refresh()


def put_mech(s: ScytheState, p: int, ability: str, loc: str) -> None:
    slot = D.FACTIONS[s.faction[p]]["mech_abilities"].index(ability)
    s.place_mech(p, slot, L(loc))
    s.abilities[p] |= D.MECH_ABILITY_BITS[s.faction[p]][slot]
    s.refresh()


def put_char(s: ScytheState, p: int, loc: str) -> None:
    s.place_character(p, L(loc))
    s.refresh()


def put_res(s: ScytheState, loc: str, resource: str, count: int) -> None:
    s.resources[L(loc) * D.NRES + D.RES_INDEX[resource]] += count
    s.refresh()


def put_structure(s: ScytheState, p: int, kind: str, loc: str) -> None:
    k = D.STRUCT_INDEX[kind]
    s.structure_loc[p * len(D.STRUCTURES) + k] = L(loc)
    s.structure_at[L(loc)] = p * len(D.STRUCTURES) + k
    s.refresh()


def set_hand(s: ScytheState, p: int, values: list[int]) -> None:
    """Give ``p`` exactly these combat cards (taken from / returned to the deck)."""
    nv = len(D.CARD_VALUES)
    for i in range(nv):
        s.combat_deck[i] += s.hand[p * nv + i]
        s.hand[p * nv + i] = 0
    for v in values:
        i = D.CARD_INDEX[v]
        s.combat_deck[i] -= 1
        s.hand[p * nv + i] += 1
    s.refresh()


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
