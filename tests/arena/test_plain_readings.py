"""The report's readings for a designer who is no statistician: every section opens with a sentence that says what
its figures mean (who is stronger, whether a seat has an edge, whether the variants differ, how sure that is and
what to do next), and no interval reaches past what the game's rules allow."""

from __future__ import annotations

import html
import json
import math
import sys
from pathlib import Path
from typing import Any

import pytest
from tests.helpers import CliRunner

from kumiki import arena
from kumiki.arena import intervals, report, stats, verdict
from kumiki.core.registry import load_game

TEAM_STUDY = """
name = "team"
game = "towerbrix"
format = "self-play"
games = 3
seed = 2026

[options]
players = 4
mode = "base"
deck = "green"
difficulty = "medium"
rounds = 1
attempts = 1

[agents]
teammate = "towerbrix-teammate:iterations=200"
"""

TEAM_OPTIONS = {"players": 4, "mode": "base", "deck": "green", "difficulty": "medium", "rounds": 1, "attempts": 1}


def team_game(index: int, seed: int, score: float, moves: int) -> dict[str, Any]:
    """One game of TEAM_STUDY as `kumiki arena run` wrote it (2026-11-28): won (score > 0) or lost (0 points)."""
    won = float(score > 0)
    return {
        "index": index,
        "block": index,
        "options": TEAM_OPTIONS,
        "seats": ["teammate"] * 4,
        "seed": seed,
        "scores": [score] * 4,
        "winners": [0, 1, 2, 3],
        "ranks": [1, 1, 1, 1],
        "teams": [0, 0, 0, 0],
        "moves": moves,
        "measures": {"success": won, "rounds_won": won, "rounds": 1.0},
        "forfeit": None,
        "think_s": [0.0] * 4,
    }


def test_a_mean_of_a_count_stays_within_what_the_rules_allow(tmp_path: Path, run: CliRunner) -> None:
    """Three TowerBrix games of one round, two won (16 and 19 points) and one lost (0 points): the t interval of the
    rounds won read 0.67 [0.00, 2.10] — two rounds won in a game of one — and the team's score 11.7 [-13.7, 37.0],
    below the 0 no game can score under. Both are cut where the rules end."""
    (tmp_path / "study.toml").write_text(TEAM_STUDY)
    games = [team_game(0, 580060173, 16.0, 34), team_game(1, 108373515, 0.0, 138), team_game(2, 1000890113, 19.0, 76)]
    (tmp_path / "games.jsonl").write_text("".join(json.dumps(g) + "\n" for g in games))
    code, _, err = run("arena", "report", tmp_path)
    assert code == 0, err
    entry = json.loads((tmp_path / "summary.json").read_text())["option_sets"][0]
    rounds_won = entry["measures"]["rounds_won"]
    assert rounds_won["value"] == 0.6667 and rounds_won["low"] == 0.0 and rounds_won["high"] == 1.0
    for score in [*entry["seat_scores"], entry["teams"]["teammate + teammate + teammate + teammate"]["score"]]:
        assert score["value"] == 11.6667 and score["low"] == 0.0 and 37.0 < score["high"] < 37.1  # the top is free
    page = (tmp_path / "report.html").read_text()
    assert "rounds won (mean)</td><td class='n'>0.67 [0.00, 1.00]" in page and "-13.7" not in page
    assert "cut at the smallest and largest value the game allows" in page  # said where the intervals are named


def test_each_game_names_the_range_of_its_counts() -> None:
    kuzushi = load_game("kuzushi", players=3, size=5).measure_limits()
    tiles = float(load_game("kuzushi", players=3, size=5).options["tiles"])
    assert kuzushi["tiles_left_seat_2"] == (0.0, tiles) and kuzushi["score"] == (0.0, tiles + 1)
    blokus = load_game("blokus3d", players=2).measure_limits()
    assert blokus["pieces_left_seat_1"][0] == 0.0 and blokus["pieces_left_seat_1"][1] >= 1 and "score" not in blokus
    assert load_game("towerbrix", rounds=3).measure_limits()["rounds_won"] == (0.0, 3.0)
    kozo = load_game("kozo", players=2, rounds=3).measure_limits()  # a fall ends its round: at most one a round
    assert kozo["falls"] == kozo["falls_seat_1"] == (0.0, 3.0) and "score" not in kozo  # a fall costs points
    assert load_game("kuzushi", size=6).measure_limits()["length"] == (0.0, 35.0)  # the cells but the CITY's


@pytest.mark.parametrize(
    "name,options", [("kuzushi", {"size": 4, "players": 3}), ("blokus3d", {"players": 2}), ("kozo", {"rounds": 2})]
)
def test_the_games_played_stay_within_their_limits(name: str, options: dict[str, Any]) -> None:
    """Random and greedy games never reach past the bounds their rules declare (else an interval cut there would
    hide real games)."""
    import kumiki

    game = load_game(name, **options)
    limits = game.measure_limits()
    for seed in range(3):
        state = game.new_state(seed=seed)
        agent = kumiki.load_agent("random" if seed else "greedy", seed=seed)
        while not state.over:
            state.play(agent.choose(state))
        figures = [*state.measures().items(), ("length", float(len(state.history)))]
        figures += [("score", score) for score in state.scores()]
        for figure, value in figures:
            low, high = limits.get(figure, (-math.inf, math.inf))
            assert low <= value <= high, (figure, value, limits.get(figure))


def test_a_game_length_stays_within_the_longest_game_the_rules_allow(tmp_path: Path, run: CliRunner) -> None:
    """Two Kuzushi games on a 6×6 grid, of 10 and 35 moves (35 is the most: every move makes one of the 35 cells
    around the CITY solid): the t interval read 22.5 [0.0, 92.4] in the table and at a glance; it now ends at 35."""
    (tmp_path / "study.toml").write_text(
        'name = "len"\ngame = "kuzushi"\nformat = "self-play"\ngames = 1\nseed = 1\n\n'
        '[options]\nsize = 6\n\n[agents]\ngreedy = "greedy"\n'
    )
    rows = [
        {
            "index": i,
            "block": i,
            "options": {"size": 6},
            "seats": ["greedy", "greedy"],
            "seed": 1,
            "scores": [1.0, 2.0],
            "winners": [1],
            "ranks": [2, 1],
            "teams": [0, 1],
            "moves": moves,
            "measures": {},
            "forfeit": None,
            "think_s": [0.0, 0.0],
        }
        for i, moves in enumerate((10, 35))
    ]
    (tmp_path / "games.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    code, _, err = run("arena", "report", tmp_path)
    assert code == 0, err
    length = json.loads((tmp_path / "summary.json").read_text())["option_sets"][0]["length"]
    assert length["value"] == 22.5 and length["low"] == 0.0 and length["high"] == 35.0
    page = (tmp_path / "report.html").read_text()
    assert page.count("22.5 [0.0, 35.0]") == 2 and "92.4" not in page  # the option set's table and at a glance


def test_a_count_near_its_largest_value_is_cut_there_and_elsewhere_untouched() -> None:
    """Tiles left of 10, 10, 9 (the most is 10): t gives 9.67 [8.23, 11.10]; the interval now ends at 10."""
    rows = [{"measures": {"tiles_left_seat_0": v}} for v in (10.0, 10.0, 9.0)]
    plain = stats.measure_means(rows)["tiles_left_seat_0"]
    assert plain.high > 11  # what a bare t interval says, and what the report said
    cut = stats.measure_means(rows, limits={"tiles_left_seat_0": (0.0, 10.0)})["tiles_left_seat_0"]
    assert cut.high == 10.0 and cut.low == plain.low and cut.value == plain.value
    free = intervals.mean_interval([10.0, 11.0, 12.0], lower=0.0, upper=100.0)
    assert free == intervals.mean_interval([10.0, 11.0, 12.0])  # a bound the interval does not reach changes nothing
    assert math.isnan(intervals.mean_interval([2.0, 2.0], upper=2.0).high)  # no spread: still no interval


def rating(agent: str, value: float, low: float | None, high: float | None) -> dict[str, Any]:
    return {"agent": agent, "rating": value, "low": low, "high": high, "games": 20}


def test_the_ratings_say_who_is_stronger_and_whether_the_games_can_tell() -> None:
    table = [rating("b", 10.0, -80.0, 90.0), rating("a", 200.0, 120.0, 300.0), rating("c", -210.0, -300.0, -150.0)]
    clear = verdict.ratings(table, {("a", "b"): intervals.wilson(17, 20)})
    assert clear.startswith("Strongest first: a, b, c. a is rated highest (+200 [+120, +300]; b: +10 [-80, +90])")
    assert "is stronger than b" in clear and "85% [64, 95]" in clear and "more games" not in clear
    unclear = verdict.ratings(table, {("a", "b"): intervals.wilson(12, 20)})
    assert "cannot yet tell it from b" in unclear and "60% [39, 78]" in unclear and "Play more games" in unclear
    # a gauntlet's others never meet: their rating intervals decide
    assert "lies wholly above b's" in verdict.ratings(table, {})
    overlapping = [rating("a", 50.0, -40.0, 140.0), rating("b", -50.0, -140.0, 40.0)]
    assert "cannot yet tell it from b" in verdict.ratings(overlapping, {})


def test_the_seats_edge_skill_held_apart_is_said_in_words() -> None:
    edge = [
        {"players": 2, "seat": 0, "elo": 64.0, "low": 15.0, "high": 270.0},
        {"players": 2, "seat": 1, "elo": -64.0, "low": -270.0, "high": -15.0},
    ]
    said = verdict.seat_advantage(edge, 0)
    assert said.startswith("With the agents' skill held apart, seat 0 (moves first) is +64 Elo [+15, +270] above")
    assert "about 59% expected score" in said and "unlikely to be chance alone" in said
    none = [{**e, "low": e["low"] - 100, "high": e["high"] + 100} for e in edge]
    assert "no seat's edge is clear" in verdict.seat_advantage(none, 0) and "370 Elo" in verdict.seat_advantage(none, 0)


def test_a_ladder_step_and_the_variants_are_read_in_words() -> None:
    assert verdict.ladder_step("mcts", "greedy", intervals.wilson(9, 10)) == "mcts is stronger than greedy"
    assert verdict.ladder_step("mcts", "greedy", intervals.wilson(1, 10)) == "mcts is weaker than greedy"
    assert "play more games" in verdict.ladder_step("mcts", "greedy", intervals.wilson(3, 10))
    row = {
        "option": "players",
        "a": "players=2, size=5",
        "b": "players=3, size=5",
        "figure": "game length",
        "unit": "moves",
        "a_value": 19.5,
        "b_value": 17.1,
        "difference": -2.4,
        "low": -4.0,
        "high": -0.8,
        "p": 0.0043,
        "reading": "lower in B",
    }
    flat = {**row, "low": -3.0, "high": 0.5, "p": 0.2, "reading": "no evidence of a difference"}
    assert verdict.comparisons([row, flat]) == (
        "1 of 2 comparisons shows a difference unlikely to be chance alone: the game length is lower with players=3 "
        "than with players=2 (at size=5): 19.5 → 17.1 moves, -2.4 [-4.0, -0.8], p = 0.0043. The others show no "
        "evidence of a difference. With 2 comparisons, about one in twenty is marked real by chance alone where the "
        "variants do not differ."
    )
    assert verdict.comparisons([flat]).startswith("No comparison shows a difference between the variants (1 in all)")


def test_the_sprt_decision_is_said_in_plain_words() -> None:
    state = {"decision": "H1", "pairs": 9}
    h1 = verdict.sprt(state, "greedy", "random", 0, 50, 0.05, 0.05)
    assert "In plain words: greedy is stronger than random, by an edge nearer 50 than 0 Elo" in h1
    assert "decides for H1 when H0 is true at most 5% of the time" in h1 and "false H1" not in h1
    h0 = verdict.sprt({**state, "decision": "H0"}, "new", "old", 0, 10, 0.05, 0.1)
    assert "In plain words: new is not shown to be 10 Elo stronger than old" in h0 and "at most 10%" in h0


def test_a_round_robin_report_opens_each_section_with_its_reading(tmp_path: Path, run: CliRunner) -> None:
    study = arena.Study(
        name="plain",
        game="kuzushi",
        format="ladder",
        agents={"random": "random", "random2": "random", "greedy": "greedy"},
        games=6,
        seed=7,
        options={"players": 2, "size": 5},
    )
    arena.run(study, tmp_path, backend="serial")
    code, _, err = run("arena", "report", tmp_path)
    assert code == 0, err
    summary = json.loads((tmp_path / "summary.json").read_text())
    page = (tmp_path / "report.html").read_text()
    assert summary["ratings_reading"].startswith("Strongest first: greedy, ")
    assert summary["seat_advantage_reading"].startswith("With the agents' skill held apart")
    for key in ("ratings_reading", "seat_advantage_reading"):
        assert f"<p class='verdict'>{html.escape(summary[key])}</p>" in page
    step = summary["ladder"][1]
    assert step["agent"] == "greedy" and step["reading"] == verdict.ladder_step(
        "greedy", "random2", intervals.Rate(step["successes"], step["trials"], step["value"], step["low"], step["high"])
    )
    assert f"<td>{html.escape(step['reading'])}</td>" in page
    assert summary["comparisons_reading"] == ""  # one option set: nothing to compare, and no section
    # 12 seed blocks (two line-ups of 6): enough, so no caveat of few blocks
    assert "seed block(s): so few" not in page and "none at all" not in page
    # every plot says what its axes are
    for label in (">seat<", ">share of wins<", ">agent<", ">agent (row)<", ">against<", ">games<"):
        assert label in page, label


def test_the_few_blocks_caveat_does_not_speak_of_one_block_when_there_are_several() -> None:
    from kumiki.arena.report import _few_blocks_note

    rows = [{"block": b, "seed": b, "options": {}} for b in range(3)]
    (note,) = _few_blocks_note(rows, False, "These intervals")
    assert "a bootstrap over 3 seed block(s)" in note and "the intervals mean little." in note
    assert "one block" not in note


def test_why_there_are_no_ratings_is_said_without_the_arena_extra(
    tmp_path: Path, run: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A study of one agent, or of a co-operative game, has nothing to rate: the line saying so needs no bootstrap.
    It ran the bootstrap first, so without scipy `ratings` failed with "need the 'arena' extra" instead."""
    lone = arena.Study(name="lone", game="kuzushi", format="self-play", agents={"g": "greedy"}, games=2, seed=1)
    arena.run(lone, tmp_path / "lone", backend="serial")
    (tmp_path / "team").mkdir()
    (tmp_path / "team" / "study.toml").write_text(TEAM_STUDY)
    games = [team_game(0, 580060173, 16.0, 34), team_game(1, 108373515, 0.0, 138), team_game(2, 1000890113, 19.0, 76)]
    (tmp_path / "team" / "games.jsonl").write_text("".join(json.dumps(g) + "\n" for g in games))
    monkeypatch.setitem(sys.modules, "scipy", None)  # as if not installed
    for folder, why in (
        ("lone", "one agent: no ratings (the report gives the seats' shares)"),
        ("team", "no games between sides to rate (a co-operative study reports success rates instead)"),
    ):
        code, out, err = run("arena", "ratings", tmp_path / folder)
        assert (code, out, err) == (0, f"{why}\n", "")
        code, out, err = run("arena", "ratings", tmp_path / folder, "--json")
        assert code == 0 and json.loads(out) == [] and err == f"note: {why}\n"


def test_an_edge_from_few_seed_blocks_is_said_to_rest_on_too_few() -> None:
    """A gauntlet of 8 seed blocks: the per-option-set test found no evidence of an edge (p = 0.32), the model's
    seat 0 "+64 [+15, +270]": the sentence of the second may not read as a finding without its caveat."""
    edge = [
        {"players": 2, "seat": 0, "elo": 64.0, "low": 15.0, "high": 270.0},
        {"players": 2, "seat": 1, "elo": -64.0, "low": -270.0, "high": -15.0},
    ]
    said = verdict.seat_advantage(edge, 0, {2: 8}, "seed blocks")
    assert said.endswith(
        "unlikely to be chance alone, but from only 8 seed blocks: too few for these intervals to mean much (see "
        "below); play more games before acting on it."
    )
    assert "but from only" not in verdict.seat_advantage(edge, 0, {2: stats.FEW_BLOCKS}, "seed blocks")


def test_a_study_of_one_game_reads_one_game_not_one_games() -> None:
    from kumiki.arena import intervals as arena_intervals
    from kumiki.arena import verdict as arena_verdict

    rates = [arena_intervals.wilson(0.0, 1.0), arena_intervals.wilson(1.0, 1.0)]
    _, sentence = arena_verdict.fairness(rates, 1.0, "exact multinomial", 1, 0, 1, 1)
    assert "(p = 1, exact multinomial, 1 game)." in sentence
    _, sentence = arena_verdict.fairness(rates, 1.0, "exact multinomial", 2, 0, 1, 1)
    assert "2 games)." in sentence
    _, sentence = arena_verdict.fairness(rates, 1.0, "exact multinomial", 1, 1, 1, 1, shared=1)
    assert "All 1 game ended in a shared win" in sentence and "1 of 1 game ended by a forfeit" in sentence
    assert (arena_verdict.games_text(1), arena_verdict.games_text(2)) == ("1 game", "2 games")


SPRT_STUDY = """
name = "kuzushi-sprt"
game = "kuzushi"
format = "sprt"
seed = 2026

[options]
players = 2

[agents]
mcts1000 = "mcts:iterations=1000"
greedy = "greedy"

[sprt]
elo0 = 0
elo1 = 50
alpha = 0.05
beta = 0.05
max_games = 200
"""


def sprt_game(index: int, seats: list[str], winner: str) -> dict[str, Any]:
    """One game of SPRT_STUDY as `kumiki arena run` wrote it (2026-11-29), won by ``winner``."""
    won = seats.index(winner)
    return {
        "index": index,
        "block": index // 2,
        "options": {"players": 2},
        "seats": seats,
        "seed": 1000 + index // 2,
        "scores": [19.0 if seat == won else 17.0 for seat in range(2)],
        "winners": [won],
        "ranks": [1 if seat == won else 2 for seat in range(2)],
        "teams": [0, 1],
        "moves": 28,
        "measures": {},
        "forfeit": None,
        "think_s": [0.0, 0.0],
    }


def test_a_seat_edge_resting_on_one_upset_is_flagged(tmp_path: Path, run: CliRunner) -> None:
    """The kuzushi-sprt study (2026-11-29): mcts1000 won 19 of 20 games; greedy's one win, in seat 1, made the report
    read seat 1 at +184 [+0, +243] Elo, with no word that one game of one seed block is all it rests on."""
    (tmp_path / "study.toml").write_text(SPRT_STUDY)
    games = []
    for block in range(10):
        for seats in (["mcts1000", "greedy"], ["greedy", "mcts1000"]):
            winner = "greedy" if block == 0 and seats[1] == "greedy" else "mcts1000"
            games.append(sprt_game(len(games), seats, winner))
    (tmp_path / "games.jsonl").write_text("".join(json.dumps(g) + "\n" for g in games))
    code, _, err = run("arena", "report", tmp_path)
    assert code == 0, err
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["seat_advantage_deciding"] == [{"players": 2, "units": 10, "deciding": 1, "few": True}]
    assert "Caution: the seats' figures rest on only 1 of the 10 seed blocks" in summary["seat_advantage_reading"]
    page = (tmp_path / "report.html").read_text()
    assert "⚠ Caution: the seats&#x27; figures rest on only 1 of the 10 seed blocks" in page
    # every block split by seat in the same way: the seats decided each one, and no caution
    split = [sprt_game(i, s, s[1]) for i, s in enumerate([["mcts1000", "greedy"], ["greedy", "mcts1000"]] * 10)]
    assert stats.seat_deciding_units(split, False) == 10
    assert stats.seat_deciding_units(games, False) == 1
    # self-play: one agent's two seats placed apart in a game is the seats deciding it; a draw is not
    alone = [dict(sprt_game(i, ["m", "m"], "m"), ranks=[1, 2]) for i in range(2)]
    assert stats.seat_deciding_units(alone, False) == 1
    assert stats.seat_deciding_units([dict(alone[0], ranks=[1, 1], winners=[0, 1])], False) == 0


def test_an_interval_ending_near_no_edge_is_flagged_only_when_few_blocks_decided() -> None:
    """An interval ending at 0 is the mark of an edge resting on a few games when few blocks decided (kuzushi-sprt:
    +184 [+0, +243], one block of ten); among many deciding blocks an end near 0 is a measurement (Kuzushi's
    four-player first mover, +28 [-0.4, +57] over 160 of 160 blocks) and no caution is written."""
    ends = [
        {"players": 2, "seat": 0, "elo": -40.0, "low": -90.0, "high": 0.2},
        {"players": 2, "seat": 1, "elo": 40.0, "low": -0.2, "high": 90.0},
    ]
    assert verdict.few_deciding(4) and not verdict.few_deciding(30)
    assert "Caution" not in verdict.seat_advantage(ends, 0, {2: 40}, "seed blocks", {2: 30})
    assert "Caution: the seats' figures rest on only 4 of the 40" in verdict.seat_advantage(
        ends, 0, {2: 40}, "seed blocks", {2: 4}
    )


def test_an_interval_end_that_leaves_out_zero_never_reads_zero() -> None:
    # blokus3d, structure A against B, 20 games each: 25.6 → 26.1 moves, [+0.0055, +0.9945], p = 0.048, "higher in
    # B"; written "[+0.0, +1.0]" beside "real" (its interval excludes zero), the designer read a contradiction.
    row = {
        "option": "structure",
        "a": "players=3, structure=A",
        "b": "players=3, structure=B",
        "figure": "game length",
        "unit": "moves",
        "a_value": 25.6,
        "b_value": 26.1,
        "difference": 0.5,
        "low": 0.0055,
        "high": 0.9945,
        "p": 0.04763,
        "reading": "higher in B",
    }
    share = {**row, "figure": "first mover's (seat 0) share of the wins", "unit": "share", "a_value": 0.3}
    share.update(b_value=0.5, difference=0.2, low=-0.00004, high=0.4, p=0.05, reading="no evidence of a difference")
    assert "25.6 → 26.1 moves, +0.5 [+0.005, +1.0], p = 0.048" in verdict.comparisons([row])
    cells = report._difference(row, "") + report._difference(share, "")
    assert "[+0.005, +1.0]" in cells and "[-0.004, +40.0]" in cells and "+0.0," not in cells
    assert verdict.interval_end(-0.04) == "-0.04" and verdict.interval_end(2.345) == "+2.3"


def test_the_seats_plot_keeps_its_legend_off_the_bars() -> None:
    # kuzushi on an 8×8 grid, greedy self-play: seat 1 won 181 of 200 games; its bar and interval ran up under the
    # legend ("fair share", "share of wins, 95% interval") drawn in the plot's upper right corner.
    pytest.importorskip("matplotlib")
    figure = report._seat_figure([intervals.wilson(19, 200), intervals.wilson(181, 200)], "size=8", first=1)
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    axes = figure.axes[0]
    legend = axes.get_legend().get_window_extent(renderer)
    boxes = [artist.get_window_extent(renderer) for artist in [*axes.patches, *axes.lines]]  # bars, caps, 50%
    assert len(boxes) == 5 and not any(legend.overlaps(box) for box in boxes)
    assert not legend.overlaps(axes.get_window_extent(renderer))
    import matplotlib.pyplot as plt

    plt.close(figure)


def test_a_seat_edge_pooled_over_option_sets_says_so() -> None:
    # kuzushi, greedy self-play, sizes 4 and 8 (200 games each): the first mover won 35% on size 4 and 90% on size 8;
    # the seats' section read "seat 1 (moves first) is +45 Elo ... above the average seat" alone, a size-4 edge too.
    edge = [
        {"players": 2, "seat": 0, "elo": -45.3, "low": -62.0, "high": -29.4},
        {"players": 2, "seat": 1, "elo": 45.3, "low": 29.4, "high": 62.0},
    ]
    said = verdict.seat_advantage(edge, 1, {2: 400}, "seed blocks", {2: 350}, {2: 2})
    assert said.endswith(
        "unlikely to be chance alone. This pools the 2 option sets with 2 players: where the seats' edge changes "
        "with the options, it is their blend, not any one set's (each set's own section gives its seats' shares)."
    )
    assert "pools" not in verdict.seat_advantage(edge, 1, {2: 400}, "seed blocks", {2: 350}, {2: 1})


GRID_STUDY = """
name = "kuz-grid"
game = "kuzushi"
format = "self-play"
games = 20
seed = 7

[options]
players = 2
size = [4, 8]

[agents]
greedy = "greedy"
"""


def test_what_is_real_is_marked_so_in_every_table(tmp_path: Path, run: CliRunner) -> None:
    # kuzushi, greedy self-play, sizes 4 and 8: the page says a difference is marked real (in red), yet the cells of
    # "Variants compared", the seats' edge and each set's p read <td class='n' class='real'>, whose second class a
    # browser drops: +55.5 pts [+47.1, +62.6], p < 0.001 stood in plain black.
    from html.parser import HTMLParser

    (tmp_path / "study.toml").write_text(GRID_STUDY)
    games = []
    for size, first_wins in ((4, 10), (8, 20)):
        for block in range(20):
            won = 1 if block < first_wins else 0
            games.append(
                {
                    "index": len(games),
                    "block": len(games),
                    "options": {"players": 2, "size": size},
                    "seats": ["greedy", "greedy"],
                    "seed": 1000 + block,
                    "scores": [9.0 if seat == won else 7.0 for seat in range(2)],
                    "winners": [won],
                    "ranks": [1 if seat == won else 2 for seat in range(2)],
                    "teams": [0, 1],
                    "moves": 13,
                    "measures": {},
                    "forfeit": None,
                    "think_s": [0.0, 0.0],
                }
            )
    (tmp_path / "games.jsonl").write_text("".join(json.dumps(g) + "\n" for g in games))
    code, _, err = run("arena", "report", tmp_path)
    assert code == 0, err

    class Cells(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.repeated: list[str] = []
            self.classes: list[str] = []
            self.real: list[str] = []

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            names = [name for name, _ in attrs]
            self.repeated += [f"{tag} {name}" for name in set(names) if names.count(name) > 1]
            self.classes = [value or "" for name, value in attrs if name == "class"][:1]  # as a browser reads it

        def handle_data(self, data: str) -> None:
            if self.classes and "real" in self.classes[0].split():
                self.real.append(data)
            self.classes = []

    page = Cells()
    page.feed((tmp_path / "report.html").read_text())
    assert page.repeated == []
    summary = json.loads((tmp_path / "summary.json").read_text())
    share = next(c for c in summary["comparisons"] if c["unit"] == "share")
    assert share["reading"] == "higher in B"
    assert f"{100 * share['difference']:+.1f} pts" in page.real  # Variants compared
    edge = summary["seat_advantage"][1]
    assert edge["low"] > 0 and "+" + str(round(edge["elo"])) in page.real, (edge, page.real)  # the seats' edge
    p = summary["option_sets"][1]["fairness_p"]
    assert f"{p:.3g}" in page.real  # size 8: its own seats' test
