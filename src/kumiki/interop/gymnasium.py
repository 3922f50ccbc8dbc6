"""A Kumiki game as a single-agent Gymnasium environment: you play one seat, Kumiki agents play the others.

``make("kuzushi", opponents=["mcts:iterations=200"], seat=0, size=4)``: the observation is
``{"observation": array, "action_mask": int8 array}`` (as the PettingZoo adapter's), actions are those of
``kumiki.interop.encode``, the reward comes once, at the end (``kumiki.interop.utility``). ``action_masks()`` gives
the mask too (the convention of sb3-contrib's MaskablePPO). An illegal action ends the episode with the reward
``-1`` (``kumiki.interop.utility.ILLEGAL_RETURN``, as in the PettingZoo environments: below every return of a game
played out, also in TowerBrix, whose returns start at 0) and ``info["illegal"]`` saying why (a learner is told,
never stopped by an exception); an action that
is not a whole number, or ``step()`` before ``reset()`` or after the episode ended, raises (a bug in the caller's
loop, not a move). Opponents are
agent specs as ``kumiki play --seat`` takes them, one per other seat (a single one plays every other seat); each
gets a seed drawn from ``reset(seed=…)``. Needs the extra: ``pip install "kumiki[pettingzoo]"`` (Gymnasium comes
with it).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from kumiki.agents import agent_maker
from kumiki.agents.base import Agent, other_game
from kumiki.core.errors import IllegalMove
from kumiki.core.game import State, checked_seed
from kumiki.core.options import whole
from kumiki.core.registry import games, load_game
from kumiki.interop.refusal import refusal
from kumiki.interop.render import RENDER_FPS, RENDER_MODES, check_render_mode, render
from kumiki.interop.utility import ILLEGAL_RETURN, utilities

try:
    import gymnasium

    from kumiki.interop.spaces import action_space, observation_space
except ImportError as error:  # pragma: no cover - exercised only without the extra
    raise ImportError(f'kumiki.interop.gymnasium needs Gymnasium: pip install "kumiki[pettingzoo]" ({error})') from None


REDRAWS = 100  # games drawn at most in one reset() until the others leave your seat a move


class KumikiGymEnv(gymnasium.Env[dict[str, Any], int]):
    """One seat of a Kumiki game; the other seats are Kumiki agents."""

    metadata: dict[str, Any] = {"render_modes": RENDER_MODES, "render_fps": RENDER_FPS}  # noqa: RUF012 (Gymnasium declares it so)

    def __init__(
        self,
        game: str,
        opponents: Sequence[str] = ("random",),
        seat: int = 0,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        check_render_mode(render_mode)
        self.game = load_game(game, **options)
        players = self.game.players
        number = whole(seat)  # a numpy integer too (``for seat in np.arange(players)``), as the options take
        if number is None or not 0 <= number < players:
            raise ValueError(f"seat must be an int in 0…{players - 1}, not {seat!r}")
        seat = number
        if isinstance(opponents, str):
            opponents = [opponents]
        try:
            specs = list(opponents)
        except TypeError:  # None, a number: not "'NoneType' object is not iterable"
            raise ValueError(
                f"opponents: a list of agent specs such as ['mcts:iterations=200'], not {opponents!r}"
            ) from None
        if len(specs) == 1:
            specs = specs * (players - 1)
        if len(specs) != players - 1:
            raise ValueError(f"opponents: give one agent spec, or one per other seat ({players - 1}), not {len(specs)}")
        # a bad spec fails here, in one line, not at the first reset; each is read once, not every episode
        self._makers = [agent_maker(spec) for spec in specs]
        for spec, make_agent in zip(specs, self._makers, strict=True):
            only = other_game(make_agent(), self.game.name)
            if only is not None:  # it would fail at the first reset (or its first move), not here
                raise ValueError(f"opponents: {spec!r} plays {only} only, not {self.game.name}")
        self.specs = specs
        self.seat = seat
        self.render_mode = render_mode
        self._encoding = encoding = self.game.encoding
        self.observation_space = observation_space(self.game)
        self.action_space = action_space(self.game)  # type: ignore[assignment]
        self.state: State = self.game.new_state(seed=0)
        self.opponents: dict[int, Agent] = {}
        self._seeds: random.Random | None = None
        self._mask = np.zeros(encoding.num_actions, dtype=np.int8)
        self._mask_of: tuple[State | None, int] = (None, -1)  # the position the mask is of: (state, moves played)
        self._reset_once = False  # step() needs an episode: reset() starts one
        self._ended = False  # an illegal action ended the episode (the game itself is not over)

    def _observation(self) -> dict[str, Any]:
        state = self.state
        observation, mask = self._encoding.observe_and_mask(state, self.seat)
        if self._ended:  # an illegal action ended the episode: no action is left, as at the end of a game
            mask[:] = 0
        # the legality check keeps its own copy: a learner may write in the array it is handed
        self._mask, self._mask_of = mask.copy(), (state, len(state.history))
        return {"observation": observation, "action_mask": mask}

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.int8]]:
        """1 for each legal action of your seat now."""
        return self._mask.copy()

    def _others_play(self) -> None:
        state = self.state
        while not state.over and state.to_move != self.seat:
            agent = self.opponents[state.to_move]  # type: ignore[index]
            state.play(agent.choose(state))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new game (its seed and the opponents' seeds drawn from ``seed``), played up to your seat's turn. A game
        the others end before your seat moves is no episode of yours (Gymnasium has no episode over at reset): the
        next one is drawn from the same generator, up to ``REDRAWS`` games, then ValueError."""
        # a whole number, as new_state and the PettingZoo environments take it: Gymnasium's own check refused a numpy
        # integer and took True for the seed 1
        super().reset(seed=checked_seed(seed))
        if seed is not None or self._seeds is None:
            # the episodes' seeds come from np_random through a Python generator: one numpy draw per seeding, not
            # one per episode (a numpy call costs as much as several moves of a small game)
            self._seeds = random.Random(int(self.np_random.integers(2**63)))
        draw = self._seeds.getrandbits
        others = [p for p in range(self.game.players) if p != self.seat]
        for _ in range(REDRAWS):
            self.opponents = {p: make_agent(seed=draw(31)) for p, make_agent in zip(others, self._makers, strict=True)}
            self.state = self.game.new_state(seed=draw(31))
            self._reset_once, self._ended = True, False
            self._others_play()
            if not self.state.over:
                self._render_human()
                return self._observation(), {}
        raise ValueError(
            f"in {REDRAWS} games of {self.game.name} the others ended the game before seat {self.seat} had a move: "
            "an episode needs a move of yours (another seat, or longer games)"
        )

    def step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """Play ``action`` for your seat, then let the other seats play until it is yours again or the game ends."""
        state = self.state
        if not self._reset_once:
            raise RuntimeError("call reset() before step()")
        if self._ended or state.over:
            raise RuntimeError("the episode is over: call reset()")
        if isinstance(action, np.ndarray) and action.shape in ((), (1,)):
            action = action.reshape(())[()]  # a learner's array of one action
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise ValueError(f"an action is an int in 0…{self._encoding.num_actions - 1}, not {action!r}")
        action = int(action)
        if not 0 <= action < self._encoding.num_actions:  # no action of the space at all, as in PettingZoo
            raise ValueError(f"action {action} is out of range 0…{self._encoding.num_actions - 1}")
        try:
            move = self._encoding.decode(action, state)
            shown, ply = self._mask_of
            if shown is not state or ply != len(state.history):  # the state was played on outside step()
                self._mask = self._encoding.observe_and_mask(state, self.seat)[1]
                self._mask_of = (state, len(state.history))
            if not self._mask[action]:
                raise IllegalMove(refusal(state, action))
            state.play_unchecked(move)  # the mask has checked it
        except (IllegalMove, ValueError, IndexError) as error:
            self._ended = True
            self._render_human()
            return self._observation(), ILLEGAL_RETURN, True, False, {"illegal": str(error)}
        self._others_play()
        self._render_human()
        reward = utilities(state)[self.seat] if state.over else 0.0
        return self._observation(), float(reward), bool(state.over), False, {}

    def _render_human(self) -> None:
        """With ``render_mode="human"`` the board is printed by ``reset()`` and every ``step()`` (Gymnasium's rule for
        that mode: rendered continuously, without a call to ``render()``)."""
        if self.render_mode == "human":
            render(self.state, "human")

    def render(self) -> str | None:
        """The game's text board (``render_mode="ansi"``; printed with ``"human"``), else None."""
        return render(self.state, self.render_mode)


def make(
    game: str, opponents: Sequence[str] = ("random",), seat: int = 0, render_mode: str | None = None, **options: Any
) -> KumikiGymEnv:
    """The Gymnasium environment of ``game`` (with its options) played from ``seat`` against ``opponents``."""
    return KumikiGymEnv(game, opponents=opponents, seat=seat, render_mode=render_mode, **options)


def env_id(game: str) -> str:
    """The id ``gymnasium.make`` knows ``game`` by: ``kumiki/<game>-v0``."""
    return f"kumiki/{game}-v0"


def register() -> None:
    """Register ``kumiki/<game>-v0`` for every game with Gymnasium (done when this module is imported), so that
    ``gymnasium.make("kumiki/kuzushi-v0", size=4)`` works, as does ``check_env``'s check of the render modes, which
    needs the spec a registered environment has."""
    for name in games():
        if env_id(name) not in gymnasium.registry:
            gymnasium.register(
                id=env_id(name), entry_point="kumiki.interop.gymnasium:KumikiGymEnv", kwargs={"game": name}
            )


register()
