"""The Agent protocol: ``choose(state)`` returns a legal move for ``state.to_move`` and never mutates the state."""

from __future__ import annotations

import functools
from abc import ABC, abstractmethod
from typing import Any, ClassVar

from kumiki.core.game import Move, State
from kumiki.core.options import Option, format_value, resolve_options


class Agent(ABC):
    """A player program. Options are declared as data (``option_spec``) and validated like game options."""

    name: ClassVar[str]
    option_spec: ClassVar[tuple[Option, ...]] = ()
    only_game: ClassVar[str | None] = None  # the one game a game-specific agent plays (None: every game)

    def __init__(self, /, **options: Any) -> None:
        self.options: dict[str, Any] = resolve_options(self.option_spec, options, f"agent {self.name!r}")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Every agent's ``choose`` refuses what is not a position in one line (a game, a record, a view), instead
        of failing deep inside on a missing attribute; a wrapper that acts as a state (``to_move``,
        ``legal_moves``) passes."""
        super().__init_subclass__(**kwargs)
        choose = cls.__dict__.get("choose")
        if choose is None or getattr(choose, "checks_state", False) or getattr(choose, "__isabstractmethod__", False):
            return

        @functools.wraps(choose)
        def checked(self: Agent, state: State) -> Move:
            if not isinstance(state, State) and not (hasattr(state, "to_move") and hasattr(state, "legal_moves")):
                raise TypeError(
                    f"agent {self.name!r}: choose() takes a position (a State, e.g. game.new_state()), "
                    f"not {type(state).__name__}"
                )
            return choose(self, state)  # type: ignore[no-any-return]

        checked.checks_state = True  # type: ignore[attr-defined]
        cls.choose = checked  # type: ignore[method-assign]

    @abstractmethod
    def choose(self, state: State) -> Move:
        """A legal move for ``state.to_move``."""

    def describe(self) -> str:
        """The agent as a record's PlayerN tag: ``mcts iterations=2000 seed=1``."""
        parts = [self.name]
        parts += [f"{k}={format_value(v)}" for k, v in self.options.items() if v is not None]
        return " ".join(parts)

    def __repr__(self) -> str:
        args = "".join(f", {k}={v!r}" for k, v in self.options.items())
        return f"kumiki.load_agent({self.name!r}{args})"


def require_moves(state: State) -> list[Move]:
    """The legal moves, or a ValueError saying why an agent cannot move here."""
    if state.over or state.to_move is None:
        raise ValueError("the game is over: there is no move to choose")
    moves = list(state.legal_moves())
    if not moves:
        raise ValueError(f"player {state.to_move} has no legal move")
    return moves


def other_game(agent: object, game: str) -> str | None:
    """The one game ``agent`` plays when that is not ``game`` (None: it plays ``game``); any object (an agent
    factory of an import path may return one without ``only_game``)."""
    only = getattr(agent, "only_game", None)
    return only if only is not None and only != game else None
