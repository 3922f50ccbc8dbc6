"""``kumiki play blokus3d``: the terminal view (height map, side views, pieces, scores) and its commands."""

from __future__ import annotations

import io
import itertools
import json
from pathlib import Path

import pytest
from rich.console import Console
from tests.helpers import CliRunner, cli_runner, draw, lines_of, plain_output, play_out, session, short_terminal

import kumiki
from kumiki.core.errors import IllegalMove, MoveSyntaxError
from kumiki.terminal import blokus3d as view
from kumiki.terminal import view_for
from kumiki.terminal.play import Seat, Session, build_seats, describe_result, one_line

FIRST = "T4 3,4,0 4,4,0 4,5,0 5,4,0"  # blue's first piece on structure A (cells sorted)


@pytest.fixture(autouse=True)
def _plain_output(monkeypatch: pytest.MonkeyPatch) -> None:
    plain_output(monkeypatch)


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    """Run ``kumiki ARGS`` in this process: ``(exit status, stdout, stderr)``."""
    return cli_runner(capsys, monkeypatch)


def new_state(**options: object) -> kumiki.State:
    return kumiki.load_game("blokus3d", **options).new_state()


def known_position() -> kumiki.State:
    """Structure A, 2 players: blue's T4, yellow's I2 south of it, blue's I2 lying on its own T4."""
    state = new_state()
    for move in (FIRST, "I2 3,3,0 4,3,0", "I2 4,4,1 4,5,1"):
        state.play(move)
    return state


# ------------------------------------------------------------------------------------------------ the view


def test_blokus3d_has_its_own_view() -> None:
    assert view_for("blokus3d") is view.VIEW
    assert view_for("blokus3d").render is view.render


def test_the_height_map_shows_top_colour_height_and_limit_north_up() -> None:
    assert lines_of(view.height_map(known_position())) == [
        "from above",
        " y (north ↑)",
        " 6   0/4  0/4  0/4  0/4",
        " 5   0/4 B2/4  0/4  0/4",
        " 4  B1/4 B2/4 B1/4  0/4",
        " 3  Y1/4 Y1/4  0/4  0/4",
        "     3    4    5    6",
        "    x (east →)",
    ]


def test_the_side_views_show_the_nearest_cube_at_each_level() -> None:
    state = known_position()
    assert lines_of(view.side_view(state, "south")) == [
        "from the south",
        " z (up)",
        " 3 · · · ·",
        " 2 · · · ·",
        " 1 · B · ·",
        " 0 Y Y B ·",
        "   3 4 5 6",
        "   x (east →)",
    ]
    assert lines_of(view.side_view(state, "west")) == [
        "from the west",
        " z (up)",
        " 3 · · · ·",
        " 2 · · · ·",
        " 1 · B B ·",
        " 0 · B B Y",
        "   6 5 4 3",
        "   y (← north)",
    ]


def test_cells_outside_the_mask_are_blank() -> None:
    state = new_state(structure="B")  # an L: x 2..7 at y 2..3, x 2..3 up to y 7
    text = lines_of(view.height_map(state))
    north = next(line for line in text if line.startswith(" 7 "))
    assert north == " 7   0/3  0/3"
    south = next(line for line in text if line.startswith(" 2 "))
    assert south.split()[1:] == ["0/3"] * 6


def test_the_whole_view_of_the_known_position() -> None:
    state = known_position()
    text = draw(view.render(state, ["you", "mcts"]))
    assert "Blokus 3D · structure A · 2 players · 3 pieces placed" in text
    assert "yellow to move: player 1 (mcts)" in text
    assert "B2/4" in text and "Y1/4" in text
    assert "from above" in text and "from the south" in text and "from the west" in text
    # The colours' table: blue has 4 squares on top and 9 pieces left, yellow 2 and 10.
    blue = next(line for line in text.splitlines() if " blue " in line and "0 you" in line)
    assert "4 − 9 = -5" in blue
    assert "I3 V3 I4 O4 L4 Z4 P4 A4 B4" in blue
    yellow = next(line for line in text.splitlines() if " yellow " in line and "1 mcts" in line)
    assert "2 − 10 = -8" in yellow and "◀ to move" in yellow
    assert "yellow's pieces left" in text
    assert "22##" in text  # P4/B4 drawn with their stacked cubes


@pytest.mark.parametrize("structure", ["A", "B", "C", "D"])
@pytest.mark.parametrize(("players", "colours"), [(2, 1), (3, 1), (4, 1), (2, 2)])
def test_the_view_renders_every_structure_and_player_count(structure: str, players: int, colours: int) -> None:
    state = new_state(structure=structure, players=players, colours_per_player=colours)
    g = state.game
    for moves in (0, 5, None):
        if moves != 0:
            play_out(state, seed=players * 10 + colours, moves=moves)
        text = draw(view.render(state, [f"p{seat}" for seat in range(players)]))
        assert f"structure {structure} · {players} players" in text
        for x in range(10):
            for y in range(10):
                if g.limits[x][y] and not state.height(x, y):
                    assert f" 0/{g.limits[x][y]}" in text
                elif g.limits[x][y]:
                    top = "BYRG"[state.top_colour(x, y)]
                    assert f"{top}{state.height(x, y)}/{g.limits[x][y]}" in text
        for colour in range(g.colours):
            assert view.colour_name(colour) in text
        if colours == 2:
            assert "Player scores: player 0 (p0)" in text
            blue, red = state.colour_scores()[0], state.colour_scores()[2]
            assert f"player 0 (p0) {max(blue, red):g} (the better of blue {blue}, red {red})" in text
        if state.over:
            assert "game over" in text and "★ winner" in text
        else:
            assert "◀ to move" in text and "pieces left (seen from above" in text
    # Narrow terminals fold the view rather than fail.
    assert "from the west" in draw(view.render(state), width=60)


def test_piece_drawings() -> None:
    assert view.piece_drawing("I4") == ["        ", "########"]
    assert view.piece_drawing("T4") == ["  ##  ", "######"]
    assert view.piece_drawing("P4") == ["##  ", "22##"]


def test_out_colours_and_the_result_note_with_two_colours_each() -> None:
    state = play_out(new_state(colours_per_player=2, structure="D"), seed=3)
    text = draw(view.render(state))
    assert "game over" in text
    note = view.result_note(state)
    why = "The game ended because no colour can place another piece; the highest score wins."
    assert note is not None and note.startswith(why + " Colour scores: player 0 blue ")
    scores = state.colour_scores()
    assert f"player 1 yellow {scores[1]}, green {scores[3]} (the better: {max(scores[1], scores[3])})" in note
    assert note in describe_result(state)
    assert view.result_note(new_state()) is None
    # One colour each: the result line still says why the game ended (it said only who won).
    assert view.result_note(play_out(new_state(), seed=1)) == why
    assert why in describe_result(play_out(new_state(), seed=1))


def test_how_to_play_names_the_rules_and_the_colours() -> None:
    text = view.how_to_play(kumiki.load_game("blokus3d", colours_per_player=2, structure="C"))
    for words in ("from above", "no gap", "height limit", "first piece", "own colour", "minus 1", "structure C"):
        assert words in text
    assert "player 0 plays blue and red; player 1 plays yellow and green" in text
    assert "hint" in text and "moves" in text


# ------------------------------------------------------------------------------------------------ commands


def test_hint_ranks_moves_by_what_they_gain_at_once() -> None:
    state = new_state()
    best = view.hints(state, 3)
    assert len(best) == 3
    for hint in best:  # a flat four-cube piece: 4 squares on top and one piece fewer left
        assert hint.value == 5 and hint.gains == [5, 0]
        assert len(hint.move.cells) == 4 and {z for _, _, z in hint.move.cells} == {0}
    state = known_position()  # yellow to move: covering blue is worth as much as gaining
    best = view.hints(state)
    top = best[0]
    assert all(hint.value == hint.gains[1] - hint.gains[0] for hint in best)
    assert any(hint.gains[0] < 0 and hint.value == top.value for hint in best)  # covering blue squares pays too
    assert top.gains[1] == 5  # on equal margins, your own gain first
    after = state.copy()
    after.play(top.move)
    assert after.colour_scores()[1] - state.colour_scores()[1] == top.gains[1]
    assert all(a.value >= b.value for a, b in itertools.pairwise(best))
    text = draw(view.hint_text(state, 4))
    assert "Best 4 of" in text and "moves for yellow" in text
    assert str(top.move) in text and "on top, +1 for the piece; covers 2 of blue's\n" in text


def test_moves_by_piece_keep_each_move_whole_at_60_columns() -> None:
    """At 60 columns a line of two four-cube moves folded in the middle of the second move ("T4 3,3,0 3,4,0" on one
    line, "3,5,0 4,4,0  …" at the start of the next): such a piece's moves go one to a line now."""
    state = new_state()
    legal = [str(m) for m in state.legal_moves()]
    wide = draw(view.moves_text(state))
    shown = [m for m in legal if m in wide]
    text = draw(view.moves_text(state), width=60)
    lines = text.splitlines()
    assert all(len(line) <= 60 for line in lines)
    assert all(any(move in line for line in lines) for move in shown)  # every move shown whole, on one line
    assert "  I2    40  I2 3,3,0 3,3,1   I2 3,3,0 3,4,0  …" in lines  # two to a line where they fit
    assert "  T4    40  T4 3,3,0 3,4,0 3,4,1 3,5,0" in lines


def test_the_game_over_screen_on_a_short_terminal_offers_no_command() -> None:
    """The compact board at the game's end said "More: 'legend' …, 'pieces' …, 'board all' …" after the last
    prompt: commands nobody could type any more."""
    state = play_out(new_state(players=4), seed=3)
    assert state.over
    text = draw(view.render_compact(state), width=60)
    assert "game over" in text and "★" in text
    assert "More:" not in text


def test_moves_by_piece_and_a_piece_alone() -> None:
    state = new_state()
    legal = [str(m) for m in state.legal_moves()]
    text = draw(view.moves_text(state))
    assert f"{len(legal)} legal moves for blue, by piece (11 pieces" in text
    assert legal[0] in text
    assert 20 <= sum(m in text for m in legal) <= 40  # about 30 examples, some of every piece
    assert all(f"\n  {name} " in text for name in ("I2", "T4", "B4"))
    t4 = [m for m in legal if m.startswith("T4 ")]
    text = draw(view.placements_text(state, "T4"))
    assert f"T4: {len(t4)} legal placements for blue" in text
    assert t4[0] in text and t4[11] in text and t4[12] not in text
    assert f"and {len(t4) - 12} more" in text
    assert all(m in draw(view.placements_text(state, "T4", show_all=True)) for m in t4)
    assert "yellow has already placed it" in draw(view.placements_text(known_position(), "I2"))


def test_commands_are_recognised_and_moves_are_left_alone() -> None:
    state = known_position()  # yellow to move, its I2 placed
    assert "yellow has already placed it" in draw(view.command(state, "i2"))
    assert "legal placements for yellow" in draw(view.command(state, "moves T4"))
    assert "legal moves for yellow:" in draw(view.command(state, "moves all"))
    assert "Best 2 of" in draw(view.command(state, "hint 2"))
    assert "hint N" in draw(view.command(state, "hint 99"))
    for text in (FIRST, "T4 3,4,0", "undo", "board", "quit", "hello"):
        assert view.command(state, text) is None


def test_moves_with_a_word_that_is_no_piece_says_so() -> None:
    # It was read as a move: "no piece 'moves'".
    answer = one_line(draw(view.command(known_position(), "moves please")))
    assert answer.startswith("'please' is not a piece: write moves, moves all or moves PIECE (I2 I3")
    assert "'moves'" not in answer


def test_legend_and_pieces_are_commands() -> None:
    state = known_position()
    assert "B2/4 = blue on top" in draw(view.command(state, "legend"))
    assert "yellow's pieces left" in draw(view.command(state, "pieces"))
    assert "pieces (drawn), legend" in view.how_to_play(state.game)


@pytest.mark.parametrize(
    ("options", "moves"),
    [
        ({}, 6),
        ({"players": 4}, 8),
        ({"players": 2, "colours_per_player": 2}, 8),
        ({"players": 4, "structure": "C"}, 12),
    ],
)
def test_the_board_fits_a_24_line_terminal(options: dict[str, object], moves: int) -> None:
    state = play_out(new_state(**options), seed=3, moves=moves)
    session, out = short_terminal(state)
    session.show_board()
    shown = out.getvalue().splitlines()
    # The board leaves room for the prompt and the moves just played (before: 23 to 33 lines at 80 columns).
    assert len(shown) <= 24 - 3
    text = "\n".join(shown)
    assert "to move: player" in text and "pieces left: " in text
    assert "More: 'legend' (the map's signs), 'pieces' (drawn), 'board all' (everything)." in text
    assert "seen from above; 22 = two cubes stacked" not in text  # the drawings are behind 'pieces'


def test_a_tall_terminal_or_a_pipe_gets_the_full_board() -> None:
    state = play_out(new_state(players=4), seed=3, moves=8)
    session, out = short_terminal(state, height=60)
    session.show_board()
    assert "seen from above; 22 = two cubes stacked" in out.getvalue()
    session, out = short_terminal(state)
    session.show_board(full=True)  # 'board all'
    assert "seen from above; 22 = two cubes stacked" in out.getvalue()
    piped = io.StringIO()
    Session(
        state, [Seat(s) for s in range(4)], Console(file=piped, width=80, height=24), reader=lambda p: None
    ).show_board()
    assert piped.getvalue() == out.getvalue()


# ------------------------------------------------------------------------------------------------ playing


def test_default_seats_make_seat_0_the_human_against_a_lighter_mcts() -> None:
    seats = build_seats(3, [], view_for("blokus3d"))
    assert [seat.human for seat in seats] == [True, False, False]
    assert seats[1].agent is not None and seats[1].agent.name == "mcts"
    assert seats[1].agent.options["iterations"] == 300
    kuzushi = build_seats(2, [], view_for("kuzushi"))
    assert kuzushi[1].human and kuzushi[0].agent is not None and kuzushi[0].agent.options["iterations"] == 3000


def test_default_seats_from_the_command_line(cli) -> None:
    code, out, err = cli("play", "blokus3d", stdin="quit\n")
    assert code == 0, err
    assert "Player 0 (you): human" in out
    assert "Player 1 (mcts): mcts iterations=300" in out
    assert "Move 1 · Player 0 (you) · blue > quit" in out
    assert "Game stopped after 0 moves." in out


def test_a_piped_human_game(cli, tmp_path: Path) -> None:
    save = tmp_path / "human.kmk"
    bad_shape = "T4 3,4,0 4,4,0 5,4,0 4,5,1"
    outside = "T4 0,0,0 1,0,0 2,0,0 1,1,0"
    script = ["hello", bad_shape, outside, "hint", "moves", "T4", "t4 3,4,0 4,5,0 5,4,0 4,4,0", "quit"]
    code, out, err = cli("play", "blokus3d", "--seat", "1=random:seed=3", "--save", save, stdin="\n".join(script))
    assert code == 0, err
    assert "Traceback" not in out + err
    assert "How to play Blokus 3D" in out
    state = new_state()
    for text in ("hello", bad_shape):  # the parser's own one-line reason
        with pytest.raises(MoveSyntaxError) as error:
            state.game.parse_move(text)
        assert f"\n{one_line(error.value)}\n" in out
    with pytest.raises(IllegalMove) as error:
        state.play(outside)
    assert f"\nIllegal move: {one_line(error.value)}\n" in out
    assert "outside the structure" in str(error.value)
    assert f"Best 5 of {len(state.legal_moves())} moves for blue" in out
    assert str(view.hints(state)[0].move) in out
    assert f"{len(state.legal_moves())} legal moves for blue, by piece" in out
    assert "T4: 40 legal placements for blue" in out
    assert f"Player 0 (you) plays {FIRST} (blue)\n" in out
    assert "Player 1 (random) plays " in out and "(yellow)\n" in out
    assert "Move 3 · Player 0 (you) · blue > quit" in out
    assert "Game stopped after 2 moves." in out
    _, record = kumiki.read_record(save.read_text(encoding="utf-8"))
    assert [str(m) for m in record.history][:1] == [FIRST]
    assert len(record.history) == 2 and not record.over
    assert '[Player0 "human"]' in save.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, []), (2, ["--option", "structure=B", "--option", "colours_per_player=2"]), (3, ["--option", "structure=D"])],
)
def test_a_random_game_finishes_and_the_record_replays(cli, tmp_path: Path, players: int, options: list[str]) -> None:
    save = tmp_path / "random.kmk"
    seats = [f"--seat={seat}=random:seed={seat + 1}" for seat in range(players)]
    code, out, err = cli("play", "blokus3d", f"--players={players}", *options, *seats, "--save", save)
    assert code == 0, err
    assert err == ""
    assert "game over" in out
    assert f"Saved to {save}" in out
    code, replayed, err = cli("replay", save, "--json")
    assert code == 0, err
    result = json.loads(replayed)
    _, record = kumiki.read_record(save.read_text(encoding="utf-8"))
    game = record.game
    expected = game.new_state()
    agents = [kumiki.load_agent("random", seed=seed) for seed in range(1, game.players + 1)]
    while not expected.over:
        expected.play(agents[expected.to_move].choose(expected))
    assert result["over"] is True
    assert result["state"] == expected.to_json()
    assert result["moves"] == [str(m) for m in expected.history]
    assert result["scores"] == expected.scores()
    assert describe_result(expected, [a.name for a in agents], view.VIEW) in out
    code, text, err = cli("replay", save)
    assert code == 0, err
    assert "game over" in text and "★ winner" in text


def test_undo_end_of_input_and_ctrl_c(tmp_path: Path) -> None:
    seats = [Seat(0), Seat(1, kumiki.load_agent("random", seed=4))]
    game, out = session(new_state(), seats, [FIRST, "undo", FIRST, "B4"], save=tmp_path / "u.kmk")
    assert game.run() == 0
    text = out.getvalue()
    assert "Took back to move 1." in text
    assert "B4: " in text and "legal placement" in text
    assert "Game stopped after 2 moves." in text  # the end of input stops the game

    def interrupted(prompt: object) -> str | None:
        raise KeyboardInterrupt

    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None)
    assert Session(new_state(), [Seat(0), Seat(1)], console, reader=interrupted).run() == 0
    assert "Game stopped after 0 moves." in out.getvalue()


def test_two_humans_with_two_colours_each_see_the_colour_in_the_prompt() -> None:
    prompts: list[str] = []
    lines = [FIRST, "I2 3,3,0 4,3,0", "quit"]

    def read(prompt: object) -> str | None:
        prompts.append(str(prompt))
        return lines.pop(0) if lines else None

    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None)
    state = new_state(colours_per_player=2)
    assert Session(state, [Seat(0), Seat(1)], console, reader=read).run() == 0
    assert prompts == [
        "Move 1 · Player 0 (human) · blue > ",
        "Move 2 · Player 1 (human) · yellow > ",
        "Move 3 · Player 0 (human) · red > ",
    ]


def test_the_result_note_with_two_colours_each_gives_the_players_scores_not_sums() -> None:
    """A player's score is the better of their two colours (docs/rules/blokus3d.md: "a player's score is the better
    of their two colours"); the note said "blue 3 + red 5 = 8" beside "Scores: player 0 5"."""
    for seed in range(4):
        state = play_out(new_state(colours_per_player=2), seed=seed)
        note = view.result_note(state)
        assert note is not None
        assert " + " not in note and " = " not in note
        for player, score in enumerate(state.scores()):
            assert f"player {player} " in note
            assert f"(the better: {score:g})" in note.split(f"player {player} ")[1].split(";")[0]


@pytest.mark.parametrize("players, colours", [(4, 1), (2, 2)])
def test_the_colours_table_shows_the_pieces_left_and_who_moves_at_60_columns(players: int, colours: int) -> None:
    """At 60 columns the pieces left were a column of "…" (eleven rows of them per colour) and "◀ to move" was cut."""
    state = new_state(players=players, colours_per_player=colours)
    names = ["you"] + ["blokus3d"] * (players - 1)
    text = draw(view.colours_table(state, names), width=60)  # type: ignore[arg-type]
    assert "…" not in text
    assert "◀ to move" in text
    assert text.count("I2 I3 V3 I4") == 4  # every colour's pieces, four to a line
    assert all(len(line) <= 60 for line in text.splitlines())
    assert len(text.splitlines()) <= 3 + 4 * 3


def test_how_to_play_with_two_colours_says_a_player_scores_the_better_colour() -> None:
    """With two colours each the help said "one point for each square whose top cube is yours, minus 1 for each
    piece you have not placed", which reads as both colours together; the score is the better colour's."""
    game = kumiki.load_game("blokus3d", colours_per_player=2)
    text = view.how_to_play(game)
    assert "your score is your better colour's (not the sum of the two)" in text
    assert "is yours" not in text
    assert "is yours, minus 1 for each piece you have not placed" in view.how_to_play(kumiki.load_game("blokus3d"))
    state = game.new_state()
    for _ in range(6):
        state.play(state.legal_moves()[0])
    colours = state.colour_scores()
    assert state.scores() == [max(colours[0], colours[2]), max(colours[1], colours[3])]
    assert state.scores() != [colours[0] + colours[2], colours[1] + colours[3]]


@pytest.mark.parametrize("options", [{}, {"players": 4}, {"players": 2, "colours_per_player": 2}])
def test_the_compact_board_wraps_nothing_at_60_columns(options: dict[str, object]) -> None:
    """At 60 columns the compact board's colour line wrapped "◀ to" / "move" and its last line "'board" / "all'",
    a command cut in two, and four colours took 22 to 24 rows: there the colours' lines say "7 left", the commands a
    shorter line, and the west view gives way where it would push the prompt away ('board all' shows it)."""
    state = play_out(new_state(**options), seed=3, moves=8)
    session, out = short_terminal(state, width=60, humans=1)
    session.show_board()
    shown = out.getvalue().splitlines()
    assert len(shown) <= 24 - 3
    assert all(len(line) <= 60 for line in shown)
    assert any(line.rstrip().endswith("◀ to move") for line in shown)
    assert shown[-1].startswith("More: 'legend'") and "'board all'" in shown[-1]
    text = "\n".join(shown)
    assert ("west ← y" in text) != ("'board all' (the west view too)" in text)
    wide, out = short_terminal(state, width=80, humans=1)
    wide.show_board()
    assert "pieces left  ◀ to move" in out.getvalue()  # 80 columns keep the full words
