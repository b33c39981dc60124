"""Island offers as a person reads them, and the one-line notice of a bot's offer.

An offer never stops the person's game (docs/island.md, *Offers never block*): the terminal
prints :func:`offer_notice` once per offer and lets the bots play on; the person answers
with ``accept N`` / ``reject N`` / ``counter N: …`` when they like while it is open, or sets
``decline-all on``. Offers nobody answers close as the engine says (the proposer completes,
withdraws or ends the turn; a missing answer counts as a rejection).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hexfolk.cli.terminal.words import bundle_words, seat_words


def answer_words(seat: int, answer: Any, viewer: int | None) -> str:
    """One seat's answer to an offer as a sentence part (``"seat 2 rejects"``)."""
    who = seat_words(seat, viewer)
    s = "" if who == "you" else "s"
    if answer == "accept":
        return f"{who} accept{s}"
    if answer == "reject":
        return f"{who} reject{s}"
    if isinstance(answer, Mapping) and isinstance(answer.get("counter"), Mapping):
        c = answer["counter"]
        return (
            f"{who} counter{s}: would give {bundle_words(str(c.get('give', '')))} "
            f"for {bundle_words(str(c.get('get', '')))}"
        )
    return f"{who} has not answered" if who != "you" else "you have not answered"


def offer_words(offer: Mapping[str, Any], proposer: int, viewer: int | None) -> str:
    """An open offer and its answers so far, from the viewer's side:
    ``"offer #3: seat 1 offers 1 ore for your 1 grain; seat 2 rejects"``."""
    give, get = bundle_words(str(offer["give"])), bundle_words(str(offer["get"]))
    if viewer is None or viewer == proposer:
        verb = "offer" if viewer == proposer else "offers"
        head = f"{seat_words(proposer, viewer)} {verb} {give} for {get}"
    else:
        head = f"seat {proposer} offers {give} for your {get}"
    answers = offer.get("answers") or {}
    parts = [
        answer_words(int(s), a, viewer)
        for s, a in sorted(answers.items(), key=lambda kv: int(kv[0]))
    ]
    return f"offer #{offer['id']}: {head}" + ("; " + "; ".join(parts) if parts else "")


def open_offers(observation: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The observation's open offers."""
    return list(observation.get("offers") or [])


def offers_lines(observation: Mapping[str, Any], viewer: int | None) -> list[str]:
    """Every open offer as a line (empty when there are none)."""
    proposer = int(observation.get("active", -1))
    return [offer_words(o, proposer, viewer) for o in open_offers(observation)]


def offer_notice(offer: Mapping[str, Any], proposer: int, viewer: int) -> str:
    """The line shown once when a bot's offer reaches the person, with how to answer."""
    n = offer["id"]
    give, get = bundle_words(str(offer["give"])), bundle_words(str(offer["get"]))
    return (
        f"seat {proposer} offers {give} for your {get} — answer with `accept {n}`, "
        f"`reject {n}` or `counter {n}: …` while the offer is open, or let it pass "
        "('decline-all on' declines every offer)"
    )


def receive_words(give: str, get: str) -> str:
    """What accepting means for the answerer: ``"you would give 1 grain and receive 1 ore"``."""
    return f"you would give {bundle_words(get)} and receive {bundle_words(give)}"


def offer_by_id(observation: Mapping[str, Any], number: int) -> Mapping[str, Any] | None:
    """The open offer with id ``number``, if any."""
    for offer in open_offers(observation):
        if int(offer["id"]) == number:
            return offer
    return None
