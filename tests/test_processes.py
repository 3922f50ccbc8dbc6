"""Pool workers end with the program that started them, even when it is killed with kill -9 (no chance to stop them)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process tree from /proc")


def _stat(pid: int | str) -> tuple[str, int] | None:
    """(state, parent) of a process from /proc, None when it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return fields[0], int(fields[1])


def descendants(pid: int) -> set[int]:
    """Every living process below ``pid`` (from /proc: each process's parent)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        stat = _stat(entry.name) if entry.name.isdigit() else None
        if stat is not None and stat[0] != "Z":
            children.setdefault(stat[1], []).append(int(entry.name))
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def alive(pids: set[int]) -> set[int]:
    return {pid for pid in pids if (stat := _stat(pid)) is not None and stat[0] != "Z"}


def kill_and_watch(process: subprocess.Popen[bytes], workers: set[int]) -> set[int]:
    """Kill ``process`` with SIGKILL; the workers still alive 10 s later."""
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    deadline = time.monotonic() + 10
    while alive(workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = alive(workers)
    for pid in left:  # leave nothing behind whatever the outcome
        os.kill(pid, signal.SIGKILL)
    return left


STUDY = """
name = "orphans"
game = "kuzushi"
games = 200
seed = 3
[options]
players = 2
[agents]
mcts = "mcts:iterations=300"
greedy = "greedy"
"""


def test_the_arena_pool_workers_end_after_kill_9_of_the_run(tmp_path: Path) -> None:
    (tmp_path / "s.toml").write_text(STUDY)
    command = [
        sys.executable,
        "-m",
        "kumiki.cli",
        "arena",
        "run",
        str(tmp_path / "s.toml"),
        "--out",
        str(tmp_path / "o"),
    ]
    process = subprocess.Popen([*command, "--backend", "pool", "--workers", "2", "--quiet"], stderr=subprocess.DEVNULL)
    games = tmp_path / "o" / "games.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (games.exists() and games.read_bytes().count(b"\n") >= 1):
        time.sleep(0.05)
    workers = descendants(process.pid)
    assert len(workers) >= 2, "the run must have started its workers"
    assert kill_and_watch(process, workers) == set()
    assert games.read_bytes().count(b"\n") < 400  # killed in the middle, not after the whole study


SERVER_POOL = """
import time
from kumiki.server.agents import make_pool
pool = make_pool(2)
for future in [pool.submit(time.sleep, 0.2) for _ in range(4)]:
    future.result()
print("ready", flush=True)
time.sleep(120)
"""


def test_the_server_computer_players_end_after_kill_9_of_the_server() -> None:
    process = subprocess.Popen([sys.executable, "-c", SERVER_POOL], stdout=subprocess.PIPE)
    assert process.stdout is not None and process.stdout.readline() == b"ready\n"
    workers = descendants(process.pid)
    assert len(workers) >= 2, "the pool must have started its workers"
    assert kill_and_watch(process, workers) == set()
