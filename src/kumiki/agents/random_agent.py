"""Uniformly random legal moves, reproducible from a seed."""

from __future__ import annotations

import random
from typing import Any

from kumiki.agents.base import Agent, require_moves
from kumiki.core.game import Move, State
from kumiki.core.options import Option


class RandomAgent(Agent):
    """A uniformly random legal move: the floor every other agent is measured against."""

    name = "random"
    option_spec = (Option("seed", int, None, "random seed (None: a fresh one)", nullable=True),)

    def __init__(self, /, **options: Any) -> None:
        super().__init__(**options)
        self.rng = random.Random(self.options["seed"])

    def choose(self, state: State) -> Move:
        """A legal move drawn uniformly at random."""
        return self.rng.choice(require_moves(state))
