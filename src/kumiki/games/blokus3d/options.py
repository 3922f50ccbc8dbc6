"""Blokus 3D's options as data: players, structure and colours per player."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kumiki.core.options import Option
from kumiki.games.blokus3d.structures import find


def _check_structure(value: Any, resolved: Mapping[str, Any]) -> str | None:
    try:
        find(value)
    except ValueError as error:
        return str(error)
    return None


def _check_colours(value: Any, resolved: Mapping[str, Any]) -> str | None:
    if value == 2 and resolved["players"] != 2:
        return f"two colours each is the 2-player rule (Rumis), not for {resolved['players']} players"
    return None


BLOKUS3D_OPTIONS = (
    Option("players", int, 2, "number of players", 2, 4),
    Option(
        "structure",
        str,
        "A",
        "the structure to build: A (tower), B (L-wall), C (steps), D (pyramid), a registered name, or a .toml path",
        check=_check_structure,
    ),
    Option(
        "colours_per_player",
        int,
        1,
        "colours each player plays; 2 with 2 players: player 0 plays colours 0 and 2, player 1 plays 1 and 3",
        choices=(1, 2),
        check=_check_colours,
    ),
)
