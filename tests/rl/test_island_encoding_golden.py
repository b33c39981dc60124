"""The island encoder against a plain reference written from the documented feature layout
(``docs/rl.md``, *Feature layout*): every block filled feature by feature, one loop per
documented meaning, on seeded random games with open offers, counters and discards; and the
indices of the legal actions against their keys (``codec.keys``, the plain path).

The reference scales a count as the encoder does, in float32: ``min(count * (1 / scale), 1)``
with ``1 / scale`` rounded to float32, so the two vectors are compared bit for bit.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from hexfolk import rl
from hexfolk.games.island import rules as R
from hexfolk.rl.island import IslandCodec

JSON = dict[str, Any]
LETTERS = "".join(R.LETTERS)
TERRAINS = "".join(R.TERRAIN_LETTERS)
HARBORS = LETTERS + "3"
PHASES = (
    "setup-settlement",
    "setup-road",
    "pre-roll",
    "discard",
    "robber",
    "main",
    "road-building",
    "answer",
    "sbp-signup",
    "sbp-build",
    "over",
)
ANSWERS = ("accept", "reject", "counter")
PLAYER_COUNTS = (
    ("cards", 20),
    ("dev_cards", 10),
    ("dev_bought_this_turn", 5),
    ("knights", 10),
    ("visible_vp", None),  # the VP target
    ("road_length", 15),
    ("roads_left", 15),
    ("settlements_left", 5),
    ("cities_left", 4),
)


def counts_of(text: str) -> list[int]:
    """Counts per resource of a bundle text (``1l 2o``, ``-``)."""
    out = [0] * len(LETTERS)
    for word in text.split():
        if word != "-":
            out[LETTERS.index(word[-1])] += int(word[:-1])
    return out


def reference(codec: IslandCodec, obs: JSON) -> np.ndarray:
    """The vector of ``obs`` built from ``docs/rl.md``'s table, one feature at a time."""
    offset = {b.name: b.offset for b in codec.layout()}
    vec = np.zeros(codec.obs_size, dtype=np.float32)
    n = codec.players
    nres = len(LETTERS)
    seat = obs["seat"] if obs["seat"] is not None else 0

    def rel(other: int) -> int:
        return (other - seat) % n

    def count(at: int, value: float, scale: float) -> None:
        x = np.float32(value) * np.float32(1.0 / scale)
        vec[at] = min(x, np.float32(1.0))

    prompt = obs["prompt"]
    mine = prompt is not None and prompt["seat"] == seat
    kind = prompt["kind"] if mine else obs["phase"]
    if kind in PHASES:
        vec[offset["phase"] + PHASES.index(kind)] = 1.0
    if mine:
        data = prompt["data"]
        count(offset["prompt"], data.get("left", 0) if kind == "discard" else 0, 10)
        count(offset["prompt"] + 1, data.get("need", 0), 10)
        count(offset["prompt"] + 2, data.get("left", 0) if kind == "road-building" else 0, 2)
    count(offset["turn"], obs["turn"], 200)
    board = obs["board"]
    place = codec.placement(board)
    if place is not None:
        per_hex = codec.per_hex
        if codec.window is None:  # terrain, token, harbors from the layout text
            hex_text, harbor_text, _ = board["layout"].split(" ")
            for h, word in enumerate(hex_text.split(".")):
                vec[offset["hexes"] + h * per_hex + TERRAINS.index(word[0])] = 1.0
                if len(word) > 1:
                    token = R.DICE_SUMS.index(int(word[1:]))
                    vec[offset["hexes"] + h * per_hex + len(TERRAINS) + token] = 1.0
            for i, c in enumerate(harbor_text):
                vec[offset["harbors"] + i * len(HARBORS) + HARBORS.index(c)] = 1.0
        else:  # the window's block (its mapping has its own tests in test_island_env)
            vec[offset["hexes"] : offset["nodes"]] = place.block
        if board["robber"] is not None and board["robber"] >= 0:
            vec[offset["hexes"] + place.hex_of[board["robber"]] * per_hex + per_hex - 1] = 1.0
        for pieces, level in (("settlements", 0), ("cities", 1)):
            for v, owner in obs[pieces]:
                vec[offset["nodes"] + (place.node_of[v] * n + rel(owner)) * 2 + level] = 1.0
        for e, owner in obs["roads"]:
            vec[offset["edges"] + place.edge_of[e] * n + rel(owner)] = 1.0
    target = codec.vp_target
    for info in obs["players"]:
        p = info["seat"]
        base = offset["players"] + rel(p) * 14
        for k, (name, scale) in enumerate(PLAYER_COUNTS):
            count(base + k, info[name], scale or target)
        flags = (
            bool(info.get("declines_offers")),
            obs["longest_road"] == p,
            obs["largest_army"] == p,
            obs["active"] == p,
            p in (obs["acting"] or ()),
        )
        for k, flag in enumerate(flags):
            if flag:
                vec[base + 9 + k] = 1.0
        if p == seat and "hand" in info:
            for r, name in enumerate(R.RESOURCES):
                count(offset["hand"] + r, info["hand"][name], 10)
            for d, name in enumerate(R.DEV_NAMES):
                count(offset["dev_hand"] + d, info["dev_hand"][name], 5)
            count(offset["vp"], info["vp"], target)
    if obs["bank"] is None:
        vec[offset["bank"] + nres] = 1.0
    else:
        for r, name in enumerate(R.RESOURCES):
            count(offset["bank"] + r, obs["bank"][name], 19)
    count(offset["deck"], obs["deck"], 25)
    per_offer = 1 + 2 * nres + n * (len(ANSWERS) + nres)
    for i, offer in enumerate(obs["offers"][: R.MAX_OPEN_OFFERS]):
        base = offset["offers"] + i * per_offer
        vec[base] = 1.0
        for r, c in enumerate(counts_of(offer["give"]) + counts_of(offer["get"])):
            count(base + 1 + r, c, 5)
        for q, answer in offer["answers"].items():
            at = base + 1 + 2 * nres + rel(int(q)) * (len(ANSWERS) + nres)
            if isinstance(answer, dict):
                vec[at + 2] = 1.0
                for r, c in enumerate(counts_of(answer["counter"]["give"])):
                    count(at + len(ANSWERS) + r, c, 5)
            else:
                vec[at + ANSWERS.index(answer)] = 1.0
    discards = obs["discards"]
    if discards:
        for q in discards["seats"]:
            vec[offset["discards"] + rel(q) * 2] = 1.0
            if q in discards["committed"]:
                vec[offset["discards"] + rel(q) * 2 + 1] = 1.0
        vec[offset["discards"] + 2 * n] = 1.0
        picked = discards.get("selected") or discards.get("own")
        if picked:
            for r, c in enumerate(counts_of(picked)):
                count(offset["discards"] + 2 * n + 1 + r, c, 10)
    return vec


def seeded_views(
    players: int, options: JSON | None, steps: int, seed: int
) -> tuple[rl.HexfolkEnv, list[tuple[JSON, list[Any]]]]:
    """Every acting seat's view and legal actions (and now and then an idle seat's view)
    along a random game that favours trades (open offers, answers, counters)."""
    env = rl.env("island", players=players, options=options, seed=seed, max_turns=30)
    rng = random.Random(seed)
    views: list[tuple[JSON, list[Any]]] = []
    env.reset(seed=seed)
    episode = 0
    for step in range(steps):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            episode += 1
            env.reset(seed=seed + episode)
            continue
        state = env.state
        for s in state.acting_seats():
            views.append((state.observation(s, log=False), list(state.legal_actions_for(s))))
        if step % 5 == 0:
            views.append((state.observation(rng.randrange(players), log=False), []))
        texts = env.legal_texts()
        trades = [i for i, t in texts.items() if t.split()[0] in ("offer", "counter", "accept")]
        if trades and rng.random() < 0.4:
            env.step(rng.choice(trades))
        else:
            env.step(rng.choice(list(texts)))
    return env, views


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, None), (4, None), (3, {"hide_bank": True}), (6, None), (4, {"map": "driftland"})],
)
def test_encoding_is_the_documented_layout_feature_by_feature(
    players: int, options: JSON | None
) -> None:
    # docs/rl.md, Feature layout: the blocks, their scales, relative seats; offers (IR-50)
    env, views = seeded_views(players, options, 700, seed=players)
    codec = env.codec
    assert isinstance(codec, IslandCodec)
    seen = {"offers": 0, "counters": 0, "discards": 0}
    for obs, _legal in views:
        got, want = codec.encode(obs), reference(codec, obs)
        assert got.dtype == np.float32
        diff = np.flatnonzero(got != want)
        assert diff.size == 0, [
            (b.name, i - b.offset)
            for i in diff[:5]
            for b in codec.layout()
            if b.offset <= i < b.offset + b.size
        ]
        seen["offers"] += bool(obs["offers"])
        seen["counters"] += any(
            isinstance(a, dict) for o in obs["offers"] for a in o["answers"].values()
        )
        seen["discards"] += bool(obs["discards"])
    assert seen["offers"] and seen["counters"], seen  # the walk reached the offers block


def test_write_fills_a_zero_vector_as_encode() -> None:
    env, views = seeded_views(3, None, 150, seed=7)
    codec = env.codec
    for obs, _ in views:
        vec = np.zeros(codec.obs_size, dtype=np.float32)
        codec.write(obs, vec)
        assert vec.tobytes() == codec.encode(obs).tobytes()


def test_players_out_of_seat_order_encode_as_in_seat_order() -> None:
    # the players block is keyed by each entry's seat, not by its place in the list
    env, views = seeded_views(4, None, 200, seed=9)
    codec = env.codec
    for obs, _ in views[::10]:
        shuffled = {**obs, "players": list(reversed(obs["players"]))}
        assert codec.encode(shuffled).tobytes() == reference(codec, obs).tobytes()


def test_players_missing_a_seat_are_refused() -> None:
    env, views = seeded_views(3, None, 40, seed=9)
    obs = views[-1][0]
    partial = {**obs, "players": obs["players"][:-1]}
    with pytest.raises(ValueError, match=r"one entry per seat 0\.\.2"):
        env.codec.encode(partial)


def test_counts_above_a_byte_are_scaled_and_clipped() -> None:
    # a long game's turn (/200, clipped to 1) and a large hand (/20) take the general path
    env, views = seeded_views(2, None, 60, seed=3)
    codec = env.codec
    obs = views[-1][0]
    for turn in (199, 256, 1000):
        big = {**obs, "turn": turn}
        assert codec.encode(big).tobytes() == reference(codec, big).tobytes()
    turn_at = next(b.offset for b in codec.layout() if b.name == "turn")
    assert codec.encode({**obs, "turn": 1000})[turn_at] == 1.0
    assert codec.encode({**obs, "turn": 100})[turn_at] == np.float32(100) * np.float32(1 / 200)


@pytest.mark.parametrize(("players", "options"), [(4, None), (4, {"map": "driftland"})])
def test_indices_are_the_keys_indices(players: int, options: JSON | None) -> None:
    # docs/rl.md, Actions: an action's index is its key's; an offer's slot from the view
    env, views = seeded_views(players, options, 500, seed=11)
    codec = env.codec
    fresh = IslandCodec(env.game)  # a memo filled in another order
    for obs, legal in reversed(views):
        fresh.indices(legal, obs)
    for obs, legal in views:
        want = [codec.index[k] for k in codec.keys(legal, obs)]
        assert codec.indices(legal, obs) == want
        assert codec.indices(legal, obs) == want  # the same objects again (by id)
        assert fresh.indices(legal, obs) == want
