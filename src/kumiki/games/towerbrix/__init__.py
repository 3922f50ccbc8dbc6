"""TowerBrix: a cooperative game of building one tower of nine bricks that meets everyone's secret condition cards."""

from kumiki.games.towerbrix.moves import TowerBrixMove, parse_towerbrix_move
from kumiki.games.towerbrix.rules import TowerBrix, TowerBrixState

__all__ = ["TowerBrix", "TowerBrixMove", "TowerBrixState", "parse_towerbrix_move"]
