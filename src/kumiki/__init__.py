"""Kumiki: reference implementations of construction tabletop games, with AI agents and tools.

>>> import kumiki
>>> game = kumiki.load_game("kuzushi", players=2)
>>> state = game.new_state(seed=7)
>>> state.play("B 1,0")
>>> str(state.history[0])
'B 1,0'
"""

# ``kumiki.games`` is both the contract's function and the package of game modules. Importing the package
# first puts it in sys.modules, so later ``import kumiki.games.<name>`` never rebinds the name below.
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _distribution_version

import kumiki.games as _games_package  # noqa: F401  (imported for its side effect, see above)
from kumiki.agents import load_agent
from kumiki.core.errors import IllegalMove, MoveSyntaxError, RecordError
from kumiki.core.game import Game, Move, State
from kumiki.core.records import read_record, write_record
from kumiki.core.registry import games, load_game

try:  # one source of truth: the version in pyproject.toml, as the installed package's metadata carries it
    __version__: str = _distribution_version("kumiki")
except PackageNotFoundError:  # a source tree put on sys.path by hand, never installed
    __version__ = "0+unknown"

__all__ = [
    "Game",
    "IllegalMove",
    "Move",
    "MoveSyntaxError",
    "RecordError",
    "State",
    "__version__",
    "games",
    "load_agent",
    "load_game",
    "read_record",
    "write_record",
]
