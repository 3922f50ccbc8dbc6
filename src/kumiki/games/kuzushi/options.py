"""Kuzushi's options as data: players, grid size, tiles, teams, the CITY rule, the reading of majority and the
teams' tie-break."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kumiki.core.options import Option

DEFAULT_SIZE = {2: 6, 3: 7, 4: 8, 5: 9, 6: 10}


def _check_teams(value: Any, resolved: Mapping[str, Any]) -> str | None:
    if value is None:
        return None
    players = resolved["players"]
    allowed = {4: (2,), 6: (2, 3)}.get(players, ())
    if value not in allowed:
        if not allowed:
            return f"teams need 4 or 6 players, not {players} (4 players: teams=2; 6 players: teams=2 or 3)"
        return f"with {players} players teams must be {' or '.join(map(str, allowed))}, not {value}"
    return None


KUZUSHI_OPTIONS = (
    Option("players", int, 2, "number of players; player 0 owns the CITY, player 1 moves first", 2, 6),
    Option(
        "size",
        int,
        lambda o: DEFAULT_SIZE[o["players"]],
        "grid limit N: the tiles must fit in an N×N square (default 6, 7, 8, 9, 10 for 2–6 players)",
        2,
        20,
    ),
    Option("tiles", int, 19, "tiles per player, not counting the CITY (the seed's 8×8 variant: 38)", 1, 400),
    Option(
        "teams",
        int,
        None,
        "number of teams: 4 players in 2, or 6 players in 2 or 3; seat i plays for team i mod teams",
        nullable=True,
        check=_check_teams,
    ),
    Option(
        "city_counts_as_base",
        bool,
        False,
        "whether the CITY counts as a BASE of player 0 when flags are resolved",
    ),
    Option(
        "majority",
        str,
        "most",
        "who gets a FLAG: the one player with the most BASES next to the cell (most), or only a player with more than "
        "half of them (more_than_half: 2-1-1 gives no flag)",
        choices=("most", "more_than_half"),
        quiet_default=True,
    ),
    Option(
        "team_island",
        str,
        "joined",
        "teams tied on tiles: the largest group of the team's tiles joined together wins (joined), or the team of the "
        "player with the largest group of their own tiles (own)",
        choices=("joined", "own"),
        quiet_default=True,
    ),
)
