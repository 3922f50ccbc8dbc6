"""The examples/ scripts run (each well under a minute) and show what they claim; docs/interop.md's code runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from tests.test_docs import run_blocks

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def run_example(name: str, *args: str) -> str:
    result = subprocess.run(
        [sys.executable, str(EXAMPLES / name), *args], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_openspiel_mcts_against_kumiki_mcts() -> None:
    pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
    out = run_example("openspiel_mcts_vs_kumiki_mcts.py", "--games", "2", "--simulations", "60", "--size", "4")
    assert out.count("won in") == 2
    assert "points: OpenSpiel MCTS" in out


def test_pettingzoo_random_loop_on_blokus3d() -> None:
    pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed")
    out = run_example("pettingzoo_blokus3d_random.py", "--games", "2")
    assert out.count("returns {") == 2 and "opens with action" in out


def test_reinforce_on_the_smallest_kuzushi_grid_beats_random() -> None:
    pytest.importorskip("gymnasium", reason="the pettingzoo extra (with Gymnasium) is not installed")
    out = run_example("train_kuzushi_reinforce.py")
    assert "beats random" in out and "does not" not in out
    # Untrained, the policy is the random player, judged the same way (it was judged by its argmax, which on this
    # grid wins every game without any training).
    assert "does not beat random" in run_example("train_kuzushi_reinforce.py", "--episodes", "0")


@pytest.mark.parametrize(
    ("name", "args", "words"),
    [
        ("openspiel_mcts_vs_kumiki_mcts.py", ("--size", "30"), "option 'size' must be int from 2 to 20, not 30"),
        ("openspiel_mcts_vs_kumiki_mcts.py", ("--simulations", "0"), "option 'simulations' must be int"),
        ("pettingzoo_blokus3d_random.py", ("--players", "9"), "option 'players' must be int from 2 to 4, not 9"),
        ("pettingzoo_blokus3d_random.py", ("--games", "0"), "--games must be 1 or more"),
        ("train_kuzushi_reinforce.py", ("--episodes", "-1"), "--episodes must be 0 or more"),
        ("train_kuzushi_reinforce.py", ("--seed", "-1", "--episodes", "1"), "--seed must be 0 or more"),
    ],
)
def test_a_bad_argument_is_one_line_not_a_traceback(name: str, args: tuple[str, ...], words: str) -> None:
    pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
    pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed")
    result = subprocess.run(
        [sys.executable, str(EXAMPLES / name), *args], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 2 and "Traceback" not in result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith(f"{name}: error: ") and words in last


def test_interop_guide_code_runs() -> None:
    pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
    pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed")
    run_blocks(ROOT / "docs" / "interop.md")
