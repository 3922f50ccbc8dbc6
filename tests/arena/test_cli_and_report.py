"""The arena's commands on a finished study: ratings (text and --json), report (HTML, summary.json, CSV), export;
and the SPRT deciding: early for a strong agent against a weak one, never wrongly for two equal agents."""

from __future__ import annotations

import csv
import io
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console
from tests.helpers import CliRunner, assert_one_line_error

from kumiki import arena
from kumiki.cli_arena import Leaderboard, RunPace, progress_bar

STUDY = """
name = "cli"
game = "kuzushi"
games = 4
seed = 9
[options]
players = 2
city_counts_as_base = [false, true]
[agents]
greedy = "greedy"
random = "random"
"""


@pytest.fixture
def finished(run_study: Callable[[str, str], tuple[Path, str]]) -> Path:
    out, stdout = run_study(STUDY, "cli")
    assert stdout == f"{out}\n"
    return out


def test_a_run_puts_back_the_sigterm_handler_it_found(finished: Path, run: CliRunner) -> None:
    """The run turns SIGTERM into a clean stop while it runs, and only then (a program embedding the CLI keeps its
    own handler)."""
    import signal

    before = signal.getsignal(signal.SIGTERM)
    code, _, err = run("arena", "run", finished / "study.toml", "--out", finished, "--backend", "serial", "--quiet")
    assert code == 0, err
    assert signal.getsignal(signal.SIGTERM) is before


def test_sigterm_that_reaches_the_run_as_a_plain_interrupt_is_still_sigterm(
    finished: Path, run: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ray, waiting for its tasks, hands the SIGTERM handler's exception back as a plain KeyboardInterrupt: a run on
    Ray stopped by SIGTERM said "stopped;" with status 130, as after Ctrl-C, most of the time."""
    import signal

    def stopped_inside_ray(*_args: object, **_kwargs: object) -> None:
        try:
            signal.raise_signal(signal.SIGTERM)
        except KeyboardInterrupt:
            raise KeyboardInterrupt from None  # what ray._raylet.check_status raises

    monkeypatch.setattr(arena, "run", stopped_inside_ray)
    code, _, err = run("arena", "run", finished / "study.toml", "--out", finished, "--backend", "serial", "--quiet")
    assert code == 143 and err.startswith("stopped (SIGTERM);"), err

    def interrupted(*_args: object, **_kwargs: object) -> None:
        raise KeyboardInterrupt  # Ctrl-C (not raised by signal: a test worker may ignore SIGINT)

    monkeypatch.setattr(arena, "run", interrupted)
    code, _, err = run("arena", "run", finished / "study.toml", "--out", finished, "--backend", "serial", "--quiet")
    assert code == 130 and "stopped;" in err, err


def test_ratings_as_text_and_json(finished: Path, run: CliRunner) -> None:
    code, out, _ = run("arena", "ratings", finished, "--json")
    assert code == 0
    table = json.loads(out)
    assert [set(r) for r in table] == [{"agent", "rating", "low", "high", "games"}] * 2
    # greedy won all 16 games: every resample gives the same rating (the prior's), so no interval, not [r, r]
    assert table[0]["agent"] == "greedy" and table[0]["low"] is None and table[0]["high"] is None
    assert table[0]["rating"] == -table[1]["rating"] and table[0]["games"] == 16
    code, out, _ = run("arena", "ratings", finished)
    assert code == 0 and out.splitlines()[0].startswith("agent") and "greedy" in out.splitlines()[1]


def test_ratings_as_text_never_print_minus_zero(
    finished: Path, run: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bound just below zero is a whole 0 in the text table, as in the report, not "-0"."""
    from kumiki.arena.ratings import Rating

    table = [Rating("greedy", 12.6, -0.4, 25.2, 16), Rating("random", -0.3, -30.5, 0.2, 16)]
    monkeypatch.setattr(arena.Results, "ratings", lambda self, resamples=200: table)
    code, out, _ = run("arena", "ratings", finished)
    assert code == 0 and "-0" not in out
    assert [line.split()[1:4] for line in out.splitlines()[1:]] == [["13", "[", "0,"], ["0", "[", "-30,"]]


def test_ratings_as_text_round_as_the_report_does(
    finished: Path, run: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bound of 432.503 is 432.5 in --json, summary.json and the report, which reads 432 from it: the text table
    and its reading said 433, one point off the report's figure for the same interval."""
    from kumiki.arena.ratings import Rating

    table = [Rating("greedy", 494.97, 432.503, 785.19, 16), Rating("random", -494.97, -785.19, -432.503, 16)]
    monkeypatch.setattr(arena.Results, "ratings", lambda self, resamples=200: table)
    code, out, err = run("arena", "ratings", finished)
    assert code == 0
    assert [line.split()[1:4] for line in out.splitlines()[1:]] == [["495", "[", "432,"], ["-495", "[", "-785,"]]
    report = Path(run("arena", "report", finished)[1].strip())
    reading = json.loads((report.parent / "summary.json").read_text())["ratings_reading"]
    assert "[+432, +785]" in reading and f"reading: {reading}\n" in err


def test_the_report_is_self_contained_with_its_tables(finished: Path, run: CliRunner) -> None:
    code, out, err = run("arena", "report", finished)
    assert code == 0, err
    page = Path(out.strip())
    text = page.read_text(encoding="utf-8")
    assert page == finished / "report.html" and page.stat().st_size < 5_000_000
    assert "<svg" in text and "<script" not in text and "@import" not in text and "<metadata" not in text
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", text)  # nothing fetched: it opens offline
    assert "seat 0 wins" in text and "Variants compared" in text
    summary = json.loads((finished / "summary.json").read_text())
    assert summary["games"] == 16 and len(summary["option_sets"]) == 2
    seat = summary["option_sets"][0]["seat_wins"][0]
    assert 0 <= seat["low"] <= seat["value"] <= seat["high"] <= 1
    assert summary["comparisons"][0]["option"] == "city_counts_as_base"
    shares = [c for c in summary["comparisons"] if "share of the wins" in c["figure"]]
    assert [c["figure"] for c in shares] == ["first mover's (seat 1) share of the wins"]  # Kuzushi's seat 1 opens
    assert {"ratings", "win_matrix", "seat_advantage"} <= set(summary)
    with (finished / "seat_wins.csv").open() as handle:
        assert len(list(csv.DictReader(handle))) == 4


def test_the_same_results_give_the_same_report(finished: Path, run: CliRunner) -> None:
    """The report has no date and no random ids (matplotlib salts its SVG ids at random unless told): written twice
    from the same games it is the same file, so a report kept under version control changes only with the games."""
    pages = []
    for _ in range(2):
        code, out, err = run("arena", "report", finished)
        assert code == 0, err
        pages.append(Path(out.strip()).read_bytes())
    assert pages[0] == pages[1]


def test_seat_advantage_is_modelled_per_number_of_players(tmp_path: Path) -> None:
    study = arena.Study(
        name="counts",
        game="kuzushi",
        format="self-play",
        agents={"g": "greedy"},
        games=3,
        seed=2,
        options={"players": [2, 3], "size": 5},
    )
    results = arena.run(study, tmp_path / "out", backend="serial")
    results.report(tmp_path / "out" / "report.html")
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert [(s["players"], s["seat"]) for s in summary["seat_advantage"]] == [(2, 0), (2, 1), (3, 0), (3, 1), (3, 2)]
    for players in (2, 3):  # each model's seats average 0
        assert abs(sum(s["elo"] for s in summary["seat_advantage"] if s["players"] == players)) < 0.5
    assert "<th>players</th><th>seat</th>" in (tmp_path / "out" / "report.html").read_text()


def test_export_csv(finished: Path, run: CliRunner, tmp_path: Path) -> None:
    code, out, _ = run("arena", "export", finished, "--csv", tmp_path / "games.csv")
    assert code == 0 and out.strip() == str(tmp_path / "games.csv")
    with (tmp_path / "games.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 16 and json.loads(rows[0]["seats"]) in (["greedy", "random"], ["random", "greedy"])


def test_csv_to_a_console_that_translates_newlines_keeps_one_line_end(finished: Path) -> None:
    """A Windows console turns every \\n into \\r\\n: the CSV's own \\r\\n came out \\r\\r\\n (a blank row each)."""
    import io

    from kumiki.cli_arena import csv_stdout

    raw = io.BytesIO()
    console = io.TextIOWrapper(raw, encoding="utf-8", newline="\r\n")  # as stdout on Windows
    arena.Results(finished).export_csv(csv_stdout(console))
    console.flush()
    data = raw.getvalue()
    assert data.count(b"\r\n") == 17 and b"\r\r" not in data  # a header and 16 games


def test_export_spreads_the_values_out_writes_to_stdout_and_never_over_the_results(
    finished: Path, run: CliRunner, tmp_path: Path
) -> None:
    code, out, _ = run("arena", "export", finished, "--csv", "-")
    assert code == 0
    rows = list(csv.DictReader(out.splitlines()))
    assert len(rows) == 16 and {"option_city_counts_as_base", "seat_0", "score_1", "team_0"} <= set(rows[0])
    assert {r["option_city_counts_as_base"] for r in rows} == {"False", "True"}
    before = (finished / "games.jsonl").read_bytes()
    code, _, err = run("arena", "export", finished, "--csv", finished / "games.jsonl")
    assert_one_line_error(code, err, "the results folder's own file")
    assert (finished / "games.jsonl").read_bytes() == before
    code, _, err = run("arena", "export", finished, "--csv", tmp_path / "missing" / "x.csv")
    assert_one_line_error(code, err, "no folder")
    assert not (tmp_path / "missing").exists()
    (tmp_path / "sub").mkdir()
    code, _, err = run("arena", "export", finished, "--csv", tmp_path / "sub")
    assert_one_line_error(code, err, "a folder; give the CSV file's name")
    assert not list(tmp_path.glob("*.partial"))  # a refused export leaves nothing behind


def test_a_damaged_line_or_a_game_written_twice_is_skipped_and_said(finished: Path, run: CliRunner) -> None:
    games = finished / "games.jsonl"
    lines = games.read_text().splitlines(keepends=True)
    games.write_text("".join([*lines[:4], '{"index": "x", garbage\n', *lines[4:], lines[0], lines[1]]))
    code, out, err = run("arena", "ratings", finished, "--json")
    assert code == 0 and sum(r["games"] for r in json.loads(out)) == 32  # all 16 games, each once (two seats)
    assert "skipped 1 line(s) that are not a game (line 5)" in err and "skipped 2 repeated row(s)" in err
    study = finished / "study.toml"
    code, _, err = run("arena", "run", study, "--out", finished, "--backend", "serial", "--quiet")
    assert code == 0, err
    assert len(games.read_text().splitlines()) == 19  # nothing cut, nothing played again


def test_a_line_that_only_looks_like_a_game_is_skipped_and_its_game_played(finished: Path, run: CliRunner) -> None:
    """A JSON line with an index but not a game's fields counted as played: its game was never played, and the
    report and the ratings failed on it."""
    games = finished / "games.jsonl"
    lines = games.read_text().splitlines(keepends=True)
    index = json.loads(lines[-1])["index"]
    games.write_text("".join([*lines[:-1], f'{{"index": {index}, "block": 3}}\n', '{"index": 99, "seats": 5}\n']))
    for command in (["report"], ["ratings", "--json"]):
        code, _, err = run("arena", *command[:1], finished, *command[1:])
        assert code == 0 and "skipped 2 line(s) that are not a game" in err, err
    code, _, err = run("arena", "run", finished / "study.toml", "--out", finished, "--backend", "serial", "--quiet")
    assert code == 0, err
    assert index in {json.loads(line).get("index") for line in games.read_text().splitlines()[-1:]}  # played now


def test_a_games_file_that_is_a_folder_is_one_line(finished: Path, run: CliRunner) -> None:
    (finished / "games.jsonl").unlink()
    (finished / "games.jsonl").mkdir()
    for command in ("report", "ratings"):
        code, _, err = run("arena", command, finished)
        assert_one_line_error(code, err, "not a file of games")


@pytest.mark.parametrize(
    ("line", "problem"),
    [('name = "a\\u0000b"', "name: a name usable as a folder name"), ('"a\\u0001" = "random"', "agents: an agent")],
)
def test_names_with_control_characters_are_refused(tmp_path: Path, run: CliRunner, line: str, problem: str) -> None:
    study = tmp_path / "c.toml"
    head, agents = ('name = "c"\n', line + "\n") if line.startswith('"') else (line + "\n", "")
    study.write_text(f'{head}game = "kuzushi"\n[agents]\n{agents}g = "greedy"\nr = "random"\n')
    code, _, err = run("arena", "run", study, "--out", tmp_path / "out", "--backend", "serial")
    assert_one_line_error(code, err, problem)


def test_the_report_names_the_fairness_test_it_used(finished: Path, run: CliRunner) -> None:
    code, _, err = run("arena", "report", finished)
    assert code == 0, err
    html = (finished / "report.html").read_text()
    assert "all seats equal? p (exact multinomial)" in html and "p (chi-square)" not in html


def test_a_second_run_into_a_folder_in_use_is_refused(finished: Path, run: CliRunner) -> None:
    from kumiki.arena.results import ResultsDir

    study = arena.load_study(finished / "study.toml")
    holder = ResultsDir(finished, study)  # a run in progress
    try:
        code, _, err = run("arena", "run", finished / "study.toml", "--out", finished, "--backend", "serial")
        assert_one_line_error(code, err, "another run is using this folder")
    finally:
        holder.close()
    code, _, err = run("arena", "run", finished / "study.toml", "--out", finished, "--backend", "serial", "--quiet")
    assert code == 0, err


def test_an_agent_of_another_game_is_refused_before_any_game(tmp_path: Path, run: CliRunner) -> None:
    study = tmp_path / "wrong.toml"
    study.write_text('name = "w"\ngame = "kuzushi"\n[agents]\ng = "kozo-greedy"\nr = "random"\n')
    code, _, err = run("arena", "run", study, "--out", tmp_path / "out", "--backend", "serial")
    assert_one_line_error(code, err, "agents.g: 'kozo-greedy' plays kozo only, not kuzushi")
    assert not (tmp_path / "out").exists()


def test_commands_on_a_folder_that_is_no_results_are_one_line(tmp_path: Path, run: CliRunner) -> None:
    for command in (["ratings"], ["report"], ["export", "--csv", str(tmp_path / "x.csv")]):
        code, _, err = run("arena", command[0], tmp_path, *command[1:])
        assert_one_line_error(code, err, "not a results folder")
    code, _, err = run("arena", "run", tmp_path / "x.toml", "--backend", "gpu")
    assert_one_line_error(code, err, "--backend: one of serial, pool, ray")


SPRT = """
name = "{name}"
game = "kuzushi"
format = "sprt"
seed = 4
[options]
players = 2
[agents]
first = "{first}"
second = "{second}"
[sprt]
elo0 = 0
elo1 = 100
max_games = {max_games}
"""


@pytest.mark.xdist_group("arena-sprt")
def test_the_sprt_stops_early_for_mcts_against_random(tmp_path: Path) -> None:
    text = SPRT.format(name="strong", first="mcts:iterations=1000", second="random", max_games=200)
    (tmp_path / "s.toml").write_text(text)
    results = arena.run(arena.load_study(tmp_path / "s.toml"), tmp_path / "out", backend="pool", workers=2)
    state = results.sprt()
    assert state.decision == "H1" and state.pairs < 20 and len(results) == 2 * state.pairs


def test_the_sprt_between_equal_agents_accepts_h0_or_runs_to_its_limit(tmp_path: Path) -> None:
    text = SPRT.format(name="equal", first="random", second="random", max_games=400)
    (tmp_path / "e.toml").write_text(text)
    study = arena.load_study(tmp_path / "e.toml")
    serial = arena.run(study, tmp_path / "serial", backend="serial")
    state = serial.sprt()
    assert state.decision in ("H0", None) and (state.decision == "H0" or state.pairs == 200)
    pooled = arena.run(study, tmp_path / "pool", backend="pool", workers=2)
    assert pooled.sprt() == state and len(pooled) == len(serial)  # the same stopping pair on every backend


def test_a_ladder_and_a_cooperative_study_get_their_own_tables(tmp_path: Path, run: CliRunner) -> None:
    ladder = arena.Study(
        name="ladder",
        game="kuzushi",
        format="ladder",
        games=3,
        seed=1,
        agents={"random": "random", "greedy": "greedy", "mcts": "mcts:iterations=30"},
    )
    summary = json.loads(_summary(arena.run(ladder, tmp_path / "ladder", backend="serial")))
    assert [(s["agent"], s["below"]) for s in summary["ladder"]] == [("greedy", "random"), ("mcts", "greedy")]
    assert all(0 <= s["low"] <= s["value"] <= s["high"] <= 1 for s in summary["ladder"])
    coop = arena.Study(
        name="coop",
        game="towerbrix",
        format="self-play",
        games=2,
        seed=1,
        agents={"random": "random"},
        options={"players": 2, "rounds": 1, "max_edits": 6},
    )
    summary = json.loads(_summary(arena.run(coop, tmp_path / "coop", backend="serial")))
    entry = summary["option_sets"][0]
    assert set(entry["teams"]) == {"random + random"} and entry["success"]["trials"] == 2
    assert {"success", "rounds_won", "rounds"} <= set(entry["measures"])
    assert "ratings" not in summary  # nobody to rate against anybody in a co-operative game
    code, out, _ = run("arena", "ratings", tmp_path / "coop", "--json")
    assert code == 0 and json.loads(out) == []
    code, out, _ = run("arena", "ratings", tmp_path / "coop")
    assert code == 0 and out.startswith("no games between sides to rate")


def _summary(results: arena.Results) -> str:
    results.report()
    return (results.path / "summary.json").read_text()


def test_without_the_arena_extra_ratings_and_report_name_it_in_one_line(
    finished: Path, run: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "scipy", None)  # as if not installed: find_spec gives None, import fails
    for command in ("ratings", "report"):
        code, _, err = run("arena", command, finished)
        assert_one_line_error(code, err, "need the 'arena' extra (scipy missing): pip install 'kumiki[arena]'")
    code, out, _ = run("arena", "export", finished, "--csv", "-")  # the games themselves need nothing more
    assert code == 0 and out.count("\n") == 17


def test_a_lone_agent_has_no_ratings(tmp_path: Path, run: CliRunner) -> None:
    study = arena.Study(name="lone", game="kuzushi", format="self-play", agents={"g": "greedy"}, games=2, seed=1)
    arena.run(study, tmp_path / "out", backend="serial")
    code, out, _ = run("arena", "ratings", tmp_path / "out")
    assert code == 0 and out == "one agent: no ratings (the report gives the seats' shares)\n"
    code, out, err = run("arena", "ratings", tmp_path / "out", "--json")
    assert code == 0 and json.loads(out) == []
    assert err == "note: one agent: no ratings (the report gives the seats' shares)\n"  # why the list is empty


def test_agents_that_each_played_only_themselves_have_no_ratings(tmp_path: Path, run: CliRunner) -> None:
    """Self-play of several agents: no agent met another, so the model's prior gives every one 0; a table of equal
    ratings "with no interval" would read as a measured tie. Not ``ratings``, the report or the live table."""
    agents = {"g": "greedy", "r": "random"}
    study = arena.Study(name="apart", game="kuzushi", format="self-play", agents=agents, games=3, seed=1)
    results = arena.run(study, tmp_path / "out", backend="serial")
    why = "no game between two different agents: no ratings (each played only itself)"
    code, out, _ = run("arena", "ratings", tmp_path / "out")
    assert code == 0 and out == f"{why}\n"
    code, out, err = run("arena", "ratings", tmp_path / "out", "--json")
    assert code == 0 and json.loads(out) == [] and err == f"note: {why}\n"
    summary = json.loads(_summary(results))
    assert "ratings" not in summary and "win_matrix" not in summary and summary["seat_advantage"]
    report = (tmp_path / "out" / "report.html").read_text()
    assert "No ratings: no game set two different agents" in report and "<th>rating</th>" not in report
    board = Leaderboard(tmp_path / "out", study)
    board.refresh(force=True)
    assert board.shown is None  # nor does the live table under a run's progress bar


def test_seat_advantage_from_few_seed_blocks_says_its_intervals_mean_little(tmp_path: Path) -> None:
    """A self-play study has no ratings section, whose note said it; the seats' intervals come from the same
    bootstrap over seed blocks, so below ten blocks the seat-advantage section says so itself."""
    agents = {"g": "greedy"}
    for games, shown in ((3, True), (10, False)):
        study = arena.Study(
            name=f"few{games}", game="kuzushi", format="self-play", agents=agents, games=games, options={"size": 3}
        )
        page = arena.run(study, tmp_path / str(games), backend="serial").report()
        text = page.read_text()
        assert "Seat advantage, skill held apart" in text
        assert (f"bootstrap over {games} seed block(s)" in text) is shown, games


def test_the_leaderboard_left_after_a_run_counts_every_game(finished: Path, run: CliRunner, tmp_path: Path) -> None:
    """The table under the progress bar is rebuilt every few seconds; the one left on the screen when the run ends
    is rebuilt from every game (a short run's was empty, a long one's counted the games of its last refresh)."""
    code, _, err = run("arena", "run", finished / "study.toml", "--out", tmp_path / "again", "--backend", "serial")
    assert code == 0, err
    board = err[err.index("so far") :].splitlines()
    assert re.search(r"greedy\s+\+\d+\s+16\b", "\n".join(board)), err


def test_the_leaderboard_shows_no_agent_that_has_not_played_yet(tmp_path: Path) -> None:
    """Stopped after the first line-up of a round-robin, the live table listed the agent yet to play as "+0, 0
    games": a rating between the others' that no game measured (``kumiki arena ratings`` leaves it out)."""
    agents = {"g": "greedy", "m": "mcts:iterations=5", "r": "random"}
    study = arena.Study(name="early", game="kuzushi", agents=agents, games=2, options={"size": 4})
    games = arena.run(study, tmp_path / "out", backend="serial").path / "games.jsonl"
    lines = games.read_text().splitlines()
    first = [line for line in lines if "r" not in json.loads(line)["seats"]]  # g against m only
    assert 0 < len(first) < len(lines)
    games.write_text("".join(line + "\n" for line in first))
    board = Leaderboard(tmp_path / "out", study)
    board.refresh(force=True)
    assert board.shown is not None
    shown = Console(width=80, record=True)
    shown.print(board.shown)
    text = shown.export_text()
    assert re.search(r"^ g ", text, re.M) and re.search(r"^ m ", text, re.M), text
    assert not re.search(r"^ r ", text, re.M), text


def test_the_leaderboard_shows_agent_names_as_written_not_as_markup(tmp_path: Path) -> None:
    """An agent's name is any TOML key: one such as "[/]" was read as rich markup by the live table under the
    progress bar, and `kumiki arena run` ended in "internal error (MarkupError ...)", exit status 1."""
    agents = {"[/]": "greedy", "[bold]r": "random"}
    study = arena.Study(name="markup", game="kuzushi", agents=agents, games=2, options={"size": 4})
    arena.run(study, tmp_path / "out", backend="serial")
    board = Leaderboard(tmp_path / "out", study)
    board.refresh(force=True)
    shown = Console(width=80, record=True)
    shown.print(board.shown)
    text = shown.export_text()
    assert "[/]" in text and "[bold]r" in text, text


def test_the_report_of_a_study_stopped_early_says_it_is_unfinished(finished: Path, run: CliRunner) -> None:
    """A run stopped early leaves some line-ups and seatings unplayed; the report read like a finished study's
    ("9 games"), seat shares that mix an agent's skill with its seat included. It says how many are left."""
    games = finished / "games.jsonl"
    lines = games.read_text().splitlines()
    games.write_text("".join(line + "\n" for line in lines[:5]))
    for command in ("report", "ratings"):
        code, _, err = run("arena", command, finished)
        assert code == 0 and f"note: unfinished: 5 of the study's {len(lines)} games played" in err, err
    assert (
        f"This study is unfinished: 5 of the study&#x27;s {len(lines)} games" in (finished / "report.html").read_text()
    )
    assert json.loads((finished / "summary.json").read_text())["unfinished"].startswith("unfinished: 5 of")
    code, _, err = run("arena", "run", finished / "study.toml", "--out", finished, "--backend", "serial", "--quiet")
    assert code == 0 and "unfinished" not in err, err
    code, _, err = run("arena", "report", finished)
    assert code == 0 and "unfinished" not in err and "unfinished" not in (finished / "report.html").read_text()
    assert json.loads((finished / "summary.json").read_text())["unfinished"] is None


@pytest.mark.parametrize("name", ["report.html", "summary.json", "seat_wins.csv"])
def test_a_report_that_cannot_be_written_is_one_line(finished: Path, run: CliRunner, name: str) -> None:
    """A file of the report that cannot be written (a read-only folder, a full disk; here a folder in its place) was
    an internal error, exit 1."""
    (finished / name).mkdir()
    code, out, err = run("arena", "report", finished)
    assert_one_line_error(code, err, f"{finished / name}: cannot write the report (Is a directory)")
    assert out == ""


def test_ratings_on_a_folder_without_games_says_what_the_report_says(tmp_path: Path, run: CliRunner) -> None:
    """A folder holding its study.toml and no game (no games.jsonl, or an empty one): `ratings` said "no games
    between sides to rate (a co-operative study …)" with exit 0, while `report` said there were no games yet."""
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "study.toml").write_text(STUDY)
    for games_file in (None, ""):
        if games_file is not None:
            (folder / "games.jsonl").write_text(games_file)
        for command in (["ratings"], ["ratings", "--json"], ["report"]):
            code, out, err = run("arena", *command, folder)
            assert_one_line_error(code, err, f"{folder}: no games yet; run the study first")
            assert out == ""


def test_a_run_whose_output_is_no_terminal_ends_its_last_line(tmp_path: Path, run: CliRunner) -> None:
    """Piped, rich's live display ends without a newline (on a terminal it writes one): the leaderboard's last row
    and the summary line ran together (`random  -781  32 48 games in …` with `2>&1 | tail`). Nor is an empty line
    left where no leaderboard is shown (one agent)."""
    two = arena.Study(name="two", game="kuzushi", agents={"g": "greedy", "r": "random"}, games=1, options={"size": 3})
    one = arena.Study(name="one", game="kuzushi", format="self-play", agents={"g": "greedy"}, games=1)
    for study, last, games in ((two, r" r +[-+]\d+ +2 $", 2), (one, r"one .* 1/1 games .*\d$", 1)):
        (tmp_path / f"{study.name}.toml").write_text(study.to_toml())
        code, out, err = run(
            "arena", "run", tmp_path / f"{study.name}.toml", "--out", tmp_path / study.name, "--backend", "serial"
        )
        assert code == 0, err
        assert err.endswith("\n") and not err.endswith("\n\n"), repr(err[-200:])
        assert re.search(last, err.splitlines()[-1]), err
        assert out.startswith(f"{games} games in {tmp_path / study.name}\n")


def test_the_pace_counts_this_runs_games_from_its_start() -> None:
    """The bar showed `64/180 games 851.3/s` after 6.4 s: rich's speed counts from the first report that adds games,
    and the pool's workers each finish their first batch within milliseconds of one another. The pace is the games
    this run finished over the time since it began (not counting those it found in the folder)."""
    now = [0.0]
    pace = RunPace(clock=lambda: now[0])
    bar = progress_bar("rr", Console(file=io.StringIO()), pace)
    task = bar.add_task("games", total=None)

    def report(at: float, done: int, total: int) -> None:
        now[0] = at
        pace.update(done, total)
        bar.update(task, completed=done, total=total)

    report(0.0, 0, 180)  # the start: no game yet
    for batch in range(8):  # eight workers, a batch of eight games each, all done at about 6.4 s
        report(6.33 + batch * 0.01, 8 * (batch + 1), 180)
    assert bar.tasks[0].speed == pytest.approx(800)  # what the bar used to show
    assert pace.per_second() == pytest.approx(10.0) and pace.left_s() == pytest.approx(11.6)
    shown = io.StringIO()
    Console(file=shown, width=120, color_system=None).print(bar)
    assert re.search(r"rr .* 64/180 games 10\.0/s 0:00:12$", shown.getvalue().rstrip("\n")), shown.getvalue()
    now[0] = 12.8  # no game for 6.4 s more: the pace falls as it waits
    assert pace.per_second() == pytest.approx(5.0)

    resumed = RunPace(clock=lambda: now[0])  # a run resumed on 100 games found in its folder
    resumed.update(100, 180)
    now[0] += 4.0
    resumed.update(120, 180)
    assert resumed.per_second() == pytest.approx(5.0) and resumed.left_s() == pytest.approx(12.0)
    resumed.update(180, 180)
    assert resumed.left_s() == 0.0


def test_in_a_game_of_chance_the_bootstrap_draws_the_games_of_one_seed_together(tmp_path: Path) -> None:
    """Block b of every line-up and option set is played on the same seed: in a game of chance the same deal. The
    bootstrap drew blocks apart and the report counted 9 "seed blocks" for a three-agent round robin of 3 seeds (no
    caveat from 10 on: 4 agents and games = 2 gave 12 "blocks", 2 deals). Without chance, blocks stay the unit."""
    agents = {"a": "random", "b": "random", "c": "random"}
    kozo = arena.Study(
        name="k", game="kozo", agents=agents, games=3, seed=1, options={"rounds": 1, "random_size": True}
    )
    results = arena.run(kozo, tmp_path / "kozo", backend="serial")
    assert kozo.chance and len({r["block"] for r in results.rows}) == 9 and len({r["seed"] for r in results.rows}) == 3
    text = results.report().read_text()
    assert "bootstrap over 3 game seed(s), each drawn with all its games" in text and "seed block(s)" not in text
    four = arena.Study(
        name="k4", game="kozo", agents={**agents, "d": "random"}, games=2, options={"rounds": 1, "random_size": True}
    )
    text = arena.run(four, tmp_path / "four", backend="serial").report().read_text()
    assert "bootstrap over 2 game seed(s)" in text  # 12 blocks: no caveat was shown
    assert not arena.Study(name="k0", game="kozo", agents=agents, games=3).chance  # no random_size: no deal
    assert arena.Study(name="k2", game="kozo", agents=agents, games=3, options={"random_size": [False, True]}).chance
    kuzushi = arena.Study(name="z", game="kuzushi", agents=agents, games=3, seed=1, options={"size": 3})
    text = arena.run(kuzushi, tmp_path / "kuzushi", backend="serial").report().read_text()
    assert not kuzushi.chance and "bootstrap over 9 seed block(s)" in text and "game seed(s)" not in text


def test_variants_of_which_one_deals_are_not_said_to_have_met_the_same_deals(tmp_path: Path) -> None:
    """Kozo deals only with ``random_size``: a report comparing it on and off said "Both variants met the same
    deals", and one of them dealt nothing. Where both deal, the sentence stays."""
    agents = {"a": "random", "b": "random"}
    mixed = arena.Study(
        name="m", game="kozo", agents=agents, games=2, seed=1, options={"rounds": 1, "random_size": [False, True]}
    )
    assert mixed.chance and not mixed.deals_everywhere
    text = arena.run(mixed, tmp_path / "mixed", backend="serial").report().read_text()
    assert "Variants compared" in text and "Both variants met the same deals" not in text
    assert "Some option sets deal from their seed and some do not" in text
    both = arena.Study(
        name="b", game="kozo", agents=agents, games=2, seed=1, options={"rounds": [1, 2], "random_size": True}
    )
    assert both.deals_everywhere
    text = arena.run(both, tmp_path / "both", backend="serial").report().read_text()
    assert "Both variants met the same deals" in text and "some do not" not in text
    assert not arena.Study(name="k0", game="kozo", agents=agents, games=2).deals_everywhere


def test_ratings_over_few_seed_blocks_say_their_intervals_mean_little(
    run_study: Callable[[str, str], tuple[Path, str]], run: CliRunner
) -> None:
    """The report flagged a bootstrap over fewer than ten blocks; the command printed the same intervals bare (seven
    SPRT pairs gave "[322, 532]" with no word of caution)."""
    text = 'name = "few"\ngame = "kuzushi"\ngames = 3\nseed = 4\n[options]\nsize = 4\n'
    out, _ = run_study(text + '[agents]\nr1 = "random"\nr2 = "random:seed=7"\n', "few")
    code, table, err = run("arena", "ratings", out)
    assert code == 0 and table.startswith("agent")
    assert "note: the intervals come from a bootstrap over 3 seed blocks" in err
    assert "mean little" in err


def test_ratings_as_text_end_with_the_reports_reading_on_stderr(finished: Path, run: CliRunner) -> None:
    """The report says in words who is strongest and whether the games tell it apart; `arena ratings` printed only
    the table. The sentence goes to stderr with the notes, so stdout stays the table a script reads."""
    code, out, err = run("arena", "ratings", finished)
    assert code == 0 and "reading:" not in out
    reading = next(line for line in err.splitlines() if line.startswith("reading: "))
    assert reading.startswith("reading: Strongest first: greedy, random.") and "greedy is rated highest" in reading


@pytest.mark.parametrize("command", ["ratings", "report"])
def test_a_folder_the_system_cannot_open_is_one_line(run: CliRunner, command: str) -> None:
    """A name longer than the system takes (an OSError other than "no such file") was an internal error."""
    code, _, err = run("arena", command, "x" * 300)
    assert assert_one_line_error(code, err, "File name too long").startswith("x" * 300)


def test_an_sprt_that_decides_early_ends_with_a_full_bar(run: CliRunner, tmp_path: Path) -> None:
    """The bar of an SPRT that stopped early stayed at "14/400 games", 1 min 41 s left, for good."""
    study = tmp_path / "early.toml"
    study.write_text(SPRT.format(name="early", first="mcts:iterations=200", second="random", max_games=400))
    code, _, err = run("arena", "run", study, "--out", tmp_path / "out", "--backend", "serial")
    assert code == 0, err
    bar = next(line for line in err.splitlines() if " games " in line)
    done = re.search(r"(\d+)/(\d+) games .* (\d+:\d\d:\d\d)", bar)
    assert done is not None and done[1] == done[2] and int(done[1]) < 400 and done[3] == "0:00:00", bar
