"""The ``kumiki`` command line: replay, moves, listings, and one clear line (exit 2) for every kind of bad input."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from tests.helpers import CliRunner, assert_one_line_error, cli_runner, plain_output, play_out

import kumiki


@pytest.fixture(autouse=True)
def _plain_output(monkeypatch: pytest.MonkeyPatch) -> None:
    plain_output(monkeypatch)


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    """Run ``kumiki ARGS`` in this process: ``(exit status, stdout, stderr)``."""
    return cli_runner(capsys, monkeypatch)


def played(*moves: str, **options: object) -> kumiki.State:
    state = kumiki.load_game("kuzushi", **options).new_state()
    for move in moves:
        state.play(move)
    return state


def finished_game() -> kumiki.State:
    return play_out(kumiki.load_game("kuzushi").new_state(), seed=1)


@pytest.fixture
def record(tmp_path: Path) -> Path:
    state = played("B 1,0", "B -1,0", "F 1,1")
    path = tmp_path / "game.kmk"
    path.write_text(kumiki.write_record(state, tags={"Player0": "alice", "Player1": "bob"}), encoding="utf-8")
    return path


# ------------------------------------------------------------------------------------------------ replay and moves


def test_replay_prints_board_scores_and_state(cli, record: Path) -> None:
    code, out, err = cli("replay", record)
    assert code == 0, err
    assert err == ""
    assert "kuzushi · 2 players · 3 moves" in out
    assert "[C]" in out
    assert "alice" in out and "bob" in out
    state = played("B 1,0", "B -1,0", "F 1,1")
    assert "Scores: " + ", ".join(f"player {i} {s:g}" for i, s in enumerate(state.scores())) in out
    assert "The game goes on: Player 0 (alice) to move." in out


def test_replay_json_has_the_contract_fields(cli, record: Path) -> None:
    code, out, _ = cli("replay", record, "--json")
    assert code == 0
    result = json.loads(out)
    state = played("B 1,0", "B -1,0", "F 1,1")
    assert set(result) == {"game", "players", "moves", "over", "to_move", "scores", "winners", "state"}
    assert result["game"] == "kuzushi"
    assert result["players"] == 2
    assert result["moves"] == ["B 1,0", "B -1,0", "F 1,1"]
    assert result["over"] is False
    assert result["to_move"] == 0
    assert result["scores"] == state.scores()
    assert result["winners"] == []
    assert result["state"] == state.to_json()


def test_the_contract_example_record_replays(cli, tmp_path: Path) -> None:
    """CONTRACT.md's record, as written, ends with [Result "1"] in a game that goes on: exit 2 ("truncated") before."""
    from tests.test_records import CONTRACT_RECORD

    path = tmp_path / "contract.kmk"
    path.write_text(CONTRACT_RECORD, encoding="utf-8")
    code, out, err = cli("replay", path, "--json")
    assert (code, err) == (0, "")
    result = json.loads(out)
    assert result["moves"] == ["B 1,0", "B -1,0", "F 1,1"] and result["over"] is False and result["winners"] == []
    assert result["record_result"] == [1]  # the record's word, as the text says it (it was left out of the JSON)
    code, out, _ = cli("replay", path)
    assert code == 0 and "The record's [Result] says Player 1 (mcts iterations=2000) won" in out
    code, out, _ = cli("moves", path)
    assert code == 0 and out.splitlines() == [str(m) for m in played("B 1,0", "B -1,0", "F 1,1").legal_moves()]


def test_replay_of_a_game_whose_result_says_it_goes_on(cli, tmp_path: Path) -> None:
    """[Result "*"] (the game goes on) is a valid record: replay printed the board, then failed with exit 2 and
    "invalid literal for int() with base 10: '*'"."""
    path = tmp_path / "open.kmk"
    path.write_text('[Game "kuzushi"]\n[Result "*"]\n\nB 1,0\n', encoding="utf-8")
    code, out, err = cli("replay", path)
    assert (code, err) == (0, "")
    assert "The game goes on" in out and "[Result]" not in out


@pytest.mark.parametrize("game", kumiki.games())
def test_replay_shows_player_names_as_written_not_as_markup(cli, tmp_path: Path, game: str) -> None:
    """A [PlayerN] tag is any text: Blokus 3D's board read "[/]" as rich markup and replay ended in "internal error
    (MarkupError ...)", exit status 1."""
    path = tmp_path / "names.kmk"
    path.write_text(f'[Game "{game}"]\n[Player0 "[/]"]\n[Player1 "[bold]x"]\n\n', encoding="utf-8")
    code, out, err = cli("replay", path)
    assert (code, err) == (0, "")
    assert "[/]" in out


@pytest.mark.parametrize("game", kumiki.games())
def test_replay_shows_no_control_character_of_a_player_tag(cli, tmp_path: Path, game: str) -> None:
    """A record is anyone's text: its [PlayerN] tags went to the terminal as written, escape sequences and all (ESC
    [2J clears the screen, ESC ]0; sets the window's title). Only their printable characters are shown, as the web
    server keeps of an imported record's names; a name of none is the seat's plain name."""
    path = tmp_path / "escapes.kmk"
    path.write_text(f'[Game "{game}"]\n[Player0 "a\x1b[2Jb"]\n[Player1 "c\x1b]0;t\x07d\x9b"]\n\n', encoding="utf-8")
    code, out, err = cli("replay", path)
    assert (code, err) == (0, "")
    assert "\x1b" not in out and "\x9b" not in out and "\x07" not in out
    assert "a[2Jb" in out or "c]0;td" in out  # the one to move is named in the last line
    path.write_text(f'[Game "{game}"]\n[Player0 "\x1b\x07"]\n[Player1 "\x1b\x07"]\n\n', encoding="utf-8")
    code, out, err = cli("replay", path)
    assert (code, err) == (0, "")
    assert "\x1b" not in out and "\x07" not in out and "()" not in out


def test_replay_keeps_an_emoji_sequence_of_a_player_tag_whole(cli, tmp_path: Path) -> None:
    """The web server takes names with emoji sequences (joined by U+200D) and writes them in its records; replay
    dropped the joiner ("👩💻", two pictures for one). A direction override still goes."""
    coder = "👩\u200d💻"
    path = tmp_path / "emoji.kmk"
    path.write_text(f'[Game "kuzushi"]\n[Player0 "{coder}\u202e"]\n[Player1 "{coder}\u202e"]\n\n', encoding="utf-8")
    code, out, err = cli("replay", path)
    assert (code, err) == (0, "")
    assert coder in out and "\u202e" not in out


def test_replay_of_a_finished_game(cli, tmp_path: Path) -> None:
    state = finished_game()
    path = tmp_path / "done.kmk"
    path.write_text(kumiki.write_record(state), encoding="utf-8")
    code, out, _ = cli("replay", path, "--json")
    assert code == 0
    result = json.loads(out)
    assert result["over"] is True
    assert result["to_move"] is None
    assert result["winners"] == state.winners()
    assert result["state"] == state.to_json()
    code, out, _ = cli("replay", path)
    assert code == 0
    assert "wins." in out or "Shared win" in out


def test_replay_of_a_solo_game_says_one_player_and_its_score(cli, tmp_path: Path) -> None:
    state = play_out(kumiki.load_game("kozo", players=1, rounds=1).new_state(seed=1), seed=1)
    path = tmp_path / "solo.kmk"
    path.write_text(kumiki.write_record(state), encoding="utf-8")
    code, out, _ = cli("replay", path)
    assert code == 0
    assert out.startswith("kozo · 1 player · ")  # was "1 players", as `kumiki play`'s header said before
    assert f"Game over: Player 0 (player 0) scored {state.scores()[0]:g}." in " ".join(out.split())


def test_replay_of_a_resigned_game_says_who_resigned_and_who_won(cli, tmp_path: Path) -> None:
    """The record's [Resigned] tag ends the game there: over, with every other side the winners (the position is as
    played: no rule ended it)."""
    state = played("B 1,0", "B -1,0", "F 1,1")
    path = tmp_path / "resigned.kmk"
    path.write_text(kumiki.write_record(state, {"Player0": "alice", "Player1": "bob", "Resigned": 0}), "utf-8")
    code, out, _ = cli("replay", path, "--json")
    assert code == 0
    result = json.loads(out)
    assert result["over"] is True and result["to_move"] is None and result["winners"] == [1]
    assert result["resigned"] == {"seat": 0, "winners": [1]}
    code, out, _ = cli("replay", path)
    assert code == 0
    assert "Player 0 (alice) resigned after the last move: Player 1 (bob) won." in out
    assert "goes on" not in out  # not "the game goes on" about a game that ended


def test_replay_reads_stdin(cli, record: Path) -> None:
    code, out, _ = cli("replay", "-", "--json", stdin=record.read_bytes())
    assert code == 0
    assert json.loads(out)["moves"] == ["B 1,0", "B -1,0", "F 1,1"]


def test_moves_lists_the_legal_moves_in_order(cli, record: Path) -> None:
    code, out, _ = cli("moves", record)
    assert code == 0
    state = played("B 1,0", "B -1,0", "F 1,1")
    assert out.splitlines() == [str(move) for move in state.legal_moves()]


def test_moves_after_the_end_prints_nothing(cli, tmp_path: Path) -> None:
    path = tmp_path / "done.kmk"
    path.write_text(kumiki.write_record(finished_game()), encoding="utf-8")
    code, out, _ = cli("moves", path)
    assert (code, out) == (0, "")


# ------------------------------------------------------------------------------------------------ bad records

BAD_RECORDS = {
    "unknown game": ('[Game "nosuchgame"]\n\nB 1,0\n', 1, "unknown game 'nosuchgame'"),
    "tag value not a number": ('[Game "kuzushi"]\n[size "abc"]\n\nB 1,0\n', 2, "size"),
    "tag value out of range": ('[Game "kuzushi"]\n[size "99"]\n\nB 1,0\n', 2, "99"),
    "unparsable move": ('[Game "kuzushi"]\n\nB 1,0\nX 1,0\n', 4, "X 1,0"),
    "illegal move": ('[Game "kuzushi"]\n\nB 1,0\nB 9,9\n', 4, "illegal move: B 9,9: outside the 6×6 grid"),
    "tag line cut off": ('[Game "kuzushi"]\n[Players "2"]\n[Game "kuzu', 3, "not a tag line"),
    "result names no seat": ('[Game "kuzushi"]\n[Result "2"]\n\nB 1,0\n', 2, "winners' indexes"),
}


@pytest.mark.parametrize("kind", sorted(BAD_RECORDS))
@pytest.mark.parametrize("command", ["replay", "moves"])
def test_a_bad_record_is_one_line_naming_file_and_line(cli, tmp_path: Path, kind: str, command: str) -> None:
    text, line, reason = BAD_RECORDS[kind]
    path = tmp_path / "game.kmk"
    path.write_text(text, encoding="utf-8")
    code, out, err = cli(command, path)
    assert_one_line_error(code, err, f"{path}: line {line}: ", reason)
    assert out == ""


def test_bad_record_with_json_also_prints_the_error_object(cli, tmp_path: Path) -> None:
    path = tmp_path / "game.kmk"
    path.write_text('[Game "kuzushi"]\n\nB 1,0\nB -1,0\nB 9,9\n', encoding="utf-8")
    code, out, err = cli("replay", path, "--json")
    assert_one_line_error(code, err, "line 5", "B 9,9", "outside the 6×6 grid")
    error = json.loads(out)
    assert error["line"] == 5
    assert "B 9,9" in error["error"]
    assert error["move"] == "B 9,9"


def test_missing_file(cli, tmp_path: Path) -> None:
    path = tmp_path / "nothere.kmk"
    for command in ("replay", "moves"):
        code, out, err = cli(command, path)
        assert_one_line_error(code, err, str(path), "no such file")
    code, out, err = cli("replay", path, "--json")
    assert json.loads(out) == {"error": "no such file", "line": 0, "move": None}


def test_a_directory_is_not_a_record(cli, tmp_path: Path) -> None:
    code, _, err = cli("replay", tmp_path)
    assert_one_line_error(code, err, str(tmp_path), "directory")


def test_non_utf8_file_names_the_line(cli, tmp_path: Path) -> None:
    path = tmp_path / "latin1.kmk"
    path.write_bytes(b'[Game "kuzushi"]\n[Event "caf\xe9"]\n\nB 1,0\n')
    code, _, err = cli("replay", path)
    assert_one_line_error(code, err, str(path), "line 2", "UTF-8")


# ------------------------------------------------------------------------------------------------ play: bad input


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (["play", "nosuchgame"], "unknown game 'nosuchgame'"),
        (["play", "kuzushi", "--size", "99"], "option 'size'"),
        (["play", "kuzushi", "--option", "size"], "name=value"),
        (["play", "kuzushi", "--option", "colour=red"], "unknown option 'colour'"),
        (["play", "kuzushi", "--players", "9"], "option 'players'"),
        (["play", "kuzushi", "--seat", "5=human"], "seat 5"),
        (["play", "kozo", "-p", "1", "--seat", "1=greedy"], "seat 1 is not in the game (1 player: seat 0 only)"),
        (["play", "kuzushi", "--seat", "0=alphazero"], "unknown agent 'alphazero'"),
        (["play", "kuzushi", "--seat", "0=mcts:iterations=zero"], "iterations"),
        (["play", "kuzushi", "--seat", "0=mcts:iterations"], "agent option 'iterations' must be written name=value"),
        (["play", "kuzushi", "--seat", "0=random", "--seat", "0=greedy"], "twice"),
        (
            ["play", "kuzushi", "--seat", "0=mcts:iterations=3000,seed=2,iterations=30"],
            "seat 0 (mcts:iterations=3000,seed=2,iterations=30): agent option 'iterations' is given twice",
        ),
        (
            ["play", "kozo", "--seat", "1=kuzushi:level=hard"],
            "seat 1 (kuzushi:level=hard): plays kuzushi only, not kozo",
        ),
        (["play", "kuzushi", "--seat", "0=towerbrix-teammate"], "plays towerbrix only, not kuzushi"),
        (["play", "kuzushi", "--no-such-flag"], "--no-such-flag"),
        (["play", "kuzushi", "--players", "two"], "--players"),
        (["frobnicate"], "frobnicate"),
    ],
)
def test_play_bad_input_is_one_line(cli, args: list[str], reason: str) -> None:
    code, _, err = cli(*args)
    assert_one_line_error(code, err, reason)


def test_play_save_into_a_missing_folder_fails_before_the_game(cli, tmp_path: Path) -> None:
    target = tmp_path / "no" / "such" / "game.kmk"
    code, out, err = cli("play", "--seat", "1=random", "--save", target)
    assert_one_line_error(code, err, str(target))
    assert "plays" not in out


def test_play_save_onto_an_existing_record_is_refused_and_keeps_it(cli: CliRunner, tmp_path: Path) -> None:
    """--save wrote the new game's record over an earlier one of the same name before the first move."""
    target = tmp_path / "game.kmk"
    earlier = '[Game "kuzushi"]\n[Players "2"]\n\nB 1,0\n'
    target.write_text(earlier, encoding="utf-8")
    code, out, err = cli("play", "--seat", "1=random", "--save", target, stdin="quit\n")
    assert_one_line_error(code, err, "holds something already")
    assert "plays" not in out
    assert target.read_text(encoding="utf-8") == earlier
    empty = tmp_path / "empty.kmk"  # an empty file holds nothing to lose: it is written as before
    empty.touch()
    code, _, err = cli("play", "--seat", "0=random:seed=1", "--seat", "1=random:seed=2", "--save", empty)
    assert code == 0, err
    assert kumiki.read_record(empty.read_text(encoding="utf-8"))[1].over


# ------------------------------------------------------------------------------------------------ listings


def test_games_and_agents_are_listed(cli) -> None:
    code, out, _ = cli("games", "--names")
    assert code == 0
    assert out.splitlines() == kumiki.games()
    code, out, _ = cli("agents", "--names")
    assert code == 0
    assert {"random", "greedy", "mcts"} <= set(out.splitlines())
    code, out, _ = cli("games")
    assert code == 0
    assert "kuzushi" in out and "size" in out and "tiles" in out
    code, out, _ = cli("agents")
    assert code == 0
    assert "iterations" in out


def test_games_and_agents_as_json(cli) -> None:
    code, out, _ = cli("games", "--json")
    assert code == 0
    games = {entry["name"]: entry for entry in json.loads(out)}
    assert "kuzushi" in games
    assert {o["name"] for o in games["kuzushi"]["options"]} >= {"players", "size", "tiles"}
    code, out, _ = cli("agents", "--json")
    mcts = next(entry for entry in json.loads(out) if entry["name"] == "mcts")
    iterations = next(o for o in mcts["options"] if o["name"] == "iterations")
    assert iterations["type"] == "int"


def test_version(cli) -> None:
    code, out, _ = cli("--version")
    assert (code, out.strip()) == (0, f"kumiki {kumiki.__version__}")


# ------------------------------------------------------------------------------------------------ the installed script

SCRIPT = Path(sys.executable).with_name("kumiki")


@pytest.mark.skipif(not SCRIPT.exists(), reason="the kumiki console script is not installed next to python")
def test_console_script_reports_an_illegal_move_without_traceback(tmp_path: Path) -> None:
    path = tmp_path / "game.kmk"
    path.write_text('[Game "kuzushi"]\n\nB 1,0\nB -1,0\nB 1,0\n', encoding="utf-8")
    done = subprocess.run([SCRIPT, "replay", path], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines() == [f"{path}: line 5: illegal move: B 1,0: a base of player 1 is already there"]


def test_python_dash_m_kumiki_is_the_command() -> None:
    done = subprocess.run([sys.executable, "-m", "kumiki", "games", "--json"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert [g["name"] for g in json.loads(done.stdout)] == kumiki.games()  # every game, one added later too


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("replay", "/dev/zero"), "too large for a record"),
        (("moves", "/dev/zero"), "too large for a record"),
        (("stability", "/dev/zero"), "too large for a tower"),
        (("arena", "run", "/dev/zero"), "no study file is so large"),
    ],
)
def test_an_endless_input_is_refused_not_read_until_memory_runs_out(
    cli: CliRunner, args: tuple[str, ...], words: str
) -> None:
    """``kumiki replay /dev/zero`` read until memory ran out ("internal error (MemoryError)", status 1, under a
    memory cap); every file is read up to a cap far above any real one."""
    code, _out, err = cli(*args)
    assert_one_line_error(code, err, words)


# Without the 'web' extra (fastapi missing, as in a wheel installed without [web]): one line that names the extra.
WITHOUT_WEB = "import sys; sys.modules['fastapi'] = None; "


def test_importing_the_server_without_the_web_extra_names_the_extra() -> None:
    """``kumiki.server.create_app`` is public (docs/api/server.md): its import said only "No module named
    'fastapi'", where the interop modules name the extra to install."""
    done = subprocess.run([sys.executable, "-c", WITHOUT_WEB + "import kumiki.server"], capture_output=True, text=True)
    assert done.returncode == 1
    last = done.stderr.splitlines()[-1]
    assert last.startswith("ImportError: kumiki.server needs the 'web' extra: pip install 'kumiki[web]' ("), last
    assert "fastapi" in last


@pytest.mark.parametrize("command", [["serve", "--port", "8000"], ["prune", "--idle-days", "5"]])
def test_serve_and_prune_without_the_web_extra_say_it_once(command: list[str]) -> None:
    code = WITHOUT_WEB + f"from kumiki.cli import main; main({command!r})"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"kumiki {command[0]}: ") and line.count("pip install 'kumiki[web]'") == 1, line
    assert "fastapi" in line


@pytest.mark.parametrize("command", [["serve", "--port", "8000"], ["prune", "--idle-days", "5"]])
def test_serve_and_prune_name_what_an_installed_extra_lacks(command: list[str]) -> None:
    """A fastapi without the names the server imports (another version): "cannot import name" also has the module's
    name, and the line said "No module named 'fastapi'" of a module that is there."""
    code = (
        "import sys, types; sys.modules['fastapi'] = types.ModuleType('fastapi'); "
        f"from kumiki.cli import main; main({command!r})"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()
    assert "cannot import name" in line and "No module named" not in line, line


def test_play_help_names_every_game_that_takes_hint() -> None:
    """The terminal of Blokus 3D, Kozo and TowerBrix answers ``hint`` (Kuzushi's does not): the help says so."""
    from kumiki import cli

    doc = cli.play.__doc__ or ""
    clause = doc[doc.index("quit (") : doc.index("hint)")]
    for game in ("Blokus 3D", "Kozo", "TowerBrix"):
        assert game in clause
    assert "Kuzushi" not in clause


def test_no_help_screen_writes_a_type_beside_a_flag(cli: CliRunner) -> None:
    """typer ≥ 0.2x writes ``<bool>`` beside every flag (``--json <bool>``, ``--help <bool>``), as if it took a
    value: no help screen does; the options that take a value keep their type or metavar."""
    import typer

    from kumiki.cli import app

    def paths(command: object, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
        subs = getattr(command, "commands", {})
        return [path, *(p for name, sub in subs.items() for p in paths(sub, (*path, name)))]

    screens = {}
    for path in paths(typer.main.get_command(app)):
        code, out, _err = cli(*path, "--help")
        assert code == 0 and "--help" in out, path
        assert "<bool>" not in out, path
        screens[path] = out
    assert len(screens) > 15
    assert re.search(r"--json\s+Print one JSON object", screens[("replay",)])
    assert re.search(r"--port\s+PORT \[1<=x<=65535\]", screens[("serve",)]) and "NAME=VALUE" in screens[("play",)]
    assert "kumiki play [OPTIONS] [GAME]" in screens[("play",)]  # as every other argument: FILE, DIR, GAME
    code, out, _err = cli("--version")
    assert code == 0 and out.startswith("kumiki ")
