"""``kumiki play kozo``: the terminal view (slices, side views, margin, pool, points, falls) and its commands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.helpers import CliRunner, cli_runner, draw, kozo_1845_ended, lines_of, plain_output, play_out, session

import kumiki
from kumiki.terminal import kozo as view
from kumiki.terminal import view_for
from kumiki.terminal.play import Seat, build_seats, default_seat_specs, describe_result

FIRST = "L4 0,0,0 1,0,0 2,0,0 2,1,0 + 0,0,1"  # along the south edge, its foot up the east side
SECOND = "U5 0,2,0 0,2,1 1,2,1 2,2,0 2,2,1 + 0,2,2"  # an arch along the north edge, standing on its ends


@pytest.fixture(autouse=True)
def _plain_output(monkeypatch: pytest.MonkeyPatch) -> None:
    plain_output(monkeypatch)


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    """Run ``kumiki ARGS`` in this process: ``(exit status, stdout, stderr)``."""
    return cli_runner(capsys, monkeypatch)


def new_state(seed: int = 1, **options: object) -> kumiki.State:
    return kumiki.load_game("kozo", **options).new_state(seed=seed)


def known_position() -> kumiki.State:
    state = new_state()
    state.play(FIRST)
    state.play(SECOND)
    return state


def until_a_fall(state: kumiki.State, seed: int = 0) -> kumiki.State:
    """Random moves (seeded) until the tower has fallen once."""
    agents = [kumiki.load_agent("random", seed=seed + seat) for seat in range(state.game.players)]
    while not state.falls:
        assert not state.over
        state.play(agents[state.to_move].choose(state))
    return state


# ------------------------------------------------------------------------------------------------ the view


def test_kozo_has_its_own_view_with_player_0_against_greedy() -> None:
    assert view_for("kozo") is view.VIEW
    assert default_seat_specs(2, view.VIEW) == {0: "human", 1: "greedy"}
    seats = build_seats(3, [], view.VIEW)
    assert seats[0].human and not seats[1].human and seats[2].tag() == "greedy"


def test_each_level_is_a_3x3_slice_with_north_up() -> None:
    state = known_position()
    pic = view.picture(state)
    assert lines_of(view.slice_text(pic, 0)) == ["level 0", "2 U5  · U5", "1  ·  ◎ L4", "0 L4 L4 L4", "   0  1  2"]
    assert lines_of(view.slice_text(pic, 1)) == ["level 1", "2 U5 U5 U5", "1  ·  ◎  ·", "0  ▪  ·  ·", "   0  1  2"]
    assert lines_of(view.slice_text(pic, 2)) == ["level 2", "2  ▪  ·  ·", "1  ·  ◎  ·", "0  ·  ·  ·", "   0  1  2"]
    assert [lines_of(s)[0] for s in view.slices(pic)] == ["level 2", "level 1", "level 0"]  # the top level first


def test_the_side_views_show_the_nearest_cube_at_each_level() -> None:
    pic = view.picture(known_position())
    assert lines_of(view.side_view(pic, "south")) == [
        "from the south",
        " 2  ▪  ·  ·",
        " 1  ▪ U5 U5",
        " 0 L4 L4 L4",
        "    0  1  2",
        "   x (east →)",
    ]
    assert lines_of(view.side_view(pic, "west")) == [
        "from the west",
        " 2  ▪  ·  ·",
        " 1 U5  ·  ▪",
        " 0 U5 L4 L4",
        "    2  1  0",
        "   y (← north)",
    ]


def test_the_board_shows_round_pool_margin_and_points() -> None:
    state = known_position()
    text = draw(view.render(state, ["you", "greedy"]))
    assert "Round 1 of 3, opened by player 0 (you) · player 0 (you) to move" in text
    assert "On the tower:  L4 P0  U5 P1" in text
    margin = state.margin()
    assert f"Tilt margin: {margin:.1f}° — {view.margin_word(margin)}" in text
    assert "Pool: 10 pieces, 36 cubes — size 2: I2 · size 3: I3 V3 · size 4: I4 O4 T4 Z4 P4 A4 B4" in text
    assert "round 1 ◀" in text
    row = next(line for line in text.splitlines() if "greedy" in line)
    assert row.split()[-2:] == ["5", "5"]


def test_margin_words() -> None:
    assert view.margin_word(26.6) == "steady"
    assert view.margin_word(view.STEADY) == "steady"
    assert view.margin_word(5.0) == "wobbly"
    assert view.margin_word(0.4) == "on a knife edge"


@pytest.mark.parametrize(
    ("players", "options"), [(1, {}), (2, {}), (3, {}), (2, {"random_size": True}), (3, {"rounds": 1})]
)
def test_the_view_renders_before_and_after_a_fall(players: int, options: dict[str, object]) -> None:
    state = new_state(seed=players, players=players, **options)
    before = draw(view.render(state))
    assert "level 0" in before and "from the south" in before and "from the west" in before
    assert "nothing on the base yet" in before
    if state.game.random_size:
        assert f"Size drawn: {state.required_size}" in before
        assert f"▶ size {state.required_size}:" in before
    until_a_fall(state, seed=players)
    fall = state.falls[-1]
    after = draw(view.render(state), width=200)
    assert "as it fell" in after
    assert fall.explanation in after
    assert f"✗ Round {fall.round + 1}: the tower fell when player {fall.player} played {fall.move}" in after
    assert "Tilt margin: none — the tower above fell" in after
    assert view.MOVED in after  # the bodies that moved are marked
    if not state.over:
        assert f"Round {state.round + 1} of" in after


def test_a_fall_is_announced_when_it_happens() -> None:
    state = new_state(seed=4, players=2, rounds=2)
    seats = [Seat(0, kumiki.load_agent("random", seed=1)), Seat(1, kumiki.load_agent("random", seed=2))]
    game, out = session(state, seats, [])
    assert game.run() == 0
    text = out.getvalue()
    assert state is game.state and state.over
    assert state.falls  # random play in Kozo topples the tower
    for fall in state.falls:
        assert f"✗ Round {fall.round + 1}: the tower fell when player {fall.player}" in text
        assert fall.explanation in " ".join(text.split())
    assert "Round 2 begins, opened by player 1." in text
    assert "Player 0 (random) plays" in text and "(round 1/2)" in text


def test_the_fallen_tower_holds_the_falling_piece() -> None:
    state = until_a_fall(new_state(seed=7))
    fall = state.falls[-1]
    pic = view.fallen_picture(state, fall)
    assert pic.pieces[-1][0] == fall.move.split()[0]
    assert len(pic.balances) == len(pic.pieces) - (1 if fall.step == 1 else 0)
    assert pic.moved == set(fall.moving)


# ------------------------------------------------------------------------------------------------ commands


def test_moves_are_counted_and_grouped_by_piece() -> None:
    state = new_state()
    text = draw(view.command(state, "moves"))
    legal = state.legal_moves()
    assert f"{len(legal)} legal moves for player 0, by piece (12 pieces)" in text
    l4 = [m for m in legal if m.piece == "L4"]
    row = next(line for line in text.splitlines() if line.startswith("L4 "))
    assert row.split()[:4] == ["L4", "4", str(len({m.cells for m in l4})), str(len(l4))]
    placements = draw(view.command(state, "l4"))
    assert placements.startswith(f"L4: {len({m.cells for m in l4})} placements, {len(l4)} moves.")
    assert "'L4 all' lists them all" in placements
    assert view.command(state, "moves L4") is not None
    assert view.command(state, FIRST) is None  # a move is not a command


def test_moves_keep_every_count_at_60_columns() -> None:
    """At 60 columns the example move took all the room and the counts became "…" (moves, and the headings); the
    example folds now."""
    state = new_state()
    text = draw(view.command(state, "moves"), width=60)
    assert "…" not in text
    assert "piece   size   placements   moves" in text
    l4 = [m for m in state.legal_moves() if m.piece == "L4"]
    row = next(line for line in text.splitlines() if line.startswith("L4 "))
    assert row.split()[:4] == ["L4", "4", str(len({m.cells for m in l4})), str(len(l4))]
    assert all(len(line) <= 60 for line in text.splitlines())


def test_random_size_restricts_moves_and_placements() -> None:
    state = new_state(seed=3, random_size=True)
    size = state.required_size
    g = state.game
    assert size is not None
    other = next(name for name in g.names if g.size[name] != size)
    assert f"the size drawn is {size}" in draw(view.command(state, other))
    assert {m.piece for m in state.legal_moves()} == {n for n in g.names if g.size[n] == size}
    assert f"size {size} drawn" in (view.turn_note(state) or "")


def test_hints_keep_the_tower_standing_and_give_the_margin() -> None:
    state = known_position()
    found, tried = view.hints(state)
    assert 0 < len(found) <= view.HINTS and tried <= view.HINT_TRIES + view.HINT_PIECES
    assert found[0].plan is not None  # hint 1 starts the planner's line; the others by margin
    margins = [h.margin for h in found[1:]]
    assert all(m is not None for m in margins)
    assert margins == sorted(margins, reverse=True) or max(margins) - min(margins) < 0.2  # ties within 0.1°
    to_a_tenth = [round(m, 1) for m in margins]
    assert to_a_tenth == sorted(to_a_tenth, reverse=True)  # best first, whatever the spread
    for hint in found:
        after = state.copy()
        after.play(hint.move)
        assert not after.falls and after.round == state.round
        assert after.margin() == pytest.approx(hint.margin)
    text = draw(view.command(state, "hint 3"), width=160)
    assert "Moves that keep the tower standing, best tilt margin first" in text
    assert str(found[0].move) in text
    assert "Write hint or hint N" in draw(view.command(state, "hint 99"))


def test_how_to_play_mentions_the_notation_and_commands() -> None:
    text = view.how_to_play(kumiki.load_game("kozo", random_size=True))
    assert "chimney" in text and "L4 0,0,0 1,0,0 2,0,0 2,1,0 + 0,0,1" in text
    assert "Random size" in text and "hint" in text and "quit" in text


# ------------------------------------------------------------------------------------------------ kumiki play kozo


def test_a_piped_game(cli, tmp_path: Path) -> None:
    save = tmp_path / "kozo.kmk"
    script = "\n".join(
        [
            "L4 0,0,0 1,0,0 2,0,0 0,1,0 + 1,1,1",  # the balance cube over the chimney
            "L4 0,0,0",  # not a move
            "moves",
            "hint",
            FIRST,
            "quit",
        ]
    )
    code, out, err = cli("play", "kozo", "--seat", "1=random:seed=5", "--seed", "2", "--save", save, stdin=script)
    assert code == 0, err
    assert "Traceback" not in out + err
    assert "How to play Kozo" in out
    assert "Illegal move: L4 0,0,0 0,1,0 1,0,0 2,0,0 + 1,1,1: a balance cube goes on top of a column's" in out
    assert "'L4 0,0,0': write the piece, its cells, '+' and the balance cube's cell" in out
    assert "572 legal moves for player 0, by piece (12 pieces)" in out
    assert "Moves that keep the tower standing" in out
    assert f"Player 0 (you) plays {FIRST} (round 1/3)" in out
    assert "Player 1 (random) plays" in out
    assert "Game stopped after 2 moves." in out
    _, state = kumiki.read_record(save.read_text(encoding="utf-8"))
    assert str(state.history[0]) == FIRST and len(state.history) == 2


def test_end_of_input_and_all_random_seats_with_random_size(cli, tmp_path: Path) -> None:
    save = tmp_path / "random.kmk"
    args = ["play", "kozo", "--players", "3", "--option", "random_size=true", "--option", "rounds=2"]
    for seat in range(3):
        args += ["--seat", f"{seat}=random:seed={seat}"]
    code, out, err = cli(*args, "--save", save)
    assert code == 0, err
    assert "Scores: player 0" in out and "game over" in out
    text = save.read_text(encoding="utf-8")
    assert "[Seed " in text  # chosen for the game of chance, so the record replays
    code, replayed, err = cli("replay", save, "--json")
    assert code == 0, err
    assert json.loads(replayed)["over"] is True


def test_a_full_random_game_replays_to_the_same_state(cli, tmp_path: Path) -> None:
    save = tmp_path / "full.kmk"
    state = new_state(seed=11, players=2)
    seats = [Seat(0, kumiki.load_agent("random", seed=3)), Seat(1, kumiki.load_agent("random", seed=4))]
    game, _ = session(state, seats, [], save=save)
    assert game.run() == 0
    assert game.state.over
    code, out, err = cli("replay", save, "--json")
    assert code == 0, err
    result = json.loads(out)
    assert result["moves"] == [str(m) for m in game.state.history]
    assert result["state"] == json.loads(json.dumps(game.state.to_json()))
    code, shown, err = cli("replay", save)
    assert code == 0, err
    assert "game over" in shown and "level 0" in shown


def test_how_to_play_says_who_opens_a_round_and_what_a_size_that_fits_nowhere_does() -> None:
    three = view.how_to_play(kumiki.load_game("kozo", players=3))
    assert "round 1 by player 0, round 2 by player 1, and so on" in three
    assert "player 0 opens every round" in view.how_to_play(kumiki.load_game("kozo", players=1))
    assert "player 0 opens every round" in view.how_to_play(kumiki.load_game("kozo", opener="first"))
    assert "the turns go on from round to round" in view.how_to_play(kumiki.load_game("kozo", opener="continue"))
    assert "if none fits, the round ends" in view.how_to_play(kumiki.load_game("kozo", random_size=True))
    redraw = view.how_to_play(kumiki.load_game("kozo", random_size=True, no_fit="redraw"))
    assert "if none fits, you draw again among the sizes that fit" in redraw


def test_the_result_line_says_how_the_game_ended() -> None:
    falls = 0
    for seed in range(6):
        state = play_out(new_state(seed=seed, rounds=1), seed=seed)
        line = describe_result(state, ["you", "random"])
        fall = next((f for f in state.falls if f.round == 0), None)
        how = f"when player {fall.player} made the tower fall" if fall else "with every polycube placed"
        if fall is None and state.pool:
            how = "with no polycube left that fits"
        # The line said only who won; the web app's game-over line says how the last round ended.
        assert f"The game ended after 1 round (it ended {how}); the highest total wins." in line
        falls += fall is not None
    assert falls  # a fall was seen


def test_the_result_line_names_the_size_drawn_when_none_of_it_fits() -> None:
    """The random-size variant (tile draw, seed 1845, tests/test_e2e_kozo_ends.py's game): the round ends with I3
    still in the pool, which fits, but a 4 drawn and neither A4 nor B4 fitting. "No polycube left that fits" was
    wrong there; the line says what the web app says."""
    state = kozo_1845_ended()
    assert state.over and "I3" in state.to_json()["pool"]
    line = describe_result(state, ["ann", "bob"])
    assert "(it ended when the tile drawn was 4 and no polycube of that size fitted)" in line


def test_a_solo_game_ends_with_its_score_not_a_win() -> None:
    state = play_out(kumiki.load_game("kozo", players=1, rounds=1).new_state(seed=1), seed=1)
    game, out = session(state, [Seat(0)], [])
    assert game.run() == 0
    text = out.getvalue()
    assert text.startswith("Kumiki · kozo · 1 player\n")  # not "1 players"
    score = state.scores()[0]
    # A score attack has no one to beat: "Player 0 (you) wins. You win!" said nothing about how well it went.
    assert f"Game over: you scored {score:g}. The game ended after 1 round (it ended " in text
    assert "wins" not in text.splitlines()[-1] and "You win" not in text


# ------------------------------------------------------------------------------------------------ a short terminal


@pytest.mark.parametrize("moves", [6, 10, 14])
def test_the_board_fits_a_24_line_terminal(moves: int) -> None:
    from tests.helpers import short_terminal

    state = play_out(new_state(), seed=1, moves=moves)
    session, out = short_terminal(state)
    session.show_board()
    shown = out.getvalue().splitlines()
    # Room is left for the prompt and the moves just played (before: 36 to 43 lines at 80 columns).
    assert len(shown) <= 24 - 3
    text = "\n".join(shown)
    assert "level 0" in text and "Tilt margin:" in text and "Points: " in text
    more = "More: 'sides' (side views), 'legend' (the signs), 'board all' (everything)."
    if state.over:  # the game-over screen has no prompt left to type a command at: it offers none
        assert more not in text and "says why" not in text
    else:
        assert more in text
    assert "from the south" not in text  # behind 'sides'
    session, out = short_terminal(state)
    session.show_board(full=True)  # 'board all'
    assert "from the south" in out.getvalue()


def test_a_compact_level_is_four_rows_with_the_chimney() -> None:
    pic = view.picture(known_position())
    assert lines_of(view.slice_text(pic, 0, compact=True)) == lines_of(view.slice_text(pic, 0))[:4]


def test_sides_legend_and_falls_are_commands() -> None:
    state = known_position()
    assert "from the south" in draw(view.command(state, "sides"))
    assert "a balance cube" in draw(view.command(state, "legend"))
    assert "has not fallen" in draw(view.command(state, "falls"))
    assert "the tower fell when" in draw(view.command(until_a_fall(new_state()), "falls"))
    assert "sides (the side views)" in view.how_to_play(state.game)


def test_moves_with_a_word_that_is_no_piece_says_so() -> None:
    answer = " ".join(draw(view.command(known_position(), "moves please")).split())
    assert answer.startswith("'please' is not a piece: write moves, moves all or moves PIECE (")


def test_the_help_and_the_board_agree_on_who_opens_round_1() -> None:
    """The screen counts rounds from 1 ("Round 1 of 3, opened by player 0"): the help must not say "round r is
    opened by player r mod 2", which a reader applies to round 1 and gets player 1."""
    game = kumiki.load_game("kozo", players=2)
    state = game.new_state(seed=1)
    text = view.how_to_play(game)
    assert "r mod" not in text
    assert state.openers[0] == 0
    assert "round 1 by player 0" in text


HINTED_SOLO = [  # the first hint of each turn, solo, from the empty base (the hints of this release)
    "U5 0,1,0 0,2,0 1,2,0 2,1,0 2,2,0 + 2,2,1",
    "O4 0,2,1 0,2,2 1,2,1 1,2,2 + 0,1,1",
    "I3 0,0,0 1,0,0 2,0,0 + 2,1,1",
    "I2 1,0,1 1,0,2 + 0,0,1",
    "T4 0,2,3 1,2,3 1,2,4 2,2,3 + 2,0,1",
    "V3 0,2,4 0,2,5 1,2,5 + 1,2,6",
    "L4 0,0,3 1,0,3 2,0,2 2,0,3 + 0,0,4",
    "I4 2,2,4 2,2,5 2,2,6 2,2,7 + 2,0,4",
    "A4 0,1,6 0,2,6 0,2,7 1,2,7 + 1,0,4",
    "P4 0,1,8 0,2,8 0,2,9 1,2,8 + 0,2,10",
    "Z4 1,2,9 1,2,10 2,2,8 2,2,9 + 1,2,11",
]


def test_a_hint_with_every_move_falling_says_so_rather_than_try_a_smaller_piece() -> None:
    """Solo, following the first hint at every turn leaves B4 last, and none of its 12 moves stands: the hint said
    "Try a smaller piece", though there was none, and every move had been tried."""
    state = new_state(players=1)
    for move in HINTED_SOLO:
        state.play(move)
    assert [m.piece for m in state.legal_moves()] == ["B4"] * 12
    found, tried = view.hints(state)
    assert not found and tried == 12
    text = " ".join(draw(view.command(state, "hint")).split())
    assert f"None of the {tried} legal moves" in text and "it falls whatever you play" in text
    assert "smaller piece" not in text


def follow_hint(state: kumiki.State) -> None:
    """Play hint 1 at every turn until the game is over."""
    while not state.over:
        found, _ = view.hints(state, 1)
        state.play(found[0].move if found else state.legal_moves()[0])


def test_following_hint_1_solo_places_the_whole_pool_every_round() -> None:
    """Solo, following hint 1 (then the safest margin) left B4 last with no standing move, every round: the game
    scored 0 where the greedy agent scores points. Hint 1 now starts the planner's line for the rest of the round."""
    game = kumiki.load_game("kozo", players=1, rounds=1)
    state = game.new_state(seed=1)
    follow_hint(state)
    assert not state.falls
    assert state.scores() == [sum(game.size.values())]  # every cube of the pool
    for seed in (0, 7):
        greedy = game.new_state(seed=1)
        agent = kumiki.load_agent("greedy", seed=seed)
        while not greedy.over:
            greedy.play(agent.choose(greedy))
        assert state.scores()[0] >= greedy.scores()[0]


def test_hint_1_says_the_line_it_starts() -> None:
    state = new_state(players=1)
    found, _ = view.hints(state)
    assert found[0].plan is not None and found[0].plan.whole and found[0].plan.moves[0] == found[0].move
    assert len({hint.move for hint in found}) == len(found)  # the plan's move is not offered twice
    text = " ".join(draw(view.command(state, "hint"), width=160).split())
    assert "Hint 1 starts a line that places all 12 pieces left (45 cubes) standing, if you follow it:" in text
    assert f"1. {found[0].move}" in text and "2. " in text


@pytest.mark.parametrize("players", [1, 2])
def test_the_browser_s_hint_says_the_words_of_the_terminal_s_hint_1(players: int) -> None:
    """The terminal and the browser's Hint each wrote the plan's words: the browser's said "places all 12 pieces
    left", the terminal's "if you follow it" besides; one wording now (``kumiki.games.kozo.ai.plan_words``)."""
    from kumiki.server.hints import hint_for

    state = new_state(players=players)
    found, _ = view.hints(state, 1)
    line = next(line for line in draw(view.command(state, "hint"), width=200).splitlines() if "Hint 1" in line)
    move, text = hint_for("kozo", {"players": players}, 1, [], [None] * players, 0)
    assert move == str(found[0].move)
    assert text == f"{move}: " + line.strip().removeprefix("Hint 1 ").removesuffix(":")


def test_the_plan_never_sees_a_size_drawn_later() -> None:
    """Random size: hint 1's plan is the same whatever the game's generator will draw next (the draws to come are
    face down), and asking for it draws nothing from the game's generator."""
    import random

    from kumiki.games.kozo.ai import plan_round

    state = new_state(seed=5, players=1, random_size=True)
    other = state.copy()
    other.rng = random.Random(12345)  # other draws to come, the same size drawn now
    before = state.rng.getstate()
    assert plan_round(state).moves == plan_round(other).moves
    assert state.rng.getstate() == before


def test_the_points_table_shows_every_total_at_60_columns() -> None:
    """In round 3 at 60 columns the totals were "…" (the one column that could give way); the headings fold now."""
    state = play_out(kumiki.load_game("kozo", players=2).new_state(), seed=4)
    assert state.over and len(state.points) == 3
    text = draw(view.points_table(state, ["you", "kozo"]), width=60)  # type: ignore[arg-type]
    assert "…" not in text and "total" in text
    rows = [line.split() for line in text.splitlines() if line.startswith((" 0 ", " 1 "))]
    assert [row[row.index("★") - 1 if "★" in row else -1] for row in rows] == [f"{s:g}" for s in state.scores()]
    assert all(len(line) <= 60 for line in text.splitlines())


def test_the_compact_board_s_commands_fit_60_columns() -> None:
    """At 60 columns the compact board's last line wrapped inside a command ("'board" / "all'"): a shorter one
    there."""
    from tests.helpers import short_terminal

    state = play_out(new_state(seed=3), seed=3, moves=8)
    session, out = short_terminal(state, width=60, humans=1)
    session.show_board()
    shown = out.getvalue().splitlines()
    assert len(shown) <= 24 - 3
    assert shown[-1].startswith("More: 'sides'") and "'legend'" in shown[-1] and "'board all'" in shown[-1]
    assert all(len(line) <= 60 for line in shown)


def test_the_later_turn_note_says_when_no_tied_player_moved_in_the_last_round() -> None:
    """docs/rules/kozo.md, decision m: tied players who all sat the last round out leave the lowest-numbered winning.
    The note said the one who moved later in the last round wins, when none of them moved in it."""
    state = kumiki.load_game("kozo", players=3, rounds=3, tiebreak="later_turn").new_state()
    falls = "Z4 2,0,0 2,0,1 2,1,1 2,1,2 + 2,1,3"  # standing on one cube, its centre over the cube's edge: it falls
    # Round 1: P0 3, P1 3, P2 falls. Round 2: P1 falls at once. Round 3: P2 falls at once.
    for move in ("I3 0,2,0 1,2,0 2,2,0 + 2,2,1", "V3 0,0,0 0,1,0 1,0,0 + 0,0,1", falls, falls, falls):
        state.play(move)
    assert state.over and state.scores() == [3.0, 3.0, 0.0] and state.winners() == [0]
    note = view.result_note(state)
    assert note is not None
    assert note.endswith(
        "Players 0, 1 tied on 3 points; none of them moved in the last round, so the lowest-numbered, player 0, wins."
    )
    # Tied players who moved in the last round: the later mover wins, as the note says.
    later = kumiki.load_game("kozo", players=3, rounds=1, tiebreak="later_turn").new_state()
    for move in ("I3 0,2,0 1,2,0 2,2,0 + 2,2,1", "V3 0,0,0 0,1,0 1,0,0 + 0,0,1", falls):
        later.play(move)
    assert later.scores() == [3.0, 3.0, 0.0] and later.winners() == [1]
    assert str(view.result_note(later)).endswith(
        "Players 0, 1 tied on 3 points; the one who moved later in the last round wins."
    )


def test_a_resigned_game_has_no_tie_break_note() -> None:
    """A resignation decides the game, whatever the points: a tie on points there breaks nothing."""
    state = kumiki.load_game("kozo", tiebreak="later_turn").new_state()
    for move in ("V3 0,0,0 0,1,0 1,0,0 + 0,0,1", "I3 2,0,0 2,1,0 2,2,0 + 2,2,1"):
        state.play(move)
    state.resign(0)
    assert state.scores() == [3.0, 3.0] and state.winners() == [1]
    assert view.result_note(state) is None
    assert describe_result(state) == "Player 1 wins."
