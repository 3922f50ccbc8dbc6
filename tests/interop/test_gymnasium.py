"""A Kumiki seat as a Gymnasium environment: Gymnasium's env checker, opponents, illegal actions."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import kumiki

gymnasium = pytest.importorskip("gymnasium", reason="the pettingzoo extra (with Gymnasium) is not installed")
from gymnasium.utils.env_checker import check_env  # noqa: E402

from kumiki.agents.base import Agent  # noqa: E402
from kumiki.core.game import Move, State  # noqa: E402
from kumiki.interop.gymnasium import env_id, make  # noqa: E402

CASES: list[tuple[str, dict[str, Any]]] = [
    ("kuzushi", {"seat": 1}),
    ("kuzushi", {"players": 3, "opponents": ["greedy", "random"]}),
    ("blokus3d", {"opponents": ["greedy"]}),
    ("kozo", {"random_size": True}),
    ("towerbrix", {"max_edits": 6, "opponents": ["towerbrix-teammate:iterations=50"]}),
]


@pytest.mark.parametrize(("name", "options"), CASES)
def test_gymnasium_env_checker_passes(name: str, options: dict[str, Any]) -> None:
    """Made through the registry, the environment has a spec, so the checker also tries every render mode."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning of the checker fails the test
        check_env(gymnasium.make(env_id(name), **options).unwrapped)


def test_human_render_shows_the_board_at_reset_and_every_step(capsys: pytest.CaptureFixture[str]) -> None:
    """Gymnasium's rule for "human": rendered continuously, during reset() and step(), render() need not be called.
    The board was printed only by render(), so gymnasium.make(..., render_mode="human") showed nothing."""
    environment = make("kuzushi", opponents=["greedy"], seat=1, render_mode="human", size=4)
    observation, _ = environment.reset(seed=0)
    assert capsys.readouterr().out.strip() == environment.state.render().strip()
    environment.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert capsys.readouterr().out.strip() == environment.state.render().strip()
    quiet = make("kuzushi", render_mode="ansi", size=4)
    observation, _ = quiet.reset(seed=0)
    quiet.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert capsys.readouterr().out == ""


def test_gymnasium_make_knows_every_game_by_its_id() -> None:
    """There was no id: gymnasium.make raised NamespaceNotFound, and check_env warned that it could not test the
    render modes of an environment without a spec."""
    assert [env_id(name) in gymnasium.registry for name in kumiki.games()] == [True] * len(kumiki.games())
    environment = gymnasium.make("kumiki/kuzushi-v0", opponents=["greedy"], seat=1, size=4)
    assert environment.spec is not None and environment.spec.id == "kumiki/kuzushi-v0"
    assert environment.unwrapped.game.options["size"] == 4 and environment.unwrapped.seat == 1
    observation, _ = environment.reset(seed=0)
    done = False
    while not done:
        action = int(np.flatnonzero(observation["action_mask"])[0])
        observation, reward, done, _, _ = environment.step(action)
    assert reward in (-1.0, 0.0, 1.0)


def test_an_episode_against_greedy_and_its_reward() -> None:
    environment = make("kuzushi", opponents=["greedy"], size=4)
    observation, _ = environment.reset(seed=2)
    rng = np.random.default_rng(2)
    done, reward = False, 0.0
    while not done:
        assert np.array_equal(environment.action_masks(), observation["action_mask"])
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, reward, done, truncated, info = environment.step(action)
        assert not truncated and "illegal" not in info
    state = environment.state
    assert state.over and reward in (-1.0, 0.0, 1.0)
    assert reward == (1.0 if state.winners() == [0] else -1.0 if state.winners() == [1] else 0.0)


def test_an_illegal_action_ends_the_episode_with_the_lowest_return() -> None:
    environment = make("kuzushi")
    observation, _ = environment.reset(seed=1)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    legal = int(np.flatnonzero(observation["action_mask"])[0])  # legal in the position, which the game still is in
    _, reward, done, _, info = environment.step(illegal)
    assert done and reward == -1.0 and "not a legal move" in info["illegal"]
    with pytest.raises(RuntimeError, match="the episode is over"):  # never a second return for one episode
        environment.step(legal)
    observation, _ = environment.reset(seed=1)
    assert environment.step(int(np.flatnonzero(observation["action_mask"])[0]))[2] is False


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("towerbrix", {"rounds": 1, "opponents": ["random"]}),  # co-operative: a played-out game returns 0 or more
        ("kozo", {"players": 1, "rounds": 1, "opponents": []}),  # solo: points, 0 or more
        ("kuzushi", {"players": 3}),  # a loss returns -1/2
    ],
)
def test_an_illegal_action_costs_minus_one_in_every_game_as_in_pettingzoo(name: str, options: dict[str, Any]) -> None:
    """Below every return of a played-out game, so an illegal action never pays (it cost 0 in TowerBrix, as much as
    a failed game), and the same number as the PettingZoo environments give."""
    from kumiki.interop.pettingzoo import env
    from kumiki.interop.utility import utility_range

    environment = make(name, **options)
    observation, _ = environment.reset(seed=0)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, done, _, info = environment.step(illegal)
    assert done and "illegal" in info
    assert reward == -1.0 < utility_range(environment.game)[0]
    aec = env(name, **{k: v for k, v in options.items() if k != "opponents"})
    aec.reset(seed=0)
    agent = aec.agent_selection
    aec.step(illegal)
    assert aec.rewards[agent] == reward


def test_the_observation_after_an_illegal_action_offers_no_action_in_any_adapter() -> None:
    """An illegal action ends the episode (the game itself is not over): the mask handed out then is all zero, as at
    the end of a played-out game, in the Gymnasium, PettingZoo AEC and parallel environments alike."""
    from kumiki.interop.pettingzoo import env, parallel_env

    environment = make("kuzushi")
    observation, _ = environment.reset(seed=0)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    after, _, done, _, _ = environment.step(illegal)
    assert done and not environment.state.over
    assert not after["action_mask"].any() and not environment.action_masks().any()

    aec = env("kuzushi")
    aec.reset(seed=0)
    agent = aec.agent_selection
    aec.step(illegal)
    assert aec.terminations[agent] and not aec.state.over
    assert not any(aec.observe(a)["action_mask"].any() for a in aec.possible_agents)

    parallel = parallel_env("kuzushi")
    observations, _ = parallel.reset(seed=0)
    mover = next(a for a, o in observations.items() if o["action_mask"][: parallel.wait].any())
    wrong = int(np.flatnonzero(observations[mover]["action_mask"] == 0)[0])
    ended, rewards, terminations, _, _ = parallel.step({mover: wrong})
    assert all(terminations.values()) and rewards[mover] == -1.0
    assert not any(o["action_mask"].any() for o in ended.values())


def test_step_before_reset_and_actions_that_are_no_whole_number_raise() -> None:
    environment = make("kuzushi")
    with pytest.raises(RuntimeError, match="call reset"):
        environment.step(0)
    observation, _ = environment.reset(seed=3)
    for bad in (1.5, None, "0", True):
        with pytest.raises(ValueError, match="an action is an int"):
            environment.step(bad)  # type: ignore[arg-type]
    legal = np.flatnonzero(observation["action_mask"])[0]
    assert "illegal" not in environment.step(np.array(legal))[4]  # numpy scalars and 0-d arrays are actions
    observation, _ = environment.reset(seed=3)
    assert "illegal" not in environment.step(np.array([legal]))[4]  # and a one-element array


def test_an_action_out_of_the_space_raises_as_in_pettingzoo() -> None:
    """No action of the space at all is the learner's bug, not an illegal move: ValueError, and the episode goes on
    (it ended with -1 as if a move had been refused, where PettingZoo raised)."""
    environment = make("kuzushi")
    observation, _ = environment.reset(seed=3)
    size = len(observation["action_mask"])
    for bad in (-1, size, np.int64(size + 5)):
        with pytest.raises(ValueError, match=f"out of range 0…{size - 1}"):
            environment.step(bad)
    legal = int(np.flatnonzero(observation["action_mask"])[0])
    assert "illegal" not in environment.step(legal)[4]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seat": 2}, "seat must be"),
        ({"opponents": ["random", "random"]}, "one per other seat"),
        ({"opponents": ["nobody"]}, "unknown agent"),
        ({"render_mode": "rgb_array"}, "render_mode"),
        ({"opponents": ["kozo:level=hard"]}, "plays kozo only, not kuzushi"),  # failed only at the first reset
        ({"opponents": None}, "opponents: a list of agent specs"),  # was TypeError: 'NoneType' object is not iterable
        ({"opponents": 3}, "opponents: a list of agent specs"),
    ],
)
def test_bad_arguments_fail_in_one_line(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make("kuzushi", **kwargs)


def test_a_state_played_on_outside_step_is_checked_afresh() -> None:
    """The step plays the move its mask allowed without play()'s checks: a mask of an older position (the state
    was played on directly since) must not let a move through that is illegal now."""
    environment = make("kuzushi")
    observation, _ = environment.reset(seed=1)
    state = environment.state
    action = int(np.flatnonzero(observation["action_mask"])[0])  # legal when shown
    state.play(environment._encoding.decode(action, state))  # our seat plays it directly ...
    state.play(state.legal_moves()[0])  # ... and so does the opponent: our turn again, the cell is taken
    moves = len(state.history)
    _, reward, done, _, info = environment.step(action)
    assert done and reward == -1.0 and "not a legal move" in info["illegal"]
    assert len(state.history) == moves  # nothing was played


def test_a_mask_the_learner_wrote_in_lets_no_illegal_move_through() -> None:
    environment = make("kuzushi")
    observation, _ = environment.reset(seed=1)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[-1])
    observation["action_mask"][illegal] = 1  # the learner's own array: its business, not the environment's
    moves = len(environment.state.history)
    _, reward, done, _, info = environment.step(illegal)
    assert done and reward == -1.0 and "not a legal move" in info["illegal"]
    assert len(environment.state.history) == moves


def test_reset_never_hands_back_a_finished_game() -> None:
    # a one-round Kozo from seat 1: the opponent's move ends about one game in six before seat 1 moves
    environment = make("kozo", opponents=["random"], seat=1, rounds=1)
    for seed in range(40):
        observation, _ = environment.reset(seed=seed)
        assert not environment.state.over
        assert observation["action_mask"].any()
    first, _ = environment.reset(seed=3)
    again, _ = environment.reset(seed=3)
    assert np.array_equal(first["observation"], again["observation"])


def test_options_in_which_your_seat_never_moves_fail_in_one_line() -> None:
    # one tile each on a 3×3 board: seat 1 moves first and its tile ends the game
    environment = make("kuzushi", opponents=["random"], seat=0, size=3, tiles=1)
    with pytest.raises(ValueError, match="before seat 0 had a move"):
        environment.reset(seed=0)


def test_a_game_without_any_action_is_refused_in_one_line(tmp_path: Any) -> None:
    """A structure of lone cells fits no piece: the game is over at its start, with no action, and ``Discrete(0)``
    failed in Gymnasium with "n (counts) have to be positive, actual value: 0"."""
    rows = ["0000000000"] * 9 + ["1000000001"]
    path = tmp_path / "cells.toml"
    path.write_text("[cells]\nheights = [" + ", ".join(f'"{row}"' for row in rows) + "]\n", encoding="utf-8")
    assert kumiki.load_game("blokus3d", structure=str(path)).num_actions == 0
    pettingzoo = pytest.importorskip("kumiki.interop.pettingzoo")
    # the parallel environment, too: it handed out live agents for a game over before it began (a 0-0 draw at the
    # first step)
    for make_environment in (make, pettingzoo.env, pettingzoo.parallel_env):
        with pytest.raises(ValueError, match=r"^kumiki.load_game\('blokus3d', .*\) has no action at all"):
            make_environment("blokus3d", structure=str(path))


def test_a_game_of_too_many_actions_is_refused_in_one_line_by_every_adapter() -> None:
    """TowerBrix with ``brick="100x1x1"`` numbers 245 million actions: a PettingZoo environment took 1.2 GB for its
    masks, and 5.6 billion (the pink deck on the 0.125 grid) ran out of memory; the adapters refuse such a game."""
    from kumiki.interop import MAX_ACTIONS

    assert kumiki.load_game("towerbrix", brick="100x1x1").num_actions > MAX_ACTIONS
    assert kumiki.load_game("towerbrix", brick="6x1x1", grid=0.125).num_actions <= MAX_ACTIONS  # still offered
    makers = [make, pytest.importorskip("kumiki.interop.pettingzoo").env]
    makers.append(pytest.importorskip("kumiki.interop.pettingzoo").parallel_env)
    for make_environment in makers:
        with pytest.raises(ValueError, match=r"has 245,913,634 actions, more than the adapters offer \(16,777,216"):
            make_environment("towerbrix", brick="100x1x1")
    openspiel = pytest.importorskip("kumiki.interop.openspiel")
    with pytest.raises(ValueError, match=r"has 5,599,497,638 actions, more than the adapters offer"):
        openspiel.load("towerbrix", brick="100x1x1", grid=0.125, deck="pink")


def test_a_numpy_seat_is_the_seat_it_holds() -> None:
    """``make(..., seat=np.int64(1))`` (a sweep over ``np.arange(players)``) was refused as "seat must be an int in
    0…1, not np.int64(1)", though the options and the actions take numpy integers."""
    environment = make("kuzushi", seat=np.int64(1), size=4)
    assert environment.seat == 1 and type(environment.seat) is int
    observation, _ = environment.reset(seed=0)
    assert environment.state.to_move == 1 and observation["action_mask"].any()
    for bad in (np.int64(2), True, 1.0):
        with pytest.raises(ValueError, match=r"^seat must be an int in 0…1, not "):
            make("kuzushi", seat=bad)


def test_reset_takes_a_seed_as_pettingzoo_does() -> None:
    """Gymnasium's own check refused a numpy integer (``gymnasium.error.Error``), which the PettingZoo environments and
    ``new_state`` take, and played ``seed=True`` as the seed 1, which they refuse."""
    environment = make("towerbrix", rounds=1)
    environment.reset(seed=3)
    dealt = environment.state.to_json()
    environment.reset(seed=np.int64(3))
    assert environment.state.to_json() == dealt
    for seed in (True, 1.0, "1"):
        with pytest.raises(ValueError, match="a seed is a whole number"):
            environment.reset(seed=seed)


@pytest.mark.parametrize(
    "opponents",
    [["greedy"], ["mcts:iterations=20"], ["tests.interop.test_gymnasium:FirstMove"], ["kuzushi:level=easy"]],
)
def test_an_environment_pickles_mid_episode_and_plays_on_the_same(opponents: list[str]) -> None:
    """Its opponents were made by a closure (``agent_maker``): pickle.dumps failed with "Can't pickle local object
    'agent_maker.<locals>.make'", so a framework that ships environments to workers by pickling could not. A game's
    level (the web app's computer) failed too: "Can't pickle <class 'abc.KuzushiLevels'>"."""
    import pickle

    environment = make("kuzushi", opponents=opponents, size=4)
    environment.reset(seed=5)
    environment.step(int(np.flatnonzero(environment.action_masks())[0]))
    twin = pickle.loads(pickle.dumps(environment))
    steps = []
    for env_ in (environment, twin):
        played = []
        done = False
        while not done:
            action = int(np.flatnonzero(env_.action_masks())[-1])
            observation, reward, terminated, truncated, _ = env_.step(action)
            played.append((observation["observation"].tobytes(), reward))
            done = terminated or truncated
        steps.append(played)
    assert steps[0] == steps[1]
    assert twin.state.history == environment.state.history


class FirstMove(Agent):
    """An agent by import path, for the pickling test: always the first legal move."""

    name = "first-move"

    def choose(self, state: State) -> Move:
        return state.legal_moves()[0]
