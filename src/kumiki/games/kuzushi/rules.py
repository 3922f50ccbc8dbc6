"""Kuzushi: grid area control for 2–6 players (rules as in docs/rules/kuzushi.md).

The table is an integer bitboard. Every cell a tile can ever reach lies within N-1 of the CITY, so cell
``(x, y)`` is bit ``(x + N) * W + (y + N)`` of a ``W = 2N + 1`` square with an empty frame; bits therefore run in
``(x, y)`` order, and a neighbour is one shift away (±1 is north/south, ±W east/west). A second bitboard holds
the same tiles transposed so that the bounding box is read off both in a handful of integer operations.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, TypeVar

from kumiki.core.errors import IllegalMove, MoveSyntaxError, quoted, whole_number
from kumiki.core.game import Game, GameFacts, State, checked_seat, checked_seed, forfeit_winners
from kumiki.core.options import whole
from kumiki.games.kuzushi.moves import BASE, FLIP, KuzushiMove, parse_kuzushi_cell, parse_kuzushi_move
from kumiki.games.kuzushi.options import KUZUSHI_OPTIONS

if TYPE_CHECKING:
    from kumiki.games.kuzushi.encoding import KuzushiEncoding

T = TypeVar("T")


class Kuzushi(Game):
    """Kuzushi with its options fixed; holds the tables every state of this size shares."""

    name = "kuzushi"
    facts = GameFacts(min_players=2, max_players=6)
    option_spec = KUZUSHI_OPTIONS

    def __init__(self, /, **options: Any) -> None:
        super().__init__(**options)
        n = self.size = int(self.options["size"])
        self.tiles_per_player = int(self.options["tiles"])
        self.teams: int | None = self.options["teams"]
        self.city_counts_as_base: bool = self.options["city_counts_as_base"]
        self.more_than_half = self.options["majority"] == "more_than_half"
        self.own_island = self.options["team_island"] == "own"
        w = self.width = 2 * n + 1
        cells = w * w
        self.city_index = n * w + n
        # Per bit index: its coordinates, its moves, its neighbour mask and the neighbours to resolve, in the
        # fixed order east, west, north, south (x+1, x-1, y+1, y-1).
        self.coords: list[tuple[int, int]] = [(i // w - n, i % w - n) for i in range(cells)]
        self.base_moves = [KuzushiMove(BASE, x, y) for x, y in self.coords]
        self.flip_moves = [KuzushiMove(FLIP, x, y) for x, y in self.coords]
        self.transposed = [1 << ((i % w) * w + i // w) for i in range(cells)]
        self.neighbours = [0] * cells
        self.resolve_order: list[tuple[tuple[int, int, int], ...]] = [()] * cells
        for i in range(cells):
            c, r = divmod(i, w)
            if 0 < c < w - 1 and 0 < r < w - 1:
                around = [i + w, i - w, i + 1, i - 1]
                self.neighbours[i] = sum(1 << j for j in around)
        for i in range(cells):
            c, r = divmod(i, w)
            if 0 < c < w - 1 and 0 < r < w - 1:
                around = [i + w, i - w, i + 1, i - 1]
                self.resolve_order[i] = tuple((j, 1 << j, self.neighbours[j]) for j in around)
        # span[lo][hi]: every cell whose column (or, transposed, row) lies in lo..hi.
        self.interior = sum(1 << (c * w + r) for c in range(1, w - 1) for r in range(1, w - 1))
        column = [sum(1 << (c * w + r) for r in range(w)) for c in range(w)]
        row = [sum(1 << (c * w + r) for c in range(w)) for r in range(w)]
        self.column_span = [[sum(column[lo : hi + 1]) for hi in range(w)] for lo in range(w)]
        self.row_span = [[sum(row[lo : hi + 1]) for hi in range(w)] for lo in range(w)]
        team_count = self.teams or self.players
        self.team_of = [seat % team_count for seat in range(self.players)]

    def measure_limits(self) -> dict[str, tuple[float, float]]:
        """Tiles left: 0 to the tiles a seat starts with; a score (tiles placed, seat 0 one more): 0 to tiles + 1; the
        length: every move makes a cell solid for good, so at most the cells but the CITY's."""
        tiles = float(self.tiles_per_player)
        out = {f"tiles_left_seat_{p}": (0.0, tiles) for p in range(self.players)}
        out["score"] = (0.0, tiles + 1)
        out["length"] = (0.0, float(self.size**2 - 1))
        return out

    def new_state(self, seed: int | None = None) -> KuzushiState:
        return KuzushiState(self, checked_seed(seed))

    def parse_move(self, text: str) -> KuzushiMove:
        return parse_kuzushi_move(text)

    def make_encoding(self) -> KuzushiEncoding:
        from kumiki.games.kuzushi.encoding import KuzushiEncoding

        return KuzushiEncoding(self)


class KuzushiState(State):
    """A Kuzushi position; ``play`` validates a move, then applies it with ``_apply`` on the bitboards."""

    __slots__ = (
        "_bases",
        "_count",
        "_flags",
        "_maxc",
        "_maxr",
        "_minc",
        "_minr",
        "_occ",
        "_occ_t",
        "_solid",
        "_tiles",
        "game",
        "history",
        "over",
        "seed",
        "to_move",
    )

    game: Kuzushi

    def __init__(self, game: Kuzushi, seed: int | None = None) -> None:
        self.game = game
        self.seed = seed
        self.history = []
        n = game.size
        city = 1 << game.city_index
        self._bases = [0] * game.players
        if game.city_counts_as_base:
            self._bases[0] = city
        self._flags = [0] * game.players
        self._tiles = [game.tiles_per_player] * game.players
        self._occ = city
        self._occ_t = game.transposed[game.city_index]
        self._solid = city
        self._count = 1
        self._minc = self._maxc = self._minr = self._maxr = n
        self.to_move: int | None = 1
        self.over = False

    # ----------------------------------------------------------------- protocol

    def copy(self) -> KuzushiState:
        other = object.__new__(KuzushiState)
        other.game = self.game
        other.seed = self.seed
        other.history = self.history.copy()
        other._bases = self._bases.copy()
        other._flags = self._flags.copy()
        other._tiles = self._tiles.copy()
        other._occ = self._occ
        other._occ_t = self._occ_t
        other._solid = self._solid
        other._count = self._count
        other._minc = self._minc
        other._maxc = self._maxc
        other._minr = self._minr
        other._maxr = self._maxr
        other.to_move = self.to_move
        other.over = self.over
        other.resigned = self.resigned
        return other

    def legal_moves(self, player: int | None = None) -> list[KuzushiMove]:
        p = self.to_move
        if (player is not None and not self.may_act(player)) or p is None:
            return []
        g = self.game
        return self.legal(p, g.base_moves, g.flip_moves)

    def legal(self, p: int, base_table: list[T], flip_table: list[T]) -> list[T]:
        """Player p's legal moves as the tables give them per bit (moves, or the encoding's actions): the BASEs
        on the playable cells if p has a tile left, then the flips of p's FLAGs, each in bit order."""
        out: list[T] = []
        append = out.append
        if self._tiles[p]:
            free = self._playable()
            while free:
                low = free & -free
                append(base_table[low.bit_length() - 1])
                free ^= low
        own = self._flags[p]
        while own:
            low = own & -own
            append(flip_table[low.bit_length() - 1])
            own ^= low
        return out

    def play(self, move: KuzushiMove | str, player: int | None = None) -> None:  # type: ignore[override]
        if type(move) is not KuzushiMove:
            move = self._coerce(move)
        if type(move.x) is not int or type(move.y) is not int:  # a move built in code, e.g. with numpy numbers
            move = KuzushiMove(move.kind, whole_number(move.x, move), whole_number(move.y, move))
        p = self.to_move
        if p is None:
            raise IllegalMove(f"{move}: the game is over")
        if player is not None:
            self.require_actor(player, move)
        g = self.game
        n = g.size
        x = move.x
        y = move.y
        if not (-n < x < n and -n < y < n):
            raise IllegalMove(f"{move}: outside the {n}×{n} grid")
        i = (x + n) * g.width + y + n
        bit = 1 << i
        if move.kind == BASE:
            if self._occ & bit:
                raise IllegalMove(f"{move}: {self._describe(bit)} is already there")
            c, r = divmod(i, g.width)
            if max(self._maxc, c) - min(self._minc, c) >= n or max(self._maxr, r) - min(self._minr, r) >= n:
                raise IllegalMove(f"{move}: outside the {n}×{n} grid")
            if not g.neighbours[i] & self._occ:
                raise IllegalMove(f"{move}: not next to any tile")
            if not self._tiles[p]:
                raise IllegalMove(f"{move}: no tile left in your supply")
        elif not self._flags[p] & bit:
            raise IllegalMove(f"{move}: no flag of yours there")
        self._apply(p, i, move.kind == BASE)
        self.history.append(move)

    def play_unchecked(self, move: KuzushiMove) -> None:  # type: ignore[override]
        g = self.game
        n = g.size
        self._apply(self.to_move, (move.x + n) * g.width + move.y + n, move.kind == BASE)  # type: ignore[arg-type]
        self.history.append(move)

    def scores(self) -> list[float]:
        per = self.game.tiles_per_player
        return [float(per - left + (seat == 0)) for seat, left in enumerate(self._tiles)]

    def teams(self) -> list[int]:
        return list(self.game.team_of)

    def team_scores(self) -> list[float]:
        """One score per team (seat i plays for team ``i mod teams``); per player without teams."""
        g = self.game
        totals = [0.0] * (g.teams or g.players)
        for seat, score in enumerate(self.scores()):
            totals[g.team_of[seat]] += score
        return totals

    def island(self, seats: list[int]) -> int:
        """The size of the largest orthogonally connected group of tiles owned by any of ``seats``; ValueError for a
        seat of no player (a -1 would otherwise count the last seat's tiles)."""
        g = self.game
        mine = 0
        for seat in seats:
            seat = checked_seat(seat, g.players, "island: seat")
            mine |= self._bases[seat] | self._flags[seat]
        if 0 in seats:
            mine |= 1 << g.city_index
        w = g.width
        best = 0
        while mine:
            group = mine & -mine
            while True:
                grown = (group | group << 1 | group >> 1 | group << w | group >> w) & mine
                if grown == group:
                    break
                group = grown
            best = max(best, group.bit_count())
            mine ^= group
        return best

    def side_island(self, seats: list[int]) -> int:
        """The island that breaks a tie on tiles of the side of ``seats`` (a player, or a team's members), as the game
        reads it: their tiles joined together, or with ``team_island="own"`` the largest of one member's own groups
        ("the player with the most placed tiles orthogonally touching each other"). ``winners()`` and the terminal's
        note of a tie both ask it, so the figures the note gives are the ones that decided."""
        if self.game.own_island:
            return max(self.island([seat]) for seat in seats)
        return self.island(seats)

    def winners(self) -> list[int]:
        if not self.over:
            return []
        if self.resigned is not None:
            return forfeit_winners(self, self.resigned)
        g = self.game
        team_count = g.teams or g.players
        members = [[s for s in range(g.players) if g.team_of[s] == t] for t in range(team_count)]
        totals = self.team_scores()
        top = max(totals)
        leaders = [t for t in range(team_count) if totals[t] == top]
        if len(leaders) > 1:
            islands = {t: self.side_island(members[t]) for t in leaders}
            biggest = max(islands.values())
            leaders = [t for t in leaders if islands[t] == biggest]
        return sorted(s for t in leaders for s in members[t])

    def to_json(self) -> dict[str, Any]:
        g = self.game
        cells = []
        city = 1 << g.city_index
        occ = self._occ
        while occ:
            low = occ & -occ
            occ ^= low
            x, y = g.coords[low.bit_length() - 1]
            if low == city:
                cells.append({"x": x, "y": y, "owner": 0, "kind": "city"})
                continue
            for seat in range(g.players):
                if self._bases[seat] & low:
                    cells.append({"x": x, "y": y, "owner": seat, "kind": "base"})
                elif self._flags[seat] & low:
                    cells.append({"x": x, "y": y, "owner": seat, "kind": "flag"})
        out: dict[str, Any] = {"size": g.size, "tiles_left": list(self._tiles), "cells": cells}
        if g.own_island and g.teams:
            out["team_island"] = "own"  # the page names the tie-break by the rule the game plays
        return out

    def parse_move(self, text: str) -> KuzushiMove:
        """Like ``game.parse_move``, but a bare cell ``x,y`` means F there if it holds your flag, else B."""
        if not isinstance(text, str):
            return parse_kuzushi_move(text)
        stripped = text.strip()
        if stripped and stripped[0] not in "BbFf":
            cell = parse_kuzushi_cell(stripped)
            if cell is None:
                raise MoveSyntaxError(
                    f"{quoted(stripped)}: not a Kuzushi move (write 'B x,y' to place a base, 'F x,y' to flip, "
                    "or a cell x,y)"
                )
            x, y = cell
            p = self.to_move
            if p is not None and self.has_flag(p, x, y):
                return KuzushiMove(FLIP, x, y)
            return KuzushiMove(BASE, x, y)
        return parse_kuzushi_move(text)

    # ----------------------------------------------------------------- queries for tools and UIs

    def measures(self) -> dict[str, float]:
        """Each seat's tiles left (``tiles_left_seat_N``)."""
        return {f"tiles_left_seat_{p}": float(n) for p, n in enumerate(self._tiles)}

    def tiles_left(self) -> list[int]:
        return list(self._tiles)

    def cell(self, x: int, y: int) -> tuple[str, int] | None:
        """``(kind, owner)`` of the tile at ``x,y`` ("city", "base" or "flag"), or None if empty or off-grid.
        ValueError for a coordinate that is no whole number (a numpy integer is one: it is read as an int)."""
        g = self.game
        n = g.size
        if type(x) is not int or type(y) is not int:  # a numpy int64 would overflow in the shift below
            cx, cy = whole(x), whole(y)
            if cx is None or cy is None:
                bad = x if cx is None else y
                raise ValueError(f"cell({x!r}, {y!r}): a coordinate is a whole number, not {bad!r}")
            x, y = cx, cy
        if not (-n < x < n and -n < y < n):
            return None
        bit = 1 << ((x + n) * g.width + y + n)
        if not self._occ & bit:
            return None
        if bit == 1 << g.city_index:
            return ("city", 0)
        for seat in range(g.players):
            if self._bases[seat] & bit:
                return ("base", seat)
            if self._flags[seat] & bit:
                return ("flag", seat)
        raise AssertionError("occupied cell with no owner")  # pragma: no cover - an invariant

    def has_flag(self, seat: int, x: int, y: int) -> bool:
        return self.cell(x, y) == ("flag", seat)

    def playable_cells(self) -> list[tuple[int, int]]:
        """Every empty, in-bounds cell next to a tile, in (x, y) order."""
        free = self._playable()
        coords = self.game.coords
        out = []
        while free:
            low = free & -free
            out.append(coords[low.bit_length() - 1])
            free ^= low
        return out

    def bounds(self) -> tuple[int, int, int, int]:
        """The bounding box of the tiles on the table: ``(min_x, min_y, max_x, max_y)``."""
        n = self.game.size
        return (self._minc - n, self._minr - n, self._maxc - n, self._maxr - n)

    def render(self) -> str:
        from kumiki.games.kuzushi.text import render_plain

        return render_plain(self)

    # ----------------------------------------------------------------- agent hooks

    def playout(self, rng: random.Random) -> None:
        """Play uniformly random moves on this state to the end, without recording them (agents' fast path)."""
        apply = self._apply
        playable = self._playable
        flags = self._flags
        tiles = self._tiles
        rand = rng.random
        while not self.over:
            p = self.to_move
            assert p is not None
            free = playable() if tiles[p] else 0
            own = flags[p]
            total = free.bit_count() + own.bit_count()
            k = int(rand() * total)
            nb = free.bit_count()
            pool, base = (free, True) if k < nb else (own, False)
            if not base:
                k -= nb
            while k:
                pool &= pool - 1
                k -= 1
            apply(p, (pool & -pool).bit_length() - 1, base)

    def heuristic_playout(self, rng: random.Random, epsilon: float = 0.25) -> None:
        """Play to the end, each move ε-greedy on its immediate gain (see ``gains``): a stronger playout.

        With probability ``epsilon`` a move is uniformly random; otherwise it is drawn uniformly from the moves with
        the largest gain. All gains come from a few dozen whole-board bit operations, so this costs little more
        than a uniform playout.
        """
        apply = self._apply
        rand = rng.random
        while not self.over:
            p = self.to_move
            assert p is not None
            free = self._playable() if self._tiles[p] else 0
            own = self._flags[p]
            if rand() < epsilon:
                pool = free | own
            else:
                pool = free | own
                for plane in self.gains(p, free)[::-1]:
                    top = pool & plane
                    if top:
                        pool = top
            k = int(rand() * pool.bit_count())
            while k:
                pool &= pool - 1
                k -= 1
            low = pool & -pool
            apply(p, low.bit_length() - 1, bool(free & low))

    def gains(self, p: int, free: int) -> tuple[int, int, int, int, int]:
        """Every move's immediate gain for p, as five bit planes (bit k of a cell's gain in plane k).

        The gain of a move at cell i is what ``_gain`` computes: 1 for a tile taken from the supply (a cell in
        ``free``), plus, for each neighbour n of i that is not a base, 2 if p would win n from a rival's flag,
        1 if p would win an empty n or tie a rival's flag away. Counts are bit-sliced: ``ge[k]`` holds the cells
        with at least k of the player's bases next to them.
        """
        g = self.game
        w = g.width
        bases = self._bases

        def at_least(b: int) -> tuple[int, int, int, int]:
            a1, a2, a3, a4 = b << w, b >> w, b << 1, b >> 1
            or12, and12, or34, and34 = a1 | a2, a1 & a2, a3 | a4, a3 & a4
            return (
                or12 | or34,
                and12 | and34 | (or12 & or34),
                (and12 & or34) | (and34 & or12),
                and12 & and34,
            )

        m1, m2, m3, m4 = at_least(bases[p])
        r1 = r2 = r3 = r4 = 0
        for q in range(g.players):
            if q != p:
                q1, q2, q3, q4 = at_least(bases[q])
                r1 |= q1
                r2 |= q2
                r3 |= q3
                r4 |= q4
        board = g.interior
        # mine >= rival: wherever the rival reaches k, p reaches k too.
        win = board & ~(r1 & ~m1) & ~(r2 & ~m2) & ~(r3 & ~m3) & ~(r4 & ~m4)
        # mine + 1 == rival: the rival has exactly k and p exactly k - 1.
        tie = ((r1 & ~r2 & ~m1) | (r2 & ~r3 & m1 & ~m2) | (r3 & ~r4 & m2 & ~m3) | (r4 & m3 & ~m4)) & board
        occ = self._occ
        theirs = occ & ~self._solid & ~self._flags[p]
        empty = board & ~occ
        double = win & theirs
        single = (win & empty) | (tie & theirs)

        def count(b: int) -> tuple[int, int, int]:
            a1, a2, a3, a4 = b << w, b >> w, b << 1, b >> 1
            s12, c12, s34, c34 = a1 ^ a2, a1 & a2, a3 ^ a4, a3 & a4
            bit0 = s12 ^ s34
            c0 = s12 & s34
            return bit0, c12 ^ c34 ^ c0, (c12 & c34) | (c0 & (c12 ^ c34))

        d0, d1, d2 = count(double)
        s0, s1, s2 = count(single)
        # gain = free + single + 2 * double, added bit by bit.
        g0 = s0 ^ free
        carry = s0 & free
        g1 = s1 ^ d0 ^ carry
        carry = (s1 & d0) | (carry & (s1 ^ d0))
        g2 = s2 ^ d1 ^ carry
        carry = (s2 & d1) | (carry & (s2 ^ d1))
        g3 = d2 ^ carry
        g4 = d2 & carry
        return g0, g1, g2, g3, g4

    def _gain(self, p: int, i: int, is_base: bool) -> int:
        """How much p's lead grows at once by a BASE at ``i``: its own tile, flags won, rivals' flags removed.

        Flags are counted by the most BASES whatever the ``majority`` option: an estimate that steers playouts only."""
        g = self.game
        bases = self._bases
        solid = self._solid
        occ = self._occ
        own_flags = self._flags[p]
        gain = 1 if is_base else 0
        players = g.players
        interior = g.interior
        for _j, jbit, around in g.resolve_order[i]:
            if solid & jbit or not interior & jbit:
                continue
            mine = (bases[p] & around).bit_count() + 1
            rival = 0
            for q in range(players):
                if q != p:
                    k = (bases[q] & around).bit_count()
                    if k > rival:
                        rival = k
            theirs = occ & jbit and not own_flags & jbit
            if mine > rival:
                if not own_flags & jbit:
                    gain += 2 if theirs else 1
            elif mine == rival and theirs:
                gain += 1
        return gain

    # ----------------------------------------------------------------- internals

    def _coerce(self, move: object) -> KuzushiMove:
        if isinstance(move, str):
            return self.parse_move(move)
        if isinstance(move, KuzushiMove):
            return move
        raise IllegalMove(f"{move!r}: not a Kuzushi move")

    def _describe(self, bit: int) -> str:
        if bit == 1 << self.game.city_index:
            return "the CITY"
        for seat in range(self.game.players):
            if self._bases[seat] & bit:
                return f"a base of player {seat}"
            if self._flags[seat] & bit:
                return f"a flag of player {seat}"
        return "a tile"  # pragma: no cover

    def _playable(self) -> int:
        """Empty cells next to a tile whose addition keeps the bounding box within N×N."""
        g = self.game
        n1 = g.size - 1
        w = g.width
        occ = self._occ
        near = (occ << 1 | occ >> 1 | occ << w | occ >> w) & ~occ
        return near & g.column_span[self._maxc - n1][self._minc + n1] & g.row_span[self._maxr - n1][self._minr + n1]

    def _apply(self, p: int, i: int, is_base: bool) -> None:
        """Place (or flip to) p's BASE at bit ``i``, resolve the flags around it and end the turn. No checks."""
        g = self.game
        bit = 1 << i
        bases = self._bases
        flags = self._flags
        tiles = self._tiles
        bases[p] |= bit
        self._solid |= bit
        if is_base:
            tiles[p] -= 1
            self._occ |= bit
            self._occ_t |= g.transposed[i]
            self._count += 1
            c, r = divmod(i, g.width)
            if c < self._minc:
                self._minc = c
            elif c > self._maxc:
                self._maxc = c
            if r < self._minr:
                self._minr = r
            elif r > self._maxr:
                self._maxr = r
        else:
            flags[p] ^= bit
        solid = self._solid
        players = range(g.players)
        n = g.size
        width = g.width
        more_than_half = g.more_than_half
        for j, jbit, around in g.resolve_order[i]:
            if solid & jbit:
                continue
            best = 0
            q = -1
            for seat in players:
                k = (bases[seat] & around).bit_count()
                if k > best:
                    best = k
                    q = seat
                elif k == best and k:
                    q = -1
            if q >= 0 and more_than_half:
                total = 0
                for seat in players:
                    total += (bases[seat] & around).bit_count()
                if 2 * best <= total:
                    q = -1
            flagged = self._occ & jbit
            if q >= 0:
                if flags[q] & jbit:
                    continue
                if flagged:
                    self._remove_flag(jbit)
                if tiles[q]:
                    c, r = divmod(j, width)
                    if max(self._maxc, c) - min(self._minc, c) < n and max(self._maxr, r) - min(self._minr, r) < n:
                        flags[q] |= jbit
                        tiles[q] -= 1
                        self._occ |= jbit
                        self._occ_t |= g.transposed[j]
                        self._count += 1
                        if c < self._minc:
                            self._minc = c
                        elif c > self._maxc:
                            self._maxc = c
                        if r < self._minr:
                            self._minr = r
                        elif r > self._maxr:
                            self._maxr = r
            elif flagged:
                self._remove_flag(jbit)
        self._end_of_turn()

    def _remove_flag(self, jbit: int) -> None:
        """Return the flag on ``jbit`` to its owner; the bounding box may shrink."""
        g = self.game
        flags = self._flags
        for seat in range(g.players):
            if flags[seat] & jbit:
                flags[seat] ^= jbit
                self._tiles[seat] += 1
                break
        j = jbit.bit_length() - 1
        self._occ ^= jbit
        self._occ_t ^= g.transposed[j]
        self._count -= 1
        w = g.width
        occ = self._occ
        occ_t = self._occ_t
        self._minc = ((occ & -occ).bit_length() - 1) // w
        self._maxc = (occ.bit_length() - 1) // w
        self._minr = ((occ_t & -occ_t).bit_length() - 1) // w
        self._maxr = (occ_t.bit_length() - 1) // w

    def _end_of_turn(self) -> None:
        g = self.game
        if self._count >= g.size * g.size or 0 in self._tiles:
            self.over = True
            self.to_move = None
        else:
            self.to_move = (self.to_move + 1) % g.players  # type: ignore[operator]
