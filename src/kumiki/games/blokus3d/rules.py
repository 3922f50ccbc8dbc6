"""Blokus 3D (Rumis): polycubes on a structure, 2–4 players (rules as in docs/rules/blokus3d.md).

The no-gap rule means every column is a solid stack, so the table is a height map plus the colour of each cube.
Column ``(x, y)`` is bit ``x * 16 + y`` of a column bitboard; ``_level[k]`` holds the columns of height k. A piece
orientation at translation ``(tx, ty, tz)`` is legal when each of its footprint columns has height
``tz + bottom`` and room for its cubes, so for one orientation and one ``tz`` the legal translations of every
position at once are an AND of a few shifted bitboards; face contacts are a few more.
"""

from __future__ import annotations

import random
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from kumiki.core.errors import IllegalMove, whole_number
from kumiki.core.game import Game, GameFacts, State, checked_seed, forfeit_winners
from kumiki.games.blokus3d.moves import Blokus3DMove, parse_blokus3d_move, sort_rank
from kumiki.games.blokus3d.options import BLOKUS3D_OPTIONS
from kumiki.games.blokus3d.pieces import (
    ORIENTATION_OF_SHAPE,
    ORIENTATIONS,
    ORIENTATIONS_OF,
    PIECE_INDEX,
    PIECE_NAMES,
    PIECES,
    STRIDE,
    Orientation,
)
from kumiki.games.blokus3d.structures import SIZE, find
from kumiki.geometry.polycube import normalize

if TYPE_CHECKING:
    from kumiki.games.blokus3d.encoding import Blokus3DEncoding

COLOUR_NAMES = ("blue", "yellow", "red", "green")
ALL_PIECES = (1 << len(PIECE_NAMES)) - 1
BY_SIZE = tuple(sum(1 << i for i, name in enumerate(PIECE_NAMES) if len(PIECES[name]) == size) for size in (4, 3, 2))
KEY_LEVELS = 32  # move keys are (orientation * KEY_LEVELS + tz) * 256 + column, the same in every game
_RANK = attrgetter("rank")


class Blokus3D(Game):
    """Blokus 3D with its options fixed; holds the tables every state shares."""

    name = "blokus3d"
    facts = GameFacts(min_players=2, max_players=4, max_length=44)
    option_spec = BLOKUS3D_OPTIONS

    def __init__(self, /, **options: Any) -> None:
        super().__init__(**options)
        self.structure = find(self.options["structure"])
        self.colours = self.players * int(self.options["colours_per_player"])
        self.limits = self.structure.limits[self.colours]
        self.max_limit = max(max(col) for col in self.limits)
        top = self.max_limit + 8
        # at_least[j]: columns whose limit is at least j (room for levels 0 … j-1).
        self.at_least = [
            sum(1 << (x * STRIDE + y) for x in range(SIZE) for y in range(SIZE) if self.limits[x][y] >= j)
            for j in range(top + 8)
        ]
        self.board = self.at_least[1]
        # A placement's minimum corner can be any turntable cell, even one outside the mask that no cube covers
        # (a V3 bent round a corner of the mask).
        self.corners = sum(1 << (x * STRIDE + y) for x in range(SIZE) for y in range(SIZE))
        self.limit_at = [0] * (SIZE * STRIDE)
        for x in range(SIZE):
            for y in range(SIZE):
                self.limit_at[x * STRIDE + y] = self.limits[x][y]
        self.level_slots = top
        # The orientations that fit the empty structure somewhere; the others can never be placed.
        self.usable: list[tuple[Orientation, ...]] = []
        for piece in range(len(PIECE_NAMES)):
            fitting = []
            for o in ORIENTATIONS_OF[piece]:
                room = self.corners
                for off, bottom, count in o.columns:
                    room &= self.at_least[bottom + count] >> off
                if room:
                    fitting.append(o)
            self.usable.append(tuple(fitting))
        self._moves: dict[int, Blokus3DMove] = {}

    def measure_limits(self) -> dict[str, tuple[float, float]]:
        """Pieces left: 0 to every piece of the seat's colours (a score, squares seen minus pieces left, may be
        negative: no limit given); the length: a move places a piece, so at most every piece of every colour."""
        most = float(int(self.options["colours_per_player"]) * len(PIECE_NAMES))
        out = {f"pieces_left_seat_{p}": (0.0, most) for p in range(self.players)}
        out["length"] = (0.0, float(len(PIECE_NAMES) * self.colours))
        return out

    def new_state(self, seed: int | None = None) -> Blokus3DState:
        return Blokus3DState(self, checked_seed(seed))

    def parse_move(self, text: str) -> Blokus3DMove:
        return parse_blokus3d_move(text)

    def make_encoding(self) -> Blokus3DEncoding:
        from kumiki.games.blokus3d.encoding import Blokus3DEncoding

        return Blokus3DEncoding(self)

    def player_of(self, colour: int) -> int:
        return colour % self.players

    def move_for(self, o: Orientation, tz: int, pos: int) -> Blokus3DMove:
        """The (cached) move placing orientation ``o`` with its minimum corner at column ``pos``, level ``tz``."""
        key = (o.id * KEY_LEVELS + tz) * 256 + pos
        move = self._moves.get(key)
        if move is None:
            tx, ty = divmod(pos, STRIDE)
            cells = tuple(sorted((x + tx, y + ty, z + tz) for x, y, z in o.shape))
            move = Blokus3DMove(PIECE_NAMES[o.piece], cells, key, sort_rank(o.piece, cells))
            self._moves[key] = move
        return move

    def known(self, move: Blokus3DMove) -> bool:
        """Whether ``move`` is this game's own move for its cells (from ``legal_moves()``, ``move_for`` or a decoded
        action), so its ``key`` may be trusted. A key set by hand, or copied from another move, could name another
        placement than the piece and cells that the history and the record write."""
        cached = self._moves.get(move.key) if type(move.key) is int else None
        if cached is move:  # identity first: the usual case, cheap
            return True
        return cached is not None and _is_plain(move.cells) and cached == move

    def placement(self, move: Blokus3DMove) -> tuple[Orientation, int, int]:
        """``(orientation, tz, pos)`` of a move (whose shape ``parse_move`` has already checked)."""
        if self.known(move):
            o_id, rest = divmod(move.key, KEY_LEVELS * 256)
            tz, pos = divmod(rest, 256)
            return ORIENTATIONS[o_id], tz, pos
        o = ORIENTATION_OF_SHAPE.get((PIECE_INDEX.get(move.piece, -1), normalize(move.cells)))
        if o is None:
            raise IllegalMove(f"{move}: these cells are not {move.piece} under any rotation")
        tx = min(c[0] for c in move.cells)
        ty = min(c[1] for c in move.cells)
        tz = min(c[2] for c in move.cells)
        if not (0 <= tx < SIZE and 0 <= ty < SIZE):
            return o, tz, -1  # off the board: no column (tx * STRIDE + ty would name a column of another row)
        return o, tz, tx * STRIDE + ty


def _is_plain(cells: object) -> bool:
    """Whether ``cells`` is a tuple of tuples of ints, which ``==`` compares without surprise (a numpy value in a
    move built in code answers ``==`` with an array, whose truth numpy refuses with a ValueError)."""
    return type(cells) is tuple and all(type(c) is tuple and all(type(v) is int for v in c) for c in cells)


def _checked(move: Blokus3DMove) -> Blokus3DMove:
    """A move built in code, its fields checked (IllegalMove if malformed) and its key dropped: its cells say what
    it places."""
    piece, cells = move.piece, move.cells
    if not isinstance(piece, str) or not isinstance(cells, tuple | list):
        raise IllegalMove(f"{move!r}: not a Blokus 3D move (a piece name and a tuple of cells)")
    if any(not isinstance(cell, tuple | list) or len(cell) != 3 for cell in cells):
        raise IllegalMove(f"{move!r}: each cell is three whole numbers x, y, z")
    whole = [tuple(whole_number(c, move) for c in cell) for cell in cells]
    return Blokus3DMove(piece, tuple((x, y, z) for x, y, z in whole))


class Blokus3DState(State):
    """A Blokus 3D position. ``_legal`` holds the legal moves of the colour to move, found when its turn comes."""

    __slots__ = (
        "_cubes",
        "_height",
        "_left",
        "_legal",
        "_level",
        "_out",
        "_own",
        "_placed",
        "_top",
        "colour_to_move",
        "game",
        "history",
        "over",
        "seed",
        "to_move",
    )

    game: Blokus3D

    def __init__(self, game: Blokus3D, seed: int | None = None) -> None:
        self.game = game
        self.seed = seed
        self.history = []
        n = game.colours
        slots = game.level_slots
        self._height = [0] * (SIZE * STRIDE)
        self._level = [0] * slots
        self._level[0] = game.board
        self._own = [[0] * slots for _ in range(n)]
        self._top = [0] * n
        self._left = [ALL_PIECES] * n
        self._placed = [0] * n
        self._out = [False] * n
        self._cubes: list[tuple[int, int, int, int, str]] = []
        self._legal: list[Blokus3DMove] = []
        self.colour_to_move: int | None = None
        self.to_move: int | None = None
        self.over = False
        self._next_colour(n - 1)

    # ----------------------------------------------------------------- protocol

    def copy(self) -> Blokus3DState:
        other = object.__new__(Blokus3DState)
        other.game = self.game
        other.seed = self.seed
        other.history = self.history.copy()
        other._height = self._height.copy()
        other._level = self._level.copy()
        other._own = [planes.copy() for planes in self._own]
        other._top = self._top.copy()
        other._left = self._left.copy()
        other._placed = self._placed.copy()
        other._out = self._out.copy()
        other._cubes = self._cubes.copy()
        other._legal = self._legal
        other.colour_to_move = self.colour_to_move
        other.to_move = self.to_move
        other.over = self.over
        other.resigned = self.resigned
        return other

    def resign(self, seat: int) -> None:
        """``State.resign``, leaving no colour to move and no move, as a game its rules end does (``to_json``'s
        ``colour_to_move``, the observation and the terminal's "to move" would name the resigning seat's colour)."""
        super().resign(seat)
        self.colour_to_move = None
        self._legal = []

    def legal_moves(self, player: int | None = None) -> list[Blokus3DMove]:
        if player is not None and not self.may_act(player):
            return []
        return list(self._legal)

    def play(self, move: Blokus3DMove | str, player: int | None = None) -> None:  # type: ignore[override]
        if type(move) is not Blokus3DMove:
            move = self._coerce(move)
        g = self.game
        if not g.known(move):
            move = _checked(move)
        colour = self.colour_to_move
        if colour is None:
            raise IllegalMove(f"{move}: the game is over")
        if player is not None:
            self.require_actor(player, move)
        o, tz, pos = g.placement(move)
        if not self._fits(o, tz, pos, colour):
            raise IllegalMove(f"{move}: {self._reason(move, o, colour)}")
        if move.key < 0:  # checked above: the canonical move, cells sorted as the notation lists them, plain ints
            move = g.move_for(o, tz, pos)
        self._place(o, tz, pos, colour)
        self.history.append(move)
        self._next_colour(colour)

    def scores(self) -> list[float]:
        """Each player's score: their colour's, or with two colours each the better of the two (Rumis: "the player
        with the most points in one colour wins the game")."""
        colours, players = self.colour_scores(), self.game.players
        if len(colours) == players:  # one colour each: the colour's score (playouts read this once each)
            return [float(score) for score in colours]
        return [float(max(colours[player::players])) for player in range(players)]

    def colour_scores(self) -> list[int]:
        """Each colour's visible squares minus its pieces not placed."""
        return [self._top[c].bit_count() - self._left[c].bit_count() for c in range(self.game.colours)]

    def winners(self) -> list[int]:
        if not self.over:
            return []
        if self.resigned is not None:
            return forfeit_winners(self, self.resigned)
        scores = self.scores()
        best = max(scores)
        return [p for p, s in enumerate(scores) if s == best]

    def measures(self) -> dict[str, float]:
        """Each seat's pieces not placed (``pieces_left_seat_N``, over the seat's colours)."""
        g = self.game
        left = [0.0] * g.players
        for colour in range(g.colours):
            left[g.player_of(colour)] += len(self.pieces_left(colour))
        return {f"pieces_left_seat_{p}": n for p, n in enumerate(left)}

    def to_json(self) -> dict[str, Any]:
        g = self.game
        cubes = [{"x": x, "y": y, "z": z, "colour": c, "piece": p} for x, y, z, c, p in sorted(self._cubes)]
        return {
            "structure": g.structure.name,
            "limits": [list(col) for col in g.limits],
            "cubes": cubes,
            "pieces_left": [self.pieces_left(c) for c in range(g.colours)],
            "out": [c for c in range(g.colours) if self._out[c]],
            "colour_to_move": self.colour_to_move,
        }

    # ----------------------------------------------------------------- queries for tools and UIs

    def pieces_left(self, colour: int) -> list[str]:
        left = self._left[colour]
        return [name for i, name in enumerate(PIECE_NAMES) if left >> i & 1]

    def height(self, x: int, y: int) -> int:
        """How many cubes column ``(x, y)`` holds (0 off the turntable)."""
        if not (0 <= x < SIZE and 0 <= y < SIZE):
            return 0  # unchecked, x * STRIDE + y would name another column
        return self._height[x * STRIDE + y]

    def top_colour(self, x: int, y: int) -> int | None:
        """The colour of the topmost cube of column ``(x, y)``, or None if it is empty or off the turntable."""
        if not (0 <= x < SIZE and 0 <= y < SIZE):
            return None
        bit = 1 << (x * STRIDE + y)
        for colour, top in enumerate(self._top):
            if top & bit:
                return colour
        return None

    def colour_at(self, x: int, y: int, z: int) -> int | None:
        """The colour of the cube at ``(x, y, z)``, or None."""
        if not (0 <= x < SIZE and 0 <= y < SIZE and 0 <= z < self.game.level_slots):
            return None
        bit = 1 << (x * STRIDE + y)
        for colour, planes in enumerate(self._own):
            if planes[z] & bit:
                return colour
        return None

    def is_out(self, colour: int) -> bool:
        return self._out[colour]

    def render(self) -> str:
        from kumiki.games.blokus3d.text import render_plain

        return render_plain(self)

    # ----------------------------------------------------------------- agent hooks

    def playout(self, rng: random.Random) -> None:
        """Play random moves to the end without recording them (agents' fast path).

        Each turn draws (piece orientation, level) pairs at random without replacement and plays a random placement
        of the first that has one, so it never lists every move; a colour is out only when nothing fits at all.
        """
        self._play_out(rng, (ALL_PIECES,))

    def heuristic_playout(self, rng: random.Random) -> None:
        """Like ``playout``, but each colour places its biggest pieces first (4 cubes, then 3, then 2): a piece left
        over costs a point whatever its size, and big pieces are the first to find no room."""
        self._play_out(rng, BY_SIZE)

    def move_values(self, moves: list[Blokus3DMove]) -> list[float]:
        """A quick one-ply value of each move for the colour to move (the MCTS prior).

        Per footprint column: 1 for a top square won, 1 more for a rival's top covered, ½ for a column filled to its
        limit (a top nobody can take back); plus ½ a cube beyond two, since big pieces are the hardest to place late.
        """
        g = self.game
        colour = self.colour_to_move
        if colour is None:
            return [0.0] * len(moves)
        own = 0
        rivals = 0
        for c, top in enumerate(self._top):
            if c % g.players == colour % g.players:
                own |= top
            else:
                rivals |= top
        limit = g.limit_at
        placement = g.placement
        values = []
        for move in moves:
            o, tz, pos = placement(move)
            value = 0.5 * (len(o.shape) - 2)
            for off, bottom, count in o.columns:
                p = pos + off
                bit = 1 << p
                if not own & bit:
                    value += 1.0
                if rivals & bit:
                    value += 1.0
                if tz + bottom + count == limit[p]:
                    value += 0.5
            values.append(value)
        return values

    def _play_out(self, rng: random.Random, groups: tuple[int, ...]) -> None:
        rand = rng.random
        n = self.game.colours
        colour = self.colour_to_move
        if colour is None:
            return
        out = self._out
        while True:
            placement = self._random_placement(colour, rand, groups)
            if placement is None:
                out[colour] = True
            else:
                self._place(*placement, colour)
            for step in range(1, n + 1):
                nxt = (colour + step) % n
                if not out[nxt]:
                    colour = nxt
                    break
            else:
                break
        self._legal = []
        self.colour_to_move = None
        self.to_move = None
        self.over = True

    def _random_placement(self, colour: int, rand: Any, groups: tuple[int, ...]) -> tuple[Orientation, int, int] | None:
        """A random placement for the colour, trying its pieces group by group (each a bit mask of pieces)."""
        g = self.game
        if not self._left[colour]:
            return None
        contact = self._contact(colour)
        levels = 1 if self._placed[colour] == 0 else self._top_level() + 1
        translations = self._translations
        for group in groups:
            wanted = self._left[colour] & group
            if not wanted:
                continue
            olist = [o for piece, usable in enumerate(g.usable) if wanted >> piece & 1 for o in usable]
            remaining = len(olist) * levels
            order = list(range(remaining))
            while remaining:
                j = int(rand() * remaining)
                k = order[j]
                remaining -= 1
                order[j] = order[remaining]
                o = olist[k // levels]
                tz = k % levels
                found = translations(o, tz, colour, contact)
                if found:
                    pick = int(rand() * found.bit_count())
                    while pick:
                        found &= found - 1
                        pick -= 1
                    return o, tz, (found & -found).bit_length() - 1
        return None

    # ----------------------------------------------------------------- internals

    def _coerce(self, move: object) -> Blokus3DMove:
        if isinstance(move, str):
            return self.game.parse_move(move)
        if isinstance(move, Blokus3DMove):
            return move
        raise IllegalMove(f"{move!r}: not a Blokus 3D move")

    def _candidates(self, colour: int) -> list[tuple[Orientation, int]]:
        """Every (orientation, level) worth testing for the colour: its unplaced pieces at the levels in use."""
        g = self.game
        left = self._left[colour]
        top = self._top_level()
        levels = range(1) if self._placed[colour] == 0 else range(top + 1)
        out = []
        for piece, usable in enumerate(g.usable):
            if left >> piece & 1:
                for o in usable:
                    for tz in levels:
                        out.append((o, tz))
        return out

    def _top_level(self) -> int:
        """The greatest height any column has."""
        level = self._level
        k = len(level) - 1
        while not level[k]:
            k -= 1
        return k

    def _contact(self, colour: int) -> tuple[list[int], int] | None:
        """The planes a new piece must touch: per level, the columns beside a cube it may touch; and the columns
        whose top cube it may rest on. None when anything goes (the first piece of the game)."""
        g = self.game
        if not self._cubes:
            return None
        if self._placed[colour] == 0:
            planes = [0] * g.level_slots
            taller = 0
            for k in range(len(self._level) - 1, 0, -1):
                taller |= self._level[k]
                planes[k - 1] = taller  # the columns with a cube at level k - 1
            tops = g.board & ~self._level[0]
        else:
            planes = self._own[colour]
            tops = self._top[colour]
        beside = [(p << STRIDE | p >> STRIDE | p << 1 | p >> 1) if p else 0 for p in planes]
        return beside, tops

    def _translations(self, o: Orientation, tz: int, colour: int, contact: Any = False) -> int:
        """The columns where orientation ``o`` can go at level ``tz`` for the colour (as minimum corners)."""
        level = self._level
        at_least = self.game.at_least
        last = len(level)
        valid = self.game.corners
        for off, bottom, count in o.columns:
            k = tz + bottom
            if k >= last:
                return 0
            valid &= (level[k] & at_least[k + count]) >> off
            if not valid:
                return 0
        if contact is False:
            contact = self._contact(colour)
        if contact is not None:
            beside, tops = contact
            touch = 0
            for off, z in o.cubes:
                touch |= beside[tz + z] >> off
            for off, bottom, _count in o.columns:
                if tz + bottom:
                    touch |= tops >> off
            valid &= touch
        return valid

    def _generate(self, colour: int) -> list[Blokus3DMove]:
        """Every legal move of the colour, in the order of ``legal_moves()``."""
        g = self.game
        contact = self._contact(colour)
        moves: list[Blokus3DMove] = []
        append = moves.append
        move_for = g.move_for
        translations = self._translations
        for o, tz in self._candidates(colour):
            found = translations(o, tz, colour, contact)
            while found:
                low = found & -found
                append(move_for(o, tz, low.bit_length() - 1))
                found ^= low
        moves.sort(key=_RANK)
        return moves

    def _fits(self, o: Orientation, tz: int, pos: int, colour: int) -> bool:
        if not self._left[colour] >> o.piece & 1 or pos < 0 or tz < 0:
            return False
        if tz >= self.game.level_slots or pos >= SIZE * STRIDE or (pos & (STRIDE - 1)) >= SIZE:
            return False
        if self._placed[colour] == 0 and self._cubes and tz != 0:
            return False
        return bool(self._translations(o, tz, colour) >> pos & 1)

    def _reason(self, move: Blokus3DMove, o: Orientation, colour: int) -> str:
        """Why a move that does not fit is illegal, in words a player understands."""
        g = self.game
        if not self._left[colour] >> o.piece & 1:
            return f"{move.piece} is already placed"
        for x, y, z in move.cells:
            if not (0 <= x < SIZE and 0 <= y < SIZE) or g.limits[x][y] == 0:
                return f"{x},{y},{z} is outside the structure"
            if z < 0:
                return f"{x},{y},{z} is below the board, outside the structure"
            if z >= g.limits[x][y]:
                return f"{x},{y},{z} is above the height limit {g.limits[x][y]} there"
        for x, y, z in move.cells:
            if z < self._height[x * STRIDE + y]:
                return f"{x},{y},{z} is taken"
        cells = set(move.cells)
        for x, y, z in sorted(move.cells, key=lambda c: c[2]):
            if z > 0 and (x, y, z - 1) not in cells and z > self._height[x * STRIDE + y]:
                return f"it would leave a gap under {x},{y},{z}"
        if self._placed[colour] == 0 and self._cubes:
            if min(z for _, _, z in move.cells) != 0:
                return "a colour's first piece must touch the board"
            return "a colour's first piece must touch a face of a piece already placed"
        return "it must touch a face of one of your pieces"

    def _place(self, o: Orientation, tz: int, pos: int, colour: int) -> None:
        """Put the piece on the table (no checks)."""
        level = self._level
        height = self._height
        own = self._own[colour]
        tops = self._top
        name = PIECE_NAMES[o.piece]
        for off, bottom, count in o.columns:
            p = pos + off
            bit = 1 << p
            k = tz + bottom
            level[k] ^= bit
            level[k + count] |= bit
            height[p] = k + count
            for z in range(k, k + count):
                own[z] |= bit
            for c in range(len(tops)):
                tops[c] &= ~bit
            tops[colour] |= bit
            x, y = divmod(p, STRIDE)
            for z in range(k, k + count):
                self._cubes.append((x, y, z, colour, name))
        self._left[colour] &= ~(1 << o.piece)
        self._placed[colour] += 1

    def _next_colour(self, mover: int) -> None:
        """Pass the turn round from ``mover``: a colour that cannot place is out for good; none left ends it."""
        n = self.game.colours
        for step in range(1, n + 1):
            colour = (mover + step) % n
            if self._out[colour]:
                continue
            legal = self._generate(colour)
            if legal:
                self._legal = legal
                self.colour_to_move = colour
                self.to_move = colour % self.game.players
                return
            self._out[colour] = True
        self._legal = []
        self.colour_to_move = None
        self.to_move = None
        self.over = True


__all__ = ["COLOUR_NAMES", "PIECES", "Blokus3D", "Blokus3DState"]
