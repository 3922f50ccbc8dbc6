"""A results folder's study.toml: reading the folder (``report``, ``ratings``, ``export``, ``Results``) needs the
agents' names only, not the agents (a folder copied from another machine, whose study used an agent of a package not
installed here, is read); and games without their study.toml are not taken as another study's."""

from __future__ import annotations

import csv
import io
import json
import sys
from pathlib import Path

import pytest
from tests.helpers import CliRunner

from kumiki import arena

AGENT_MODULE = """
import random

class Player:
    def __init__(self, seed=None):
        self.rng = random.Random(seed)

    def choose(self, state):
        return self.rng.choice(state.legal_moves())
"""

STUDY = """
name = "elsewhere"
game = "kuzushi"
games = 2
seed = 3
[options]
size = 4
[agents]
mine = "h_arena_only_here:Player"
greedy = "greedy"
"""


def test_a_folder_whose_agent_cannot_be_imported_here_is_read(
    tmp_path: Path, run: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "h_arena_only_here.py").write_text(AGENT_MODULE)
    monkeypatch.syspath_prepend(str(package))
    (tmp_path / "study.toml").write_text(STUDY)
    out = tmp_path / "out"
    code, _, err = run("arena", "run", tmp_path / "study.toml", "--out", out, "--backend", "serial", "--quiet")
    assert code == 0, err
    # Another machine: the agent's package is not installed there.
    sys.path.remove(str(package))
    monkeypatch.delitem(sys.modules, "h_arena_only_here")
    with pytest.raises(arena.StudyError, match=r"agents\.mine"):  # a run still needs it, and says so
        arena.load_study(out / "study.toml")
    code, stdout, err = run("arena", "ratings", out, "--json")
    assert code == 0, err
    assert {row["agent"] for row in json.loads(stdout)} == {"mine", "greedy"}
    code, _, err = run("arena", "report", out)
    assert code == 0, err
    assert (out / "summary.json").is_file()
    code, stdout, err = run("arena", "export", out, "--csv", "-")
    assert code == 0, err
    assert len(list(csv.DictReader(io.StringIO(stdout)))) == 4
    assert len(arena.Results(out)) == 4


def test_games_without_their_study_toml_are_not_taken_as_another_studys(
    tmp_path: Path, run: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder whose study.toml is gone: its games (here of another root seed) were kept as the new study's own."""
    study = STUDY.replace("h_arena_only_here:Player", "random")
    (tmp_path / "a.toml").write_text(study)
    (tmp_path / "b.toml").write_text(study.replace("seed = 3", "seed = 4"))
    out = tmp_path / "out"
    code, _, err = run("arena", "run", tmp_path / "a.toml", "--out", out, "--backend", "serial", "--quiet")
    assert code == 0, err
    (out / "study.toml").unlink()
    before = (out / "games.jsonl").read_text()
    code, _, err = run("arena", "run", tmp_path / "b.toml", "--out", out, "--backend", "serial", "--quiet")
    assert code == 2
    assert len(err.strip().splitlines()) == 1
    assert "study.toml" in err and "another --out" in err
    assert (out / "games.jsonl").read_text() == before
    assert not (out / "study.toml").exists()
