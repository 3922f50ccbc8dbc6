"""Every ``kumiki`` command that has ``--json`` prints exactly one JSON document on stdout and nothing on stderr,
run as a real subprocess of the installed command, for every game where it applies; the human-readable forms start
with their own first line. No library (HiGHS above all: highspy 1.16 prints a banner from its constructor) may add a
byte to either stream.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer

import kumiki
from kumiki.cli import app

KUMIKI = shutil.which("kumiki", path=str(Path(sys.executable).parent)) or ""
COLUMN = {"bodies": [{"name": "column", "boxes": [[0, 0, 0, 1, 1, 4]]}]}
LEANING = {
    "bodies": [
        {"name": "post", "boxes": [[0, 0, 0, 1, 1, 1]]},
        {"name": "arm", "boxes": [[0, 0, 1, 3, 1, 2]]},
    ]
}


def run(*args: str | Path, stdin: str = "") -> tuple[str, str]:
    """``kumiki ARGS`` in a new process; it must succeed. Returns (stdout, stderr)."""
    assert KUMIKI, "the kumiki command is not installed beside this Python"
    done = subprocess.run([KUMIKI, *map(str, args)], input=stdin, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout, done.stderr


def one_document(out: str) -> Any:
    """The whole of ``out`` is one JSON document (json.loads refuses trailing text), ending with one newline."""
    assert out.endswith("\n") and not out.endswith("\n\n")
    return json.loads(out)


def json_commands() -> set[str]:
    """The commands whose options include --json, read from the CLI itself, so a new one cannot be forgotten here."""
    commands: dict[str, Any] = getattr(typer.main.get_command(app), "commands", {})
    assert commands
    return {
        name for name, command in commands.items() if any("--json" in getattr(p, "opts", ()) for p in command.params)
    }


TESTED = {"replay", "games", "agents", "stability", "cards", "solve"}


def test_every_json_command_is_tested_here() -> None:
    assert json_commands() == TESTED


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A record of a few moves of every game, written by the engine."""
    folder = tmp_path_factory.mktemp("records")
    paths = {}
    for name in kumiki.games():
        state = kumiki.load_game(name).new_state(seed=3)
        agent = kumiki.load_agent("random", seed=1)
        for _ in range(3):
            if state.over:
                break
            state.play(agent.choose(state))
        paths[name] = folder / f"{name}.kmk"
        paths[name].write_text(kumiki.write_record(state), encoding="utf-8")
    return paths


@pytest.mark.parametrize("game", kumiki.games())
def test_replay_json_and_text(game: str, records: dict[str, Path]) -> None:
    out, err = run("replay", records[game], "--json")
    document = one_document(out)
    assert err == ""
    assert document["game"] == game and len(document["moves"]) >= 1
    out, err = run("replay", records[game])
    assert err == "" and out.startswith(game + " · ")


@pytest.mark.parametrize("game", kumiki.games())
def test_moves_prints_moves_only(game: str, records: dict[str, Path]) -> None:
    out, err = run("moves", records[game])
    assert err == ""
    _, state = kumiki.read_record(records[game].read_text(encoding="utf-8"))
    assert out.splitlines() == [str(m) for m in state.legal_moves()]


def test_games_and_agents() -> None:
    games, err = run("games", "--json")
    assert err == "" and [g["name"] for g in one_document(games)] == kumiki.games()
    agents, err = run("agents", "--json")
    assert err == "" and {"random", "greedy", "mcts"} <= {a["name"] for a in one_document(agents)}
    names, err = run("games", "--names")
    assert err == "" and names.splitlines() == kumiki.games()


@pytest.mark.parametrize("tower", [COLUMN, LEANING], ids=["stands", "falls"])
def test_stability_json_and_text(tower: dict[str, Any]) -> None:
    out, err = run("stability", "-", "--json", stdin=json.dumps(tower))
    assert err == "" and set(one_document(out)) >= {"stands", "edge", "margin_deg", "bodies"}
    out, err = run("stability", "-", stdin=json.dumps(tower))
    assert err == "" and out.startswith("verdict: ")


def test_towerbrix_cards_and_solve() -> None:
    for deck in ("green", "pink"):
        out, err = run("cards", "towerbrix", "--deck", deck, "--json")
        assert err == "" and all(card["deck"] == deck for card in one_document(out))
    out, err = run("solve", "towerbrix", "--cards", "G01", "--seconds", "5", "--json")
    answer = one_document(out)
    assert err == "" and answer["status"] == "solved" and answer["bricks"]
    out, err = run("solve", "towerbrix", "--cards", "G01", "--seconds", "5")
    assert err == "" and out.startswith("status:  ")


@pytest.mark.parametrize("command", [["cards", "towerbrix"], ["games", "--json"], ["cards", "towerbrix", "--json"]])
def test_a_closed_pipe_stops_every_command_quietly(command: list[str]) -> None:
    """`kumiki cards towerbrix | true`: the reader went away before anything was written. Every command stops with
    status 0 and says nothing (``cards`` said "Broken pipe" with status 2, ``games --json`` exited 1)."""
    import os

    source = str(Path(kumiki.__file__).parents[1])
    process = subprocess.Popen(
        [sys.executable, "-m", "kumiki", *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": source},
    )
    assert process.stdout is not None
    process.stdout.close()  # before the command has written a byte (it takes far longer to start)
    _, errors = process.communicate(timeout=60)
    assert (process.returncode, errors) == (0, b"")


@pytest.mark.parametrize("stream", [1, 2], ids=["stdout", "stderr"])
def test_a_command_started_with_a_stream_closed_does_its_work(stream: int, tmp_path: Path) -> None:
    """`kumiki ... >&-` (as some services start it): Python sets the stream to None; the command ran into an internal
    AttributeError on its first print. Now what it prints goes nowhere and the work is done: the record is saved."""
    import os

    source = str(Path(kumiki.__file__).parents[1])
    record = tmp_path / "game.kmk"
    command = ["play", "kuzushi", "--seat", "0=random", "--seat", "1=random", "--save", str(record)]
    process = subprocess.run(
        [sys.executable, "-m", "kumiki", *command],
        stdin=subprocess.DEVNULL,
        stdout=None if stream == 2 else subprocess.PIPE,
        stderr=None if stream == 1 else subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": source},
        preexec_fn=lambda: os.close(stream),  # the stream closed in the child only
        timeout=120,
        check=False,
    )
    assert process.returncode == 0
    _, replayed = kumiki.read_record(record.read_text())
    assert replayed.over


def test_an_error_with_stderr_closed_keeps_its_status() -> None:
    """The play above writes nothing to stderr, so its stderr case passed before the fix as well: an error does.
    With stderr closed the one-line error's own write failed, and the command ended with status 1, not 2."""
    import os

    source = str(Path(kumiki.__file__).parents[1])
    process = subprocess.run(
        [sys.executable, "-m", "kumiki", "replay", "/nonexistent/game.kmk"],
        stdout=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": source},
        preexec_fn=lambda: os.close(2),  # the stream closed in the child only
        timeout=120,
        check=False,
    )
    assert process.returncode == 2


def test_a_closed_input_reads_as_an_empty_one() -> None:
    """`kumiki replay - <&-`: Python sets stdin to None; reading it was an internal AttributeError."""
    import os

    source = str(Path(kumiki.__file__).parents[1])
    process = subprocess.run(
        [sys.executable, "-m", "kumiki", "replay", "-"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": source},
        preexec_fn=lambda: os.close(0),  # the stream closed in the child only
        timeout=120,
        check=False,
    )
    assert (process.returncode, process.stderr) == (2, "-: line 1: the record has no [Game] tag\n")
