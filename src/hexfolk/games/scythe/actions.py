"""Scythe actions: one frozen dataclass per kind, with a canonical text that round-trips.

See ``docs/scythe.md`` for the notation. Locations are written by their board ids
(``r3c4``, ``home_nordic``); resources, structures, top boxes, recruits and mech abilities by
their data ids (``oil``, ``mill``, ``move-units``, ``build``, ``speed``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hexfolk.core import Action, MalformedActionError
from hexfolk.core.action_forms import (
    WHOLE,
    Derived,
    Renamed,
    action_kind,
    counts,
    named,
    numbers,
    optional,
    words,
    written,
)
from hexfolk.games.scythe import data as D

UNIT_KINDS = ("character", "mech", "worker")


def mech_slot(ability: str) -> int:
    """The mech slot (0..3) an ability covers on every faction mat that has it; -1 if none."""
    slot = -1
    for f in D.FACTIONS:
        if ability in f["mech_abilities"]:
            slot = f["mech_abilities"].index(ability)
    return slot


MECH_ABILITIES: tuple[str, ...] = tuple(a for a in D.ABILITY_NAMES if mech_slot(a) >= 0)
"""The abilities a mech deployment can name (those of the factions' mech slots)."""


def _loc(text: str) -> int:
    i = D.LOC_INDEX.get(text)
    if i is None:
        raise MalformedActionError(f"{text!r} is not a territory or home base of the board")
    return i


def _res(text: str) -> int:
    i = D.RES_INDEX.get(text)
    if i is None:
        raise MalformedActionError(f"{text!r} is not a resource ({', '.join(D.RESOURCES)})")
    return i


# --- the JSON form of actions ---------------------------------------------------------------
# Each action class below names its kind (``@action_kind``); its fields are written in JSON as
# the text writes them (docs/scythe.md, "Actions as data"): places, resources, structures, top
# boxes and recruits by their ids, numbers as numbers, ``null`` for "all" of an amount.

LOCATION = named(D.LOC_NAMES)
"""A territory or home base by its board id: ``"r3c4"``, ``"home_nordic"``."""
ON = Renamed("territory", LOCATION)
"""The ``loc`` of an action done on a place, written ``territory``."""
RESOURCE = named(D.RESOURCES)
"""A resource by name: ``"oil"``."""
ALL = optional(WHOLE, 0)
"""An amount of a benefit, ``null`` for all of it (SR-12)."""


def _load_section(value: Any) -> int:
    if value == "factory" and type(value) is str:
        return D.FACTORY_SECTION
    if type(value) is not int or not 1 <= value <= D.MAT_SECTIONS:
        raise ValueError
    return value - 1


def _dump_section(section: int) -> int | str:
    return "factory" if section == D.FACTORY_SECTION else section + 1


SECTION = written(
    f"a section number 1..{D.MAT_SECTIONS} or 'factory'", _load_section, _dump_section
)
"""A mat section as the text numbers it (1-based), or ``"factory"``."""


# --- turn skeleton --------------------------------------------------------------------------
@action_kind("section", section=SECTION)
@dataclass(frozen=True, slots=True)
class ChooseSection(Action):
    """Step 1: put the action token on a mat section (0-based) or the Factory card
    (``D.FACTORY_SECTION``)."""

    section: int

    def __str__(self) -> str:
        if self.section == D.FACTORY_SECTION:
            return "section factory"
        return f"section {self.section + 1}"


@action_kind("skip")
@dataclass(frozen=True, slots=True)
class Skip(Action):
    """Decline the pending action or benefit (top action, bottom action, benefit)."""

    def __str__(self) -> str:
        return "skip"


@action_kind("done")
@dataclass(frozen=True, slots=True)
class Done(Action):
    """Finish a multi-part benefit early (no more units to move, territories, tokens)."""

    def __str__(self) -> str:
        return "done"


@action_kind("end")
@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """Close the turn (offered only when an objective could still be revealed)."""

    def __str__(self) -> str:
        return "end"


@action_kind("bottom")
@dataclass(frozen=True, slots=True)
class TakeBottom(Action):
    """Take the section's bottom-row action (its cost is paid next). ``bottom no-coins``
    (accepted by the parser, not listed) declines the section coins (SR-7)."""

    coins: bool = True

    def __str__(self) -> str:
        return "bottom" if self.coins else "bottom no-coins"


@action_kind("reveal")
@dataclass(frozen=True, slots=True)
class Reveal(Action):
    """Reveal a held objective whose condition holds now (SR-51)."""

    number: int

    def __str__(self) -> str:
        return f"reveal {self.number}"


# --- top row --------------------------------------------------------------------------------
@action_kind("coins", amount=ALL)
@dataclass(frozen=True, slots=True)
class MoveCoins(Action):
    """Move's alternative: gain coins instead of moving (SR-16). ``amount`` 0 = all;
    ``coins 1`` (accepted, not listed) takes part of the benefit (SR-12)."""

    amount: int = 0

    def __str__(self) -> str:
        return f"coins {self.amount}" if self.amount else "coins"


@action_kind("bolster", kind=Renamed("gain", words(("power", "cards"))), amount=ALL)
@dataclass(frozen=True, slots=True)
class Bolster(Action):
    """Bolster: ``power`` or ``cards`` (SR-17); ``amount`` 0 = all, else part (SR-12)."""

    kind: str
    amount: int = 0

    def __str__(self) -> str:
        return f"bolster {self.kind} {self.amount}" if self.amount else f"bolster {self.kind}"


@action_kind("trade_popularity", amount=ALL)
@dataclass(frozen=True, slots=True)
class TradePopularity(Action):
    """Trade for popularity (SR-18); ``amount`` 0 = all, else part (SR-12)."""

    amount: int = 0

    def __str__(self) -> str:
        return f"trade popularity {self.amount}" if self.amount else "trade popularity"


@action_kind("trade", resource=RESOURCE, loc=ON)
@dataclass(frozen=True, slots=True)
class TradeResource(Action):
    """Trade: gain one resource token placed on ``loc`` (repeated for the second token)."""

    resource: int
    loc: int

    def __str__(self) -> str:
        return f"trade {D.RESOURCES[self.resource]} {D.LOC_NAMES[self.loc]}"


@action_kind("produce", loc=ON, amount=ALL)
@dataclass(frozen=True, slots=True)
class Produce(Action):
    """Produce on one more territory (SR-19). ``amount`` 0 = every worker there produces;
    ``produce r1c6 1`` (accepted, not listed) produces less (SR-12)."""

    loc: int
    amount: int = 0

    def __str__(self) -> str:
        if self.amount:
            return f"produce {D.LOC_NAMES[self.loc]} {self.amount}"
        return f"produce {D.LOC_NAMES[self.loc]}"


@action_kind("move", kind=Renamed("unit", named(UNIT_KINDS)), loc=Renamed("from", LOCATION))
@dataclass(frozen=True, slots=True)
class SelectUnit(Action):
    """Move: pick the next unit, by kind and location (mechs/workers there are alike)."""

    kind: int
    loc: int

    def __str__(self) -> str:
        return f"move {UNIT_KINDS[self.kind]} {D.LOC_NAMES[self.loc]}"


@action_kind("carry", resources=counts(D.RESOURCES))
@dataclass(frozen=True, slots=True)
class Carry(Action):
    """What the moving unit takes along: own workers (mechs only) and resource tokens."""

    workers: int
    resources: tuple[int, int, int, int]

    def __str__(self) -> str:
        parts = []
        if self.workers:
            parts.append(f"{self.workers}worker")
        for i, n in enumerate(self.resources):
            if n:
                parts.append(f"{n}{D.RESOURCES[i]}")
        return "carry " + (" ".join(parts) if parts else "none")


@action_kind("step", loc=Renamed("to", LOCATION))
@dataclass(frozen=True, slots=True)
class Step(Action):
    """Move the selected unit one step (geometric or derived link)."""

    loc: int

    def __str__(self) -> str:
        return f"to {D.LOC_NAMES[self.loc]}"


@action_kind("stop")
@dataclass(frozen=True, slots=True)
class Stop(Action):
    """End the selected unit's movement before its last possible step."""

    def __str__(self) -> str:
        return "stop"


# --- combat ---------------------------------------------------------------------------------
@action_kind("fight", loc=ON)
@dataclass(frozen=True, slots=True)
class Fight(Action):
    """The attacker picks the next combat to resolve."""

    loc: int

    def __str__(self) -> str:
        return f"fight {D.LOC_NAMES[self.loc]}"


@action_kind("artillery")
@dataclass(frozen=True, slots=True)
class UseArtillery(Action):
    """Artillery before combat: pay 1 power, the opponent loses 2 (or decline)."""

    use: bool

    def __str__(self) -> str:
        return "artillery" if self.use else "no artillery"


@action_kind("commit", cards=numbers(ordered=True))
@dataclass(frozen=True, slots=True)
class Commit(Action):
    """Secret combat commitment: dial value and combat card values (sorted)."""

    dial: int
    cards: tuple[int, ...]

    def __str__(self) -> str:
        if not self.cards:
            return f"commit {self.dial}"
        return f"commit {self.dial} cards " + ",".join(str(c) for c in self.cards)


@action_kind("retreat", loc=Renamed("to", LOCATION))
@dataclass(frozen=True, slots=True)
class Retreat(Action):
    """Seaworthy loser: retreat character and mechs to ``loc`` (home base or adjacent lake).
    Onto a lake a retreating mech takes the workers along (OQ-8) unless ``workers`` is False
    (``retreat r2c2 no-workers``: the workers go home)."""

    loc: int
    workers: bool = True

    def __str__(self) -> str:
        if not self.workers:
            return f"retreat {D.LOC_NAMES[self.loc]} no-workers"
        return f"retreat {D.LOC_NAMES[self.loc]}"


# --- encounters and Factory cards (SR-47..SR-49) ----------------------------------------------
#: Fixed gains of a card that may be declined in part (SR-47, SR-49), by notation name;
#: ``cards`` stands for the data key ``combat_cards``.
DECLINABLE: tuple[str, ...] = ("coins", "power", "popularity", "cards", "worker", *D.RESOURCES)
DECLINE_KEY: dict[str, str] = {
    **{name: name for name in DECLINABLE},
    "cards": "combat_cards",
}
_DECLINE_ALIAS: dict[str, str] = {
    **{name: name for name in DECLINABLE},
    "workers": "worker",
    "combat_cards": "cards",
    "coin": "coins",
}

Declines = tuple[tuple[str, int], ...]
"""Parts of a card's fixed gains left untaken: ``(name, amount)``, amount 0 = all of it."""


def _decline_text(decline: Declines) -> str:
    items = [f"{name}:{amount}" if amount else name for name, amount in decline]
    return " decline " + ",".join(items) if items else ""


def _load_declines(value: Any) -> Declines:
    if type(value) is not dict:
        raise ValueError
    out: list[tuple[str, int]] = []
    for name, amount in value.items():
        if name not in DECLINE_KEY:
            raise ValueError
        if amount is None:
            out.append((name, 0))
        elif type(amount) is int and amount > 0:
            out.append((name, amount))
        else:
            raise ValueError
    return tuple(sorted(out, key=lambda kv: DECLINABLE.index(kv[0])))


def _dump_declines(decline: Declines) -> dict[str, int | None]:
    return {name: amount or None for name, amount in decline}


DECLINES = written(
    "an object of amounts declined by name (" + ", ".join(DECLINABLE) + "; null: all of it)",
    _load_declines,
    _dump_declines,
)
"""The parts of a card's fixed gains left untaken: ``{"popularity": null, "coins": 1}``."""


@action_kind("option", slot=Renamed("option", WHOLE), decline=DECLINES)
@dataclass(frozen=True, slots=True)
class EncounterOption(Action):
    """Choose option ``slot`` (1-based) of the drawn encounter card (SR-47; Polania: two).

    ``decline`` leaves part of the option's fixed gains untaken (SR-47 "take any part of its
    benefit"): ``option 1 decline popularity`` (none of the popularity), ``option 1 decline
    coins:1`` (one coin fewer), several parts comma-separated. Accepted by the parser, not
    listed among the legal actions (like the partial forms of SR-12)."""

    slot: int
    decline: Declines = ()

    def __str__(self) -> str:
        return f"option {self.slot}{_decline_text(self.decline)}"


@action_kind("gain", resource=RESOURCE, loc=ON)
@dataclass(frozen=True, slots=True)
class GainResource(Action):
    """Place one gained resource token of a card benefit ("any resources") on ``loc``."""

    resource: int
    loc: int

    def __str__(self) -> str:
        return f"gain {D.RESOURCES[self.resource]} {D.LOC_NAMES[self.loc]}"


@action_kind("factory")
@dataclass(frozen=True, slots=True)
class TakeFactory(Action):
    """Keep Factory card ``number`` from the offer (SR-48)."""

    number: int

    def __str__(self) -> str:
        return f"factory {self.number}"


@action_kind("top", decline=DECLINES)
@dataclass(frozen=True, slots=True)
class FactoryTop(Action):
    """Take the held Factory card's top action (its cost is paid first, SR-49).
    ``top decline popularity`` (accepted, not listed) leaves part of its fixed gains untaken,
    written as for :class:`EncounterOption`."""

    decline: Declines = ()

    def __str__(self) -> str:
        return f"top{_decline_text(self.decline)}"


# --- bottom row -----------------------------------------------------------------------------
@action_kind("pay", resource=RESOURCE, loc=ON)
@dataclass(frozen=True, slots=True)
class Pay(Action):
    """Pay one resource token from a controlled territory."""

    resource: int
    loc: int

    def __str__(self) -> str:
        return f"pay {D.RESOURCES[self.resource]} {D.LOC_NAMES[self.loc]}"


@action_kind("pay_card")
@dataclass(frozen=True, slots=True)
class PayCard(Action):
    """Coercion: discard a combat card of this value instead of one resource token."""

    value: int

    def __str__(self) -> str:
        return f"pay card {self.value}"


@action_kind(
    "upgrade",
    box=Renamed("top", named([b["id"] for b in D.TOP_BOXES])),
    bottom=named(D.BOTTOM_ACTIONS),
)
@dataclass(frozen=True, slots=True)
class Upgrade(Action):
    """Move a cube from a top box to a bottom section's slot (SR-21)."""

    box: int
    bottom: int

    def __str__(self) -> str:
        return f"upgrade {D.TOP_BOXES[self.box]['id']} {D.BOTTOM_ACTIONS[self.bottom]}"


@action_kind(
    "deploy",
    mech=Derived(lambda f: mech_slot(f["ability"])),
    ability=words(MECH_ABILITIES),
    loc=ON,
)
@dataclass(frozen=True, slots=True)
class Deploy(Action):
    """Deploy the mech covering ability slot ``mech`` onto ``loc`` (SR-22)."""

    mech: int
    ability: str
    loc: int

    def __str__(self) -> str:
        return f"deploy {self.ability} {D.LOC_NAMES[self.loc]}"


@action_kind("build", structure=named(D.STRUCTURES), loc=ON)
@dataclass(frozen=True, slots=True)
class Build(Action):
    """Build a structure on ``loc`` (SR-23)."""

    structure: int
    loc: int

    def __str__(self) -> str:
        return f"build {D.STRUCTURES[self.structure]} {D.LOC_NAMES[self.loc]}"


@action_kind("enlist", recruit=named(D.BOTTOM_ACTIONS), space=named(D.ENLIST_SPACE_IDS))
@dataclass(frozen=True, slots=True)
class Enlist(Action):
    """Enlist the recruit of bottom action ``recruit`` onto one-time space ``space`` (SR-24)."""

    recruit: int
    space: int

    def __str__(self) -> str:
        return f"enlist {D.BOTTOM_ACTIONS[self.recruit]} {D.ENLIST_SPACE_IDS[self.space]}"


# --- chance outcomes ------------------------------------------------------------------------
@action_kind("faction", faction=named(D.FACTION_IDS))
@dataclass(frozen=True, slots=True)
class DealFaction(Action):
    faction: int

    def __str__(self) -> str:
        return f"faction {D.FACTION_IDS[self.faction]}"


@action_kind("mat", mat=named(D.MAT_IDS))
@dataclass(frozen=True, slots=True)
class DealMat(Action):
    mat: int

    def __str__(self) -> str:
        return f"mat {D.MAT_IDS[self.mat]}"


@action_kind("tile", tile=named(D.TILE_IDS))
@dataclass(frozen=True, slots=True)
class DealTile(Action):
    tile: int

    def __str__(self) -> str:
        return f"tile {D.TILE_IDS[self.tile]}"


@action_kind("factory_offer")
@dataclass(frozen=True, slots=True)
class DealFactory(Action):
    number: int

    def __str__(self) -> str:
        return f"offer {self.number}"


@action_kind("objective")
@dataclass(frozen=True, slots=True)
class DealObjective(Action):
    number: int

    def __str__(self) -> str:
        return f"objective {self.number}"


@action_kind("draw")
@dataclass(frozen=True, slots=True)
class DrawCard(Action):
    """A combat card of this value comes off the deck."""

    value: int

    def __str__(self) -> str:
        return f"draw {self.value}"


@action_kind("scout")
@dataclass(frozen=True, slots=True)
class ScoutCard(Action):
    """Scout takes a card of this value at random from the opponent's hand."""

    value: int

    def __str__(self) -> str:
        return f"scout {self.value}"


@action_kind("encounter")
@dataclass(frozen=True, slots=True)
class DrawEncounter(Action):
    """The encounter card ``number`` is drawn (from the unknown part of the deck)."""

    number: int

    def __str__(self) -> str:
        return f"encounter {self.number}"


@dataclass(frozen=True, slots=True)
class CarryPattern(Action):
    """Shorthand ``carry all`` (everything there) — resolved against the legal actions."""

    which: str

    def __str__(self) -> str:
        return f"carry {self.which}"

    def matches(self, action: Action) -> bool:
        return isinstance(action, Carry) and self.which == "all"


@dataclass(frozen=True, slots=True)
class PrefixPattern(Action):
    """Shorthand leaving out trailing words (``deploy speed``, ``build mill``,
    ``upgrade move-units``): resolved against the legal actions, ambiguous if several fit."""

    prefix: str

    def __str__(self) -> str:
        return self.prefix

    def matches(self, action: Action) -> bool:
        return str(action).startswith(self.prefix + " ")


SKIP, DONE, END_TURN, TAKE_BOTTOM, STOP = Skip(), Done(), EndTurn(), TakeBottom(), Stop()
"""The shared instances of the argument-less actions (legal lists reuse them)."""
FACTORY_TOP = FactoryTop()


def _int(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise MalformedActionError(f"{what} must be a whole number, not {text!r}") from None


def _positive(text: str) -> int:
    v = _int(text, "amount")
    if v <= 0:
        raise MalformedActionError(f"an amount is at least 1, not {text!r}")
    return v


def _named(table: dict[str, int], text: str, what: str) -> int:
    if text not in table:
        raise MalformedActionError(f"{text!r} is not a {what} ({', '.join(table)})")
    return table[text]


def _parse_carry(words: list[str]) -> Action:
    if words == ["none"]:
        return Carry(0, (0, 0, 0, 0))
    if words == ["all"]:
        return CarryPattern("all")
    workers = 0
    res = [0, 0, 0, 0]
    seen: set[str] = set()
    for w in words:
        i = 0
        while i < len(w) and w[i].isdigit():
            i += 1
        n = int(w[:i]) if i else 1
        name = w[i:]
        if name in seen:
            raise MalformedActionError(f"carry lists {name!r} twice")
        seen.add(name)
        if name in ("worker", "workers"):
            workers = n
        elif name in D.RES_INDEX:
            res[D.RES_INDEX[name]] = n
        else:
            raise MalformedActionError(f"cannot carry {w!r}: write e.g. 'carry 1worker 2oil'")
        if n <= 0:
            raise MalformedActionError(f"carry counts are positive, not {w!r}")
    return Carry(workers, (res[0], res[1], res[2], res[3]))


def _parse_decline(text: str) -> Declines:
    """``popularity`` / ``coins:1`` / ``coins:1,popularity`` -> sorted (name, amount) pairs."""
    out: dict[str, int] = {}
    for item in text.split(","):
        name, _, amount = item.partition(":")
        canon = _DECLINE_ALIAS.get(name)
        if canon is None:
            raise MalformedActionError(
                f"cannot decline {name!r}: write one of {', '.join(DECLINABLE)} "
                "(optionally :<amount>), comma-separated"
            )
        if canon in out:
            raise MalformedActionError(f"decline names {canon!r} twice")
        out[canon] = _positive(amount) if amount else 0
    return tuple(sorted(out.items(), key=lambda kv: DECLINABLE.index(kv[0])))


_SIMPLE: dict[str, Action] = {
    "skip": Skip(),
    "done": Done(),
    "end": EndTurn(),
    "bottom": TakeBottom(),
    "coins": MoveCoins(),
    "stop": Stop(),
    "bolster power": Bolster("power"),
    "bolster cards": Bolster("cards"),
    "trade popularity": TradePopularity(),
    "artillery": UseArtillery(True),
    "no artillery": UseArtillery(False),
    "section factory": ChooseSection(D.FACTORY_SECTION),
    "bottom no-coins": TakeBottom(False),
    "top": FactoryTop(),
}
_ABILITY_SLUGS = {a: a for a in D.ABILITY_NAMES}


def parse_action(text: str) -> Action:
    """Parse the canonical notation (and the ``carry all`` shorthand)."""
    t = " ".join(text.strip().lower().split())
    if t in _SIMPLE:
        return _SIMPLE[t]
    words = t.split(" ")
    head, rest = words[0], words[1:]
    n = len(rest)
    try:
        if head == "section" and n == 1:
            s = _int(rest[0], "section")
            if not 1 <= s <= D.MAT_SECTIONS:
                raise MalformedActionError(
                    f"sections are numbered 1..{D.MAT_SECTIONS} (or 'factory')"
                )
            return ChooseSection(s - 1)
        if head == "reveal" and n == 1:
            return Reveal(_int(rest[0], "objective number"))
        if head == "coins" and n == 1:
            return MoveCoins(_positive(rest[0]))
        if head == "bolster" and n == 2 and rest[0] in ("power", "cards"):
            return Bolster(rest[0], _positive(rest[1]))
        if head == "trade" and n == 2 and rest[0] == "popularity":
            return TradePopularity(_positive(rest[1]))
        if head == "trade" and n == 2:
            return TradeResource(_res(rest[0]), _loc(rest[1]))
        if head == "produce" and n == 1:
            return Produce(_loc(rest[0]))
        if head == "produce" and n == 2:
            return Produce(_loc(rest[0]), _positive(rest[1]))
        if head == "move" and n == 2:
            if rest[0] not in UNIT_KINDS:
                raise MalformedActionError(f"unit kind is character, mech or worker: {rest[0]!r}")
            return SelectUnit(UNIT_KINDS.index(rest[0]), _loc(rest[1]))
        if head == "carry" and n >= 1:
            return _parse_carry(rest)
        if head == "to" and n == 1:
            return Step(_loc(rest[0]))
        if head == "fight" and n == 1:
            return Fight(_loc(rest[0]))
        if head == "retreat" and n == 1:
            return Retreat(_loc(rest[0]))
        if head == "retreat" and n == 2 and rest[1] == "no-workers":
            return Retreat(_loc(rest[0]), False)
        if head == "option" and n == 1:
            return EncounterOption(_int(rest[0], "option"))
        if head == "option" and n == 3 and rest[1] == "decline":
            return EncounterOption(_int(rest[0], "option"), _parse_decline(rest[2]))
        if head == "top" and n == 2 and rest[0] == "decline":
            return FactoryTop(_parse_decline(rest[1]))
        if head == "gain" and n == 2:
            return GainResource(_res(rest[0]), _loc(rest[1]))
        if head == "factory" and n == 1:
            return TakeFactory(_int(rest[0], "factory card"))
        if head == "encounter" and n == 1:
            return DrawEncounter(_int(rest[0], "encounter card"))
        if head == "commit" and n in (1, 3):
            dial = _int(rest[0], "dial")
            cards: tuple[int, ...] = ()
            if n == 3:
                if rest[1] != "cards":
                    raise MalformedActionError("write 'commit <dial> cards <v>,<v>'")
                cards = tuple(sorted(_int(c, "card value") for c in rest[2].split(",")))
            if dial < 0:
                raise MalformedActionError("the dial cannot be negative")
            return Commit(dial, cards)
        if head == "pay" and n == 2:
            if rest[0] == "card":
                return PayCard(_int(rest[1], "card value"))
            return Pay(_res(rest[0]), _loc(rest[1]))
        if head == "upgrade" and n == 2:
            return Upgrade(
                _named(D.TOP_BOX_INDEX, rest[0], "top box"),
                _named(D.BOTTOM_INDEX, rest[1], "bottom action"),
            )
        if head in ("deploy", "build", "upgrade", "enlist") and n == 1:
            return PrefixPattern(t)
        if head == "deploy" and n == 2:
            ability = rest[0]
            if ability not in _ABILITY_SLUGS:
                raise MalformedActionError(f"{ability!r} is not a mech ability")
            loc = _loc(rest[1])
            slot = mech_slot(ability)
            if slot < 0:
                raise MalformedActionError(f"{ability!r} is not a mech ability")
            return Deploy(slot, ability, loc)
        if head == "build" and n == 2:
            return Build(_named(D.STRUCT_INDEX, rest[0], "structure"), _loc(rest[1]))
        if head == "enlist" and n == 2:
            return Enlist(
                _named(D.BOTTOM_INDEX, rest[0], "recruit"),
                _named({s: i for i, s in enumerate(D.ENLIST_SPACE_IDS)}, rest[1], "space"),
            )
        if head == "faction" and n == 1:
            return DealFaction(_named(D.FACTION_INDEX, rest[0], "faction"))
        if head == "mat" and n == 1:
            return DealMat(_named(D.MAT_INDEX, rest[0], "player mat"))
        if head == "tile" and n == 1:
            return DealTile(_named({t: i for i, t in enumerate(D.TILE_IDS)}, rest[0], "tile"))
        if head == "offer" and n == 1:
            return DealFactory(_int(rest[0], "factory card"))
        if head == "objective" and n == 1:
            return DealObjective(_int(rest[0], "objective"))
        if head == "draw" and n == 1:
            return DrawCard(_int(rest[0], "card value"))
        if head == "scout" and n == 1:
            return ScoutCard(_int(rest[0], "card value"))
    except MalformedActionError:
        raise
    raise MalformedActionError(f"{text!r} is not Scythe notation (see docs/scythe.md)")
