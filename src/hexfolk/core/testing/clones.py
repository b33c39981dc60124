"""Clone isolation (issue 11): playing on clones never changes how the original plays.

A search bot clones the real state (or draws worlds with ``sample_consistent_state``) and plays
thousands of imagined steps on the copies. If a copy shares anything mutable with the original -
a memo dict, a list it forgot to copy - the imagined steps can leak into the real game. The
island engine once did exactly that: ``clone()`` shared its income and build memos, a building
change replaced them only when they were not empty, so clones made during setup (when they are
empty) wrote entries for imagined buildings into the real game's memo, and the real game paid
wrong production many turns later; its records no longer replayed. Random playouts never clone,
so no other check saw it.

:func:`check_clone_isolation` plays a random game (the same one :func:`.play_random` plays for
the seed) on two states side by side: the *original*, which is cloned at many points and whose
clones and sampled worlds are played on at random, and the *rebuilt* state, which replays the
same actions on a fresh ``game.new_initial_state()`` and is never cloned. At every step both
must agree: seat to move, acting seats, legal actions (in order), prompt, chance outcomes (the
listed pairs, the outcome drawn from equally seeded RNGs and ``is_possible_chance``), turn count;
at clone points also the fingerprint; in the opening, every ``observe_every`` steps and at the
end also every observation. A difference is a :class:`.ConformanceError` naming the game, seed,
step, what differed and the clone point whose copies cause it (found by bisecting the clone
points).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from hexfolk.core.actions import Action
from hexfolk.core.errors import ActionError
from hexfolk.core.game import CHANCE, TERMINAL, Game, State
from hexfolk.core.rng import make_rng
from hexfolk.core.testing.checks import ConformanceError, _first_difference, play_random

_STREAM = "clone-isolation"
_SINGLES_BUDGET = 200_000
"""Most lockstep steps spent trying clone points one by one when bisecting stops."""


@dataclass(frozen=True, slots=True)
class _Settings:
    opening_steps: int
    clone_every: int
    continuation_steps: int
    worlds: int
    observe_every: int
    only: int | None = None
    """Play on only this copy at each clone point (0: the clone, 1..: the worlds)."""


@dataclass(frozen=True, slots=True)
class _Failure:
    step: int
    what: str


def check_clone_isolation(
    game: Game,
    seeds: Iterable[int],
    *,
    turn_cap: int | None = None,
    opening_steps: int = 60,
    clone_every: int = 25,
    continuation_steps: int = 60,
    worlds: int = 2,
    observe_every: int = 50,
) -> None:
    """Clones and sampled worlds played on never change how the original plays (issue 11).

    For each seed, a random game (:func:`.play_random` with ``turn_cap``) is replayed on the
    *original* state and, in lockstep, on a *rebuilt* one that is never cloned. The original is
    cloned at every one of the first ``opening_steps`` steps (setup and opening, where memos are
    still empty) and then every ``clone_every`` steps; at each such clone point a plain
    ``clone()`` and ``worlds`` states from ``sample_consistent_state`` (the seat to move first,
    as an ISMCTS bot draws them, then other seats and the spectator in turn) each play
    ``continuation_steps`` random steps (random legal actions, chance outcomes drawn from a
    seeded RNG). Before every step the original and the rebuilt state must agree on
    ``current_player()``, ``acting_seats()``, ``legal_actions()`` (same order, and
    ``legal_actions_for`` every acting seat), ``prompt()``, ``turn_count()`` and at chance
    nodes ``chance_outcomes()``, the outcome ``sample_chance`` draws from equally seeded RNGs and
    ``is_possible_chance`` of the next outcome; at every clone point they must also have the
    same ``fingerprint()``, and in the opening, every ``observe_every`` steps and at the end
    also the same ``observation(seat)`` for every seat and the spectator (observations carry
    the log, so they are the costly part) and, at the end, the same results.

    A difference raises :class:`.ConformanceError` with the game, seed, step, what differed and
    the clone point whose clones alone reproduce it (bisected over the clone points).
    """
    settings = _Settings(
        opening_steps, max(1, clone_every), continuation_steps, worlds, max(1, observe_every)
    )
    for seed in seeds:
        actions = play_random(game, seed, turn_cap=turn_cap).actions
        points = _clone_points(len(actions), settings)
        failure = _lockstep(game, seed, actions, points, settings)
        if failure is None:
            continue
        before = sorted(p for p in points if p <= failure.step)
        culprit = _localise(game, seed, actions, before, failure, settings)
        raise ConformanceError(
            f"{_name(game)} seed {seed} step {failure.step}: {failure.what}; {culprit}"
        )


def _clone_points(length: int, settings: _Settings) -> set[int]:
    """Steps before which the original is cloned: all of the opening, then every few steps."""
    opening = min(length, settings.opening_steps)
    later = range(opening, length, settings.clone_every)
    return {*range(opening), *later}


def _name(game: Game) -> str:
    changed = [
        f"{spec.name}={game.options[spec.name]!r}"
        for spec in game.option_specs
        if game.options.get(spec.name) != spec.default
    ]
    options = f", {', '.join(changed)}" if changed else ""
    return f"{game.id} ({game.num_players} players{options})"


# --- the two states side by side ---------------------------------------------------------------
_LEGAL, _FINGERPRINT, _VIEWS = range(3)
"""How much :func:`_difference` compares: whose move, legal actions, chance and prompt; also
the fingerprint; also every observation (and the results at the end)."""

Difference = tuple[str, str]
"""What differs (``"legal actions differ"``) and how (``"original has [...], rebuilt ..."``)."""


def _lockstep(
    game: Game,
    seed: int,
    actions: Sequence[Action],
    points: set[int],
    settings: _Settings,
    stop: int | None = None,
) -> _Failure | None:
    """Play ``actions`` on the original (cloned at ``points``) and on the rebuilt state; the
    first difference (up to step ``stop``), or None."""
    original = game.new_initial_state()
    rebuilt = game.new_initial_state()
    last = len(actions) if stop is None else min(stop, len(actions))
    cloned = False
    for step in range(last + 1):
        at_point = step in points
        if at_point:
            _play_on_clones(game, original, seed, step, settings)
            cloned = True
        # fingerprints at every clone point, observations (costly: they carry the log) in the
        # opening, every few steps and at the end
        views = (
            step < settings.opening_steps
            or step % settings.observe_every == 0
            or step in (last, len(actions))
        )
        depth = _VIEWS if views else _FINGERPRINT if at_point else _LEGAL
        following = actions[step] if step < len(actions) else None
        found: Difference | None
        try:
            found = _difference(original, rebuilt, seed, step, following, depth)
        except Exception as exc:  # a poisoned original may fail in any way
            found = ("the original fails", f"{exc!r}, where the rebuilt state does not")
        if found is not None:
            when = "after clones played on" if cloned else "before any clone was taken"
            return _Failure(step, f"{found[0]} {when}: {found[1]}")
        if following is None or step == last:
            return None
        try:
            rebuilt.apply(following)
        except ActionError as exc:
            raise ConformanceError(
                f"{_name(game)} seed {seed} step {step}: the random playout does not replay on "
                f"a fresh state ({following!s}: {exc}); the game is not deterministic"
            ) from None
        try:
            original.apply(following)
        except Exception as exc:
            return _Failure(
                step,
                f"the original refuses {str(following)!r} after clones played on, which the "
                f"rebuilt state applies: {exc!r}",
            )
    return None


def _difference(
    original: State,
    rebuilt: State,
    seed: int,
    step: int,
    following: Action | None,
    depth: int,
) -> Difference | None:
    """What differs between the original and the rebuilt state now (None: nothing)."""
    a, b = original.current_player(), rebuilt.current_player()
    if a != b:
        return "current_player() differs", f"original {a}, rebuilt {b}"
    if (x := original.acting_seats()) != (y := rebuilt.acting_seats()):
        return "acting seats differ", f"original {x}, rebuilt {y}"
    if a >= 0:
        found = _lists("legal actions", original.legal_actions(), rebuilt.legal_actions())
        for seat in x:
            if found is None and seat != a:
                mine = original.legal_actions_for(seat)
                theirs = rebuilt.legal_actions_for(seat)
                found = _lists(f"legal actions of seat {seat}", mine, theirs)
        if found is not None:
            return found
    elif a == CHANCE:
        found = _chance_difference(original, rebuilt, seed, step, following)
        if found is not None:
            return found
    pa, pb = original.prompt(), rebuilt.prompt()
    if pa != pb:
        return "prompt() differs", f"original {pa}, rebuilt {pb}"
    if (ta := original.turn_count()) != (tb := rebuilt.turn_count()):
        return "turn_count() differs", f"original {ta}, rebuilt {tb}"
    if depth < _FINGERPRINT:
        return None
    if original.fingerprint() != rebuilt.fingerprint():
        where = _first_difference(original.full_state(), rebuilt.full_state())
        return "fingerprint differs", f"full_state() of the original != the rebuilt at {where}"
    if depth < _VIEWS:
        return None
    for seat in [*range(original.game.num_players), None]:
        view, other = original.observation(seat), rebuilt.observation(seat)
        if view != other:
            who = "the spectator" if seat is None else f"seat {seat}"
            where = _first_difference(view, other)
            return f"observation of {who} differs", f"original != rebuilt at {where}"
    if a == TERMINAL:
        mine_end = (original.returns(), original.scores())
        theirs_end = (rebuilt.returns(), rebuilt.scores())
        if mine_end != theirs_end:
            return "results differ", f"(returns, scores) original {mine_end}, rebuilt {theirs_end}"
    return None


def _chance_difference(
    original: State, rebuilt: State, seed: int, step: int, following: Action | None
) -> Difference | None:
    mine = [(str(o), p) for o, p in original.chance_outcomes()]
    theirs = [(str(o), p) for o, p in rebuilt.chance_outcomes()]
    if mine != theirs:
        return "chance outcomes differ", f"original has {_short(mine)}, rebuilt {_short(theirs)}"
    # games whose outcomes are too many to list (a whole board layout) draw and check instead
    drawn = original.sample_chance(make_rng(seed, _STREAM, "chance", step))
    again = rebuilt.sample_chance(make_rng(seed, _STREAM, "chance", step))
    if drawn != again:
        return (
            "sample_chance() differs",
            f"from equally seeded RNGs the original draws {drawn!s}, the rebuilt {again!s}",
        )
    for outcome in (drawn, following):
        if outcome is None:
            continue
        x, y = original.is_possible_chance(outcome), rebuilt.is_possible_chance(outcome)
        if x != y:
            return f"is_possible_chance({outcome!s}) differs", f"original {x}, rebuilt {y}"
    return None


def _lists(what: str, mine: Sequence[Action], theirs: Sequence[Action]) -> Difference | None:
    if list(mine) == list(theirs):
        return None
    a, b = [str(x) for x in mine], [str(x) for x in theirs]
    in_a, in_b = set(a), set(b)
    only_a = [x for x in a if x not in in_b]
    only_b = [x for x in b if x not in in_a]
    if not only_a and not only_b and len(a) == len(b):
        i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), 0)
        detail = f"the same actions in another order, first at #{i}: {a[i]!r} vs {b[i]!r}"
    else:
        detail = f"only the original has {_short(only_a)}, only the rebuilt has {_short(only_b)}"
    return f"{what} differ", f"original has {_short(a)}, rebuilt has {_short(b)} ({detail})"


def _short(items: Sequence[Any], limit: int = 10) -> str:
    shown = ", ".join(str(x) for x in items[:limit])
    more = f", ... {len(items) - limit} more" if len(items) > limit else ""
    return f"[{shown}{more}]"


# --- the clones --------------------------------------------------------------------------------
_CLONE = -1
"""In :func:`_branches`: the copy is a plain ``clone()``, not a sampled world."""


def _branches(
    game: Game, original: State, step: int, settings: _Settings
) -> list[tuple[str, int | None]]:
    """The copies taken at ``step`` as (label, viewer): a clone (viewer :data:`_CLONE`), then
    worlds sampled for the seat to move (as an ISMCTS bot draws them) and for the other seats
    and the spectator in turn."""
    player = original.current_player()
    if player == TERMINAL:
        return []
    n = game.num_players
    mover = player if player >= 0 else step % n
    others: list[int | None] = [*(s for s in range(n) if s != mover), None]
    k = step % len(others)
    viewers = [mover, *others[k:], *others[:k]][: settings.worlds]
    return [("a clone", _CLONE), *((f"a world sampled for {_who(v)}", v) for v in viewers)]


def _who(viewer: int | None) -> str:
    return "the spectator" if viewer is None else f"seat {viewer}"


def _play_on_clones(game: Game, original: State, seed: int, step: int, settings: _Settings) -> None:
    """A clone and sampled worlds of ``original`` (those in ``settings.only``, if given), each
    played on at random with its own seeded RNG."""
    for index, (label, viewer) in enumerate(_branches(game, original, step, settings)):
        if settings.only is not None and index != settings.only:
            continue
        rng = make_rng(seed, _STREAM, step, index)
        if viewer == _CLONE:
            branch = original.clone()
        else:
            branch = original.sample_consistent_state(viewer, rng)
        where = f"{_name(game)} seed {seed}: {label} taken at step {step}"
        _play_branch(branch, rng, settings.continuation_steps, where)


def _play_branch(branch: State, rng: random.Random, steps: int, where: str) -> None:
    """Random steps on a copy, reading it the way bots do (legal actions, observations)."""
    player = branch.current_player()
    try:
        for i in range(steps):
            player = branch.current_player()
            if player == TERMINAL:
                break
            if player == CHANCE:
                action = branch.sample_chance(rng)
            else:
                legal = branch.legal_actions()
                if not legal:
                    raise ConformanceError(f"{where} has no legal action after {i} steps")
                action = legal[int(rng.random() * len(legal))]
            branch.apply_unchecked(action)
        if player >= 0:
            branch.observation(player)
    except ConformanceError:
        raise
    except Exception as exc:
        raise ConformanceError(f"{where} does not play on: {exc!r}") from exc


# --- which clone point is to blame -------------------------------------------------------------
def _localise(
    game: Game,
    seed: int,
    actions: Sequence[Action],
    candidates: list[int],
    failure: _Failure,
    settings: _Settings,
) -> str:
    """Bisect the clone points up to the failing step to the ones whose copies cause it, then
    name the copy taken there that causes it alone."""

    def fails(points: list[int], only: int | None = None) -> bool:
        trial = replace(settings, only=only)
        return _lockstep(game, seed, actions, set(points), trial, stop=failure.step) is not None

    if not candidates or fails([]):
        return "it happens without any clone too: the game is not deterministic"

    found = candidates
    while len(found) > 1:
        half = len(found) // 2
        if fails(found[:half]):
            found = found[:half]
        elif fails(found[half:]):
            found = found[half:]
        else:  # clones from both halves are needed together, or one alone masked by others
            if len(found) * (failure.step + 1) <= _SINGLES_BUDGET:
                found = next(([p] for p in found if fails([p])), found)
            break
    steps = f"{settings.continuation_steps} random steps"
    if len(found) > 1:
        return (
            f"clone points: steps {found[0]}..{found[-1]} together (no half of them alone "
            f"reproduces it; at each a clone and {settings.worlds} sampled world(s), {steps})"
        )
    point = found[0]
    state = game.new_initial_state()
    for action in actions[:point]:
        state.apply(action)
    for index, (label, _) in enumerate(_branches(game, state, point, settings)):
        if fails([point], index):
            return f"clone point: step {point} ({label} taken there and played on for {steps})"
    return (
        f"clone point: step {point} (its clone and {settings.worlds} sampled world(s) together, "
        f"{steps} each)"
    )
