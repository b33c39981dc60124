"""The positions check: ``state.position()`` and ``game.load_position(doc)`` agree everywhere.

Along seeded random games, at the start and every few steps (chance nodes, every prompt kind
met, simultaneous decisions, the end), :func:`check_positions` checks that

* the document is plain JSON, names the game, its players and options (``game.config()``),
  and does not change when written again from the loaded state;
* the state loaded from it (from the mapping and from its JSON text) is the same position:
  same fingerprint, seat to move, acting seats, prompt, legal actions in order, chance
  outcomes and every seat's and the spectator's observation (but its ``log``: the history
  that led to a position is not part of it, as with FEN);
* the loaded state is independent of the document (playing on it changes neither the document
  nor the original) and plays on exactly like the original (same fingerprints after the same
  random steps);
* a document from another game or with another player count is refused with
  :class:`~hexfolk.core.errors.PositionError` (a sentence); a document missing any one of its
  top-level fields is refused the same way, or its absence stands for a default and the state
  built is a whole position (it round-trips and plays on) -- never another exception, never
  a half-built state.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable
from typing import Any

from hexfolk.core.errors import PositionError
from hexfolk.core.game import CHANCE, JSON, TERMINAL, Game, State
from hexfolk.core.rng import make_rng
from hexfolk.core.testing.checks import ConformanceError


def check_positions(
    game: Game,
    seeds: Iterable[int],
    *,
    every: int = 11,
    max_steps: int = 400,
    follow: int = 6,
) -> int:
    """Check the positions contract along seeded random games (see the module docstring);
    return how many positions were checked. ``every``: steps between two checks; ``follow``:
    random steps played on the loaded state and the original after each check."""
    checked = 0
    for seed in seeds:
        rng = make_rng(seed, "positions")
        state = game.new_initial_state()
        for step in range(max_steps + 1):
            if step % every == 0 or state.is_terminal():
                where = f"{game.id} seed {seed} step {step}"
                _check_one(game, state, where, follow, seed)
                checked += 1
            if state.is_terminal():
                break
            state.apply(_random_step(state, rng))
    if checked == 0:
        raise ConformanceError(f"{game.id}: no position was checked (no seeds given)")
    return checked


def _random_step(state: State, rng: Any) -> Any:
    if state.current_player() == CHANCE:
        return state.sample_chance(rng)
    legal = state.legal_actions()
    return legal[int(rng.random() * len(legal))]


def _check_one(game: Game, state: State, where: str, follow: int, seed: int) -> None:
    try:
        doc = state.position()
    except NotImplementedError as exc:
        raise ConformanceError(f"{where}: {exc}") from None
    try:
        text = json.dumps(doc, sort_keys=True)
    except (TypeError, ValueError) as exc:
        raise ConformanceError(f"{where}: position() is not plain JSON: {exc}") from None
    if json.loads(text) != doc:
        raise ConformanceError(f"{where}: position() does not survive a JSON round trip")
    config = game.config()
    named = {"game": doc.get("game"), "players": doc.get("players"), "options": doc.get("options")}
    if named != {"game": game.id, **config}:
        raise ConformanceError(
            f"{where}: the position names {named}, not the game's { {'game': game.id, **config} }"
        )
    snapshot = copy.deepcopy(doc)
    for source, label in ((text, "its JSON text"), (doc, "the document")):  # play on the last
        try:
            loaded = game.load_position(source)
        except PositionError as exc:
            raise ConformanceError(f"{where}: load_position refuses {label}: {exc}") from None
        _same_position(state, loaded, f"{where}: loaded from {label}")
    if loaded.position() != doc:
        raise ConformanceError(f"{where}: the loaded state writes another position document")
    original = state.clone()
    rng_a, rng_b = make_rng(seed, "follow", where), make_rng(seed, "follow", where)
    for i in range(follow):
        if original.is_terminal():
            break
        original.apply(_random_step(original, rng_a))
        loaded.apply(_random_step(loaded, rng_b))
        if original.fingerprint() != loaded.fingerprint():
            raise ConformanceError(
                f"{where}: {i + 1} steps after loading, the loaded state differs from the original"
            )
    if doc != snapshot:
        raise ConformanceError(f"{where}: playing on the loaded state changed the document")
    _check_refusals(game, state, doc, where)


def _same_position(a: State, b: State, where: str) -> None:
    checks: list[tuple[str, Any, Any]] = [
        ("fingerprint", a.fingerprint(), b.fingerprint()),
        ("current_player", a.current_player(), b.current_player()),
        ("acting_seats", a.acting_seats(), b.acting_seats()),
        ("prompt", _prompt(a), _prompt(b)),
        ("legal actions", [str(x) for x in a.legal_actions()], [str(x) for x in b.legal_actions()]),
    ]
    if a.current_player() == CHANCE:
        checks.append(("chance outcomes", _outcomes(a), _outcomes(b)))
    for seat in [None, *range(a.game.num_players)]:
        checks.append((f"observation({seat})", _view(a, seat), _view(b, seat)))
        if seat is not None and a.current_player() != TERMINAL:
            checks.append(
                (
                    f"legal_actions_for({seat})",
                    [str(x) for x in a.legal_actions_for(seat)],
                    [str(x) for x in b.legal_actions_for(seat)],
                )
            )
    for what, mine, theirs in checks:
        if mine != theirs:
            raise ConformanceError(f"{where}: {what} differs ({_short(mine)} != {_short(theirs)})")


def _view(state: State, seat: int | None) -> JSON:
    """The observation without its ``log``: the log is the history that led to a position,
    not part of it (a game may carry it in its documents; its fingerprint says if it must)."""
    return {k: v for k, v in state.observation(seat).items() if k != "log"}


def _prompt(state: State) -> JSON | None:
    prompt = state.prompt()
    return prompt.to_json() if prompt is not None else None


def _outcomes(state: State) -> list[tuple[str, float]]:
    return [(str(a), p) for a, p in state.chance_outcomes()]


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 160 else text[:157] + "..."


def _check_refusals(game: Game, state: State, doc: JSON, where: str) -> None:
    for what, document in (
        ("another game's", {**doc, "game": f"not-{game.id}"}),
        ("another player count's", {**doc, "players": game.num_players + 1}),
    ):
        refused = _refusal(game, document, what, where)
        if refused is not None:
            raise ConformanceError(f"{where}: load_position accepted {what} position")
    for key in doc:
        what = f"a document without {key!r}"
        built = _refusal(game, _without(doc, key), what, where)
        if built is not None:  # the field's absence stands for a default: a whole position
            _whole(game, built, f"{where}: the state loaded from {what}")


def _whole(game: Game, state: State, where: str) -> None:
    """A state ``load_position`` accepted is a whole position: it writes a document that loads
    back to it, and random steps play on it."""
    try:
        again = game.load_position(state.position())
    except PositionError as exc:
        raise ConformanceError(f"{where} writes a position its game refuses: {exc}") from None
    if again.fingerprint() != state.fingerprint():
        raise ConformanceError(f"{where} does not round-trip through position()")
    rng = make_rng(0, "whole", where)
    for _ in range(3):
        if state.is_terminal():
            break
        if not state.is_chance() and not state.legal_actions():
            raise ConformanceError(f"{where}: seat {state.current_player()} has nothing legal")
        state.apply(_random_step(state, rng))


def _refusal(game: Game, document: JSON, what: str, where: str) -> State | None:
    """The state ``load_position`` builds from ``document``, or None if it refused it with a
    sentence; any other exception, or a refusal without a sentence, breaks the contract."""
    try:
        return game.load_position(document)
    except PositionError as exc:
        if not str(exc).strip():
            raise ConformanceError(f"{where}: the refusal of {what} has no sentence") from None
        return None
    except Exception as exc:  # the contract: a PositionError, nothing else
        raise ConformanceError(
            f"{where}: load_position of {what} raised {type(exc).__name__}: {exc}, "
            "not PositionError"
        ) from None


def _without(doc: JSON, key: str) -> JSON:
    return {k: v for k, v in doc.items() if k != key}
