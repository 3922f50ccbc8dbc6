"""`kumiki arena` and agent specs against damage: rows in the contract's own shape, damaged rows, a games
file whose last line lost its end, an agent that calls sys.exit, a study file with a byte-order mark."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tests.helpers import CliRunner

from kumiki import arena
from kumiki.arena.results import GAMES_FILE, is_game, read_rows

STUDY = """
name = "tester"
game = "kuzushi"
games = 3
seed = 5
[options]
players = 2
[agents]
greedy = "greedy"
random = "random"
"""


@pytest.fixture
def finished(run_study: Callable[[str, str], tuple[Path, str]]) -> Path:
    return run_study(STUDY, "tester")[0]


def _rewrite(folder: Path, change: Callable[[dict[str, Any]], None], first_only: bool = False) -> None:
    rows = [json.loads(line) for line in (folder / GAMES_FILE).read_text().splitlines()]
    for row in rows[:1] if first_only else rows:
        change(row)
    (folder / GAMES_FILE).write_text("".join(json.dumps(row) + "\n" for row in rows))


def test_rows_in_the_contracts_shape_without_ranks_are_rated_and_reported(finished: Path, run: CliRunner) -> None:
    """CONTRACT.md's row lists no ranks (nor teams, nor measures): such rows were an internal error (KeyError)."""
    code, before, _ = run("arena", "ratings", finished, "--json")
    assert code == 0
    _rewrite(finished, lambda row: [row.pop(key) for key in ("ranks", "teams", "measures")])
    code, after, err = run("arena", "ratings", finished, "--json")
    assert code == 0, err
    assert json.loads(after) == json.loads(before)  # two players: the winners first is every place there is
    code, _, err = run("arena", "report", finished)
    assert code == 0, err


@pytest.mark.parametrize(
    "change",
    [
        lambda row: row.update(ranks=[1]),
        lambda row: row.pop("moves"),
        lambda row: row.update(moves=None),
        lambda row: row.update(measures={"falls": "many"}),
    ],
    ids=["ranks-short", "no-moves", "moves-null", "measure-text"],
)
def test_a_damaged_row_is_skipped_and_said_not_an_internal_error(
    finished: Path, run: CliRunner, change: Callable[[dict[str, Any]], None]
) -> None:
    _rewrite(finished, change, first_only=True)
    for command in ("ratings", "report"):
        code, _, err = run("arena", command, finished)
        assert code == 0, err
        assert "skipped 1 line(s) that are not a game (line 1)" in err


DAMAGES: dict[str, Callable[[dict[str, Any]], None]] = {
    "forfeit-text": lambda row: row.update(forfeit="boom"),
    "forfeit-seat-out-of-range": lambda row: row.update(forfeit={"seat": 7, "reason": "?"}),
    "block-huge": lambda row: row.update(block=10**30),
    "block-negative": lambda row: row.update(block=-1),
    "score-overflows": lambda row: row.update(scores=[1e308, 1.0]),
    "score-beyond-float": lambda row: row.update(scores=[10**400, 1]),
    "score-nan": lambda row: row.update(scores=[float("nan"), 1.0]),
    "measure-infinite": lambda row: row.update(measures={"tiles_left_seat_0": float("inf")}),
    "winner-twice": lambda row: row.update(winners=[0, 0]),
    "rank-out-of-range": lambda row: row.update(ranks=[0, 3]),
    "ranks-say-a-draw-winners-a-win": lambda row: row.update(winners=[0], ranks=[1, 1]),
    "ranks-say-the-loser-won": lambda row: row.update(winners=[0], ranks=[2, 1]),
    "ranks-without-a-first": lambda row: row.update(ranks=[2, 2]),
    "branching-text": lambda row: row.update(branching="x"),
    "branching-null": lambda row: row.update(branching=None),
    "lead-changes-text": lambda row: row.update(lead_changes="x"),
}


def _one_seat(row: dict[str, Any]) -> None:
    row.update(seats=row["seats"][:1], scores=[1.0], winners=[0], ranks=[1], teams=[0])


def test_a_row_with_fields_no_game_has_is_not_a_game(finished: Path) -> None:
    """Damage that passed the row check made report, ratings or export an internal error (exit 1: a forfeit as text,
    a block or a score too large for a float) or skewed a figure (NaN scores, a winner twice). Every such row is
    no game; a row with one seat of a two-player study is one only for its study (``read_rows``)."""
    original = json.loads((finished / GAMES_FILE).read_text().splitlines()[0])
    assert is_game(original)
    for name, change in DAMAGES.items():
        row = json.loads(json.dumps(original))
        change(row)
        assert not is_game(row), name
    _rewrite(finished, _one_seat, first_only=True)
    read = read_rows(finished / GAMES_FILE, arena.Results(finished).study)
    assert sorted(r["index"] for r in read.rows) == list(range(1, 6))


@pytest.mark.parametrize("change", [DAMAGES["forfeit-text"], _one_seat], ids=["forfeit-text", "one-seat-of-two"])
def test_a_row_with_fields_no_game_has_is_skipped_said_and_played_again(
    finished: Path, run: CliRunner, change: Callable[[dict[str, Any]], None]
) -> None:
    """The commands on such a row (see above): each skips it and says so, and the next run plays its game again."""
    _rewrite(finished, change, first_only=True)
    for command in (["ratings"], ["report"], ["export", "--csv", "-"]):
        code, _, err = run("arena", command[0], finished, *command[1:])
        assert code == 0, err
        assert "skipped 1 line(s) that are not a game (line 1)" in err
    code, _, err = run("arena", "run", finished / "study.toml", "--out", finished, "--backend", "serial", "--quiet")
    assert code == 0, err
    assert sorted(r["index"] for r in arena.Results(finished).rows) == list(range(6))  # the game played again


def test_a_row_whose_options_are_none_of_the_studys_is_skipped_and_played_again(finished: Path, run: CliRunner) -> None:
    """Options edited by hand ({"players": "two"}) could not load the game: the report was an internal error."""
    text = (finished / GAMES_FILE).read_text()
    _rewrite(finished, lambda row: row.update(options={"players": "two"}), first_only=True)
    for command in ("ratings", "report"):
        code, _, err = run("arena", command, finished)
        assert code == 0, err
        assert "skipped 1 row(s) whose options are none of the study's" in err
    code, _, err = run("arena", "run", finished / "study.toml", "--out", finished, "--backend", "serial", "--quiet")
    assert code == 0, err
    results = arena.Results(finished)  # the game played again; its damaged row stays in the file, skipped
    assert sorted(r["index"] for r in results.rows) == list(range(6))
    assert all(r["options"] == {"players": 2} for r in results.rows)
    before = {json.loads(line)["index"]: json.loads(line)["winners"] for line in text.splitlines()}
    assert {r["index"]: r["winners"] for r in results.rows} == before  # the same game, replayed from its seed


def test_a_row_whose_seats_name_an_agent_not_in_the_study_is_skipped_not_an_internal_error(
    finished: Path, run: CliRunner
) -> None:
    """An agent renamed in games.jsonl by hand (or in study.toml after the run): ratings and report were an internal
    error (KeyError: the ratings credit only the study's agents)."""
    _rewrite(finished, lambda row: row.update(seats=["stranger", row["seats"][1]]), first_only=True)
    for command in ("ratings", "report"):
        code, _, err = run("arena", command, finished)
        assert code == 0, err
        assert "skipped 1 row(s) whose seats name an agent the study does not have" in err
    code, out, err = run("arena", "ratings", finished, "--json")
    assert code == 0, err
    assert sorted(entry["agent"] for entry in json.loads(out)) == ["greedy", "random"]


def test_a_last_game_without_its_line_end_is_read_and_kept_by_a_resume(finished: Path, run: CliRunner) -> None:
    games = finished / GAMES_FILE
    text = games.read_text()
    games.write_text(text.rstrip("\n"))  # an editor, a copy or a merge that dropped the final line end
    results = arena.Results(finished)
    assert len(results) == 6 and not results.skipped
    code, _, err = run("arena", "run", finished / "study.toml", "--out", finished, "--backend", "serial", "--quiet")
    assert code == 0, err
    assert games.read_text() == text  # the line ended, the game kept (not cut and played again), none joined


def test_an_agent_that_calls_sys_exit_loses_by_forfeit_and_the_study_goes_on(tmp_path: Path) -> None:
    study = arena.Study(
        name="quits",
        game="kuzushi",
        agents={"random": "random", "quitter": "tests.arena.agents:quitter"},
        games=1,
        seed=2,
    )
    results = arena.run(study, tmp_path / "q", backend="serial")
    assert len(results) == 2
    for row in results.rows:
        assert row["forfeit"] == {"seat": row["seats"].index("quitter"), "reason": "raised: SystemExit: 4"}


def test_a_study_file_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + STUDY.encode())
    assert arena.load_study(path).name == "tester"


def test_the_report_rates_no_agent_that_has_played_no_game(tmp_path: Path, run: CliRunner) -> None:
    """A study stopped after its first game: the third agent has played nothing. `arena ratings` leaves it out; the
    report listed it at 0 Elo with "no interval (the same in every resample)" in the HTML, summary.json and CSV."""
    study = tmp_path / "three.toml"
    study.write_text(STUDY.replace('random = "random"', 'random = "random"\nmcts = "mcts:iterations=5"'))
    out = tmp_path / "three"
    code, _, err = run("arena", "run", study, "--out", out, "--backend", "serial", "--quiet")
    assert code == 0, err
    games = out / GAMES_FILE
    games.write_text(games.read_text().splitlines(keepends=True)[0])  # only the first game: greedy against random
    code, listed, _ = run("arena", "ratings", out, "--json")
    assert code == 0 and [r["agent"] for r in json.loads(listed)] == ["greedy", "random"]
    code, _, err = run("arena", "report", out)
    assert code == 0, err
    summary = json.loads((out / "summary.json").read_text())
    assert sorted(r["agent"] for r in summary["ratings"]) == ["greedy", "random"]
    assert "mcts" not in (out / "ratings.csv").read_text()


@pytest.mark.parametrize(
    ("source", "problem"),
    [("raise RuntimeError('broken at import')\n", "RuntimeError: broken at import"), ("def f(:\n", "SyntaxError")],
)
def test_an_agent_module_that_fails_to_import_is_a_study_error_naming_the_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run: CliRunner, source: str, problem: str
) -> None:
    """Was "kumiki: internal error (...); please report it", exit status 1."""
    module = "tester_agent_raises" if "raise" in source else "tester_agent_syntax"
    (tmp_path / f"{module}.py").write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))
    study = tmp_path / "import.toml"
    study.write_text(STUDY.replace('random = "random"', f'random = "{module}:make"'))
    code, _, err = run("arena", "run", study, "--out", tmp_path / "o", "--backend", "serial", "--quiet")
    assert code == 2
    assert err.count("\n") == 1 and "agents.random:" in err and f"importing '{module}' failed ({problem}" in err


def test_a_forfeit_in_a_cooperative_game_is_a_game_not_a_damaged_line(tmp_path: Path) -> None:
    """A forfeit in TowerBrix (every seat on one side) places every seat last (``"ranks": [2, 2]``, no winners): the
    check of ranks against winners took that row for a damaged line, so each run skipped it and played it again."""
    study = arena.Study(
        name="coop-forfeit",
        game="towerbrix",
        agents={"raiser": "tests.arena.agents:raiser"},  # raises on its third move: a forfeit mid-game
        format="self-play",
        games=1,
        options={"players": 2},
    )
    results = arena.run(study, tmp_path / "out", backend="serial")
    (row,) = results.rows
    assert row["forfeit"] is not None and row["winners"] == [] and row["ranks"] == [2, 2]
    assert is_game(row)
    assert [r["index"] for r in arena.Results(tmp_path / "out").rows] == [row["index"]]  # read back, not skipped
