"""Scythe's log as data (``docs/scythe.md``, "The log"): one English template per log form,
the renderers of its kinds, and :data:`LOG`, the game's :class:`~hexfolk.core.LogBook`.

Every line the engine logs is a :class:`ScytheLogLine` made by :meth:`Position.write_log`
from a form and its params (passed as values, in the order the template first names them:
:attr:`ScytheLogBook.names`): seats by number (``{seat:seat}`` reads ``P0``), territories and
home bases by their board id (``{territory:territory}`` reads the board's label, ``G4``,
:mod:`.territory_labels`), resources, structures, units, abilities, top boxes, bottom actions,
tiles and star sources by their ids, combat cards as lists of values. The English sentence is
the line's text (what golden files, the terminal and records show); the browser writes the
same form from ``web/i18n/log/scythe/<lang>.json`` (``en.json`` is :data:`TEMPLATES`).

The fingerprint (``full_state``) keeps each line as rules 0.2 wrote it (board ids, ``cards
[4, 2]``, ``winners: [1]``): :attr:`ScytheLogLine.rules_text`, so that old records replay.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import Any

from hexfolk.core import LogBook, LogLine
from hexfolk.core.reasons import ReasonBook, render_kind, template_parts
from hexfolk.games.scythe import data as D
from hexfolk.games.scythe.territory_labels import LABELS, PLACE_KINDS


def and_list(parts: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def cards_words(cards: list[int]) -> str:
    """Combat cards by value: ``no combat card``, ``combat card 4``, ``combat cards 4 and 2``."""
    if not cards:
        return "no combat card"
    return ("combat card " if len(cards) == 1 else "combat cards ") + and_list(
        [str(v) for v in cards]
    )


def winners_words(winners: list[int]) -> str:
    """``P1 wins``; ``P0 and P2 share the win`` (OQ-16); ``nobody wins``."""
    names = [f"P{q}" for q in winners]
    if not names:
        return "nobody wins"
    return f"{names[0]} wins" if len(names) == 1 else f"{and_list(names)} share the win"


def seating_words(seating: list[list[Any]]) -> str:
    """``P0 nordic/industrial, P1 crimea/engineering`` from ``[[seat, faction, mat], ...]``."""
    return ", ".join(f"P{seat} {faction}/{mat}" for seat, faction, mat in seating)


def _seat(seat: int) -> str:
    return f"P{seat}"


def _objective(number: int) -> str:
    return str(D.OBJECTIVE_BY_NUMBER[number]["name"])


KINDS: dict[str, Any] = {
    "seat": _seat,
    "cards": cards_words,
    "winners": winners_words,
    "seating": seating_words,
    "objective": _objective,
    # words the English writes as the engine names them (the browser translates them)
    "resource": str,
    "structure": str,
    "unit": str,
    "ability": str,
    "top": str,
    "top_box": str,
    "bottom": str,
    "tile": str,
    "star": str,
    "gain": str,
    "space": str,
}
"""The English renderers of the templates' kinds (``territory`` is a place kind)."""

TEMPLATES: dict[str, str] = {
    # setup and chance (SR-4, SR-46, SR-47, SR-51)
    "seating": "seating clockwise: {seating:seating}; {first:seat} starts",
    "tile": "structure bonus tile: {tile:tile}",
    "draws_objective": "{seat:seat} draws objective {number}",
    "draws_card": "{seat:seat} draws a combat card",
    "draws_card_value": "{seat:seat} draws a combat card ({value})",
    "reshuffle": "the combat discard pile is reshuffled into the deck",
    "scouts": "{seat:seat} scouts a combat card from {victim:seat}",
    "scouts_value": "{seat:seat} scouts a {value} from {victim:seat}",
    # the turn (SR-5..SR-10)
    "section": "{seat:seat} chooses section {section} ({top:top}/{bottom:bottom})",
    "factory_section": "{seat:seat} chooses Factory card {number}",
    "factory_move": "{seat:seat} takes the Factory card's Move",
    "takes": "{seat:seat} takes {bottom:bottom}",
    # tracks (SR-15)
    "gains": "{seat:seat} gains {amount} {what:gain}",
    "loses": "{seat:seat} loses {amount} {what:gain}",
    "declines": "{seat:seat} declines {amount} {what:gain}",
    # top-row actions (SR-16..SR-19), moves (SR-25..SR-34)
    "trades": "{seat:seat} trades for 1 {resource:resource} on {territory:territory}",
    "produces": "{seat:seat} produces {amount} {resource:resource} on {territory:territory}",
    "produces_workers": "{seat:seat} produces {amount} worker(s) on {territory:territory}",
    "moves": "{seat:seat} {unit:unit} to {to:territory}",
    "workers_home": "{seat:seat}'s {amount} worker(s) on {territory:territory} retreat home",
    # bottom-row actions (SR-12, SR-20..SR-24, SR-41)
    "pays": "{seat:seat} pays 1 {resource:resource} from {territory:territory}",
    "coercion": "{seat:seat} discards a {value} combat card (Coercion)",
    "upgrades": "{seat:seat} upgrades {top:top_box} and {bottom:bottom}",
    "deploys": "{seat:seat} deploys the {ability:ability} mech on {territory:territory}",
    "builds": "{seat:seat} builds a {structure:structure} on {territory:territory}",
    "enlists": "{seat:seat} enlists the {recruit:bottom} recruit ({space:space})",
    # combat (SR-43..SR-45)
    "combat": "combat on {territory:territory}: {seat:seat} attacks {defender:seat}",
    "artillery": "{seat:seat} fires Artillery",
    "disarm": "{seat:seat} uses Disarm",
    "commits": "{seat:seat} commits",
    "commits_cards": "{seat:seat} commits dial {dial} and {cards:cards}",
    "reveals": "{seat:seat} reveals dial {dial} and {cards:cards}: strength {total}",
    "wins": "{seat:seat} wins the combat on {territory:territory}",
    "retreat": "{seat:seat}'s units on {territory:territory} retreat to {to:territory}",
    # encounters and the Factory (SR-47..SR-49)
    "encounter": "{seat:seat} has an encounter on {territory:territory} (token removed)",
    "draws_encounter": "{seat:seat} draws encounter card {number}",
    "option": "{seat:seat} chooses option {option} of encounter card {number}",
    "gains_on": "{seat:seat} gains {amount} {resource:resource} on {territory:territory}",
    "gains_workers": "{seat:seat} gains {amount} worker(s) on {territory:territory}",
    "encounter_bottom": "encounter card {number} goes to the bottom of the deck",
    "factory_look": "{seat:seat}'s character is on the Factory: {seat:seat} looks at the offer",
    "factory_keep": "{seat:seat} keeps Factory card {number}",
    "factory_top": "{seat:seat} takes the top action of Factory card {number}",
    "factory_discard": "{seat:seat} discards a {value} combat card (Factory card cost)",
    # stars, objectives, the end (SR-50..SR-56)
    "star": "{seat:seat} places a star ({source:star}); {stars} stars",
    "reveals_objective": "{seat:seat} reveals objective {number} ({number:objective})",
    "discards_objective": "{seat:seat} discards objective {number}",
    "discards_objective_hidden": "{seat:seat} discards an objective face down",
    "game_over": "game over (sixth star): {winners:winners}",
    "game_over_combat": "game over (sixth star in combat): {winners:winners}",
    "game_over_recruit": "game over (sixth star from a recruit bonus): {winners:winners}",
    "game_over_objective": "game over (sixth star from an objective): {winners:winners}",
    "game_over_because": "game over ({reason}): {winners:winners}",
}
"""The English template of every log form (syntax: :mod:`hexfolk.core.reasons`)."""

GAME_OVER_FORMS: dict[str, str] = {
    "sixth star": "game_over",
    "sixth star in combat": "game_over_combat",
    "sixth star from a recruit bonus": "game_over_recruit",
    "sixth star from an objective": "game_over_objective",
}
"""The log form of the game's end by its reason (SR-11: each way a sixth star is placed); any
other reason (a game ended by hand) is ``game_over_because``, its reason in English."""

RULES_0_2: dict[str, str] = {
    **TEMPLATES,
    "commits_cards": "{seat:seat} commits dial {dial}, cards {cards}",
    "reveals": "{seat:seat} reveals dial {dial} and cards {cards}: {total}",
    "game_over": "game over (sixth star); winners: {winners}",
    "game_over_combat": "game over (sixth star in combat); winners: {winners}",
    "game_over_recruit": "game over (sixth star from a recruit bonus); winners: {winners}",
    "game_over_objective": "game over (sixth star from an objective); winners: {winners}",
    "game_over_because": "game over ({reason}); winners: {winners}",
}
"""The forms as rules 0.2 wrote them (rendered without board labels: places by id): the
text a line keeps in the fingerprinted full state."""

_RULES_0_2 = ReasonBook(RULES_0_2, KINDS, PLACE_KINDS)


class ScytheLogLine(LogLine):
    """A Scythe log line: the English sentence, its form and params (:class:`LogLine`), and
    its rules-0.2 text for the fingerprint."""

    @cached_property
    def rules_text(self) -> str:
        """The line as rules 0.2 wrote it (``P0 commits dial 3, cards [4, 2]``, board ids)."""
        return _RULES_0_2.render(self.form, self.params, None)


Writer = Callable[[dict[str, Any]], str]
"""A form compiled: its English sentence from its params."""

_WORDS = frozenset(k for k, render in KINDS.items() if render is str)
"""Kinds whose English is the value itself."""


def _compile(template: str) -> Writer | None:
    """``template`` compiled once to one f-string over the params (``None``: a template with
    a ``{name|one|other}``, which only the book's own renderer writes). The code is built
    from the template's parts alone: literals escaped, params read by name, a place by its
    label, a kind with a renderer through it (``kinds``); ``seat`` is ``P`` and the number."""
    source: list[str] = []
    for literal, name, kind, one, _ in template_parts(template):
        if "\n" in literal or "\\" in literal:  # pragma: no cover - not in Scythe's templates
            return None
        source.append(literal.replace('"', '\\"').replace("{", "{{").replace("}", "}}"))
        if name is None:
            continue
        if one is not None or not name.isidentifier():
            return None
        value = f"p[{name!r}]"
        if kind == "seat":
            source.append(f"P{{{value}}}")  # _seat
        elif kind is None or kind in _WORDS:
            source.append(f"{{{value}}}")
        elif kind == "territory":
            source.append(f"{{labels[{value}]}}")
        elif kind in KINDS:
            source.append(f"{{kinds[{kind!r}]({value})}}")
        else:  # pragma: no cover - the book checked every kind
            return None
    code = f'lambda p: f"{"".join(source)}"'
    namespace = {"labels": LABELS.by_id, "kinds": KINDS}
    writer: Writer = eval(code, namespace)
    return writer


def param_names(template: str) -> tuple[str, ...]:
    """The param names of ``template`` in the order it first names them (``factory_look``
    names ``seat`` twice: one param)."""
    names: dict[str, None] = {}
    for _, name, _, _, _ in template_parts(template):
        if name is not None:
            names.setdefault(name)
    return tuple(names)


class ScytheLogBook(LogBook):
    """Scythe's :class:`LogBook` with each form compiled once to an f-string, and the lines it
    shares: a line is written at every log write of every game (bots, RL, tables), so writing
    one costs what the engine's own f-strings cost before log entries were data (the same
    text as the book's renderer: ``tests/games/scythe/test_words.py``).
    """

    def __init__(self) -> None:
        super().__init__(TEMPLATES, KINDS, PLACE_KINDS)
        self.writers: dict[str, Writer | None] = {f: _compile(t) for f, t in TEMPLATES.items()}
        """Each form's compiled writer."""
        self.names: dict[str, tuple[str, ...]] = {f: param_names(t) for f, t in TEMPLATES.items()}
        """Each form's param names, in the order :meth:`write` takes their values (the order
        the template first names them)."""
        self.shared: dict[tuple[str, tuple[Any, ...]], ScytheLogLine] = {}
        """The lines :meth:`write` shares, by form and values (values, never identities)."""

    def make(self, form: str, params: dict[str, Any]) -> ScytheLogLine:
        """The line of ``form`` with ``params`` (territories by their board labels)."""
        writer = self.writers[form]
        if writer is None:  # pragma: no cover - no Scythe template has {name|one|other}
            text = self.book.render(form, params, None, LABELS)
        else:
            text = writer(params)
        return ScytheLogLine(text, form, params)

    def write(self, form: str, values: tuple[Any, ...]) -> ScytheLogLine:
        """The line the engine writes for ``form`` with its params' ``values`` (in the order
        of :attr:`names`; what :meth:`Position.write_log` passes): the line written before for
        the same form and values, else a new one (kept while the book holds fewer than
        :data:`SHARED_LINES_MAX` lines). A game writes the same few hundred lines over and
        over (``P0 gains 1 coins``), and lines are values (read-only, shared by cloned states
        already), so a write costs one lookup of the values the call packed anyway, neither
        a text nor a new object. Lines whose values hold a list (combat cards, winners) are
        made each time. A wrong number of values is a :class:`TypeError`."""
        try:
            return self.shared[form, values]
        except KeyError:
            line = self.make(form, self.params(form, values))
            if len(self.shared) < SHARED_LINES_MAX:
                self.shared[form, values] = line
            return line
        except TypeError:  # a list value: not hashable
            return self.make(form, self.params(form, values))

    def params(self, form: str, values: tuple[Any, ...]) -> dict[str, Any]:
        """The params of a line of ``form`` by name, from their ``values`` in :attr:`names`
        order."""
        names = self.names[form]
        if len(values) != len(names):
            raise TypeError(f"log form {form!r} takes {names}, not {len(values)} values {values}")
        return dict(zip(names, values, strict=True))


SHARED_LINES_MAX = 20_000
"""How many lines :meth:`ScytheLogBook.write` keeps to share (about 800 distinct lines in five
two-player games; a few MB at most)."""

LOG = ScytheLogBook()
"""Scythe's log book (``ScytheGame.log_book``)."""


def words_for(form: str, params: dict[str, Any], viewer: int | None) -> str:
    """The English sentence of a line of ``form`` with ``params`` as ``viewer`` reads it: the
    first seat the sentence names is marked ``P0 (you)`` when it is the viewer's (the
    terminal's log)."""
    out: list[str] = []
    marked = viewer is None
    for literal, name, kind, one, other in template_parts(LOG.templates[form]):
        out.append(literal)
        if name is None:
            continue
        value = params[name]
        if one is not None:
            single = len(value) == 1 if isinstance(value, list) else value == 1
            out.append(one if single else (other or ""))
        elif kind is None:
            out.append(str(value))
        else:
            out.append(render_kind(LOG.book.kinds, kind, value, LABELS))
            if kind in ("seat", "seating", "winners") and not marked:
                marked = True
                if kind == "seat" and value == viewer:
                    out.append(" (you)")
    return "".join(out)


def rules_text(line: str) -> str:
    """The text a log line keeps in the fingerprint: a :class:`ScytheLogLine`'s rules-0.2
    text; a plain line (of a position document written before log entries were data) as it
    is."""
    return line.rules_text if type(line) is ScytheLogLine else line
