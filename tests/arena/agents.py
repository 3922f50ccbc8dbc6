"""Agents for the arena's tests, loaded by import path (``tests.arena.agents:raiser``) in the arena's workers."""

from __future__ import annotations

import contextlib
import os
import random
import time
from typing import Any

from kumiki.agents.base import Agent, require_moves
from kumiki.core.game import Move, State
from kumiki.core.options import Option


class _Base(Agent):
    name = "test-agent"
    option_spec = (Option("seed", int, None, "seed", nullable=True),)

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.rng = random.Random(self.options["seed"])


class _OddOnMove(_Base):
    """Plays randomly but on its move number ``at``, where it does ``odd`` instead."""

    at = 1

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.moves = 0

    def choose(self, state: State) -> Move:
        self.moves += 1
        if self.moves == self.at:
            return self.odd(state)
        return self.rng.choice(require_moves(state))

    def odd(self, state: State) -> Move:
        raise NotImplementedError


class Raiser(_OddOnMove):
    """Raises on its third move."""

    at = 3

    def odd(self, state: State) -> Move:
        raise RuntimeError("boom on the third move")


class Cheater(_OddOnMove):
    """Plays a move of its own invention on its second move."""

    at = 2

    def odd(self, state: State) -> Move:
        return state.game.parse_move("B 99,99")


class Sleeper(_Base):
    """Thinks too long on its first move."""

    def choose(self, state: State) -> Move:
        time.sleep(0.3)
        return self.rng.choice(require_moves(state))


class Hanger(_Base):
    """Never answers its first move, and swallows every Exception on the way (as careless agent code does)."""

    def choose(self, state: State) -> Move:
        while True:  # the point: an agent that swallows errors must still be stopped
            with contextlib.suppress(Exception):
                time.sleep(0.01)


def raiser(seed: int | None = None) -> Agent:
    """A factory, as a user would write one."""
    return Raiser(seed=seed)


def cheater(**options: Any) -> Agent:
    """A factory taking any options."""
    return Cheater(**options)


def sleeper(seed: int | None = None) -> Agent:
    """A factory of the slow agent."""
    return Sleeper(seed=seed)


def hanger(seed: int | None = None) -> Agent:
    """A factory of the agent that never answers."""
    return Hanger(seed=seed)


def broken(seed: int | None = None) -> Agent:
    """A factory that fails."""
    raise RuntimeError("cannot build this agent")


def killer(seed: int | None = None, marker: str = "") -> Agent:
    """Kills its worker process the first time any killer plays (the ``marker`` file says it has), then plays
    randomly."""
    return Killer(seed=seed, marker=marker)


class Killer(_Base):
    """See :func:`killer`."""

    option_spec = (*_Base.option_spec, Option("marker", str, "", "the file that says a killer has died"))

    def choose(self, state: State) -> Move:
        marker = self.options["marker"]
        if marker and not os.path.exists(marker):
            with open(marker, "w") as handle:
                handle.write("died once")
            os._exit(3)
        return self.rng.choice(require_moves(state))


class Quitter(_OddOnMove):
    """Calls sys.exit on its second move."""

    at = 2

    def odd(self, state: State) -> Move:
        raise SystemExit(4)


def quitter(seed: int | None = None) -> Agent:
    """A factory of the agent that calls sys.exit."""
    return Quitter(seed=seed)


class Labelled(_Base):
    """Plays randomly; its ``label`` is any text (a study must write it back as it was given)."""

    option_spec = (*_Base.option_spec, Option("label", str, "", "any text"))

    def choose(self, state: State) -> Move:
        return self.rng.choice(require_moves(state))


def labelled(seed: int | None = None, label: str = "") -> Agent:
    """A factory of the labelled agent."""
    return Labelled(seed=seed, label=label)


class FirstMove:
    """Not a kumiki Agent at all: an object with ``choose(state)`` only (no ``name``, no ``describe()``), as
    docs/arena.md allows a factory of an import path to return."""

    def choose(self, state: State) -> Move:
        return require_moves(state)[0]


def first_move() -> FirstMove:
    """A factory of the plain object above."""
    return FirstMove()
