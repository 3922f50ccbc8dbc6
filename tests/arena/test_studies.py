"""The shipped studies (studies/*.toml) are valid, and each has at least one game to play."""

from __future__ import annotations

from pathlib import Path

import pytest

from kumiki import arena
from kumiki.arena.schedule import total_games

STUDIES = sorted((Path(__file__).resolve().parents[2] / "studies").glob("*.toml"))


def test_there_is_a_study_per_game_and_a_ladder_per_game() -> None:
    studies = [arena.load_study(path) for path in STUDIES]
    assert {s.game for s in studies} == {"kuzushi", "blokus3d", "kozo", "towerbrix"}
    assert {s.game for s in studies if s.name.endswith("-levels")} == {"kuzushi", "blokus3d", "kozo", "towerbrix"}


@pytest.mark.parametrize("path", STUDIES, ids=[p.stem for p in STUDIES])
def test_a_shipped_study_loads_and_names_its_folder(path: Path) -> None:
    study = arena.load_study(path)
    assert study.name == path.stem and study.reproducible and total_games(study) > 0
