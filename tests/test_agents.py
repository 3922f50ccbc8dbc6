"""The agents: reproducible from a seed, greedy on a hand-built position, MCTS on a won position, option checks."""

from __future__ import annotations

import math

import pytest

import kumiki


def after(*moves: str, **options):
    state = kumiki.load_game("kuzushi", **options).new_state(seed=0)
    for move in moves:
        state.play(move)
    return state


def self_play(agent_name: str, seed: int, **options) -> list[str]:
    """A whole game where one agent plays every seat."""
    state = kumiki.load_game("kuzushi", size=4, tiles=8).new_state(seed=seed)
    agent = kumiki.load_agent(agent_name, seed=seed, **options)
    while not state.over:
        state.play(agent.choose(state))
    return [str(m) for m in state.history]


@pytest.mark.parametrize(
    ("agent_name", "options"), [("random", {}), ("greedy", {}), ("mcts", {"iterations": 60})], ids=str
)
@pytest.mark.parametrize("seed", [0, 7])
def test_same_seed_same_moves(agent_name, options, seed):
    first = self_play(agent_name, seed, **options)
    assert first
    assert self_play(agent_name, seed, **options) == first


def test_agent_options_and_defaults():
    defaults = kumiki.load_agent("mcts").options
    assert {k: defaults[k] for k in ("iterations", "seconds", "c", "seed")} == {
        "iterations": 1000,
        "seconds": None,
        "c": 0.7,
        "seed": None,
    }
    assert kumiki.load_agent("mcts", iterations=2000, seed=1).options["iterations"] == 2000
    assert kumiki.load_agent("random").options == {"seed": None}
    assert kumiki.load_agent("greedy", seed=3).options == {"seed": 3}


def test_greedy_takes_the_best_margin():
    state = after("B 1,0", "B 0,1", size=4)
    # 4×4, P1 to move with P0 4 - P1 3. P1's 1,2: east 2,2 flag, west 0,2 a 1-1 tie (P0's flag back), south 1,1
    # P1 2 (1,0 1,2) vs P0 1 -> P1 flag: 6 - 3 = +3. Every other move gives at most +2 (e.g. 1,1: 6 - 4).
    for seed in range(5):
        before = state.to_json()
        assert str(kumiki.load_agent("greedy", seed=seed).choose(state)) == "B 1,2"
        assert state.to_json() == before


def test_greedy_breaks_ties_among_the_best_only():
    state = after("B 1,0")
    # P0 to move, 1 - 4. 0,1 / 0,-1 / -1,0 reach +1 (e.g. -1,0: base + 3 flags, 5 - 4); 2,1 2,-1 3,0 1,2 1,-2
    # reach +2 (e.g. 3,0: base + 3 flags, and 2,0 a 1-1 tie: 5 - 3)
    best = {"B 2,1", "B 2,-1", "B 3,0", "B 1,2", "B 1,-2"}
    chosen = {str(kumiki.load_agent("greedy", seed=seed).choose(state)) for seed in range(30)}
    assert chosen <= best
    assert len(chosen) > 1


def test_greedy_takes_an_immediate_win():
    state = after("B -1,0", "B 0,1", "B -2,1", "B -2,-1", size=3)
    # see test_mcts_finds_the_winning_move: both filling moves win, the flips lose
    assert str(kumiki.load_agent("greedy", seed=0).choose(state)) in {"B -1,-1", "B 0,-1"}


@pytest.mark.parametrize("seed", range(3))
def test_greedy_takes_no_draw_for_a_win(seed: int):
    # a one-round Kozo: knocking the tower over at the first move ends it 0-0, a draw (both seats win); greedy took
    # it as an outright win rather than play a piece and lead
    state = kumiki.load_game("kozo", players=2, rounds=1).new_state(seed=seed)
    state.play(kumiki.load_agent("greedy", seed=seed).choose(state))
    assert not state.over
    assert state.scores()[0] > 0


@pytest.mark.parametrize("rounds", [1, 3])
def test_greedy_plays_for_points_alone(rounds: int):
    # a solo Kozo has no other side: ending the game at once (a fall, no point) was taken for a win
    state = kumiki.load_game("kozo", players=1, rounds=rounds).new_state(seed=0)
    agent = kumiki.load_agent("greedy", seed=0)
    state.play(agent.choose(state))
    assert not state.over
    assert state.scores() == [max(state.game.size.values())]  # the largest piece that stands: U5


@pytest.mark.parametrize("seed", range(5))
def test_mcts_finds_the_winning_move(seed):
    state = after("B -1,0", "B 0,1", "B -2,1", "B -2,-1", size=3)
    # traced by hand on the 3×3 grid: P1 (4 tiles) to move against P0 (3), two cells empty: -1,-1 and 0,-1.
    # B -1,-1 or B 0,-1 fills the grid with a P1 flag on the other cell: 6 - 3, P1 wins. F -2,0 or F -1,1 adds
    # nothing, and P0 then fills the grid with a base and a flag: 5 - 4, P0 wins.
    assert [str(m) for m in state.legal_moves()] == ["B -1,-1", "B 0,-1", "F -2,0", "F -1,1"]
    before = state.to_json()
    move = kumiki.load_agent("mcts", iterations=300, seed=seed).choose(state)
    assert str(move) in {"B -1,-1", "B 0,-1"}
    assert state.to_json() == before


def test_mcts_with_a_single_legal_move():
    state = after("B 1,0", "B 0,1", size=2)
    assert [str(m) for m in state.legal_moves()] == ["B 1,1"]
    assert str(kumiki.load_agent("mcts", iterations=5, seed=0).choose(state)) == "B 1,1"


def test_mcts_with_a_time_budget():
    state = after("B 1,0")
    move = kumiki.load_agent("mcts", seconds=0.05, seed=0).choose(state)
    assert move in state.legal_moves()


@pytest.mark.parametrize(
    ("agent_name", "options", "named"),
    [
        ("random", {"seed": 1.5}, "seed"),
        ("random", {"seed": "7"}, "seed"),
        ("random", {"iterations": 5}, "iterations"),
        ("greedy", {"seed": True}, "seed"),
        ("greedy", {"depth": 2}, "depth"),
        ("mcts", {"iterations": 0}, "iterations"),
        ("mcts", {"iterations": -5}, "iterations"),
        ("mcts", {"iterations": 2.5}, "iterations"),
        ("mcts", {"iterations": "300"}, "iterations"),
        ("mcts", {"seconds": 0}, "seconds"),
        ("mcts", {"seconds": -1.0}, "seconds"),
        ("mcts", {"seconds": "1"}, "seconds"),
        ("mcts", {"c": -0.5}, "c"),
        ("mcts", {"c": "1"}, "c"),
        ("mcts", {"seed": 1.0}, "seed"),
        ("mcts", {"iteration": 300}, "iteration"),
    ],
)
def test_option_validation_names_the_option(agent_name, options, named):
    with pytest.raises(ValueError) as caught:
        kumiki.load_agent(agent_name, **options)
    assert f"'{named}'" in str(caught.value)


def test_unknown_agent():
    with pytest.raises(ValueError) as caught:
        kumiki.load_agent("minimax")
    message = str(caught.value)
    assert "minimax" in message
    for name in ("greedy", "mcts", "random"):
        assert name in message
    assert "agent_from_spec" not in message  # no spec in "minimax": no hint


def test_a_spec_given_as_a_name_says_how_to_write_it():
    with pytest.raises(ValueError) as caught:
        kumiki.load_agent("mcts:iterations=5")
    message = str(caught.value)
    assert "\n" not in message
    assert "agent_from_spec('mcts:iterations=5')" in message
    assert "load_agent('mcts', iterations=5)" in message
    # the hint is right: both ways make the agent
    assert isinstance(kumiki.agents.agent_from_spec("mcts:iterations=5"), kumiki.agents.Agent)
    assert kumiki.load_agent("mcts", iterations=5).options["iterations"] == 5
    with pytest.raises(ValueError) as unknown:
        kumiki.load_agent("minimax:depth=3")  # a spec of no known agent: no hint to follow
    assert "agent_from_spec" not in str(unknown.value)


def test_the_margin_reward_of_a_huge_lead_is_no_overflow() -> None:
    """A side trailing by thousands of points (a Kozo pool of huge pieces) made math.exp overflow in the playouts."""
    from kumiki.agents.mcts import margin_reward

    class Ended:
        def __init__(self, returns: list[float], margins: list[float]) -> None:
            self.returns = lambda: returns
            self.margins = lambda: margins

    assert margin_reward(Ended([1.0, 0.0], [5000.0, -5000.0])) == [1.0, 0.0]  # type: ignore[arg-type]
    assert margin_reward(Ended([0.5, 0.5], [0.0, 0.0])) == [0.5, 0.5]  # type: ignore[arg-type]
    low, high = margin_reward(Ended([0.0, 1.0], [-4.0, 4.0]))  # type: ignore[arg-type]
    assert low == pytest.approx(0.5 / (1 + math.e)) and high == pytest.approx(0.5 + 0.5 / (1 + math.exp(-1)))


@pytest.mark.parametrize("name", ["random", "greedy", "mcts", "kuzushi", "kozo-greedy", "towerbrix-teammate"])
def test_choose_refuses_what_is_not_a_position_in_one_line(name):
    game = kumiki.load_game("kuzushi")
    for wrong in (game, "B 0,0", None, game.new_state(seed=1).to_json()):
        with pytest.raises(TypeError, match=r"^agent .*: choose\(\) takes a position .*, not \w+$"):
            kumiki.load_agent(name).choose(wrong)


@pytest.mark.parametrize("cap", [0.001, 0.05])
def test_mcts_max_seconds_caps_a_search_by_iterations(cap):
    # The web app's Kozo hard level: 250 iterations, but never much over its cap where a position is slow.
    state = after()
    agent = kumiki.load_agent("mcts", iterations=10**9, max_seconds=cap, seed=1)
    move = agent.choose(state)
    assert move in state.legal_moves() and 1 <= agent.last_iterations < 10**9
    uncapped = kumiki.load_agent("mcts", iterations=30, max_seconds=60.0, seed=1)
    plain = kumiki.load_agent("mcts", iterations=30, seed=1)
    assert uncapped.choose(state) == plain.choose(state) and uncapped.last_iterations == 30


def test_mcts_by_seconds_searches_once_when_the_root_alone_takes_the_time(monkeypatch):
    """With ``seconds`` and a clock past the deadline before the first playout (the root's expansion on a slow or
    busy machine: Blokus 3D's 569 moves at the minimum 0.001 s), no playout ran and choose raised ValueError "max()
    arg is an empty sequence"; it now searches once at least, as ``max_seconds`` does."""
    import itertools
    import types

    import kumiki.agents.mcts as mcts

    ticks = itertools.count()  # every reading of the clock is a second later than the one before
    monkeypatch.setattr(mcts, "time", types.SimpleNamespace(perf_counter=lambda: float(next(ticks))))
    state = kumiki.load_game("kuzushi").new_state(seed=1)
    agent = kumiki.load_agent("mcts", seconds=0.001, seed=1)
    assert agent.choose(state) in state.legal_moves()
    assert agent.last_iterations == 1
