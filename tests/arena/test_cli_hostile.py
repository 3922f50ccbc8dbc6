"""The arena's commands given what a careless or hostile user gives them: a pipe or a link where the CSV goes."""

from __future__ import annotations

import io
import os
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from tests.helpers import CliRunner, assert_one_line_error

STUDY = """
name = "hostile"
game = "kuzushi"
games = 2
seed = 4
[options]
size = 4
[agents]
greedy = "greedy"
random = "random"
"""


@pytest.fixture
def finished(run_study: Callable[[str, str], tuple[Path, str]]) -> Path:
    out, _ = run_study(STUDY, "hostile")
    return out


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
def test_export_to_a_pipe_writes_through_it(finished: Path, run: CliRunner, tmp_path: Path) -> None:
    """`--csv /dev/stdout`, a FIFO, a device: the CSV was written beside it and renamed over it, so the pipe's reader
    got nothing (and, as root, /dev/full or /dev/null itself was replaced by a file of games)."""
    code, whole, _ = run("arena", "export", finished, "--csv", "-")
    assert code == 0
    fifo = tmp_path / "games.fifo"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a reader waiting, so the export's open does not block
    try:
        code, out, err = run("arena", "export", finished, "--csv", fifo)
        assert code == 0, err
        assert out == ""  # nothing on stdout: with --csv /dev/stdout the path's line ended the CSV
        assert stat.S_ISFIFO(fifo.stat().st_mode)  # still the pipe, not a file put in its place
        got = b""
        while chunk := os.read(reader, 65536):
            got += chunk
    finally:
        os.close(reader)
    assert got.decode("utf-8").replace("\r\n", "\n") == whole.replace("\r\n", "\n")
    assert not list(tmp_path.glob("*.partial"))


def test_export_to_a_link_writes_the_file_it_names(finished: Path, run: CliRunner, tmp_path: Path) -> None:
    """A link to a CSV file (a shared sheet's shortcut): the games go to that file; the link was replaced by a file
    of its own and the file it named kept its old rows, a silent stale result."""
    sheet = tmp_path / "shared" / "games.csv"
    sheet.parent.mkdir()
    sheet.write_text("old\n")
    link = tmp_path / "latest.csv"
    link.symlink_to(sheet)
    code, out, err = run("arena", "export", finished, "--csv", link)
    assert code == 0, err
    assert out == f"{link}\n"
    assert link.is_symlink() and link.resolve() == sheet.resolve()
    assert sheet.read_text(encoding="utf-8").startswith("index,block,")
    assert not list(tmp_path.rglob("*.partial"))


def test_records_asked_for_on_a_folder_played_without_them_are_said_missing(
    finished: Path, run: CliRunner, tmp_path: Path
) -> None:
    """`--records` on a folder whose games a run without it played: no game is played again, so no record was
    written, and the run ended as if every record were there."""
    study = tmp_path / "hostile.toml"
    code, _, err = run("arena", "run", study, "--out", finished, "--backend", "serial", "--quiet", "--records")
    assert code == 0 and not (finished / "records").exists()
    assert "note: 4 of 4 games have no record in" in err, err
    fresh = tmp_path / "fresh"
    code, _, err = run("arena", "run", study, "--out", fresh, "--backend", "serial", "--quiet", "--records")
    assert code == 0 and len(list((fresh / "records").glob("*.kmk"))) == 4
    assert "no record" not in err, err
    code, _, err = run("arena", "run", study, "--out", fresh, "--backend", "serial", "--quiet")  # all there
    assert code == 0 and "no record" not in err, err
    (fresh / "records" / "000002.kmk").unlink()
    code, _, err = run("arena", "run", study, "--out", fresh, "--backend", "serial", "--quiet")
    assert code == 0 and "note: 1 of 4 games have no record" in err, err


def test_a_results_file_that_cannot_be_read_is_named_not_taken_for_another_study(
    finished: Path, run: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A study.toml that cannot be read (a folder in its place, its permissions) was "the results of another study",
    and a games.jsonl that cannot be read was said of the folder ("out: Permission denied"), which reads fine."""
    study = tmp_path / "hostile.toml"
    other = tmp_path / "other"
    (other / "study.toml").mkdir(parents=True)
    code, _, err = run("arena", "run", study, "--out", other, "--backend", "serial", "--quiet")
    line = assert_one_line_error(code, err, str(other / "study.toml"), "Is a directory")
    assert "another study" not in line
    games = finished / "games.jsonl"
    read_bytes = Path.read_bytes

    def unreadable(path: Path) -> bytes:
        if path == games:
            raise PermissionError(13, "Permission denied", str(path))
        return read_bytes(path)

    monkeypatch.setattr(Path, "read_bytes", unreadable)
    for args in (
        ("run", study, "--out", finished, "--backend", "serial", "--quiet"),
        ("ratings", finished),
        ("report", finished),
        ("export", finished, "--csv", tmp_path / "x.csv"),
    ):
        code, _, err = run("arena", *args)
        assert_one_line_error(code, err, f"{games}: Permission denied")


def test_the_next_command_is_one_a_shell_runs(run: CliRunner, tmp_path: Path) -> None:
    """ "next: kumiki arena report results/first try" split the folder of a study named with a space in two."""
    import shlex

    study = tmp_path / "spaced.toml"
    study.write_text(STUDY.replace('"hostile"', '"first try"'))
    out = tmp_path / "first try"
    code, stdout, err = run("arena", "run", study, "--out", out, "--backend", "serial")
    assert code == 0, err
    command = next(line for line in stdout.splitlines() if line.startswith("next: "))
    assert shlex.split(command.removeprefix("next: ")) == ["kumiki", "arena", "report", str(out)]


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="a file name that is not UTF-8")
def test_a_folder_whose_name_is_not_utf8(
    finished: Path, run: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder named in Latin-1 (``café`` from an old archive): the report, which names its folder, stopped with
    "internal error (UnicodeEncodeError ...)" after writing summary.json, not report.html; and on the strict stdout
    of a UTF-8 locale, so did printing the folder's name after a run, a report or an export."""
    latin = Path(os.fsdecode(bytes(tmp_path) + b"/caf\xe9"))
    finished.rename(latin)
    raw = io.BytesIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(raw, encoding="utf-8", errors="strict", write_through=True))
    csv_file = Path(os.fsdecode(bytes(tmp_path) + b"/g\xe9.csv"))
    for args in (
        ("run", tmp_path / "hostile.toml", "--out", latin, "--backend", "serial", "--quiet"),
        ("report", latin),
        ("export", latin, "--csv", csv_file),
    ):
        code, _, err = run("arena", *args)
        assert code == 0, err
    named = [bytes(latin), bytes(latin) + b"/report.html", bytes(csv_file)]
    assert raw.getvalue() == b"".join(name + b"\n" for name in named)
    assert "caf\ufffd" in (latin / "report.html").read_text(encoding="utf-8")


def test_the_study_notes_reach_stderr_with_quiet_too(run: CliRunner, tmp_path: Path) -> None:
    """docs/arena.md: with --quiet "notes, errors ... go to stderr", and an SPRT's unused games, an [sprt] table
    another format ignores and a study that depends on the machine are each "said on stderr"; --quiet dropped all
    three, though it kept the notes on the games read."""
    sprt = tmp_path / "sprt.toml"
    sprt.write_text(
        'name = "s"\ngame = "kuzushi"\nformat = "sprt"\ngames = 300\nmove_limit_s = 60\n[options]\nsize = 4\n'
        '[agents]\na = "random"\nb = "greedy"\n[sprt]\nmax_games = 2\n'
    )
    code, out, err = run("arena", "run", sprt, "--out", tmp_path / "s", "--backend", "serial", "--quiet")
    assert code == 0 and out == f"{tmp_path / 's'}\n", err
    assert "note: an SPRT does not use games (300)" in err
    assert "note: a time budget or move limit makes this study's results depend on the machine" in err
    unused = tmp_path / "unused.toml"
    unused.write_text(STUDY + "[sprt]\nelo1 = 20\n")
    code, out, err = run("arena", "run", unused, "--out", tmp_path / "u", "--backend", "serial", "--quiet")
    assert code == 0 and out == f"{tmp_path / 'u'}\n", err
    assert 'note: the [sprt] table is used by format "sprt" only; this round-robin ignores it' in err


def test_the_leaderboard_never_shows_minus_zero(finished: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two agents as strong as each other: the live table read "+0" and "-0" (a skill of -0.3), where `kumiki arena
    ratings` rounds first and reads 0 for both."""
    import re
    from types import SimpleNamespace

    from rich.console import Console

    from kumiki import arena
    from kumiki.arena.ratings import Events
    from kumiki.cli_arena import Leaderboard

    monkeypatch.setattr(Events, "fit", lambda self, *a, **k: SimpleNamespace(skills=[0.3, -0.3]))
    results = arena.Results(finished)
    board = Leaderboard(results.path, results.study)
    board.refresh(force=True)
    console = Console(width=60, color_system=None)
    with console.capture() as captured:
        console.print(board)
    text = captured.get()
    assert re.search(r"greedy\s+\+0\s", text) and re.search(r"random\s+\+0\s", text), text


def test_a_study_file_edited_after_its_games_refuses_to_count_them_as_its_own(finished: Path, run: CliRunner) -> None:
    """The folder's study.toml given a new root seed by hand: `run` took the games of seed 4 as the new seed's (its
    study is itself, so nothing differed) and `ratings` then rated them as such, in silence."""
    study_file = finished / "study.toml"
    games = (finished / "games.jsonl").read_bytes()
    study_file.write_text(study_file.read_text().replace("seed = 4", "seed = 5"))
    code, out, err = run("arena", "run", study_file, "--out", finished, "--backend", "serial", "--quiet")
    assert_one_line_error(code, err, "games.jsonl: game 0 was played with seed", "study.toml was changed after")
    assert out == ""
    assert (finished / "games.jsonl").read_bytes() == games  # nothing written
    study_file.write_text(study_file.read_text().replace("seed = 5", "seed = 4"))  # put back: resumes as before
    code, _, err = run("arena", "run", study_file, "--out", finished, "--backend", "serial", "--quiet")
    assert code == 0, err


def test_a_study_of_more_games_than_memory_holds_is_refused_before_anything_is_written(
    tmp_path: Path, run: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`games` = 10,000,000 on each of 9 option sets: the runner built the whole schedule (about 200 bytes a game) and
    the pool's queue in memory before the first game, gigabytes, instead of saying the study is too large. The
    schedule is refused outright here: without the check the test fails at once, not after minutes of building."""
    from kumiki.arena import runner, schedule

    def no_schedule(study: object) -> None:
        raise AssertionError("the schedule of a study too large to hold was built: refuse it before")

    monkeypatch.setattr(runner, "schedule", no_schedule)
    monkeypatch.setattr(schedule, "schedule", no_schedule)
    study = tmp_path / "huge.toml"
    big = STUDY.replace("games = 2", "games = 10000000").replace("size = 4", "size = [3, 4, 5]\ntiles = [1, 2, 3]")
    study.write_text(big)
    out = tmp_path / "out"
    code, stdout, err = run("arena", "run", study, "--out", out, "--backend", "serial", "--quiet")
    assert_one_line_error(code, err, "180,000,000 games in all", "at most 10,000,000")
    assert stdout == "" and not out.exists()
    from kumiki import arena

    with pytest.raises(arena.StudyError, match="games in all"):
        arena.run(arena.load_study(study), out, "serial")
    assert not out.exists()


def test_a_study_file_whose_option_sets_were_reordered_refuses_its_games(
    run_study: Callable[[str, str], tuple[Path, str]], run: CliRunner
) -> None:
    """`size = [3, 4]` edited to `[4, 3]` after the games: every game's seed and seats are the same in both option
    sets, so the seed check let it resume, and the games of size 3 stood at the indexes of size 4's (a run stopped
    half-way then played size 3 twice and size 4 never)."""
    finished, _ = run_study(STUDY.replace("games = 2", "games = 1").replace("size = 4", "size = [3, 4]"), "reordered")
    study_file = finished / "study.toml"
    games = (finished / "games.jsonl").read_bytes()
    assert "size = [3, 4]" in study_file.read_text()
    study_file.write_text(study_file.read_text().replace("size = [3, 4]", "size = [4, 3]"))
    code, out, err = run("arena", "run", study_file, "--out", finished, "--backend", "serial", "--quiet")
    assert_one_line_error(code, err, "games.jsonl: game 0 was played with options", "study.toml was changed after")
    assert out == ""
    assert (finished / "games.jsonl").read_bytes() == games  # nothing written
    study_file.write_text(study_file.read_text().replace("size = [4, 3]", "size = [3, 4]"))  # put back: resumes
    code, _, err = run("arena", "run", study_file, "--out", finished, "--backend", "serial", "--quiet")
    assert code == 0, err


def test_export_to_links_in_a_loop_is_refused_in_one_line(finished: Path, run: CliRunner, tmp_path: Path) -> None:
    """A link to a link back to it: resolving it raised RuntimeError ("internal error ... please report it")."""
    first, second = tmp_path / "a.csv", tmp_path / "b.csv"
    first.symlink_to(second)
    second.symlink_to(first)
    code, out, err = run("arena", "export", finished, "--csv", first)
    assert_one_line_error(code, err, "a.csv: a link that leads to itself")
    assert out == ""
    assert first.is_symlink() and second.is_symlink()
    assert not list(tmp_path.glob("*.partial"))


@pytest.mark.skipif(not Path("/dev/stdout").exists(), reason="/dev/stdout")
def test_export_to_dev_stdout_sent_to_a_file_appends_to_it(finished: Path, run: CliRunner, tmp_path: Path) -> None:
    """`--csv /dev/stdout >> games.log`: /dev/stdout leads to games.log, which the export replaced with a file of the
    games (the log's earlier lines lost); it is now written as `--csv -` is, through stdout."""
    _, whole, _ = run("arena", "export", finished, "--csv", "-")
    log = tmp_path / "games.log"
    log.write_text("earlier line\n")
    command = [sys.executable, "-m", "kumiki.cli", "arena", "export", str(finished), "--csv", "/dev/stdout"]
    with log.open("a") as stdout:
        done = subprocess.run(command, stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert log.read_text(encoding="utf-8").replace("\r\n", "\n") == "earlier line\n" + whole.replace("\r\n", "\n")
    assert not list(tmp_path.glob("*.partial"))
