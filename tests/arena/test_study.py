"""Study files: read, checked, written back; every bad one is one line naming the key, exit status 2."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.helpers import CliRunner, assert_one_line_error, cli_runner

from kumiki import arena
from kumiki.arena.schedule import lineups, schedule, seatings, total_games

GOOD = """
name = "t"
game = "kuzushi"
games = 2
seed = 7
[options]
players = [2, 3]
size = 5
[agents]
greedy = "greedy"
random = "random:seed=1"
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "study.toml"
    path.write_text(text)
    return path


def test_a_study_file_reads_and_round_trips(tmp_path: Path) -> None:
    study = arena.load_study(write(tmp_path, GOOD))
    assert study.option_sets() == [{"players": 2, "size": 5}, {"players": 3, "size": 5}]
    assert arena.load_study(write(tmp_path, study.to_toml())) == study
    assert study.reproducible


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (('game = "kuzushi"', 'game = "chess"'), "game: unknown game 'chess'"),
        (("games = 2", "games = 0"), "games: a whole number from 1"),
        (("games = 2", 'games = "many"'), "games: a whole number"),
        (("seed = 7", "seed = -1"), "seed: a whole number from 0"),
        (("size = 5", "size = 50"), "options: players=2, size=50: option 'size'"),
        (("size = 5", "size = []"), "options.size: an empty list"),
        (("size = 5", "size = [5, 5]"), "options.size: 5 is listed twice"),
        (("size = 5", "colour = 1"), "unknown option 'colour'"),
        (('greedy = "greedy"', 'greedy = "genius"'), "agents.greedy: unknown agent 'genius'"),
        (('greedy = "greedy"', 'greedy = "mcts:iterations=nan"'), "agents.greedy: option 'iterations'"),
        (('greedy = "greedy"', "greedy = 3"), "agents.greedy: an agent spec"),
        (('name = "t"', 'name = "t"\nformat = "swiss"'), "format: one of round-robin"),
        (
            ('name = "t"', 'name = "t"\nformat = "gauntlet"'),
            "focus: missing; a gauntlet needs the agent that meets every other, one of greedy, random",
        ),
        (('name = "t"', 'name = "t"\nformat = "gauntlet"\nfocus = "mcts"'), "focus: the gauntlet's agent, one of"),
        (('name = "t"', 'name = "t"\nfocus = "greedy"'), "focus: only a gauntlet"),
        (('name = "t"', 'name = "t"\nformat = "sprt"'), "an SPRT plays two-player games"),
        (('name = "t"', 'name = "t"\ncolour = 2'), "colour: unknown key"),
        (('name = "t"', 'name = "t"\nmove_limit_s = inf'), "move_limit_s: seconds"),
        (('name = "t"', 'name = "t"\npermutations = "yes"'), "permutations: true or false"),
        (('name = "t"\n', ""), "name: missing"),
        (("[agents]", "[agents]\n[agents.x]"), "agents.x: an agent spec"),
        (("games = 2", "games = ="), "not valid TOML"),
        (  # a key of the study written at the end of the file is in TOML the last table's: the error says the slip
            ('random = "random:seed=1"', 'random = "random:seed=1"\nseed = 3'),
            'agents.seed: an agent spec such as "mcts:iterations=1000", not 3 (agents.seed: a key of the study itself? '
            "write it above the first [table])",
        ),
        (("size = 5", "size = 5\ngames = 4"), "(options.games: a key of the study itself? write it above"),
        # tomllib raises int()'s ValueError (an internal error, exit status 1) and a RecursionError for these
        (("size = 5", "size = 1" + "0" * 5000), "not valid TOML (a number of over 4300 digits)"),
        (("size = 5", "size = " + "[" * 3000 + "]" * 3000), "not valid TOML (arrays or tables nested too deeply)"),
        (("size = 5", 'size = "' + "x" * 5000 + '"'), "options: players=2, size=" + "x" * 39 + "…: option 'size'"),
    ],
)
def test_a_bad_study_is_one_line_naming_the_key(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    change: tuple[str, str],
    words: str,
) -> None:
    assert change[0] in GOOD
    path = write(tmp_path, GOOD.replace(*change))
    with pytest.raises(arena.StudyError) as caught:
        arena.load_study(path)
    assert words in str(caught.value) and str(caught.value).startswith(str(path))
    run: CliRunner = cli_runner(capsys, monkeypatch)
    code, out, err = run("arena", "run", path, "--out", tmp_path / "out", "--quiet")
    assert_one_line_error(code, err, words)
    assert out == "" and not (tmp_path / "out").exists()


def test_sprt_keys_are_checked(tmp_path: Path) -> None:
    base = GOOD.replace("players = [2, 3]", "players = 2").replace('name = "t"', 'name = "t"\nformat = "sprt"')
    assert arena.load_study(write(tmp_path, base)).format == "sprt"
    for extra, words in [
        ("elo0 = 5\nelo1 = 5", "sprt.elo1: must be above elo0"),
        ("alpha = 0.7", "sprt.alpha: an error rate"),
        ("max_games = 1", "sprt.max_games: a whole number from 2"),
        ("speed = 1", "sprt.speed: unknown key"),
    ]:
        with pytest.raises(arena.StudyError, match=words.replace(".", r"\.")):
            arena.load_study(write(tmp_path, base + "[sprt]\n" + extra + "\n"))


CONTRACT_EXAMPLE = """
name = "kuzushi-first-player"
game = "kuzushi"
format = "round-robin"            # round-robin | gauntlet | self-play | ladder | sprt
games = 50                        # seed blocks per pairing and option set; a block plays every seat rotation
seed = 2026                       # the root seed: every game's and agent's seed derives from it and the game index
# focus = "mcts1000"              # gauntlet: the agent that meets every other
[options]
players = [2, 3]
size = 6
[agents]                          # a name for the reports = an agent spec, as `kumiki play --seat N=...` takes it
mcts1000 = "mcts:iterations=1000"
greedy = "greedy"
[sprt]                            # format = "sprt" only: two agents, game pairs with seats swapped
elo0 = 0
elo1 = 10
alpha = 0.05
beta = 0.05
max_games = 20000
"""


def test_the_contracts_example_study_loads_its_sprt_table_ignored_but_checked(tmp_path: Path) -> None:
    """CONTRACT.md's study, byte for byte, has an [sprt] table beside format "round-robin": it was refused (exit 2).
    The table is read and checked, and used only by format "sprt"; the run says on stderr that it is ignored."""
    study = arena.load_study(write(tmp_path, CONTRACT_EXAMPLE))
    assert study.format == "round-robin" and study.sprt is not None and study.sprt.elo1 == 10
    assert arena.load_study(write(tmp_path, study.to_toml())) == study
    assert total_games(study) == 400
    with pytest.raises(arena.StudyError, match=r"sprt\.alpha: an error rate"):
        arena.load_study(write(tmp_path, CONTRACT_EXAMPLE.replace("alpha = 0.05", "alpha = 0.7")))


def test_an_sprt_study_written_back_names_no_games_it_does_not_use(tmp_path: Path) -> None:
    """An SPRT plays until it can tell (``sprt.max_games`` at most): the study.toml a run wrote showed ``games = 10``,
    a default the test never reads. A ``games`` the file gave is kept, so the study still reads back equal."""
    text = Path("studies/kuzushi-sprt.toml").read_text()
    study = arena.load_study(write(tmp_path, text))
    assert study.format == "sprt" and "\ngames =" not in study.to_toml()
    assert arena.load_study(write(tmp_path, study.to_toml())) == study
    given = arena.load_study(write(tmp_path, text.replace("seed = 2026", "games = 3\nseed = 2026")))
    assert "games = 3" in given.to_toml() and arena.load_study(write(tmp_path, given.to_toml())) == given


def test_running_a_study_with_an_unused_sprt_table_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    run: CliRunner = cli_runner(capsys, monkeypatch)
    small = CONTRACT_EXAMPLE.replace("games = 50 ", "games = 1 ").replace("iterations=1000", "iterations=5")
    small = small.replace("players = [2, 3]", "players = 2").replace("size = 6", "size = 4")
    status, out, err = run("arena", "run", write(tmp_path, small), "--out", tmp_path / "out", "--backend", "serial")
    assert status == 0 and "2 games in" in out
    assert 'note: the [sprt] table is used by format "sprt" only; this round-robin ignores it' in err


def test_a_missing_file_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    run: CliRunner = cli_runner(capsys, monkeypatch)
    code, _, err = run("arena", "run", tmp_path / "nope.toml")
    assert_one_line_error(code, err, "nope.toml: cannot read the study")


def test_the_schedule_rotates_every_lineup_through_every_seat(tmp_path: Path) -> None:
    study = arena.load_study(write(tmp_path, GOOD))
    specs = list(schedule(study))
    assert [s.index for s in specs] == list(range(len(specs))) and len(specs) == total_games(study)
    two = [s for s in specs if s.options["players"] == 2]
    assert [s.seats for s in two[:2]] == [("greedy", "random"), ("random", "greedy")]
    assert two[0].seed == two[1].seed != two[2].seed  # a block shares its seed
    three = [s for s in specs if s.options["players"] == 3]
    assert [s.seats for s in three[:3]] == [
        ("greedy", "greedy", "random"),
        ("greedy", "random", "greedy"),
        ("random", "greedy", "greedy"),
    ]
    assert lineups(study, 3) == [("greedy", "greedy", "random"), ("greedy", "random", "random")]
    # Variants meet the same seeds: block b of every option set has one seed.
    assert two[0].seed == three[0].seed
    assert lineups(study, 2) == [("greedy", "random")]
    assert seatings(("a", "b", "c"), permutations=True) == [
        ("a", "b", "c"),
        ("a", "c", "b"),
        ("b", "a", "c"),
        ("b", "c", "a"),
        ("c", "a", "b"),
        ("c", "b", "a"),
    ]
    assert seatings(("a", "a"), permutations=False) == [("a", "a")]


def test_an_sprt_with_games_says_it_does_not_use_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    run: CliRunner = cli_runner(capsys, monkeypatch)
    text = (
        'name = "s"\ngame = "kuzushi"\nformat = "sprt"\ngames = 300\n[options]\nplayers = 2\nsize = 4\n'
        '[agents]\na = "random"\nb = "random"\n[sprt]\nmax_games = 4\n'
    )
    status, _, err = run("arena", "run", write(tmp_path, text), "--out", tmp_path / "out", "--backend", "serial")
    assert status == 0
    note = "note: an SPRT does not use games (300): it stops when the test decides, at most at [sprt] max_games (4)"
    assert note in err
    played = (tmp_path / "out" / "games.jsonl").read_text().splitlines()
    assert 2 <= len(played) <= 4  # the SPRT's own limit, not 300 blocks


def test_a_control_character_in_a_value_is_written_back_readable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """TOML takes DEL or a carriage return in a string only escaped (\\u007f). The study.toml a run wrote held it raw:
    the run refused its own folder ("its study.toml cannot be read") and the report could not read it."""
    odd = "tests.arena.agents:labelled,label=a\\u007fb\\u000dc"
    text = GOOD.replace('random = "random:seed=1"', f'odd = "{odd}"').replace("players = [2, 3]", "players = 2")
    study = arena.load_study(write(tmp_path, text))
    assert study.agents["odd"].endswith("a\x7fb\rc")
    assert arena.load_study(write(tmp_path, study.to_toml())) == study
    run: CliRunner = cli_runner(capsys, monkeypatch)
    for _ in range(2):  # the second run resumes in the folder the first wrote
        status, out, err = run(
            "arena", "run", tmp_path / "study.toml", "--out", tmp_path / "out", "--backend", "serial"
        )
        assert status == 0 and "4 games in" in out, err


def test_an_sprt_given_as_a_table_to_study_is_a_study_error_naming_the_key() -> None:
    # A client building the study in Python as the TOML file reads (sprt as a table) got an AttributeError.
    with pytest.raises(arena.StudyError, match=r"^sprt: an arena\.Sprt"):
        arena.Study(
            name="x",
            game="kuzushi",
            format="sprt",
            agents={"a": "random", "b": "greedy"},
            sprt={"elo0": 0, "elo1": 10},  # type: ignore[arg-type]
        )


def test_the_run_help_shows_a_study_that_reads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A wheel has no docs/arena.md: `kumiki arena run --help` is where its user learns what a study file holds,
    and its example (as an 80-column terminal shows it, markup and all) is a study that reads."""
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _err = cli_runner(capsys, monkeypatch)("arena", "run", "--help")
    assert code == 0
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip().startswith("name = "))
    example = []
    for line in lines[start:]:
        if not line.strip():
            break
        assert line.startswith("     "), line  # a line the terminal wrapped would not be TOML
        example.append(line.strip())
    study = arena.load_study(write(tmp_path, "\n".join(example)))
    assert study.game == "kuzushi" and len(study.option_sets()) == 2 and len(study.agents) == 2


def test_an_option_set_in_a_message_is_one_short_line() -> None:
    """The option set a refusal names was written with str(): a 5,000-character value made a message of 5,000
    characters, a value with a line break a message of two lines, and a whole number of over 4,300 digits (a Study
    built in Python) a bare ValueError from str() instead of the StudyError."""
    for value, words in [
        ("x" * 5000, "options: size=" + "x" * 39 + "…: option 'size'"),
        ("a\nb", "options: size='a\\nb': option 'size'"),
        (10**5000, "options: size=an integer of over 4000 digits: option 'size'"),
    ]:
        with pytest.raises(arena.StudyError) as caught:
            arena.Study(name="t", game="kuzushi", agents={"r": "random"}, format="self-play", options={"size": value})
        assert str(caught.value).startswith(words), str(caught.value)
        assert "\n" not in str(caught.value) and len(str(caught.value)) < 400, str(caught.value)


_ANY_VALUE = st.one_of(
    st.text(max_size=3000),
    st.integers(min_value=-(10**5000), max_value=10**5000),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(name=st.sampled_from(["players", "size", "tiles", "majority", "teams", "x" * 300]), value=_ANY_VALUE)
def test_any_option_value_is_refused_in_one_short_line(name: str, value: Any) -> None:
    try:
        arena.Study(name="t", game="kuzushi", agents={"r": "random"}, format="self-play", options={name: value})
    except arena.StudyError as error:
        assert "\n" not in str(error) and len(str(error)) < 400, str(error)
