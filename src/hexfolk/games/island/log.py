"""The game log (IR-74): entries with their visibility, the frozen chunks clones share, the
rendered lines each observer may see, and the recurring texts formatted once.

An entry is ``(visibility, line)``: visibility None is everyone, else the frozenset of seats
that see it. The engine writes a line as its form and its params' values only, the flat tuple
``(form, value, ...)`` (:data:`Written`: the values in the order of
:data:`~.log_forms.FIELDS`, bundles of cards as counts), built at the write with no more work
than the tuple; the :class:`~hexfolk.core.LogLine` with its English sentence and its named
params (:func:`~.log_forms.params_of`) is made when someone reads the log (:func:`make_line`,
with the labels of the reading state's board), so a step pays nothing for the lines nobody
reads (the bots' and the RL environments' games read few or none). A written line holds no
dict and no list: like the sentences of old it costs the garbage collector nothing once
written (a tuple of immutable values is untracked at its first collection; a line holding
dicts stayed tracked for the whole game, ``benchmarks/README.md``, "Last full run"). The lines
that recur every turn are written tuples made once per player count (:class:`Texts`), and a
production line is a :class:`~.production.ProductionText` (``line()`` gives the line). The log
is append-only: a state appends to its own list and, when cloned, freezes that list into a
:class:`LogChunks` node both share, so a clone never copies the log.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hexfolk.core import LogLine
from hexfolk.games.island.actions import MARITIME
from hexfolk.games.island.labels import Labels
from hexfolk.games.island.log_forms import LOG, NOTE_FORMS, PLACE_FORMS, params_of
from hexfolk.games.island.rules import DEV_NAMES, RESOURCES

LogEntry = tuple[frozenset[int] | None, Any]
"""``(visibility, line)``: visibility None is everyone, else the seats that see the entry."""


class Note(LogLine):
    """A log line that only tells what the rules did and changed nothing the other lines do
    not already say (production the robber blocked, IR-44; cards the bank could not pay,
    IR-37). Observers see it like any line; the fingerprint (``views.full_state``) leaves it
    out, so records made before these lines existed replay to the same fingerprints (rules
    version unchanged); position documents keep it (``[seats, text, "note"]``)."""

    __slots__ = ()


Written = tuple[Any, ...]
"""A line as the engine writes it: ``(form, value, ...)``, the values of the form's params in
the order of :data:`~.log_forms.FIELDS` (immutable: numbers, strings, tuples)."""


def make_line(line: Any, places: Labels) -> LogLine:
    """The :class:`~hexfolk.core.LogLine` of a log entry's line, its places named by
    ``places`` (the labels of the log's board): a written line (:data:`Written`) made now, a
    :class:`Note` for the forms of :data:`~.log_forms.NOTE_FORMS`; a made line as it is; a
    production line's own. The labels keep the lines they made, keyed by the written line
    itself (a tuple of values: lines are values), so the observers of one board share each
    line."""
    if line.__class__ is tuple:
        made_lines = places.lines
        try:
            made = made_lines.get(line)
        except TypeError:  # a value that is not a value (a list given to log_line): not kept
            return _made(line, places)
        if made is None:
            if len(made_lines) >= LINES_MAX:
                made_lines.clear()
            made = made_lines[line] = _made(line, places)
        return made
    return line if isinstance(line, LogLine) else line.line()


LINES_MAX = 1 << 14
"""Lines the labels of one board keep before they start again."""


def _made(line: Written, places: Labels) -> LogLine:
    form = line[0]
    line_class = Note if form in NOTE_FORMS else LogLine
    return LOG.line(form, places, line_class=line_class, **params_of(line))


def is_note(line: Any) -> bool:
    """Whether a log entry's line is a :class:`Note` (made, or written in a note form)."""
    cls = line.__class__
    return cls is Note or (cls is tuple and line[0] in NOTE_FORMS)


def id_text(line: Any) -> str:
    """The text of a log entry's line with its places written by id (``seat 0 settles 28``),
    not by label: the text the log had before places had labels, which the fingerprint keeps
    so that records made before then replay to the same fingerprints."""
    if line.__class__ is tuple:
        return LOG.book.render(line[0], params_of(line), None)
    if isinstance(line, LogLine):
        if line.form in PLACE_FORMS:
            return LOG.book.render(line.form, line.params, None)
        return str(line)
    return str(line.line())  # a production line names no place


def fingerprinted(entries: Any) -> list[list[Any]]:
    """The log entries the fingerprint holds: ``[seats or None, text]`` (:func:`id_text`),
    notes left out (``entries`` as written: :meth:`~.position.IslandPosition.log_as_written`)."""
    return [
        [sorted(v) if v is not None else None, id_text(t)] for v, t in entries if not is_note(t)
    ]


LOG_CHUNKS_MAX = 32
"""Chunks a log chain may reach before a clone merges them into one."""


def seen_by(entries: Any, seat: int | None, out: list[LogLine], places: Labels) -> None:
    """Append to ``out`` the line of each entry of ``entries`` that ``seat`` may see (made
    with the board's labels ``places``, :func:`make_line`)."""
    append = out.append
    for vis, line in entries:
        if vis is None or (seat is not None and seat in vis):
            append(line if isinstance(line, LogLine) else make_line(line, places))


class LogChunks:
    """An immutable prefix of a log: a chunk of entries after an earlier prefix (or None).

    Clones share these chains, so copying a state never copies its log (see
    :meth:`IslandState.clone`). Each chunk also remembers, per observer, the rendered lines of
    the whole prefix that observer may see (:meth:`seen`): a function of the frozen entries
    only, the same for every state sharing the chunk, filled lazily and never changed."""

    __slots__ = ("chunk", "depth", "parent", "seen_lines")

    def __init__(self, parent: LogChunks | None, chunk: tuple[LogEntry, ...]):
        self.parent = parent
        self.chunk = chunk
        self.depth: int = 1 if parent is None else parent.depth + 1
        self.seen_lines: dict[int | None, list[LogLine]] = {}
        """Per observer (None: the spectator): the visible lines of the whole prefix. A list
        stored here is never appended to (readers copy it)."""

    def seen(self, seat: int | None, places: Labels) -> list[LogLine]:
        """The lines of the whole prefix that ``seat`` may see, oldest first, made with the
        labels of the log's board (do not change the list: it is the chunk's memo)."""
        lines = self.seen_lines.get(seat)
        if lines is not None:
            return lines
        todo: list[LogChunks] = []
        node: LogChunks | None = self
        start: list[LogLine] = []
        while node is not None:
            known = node.seen_lines.get(seat)
            if known is not None:
                start = known
                break
            todo.append(node)
            node = node.parent
        out = start[:]
        for node in reversed(todo):
            seen_by(node.chunk, seat, out, places)
        self.seen_lines[seat] = out
        return out

    def entries(self) -> list[LogEntry]:
        """All entries of the prefix, oldest first."""
        chunks = []
        node: LogChunks | None = self
        while node is not None:
            chunks.append(node.chunk)
            node = node.parent
        out: list[LogEntry] = []
        for chunk in reversed(chunks):
            out.extend(chunk)
        return out


class Texts:
    """Written log lines that recur every turn (:data:`Written`), made once per player count
    and shared by every state of that player count (lines are values): a step appends one
    without building it."""

    def __init__(self, n: int):
        seats = range(n)
        self.roll = tuple(tuple(("rolls", p, s) for s in range(13)) for p in seats)
        self.end = tuple(("ends", p) for p in seats)
        self.buy = tuple(("buys", p) for p in seats)
        self.draw = tuple(tuple(("draws", p, c) for c in DEV_NAMES) for p in seats)
        self.only = tuple(frozenset((p,)) for p in seats)
        """Visibility of an entry only ``p`` sees."""
        self.pair = tuple(tuple(frozenset((p, q)) for q in seats) for p in seats)
        """Visibility of an entry only ``p`` and ``q`` see."""
        self.steal = tuple(tuple(("steals", t, v) for v in seats) for t in seats)
        self.stole = tuple(
            tuple(tuple(("stole", t, r, v) for r in RESOURCES) for v in seats) for t in seats
        )
        """The private line of a steal by thief, victim and resource index."""
        self.silent = tuple((p, "silent") for p in seats)
        self.accepts = tuple((p, "accepts") for p in seats)
        self.rejects = tuple((p, "rejects") for p in seats)
        """An addressee's part of an ``answers`` line, by seat (:data:`~.log_forms.FIELDS`)."""
        self.trade = tuple(
            {lot: ("trade", p, act.give, act.get) for lot, act in MARITIME.items()} for p in seats
        )
        """Maritime trade lines by seat and lot ``(ratio, resource given, resource taken)``."""
        self.n = n

    def __reduce__(self) -> tuple[Callable[[int], Texts], tuple[int]]:
        # a pickled or copied position shares the texts of its player count in the process it
        # lands in, rebuilt there, never carried across
        return texts_for, (self.n,)


_TEXTS: dict[int, Texts] = {}


def texts_for(n: int) -> Texts:
    """The :class:`Texts` of ``n`` players (built once per player count)."""
    texts = _TEXTS.get(n)
    if texts is None:
        texts = _TEXTS[n] = Texts(n)
    return texts
