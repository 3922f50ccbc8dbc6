"""Kozo's AI helpers: an exact pre-check that rejects certainly-falling placements before the LP, a cheap balance
estimate for move ordering, and the heuristic playout the MCTS agent uses (docs/rules/kozo.md, "AI").

Nothing here changes a verdict: the judge (with its cache per tower, in rules.py) stays the referee. The rules do
not import this module: the agents find its hooks, ``move_values(state, moves)`` and ``heuristic_playout(state,
rng)``, by the game's name (``kumiki.agents.hooks``).
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

from kumiki.games.kozo.rules import BASE_REGION  # the AI knows the rules, never the other way round
from kumiki.geometry.polycube import Cell
from kumiki.physics.contacts import find_interfaces, hull, support_points
from kumiki.physics.model import Tower, body_from_cells
from kumiki.physics.statics import EPSILON, TOLERANCE

if TYPE_CHECKING:
    from kumiki.games.kozo.moves import KozoMove
    from kumiki.games.kozo.rules import KozoState

CLEARLY_OUT = 1e-4  # cube edges: a centre of mass this far outside the grown support cannot be a rounding artefact
FALL_PENALTY = 100.0  # a move that falls loses the round's points: far below any move that stands
HEIGHT_COST = 0.2  # prior points per level the piece reaches
WANTED = 6  # standing moves a node's prior looks for with the judge
BUDGET = 60  # moves it may put to the judge to find them
PLAYOUT_TURNS = 4  # turns a playout plays with the judge before the rest is scored as played without a fall


def heuristic_playout(state: KozoState, rng: random.Random) -> None:
    """The MCTS hook: play a few turns of the current round (biggest pieces first, the judge refereeing), then score
    the rest and the later rounds as played without a fall; in place."""
    playout_round(state, rng)
    finish_later_rounds(state)


def move_falls(state: KozoState, move: KozoMove) -> bool:
    """The exact pre-check for a move: True only if the polycube of ``move`` must fall at step 1 (no LP solved)."""
    body = body_from_cells(move.piece, move.cells)
    tower = Tower((*state.bodies, body, *state.balance_bodies), BASE_REGION, "falls")
    return certainly_falls(tower, len(state.bodies))


def certainly_falls(tower: Tower, body: int) -> bool:
    """True only if ``body`` cannot be held, so the judge must say "falls" (and not on a knife edge).

    Exact where it answers True: ``body`` carries nothing (no contact presses on it from above), and for each
    horizontal axis its side contacts all face one way, so (frictionless, compressive only) they push with zero
    force; then only the contacts under it hold it, and it stands in the grown model only if its centre of mass is
    over the hull of their grown support points. Anything else (it carries something, it is pinched from both
    sides, the centre is within ``CLEARLY_OUT`` of that hull) returns False: the LP decides.
    """
    scale = tower.scale()
    interfaces = find_interfaces(tower, TOLERANCE * scale)
    sides: dict[int, set[bool]] = {0: set(), 1: set()}
    points: list[tuple[float, float]] = []
    for interface in interfaces:
        if body not in (interface.upper, interface.lower):
            continue
        if interface.axis == 2:
            if interface.lower == body:
                return False  # it carries something (perhaps along an edge): the LP decides
            points += support_points(interface, EPSILON * scale)
        else:
            sides[interface.axis].add(interface.upper == body)
    if any(len(facing) == 2 for facing in sides.values()):
        return False  # pinched: side forces could hold a moment
    x, y, _ = tower.bodies[body].centre
    return _distance_outside(hull(points), (x, y)) > CLEARLY_OUT


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


def move_value(state: KozoState, move: KozoMove) -> float:
    """The one-ply prior of a move for the mover: the points it scores; how well the piece sits on what is under
    it (a piece hanging out of its support is the likeliest to fall); how low it stays (a squat tower keeps safe
    landing spots for one's own later turns, the last of a round being the most dangerous); and the balance cube
    placed high (it closes the top of a tall column, one landing spot fewer for the next player)."""
    g = state.game
    slack = own_slack(move.cells, state.cells)
    value = float(g.size[move.piece])
    value += 2.0 * min(slack, 0.5) if slack >= 0 else -FALL_PENALTY * 0.05 + slack
    value -= HEIGHT_COST * max(z for _, _, z in move.cells)
    value += 0.05 * move.balance[2]
    return value


def move_values(state: KozoState, moves: list[KozoMove], wanted: int = WANTED, budget: int = BUDGET) -> list[float]:
    """``move_value`` of every move, and the best of them put to the judge (both steps, cached), best first, until
    ``wanted`` stand or ``budget`` were tried: a move that falls drops to the bottom. The MCTS agent grows a node's
    children best prior first (progressive widening), so the unchecked rest is rarely reached."""
    values = [move_value(state, move) for move in moves]
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
    """Play up to ``turns`` turns of the current round, in place: each turn the mover tries the biggest pieces
    first, placements in random order, those that sit well on their support first, and keeps the first that the
    judge lets stand (after ``tries`` falls it plays the last one tried)."""
    start = state.round
    for _ in range(turns):
        if state.over or state.round != start:
            break
        moves = state.legal_moves()
        if not moves:
            break
        g = state.game
        biggest = max(g.size[m.piece] for m in moves)
        pick = [m for m in moves if g.size[m.piece] == biggest]
        rng.shuffle(pick)
        good = [m for m in pick if own_slack(m.cells, state.cells) > 0] or pick
        chosen = None
        for move in good[:tries]:
            after = standing_after(state, move)
            if after is not None:
                chosen = after
                break
        if chosen is None:
            state.play(good[min(tries, len(good)) - 1])
        else:
            state.__dict__.update(chosen.__dict__)


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
            mover = state.round % g.players
        for k, size in enumerate(left):
            points[(mover + k) % g.players] += size
        state._end_round()
