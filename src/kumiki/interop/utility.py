"""The returns the adapters give: one number per seat at the end of a game, the same in every library.

A competitive game is zero-sum: a seat with share ``s`` of the win (1 for a lone winner, ``1/k`` for each of ``k``
winners, 0 for a loser) gets ``(s - 1/n)·n/(n-1)``: a lone winner ``+1``, the others ``-1/(n-1)`` each (with two
players: win ``+1``, loss ``-1``, draw ``0``). TowerBrix (co-operative) gives every seat the team's score; a solo
Kozo game the points.
"""

from __future__ import annotations

from collections import Counter

from kumiki.core.game import Game, State

ILLEGAL_RETURN = -1.0
"""The return of the seat whose illegal action ends the game in the PettingZoo and Gymnasium environments (the
other seats get 0): one number for every game, below every return a played-out game gives (a two-player loss
equals it), so that an illegal action never pays, also where the returns start at 0 (TowerBrix, a solo Kozo)."""


def utility_range(game: Game) -> tuple[float, float, float | None]:
    """(min, max, sum) of the returns of ``game``; sum is None where it varies."""
    n = game.players
    if game.facts.cooperative:
        return 0.0, _best_team_score(game), None
    if n == 1:
        return 0.0, _best_solo_score(game), None
    k = _fewest_winners(game)
    return -1.0 / (n - 1), (1.0 / k - 1.0 / n) * n / (n - 1), 0.0


def _fewest_winners(game: Game) -> int:
    """The fewest seats that win together: the smallest side (Kuzushi's teams win whole), else 1. The best return
    is then a share of 1/k, not a lone winner's 1: a bound that is met, as OpenSpiel's solvers read ``max_utility``
    (``MCTSBot(solve=True)`` takes a value equal to it as a proven win)."""
    team_of = getattr(game, "team_of", None)
    return min(Counter(team_of).values()) if team_of else 1


def _best_team_score(game: Game) -> float:
    """The game's own bound on a team's score: a co-operative game (TowerBrix) says it with ``best_score()``."""
    best = getattr(game, "best_score", None)
    if not callable(best):
        raise TypeError(f"{game.name}: a co-operative game gives its best score with best_score()")
    return float(best())


def _best_solo_score(game: Game) -> float:
    sizes = getattr(game, "size", {})
    return float(game.options.get("rounds", 1) * sum(sizes.values())) if isinstance(sizes, dict) else 1.0


def utilities(state: State) -> list[float]:
    """Each seat's return at the end of ``state`` (see the module's docstring)."""
    game = state.game
    n = game.players
    if game.facts.cooperative or n == 1:
        return [float(v) for v in state.scores()]
    shares = state.returns()
    return [(share - 1.0 / n) * n / (n - 1) for share in shares]
