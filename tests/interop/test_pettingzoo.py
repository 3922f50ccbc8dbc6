"""Kumiki's games as PettingZoo AEC environments: PettingZoo's own API and seed tests, masks, rewards, secrets."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed")
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

from kumiki.interop import encode
from kumiki.interop.pettingzoo import env, parallel_env

CASES: list[tuple[str, dict[str, Any]]] = [
    ("kuzushi", {}),
    ("kuzushi", {"players": 4, "teams": 2, "size": 5}),
    ("blokus3d", {"players": 3}),
    ("blokus3d", {"colours_per_player": 2}),
    ("kozo", {"random_size": True}),
    ("kozo", {"players": 1, "rounds": 1}),
    ("towerbrix", {"max_edits": 6}),
    ("towerbrix", {"players": 3, "mode": "challenge", "challenge": 10, "max_edits": 4}),
]


@pytest.mark.parametrize(("name", "options"), CASES)
def test_pettingzoo_api_and_seed_tests_pass(name: str, options: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the dict observation warns, as PettingZoo's own board games do
        api_test(env(name, **options), num_cycles=300)
        seed_test(lambda: env(name, **options), num_cycles=200)


def play_out(environment: Any, seed: int) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    environment.reset(seed=seed)
    totals: dict[str, float] = {}
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, _ = environment.last()
        totals[agent] = totals.get(agent, 0.0) + reward
        action = None if terminated or truncated else int(rng.choice(np.flatnonzero(observation["action_mask"])))
        environment.step(action)
    return totals


def test_rewards_come_at_the_end_and_sum_to_zero() -> None:
    environment = env("kuzushi", size=4)
    totals = play_out(environment, 3)
    state = environment.state
    assert state.over and set(totals) == {"player_0", "player_1"}
    assert sum(totals.values()) == pytest.approx(0.0)
    winners = state.winners()
    if len(winners) == 1:
        assert totals[f"player_{winners[0]}"] == 1.0


def test_the_agent_to_move_follows_the_game_not_a_cycle() -> None:
    environment = env("kuzushi")
    environment.reset(seed=1)
    assert environment.agent_selection == "player_1"  # the CITY is player 0's: player 1 moves first
    observation = environment.observe("player_0")
    assert not observation["action_mask"].any()  # not to move: no action


def test_an_illegal_action_ends_the_game_with_minus_one_for_its_player() -> None:
    environment = env("kuzushi")
    environment.reset(seed=1)
    mask = environment.observe("player_1")["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    environment.step(illegal)
    assert all(environment.terminations.values())
    assert environment._cumulative_rewards == {"player_0": 0.0, "player_1": -1.0}
    assert "not a legal move" in environment.infos["player_1"]["illegal"]
    with pytest.raises(ValueError, match="out of range"):
        fresh = env("kuzushi")
        fresh.reset(seed=1)
        fresh.step(10_000)


def test_after_an_illegal_action_no_agent_is_offered_an_action_once_the_agents_are_done() -> None:
    """The game ended by an illegal action still has legal moves on the board; once every agent has stepped out
    (the episode over), observing the agent that played it offered those moves again (a mask of 4 ones)."""
    environment = env("kuzushi")
    environment.reset(seed=1)
    mask = environment.observe("player_1")["action_mask"]
    environment.step(int(np.flatnonzero(mask == 0)[0]))
    for _ in environment.agent_iter():
        environment.step(None)
    assert environment.agents == []
    for agent in environment.possible_agents:
        assert not environment.observe(agent)["action_mask"].any()
    with pytest.raises(RuntimeError, match="reset"):
        environment.step(0)


def test_ansi_render_is_the_text_board() -> None:
    environment = env("blokus3d", render_mode="ansi")
    environment.reset(seed=0)
    assert environment.render() == environment.state.render()
    with pytest.raises(ValueError, match="render_mode"):
        env("kuzushi", render_mode="rgb_array")


def test_human_render_prints_the_board_and_pettingzoo_render_test_passes(capsys: pytest.CaptureFixture[str]) -> None:
    from pettingzoo.test import render_test

    environment = env("kuzushi", render_mode="human", size=4)
    environment.reset(seed=0)
    assert environment.render() is None
    assert capsys.readouterr().out.strip() == environment.state.render().strip()
    render_test(lambda render_mode=None: env("kuzushi", render_mode=render_mode, size=4))


def test_human_render_shows_the_board_at_every_step_without_a_call(capsys: pytest.CaptureFixture[str]) -> None:
    """PettingZoo's rule for "human" (its classic games follow it): the environment renders as it steps, without a
    call to render(). It printed only when render() was called, so a game made with render_mode="human" showed
    nothing."""
    aec = env("kuzushi", render_mode="human", size=4)
    aec.reset(seed=0)
    capsys.readouterr()
    aec.step(int(np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"])[0]))
    assert capsys.readouterr().out.strip() == aec.state.render().strip()
    parallel = parallel_env("kuzushi", render_mode="human", size=4)
    observations, _ = parallel.reset(seed=0)
    capsys.readouterr()
    mover = f"player_{parallel.state.to_move}"
    parallel.step({mover: int(np.flatnonzero(observations[mover]["action_mask"])[0])})
    assert capsys.readouterr().out.strip() == parallel.state.render().strip()
    quiet = env("kuzushi", render_mode="ansi", size=4)
    quiet.reset(seed=0)
    quiet.step(int(np.flatnonzero(quiet.observe(quiet.agent_selection)["action_mask"])[0]))
    assert capsys.readouterr().out == ""


def test_towerbrix_observations_never_show_another_seats_cards() -> None:
    environment = env("towerbrix", players=3)
    environment.reset(seed=9)
    state = environment.state
    encoding = state.game.encoding
    lo, hi = encoding.layout["hand"]
    for seat in range(3):
        shown = environment.observe(f"player_{seat}")["observation"][lo:hi]
        assert {card for card, i in encoding.cards.items() if shown[i]} == set(state.hands[seat])


def test_bad_options_fail_in_one_line() -> None:
    with pytest.raises(ValueError, match="players"):
        env("kuzushi", players=9)
    with pytest.raises(ValueError, match="unknown game"):
        env("chess")


PARALLEL_CASES: list[tuple[str, dict[str, Any]]] = [
    ("towerbrix", {"players": 3, "turns": "free", "max_edits": 8, "rounds": 1}),
    ("towerbrix", {"players": 3, "turns": "free", "mode": "challenge", "challenge": 10, "max_edits": 5}),
    ("kuzushi", {}),  # turn-based: one seat acts a step, the others wait
]


@pytest.mark.parametrize(("name", "options"), PARALLEL_CASES)
def test_pettingzoo_parallel_api_and_seed_tests_pass(name: str, options: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        parallel_api_test(parallel_env(name, **options), num_cycles=300)
        parallel_seed_test(lambda: parallel_env(name, **options), num_cycles=100)


def test_free_towerbrix_seats_act_in_one_step_and_a_late_edit_is_refused() -> None:
    environment = parallel_env("towerbrix", players=3, turns="free")
    observations, _ = environment.reset(seed=1)
    wait = environment.wait
    game = environment.game
    assert all(obs["action_mask"][wait] == 1 for obs in observations.values())
    first = encode(game, "Y1 z 0,0")
    assert all(obs["action_mask"][first] for obs in observations.values())  # every seat may place it now
    # seats 0 and 1 both place Y1 at once: seat 0 acts first (to_move); seat 1's placement would now move the
    # brick seat 0 has just placed (a move no mask offers), so it is refused, not played
    again = encode(game, "Y1 x 0,0")
    observations, rewards, terminations, _, infos = environment.step(
        {"player_0": first, "player_1": again, "player_2": wait}
    )
    state = environment.state
    assert state.movers == [0] and [str(m) for m in state.history] == ["Y1 z 0,0"]
    assert "no longer a legal action" in infos["player_1"]["refused"] and "illegal" not in infos["player_1"]
    assert set(rewards.values()) == {0.0} and not any(terminations.values())
    # a brick taken away by an earlier seat in the same step cannot be taken again: refused, not fatal
    remove = encode(game, "-Y1")
    _, _, terminations, _, infos = environment.step({"player_1": remove, "player_0": remove})
    assert "refused" in infos["player_0"] and "Y1 is not in the tower" in infos["player_0"]["refused"]
    assert not any(terminations.values()) and state.movers == [0, 1]


@pytest.mark.parametrize(
    ("max_edits", "why"),
    [(40, "the tower has changed since you saw it"), (2, "sent during a build that has ended since")],
)
def test_a_late_ok_or_a_move_of_a_build_evaluated_since_is_refused_as_the_server_refuses_it(
    max_edits: int, why: str
) -> None:
    """An ok approves the tower its seat saw: after a teammate's edit earlier in the step it approved a tower the seat
    never saw, and a move chosen during a build that an earlier action of the step ended (evaluated) was played in
    the next build; both were played while they were legal moves there. The server refuses both
    (``state.late_move_refusal``); so does the step."""
    environment = parallel_env("towerbrix", players=2, turns="free", max_edits=max_edits)
    environment.reset(seed=1)
    game, wait = environment.game, environment.wait
    environment.step({"player_0": encode(game, "Y1 z 0,0"), "player_1": wait})
    # seat 1 acts first this step (the seat after the last to act): its edit changes the tower seat 0 says ok to
    _, _, terminations, _, infos = environment.step(
        {"player_0": encode(game, "ok"), "player_1": encode(game, "Y2 x -2,-0.5")}
    )
    state = environment.state
    assert why in infos["player_0"]["refused"] and "illegal" not in infos["player_0"]
    assert [str(m) for m in state.history] == ["Y1 z 0,0", "Y2 x -2,-0.5"] and state.movers == [0, 1]
    assert len(state.evaluations) == (1 if max_edits == 2 else 0) and not any(terminations.values())


def test_a_parallel_step_plays_only_moves_a_mask_offered() -> None:
    """Random free-turn steps: every move played is among its seat's legal moves when it is played (two seats that
    place one brick in a step no longer move each other's bricks), and each refusal says so."""
    environment = parallel_env("towerbrix", players=4, turns="free", rounds=1, max_edits=12)
    observations, _ = environment.reset(seed=3)
    rng = np.random.default_rng(3)
    refused = 0
    while environment.agents:
        state = environment.state
        before = len(state.history)
        actions = {a: int(rng.choice(np.flatnonzero(o["action_mask"][:-1]))) for a, o in observations.items()}
        trial = state.copy()
        observations, _, _, _, infos = environment.step(actions)
        refused += sum("refused" in info for info in infos.values())
        assert not any("illegal" in info for info in infos.values())
        for move, seat in zip(state.history[before:], state.movers[before:], strict=True):
            if trial.over:
                break
            assert str(move) in map(str, trial.legal_moves(player=seat))
            trial.play(move, player=seat)
    assert refused > 0


def test_a_misspelt_agent_name_in_a_parallel_step_is_refused() -> None:
    environment = parallel_env("towerbrix", players=2, turns="free")
    environment.reset(seed=0)
    with pytest.raises(ValueError, match="no agent is named 'player_7'"):
        environment.step({"player_7": environment.wait})
    assert environment.state.history == []  # nothing played


def test_only_waiting_truncates_after_max_cycles() -> None:
    environment = parallel_env("towerbrix", players=2, turns="free", max_cycles=3)
    environment.reset(seed=0)
    for _ in range(3):
        _, _, terminations, truncations, _ = environment.step({})
        assert not any(terminations.values())
    assert all(truncations.values()) and environment.agents == []


def test_a_parallel_step_after_the_end_plays_nothing() -> None:
    """Once a game ended (here by an illegal action; or truncated) its agents are gone: a step more raised nothing,
    returned empty dicts and went on playing the actions on ``environment.state``."""
    environment = parallel_env("towerbrix", players=2, turns="free")
    environment.reset(seed=0)
    _, rewards, terminations, _, _ = environment.step({"player_0": 1})  # time: only challenge 2 has a clock
    assert rewards["player_0"] == -1.0 and all(terminations.values()) and environment.agents == []
    with pytest.raises(RuntimeError, match="every agent is done: call reset"):
        environment.step({"player_0": encode(environment.game, "Y1 z 0,0")})
    assert environment.state.history == []


def test_an_action_of_a_seat_not_to_act_ends_the_parallel_game_as_illegal() -> None:
    """Its mask allows only wait; the action was dropped without a word (no -1, no info) instead."""
    environment = parallel_env("kuzushi", size=4)
    observations, _ = environment.reset(seed=0)
    assert environment.state.actors == [1]
    assert observations["player_0"]["action_mask"][5] == 0
    _, rewards, terminations, _, infos = environment.step({"player_0": 5, "player_1": environment.wait})
    assert rewards == {"player_0": -1.0, "player_1": 0.0} and all(terminations.values())
    assert "illegal" in infos["player_0"] and environment.state.history == []


def test_a_bad_action_in_a_parallel_step_raises_before_any_is_played() -> None:
    """The first seat's placement was played before the second seat's text raised ValueError."""
    environment = parallel_env("towerbrix", players=2, turns="free")
    environment.reset(seed=0)
    first, second = (environment.possible_agents[seat] for seat in environment.state.actors)
    with pytest.raises(ValueError, match="an action is an int"):
        environment.step({first: encode(environment.game, "Y1 z 0,0"), second: "x"})
    assert environment.state.history == []


def test_a_learners_array_of_one_action_is_that_action_as_in_gymnasium() -> None:
    """A policy's output of shape () or (1,) (np.array(5), a torch tensor's .numpy()) is an action in the Gymnasium
    environment; PettingZoo's refused it with ValueError, so the same loop failed on the other adapter."""
    aec = env("kuzushi", size=4)
    aec.reset(seed=0)
    legal = int(np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"])[0])
    aec.step(np.array(legal))
    assert aec.state.history[-1] == aec.game.encoding.decode(legal, None)
    legal = int(np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"])[0])
    aec.step(np.array([legal], dtype=np.int32))
    assert len(aec.state.history) == 2 and not any(aec.terminations.values())
    with pytest.raises(ValueError, match="an action is an int"):
        aec.step(np.array([legal, legal]))
    with pytest.raises(ValueError, match="an action is an int"):
        aec.step(np.array(float(legal)))
    parallel = parallel_env("kuzushi", size=4)
    observations, _ = parallel.reset(seed=0)
    mover = f"player_{parallel.state.to_move}"
    legal = int(np.flatnonzero(observations[mover]["action_mask"])[0])
    parallel.step({mover: np.array([legal])})
    assert len(parallel.state.history) == 1


def test_an_aec_step_before_reset_or_after_every_agent_is_done_says_so() -> None:
    """They raised AttributeError ('no attribute terminations') and KeyError ('player_1')."""
    environment = env("kuzushi", size=4)
    with pytest.raises(RuntimeError, match=r"call reset\(\) before step\(\)"):
        environment.step(0)
    environment.reset(seed=0)
    environment.step(0)  # illegal: ends the game
    while environment.agents:
        environment.step(None)
    with pytest.raises(RuntimeError, match="every agent is done: call reset"):
        environment.step(None)


def test_last_after_every_agent_is_done_says_so_as_step_does() -> None:
    """last() once every agent had stepped out raised KeyError 'player_1' (step() said to call reset())."""
    environment = env("kuzushi", size=4)
    environment.reset(seed=0)
    environment.step(0)  # illegal: ends the game
    while environment.agents:
        assert environment.last()[2]  # terminated, while an agent is left to step out
        environment.step(None)
    with pytest.raises(RuntimeError, match=r"^every agent is done: call reset\(\)$"):
        environment.last()
    environment.reset(seed=0)
    assert not environment.last()[2]


def test_a_parallel_step_before_reset_says_so() -> None:
    """It played the unseeded game made in the constructor, where the AEC and Gymnasium environments refuse."""
    parallel = parallel_env("kuzushi", size=4)
    with pytest.raises(RuntimeError, match=r"call reset\(\) before step\(\)"):
        parallel.step({})
    assert parallel.state.history == []
    parallel.reset(seed=0)
    parallel.step({})  # everyone waits
    assert parallel.cycles == 1


def test_aec_last_and_observe_before_reset_say_so() -> None:
    """They raised AttributeError ('KumikiEnv' object has no attribute 'terminations'), which step() no longer did;
    agent_iter() before reset() yields an agent, so last() is the first call such a loop makes."""
    environment = env("kuzushi", size=4)
    with pytest.raises(RuntimeError, match=r"call reset\(\) before last\(\)"):
        environment.last()
    with pytest.raises(RuntimeError, match=r"call reset\(\) before observe\(\)"):
        environment.observe("player_0")
    environment.reset(seed=0)
    assert environment.last()[0]["action_mask"].sum() > 0


@pytest.mark.parametrize("max_cycles", [0, -1, 2.5, "5", True])
def test_a_bad_max_cycles_fails_in_one_line(max_cycles: Any) -> None:
    """It was taken as given: 0 or -1 truncated at the first step, "5" raised TypeError inside the first step."""
    with pytest.raises(ValueError, match="max_cycles must be a whole number of steps"):
        parallel_env("towerbrix", players=2, turns="free", max_cycles=max_cycles)
    assert parallel_env("kuzushi", max_cycles=np.int64(4)).max_cycles == 4


def test_a_state_played_on_outside_step_is_checked_afresh() -> None:
    """The step plays the move the agent's mask allowed without play()'s checks: a mask of an older position (the
    state was played on directly since) must not let a move through that is illegal now."""
    environment = env("kuzushi")
    environment.reset(seed=1)
    agent = environment.agent_selection
    observation, *_ = environment.last()
    state = environment.state
    action = int(np.flatnonzero(observation["action_mask"])[0])  # legal when shown
    state.play(environment.game.encoding.decode(action, state))  # this agent plays it directly ...
    state.play(state.legal_moves()[0])  # ... and so does the other: its turn again, the cell is taken
    moves = len(state.history)
    environment.step(action)
    assert environment.rewards[agent] == -1.0 and "not a legal move" in environment.infos[agent]["illegal"]
    assert len(state.history) == moves  # nothing was played


def test_a_mask_the_learner_wrote_in_lets_no_illegal_move_through() -> None:
    environment = env("kuzushi")
    environment.reset(seed=1)
    agent = environment.agent_selection
    observation, *_ = environment.last()
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[-1])
    observation["action_mask"][illegal] = 1  # the learner's own array: its business, not the environment's
    moves = len(environment.state.history)
    environment.step(illegal)
    assert environment.rewards[agent] == -1.0 and "not a legal move" in environment.infos[agent]["illegal"]
    assert len(environment.state.history) == moves


def test_agent_iter_takes_any_number_as_pettingzoo_does() -> None:
    environment = env("kuzushi", size=3)
    environment.reset(seed=2)
    turns = 0
    for _ in environment.agent_iter(float("inf")):
        observation, _, terminated, truncated, _ = environment.last()
        action = None if terminated or truncated else int(np.flatnonzero(observation["action_mask"])[0])
        environment.step(action)
        turns += 1
    assert environment.state.over and turns == len(environment.state.history) + 2  # and each agent's last step
    environment.reset(seed=2)
    assert list(environment.agent_iter(0)) == []


def test_a_legal_towerbrix_move_outside_the_placement_space_is_refused_as_such() -> None:
    """The mask is the encoded legal_moves(), TowerBrix's placement space: Y2 before Y1 is legal but not listed."""
    environment = env("towerbrix", rounds=1)
    environment.reset(seed=1)
    agent = environment.agent_selection
    state = environment.state
    assert "Y2 z 0,0" not in map(str, state.legal_moves())
    state.copy().play("Y2 z 0,0")  # legal
    environment.step(encode(environment.game, "Y2 z 0,0"))
    assert "is legal, but not among legal_moves()" in environment.infos[agent]["illegal"]
    assert environment.rewards[agent] == -1.0 and state.history == []


def test_with_free_turns_the_aec_mask_is_zero_for_every_agent_not_to_move() -> None:
    environment = env("towerbrix", players=3, turns="free")
    environment.reset(seed=1)
    for _ in range(4):
        mover = environment.agent_selection
        masks = {agent: environment.observe(agent)["action_mask"] for agent in environment.agents}
        assert masks[mover].any()
        assert not any(mask.any() for agent, mask in masks.items() if agent != mover)
        environment.step(int(np.flatnonzero(masks[mover])[-1]))


def test_a_pickled_kozo_environment_still_masks_its_legal_actions() -> None:
    import pickle

    environment = env("kozo")
    environment.reset(seed=0)
    copy = pickle.loads(pickle.dumps(environment))
    agent = copy.agent_selection
    assert np.array_equal(copy.observe(agent)["action_mask"], environment.observe(agent)["action_mask"])
    assert copy.observe(agent)["action_mask"].sum() == len(copy.state.legal_moves())


@pytest.mark.parametrize("make_environment", [env, parallel_env])
def test_a_numpy_seed_is_the_seed_it_holds_and_a_seed_of_another_kind_is_refused(make_environment: Any) -> None:
    """``reset(seed=np.int64(3))`` failed with random's two-line TypeError (``new_state`` takes a numpy integer);
    a text or a float was taken, and ``True`` played the games of seed 1."""
    plain, numpy_seeded = make_environment("kozo", random_size=True), make_environment("kozo", random_size=True)
    plain.reset(seed=3)
    numpy_seeded.reset(seed=np.int64(3))
    assert numpy_seeded.state.seed == plain.state.seed
    assert numpy_seeded.state.to_json() == plain.state.to_json()
    for seed in ("3", 1.5, True):
        with pytest.raises(ValueError, match=r"^a seed is a whole number \(or None\), not "):
            make_environment("kozo").reset(seed=seed)


@pytest.mark.parametrize("make_environment", [env, parallel_env])
def test_a_negative_seed_is_refused_not_read_as_its_opposite(make_environment: Any) -> None:
    """``random.Random`` reads ``-s`` as ``s``: ``reset(seed=-5)`` played the very games of ``reset(seed=5)``, so a
    sweep over negative and positive seeds counted each game twice. PettingZoo's and Gymnasium's own seeding refuse
    a negative seed (so does the Gymnasium environment); so do these, in one line. 0 is a seed."""
    environment = make_environment("towerbrix")
    for seed in (-5, np.int64(-1)):
        with pytest.raises(ValueError, match=r"^a seed is 0 or more, not "):
            environment.reset(seed=seed)
    environment.reset(seed=0)
