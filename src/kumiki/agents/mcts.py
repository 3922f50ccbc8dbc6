"""Monte Carlo tree search (UCT) with a vector of rewards, so it plays any number of players.

Each node keeps the reward sums of every player; a node's children are compared on the reward of the player who
moves at that node. The agent knows only the protocol; a game may offer optional hooks on its state that it uses:

- ``playout(rng)``: play uniformly random moves to the end, in place (a fast random playout);
- ``heuristic_playout(rng)``: the same with a game-specific, still random, policy (``playout="heuristic"``);
- ``move_values(moves)``: one-ply values used as a progressive bias (``bias`` > 0).

Without hooks, playouts go through ``legal_moves()`` and ``play()``. The reward of a playout is the outcome
(winners share 1) blended with the score margin (``reward="margin"``), which tells a big win from a narrow one.
With a fixed ``seed`` and ``iterations`` (and no ``seconds``) the choice is reproducible.
"""

from __future__ import annotations

import gc
import math
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from kumiki.agents.base import Agent, require_moves
from kumiki.agents.hooks import has_hook, hook
from kumiki.core.game import Move, State
from kumiki.core.options import Option


class Node:
    """A position in the tree. ``totals[i]`` is the sum of player i's rewards over the playouts through it."""

    __slots__ = ("children", "expanded", "heuristic", "move", "player", "state", "totals", "untried", "visits")

    def __init__(self, state: State, move: Move | None, heuristic: float = 0.0) -> None:
        self.state = state
        self.move = move
        self.heuristic = heuristic
        self.player = state.to_move
        self.children: list[Node] = []
        self.untried: list[tuple[float, Move]] = []
        self.expanded = False  # untried is filled when the node is first reached again (most leaves never are)
        self.visits = 0
        self.totals = [0.0] * state.game.players


def one_ply_values(state: State, moves: list[Move]) -> list[float]:
    """How far the mover's side leads the best other side after each move (the greedy agent's view)."""
    values_of = hook(state, "move_values")
    if values_of is not None:
        values: list[float] = values_of(state, moves)
        return values
    player = state.to_move
    assert player is not None
    out = []
    for move in moves:
        after = state.copy()
        after.play(move)
        out.append(after.margins()[player])
    return out


def random_playout(state: State, rng: random.Random) -> None:
    """Play uniformly random legal moves to the end of the game."""
    while not state.over:
        state.play(rng.choice(state.legal_moves()))


def outcome_reward(state: State) -> list[float]:
    """Winners share 1, the others get 0."""
    return state.returns()


def margin_reward(state: State, scale: float = 4.0) -> list[float]:
    """Half the outcome, half a logistic of how far each player's side leads (or trails) the best other side.

    Random playouts make the plain outcome a noisy signal; the score margin says by how much a line wins.
    """
    outcome = state.returns()
    return [0.5 * won + 0.5 * _logistic(lead / scale) for won, lead in zip(outcome, state.margins(), strict=True)]


def _logistic(x: float) -> float:
    """1 / (1 + e^-x) without overflow: e^-x of a side trailing by thousands of points is beyond a float."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    ex = math.exp(x)
    return ex / (1.0 + ex)


REWARDS = {"outcome": outcome_reward, "margin": margin_reward}


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cycle collector (reference counting still frees everything else); restart it after, if it ran."""
    running = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if running:
            gc.enable()


class MCTSAgent(Agent):
    """Monte Carlo tree search (UCT) for any game and any number of players: each node keeps every player's total
    reward, so each mover maximises their own. Where a game offers them it uses its one-ply move values as a
    progressive bias and prior, progressive widening over many moves, and its own fast or heuristic playouts.
    The budget is ``iterations`` (reproducible with a seed) or ``seconds``; ``max_seconds`` caps a search by
    iterations in wall time (the web app's levels keep a move within 3 s so)."""

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
        Option(
            "max_seconds",
            float,
            None,
            "a wall-clock cap on a move searched by iterations: it stops at whichever comes first (a move is the same "
            "every time only where the cap does not bind)",
            0.001,
            86400.0,
            nullable=True,
        ),
        Option("c", float, 0.7, "UCT exploration constant", 0.0, 100.0),
        Option("seed", int, None, "random seed (None: a fresh one)", nullable=True),
        Option(
            "bias",
            float,
            None,
            "weight of the one-ply progressive bias (None: 1 where the game offers move_values, else off)",
            0.0,
            100.0,
            nullable=True,
        ),
        Option(
            "widening",
            float,
            None,
            "progressive widening: a node may have 1 + widening·√visits children (None: 2 with a prior, else off)",
            0.0,
            1000.0,
            nullable=True,
        ),
        Option(
            "playout",
            str,
            "heuristic",
            "playout policy: 'heuristic' (the game's own, where it offers one; else random) or 'random'",
            choices=("random", "heuristic"),
        ),
        Option(
            "reward",
            str,
            "margin",
            "playout reward: 'outcome' (win/loss) or 'margin' (outcome and score lead)",
            choices=tuple(REWARDS),
        ),
    )

    def __init__(self, /, **options: Any) -> None:
        super().__init__(**options)
        self.rng = random.Random(self.options["seed"])
        self.last_iterations = 0

    def choose(self, state: State) -> Move:
        """The most visited move at the root after the budget's playouts (the only move at once, when forced)."""
        moves = require_moves(state)
        if len(moves) == 1:
            self.last_iterations = 0
            return moves[0]
        with collector_paused():  # restarted once the tree is freed: a collection then has little to walk
            root = self.search(state.copy())
            move = max(root.children, key=lambda child: child.visits).move
            del root
        assert move is not None
        return move

    def search(self, state: State) -> Node:
        """Grow a tree from ``state`` within the budget; returns its root.

        Python's cycle collector is paused meanwhile: the tree and the games' caches hold no reference cycles to
        find, yet every full collection walks them all (it took a third of the time; ``bench/kozo_speed.py``).
        """
        with collector_paused():
            return self._search(state)

    def _search(self, state: State) -> Node:
        rng = self.rng
        c = self.options["c"]
        seconds = self.options["seconds"]
        iterations = self.options["iterations"]
        began = time.perf_counter()
        deadline = began + seconds if seconds is not None else math.inf
        cap = self.options["max_seconds"]
        cap_at = began + cap if cap is not None and seconds is None else math.inf  # the root's expansion counts
        has_prior = has_hook(state, "move_values")
        bias = self.options["bias"]
        if bias is None:
            bias = 1.0 if has_prior else 0.0
        widening = self.options["widening"]
        if widening is None:
            widening = 2.0 if has_prior and bias > 0 else 0.0
        root = Node(state, None)
        self._expandable(root, bias)
        fast = hook(state, "playout")
        heavy = hook(state, "heuristic_playout") if self.options["playout"] == "heuristic" else None
        reward = REWARDS[self.options["reward"]]
        log = math.log
        sqrt = math.sqrt
        done = 0
        # One playout at least, by seconds too: the root's expansion alone may pass the deadline (a slow machine, a
        # position of hundreds of moves at the minimum 0.001 s), and a root without a child has no move to give.
        while (done < iterations if seconds is None else done == 0 or time.perf_counter() < deadline) and (
            done == 0 or cap_at == math.inf or time.perf_counter() < cap_at
        ):
            node = root
            path = [root]
            # Selection: descend by UCB1 on the mover's own reward while the node may not grow.
            while True:
                if not node.expanded:
                    self._expandable(node, bias)
                if node.untried and (not widening or len(node.children) < 1 + widening * sqrt(node.visits)):
                    # Expansion.
                    heuristic, move = node.untried.pop()
                    after = node.state.copy()
                    after.play(move)
                    child = Node(after, move, heuristic)
                    node.children.append(child)
                    node = child
                    path.append(node)
                    break
                if not node.children:
                    break
                scale = c * sqrt(log(node.visits))
                mover = node.player
                assert mover is not None, "a node with children has a player to move"
                best_value = -math.inf
                chosen = node.children[0]
                for child in node.children:
                    visits = child.visits
                    value = child.totals[mover] / visits + scale / sqrt(visits) + child.heuristic / (visits + 1)
                    if value > best_value:
                        best_value = value
                        chosen = child
                node = chosen
                path.append(node)
            # Simulation.
            rollout = node.state.copy()
            if heavy is not None:
                heavy(rollout, rng)
            elif fast is not None:
                fast(rollout, rng)
            else:
                random_playout(rollout, rng)
            rewards = reward(rollout)
            # Backpropagation.
            for visited in path:
                visited.visits += 1
                totals = visited.totals
                for i, r in enumerate(rewards):
                    totals[i] += r
            done += 1
        self.last_iterations = done
        return root

    def _expandable(self, node: Node, bias: float) -> None:
        """Fill ``node.untried``: moves in random order, or (with bias) best one-ply value last, so popped first.

        Each carries its progressive-bias term: ``bias`` times the move's value scaled to 0…1 among its siblings.
        """
        node.expanded = True
        state = node.state
        if state.over:
            return
        moves = list(state.legal_moves())
        self.rng.shuffle(moves)
        if bias <= 0.0 or len(moves) == 1:
            node.untried = [(0.0, m) for m in moves]
            return
        values = one_ply_values(state, moves)
        low = min(values)
        spread = max(values) - low or 1.0
        ranked = sorted(zip(values, range(len(moves)), strict=True), key=lambda pair: pair[0])
        node.untried = [(bias * (v - low) / spread, moves[i]) for v, i in ranked]
