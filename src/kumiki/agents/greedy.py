"""One-ply greedy: the move after which the mover's side (team) leads by the most; ties broken at random."""

from __future__ import annotations

import random
from typing import Any

from kumiki.agents.base import Agent, require_moves
from kumiki.core.game import Move, State
from kumiki.core.options import Option

WIN_BONUS = 1e9


def margin(state: State, player: int) -> float:
    """How far ``player``'s side leads the best other side (a finished game adds a large win/loss term)."""
    value = state.margins()[player]
    if state.over:
        value += WIN_BONUS if player in state.winners() else -WIN_BONUS
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
