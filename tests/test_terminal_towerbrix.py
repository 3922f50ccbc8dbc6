"""``kumiki play towerbrix``: the layered view, the cards with ✓/✗, the score, hot-seat secrecy, evaluations."""

from __future__ import annotations

import io
import re
import sys

import pytest
from rich.console import Console, RenderableType

import kumiki
from kumiki.cli import main
from kumiki.games.towerbrix.hint import HINT_TOWERS
from kumiki.terminal import towerbrix as view
from kumiki.terminal import view_for
from kumiki.terminal.play import HUMAN


@pytest.fixture(autouse=True)
def _plain_output(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "KUMIKI_DEBUG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("COLUMNS", "120")


def draw(renderable: RenderableType) -> str:
    out = io.StringIO()
    Console(file=out, width=120, color_system=None, highlight=False).print(renderable)
    return out.getvalue()


def test_towerbrix_has_its_own_view():
    assert view_for("towerbrix") is view.VIEW


def test_layers_top_first_with_one_mark_per_brick():
    state = kumiki.load_game("towerbrix").new_state(seed=1)
    for edit in ("Y1 z 0,0", "Y2 z 1,0", "P1 x 0,0"):
        state.play(edit)
    text = draw(view.render(state, ["you", "greedy"]))
    assert text.index("z=2") < text.index("z=0")
    assert "PPPP" in text and "YYYYyyyy" in text
    assert "Score 0" in text and "Round 1/3" in text


def test_one_human_sees_their_cards_with_marks():
    state = kumiki.load_game("towerbrix").new_state(seed=1)
    text = draw(view.render(state, ["you", "greedy"]))
    for card in state.hands[0]:
        assert card in text
    for card in state.hands[1]:
        assert card not in text
    assert "✗" in text  # no bricks yet: a card about bricks does not hold


def test_hot_seat_shows_no_card_until_asked():
    state = kumiki.load_game("towerbrix").new_state(seed=1)
    text = draw(view.render(state, [HUMAN, HUMAN]))
    assert all(card not in text for card in state.dealt())
    shown = draw(view.command(state, "cards"))
    assert all(card in shown for card in state.hands[0]) and all(card not in shown for card in state.hands[1])
    assert draw(view.command(state, "hide")).count("\n") >= view.HIDE_LINES


def test_the_evaluation_reveals_every_card():
    state = kumiki.load_game("towerbrix").new_state(seed=1)
    assert view.after_move(state) is None
    state.play("ok")
    assert view.after_move(state) is None
    state.play("ok")
    text = draw(view.after_move(state))
    assert "attempt failed" in text
    for card in state.evaluations[-1]["cards"]:
        assert card["id"] in text


def test_the_blind_player_sees_no_tower():
    state = kumiki.load_game("towerbrix", mode="challenge", challenge=10, players=2).new_state(seed=1)
    state.play("Y1 z 0,0")
    assert state.to_move == 1
    assert "cannot see the tower" in draw(view.render(state, ["greedy", "you"]))


def test_play_solo_in_the_terminal(capsys, monkeypatch):
    stdin = "Y1 z 0,0\nY1 q\n-Y2\nok\nquit\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode()), encoding="utf-8"))
    with pytest.raises(SystemExit) as exit_info:
        main(["play", "towerbrix", "--players", "1", "-o", "mode=solo"])
    out = capsys.readouterr().out
    assert exit_info.value.code in (0, None)
    assert "plays Y1 z 0,0" in out
    assert "not a move" in out and "Illegal move: -Y2: Y2 is not in the tower" in out
    assert "Evaluation of round 1, attempt 1" in out


def test_layers_are_slabs_between_brick_heights():
    from kumiki.games.towerbrix.bricks import place
    from kumiki.games.towerbrix.text import layers

    bricks: dict = {}
    for brick, axis, x, y in (("Y1", "z", 0, 0), ("Y2", "z", 1, 0), ("P1", "y", 0.5, -0.5)):
        bricks[brick] = place(bricks, brick, axis, x, y)
    shown = layers(list(bricks.values()), 0.5)
    assert [z for z, _ in shown] == [2, 0]  # one layer per slab, not per half unit
    top, bottom = shown[0][1], shown[1][1]
    assert top == ["·PP·", "·PP·", "·PP·", "·PP·"]
    assert bottom == ["····", "YYyy", "YYyy", "····"]


def test_layers_of_bricks_far_apart_elide_the_empty_table_between_them():
    """Corners lie within 1,000 of the origin: two bricks at opposite corners were a map of 4,000 × 4,000 cells, and
    ``kumiki replay`` of that two-move record drew for minutes. A run of empty columns (rows) is now one mark."""
    from kumiki.games.towerbrix.text import GAP, layers

    state = kumiki.load_game("towerbrix").new_state(seed=1)
    state.play("Y1 x -1000,0")
    state.play("Y2 x 998,0")
    shown = layers(state.bricks_in_order(), 0.5)
    assert shown == [(0.0, ["YYYY" + GAP + "yyyy", "YYYY" + GAP + "yyyy"])]
    state.play("P1 x 998,998")
    (_, rows), *_ = layers(state.bricks_in_order(), 0.5)
    assert len(rows) == 5 and rows[2] == GAP * 9 and max(len(row) for row in rows) == 9


def test_the_final_board_shows_the_last_tower_and_no_build_going_on():
    state = kumiki.load_game("towerbrix", players=1, mode="solo", rounds=1, attempts=1).new_state(seed=1)
    for edit in ("Y1 z 0,0", "P1 x 0,0", "ok"):
        state.play(edit)
    assert state.over
    text = draw(view.render(state, ["you"]))
    # The table is cleared after the evaluation; the board did say "no bricks yet: place one" and showed a build
    # (round, attempt, cards held, thumbs, edits) that no longer goes on.
    assert "place one" not in text
    assert "edits" not in text and "Cards (backs)" not in text and "attempt" not in text
    assert "The last tower built:" in text and "PPPP" in text and "YYYY" in text
    assert "Game over after 1 round\n" in text
    assert "Score 0 (rounds: 0)" in text


def test_the_game_over_screen_on_a_short_terminal_shows_every_layer_and_no_command():
    """The last screen came after the last prompt, yet at 60 columns it left the lower layers out ("… 2 lower
    layers: 'tower' shows every layer") and ended "More: 'tower' …, 'board all' …": commands nobody could type."""
    state = kumiki.load_game("towerbrix", players=1, mode="solo", rounds=1, attempts=1).new_state(seed=1)
    for edit in ("Y1 x 0,0", "Y2 x 6,0", "P1 x 0,0", "P2 x 0,0", "R1 x 0,0", "R2 x 0,0", "ok"):
        state.play(edit)
    assert state.over
    from tests.helpers import draw as draw_at

    text = draw_at(view.render_compact(state, ["you"]), width=60)
    assert all(f"z={z}" in text for z in range(5))
    assert "YYYY········yyyy" in text
    assert "'tower'" not in text and "More:" not in text
    assert all(len(line) <= 60 for line in text.splitlines())


def test_how_to_play_says_what_the_axis_and_moves_mean():
    text = view.how_to_play(kumiki.load_game("towerbrix"))
    assert "lists listed" not in text and "x along 'x'/'y'" not in text  # the words did not parse
    assert "'Y1 x 0,0' or 'Y1 y 0,0' lays it flat along x or y" in text
    assert "moves (the placements offered" in text


def test_how_to_play_tells_the_waive_vote_only_where_the_team_votes():
    """Challenge 9 with waive="vote" offers 'waive 2.1' among the legal moves; the help never named it."""
    voting = kumiki.load_game("towerbrix", players=3, mode="challenge", challenge=9, waive="vote")
    assert "'waive 2.1' votes to waive seat 2's first card" in view.how_to_play(voting)
    assert any(str(m).startswith("waive ") for m in voting.new_state(seed=1).legal_moves())
    for game in (kumiki.load_game("towerbrix"), kumiki.load_game("towerbrix", mode="challenge", challenge=9)):
        assert "waive" not in view.how_to_play(game)


def test_the_result_line_gives_the_team_score_and_a_challenge_met_or_not():
    from kumiki.terminal.play import describe_result

    state = kumiki.load_game("towerbrix", rounds=1, attempts=1).new_state(seed=1)
    state.play("ok")
    state.play("ok")  # an empty tower: the round is lost, the team scores 0
    assert state.over
    line = describe_result(state, ["you", "towerbrix-teammate"])
    # It said "Shared win: Player 0 (you), Player 1 (towerbrix-teammate). You share the win." for 0 points.
    assert line.startswith("Game over: the team scored 0. ")
    assert "win" not in line.lower()
    challenge = kumiki.load_game("towerbrix", players=1, mode="challenge", challenge=3, attempts=1).new_state(seed=1)
    challenge.play("ok")
    assert challenge.over
    # It said "Player 0 (you) wins. You win!" for a challenge failed.
    assert describe_result(challenge, ["you"]) == "Game over: you scored 0. Challenge 3 (Trade secret) not met."


def test_moves_are_grouped_by_brick_and_spot() -> None:
    from tests.helpers import play_out

    state = play_out(kumiki.load_game("towerbrix").new_state(seed=1), seed=1, moves=4)
    legal = state.legal_moves()
    out = io.StringIO()
    Console(file=out, width=80, color_system=None, highlight=False).print(view.command(state, "moves"))
    text = out.getvalue()
    # Before: every move in columns, about 85 lines at 80 columns.
    assert len(text.splitlines()) <= 20
    assert text.startswith(f"{len(legal)} legal moves (type 'moves all' for every one):")
    _, free, spots = state.legal_parts()
    assert f"place {' '.join(free)} (or the other brick of a colour) at any of {len(spots)} spots" in text
    assert "y=0: x=" in " ".join(text.split())
    everything = draw(view.command(state, "moves all"))
    assert all(str(move) in everything for move in legal)


def test_runs_of_corners() -> None:
    assert view.runs([1, -1, -0.5, 0, 0.5, 2, 3], 0.5) == "-1..1,2,3"
    assert view.runs([0], 0.5) == "0"


@pytest.mark.parametrize("moves", [6, 15])
def test_the_board_fits_a_24_line_terminal(moves: int) -> None:
    from tests.helpers import play_out, short_terminal

    state = play_out(kumiki.load_game("towerbrix").new_state(seed=1), seed=1, moves=moves)
    if state.to_move != 0:
        play_out(state, seed=9, moves=1)
    session, out = short_terminal(state, humans=1)  # player 0, to move, the one human: their cards are shown
    session.show_board()
    shown = out.getvalue().splitlines()
    assert len(shown) <= 24 - 3  # before: 57 to 64 lines
    text = "\n".join(shown)
    assert "Cards of player" in text and "z=0" in text
    assert "More: 'tower' (the layers full size), 'board all' (everything)." in text
    assert "z=0" in draw(view.command(state, "tower"))


@pytest.mark.parametrize(("seed", "moves"), [(0, 12), (0, 24), (7, 12), (7, 24), (7, 36), (8, 18), (10, 33)])
def test_six_players_board_fits_a_24_line_terminal_at_60_columns(seed: int, moves: int) -> None:
    """Six players at 60 columns took 22 to 27 rows in 31 of 169 positions (seeds 0-12, every third move): the
    prompt left the screen. The cards' texts give way to one line first ('cards' shows them), then the line of
    commands; the tower stays."""
    from tests.helpers import play_out, short_terminal

    state = play_out(kumiki.load_game("towerbrix", players=6).new_state(seed=seed), seed=seed, moves=moves)
    session, out = short_terminal(state, width=60, humans=1)
    session.show_board()
    shown = out.getvalue().splitlines()
    assert len(shown) <= 24 - 3
    assert all(len(line) <= 60 for line in shown)
    text = "\n".join(shown)
    assert "z=" in text and "Cards (backs): " in text
    player = state.to_move
    assert player is not None
    for card in state.hands[player]:
        assert f"{card} ({state.game.cards[card].points})" in text
    assert state.game.cards[state.hands[player][0]].text.split()[0] in text or "; texts: 'cards'" in text


def test_the_table_line_shows_the_backs_of_everyones_cards_within_80_columns() -> None:
    """Everyone sees the points on the back of every card (the rulebook): the table line lists each player's, and
    fits an 80-column terminal with six players at the hard level."""
    state = kumiki.load_game("towerbrix", players=6, difficulty="hard").new_state(seed=1)
    line = next(line for line in view.status_text(state).plain.splitlines() if line.startswith("Cards (backs): "))
    backs = ["+".join(str(state.game.cards[c].points) for c in hand) for hand in state.hands]
    assert line.startswith("Cards (backs): " + ", ".join(f"#{i} {b}" for i, b in enumerate(backs)) + " · ok: -")
    assert len(line) <= 80


def test_players_are_never_named_like_the_purple_bricks() -> None:
    """ "P1" named player 1 on the table line and in the evaluation, and the purple brick P1 in the moves and the
    cards: the players are "#1" and "player 1" now; the bricks keep the contract's names."""
    state = kumiki.load_game("towerbrix", players=3).new_state(seed=1)
    state.play("P1 z 0,0")
    state.play("ok")
    line = next(line for line in view.status_text(state).plain.splitlines() if line.startswith("Cards (backs): "))
    assert " · ok: #1 · " in line and "#0 " in line and "#2 " in line
    assert not any(f"P{i} " in line for i in range(3))
    while not state.evaluations:
        state.play("ok")
    text = draw(view.evaluation_text(state.evaluations[-1], state))
    assert re.search(r"[✓✗~] G\d+ \(\d\) of player \d: ", text)
    assert not re.search(r"\bP\d G\d", text)


def test_the_last_evaluation_is_shown_again_on_asking() -> None:
    """The board drawn under an evaluation pushed its top (the attempt failed, and why) off a 24-line terminal:
    'evaluation' shows the last one again, and the evaluation's last line says so."""
    state = kumiki.load_game("towerbrix", players=2).new_state(seed=1)
    assert "No evaluation yet" in draw(view.command(state, "evaluation"))
    state.play("Y1 z 0,0")
    while not state.evaluations:
        state.play("ok")
    after = view.after_move(state)
    assert after is not None
    shown = draw(after)
    assert "'evaluation' shows this again" in shown.rstrip().splitlines()[-1]
    assert draw(view.command(state, "evaluation")) == shown
    assert draw(view.command(state, "eval")) == shown
    assert "evaluation (the last evaluation again)" in view.how_to_play(state.game)


def hinted_move(state) -> str:
    """The move ``hint`` suggests, in notation."""
    text = " ".join(draw(view.command(state, "hint")).split())
    if text.startswith("Say ok"):
        return "ok"
    what, _, why = text.partition(" (")
    assert why.endswith(")") and " bricks of a tower meeting your cards " in why, text
    return "-" + what.removeprefix("take away ") if what.startswith("take away ") else what.removeprefix("place ")


def test_following_the_hint_meets_the_cards_of_a_solo_round():
    """TowerBrix had no hint: a solo player's only help was ``kumiki solve towerbrix --cards ...``."""
    HINT_TOWERS.clear()
    state = kumiki.load_game("towerbrix", players=1, mode="solo", rounds=1, attempts=1).new_state(seed=1)
    cards = list(state.view(0)["cards"])  # in the order of the hand
    first = " ".join(draw(view.command(state, "hint")).split())
    assert first.startswith("place ") and f"1 of 8 bricks of a tower meeting your cards {', '.join(cards)})" in first
    for _ in range(3 * 8):
        move = hinted_move(state)
        state.play(move)
        if move == "ok":
            break
    assert state.over and state.public_view()["round_success"] == [True]


def test_the_terminal_and_the_browser_give_the_same_table_the_same_hint():
    """The terminal's hint remembered the tower it built towards and the browser's (a server keeps nothing between
    hints) solved again from the table: the same table got different hints, in the terminal too once it forgot."""
    from kumiki.server.hints import hint_for

    options = {"players": 1, "mode": "solo", "rounds": 1, "attempts": 1}
    state = kumiki.load_game("towerbrix", **options).new_state(seed=2)
    HINT_TOWERS.clear()
    moves: list[str] = []
    for _ in range(4):  # four bricks of the hinted tower
        moves.append(hinted_move(state))
        state.play(moves[-1])
    remembered = " ".join(draw(view.command(state, "hint")).split())
    HINT_TOWERS.clear()
    forgotten = " ".join(draw(view.command(state, "hint")).split())
    move, browser = hint_for("towerbrix", options, 2, moves, [None], 0)
    assert remembered == forgotten == browser
    assert browser.startswith(f"place {move} (5 of 8 bricks of a tower meeting your cards ")


def test_the_hint_reads_only_the_seat_s_own_cards():
    """In a team game the hint for a seat is the same whatever cards the other seats hold (face down)."""
    game = kumiki.load_game("towerbrix", players=3)
    answers = []
    for others in (0, 1):
        HINT_TOWERS.clear()
        state = game.new_state(seed=3)
        state.play("Y1 z 0,0")  # seat 0; seat 1 to move
        own = set(state.hands[1])
        spare = [card for card in game.cards if card not in own and card not in state.dealt()]
        if others:  # deal other cards to seats 0 and 2
            state.hands[0] = spare[: len(state.hands[0])]
            state.hands[2] = spare[len(state.hands[0]) : len(state.hands[0]) + len(state.hands[2])]
        assert set(state.hands[1]) == own
        answers.append(draw(view.command(state, "hint")))
    assert answers[0] == answers[1] and "your cards" in answers[0]


def test_help_mentions_the_hint():
    assert "hint (the next edit towards a tower meeting your own cards" in view.how_to_play(
        kumiki.load_game("towerbrix")
    )


def test_hint_at_the_prompt_of_a_solo_game(capsys, monkeypatch):
    HINT_TOWERS.clear()
    stdin = "hint\nquit\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode()), encoding="utf-8"))
    with pytest.raises(SystemExit) as exit_info:
        main(["play", "towerbrix", "--players", "1", "-o", "mode=solo", "--seed", "2"])
    out = " ".join(capsys.readouterr().out.split())
    assert exit_info.value.code in (0, None)
    assert "place " in out and "1 of 8 bricks of a tower meeting your cards" in out
    assert "not a move" not in out


@pytest.mark.parametrize("challenge", [11, 14])
def test_the_hint_says_ok_on_a_map_only_where_the_tower_stands_on_the_map(challenge):
    """Challenges 11 and 14 ask the tower to stand on the map where it is: the hint said ok to a tower that meets the
    cards and would meet the map shifted elsewhere, and the challenge then failed."""
    from kumiki.games.towerbrix.modes import MAP_TOWERS
    from kumiki.games.towerbrix.moves import lowered
    from kumiki.games.towerbrix.solver import _Checker

    game = kumiki.load_game("towerbrix", players=1, mode="challenge", challenge=challenge, attempts=1, rounds=1)
    tower = list(lowered(MAP_TOWERS[challenge][0]).values())
    held = [c.id for c in game.deck if _Checker([c], "green", None, False).solved(tower)]
    results = []
    for dx in (12, 0):  # off the map, then on it
        HINT_TOWERS.clear()
        state = game.new_state(seed=1)
        state.hands[0] = held[: len(state.hands[0])]
        for edit in MAP_TOWERS[challenge][0]:
            brick, axis, corner = edit.split()
            x, y = corner.split(",")
            state.play(f"{brick} {axis} {float(x) + dx:g},{y}")
        results.append(" ".join(draw(view.command(state, "hint")).split()))
    assert not results[0].startswith("Say ok"), results[0]
    assert results[1].startswith("Say ok"), results[1]


@pytest.mark.parametrize("challenge", [11, 14])
def test_a_hint_on_a_map_names_no_edit_towards_a_tower_off_the_map(challenge):
    """With no tower found for the hand on the map, the hint built towards the solver's closest tower, which stands
    off the map ("place B2 z 5,-1" on the river): followed every turn it wandered, 0 of 10 deals met. It now says
    so, and names the longer search."""
    from kumiki.games.towerbrix.hint import build_hint
    from kumiki.server.hints import hint_for

    options = {"players": 1, "mode": "challenge", "challenge": challenge, "rounds": 1, "attempts": 1}
    state = kumiki.load_game("towerbrix", **options).new_state(seed=0)  # seven cards no hint's search meets here
    found = build_hint(state)
    assert found.move is None and not found.met, found
    move, text = hint_for("towerbrix", options, 0, [], [None], 0)
    where = "river" if challenge == 11 else "swamp"
    assert move is None and text.startswith(f"no hint: no tower found yet on the {where} meeting your cards "), text
    assert f"kumiki solve towerbrix --challenge {challenge} --cards {','.join(found.cards)}" in text
    assert " ".join(draw(view.command(state, "hint")).split()) == "N" + text[1:] + "."


@pytest.mark.parametrize(("challenge", "seed"), [(11, 2), (14, 4)])
def test_a_hint_on_a_map_after_a_brick_placed_elsewhere_leads_back_to_a_tower_on_the_map(challenge, seed):
    """The hint finds a tower on the map from the empty table; once one brick stood anywhere else (the first hinted
    brick placed one unit over, on the same bank), the search from the table found no bridge and the hint said "no
    tower found yet on the map meeting your cards": no hint for the rest of the build. It now leads back to the tower
    found from the empty table, and followed to the end it meets the challenge."""
    options = {"players": 1, "mode": "challenge", "challenge": challenge, "rounds": 1, "attempts": 1}
    state = kumiki.load_game("towerbrix", **options).new_state(seed=seed)
    HINT_TOWERS.clear()
    brick, axis, corner = hinted_move(state).split()
    x, y = corner.split(",")
    state.play(f"{brick} {axis} {x},{float(y) + 1:g}")  # still on land, beside the hinted place
    HINT_TOWERS.clear()  # as a server's worker that never saw the game
    for _ in range(3 * 8):
        move = hinted_move(state)  # an edit towards a tower meeting the cards (asserted), or ok
        state.play(move)
        if move == "ok":
            break
    assert state.over and state.public_view()["round_success"] == [True]


def test_how_to_play_says_which_bricks_the_deck_uses():
    """The help said "build one tower with all the bricks": the green deck leaves the gray brick out, and the pink
    deck needs only one brick of each colour (the evaluation finds no brick problem in a five-brick tower)."""
    green, pink = (view.how_to_play(kumiki.load_game("towerbrix", deck=deck)) for deck in ("green", "pink"))
    for text in (green, pink):
        assert "all the bricks" not in text
        assert "must all touch, face to face, and the tower must stand on its own" in text
        assert "Never show your cards" in text
    assert "all eight coloured bricks (the gray one is not used)" in green
    assert "at least one brick of each of the five colours, gray included" in pink

    five = ["Y1 x 0,0", "P1 x 0,1", "R1 x 0,2", "B1 x 0,3", "G x 0,4", "ok"]
    state = kumiki.load_game("towerbrix", deck="pink", players=1, mode="solo").new_state(seed=1)
    for move in five:
        state.play(move)
    assert state.to_json()["evaluations"][-1]["problems"] == []  # five bricks are a tower for the pink deck
    state = kumiki.load_game("towerbrix", players=1, mode="solo").new_state(seed=1)
    with pytest.raises(kumiki.IllegalMove, match="the gray brick is not used with the green deck"):
        state.play("G z 0,0")
    for move in [*five[:4], "ok"]:
        state.play(move)
    assert any("all eight coloured bricks" in p for p in state.to_json()["evaluations"][-1]["problems"])
