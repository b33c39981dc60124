"""The readable names of the board's places, as the board shows them (``docs/log.md``, "Place
labels"): the log, the refusals, the terminal and the page name a place by its label, never by
its internal id.

* a land hex is a letter, in reading order (top row first, left to right): ``A``, ``B`` … ``Z``,
  then ``AA``, ``AB`` … (spreadsheet columns);
* an intersection is a number, ``1`` … ``N``, in reading order of its point (top first, then left
  to right);
* an edge is the labels of its two intersections, the smaller first, joined by ``-``: ``12-13``.

Ids stay what the engine, the actions, the bots and the records use; a label is only how a
person reads the id. :class:`Labels` implements the kernel's
:class:`~hexfolk.core.reasons.Places`; :func:`labels` builds it once per topology, cached by the
topology's value (:attr:`~.board.Topology.key`).
"""

from __future__ import annotations

from typing import Any

from hexfolk.games.island.board import Topology

PLACE_KINDS = frozenset({"hex", "node", "edge"})
"""The island's place kinds in log and reason templates (``{hex:hex}``, ``{node:node}``,
``{edge:edge}``)."""


def hex_letter(i: int) -> str:
    """The ``i``-th (0-based) letter label: ``A`` … ``Z``, ``AA``, ``AB`` … ``AZ``, ``BA`` …"""
    out = ""
    i += 1
    while i > 0:
        i, r = divmod(i - 1, 26)
        out = chr(ord("A") + r) + out
    return out


class Labels:
    """The labels of one board's hexes, intersections and edges (by id)."""

    __slots__ = ("by_kind", "edges", "hexes", "lines", "nodes")

    def __init__(self, topology: Topology):
        hex_order = sorted(range(topology.num_hexes), key=lambda h: topology.hex_xy[h][::-1])
        hexes = [""] * topology.num_hexes
        for rank, h in enumerate(hex_order):
            hexes[h] = hex_letter(rank)
        node_order = sorted(range(topology.num_nodes), key=lambda v: topology.node_xy[v][::-1])
        numbers = [0] * topology.num_nodes
        for rank, v in enumerate(node_order):
            numbers[v] = rank + 1
        self.hexes: tuple[str, ...] = tuple(hexes)
        """Letter of each hex, by hex id."""
        self.nodes: tuple[str, ...] = tuple(str(k) for k in numbers)
        """Number of each intersection, by node id."""
        self.edges: tuple[str, ...] = tuple(
            "-".join(str(k) for k in sorted((numbers[a], numbers[b])))
            for a, b in topology.edge_nodes
        )
        """``a-b`` of each edge, by edge id."""
        self.by_kind: dict[str, tuple[str, ...]] = {
            "hex": self.hexes,
            "node": self.nodes,
            "edge": self.edges,
        }
        self.lines: dict[tuple[Any, ...], Any] = {}
        """The log lines made on this board, by form and params (a memo of
        :func:`~.log.make_line`: lines are values, so every observer shares each one)."""

    def __getstate__(self) -> tuple[tuple[str, ...], ...]:
        return (self.hexes, self.nodes, self.edges)  # the labels, not the lines made

    def __setstate__(self, state: tuple[tuple[str, ...], ...]) -> None:
        self.hexes, self.nodes, self.edges = state
        self.by_kind = {"hex": self.hexes, "node": self.nodes, "edge": self.edges}
        self.lines = {}

    def label(self, kind: str, value: Any) -> str:
        """The label of place ``value`` of ``kind``; a value that names no place of this board
        (``-1``, an id past the end) is written as it is."""
        table = self.by_kind.get(kind)
        if table is None or type(value) is not int or not 0 <= value < len(table):
            return str(value)
        return table[value]

    def to_json(self) -> dict[str, list[str]]:
        """``{"hexes", "nodes", "edges"}``: the labels by id, as the board geometry sends them."""
        return {"hexes": list(self.hexes), "nodes": list(self.nodes), "edges": list(self.edges)}


_LABELS: dict[Topology, Labels] = {}
"""By topology: a topology is equal and hashed by its value (its ``key``), so a copied or
unpickled one finds the same labels."""


def labels(topology: Topology) -> Labels:
    """The :class:`Labels` of ``topology``, built once per topology value (its ``key``)."""
    found = _LABELS.get(topology)
    if found is None:
        found = _LABELS[topology] = Labels(topology)
    return found
