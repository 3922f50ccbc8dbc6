"""The interactive game loop: humans type moves, agents think behind a spinner, the record is saved as we go.

Rules stay in the state: this loop only asks it for legal moves, plays what it is given, and shows the position.
"""

from __future__ import annotations

import contextlib
import datetime
import os
import re
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.columns import Columns
from rich.console import Console, RenderableType
from rich.text import Text

from kumiki.agents import Agent, agent_from_spec, parse_agent_spec
from kumiki.agents.base import other_game
from kumiki.core.errors import IllegalMove, MoveSyntaxError, quoted
from kumiki.core.game import Move, State
from kumiki.core.records import write_record
from kumiki.core.text import printable
from kumiki.terminal import DEFAULT_AGENT, FIRST_HUMAN, GameView, view_for

HUMAN = "human"

QUIT = ("quit", "exit", "q", ":q")
HELP = ("help", "h", "?")
MOVES = ("moves", "m", "legal")
UNDO = ("undo", "u", "takeback")
BOARD = ("board", "b", "show")
FULL_BOARD = tuple(f"{word} all" for word in BOARD)  # the whole board, however short the terminal
# Rows kept free under the board and over it on a terminal: the prompt, the blank line before the board and the
# moves just played (yours and the reply), so that the board, the last move and the prompt are all on screen.
SPARE_ROWS = 4
MAX_LINE = 2**20  # characters in a line read from a pipe or a file: far beyond any move
ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


@dataclass
class Seat:
    """One player: a human at the keyboard (``agent`` None) or an agent."""

    index: int
    agent: Agent | None = None
    spec: str = ""  # the agent as given (--seat 0=SPEC): the name of one that has none of its own

    @property
    def human(self) -> bool:
        return self.agent is None

    def tag(self) -> str:
        """The text of the record's PlayerN tag."""
        if self.agent is None:
            return HUMAN
        describe = getattr(self.agent, "describe", None)  # an import path's factory may return any object
        return str(describe()) if callable(describe) else self.spec or type(self.agent).__name__

    def label(self) -> str:
        """The agent's name for the screen: its own, else the spec's (an import path's ``module:factory``)."""
        name = getattr(self.agent, "name", None)
        if isinstance(name, str) and name:
            return name
        return parse_agent_spec(self.spec)[0] if self.spec else type(self.agent).__name__


def default_seat_specs(players: int, view: GameView | None = None, first: int | None = None) -> dict[int, str]:
    """Who sits where when nobody says: the game's view names the human's seat (or leaves it to ``first``, the seat
    that moves first) and the agent on the others."""
    seat = view.human_seat if view is not None else None
    human = (seat if seat is not None else first if first is not None else FIRST_HUMAN) % players
    agent = view.default_agent if view is not None else DEFAULT_AGENT
    return {seat: HUMAN if seat == human else agent for seat in range(players)}


def build_seats(
    players: int,
    specs: Sequence[str],
    view: GameView | None = None,
    game: str | None = None,
    first: int | None = None,
) -> list[Seat]:
    """Seats from ``N=human`` / ``N=mcts:iterations=3000``; a seat not given keeps its default (the view's).

    Raises ValueError naming the bad spec, also an agent that plays only another game than ``game`` (before the
    game starts, not at that seat's first turn).
    """
    chosen = default_seat_specs(players, view, first)
    given: set[int] = set()
    for spec in specs:
        number, eq, what = spec.partition("=")
        if not eq or not number.strip() or not what.strip():
            raise ValueError(f"--seat {spec!r}: write N=human or N=AGENT, e.g. 0=mcts:iterations=3000")
        try:
            if not number.isascii():  # int() reads "١" (another script's 1) as seat 1
                raise ValueError(number)
            seat = int(number)
        except ValueError:
            raise ValueError(f"--seat {spec!r}: the seat must be a number from 0 to {players - 1}") from None
        if not 0 <= seat < players:
            if players == 1:  # "not in 0…0 (1 players)" said it twice, wrongly
                raise ValueError(f"--seat {spec!r}: seat {seat} is not in the game (1 player: seat 0 only)")
            raise ValueError(f"--seat {spec!r}: seat {seat} is not in 0…{players - 1} ({players} players)")
        if seat in given:
            raise ValueError(f"--seat {spec!r}: seat {seat} is given twice")
        given.add(seat)
        chosen[seat] = what.strip()
    seats = []
    for seat in range(players):
        spec = chosen[seat]
        if spec.lower() == HUMAN:
            seats.append(Seat(seat))
            continue
        try:
            agent = agent_from_spec(spec)
        except ValueError as error:
            raise ValueError(f"seat {seat} ({spec}): {error}") from None
        only = None if game is None else other_game(agent, game)
        if only is not None:
            raise ValueError(f"seat {seat} ({spec}): plays {only} only, not {game}")
        seats.append(Seat(seat, agent, spec))
    return seats


def save_record(state: State, path: Path, tags: dict[str, str]) -> None:
    """Write the record atomically: a crash mid-write never leaves half a file behind."""
    text = write_record(state, tags=tags)
    folder = path.parent if str(path.parent) else Path(".")
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as error:  # name the record, not the temporary file
        raise OSError(error.errno, error.strerror, str(path)) from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as file:
            file.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


class LineReader:
    """Reads one command at a time; echoes it when stdin is not a terminal, so a piped session reads as a dialogue.

    Returns None at the end of input.
    """

    def __init__(self, console: Console, stream: Callable[[], str] | None = None, tty: bool | None = None) -> None:
        self.console = console
        self.stream = stream
        # No stdin at all (closed, as a service or `<&-` leaves it): no terminal, and the input has ended.
        self.tty = (sys.stdin is not None and sys.stdin.isatty()) if tty is None else tty
        self.readline = False
        if self.tty and stream is None:
            with contextlib.suppress(ImportError):  # line editing and history (arrow keys) for input()
                import readline  # noqa: F401

                self.readline = sys.stdout.isatty()  # input() uses readline only when both ends are a terminal

    def prompt_text(self, prompt: Text) -> str:
        """The prompt as ``input()`` shows it, in the console's colours; with readline each escape sequence is
        marked as taking no room on the line (between readline's markers 1 and 2).

        readline must draw the prompt itself: printed before ``input()``, it is unknown to readline, which then
        rubs it out when a line is edited back to nothing, and leaves the next prompt on the same line after an
        empty line.
        """
        with self.console.capture() as capture:
            self.console.print(prompt, end="")
        text = capture.get()
        return ANSI_ESCAPE.sub("\x01\\g<0>\x02", text) if self.readline else text

    def __call__(self, prompt: Text) -> str | None:
        if self.tty and self.stream is None:
            try:
                return input(self.prompt_text(prompt))
            except EOFError:
                self.console.print()
                return None
        self.console.print(prompt, end="")
        if self.stream is not None:
            line = self.stream()
        else:  # at most MAX_LINE characters: /dev/zero has no end of line, and was read until memory ran out
            line = "" if sys.stdin is None else sys.stdin.readline(MAX_LINE + 1)
        if not line:
            self.console.print()
            return None
        if len(line) > MAX_LINE and not line.endswith("\n"):
            self.console.print()
            self.console.print(
                Text(f"A line of over {MAX_LINE:,} characters is no move: the input ends here.", style="red")
            )
            return None
        line = line.rstrip("\r\n")
        self.console.print(Text(echoed(line)))
        return line


class Session:
    """One game at the terminal. ``run()`` plays it to the end (or until the humans quit) and returns 0."""

    def __init__(
        self,
        state: State,
        seats: Sequence[Seat],
        console: Console,
        *,
        save: Path | None = None,
        reader: Callable[[Text], str | None] | None = None,
        view: GameView | None = None,
    ) -> None:
        self.state = state
        self.seats = list(seats)
        self.console = console
        self.save_path = save
        self.read = reader or LineReader(console)
        self.view = view or view_for(state.game.name)
        self.undo_stack: list[State] = []
        humans = sum(seat.human for seat in self.seats)
        self.names = [self._label(seat, humans) for seat in self.seats]
        self.tags = {f"Player{seat.index}": seat.tag() for seat in self.seats}
        self.tags["Date"] = datetime.date.today().strftime("%Y.%m.%d")
        self.stopped = False
        self.save_failed = False
        # What stopped the game: Ctrl-C, or SIGTERM as the CLI raises it (a KeyboardInterrupt too).
        self.interrupted: KeyboardInterrupt | None = None

    # ------------------------------------------------------------------ output

    @staticmethod
    def _label(seat: Seat, humans: int) -> str:
        if seat.agent is None:
            return "you" if humans == 1 else HUMAN
        return seat.label()

    def who(self, seat: int) -> str:
        return seat_name(seat, self.names)

    def turn_note(self) -> str | None:
        """The view's word on who acts now (e.g. Blokus 3D's colour to place), or None."""
        note = self.view.turn_note
        return note(self.state) if note is not None and not self.state.over else None

    def played(self, seat: int, move: Move, note: str | None, extra: str = "") -> None:
        self.say(f"{self.who(seat)} plays {move}{f' ({note})' if note else ''}{extra}")
        after = self.view.after_move(self.state) if self.view.after_move is not None else None
        if after is not None:
            self.console.print(after, soft_wrap=not self.console.is_terminal)

    def say(self, text: str, style: str = "") -> None:
        """One message: on a terminal wrapped between words at its width (the terminal folded a long one mid-word:
        "(yellow" at the end of a row, ")" on the next), elsewhere on one line, which we never break."""
        self.console.print(Text(text, style=style), soft_wrap=not self.console.is_terminal)

    def show_board(self, full: bool = False) -> None:
        self.console.print()
        self.console.print(self.board(full))

    def board(self, full: bool = False) -> RenderableType:
        """The game's picture of the position: its compact one on a terminal too short for the full one (never
        when the output is not a terminal, so what a pipe reads stays the same), unless ``full``."""
        drawn = self.view.render(self.state, self.names)
        compact = self.view.compact
        if full or compact is None or not self.console.is_terminal:
            return drawn
        room = self.console.height - SPARE_ROWS
        if rows(self.console, drawn) <= room:
            return drawn
        return compact(self.state, self.names)

    def show_help(self, page: int | None = None) -> None:
        """The view's how-to-play; on a terminal too short for all of it, ``page`` (1 when None) of the pages that
        fit it, each with a last line naming the next (``help 2``), so that the top of the page stays on screen."""
        text = self.view.how_to_play(self.state.game)
        pages = help_pages(self.console, text) if self.console.is_terminal else [text]
        if len(pages) == 1:
            self.console.print(Text(text))
            return
        number = min(max(page or 1, 1), len(pages))
        self.console.print(Text(pages[number - 1]))
        following = f"'help {number + 1}' for the rest" if number < len(pages) else "'help 1' for the start"
        self.say(f"Help page {number}/{len(pages)}: {following}, 'help all' for all.", style="dim")

    def result_text(self) -> str:
        return describe_result(self.state, self.names, self.view)

    # ------------------------------------------------------------------ the game

    def run(self) -> int:
        if self.save_path is not None:
            # Fail before the first move if the record cannot be written at all.
            save_record(self.state, self.save_path, self.tags)
        try:  # a stop while the header prints is a stop of the game too (SIGTERM's 143, not a bare 130)
            self.header()
            self.loop()
        except KeyboardInterrupt as interrupt:
            self.console.print()
            self.stopped = True
            self.interrupted = interrupt
        finally:
            saved = self.save()
        if self.stopped:
            played = len(self.state.history)
            self.say(f"Game stopped after {played} move{'s' * (played != 1)}.")
            self.say(scores_line(self.state))
        else:
            self.show_board()
            self.console.print()
            self.say(scores_line(self.state))
            self.say(self.result_text(), style="bold")
        if saved:
            self.say(f"Saved to {self.save_path} (replay it with: kumiki replay {self.save_path})")
        elif self.save_path is not None:
            self.say("The record could not be saved; here it is:", style="bold red")
            self.console.print(Text(write_record(self.state, tags=self.tags)), end="", soft_wrap=True)
            return 2
        return 0

    def header(self) -> None:
        players = self.state.game.players
        self.say(f"Kumiki · {self.state.game.name} · {players} player{'s' * (players != 1)}", style="bold")
        for seat in self.seats:
            self.say(f"  {self.who(seat.index)}: {seat.tag()}")
        if any(seat.human for seat in self.seats):
            self.console.print()
            self.show_help()

    def loop(self) -> None:
        while not self.state.over:
            seat = self.seats[self.state.to_move]  # type: ignore[index]
            if not self.state.legal_moves():
                self.say(f"{self.who(seat.index)} has no legal move; the game cannot go on.", style="bold red")
                self.stopped = True
                return
            if seat.human:
                self.show_board()
                if not self.human_turn(seat):
                    self.stopped = True
                    return
            else:
                self.agent_turn(seat)
            self.save()

    def human_turn(self, seat: Seat) -> bool:
        """Read commands until a legal move is played (True) or the player quits (False)."""
        state = self.state
        prompt = Text()
        prompt.append(f"Move {len(state.history) + 1} · ")
        prompt.append(self.who(seat.index), style="bold")
        note = self.turn_note()
        if note:
            prompt.append(f" · {note}", style="bold")
        prompt.append(" > ")
        while True:
            line = self.read(prompt)
            if line is None:
                return False
            text = line.strip()
            word = text.lower()
            if not text:
                continue
            if word in QUIT:
                return False
            if word in HELP:
                self.show_help()
                continue
            asked = help_page(word)
            if asked is not None:
                if asked == 0:
                    self.console.print(Text(self.view.how_to_play(state.game)))
                else:
                    self.show_help(asked)
                continue
            if self.view.command is not None:
                answer = self.view.command(state, text)
                if answer is not None:
                    self.console.print(answer)
                    continue
            if word in MOVES:
                legal = state.legal_moves()
                self.say(f"{len(legal)} legal move{'s' * (len(legal) != 1)}:")
                self.console.print(Columns([Text(str(move)) for move in legal], padding=(0, 3)))
                continue
            if word in BOARD or " ".join(word.split()) in FULL_BOARD:
                self.show_board(full=word not in BOARD)
                continue
            if word in UNDO:
                if self.undo():
                    return True
                continue
            try:
                move = parse_move(state, text)
                before = state.copy()
                state.play(move)
            except MoveSyntaxError as error:
                hint = self.view.syntax_hint
                self.say(f"{quoted(text)}: not a move — {hint}" if hint else one_line(error), style="red")
                continue
            except IllegalMove as error:
                self.say(f"Illegal move: {one_line(error)}", style="red")
                continue
            self.undo_stack.append(before)
            self.played(seat.index, move, note)
            return True

    def undo(self) -> bool:
        """Go back to before the last human move (and the agents' replies). True when something was undone."""
        if not self.undo_stack:
            self.say("Nothing to undo.")
            return False
        self.state = self.undo_stack.pop()
        self.say(f"Took back to move {len(self.state.history) + 1}.")
        return True

    def agent_turn(self, seat: Seat) -> None:
        agent = seat.agent
        assert agent is not None
        note = self.turn_note()
        started = time.perf_counter()
        if self.console.is_terminal:
            with self.console.status(Thinking(seat.label())):
                move = agent.choose(self.state.copy())
        else:
            move = agent.choose(self.state.copy())
        took = time.perf_counter() - started
        self.state.play(move)
        timing = f"  ({took:.1f} s)" if self.console.is_terminal and took >= 0.05 else ""
        self.played(seat.index, move, note, timing)

    def save(self) -> bool:
        """Write the record so far (after every move, so that nothing is lost). True if it is on disk.

        A failure is reported once on stderr; the game goes on and the record is printed at the end instead.
        """
        if self.save_path is None:
            return False
        try:
            save_record(self.state, self.save_path, self.tags)
        except OSError as error:
            if not self.save_failed:
                reason = error.strerror or one_line(error)
                print(f"kumiki: cannot save to {self.save_path}: {reason}", file=sys.stderr)
            self.save_failed = True
            return False
        self.save_failed = False
        return True


class Thinking:
    """The words beside the spinner while an agent thinks: its name, then the seconds so far (drawn afresh at each
    turn of the spinner), so a long think shows that it goes on and for how long."""

    def __init__(self, name: str, clock: Callable[[], float] | None = None) -> None:
        self.name = name
        self.clock = clock or time.perf_counter
        self.started = self.clock()

    def __rich__(self) -> Text:
        seconds = self.clock() - self.started
        return Text(f"{self.name} is thinking…" + (f" {seconds:.0f} s" if seconds >= 1 else ""))


def rows(console: Console, renderable: RenderableType) -> int:
    """How many rows ``renderable`` takes on ``console`` (at its width)."""
    return len(console.render_lines(renderable, console.options, pad=False, new_lines=False))


def help_pages(console: Console, text: str) -> list[str]:
    """``text`` cut between sentences into pages of at most the console's height less two rows (the page's last
    line and the prompt) at its width: one page when it all fits."""
    room = max(console.height - 2, 3)
    if rows(console, Text(text)) <= room:
        return [text]
    sentences = re.split(r"(?<=[.!?])(?<!e\.g\.)\s+(?=[A-Z'(])", text)
    pages: list[str] = []
    page = ""
    for sentence in sentences:
        longer = f"{page} {sentence}" if page else sentence
        if page and rows(console, Text(longer)) > room:
            pages.append(page)
            page = sentence
        else:
            page = longer
    pages.append(page)
    return pages


def help_page(word: str) -> int | None:
    """The page ``help 2`` asks for (0 for ``help all``; ``help 0`` is the first page, as ``help 99`` is the last),
    or None when ``word`` asks for no page of the help."""
    parts = word.split()
    if len(parts) != 2 or parts[0] not in HELP:
        return None
    if parts[1] == "all":
        return 0
    return max(int(parts[1]), 1) if parts[1].isascii() and parts[1].isdigit() else None


def parse_move(state: State, text: str) -> Move:
    """The move ``text`` means in this position (a state may accept shortcuts, e.g. Kuzushi's bare cell)."""
    parser = getattr(state, "parse_move", None)
    return parser(text) if parser is not None else state.game.parse_move(text)


def echoed(line: str) -> str:
    """A piped line as the dialogue shows it: a tab as a space, any other control character (an escape sequence
    that would clear the screen or set its title) written out as Python writes it, ``\\x1b``."""
    return "".join(ch if printable(ch) else " " if ch == "\t" else ascii(ch)[1:-1] for ch in line)


def one_line(error: BaseException | str) -> str:
    return " ".join(str(error).split())


def scores_line(state: State) -> str:
    return "Scores: " + ", ".join(f"player {seat} {score:g}" for seat, score in enumerate(state.scores()))


def seat_name(seat: int, names: Sequence[str] | None = None) -> str:
    """``Player 1 (you)``: a seat as the result lines name it (its player's name where there is one)."""
    return f"Player {seat} ({names[seat]})" if names and seat < len(names) else f"Player {seat}"


def describe_result(state: State, names: Sequence[str] | None = None, view: GameView | None = None) -> str:
    """``Player 1 (you) wins.``, a shared win, a solo game's or a team's score (``Game over: you scored 45.``), or
    whose turn it is when the game goes on; then the view's note on why."""
    if not state.over:
        if state.to_move is None:
            return "Not over."
        return f"The game goes on: {seat_name(state.to_move, names)} to move."
    view = view or view_for(state.game.name)
    note = view.result_note(state) if view.result_note is not None else None
    if len(set(state.teams())) == 1:  # one side (a solo game, or a team playing together): its score, no winner
        score = state.scores()[0]
        solo = "you" if names and names[0] == "you" else seat_name(0, names)
        who = "the team" if state.game.players > 1 else solo
        text = f"Game over: {who} scored {score:g}."
        return f"{text} {note}" if note else text
    winners = state.winners()
    if not winners:
        text = "Nobody wins."
    elif len(winners) == 1:
        text = f"{seat_name(winners[0], names)} wins."
    else:
        text = "Shared win: " + ", ".join(seat_name(w, names) for w in winners) + "."
    if note:
        text += " " + note
    if names and names.count("you") == 1:
        me = names.index("you")
        if me not in winners:
            text += " You lose."
        else:
            text += " You win!" if len(winners) == 1 else " You share the win."
    return text
