"""Find a standing, connected tower that meets a set of condition cards, or say there is none in a stated space.

The method (why: see docs/towerbrix-solver.md) is a stochastic local search over whole towers, restarted, with the
physics judge as a check on every geometric change, and a final exhaustive phase over a fixed, finite space:

- Geometry and colour are separate. All bricks have one shape and one density, so whether a tower stands and is
  connected does not depend on which colour sits where. Recolouring (swapping two bricks of different colours) is a
  free move, and the judge's verdict is cached by geometry alone. Swapping two bricks of the same colour changes
  nothing, so it is never tried (the identical-colour symmetry).
- A tower is built bottom-up by lowering bricks onto it, exactly as the game places them, so every tower the solver
  returns can be replayed edit by edit (bricks in order of their bottom face).
- The score is the number of cards that hold, then the bonus points; a move that keeps or raises the score is taken,
  a worse one with a small probability, and a stale search restarts from a new random tower.
- ``none`` is only ever said about the *refutation space*: the fixed library of ``LIBRARY_SIZE`` towers built from
  ``LIBRARY_SEED`` (grid 0.5, axes x, y and z, every brick within the 9 x 9 window around the first) combined with
  every colouring of their bricks. It proves a set of cards contradictory on colours alone; it says nothing about
  towers outside the library, and the answer names the space.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kumiki.games.towerbrix.bricks import AXES, Brick, connected, judge, place
from kumiki.games.towerbrix.cards import read_deck
from kumiki.games.towerbrix.conditions import COLOUR_OF_LETTER, COLOURS
from kumiki.games.towerbrix.conditions import Tower as Facts
from kumiki.games.towerbrix.modes import (
    CHALLENGES,
    MAP_TOWERS,
    MAPS,
    GroundMap,
    challenge_problems,
)
from kumiki.games.towerbrix.moves import lowered
from kumiki.games.towerbrix.options import TOWERBRIX_OPTIONS
from kumiki.games.towerbrix.scoring import bonus as _game_bonus

GREEN_IDS: tuple[str, ...] = ("Y1", "Y2", "P1", "P2", "R1", "R2", "B1", "B2")
PINK_IDS: tuple[str, ...] = (*GREEN_IDS, "G")
BOX_SIDES = (9.0, 6.0)
LIBRARY_SEED = 2024
LIBRARY_SIZE = 12
WINDOW = 9.0
TOL = 1e-9

Rule = Callable[[Sequence[Brick]], bool]


@dataclass
class Solution:
    """The solver's answer: ``status`` is "solved", "none" (no tower in ``space``) or "unknown" (time ran out)."""

    status: str
    bricks: list[Brick] = field(default_factory=list)
    bonus: int = 0
    seconds: float = 0.0
    space: str = ""
    closest: list[Brick] = field(default_factory=list)  # "unknown": the valid tower meeting the most cards seen

    def to_json(self) -> dict[str, Any]:
        """The contract's form, plus ``space`` (which towers a "none" speaks about)."""
        return {
            "status": self.status,
            "bricks": [b.to_json() for b in sorted(self.bricks, key=_build_order)],
            "bonus": self.bonus,
            "seconds": round(self.seconds, 3),
            "space": self.space,
        }


def _build_order(brick: Brick) -> tuple[float, str]:
    return (brick.box[2], brick.id)


def build_order(bricks: Iterable[Brick]) -> list[Brick]:
    """The bricks in an order that rebuilds the tower by lowering: bottom face first (ties by id)."""
    return sorted(bricks, key=_build_order)


def on_table_count(bricks: Iterable[Brick]) -> int:
    return sum(1 for b in bricks if abs(b.box[2]) <= TOL)


def bonus(bricks: Sequence[Brick], box: tuple[float, float] = BOX_SIDES) -> int:
    """The game's bonus (:func:`kumiki.games.towerbrix.scoring.bonus`) for a box of sides ``box``; 0 for no bricks."""
    return _game_bonus(bricks, min(box), max(box)) if bricks else 0


def deck_ids(deck: str) -> tuple[str, ...]:
    return PINK_IDS if deck == "pink" else GREEN_IDS


def meets_deck(bricks: Sequence[Brick], deck: str) -> bool:
    """Green: exactly the eight coloured bricks; pink: at least one brick of each of the five colours."""
    ids = {b.id for b in bricks}
    if deck == "pink":
        return {i[0] for i in ids} >= {"Y", "P", "R", "B", "G"}
    return ids == set(GREEN_IDS)


def _geometry_key(bricks: Iterable[Brick]) -> tuple[tuple[float, ...], ...]:
    return tuple(sorted(b.box for b in bricks))


class _Checker:
    """Cards, deck and an optional extra rule, evaluated with a shared precomputation when the cards offer one."""

    def __init__(self, cards: Sequence[Any], deck: str, rule: Rule | None, skip_one: bool) -> None:
        self.cards = list(cards)
        self.deck = deck
        self.rule = rule
        self.skip_one = skip_one
        self._stands: dict[tuple[tuple[float, ...], ...], bool] = {}
        self.judged = 0

    def valid(self, bricks: Sequence[Brick]) -> bool:
        """Connected and standing (the judge, tie "falls"); cached by geometry, as colour never matters."""
        key = _geometry_key(bricks)
        hit = self._stands.get(key)
        if hit is None:
            hit = _tops_balance(bricks) and connected(bricks) and judge(bricks).stands
            self._stands[key] = hit
            self.judged += 1
        return hit

    def held(self, bricks: Sequence[Brick]) -> int:
        """How many cards hold (the rule counts as one more card)."""
        # Cards with the fast form share one precomputation of the tower's facts; others check the bricks.
        facts = Facts.of(bricks) if self.cards and hasattr(self.cards[0], "check") else None
        count = 0
        for card in self.cards:
            count += bool(card.check(facts) if facts is not None else card.holds(list(bricks)))
        if self.rule is not None:
            count += bool(self.rule(bricks))
        return count

    def target(self) -> int:
        return len(self.cards) + (self.rule is not None) - (1 if self.skip_one and self.cards else 0)

    def solved(self, bricks: Sequence[Brick], held: int | None = None) -> bool:
        if not meets_deck(bricks, self.deck):
            return False
        held = self.held(bricks) if held is None else held
        if self.rule is not None and not self.rule(bricks):
            return False
        return held >= self.target()


def _tops_balance(bricks: Sequence[Brick]) -> bool:
    """A cheap necessary condition for standing, tried before the judge: every brick off the table that carries
    nothing has its centre strictly inside the bounding rectangle of the faces it rests on."""
    for brick in bricks:
        x0, y0, z0, x1, y1, _ = brick.box
        if z0 <= TOL or any(abs(o.box[2] - brick.box[5]) <= TOL and _overlap2(o.box, brick.box) for o in bricks):
            continue
        lo_x = lo_y = math.inf
        hi_x = hi_y = -math.inf
        for o in bricks:
            if abs(o.box[5] - z0) <= TOL and _overlap2(o.box, brick.box):
                lo_x, hi_x = min(lo_x, max(x0, o.box[0])), max(hi_x, min(x1, o.box[3]))
                lo_y, hi_y = min(lo_y, max(y0, o.box[1])), max(hi_y, min(y1, o.box[4]))
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        if not (lo_x + TOL < cx < hi_x - TOL and lo_y + TOL < cy < hi_y - TOL):
            return False
    return True


def _candidate(rng: random.Random, tower: Mapping[str, Brick], brick_id: str, grid: float) -> Brick:
    """A random placement of ``brick_id`` against a random brick of ``tower``: on top of it or beside it."""
    axis = rng.choice(AXES)
    others = [b for b in tower.values() if b.id != brick_id]
    if not others:
        return place({}, brick_id, axis, 0.0, 0.0)
    anchor = rng.choice(others)
    x0, y0, _, x1, y1, _ = anchor.box
    dx, dy = {"x": (2.0, 1.0), "y": (1.0, 2.0), "z": (1.0, 1.0)}[axis]
    xs = _steps(x0 - dx, x1, grid)
    ys = _steps(y0 - dy, y1, grid)
    return place(tower, brick_id, axis, rng.choice(xs), rng.choice(ys))


def _steps(lo: float, hi: float, grid: float) -> list[float]:
    count = round((hi - lo) / grid)
    return [lo + k * grid for k in range(count + 1)]


def _carried(tower: Mapping[str, Brick], brick: Brick) -> bool:
    """Something rests on ``brick`` (its top face, area > 0)."""
    top = brick.box[5]
    for other in tower.values():
        if other.id != brick.id and abs(other.box[2] - top) <= TOL and _overlap2(other.box, brick.box):
            return True
    return False


def _overlap2(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return min(a[3], b[3]) - max(a[0], b[0]) > TOL and min(a[4], b[4]) - max(a[1], b[1]) > TOL


def random_tower(
    rng: random.Random, ids: Sequence[str], checker: _Checker, grid: float = 0.5, tries: int = 40
) -> dict[str, Brick]:
    """A connected standing tower of ``ids``, built bottom-up by lowering bricks in a random order."""
    while True:
        order = list(ids)
        rng.shuffle(order)
        tower: dict[str, Brick] = {}
        for brick_id in order:
            for _ in range(tries):
                brick = _candidate(rng, tower, brick_id, grid)
                trial = {**tower, brick_id: brick}
                if checker.valid(list(trial.values())):
                    tower = trial
                    break
            else:
                break
        if len(tower) == len(order):
            return tower


def _begin(
    rng: random.Random, start: Sequence[Brick] | None, ids: Sequence[str], checker: _Checker, grid: float
) -> dict[str, Brick]:
    """The search's first tower: ``start`` (or the largest part of it that can be rebuilt bottom-up and stays valid at
    every step), else a random tower; bricks of ``ids`` it lacks are added."""
    tower: dict[str, Brick] | None = None
    if start and checker.valid([b for b in start if b.id in ids]):
        tower = {b.id: b for b in start if b.id in ids}  # valid as it stands (a bridge may not be, half built)
    elif start:
        tower = {}
        for brick in build_order(b for b in start if b.id in ids):
            landed = place(tower, brick.id, brick.axis, brick.box[0], brick.box[1])
            trial = {**tower, brick.id: landed}
            if landed.box == brick.box and checker.valid(list(trial.values())):
                tower = trial
        tower = tower or None
    if tower is None:
        tower = random_tower(rng, ids, checker, grid)
    # Pink towers start with all nine bricks and may shed some; a start tower may lack bricks: add them.
    for brick_id in ids:
        if brick_id not in tower:
            for _ in range(200):
                trial = {**tower, brick_id: _candidate(rng, tower, brick_id, grid)}
                if checker.valid(list(trial.values())):
                    tower = trial
                    break
    return tower


def _recolour(tower: Mapping[str, Brick], a: str, b: str) -> dict[str, Brick]:
    """Swap the places of bricks ``a`` and ``b`` (a colour swap; the geometry is unchanged)."""
    out = dict(tower)
    out[a] = Brick(a, tower[b].axis, tower[b].box)
    out[b] = Brick(b, tower[a].axis, tower[a].box)
    return out


def _neighbour(
    rng: random.Random, tower: dict[str, Brick], checker: _Checker, deck: str, grid: float
) -> dict[str, Brick] | None:
    """One random change of the tower that keeps it valid, or None if the change tried did not."""
    ids = list(tower)
    roll = rng.random()
    if roll < 0.45:
        a, b = rng.sample(ids, 2)
        if a[0] == b[0]:
            return None
        return _recolour(tower, a, b)
    if deck == "pink" and roll < 0.55:
        unused = [i for i in PINK_IDS if i not in tower]
        if unused and rng.random() < 0.5:
            brick_id = rng.choice(unused)
            trial = {**tower, brick_id: _candidate(rng, tower, brick_id, grid)}
        else:
            free = [b for b in tower.values() if not _carried(tower, b)]
            brick = rng.choice(free)
            if sum(1 for i in tower if i[0] == brick.id[0]) < 2:
                return None
            trial = {k: v for k, v in tower.items() if k != brick.id}
        return trial if checker.valid(list(trial.values())) else None
    free = [b for b in tower.values() if not _carried(tower, b)]
    brick = rng.choice(free)
    rest = {k: v for k, v in tower.items() if k != brick.id}
    if rng.random() < 0.3 and len(rest) > 1:
        # Move it onto the tower's highest brick: the way to height and the bonus.
        top = max(rest.values(), key=lambda b: b.box[5])
        axis = rng.choice(AXES)
        x0, y0, _, x1, y1, _ = top.box
        moved = place(
            rest, brick.id, axis, rng.choice(_steps(x0 - 1, x1 - 0.5, grid)), rng.choice(_steps(y0 - 1, y1 - 0.5, grid))
        )
    else:
        moved = _candidate(rng, rest, brick.id, grid)
    trial = {**rest, brick.id: moved}
    return trial if checker.valid(list(trial.values())) else None


SWEEP_AFTER = 0.4  # seconds of local search before the refutation space is swept
CONFIRM = 0.5  # after a sweep that found nothing, the search goes on until this share of the time limit ...
CONFIRM_AFTER_SWEEP = 0.4  # ... and at least this many seconds after the sweep; then it answers "none"
KEEP_COST = 0.4  # score lost per brick changed from the start tower, when keeping it: < 1 card


def _score(
    checker: _Checker,
    tower: Mapping[str, Brick],
    box: tuple[float, float],
    anchor: Mapping[str, Brick] | None = None,
    costs: Mapping[str, float] | None = None,
    extra: Callable[[Sequence[Brick]], float] | None = None,
) -> tuple[int, float]:
    """(cards held, score): the cards, then a hundredth a bonus point, less the cost of every brick moved from
    ``anchor`` (``costs[id]``, by default ``KEEP_COST``)."""
    bricks = list(tower.values())
    held = checker.held(bricks)
    score = held + 0.01 * bonus(bricks, box)
    if anchor is not None:
        costs = costs or {}
        moved = [i for i, b in tower.items() if i not in anchor or anchor[i].box != b.box]
        moved += [i for i in anchor if i not in tower]
        score -= sum(costs.get(i, KEEP_COST) for i in moved)
    if extra is not None:
        score -= extra(bricks)
    return held, score


_LIBRARIES: dict[tuple[tuple[str, ...], float], list[dict[str, Brick]]] = {}
_COLOURINGS: dict[tuple[str, ...], list[tuple[str, ...]]] = {}


def _library(checker: _Checker, ids: Sequence[str], grid: float) -> list[dict[str, Brick]]:
    """The refutation space's towers: fixed by the seed, independent of the cards (built once per process)."""
    key = (tuple(ids), grid)
    if key not in _LIBRARIES:
        rng = random.Random(LIBRARY_SEED)
        _LIBRARIES[key] = [random_tower(rng, ids, checker, grid) for _ in range(LIBRARY_SIZE)]
    return _LIBRARIES[key]


def library_meets(rule: Rule, deck: str, grid: float = 0.5) -> bool:
    """Whether some tower of the refutation library meets ``rule``, a rule on the shape alone (a challenge's: its
    colouring does not matter). If none does, a sweep of the library could only ever answer "none", whatever the
    cards: the cards would not be shown contradictory, and the search would stop at half its time."""
    ids = deck_ids(deck)
    return any(rule(list(tower.values())) for tower in _library(_Checker([], deck, None, False), ids, grid))


def _colourings(ids: Sequence[str]) -> list[tuple[str, ...]]:
    """Every distinct assignment of the bricks ``ids`` to places 0..n-1, up to swapping bricks of one colour."""
    key = tuple(ids)
    if key in _COLOURINGS:
        return _COLOURINGS[key]
    colours = sorted(i[0] for i in ids)
    seen: set[tuple[str, ...]] = set()
    out = []
    for perm in itertools.permutations(colours):
        if perm in seen:
            continue
        seen.add(perm)
        counters: dict[str, int] = {}
        named = []
        for c in perm:
            counters[c] = counters.get(c, 0) + 1
            named.append(c if c == "G" else f"{c}{counters[c]}")
        out.append(tuple(named))
    _COLOURINGS[key] = out
    return out


def _refute(checker: _Checker, ids: Sequence[str], grid: float, deadline: float) -> Solution | None:
    """Every colouring of every library tower; a solution, a "none" for that space, or None when time ran out.

    The geometry of a library tower is the same under every colouring, so its relations are computed once and only
    the colour masks change; a colouring is checked in full (deck, rule, every card) only when the cards pass."""
    fast = all(hasattr(card, "check") for card in checker.cards)
    slack = 1 if checker.skip_one and checker.cards else 0
    for shape in _library(checker, ids, grid):
        boxes = [(b.axis, b.box) for b in shape.values()]
        facts = Facts(list(shape.values())) if fast else None
        for k, names in enumerate(_colourings(ids)):
            if k % 256 == 0 and time.monotonic() > deadline:
                return None
            if facts is not None:
                colour = dict.fromkeys(COLOURS, 0)
                for i, name in enumerate(names):
                    colour[COLOUR_OF_LETTER[name[0]]] |= 1 << i
                facts.recolour(colour)
                misses = 0
                for card in checker.cards:
                    if not card.check(facts):
                        misses += 1
                        if misses > slack:
                            break
                if misses > slack:
                    continue
            bricks = [Brick(n, axis, box) for n, (axis, box) in zip(names, boxes, strict=True)]
            if checker.solved(bricks):
                return Solution("solved", bricks, bonus(bricks))
    return Solution("none")


def refutation_space(deck: str) -> str:
    ids = "eight coloured bricks" if deck != "pink" else "all nine bricks"
    return (
        f"refutation space: {LIBRARY_SIZE} library towers of the {ids} (seed {LIBRARY_SEED}, grid 0.5, axes x/y/z, "
        "built by lowering) x every colouring"
    )


def solve(
    cards: Sequence[Any],
    deck: str = "green",
    rule: Rule | None = None,
    seconds: float = 10.0,
    seed: int = 0,
    grid: float = 0.5,
    box: tuple[float, float] = BOX_SIDES,
    skip_one: bool = False,
    start: Sequence[Brick] | None = None,
    keep: bool = False,
    polish: float = 0.25,
    refute: bool = True,
    costs: Mapping[str, float] | None = None,
    extra: Callable[[Sequence[Brick]], float] | None = None,
    iterations: int | None = None,
    polish_steps: int | None = None,
    starts: Sequence[Sequence[Brick]] = (),
) -> Solution:
    """A valid standing connected tower meeting every card (and ``rule``), preferring more bonus points.

    ``skip_one``: one card may fail (challenges 9 and 13). ``start``: a tower to begin from (the teammate agent keeps
    what it can of it). ``keep``: prefer, among towers that meet the cards, those that move fewer bricks of
    ``start``. ``polish``: seconds spent after the first solution looking for more bonus points.
    ``refute``: spend the middle of the time on the refutation space, which can answer "none".
    ``costs``: with ``keep``, the score lost for moving each brick of ``start`` (default ``KEEP_COST``).
    ``extra``: a further score lost by a tower (the teammate: the others' cards it probably breaks).
    ``iterations``: bound the search by this many steps (changes tried) instead of the clock, so that a seeded
    search gives the same answer on any machine under any load (``seconds`` is then ignored); after the first
    solution it polishes for ``polish_steps`` more steps (default a quarter of ``iterations``), and the refutation
    sweep, if any, comes after a fifth of the steps.
    ``starts``: towers to begin from (the first, when ``start`` is None) and to restart from in turn, instead of a
    random tower, when the search is stale and ``keep`` does not tie it to ``start`` (a map: :func:`map_starts`).
    """
    began = time.monotonic()
    deadline = began + seconds
    rng = random.Random(seed)
    ids = deck_ids(deck)
    checker = _Checker(cards, deck, rule, skip_one)
    best: list[Brick] | None = None
    best_bonus = -1
    best_score = -math.inf
    closest: tuple[float, list[Brick]] = (-math.inf, [])
    solved_at: float | None = None
    refuted = not refute
    refuted_none = False
    confirm_until = deadline
    restart_after = 400

    def finish(status: str, bricks: list[Brick] | None = None, space: str = "") -> Solution:
        bricks = build_order(bricks or [])  # bottom face first, as documented: replayed in this order, it is the tower
        return Solution(status, bricks, bonus(bricks, box) if bricks else 0, time.monotonic() - began, space)

    again = [list(t) for t in starts]  # the towers restarts begin from, in turn
    if start is None and again:
        start = again[0]
    tower = _begin(rng, start, ids, checker, grid)
    restarts = 0
    anchor = {b.id: b for b in start} if keep and start else None
    first = dict(tower)
    held, score = _score(checker, tower, box, anchor, costs, extra)
    stale = 0
    counted = iterations is not None
    if counted:
        deadline = confirm_until = math.inf
    steps = 0
    solved_step = 0
    polish_steps = max(1, (iterations or 0) // 4) if polish_steps is None else polish_steps
    while True:
        steps += 1
        if counted:
            if steps > (iterations or 0):
                break
            if solved_at is not None and (
                steps - solved_step > polish_steps or (best_bonus >= 5 and anchor is None and extra is None)
            ):
                break
            sweep = steps > (iterations or 0) // 5
        else:
            now = time.monotonic()
            if now > deadline or (refuted_none and now > confirm_until):
                break
            if solved_at is not None and (
                now - solved_at > polish or (best_bonus >= 5 and anchor is None and extra is None)
            ):
                break
            sweep = now - began > min(seconds * 0.5, SWEEP_AFTER)
        if not refuted and solved_at is None and sweep:
            refuted = True
            answer = _refute(checker, ids, grid, math.inf if counted else began + seconds * 0.8)
            refuted_none = answer is not None and answer.status == "none"
            confirm_until = max(began + CONFIRM * seconds, time.monotonic() + CONFIRM_AFTER_SWEEP)
            confirm_until = math.inf if counted else min(confirm_until, began + 0.9 * seconds)
            if answer is not None and answer.bricks:
                best, best_bonus, solved_at, solved_step = answer.bricks, answer.bonus, time.monotonic(), steps
        bricks = list(tower.values())
        if score > best_score and checker.solved(bricks, held):
            best, best_bonus, best_score = bricks, bonus(bricks, box), score
            if solved_at is None:
                solved_at, solved_step = time.monotonic(), steps
        neighbour = _neighbour(rng, tower, checker, deck, grid)
        if neighbour is None:
            continue
        new_held, new_score = _score(checker, neighbour, box, anchor, costs, extra)
        worse = math.exp((new_score - score) / 0.4) * 0.3
        if new_score >= score or rng.random() < worse:
            stale = 0 if new_score > score else stale + 1
            tower, held, score = neighbour, new_held, new_score
        else:
            stale += 1
        if score > closest[0]:
            closest = (score, list(tower.values()))
        if stale > restart_after and best is None:
            if anchor is not None:
                tower = dict(first)
            elif again:
                restarts += 1
                tower = _begin(rng, again[restarts % len(again)], ids, checker, grid)
            else:
                tower = random_tower(rng, ids, checker, grid)
            held, score = _score(checker, tower, box, anchor, costs, extra)
            stale = 0
    if best is not None:
        return finish("solved", best)
    if refuted_none:
        return finish("none", space=refutation_space(deck))
    answer = finish("unknown", space="")
    answer.closest = closest[1]
    return answer


# ---------------------------------------------------------------------------------------------------- challenges

#: Challenges about time, talk or the course of play (2, 3, 8, 10): as a rule on the finished tower they add nothing.
NO_TOWER_RULE = frozenset({2, 3, 8, 10})
LONG_SIDE = 2.0  # a standing brick's height, in the solver's default brick


def challenge_rule(number: int, shake_deg: float = 3.0, pull_deg: float = 6.0) -> tuple[Rule | None, bool]:
    """The tower rule of challenge ``number`` (None when it has none) and whether one card may fail.

    The rule is the game's own (:func:`kumiki.games.towerbrix.modes.challenge_problems`), with the default thresholds
    of challenges 5 and 12; on a map (11, 14) it holds when some shift of the tower on the grid meets the map
    (:func:`map_offset`), since the solver never fixes where a tower stands. ValueError for an unknown number.
    """
    if number not in CHALLENGES:
        raise ValueError(f"unknown challenge {number} (challenges: 1-14)")
    waive_one = CHALLENGES[number].waive_one
    if number in NO_TOWER_RULE:
        return None, waive_one
    if number in MAPS:
        ground = MAPS[number]
        return (lambda bricks: map_offset(bricks, ground) is not None), waive_one
    most_on_table = {5: 3, 7: 3, 12: 4}.get(number)
    margins: dict[tuple[tuple[float, ...], ...], float] = {}

    def margin(bricks: Sequence[Brick]) -> float:
        key = _geometry_key(bricks)
        if key not in margins:
            margins[key] = judge(bricks, margin=True).margin_deg
        return margins[key]

    def rule(bricks: Sequence[Brick]) -> bool:
        if most_on_table is not None and on_table_count(bricks) > most_on_table:
            return False  # the cheap half first: the margin and the budget cut cost solves of the judge
        tilt = margin(bricks) if number in (5, 12) else 0.0
        return not challenge_problems(number, bricks, tilt, LONG_SIDE, shake_deg, pull_deg)

    return rule, waive_one


def map_starts(number: int) -> list[list[Brick]]:
    """The towers a search on map ``number`` (11, 14) starts and restarts from, in turn: ``modes.MAP_TOWERS``."""
    return [list(lowered(edits).values()) for edits in MAP_TOWERS[number]]


def map_offset(bricks: Sequence[Brick], ground: GroundMap, grid: float = 0.5) -> tuple[float, float] | None:
    """A shift (dx, dy) on the grid that puts the tower on the map as challenges 11 and 14 ask, or None.

    Only the bricks on the table matter to a map. Every shift that brings them over the map is tried, the smallest x
    first, then the smallest y; the answer is cached by the shape of the tower's footprint, wherever the tower stands.
    """
    table = sorted(b.box for b in bricks if abs(b.box[2]) <= TOL)
    if not table:
        return None
    ox, oy = min(b[0] for b in table), min(b[1] for b in table)
    fit = _fit(tuple((b[0] - ox, b[1] - oy, b[3] - ox, b[4] - oy) for b in table), ground, grid)
    return None if fit is None else (fit[0] - ox, fit[1] - oy)


@functools.lru_cache(maxsize=4096)
def _fit(footprint: tuple[tuple[float, ...], ...], ground: GroundMap, grid: float) -> tuple[float, float] | None:
    x0, y0, x1, y1 = ground.area
    width = max(b[2] for b in footprint)
    depth = max(b[3] for b in footprint)
    land = ground.land()
    # modes.map_problems on the shifted bricks, inlined (it was nine tenths of a swamp search's time): every brick
    # wholly on land, every foundation under some brick.
    for dx in _steps(x0 - width, x1, grid):
        for dy in _steps(y0 - depth, y1, grid):
            moved = [(b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy) for b in footprint]
            if all(
                any(
                    f[0] - TOL <= q[0] and q[2] <= f[2] + TOL and f[1] - TOL <= q[1] and q[3] <= f[3] + TOL
                    for f in land
                )
                for q in moved
            ) and all(
                any(min(q[2], f[2]) - max(q[0], f[0]) > TOL and min(q[3], f[3]) - max(q[1], f[1]) > TOL for q in moved)
                for f in ground.foundations
            ):
                return (dx, dy)
    return None


def shifted(bricks: Sequence[Brick], dx: float, dy: float) -> list[Brick]:
    """The tower moved by (dx, dy) on the table."""
    return [
        Brick(b.id, b.axis, (b.box[0] + dx, b.box[1] + dy, b.box[2], b.box[3] + dx, b.box[4] + dy, b.box[5]))
        for b in bricks
    ]


def solve_cards(
    card_ids: Sequence[str],
    deck: str = "green",
    challenge: int | None = None,
    seconds: float = 10.0,
    seed: int = 0,
    steps: int | None = None,
    shake_deg: float = 3.0,
    pull_deg: float = 6.0,
) -> Solution:
    """``solve`` on cards named by id (``G03``) from ``deck`` (green, pink or a deck file, played with the bricks the
    file names); ValueError names an unknown card, and CardError (a ValueError) a deck that cannot be read.
    ``steps``: bound the search by steps instead of seconds (``solve``'s ``iterations``). ``shake_deg`` and
    ``pull_deg``: challenges 5 and 12's thresholds, as the game's options of those names (a game played with others
    asked the solver for the defaults' towers)."""
    deck_cards, bricks = read_deck(deck)
    by_id = {card.id: card for card in deck_cards}
    wanted = [c.strip() for c in card_ids if c.strip()]
    if not wanted:
        raise ValueError("no cards given (write them as --cards G03,G17)")
    unknown = [c for c in wanted if c not in by_id]
    if unknown:
        raise ValueError(f"unknown card {unknown[0]!r} in the deck {deck}")
    if len(set(wanted)) != len(wanted):
        raise ValueError("a card is named twice")
    if not (seconds > 0 and math.isfinite(seconds)):  # inf would search forever where no tower exists
        raise ValueError(f"--seconds must be a positive number of seconds, and finite, not {seconds:g}")
    spec = {o.name: o for o in TOWERBRIX_OPTIONS}  # the game's own bounds, not stated again
    for name, value in (("shake_deg", shake_deg), ("pull_deg", pull_deg)):
        low, high = spec[name].minimum, spec[name].maximum
        assert low is not None and high is not None, "both options are bounded"
        if not low <= value <= high:
            raise ValueError(
                f"{name} (--{name.replace('_', '-')}) is an angle from {low:g} to {high:g} degrees, not {value:g}"
            )
    rule, skip_one = challenge_rule(challenge, shake_deg, pull_deg) if challenge is not None else (None, False)
    starts = map_starts(challenge) if challenge in MAPS else []  # a blind search almost never builds a bridge
    cards = [by_id[c] for c in wanted]
    # The refutation library holds no bridge: on a map it could only ever answer "none", so it is not swept; nor
    # where no library tower has the shape a challenge asks for (one brick on the table, height 8, a mirror...).
    refute = challenge not in MAPS and (rule is None or library_meets(rule, bricks))
    answer = solve(
        cards, bricks, rule=rule, seconds=seconds, seed=seed, skip_one=skip_one, refute=refute,
        iterations=steps, starts=starts,
    )  # fmt: skip
    if challenge in MAPS and answer.bricks:
        offset = map_offset(answer.bricks, MAPS[challenge])
        if offset is not None:
            answer.bricks = shifted(answer.bricks, *offset)
    if challenge is not None:
        answer.bonus = 0  # a challenge scores 1 or 0, with no bonus points (the tower's own would mislead)
    return answer
