"""Playing and showing games in a terminal, with rich colours.

Each game may register a :class:`GameView` in :data:`VIEWS` (game name -> view): how to draw a position, a
how-to-play paragraph, and a hint for text that is not a move. A game without one is drawn with
``state.render()``, so every game works in the terminal from its first day.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.console import Console, RenderableType
from rich.text import Text

from kumiki.core.game import Game, State

Renderer = Callable[[State, Sequence[str] | None], RenderableType]


def plain_renderer(state: State, names: Sequence[str] | None = None) -> RenderableType:
    """The game's own plain-text picture (``state.render()``)."""
    return Text(state.render())


def generic_how_to_play(game: Game) -> str:
    return (
        f"{game.name}: type a move in the game's notation; 'moves' lists the legal moves, "
        "'help' shows this again, 'undo' takes back your last move, 'quit' stops (a --save file is kept)."
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


def _kuzushi_view() -> GameView:
    from kumiki.terminal import kuzushi

    return kuzushi.VIEW


# game name -> a function giving its view (imported on first use, like the games themselves).
VIEWS: dict[str, Callable[[], GameView]] = {"kuzushi": _kuzushi_view}


def view_for(game_name: str) -> GameView:
    """The view registered for ``game_name``, or the plain one."""
    factory = VIEWS.get(game_name)
    return factory() if factory is not None else GameView()


def register_view(game_name: str, factory: Callable[[], GameView]) -> None:
    """Give ``game_name`` its own terminal view."""
    VIEWS[game_name] = factory


def make_console(stderr: bool = False) -> Console:
    """A console that never reinterprets our text: no markup guessing, no highlighting of numbers."""
    return Console(stderr=stderr, highlight=False, soft_wrap=False)


__all__ = ["VIEWS", "GameView", "make_console", "plain_renderer", "register_view", "view_for"]
