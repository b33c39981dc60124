"""``hexfolk play``: play a game in the terminal against bots (or hot-seat between people).

The loop lives in :class:`PlaySession`, which reads lines through a function it is given
(``read_line(prompt) -> str | None``, ``None`` at end of input), so tests can script it.

What is printed never leaks hidden information: a human seat sees its own observation; bots'
moves and chance outcomes are shown only as the new lines of the viewer's observation log
(the viewer is the only human seat, or the spectator when several people or nobody play).
"""

from __future__ import annotations

import secrets
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.columns import Columns
from rich.console import Console
from rich.markup import escape
from rich.panel import Panel

from hexfolk.bots.registry import make_bot
from hexfolk.cli.common import (
    check_bot_codes,
    fail,
    is_human,
    make_game,
    out_console,
    resolve_game_class,
    split_players,
    user_errors,
)
from hexfolk.core import (
    CHANCE,
    TERMINAL,
    Action,
    AmbiguousActionError,
    Bot,
    Game,
    IllegalActionError,
    MalformedActionError,
    MatchRecord,
    Observation,
    State,
    make_rng,
)
from hexfolk.core.record import Checkpoints

ReadLine = Callable[[str], str | None]
"""Reads one line after showing a prompt; returns None at the end of the input."""

DEFAULT_PLAYERS: dict[str, str] = {"island": "human,random,random,random"}
"""Default ``--players`` per game; otherwise one human and random bots up to the default count."""

EXIT_INTERRUPTED = 130
"""Exit code after Ctrl-C (128 + SIGINT), once the record so far is saved."""

HELP_WORDS = ("?", "help")
QUIT_WORDS = ("quit", "exit")

EPILOG = """\
Examples:

  hexfolk play island

  hexfolk play scythe --players human,random --seed 42 --record my-game.json

At your turn type the number of an action, or its text (e.g. the notation shown in the list);
? or help reprints the list; quit or Ctrl-C leaves (saving the record if --record was given).
"""


def stdin_reader(console: Console) -> ReadLine:
    """The default input: prompt on the console, read a line from the current stdin."""

    def read(prompt: str) -> str | None:
        console.print(prompt, end="", markup=False)
        line = sys.stdin.readline()
        if line == "":
            console.print()
            return None
        return line.rstrip("\r\n")

    return read


class QuitGame(Exception):
    """The person typed quit (or the input ended)."""


class PlaySession:
    """One game in the terminal: humans answer through ``read_line``, bots play themselves.

    Chance outcomes and bots use the same seeded streams as :class:`hexfolk.core.Match`
    (``make_rng(seed, "chance")``, ``make_rng(seed, "bot", seat)``).
    """

    def __init__(
        self,
        game: Game,
        codes: Sequence[str],
        seed: int,
        *,
        console: Console,
        read_line: ReadLine,
    ):
        if len(codes) != game.num_players:
            raise ValueError("one player code per seat")
        self.game = game
        self.codes = list(codes)
        self.seed = seed
        self.console = console
        self.read_line = read_line
        self.bots: dict[int, Bot] = {
            seat: make_bot(code, game.id) for seat, code in enumerate(codes) if not is_human(code)
        }
        humans = [seat for seat, code in enumerate(codes) if is_human(code)]
        self.viewer: int | None = humans[0] if len(humans) == 1 else None
        self.state: State = game.new_initial_state()
        self.actions: list[str] = []
        self.checkpoints = Checkpoints()
        self.quit = False
        self.interrupted = False
        """Ctrl-C ended the game (the record so far is kept, as with quit)."""
        self._log_seen = 0
        self._chance_rng = make_rng(seed, "chance")
        self._bot_rngs = [make_rng(seed, "bot", seat) for seat in range(game.num_players)]

    # --- the loop ---------------------------------------------------------------------------
    def run(self) -> State:
        """Play until the game ends or a person quits (or presses Ctrl-C); return the last
        state. After Ctrl-C the state is rebuilt from the steps taken, so the record is whole
        even if the interrupt came in the middle of a step."""
        try:
            self._loop()
        except KeyboardInterrupt:
            self.quit = self.interrupted = True
            self.state = self._rebuilt()
            self.console.print()
            self.console.print("Interrupted: you left the game.")
        return self.state

    def _rebuilt(self) -> State:
        state = self.game.new_initial_state()
        for text in self.actions:
            state.apply(state.parse_action(text))
        return state

    def _loop(self) -> None:
        self._intro()
        self._show_new_log()
        while True:
            player = self.state.current_player()
            if player == TERMINAL:
                break
            if player == CHANCE:
                action = self.state.sample_chance(self._chance_rng)
            elif player in self.bots:
                bot = self.bots[player]
                legal = self.state.legal_actions()
                action = bot.choose(Observation(self.state, player), legal, self._bot_rngs[player])
            else:
                try:
                    action = self.ask(player)
                except QuitGame:
                    self.quit = True
                    self.console.print("You left the game.")
                    break
            self.state.apply(action)
            self.actions.append(str(action))
            self.checkpoints.after_step(len(self.actions), self.state)
            shown = self._show_new_log()
            if player >= 0 and player in self.bots and not shown:
                self.console.print(f"seat {player} ({escape(self.codes[player])}) has moved.")
        if self.state.is_terminal():
            self.print_summary()

    def _intro(self) -> None:
        c = self.console
        c.print(f"[bold]{escape(self.game.name)}[/bold] ({self.game.id}), seed {self.seed}")
        for seat, code in enumerate(self.codes):
            you = " (you)" if seat == self.viewer else ""
            c.print(f"  seat {seat}: {escape(code)}{you}")
        c.print("Type a number or an action; ? lists the actions again; quit leaves.")

    def _viewer_log(self) -> list[str]:
        log = self.state.observation(self.viewer).get("log")
        return [str(line) for line in log] if isinstance(log, list) else []

    def _show_new_log(self) -> bool:
        """Print the log lines the viewer has not seen yet; True if there were any."""
        log = self._viewer_log()
        new = log[self._log_seen :]
        self._log_seen = len(log)
        for line in new:
            self.console.print(f"  [dim]·[/dim] {escape(line)}")
        return bool(new)

    # --- a human decision -------------------------------------------------------------------
    def ask(self, seat: int) -> Action:
        """Show the seat its view and the numbered legal actions; read until a valid choice."""
        state = self.state
        observation = state.observation(seat)
        self.console.print(
            Panel(
                escape(self.game.render_observation(observation)),
                title=f"seat {seat}: your view",
                expand=False,
            )
        )
        legal = state.legal_actions()
        self.print_choices(seat, legal)
        while True:
            line = self.read_line(f"seat {seat}> ")
            if line is None:
                raise QuitGame
            text = line.strip()
            word = text.lower()
            if not text:
                self._complain("type the number of an action, its text, ? for the list, or quit")
                continue
            if word in HELP_WORDS:
                self.print_choices(seat, legal)
                continue
            if word in QUIT_WORDS:
                raise QuitGame
            if text.isdigit():
                number = int(text)
                if 1 <= number <= len(legal):
                    return legal[number - 1]
                self._complain(f"there is no action {number}; choose 1 to {len(legal)}")
                continue
            try:
                return state.parse_action(text)
            except MalformedActionError as exc:
                self._complain(f"not understood: {exc}")
            except AmbiguousActionError as exc:
                self._complain(f"ambiguous: {exc}")
            except IllegalActionError as exc:  # the engine's reason, in the game's words
                self._complain(f"not legal now: {exc.reason}")

    def print_choices(self, seat: int, legal: Sequence[Action]) -> None:
        prompt = self.state.prompt()
        what = prompt.text or prompt.kind if prompt is not None else "choose an action"
        self.console.print(f"[bold]seat {seat}, your move[/bold]: {escape(what)}")
        observation = self.state.observation(seat)
        width = len(str(len(legal)))
        entries = []
        for number, action in enumerate(legal, start=1):
            hint = self.game.describe_action(observation, action)
            text = f"{number:>{width}}. {escape(str(action))}"
            entries.append(f"{text} [dim]{escape(hint)}[/dim]" if hint else text)
        if len(entries) <= 12:
            for entry in entries:
                self.console.print(f"  {entry}")
        else:  # long lists (54 setup spots) in columns, read down
            self.console.print(Columns(entries, column_first=True, padding=(0, 3)))

    def _complain(self, message: str) -> None:
        self.console.print(f"[red]{escape(message)}[/red]")

    # --- the end ----------------------------------------------------------------------------
    def record(self) -> MatchRecord:
        """The match record so far (replays to the current state)."""
        state = self.state
        finished = state.is_terminal()
        return MatchRecord(
            game=self.game.id,
            rules_version=self.game.rules_version,
            players=self.game.num_players,
            options=dict(self.game.options),
            seed=self.seed,
            actions=list(self.actions),
            bots=list(self.codes),
            result={
                "finished": finished,
                "winners": state.winners() if finished else [],
                "scores": state.scores(),
                "turns": state.turn_count(),
                "quit": self.quit,
            },
            final_fingerprint=state.fingerprint(),
            checkpoints=list(self.checkpoints.items),
        )

    def print_summary(self) -> None:
        state = self.state
        c = self.console
        winners = state.winners()
        names = ", ".join(f"seat {s} ({escape(self.codes[s])})" for s in winners) or "nobody"
        c.print(f"[bold]Game over.[/bold] Winner: {names}")
        scores = "  ".join(f"seat {s}: {v:g}" for s, v in enumerate(state.scores()))
        c.print(f"scores: {scores}; turns: {state.turn_count()}")
        summary: dict[str, Any] = state.summary()
        extra = {k: v for k, v in summary.items() if k not in ("scores", "winners", "turns")}
        if extra:
            c.print(escape(self.game.render_summary(extra)))


def default_players(game_id: str) -> list[str]:
    if game_id in DEFAULT_PLAYERS:
        return DEFAULT_PLAYERS[game_id].split(",")
    cls = resolve_game_class(game_id)
    return ["human"] + ["random"] * (cls.default_players - 1)


def play_command(
    game: Annotated[
        str,
        typer.Argument(metavar="GAME", help="Game id (see `hexfolk games`).", show_default=False),
    ],
    players: Annotated[
        str | None,
        typer.Option(
            "--players",
            "-p",
            metavar="SEATS",
            help="Comma-separated seats: human or a bot code (e.g. human,random,random). "
            "Default: you and random bots (island: human,random,random,random).",
            show_default=False,
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            "-s",
            metavar="S",
            help="Seed of the dice and the bots (default: a fresh one, printed).",
            show_default=False,
        ),
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            "-o",
            metavar="KEY=VALUE",
            help="Game option as key=value (repeatable).",
            show_default=False,
        ),
    ] = None,
    record: Annotated[
        Path | None,
        typer.Option(
            "--record",
            metavar="FILE",
            help="Save the match record (JSON) here at the end, or when you quit.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Play a game in the terminal: you at the human seats, bots at the others."""
    console = out_console()
    with user_errors():
        codes = split_players(players) or default_players(game)
        check_bot_codes(codes, human=True)
        g = make_game(game, len(codes), option or [])
        for code in codes:
            if is_human(code) and code.strip() != "human":
                fail(f"the human player takes no parameters, not {code!r}")
        session = PlaySession(
            g,
            codes,
            secrets.randbits(31) if seed is None else seed,
            console=console,
            read_line=stdin_reader(console),
        )
        session.run()
        if record is not None:
            try:
                session.record().save(record)
            except OSError as exc:
                fail(f"cannot save the record: {exc}")
            console.print(f"record saved to {escape(str(record))}")
    if session.interrupted:
        raise typer.Exit(EXIT_INTERRUPTED)
