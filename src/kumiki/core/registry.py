"""Find games by name without importing every game at start-up."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from kumiki.core.game import Game
from kumiki.core.options import shown

# name -> "module:Class"; a game is listed here once it is built.
_GAMES: dict[str, str] = {
    "blokus3d": "kumiki.games.blokus3d:Blokus3D",
    "kozo": "kumiki.games.kozo:Kozo",
    "kuzushi": "kumiki.games.kuzushi:Kuzushi",
    "towerbrix": "kumiki.games.towerbrix:TowerBrix",
}


def register_game(name: str, target: str) -> None:
    """Make a game loadable by name; ``target`` is ``"package.module:GameClass"``."""
    _GAMES[name] = target


def games() -> list[str]:
    """The names of the games built so far, sorted."""
    return sorted(_GAMES)


def game_class(name: str) -> type[Game]:
    """The Game subclass registered as ``name``; ValueError names the games there are."""
    if not isinstance(name, str) or name not in _GAMES:
        raise ValueError(f"unknown game {shown(name)} (games: {', '.join(games())})")
    module_name, _, class_name = _GAMES[name].partition(":")
    cls: type[Game] = getattr(import_module(module_name), class_name)
    return cls


def load_game(name: str, /, **options: Any) -> Game:
    """The game ``name`` with its options: ``load_game("kuzushi", players=3)``."""
    return game_class(name)(**options)
