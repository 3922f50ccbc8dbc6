"""What a designer reads off a study ("is it fair? which variant is better?"): plain-language readings that never
claim more than the figures show, no interval that claims a certainty the games do not give, tidy CSV tables, and
one line (exit 2) for a study that measures nothing."""

from __future__ import annotations

import csv
import html
import json
import math
from pathlib import Path
from typing import Any

import pytest
from tests.helpers import CliRunner, assert_one_line_error

from kumiki import arena
from kumiki.arena import fairness, intervals, stats, variants, verdict
from kumiki.arena.ratings import rate, seat_advantage
from kumiki.arena.sprt import sprt_state


def pairs(blocks: int, a_wins_all: bool = True) -> list[dict[str, Any]]:
    """Game pairs with the seats swapped; ``a`` wins both games of every pair (or a wins one, b one)."""
    rows = []
    for block in range(blocks):
        for seats in (["a", "b"], ["b", "a"]):
            winner = seats.index("a") if a_wins_all or block % 2 else seats.index("b")
            ranks = [1, 2] if winner == 0 else [2, 1]
            rows.append({"block": block, "seats": seats, "ranks": ranks, "winners": [winner], "teams": [0, 1]})
    return rows


def reported(study: arena.Study, out: Path, run: CliRunner) -> None:
    """Play ``study`` into ``out`` on the serial backend and write its report with ``kumiki arena report``."""
    arena.run(study, out, backend="serial")
    code, _, err = run("arena", "report", out)
    assert code == 0, err


def test_an_interval_the_same_in_every_resample_is_no_interval() -> None:
    """a won every game of every pair: every bootstrap resample gives the same rating, set by the prior. The interval
    was reported as [532, 532], a certainty the games do not give; now there is none (NaN, null in JSON)."""
    table = rate(pairs(7), ["a", "b"], resamples=50)
    assert table[0].agent == "a" and table[0].rating > 300
    assert all(math.isnan(r.low) and math.isnan(r.high) for r in table)
    assert table[0].to_json()["low"] is None and table[0].to_json()["high"] is None
    seats = seat_advantage(pairs(7), ["a", "b"], resamples=50)  # every game won whatever the seat: nothing known
    assert all(math.isnan(low) and math.isnan(high) for _, low, high in seats)
    mixed = rate(pairs(12, a_wins_all=False), ["a", "b"], resamples=50)  # a spread: a real interval stays
    assert all(r.low < r.rating < r.high for r in mixed)


def test_an_unbeaten_agent_is_named_and_its_missing_interval_said(tmp_path: Path, run: CliRunner) -> None:
    assert stats.unbounded(pairs(3), ["a", "b"]) == {"a": "won", "b": "lost"}
    assert stats.unbounded(pairs(4, a_wins_all=False), ["a", "b"]) == {}
    study = arena.Study(
        name="sweep",
        game="kuzushi",
        format="sprt",
        agents={"greedy": "greedy", "random": "random"},
        seed=1,
        options={"players": 2, "size": 5},
        sprt=arena.Sprt(elo0=0, elo1=100, max_games=60),
    )
    arena.run(study, tmp_path / "out", backend="serial")
    code, out, err = run("arena", "ratings", tmp_path / "out")
    assert code == 0 and "no interval" in out and "nan" not in out
    assert "greedy won every game" in err and "read it as far above" in err
    code, out, _ = run("arena", "report", tmp_path / "out")
    assert code == 0, out
    page = (tmp_path / "out" / "report.html").read_text()
    assert "no interval (the same in every resample)" in page and "Read it as “far above”" in page
    assert "Decided for H1: the games favour “greedy is 100 Elo stronger than random”" in page


def test_the_fairness_reading_never_claims_equal_seats() -> None:
    even = [intervals.wilson(3, 6), intervals.wilson(3, 6)]
    reading, sentence = verdict.fairness(even, 1.0, "exact multinomial", 6, 0, 1, 1)
    assert reading == "no evidence of an edge"
    assert (
        "No evidence that any seat wins more often" in sentence and "not evidence that the seats are equal" in sentence
    )
    assert "seat 1 (moves first) wins 50% [19, 81]" in sentence  # how large an edge the games still allow
    skewed = [intervals.wilson(80, 100), intervals.wilson(20, 100)]
    reading, sentence = verdict.fairness(skewed, 1e-9, "exact multinomial", 100, 5, 0, 4)
    assert reading == "seats differ" and "Evidence that the seats are not equal (p < 0.001" in sentence
    assert "seat 0 (moves first) wins 80%" in sentence and "one test among 4 option sets" in sentence
    # at p < 0.001, "one set in twenty would look this uneven by chance" claimed 1 in 20 where the games say 1 in
    # 1,000 or fewer: what one in twenty reaches by chance is the 5% level, not this p
    assert "this uneven" not in sentence and "about one set in twenty would reach p < 0.05 by chance alone" in sentence
    assert "5 of 100 games ended by a forfeit" in sentence
    _, sentence = verdict.fairness(even, 1.0, "chi-square", 6, 0, 1, 1, shared=6)
    assert "All 6 games ended in a shared win (a draw)" in sentence and "not of games won outright" in sentence
    _, sentence = verdict.fairness(skewed, 1e-9, "chi-square", 100, 5, 0, 4, shared=10)
    assert "10 of 100 games ended in a shared win" in sentence and "5 of 100 games ended by a forfeit" in sentence
    _, sentence = verdict.fairness(even, 1.0, "exact multinomial", 6, 0, 1, 1)
    assert "shared win" not in sentence
    assert verdict.comparison({"low": -0.3, "high": 0.1}) == "no evidence of a difference"
    assert verdict.comparison({"low": 0.05, "high": 0.4}) == "higher in B"


def test_the_report_puts_the_variants_side_by_side_with_a_reading(tmp_path: Path, run: CliRunner) -> None:
    study = arena.Study(
        name="variants",
        game="kuzushi",
        format="self-play",
        agents={"g": "greedy"},
        games=4,
        seed=3,
        options={"players": 2, "size": [5, 6]},
    )
    reported(study, tmp_path / "out", run)
    page = (tmp_path / "out" / "report.html").read_text()
    assert "At a glance: the option sets side by side" in page and "<th>seat 1 (moves first) wins</th>" in page
    # a reading per option set, one for the seats' edge with skill held apart and one for the variants compared
    assert page.count("<p class='verdict'>") == 4 and "<th>reading</th>" in page
    for entry in json.loads((tmp_path / "out" / "summary.json").read_text())["option_sets"]:
        assert f"<p class='verdict'>{html.escape(entry['verdict'])}</p>" in page
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert [e["first_mover"] for e in summary["option_sets"]] == [1, 1]
    assert all(e["reading"] in ("no evidence of an edge", "seats differ") for e in summary["option_sets"])
    assert all("reading" in c for c in summary["comparisons"])
    with (tmp_path / "out" / "seat_wins.csv").open() as handle:
        seats = list(csv.DictReader(handle))
    assert [(r["option_size"], r["seat"], r["moves_first"]) for r in seats] == [
        ("5", "0", "False"),
        ("5", "1", "True"),
        ("6", "0", "False"),
        ("6", "1", "True"),
    ]
    with (tmp_path / "out" / "comparisons.csv").open() as handle:
        compared = list(csv.DictReader(handle))
    assert {"unit", "a_value", "b_value", "reading"} <= set(compared[0]) and compared[0]["unit"] == "share"
    with (tmp_path / "out" / "option_sets.csv").open() as handle:
        sets = list(csv.DictReader(handle))
    assert [s["option_size"] for s in sets] == ["5", "6"] and sets[0]["success"] == ""  # not defined: empty


def test_cooperative_variants_compare_their_success_rates() -> None:
    def coop(deck: str, success: bool) -> dict[str, Any]:
        return {
            "options": {"deck": deck},
            "seats": ["t", "t"],
            "teams": [0, 0],
            "winners": [0, 1] if success else [],
            "scores": [10.0, 10.0],
            "moves": 20,
            "measures": {"success": float(success)},
        }

    rows = [coop("green", True)] * 10 + [coop("pink", i < 2) for i in range(10)]
    found = [c for c in variants.variant_comparisons(rows) if c.figure == "team success rate"]
    assert len(found) == 1 and found[0].difference == pytest.approx(-0.8) and found[0].high < 0


def test_a_tiny_p_value_is_kept_not_rounded_to_zero() -> None:
    a, b = intervals.wilson(5, 500), intervals.wilson(495, 500)
    compared = variants.compare_rates("o", "A", "B", "share", a, b).to_json()
    assert 0 < compared["p"] < 1e-6


def test_a_chi_square_on_few_games_says_it_is_approximate() -> None:
    rows = [{"seats": ["a", "b"], "winners": [0], "options": {}}] * 3
    rows += [{"seats": ["a", "b"], "winners": [0, 1], "options": {}}]  # a shared win: no exact test
    _, test = fairness.fairness(rows)
    assert test.startswith("chi-square, approximate")
    many = [{"seats": ["a", "b"], "winners": [s % 2], "options": {}} for s in range(30)] + rows
    assert fairness.fairness(many)[1] == "chi-square"


def test_the_sprt_reading_says_what_h0_and_h1_mean() -> None:
    undecided = sprt_state([1, 1, 1, 1, 1], arena.Sprt(0, 50)).to_json()
    text = verdict.sprt(undecided, "new", "old", 0, 50, 0.05, 0.05)
    assert text.startswith("Undecided: after 5 game pairs") and "“new is 50 Elo stronger than old”" in text
    decided = sprt_state([40, 0, 0, 0, 0], arena.Sprt(0, 50)).to_json()
    assert verdict.sprt(decided, "new", "old", 0, 50, 0.05, 0.05).startswith(
        "Decided for H0: the games favour “new and old are equally strong”"
    )


@pytest.mark.parametrize("focus", ['["a"]', "{ a = 1 }"])
def test_a_focus_that_is_no_name_is_one_line(tmp_path: Path, run: CliRunner, focus: str) -> None:
    """A list or a table as the focus was an internal error (unhashable type), exit 1."""
    study = tmp_path / "g.toml"
    study.write_text(f'name = "g"\ngame = "kuzushi"\nformat = "gauntlet"\nfocus = {focus}\n[agents]\na = "greedy"\n')
    code, _, err = run("arena", "run", study, "--out", tmp_path / "out", "--backend", "serial")
    assert_one_line_error(code, err, "focus: the name of one agent of [agents], not")


def test_a_study_whose_games_all_forfeit_is_one_line(tmp_path: Path, run: CliRunner) -> None:
    """Every game lost by a forfeit measures the agent's failure, and the report read it as an unfair game."""
    study = tmp_path / "f.toml"
    study.write_text(
        'name = "f"\ngame = "kuzushi"\nformat = "self-play"\ngames = 2\n[options]\nsize = 5\n'
        '[agents]\nboom = "tests.arena.agents:raiser"\n'
    )
    out = tmp_path / "out"
    code, _, err = run("arena", "run", study, "--out", out, "--backend", "serial", "--quiet")
    assert_one_line_error(code, err, "all 2 games ended by a forfeit", "boom in seat", "fix agents.boom")
    for command in ("report", "ratings"):
        code, _, err = run("arena", command, out)
        assert_one_line_error(code, err, "all 2 games ended by a forfeit")
    assert not (out / "report.html").exists()
    code, text, _ = run("arena", "export", out, "--csv", "-")  # the games themselves can still be looked at
    assert code == 0 and text.count("\n") == 3


def test_the_machine_note_is_one_line(tmp_path: Path, run: CliRunner) -> None:
    study = tmp_path / "m.toml"
    study.write_text(
        'name = "m"\ngame = "kuzushi"\ngames = 1\nmove_limit_s = 60\n[options]\nsize = 5\n'
        '[agents]\ng = "greedy"\nr = "random"\n'
    )
    code, _, err = run("arena", "run", study, "--out", tmp_path / "out", "--backend", "serial")
    assert code == 0, err
    assert "note: a time budget or move limit makes this study's results depend on the machine\n" in err


def test_a_reading_never_contradicts_its_own_interval() -> None:
    """7 of 8 games to the first mover: the exact test gives p = 0.07, but the Wilson interval [53, 98] leaves out
    50%. The sentence said "No evidence ..." and, in the same breath, a range that excludes the fair share."""
    rates = [intervals.wilson(1, 8), intervals.wilson(7, 8)]
    p = fairness._exact_multinomial_p([1, 7])
    assert p > verdict.SIGNIFICANCE
    reading, sentence = verdict.fairness(rates, p, "exact multinomial", 8, 0, 1, 1)
    assert reading == "borderline" and "No evidence" not in sentence
    assert "seat 1 (moves first) wins 88% [53, 98]" in sentence and "leaves out the fair 50%" in sentence
    assert verdict.p_text(0.0496) == "p < 0.05" and verdict.p_text(0.051) == "p = 0.051"


def test_a_comparison_without_a_test_has_no_verdict() -> None:
    """One game an option set: no t test (p NaN) and an interval [d, d]; the reading said "higher in B"."""

    def row(size: int, moves: int) -> dict[str, Any]:
        return {"options": {"size": size}, "seats": ["a", "b"], "winners": [1], "ranks": [2, 1], "moves": moves}

    found = [c.to_json() for c in variants.variant_comparisons([row(5, 30), row(6, 35)], "kuzushi")]
    length = next(c for c in found if c["figure"] == "game length")
    assert math.isnan(length["p"]) and verdict.comparison(length) == "no verdict (too few games)"


def test_one_game_on_one_side_of_a_comparison_gives_no_verdict() -> None:
    """Five games in A, one in B (a study stopped early): the length read "higher in B" with p = 0 and an interval
    of width 0, though one game has no spread to test against."""

    def row(size: int, moves: int) -> dict[str, Any]:
        return {"options": {"size": size}, "seats": ["a", "b"], "winners": [1], "ranks": [2, 1], "moves": moves}

    rows = [row(5, moves) for moves in (18, 19, 20, 21, 22)] + [row(6, 35)]
    for found in (rows, rows[-1:] + rows[:-1]):  # the lone game in B, then in A
        length = next(c.to_json() for c in variants.variant_comparisons(found, "kuzushi") if c.figure == "game length")
        assert math.isnan(length["p"]) and math.isnan(length["low"]) and math.isnan(length["high"])
        assert verdict.comparison(length) == "no verdict (too few games)"


def test_an_sprt_still_running_is_not_said_to_have_stopped(tmp_path: Path, run: CliRunner) -> None:
    """A report read while an SPRT is unfinished (stopped, or still running) said it 'stopped at max_games'."""
    state = sprt_state([1, 1, 1, 1, 1], arena.Sprt(0, 50, max_games=400)).to_json()
    text = verdict.sprt(state, "new", "old", 0, 50, 0.05, 0.05, max_games=400)
    assert "stopped at max_games" not in text and "5 of at most 200 game pairs" in text
    assert "stopped at max_games" in verdict.sprt(state, "new", "old", 0, 50, 0.05, 0.05, max_games=10)
    study = arena.Study(
        name="sp",
        game="kuzushi",
        format="sprt",
        agents={"a": "random", "b": "random"},
        seed=2,
        options={"size": 5},
        sprt=arena.Sprt(elo0=0, elo1=5, max_games=8),
    )
    out = tmp_path / "out"
    arena.run(study, out, backend="serial")
    lines = (out / "games.jsonl").read_text().splitlines()
    (out / "games.jsonl").write_text("\n".join(lines[:4]) + "\n")  # a run stopped after two of its four pairs
    code, _, err = run("arena", "report", out)
    assert code == 0, err
    summary = json.loads((out / "summary.json").read_text())
    assert summary["sprt"]["decision"] is None and "stopped at max_games" not in summary["sprt"]["verdict"]


def test_a_solo_game_is_no_team(tmp_path: Path, run: CliRunner) -> None:
    """A solo Kozo (one seat, no success measure) read as "The team met its goal in 0 of 1 games"."""
    study = arena.Study(
        name="solo", game="kozo", format="self-play", agents={"r": "random"}, games=1, seed=1,
        options={"players": [1, 2], "rounds": 1},
    )  # fmt: skip
    reported(study, tmp_path / "out", run)
    entry = json.loads((tmp_path / "out" / "summary.json").read_text())["option_sets"][0]
    assert entry["options"]["players"] == 1
    assert "team" not in entry["verdict"] and "scored above 0" in entry["verdict"]
    page = (tmp_path / "out" / "report.html").read_text()  # and the variants compared say how many tests they are
    assert "Every row is a test at the 5% level (1 here)" in page


def test_an_unbeaten_agent_of_a_gauntlet_met_only_the_focus(tmp_path: Path, run: CliRunner) -> None:
    """In a gauntlet the others meet the focus only: "lost every game against every other agent" was untrue."""
    study = arena.Study(
        name="gl", game="kuzushi", format="gauntlet", focus="g", games=1, seed=5,
        agents={"g": "greedy", "r": "random", "r2": "random"}, options={"size": 5},
    )  # fmt: skip
    arena.run(study, tmp_path / "out", backend="serial")
    rows = arena.Results(tmp_path / "out").rows
    assert stats.unbounded(rows, ["g", "r", "r2"]) == {"g": "won", "r": "lost", "r2": "lost"}
    code, _, err = run("arena", "ratings", tmp_path / "out")
    assert code == 0 and "r lost every game it played" in err and "every other agent" not in err
    code, _, err = run("arena", "report", tmp_path / "out")
    page = (tmp_path / "out" / "report.html").read_text()
    assert code == 0 and "every other agent" not in page and "every game it played" in page
    assert "a test at the 5% level" not in page  # one option set: nothing compared


def test_no_seat_moves_first_where_the_rounds_rotate_the_opener(tmp_path: Path, run: CliRunner) -> None:
    """Kozo's round r is opened by player r mod players: over several rounds no seat "moves first", and the report
    called seat 0 so (it asked who opens the first round only)."""
    assert variants.first_mover("kozo", {"players": 2, "rounds": 3}) is None
    assert variants.first_mover("kozo", {"players": 2, "rounds": 1}) == 0
    assert variants.first_mover("kozo", {"players": 1, "rounds": 3}) == 0
    assert variants.first_mover("kuzushi", {"players": 2}) == 1
    study = arena.Study(
        name="rotating",
        game="kozo",
        format="self-play",
        agents={"r": "random"},
        games=2,
        seed=5,
        options={"players": 2, "rounds": 2},
    )
    reported(study, tmp_path / "out", run)
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert [e["first_mover"] for e in summary["option_sets"]] == [None]
    page = (tmp_path / "out" / "report.html").read_text()
    assert "moves first" not in page and "(first)" not in page and "<th>seat 0 wins</th>" in page
    with (tmp_path / "out" / "seat_wins.csv").open() as handle:
        assert {row["moves_first"] for row in csv.DictReader(handle)} == {"False"}


def test_a_variant_comparison_follows_seat_0_where_no_seat_opens_the_game() -> None:
    rows = [
        {
            "block": b,
            "seats": ["r", "r"],
            "ranks": [1, 2],
            "winners": [0],
            "teams": [0, 1],
            "moves": 10,
            "options": {"players": 2, "rounds": rounds},
        }
        for b in range(3)
        for rounds in (2, 3)
    ]
    figures = [c.figure for c in variants.variant_comparisons(rows, "kozo")]
    assert "seat 0's share of the wins" in figures and not any("first mover" in f for f in figures)


def test_a_variant_whose_games_all_had_one_length_is_compared_without_a_warning() -> None:
    """Every game of A lasted 3 moves (sd 0), B's varied: Welch's interval is B's t interval around B − A, and the
    report printed scipy's "Precision loss ... catastrophic cancellation" warning on stderr beside it."""
    import warnings

    def row(size: int, moves: int) -> dict[str, Any]:
        return {"options": {"size": size}, "seats": ["a", "b"], "winners": [1], "ranks": [2, 1], "moves": moves}

    rows = [row(2, 3) for _ in range(8)] + [row(3, 4 + i % 2) for i in range(8)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        found = [c.to_json() for c in variants.variant_comparisons(rows, "kuzushi")]
    length = next(c for c in found if c["figure"] == "game length")
    # by hand: B 4,5,4,5,… mean 4.5, sd 0.5345, t(7, 0.975) = 2.3646: 1.5 ± 0.4469
    assert (length["difference"], length["low"], length["high"]) == (1.5, 1.0531, 1.9469)


def test_the_report_says_what_it_measured_and_with_which_commands(tmp_path: Path, run: CliRunner) -> None:
    """The report named the game, the format, the root seed and the agents, but not the option grid, `games` nor
    the command that played the games; and its variant comparisons did not say they were unpaired, beside a note
    that every option set meets the same game seeds (which reads as paired games)."""
    study = arena.Study(
        name="provenance",
        game="kuzushi",
        format="self-play",
        agents={"g": "greedy"},
        games=3,
        seed=9,
        options={"players": 2, "size": [5, 6]},
    )
    out = tmp_path / "the results"
    arena.run(study, out, backend="serial")
    code, _, err = run("arena", "report", out)
    assert code == 0, err
    page = (out / "report.html").read_text()
    command = f"kumiki arena run '{out}/study.toml' --out '{out}'"
    assert command in page and f"kumiki arena report '{out}'" in page
    assert "size = [5, 6]" in page and "games = 3" in page
    assert "two independent samples" in page and "not of paired games" in page
    code, _, err = run("arena", "run", out / "study.toml", "--out", out, "--backend", "serial", "--quiet")
    assert code == 0 and len(arena.Results(out)) == 6  # the command shown resumes: nothing left to play


def test_the_ratings_and_the_win_matrix_say_what_they_mean_with_intervals(tmp_path: Path, run: CliRunner) -> None:
    """A designer's round-robin: the ratings table said nothing of its scale (only the seats' table did), and the win
    matrix's cells showed a bare share, without the interval every other figure carries."""
    study = arena.Study(
        name="three",
        game="kuzushi",
        format="round-robin",
        agents={"random": "random", "greedy": "greedy"},
        games=6,
        seed=4,
        options={"players": 2, "size": 4},
    )
    reported(study, tmp_path / "out", run)
    page = (tmp_path / "out" / "report.html").read_text()
    ratings = page[page.index("<h2>Ratings</h2>") : page.index("<h3>Win matrix</h3>")]
    assert "the agents' mean is 0" in ratings and "about 64% against it" in ratings
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    for r in summary["ratings"]:  # signed as the intervals beside them and the seats' table ("120 [+60, +180]" was)
        assert f"<td class='n'>{round(r['rating']):+d}</td>" in ratings
    matrix = page[page.index("<h3>Win matrix</h3>") :]
    assert "the row agent's score against the column agent" in matrix and "95% interval" in matrix
    for cell in summary["win_matrix"]:
        assert f"[{100 * cell['low']:.0f}, {100 * cell['high']:.0f}]" in matrix


def test_a_histogram_of_whole_numbers_centres_each_bar_on_its_value() -> None:
    """Game lengths of 13 and 14 moves: equal-width bins drew the 14-move games from 13.8 to 14, beside the tick."""
    from kumiki.arena.report import _histogram_bins

    assert _histogram_bins([13.0, 14.0, 14.0]) == [12.5, 13.5, 14.5]
    assert _histogram_bins([7.0]) == [6.5, 7.5]
    assert _histogram_bins([0.0, 100.0]) == 5  # too wide a range for a bar a value: equal bins
    assert _histogram_bins([0.5, 1.25, 2.0]) == 5


def test_an_even_split_has_an_exact_p_of_one() -> None:
    """Every outcome counted sums to 1 up to rounding: a 1-1 split was written 0.9999999999999998 in summary.json."""
    assert fairness._exact_multinomial_p([1, 1]) == 1.0
    assert fairness._exact_multinomial_p([2, 2, 2]) == 1.0
    assert fairness._exact_multinomial_p([0, 8]) == pytest.approx(2 / 256)  # a small p is not rounded
