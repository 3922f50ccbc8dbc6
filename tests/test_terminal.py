"""``kumiki play`` and the terminal views: games played out by agents, piped human input, undo, saving."""

from __future__ import annotations

import contextlib
import io
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from rich.console import Console
from rich.text import Text
from tests.helpers import CliRunner, cli_runner, plain_output, play_out, session, stop

import kumiki
from kumiki.core import GameFacts, Option
from kumiki.terminal import GameView, plain_renderer, view_for
from kumiki.terminal import play as terminal_play
from kumiki.terminal.kuzushi import render, result_note
from kumiki.terminal.play import Seat, Session, build_seats, describe_result


@pytest.fixture(autouse=True)
def _plain_output(monkeypatch: pytest.MonkeyPatch) -> None:
    plain_output(monkeypatch)


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    """Run ``kumiki ARGS`` in this process: ``(exit status, stdout, stderr)``."""
    return cli_runner(capsys, monkeypatch)


def new_state(**options: object) -> kumiki.State:
    return kumiki.load_game("kuzushi", **options).new_state()


# ------------------------------------------------------------------------------------------------ kumiki play


def test_agents_play_a_whole_game_and_the_record_replays(cli, tmp_path: Path) -> None:
    save = tmp_path / "ai.kmk"
    code, out, err = cli("play", "kuzushi", "--seat", "0=random:seed=1", "--seat", "1=random:seed=2", "--save", save)
    assert code == 0, err
    assert err == ""
    # The same agents with the same seeds play the same game.
    expected = play_out(new_state(), seed=1)
    _, replayed = kumiki.read_record(save.read_text(encoding="utf-8"))
    assert replayed.over
    assert replayed.to_json() == expected.to_json()
    assert [str(m) for m in replayed.history] == [str(m) for m in expected.history]
    assert f"Player 1 (random) plays {expected.history[0]}" in out
    assert describe_result(expected, ["random", "random"]) in out
    assert f"Saved to {save}" in out
    text = save.read_text(encoding="utf-8")
    assert '[Player0 "random seed=1"]' in text
    assert '[Player1 "random seed=2"]' in text
    assert f'[Result "{" ".join(map(str, expected.winners()))}"]' in text


def test_three_agents_on_a_small_grid(cli) -> None:
    seats = ["--seat", "0=random:seed=1", "--seat", "1=greedy:seed=2", "--seat", "2=random:seed=3"]
    code, out, err = cli("play", "--players", "3", "--size", "4", "--option", "tiles=6", *seats)
    assert code == 0, err
    assert "3 players" in out
    assert "Scores: player 0" in out


def test_a_piped_human_game(cli, tmp_path: Path) -> None:
    save = tmp_path / "human.kmk"
    script = "B 9,9\n2,1\nhello\n1,0\nmoves\nquit\n"
    code, out, err = cli("play", "kuzushi", "--seat", "0=random:seed=5", "--save", save, stdin=script)
    assert code == 0, err
    assert "Traceback" not in out + err
    assert "How to play Kuzushi" in out
    assert "Illegal move: B 9,9: outside the 6×6 grid\n" in out
    assert "Illegal move: B 2,1: not next to any tile\n" in out
    assert "'hello': not a move" in out
    assert "Player 1 (you) plays B 1,0" in out  # the bare cell is a BASE
    assert "Player 0 (random) plays" in out
    assert "legal moves:" in out
    assert "Game stopped after 2 moves." in out
    _, state = kumiki.read_record(save.read_text(encoding="utf-8"))
    assert str(state.history[0]) == "B 1,0"
    assert len(state.history) == 2
    assert not state.over
    text = save.read_text(encoding="utf-8")
    assert '[Player1 "human"]' in text and "[Result" not in text  # unfinished: no result


def test_a_piped_line_is_echoed_without_its_control_characters(cli) -> None:
    # A script of moves read from a file reached the terminal as it was: an escape sequence in it cleared the screen
    # (or set the window's title, ...) when the dialogue was echoed.
    code, out, err = cli("play", "--seat", "0=random:seed=1", stdin="\x1b[2J\x1b]0;title\x07\tmoves\nquit\n")
    assert code == 0, err
    assert "\x1b" not in out and "\x07" not in out
    assert "> \\x1b[2J\\x1b]0;title\\x07 moves\n" in out


@pytest.mark.parametrize(
    ("game", "line"),
    [
        ("kuzushi", "x" * 100_000),
        ("towerbrix", "x" * 100_000),
        ("blokus3d", "moves " + "x" * 100_000),
        ("kozo", "moves " + "x" * 100_000),
    ],
)
def test_a_very_long_line_gets_a_short_answer(cli, game: str, line: str) -> None:
    # The answer to 100,000 characters that are not a move quoted them all (a line of 100,000 characters).
    code, out, err = cli("play", game, "--seat", "0=human", "--seat", "1=human", stdin=line + "\nquit\n")
    assert code == 0, err
    assert out.count("x") < 100_000 + 100  # the dialogue's echo of the line, then an answer quoting 60 of them
    assert "xxxx…'" in out


def test_no_stdin_at_all_is_the_end_of_input(cli, monkeypatch: pytest.MonkeyPatch) -> None:
    # `kumiki play <&-` (or a service without stdin): an internal error, even for a game of agents alone.
    monkeypatch.setattr(terminal_play.sys, "stdin", None)
    out = io.StringIO()
    assert terminal_play.LineReader(Console(file=out, color_system=None))(Text("> ")) is None
    code, text, err = cli("play", "kuzushi", "--seat", "0=random:seed=1", "--seat", "1=random:seed=2")
    assert code == 0, err
    assert "wins" in text


def test_a_line_without_end_is_not_read_until_memory_runs_out(monkeypatch: pytest.MonkeyPatch) -> None:
    # `kumiki play < /dev/zero` read NULs until a MemoryError (an internal error), the machine's memory gone first.
    monkeypatch.setattr(terminal_play.sys, "stdin", io.StringIO("\0" * (terminal_play.MAX_LINE + 10)))
    out = io.StringIO()
    read = terminal_play.LineReader(Console(file=out, width=100, color_system=None), tty=False)
    assert read(Text("> ")) is None
    assert "A line of over 1,048,576 characters is no move: the input ends here." in out.getvalue()


def test_sigterm_stops_the_game_as_ctrl_c_does(tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys
    import time

    save = tmp_path / "terminated.kmk"
    source = str(Path(kumiki.__file__).parents[1])
    env = {**os.environ, "PYTHONPATH": source}
    process = subprocess.Popen(
        [sys.executable, "-m", "kumiki", "play", "kuzushi", "--seat", "0=mcts:seconds=60", "--save", str(save)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    try:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(b"1,0\n")
        process.stdin.flush()
        seen = b""
        while b"plays B 1,0" not in seen:  # the agent thinks now, for a minute
            chunk = process.stdout.read1(4096)
            assert chunk, seen.decode(errors="replace")  # the game ended before the agent's turn
            seen += chunk
        time.sleep(0.5)
        process.send_signal(signal.SIGTERM)  # systemd, docker stop, a closed session's shell
        out, err = process.communicate(timeout=60)
    finally:
        stop(process)  # a failed test leaves no minute-long search running
    # It died at once (status -15): no "Game stopped", the spinner's cursor left hidden on a terminal, the line
    # editor's modes (no echo) left on the terminal at a prompt.
    assert process.returncode == 143, err
    assert b"Game stopped after 1 move." in out
    assert b"Traceback" not in err
    _, state = kumiki.read_record(save.read_text(encoding="utf-8"))
    assert [str(m) for m in state.history] == ["B 1,0"]


def test_sigterm_while_the_header_prints_stops_the_game_with_143(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SIGTERM before the first prompt (the help printing) fell outside the game's stop: status 130 as for Ctrl-C,
    and no word of the game."""
    import signal

    save = tmp_path / "early.kmk"
    monkeypatch.setattr(Session, "show_help", lambda self: signal.raise_signal(signal.SIGTERM))
    code, out, err = cli("play", "kuzushi", "--save", save, stdin="1,0\n")
    assert code == 143, (out, err)
    assert "Game stopped after 0 moves." in out
    _, state = kumiki.read_record(save.read_text(encoding="utf-8"))
    assert state.history == []


def test_ctrl_c_stops_the_game_with_130(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C ended `kumiki play` with status 0, as if the game had been played out or quit: a script could not tell
    a stopped game from a finished one. `quit` still ends with 0."""

    def interrupt(prompt: object) -> str:
        raise KeyboardInterrupt  # raised directly: a real SIGINT would reach the test runner too

    save = tmp_path / "stopped.kmk"
    monkeypatch.setattr(terminal_play, "LineReader", lambda console: interrupt)
    code, out, err = cli("play", "kuzushi", "--save", save, stdin="1,0\n")
    assert code == 130, (out, err)
    assert "Game stopped after 0 moves." in out
    assert "Traceback" not in out + err
    _, state = kumiki.read_record(save.read_text(encoding="utf-8"))
    assert state.history == []
    monkeypatch.undo()
    code, out, err = cli("play", "kuzushi", stdin="quit\n")
    assert code == 0, (out, err)


def test_a_second_sigterm_does_not_break_off_the_stop(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """systemd and docker send SIGTERM again: the second one, arriving while the stopped game saves its record, broke
    the save off (status 130, no "Game stopped")."""
    import signal

    save = tmp_path / "twice.kmk"
    real_save = Session.save

    def save_after_a_second_sigterm(self: Session) -> bool:
        if self.stopped:
            signal.raise_signal(signal.SIGTERM)
        return real_save(self)

    monkeypatch.setattr(Session, "show_help", lambda self: signal.raise_signal(signal.SIGTERM))
    monkeypatch.setattr(Session, "save", save_after_a_second_sigterm)
    code, out, err = cli("play", "kuzushi", "--save", save, stdin="1,0\n")
    assert code == 143, (out, err)
    assert "Game stopped after 0 moves." in out and f"Saved to {save}" in out


def test_sigterm_during_the_first_save_exits_143(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import signal

    save = tmp_path / "first.kmk"
    real = terminal_play.save_record

    def terminated_save(state: kumiki.State, path: Path, tags: dict[str, str]) -> None:
        real(state, path, tags)
        signal.raise_signal(signal.SIGTERM)

    monkeypatch.setattr(terminal_play, "save_record", terminated_save)
    code, out, err = cli("play", "kuzushi", "--save", save, stdin="1,0\n")
    assert code == 143, (out, err)
    assert "Traceback" not in err and "internal error" not in err
    _, state = kumiki.read_record(save.read_text(encoding="utf-8"))
    assert state.history == []


def test_each_illegal_move_message_is_one_line(cli) -> None:
    code, out, _ = cli("play", "--seat", "0=random:seed=1", stdin="F 0,0\n")
    assert code == 0
    lines = [line for line in out.splitlines() if line.startswith("Illegal move")]
    assert lines == ["Illegal move: F 0,0: no flag of yours there"]


def test_end_of_input_stops_the_game_and_keeps_the_record(cli, tmp_path: Path) -> None:
    save = tmp_path / "eof.kmk"
    code, out, err = cli("play", "--save", save, stdin="1,0\n")  # the default opponent: mcts
    assert code == 0, err
    assert "Game stopped after 2 moves." in out
    _, state = kumiki.read_record(save.read_text(encoding="utf-8"))
    assert str(state.history[0]) == "B 1,0"
    assert len(state.history) == 2


def test_default_seats_make_seat_1_the_human() -> None:
    seats = build_seats(2, [])
    assert seats[1].human
    assert seats[0].agent is not None and seats[0].agent.name == "mcts"
    assert seats[0].agent.options["iterations"] == 3000
    seats = build_seats(3, ["2=human", "0=random:seed=4"])
    assert [seat.human for seat in seats] == [False, True, True]
    assert seats[0].tag() == "random seed=4"


# ------------------------------------------------------------------------------------------------ the session


def test_a_bare_cell_flips_your_flag() -> None:
    state = new_state()
    state.play("B 1,0")
    state.play("B -1,0")
    assert state.cell(1, 1) == ("flag", 1)
    game, out = session(state, [Seat(0, kumiki.load_agent("random", seed=1)), Seat(1)], ["1,1", "quit"])
    assert game.run() == 0
    assert str(game.state.history[2]) == "F 1,1"
    assert "Player 1 (you) plays F 1,1" in out.getvalue()


def test_undo_takes_back_the_move_and_the_reply(tmp_path: Path) -> None:
    save = tmp_path / "undo.kmk"
    seats = [Seat(0, kumiki.load_agent("random", seed=1)), Seat(1)]
    game, out = session(new_state(), seats, ["undo", "1,0", "undo", "0,1", "quit"], save=save)
    assert game.run() == 0
    text = out.getvalue()
    assert "Nothing to undo." in text
    assert "Took back to move 1." in text
    _, state = kumiki.read_record(save.read_text(encoding="utf-8"))
    assert str(state.history[0]) == "B 0,1"
    assert len(state.history) == 2


def test_two_humans_at_one_keyboard() -> None:
    game, out = session(new_state(), [Seat(0), Seat(1)], ["1,0", "-1,0", "help", "quit"])
    assert game.run() == 0
    assert [str(m) for m in game.state.history] == ["B 1,0", "B -1,0"]
    text = out.getvalue()
    assert "Player 0 (human) plays B -1,0" in text
    assert text.count("How to play Kuzushi") == 2


def test_ctrl_c_saves_and_stops_cleanly(tmp_path: Path) -> None:
    save = tmp_path / "interrupted.kmk"
    lines = iter(["1,0"])

    def read(prompt: object) -> str | None:
        line = next(lines, None)
        if line is None:
            raise KeyboardInterrupt
        return line

    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None)
    seats = [Seat(0, kumiki.load_agent("random", seed=2)), Seat(1)]
    assert Session(new_state(), seats, console, save=save, reader=read).run() == 0
    assert "Game stopped after 2 moves." in out.getvalue()
    _, state = kumiki.read_record(save.read_text(encoding="utf-8"))
    assert len(state.history) == 2


def test_a_failing_save_prints_the_record_instead(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real = terminal_play.save_record

    def flaky(state: kumiki.State, path: Path, tags: dict[str, str]) -> None:
        calls.append(len(state.history))
        if len(calls) > 1:
            raise OSError(28, "No space left on device", str(path))
        real(state, path, tags)

    monkeypatch.setattr(terminal_play, "save_record", flaky)
    seats = [Seat(0, kumiki.load_agent("random", seed=1)), Seat(1, kumiki.load_agent("random", seed=2))]
    game, out = session(new_state(size=3, tiles=3), seats, [], save=tmp_path / "full.kmk")
    assert game.run() == 2
    text = out.getvalue()
    assert "could not be saved" in text
    assert '[Game "kuzushi"]' in text
    moves = [str(m) for m in game.state.history]
    assert text.rstrip().endswith(moves[-1])


# ------------------------------------------------------------------------------------------------ the views


def draw(state: kumiki.State, names: list[str] | None = None) -> str:
    out = io.StringIO()
    Console(file=out, width=100, color_system=None).print(render(state, names))
    return out.getvalue()


def test_the_board_has_north_up_and_axes() -> None:
    state = new_state()
    state.play("B 0,1")  # player 1, north of the CITY
    lines = draw(state, ["mcts", "you"]).splitlines()
    north = next(i for i, line in enumerate(lines) if line.startswith(" 1 "))
    city = next(i for i, line in enumerate(lines) if line.startswith(" 0 "))
    assert north < city
    assert " 1 " in lines[north][3:]
    assert "[C]" in lines[city]
    axis = next(line for line in lines if line.rstrip().endswith(" x") or " x " in line)
    assert axis.index("-1") < axis.index(" 0 ") < axis.index(" 1 ")
    assert lines[north][3:].count("▸1") == 2  # player 1's flags east and west of its base
    assert "▸1" in lines[north - 1]  # ... and north of it
    text = "\n".join(lines)
    assert "you" in text and "mcts" in text and "◀ to move" in text
    assert "·" in text  # playable cells


def test_the_final_board_marks_the_winner() -> None:
    state = new_state(size=3, tiles=3)
    agents = [kumiki.load_agent("random", seed=1), kumiki.load_agent("random", seed=2)]
    while not state.over:
        state.play(agents[state.to_move].choose(state))
    assert "★ winner" in draw(state)


@pytest.mark.parametrize("width", [60, 80])
def test_six_players_board_fits_a_24_line_terminal(width: int) -> None:
    """Six players' 10×10 grid and table took 22 rows at 60 and at 80 columns (the table too wide to stand beside
    the grid), so the board's top left the screen: a short terminal gets the compact table now."""
    from tests.helpers import short_terminal

    state = play_out(new_state(players=6), seed=2, moves=40)
    session, out = short_terminal(state, width=width)
    session.show_board()
    text = out.getvalue()
    assert len(text.splitlines()) <= 24 - 3
    assert all(len(line) <= width for line in text.splitlines())
    assert " y" in text and " x" in text and "CITY" in text  # the whole grid and the legend
    scores, left = state.scores(), state.tiles_left()
    rows = dict(re.findall(r" (\d) +human +(\d+ +-?\d+)", text))  # seat -> its tiles left and score
    assert {int(seat): row.split() for seat, row in rows.items()} == {
        seat: [str(left[seat]), f"{scores[seat]:g}"] for seat in range(6)
    }
    assert "◀" in text
    tall, out = short_terminal(state, width=width, height=60)
    tall.show_board()
    assert "◀ to move" in out.getvalue()  # a tall terminal keeps the full table


def test_a_tie_on_points_explains_the_tie_break() -> None:
    for seed in range(50):
        state = new_state()
        agents = [kumiki.load_agent("random", seed=seed), kumiki.load_agent("random", seed=seed + 1000)]
        while not state.over:
            state.play(agents[state.to_move].choose(state))
        scores = state.scores()
        if scores[0] == scores[1]:
            break
    else:  # pragma: no cover - ties are common; fail loudly if the rules changed
        pytest.fail("no tied game in 50 random games")
    note = result_note(state)
    assert note is not None and "largest connected group" in note
    assert note in describe_result(state)
    assert result_note(new_state()) is None


def test_the_result_says_why_the_game_ended() -> None:
    reasons = set()
    for seed in range(40):
        state = new_state(size=3, tiles=5)
        agents = [kumiki.load_agent("random", seed=seed), kumiki.load_agent("random", seed=seed + 1000)]
        while not state.over:
            state.play(agents[state.to_move].choose(state))
        line = describe_result(state, ["random", "you"])
        # One line: who won, why the game ended, and that the most points win (the line said only who).
        assert "\n" not in line
        out = [seat for seat, left in enumerate(state.tiles_left()) if left == 0]
        full = len(state.to_json()["cells"]) == 9
        who = " and ".join(f"player {seat}" for seat in out)
        reason = "the grid is full" if full else f"{who} {'has' if len(out) == 1 else 'have'} no tile left"
        assert f"The game ended because {reason}; the most points win." in line
        reasons.add(reason.split()[-1])
    assert reasons == {"left", "full"}  # both ways of ending were seen


def test_unknown_games_fall_back_to_the_plain_renderer() -> None:
    view = view_for("no-such-game")
    assert view == GameView()
    assert view.render is plain_renderer
    assert view_for("kuzushi").render is render


def test_a_team_game_shows_the_team_scores() -> None:
    state = new_state(players=4, teams=2, size=5, tiles=6)
    agents = [kumiki.load_agent("random", seed=seat) for seat in range(4)]
    while not state.over:
        state.play(agents[state.to_move].choose(state))
    assert "Team scores: team 0 " in describe_result(state)
    assert "team" in draw(state)


def test_kuzushi_how_to_play_counts_the_city() -> None:
    """The score counts every tile of your colour on the table, the CITY too (rulebook 001: "BASES, FLAGS and CITY")."""
    from kumiki.terminal.kuzushi import how_to_play

    assert "player 0's CITY is one more" in how_to_play(kumiki.load_game("kuzushi"))


# ------------------------------------------------------------------------------------------------ a game with no view


@dataclass(frozen=True, slots=True)
class Take(kumiki.Move):
    sticks: int

    def __str__(self) -> str:
        return str(self.sticks)


class TakeAway(kumiki.Game):
    """Take 1–3 sticks; whoever takes the last one wins. No terminal view of its own."""

    name = "takeaway-test"
    facts = GameFacts(min_players=2, max_players=2)
    option_spec = (Option("sticks", int, 7, "sticks on the table", 1, 99),)

    def new_state(self, seed: int | None = None) -> TakeAwayState:
        return TakeAwayState(self, seed)

    def parse_move(self, text: str) -> Take:
        if not text.strip().isdigit():
            raise kumiki.MoveSyntaxError(f"{text.strip()!r}: write how many sticks to take")
        return Take(int(text))


class TakeAwayState(kumiki.State):
    def __init__(self, game: TakeAway, seed: int | None) -> None:
        self.game, self.seed, self.history = game, seed, []
        self.left, self.to_move, self.over = game.options["sticks"], 0, False

    def legal_moves(self) -> list[Take]:
        return [] if self.over else [Take(n) for n in range(1, min(3, self.left) + 1)]

    def play(self, move: Take | str) -> None:
        move = self.game.parse_move(move) if isinstance(move, str) else move
        if move not in self.legal_moves():
            raise kumiki.IllegalMove(f"{move}: take 1, 2 or 3 sticks, at most {self.left}")
        self.left -= move.sticks
        self.history.append(move)
        self.over = self.left == 0
        self.to_move = None if self.over else 1 - self.to_move

    def copy(self) -> TakeAwayState:
        other = TakeAwayState(self.game, self.seed)
        other.history, other.left, other.to_move, other.over = list(self.history), self.left, self.to_move, self.over
        return other

    def scores(self) -> list[float]:
        return [0.0, 0.0] if not self.over else [float(i in self.winners()) for i in range(2)]

    def winners(self) -> list[int]:
        return [len(self.history) % 2 ^ 1] if self.over else []

    def to_json(self) -> dict[str, object]:
        return {"left": self.left}


def test_a_game_without_a_view_plays_with_the_plain_renderer() -> None:
    state = TakeAway().new_state()
    seats = [Seat(0), Seat(1, kumiki.load_agent("random", seed=1))]
    game, out = session(state, seats, ["5", "x", "3", "moves", "quit"])
    assert game.run() == 0
    text = out.getvalue()
    assert "takeaway-test: type a move" in text  # the generic how-to-play
    assert "Illegal move: 5: take 1, 2 or 3 sticks, at most 7" in text
    assert "'x': write how many sticks to take" in text
    assert "Player 0 (you) plays 3" in text
    assert "{'left': " in text  # state.render()


def test_a_game_without_a_view_seats_the_human_where_the_game_begins() -> None:
    """``kumiki play`` of a new game seated the newcomer at seat 1 (Kuzushi's first mover), so in a game that seat 0
    opens the computer moved first; a view without ``human_seat`` leaves the seat to the game's first mover."""
    game = TakeAway()
    assert game.first_mover() == 0
    seats = build_seats(2, [], view_for(game.name), game.name, game.first_mover())
    assert [seat.human for seat in seats] == [True, False]
    kuzushi = kumiki.load_game("kuzushi")
    seats = build_seats(2, [], view_for("kuzushi"), "kuzushi", kuzushi.first_mover())
    assert [seat.human for seat in seats] == [False, True]  # Kuzushi's player 1 moves first


# ------------------------------------------------------------------------------------------------ at a real terminal

READER_SCRIPT = """
import sys
from rich.text import Text
from kumiki.terminal import make_console
from kumiki.terminal.play import LineReader
read = LineReader(make_console())
while (line := read(Text("Move 1 > ", style="bold"))) not in (None, "quit"):
    print(repr(line))
"""


def on_a_terminal(command: list[str], keys: list[tuple[bytes, bytes]], rows: int = 24, columns: int = 80) -> str:
    """What a terminal ``columns`` x ``rows`` shows while ``command`` runs (Python, with this Kumiki): each (text, key)
    types key once the screen has shown text once more than before; every byte shown, escape sequences and all."""
    pty = pytest.importorskip("pty")
    import fcntl
    import os
    import select
    import struct
    import subprocess
    import sys
    import termios
    import time

    main, side = pty.openpty()
    fcntl.ioctl(side, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    source = str(Path(kumiki.__file__).parents[1])
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env.update({"PYTHONPATH": source, "TERM": "xterm", "NO_COLOR": "1"})
    process = subprocess.Popen(
        [sys.executable, *command], stdin=side, stdout=side, stderr=side, env=env, close_fds=True
    )
    os.close(side)
    shown = b""

    def read_until(text: bytes, count: int) -> None:
        nonlocal shown
        deadline = time.monotonic() + 60
        while shown.count(text) < count and time.monotonic() < deadline:
            if select.select([main], [], [], 0.1)[0]:
                shown += os.read(main, 4096)

    try:
        for text, key in keys:
            read_until(text, shown.count(text) + 1)
            time.sleep(0.2)  # readline has the terminal
            os.write(main, key)
        process.wait(timeout=60)
        with contextlib.suppress(OSError):
            while select.select([main], [], [], 0.2)[0]:
                shown += os.read(main, 4096)
    finally:
        os.close(main)
        if process.poll() is None:
            process.kill()
    return shown.decode("utf-8", "replace")


def at_a_terminal(keys: list[bytes]) -> str:
    """What a terminal shows when ``keys`` are typed, one batch per prompt, at LineReader's prompt (readline on)."""
    return on_a_terminal(["-c", READER_SCRIPT], [(b"Move 1 > ", key) for key in keys])


def test_an_empty_line_at_a_terminal_puts_the_next_prompt_on_a_new_line() -> None:
    shown = at_a_terminal([b"\r", b"quit\r"])
    lines = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", shown).replace("\r", "").split("\n")
    assert lines[:3] == ["Move 1 > ", "''", "Move 1 > quit"]


def test_rubbing_out_a_line_at_a_terminal_keeps_the_prompt() -> None:
    shown = at_a_terminal([b"ab\x7f\x7f\x7f1,0\r", b"quit\r"])
    # readline knows the prompt: it never returns to the line's start to clear it.
    assert "\r\x1b[K" not in shown
    assert "'1,0'" in shown


def test_a_long_think_shows_the_seconds_so_far(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [100.0]
    shown: list[str] = []
    real_status = Console.status

    def words(renderable: object) -> str:
        out = io.StringIO()
        Console(file=out, width=80, color_system=None).print(renderable)
        return out.getvalue().strip()

    def status(self: Console, thinking: object, **kwargs: object) -> object:
        shown.append(words(thinking))
        now[0] += 12.4  # the agent thinks for 12.4 s; the spinner draws its words again
        shown.append(words(thinking))
        return real_status(self, "", **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Console, "status", status)
    monkeypatch.setattr(terminal_play.time, "perf_counter", lambda: now[0])
    console = Console(file=io.StringIO(), width=100, color_system=None, force_terminal=True)
    seats = [Seat(0, kumiki.load_agent("random", seed=1)), Seat(1, kumiki.load_agent("random", seed=2))]
    Session(new_state(size=3, tiles=3), seats, console, reader=lambda prompt: None).agent_turn(seats[1])
    # The spinner said only "random is thinking…", however long it took.
    assert shown == ["random is thinking…", "random is thinking… 12 s"]


# ------------------------------------------------------------------------------------------------ a terminal's size


def on_a_pty(args: list[str], keys: list[tuple[bytes, bytes]], rows: int = 24, columns: int = 80) -> str:
    """What ``kumiki ARGS`` shows on a terminal ``columns`` x ``rows`` (keys as ``on_a_terminal`` types them): the
    screen's text without escape sequences and carriage returns."""
    shown = on_a_terminal(["-m", "kumiki", *args], keys, rows, columns)
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", shown).replace("\r", "")


KOZO_FIRST = "L4 0,0,0 1,0,0 2,0,0 2,1,0 + 0,0,1"
KOZO_SECOND = "U5 0,2,0 0,2,1 1,2,1 2,2,0 2,2,1 + 0,2,2"


@pytest.mark.parametrize(
    ("args", "moves", "prompt"),
    [
        (["kozo", "--seat", "1=random:seed=1"], [KOZO_FIRST], "Move 3 "),
        (
            [
                "blokus3d",
                "-p",
                "4",
                "--seat",
                "1=random:seed=1",
                "--seat",
                "2=random:seed=2",
                "--seat",
                "3=random:seed=3",
            ],
            ["T4 3,4,0 4,4,0 4,5,0 5,4,0"],
            "Move 5 ",
        ),
    ],
)
def test_at_80x24_the_last_move_the_board_and_the_prompt_are_on_screen(
    args: list[str], moves: list[str], prompt: str
) -> None:
    keys = [(b" > ", move.encode() + b"\r") for move in moves]
    shown = on_a_pty(["play", *args], [*keys, (prompt.encode(), b"quit\r")])
    lines = shown.split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith(prompt))
    last = max(i for i, line in enumerate(lines[:at]) if " plays " in line)
    # Before: Kozo's board alone took 36 lines, Blokus 3D's with four players 31.
    assert at - last + 1 <= 24, "\n".join(lines[last : at + 1])
    assert "More: " in "\n".join(lines[last:at])


def test_a_closed_pipe_ends_the_game_quietly() -> None:
    import os
    import subprocess
    import sys

    source = str(Path(kumiki.__file__).parents[1])
    env = {**os.environ, "PYTHONPATH": source}
    process = subprocess.Popen(
        [sys.executable, "-m", "kumiki", "play", "kuzushi", "--seat", "0=random"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert process.stdout is not None
    process.stdout.close()  # `kumiki play … | head` once head has read its lines
    _, errors = process.communicate(b"moves\n" * 20, timeout=60)
    assert process.returncode == 0  # as `kumiki moves … | head -1`; it was 1
    assert errors == b""


def test_a_tie_of_teams_under_team_island_own_names_the_groups_that_decided() -> None:
    """With ``team_island="own"`` the note gave the teams' joined groups (team 1 3, team 2 2) beside winners of teams
    1 and 2: the figures of the other reading, which contradicted the result."""
    moves = ["B 1,0", "B 2,1", "B 2,-1", "B 1,1", "B 1,-1", "B 2,0"]
    notes = {}
    for reading in ("own", "joined"):
        state = kumiki.load_game("kuzushi", players=6, size=3, tiles=5, teams=3, team_island=reading).new_state()
        for move in moves:
            state.play(move)
        notes[reading] = (state.winners(), result_note(state))
    winners, note = notes["own"]
    assert winners == [1, 2, 4, 5]
    assert note is not None and "one member's largest group of own tiles decides: team 0 1, team 1 2, team 2 2." in note
    winners, note = notes["joined"]
    assert winners == [1, 4]
    assert note is not None and "largest connected group decides: team 0 2, team 1 3, team 2 2." in note


def test_an_agent_by_import_path_that_is_a_plain_object_plays(cli, tmp_path: Path) -> None:
    """docs/arena.md: an agent spec is what ``kumiki play --seat`` takes, an import path included, whose factory may
    return any object with ``choose(state)``. Such an object has no ``name`` nor ``describe()``: ``kumiki play``
    stopped with "internal error (AttributeError: 'FirstMove' object has no attribute 'name')"."""
    save = tmp_path / "plain.kmk"
    path = "tests.arena.agents:first_move"
    seats = ["--seat", f"0={path}", "--seat", "1=random:seed=2"]
    code, out, err = cli("play", "kuzushi", "--size", "3", *seats, "--save", save)
    assert code == 0, err
    assert err == ""
    assert f"Player 0 ({path}) plays" in out
    text = save.read_text(encoding="utf-8")
    assert f'[Player0 "{path}"]' in text
    _, replayed = kumiki.read_record(text)
    assert replayed.over


HELP_GAMES = [
    ("kuzushi", {}),
    ("kozo", {}),
    ("kozo", {"random_size": True}),
    ("kozo", {"players": 1, "random_size": True}),
    ("blokus3d", {}),
    ("blokus3d", {"players": 2}),
    ("blokus3d", {"players": 3}),
    ("towerbrix", {}),
]


@pytest.mark.parametrize("width", [60, 80])
@pytest.mark.parametrize(("name", "options"), HELP_GAMES)
def test_help_fits_a_24_line_terminal_page_by_page(name: str, options: dict[str, object], width: int) -> None:
    """`help` took 25 to 29 rows at 60 columns in Kozo and Blokus 3D: its top left the screen. On a short terminal
    it comes in pages that fit with their last line and the prompt ('help 2' for the next, 'help all' for all), and
    together the pages hold every word of it."""
    from tests.helpers import short_terminal

    state = kumiki.load_game(name, **options).new_state(seed=1)
    text = view_for(name).how_to_play(state.game)
    shown: list[str] = []
    page = 1
    while True:
        session, out = short_terminal(state, width=width)
        session.show_help(page)
        lines = out.getvalue().splitlines()
        assert len(lines) <= 24 - 1  # the prompt below
        assert all(len(line) <= width for line in lines)
        if not lines[-1].startswith("Help page "):
            assert page == 1  # all of it on one page
            shown.append(" ".join(lines))
            break
        assert lines[-1].startswith(f"Help page {page}/")
        shown.append(" ".join(lines[:-1]))
        if f"'help {page + 1}' for the rest" not in lines[-1]:
            break
        page += 1
    assert " ".join(shown).split() == text.split()
    tall, out = short_terminal(state, width=width, height=60)
    tall.show_help()
    assert out.getvalue().split() == text.split()  # a tall terminal shows it whole


def _typed_at_kozos_prompt(*typed: str) -> str:
    """What a 60 x 24 terminal shows when ``typed`` is typed at the prompt of a Kozo game (the last line, "quit")."""
    from tests.helpers import short_terminal

    state = kumiki.load_game("kozo").new_state(seed=1)
    lines = iter(typed)
    session, out = short_terminal(state, width=60)
    session.read = lambda prompt: next(lines)
    session.seats = [Seat(seat) for seat in range(state.game.players)]
    session.human_turn(session.seats[0])
    return out.getvalue()


def test_help_pages_are_typed_at_the_prompt() -> None:
    text = _typed_at_kozos_prompt("help", "help 2", "help all", "quit")
    assert "Help page 1/2: 'help 2' for the rest, 'help all' for all." in text
    assert "Help page 2/2: 'help 1' for the start, 'help all' for all." in text
    assert text.count("How to play Kozo") == 2  # page 1, then all of it


def test_messages_wrap_between_words_on_a_narrow_terminal() -> None:
    """A message wider than the terminal was printed as one line for the terminal to fold, which cut it mid-word
    at 60 columns ("… to flip a FL" / "AG; 'help' explains"): on a terminal it wraps between words; piped, it
    stays on one line."""
    from tests.helpers import short_terminal

    state = new_state()
    typed = iter(["xyz"])
    session, out = short_terminal(state, width=60)
    session.read = lambda prompt: next(typed, None)
    assert not session.human_turn(session.seats[state.to_move])
    lines = out.getvalue().splitlines()
    hint = view_for("kuzushi").syntax_hint
    assert hint is not None
    assert all(len(line) <= 60 for line in lines)
    assert f"'xyz': not a move — {hint}".split() == " ".join(lines).split()
    assert len(lines) == 2
    piped = io.StringIO()
    console = Console(file=piped, width=60, highlight=False, color_system=None)
    typed = iter(["xyz"])
    Session(state, session.seats, console, reader=lambda prompt: next(typed, None)).human_turn(session.seats[1])
    assert piped.getvalue().splitlines() == [f"'xyz': not a move — {hint}"]


def test_help_0_is_the_first_page_as_help_99_is_the_last() -> None:
    """'help 0' printed all of the help, whose top left a short terminal: pages are counted from 1, and a number
    past either end gives the nearest page."""
    text = _typed_at_kozos_prompt("help 0", "help 99", "quit")
    assert "Help page 1/2: 'help 2' for the rest, 'help all' for all." in text
    assert "Help page 2/2: 'help 1' for the start, 'help all' for all." in text
    assert text.count("How to play Kozo") == 1  # page 1 only, never all of it
