"""Examples are tests: the code in the README and the docs runs, and the worked example is the engine's own output."""

from __future__ import annotations

import doctest
import re
import sys
import types
from pathlib import Path
from typing import Any

import pytest

import kumiki

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
KUZUSHI_RULES = ROOT / "docs" / "rules" / "kuzushi.md"
ADDING_A_GAME = ROOT / "docs" / "adding-a-game.md"


def code_blocks(path: Path, language: str) -> list[str]:
    """The fenced code blocks of ``path`` written in ``language``, in order."""
    return re.findall(rf"^```{language}\n(.*?)^```", path.read_text(encoding="utf-8"), re.S | re.M)


def run_blocks(path: Path) -> dict[str, Any]:
    """Execute every ```python block of ``path`` in order, in one namespace."""
    blocks = code_blocks(path, "python")
    assert blocks, f"{path.name} has no python code"
    # A real module, so that the examples' dataclasses can find their module while they are being defined.
    module = types.ModuleType(f"docs_example_{path.stem.replace('-', '_')}")
    sys.modules[module.__name__] = module
    try:
        for number, block in enumerate(blocks, start=1):
            exec(compile(block, f"{path.name} (python block {number})", "exec"), module.__dict__)
    finally:
        del sys.modules[module.__name__]
    return module.__dict__


def test_readme_python_blocks_run() -> None:
    run_blocks(README)


def test_readme_records_replay() -> None:
    records = [block for block in code_blocks(README, "text") if block.startswith("[Game ")]
    assert records, "README.md shows no record"
    for text in records:
        _, state = kumiki.read_record(text)
        assert kumiki.read_record(kumiki.write_record(state))[1].to_json() == state.to_json()


def test_package_doctests_pass() -> None:
    result = doctest.testmod(kumiki, verbose=False, report=True)
    assert result.attempted > 0
    assert result.failed == 0


def test_kuzushi_rules_python_blocks_run() -> None:
    run_blocks(KUZUSHI_RULES)


def _marked_block(text: str, marker: str) -> str:
    match = re.search(rf"<!-- {marker} -->\n```text\n(.*?)```", text, re.S)
    assert match is not None, f"no block marked <!-- {marker} -->"
    return match[1]


def test_kuzushi_worked_example_is_the_engines_output() -> None:
    text = KUZUSHI_RULES.read_text(encoding="utf-8")
    record = _marked_block(text, "record")
    game, final = kumiki.read_record(record)
    assert final.over
    boards = {int(k): board for k, board in re.findall(r"<!-- board after (\d+) -->\n```text\n(.*?)```", text, re.S)}
    assert 0 in boards and len(final.history) in boards
    state = game.new_state()
    for number in range(len(final.history) + 1):
        if number:
            state.play(final.history[number - 1])
        if number in boards:
            assert str(state) + "\n" == boards[number], f"the board after move {number} differs from the engine's"
    # The record shown is the one write_record gives for that game.
    assert kumiki.write_record(final, {"Player0": "greedy seed=3", "Player1": "random seed=4"}) == record
    # The prose states the result.
    assert f"`scores()` is `{final.scores()}`" in text
    assert f"`winners()` is `{final.winners()}`" in text


def test_kuzushi_worked_example_move_notes_are_the_moves_played() -> None:
    text = KUZUSHI_RULES.read_text(encoding="utf-8")
    _, final = kumiki.read_record(_marked_block(text, "record"))
    noted = re.findall(r"^(?:\*\*)?(\d+)\. Player (\d): `([BF] -?\d+,-?\d+)`", text, re.M)
    assert noted
    movers = [1, 0] * len(final.history)
    for number, player, move in noted:
        assert str(final.history[int(number) - 1]) == move
        assert movers[int(number) - 1] == int(player)


def test_adding_a_game_example_runs() -> None:
    namespace = run_blocks(ADDING_A_GAME)
    game_class = namespace["TakeAway"]
    assert isinstance(game_class, type) and issubclass(game_class, kumiki.Game)
    game = game_class(players=3, sticks=7)
    state = game.new_state()
    assert [str(m) for m in state.legal_moves()] == ["1", "2", "3"]
    before = state.to_json()
    with pytest.raises(kumiki.IllegalMove):
        state.play("4")
    assert state.to_json() == before
    while not state.over:
        state.play(state.legal_moves()[-1])
    assert state.winners() == [2]  # player 0 takes 3, player 1 takes 3, player 2 takes the last one
