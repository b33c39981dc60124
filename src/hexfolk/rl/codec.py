"""What a game needs to become an RL environment: a fixed action catalogue and a fixed-size
observation encoding, both built from the kernel contract only (``docs/rl.md``).

A :class:`Codec` is made per game configuration (game id, player count, options). It owns

* the **action catalogue**: a tuple of *keys*, one per index of the ``Discrete(N)`` action
  space, in a documented, stable order. A key is the canonical action text (``str(action)``),
  except where the notation carries a number that is not bounded by the board (island offer
  numbers, a Scythe cargo), which the key replaces by a small slot (``accept @1``: the first
  open offer; ``carry #2``: the second cargo listed). :meth:`Codec.keys` turns the legal
  actions of a step into keys; a legal action without an index raises
  :class:`UnmappedActionError` (loudly: the catalogue is incomplete);
* the **observation encoder**: :meth:`Codec.encode` turns ``state.observation(seat)`` (plain
  JSON, the only door out of a state) into a float32 vector of :attr:`Codec.obs_size`, with a
  named block layout (:meth:`Codec.layout`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from hexfolk.core import Action, Game

JSON = dict[str, Any]


class UnmappedActionError(LookupError):
    """A legal action has no index in the catalogue (a bug of the catalogue, never of play)."""


@dataclass(frozen=True, slots=True)
class Block:
    """A named run of features: ``vector[offset : offset + size]``."""

    name: str
    offset: int
    size: int
    meaning: str


class Features:
    """A feature layout under construction: blocks are declared once, in order; writing uses
    their offsets. Values are scaled into [0, 1] (counts divided by a documented scale and
    clipped)."""

    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self.size = 0

    def add(self, name: str, size: int, meaning: str) -> int:
        """Declare a block; return its offset."""
        offset = self.size
        self.blocks.append(Block(name, offset, size, meaning))
        self.size += size
        return offset


def scaled(value: float, scale: float) -> float:
    """``value / scale`` clipped into [0, 1]."""
    x = value / scale
    return 0.0 if x < 0.0 else 1.0 if x > 1.0 else x


def relative(seat: int, other: int, players: int) -> int:
    """Where ``other`` sits from ``seat``'s chair: 0 is ``seat`` itself, 1 the next seat..."""
    return (other - seat) % players


class Codec(ABC):
    """Action catalogue and observation encoder of one game configuration."""

    game: Game
    actions: tuple[str, ...]
    """The catalogue: index -> key."""
    index: dict[str, int]
    """key -> index."""
    features: Features

    def __init__(self, game: Game, actions: Sequence[str], features: Features):
        self.game = game
        self.actions = tuple(actions)
        if len(set(self.actions)) != len(self.actions):
            raise ValueError("the action catalogue repeats a key")
        self.index = {key: i for i, key in enumerate(self.actions)}
        self.features = features
        self._fixed: dict[Action, int] = {}
        """Index of every action seen whose key is not :meth:`dynamic`."""

    @property
    def num_actions(self) -> int:
        return len(self.actions)

    @property
    def obs_size(self) -> int:
        return self.features.size

    def layout(self) -> list[Block]:
        """The feature blocks in vector order (documented in ``docs/rl.md``)."""
        return list(self.features.blocks)

    def keys(self, legal: Sequence[Action], observation: JSON) -> list[str]:
        """The catalogue key of each legal action (same order). ``observation`` is the acting
        seat's view: slots (open offers) are numbered from it."""
        return [str(a) for a in legal]

    def dynamic(self, action: Action) -> bool:
        """True if the key of ``action`` depends on the observation or the other legal
        actions (a slot); the index of every other action is remembered."""
        return False

    def indices(self, legal: Sequence[Action], observation: JSON) -> list[int]:
        """The catalogue index of each legal action; :class:`UnmappedActionError` if one has
        none (or two legal actions share an index)."""
        fixed = self._fixed
        out = [fixed.get(action, -1) for action in legal]
        pending = [pos for pos, i in enumerate(out) if i < 0]
        if pending:
            actions = [legal[pos] for pos in pending]
            for pos, key, action in zip(pending, self.keys(actions, observation), actions):
                i = self.index.get(key)
                if i is None:
                    raise UnmappedActionError(
                        f"{self.game.id}: legal action {str(action)!r} (key {key!r}) has no "
                        f"index in the action catalogue"
                    )
                out[pos] = i
                if not self.dynamic(action):
                    fixed[action] = i
        if len(set(out)) != len(out):
            raise UnmappedActionError(
                f"{self.game.id}: two legal actions share an index: {[str(a) for a in legal]}"
            )
        return out

    def encode(self, observation: JSON) -> np.ndarray:
        """The float32 feature vector of a seat's observation."""
        vec = np.zeros(self.features.size, dtype=np.float32)
        self.write(observation, vec)
        return vec

    @abstractmethod
    def write(self, observation: JSON, vec: np.ndarray) -> None:
        """Fill ``vec`` (zeros, :attr:`obs_size`) from ``observation``."""


def _family(key: str) -> str:
    """The family of a catalogue key, for the index map: ``settle 12`` -> ``settle <node>``."""
    words = key.split()
    head = words[0]
    if head in ("trade", "offer", "commit", "play", "robber", "complete", "counter", "upgrade"):
        return " ".join(words[:2]) if head == "play" else head
    if head in ("bolster", "no", "sbp", "section", "artillery"):
        return key if head != "section" else head
    return head


def describe(codec: Codec) -> str:
    """The action index map (runs of one family) and the feature blocks, as text tables."""
    lines = [f"actions: Discrete({codec.num_actions})", "", "| indices | family | first .. last |"]
    lines.append("|---|---|---|")
    start = 0
    keys = codec.actions
    for i in range(1, len(keys) + 1):
        if i == len(keys) or _family(keys[i]) != _family(keys[start]):
            first, last = keys[start], keys[i - 1]
            span = f"`{first}`" if i - 1 == start else f"`{first}` .. `{last}`"
            lines.append(f"| {start}..{i - 1} | {_family(first)} | {span} |")
            start = i
    lines += ["", f"observation: float32[{codec.obs_size}]", ""]
    lines += ["| offset | size | block | meaning |", "|---|---|---|---|"]
    for b in codec.layout():
        lines.append(f"| {b.offset} | {b.size} | {b.name} | {b.meaning} |")
    return "\n".join(lines)
