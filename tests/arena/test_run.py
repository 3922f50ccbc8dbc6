"""Running studies: the same rows on every backend and worker count, forfeits recorded, resumption after kill -9."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from kumiki import arena
from kumiki.arena.results import GAMES_FILE
from kumiki.arena.schedule import lineups, schedule, seatings

SMALL = arena.Study(
    name="small",
    game="kuzushi",
    agents={"greedy": "greedy", "random": "random", "mcts": "mcts:iterations=20"},
    games=3,
    seed=11,
    options={"players": [2, 3], "size": 5},
)


def comparable(results: arena.Results) -> list[str]:
    """The rows as text without the think times (the only field allowed to differ), sorted by index."""
    return [
        json.dumps({k: v for k, v in r.items() if k != "think_s"})
        for r in sorted(results.rows, key=lambda r: r["index"])
    ]


def test_serial_and_pool_with_any_worker_count_give_the_same_results(tmp_path: Path) -> None:
    serial = arena.run(SMALL, tmp_path / "serial", backend="serial")
    one = arena.run(SMALL, tmp_path / "pool1", backend="pool", workers=1)
    two = arena.run(SMALL, tmp_path / "pool2", backend="pool", workers=2)
    assert len(serial) == 3 * 3 * 2 + 1 * 3 * 3 and comparable(serial) == comparable(one) == comparable(two)
    lines = (tmp_path / "pool2" / GAMES_FILE).read_text().splitlines()
    assert sorted(json.loads(line)["index"] for line in lines) == list(range(len(serial)))
    row = serial.rows[0]
    assert set(row) >= {
        "index",
        "block",
        "options",
        "seats",
        "seed",
        "scores",
        "winners",
        "moves",
        "forfeit",
        "think_s",
    }
    assert row["forfeit"] is None and len(row["think_s"]) == len(row["seats"])


def test_running_again_plays_nothing_and_another_study_is_refused(tmp_path: Path) -> None:
    first = arena.run(SMALL, tmp_path / "r", backend="serial")
    before = (tmp_path / "r" / GAMES_FILE).read_bytes()
    again = arena.run(SMALL, tmp_path / "r", backend="serial")
    assert (tmp_path / "r" / GAMES_FILE).read_bytes() == before and len(again) == len(first)
    other = arena.Study(name="small", game="kuzushi", agents={"greedy": "greedy", "random": "random"}, games=1)
    with pytest.raises(arena.StudyError, match="holds the results of another study"):
        arena.run(other, tmp_path / "r", backend="serial")


def test_a_changed_study_is_refused_naming_what_differs(tmp_path: Path) -> None:
    """A pilot's `games` raised was refused with "its study.toml differs" and no more: which key, from what to what.
    The order of the agents counts too: it orders the line-ups, so it was taken for the same study (a dict's
    equality ignores order) and resumed into games of other meanings."""
    pilot = arena.Study(name="pilot", game="kuzushi", agents={"greedy": "greedy", "random": "random"}, games=1)
    arena.run(pilot, tmp_path / "r", backend="serial")
    for other, what in [
        (replace(pilot, games=2), "games 1 → 2"),
        (replace(pilot, seed=3, options={"size": 5}), "seed 0 → 3, options.size (none) → 5"),
        (
            replace(pilot, agents={"greedy": "mcts", "rand": "random"}),
            'agents.greedy "greedy" → "mcts", agents.random "random" → (none), agents.rand (none) → "random"',
        ),
        (replace(pilot, agents={"random": "random", "greedy": "greedy"}), "the order of [agents]"),
    ]:
        with pytest.raises(arena.StudyError) as caught:
            arena.run(other, tmp_path / "r", backend="serial")
        differs = f"(its study.toml differs: {what}); choose another --out folder"
        assert str(caught.value) == f"{tmp_path / 'r'}: holds the results of another study {differs}"
    assert len(arena.run(pilot, tmp_path / "r", backend="serial")) == 2  # the study itself still resumes


def test_more_games_move_the_games_already_played_so_they_are_another_study(tmp_path: Path) -> None:
    """Why a larger `games` is not a resume: the games are numbered option set by option set and line-up by line-up,
    so every game after the first line-up moves to another index, and an agent's seed derives from its game's index.
    Run with games = 2 then 3 into one folder, the first games' rows would not be those of a fresh run of 3."""
    two, three = replace(SMALL, games=2), SMALL
    before = {spec.index: spec for spec in schedule(two)}
    after = {spec.index: spec for spec in schedule(three)}
    moved = [
        i
        for i, spec in before.items()
        if (spec.block, spec.seats, spec.seed) != (after[i].block, after[i].seats, after[i].seed)
    ]
    assert moved and moved[0] == 2 * len(seatings(lineups(two, 2)[0], False))  # the second line-up's first game
    with pytest.raises(arena.StudyError, match=r"differs: games 2 → 3\)"):
        arena.run(three, arena.run(two, tmp_path / "r", backend="serial").path, backend="serial")


@pytest.mark.parametrize("backend", ["serial", "pool"])
def test_an_agent_that_fails_loses_by_forfeit_and_the_study_goes_on(tmp_path: Path, backend: str) -> None:
    study = arena.Study(
        name="forfeits",
        game="kuzushi",
        agents={
            "random": "random",
            "raiser": "tests.arena.agents:raiser",
            "cheater": "tests.arena.agents:cheater",
        },
        format="gauntlet",
        focus="random",
        games=1,
        seed=2,
    )
    results = arena.run(study, tmp_path / "f", backend=backend, workers=2)
    assert len(results) == 4
    by_agent: dict[str, list[dict[str, Any]]] = {}
    for row in results.rows:
        other = next(a for a in row["seats"] if a != "random")
        by_agent.setdefault(other, []).append(row)
    for name, reason in [("raiser", "raised: RuntimeError: boom"), ("cheater", "played an illegal move 'B 99,99'")]:
        for row in by_agent[name]:
            seat = row["seats"].index(name)
            assert row["forfeit"]["seat"] == seat and reason in row["forfeit"]["reason"], row["forfeit"]
            assert row["winners"] == [1 - seat] and row["ranks"][seat] == 2


def test_a_move_over_the_limit_is_a_forfeit_and_marks_the_study(tmp_path: Path) -> None:
    study = arena.Study(
        name="slow",
        game="kuzushi",
        agents={"random": "random", "sleeper": "tests.arena.agents:sleeper"},
        games=1,
        move_limit_s=0.1,
    )
    assert not study.reproducible
    results = arena.run(study, tmp_path / "s", backend="serial")
    for row in results.rows:
        seat = row["seats"].index("sleeper")
        assert row["forfeit"]["seat"] == seat and "over the limit of 0.1 s" in row["forfeit"]["reason"]


@pytest.mark.parametrize("backend", ["serial", "pool"])
def test_an_agent_that_never_answers_is_stopped_and_forfeits(tmp_path: Path, backend: str) -> None:
    """The limit was checked only once the move came back: an agent that never answered (a loop, a deadlock) held
    the study for ever. It is stopped a little past the limit, even when it swallows every Exception."""
    study = arena.Study(
        name="hung",
        game="kuzushi",
        agents={"random": "random", "hanger": "tests.arena.agents:hanger"},
        games=1,
        move_limit_s=0.2,
    )
    results = arena.run(study, tmp_path / "h", backend=backend, workers=2)
    assert len(results) == 2
    for row in results.rows:
        seat = row["seats"].index("hanger")
        assert row["forfeit"]["seat"] == seat, row["forfeit"]
        assert "was stopped, over the limit of 0.2 s" in row["forfeit"]["reason"]
        assert row["winners"] == [1 - seat] and 0.2 < row["think_s"][seat] < 30


def test_stopping_a_move_keeps_an_alarm_set_before() -> None:
    """A test runner's timeout (an alarm set before the game) survives a stopped move's own alarm: set again with
    the time it had left, its handler back."""
    from kumiki.arena.play import OverLimit, stopped_after

    def runner_timeout(_signum: int, _frame: object) -> None:
        raise AssertionError("the runner's alarm went off")

    saved = signal.getitimer(signal.ITIMER_REAL)  # pytest-timeout's own, put back at the end
    old = signal.signal(signal.SIGALRM, runner_timeout)
    signal.setitimer(signal.ITIMER_REAL, 50.0)
    try:
        with stopped_after(0.05):
            pass  # a move that answers at once
        left, _ = signal.getitimer(signal.ITIMER_REAL)
        assert 45 < left <= 50 and signal.getsignal(signal.SIGALRM) is runner_timeout
        with pytest.raises(OverLimit), stopped_after(0.05):
            time.sleep(5)
        left, _ = signal.getitimer(signal.ITIMER_REAL)
        assert 40 < left <= 50 and signal.getsignal(signal.SIGALRM) is runner_timeout
        signal.setitimer(signal.ITIMER_REAL, 0.01)  # an alarm due before the move's: the move is not stopped
        with pytest.raises(AssertionError, match="runner's alarm"), stopped_after(5):
            time.sleep(1)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        if saved[0]:
            signal.setitimer(signal.ITIMER_REAL, *saved)


def test_an_alarm_going_off_as_the_move_ends_is_ignored_and_the_alarm_before_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The move's alarm may go off just as the move answers, before it is cleared: its handler then raised in the
    context's clean-up and skipped the rest, leaving the arena's handler in place and the runner's alarm lost (seen
    in 4 of 4,000 moves that answer at the limit). Simulated here: the alarm goes off as it is being cleared."""
    from kumiki.arena import play

    real = signal.setitimer

    def late_alarm(which: int, seconds: float, interval: float = 0.0) -> tuple[float, float]:
        if seconds == 0 and signal.getsignal(signal.SIGALRM) is not runner_timeout:
            signal.raise_signal(signal.SIGALRM)  # due just before it is cleared
        return real(which, seconds, interval)

    def runner_timeout(_signum: int, _frame: object) -> None:
        raise AssertionError("the runner's alarm went off")

    saved = signal.getitimer(signal.ITIMER_REAL)
    old = signal.signal(signal.SIGALRM, runner_timeout)
    real(signal.ITIMER_REAL, 50.0)
    try:
        monkeypatch.setattr(play.signal, "setitimer", late_alarm)
        with play.stopped_after(5):
            pass  # answered in time: the late alarm changes nothing
        monkeypatch.undo()
        left, _ = signal.getitimer(signal.ITIMER_REAL)
        assert 45 < left <= 50 and signal.getsignal(signal.SIGALRM) is runner_timeout
    finally:
        monkeypatch.undo()
        real(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        if saved[0]:
            real(signal.ITIMER_REAL, *saved)


def test_the_record_of_a_forfeited_game_reads_back_as_over_with_the_rows_winners(tmp_path: Path) -> None:
    """A forfeit ends the game: its record said nothing of it, and `kumiki replay` read it as a game going on,
    nobody winning, while the row named the winners."""
    import kumiki

    study = arena.Study(
        name="forfeits",
        game="kuzushi",
        agents={"raiser": "tests.arena.agents:raiser", "cheater": "tests.arena.agents:cheater", "greedy": "greedy"},
        games=1,
        seed=3,
        options={"size": 4},
    )
    results = arena.run(study, tmp_path / "f", backend="serial", records=True)
    forfeits = [row for row in results.rows if row["forfeit"] is not None]
    assert forfeits
    for row in forfeits:
        _, state = kumiki.read_record((tmp_path / "f" / "records" / f"{row['index']:06d}.kmk").read_text())
        assert state.over and state.winners() == row["winners"] and len(state.history) == row["moves"]


def test_records_are_written_and_replay(tmp_path: Path) -> None:
    import kumiki

    results = arena.run(SMALL, tmp_path / "rec", backend="serial", records=True)
    records = sorted((tmp_path / "rec" / "records").glob("*.kmk"))
    assert len(records) == len(results)
    _, state = kumiki.read_record(records[0].read_text())
    assert state.over and len(state.history) == results.rows[0]["moves"]
    assert "record" not in results.rows[0]
    tags = {
        line
        for text in map(Path.read_text, records)
        for line in text.splitlines()
        if line.startswith(("[Player0", "[Player1", "[Player2"))
    }
    assert {tag.split('"')[1] for tag in tags} == {
        "mcts (mcts:iterations=20)",
        "greedy",
        "random",
    }  # not "greedy (greedy)"


KILL_STUDY = """
name = "killed"
game = "kuzushi"
games = 12
seed = 5
[options]
players = 2
[agents]
mcts = "mcts:iterations=40"
greedy = "greedy"
"""


def test_kill_9_then_the_same_command_resumes_to_identical_results(tmp_path: Path) -> None:
    study_file = tmp_path / "killed.toml"
    study_file.write_text(KILL_STUDY)
    command = [sys.executable, "-m", "kumiki.cli", "arena", "run", str(study_file), "--backend", "serial", "--quiet"]
    reference = arena.run(arena.load_study(study_file), tmp_path / "whole", backend="serial")
    out = tmp_path / "cut"
    process = subprocess.Popen([*command, "--out", str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    games = out / GAMES_FILE
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not games.exists() or len(games.read_bytes().splitlines()) < 5):
        time.sleep(0.02)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    kept = games.read_bytes().splitlines()
    assert 5 <= len(kept) < len(reference), "the kill must fall in the middle of the study"
    with games.open("ab") as handle:  # as if the kill had cut a line in half
        handle.write(b'{"index": 999, "block": 3, "opt')
    done = subprocess.run([*command, "--out", str(out)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    resumed = arena.Results(out)
    assert comparable(resumed) == comparable(reference)
    indexes = [json.loads(line)["index"] for line in games.read_text().splitlines()]
    assert sorted(indexes) == list(range(len(reference)))  # none lost, none twice, the torn line gone


def test_an_agent_that_cannot_be_made_is_refused_before_any_game(tmp_path: Path) -> None:
    with pytest.raises(
        arena.StudyError, match=re.escape("agents.broken: agent 'tests.arena.agents:broken': RuntimeError")
    ):
        arena.Study(name="b", game="kuzushi", agents={"random": "random", "broken": "tests.arena.agents:broken"})


def test_a_worker_that_dies_has_its_games_played_again(tmp_path: Path) -> None:
    marker = tmp_path / "died"
    agents = {"random": "random", "killer": f"tests.arena.agents:killer,marker={marker}"}
    study = arena.Study(name="dies", game="kuzushi", agents=agents, games=3, seed=8)
    results = arena.run(study, tmp_path / "out", backend="pool", workers=2)
    assert marker.exists()  # a worker did die
    serial = arena.run(study, tmp_path / "serial", backend="serial")
    assert comparable(results) == comparable(serial) and len(results) == 6


def test_a_traced_study_records_branching_and_lead_changes(tmp_path: Path) -> None:
    study = arena.Study(name="traced", game="kuzushi", agents={"greedy": "greedy", "random": "random"}, trace=True)
    (tmp_path / "traced.toml").write_text(study.to_toml())
    assert arena.load_study(tmp_path / "traced.toml") == study
    results = arena.run(study, tmp_path / "t", backend="serial")
    for row in results.rows:
        assert len(row["branching"]) == row["moves"] and all(b >= 1 for b in row["branching"])
        assert isinstance(row["lead_changes"], int) and 0 <= row["lead_changes"] < row["moves"]
    results.report()
    entry = json.loads((tmp_path / "t" / "summary.json").read_text())["option_sets"][0]
    assert entry["branching_by_ply"][0]["value"] == results.rows[0]["branching"][0]  # every game opens alike


def _children(pid: int) -> set[int]:
    """Every process below ``pid`` (Linux /proc)."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                kids = {int(k) for k in (task / "children").read_text().split()}
            except OSError:
                continue
            todo += list(kids - found)
            found |= kids
    return found


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc (Linux)")
def test_sigterm_stops_a_pool_run_with_status_143_and_leaves_no_process(tmp_path: Path) -> None:
    """systemd, docker stop or a CI's cancel send SIGTERM to the main process alone: the run stops as after
    Ctrl-C, mid-game workers and the fork server included."""
    study = tmp_path / "long.toml"
    study.write_text(
        'name = "long"\ngame = "kuzushi"\ngames = 200\n[agents]\nm = "mcts:iterations=400"\ng = "greedy"\n'
    )
    command = [sys.executable, "-m", "kumiki.cli", "arena", "run", str(study), "--out", str(tmp_path / "out")]
    process = subprocess.Popen([*command, "--workers", "2", "--quiet"], stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    children: set[int] = set()
    while time.monotonic() < deadline and len(children) < 3:  # the fork server and its two workers
        children = _children(process.pid)
        time.sleep(0.1)
    assert len(children) >= 3
    time.sleep(1.0)  # the workers are playing
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 143 and "stopped (SIGTERM)" in err
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_running(pid) for pid in children):
        time.sleep(0.1)
    assert not any(_running(pid) for pid in children)


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc (Linux)")
def test_sigterm_off_a_terminal_says_stopped_on_a_line_of_its_own(tmp_path: Path) -> None:
    """Off a terminal (a log file, a CI) the progress bar's last line is still open when SIGTERM stops the run: the
    "stopped" line was joined onto it."""
    study = tmp_path / "long.toml"
    study.write_text(
        'name = "long"\ngame = "kuzushi"\ngames = 200\n[agents]\nm = "mcts:iterations=400"\ng = "greedy"\n'
    )
    out = tmp_path / "out"
    command = [sys.executable, "-m", "kumiki.cli", "arena", "run", str(study), "--out", str(out), "--backend", "serial"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (out / "games.jsonl").exists():
        time.sleep(0.1)
    time.sleep(1.0)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 143
    assert any(line.startswith("stopped (SIGTERM)") for line in err.splitlines()), err[-300:]


def test_an_sprt_stopped_mid_window_keeps_the_games_it_finished(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pool plays an SPRT in windows of pairs and wrote a window's games only once all of it was in: a Ctrl-C
    (or SIGTERM, a crash) lost every game the window had finished, though the docs promise only those in flight."""
    from kumiki.arena import runner
    from kumiki.arena.backends import execute

    study = arena.Study(
        name="sprt",
        game="kuzushi",
        format="sprt",
        agents={"random": "random", "greedy": "greedy"},
        seed=4,
        options={"size": 5},
        sprt=arena.Sprt(elo0=0, elo1=2000, max_games=40),  # far apart: the test does not decide in a few pairs
    )

    def stopped_after_three(job: Any, specs: Any, *_: Any) -> Any:
        for done, rows in enumerate(execute(job, specs, "serial")):
            if done == 3:
                raise KeyboardInterrupt
            yield rows

    monkeypatch.setattr(runner, "execute", stopped_after_three)
    with pytest.raises(KeyboardInterrupt):
        arena.run(study, tmp_path / "stopped", backend="pool", workers=2)  # a window of 4 pairs
    kept = arena.Results(tmp_path / "stopped")
    assert sorted(r["index"] for r in kept.rows) == [0, 1, 2]  # the first pair, and the second's first game
    assert kept.sprt().pairs == 1
    monkeypatch.undo()
    resumed = arena.run(study, tmp_path / "stopped", backend="serial")
    whole = arena.run(study, tmp_path / "whole", backend="serial")
    assert comparable(resumed) == comparable(whole) and resumed.sprt() == whole.sprt()


def close_sprt(games: int) -> arena.Study:
    """An SPRT between two random agents with a narrow hypothesis: it plays all its ``games`` without deciding."""
    return arena.Study(
        name="sprt",
        game="kuzushi",
        format="sprt",
        agents={"one": "random", "other": "random"},
        seed=4,
        options={"size": 5},
        sprt=arena.Sprt(elo0=0, elo1=10, max_games=games),
    )


def test_an_sprt_on_the_pool_starts_its_workers_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An SPRT is played window after window of pairs, and every window started a process pool of its own (its
    workers importing the games again): with short games most of the run was spent starting workers."""
    from kumiki.arena import backends

    started: list[int] = []

    class Counted(backends.ProcessPoolExecutor):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            started.append(1)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(backends, "ProcessPoolExecutor", Counted)
    study = close_sprt(16)  # all 8 pairs, in 4 windows of 2
    pooled = arena.run(study, tmp_path / "pool", backend="pool", workers=1)
    assert len(pooled) == 16 and started == [1]
    serial = arena.run(study, tmp_path / "serial", backend="serial")
    assert comparable(pooled) == comparable(serial) and pooled.sprt() == serial.sprt()


def test_a_session_replaces_a_pool_a_dead_worker_broke(tmp_path: Path) -> None:
    """A pool kept across runs must not stay broken: the run after a worker's death gets a new one."""
    from kumiki.arena.backends import Job, Session, execute

    specs = list(schedule(SMALL))[:4]
    job = Job(SMALL.game, dict(SMALL.agents), SMALL.seed, None, False)
    with Session("pool", 1) as session:
        first = [row for rows in execute(job, specs, "pool", 1, None, session) for row in rows]
        assert session.pool is not None and session.pool.executor is not None
        for process in list(session.pool.executor._processes.values()):
            process.kill()
            process.join()
        again = [row for rows in execute(job, specs, "pool", 1, None, session) for row in rows]
    assert sorted(r["index"] for r in again) == sorted(r["index"] for r in first) == [s.index for s in specs]
    assert session.pool.executor is None  # let go with the session
