"""The computer's calibrated levels: each game's easy, medium and hard agents, the named agents ``kozo:level=hard``,
and the ladder studies that measure them (studies/<game>-levels.toml; docs/agents.md, "Levels")."""

from __future__ import annotations

import itertools
import tomllib
from pathlib import Path

import pytest

import kumiki
from kumiki.agents import agent_from_spec, parse_agent_spec
from kumiki.agents.levels import GAME_LEVELS, LEVELS, MEASURED, level_note, level_spec

STUDIES = Path(__file__).resolve().parent.parent / "studies"


@pytest.mark.parametrize("game", sorted(GAME_LEVELS))
def test_every_game_has_three_levels_with_fixed_budgets(game: str) -> None:
    assert tuple(GAME_LEVELS[game]) == LEVELS
    for level in LEVELS:
        name, options = level_spec(game, level)
        assert "seconds" not in options  # a budget in iterations plays the same, as strong, on every machine
        kumiki.load_agent(name, **options)


@pytest.mark.parametrize("game", sorted(GAME_LEVELS))
def test_the_ladder_study_plays_the_shipped_levels(game: str) -> None:
    # The study that measures the levels must play exactly the agents the web app and the named agents use, but
    # for a level's wall-clock cap (max_seconds: Kozo's hard), which binds only in slow positions and would make the
    # study depend on the machine (Study.reproducible).
    study = tomllib.loads((STUDIES / f"{game}-levels.toml").read_text())
    agents = {short: parse_agent_spec(spec) for short, spec in study["agents"].items()}
    shipped = {level: level_spec(game, level) for level in LEVELS}
    assert agents == {
        level: (name, {k: v for k, v in opts.items() if k != "max_seconds"}) for level, (name, opts) in shipped.items()
    }


def test_a_named_level_is_the_web_apps_agent() -> None:
    agent = agent_from_spec("kozo:level=hard", seed=3)
    assert agent.agent.options["iterations"] == 250 and agent.agent.options["seed"] == 3  # type: ignore[attr-defined]
    state = kumiki.load_game("kuzushi").new_state()
    move = kumiki.load_agent("kuzushi", level="easy", seed=1).choose(state)
    assert move in state.legal_moves()


@pytest.mark.parametrize("game", sorted(GAME_LEVELS))
def test_a_named_level_pickles_and_plays_on_as_the_original(game: str) -> None:
    """Its class was made by ``type()`` and taken for one of module ``abc``: pickle.dumps failed with "Can't pickle
    <class 'abc.KozoLevels'>", and so did a Gymnasium environment with a level as its opponent."""
    import pickle

    agent = kumiki.load_agent(game, level="easy", seed=4)
    twin = pickle.loads(pickle.dumps(agent))
    assert type(twin) is type(agent) and twin.options == agent.options
    state = kumiki.load_game(game).new_state(seed=2)
    assert twin.choose(state) == agent.choose(state)


def test_every_game_with_levels_has_its_named_agent() -> None:
    from kumiki.agents.levels import GAME_LEVELS, level_agents

    assert [cls.only_game for cls in level_agents()] == list(GAME_LEVELS)
    assert all(cls.__module__ == "kumiki.agents.levels" for cls in level_agents())


def test_a_named_level_refuses_another_game_and_an_unknown_level_in_one_line() -> None:
    state = kumiki.load_game("kuzushi").new_state()
    with pytest.raises(ValueError, match="kozo plays kozo only, not kuzushi"):
        kumiki.load_agent("kozo", level="easy").choose(state)
    with pytest.raises(ValueError, match="'easy', 'medium', 'hard'"):
        kumiki.load_agent("kozo", level="nightmare")


def test_measured_gaps_name_their_study_and_read_as_a_lobby_note() -> None:
    for game, levels in MEASURED.items():
        for level, found in levels.items():
            assert (STUDIES.parent / found.study).is_file()
            assert LEVELS.index(found.above) == LEVELS.index(level) - 1
            assert level_note(game, level) == f"about {found.elo:.0f} Elo above {found.above}"
    assert level_note("kuzushi", "easy") == ""  # nothing below easy


def test_every_measured_level_is_at_least_100_elo_above_the_one_below_with_intervals_apart() -> None:
    # The acceptance of issue #18, as the studies measured it (docs/agents.md, "Levels").
    assert set(MEASURED) == {"kuzushi", "blokus3d", "kozo"}  # TowerBrix is co-operative: no Elo ladder
    for levels in MEASURED.values():
        for found in levels.values():
            assert found.elo >= 100 and found.apart, found


def test_towerbrix_levels_meet_every_card_more_often_as_they_rise_and_say_so_in_the_lobby() -> None:
    """TowerBrix is co-operative: each level as a whole team on the same deals of its study, the share of rounds that
    met every card; each level above the one below with its 95% interval apart (docs/agents.md, "Levels")."""
    from kumiki.agents.levels import TEAM_RATES
    from kumiki.arena.intervals import wilson

    rates = TEAM_RATES["towerbrix"]
    study = tomllib.loads((STUDIES / "towerbrix-levels.toml").read_text())
    assert all(played == study["games"] for _met, played in rates.values())
    for below, level in itertools.pairwise(LEVELS):
        assert wilson(*rates[level]).low > wilson(*rates[below]).high, (below, level)
    assert level_note("towerbrix", "hard") == "a team of four wins about 72% of rounds"
    assert level_note("towerbrix", "easy").endswith("about 22% of rounds")  # every level: no level below is needed
    assert level_note("towerbrix", "medium").endswith("about 55% of rounds")  # 109/200 = 54.5 %, rounded half up


def test_the_servers_towerbrix_levels_table_names_the_shipped_teammates() -> None:
    """docs/server.md's TowerBrix table of the levels (their times a move) still named the teammates of 300 and 800
    steps after easy became 50 steps not reading the table and medium 150."""
    import re

    docs = (Path(__file__).resolve().parent.parent / "docs" / "server.md").read_text()
    for level in LEVELS:
        row = re.search(rf"^\s*\| `{level}` \| `towerbrix-teammate`, (\d+) steps a plan([^|]*)\|", docs, re.M)
        assert row is not None, level
        options = level_spec("towerbrix", level)[1]
        assert int(row[1]) == options["iterations"], level
        assert ("reads=false" in row[2]) == (options.get("reads") is False), level
