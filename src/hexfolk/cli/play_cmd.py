"""``hexfolk play``: play a game in the terminal against bots (or hot-seat between people).

The loop lives in :class:`PlaySession`, which reads lines through a function it is given
(``read_line(prompt) -> str | None``, ``None`` at end of input), so tests can script it.

What is printed never leaks hidden information: a human seat sees its own observation; bots'
moves and chance outcomes are shown only as the new lines of the viewer's observation log
(the viewer is the only human seat, or the spectator when several people or nobody play).

What a person sees is drawn by :mod:`hexfolk.cli.terminal`: a decision screen that fits the
terminal, the board and mats on request, sentences instead of raw data, bots' offers that do
not stop the game (answered within ``--offer-wait`` seconds or left to expire), a hand-over
screen between people.
"""

from __future__ import annotations

import secrets
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from hexfolk.bots.registry import make_bot
from hexfolk.cli.common import (
    GameArgument,
    GameOptions,
    PositionFile,
    check_bot_codes,
    fail,
    is_human,
    load_position,
    make_game,
    out_console,
    players_option,
    position_game,
    read_position_file,
    record_option,
    resolve_game_class,
    seed_option,
    split_players,
    user_errors,
)
from hexfolk.cli.terminal.cards import help_lines
from hexfolk.cli.terminal.decision import decision_screen
from hexfolk.cli.terminal.game_view import view_for
from hexfolk.cli.terminal.handover import clear_screen, handover_text
from hexfolk.cli.terminal.line_input import NOTHING, LineInput
from hexfolk.cli.terminal.menu import Entry, menu_lines, pick
from hexfolk.cli.terminal.offers import offer_by_id, offer_notice
from hexfolk.cli.terminal.screen import Size, fit, terminal_size
from hexfolk.cli.terminal.words import summary_words
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
from hexfolk.core.game import JSON
from hexfolk.core.record import Checkpoints, apply_entry, record_entry

ReadLine = Callable[[str], str | None]
"""Reads one line after showing a prompt; returns None at the end of the input."""

PollLine = Callable[[str, float], str | None]
"""Reads a line typed within some seconds: the line, ``NOTHING`` if none came, None at the end."""

OFFER_WAIT = 4.0
"""Default seconds a bot's offer waits for a person's answer before the game goes on."""

ANSWERS = frozenset(("accept", "reject", "counter"))
"""The kinds of the actions answering an island offer (counted in ``offer_answers``)."""

VIEW_WORDS = ("board", "map", "mats", "hand", "players", "log", "list", "offers")
"""Words that show something at any prompt and change nothing."""

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

  hexfolk play island --position endgame.json

At your turn type the number of an action, or the action as the list writes it (places by the
board's labels: settle 12, road 12-13, robber F; the engine's id notation also works);
board, mats, hand, players, log, list show more; help, help costs, help CARD explain; quit or
Ctrl-C leaves (saving the record if --record was given). A bot's offer to you waits
--offer-wait seconds for `accept N` / `reject N` / `counter N: ...`, then the game goes on;
`decline-all on` answers every offer with no.
"""


def stdin_reader(console: Console) -> ReadLine:
    """The default input: a line from the current stdin (with line editing and history on a
    terminal, where the platform has readline)."""

    return LineInput(console, sys.stdin).read


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
        poll_line: PollLine | None = None,
        live: bool = False,
        offer_wait: float = OFFER_WAIT,
        size: Callable[[], Size] = terminal_size,
        position: JSON | None = None,
    ):
        """``position``: a position document to start from (:meth:`Game.load_position`;
        ``hexfolk play --position``) instead of the game's initial state."""
        if len(codes) != game.num_players:
            raise ValueError("one player code per seat")
        self.game = game
        self.codes = list(codes)
        self.seed = seed
        self.console = console
        self.read_line = read_line
        self.poll_line: PollLine = poll_line or (lambda prompt, seconds: read_line(prompt))
        """Reads an answer to a bot's offer within some seconds (scripts: the next line)."""
        self.live = live
        """A person at a terminal: lines typed while bots play are picked up between steps."""
        self.offer_wait = offer_wait
        self.size = size
        self.view = view_for(game)
        self.offers_shown: set[int] = set()
        self.offer_answers = 0
        """How many of the people's inputs answered an offer (accept, reject, counter)."""
        self.inputs = 0
        """How many lines the people typed (commands that only show something included)."""
        self._last_person: int | None = None
        self._notes: dict[int, list[str]] = {}
        self._silent: set[int] = set()
        """Bots told to have moved (a step the log does not show) since a person's step."""
        """Sentences the terminal added after lines of the viewer's log, by line index."""
        self.bots: dict[int, Bot] = {
            seat: make_bot(code, game.id) for seat, code in enumerate(codes) if not is_human(code)
        }
        humans = [seat for seat, code in enumerate(codes) if is_human(code)]
        self.people = frozenset(humans)
        """The bots' context (``Observation.people``): the seats people play here."""
        self.viewer: int | None = humans[0] if len(humans) == 1 else None
        self.position = position
        self.state: State = self._start()
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

    def _start(self) -> State:
        """The state the game starts from: the initial state, or the given position."""
        if self.position is None:
            return self.game.new_initial_state()
        return self.game.load_position(self.position)

    def _rebuilt(self) -> State:
        state = self._start()
        for entry in self.actions:
            apply_entry(state, entry)
        return state

    def _loop(self) -> None:
        self._intro()
        self._show_new_log()
        while True:
            player = self.state.current_player()
            if player == TERMINAL:
                break
            seat: int | None = player
            if player == CHANCE:
                action = self.state.sample_chance(self._chance_rng)
                seat = None
            elif player in self.bots:
                action = self._bot_step(player)
            else:
                try:
                    if self._offer_from_a_bot(player):
                        seat, action = self._offer_window(player)
                    else:
                        action = self.ask(player)
                except QuitGame:
                    self.quit = True
                    self.console.print("You left the game.")
                    break
            entry = record_entry(self.state, seat, action)
            if seat is None or seat == player:
                self.state.apply(action)
            else:  # a bot beside the person the walk names (an offer left unanswered)
                self.state.apply_for(seat, action)
            self.actions.append(entry)
            self.checkpoints.after_step(len(self.actions), self.state)
            shown = self._show_new_log()
            if seat is not None and seat in self.bots and not shown and seat not in self._silent:
                self._silent.add(seat)  # once between two decisions of a person
                self.console.print(f"seat {seat} ({escape(self.codes[seat])}) has moved.")
            elif seat is not None and seat not in self.bots:
                self._silent.clear()
        if self.state.is_terminal():
            self.print_summary()

    def _intro(self) -> None:
        c = self.console
        c.print(f"[bold]{escape(self.game.name)}[/bold] ({self.game.id}), seed {self.seed}")
        for seat, code in enumerate(self.codes):
            you = " (you)" if seat == self.viewer else ""
            c.print(f"  seat {seat}: {escape(code)}{you}")
        c.print(
            "Type a number or an action; help shows the commands (board, hand, log, help "
            "costs, ...); quit leaves.",
            markup=False,
        )

    def _viewer_log(self) -> list[str]:
        log = self.state.observation(self.viewer).get("log")
        return [str(line) for line in log] if isinstance(log, list) else []

    def _show_new_log(self) -> bool:
        """Print the log lines the viewer has not seen yet; True if there were any."""
        log = self._viewer_log()
        start, new = self._log_seen, log[self._log_seen :]
        self._log_seen = len(log)
        if not new:
            return False
        observation = self.state.observation(self.viewer)
        width = self.size().columns
        notes = self.view.notes(new, observation)
        self._notes.update({start + i: lines for i, lines in notes.items()})
        for sentence in self.view.sentences(new, observation, self.viewer, notes):
            for part in fit(["  · " + sentence], width):
                self.console.print(part, markup=False, highlight=False)
        return True

    def _bot_step(self, seat: int) -> Action:
        """The bot at ``seat`` chooses among that seat's legal actions."""
        legal = self.state.legal_actions_for(seat)
        return self.bots[seat].choose(
            Observation(self.state, seat, self.people), legal, self._bot_rngs[seat]
        )

    # --- offers that do not stop the game (island, rules version 2) ---------------------------
    def _offer_from_a_bot(self, seat: int) -> bool:
        """The person at ``seat`` is named only to answer an offer of a bot (who plays on)."""
        prompt = self.state.prompt()
        if prompt is None or prompt.kind != "answer" or "offer" not in prompt.data:
            return False
        proposer = self.state.observation(seat).get("active")
        return proposer in self.bots and proposer in self.state.acting_seats()

    def _offer_window(self, seat: int) -> tuple[int, Action]:
        """Show a bot's offer once and wait at most ``offer_wait`` seconds for the person's
        answer; then (or on an empty line) let a bot move on: the other bots answer, the
        proposer plays on, and an offer the person never answers closes as the engine says.
        On a terminal a line typed later, while the offer is open, is still taken."""
        prompt = self.state.prompt()
        assert prompt is not None
        number = int(prompt.data["offer"])
        observation = self.state.observation(seat)
        proposer = int(observation["active"])
        if number not in self.offers_shown:
            self.offers_shown.add(number)
            offer = offer_by_id(observation, number)
            width = self.size().columns
            if offer is not None:
                self._print_lines(fit([offer_notice(offer, proposer, seat)], width))
                if self.viewer == seat:  # hot seat: no hand shown without a hand-over
                    self._print_lines(self.view.hand(observation, seat, self.size())[:1])
                    legal = self.state.legal_actions()
                    self._print_lines(menu_lines(self._entries(seat, legal), width, 4))
            seconds: float | None = self.offer_wait
            if self.offer_wait <= 0:  # shown, not waited for (a terminal still reads ahead)
                seconds = 0.0 if self.live else None
        else:
            seconds = 0.0 if self.live else None
        while seconds is not None:
            line = self.poll_line(f"seat {seat}, offer #{number}> ", seconds)
            if line is None:
                raise QuitGame
            if line == NOTHING or not line.strip():
                break
            self.inputs += 1
            action = self._typed(seat, line.strip(), self.state.legal_actions())
            if action is not None:
                return seat, action
            seconds = self.offer_wait
        return self._others_step(seat)

    def _others_step(self, person: int) -> tuple[int, Action]:
        """A step of a bot among the acting seats while ``person``'s answer is missing: the
        answering bots first, then the proposer."""
        acting = [s for s in self.state.acting_seats() if s in self.bots]
        proposer = self.state.observation(person).get("active")
        answering = [s for s in acting if s != proposer]
        if not acting:  # nobody else can move: the person must answer after all
            return person, self.ask(person)
        seat = answering[0] if answering else acting[0]
        return seat, self._bot_step(seat)

    # --- a human decision -------------------------------------------------------------------
    def ask(self, seat: int) -> Action:
        """Show the seat its decision screen (fitted to the terminal) and read until a valid
        choice; commands that only show something (board, hand, help, ...) change nothing."""
        self._hand_over(seat)
        legal = self.state.legal_actions()
        self.print_screen(seat, legal)
        while True:
            line = self.read_line(f"seat {seat}> ")
            if line is None:
                raise QuitGame
            self.inputs += 1
            text = line.strip()
            if not text:
                self._complain("type the number of an action, its words as listed, help, or quit")
                continue
            action = self._typed(seat, text, legal)
            if action is not None:
                return action

    def _typed(self, seat: int, text: str, legal: Sequence[Action]) -> Action | None:
        """What a typed line means at ``seat``'s decision: an action (returned), or a command
        that shows something or a complaint (None). Raises QuitGame for quit."""
        word = text.lower()
        first, _, rest = word.partition(" ")
        observation = self.state.observation(seat)
        size = self.size()
        if word in QUIT_WORDS:
            raise QuitGame
        if first in HELP_WORDS:
            lines = help_lines(self.game, rest, observation, seat)
            self._print_lines(fit(lines, size.columns))
            if not rest:
                self.print_choices(seat, legal)
            return None
        if word in VIEW_WORDS or (first == "log" and rest.isdigit()):
            self._show(seat, first, rest, legal)
            return None
        if text.isdigit():
            number = int(text)
            if 1 <= number <= len(legal):
                return self._counted(legal[number - 1])
            self._complain(f"there is no action {number}; choose 1 to {len(legal)}")
            return None
        # the action as the menu writes it (places by label), matched whole against the entries
        listed = pick([self.view.action_words(observation, a) for a in legal], text)
        if listed is not None:
            return self._counted(legal[listed])
        try:  # else the engine's notation (places by id, shorthands)
            action = self.state.parse_action(text)
        except MalformedActionError as exc:
            self._complain(f"not understood: {exc} (help shows the commands)")
            return None
        except AmbiguousActionError as exc:
            self._complain(f"ambiguous: {exc}")
            return None
        except IllegalActionError as exc:  # the engine's reason, in the game's words
            self._complain(f"not legal now: {exc.reason}")
            return None
        return self._counted(action)

    def _counted(self, action: Action) -> Action:
        """``action``, counted in :attr:`offer_answers` when it answers an offer."""
        form = action.json_form  # its structured form's kind, never its text
        if form is not None and form.kind in ANSWERS:
            self.offer_answers += 1
        return action

    def _show(self, seat: int, what: str, rest: str, legal: Sequence[Action]) -> None:
        observation = self.state.observation(seat)
        size = self.size()
        view = self.view
        if what in ("board", "map"):
            lines = view.board(observation, size)
        elif what == "mats":
            lines = view.mats(observation, size)
        elif what == "hand":
            lines = view.hand(observation, seat, size)
        elif what == "players":
            lines = view.players(observation, seat, size)
        elif what == "offers":
            lines = view.offers(observation, seat, size)
        elif what == "list":
            lines = menu_lines(self._entries(seat, legal), size.columns, 10**6)
        else:  # log [N]
            count = int(rest) if rest.isdigit() else size.rows - 2
            log = self._said(seat, observation, size.rows)
            lines = fit(["  · " + x for x in log[-count:]] or ["the log is empty"], size.columns)
        self._print_lines(lines)

    def _said(self, seat: int, observation: JSON, count: int) -> list[str]:
        """The last ``count`` lines of ``seat``'s log as sentences, with the notes printed
        when they were logged (the viewer's own log only)."""
        log = self._viewer_log_for(seat)
        start = max(len(log) - count, 0)
        notes = self._notes if seat == self.viewer else {}
        rel = {i - start: notes[i] for i in range(start, len(log)) if i in notes}
        return self.view.sentences(log[start:], observation, seat, rel)

    def _viewer_log_for(self, seat: int) -> list[str]:
        log = self.state.observation(seat).get("log")
        return [str(line) for line in log] if isinstance(log, list) else []

    def _print_lines(self, lines: Sequence[str]) -> None:
        for line in lines:
            self.console.print(line, markup=False, highlight=False)

    def _hand_over(self, seat: int) -> None:
        """Hot seat: between two people, hide the screen and wait for the next one."""
        people = [s for s, code in enumerate(self.codes) if is_human(code)]
        last, self._last_person = self._last_person, seat
        if len(people) < 2 or last is None or last == seat:
            return
        clear_screen(self.console, self.size().rows)
        line = self.read_line(handover_text(seat) + " ")
        if line is None or line.strip().lower() in QUIT_WORDS:
            raise QuitGame
        clear_screen(self.console, self.size().rows)

    def _entries(self, seat: int, legal: Sequence[Action]) -> list[Entry]:
        observation = self.state.observation(seat)
        return [
            (
                number,
                self.view.action_words(observation, action),
                self.view.hint(observation, action, self.game.describe_action(observation, action)),
            )
            for number, action in enumerate(legal, start=1)
        ]

    def _decision_words(self, seat: int) -> str:
        prompt = self.state.prompt()
        if prompt is None:
            return f"seat {seat}, your move: {self.view.prompt_words('choose an action')}"
        words = self.view.decision_words(prompt, self.state.observation(seat))
        return f"seat {seat}, your move: {words}"

    def print_screen(self, seat: int, legal: Sequence[Action]) -> None:
        """The decision screen: title, compact view, recent log, the decision, the menu."""
        observation = self.state.observation(seat)
        size = self.size()
        turn = observation.get("turn")
        title = f"── seat {seat}: your view ── {self.game.name}" + (
            f", turn {turn}" if turn is not None else ""
        )
        log = self._said(seat, observation, size.rows)
        board = self.view.board(observation, size) if size.wide else []
        lines = decision_screen(
            title,
            self.view.compact(observation, seat, size),
            log,
            self._decision_words(seat),
            self._entries(seat, legal),
            size,
            board,
        )
        self._print_lines(lines)

    def print_choices(self, seat: int, legal: Sequence[Action]) -> None:
        """The decision and the numbered menu (as much as fits the terminal)."""
        size = self.size()
        self._print_lines(fit([self._decision_words(seat)], size.columns))
        self._print_lines(menu_lines(self._entries(seat, legal), size.columns, size.rows - 3))

    def _complain(self, message: str) -> None:
        for part in fit([message], self.size().columns):
            self.console.print(f"[red]{escape(part)}[/red]")

    # --- the end ----------------------------------------------------------------------------
    def record(self) -> MatchRecord:
        """The match record so far (replays to the current state)."""
        return MatchRecord.played(
            self.game,
            self.seed,
            self.actions,
            self.state,
            bots=self.codes,
            checkpoints=self.checkpoints.items,
            position=self.position,
            quit=self.quit,
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
            lines = self.game.render_summary(extra).split("\n")
            self._print_lines(fit(summary_words(lines), self.size().columns))


def default_players(game_id: str, position: JSON | None = None) -> list[str]:
    """You and random bots: as many seats as ``position`` names, else the game's default."""
    if position is not None and isinstance(position.get("players"), int):
        return ["human"] + ["random"] * (position["players"] - 1)
    if game_id in DEFAULT_PLAYERS:
        return DEFAULT_PLAYERS[game_id].split(",")
    cls = resolve_game_class(game_id)
    return ["human"] + ["random"] * (cls.default_players - 1)


def play_command(
    game: GameArgument,
    players: Annotated[
        str | None,
        players_option(
            "SEATS",
            "Comma-separated seats: human or a bot code (e.g. human,random,random). "
            "Default: you and random bots (island: human,random,random,random).",
        ),
    ] = None,
    seed: Annotated[
        int | None,
        seed_option(
            "Seed of the dice and the bots (default: a fresh one, printed).", show_default=False
        ),
    ] = None,
    option: GameOptions = None,
    record: Annotated[
        Path | None,
        record_option("Save the match record (JSON) here at the end, or when you quit."),
    ] = None,
    position: PositionFile = None,
    offer_wait: Annotated[
        float,
        typer.Option(
            "--offer-wait",
            metavar="SECONDS",
            min=0.0,
            max=600.0,
            help="How long a bot's offer to you waits for your answer before the game goes on "
            "(island; 0 shows it and goes on).",
        ),
    ] = OFFER_WAIT,
) -> None:
    """Play a game in the terminal: you at the human seats, bots at the others."""
    console = out_console()
    with user_errors():
        doc = read_position_file(position) if position is not None else None
        codes = split_players(players) or default_players(game, doc)
        check_bot_codes(codes, human=True)
        if doc is not None and position is not None:
            g = position_game(game, len(codes), option or [], doc, position)
            load_position(g, doc, position)  # a refused document: one error line, exit 2
        else:
            g = make_game(game, len(codes), option or [])
        for code in codes:
            if is_human(code) and code.strip() != "human":
                fail(f"the human player takes no parameters, not {code!r}")
        lines = LineInput(console, sys.stdin)
        session = PlaySession(
            g,
            codes,
            secrets.randbits(31) if seed is None else seed,
            console=console,
            read_line=stdin_reader(console),
            poll_line=lines.poll if lines.interactive else None,
            live=lines.interactive,
            offer_wait=offer_wait,
            position=doc,
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
