"""Number tokens on a map (IR-12, IR-13): the backtracking search that keeps red tokens
(6 and 8) apart, used both to prove a map can meet IR-13 (``checks``) and to deal one game's
tokens (:func:`deal_tokens`)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from hexfolk.core.hexgrid import Hex, neighbours
from hexfolk.games.island.maps.schema import IslandMap, MapError
from hexfolk.games.island.rules import RED_TOKENS

RED_SEARCH_BUDGET = 10_000
"""Search steps :func:`red_placement` may take (maps leave far more room for reds than this
needs; only a map at the very edge of IR-13 could exhaust it)."""


class RedSearchExhausted(MapError):
    """:func:`red_placement` gave up before proving or refuting a placement."""


def red_placement(
    groups: Sequence[tuple[int, Sequence[Hex]]],
    blocked: Iterable[Hex] = (),
    budget: int = RED_SEARCH_BUDGET,
) -> list[list[Hex]] | None:
    """For each group (number of red tokens, candidate hexes), hexes for its reds with no two
    reds adjacent over all groups (IR-13), found by backtracking; None if there is none.
    Raises :class:`RedSearchExhausted` after ``budget`` steps."""
    near: dict[Hex, int] = {}
    """How many chosen hexes are ``h`` itself or touch it (``h`` is free at 0)."""

    def mark(h: Hex, d: int) -> None:
        near[h] = near.get(h, 0) + d
        for n in neighbours(h):
            near[n] = near.get(n, 0) + d

    for h in set(blocked):
        mark(h, 1)
    picks: list[list[Hex]] = [[] for _ in groups]
    steps = [0]

    def free(h: Hex) -> bool:
        return not near.get(h)

    def search(g: int, start: int) -> bool:
        if g == len(groups):
            return True
        need, cands = groups[g]
        if len(picks[g]) == need:
            return search(g + 1, 0)
        left = need - len(picks[g])
        for i in range(start, len(cands)):
            # bound: too few free candidates left to finish this group
            if sum(1 for c in cands[i:] if free(c)) < left:
                return False
            h = cands[i]
            if not free(h):
                continue
            steps[0] += 1
            if steps[0] > budget:
                raise RedSearchExhausted(f"no red-token placement found in {budget} steps")
            mark(h, 1)
            picks[g].append(h)
            if search(g, i + 1):
                return True
            picks[g].pop()
            mark(h, -1)
        return False

    return picks if search(0, 0) else None


def red_count(tokens: Mapping[int, int]) -> int:
    """How many red tokens (6 and 8) a token set holds."""
    return sum(c for k, c in tokens.items() if k in RED_TOKENS)


def multiset(counts: Mapping[Any, int]) -> list[Any]:
    """Each key repeated by its count, in the mapping's order."""
    return [k for k, c in counts.items() for _ in range(c)]


def deal_tokens(
    m: IslandMap, producing: Sequence[Hex], band_of: Mapping[Hex, str], rng: random.Random
) -> dict[Hex, int]:
    """Tokens per IR-13: reds first (random order, backtracking), then the rest shuffled; with
    graded numbers each band's tokens stay in the band."""
    bands = m.bands if m.number_mode == "graded" else {"": m.tokens}
    groups: list[tuple[int, list[Hex]]] = []
    for name, band in bands.items():
        cands = [h for h in producing if m.number_mode != "graded" or band_of[h] == name]
        rng.shuffle(cands)
        groups.append((red_count(band), cands))
    try:
        picks = red_placement(groups)
    except RedSearchExhausted as exc:
        raise MapError(f"{m.label}: {exc} (IR-13)") from None
    if picks is None:
        raise MapError(f"{m.label}: no red-token placement satisfies IR-13")
    out: dict[Hex, int] = {}
    for band, chosen, (_, cands) in zip(bands.values(), picks, groups):
        reds = sorted(multiset({k: c for k, c in band.items() if k in RED_TOKENS}))
        rest = sorted(multiset({k: c for k, c in band.items() if k not in RED_TOKENS}))
        rng.shuffle(reds)
        rng.shuffle(rest)
        for h, k in zip(chosen, reds):
            out[h] = k
        others = [h for h in cands if h not in out]
        for h, k in zip(others, rest):
            out[h] = k
    return out
