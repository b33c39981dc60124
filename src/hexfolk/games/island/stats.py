"""Game statistics (IR-80): what the state counts per seat, laid out in one flat list.

The state keeps all statistics in one list (a clone copies one list): the dice histogram (13
counts, index = sum) first, then one block of :data:`PER_SEAT` counts per seat laid out as
:data:`STAT_FIELDS`. The count ``name`` of seat ``p`` starts at
``SEATS_AT + p * PER_SEAT + STAT_OFFSET[name]``; the rule modules add to it with the ``F_*``
offsets below, and :meth:`~.position.IslandPosition.stat` reads it.
"""

from __future__ import annotations

from hexfolk.games.island.rules import NRES

GAIN_SOURCES = ("setup", "production", "steal", "monopoly", "plenty", "trade", "bank", "harbor")
"""Where a seat's resource cards come from (``gain``: one count per source and resource)."""
LOSS_SINKS = (
    "discard",
    "stolen",
    "monopoly",
    "trade",
    "road",
    "settlement",
    "city",
    "development",
    "bank",
    "harbor",
)
"""Where a seat's resource cards go (``loss``: one count per sink and resource)."""

STAT_FIELDS: tuple[tuple[str, int], ...] = (
    ("rolls", 13),
    ("gain", len(GAIN_SOURCES) * NRES),
    ("loss", len(LOSS_SINKS) * NRES),
    ("blocked", 1),
    ("shortage", 1),
    ("robber_moves", 1),
    ("steals", 1),
    ("stolen_from", 1),
    ("offers", 1),
    ("counters", 1),
    ("trades", 1),
    ("maritime", 3),
    ("dev_bought", 5),
    ("dev_played", 5),
    ("built", 3),
    ("longest_road_turns", 1),
    ("largest_army_turns", 1),
    ("turns", 1),
    ("sbp_slots", 1),
)
"""Per-seat statistics and their widths. ``gain``/``loss`` are per source/sink and resource,
``maritime`` counts lots by ratio 2, 3, 4, ``built`` roads, settlements, cities."""
STAT_WIDTH: dict[str, int] = dict(STAT_FIELDS)
STAT_OFFSET: dict[str, int] = {}
_at = 0
for _name, _width in STAT_FIELDS:
    STAT_OFFSET[_name] = _at
    _at += _width
PER_SEAT = _at
"""Counts per seat."""
SEATS_AT = 13
"""Where the first seat's block starts (after the dice histogram)."""

F_ROLLS, F_GAIN, F_LOSS = STAT_OFFSET["rolls"], STAT_OFFSET["gain"], STAT_OFFSET["loss"]
F_BLOCKED, F_SHORTAGE = STAT_OFFSET["blocked"], STAT_OFFSET["shortage"]
F_ROBBER, F_STEALS, F_STOLEN = (
    STAT_OFFSET["robber_moves"],
    STAT_OFFSET["steals"],
    STAT_OFFSET["stolen_from"],
)
F_OFFERS, F_COUNTERS, F_TRADES = (
    STAT_OFFSET["offers"],
    STAT_OFFSET["counters"],
    STAT_OFFSET["trades"],
)
F_MARITIME, F_BUILT = STAT_OFFSET["maritime"], STAT_OFFSET["built"]
F_DEV_BOUGHT, F_DEV_PLAYED = STAT_OFFSET["dev_bought"], STAT_OFFSET["dev_played"]
F_LR_TURNS, F_LA_TURNS = STAT_OFFSET["longest_road_turns"], STAT_OFFSET["largest_army_turns"]
F_TURNS, F_SBP = STAT_OFFSET["turns"], STAT_OFFSET["sbp_slots"]
G_SETUP, G_PROD, G_STEAL, G_MONO, G_PLENTY, G_TRADE, G_BANK, G_HARBOR = range(len(GAIN_SOURCES))
L_DISCARD, L_STOLEN, L_MONO, L_TRADE, L_ROAD, L_SETTLE, L_CITY, L_DEV, L_BANK, L_HARBOR = range(
    len(LOSS_SINKS)
)
