"""Kozo's own baseline agent, the issue's greedy: the largest piece that keeps the tower standing, with the balance
cube at the safest spot (``kumiki.load_agent("kozo-greedy")``)."""

from __future__ import annotations

import random
from typing import Any, cast

from kumiki.agents.base import Agent, require_moves
from kumiki.core.game import Move, State
from kumiki.core.options import Option
from kumiki.games.kozo.ai import standing_after
from kumiki.games.kozo.moves import KozoMove
from kumiki.games.kozo.rules import KozoState

TIE_DEG = 1e-9  # tilt margins closer than this (degrees) are the same margin


class KozoGreedyAgent(Agent):
    """Sizes from the largest down: the first size with a move after which the tower stands (the judge decides,
    both steps) is played; among its placements that stand one is drawn at random, and its balance cube goes to
    the spot with the largest tilt margin (the safest). If every move falls, a random move of the largest size."""

    name = "kozo-greedy"
    only_game = "kozo"
    option_spec = (
        Option("seed", int, None, "random seed for the draw among placements (None: a fresh one)", nullable=True),
    )

    def __init__(self, /, **options: Any) -> None:
        super().__init__(**options)
        self.rng = random.Random(self.options["seed"])

    def choose(self, state: State) -> Move:
        if not isinstance(state, KozoState):
            raise ValueError(f"kozo-greedy plays Kozo only, not {state.game.name}")
        moves = cast(list[KozoMove], require_moves(state))  # a KozoState's legal moves are KozoMoves
        size = state.game.size
        by_placement: dict[tuple[str, tuple[Any, ...]], list[KozoMove]] = {}
        for move in moves:
            by_placement.setdefault((move.piece, move.cells), []).append(move)
        for wanted in sorted({size[m.piece] for m in moves}, reverse=True):
            keys = [k for k in by_placement if size[k[0]] == wanted]
            self.rng.shuffle(keys)
            for key in keys:
                standing = [(after, m) for m in by_placement[key] if (after := standing_after(state, m)) is not None]
                if standing:
                    # the safest spots, margins equal to TIE_DEG: two spots of one tower differ by 1e-13 degrees
                    # in the judge's floating point, and a choice that follows that noise changes with any exact
                    # rewrite of the judge (or another machine's arithmetic), not with the tower
                    margins = [(after.margin(), m) for after, m in standing]
                    best = max(g for g, _ in margins)
                    return self.rng.choice([m for g, m in margins if g >= best - TIE_DEG])
        largest = max(size[m.piece] for m in moves)
        return self.rng.choice([m for m in moves if size[m.piece] == largest])
