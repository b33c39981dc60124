"""The island encoder's two ways of writing the counts (``IslandCodec._put``): looked up by byte,
and the general path of a count above 255 or not an int; both against the plain reference of
``test_island_encoding_golden``, bit for bit."""

from __future__ import annotations

from hexfolk.rl.island import IslandCodec
from tests.rl.test_island_encoding_golden import reference, seeded_views


def test_turns_around_a_byte_encode_as_the_reference() -> None:
    # the turn is written as 255 from 255 on (every such turn clips to 1 at /200)
    env, views = seeded_views(2, None, 60, seed=3)
    codec = env.codec
    assert isinstance(codec, IslandCodec)
    for obs, _ in views[-5:]:
        for turn in (0, 1, 199, 200, 201, 254, 255, 256, 511, 10**6):
            big = {**obs, "turn": turn}
            assert codec.encode(big).tobytes() == reference(codec, big).tobytes(), turn


def test_counts_past_a_byte_or_not_ints_take_the_general_path() -> None:
    env, views = seeded_views(3, None, 80, seed=5)
    codec = env.codec
    assert isinstance(codec, IslandCodec)
    obs = views[-1][0]
    for cards in (255, 256, 300, 19.5):
        players = [{**p, "cards": cards} if p["seat"] == 1 else p for p in obs["players"]]
        odd = {**obs, "players": players}
        assert codec.encode(odd).tobytes() == reference(codec, odd).tobytes(), cards
    # the byte path again after the general one (nothing of it is kept)
    assert codec.encode(obs).tobytes() == reference(codec, obs).tobytes()
