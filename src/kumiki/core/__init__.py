"""The game protocol, option handling, records and errors shared by every game."""

from kumiki.core.errors import IllegalMove, MoveSyntaxError, RecordError
from kumiki.core.game import Game, GameFacts, Move, State
from kumiki.core.options import Option
from kumiki.core.registry import game_class, games, load_game, register_game

__all__ = [
    "Game",
    "GameFacts",
    "IllegalMove",
    "Move",
    "MoveSyntaxError",
    "Option",
    "RecordError",
    "State",
    "game_class",
    "games",
    "load_game",
    "register_game",
]
