"""Kozo (ACTOP): the balance tower, refereed by the physics judge (rules as in docs/rules/kozo.md).

A turn places a polycube (lowered straight down onto the ring around the chimney) and a balance cube on top of a
polycube; the judge checks the tower after each step, and the player who makes it fall loses that round's points.
"""

from __future__ import annotations

import random
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kumiki.core.errors import IllegalMove, MoveSyntaxError, quoted, whole_number
from kumiki.core.game import Game, GameFacts, State, checked_seed, forfeit_winners
from kumiki.games.kozo.moves import KozoMove, parse_kozo_move
from kumiki.games.kozo.options import KOZO_OPTIONS
from kumiki.games.kozo.pieces import BALANCE_EDGE, CHIMNEY, RING, Placement, parse_pieces, placements
from kumiki.geometry.polycube import Cell, normalize, orientations
from kumiki.physics.forces import Setup, prepare
from kumiki.physics.model import Body, Tower, body_from_cells
from kumiki.physics.statics import Verdict, judge

if TYPE_CHECKING:
    from kumiki.games.kozo.encoding import KozoEncoding

BASE_REGION = ((0.0, 0.0, 3.0, 3.0),)
# Towers whose verdict is kept per game, of each kind: measured about 740 bytes a standing verdict and 1,800-2,100 a
# falling one (which names the bodies that move), so some 150 + 400 MB when both are full (a table is then cleared).
CACHE_SIZE = 200_000
SETUPS = 4_096  # standing towers whose prepared contacts are kept per game (about 40 MB at most, measured)


class VerdictCache:
    """The judge's verdicts per tower, shared by every state of a game (agents reach one tower by many orders).

    A standing verdict names no body, so it is kept under the tower as a set (the same cubes by any order); a
    falling one names the bodies that move, so it is kept under the tower in its order of play. The prepared
    contacts of the last standing towers are kept too (``SETUPS``), under the order of play (they number the bodies
    in it): the next piece's contacts are found from them.
    ``shortcuts=False`` makes every verdict the plain LP's, from contacts found afresh (the reference in
    ``bench/kozo_speed.py``).
    """

    def __init__(self, size: int = CACHE_SIZE, shortcuts: bool = True) -> None:
        self.size = size
        self.shortcuts = shortcuts
        self.standing: dict[tuple[frozenset[Any], frozenset[Cell]], Verdict] = {}
        self.falling: dict[tuple[tuple[Any, ...], tuple[Cell, ...]], Verdict] = {}
        self.setups: OrderedDict[tuple[tuple[Any, ...], tuple[Cell, ...]], Setup] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def clear(self) -> None:
        """Forget every verdict and prepared tower (benchmarks use it to time the judge itself)."""
        self.standing.clear()
        self.falling.clear()
        self.setups.clear()

    def get(self, state: KozoState, parent: Setup | None = None, added: int | None = None) -> Verdict:
        """The verdict on ``state``'s tower; ``parent`` is the prepared tower without body ``added`` (the one just
        placed), if known. Leaves the prepared tower on the state (``state.setup``) when it stands."""
        placed = state.placed
        key = (frozenset(cells for _, _, cells in placed), frozenset(state.balances))
        order = (tuple((name, cells) for name, _, cells in placed), tuple(state.balances))
        verdict = self.standing.get(key)
        if verdict is not None:
            self.hits += 1
            state.setup = self.setups.get(order)  # its bodies are numbered in this order of play only
            return verdict
        verdict = self.falling.get(order)
        if verdict is not None:
            self.hits += 1
            return verdict
        self.misses += 1
        tower = state.tower()
        if not self.shortcuts:
            verdict = judge(tower, margin=False, explain=True, shortcuts=False)
        else:
            setup = prepare(tower, parent, added, separated=True) if parent is not None else prepare(tower)
            verdict = judge(tower, margin=False, explain=True, setup=setup, added=added)
            if verdict.stands:
                state.setup = setup
                self.setups[order] = setup
                if len(self.setups) > SETUPS:
                    self.setups.popitem(last=False)
        table: dict[Any, Verdict] = self.standing if verdict.stands else self.falling
        if len(table) >= self.size:
            table.clear()
        table[key if verdict.stands else order] = verdict
        return verdict


class Kozo(Game):
    """Kozo with its options fixed; holds every piece's placements on the ring."""

    name = "kozo"
    facts = GameFacts(min_players=1, max_players=6, chance=True)
    option_spec = KOZO_OPTIONS

    def __init__(self, /, **options: Any) -> None:
        super().__init__(**options)
        self.pieces = parse_pieces(self.options["pieces"])
        self.names = list(self.pieces)
        self.order = {name: i for i, name in enumerate(self.names)}  # the pool order, for sorting moves
        self.size = {name: len(shape) for name, shape in self.pieces.items()}
        self.rounds = int(self.options["rounds"])
        self.random_size = bool(self.options["random_size"])
        self.size_draw = str(self.options["size_draw"])
        self.opener = str(self.options["opener"])
        self.no_fit = str(self.options["no_fit"])
        self.tiebreak = str(self.options["tiebreak"])
        self.placements = {name: placements(name, shape) for name, shape in self.pieces.items()}
        self.placements_by_size: dict[int, list[Placement]] = {}
        for name in self.names:
            self.placements_by_size.setdefault(self.size[name], []).extend(self.placements[name])
        self.shapes = {name: set(orientations(normalize(shape))) for name, shape in self.pieces.items()}
        self._by_upper = {name.upper(): name for name in self.names}
        self.verdicts = VerdictCache()

    def __getstate__(self) -> dict[str, Any]:
        """The game pickles without its judge's cache (a copy starts an empty one of the same size): the verdicts
        are this process's own, and a state sent to a worker would carry every tower the game had met (12.6 MB for
        one state after 1,500 random games, and more with every game, up to the cache's bound)."""
        data = self.__dict__.copy()
        data["verdicts"] = VerdictCache(self.verdicts.size, self.verdicts.shortcuts)
        return data

    def measure_limits(self) -> dict[str, tuple[float, float]]:
        """Falls, in all and by one seat: at most one a round, as a fall ends it; the length: each polycube of the
        pool placed at most once a round (a score loses points in a fall: no limit given)."""
        rounds = float(self.rounds)
        out = {"falls": (0.0, rounds), **{f"falls_seat_{p}": (0.0, rounds) for p in range(self.players)}}
        out["length"] = (0.0, rounds * len(self.names))
        return out

    def new_state(self, seed: int | None = None) -> KozoState:
        return KozoState(self, checked_seed(seed))

    def parse_move(self, text: str) -> KozoMove:
        move = parse_kozo_move(text)
        # ASCII case only: 'ı'.upper() is 'I' and 'ſ'.upper() is 'S', which would read other text as a piece
        name = self._by_upper.get(move.piece.upper()) if move.piece.isascii() else None
        if name is None:
            raise MoveSyntaxError(f"{quoted(text)}: no piece {quoted(move.piece, 20)} (pieces: {' '.join(self.names)})")
        if normalize(move.cells) not in self.shapes[name]:
            raise MoveSyntaxError(f"{quoted(text)}: these cells are not {name} under any rotation")
        return KozoMove(name, move.cells, move.balance)

    def has_chance(self) -> bool:
        return self.random_size

    def first_mover(self) -> int | None:
        """Player 0 opens the first round; later rounds are opened as the option ``opener`` says."""
        return 0 if self.rounds == 1 or self.players == 1 or self.opener == "first" else None

    def make_encoding(self) -> KozoEncoding:
        from kumiki.games.kozo.encoding import KozoEncoding

        return KozoEncoding(self)


def _is_cell(cell: object) -> bool:
    return type(cell) is tuple and len(cell) == 3 and all(type(c) is int for c in cell)


def _is_whole(move: KozoMove) -> bool:
    """Whether a move is as the notation builds it: a name, and tuples of three ints (the fast path of play)."""
    cells = move.cells
    return type(move.piece) is str and type(cells) is tuple and all(map(_is_cell, cells)) and _is_cell(move.balance)


def _whole_move(move: KozoMove) -> KozoMove:
    """A move built in code as the notation would read it, or IllegalMove: its cells as tuples of three ints (from
    lists or numpy integers), refusing what is no cell (a float, a bool, two numbers) before the rules look at it."""

    def three(value: object) -> tuple[object, ...]:
        numbers: tuple[object, ...] = tuple(value) if isinstance(value, Iterable) else ()
        if len(numbers) != 3:
            raise IllegalMove(f"{move!r}: a cell is three whole numbers x,y,z, not {value!r}")
        return numbers

    if not isinstance(move.piece, str):  # a str of numpy's becomes the plain str below
        raise IllegalMove(f"{move!r}: a piece is named by its text, not {move.piece!r}")
    if not isinstance(move.cells, Iterable):
        raise IllegalMove(f"{move!r}: a cell is three whole numbers x,y,z, not {move.cells!r}")
    listed = tuple(move.cells)
    shaped = [three(value) for value in (*listed, move.balance)]  # every cell first: str(move) needs three each
    cells = [(whole_number(x, move), whole_number(y, move), whole_number(z, move)) for x, y, z in shaped]
    return KozoMove(str(move.piece), tuple(cells[:-1]), cells[-1])


@dataclass
class Fall:
    """Who made the tower fall, in which round, at which step (1: the polycube, 2: the balance cube), and why."""

    round: int
    player: int
    step: int
    move: str
    explanation: str
    moving: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "player": self.player,
            "step": self.step,
            "move": self.move,
            "explanation": self.explanation,
            "moving": list(self.moving),
        }


class KozoState(State):
    """A Kozo game: the current round's tower and every round's points so far."""

    game: Kozo

    def __init__(self, game: Kozo, seed: int | None = None) -> None:
        self.game = game
        if seed is None and game.random_size:
            seed = random.SystemRandom().randrange(2**53)  # kept for the record; 53 bits: too many to try
        self.seed = seed
        self.history = []
        self.rng = random.Random(seed)
        self.round = 0
        self.points: list[list[float]] = []  # per finished or running round, per player
        self.falls: list[Fall] = []
        self.ends: list[dict[str, Any]] = []  # per finished round: how it ended (see _end_round)
        self.last_mover: list[list[int]] = []  # per round: the order of players' last moves
        self.openers: list[int] = []  # per round: who opened it
        self.over = False
        self.to_move: int | None = None
        self.required_size: int | None = None
        self._start_round()

    # ----------------------------------------------------------------- the round

    def _start_round(self) -> None:
        g = self.game
        self.pool: list[str] = list(g.names)
        self.placed: list[tuple[str, int, tuple[Cell, ...]]] = []  # piece, player, cells
        self.balances: list[Cell] = []
        self.bodies: list[Body] = []  # the judge's body of each placed polycube, then each balance cube
        self.balance_bodies: list[Body] = []
        self.cells: dict[Cell, int] = {}  # polycube cell -> index in placed
        self.top: dict[tuple[int, int], int] = dict.fromkeys(RING, 0)  # height of the highest polycube cube
        self.balance_top: dict[tuple[int, int], float] = {}
        self.points.append([0.0] * g.players)
        self.last_mover.append([])
        self.to_move = self._opener()
        self.openers.append(self.to_move)
        self._verdict_cache: Verdict | None = None
        self._margin_cache: float | None = None
        self.setup: Setup | None = None  # the current tower prepared for the judge, when known
        self._begin_turn()

    def _opener(self) -> int:
        """Who opens the round starting now (``to_move`` is then the seat whose turn came next, see ``_end_round``)."""
        g = self.game
        if g.opener == "first" or self.round == 0:
            return 0
        if g.opener == "continue" and self.to_move is not None:
            return self.to_move
        return self.round % g.players

    def _begin_turn(self) -> None:
        """Draw the size (variant), then end the round if the mover has no placement at all."""
        g = self.game
        self._lowered: list[tuple[str, list[tuple[Placement, int, tuple[Cell, ...]]]]] | None = None
        self.required_size = None
        if g.random_size and self.pool:
            if g.size_draw == "tile":  # the tile of a piece left, face down: a size as often as it has pieces
                sizes = sorted(g.size[name] for name in self.pool)
            else:  # each size left as likely as any other
                sizes = sorted({g.size[name] for name in self.pool})
            self.required_size = sizes[int(self.rng.random() * len(sizes))]
            if g.no_fit == "redraw" and not self._has_placement():
                # Drawing again until a size fits is one draw among the sizes (tiles) that fit, each as likely.
                drawn = self.required_size
                fits = {size for size in set(sizes) - {drawn} if self._fits(size)}
                sizes = [size for size in sizes if size in fits]
                if sizes:
                    self.required_size = sizes[int(self.rng.random() * len(sizes))]
        if not self.pool:
            self._end_round("placed")
        elif not self._has_placement():
            self._end_round("stuck")

    def _end_round(self, how: str) -> None:
        """End the round: ``how`` is ``"fall"`` (the mover made the tower fall), ``"placed"`` (every polycube of the
        pool placed) or ``"stuck"`` (the mover has no legal placement; in the variant, none of the size drawn)."""
        self.ends.append(
            {
                "round": self.round,
                "how": how,
                "pieces": len(self.placed),
                "height": max(self.top.values(), default=0),
                "size": self.required_size if how == "stuck" else None,
            }
        )
        self.round += 1
        if self.round >= self.game.rounds:
            self.over = True
            self.to_move = None
            self.required_size = None
            return
        self._start_round()

    # ----------------------------------------------------------------- placement geometry

    def resting_level(self, placement: Placement) -> int | None:
        """The level the placement comes to rest at when lowered, or None if a balance cube would stop it."""
        z = 0
        top = self.top
        for col, bottom in placement.bottoms:
            if top[col] - bottom > z:
                z = top[col] - bottom
        balance_top = self.balance_top
        if balance_top:
            for col, bottom in placement.bottoms:
                cap = balance_top.get(col)
                if cap is not None and z + bottom < cap:
                    return None
        return z

    def lowered(self) -> list[tuple[str, list[tuple[Placement, int, tuple[Cell, ...]]]]]:
        """Per piece the mover may play (pool order), its placements that can be lowered, the level each comes to
        rest at and its cells there, sorted by cells (computed once per turn: the moves and the agents' helpers
        share it)."""
        if self._lowered is None:
            placements = self.game.placements
            level = self.resting_level
            out = []
            for name in self._allowed_pieces():
                found = []
                for placement in placements[name]:
                    z = level(placement)
                    if z is not None:
                        found.append((placement, z, tuple([(x, y, c + z) for x, y, c in placement.cells])))
                found.sort(key=lambda entry: entry[2])
                out.append((name, found))
            self._lowered = out
        return self._lowered

    def _allowed_pieces(self) -> list[str]:
        g = self.game
        if self.required_size is None:
            return list(self.pool)
        return [name for name in self.pool if g.size[name] == self.required_size]

    def _fits(self, size: int) -> bool:
        """Whether a piece of ``size`` left in the pool has a placement (``required_size`` is set back after)."""
        kept, self.required_size = self.required_size, size
        try:
            return self._has_placement()
        finally:
            self.required_size = kept

    def _has_placement(self) -> bool:
        g = self.game
        return any(self.resting_level(p) is not None for name in self._allowed_pieces() for p in g.placements[name])

    def balance_spots(self, extra: tuple[Cell, ...] = ()) -> list[Cell]:
        """The cells a balance cube may sit in: on the topmost polycube cube of a column, with none on it yet."""
        top = dict(self.top)
        for x, y, z in extra:
            top[(x, y)] = max(top[(x, y)], z + 1)
        taken = set(self.balances)
        return [(x, y, h) for (x, y), h in sorted(top.items()) if h > 0 and (x, y, h) not in taken]

    # ----------------------------------------------------------------- protocol

    def legal_moves(self, player: int | None = None) -> list[KozoMove]:
        if (player is not None and not self.may_act(player)) or self.over:
            return []
        top = self.top
        taken = set(self.balances)
        columns = sorted(top)
        moves = []
        for name, found in self.lowered():
            for _, _, cells in found:
                raised: dict[tuple[int, int], int] = {}
                for x, y, c in cells:
                    if c + 1 > raised.get((x, y), 0):
                        raised[x, y] = c + 1
                for x, y in columns:
                    h = raised.get((x, y)) or top[x, y]
                    if h > 0 and (x, y, h) not in taken:
                        moves.append(KozoMove(name, cells, (x, y, h)))
        return moves

    def play(self, move: KozoMove | str, player: int | None = None) -> None:  # type: ignore[override]
        if isinstance(move, str):
            move = self.game.parse_move(move)
        elif not isinstance(move, KozoMove):
            raise IllegalMove(f"{move!r}: not a Kozo move")
        if not _is_whole(move):  # built in code: lists, numpy numbers, or no cells at all
            move = _whole_move(move)
        if list(move.cells) != sorted(move.cells):
            move = KozoMove(move.piece, tuple(sorted(move.cells)), move.balance)  # the notation lists cells sorted
        if self.over or self.to_move is None:
            raise IllegalMove(f"{move}: the game is over")
        if player is not None:
            self.require_actor(player, move)
        self._check(move)
        player = self.to_move
        g = self.game
        self.pool.remove(move.piece)
        index = len(self.placed)
        parent = self.setup
        self.placed.append((move.piece, player, move.cells))
        self.bodies.append(body_from_cells(f"{move.piece} #{index + 1}", move.cells))
        for cell in move.cells:
            self.cells[cell] = index
        for x, y, z in move.cells:
            self.top[(x, y)] = max(self.top[(x, y)], z + 1)
        self.history.append(move)
        self.last_mover[-1].append(player)
        verdict = self._judge(parent, index)
        if not verdict.stands:
            self._fall(player, 1, move, verdict)
            return
        bx, by, bz = move.balance
        self.balances.append(move.balance)
        half = BALANCE_EDGE / 2
        box = (bx + 0.5 - half, by + 0.5 - half, float(bz), bx + 0.5 + half, by + 0.5 + half, bz + BALANCE_EDGE)
        self.balance_bodies.append(Body(f"balance cube {len(self.balances)}", (box,)))
        self.balance_top[(bx, by)] = max(self.balance_top.get((bx, by), 0.0), bz + BALANCE_EDGE)
        verdict = self._judge(self.setup, len(self.bodies) + len(self.balance_bodies) - 1)
        if not verdict.stands:
            self._fall(player, 2, move, verdict)
            return
        self.points[-1][player] += g.size[move.piece]
        self._next_turn(player)

    def _next_turn(self, player: int) -> None:
        self.to_move = (player + 1) % self.game.players  # whose turn comes next, in this round or the next
        if not self.pool:
            self._end_round("placed")
            return
        self._begin_turn()

    def _fall(self, player: int, step: int, move: KozoMove, verdict: Verdict) -> None:
        self.points[-1][player] = 0.0
        self.falls.append(
            Fall(self.round, player, step, str(move), verdict.fault or "the tower falls", list(verdict.moving))
        )
        self.to_move = (player + 1) % self.game.players  # the turn goes on to the next player (opener "continue")
        self._end_round("fall")

    def _check(self, move: KozoMove) -> None:
        """Raise IllegalMove with the reason if the move breaks a placement rule."""
        g = self.game
        name = move.piece
        if name not in g.pieces:
            raise IllegalMove(f"{quoted(str(move))}: no piece {quoted(name, 20)} in this game")
        if name not in self.pool:
            raise IllegalMove(f"{move}: {name} is already on the tower")
        if self.required_size is not None and g.size[name] != self.required_size:
            raise IllegalMove(f"{move}: the tile drawn is {self.required_size}: play a piece of that size")
        if normalize(move.cells) not in g.shapes[name]:
            raise IllegalMove(f"{move}: these cells are not {name} under any rotation")
        for x, y, _ in move.cells:
            if (x, y) == CHIMNEY:
                raise IllegalMove(f"{move}: nothing may stand on or over the chimney at 1,1")
            if (x, y) not in self.top:
                raise IllegalMove(f"{move}: {x},{y} is off the base (cells x, y run from 0 to 2)")
        lowest = min(z for _, _, z in move.cells)
        shape = tuple(sorted((x, y, z - lowest) for x, y, z in move.cells))
        placement = next(p for p in g.placements[name] if p.cells == shape)
        rest = self.resting_level(placement)
        if rest is None:
            raise IllegalMove(f"{move}: lowered, it would come to rest on a balance cube")
        if rest != lowest:
            raise IllegalMove(f"{move}: lowered straight down it comes to rest at level {rest}, not {lowest}")
        if move.balance not in self.balance_spots(move.cells):
            bx, by, bz = move.balance
            raise IllegalMove(
                f"{move}: a balance cube goes on top of a column's highest polycube cube with none on it "
                f"(not at {bx},{by},{bz})"
            )

    # ----------------------------------------------------------------- physics

    def tower(self) -> Tower:
        """The current round's tower for the judge: polycubes and balance cubes (same wood), on the 3×3 base."""
        return Tower((*self.bodies, *self.balance_bodies), BASE_REGION, "falls")

    def _judge(self, parent: Setup | None, added: int) -> Verdict:
        """The verdict after body ``added`` joined the tower ``parent`` had prepared (the tower before stood)."""
        self._verdict_cache = self._margin_cache = None
        self.setup = None
        self._verdict_cache = self.game.verdicts.get(self, parent, added)
        return self._verdict_cache

    def verdict(self) -> Verdict:
        """The judge's verdict on the current tower (cached until the tower changes)."""
        if self._verdict_cache is None:
            if not self.placed:
                self._verdict_cache = Verdict(True, False, 0.0, 0)
            else:
                self._verdict_cache = self.game.verdicts.get(self)
        return self._verdict_cache

    def margin(self) -> float:
        """The current tower's tilt margin in degrees (computed on demand, cached)."""
        if self._margin_cache is None:
            if not self.placed:
                self._margin_cache = 0.0
            else:
                self._margin_cache = judge(self.tower(), margin=True, explain=False).margin_deg
        return self._margin_cache

    # ----------------------------------------------------------------- scores

    def scores(self) -> list[float]:
        totals = [0.0] * self.game.players
        for round_points in self.points:
            for p, v in enumerate(round_points):
                totals[p] += v
        return totals

    def winners(self) -> list[int]:
        if not self.over:
            return []
        if self.resigned is not None:
            return forfeit_winners(self, self.resigned)
        scores = self.scores()
        best = max(scores)
        tied = [p for p, s in enumerate(scores) if s == best]
        if len(tied) > 1 and self.game.tiebreak == "later_turn":
            order = self.last_mover[-1] if self.last_mover else []
            latest = {p: i for i, p in enumerate(order)}
            tied = [max(tied, key=lambda p: latest.get(p, -1))]
        return tied

    def copy(self) -> KozoState:
        other = object.__new__(KozoState)
        other.__dict__.update(self.__dict__)
        other.history = list(self.history)
        if self.game.random_size:  # else the generator is never drawn from: the copy may share it
            other.rng = random.Random()
            other.rng.setstate(self.rng.getstate())
        other.points = [list(r) for r in self.points]
        other.falls = list(self.falls)
        other.ends = list(self.ends)
        other.last_mover = [list(r) for r in self.last_mover]
        other.openers = list(self.openers)
        other.pool = list(self.pool)
        other.placed = list(self.placed)
        other.balances = list(self.balances)
        other.bodies = list(self.bodies)
        other.balance_bodies = list(self.balance_bodies)
        other.cells = dict(self.cells)
        other.top = dict(self.top)
        other.balance_top = dict(self.balance_top)
        return other

    def measures(self) -> dict[str, float]:
        """Falls in the game (``falls``) and by the seat that made the tower fall (``falls_seat_N``)."""
        out = {"falls": float(len(self.falls))}
        for p in range(self.game.players):
            out[f"falls_seat_{p}"] = float(sum(1 for fall in self.falls if fall.player == p))
        return out

    def to_json(self) -> dict[str, Any]:
        g = self.game
        cubes = sorted(
            (
                {"x": x, "y": y, "z": z, "piece": name, "player": player}
                for name, player, cells in self.placed
                for x, y, z in cells
            ),
            key=lambda c: (c["x"], c["y"], c["z"]),
        )
        return {
            "round": self.round,
            "rounds": g.rounds,
            "to_move": self.to_move,
            "pool": list(self.pool),
            "required_size": self.required_size,
            "cubes": cubes,
            "pieces": [
                {"piece": name, "player": player, "cells": [list(c) for c in cells]}
                for name, player, cells in self.placed
            ],
            "balance_cubes": [list(c) for c in self.balances],
            "points": [list(r) for r in self.points],
            "falls": [f.to_json() for f in self.falls],
            "fall": self.falls[-1].to_json() if self.falls else None,
            "ends": [dict(end) for end in self.ends],
            "margin_deg": round(self.margin(), 2),
        }

    def render(self) -> str:
        from kumiki.games.kozo.text import render_plain

        return render_plain(self)
