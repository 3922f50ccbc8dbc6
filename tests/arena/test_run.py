"""Running studies: the same rows on every backend and worker count, forfeits recorded, resumption after kill -9."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from kumiki import arena
from kumiki.arena.results import GAMES_FILE

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


def test_records_are_written_and_replay(tmp_path: Path) -> None:
    import kumiki

    results = arena.run(SMALL, tmp_path / "rec", backend="serial", records=True)
    records = sorted((tmp_path / "rec" / "records").glob("*.kmk"))
    assert len(records) == len(results)
    _, state = kumiki.read_record(records[0].read_text())
    assert state.over and len(state.history) == results.rows[0]["moves"]
    assert "record" not in results.rows[0]


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
