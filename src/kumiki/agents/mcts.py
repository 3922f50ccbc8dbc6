"""Monte Carlo tree search (UCT) with a vector of rewards, so it plays any number of players.

Each node keeps the reward sums of every player; a node's children are compared on the reward of the player who
moves at that node. Playouts are uniformly random, through the state's ``playout(rng)`` hook when the game offers a
fast one, else through ``legal_moves()`` and ``play()``. With a fixed ``seed`` and ``iterations`` (and no
``seconds``), the choice is reproducible.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from kumiki.agents.base import Agent, require_moves
from kumiki.core.game import Move, State
from kumiki.core.options import Option


class Node:
    """A position in the tree. ``totals[i]`` is the sum of player i's rewards over the playouts through it."""

    __slots__ = ("children", "move", "player", "state", "totals", "untried", "visits")

    def __init__(self, state: State, move: Move | None, rng: random.Random) -> None:
        self.state = state
        self.move = move
        self.player = state.to_move
        self.children: list[Node] = []
        untried = [] if state.over else state.legal_moves()
        untried.reverse()
        rng.shuffle(untried)
        self.untried = untried
        self.visits = 0
        self.totals = [0.0] * state.game.players


def random_playout(state: State, rng: random.Random) -> list[float]:
    """Play uniformly random legal moves to the end of the game; the final rewards."""
    while not state.over:
        state.play(rng.choice(state.legal_moves()))
    return state.returns()


class MCTSAgent(Agent):
    name = "mcts"
    option_spec = (
        Option("iterations", int, 1000, "playouts per move (the budget when seconds is not set)", 1, 10**9),
        Option(
            "seconds",
            float,
            None,
            "time per move instead of a fixed number of iterations",
            0.001,
            86400.0,
            nullable=True,
        ),
        Option("c", float, 1.0, "UCT exploration constant", 0.0, 100.0),
        Option("seed", int, None, "random seed (None: a fresh one)", nullable=True),
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.rng = random.Random(self.options["seed"])
        self.last_iterations = 0

    def choose(self, state: State) -> Move:
        moves = require_moves(state)
        if len(moves) == 1:
            self.last_iterations = 0
            return moves[0]
        root = self.search(state.copy())
        best = max(root.children, key=lambda child: child.visits)
        assert best.move is not None
        return best.move

    def search(self, state: State) -> Node:
        """Grow a tree from ``state`` within the budget; returns its root."""
        rng = self.rng
        c = self.options["c"]
        seconds = self.options["seconds"]
        iterations = self.options["iterations"]
        deadline = time.perf_counter() + seconds if seconds is not None else math.inf
        root = Node(state, None, rng)
        fast = hasattr(state, "playout")
        log = math.log
        sqrt = math.sqrt
        done = 0
        while done < iterations if seconds is None else time.perf_counter() < deadline:
            node = root
            path = [root]
            # Selection: descend through fully expanded nodes by UCB1 on the mover's own reward.
            while not node.untried and node.children:
                scale = c * sqrt(log(node.visits))
                mover = node.player
                best_value = -math.inf
                chosen = node.children[0]
                for child in node.children:
                    value = child.totals[mover] / child.visits + scale / sqrt(child.visits)
                    if value > best_value:
                        best_value = value
                        chosen = child
                node = chosen
                path.append(node)
            # Expansion.
            if node.untried:
                move = node.untried.pop()
                after = node.state.copy()
                after.play(move)
                child = Node(after, move, rng)
                node.children.append(child)
                node = child
                path.append(node)
            # Simulation.
            rollout = node.state.copy()
            rewards = rollout.playout(rng) if fast else random_playout(rollout, rng)  # type: ignore[attr-defined]
            # Backpropagation.
            for visited in path:
                visited.visits += 1
                totals = visited.totals
                for i, r in enumerate(rewards):
                    totals[i] += r
            done += 1
        self.last_iterations = done
        return root
