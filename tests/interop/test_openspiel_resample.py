"""OpenSpiel's ``resample_from_infostate`` on Kumiki's games, and OpenSpiel's IS-MCTS bot, which needs it."""

from __future__ import annotations

import collections
import json
from typing import Any

import numpy as np
import pytest

import kumiki

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from kumiki.games.towerbrix.resample import piles_before_deal  # noqa: E402
from kumiki.interop import openspiel as kumiki_openspiel  # noqa: E402

kumiki_openspiel.register()


def _sampler(seed: int) -> Any:
    return pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)


def _points(kstate: Any, cards: list[str]) -> list[int]:
    return [kstate.game.cards[card].points for card in cards]


def _check_sample(state: Any, sample: Any, player: int) -> None:
    """``sample`` is a state ``player`` cannot tell from ``state``, and a possible one."""
    assert sample.information_state_string(player) == state.information_state_string(player)
    assert sample.observation_string(player) == state.observation_string(player)
    assert np.array_equal(sample.observation_tensor(player), state.observation_tensor(player))
    assert sample.current_player() == state.current_player()
    assert sample.legal_actions(player) == state.legal_actions(player)
    if player != state.kumiki_state.game.blind:  # the mover's placements follow the tower the blind seat did not see
        assert sample.legal_actions() == state.legal_actions()
    true, new = state.kumiki_state, sample.kumiki_state
    encoding = true.game.encoding
    assert sample.history() == [encoding.encode(move) for move in new.history]  # OpenSpiel's history is the sample's
    if player == true.game.blind:  # the blind seat saw the edits as "edit": the sample's may be others
        assert new.seen_history(player) == true.seen_history(player) and new.edits == true.edits
    else:
        assert sample.history() == state.history() and new.bricks == true.bricks
    assert new.hands[player] == true.hands[player]
    assert [len(h) for h in new.hands] == [len(h) for h in true.hands]
    assert new.total == true.total and new.evaluations == true.evaluations
    if true.game.mode != "intro":  # the total drawn says how many 2- and 3-point cards were dealt
        assert sum(_points(new, new.dealt())) == true.total
    # every card is somewhere, once: hands, stacks and discards hold the cards in play, the same per pile
    for points in (2, 3):
        assert {k: len(v) for k, v in new.stacks.items()} == {k: len(v) for k, v in true.stacks.items()}
        assert sorted(new.discards[points]) == sorted(true.discards[points])
        hidden_true = [c for seat, h in enumerate(true.hands) if seat != player for c in h] + true.stacks[points]
        hidden_new = [c for seat, h in enumerate(new.hands) if seat != player for c in h] + new.stacks[points]
        assert sorted(c for c in hidden_new if new.game.cards[c].points == points) == sorted(
            c for c in hidden_true if true.game.cards[c].points == points
        )
    everything = [*new.dealt(), *new.stacks[2], *new.stacks[3], *new.discards[2], *new.discards[3]]
    assert len(everything) == len(set(everything))
    mine = set(true.hands[player])
    assert not any(card in mine for seat, hand in enumerate(new.hands) if seat != player for card in hand)


RANDOM_CASES: list[dict[str, Any]] = [
    {"players": 2, "rounds": 6, "attempts": 2, "max_edits": 1},
    {"players": 3, "rounds": 8, "attempts": 2, "max_edits": 1},  # reshuffles: the stacks run out
    {"players": 4, "rounds": 3, "max_edits": 2, "difficulty": "hard"},
    {"players": 3, "mode": "intro", "rounds": 4, "max_edits": 1},
    {"players": 2, "deck": "pink", "rounds": 3, "max_edits": 2},
    {"players": 3, "mode": "challenge", "challenge": 10, "rounds": 2, "max_edits": 2},  # the blind seat
    {"players": 2, "mode": "challenge", "challenge": 9, "waive": "vote", "rounds": 2, "max_edits": 2},
]


@pytest.mark.parametrize("params", RANDOM_CASES)
def test_a_resampled_state_is_one_the_seat_cannot_tell_apart(params: dict[str, Any]) -> None:
    rng = np.random.default_rng(len(json.dumps(params)))
    varied = checked = 0
    reshuffled = False
    for game_seed in range(3):
        game = pyspiel.load_game("kumiki_towerbrix", {**params, "seed": game_seed})
        state = game.new_initial_state()
        players = game.num_players()
        while not state.is_terminal():
            if rng.random() < 0.5:
                for player in range(players):
                    others = set()
                    for k in range(4):
                        sample = state.resample_from_infostate(player, _sampler(1000 * game_seed + k))
                        _check_sample(state, sample, player)
                        others.add(tuple(map(tuple, sample.kumiki_state.hands)))
                    checked += 1
                    varied += len(others) > 1
                kstate = state.kumiki_state
                piles = piles_before_deal(kstate)
                dealt = _points(kstate, kstate.dealt())
                reshuffled |= any(dealt.count(p) > len(piles[p][0]) for p in (2, 3))  # a deal that ran a stack out
            legal = state.legal_actions()
            ok = kumiki.interop.encode(game.kumiki_game, "ok")
            action = ok if rng.random() < 0.6 else int(rng.choice(legal))
            state.apply_action(action)
        assert state.resample_from_infostate(0, _sampler(0)).is_terminal()
    assert checked > 10 and varied >= 0.9 * checked, (checked, varied)
    if params.get("rounds", 1) >= 8:
        assert reshuffled


def test_the_blind_seat_samples_towers_it_did_not_see() -> None:
    """Challenge 10: the blind seat knows that bricks were placed, not which or where; its samples place others (each
    a build its seats could have made), the seeing seats' samples keep the tower."""
    game = pyspiel.load_game("kumiki_towerbrix", {"mode": "challenge", "challenge": 10, "players": 3, "seed": 1})
    blind = game.kumiki_game.blind
    state = game.new_initial_state()
    for move in ("Y1 z 0,0", "R1 z 0,1"):
        state.apply_action(kumiki.interop.encode(game.kumiki_game, move))
    towers = set()
    for k in range(6):
        sample = state.resample_from_infostate(blind, _sampler(k))
        _check_sample(state, sample, blind)
        assert sample.kumiki_state.verdict() is not None and len(sample.kumiki_state.bricks) == 2
        towers.add(tuple(sorted(sample.kumiki_state.bricks.items())))
        sample.apply_action(sample.legal_actions()[0])  # it plays on
    assert len(towers) > 1
    for seat in (0, 1):
        assert state.resample_from_infostate(seat, _sampler(0)).kumiki_state.bricks == state.kumiki_state.bricks


def test_a_seeded_sampler_gives_the_same_sample_and_the_sample_plays_on() -> None:
    game = pyspiel.load_game("kumiki_towerbrix", {"players": 3, "seed": 2, "max_edits": 2, "rounds": 2})
    state = game.new_initial_state()
    first = state.resample_from_infostate(1, _sampler(5))
    again = state.resample_from_infostate(1, _sampler(5))
    other = state.resample_from_infostate(1, _sampler(6))
    assert first.kumiki_state.hands == again.kumiki_state.hands != other.kumiki_state.hands
    assert first.kumiki_state.stacks == again.kumiki_state.stacks
    before = state.kumiki_state.copy()
    while not first.is_terminal():  # the draws to come are the sample's own, and it plays to its end
        first.apply_action(kumiki.interop.encode(game.kumiki_game, "ok"))
    assert state.kumiki_state.hands == before.hands and state.kumiki_state.stacks == before.stacks
    assert state.kumiki_state.rng.getstate() == before.rng.getstate()


def test_the_information_state_hides_the_other_hands() -> None:
    game = pyspiel.load_game("kumiki_towerbrix", {"players": 3, "seed": 9})
    state = game.new_initial_state()
    hands = state.kumiki_state.hands
    for player in range(3):
        text = state.information_state_string(player)
        others = {card for seat, hand in enumerate(hands) if seat != player for card in hand}
        assert not any(f'"{card}"' in text for card in others)
        samples = [state.resample_from_infostate(player, _sampler(k)) for k in range(5)]
        assert len({str(s.kumiki_state.hands) for s in samples}) > 1
        assert {s.information_state_string(player) for s in samples} == {text}


def test_the_other_seats_card_is_uniform_when_every_deal_is_as_likely() -> None:
    """Intro variant, two seats: the other seat's one card is any 2-point card but the seat's own, each as likely."""
    stats = pytest.importorskip("scipy.stats")
    game = pyspiel.load_game("kumiki_towerbrix", {"players": 2, "mode": "intro", "seed": 3})
    state = game.new_initial_state()
    mine = state.kumiki_state.hands[0]
    assert len(mine) == 1
    pool = sorted(c.id for c in game.kumiki_game.deck if c.points == 2 and c.id not in mine)
    sampler = _sampler(11)
    counts = collections.Counter(
        state.resample_from_infostate(0, sampler).kumiki_state.hands[1][0] for _ in range(60 * len(pool))
    )
    assert set(counts) == set(pool)
    assert stats.chisquare([counts[c] for c in pool]).pvalue > 1e-3


def test_the_values_on_the_cards_backs_stay_and_each_card_of_a_value_is_as_likely() -> None:
    """Base game, three seats: every seat sees the points on the back of every card (the rulebook's backs), so a
    sample keeps each seat's values in hand order; which card of that value another seat holds is uniform over the
    cards of that value seat 0 cannot see (a chi-square test)."""
    stats = pytest.importorskip("scipy.stats")
    game = pyspiel.load_game("kumiki_towerbrix", {"players": 3, "seed": 5})
    state = game.new_initial_state()
    kstate = state.kumiki_state
    values = [_points(kstate, hand) for hand in kstate.hands]
    assert len(set(map(tuple, values))) > 1 or len(set(values[1])) > 1  # a deal with both values in it
    assert kstate.view(0)["hand_points"] == values == kstate.view(2)["hand_points"]
    first = values[1][0]
    mine = set(kstate.hands[0])
    pool = sorted(c.id for c in game.kumiki_game.deck if c.points == first and c.id not in mine)
    sampler = _sampler(7)
    counts: collections.Counter[str] = collections.Counter()
    for _ in range(40 * len(pool)):
        sample = state.resample_from_infostate(0, sampler).kumiki_state
        assert [_points(sample, hand) for hand in sample.hands] == values
        counts[sample.hands[1][0]] += 1
    assert set(counts) == set(pool)
    assert stats.chisquare([counts[c] for c in pool]).pvalue > 1e-3


@pytest.mark.parametrize(
    "params",
    [
        {"players": 2, "rounds": 2, "attempts": 2, "max_edits": 2},
        {"players": 3, "rounds": 2, "attempts": 2, "max_edits": 2},
        {"players": 3, "mode": "challenge", "challenge": 10, "rounds": 1, "attempts": 2, "max_edits": 3},
    ],
)
def test_openspiels_ismcts_bot_plays_a_whole_towerbrix_game(params: dict[str, Any]) -> None:
    game = pyspiel.load_game("kumiki_towerbrix", {**params, "seed": 3})
    players = game.num_players()
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 8, random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bot.step(state))
    assert state.kumiki_state.over and len(state.returns()) == players


def test_a_perfect_information_game_resamples_to_a_clone_and_ismcts_searches_it() -> None:
    """Nothing is hidden in Kuzushi: the sample is a clone (its own copy). OpenSpiel's ISMCTSBot asserts that a game
    has imperfect information before it searches, so its search is run here step by step as ``run_search`` does."""
    game = pyspiel.load_game("kumiki_kuzushi", {"size": 4})
    rng = np.random.RandomState(1)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 20, random_state=rng)
    with pytest.raises(AssertionError):
        bot.step(game.new_initial_state())
    state = game.new_initial_state()
    while not state.is_terminal():
        sample = state.resample_from_infostate(state.current_player(), _sampler(0))
        assert str(sample) == str(state) and sample.history() == state.history()
        assert sample.kumiki_state is not state.kumiki_state
        bot.reset()
        bot._root_node = root = bot.create_new_node(state)
        for _ in range(20):
            world = bot.sample_root_state(state)
            assert bot.get_state_key(world) == bot.get_state_key(state)
            bot.run_simulation(world)
        policy = bot.get_final_policy(state, root)
        assert {action for action, _ in policy} == set(state.legal_actions())
        state.apply_action(max(policy, key=lambda pair: pair[1])[0])
    assert state.kumiki_state.over and len(state.history()) > 5


@pytest.mark.parametrize("player", [-1, 2, True, 1.0])
def test_a_player_that_is_no_seat_is_refused(player: Any) -> None:
    game = pyspiel.load_game("kumiki_towerbrix", {"players": 2})
    state = game.new_initial_state()
    with pytest.raises((ValueError, TypeError)):
        state.resample_from_infostate(player, _sampler(0))
