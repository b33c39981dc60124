"""Building island positions for scenario tests, through position documents.

Every helper that changes a state edits its position document (``state.position()``, fields
in ``docs/island.md``, "Positions") and loads it back with ``IslandGame.load_position``, so a
scenario can only be a position the engine accepts (pieces per seat, the distance rule, bank
and hands holding every card, the deck's composition, ...), and no test touches the state's
bookkeeping. The loaded state becomes the given state's content: a test keeps its reference.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from hexfolk.core import load_game
from hexfolk.games.island import actions as A
from hexfolk.games.island.board import beginner_layouts
from hexfolk.games.island.roads import award_after_change, road_length
from hexfolk.games.island.rules import DEV_NAMES, LARGEST_ARMY_MIN, RESOURCES
from hexfolk.games.island.state import IslandState

Doc = dict[str, Any]


def load(state: IslandState, doc: Doc) -> IslandState:
    """The state ``doc`` describes, in ``state``'s game (its prompt is rebuilt, not checked:
    an edited document's old prompt no longer holds)."""
    doc.pop("prompt", None)
    loaded = state.game.load_position(doc)
    assert isinstance(loaded, IslandState)
    return loaded


def edit(state: IslandState, change: Callable[[Doc], None]) -> None:
    """Change ``state`` through its position document: ``change`` edits the document in the
    game's words; the document is loaded back (its invariants checked) and becomes
    ``state``'s content."""
    doc = state.position()
    change(doc)
    loaded = load(state, doc)
    vars(state).clear()
    vars(state).update(vars(loaded))


def fresh(players: int = 4, **options: Any) -> IslandState:
    """A state on the beginner board right after the layout, setup skipped: seat 0's main
    phase of turn 1 (already rolled), no pieces, empty hands, full bank."""
    options.setdefault("board", "beginner")
    game = load_game("island", players, options)
    state = game.new_initial_state()
    layout = beginner_layouts(game.board_id)[0]
    state.apply(A.LayoutOutcome(layout))
    doc = state.position()
    doc["turn"].update(phase="main", seat=0, active=0, number=1, rolled=True)
    doc["prompt"] = {"kind": "main", "seat": 0}
    loaded = game.load_position(doc)
    assert isinstance(loaded, IslandState)
    return loaded


def set_turn(state: IslandState, **fields: Any) -> None:
    """The position with these ``turn`` fields (``phase="pre-roll"``, ``seat=1``, ``active=1``,
    ``rolled=False``, ``card_played=False``...); ``seat`` given alone sets ``active`` too."""
    if "seat" in fields:
        fields.setdefault("active", fields["seat"])
    edit(state, lambda doc: doc["turn"].update(fields))


def _move_cards(doc: Doc, seat: int, cards: str, sign: int) -> None:
    bundle = A.parse_bundle(cards.split(), "cards")
    hand_doc = doc["seats"][seat]["hand"]
    for name, count in zip(RESOURCES, bundle):
        hand_doc[name] += sign * count
        doc["bank"][name] -= sign * count


def give(state: IslandState, seat: int, cards: str) -> None:
    """The position where ``seat`` holds ``cards`` (``"2l 1o"``) more, taken from the bank."""
    edit(state, lambda doc: _move_cards(doc, seat, cards, 1))


def take(state: IslandState, seat: int, cards: str) -> None:
    """The position where ``seat`` holds ``cards`` fewer, back in the bank."""
    edit(state, lambda doc: _move_cards(doc, seat, cards, -1))


def deal(state: IslandState, seat: int, card: str, count: int = 1, bought: bool = False) -> None:
    """The position where ``seat`` holds ``count`` development cards ``card`` (a name of
    ``DEV_NAMES``: ``knight``, ``vp``, ``roads``, ``plenty``, ``monopoly``) more, taken from
    the deck; ``bought``: bought this turn (not playable yet, IR-62)."""
    assert card in DEV_NAMES, card

    def change(doc: Doc) -> None:
        info = doc["seats"][seat]
        info["dev_cards"][card] += count
        if bought:
            info["bought_this_turn"][card] += count
        doc["deck"][card] -= count

    edit(state, change)


def _road_lengths(
    state: IslandState, doc: Doc, node_owner: list[int], edge_owner: list[int], seats: list[int]
) -> None:
    """Recompute the road lengths of ``seats`` in ``doc`` one by one, and Longest Road after
    each change as the game does (IR-66..IR-71)."""
    lengths = [info["road_length"] for info in doc["seats"]]
    awards = doc["awards"]
    for q in seats:
        old = lengths[:]
        lengths[q] = road_length(state.topology, edge_owner, node_owner, doc["roads"][q], q)
        if state.game.options["longest_road"]:
            holder = award_after_change(
                -1 if awards["longest_road"] is None else awards["longest_road"], old, lengths
            )
            awards["longest_road"] = None if holder < 0 else holder
    for info, length in zip(doc["seats"], lengths):
        info["road_length"] = length


def settle(state: IslandState, seat: int, node: int, city: bool = False) -> None:
    """The position with a settlement (or city) of ``seat`` on ``node`` more: the roads of
    others through ``node`` break as in play (IR-67), Longest Road follows (IR-70)."""

    def change(doc: Doc) -> None:
        doc["buildings"][seat].append([node, "city" if city else "settlement"])
        node_owner = state.node_owner[:]
        node_owner[node] = seat
        edge_owner = state.edge_owner
        topology = state.topology
        hit = sorted({edge_owner[e] for e in topology.node_edges[node]} - {seat, -1})
        broken = [q for q in hit if sum(edge_owner[e] == q for e in topology.node_edges[node]) > 1]
        _road_lengths(state, doc, node_owner, edge_owner, broken)

    edit(state, change)


def road(state: IslandState, seat: int, *edges: int) -> None:
    """The position with roads of ``seat`` on ``edges`` more (built in that order), its road
    length and Longest Road as the game counts them (IR-66..IR-69)."""

    def change(doc: Doc) -> None:
        edge_owner = state.edge_owner[:]
        for e in edges:
            edge_owner[e] = seat
            doc["roads"][seat].append(e)
            _road_lengths(state, doc, state.node_owner, edge_owner, [seat])

    edit(state, change)


def hand(state: IslandState, seat: int) -> str:
    """``seat``'s hand as cards (``"1l 2o"``, ``"-"``)."""
    return A.bundle_text(tuple(state.hands[seat]))


def edge(state: IslandState, a: int, b: int) -> int:
    """The edge id between nodes ``a`` and ``b``."""
    for e in state.topology.node_edges[a]:
        if b in state.topology.edge_nodes[e]:
            return e
    raise ValueError(f"nodes {a} and {b} are not adjacent")


def path(state: IslandState, nodes: list[int]) -> list[int]:
    """Edge ids along consecutive nodes."""
    return [edge(state, a, b) for a, b in itertools.pairwise(nodes)]


def coast_nodes(state: IslandState, count: int, start: int = 0) -> list[int]:
    """``count`` consecutive nodes along the coast walk (a simple path of count-1 edges)."""
    topology = state.topology
    walk = topology.coast
    first = walk[start]
    second = walk[start + 1]
    a, b = topology.edge_nodes[first]
    v = b if b in topology.edge_nodes[second] else a
    nodes = [a if v == b else b, v]
    for e in walk[start + 1 : start + count - 1]:
        v = topology.edge_other[e][v]
        nodes.append(v)
    return nodes


def texts(state: IslandState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def do(state: IslandState, *actions: str) -> None:
    """Apply action texts (parsed against the state, so illegal ones raise)."""
    for text in actions:
        state.apply(state.parse_action(text))


def upgrade(state: IslandState, node: int) -> None:
    """The position where ``node``'s settlement is a city (its owner's, for free)."""

    def change(doc: Doc) -> None:
        for built in doc["buildings"]:
            for item in built:
                if item[0] == node:
                    item[1] = "city"

    edit(state, change)


def hand_out_deck(state: IslandState, seat: int) -> None:
    """The position where ``seat`` holds every development card left in the deck (the deck
    is empty, IR-61)."""

    def change(doc: Doc) -> None:
        held = doc["seats"][seat]["dev_cards"]
        for card, left in doc["deck"].items():
            held[card] += left
            doc["deck"][card] = 0

    edit(state, change)


def knights_played(state: IslandState, seat: int, count: int) -> None:
    """The position where ``seat`` has played ``count`` knights more (cards from the deck,
    counted by the statistics), Largest Army following as in play: first to 3, then only
    strictly more takes it (IR-72)."""

    def change(doc: Doc) -> None:
        info = doc["seats"][seat]
        info["knights"] += count
        doc["deck"]["knight"] -= count
        doc["statistics"]["seats"][seat]["dev_played"][DEV_NAMES.index("knight")] += count
        holder = doc["awards"]["largest_army"]
        knights = info["knights"]
        earned = state.game.options["largest_army"] and knights >= LARGEST_ARMY_MIN
        if earned and (
            holder is None or (holder != seat and knights > doc["seats"][holder]["knights"])
        ):
            doc["awards"]["largest_army"] = seat

    edit(state, change)


def roll(state: IslandState, total: int) -> None:
    """The dice come up ``total`` for the active player: the position at the dice (the roll
    already asked for), then the dice's outcome applied as in play."""
    set_turn(state, phase="dice")
    state.apply(A.DICE[total])
