"""Variant comparisons with more than two seats: the first mover's share of the wins says little of the others (a
variant may move wins from seat 2 to seat 1 and leave it as it was), so every seat's share is compared, and the
spread of the seats' shares (lower is fairer)."""

from __future__ import annotations

import csv
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kumiki import arena
from kumiki.arena import variants
from kumiki.arena.report import write_report
from kumiki.arena.verdict import comparison

SPREAD = variants.SPREAD.format("seats'")


def test_a_three_player_study_compares_every_seat(run_study: Callable[[str, str], tuple[Path, str]]) -> None:
    out, _ = run_study(
        'name = "three"\ngame = "kuzushi"\nformat = "self-play"\ngames = 4\nseed = 7\n'
        '[options]\nplayers = 3\nsize = 4\ncity_counts_as_base = [false, true]\n[agents]\nrandom = "random"\n',
        "three",
    )
    write_report(arena.Results(out), out / "report.html")
    summary = json.loads((out / "summary.json").read_text())
    figures = [c["figure"] for c in summary["comparisons"]]
    assert figures == [
        "first mover's (seat 1) share of the wins",  # Kuzushi's seat 1 opens
        "seat 0's share of the wins",
        "seat 2's share of the wins",
        SPREAD,
        "game length",
    ]
    for c in summary["comparisons"]:
        assert c["low"] <= c["difference"] <= c["high"] and 0 <= c["p"] <= 1, c
    spread = summary["comparisons"][3]
    shares = [[r["value"] for r in e["seat_wins"]] for e in summary["option_sets"]]
    assert (spread["a_value"], spread["b_value"]) == tuple(round(max(s) - min(s), 4) for s in shares)
    page = (out / "report.html").read_text()
    assert "seat 0&#x27;s share of the wins" in page and "seat 2&#x27;s share of the wins" in page
    assert "spread of the wins" in page and "reads “B is fairer”" in page
    with (out / "comparisons.csv").open() as handle:
        assert [row["figure"] for row in csv.DictReader(handle)] == figures
    before = (out / "summary.json").read_bytes()
    write_report(arena.Results(out), out / "report.html")
    assert (out / "summary.json").read_bytes() == before  # the spread's bootstrap is seeded: the same every time


def _row(index: int, structure: str, winner: int) -> dict[str, Any]:
    return {
        "index": index,
        "block": index,
        "options": {"players": 3, "structure": structure},
        "seats": ["random"] * 3,
        "seed": index,
        "scores": [1 if s == winner else 0 for s in range(3)],
        "winners": [winner],
        "ranks": [1 if s == winner else 2 for s in range(3)],
        "moves": 30 + index % 5,
        "forfeit": None,
        "think_s": [0.0] * 3,
    }


def _shares(structure: str, wins: tuple[int, int, int], start: int) -> list[dict[str, Any]]:
    order = [seat for seat, n in enumerate(wins) for _ in range(n)]
    return [_row(start + i, structure, seat) for i, seat in enumerate(order)]


def test_wins_moved_from_seat_2_to_seat_1_show_though_the_first_movers_share_does_not(tmp_path: Path) -> None:
    """Blokus 3D's seat 0 opens: B takes 30 of seat 2's 40 wins of 120 and gives them to seat 1; the first mover
    wins 40 in both. The first mover's row sees nothing; seat 1's, seat 2's and the spread's rows do."""
    rows = _shares("A", (40, 40, 40), 0) + _shares("B", (40, 70, 10), 120)
    found = {c.figure: c.to_json() for c in variants.variant_comparisons(rows, "blokus3d")}
    first = found["first mover's (seat 0) share of the wins"]
    assert first["difference"] == 0 and first["p"] == 1
    seat_1, seat_2, spread = found["seat 1's share of the wins"], found["seat 2's share of the wins"], found[SPREAD]
    assert (seat_1["a_value"], seat_1["b_value"], seat_1["difference"]) == (0.3333, 0.5833, 0.25)
    assert seat_1["low"] > 0 and seat_1["p"] < 0.001
    assert (seat_2["a_value"], seat_2["b_value"], seat_2["difference"]) == (0.3333, 0.0833, -0.25)
    assert seat_2["high"] < 0 and seat_2["p"] < 0.001
    assert (spread["a_value"], spread["b_value"]) == (0.0, 0.5) and spread["low"] > 0 and spread["p"] < 0.01
    # the other way round, B is the fairer: its spread is lower
    back = {c.figure: c.to_json() for c in variants.variant_comparisons(rows[120:] + rows[:120], "blokus3d")}
    assert back[SPREAD]["difference"] == -0.5 and back[SPREAD]["high"] < 0

    # and the report says so, row by row and in its opening sentence
    folder = tmp_path / "moved"
    folder.mkdir()
    (folder / "study.toml").write_text(
        'name = "moved"\ngame = "blokus3d"\nformat = "self-play"\ngames = 120\nseed = 3\n'
        '[options]\nplayers = 3\nstructure = ["A", "B"]\n[agents]\nrandom = "random"\n'
    )
    (folder / "games.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    write_report(arena.Results(folder), folder / "report.html")
    summary = json.loads((folder / "summary.json").read_text())
    readings = {c["figure"]: c["reading"] for c in summary["comparisons"]}
    assert readings["first mover's (seat 0) share of the wins"] == "no evidence of a difference"
    assert readings["seat 1's share of the wins"] == "higher in B"
    assert readings["seat 2's share of the wins"] == "lower in B"
    assert readings[SPREAD] == "higher in B"
    sentence = summary["comparisons_reading"]
    assert "seat 1's share of the wins is higher with structure=B" in sentence
    assert "seat 2's share of the wins is lower with structure=B" in sentence
    assert "the seat 1" not in sentence and "the seat 2" not in sentence  # "seat 1's share", not "the seat 1's"
    page = (folder / "report.html").read_text()
    assert "<td class='n real'>+25.0 pts</td>" in page and "<td class='n real'>-25.0 pts</td>" in page


def test_two_seats_or_two_sides_add_no_rows_and_a_game_of_chance_pairs_the_deals() -> None:
    def row(seed: int, option: int, winner: int, seats: int, teams: list[int] | None = None) -> dict[str, Any]:
        found = {"block": seed, "seed": seed, "seats": ["r"] * seats, "winners": [winner], "moves": 10}
        return {**found, "options": {"o": option}, **({"teams": teams} if teams else {})}

    two = [row(i, o, (i + o) % 2, 2) for i in range(6) for o in (1, 2)]
    assert [c.figure for c in variants.variant_comparisons(two)] == [
        "first mover's (seat 0) share of the wins",
        "game length",
    ]
    sides = [row(i, o, (i + o) % 4, 4, [0, 1, 0, 1]) for i in range(6) for o in (1, 2)]
    assert [c.figure for c in variants.variant_comparisons(sides)] == [
        "first mover's side (seat 0's) share of the wins",
        "game length",
    ]
    three_sides = [row(i, o, (i + o) % 6, 6, [0, 1, 2, 0, 1, 2]) for i in range(9) for o in (1, 2)]
    figures = [c.figure for c in variants.variant_comparisons(three_sides)]
    assert figures[1:4] == [
        "seat 1's side share of the wins",
        "seat 2's side share of the wins",
        variants.SPREAD.format("sides'"),
    ]
    # Kozo's one round opens with seat 0, two rounds with no seat throughout: no first mover's row, so every seat's
    kozo = [{**row(i, 0, i % 3, 3), "options": {"players": 3, "rounds": r}} for i in range(6) for r in (1, 2)]
    assert [c.figure for c in variants.variant_comparisons(kozo, "kozo")] == [
        "seat 0's share of the wins",
        "seat 1's share of the wins",
        "seat 2's share of the wins",
        SPREAD,
        "game length",
    ]
    # chance: every deal met by both variants, B's winner the same seat as A's: no difference, clustered by deal
    dealt = [row(i, o, i % 3, 3) for i in range(12) for o in (1, 2)]
    found = {c.figure: c for c in variants.variant_comparisons(dealt, chance=True, seed=5)}
    spread = found[SPREAD]
    assert spread.difference == 0 and spread.low == 0 and spread.high == 0 and spread.p == 1
    assert found["seat 1's share of the wins"].p == 1


def test_spreads_over_unlike_numbers_of_games_get_no_verdict() -> None:
    """A spread is overstated on few games: equal seats over 12 games against 150 were marked "less fair" in a quarter
    of simulated studies. Where one option set has fewer than 80% of the other's games, the spreads are shown without
    a verdict, and the reading says why; like numbers still get one."""
    rows = _shares("A", (4, 4, 4), 0) + _shares("B", (50, 50, 50), 12)
    unlike = next(c for c in variants.variant_comparisons(rows, "blokus3d") if c.figure == SPREAD).to_json()
    assert unlike["no_verdict"] == "12 games against 150: a spread is overstated on fewer games"
    assert unlike["low"] != unlike["low"] and unlike["p"] != unlike["p"]  # NaN: no interval, no test
    assert comparison(unlike) == "no verdict (12 games against 150: a spread is overstated on fewer games)"
    rows = _shares("A", (40, 40, 40), 0) + _shares("B", (34, 34, 32), 120)  # 100 against 120: like enough
    like = next(c for c in variants.variant_comparisons(rows, "blokus3d") if c.figure == SPREAD).to_json()
    assert "no_verdict" not in like and like["low"] <= like["difference"] <= like["high"]
    assert comparison(like) == "no evidence of a difference"


def test_a_set_interrupted_shows_its_spread_without_an_interval_and_the_opening_sentence_says_so(
    tmp_path: Path,
) -> None:
    """A run stopped early leaves one option set with fewer games: its spread gets no verdict. The table shows a dash
    for the missing interval (not "[+nan, +nan]"), and the opening sentence does not count that row among those
    whose interval holds zero."""

    def report(name: str, rows: list[dict[str, Any]]) -> tuple[dict[str, Any], str]:
        folder = tmp_path / name
        folder.mkdir()
        (folder / "study.toml").write_text(
            f'name = "{name}"\ngame = "blokus3d"\nformat = "self-play"\ngames = 120\nseed = 3\n'
            '[options]\nplayers = 3\nstructure = ["A", "B"]\n[agents]\nrandom = "random"\n'
        )
        (folder / "games.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
        write_report(arena.Results(folder), folder / "report.html")
        return json.loads((folder / "summary.json").read_text()), (folder / "report.html").read_text()

    summary, page = report("alike", _shares("A", (40, 40, 40), 0) + _shares("B", (30, 30, 30), 120))
    readings = {c["figure"]: c["reading"] for c in summary["comparisons"]}
    assert readings[SPREAD] == "no verdict (120 games against 90: a spread is overstated on fewer games)"
    assert "nan" not in page
    sentence = summary["comparisons_reading"]
    assert "every interval still holds zero" not in sentence
    assert "(5 in all): 1 gives no verdict (its row says why), every other interval still holds zero." in sentence

    summary, page = report("moved", _shares("A", (40, 40, 40), 0) + _shares("B", (10, 70, 10), 120))
    sentence = summary["comparisons_reading"]
    assert "seat 1's share of the wins is higher with structure=B" in sentence
    assert "The others show no evidence" not in sentence
    assert "Of the others, 1 gives no verdict (its row says why) and " in sentence
    assert "nan" not in page and "<td class='n'>&lt; 1e-6</td>" in page  # escaped, as the rest of the page
