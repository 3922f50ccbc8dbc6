"""Kozo's AI helpers: a cheap balance estimate for move ordering (kept in a table per placement), the prior, and the
heuristic playout the MCTS agent uses (docs/rules/kozo.md, "AI").

Nothing here changes a verdict: the judge (with its cache per tower, in rules.py) stays the referee. The rules do
not import this module: the agents find its hooks, ``move_values(state, moves)`` and ``heuristic_playout(state,
rng)``, by the game's name (``kumiki.agents.hooks``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kumiki.games.kozo.moves import KozoMove
from kumiki.games.kozo.pieces import Placement
from kumiki.geometry.polycube import Cell
from kumiki.physics.contacts import hull

if TYPE_CHECKING:
    from kumiki.games.kozo.rules import KozoState

FALL_PENALTY = 100.0  # a move that falls loses the round's points: far below any move that stands
HEIGHT_COST = 0.2  # prior points per level the piece reaches
WANTED = 6  # standing moves a node's prior looks for with the judge
BUDGET = 60  # moves it may put to the judge to find them
PLAYOUT_TURNS = 4  # turns a playout plays with the judge before the rest is scored as played without a fall
PLAN_BRANCH = 3  # a plan tries at most this many standing moves of a position, best prior first, ...
PLAN_POSITIONS = 60  # ... and weighs the moves of at most this many positions in all
PLAN_SEED = 0  # the variant's later size draws a plan assumes (never the game's own generator: no peeking)


def heuristic_playout(state: KozoState, rng: random.Random) -> None:
    """The MCTS hook: play a few turns of the current round (biggest pieces first, the judge refereeing), then score
    the rest and the later rounds as played without a fall; in place."""
    playout_round(state, rng)
    finish_later_rounds(state)


def _distance_outside(corners: list[tuple[float, float]], p: tuple[float, float]) -> float:
    """How far ``p`` lies outside the convex polygon ``corners`` (counter-clockwise), 0 if inside; inf if empty."""
    if not corners:
        return math.inf
    if len(corners) >= 3:
        inside = True
        for i, a in enumerate(corners):
            b = corners[(i + 1) % len(corners)]
            if (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) < 0:
                inside = False
                break
        if inside:
            return 0.0
    best = math.inf
    for i, a in enumerate(corners):
        b = corners[(i + 1) % len(corners)] if len(corners) > 1 else a
        best = min(best, _segment_distance(a, b, p))
    return best


def _segment_distance(a: tuple[float, float], b: tuple[float, float], p: tuple[float, float]) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = dx * dx + dy * dy
    t = 0.0 if length == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def own_slack(cells: tuple[Cell, ...], occupied: dict[Cell, int] | set[Cell]) -> float:
    """A cheap balance estimate for ordering moves (never a verdict): how far the piece's centre of mass lies inside
    the hull of the squares it rests on (the base or a polycube cube right below), negative if outside."""
    squares = [(x, y) for x, y, z in cells if z == 0 or (x, y, z - 1) in occupied]
    if not squares:
        return -1.0
    corners = hull([(x + dx, y + dy) for x, y in squares for dx in (0, 1) for dy in (0, 1)])
    cx = sum(x for x, _, _ in cells) / len(cells) + 0.5
    cy = sum(y for _, y, _ in cells) / len(cells) + 0.5
    outside = _distance_outside(corners, (cx, cy))
    if outside > 0:
        return -outside
    inside = math.inf
    for i, a in enumerate(corners):
        b = corners[(i + 1) % len(corners)]
        edge = math.hypot(b[0] - a[0], b[1] - a[1])
        inside = min(inside, ((b[0] - a[0]) * (cy - a[1]) - (b[1] - a[1]) * (cx - a[0])) / edge)
    return inside


_SLACKS: dict[tuple[tuple[Cell, ...], int], float] = {}  # own_slack by a placement's cells and which bottoms rest
SLACKS = 1_000_000  # entries kept before the table starts again


def placement_slack(state: KozoState, placement: Placement, level: int) -> float:
    """``own_slack`` of ``placement`` lowered to ``level`` on ``state``'s tower, from a table: it depends only on
    the placement and on which of its bottom cubes rest on something (the base, or a column's top cube)."""
    top = state.top
    mask = 0
    for i, (column, bottom) in enumerate(placement.bottoms):
        at = level + bottom
        if at == 0 or top[column] == at:
            mask |= 1 << i
    key = (placement.cells, mask)
    slack = _SLACKS.get(key)
    if slack is None:
        resting = {(x, y, level + bottom - 1) for i, ((x, y), bottom) in enumerate(placement.bottoms) if mask >> i & 1}
        slack = own_slack(tuple((x, y, z + level) for x, y, z in placement.cells), resting)
        if len(_SLACKS) >= SLACKS:
            _SLACKS.clear()
        _SLACKS[key] = slack
    return slack


def move_value(state: KozoState, move: KozoMove) -> float:
    """The one-ply prior of a move for the mover: the points it scores; how well the piece sits on what is under
    it (a piece hanging out of its support is the likeliest to fall); how low it stays (a squat tower keeps safe
    landing spots for one's own later turns, the last of a round being the most dangerous); and the balance cube
    placed high (it closes the top of a tall column, one landing spot fewer for the next player)."""
    g = state.game
    slack = own_slack(move.cells, state.cells)
    return _value(g.size[move.piece], slack, move)


def _value(size: int, slack: float, move: KozoMove) -> float:
    """``move_value`` from the piece's size and the placement's slack."""
    value = float(size)
    value += 2.0 * min(slack, 0.5) if slack >= 0 else -FALL_PENALTY * 0.05 + slack
    value -= HEIGHT_COST * max(z for _, _, z in move.cells)
    value += 0.05 * move.balance[2]
    return value


def move_values(state: KozoState, moves: list[KozoMove], wanted: int = WANTED, budget: int = BUDGET) -> list[float]:
    """``move_value`` of every move, and the best of them put to the judge (both steps, cached), best first, until
    ``wanted`` stand or ``budget`` were tried: a move that falls drops to the bottom. The MCTS agent grows a node's
    children best prior first (progressive widening), so the unchecked rest is rarely reached."""
    size = state.game.size
    slacks: dict[tuple[Cell, ...], float] = {}  # per placement: its moves differ only by the balance cube
    by_cells = _placements_by_cells(state)
    values = []
    for move in moves:
        slack = slacks.get(move.cells)
        if slack is None:
            placement, level = by_cells[move.piece, move.cells]
            slack = slacks[move.cells] = placement_slack(state, placement, level)
        values.append(_value(size[move.piece], slack, move))
    found = 0
    for i in sorted(range(len(moves)), key=values.__getitem__, reverse=True)[:budget]:
        if standing_after(state, moves[i]) is None:
            values[i] -= FALL_PENALTY
        else:
            found += 1
            if found >= wanted:
                break
    return values


def standing_after(state: KozoState, move: KozoMove) -> KozoState | None:
    """The position after ``move`` if the tower stands after both steps, else None (the judge decides, through the
    per-tower cache; the pre-check is not asked first: see "AI" in docs/rules/kozo.md for why)."""
    after = state.copy()
    falls = len(after.falls)
    after.play(move)
    return None if len(after.falls) > falls else after


def playout_round(state: KozoState, rng: random.Random, turns: int = PLAYOUT_TURNS, tries: int = 2) -> None:
    """Play up to ``turns`` turns of the current round, in place: each turn the mover takes the biggest pieces,
    the placements that sit well on their support first, in random order, each with a random balance spot, and
    keeps the first that the judge lets stand (after ``tries`` falls it plays the last one tried)."""
    start = state.round
    for _ in range(turns):
        if state.over or state.round != start:
            break
        picked = _pick_biggest(state, rng, tries)
        if not picked:
            break
        chosen = None
        move = None
        for placement, level in picked:
            cells = tuple((x, y, z + level) for x, y, z in placement.cells)
            move = KozoMove(placement.piece, cells, rng.choice(state.balance_spots(cells)))
            chosen = standing_after(state, move)
            if chosen is not None:
                break
        if chosen is None:
            assert move is not None
            state.play(move)
        else:
            state.__dict__.update(chosen.__dict__)


def _pick_biggest(state: KozoState, rng: random.Random, tries: int) -> list[tuple[Placement, int]]:
    """Up to ``tries`` placements of the biggest pieces the mover can lower, drawn at random, those that sit well on
    their support (positive slack) if there are any: the first of a random order of all of them, found by drawing
    placements one by one (a turn looks at a handful, not at every placement)."""
    g = state.game
    pool = set(state.pool)
    sizes = sorted({g.size[name] for name in pool}, reverse=True)
    if state.required_size is not None:
        sizes = [size for size in sizes if size == state.required_size]
    for size in sizes:
        placements = g.placements_by_size[size]
        good: list[tuple[Placement, int]] = []
        fallback: list[tuple[Placement, int]] = []
        for i in _random_order(len(placements), rng):
            placement = placements[i]
            if placement.piece not in pool:
                continue
            level = state.resting_level(placement)
            if level is None:
                continue
            if len(fallback) < tries:
                fallback.append((placement, level))
            if placement_slack(state, placement, level) > 0.0:
                good.append((placement, level))
                if len(good) >= tries:
                    break
        if fallback:
            return good or fallback
    return []


def _random_order(n: int, rng: random.Random) -> Iterator[int]:
    """0…n−1 in a uniformly random order, drawn lazily: random draws while few are taken, then a shuffle of the
    rest."""
    seen: set[int] = set()
    draw = rng.random
    while len(seen) * 4 < n:
        i = int(draw() * n)
        if i not in seen:
            seen.add(i)
            yield i
    rest = [i for i in range(n) if i not in seen]
    rng.shuffle(rest)
    yield from rest


def _placements_by_cells(state: KozoState) -> dict[tuple[str, tuple[Cell, ...]], tuple[Placement, int]]:
    """Every placement the mover may lower, by piece and lowered cells, with its level."""
    return {(name, cells): (placement, level) for name, found in state.lowered() for placement, level, cells in found}


def finish_later_rounds(state: KozoState) -> None:
    """Score the rest of the current round and every later round as played without a fall, largest pieces first,
    turns alternating (from the mover, then from each round's opener); then the game is over. A fast stand-in for
    playing them out: it keeps the points that are still to be had in the reward."""
    g = state.game
    sizes = sorted((g.size[name] for name in g.names), reverse=True)
    while not state.over:
        points = state.points[-1]
        if any(points) or state.placed:
            # A round in progress: finish it the same way from where it stands.
            left = sorted((g.size[name] for name in state.pool), reverse=True)
            mover = state.to_move if state.to_move is not None else 0
        else:
            left = sizes
            mover = state.openers[-1]
        for k, size in enumerate(left):
            points[(mover + k) % g.players] += size
        state.to_move = (mover + len(left)) % g.players  # the next round's opener, with opener "continue"
        state._end_round("placed")  # as if every polycube were placed


@dataclass(frozen=True)
class Plan:
    """A line of moves from a position to the end of its round, every move standing (the judge decides), and the
    cubes it places in all (its pieces' sizes); ``whole`` when it places the whole pool."""

    moves: tuple[KozoMove, ...]
    cubes: int
    whole: bool
    positions: int  # positions whose moves were weighed to find it


def plan_round(state: KozoState, branch: int = PLAN_BRANCH, positions: int = PLAN_POSITIONS) -> Plan:
    """The line that places the most cubes of the rest of the round standing, every mover playing along, found by a
    depth-first search: each position's moves by the prior (``move_values``: the largest pieces that sit well on
    their support and stay low first), at most ``branch`` standing ones each, the moves of at most ``positions``
    positions weighed in all; it stops at the first line that places the whole pool. Deterministic: from a position
    on a line that places the whole pool, the search finds the rest of that line again. In the variant, the sizes
    drawn after the first move come from a generator of its own (seeded PLAN_SEED), not from the game's: a plan
    never sees a draw to come."""
    g = state.game
    start = state.round
    weighed = 0
    best: tuple[int, tuple[KozoMove, ...], bool] = (-1, (), False)

    def search(position: KozoState, line: list[KozoMove], cubes: int) -> bool:
        nonlocal weighed, best
        ended = position.over or position.round != start
        whole = ended and position.ends[-1]["how"] == "placed"
        if cubes > best[0]:
            best = (cubes, tuple(line), whole)
        if ended:
            return whole
        moves = position.legal_moves()
        values = move_values(position, moves)
        weighed += 1
        tried = 0
        for i in sorted(range(len(moves)), key=lambda i: -values[i]):
            if tried >= branch or weighed >= positions or values[i] < -FALL_PENALTY / 2:  # the rest fall or are
                break  # not put to the judge
            after = standing_after(position, moves[i])
            if after is None:
                continue
            tried += 1
            line.append(moves[i])
            if search(after, line, cubes + g.size[moves[i].piece]):
                return True
            line.pop()
        return False

    root = state.copy()
    if g.random_size:
        root.rng = random.Random(PLAN_SEED)
    search(root, [], 0)
    cubes, moves, whole = best
    return Plan(moves, max(cubes, 0), whole, weighed)


# The hint's words, one wording for the terminal's ``hint`` and the browser's Hint button.
NO_PLAN_WORDS = "no move found that keeps the tower standing: try a small piece, low down, near the middle"


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'s' * (count != 1)}"


def plan_words(state: KozoState, plan: Plan) -> str:
    """What the line ``plan`` starts places, and who must follow it ("starts a line that places all 12 pieces left
    (45 cubes) standing, if you follow it"): the whole pool, or as many pieces as the planner found standing."""
    follow = "you follow it" if state.game.players == 1 else "every player follows it"
    if plan.whole:
        return (
            f"starts a line that places all {plural(len(plan.moves), 'piece')} left ({plan.cubes} cubes) "
            f"standing, if {follow}"
        )
    return (
        f"starts the best line found for the rest of the round: {len(plan.moves)} of the "
        f"{plural(len(state.pool), 'piece')} left ({plan.cubes} cubes) standing, if {follow}"
    )


def hint_words(state: KozoState) -> tuple[KozoMove | None, str]:
    """The move the hint suggests (the first of ``plan_round``'s line, None when no move stands) and one line: the
    move, then why."""
    plan = plan_round(state)
    if not plan.moves:
        return None, NO_PLAN_WORDS
    return plan.moves[0], f"{plan.moves[0]}: {plan_words(state, plan)}"
