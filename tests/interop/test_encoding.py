"""The fixed action encodings (``kumiki.interop.encode``/``decode``, ``game.encoding``) and observation tensors.

No optional library is needed here: the encodings live beside each game's rules."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import kumiki
from kumiki.core.encoding import Encoding
from kumiki.core.game import State
from kumiki.interop import decode, encode

OPTION_SETS: list[tuple[str, dict[str, Any]]] = [
    ("kuzushi", {}),
    ("kuzushi", {"players": 3}),
    ("kuzushi", {"players": 4, "teams": 2, "size": 5}),
    ("blokus3d", {}),
    ("blokus3d", {"players": 4, "structure": "C"}),
    ("blokus3d", {"colours_per_player": 2, "structure": "D"}),
    ("kozo", {}),
    ("kozo", {"players": 3, "random_size": True, "rounds": 2}),
    ("kozo", {"players": 1, "rounds": 1}),
    ("towerbrix", {"max_edits": 12}),
    ("towerbrix", {"players": 3, "deck": "pink", "max_edits": 10, "rounds": 1}),
    ("towerbrix", {"players": 3, "mode": "challenge", "challenge": 10, "max_edits": 8}),
]


def playout(name: str, options: dict[str, Any], seed: int) -> list[State]:
    """Every position of one game played with random legal actions."""
    game = kumiki.load_game(name, **options)
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    seen = []
    while not state.over:
        seen.append(state.copy())
        actions = game.encoding.legal_actions(state)
        state.play(decode(game, rng.choice(actions), state))
    seen.append(state)
    return seen


@pytest.mark.parametrize(("name", "options"), OPTION_SETS)
def test_legal_actions_are_the_legal_moves_and_decode_inverts_encode(name: str, options: dict[str, Any]) -> None:
    game = kumiki.load_game(name, **options)
    encoding = game.encoding
    lengths = []
    for seed in (1, 2):
        positions = playout(name, options, seed)
        lengths.append(len(positions) - 1)
        for state in positions:
            moves = state.legal_moves()
            actions = encoding.legal_actions(state)
            assert actions == sorted(set(actions))  # ascending, no action twice
            assert all(0 <= a < game.num_actions for a in actions)
            listed = sorted(encode(game, m) for m in moves)  # every listed move has an action (the window holds)
            assert actions == listed
            assert {decode(game, a, state) for a in actions} == set(moves)
            for move in moves[:40]:
                assert decode(game, encode(game, move), state) == move
                assert encode(game, str(move)) == encode(game, move)  # notation text encodes the same
        assert state.over and encoding.legal_actions(state) == []
    assert max(lengths) <= encoding.max_length()


# Pinned: an action means the same move in every version (docs/interop.md gives the formulas).
PINNED: list[tuple[str, dict[str, Any], str, int]] = [
    ("kuzushi", {}, "B 1,0", 71),
    ("kuzushi", {}, "F 1,1", 193),
    ("kuzushi", {}, "B -5,-5", 0),
    ("kuzushi", {}, "F 5,5", 241),
    ("kuzushi", {"players": 3}, "F -6,6", 181),
    ("blokus3d", {}, "I2 4,4,0 5,4,0", 101),
    ("blokus3d", {}, "T4 3,4,0 4,4,0 4,5,0 5,4,0", 949),
    ("blokus3d", {}, "I2 3,3,0 3,3,1", 0),
    ("kozo", {}, "I2 0,0,0 1,0,0 + 0,0,1", 96),
    ("kozo", {}, "L4 0,0,0 1,0,0 2,0,0 0,1,0 + 2,0,1", 1093),
    ("kozo", {}, "U5 0,0,3 0,1,3 0,2,3 1,0,3 1,2,3 + 1,2,4", 1924),
    ("towerbrix", {}, "ok", 0),
    ("towerbrix", {}, "time", 1),
    ("towerbrix", {}, "-Y1", 2),
    ("towerbrix", {}, "-B2", 9),
    ("towerbrix", {}, "Y1 z 0,0", 10572),
    ("towerbrix", {}, "R2 x 0.5,1", 65564),
    ("towerbrix", {}, "B2 y -16,16", 93024),
    ("towerbrix", {"deck": "pink"}, "G z 0,0", 141229),
]


@pytest.mark.parametrize(("name", "options", "text", "action"), PINNED)
def test_pinned_encodings(name: str, options: dict[str, Any], text: str, action: int) -> None:
    game = kumiki.load_game(name, **options)
    assert encode(game, text) == action
    if not game.encoding.needs_state:
        assert str(decode(game, action)) == text


@pytest.mark.parametrize(
    ("name", "options", "count"),
    [
        ("kuzushi", {}, 242),
        ("kuzushi", {"players": 3}, 338),
        ("blokus3d", {}, 2844),
        ("kozo", {}, 1952),
        ("towerbrix", {}, 101410),
        ("towerbrix", {"deck": "pink"}, 143894),
    ],
)
def test_num_actions_per_option_set(name: str, options: dict[str, Any], count: int) -> None:
    assert kumiki.load_game(name, **options).num_actions == count


@pytest.mark.parametrize("name", kumiki.games())
def test_bad_actions_are_one_line_value_errors(name: str) -> None:
    game = kumiki.load_game(name)
    state = game.new_state(seed=1)
    for bad in (-1, game.num_actions, 2.5, "3", True):
        with pytest.raises(ValueError, match="action"):
            decode(game, bad, state)  # type: ignore[arg-type]


def test_a_game_given_by_name_is_a_value_error_that_says_load_game() -> None:
    """The adapters take a game's name; encode and decode given one were an AttributeError ('str' ... 'encoding')."""
    with pytest.raises(ValueError, match=r"\(kumiki\.load_game\('kuzushi', \.\.\.\)\), not a str"):
        decode("kuzushi", 0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="take a Game with its options"):
        encode("kuzushi", "B 1,0")  # type: ignore[arg-type]


@pytest.mark.parametrize("name", kumiki.games())
def test_decode_in_a_state_of_another_game_is_a_one_line_value_error(name: str) -> None:
    """Kozo's decode reads the position: a state of another game (or a text) failed deep inside with AttributeError
    ("'KuzushiState' object has no attribute 'resting_level'"); the other games took it without a word."""
    game = kumiki.load_game(name)
    other = kumiki.load_game("kuzushi" if name != "kuzushi" else "kozo").new_state(seed=1)
    for bad, what in ((other, f"a {other.game.name} state"), ("B 1,0", "a str")):
        with pytest.raises(ValueError, match=f"in a {name} state \\(or None\\), not in {what}$"):
            decode(game, 0, bad)  # type: ignore[arg-type]
    mine = kumiki.load_game(name, players=3).new_state(seed=1)  # the same game with other options: read in it
    assert decode(game, 0, mine) is not None


def test_kozo_actions_are_drops_read_in_the_position() -> None:
    game = kumiki.load_game("kozo")
    assert game.encoding.needs_state
    state = game.new_state()
    assert str(decode(game, 96, state)) == "I2 0,0,0 1,0,0 + 0,0,1"
    assert decode(game, 96) == decode(game, 96, state)  # without a state: on the empty ring
    assert all(encode(game, decode(game, a)) == a for a in range(game.num_actions))
    state.play("I2 0,0,0 1,0,0 + 0,0,1")
    landed = [m for m in state.legal_moves() if min(z for _, _, z in m.cells) > 0]  # drops that rest on the I2
    assert landed
    for move in landed[:20]:
        action = encode(game, move)
        assert decode(game, action, state) == move  # the position gives the levels ...
        assert decode(game, action) != move  # ... which the empty ring does not


@pytest.mark.parametrize(
    ("brick", "moves"),
    [
        ("1x3x1", ["Y1 y 0,0", "P1 y 3,0", "R1 y 6,0", "B1 y 9,0"]),  # wider than long: a row 12 wide, R was 8
        ("2.2x1x1", []),  # R was 8 × 2.2 = 17.6, off the 0.5 grid: no placement had an action, not even the first
        ("1.3x2x1", ["Y1 x 0,0", "P1 x 0,2", "R1 x 0,4", "B1 x 0,6"]),
    ],
)
def test_every_listed_towerbrix_placement_has_an_action_whatever_the_brick(brick: str, moves: list[str]) -> None:
    game = kumiki.load_game("towerbrix", brick=brick, rounds=1)
    state = game.new_state(seed=0)
    for move in moves:
        state.play(move)
    listed = state.legal_moves()
    assert len(listed) > 1 + len(moves)
    actions = game.encoding.legal_actions(state)
    assert actions == sorted(encode(game, move) for move in listed)  # no listed move without an action
    assert [decode(game, action, state) for action in actions] == sorted(listed, key=lambda m: encode(game, m))
    assert game.encoding.reach % game.grid == 0


def test_moves_without_an_action_say_why() -> None:
    towerbrix = kumiki.load_game("towerbrix")
    with pytest.raises(ValueError, match="beyond 16"):
        encode(towerbrix, "Y1 z 17,0")
    with pytest.raises(ValueError, match="G is not used with this deck"):
        encode(towerbrix, "G z 0,0")  # the gray brick has no action with the green deck
    kuzushi = kumiki.load_game("kuzushi")
    with pytest.raises(ValueError, match="outside"):
        encode(kuzushi, "B 6,0")
    blokus = kumiki.load_game("blokus3d")
    with pytest.raises(ValueError, match="does not fit"):
        encode(blokus, "I2 0,0,0 1,0,0")  # outside structure A's mask


@pytest.mark.parametrize(("name", "options"), OPTION_SETS)
def test_observations_have_their_shape_dtype_and_bounds_and_the_mask_is_the_legal_actions(
    name: str, options: dict[str, Any]
) -> None:
    game = kumiki.load_game(name, **options)
    encoding = game.encoding
    for state in playout(name, options, 3)[::3]:
        for player in range(game.players):
            observation, mask = encoding.observe_and_mask(state, player)
            plain, plain_mask = Encoding.observe_and_mask(encoding, state, player)  # the generic way
            assert observation.shape == encoding.observation_shape
            assert observation.dtype == encoding.observation_dtype
            assert observation.min() >= encoding.observation_low and observation.max() <= 1
            np.testing.assert_array_equal(observation, plain)
            np.testing.assert_array_equal(encoding.observe(state, player), observation)
            assert mask.dtype == np.int8 and mask.shape == (game.num_actions,)
            np.testing.assert_array_equal(mask, plain_mask)
            expected = encoding.legal_actions(state) if state.to_move == player else []
            assert np.flatnonzero(mask).tolist() == expected


def test_observations_number_seats_from_the_observer() -> None:
    game = kumiki.load_game("kuzushi", players=3)
    state = game.new_state()
    state.play("B 1,0")  # player 1's base
    planes = game.encoding.observe(state, 1)
    assert planes[0].sum() == 1  # the observer's own bases come first
    n = game.size  # 7 with three players: x = 1 is row n - 1 + 1, y = 0 is column n - 1
    assert planes[0][n, n - 1] == 1
    assert planes[2 * 3].sum() == 1 and planes[2 * 3][n - 1, n - 1] == 1  # the CITY plane


def test_towerbrix_observations_never_show_another_seats_cards() -> None:
    game = kumiki.load_game("towerbrix", players=3)
    encoding = game.encoding
    state = game.new_state(seed=4)
    lo, _ = encoding.layout["hand"]
    for player in range(3):
        seen = encoding.observe(state, player)
        own = {card for card, i in encoding.cards.items() if seen[lo + i]}
        assert own == set(state.hands[player])
        # swap the other seats' cards for different ones of the same points (the backs everyone sees): the
        # observer's tensor does not change
        other = state.copy()
        points = {card.id: card.points for card in game.deck}
        spare = [c for c in encoding.cards if c not in state.dealt()]
        for seat in range(3):
            if seat != player:
                swapped = [next(c for c in spare if points[c] == points[card]) for card in other.hands[seat]]
                spare = [c for c in spare if c not in swapped]
                other.hands[seat] = swapped
        assert all(set(other.hands[q]).isdisjoint(state.hands[q]) for q in range(3) if q != player)
        np.testing.assert_array_equal(encoding.observe(other, player), seen)
    three = state.copy()  # a hand of other values: the backs show it
    three.hands[1] = [next(c.id for c in game.deck if c.points == 3 and c.id not in state.dealt())] * 2
    two = state.copy()
    two.hands[1] = [next(c.id for c in game.deck if c.points == 2 and c.id not in state.dealt())] * 2
    assert not np.array_equal(encoding.observe(three, 0), encoding.observe(two, 0))


def test_the_blind_seat_sees_no_bricks() -> None:
    game = kumiki.load_game("towerbrix", players=3, mode="challenge", challenge=10)
    state = game.new_state(seed=1)
    state.play("Y1 z 0,0")
    lo, hi = game.encoding.layout["bricks"]
    assert game.blind == 2
    assert game.encoding.observe(state, 0)[lo:hi].any()
    assert not game.encoding.observe(state, 2)[lo:hi].any()


def kuzushi_planes_the_plain_way(state: Any, player: int) -> np.ndarray[Any, np.dtype[np.int8]]:
    """Kuzushi's observation (docs/interop.md) built cell by cell from the public API: the reference the fast
    bitboard unpack is checked against."""
    game = state.game
    n, players = game.size, game.players
    m = 2 * n - 1
    seats = [(player + k) % players for k in range(players)]
    planes = np.zeros((4 * players + 2, m, m), dtype=np.int8)
    cells = [(x, y) for x in range(-n + 1, n) for y in range(-n + 1, n)]
    playable = set(state.playable_cells()) if not state.over else set()
    for x, y in cells:
        at = (x + n - 1, y + n - 1)
        tile = state.cell(x, y)
        if tile is not None and tile[0] != "city":
            k = seats.index(tile[1])
            planes[(k if tile[0] == "base" else players + k, *at)] = 1
        planes[(2 * players, *at)] = tile is not None and tile[0] == "city"
        planes[(2 * players + 1, *at)] = (x, y) in playable
    supply = max(1, game.tiles_per_player)
    left = state.tiles_left()
    for k, q in enumerate(seats):
        for x, y in cells[: min(m * m, round(m * m * left[q] / supply))]:
            planes[2 * players + 2 + k, x + n - 1, y + n - 1] = 1
        planes[3 * players + 2 + k] = state.to_move == q
    return planes


@pytest.mark.parametrize("options", [{}, {"players": 3}, {"players": 4, "teams": 2, "size": 5}])
def test_kuzushi_observations_are_the_documented_planes(options: dict[str, Any]) -> None:
    game = kumiki.load_game("kuzushi", **options)
    for state in playout("kuzushi", options, 5):
        for player in range(game.players):
            expected = kuzushi_planes_the_plain_way(state, player)
            np.testing.assert_array_equal(game.encoding.observe(state, player), expected)
            observation, mask = game.encoding.observe_and_mask(state, player)
            np.testing.assert_array_equal(observation, expected)
            legal = [encode(game, move) for move in state.legal_moves()] if state.to_move == player else []
            assert np.flatnonzero(mask).tolist() == sorted(legal)


@pytest.mark.parametrize(("name", "options"), OPTION_SETS)
def test_play_unchecked_of_a_legal_move_is_play(name: str, options: dict[str, Any]) -> None:
    """The adapters' step plays the moves their masks allow with ``play_unchecked``: it must land in the very
    position ``play`` reaches (the same board, scores, mover and legal moves), move after move."""
    checked = kumiki.load_game(name, **options).new_state(seed=11)
    unchecked = checked.copy()
    rng = random.Random(11)
    while not checked.over:
        move = rng.choice(checked.legal_moves())
        checked.play(move)
        unchecked.play_unchecked(move)
        assert unchecked.render() == checked.render()
        assert (unchecked.to_move, unchecked.over) == (checked.to_move, checked.over)
        assert unchecked.history == checked.history
        assert unchecked.scores() == checked.scores()
        assert unchecked.legal_moves() == checked.legal_moves()


def test_kozo_legal_actions_read_a_state_of_another_game_instance() -> None:
    """Kozo lists its legal actions by the game's own placement objects: a state of another Kozo (equal options, or
    another pool) still gets exactly the actions of its moves that this encoding has."""
    encoding = kumiki.load_game("kozo").encoding
    for options in ({}, {"pieces": '{"I2": [[0,0,0],[1,0,0]], "L3": [[0,0,0],[1,0,0],[0,1,0]]}'}):
        other = kumiki.load_game("kozo", **options)
        state = other.new_state(seed=3)
        rng = random.Random(3)
        for _ in range(3):
            expected = []
            for move in state.legal_moves():
                try:
                    expected.append(encoding.encode(move))
                except ValueError:
                    continue
            assert encoding.legal_actions(state) == sorted(expected)
            state.play(rng.choice(state.legal_moves()))


def kozo_tower_the_plain_way(state: Any, player: int, height: int) -> np.ndarray:
    """The tower part of Kozo's observation cube by cube: each seat's polycube cubes (seats from the observer),
    then the balance cubes, below the top level the tensor has."""
    players = state.game.players
    tower = np.zeros((players + 1, height, 3, 3), dtype=np.float32)
    for _, seat, cells in state.placed:
        for x, y, z in cells:
            if z < height:
                tower[(seat - player) % players, z, x, y] = 1.0
    for x, y, z in state.balances:
        if z < height:
            tower[players, z, x, y] = 1.0
    return tower


@pytest.mark.parametrize("options", [{}, {"players": 3, "random_size": True, "rounds": 2}])
def test_kozo_observations_show_the_tower_cube_by_cube(options: dict[str, Any]) -> None:
    game = kumiki.load_game("kozo", **options)
    encoding = game.encoding
    lo, hi = encoding.layout["tower"]
    for state in playout("kozo", options, 4):
        for player in range(game.players):
            expected = kozo_tower_the_plain_way(state, player, encoding.height)
            np.testing.assert_array_equal(encoding.observe(state, player)[lo:hi], expected.reshape(-1))


def test_towerbrix_legal_actions_read_a_state_of_another_deck() -> None:
    """The pink deck uses a brick the green one does not (G): the green encoding leaves its placements out, as
    the base class leaves out moves ``encode`` refuses."""
    green = kumiki.load_game("towerbrix", players=2)
    state = kumiki.load_game("towerbrix", players=2, deck="pink").new_state(seed=1)
    rng = random.Random(1)
    for _ in range(4):
        assert green.encoding.legal_actions(state) == Encoding.legal_actions(green.encoding, state)
        state.play(rng.choice(state.legal_moves()))


def test_towerbrix_observations_stay_in_bounds_with_hands_of_many_cards() -> None:
    game = kumiki.load_game("towerbrix", players=1, mode="solo", total=60)
    state = game.new_state(seed=0)
    assert len(state.hands[0]) > 10  # the old scale (a tenth a card) went above 1 here
    tensor = game.encoding.observe(state, 0)
    assert tensor.max() <= 1.0 and tensor.min() >= game.encoding.observation_low


def test_towerbrix_waive_votes_have_actions_in_the_games_that_vote() -> None:
    game = kumiki.load_game("towerbrix", mode="challenge", challenge=13, waive="vote")
    state = game.new_state(seed=0)
    votes = [m for m in state.legal_moves() if m.kind == "waive"]  # type: ignore[attr-defined]
    assert votes
    actions = game.encoding.legal_actions(state)
    assert actions == sorted(encode(game, m) for m in state.legal_moves())
    for move in votes:
        assert decode(game, encode(game, move), state) == move
    # the numbering of every other game is unchanged, and there a vote has no action
    plain = kumiki.load_game("towerbrix")
    assert plain.num_actions == 101410
    with pytest.raises(ValueError, match="only challenges 9 and 13"):
        encode(plain, "waive 0.1")
    with pytest.raises(ValueError, match="no seat 5"):
        encode(game, "waive 5.1")


def test_towerbrix_observations_show_the_waive_votes_and_the_votes_left() -> None:
    """The votes are in every seat's view (``votes``), and a seat's vote actions depend on them and on how many times
    it voted this attempt: the tensor shows both, so that two positions with other votes, or other votes left, are
    not one observation with two masks (the tensor had no votes at all)."""
    game = kumiki.load_game("towerbrix", mode="challenge", challenge=9, waive="vote")
    encoding = game.encoding

    def played(*moves: str) -> Any:
        state = game.new_state(seed=3)
        for move in moves:
            state.play(move)
        return state

    none = played()
    once = played("waive 0.1", "waive 0.1")  # each seat votes for seat 0's first card: one vote each
    thrice = played("waive 0.1", "waive 0.1", "waive 0.2", "waive 0.2", "waive 0.1", "waive 0.1")  # no vote left
    assert once.view(0)["votes"] == thrice.view(0)["votes"] != none.view(0)["votes"]
    assert once.to_move == thrice.to_move
    _, mask_once = encoding.observe_and_mask(once, once.to_move)
    _, mask_thrice = encoding.observe_and_mask(thrice, thrice.to_move)
    assert (mask_once != mask_thrice).any()  # the seat to move has votes left in one of them only
    for player in range(game.players):
        seen = {
            name: encoding.observe(state, player).tobytes()
            for name, state in [("none", none), ("once", once), ("thrice", thrice)]
        }
        assert len(set(seen.values())) == 3
        for state in (none, once, thrice):
            tensor = encoding.observe(state, player)
            assert tensor.shape == encoding.observation_shape
            assert tensor.min() >= encoding.observation_low and tensor.max() <= 1.0
    # the votes are public: the public part shows them, the same for every seat
    assert (encoding.observe_public(once) != encoding.observe_public(none)).any()
    assert "votes" in encoding.public_layout
    # a game without votes has no vote fields (two seats: 190 and each hand's 3-point cards, the backs everyone sees)
    assert kumiki.load_game("towerbrix").encoding.observation_shape == (192,)
    assert "votes" not in kumiki.load_game("towerbrix", mode="challenge", challenge=9).encoding.layout


def test_a_copied_kozo_game_lists_the_same_actions() -> None:
    import copy

    game = kumiki.load_game("kozo")
    state = game.new_state()
    for copied in (copy.deepcopy(state), __import__("pickle").loads(__import__("pickle").dumps(state))):
        assert copied.game.encoding.legal_actions(copied) == game.encoding.legal_actions(state) != []


@pytest.mark.parametrize(("players", "max_edits"), [(2, 3), (3, 3), (4, 5)])
def test_a_towerbrix_game_of_waive_votes_is_never_longer_than_max_length(players: int, max_edits: int) -> None:
    """OpenSpiel's ``max_game_length`` is ``encoding.max_length()``. A vote leaves the thumbs up, so after each vote the
    other seats may say ok again; and an edit lowers every thumb, so each seat may hold out in a build of its own,
    voting its three votes while the others say ok. That makes every seat's votes (not three) come with oks: 34 moves
    with 3 players and 3 edits, where max_length said 21."""
    game = kumiki.load_game(
        "towerbrix",
        players=players,
        mode="challenge",
        challenge=9,
        waive="vote",
        max_edits=max_edits,
        rounds=1,
        attempts=1,
    )
    encoding = game.encoding
    state = game.new_state(seed=0)
    holdout = players - 1  # the one seat that does not say ok: it votes, then ends the part with an edit
    while not state.over:
        if state.to_move != holdout:
            state.play("ok")
            continue
        moves = state.legal_moves()
        votes = [m for m in moves if m.kind == "waive"]  # type: ignore[attr-defined]
        if not votes:  # an edit: the thumbs go down, and the next part's holdout has its votes left
            holdout = (holdout - 1) % players
        state.play(votes[0] if votes else next(m for m in moves if m.kind == "place"))  # type: ignore[attr-defined]
    assert len(state.history) > (max_edits + 1 + 3) * players  # longer than the bound that counted 3 votes
    assert len(state.history) <= encoding.max_length()
