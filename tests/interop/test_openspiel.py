"""Kumiki's games in OpenSpiel: its own consistency checks, its MCTS bot, and the bot as a Kumiki agent."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from tests.helpers import race

import kumiki

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
from open_spiel.python.algorithms import mcts  # noqa: E402

from kumiki.core.registry import _GAMES, register_game  # noqa: E402
from kumiki.games.kuzushi import Kuzushi  # noqa: E402
from kumiki.interop import openspiel as kumiki_openspiel  # noqa: E402

kumiki_openspiel.register()

# Several option sets per game; TowerBrix's are short (its random builds are long and slow to judge).
SIM_CASES: list[tuple[str, dict[str, Any]]] = [
    ("kuzushi", {}),
    ("kuzushi", {"players": 3}),
    ("kuzushi", {"players": 4, "teams": 2, "size": 5}),
    ("blokus3d", {}),
    ("blokus3d", {"players": 3, "structure": "B"}),
    ("blokus3d", {"colours_per_player": 2}),
    ("kozo", {}),
    ("kozo", {"players": 3, "random_size": True, "rounds": 2}),
    ("kozo", {"players": 1, "rounds": 1}),
    ("towerbrix", {"max_edits": 6, "rounds": 2}),
    ("towerbrix", {"players": 3, "deck": "pink", "max_edits": 5, "rounds": 1}),
    ("towerbrix", {"players": 3, "mode": "challenge", "challenge": 10, "max_edits": 5}),
]


@pytest.mark.parametrize(("name", "params"), SIM_CASES)
def test_openspiel_random_simulation_test_passes(name: str, params: dict[str, Any]) -> None:
    game = pyspiel.load_game(f"kumiki_{name}", params)
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


@pytest.mark.parametrize(("name", "params"), [("kuzushi", {}), ("blokus3d", {}), ("kozo", {})])
def test_serialization_round_trip(name: str, params: dict[str, Any]) -> None:
    game = pyspiel.load_game(f"kumiki_{name}", params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    # random_sim_test compares the strings and the history only: the restored state must also play on
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    for _ in range(3):
        restored = game.deserialize_state(state.serialize())
        assert restored.legal_actions() == state.legal_actions() != []
        state.apply_action(int(rng.choice(state.legal_actions())))


POOL = {"I2": [[0, 0, 0], [1, 0, 0]], "L3": [[0, 0, 0], [1, 0, 0], [0, 1, 0]], "I3": [[0, 0, 0], [1, 0, 0], [2, 0, 0]]}


def test_a_kozo_pool_of_your_own_survives_openspiels_game_string() -> None:
    """A game string cannot hold the pool's JSON as written (pyspiel splits parameters at its commas): the game is
    written with ``;`` for them, so that ``load_game(str(game))``, ``serialize_game_and_state`` and ``random_sim_test
    (serialize=True)`` read back the same game (they failed with "Unknown parameter")."""
    pool = json.dumps(POOL)
    game = pyspiel.load_game("kumiki_kozo", {"pieces": pool, "rounds": 1})
    assert "," not in game.get_parameters()["pieces"]
    assert game.kumiki_game.options["pieces"] == pool  # the game plays the pool as given
    again = pyspiel.load_game(str(game))
    assert again.kumiki_game.options == game.kumiki_game.options
    assert pyspiel.load_game("kumiki_kozo", again.get_parameters()).kumiki_game.options == game.kumiki_game.options
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    game2, state2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert game2.kumiki_game.options == game.kumiki_game.options and state2.history() == state.history()
    assert str(state2) == str(state)


@pytest.mark.parametrize(
    ("name", "params", "simulations"),
    [
        ("kuzushi", {"players": 2, "size": 4}, 30),
        ("blokus3d", {}, 10),
        ("kozo", {"rounds": 1}, 6),
        ("towerbrix", {"rounds": 1, "attempts": 1, "max_edits": 2}, 2),
    ],
)
def test_mcts_bot_plays_whole_games(name: str, params: dict[str, Any], simulations: int) -> None:
    game = pyspiel.load_game(f"kumiki_{name}", params)
    rng = np.random.RandomState(7)
    bot = mcts.MCTSBot(game, 2.0, simulations, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bot.step(state))
    returns = state.returns()
    assert len(returns) == game.num_players()
    assert game.min_utility() <= min(returns) and max(returns) <= game.max_utility()
    assert state.kumiki_state.over


def test_parameters_are_the_games_options() -> None:
    game = pyspiel.load_game("kumiki_kuzushi", {"players": 3, "city_counts_as_base": True})
    assert game.kumiki_game.options["players"] == 3 and game.kumiki_game.options["size"] == 7  # its own default
    assert game.kumiki_game.options["city_counts_as_base"] is True
    assert game.num_distinct_actions() == 338 and game.num_players() == 3
    assert game.max_game_length() == 48
    spec = kumiki_openspiel.parameters("towerbrix")
    assert spec["mode"] == "base" and spec["total"] == -1 and spec["seed"] == 0
    with pytest.raises(pyspiel.SpielError):
        pyspiel.load_game("kumiki_kuzushi", {"colour": 1})  # unknown parameter: OpenSpiel refuses it
    with pytest.raises(ValueError, match="players"):
        pyspiel.load_game("kumiki_kuzushi", {"players": 9})  # the game's own one-line option error


def test_game_types_say_what_kind_of_game_it_is() -> None:
    kinds = {name: pyspiel.load_game(f"kumiki_{name}").get_type() for name in kumiki_openspiel.GAMES}
    Info, Chance, Utility = pyspiel.GameType.Information, pyspiel.GameType.ChanceMode, pyspiel.GameType.Utility
    assert kinds["kuzushi"].information == Info.PERFECT_INFORMATION
    assert kinds["kuzushi"].chance_mode == Chance.DETERMINISTIC and kinds["kuzushi"].utility == Utility.ZERO_SUM
    assert kinds["kozo"].chance_mode == Chance.DETERMINISTIC  # no draws without random sizes
    random_sizes = pyspiel.load_game("kumiki_kozo", {"random_size": True}).get_type()
    assert random_sizes.chance_mode == Chance.SAMPLED_STOCHASTIC
    assert kinds["towerbrix"].information == Info.IMPERFECT_INFORMATION
    assert kinds["towerbrix"].utility == Utility.IDENTICAL
    assert pyspiel.load_game("kumiki_kozo", {"players": 1}).get_type().utility == Utility.GENERAL_SUM


_TYPE_FIELDS = (
    "dynamics",
    "chance_mode",
    "information",
    "utility",
    "reward_model",
    "min_num_players",
    "max_num_players",
    "provides_information_state_string",
    "provides_information_state_tensor",
    "provides_observation_string",
    "provides_observation_tensor",
)


def _kind(game_type: Any) -> tuple[Any, ...]:
    return tuple(getattr(game_type, field) for field in _TYPE_FIELDS)


@pytest.mark.parametrize(
    ("name", "params", "chance", "hidden", "utility", "players"),
    [
        ("kuzushi", {}, False, False, "ZERO_SUM", (2, 6)),
        ("kuzushi", {"players": 4, "teams": 2, "size": 5}, False, False, "ZERO_SUM", (2, 6)),
        ("blokus3d", {"players": 4}, False, False, "ZERO_SUM", (2, 4)),
        ("kozo", {}, False, False, "ZERO_SUM", (1, 6)),
        ("kozo", {"players": 3, "random_size": True}, True, False, "ZERO_SUM", (1, 6)),
        ("kozo", {"players": 1, "rounds": 1}, False, False, "GENERAL_SUM", (1, 6)),
        ("towerbrix", {}, True, True, "IDENTICAL", (1, 6)),
        ("towerbrix", {"players": 4, "turns": "free"}, True, True, "IDENTICAL", (1, 6)),
        ("towerbrix", {"players": 1, "mode": "solo"}, True, False, "IDENTICAL", (1, 6)),  # every card face up
    ],
)
def test_each_games_type_is_what_its_options_make_it(
    name: str, params: dict[str, Any], chance: bool, hidden: bool, utility: str, players: tuple[int, int]
) -> None:
    kind = pyspiel.load_game(f"kumiki_{name}", params).get_type()
    GameType = pyspiel.GameType
    assert kind.dynamics == GameType.Dynamics.SEQUENTIAL and kind.reward_model == GameType.RewardModel.TERMINAL
    assert kind.chance_mode == (GameType.ChanceMode.SAMPLED_STOCHASTIC if chance else GameType.ChanceMode.DETERMINISTIC)
    assert kind.information == (
        GameType.Information.IMPERFECT_INFORMATION if hidden else GameType.Information.PERFECT_INFORMATION
    )
    assert kind.utility == getattr(GameType.Utility, utility)
    assert (kind.min_num_players, kind.max_num_players) == players
    assert kind.provides_observation_tensor and kind.provides_observation_string
    assert kind.provides_information_state_string and not kind.provides_information_state_tensor


def test_the_registered_types_are_those_of_the_games_with_their_defaults() -> None:
    """What pyspiel.registered_games() lists (tools filter games by it) is the default game's type, not a blend of
    every option set (it listed Kozo as stochastic, though only its random-size variant draws)."""
    registered = {kind.short_name: kind for kind in pyspiel.registered_games()}
    for name in kumiki_openspiel.GAMES:
        assert _kind(registered[f"kumiki_{name}"]) == _kind(pyspiel.load_game(f"kumiki_{name}").get_type()), name


def test_a_parameter_of_the_other_number_type_is_read_as_a_person_means_it() -> None:
    """pyspiel checks each parameter's type against the registered one, before Kumiki sees it; ``load`` types
    the parameters first: an int for a float, a whole float for an int. Anything else fails in one line."""
    game = kumiki_openspiel.load("towerbrix", box_short=7, grid=1, players=3.0, seed=4.0)
    options = game.kumiki_game.options
    assert (options["box_short"], options["grid"], options["players"]) == (7.0, 1.0, 3)
    assert type(options["box_short"]) is float and type(game.get_parameters()["players"]) is int
    assert kumiki_openspiel.typed_parameters("towerbrix", {"time_limit": 60}) == {"time_limit": 60.0}
    for params, message in [
        ({"players": 3.5}, "parameter 'players' is a whole number"),
        ({"helper": 1}, "parameter 'helper' is true or false"),
        ({"players": True}, "parameter 'players' is a whole number"),
        ({"box_short": "7"}, "parameter 'box_short' is a number"),
        ({"seed": 2**40}, "parameter 'seed' must fit in 32 bits"),
    ]:
        with pytest.raises(ValueError, match=message):
            kumiki_openspiel.load("towerbrix", **params)


@pytest.mark.parametrize(
    ("name", "options"), [("kuzushi", {}), ("kuzushi", {"players": 4, "teams": 2}), ("towerbrix", {}), ("kozo", {})]
)
def test_load_takes_a_games_own_options_none_included(name: str, options: dict[str, Any]) -> None:
    """``game.options`` holds None for an option that is none (Kuzushi's ``teams``, TowerBrix's ``total``), as
    ``load_game`` takes it; ``load(name, **game.options)`` failed ("parameter 'teams' is a whole number ..., not
    None") instead of giving that game."""
    game = kumiki.load_game(name, **options)
    assert kumiki_openspiel.load(name, **game.options).kumiki_game.options == game.options
    with pytest.raises(ValueError, match="parameter 'players' is a whole number"):
        kumiki_openspiel.load(name, players=None)  # not an option that may be none


def test_numpy_numbers_are_read_as_the_numbers_they_hold() -> None:
    """A sweep's values (np.linspace, np.arange) are numpy scalars; pyspiel itself took np.float64 as a float."""
    game = kumiki_openspiel.load("towerbrix", box_short=np.float64(7.0), players=np.int64(3), helper=np.bool_(False))
    options = game.kumiki_game.options
    assert (options["box_short"], options["players"], options["helper"]) == (7.0, 3, False)
    assert kumiki_openspiel.typed_parameters("kuzushi", {"players": np.int32(3)}) == {"players": 3}


def test_returns_are_zero_sum_win_loss_draw() -> None:
    game = pyspiel.load_game("kumiki_kuzushi", {"size": 3, "tiles": 3})
    state = game.new_initial_state()
    rng = np.random.RandomState(3)
    while not state.is_terminal():
        state.apply_action(int(rng.choice(state.legal_actions())))
    winners = state.kumiki_state.winners()
    expected = [1.0 if p in winners else -1.0 for p in range(2)] if len(winners) == 1 else [0.0, 0.0]
    assert state.returns() == expected


def test_towerbrix_strings_never_show_another_seats_cards() -> None:
    game = pyspiel.load_game("kumiki_towerbrix", {"players": 3, "seed": 5})
    state = game.new_initial_state()
    hands = state.kumiki_state.hands
    for player in range(3):
        others = {card for seat, hand in enumerate(hands) if seat != player for card in hand}
        for text in (state.observation_string(player), state.information_state_string(player)):
            assert all(f'"{card}"' not in text for card in others)
            assert all(f'"{card}"' in text for card in hands[player])
        tensor = np.asarray(state.observation_tensor(player))
        assert tensor.shape == (int(np.prod(game.observation_tensor_shape())),)


def test_chance_games_repeat_from_their_seed_and_differ_between_games() -> None:
    first = pyspiel.load_game("kumiki_towerbrix", {"seed": 11})
    second = pyspiel.load_game("kumiki_towerbrix", {"seed": 11})
    deals = [first.new_initial_state().kumiki_state.hands for _ in range(3)]
    assert deals == [second.new_initial_state().kumiki_state.hands for _ in range(3)]
    assert deals[0] != deals[1]


def test_openspiel_mcts_is_a_kumiki_agent() -> None:
    agent = kumiki.load_agent("openspiel:mcts", simulations=40, seed=3)
    game = kumiki.load_game("kuzushi", size=4)
    state = game.new_state()
    while not state.over:
        move = agent.choose(state)
        assert move in state.legal_moves()
        state.play(move)
    assert agent.describe().startswith("openspiel:mcts simulations=40")
    spec_agent = kumiki.agents.agent_from_spec("openspiel:mcts:simulations=5,seed=1")
    assert spec_agent.options["simulations"] == 5


def test_openspiel_mcts_enters_the_arena(tmp_path: Path) -> None:
    from kumiki import arena

    study = arena.Study(
        name="openspiel-vs-random",
        game="kuzushi",
        agents={"openspiel": "openspiel:mcts:simulations=30", "random": "random"},
        games=2,
        seed=1,
        options={"size": 4},
    )
    results = arena.run(study, tmp_path / "out", backend="serial")
    rows = [json.loads(line) for line in (tmp_path / "out" / "games.jsonl").read_text().splitlines()]
    assert len(results) == len(rows) == 4 and all(row["forfeit"] is None for row in rows)
    assert {"openspiel", "random"} == {seat for row in rows for seat in row["seats"]}


def test_the_web_app_offers_openspiel_as_a_level() -> None:
    pytest.importorskip("fastapi", reason="the web extra is not installed")
    from kumiki.server.agents import choose_move, level_agent

    assert level_agent("kuzushi", "openspiel")[0] == "openspiel:mcts"
    assert level_agent("kozo", "openspiel") == ("openspiel:mcts", {"simulations": 20})
    move = choose_move("kuzushi", {"size": 4}, None, ["B 1,0"], "openspiel")
    state = kumiki.load_game("kuzushi", size=4).new_state()
    state.play("B 1,0")
    assert move in {str(m) for m in state.legal_moves()}


def test_the_strings_hold_the_seat_then_the_view_as_docs_interop_says() -> None:
    game = pyspiel.load_game("kumiki_kuzushi", {"size": 3})
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    for player in range(2):
        for text in (state.observation_string(player), state.information_state_string(player)):
            assert text.startswith(f"p{player} ")
            assert json.loads(text.split(" ", 1)[1].split("\n")[0]) == state.kumiki_state.view(player)


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("towerbrix", {"players": 3, "rounds": 2, "max_edits": 3, "seed": 2}),
        ("kozo", {"random_size": True, "rounds": 1, "seed": 2}),
    ],
)
def test_a_game_with_sampled_chance_serializes_whole(name: str, params: dict[str, Any]) -> None:
    """``serialize()`` refused a game with sampled chance, so OpenSpiel's generate_playthrough stopped on TowerBrix;
    the pickled Kumiki state carries its seeded draws, so the deserialized state is the same position with the same
    deals to come, move after move to the end; and deserializing does not count as a game begun."""
    game = pyspiel.load_game(f"kumiki_{name}", params)
    state = game.new_initial_state()
    rng = np.random.default_rng(5)
    while not state.is_terminal():
        started = game.started
        restored = game.deserialize_state(state.serialize())
        assert game.started == started
        assert restored.history() == state.history() and str(restored) == str(state)
        assert restored.kumiki_state.to_json() == state.kumiki_state.to_json()
        action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
        restored.apply_action(action)
        assert restored.kumiki_state.to_json() == state.kumiki_state.to_json()  # the same draws after
    assert game.deserialize_state(state.serialize()).returns() == state.returns()


@pytest.mark.parametrize(
    "game_string",
    [
        "kumiki_towerbrix(attempts=1,max_edits=2,players=2,rounds=1)",
        "kumiki_towerbrix(attempts=1,challenge=10,max_edits=3,mode=challenge,players=3)",
        "kumiki_kozo(random_size=True,rounds=1)",
    ],
)
def test_openspiels_generate_playthrough_runs_to_the_end(game_string: str) -> None:
    """OpenSpiel's playthrough generator (its tests' record of a game) asks for the public and private observers of
    a game of imperfect information and serializes every state: both were refused for TowerBrix. No card dealt is in
    a public observation string before the cards are revealed at the end."""
    from open_spiel.python.algorithms import generate_playthrough

    lines = generate_playthrough.playthrough_lines(game_string, seed=3)
    assert "IsTerminal() = True" in lines and lines[-1].startswith("Returns() = ")
    if "towerbrix" not in game_string:
        return
    hands = [line.split()[3:] for line in lines if line.startswith("# P") and " cards: " in line]  # str(state)
    dealt = {card for hand in hands for card in hand if card != "-"}
    public = [line for line in lines if line.startswith("PublicObservationString() = ")]
    assert dealt and len(public) == sum(1 for line in lines if line.startswith("IsTerminal() = "))
    assert not any(f'"{card}"' in line for line in public[:-1] for card in dealt)
    assert all(f'"{card}"' in public[-1] for card in dealt)  # the evaluation reveals every card


def test_the_blind_seat_information_state_hides_where_bricks_went() -> None:
    game = pyspiel.load_game("kumiki_towerbrix", {"mode": "challenge", "challenge": 10, "players": 3, "seed": 1})
    state = game.new_initial_state()
    blind = game.kumiki_game.blind
    state.apply_action(kumiki.interop.encode(game.kumiki_game, "Y1 z 0,0"))
    assert state.information_state_string(blind).split("\n")[-1] == "edit"
    assert state.information_state_string(0).split("\n")[-1] == "Y1 z 0,0"


def test_there_is_no_information_state_tensor_to_mistake_for_one() -> None:
    game = pyspiel.load_game("kumiki_kuzushi", {"size": 3})
    assert not game.get_type().provides_information_state_tensor
    state = game.new_initial_state()
    assert list(state.information_state_tensor(0)) == []
    assert len(state.observation_tensor(0)) == int(np.prod(game.observation_tensor_shape()))


def test_a_game_of_waive_votes_is_never_longer_than_max_game_length() -> None:
    """A waive vote is no edit and leaves the thumbs up (challenges 9 and 13, ``waive="vote"``): each seat's three
    votes an attempt come on top of the edits and oks. The longest such game (every vote first, then the one edit)
    is 7 moves here; max_game_length said 4."""
    game = pyspiel.load_game(
        "kumiki_towerbrix",
        {
            "players": 2,
            "mode": "challenge",
            "challenge": 9,
            "waive": "vote",
            "max_edits": 1,
            "attempts": 1,
            "rounds": 1,
        },
    )
    state = game.new_initial_state()
    kgame = game.kumiki_game
    for text in ["waive 0.1", "waive 0.1", "waive 0.2", "waive 0.2", "waive 0.1", "waive 0.1", "Y1 x 0,0"]:
        state.apply_action(kumiki.interop.encode(kgame, text))
    assert state.is_terminal()
    assert len(state.history()) == 7 <= game.max_game_length()


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("kuzushi", {"size": 4}),
        ("towerbrix", {"players": 3, "seed": 4, "max_edits": 5}),  # sampled chance: the draws to come pickle too
        ("kozo", {"pieces": '{"A": [[0,0,0],[1,0,0]], "B": [[0,0,0],[0,1,0],[1,0,0]]}', "rounds": 2}),  # commas
    ],
)
def test_games_and_states_pickle_as_openspiels_own_python_games_do(name: str, params: dict[str, Any]) -> None:
    """multiprocessing and Ray pickle the game and its states, as OpenSpiel's python_tic_tac_toe pickles: the game
    raised PicklingError (its class was made inside register()), a TowerBrix state SpielError (GetRNGState), a
    Kozo state with its own pieces failed to read back its game string (the commas of the JSON)."""
    import pickle

    game = pyspiel.load_game(f"kumiki_{name}", params)
    copied = pickle.loads(pickle.dumps(game))
    assert copied.get_parameters() == game.get_parameters()
    assert copied.kumiki_game.options == game.kumiki_game.options
    state = game.new_initial_state()
    later = pickle.loads(pickle.dumps(game))  # goes on with the next deal, not the first one again
    assert later.new_initial_state().kumiki_state.to_json() == game.new_initial_state().kumiki_state.to_json()
    if game.kumiki_game.has_chance():  # another deal than the first one
        assert later.new_initial_state().kumiki_state.seed != state.kumiki_state.seed  # type: ignore[attr-defined]
    rng = np.random.default_rng(0)
    for _ in range(3):
        state.apply_action(int(rng.choice(state.legal_actions())))
    twin = pickle.loads(pickle.dumps(state))
    assert twin.history() == state.history() and str(twin) == str(state)
    assert twin.kumiki_state.to_json() == state.kumiki_state.to_json()
    while not state.is_terminal():  # the draws to come are the same
        action = int(rng.choice(state.legal_actions()))
        assert twin.legal_actions() == state.legal_actions()
        state.apply_action(action)
        twin.apply_action(action)
    assert twin.is_terminal() and twin.returns() == state.returns()


def test_a_pickled_state_reads_back_in_a_process_that_never_registered() -> None:
    import pickle
    import subprocess
    import sys

    state = pyspiel.load_game("kumiki_kuzushi", {"size": 4}).new_initial_state()
    state.apply_action(state.legal_actions()[0])
    code = "import pickle, sys; s = pickle.loads(sys.stdin.buffer.read()); print(s.history(), s.legal_actions()[:3])"
    out = subprocess.run(
        [sys.executable, "-c", code], input=pickle.dumps(state), capture_output=True, check=True, timeout=120
    )
    assert out.stdout.decode().split() == f"{state.history()} {state.legal_actions()[:3]}".split()


def _observation_kind(perfect_recall: bool, public_info: bool, private_info: str) -> Any:
    private = getattr(pyspiel.PrivateInfoType, private_info)
    return pyspiel.IIGObservationType(perfect_recall=perfect_recall, public_info=public_info, private_info=private)


def _other_cards(kstate: Any) -> Any:
    """A copy of a TowerBrix position whose every seat holds other cards, of the same points (each swapped with a
    card of its points still in the stack): the deal differs in the cards alone, every count stays."""
    twin = kstate.copy()
    taken = dict.fromkeys(twin.stacks, 0)
    for hand in twin.hands:
        for place, card in enumerate(hand):
            points = twin.game.cards[card].points
            pile, k = twin.stacks[points], taken[points]
            hand[place], pile[k] = pile[k], card
            taken[points] += 1
    return twin


@pytest.mark.parametrize(
    "params",
    [
        {"players": 3, "seed": 4},
        {"players": 3, "mode": "challenge", "challenge": 10, "seed": 4},  # the blind seat sees no bricks
        {"players": 2, "mode": "challenge", "challenge": 9, "waive": "vote", "seed": 4},  # votes name cards by place
    ],
)
def test_the_public_observation_is_the_same_for_every_seat_and_every_deal_of_the_cards(params: dict[str, Any]) -> None:
    """OpenSpiel's public observation (``private_info=NONE``, as its playthroughs ask for) of a game with hidden
    cards: the same tensor and string for every seat, and for two deals that differ in the cards alone, move after
    move; no card id in it. The seat's own view of the two deals differs (its cards), so the test can fail."""
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("kumiki_towerbrix", params)
    first = game.new_initial_state()
    second = game.state_from(_other_cards(first.kumiki_state))
    hands = first.kumiki_state.hands, second.kumiki_state.hands
    assert not {c for h in hands[0] for c in h} & {c for h in hands[1] for c in h}
    assert [len(h) for h in hands[0]] == [len(h) for h in hands[1]]
    cards = {card for deal in hands for hand in deal for card in hand}
    public = {recall: make_observation(game, _observation_kind(recall, True, "NONE")) for recall in (False, True)}
    private = make_observation(game, _observation_kind(False, False, "SINGLE_PLAYER"))
    encoding = game.kumiki_game.encoding
    rng = np.random.default_rng(2)
    for _ in range(12):
        assert first.legal_actions() == second.legal_actions()
        for recall, observer in public.items():
            texts, tensors = set(), set()
            for state in (first, second):
                for player in range(game.num_players()):
                    observer.set_from(state, player)
                    tensors.add(observer.tensor.tobytes())
                    texts.add(observer.string_from(state, player))
            assert len(texts) == 1 and len(tensors) == 1, texts
            text = texts.pop()
            assert text.startswith("public ") and not any(f'"{card}"' in text for card in cards)
            if recall:
                assert text.split("\n")[1] == " | ".join(first.kumiki_state.common_history())
        public[False].set_from(first, 0)  # seat 0's own tensor holds it on the public fields
        own = np.asarray(first.observation_tensor(0))
        for name in encoding.public_layout:
            assert np.array_equal(public[False].dict[name], own[slice(*encoding.layout[name])]), name
        for player in range(game.num_players()):
            assert first.observation_tensor(player) != second.observation_tensor(player)
            assert first.observation_string(player) != second.observation_string(player)
            assert first.information_state_string(player) != second.information_state_string(player)
            private.set_from(first, player)
            mine = private.tensor.copy()
            private.set_from(second, player)
            assert not np.array_equal(mine, private.tensor)
        actions = first.legal_actions()  # an edit or a vote (the blind seat's only move is ok): no evaluation
        action = int(rng.choice(actions[1:] or actions))
        first.apply_action(action)
        second.apply_action(action)
    assert not first.kumiki_state.evaluations


def test_the_private_observation_is_what_the_seat_sees_beyond_the_public_one() -> None:
    """The private part (``public_info=False``): the seat's cards and the helper; in challenge 10 also the bricks,
    which the blind seat does not see (its bricks are zero, and the public part has none); with perfect recall the
    moves the seat saw otherwise than every seat did. The public part and the private one make the seat's view."""
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("kumiki_towerbrix", {"mode": "challenge", "challenge": 10, "players": 3, "seed": 1})
    state = game.new_initial_state()
    state.apply_action(kumiki.interop.encode(game.kumiki_game, "Y1 z 0,0"))
    kstate, encoding, blind = state.kumiki_state, game.kumiki_game.encoding, game.kumiki_game.blind
    assert "bricks" not in encoding.public_layout and set(encoding.private_layout) == {"bricks", "hand", "holds"}
    private = make_observation(game, _observation_kind(False, False, "SINGLE_PLAYER"))
    recall = make_observation(game, _observation_kind(True, False, "SINGLE_PLAYER"))
    public = json.loads(
        make_observation(game, _observation_kind(False, True, "NONE")).string_from(state, 0).split(" ", 1)[1]
    )
    assert public["bricks"] == [] and public["hands"] == [None] * 3
    for player in range(3):
        private.set_from(state, player)
        own = np.asarray(state.observation_tensor(player))
        for name in ("bricks", "hand", "holds"):
            assert np.array_equal(private.dict[name], own[slice(*encoding.layout[name])]), name
        assert private.dict["bricks"].any() == (player != blind)
        text = private.string_from(state, player)
        part = json.loads(text.split(" ", 1)[1])
        assert text.startswith(f"p{player} ") and part["hand"] == kstate.hands[player]
        assert ("bricks" in part) == (player != blind) and ("holds" in part) == (player != blind)
        view = kstate.view(player)
        merged = {**public, **{k: v for k, v in part.items() if k != "hand"}}
        merged["hands"] = [part["hand"] if seat == player else None for seat in range(3)]
        if player != blind:
            del merged["bricks_hidden"]
        assert merged == view
        assert recall.string_from(state, player).split("\n")[1] == ("" if player == blind else "0:Y1 z 0,0")
    assert kstate.common_history() == ["edit"]


@pytest.mark.parametrize("perfect_recall", [False, True])
def test_the_defaults_are_the_seats_own_view_and_kinds_no_seat_sees_are_refused(perfect_recall: bool) -> None:
    """The default observer (and ``public_info=True, private_info=SINGLE_PLAYER``) is unchanged: the seat's own view,
    the state's observation and information state. Every seat's cards (``ALL_PLAYERS``), which no seat sees, and
    nothing at all are one-line ValueErrors."""
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("kumiki_towerbrix", {"players": 2, "seed": 1})
    state = game.new_initial_state()
    expected = state.information_state_string(0) if perfect_recall else state.observation_string(0)
    for observer in (
        make_observation(game, pyspiel.IIGObservationType(perfect_recall=perfect_recall)),
        make_observation(game, _observation_kind(perfect_recall, True, "SINGLE_PLAYER")),
    ):
        assert observer.string_from(state, 0) == expected
        observer.set_from(state, 0)
        size = 0 if perfect_recall else int(np.prod(game.observation_tensor_shape()))
        assert observer.tensor.shape == (size,) and size in (0, 192)
        if not perfect_recall:
            assert list(observer.tensor) == state.observation_tensor(0)
    assert list(state.information_state_tensor(0)) == []
    for public_info, private_info, reason in [
        (True, "ALL_PLAYERS", "no seat sees every seat's cards"),
        (False, "ALL_PLAYERS", "no seat sees every seat's cards"),
        (False, "NONE", "that observes nothing"),
    ]:
        with pytest.raises(ValueError, match="observes a seat's own view") as error:
            make_observation(game, _observation_kind(perfect_recall, public_info, private_info))
        assert "\n" not in str(error.value) and str(error.value).endswith(reason)
    assert game.get_type().provides_factored_observation_string
    # a game without hidden cards has nothing private: every kind is its one view
    kuzushi = pyspiel.load_game("kumiki_kuzushi", {"size": 3})
    assert not kuzushi.get_type().provides_factored_observation_string
    public = make_observation(kuzushi, _observation_kind(perfect_recall, True, "NONE"))
    start = kuzushi.new_initial_state()
    assert public.string_from(start, 0) == (
        start.information_state_string(0) if perfect_recall else start.observation_string(0)
    )


@pytest.mark.parametrize(("players", "teams", "best"), [(4, 2, 1 / 3), (6, 2, 0.2), (6, 3, 0.4), (3, 0, 1.0)])
def test_max_utility_is_a_winning_sides_return(players: int, teams: int, best: float) -> None:
    """A side wins whole, so its seats share the win: the bound OpenSpiel's solvers read is the return they get
    (it was 1.0 with teams, which MCTSBot(solve=True) never met, so it proved no win)."""
    params: dict[str, Any] = {"players": players, "size": 6} | ({"teams": teams} if teams else {})
    game = pyspiel.load_game("kumiki_kuzushi", params)
    assert game.max_utility() == pytest.approx(best)
    rng = np.random.RandomState(players + teams)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert max(state.returns()) == pytest.approx(best)


def test_an_action_after_the_end_is_refused_as_such() -> None:
    """Decoding an action on a finished Kozo board could fail as another move ("would come to rest on a balance
    cube"); the adapter says the game is over before it decodes anything."""
    game = pyspiel.load_game("kumiki_kozo", {"rounds": 1})
    rng = np.random.RandomState(0)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(int(rng.choice(state.legal_actions())))
    for action in (0, 5, 100, game.num_distinct_actions() - 1):
        with pytest.raises(Exception, match=rf"^action {action}: the game is over$"):
            state.apply_action(action)


@pytest.mark.parametrize(
    ("params", "best"),
    [
        ({"rounds": 3}, 3 * (16 + 5)),  # medium draws 16 points a round, and the bonuses add at most 3 + 2
        ({"rounds": 1, "difficulty": "hard", "players": 1, "mode": "solo"}, 20 + 5),
        ({"rounds": 2, "total": 13}, 2 * (13 + 5)),
        ({"rounds": 2, "mode": "intro"}, 2),  # a round met is one point
        ({"rounds": 3, "mode": "challenge", "challenge": 1}, 3),
    ],
)
def test_towerbrix_max_utility_is_the_best_score_a_game_can_reach(params: dict[str, Any], best: float) -> None:
    """The bound OpenSpiel's algorithms read is the game's best score (it was every card of the deck plus 10 a
    round: 396 for a three-round green game whose rounds deal 16 points), and a solved round reaches no more."""
    game = pyspiel.load_game("kumiki_towerbrix", params)
    assert game.max_utility() == best
    if params.get("mode") == "solo":  # the solver's tower for the hand, cards face up, scores within the bound
        kgame = kumiki.load_game("towerbrix", **params)
        state = kgame.new_state(seed=4)
        agent = kumiki.load_agent("towerbrix-solo", seed=4)
        while not state.over:
            state.play(agent.choose(state))
        assert 0 < state.scores()[0] <= best


@pytest.mark.parametrize(
    "move",
    ["Y1 x 3,0", "Y2 x 2,0", "R1 x 10,10"],  # a placed brick moved; the second yellow; touching nothing
)
def test_an_action_not_among_legal_actions_is_refused(move: str) -> None:
    """play() accepts these TowerBrix moves, which legal_actions() leaves out (PettingZoo and Gymnasium refuse them):
    apply_action played them, so a loop or a search with a bug built towers no agent was offered."""
    game = pyspiel.load_game("kumiki_towerbrix", {"rounds": 1})
    kgame = game.kumiki_game
    state = game.new_initial_state()
    state.apply_action(kumiki.interop.encode(kgame, "Y1 z 0,0"))
    state.apply_action(0)  # ok
    action = kumiki.interop.encode(kgame, move)
    assert action not in state.legal_actions()
    with pytest.raises(kumiki.IllegalMove, match=r"is legal, but not among legal_moves\(\)"):
        state.apply_action(action)
    assert len(state.history()) == 2 and list(state.kumiki_state.bricks) == ["Y1"]


def test_an_illegal_action_says_the_games_reason_and_one_out_of_range_its_range() -> None:
    game = pyspiel.load_game("kumiki_kuzushi", {"size": 4})
    state = game.new_initial_state()
    reason = r"^B -3,-3 is not a legal move now \(B -3,-3: not next to any tile\)$"
    with pytest.raises(kumiki.IllegalMove, match=reason):
        state.apply_action(0)
    with pytest.raises(ValueError, match=r"^action 98 is out of range 0…97$"):
        state.apply_action(98)
    assert state.history() == []


def test_a_state_of_other_options_or_another_game_is_not_deserialized_as_this_games() -> None:
    """pyspiel restores a Python state's attributes without replaying its moves: a 3-player Kuzushi state read by the
    2-player game was taken as it was (its returns three numbers in a game of two players), one of Kuzushi read by
    Blokus 3D failed later with an AttributeError. The game that serialized it reads it back."""
    three = pyspiel.load_game("kumiki_kuzushi", {"players": 3, "size": 10})
    state = three.new_initial_state()
    rng = np.random.default_rng(2)
    for _ in range(6):
        state.apply_action(int(rng.choice(state.legal_actions())))
    text = state.serialize()
    assert three.deserialize_state(text).kumiki_state.to_json() == state.kumiki_state.to_json()
    for name, params in [("kuzushi", {}), ("blokus3d", {}), ("kozo", {"random_size": True})]:
        other = pyspiel.load_game(f"kumiki_{name}", params)
        started = getattr(other, "started", 0)
        with pytest.raises(
            ValueError, match=rf"^kumiki_{name}: deserialize_state reads a state of this game .*players=3, size=10"
        ):
            other.deserialize_state(text)
        assert other.started == started  # a refused text begins no game
    with pytest.raises(ValueError, match=r"^kumiki_kuzushi: state_from takes a state of this game .*players=3"):
        pyspiel.load_game("kumiki_kuzushi").state_from(three.kumiki_game.new_state())


@pytest.mark.parametrize(
    "text", ["junk", "", "history=\nmove_number=0\n__dict__=!!!!", "history=\nmove_number=0\n__dict__="]
)
def test_text_that_is_no_serialized_state_is_a_one_line_value_error(text: str) -> None:
    """pyspiel's own checks failed with a SpielError of two lines (or pickle's EOFError, TypeError)."""
    game = pyspiel.load_game("kumiki_kozo", {"random_size": True})
    with pytest.raises(ValueError, match=r"^kumiki_kozo: not a state serialize\(\) wrote \(.+\)$") as caught:
        game.deserialize_state(text)
    assert "\n" not in str(caught.value)
    assert game.started == 0


REPLAY_CASES: list[tuple[str, dict[str, Any]]] = [
    ("kuzushi", {}),
    ("blokus3d", {}),
    ("kozo", {"players": 3, "rounds": 4}),
    ("kozo", {"random_size": True, "rounds": 4, "seed": 3}),
    ("towerbrix", {"players": 3, "rounds": 2, "max_edits": 3, "seed": 2}),
]


def _played(game: Any, seed: int, plies: int | None = None) -> tuple[Any, list[int]]:
    """A state of ``game`` after ``plies`` random actions (None: to the end), and the actions."""
    state = game.new_initial_state()
    rng = np.random.default_rng(seed)
    while not state.is_terminal() and (plies is None or len(state.history()) < plies):
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state, state.history()


def _same_position(restored: Any, state: Any) -> None:
    assert restored.history() == state.history() and str(restored) == str(state)
    assert restored.kumiki_state.to_json() == state.kumiki_state.to_json()
    assert restored.legal_actions() == state.legal_actions() and restored.returns() == state.returns()
    assert restored.current_player() == state.current_player() and restored.is_terminal() == state.is_terminal()
    for seat in range(state.get_game().num_players()):
        assert restored.observation_tensor(seat) == state.observation_tensor(seat)
        assert restored.observation_string(seat) == state.observation_string(seat)


@pytest.mark.parametrize(("name", "params"), REPLAY_CASES)
def test_serialize_writes_the_history_and_deserialize_plays_it_again_on_this_game(
    name: str, params: dict[str, Any]
) -> None:
    """``serialize()`` pickled the Kumiki state with its game and tables: 18-135 KB a state (Kuzushi 59 KB, Blokus 3D
    119-135 KB, Kozo 49-68 KB, TowerBrix 18-27 KB). It is the history now, as OpenSpiel's own games write it, and the
    game's name, options and seed; ``deserialize_state`` plays the actions again on its own Kumiki game (so the moves
    share its encoding's objects), the same position with the same draws to come, to the end.

    The bound: pyspiel writes each action as ``<seat>:<action>,`` (at most 9 characters: a seat of one digit, an
    action below 1,000,000; TowerBrix numbers 101,410) and the pickled attributes in base64: the game's name and
    options (TowerBrix's, the most, under 600 characters) and two numbers. 20 plies: under 2,000 characters, and
    each ply adds what its action adds (and the count of moves a byte more)."""
    import pickle

    _, actions = _played(pyspiel.load_game(f"kumiki_{name}", params), seed=11)
    game = pyspiel.load_game(f"kumiki_{name}", params)  # its first game is the same deal
    late = min(20, len(actions) - 1)  # a late position still in play
    assert late >= 8
    state = game.new_initial_state()
    start = len(state.serialize())
    for action in actions[:late]:
        state.apply_action(action)
    text = state.serialize()
    assert len(text) < 2000 and len(text) - start <= 9 * late + 4  # the pickled count of moves may take a byte more
    assert len(pickle.dumps(state)) < 2000  # multiprocessing, Ray: the same few bytes
    started = game.started
    restored = game.deserialize_state(text)
    assert game.started == started
    assert restored.kumiki_state.game is game.kumiki_game  # the moves share the game's placements
    twin = pickle.loads(pickle.dumps(state))
    for action in actions[late:]:  # plays on identically, the same draws to come
        _same_position(restored, state)
        _same_position(twin, state)
        for copy in (state, restored, twin):
            copy.apply_action(action)
    assert state.is_terminal()
    _same_position(restored, state)
    _same_position(game.deserialize_state(state.serialize()), state)


def test_a_state_not_played_from_the_start_serializes_whole() -> None:
    """A state of ``state_from`` (in mid-game: its history is not OpenSpiel's) does not replay from the history: it
    serializes whole, as before, and reads back the same."""
    game = pyspiel.load_game("kumiki_kuzushi", {"size": 4})
    state, _ = _played(game, seed=1, plies=3)
    held = game.state_from(state.kumiki_state)
    assert held.history() == []
    restored = game.deserialize_state(held.serialize())
    assert restored.kumiki_state.to_json() == state.kumiki_state.to_json()
    assert restored.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("how", ["played", "resigned"])
def test_a_state_whose_kumiki_state_changed_directly_pickles_and_serializes_whole(how: str) -> None:
    """A state of ``new_initial_state`` whose Kumiki state was played (or resigned) directly, not through
    ``apply_action``, is no longer its history replayed: it pickled as that history, so it read back as another
    position (a move short, or not resigned) and ``deserialize_state`` refused it. It pickles whole, as before."""
    import pickle

    game = pyspiel.load_game("kumiki_kuzushi", {"size": 4})
    state, _ = _played(game, seed=0, plies=2)
    kstate = state.kumiki_state
    if how == "played":
        kstate.play(kumiki.interop.decode(game.kumiki_game, state.legal_actions()[0], kstate))
    else:
        kstate.resign(0)
    for restored in (pickle.loads(pickle.dumps(state)), game.deserialize_state(state.serialize())):
        assert restored.kumiki_state.to_json() == kstate.to_json()
        assert restored.kumiki_state.over == kstate.over and restored.kumiki_state.resigned == kstate.resigned
    clone = state.clone()
    assert pickle.loads(pickle.dumps(clone)).kumiki_state.to_json() == kstate.to_json()


def test_a_state_serialized_before_the_history_was_written_reads_back_and_plays_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``serialize()`` wrote the held Kumiki state with its slots (``_legal``, ``state``) before it wrote the history:
    such a text read back lacked the slots added since, so its ``clone()`` (every search) was an AttributeError."""
    import copyreg

    game = pyspiel.load_game("kumiki_kuzushi", {"size": 4})
    state, _ = _played(game, seed=3, plies=3)
    held = state._held
    with monkeypatch.context() as patch:  # the text as serialize() wrote it then
        patch.setattr(
            kumiki_openspiel._Held,
            "__reduce__",
            lambda self: (copyreg.__newobj__, (kumiki_openspiel._Held,), (None, {"_legal": None, "state": self.state})),
        )
        text = state.serialize()
    restored = game.deserialize_state(text)
    assert restored.kumiki_state.to_json() == held.state.to_json()
    twin = restored.clone()
    twin.apply_action(twin.legal_actions()[0])
    state.apply_action(state.legal_actions()[0])
    assert game.deserialize_state(twin.serialize()).kumiki_state.to_json() == state.kumiki_state.to_json()


def test_a_held_state_serialized_when_options_was_the_games_attribute_reads_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A state not replayable (``state_from``) serializes as the Kumiki state pickled, its game included, which held
    ``options`` then and ``_options`` now: such a text read back was an AttributeError, not the state."""
    import copyreg

    from kumiki.core.game import Game

    game = pyspiel.load_game("kumiki_kuzushi", {"size": 4})
    kstate = game.kumiki_game.new_state(seed=3)
    kstate.play(kstate.legal_moves()[0])
    held = game.state_from(kstate)

    def as_then(self: Game, protocol: int) -> tuple[Any, ...]:
        data = dict(self.__dict__)
        data["options"] = data.pop("_options")
        return copyreg.__newobj__, (type(self),), data

    with monkeypatch.context() as patch:  # the text as serialize() wrote it then
        patch.setattr(Game, "__reduce_ex__", as_then)
        text = held.serialize()
    restored = game.deserialize_state(text)
    assert restored.kumiki_state.to_json() == kstate.to_json()
    assert restored.kumiki_state.game.options == game.kumiki_game.options
    restored.apply_action(restored.legal_actions()[0])


@pytest.mark.parametrize("name", ["kozo", "towerbrix"])
def test_a_tampered_history_is_a_one_line_value_error(name: str) -> None:
    """The history is played again: an action it cannot have played, or a history cut short, is the one-line
    ValueError of text no ``serialize()`` wrote, and begins no game."""
    params = {"players": 3, "random_size": True} if name == "kozo" else {"seed": 1}
    game = pyspiel.load_game(f"kumiki_{name}", params)
    state, actions = _played(game, seed=4, plies=6)
    assert len(actions) == 6
    lines = state.serialize().split("\n")
    probe = pyspiel.load_game(f"kumiki_{name}", params).new_initial_state()  # the same deal
    for action in actions[:3]:
        probe.apply_action(action)
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in probe.legal_actions())
    seat = probe.current_player()
    history = [f"{step.player}:{step.action}" for step in state.full_history()]
    assert lines[0] == "history=" + ",".join(history)  # pyspiel's own line, which the test tampers with
    tampered = [*history[:3], f"{seat}:{illegal}", *history[4:]]
    texts = {
        r"move 4: .+ is not a legal move now .+": "\n".join(["history=" + ",".join(tampered), *lines[1:]]),
        r"a history of 5 actions, not 6": "\n".join(["history=" + ",".join(history[:5]), *lines[1:]]),
        r"move 2: action 999999 is out of range .+": "\n".join(
            ["history=" + ",".join([history[0], "0:999999", *history[2:]]), *lines[1:]]
        ),
    }
    started = game.started
    for reason, text in texts.items():
        with pytest.raises(
            ValueError, match=rf"^kumiki_{name}: not a state serialize\(\) wrote \({reason}\)$"
        ) as caught:
            game.deserialize_state(text)
        assert "\n" not in str(caught.value)
        assert game.started == started


@pytest.mark.parametrize(
    ("name", "mine", "other"),
    [
        ("kozo", {"players": 3}, {"players": 2}),
        ("kozo", {"random_size": True, "seed": 1}, {"random_size": True, "seed": 1, "rounds": 2}),
        ("towerbrix", {"players": 3, "max_edits": 4}, {"players": 3}),
    ],
)
def test_a_history_serialized_by_other_options_is_refused_naming_both_games(
    name: str, mine: dict[str, Any], other: dict[str, Any]
) -> None:
    """The history alone would play in a game of other options (the same actions may be legal there): the text
    names the game and its options, and another game refuses it, naming both."""
    game = pyspiel.load_game(f"kumiki_{name}", mine)
    state, _ = _played(game, seed=2, plies=3)
    reader = pyspiel.load_game(f"kumiki_{name}", other)
    started = reader.started
    theirs = re.escape(repr(game.kumiki_game))
    with pytest.raises(
        ValueError, match=rf"^kumiki_{name}: deserialize_state reads a state of this game \(.+\), not of {theirs}$"
    ):
        reader.deserialize_state(state.serialize())
    assert reader.started == started
    again = pyspiel.load_game(f"kumiki_{name}", mine)  # the same options, another game object: read back
    assert again.deserialize_state(state.serialize()).kumiki_state.to_json() == state.kumiki_state.to_json()


class AddedGame(Kuzushi):
    """A game registered after the built-in ones (docs/adding-a-game.md), with an action encoding (Kuzushi's)."""

    name = "kuzushi_added"


def test_register_takes_a_game_added_since_that_has_an_encoding() -> None:
    """register() registered a fixed list of the four built-in games, so a game added as docs/adding-a-game.md says,
    with an encoding, was "Unknown game 'kumiki_<name>'" to pyspiel and to ``load``; now every registered game with
    an encoding is registered (and a game without one is left out, not an error)."""
    register_game(AddedGame.name, f"{__name__}:AddedGame")
    register_game("no_encoding_added", "tests.test_terminal:TakeAway")
    try:
        kumiki_openspiel.register()
        game = pyspiel.load_game(f"kumiki_{AddedGame.name}")
        state = game.new_initial_state()
        assert state.legal_actions() == kumiki.load_game("kuzushi").encoding.legal_actions(
            kumiki.load_game("kuzushi").new_state()
        )
        assert kumiki_openspiel.load(AddedGame.name, players=3).num_players() == 3
        assert AddedGame.name in kumiki_openspiel.encoded_games()
        assert "no_encoding_added" not in kumiki_openspiel.encoded_games()
    finally:
        for name in (AddedGame.name, "no_encoding_added"):
            _GAMES.pop(name, None)


def test_a_state_held_whole_keeps_its_history_through_pickle_and_deepcopy() -> None:
    """A state of ``state_from`` (held whole) played on with ``apply_action`` pickled without OpenSpiel's history:
    ``pickle`` and ``copy.deepcopy`` (which pickles) gave ``history() == []`` and ``move_number() == 0``, where
    ``serialize()`` and ``clone()`` kept the actions."""
    import copy
    import pickle

    game = pyspiel.load_game("kumiki_blokus3d")
    played, _ = _played(game, seed=2, plies=6)
    state = game.state_from(played.kumiki_state)
    for _ in range(3):
        state.apply_action(state.legal_actions()[-1])
    twin = state.clone()
    for restored in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state), pickle.loads(pickle.dumps(twin))):
        assert restored.history() == state.history() and len(restored.history()) == 3
        assert restored.move_number() == state.move_number()
        assert restored.kumiki_state.to_json() == state.kumiki_state.to_json()
        assert restored.legal_actions() == state.legal_actions()


@pytest.mark.parametrize(
    ("name", "params"),
    [("towerbrix", {"players": 2, "rounds": 1, "max_edits": 3, "seed": 7}), ("kozo", {"random_size": True})],
)
def test_cloning_a_state_begins_no_game(name: str, params: dict[str, Any]) -> None:
    """pyspiel's ``clone()`` (and ``child()``, every search's) makes a new initial state and then copies the
    attributes: each clone counted as a game begun, so a search (MCTS, ``evaluate_bots``) changed the deal of every
    game after it, and two bots compared on one seed met other deals."""
    import copy

    plain = pyspiel.load_game(f"kumiki_{name}", params)
    searched = pyspiel.load_game(f"kumiki_{name}", params)
    plain.new_initial_state()
    state = searched.new_initial_state()
    twin = state.clone()
    state.child(state.legal_actions()[0])
    copy.deepcopy(state)
    state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(1, 0.0, 1.0))
    searched.deserialize_state(twin.serialize())
    assert searched.started == plain.started == 1
    assert searched.new_initial_state().kumiki_state.to_json() == plain.new_initial_state().kumiki_state.to_json()


def test_a_history_without_its_state_is_a_one_line_value_error() -> None:
    """Text whose pickled attributes are empty (no state) read back as the new initial state under a history of
    moves never played: ``history()`` said three actions while the position, legal actions and returns were the
    start's."""
    import base64
    import pickle

    game = pyspiel.load_game("kumiki_kuzushi", {"size": 4})
    state, _ = _played(game, seed=1, plies=3)
    lines = state.serialize().split("\n")
    text = "\n".join([*lines[:2], "__dict__=" + base64.b64encode(pickle.dumps({})).decode()])
    with pytest.raises(ValueError, match=r"^kumiki_kuzushi: not a state serialize\(\) wrote \(.+\)$"):
        game.deserialize_state(text)


@pytest.mark.parametrize(("name", "params"), [*SIM_CASES[:4], ("kozo", {"random_size": True, "rounds": 1})])
def test_an_observation_tensor_begins_no_game_and_is_pyspiels(name: str, params: dict[str, Any]) -> None:
    """pyspiel's ``state.observation_tensor()`` (``rl_environment`` asks for it every step) and
    ``game.observation_tensor_shape()`` / ``_size()`` made a new initial state to learn the tensor's size: each
    counted as a game begun, so the deals of later games depended on how many observations were read. The tensors
    are pyspiel's own, value for value."""
    game = pyspiel.load_game(f"kumiki_{name}", params)
    plain = pyspiel.load_game(f"kumiki_{name}", params)
    state, _ = _played(game, seed=5, plies=2)
    plain.new_initial_state()
    for player in range(game.num_players()):
        assert state.observation_tensor(player) == pyspiel.State.observation_tensor(state, player)
        assert state.information_state_tensor(player) == []
    assert state.observation_tensor() == pyspiel.State.observation_tensor(state)
    assert game.observation_tensor_shape() == pyspiel.Game.observation_tensor_shape(game)
    assert game.observation_tensor_size() == pyspiel.Game.observation_tensor_size(game)
    game.started = plain.started = 1  # pyspiel's own calls above count; the overridden ones below must not
    for player in range(game.num_players()):
        state.observation_tensor(player)
    game.observation_tensor_shape(), game.observation_tensor_size()
    assert game.new_initial_state().kumiki_state.to_json() == plain.new_initial_state().kumiki_state.to_json()
    with pytest.raises(ValueError, match=r"^observation_tensor: player is a seat 0…\d, not 7$"):
        state.observation_tensor(7)


def test_observation_tensors_read_from_several_threads_are_each_states_own() -> None:
    """``state.observation_tensor()`` wrote each state's tensor into one buffer of its game (``game.observer``) and
    then read it back: two threads observing states of one game (a thread pool of ``rl_environment``s) got each
    other's tensors (1,705 of 18,000 calls in six threads on Kozo). Each call now writes a tensor of its own."""

    game = pyspiel.load_game("kumiki_kozo")
    states = [_played(game, seed=seed, plies=plies)[0] for seed, plies in enumerate(range(6))]
    expected = [[pyspiel.State.observation_tensor(s, p) for p in range(game.num_players())] for s in states]
    assert len({str(e) for e in expected}) == len(states)  # six different positions
    wrong = [0]

    def observe(at: int) -> None:
        for k in range(3000):
            if states[at].observation_tensor(k % 2) != expected[at][k % 2]:
                wrong[0] += 1

    race(observe, range(len(states)))
    assert wrong[0] == 0
    copy = states[0].observation_tensor(0)
    copy[0] = 99.0  # a list of its own: changing it changes no later tensor
    assert states[0].observation_tensor(0) == expected[0][0]


def test_a_game_begun_while_a_clone_deals_keeps_a_deal_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """A clone's throwaway initial state took its count of games begun after its deal: a game begun meanwhile (another
    thread's, simulated here by one begun during that deal) raised the count first, the clone took that game's count
    for its own and gave it back, and the next game was dealt that game's deal again."""
    game = pyspiel.load_game("kumiki_towerbrix", {"players": 2, "rounds": 1, "max_edits": 3, "seed": 7})
    state = game.new_initial_state()
    deal = game.kumiki_game.new_state
    meanwhile: list[Any] = []

    def new_state(**options: Any) -> Any:
        made = deal(**options)
        if not meanwhile:
            meanwhile.append(None)
            meanwhile[0] = game.new_initial_state()  # another game begun while the clone's state was dealt
        return made

    monkeypatch.setattr(game.kumiki_game, "new_state", new_state)
    state.clone()
    monkeypatch.undo()
    after = game.new_initial_state()
    assert after.kumiki_state.to_json() != meanwhile[0].kumiki_state.to_json()  # not its deal again


def test_a_game_begun_by_another_thread_while_a_state_is_read_still_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    """deserialize_state put the count of games begun back as it found it, so a game another thread began while
    the text was read was undone, and the next game was dealt that game's deal again."""
    import threading

    from kumiki.interop import openspiel as adapter

    game = pyspiel.load_game("kumiki_towerbrix", {"players": 2})
    state, _ = _played(game, seed=3, plies=4)
    text = state.serialize()
    started = game.started
    deals: list[str] = []
    rebuilt = adapter._Replay.rebuilt

    def rebuilt_while_another_begins(replay: Any, held: Any) -> Any:
        other = threading.Thread(target=lambda: deals.append(game.new_initial_state().kumiki_state.to_json()))
        other.start()
        other.join()
        return rebuilt(replay, held)

    monkeypatch.setattr(adapter._Replay, "rebuilt", rebuilt_while_another_begins)
    restored = game.deserialize_state(text)
    _same_position(restored, state)
    assert len(deals) == 1 and game.started == started + 1
    assert game.new_initial_state().kumiki_state.to_json() != deals[0]  # dealt anew, not the other thread's deal
