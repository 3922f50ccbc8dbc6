"""One-ply greedy: the move after which the mover's side (team) leads by the most; ties broken at random."""

from __future__ import annotations

import random
from typing import Any

from kumiki.agents.base import Agent, require_moves
from kumiki.core.game import Move, State
from kumiki.core.options import Option

WIN_BONUS = 1e9


def margin(state: State, player: int) -> float:
    """How far ``player``'s side leads the best other side; a finished game adds a large term for an outright win
    (no other side among the winners) or a loss. A draw (a win shared with another side) adds nothing: it is worth
    its margin, not a win (a one-round Kozo was drawn 0-0 by knocking the tower over at the first move). A game of
    one side (solo, co-operative) has no side to lead and no win to take: the value is the side's score (a solo Kozo
    was ended at once, with no point, as a "win")."""
    sides = state.teams()
    own = sides[player]
    if all(side == own for side in sides):
        return float(state.scores()[player])
    value = state.margins()[player]
    if state.over:
        winners = state.winners()
        if player not in winners:
            value -= WIN_BONUS
        elif all(sides[w] == own for w in winners):
            value += WIN_BONUS
    return value


class GreedyAgent(Agent):
    """One ply of look-ahead: the move after which the mover's side leads the best other side by the most (the
    game's own ``greedy_value`` where it offers one), ties broken at random. Any game; the baseline to beat."""

    name = "greedy"
    option_spec = (Option("seed", int, None, "random seed for breaking ties (None: a fresh one)", nullable=True),)

    def __init__(self, /, **options: Any) -> None:
        super().__init__(**options)
        self.rng = random.Random(self.options["seed"])

    def choose(self, state: State) -> Move:
        """The move with the best value one ply ahead (a random one among the best)."""
        moves = require_moves(state)
        player = state.to_move
        assert player is not None
        evaluate = getattr(state, "greedy_value", None)
        best: list[Move] = []
        best_value = float("-inf")
        for move in moves:
            after = state.copy()
            after.play(move)
            value = evaluate(after, player) if evaluate else margin(after, player)
            if value > best_value:
                best_value = value
                best = [move]
            elif value == best_value:
                best.append(move)
        return self.rng.choice(best)
