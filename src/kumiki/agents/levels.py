"""The computer's levels in each game (easy, medium, hard): the agent behind each, what the ladder study measured,
and the named agents ``kozo:level=hard`` (docs/agents.md, "Levels").

Every level has a fixed budget (iterations, not seconds), so a level plays the same on every machine and its
strength is the one the study measured; the budgets keep a move within 3 s on 2 cores. Kozo's hard level also has
a wall-clock cap (``max_seconds``): a few positions early in a round, with the judge's verdicts not yet cached, took
over 4 s; there (only) it searches fewer iterations, and the move may differ from machine to machine.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from kumiki.agents.base import Agent
from kumiki.core.game import Move, State
from kumiki.core.options import Option

LEVELS = ("easy", "medium", "hard")
AgentSpec = tuple[str, dict[str, Any]]


@dataclass(frozen=True)
class Measured:
    """What a level's ladder study found against the level below: the Elo gap, the 95% intervals of both
    ratings, and the study file that reproduces it."""

    above: str
    elo: float
    interval: tuple[float, float]
    below_interval: tuple[float, float]
    study: str

    @property
    def apart(self) -> bool:
        """The two ratings' 95% intervals do not overlap."""
        return self.interval[0] > self.below_interval[1]


# The agent behind each level, per game. TowerBrix is co-operative with secret cards: every level is a teammate that
# knows only its own cards; the levels give its solver more steps for a plan.
GAME_LEVELS: dict[str, dict[str, AgentSpec]] = {
    "kuzushi": {
        "easy": ("greedy", {}),
        "medium": ("mcts", {"iterations": 1000}),
        "hard": ("mcts", {"iterations": 5000}),
    },
    "blokus3d": {
        "easy": ("greedy", {}),
        "medium": ("mcts", {"iterations": 100}),
        "hard": ("mcts", {"iterations": 2000}),
    },
    "kozo": {
        "easy": ("kozo-greedy", {}),
        "medium": ("mcts", {"iterations": 80}),
        "hard": ("mcts", {"iterations": 250, "max_seconds": 2.5}),  # a cold position took 4.2 s: see docs/agents.md
    },
    "towerbrix": {
        "easy": ("towerbrix-teammate", {"iterations": 50, "reads": False}),  # plays for its own cards alone
        "medium": ("towerbrix-teammate", {"iterations": 150}),
        "hard": ("towerbrix-teammate", {"iterations": 1500}),
    },
}
# For a game without levels of its own (a game added later).
COMMON_LEVELS: dict[str, AgentSpec] = {
    "easy": ("greedy", {}),
    "medium": ("mcts", {"iterations": 500}),
    "hard": ("mcts", {"iterations": 3000}),
}

# Each level's rating in its game's ladder study (studies/<game>-levels.toml; docs/agents.md has the tables): Elo
# and the 95% interval. The gaps the lobby shows are worked out from these (MEASURED).
RATINGS: dict[str, dict[str, tuple[float, tuple[float, float]]]] = {
    "kuzushi": {"easy": (-271.0, (-400.0, -189.0)), "medium": (42.0, (-25.0, 104.0)), "hard": (229.0, (168.0, 348.0))},
    "blokus3d": {
        "easy": (-519.0, (-1111.0, -403.0)),
        "medium": (42.0, (-128.0, 259.0)),
        "hard": (478.0, (384.0, 951.0)),
    },
    "kozo": {"easy": (-213.0, (-358.0, -136.0)), "medium": (16.0, (-41.0, 90.0)), "hard": (197.0, (121.0, 312.0))},
}


# TowerBrix is co-operative: no Elo ladder. Each level played as a whole team of four on the same 200 deals of
# studies/towerbrix-levels.toml: the rounds that met every card (met, played); docs/agents.md has the table.
TEAM_RATES: dict[str, dict[str, tuple[int, int]]] = {
    "towerbrix": {"easy": (43, 200), "medium": (109, 200), "hard": (143, 200)}
}


def _measured(game: str) -> dict[str, Measured]:
    """Per level above the lowest, how it stands against the level below in ``game``'s ladder study."""
    ratings = RATINGS[game]
    out = {}
    for below, level in itertools.pairwise(LEVELS):
        (elo, interval), (below_elo, below_interval) = ratings[level], ratings[below]
        out[level] = Measured(below, elo - below_elo, interval, below_interval, f"studies/{game}-levels.toml")
    return out


MEASURED: dict[str, dict[str, Measured]] = {game: _measured(game) for game in RATINGS}


def level_spec(game: str, level: str) -> AgentSpec:
    """The agent (name and options) behind ``level`` in ``game``; ValueError for an unknown level."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r} (levels: {', '.join(LEVELS)})")
    return GAME_LEVELS.get(game, COMMON_LEVELS)[level]


def level_note(game: str, level: str) -> str:
    """One line for the lobby: how far above the level below this one was measured, if it was; in a co-operative
    game, how often a team of that level met every card."""
    rate = TEAM_RATES.get(game, {}).get(level)
    if rate is not None:
        met, played = rate
        percent = (200 * met + played) // (2 * played)  # half up, as a reader rounds: 54.5 % is "about 55%"
        return f"a team of four wins about {percent}% of rounds"
    found = MEASURED.get(game, {}).get(level)
    if found is None:
        return ""
    return f"about {found.elo:.0f} Elo above {found.above}"


def level_agent(game: str, level: str, seed: int | None = None) -> Agent:
    """A fresh agent of ``level`` in ``game`` (given ``seed`` where the agent takes one)."""
    from kumiki.agents import load_agent, option_names  # the registry imports this module

    name, options = level_spec(game, level)
    if seed is not None and "seed" in option_names(name):
        options = {**options, "seed": seed}
    return load_agent(name, **options)


class LevelAgent(Agent):
    """A game's level as an agent: ``kozo:level=hard`` is whatever the web app's hard computer is in Kozo."""

    option_spec = (
        Option("level", str, "medium", "easy, medium or hard", choices=LEVELS),
        Option("seed", int, None, "random seed (None: a fresh one)", nullable=True),
    )

    def __init__(self, /, **options: Any) -> None:
        super().__init__(**options)
        assert self.only_game is not None, "a game's own subclass (level_agents) names the game"
        self.agent = level_agent(self.only_game, self.options["level"], self.options["seed"])

    def choose(self, state: State) -> Move:
        if state.game.name != self.only_game:
            raise ValueError(f"{self.name} plays {self.only_game} only, not {state.game.name}")
        return self.agent.choose(state)


class KuzushiLevels(LevelAgent):
    """kuzushi's easy, medium or hard computer, as in the web app (kuzushi:level=hard)."""

    name = only_game = "kuzushi"


class Blokus3dLevels(LevelAgent):
    """blokus3d's easy, medium or hard computer, as in the web app (blokus3d:level=hard)."""

    name = only_game = "blokus3d"


class KozoLevels(LevelAgent):
    """kozo's easy, medium or hard computer, as in the web app (kozo:level=hard)."""

    name = only_game = "kozo"


class TowerbrixLevels(LevelAgent):
    """towerbrix's easy, medium or hard computer, as in the web app (towerbrix:level=hard)."""

    name = only_game = "towerbrix"


# Classes written out, not made by type() in a loop: pickle finds a class by its module and name, and a class made by
# type() alone was taken for one of module abc (its metaclass's), so a level agent, and a Gymnasium environment
# playing against one, did not pickle.
_LEVEL_AGENTS: tuple[type[LevelAgent], ...] = (KuzushiLevels, Blokus3dLevels, KozoLevels, TowerbrixLevels)


def level_agents() -> list[type[LevelAgent]]:
    """One named agent per game with levels: ``kuzushi``, ``blokus3d``, ``kozo``, ``towerbrix``."""
    return list(_LEVEL_AGENTS)
