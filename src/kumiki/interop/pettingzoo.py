"""Kumiki's games as PettingZoo AEC environments: ``env("kuzushi", players=3)``.

As PettingZoo's classic environments: agents ``player_0 … player_{n-1}`` act when ``state.to_move`` says so (not
always in a cycle: Kuzushi's first move is player 1's, a Blokus 3D colour that cannot move is skipped); each
observation is ``{"observation": array, "action_mask": int8 array}`` with the actions of
``kumiki.interop.encode`` (the mask is all zero for an agent not to move); rewards are given once, at the end (see
``kumiki.interop.utility``); ``render_mode="ansi"`` returns the game's text board ("human" prints it). An
illegal action (its mask is 0) ends the game with ``-1`` for the agent that played it and ``0`` for the others,
with ``infos[agent]["illegal"]`` saying why, as PettingZoo's TerminateIllegalWrapper does; an action that is not an
int in range raises ValueError.
These checks are built in rather than stacked as wrappers, which cost more than the game's own move here. Chance
(Kozo's random sizes, TowerBrix's deals) comes from ``reset(seed=…)``. Needs the extra:
``pip install "kumiki[pettingzoo]"``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from typing import Any, ClassVar

import numpy as np

from kumiki.core.errors import IllegalMove
from kumiki.core.game import State, checked_seed
from kumiki.core.registry import load_game
from kumiki.interop.refusal import refusal
from kumiki.interop.render import RENDER_FPS, RENDER_MODES, check_render_mode, render
from kumiki.interop.utility import ILLEGAL_RETURN, utilities

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped,unused-ignore]

    from kumiki.interop import spaces as kumiki_spaces
except ImportError as error:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        f'kumiki.interop.pettingzoo needs PettingZoo: pip install "kumiki[pettingzoo]" ({error})'
    ) from None


def _seeded(seed: object) -> random.Random:
    """The generator of the games' seeds from ``reset(seed=…)``: a whole number, as ``new_state`` takes (a numpy
    integer too, which ``random.Random`` refused with a two-line TypeError); a text, a float or a bool is a one-line
    ValueError (``random.Random`` took them, and ``True`` played the games of seed 1). A negative seed is refused
    too, as PettingZoo's and Gymnasium's own seeding (``gymnasium.utils.seeding.np_random``) and the Gymnasium
    environment refuse it: ``random.Random`` reads ``-s`` as ``s``, so ``reset(seed=-5)`` replayed the games of
    ``reset(seed=5)``."""
    number = checked_seed(seed)
    if number is not None and number < 0:
        raise ValueError(f"a seed is 0 or more, not {seed!r} (seed {number} would give the games of seed {-number})")
    return random.Random(number)


def _one_action(action: object) -> object:
    """The number a learner's array of one action holds (shape ``()`` or ``(1,)``, as a policy's output often is, and
    as the Gymnasium environment takes it); anything else as it is, for the type check that follows."""
    if isinstance(action, np.ndarray) and action.shape in ((), (1,)):
        return action.reshape(())[()]
    return action


class KumikiEnv(AECEnv):  # type: ignore[misc]
    """One Kumiki game as an AEC environment."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": RENDER_MODES,
        "render_fps": RENDER_FPS,
        "name": "kumiki_v0",
        "is_parallelizable": False,
    }

    def __init__(self, game: str, render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        check_render_mode(render_mode)
        self.game = load_game(game, **options)
        self.metadata = {**KumikiEnv.metadata, "name": f"kumiki_{game}_v0"}  # type: ignore[misc]
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(self.game.players)]
        self.agents = self.possible_agents[:]
        space = kumiki_spaces.observation_space(self.game)
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {a: kumiki_spaces.action_space(self.game) for a in self.possible_agents}
        self._rng = random.Random()
        self.state: State = self.game.new_state(seed=0)
        self.agent_selection = self.possible_agents[0]
        self._seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        self._encoding = self.game.encoding
        self._num_actions = self.game.num_actions
        # (state, moves played, mask): the mask the last observation showed the agent to move, kept for the step's
        # legality check so the legal actions are listed once a position (states only move forward)
        self._shown: tuple[State | None, int, np.ndarray[Any, np.dtype[np.int8]]] = (None, -1, np.zeros(0, np.int8))

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The space of ``agent``'s observations: the observation array and the action mask."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """One discrete action per action of the game's encoding."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: its seed drawn from ``seed`` (or from the sequence the last seed began); see ``_seeded``."""
        if seed is not None:
            self._rng = _seeded(seed)
        self.state = self.game.new_state(seed=self._rng.getrandbits(31))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        to_move = self.state.to_move
        self.agent_selection = self.possible_agents[to_move if to_move is not None else 0]

    def observe(self, agent: str) -> dict[str, Any]:
        """``agent``'s observation and action mask (all 0 unless ``agent`` is to move)."""
        player = self._seat[agent]
        state = self.state
        try:
            ended = self.terminations.get(agent, False) or self.truncations.get(agent, False)
        except AttributeError:  # no reset() yet, as PettingZoo's OrderEnforcingWrapper says it
            raise RuntimeError("call reset() before observe()") from None
        observation, mask = self._encoding.observe_and_mask(state, player)
        ended = ended or agent not in self.agents  # stepped out of an episode over (an illegal action ended it)
        if state.to_move == player and not ended:  # kept apart from the array handed out: a learner may write in it
            self._shown = (state, len(state.history), mask.copy())
        else:  # free turns let every seat act, but here one seat acts a step: the one to move; none once it ended
            mask[:] = 0
        return {"observation": observation, "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[dict[str, Any] | None, float, bool, bool, dict[str, Any]]:
        """The agent to move's observation, cumulative reward, termination, truncation and info (PettingZoo's
        ``last``, without its per-step assertion)."""
        agent = self.agent_selection
        try:
            terminated = self.terminations[agent]
        except AttributeError:  # no reset() yet: not "'KumikiEnv' object has no attribute 'terminations'"
            raise RuntimeError("call reset() before last()") from None
        except KeyError:  # every agent is done and removed: not KeyError 'player_1', as step() says it
            raise RuntimeError("every agent is done: call reset()") from None
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            terminated,
            self.truncations[agent],
            self.infos[agent],
        )

    def _mask_now(self, state: State) -> np.ndarray[Any, np.dtype[np.int8]]:
        """The mover's mask worked out afresh (the agent stepped without observing, or the state was played on
        outside ``step``), and kept."""
        mask = self._encoding.observe_and_mask(state, state.to_move or 0)[1]
        self._shown = (state, len(state.history), mask)
        return mask

    def step(self, action: int | None) -> None:
        """Play ``action`` for the agent to move (None for an agent whose game is over)."""
        agent = self.agent_selection
        try:
            done = self.terminations[agent] or self.truncations[agent]
        except AttributeError:  # no reset() yet: not "'KumikiEnv' object has no attribute 'terminations'"
            raise RuntimeError("call reset() before step()") from None
        except KeyError:  # every agent is done and removed: not KeyError 'player_1'
            raise RuntimeError("every agent is done: call reset()") from None
        if done:
            self._was_dead_step(action)
            return
        if type(action) is not int:
            number = _one_action(action)
            if isinstance(number, bool) or not isinstance(number, (int, np.integer)):
                raise ValueError(f"{agent}: an action is an int in 0…{self._num_actions - 1}, not {action!r}")
            action = int(number)
        if not 0 <= action < self._num_actions:
            raise ValueError(f"{agent}: action {action} is out of range 0…{self._num_actions - 1}")
        state = self.state
        shown, ply, mask = self._shown  # (checked inline, not by a call: this is the learner's every step)
        if shown is not state or ply != len(state.history):
            mask = self._mask_now(state)
        if state.over or not mask[action]:
            self._clear_rewards()
            self._illegal(agent, action)
            return
        state.play_unchecked(self._encoding.decode(action, state))  # the mask has checked it
        if state.over:
            # the only rewards of a game come at its end: until then every reward stays 0, with nothing to add up
            for name, value in zip(self.possible_agents, utilities(state), strict=True):
                self.rewards[name] = value
            self.terminations = dict.fromkeys(self.agents, True)
            self._cumulative_rewards[agent] = 0.0
            self._accumulate_rewards()
        else:
            self.agent_selection = self.possible_agents[state.to_move]  # type: ignore[index]
        if self.render_mode == "human":  # PettingZoo's rule for that mode: every step shows the board
            render(state, "human")

    def agent_iter(self, max_iter: int = 2**63) -> Iterable[str]:
        """The agent to act, again and again, until every agent is done (or ``max_iter`` turns): PettingZoo's
        ``agent_iter``, as a generator."""
        return _Turns(self, max_iter)

    def _illegal(self, agent: str, action: int) -> None:
        """End the game: -1 for ``agent`` (``ILLEGAL_RETURN``), 0 for the others (PettingZoo's TerminateIllegalWrapper's
        rule)."""
        self.rewards[agent] = ILLEGAL_RETURN
        self.terminations = dict.fromkeys(self.agents, True)
        self.infos[agent]["illegal"] = refusal(self.state, action)
        self._cumulative_rewards[agent] = 0.0
        self._accumulate_rewards()
        if self.render_mode == "human":
            render(self.state, "human")

    def render(self) -> str | None:
        """The game's text board (``render_mode="ansi"``; printed with ``"human"``), else None."""
        return render(self.state, self.render_mode)

    def close(self) -> None:
        """Nothing to release: the environment holds no window or file."""
        pass


class _Turns:
    """``agent_iter``'s iterable: each ``iter()`` starts afresh, as PettingZoo's own does."""

    def __init__(self, environment: KumikiEnv, max_iter: int) -> None:
        self.environment = environment
        self.max_iter = max_iter

    def __iter__(self) -> Iterator[str]:
        environment = self.environment
        left = self.max_iter  # any number, as PettingZoo's own (float("inf") too)
        while environment.agents and left > 0:
            left -= 1
            yield environment.agent_selection


def env(game: str, render_mode: str | None = None, **options: Any) -> KumikiEnv:
    """The AEC environment of ``game`` with its options (an illegal action ends the game with -1 for its player;
    an action out of range is refused with ValueError)."""
    return KumikiEnv(game, render_mode=render_mode, **options)


class KumikiParallelEnv(ParallelEnv):  # type: ignore[misc]
    """A Kumiki game as a PettingZoo parallel environment: every seat among ``state.actors`` acts in the same step.

    Made for simultaneous play (TowerBrix with ``turns="free"``: everyone builds at once); a turn-based game works
    too, with one seat acting a step. Each agent's action space has one action more than the game's encoding:
    ``num_actions`` is *wait* (do nothing this step), always legal. A step applies the actions in the order of
    ``actors`` (the seat after the last to act first, so the order rotates); an action that was legal when the step
    began but is no longer among the seat's legal actions when its turn comes is refused, as the server refuses a
    late edit: it is skipped and ``infos[agent]["refused"]`` says why. That covers a brick another seat took away,
    and a second placement of one brick in a step: once the first seat has placed it, the second's action would
    move it (a move outside the placement space, which no mask offers); and, as the server, an ok after a
    teammate's edit of the step, or an action of a build an earlier action ended (``state.late_move_refusal``).
    An action its mask forbade ends the game
    with -1 for its agent, as in the AEC environment (any but *wait* of a seat not among ``actors`` too); every
    action is checked for type and range before any is played. ``max_cycles`` steps (default: four times the game's
    longest length) truncate a game of agents that only wait.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": RENDER_MODES,
        "render_fps": RENDER_FPS,
        "name": "kumiki_parallel_v0",
    }

    def __init__(
        self, game: str, render_mode: str | None = None, max_cycles: int | None = None, **options: Any
    ) -> None:
        check_render_mode(render_mode)
        if max_cycles is not None and (
            isinstance(max_cycles, bool) or not isinstance(max_cycles, (int, np.integer)) or max_cycles < 1
        ):
            raise ValueError(f"max_cycles must be a whole number of steps, 1 or more (or None), not {max_cycles!r}")
        self.game = load_game(game, **options)
        kumiki_spaces.action_space(self.game)  # a game without any action is refused, as by the AEC environment
        self.metadata = {**KumikiParallelEnv.metadata, "name": f"kumiki_{game}_parallel_v0"}  # type: ignore[misc]
        self.render_mode = render_mode
        self.wait = self.game.num_actions
        self.max_cycles = int(max_cycles) if max_cycles is not None else 4 * self.game.encoding.max_length()
        self.possible_agents = [f"player_{i}" for i in range(self.game.players)]
        self.agents = self.possible_agents[:]
        base = kumiki_spaces.observation_space(self.game)
        mask = spaces.Box(low=0, high=1, shape=(self.wait + 1,), dtype=np.int8)
        space = spaces.Dict({"observation": base["observation"], "action_mask": mask})
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {a: spaces.Discrete(self.wait + 1) for a in self.possible_agents}
        self._rng = random.Random()
        self.state: State = self.game.new_state(seed=0)
        self.cycles = 0
        self._begun = False  # whether reset() was called: step() before it played a game nobody had seeded or seen
        self._masks: dict[str, Any] = {}
        self._masks_of: tuple[State | None, int] = (None, -1)  # the position the masks are of: (state, moves played)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The space of ``agent``'s observations: the observation array and the mask (with *wait* last)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The game's actions and *wait* (the last)."""
        return self.action_spaces[agent]

    def _observe(self, seat: int) -> dict[str, Any]:
        observation, mask = self.game.encoding.observe_and_mask(self.state, seat)
        return {"observation": observation, "action_mask": np.append(mask, np.int8(1))}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        """A new game: its seed drawn from ``seed`` (or from the sequence the last seed began); see ``_seeded``."""
        if seed is not None:
            self._rng = _seeded(seed)
        self.state = self.game.new_state(seed=self._rng.getrandbits(31))
        self.agents = self.possible_agents[:]
        self.cycles = 0
        self._begun = True
        observations = {agent: self._observe(i) for i, agent in enumerate(self.agents)}
        self._keep_masks(observations)
        return observations, {agent: {} for agent in self.agents}

    def _keep_masks(self, observations: dict[str, Any]) -> None:
        """Keep copies of the masks handed out (a learner may write in its arrays) and the position they are of."""
        self._masks = {agent: obs["action_mask"].copy() for agent, obs in observations.items()}
        self._masks_of = (self.state, len(self.state.history))

    def _late(self, action: int, seat: int, seen: int) -> str | None:
        """Why ``action``, allowed by the step's mask (the position at ply ``seen``), must not be played for ``seat``
        after the step's earlier actions (None if it may): the game's ``late_move_refusal``, as the server asks it of
        a move sent for an earlier ply (a move of a build evaluated since, an ok of a tower a teammate's edit has
        changed since: both were played, on a table the seat never saw); else the reason the game gives, or, for a
        move the game would still accept but that is no longer the one offered (placing a brick a teammate placed
        this step would move it), that."""
        state = self.state
        try:
            move = self.game.encoding.decode(action, state)
        except ValueError as error:  # no move in this position any more
            return str(error)
        stale = state.late_move_refusal(move, seen, seat)
        if stale is not None:
            return stale
        if action in self.game.encoding.legal_actions(state, seat):
            return None
        try:
            state.copy().play(move, player=seat)
        except IllegalMove as error:
            return str(error)
        return f"{move}: an earlier action of this step changed the table; played now, it is no longer a legal action"

    def step(
        self, actions: dict[str, int]
    ) -> tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict[str, dict[str, Any]]]:
        """Apply every agent's action (see the class) and return observations, rewards, terminations,
        truncations and infos for the agents of the step."""
        if not self._begun:  # as in the AEC environment: no observation was handed out, no seed taken
            raise RuntimeError("call reset() before step()")
        if not self.agents:  # the game ended (or was truncated): its state must not be played on
            raise RuntimeError("every agent is done: call reset()")
        state = self.state
        unknown = sorted(str(name) for name in actions if name not in self.possible_agents)
        if unknown:
            raise ValueError(f"no agent is named {unknown[0]!r} (agents: {', '.join(self.possible_agents)})")
        live = self.agents[:]
        infos: dict[str, dict[str, Any]] = {agent: {} for agent in live}
        rewards = dict.fromkeys(live, 0.0)
        if self._masks_of != (state, len(state.history)):  # the state was played on outside step(): mask it afresh
            self._keep_masks({agent: self._observe(self.possible_agents.index(agent)) for agent in live})
        masks = self._masks  # what the agents were shown: the last observations' masks
        shown = len(state.history)
        # every action checked before any is played (a bad one raised after the seats before it had played)
        chosen: dict[str, int] = {}
        for agent in live:
            given = actions.get(agent, self.wait)
            number = _one_action(given)
            if isinstance(number, bool) or not isinstance(number, (int, np.integer)):
                raise ValueError(f"{agent}: an action is an int in 0…{self.wait}, not {given!r}")
            action = int(number)
            if not 0 <= action <= self.wait:
                raise ValueError(f"{agent}: action {action} is out of range 0…{self.wait}")
            chosen[agent] = action
        illegal: str | None = None
        actors = state.actors
        for agent, action in chosen.items():  # a seat not among the actors has only wait in its mask
            seat = self.possible_agents.index(agent)
            if action != self.wait and seat not in actors:
                illegal = agent
                infos[agent]["illegal"] = refusal(state, action, seat)
                break
        for seat in actors if illegal is None else ():
            agent = self.possible_agents[seat]
            action = chosen.get(agent, self.wait)
            if action == self.wait or state.over:
                continue
            if not masks[agent][action]:
                illegal = agent
                infos[agent]["illegal"] = refusal(state, action, seat)
                break
            late = self._late(action, seat, shown) if len(state.history) != shown else None
            if late is not None:
                infos[agent]["refused"] = late
                continue
            state.play(self.game.encoding.decode(action, state), player=seat)
        self.cycles += 1
        done = state.over or illegal is not None
        if illegal is not None:
            rewards[illegal] = ILLEGAL_RETURN
        elif state.over:
            rewards = dict(zip(self.possible_agents, utilities(state), strict=True))
        truncated = not done and self.cycles >= self.max_cycles
        terminations = dict.fromkeys(live, done)
        truncations = dict.fromkeys(live, truncated)
        observations = {agent: self._observe(self.possible_agents.index(agent)) for agent in live}
        self._keep_masks(observations)
        if done or truncated:  # the episode ended (an illegal action too): no action is left in any mask
            self.agents = []
            for observation in observations.values():
                observation["action_mask"][:] = 0
        if self.render_mode == "human":  # PettingZoo's rule for that mode: every step shows the board
            render(state, "human")
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        """The game's text board (``render_mode="ansi"``; printed with ``"human"``), else None."""
        return render(self.state, self.render_mode)

    def close(self) -> None:
        """Nothing to release: the environment holds no window or file."""


def parallel_env(
    game: str, render_mode: str | None = None, max_cycles: int | None = None, **options: Any
) -> KumikiParallelEnv:
    """The parallel environment of ``game`` with its options: every seat among ``actors`` acts each step (TowerBrix
    with ``turns="free"`` is the simultaneous game; see :class:`KumikiParallelEnv`)."""
    return KumikiParallelEnv(game, render_mode=render_mode, max_cycles=max_cycles, **options)
