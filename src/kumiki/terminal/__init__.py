"""Playing and showing games in a terminal, with rich colours.

Each game may register a :class:`GameView` in :data:`VIEWS` (game name -> view): how to draw a position, a
how-to-play paragraph, a hint for text that is not a move, commands of its own (e.g. ``hint``), and who sits
where by default. A game without one is drawn with ``state.render()``, so every game works in the terminal from
its first day.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.text import Text

from kumiki.core.game import Game, State

Renderer = Callable[[State, Sequence[str] | None], RenderableType]
# (state, the text typed) -> what to print, or None when the text is not one of the game's own commands.
Command = Callable[[State, str], RenderableType | None]

# The seats nobody chose on the command line: a human at FIRST_HUMAN, DEFAULT_AGENT everywhere else.
FIRST_HUMAN = 1  # in Kuzushi, the seat that moves first
DEFAULT_AGENT = "mcts:iterations=3000"


def plain_renderer(state: State, names: Sequence[str] | None = None) -> RenderableType:
    """The game's own plain-text picture (``state.render()``)."""
    return Text(state.render())


def generic_how_to_play(game: Game) -> str:
    return (
        f"{game.name}: type a move in the game's notation; 'moves' lists the legal moves, "
        "'help' shows this again, 'undo' takes back the last move typed here (and the computers' replies), "
        "'quit' stops (a --save file is kept)."
    )


@dataclass(frozen=True)
class GameView:
    """How the terminal shows one game."""

    render: Renderer = plain_renderer
    how_to_play: Callable[[Game], str] = generic_how_to_play
    # Shown after text that does not parse as a move, instead of the parser's message (None: the message).
    syntax_hint: str | None = None
    # An extra sentence on how the result was decided (e.g. a tie-break), or None.
    result_note: Callable[[State], str | None] | None = None
    # The seat a newcomer plays when no --seat says otherwise (taken modulo the number of players; None: the seat
    # that moves first, ``Game.first_mover()``, or FIRST_HUMAN where no seat opens the whole game) ...
    human_seat: int | None = None
    # ... and the agent (an agent spec) on every other seat nobody chose.
    default_agent: str = DEFAULT_AGENT
    # The game's own commands at a human's prompt, tried before the generic ones (moves, undo, board ...)
    # and before the text is read as a move.
    command: Command | None = None
    # A few words on who is to act beyond the seat (e.g. the colour to place), shown in the prompt and with
    # each move played; None for nothing.
    turn_note: Callable[[State], str | None] | None = None
    # What the move just played led to (e.g. Kozo's tower falling), printed after the move; None for nothing.
    after_move: Callable[[State], RenderableType | None] | None = None
    # The position drawn for a terminal too short for ``render`` (fewer rows: legends and drawings behind the
    # game's commands, with one line saying which); None: ``render`` always.
    compact: Renderer | None = None


class Fitting:
    """The first of ``choices`` whose widest line fits the console's width (else the last): a line naming commands
    that would wrap inside a quoted command ("'board" / "all'") at 60 columns gives way to a shorter wording."""

    def __init__(self, *choices: RenderableType) -> None:
        self.choices = choices

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        wider = options.update_width(options.max_width + 1)  # a measure is never wider than the width it is given
        for choice in self.choices[:-1]:
            if console.measure(choice, options=wider).maximum <= options.max_width:
                yield choice
                return
        yield self.choices[-1]


class FittingRows:
    """The first of ``choices`` (each drawn only when tried) whose rows leave ``spare`` of the console's height, else
    the last: a compact board gives up a part at a time (a view, the cards' texts, the line of commands) so that the
    prompt stays on screen."""

    def __init__(self, choices: Sequence[Callable[[], RenderableType]], spare: int) -> None:
        self.choices = choices
        self.spare = spare

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        room = options.max_height - self.spare
        for number, choice in enumerate(self.choices, 1):
            drawn = choice()
            last = number == len(self.choices)
            if last or len(console.render_lines(drawn, options, pad=False, new_lines=False)) <= room:
                yield drawn
                return


def _kuzushi_view() -> GameView:
    from kumiki.terminal import kuzushi

    return kuzushi.VIEW


def _blokus3d_view() -> GameView:
    from kumiki.terminal import blokus3d

    return blokus3d.VIEW


def _kozo_view() -> GameView:
    from kumiki.terminal import kozo

    return kozo.VIEW


def _towerbrix_view() -> GameView:
    from kumiki.terminal import towerbrix

    return towerbrix.VIEW


# game name -> a function giving its view (imported on first use, like the games themselves).
VIEWS: dict[str, Callable[[], GameView]] = {
    "blokus3d": _blokus3d_view,
    "kozo": _kozo_view,
    "kuzushi": _kuzushi_view,
    "towerbrix": _towerbrix_view,
}


def view_for(game_name: str) -> GameView:
    """The view registered for ``game_name``, or the plain one."""
    factory = VIEWS.get(game_name)
    return factory() if factory is not None else GameView()


def register_view(game_name: str, factory: Callable[[], GameView]) -> None:
    """Give ``game_name`` its own terminal view."""
    VIEWS[game_name] = factory


class QuietConsole(Console):
    """A console that stops quietly, with status 0 as the other commands do, when its reader goes away
    (``kumiki play … | head``): rich's own answer to a closed pipe is to exit with status 1."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        raise SystemExit(0)


def make_console(stderr: bool = False) -> Console:
    """A console that never reinterprets our text: no markup guessing, no highlighting of numbers; a closed pipe
    ends the command quietly (status 0)."""
    return QuietConsole(stderr=stderr, highlight=False, soft_wrap=False)


__all__ = [
    "DEFAULT_AGENT",
    "FIRST_HUMAN",
    "VIEWS",
    "Command",
    "Fitting",
    "FittingRows",
    "GameView",
    "QuietConsole",
    "make_console",
    "plain_renderer",
    "register_view",
    "view_for",
]
