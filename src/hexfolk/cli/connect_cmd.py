"""``hexfolk connect``: play a seat at a table on a Hexfolk server with a bot."""

from __future__ import annotations

import asyncio
import random
import sys
from typing import Annotated

import typer

EPILOG = """\
Examples:

  hexfolk connect http://127.0.0.1:8000 --table TABLE_ID --name Robo --bot medium

  hexfolk connect http://127.0.0.1:8000 --table TABLE_ID --token YOUR_TOKEN --bot random

With --name a guest identity is created (its token is printed once, on stderr) and the first
open seat is taken; with --token the seat you already hold is played. The bot sees only what
the server sends (its seat's view and legal actions); a search bot (island hard, every Scythe
level) searches worlds rebuilt from that view (Game.world_from_observation).

Actions are paced to the server's action rate (sent in its welcome; 20 per 2 s by default), so
the server never refuses one as too fast. A decision the bot fails to take (it raises) is
reported with its traceback and a random listed action is played instead; the counts are printed
at the end, and the exit code is then 1.
"""


async def _play(
    url: str, table_id: str, token: str | None, name: str | None, bot: str, seat: int | None
) -> int:
    from hexfolk.server.client import HexfolkClient, ServerError
    from hexfolk.server.remote_bot import ConnectionClosed, RemoteBot, ServerRefused, play_seat

    async with HexfolkClient(url, token) as client:
        try:
            if token is None:
                assert name is not None
                me = await client.create_player(name)
                print(f"guest {me['name']} (id {me['id']}); token: {me['token']}", file=sys.stderr)
            table = await client.table(table_id)
            mine = [
                s for s in table["seats"] if s.get("player_id") == (client.player or {}).get("id")
            ]
            if table["status"] == "lobby" and not mine and token is None:
                table = await client.join(table_id, seat)
        except ServerError as exc:
            print(f"error: {exc.message} ({exc.code})", file=sys.stderr)
            return 2
        player = RemoteBot(bot, table)
        rng = random.Random()
        async with client.connect(table_id, paced=True) as conn:
            try:
                view = await play_seat(conn, player, rng, lambda line: print(line, file=sys.stderr))
            except ServerRefused:
                return 2
            except ConnectionClosed:
                print("error: the server closed the connection", file=sys.stderr)
                return 1
        result = view.get("result") or {}
        print(f"game over: winners {result.get('winners')}, scores {result.get('scores')}")
        print(
            f"{player.decisions} decisions, {player.failures} bot failures, "
            f"{player.rate_limited} refused as too fast",
            file=sys.stderr,
        )
        print(
            f"({player.searched} decisions searched worlds rebuilt from the seat's view"
            + (
                f", {player.fell_back} fell back to the random bot: this game cannot rebuild "
                "a world from an observation"
                if player.fell_back
                else ""
            )
            + (
                f", {player.replaced} search choices not on the table's list replaced at random"
                if player.replaced
                else ""
            )
            + ")",
            file=sys.stderr,
        )
        return 1 if player.failures else 0


def connect_command(
    url: Annotated[str, typer.Argument(help="Server address, e.g. http://127.0.0.1:8000")],
    table: Annotated[str, typer.Option("--table", help="Table id (from the invite link).")],
    token: Annotated[
        str | None, typer.Option(help="Your player token (or use --name for a new guest).")
    ] = None,
    name: Annotated[str | None, typer.Option(help="Create a guest with this name.")] = None,
    bot: Annotated[str, typer.Option(help="Bot code: random, easy, medium, hard.")] = "medium",
    seat: Annotated[
        int | None, typer.Option(help="Seat to join with --name (default: the first open).")
    ] = None,
) -> None:
    """Play a seat at a table on a Hexfolk server with a bot, until the game ends."""
    if (token is None) == (name is None):
        print("error: give either --token or --name", file=sys.stderr)
        raise typer.Exit(2)
    code = asyncio.run(_play(url, table, token, name, bot, seat))
    raise typer.Exit(code)
