"""The way from the tower on the table to another, edit by edit: what the TowerBrix agents build with.

The solo agent's way is :func:`next_edit` (misplaced bricks first, then the missing ones bottom face first); the
teammate's is :func:`plan_edit` and :func:`fewest_edits`, which move each brick once where they can and never pass
through a sound tower before the last (so the others still read an unfinished repair as work in progress).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping, Sequence

from kumiki.games.towerbrix.bricks import Brick, connected, footprints_overlap, judge, place, rests_on
from kumiki.games.towerbrix.moves import apply_edit, parse_towerbrix_move, place_move
from kumiki.games.towerbrix.solver import TOL, build_order, meets_deck, shifted


def same_place(a: Brick, b: Brick) -> bool:
    return a.axis == b.axis and all(abs(p - q) <= TOL for p, q in zip(a.box, b.box, strict=True))


def carries(tower: Mapping[str, Brick], brick: Brick) -> bool:
    return any(other.id != brick.id and rests_on(other, brick) for other in tower.values())


def _above(tower: Mapping[str, Brick], bricks: Iterable[Brick]) -> list[Brick]:
    """The bricks of ``tower`` that carry nothing and rest, directly or through others, on one of ``bricks``."""
    seen = {b.id for b in bricks}
    todo = list(bricks)
    while todo:
        below = todo.pop()
        for other in tower.values():
            if other.id not in seen and rests_on(other, below):
                seen.add(other.id)
                todo.append(other)
    return [b for b in tower.values() if b.id in seen and not carries(tower, b)]


def place_edit(brick: Brick) -> str:
    """The placement that puts ``brick`` where it is (notation)."""
    return str(place_move(brick.id, brick.axis, brick.box[0], brick.box[1]))


def next_edit(current: Mapping[str, Brick], target: Sequence[Brick]) -> str | None:
    """The next edit (notation) from ``current`` towards ``target``, or None when they are the same tower."""
    goal = {b.id: b for b in target}
    wrong = [b for b in current.values() if b.id not in goal or not same_place(b, goal[b.id])]
    if wrong:
        free = [b for b in wrong if not carries(current, b)]
        if not free:  # every misplaced brick carries something: take away the highest brick above one of them
            above = _above(current, wrong)
            return f"-{max(above, key=lambda b: (b.box[5], b.id)).id}"
        for brick in sorted(free, key=lambda b: (-b.box[5], b.id)):
            if brick.id in goal:
                rest = {k: v for k, v in current.items() if k != brick.id}
                want = goal[brick.id]
                if same_place(place(rest, brick.id, want.axis, want.box[0], want.box[1]), want):
                    return place_edit(want)
        return f"-{max(free, key=lambda b: (b.box[5], b.id)).id}"
    for want in build_order(target):
        if want.id not in current:
            landed = place(current, want.id, want.axis, want.box[0], want.box[1])
            w = want.box
            blockers = [b for b in current.values() if b.box[2] >= w[5] - TOL and footprints_overlap(b.box, w)]
            if not same_place(landed, want) and blockers:  # a brick above its place stops it: take that away first
                return f"-{max(_above(current, blockers), key=lambda b: (b.box[5], b.id)).id}"
            return place_edit(want)
    return None


SHORT_LIFT = 4  # a plan that gets there only with another brick lifted than lift_choice's: at most this many edits


def after_edit(current: Mapping[str, Brick], edit: str) -> dict[str, Brick]:
    """The tower after the edit ``edit`` (notation) is played on ``current``."""
    return apply_edit(current, parse_towerbrix_move(edit))


def is_sound(deck: str, bricks: Sequence[Brick]) -> bool:
    """A tower that could be evaluated as it stands: the deck's bricks, connected, standing."""
    return bool(bricks) and meets_deck(bricks, deck) and connected(bricks) and judge(bricks).stands


def tower_key(bricks: Iterable[Brick]) -> frozenset[tuple[str, tuple[float, ...]]]:
    """The tower up to swapping the two bricks of one colour (no card can tell them apart)."""
    return frozenset((b.id[0], b.box) for b in bricks)


def same_tower(a: Mapping[str, Brick], b: Mapping[str, Brick]) -> bool:
    return tower_key(a.values()) == tower_key(b.values())


def edits_to(
    current: Mapping[str, Brick], target: Sequence[Brick], lift: bool, cap: int = 24
) -> tuple[int, str | None] | None:
    """(how many edits a plan from ``current`` to ``target`` takes, the brick it lifts first): with ``lift`` the
    plan begins by lifting a brick (:func:`lift_choices`, the first that lets :func:`plan_edit` get there), then
    follows :func:`plan_edit`; None if no such plan gets there within ``cap`` (within ``SHORT_LIFT`` edits when
    the brick lifted is not :func:`lift_choice`'s)."""
    if not lift:
        needed = plan_length(current, target, None, 0, cap)
        return None if needed is None else (needed, None)
    for index, hold in enumerate(lift_choices(current, target)):
        tower = {k: v for k, v in current.items() if k != hold}
        needed = plan_length(tower, target, hold, 1, cap if index == 0 else min(cap, SHORT_LIFT))
        if needed is not None:
            return needed, hold
    return None


def plan_length(
    current: Mapping[str, Brick], target: Sequence[Brick], hold: str | None, count: int = 0, cap: int = 24
) -> int | None:
    """``count`` + the edits :func:`plan_edit` takes from ``current`` to ``target`` with ``hold`` put back last;
    None if that does not get there within ``cap`` edits in all (e.g. the held brick's place is under another)."""
    path = _plan_path(current, target, hold, None, cap - count)
    return None if path is None else count + len(path)


def align(plan: Sequence[Brick], current: Mapping[str, Brick]) -> list[Brick]:
    """``plan`` shifted on the table and with the two bricks of a colour swapped where that leaves more bricks
    where they are now (a shifted tower stands and meets the same cards: the table is level and unbounded)."""

    def relabel(bricks: list[Brick]) -> list[Brick]:
        out = {b.id: b for b in bricks}
        for one, two in (("Y1", "Y2"), ("P1", "P2"), ("R1", "R2"), ("B1", "B2")):
            if one in out and two in out:
                keep = sum(1 for i in (one, two) if i in current and same_place(out[i], current[i]))
                swap = sum(1 for i, j in ((one, two), (two, one)) if i in current and same_place(out[j], current[i]))
                if swap > keep:
                    first, second = out[one], out[two]
                    out[one], out[two] = Brick(one, second.axis, second.box), Brick(two, first.axis, first.box)
        return list(out.values())

    best, best_count = list(plan), -1
    shifts = sorted({(c.box[0] - b.box[0], c.box[1] - b.box[1]) for b in plan for c in current.values()})
    for dx, dy in [(0.0, 0.0), *shifts]:
        moved = relabel(shifted(plan, dx, dy))
        count = sum(1 for b in moved if b.id in current and same_place(b, current[b.id]))
        if count > best_count:
            best, best_count = moved, count
    return best


def _ready(current: Mapping[str, Brick], want: Brick) -> bool:
    """Brick ``want.id`` (if in the tower, carrying nothing) can be put straight at its place ``want`` now."""
    rest = {k: v for k, v in current.items() if k != want.id}
    return same_place(place(rest, want.id, want.axis, want.box[0], want.box[1]), want)


def lift_choice(current: Mapping[str, Brick], target: Sequence[Brick]) -> str | None:
    """The brick a repair of several moves lifts first: a misplaced one that carries nothing, preferring one whose
    place is not ready yet (it would have to wait anyway), then the highest."""
    goal = {b.id: b for b in target}
    free = [b for b in current.values() if not carries(current, b)]
    free = [b for b in free if b.id not in goal or not same_place(b, goal[b.id])]
    if not free:
        return None
    return max(free, key=lambda b: (b.id not in goal or not _ready(current, goal[b.id]), b.box[5], b.id)).id


def lift_choices(current: Mapping[str, Brick], target: Sequence[Brick]) -> list[str]:
    """The bricks a repair of several moves may lift first, in order of preference: :func:`lift_choice`'s, then
    the other misplaced bricks that carry nothing, the one whose place in ``target`` is highest first (it is put
    back last, so nothing of the plan may have to rest on its place before it is back)."""
    first = lift_choice(current, target)
    if first is None:
        return []
    goal = {b.id: b for b in target}
    free = [b for b in current.values() if b.id != first and not carries(current, b)]
    free = [b for b in free if b.id in goal and not same_place(b, goal[b.id])]
    free.sort(key=lambda b: (-goal[b.id].box[5], -goal[b.id].box[2], b.id))
    return [first, *(b.id for b in free)]


def plan_edit(current: Mapping[str, Brick], target: Sequence[Brick], hold: str | None = None) -> str | None:
    """The next edit of a plan from ``current`` to ``target`` (None when they are the same tower), moving each
    brick once where it can: a brick not in ``target`` goes; then, bottom face first, a brick (missing, or
    misplaced and carrying nothing) whose place is ready is put there; ``hold`` (the lifted brick) comes last;
    only when nothing is ready is a misplaced brick, or a brick in the way, taken away."""
    goal = {b.id: b for b in target}
    for brick in current.values():
        if brick.id not in goal and not carries(current, brick):
            return f"-{brick.id}"
    order = [want for want in build_order(target) if want.id != hold]
    order += [goal[hold]] if hold in goal else []
    pending = [w for w in order if w.id not in current or not same_place(current[w.id], w)]
    if not pending:
        return None
    for want in pending:
        if want.id in current and carries(current, current[want.id]):
            continue
        if want.id == hold and len(pending) > 1:
            continue
        if _ready(current, want):
            return place_edit(want)
    wrong = [current[w.id] for w in pending if w.id in current]
    free = [b for b in wrong if not carries(current, b)]
    if free:
        return f"-{max(free, key=lambda b: (b.box[5], b.id)).id}"
    blocked = wrong + [
        b for w in pending for b in current.values() if b.box[2] >= w.box[5] - TOL and footprints_overlap(b.box, w.box)
    ]
    above = _above(current, blocked)
    return f"-{max(above, key=lambda b: (b.box[5], b.id)).id}" if above else None


def fewest_edits(current: Mapping[str, Brick], target: Sequence[Brick], deck: str, cap: int = 24) -> list[str] | None:
    """The shortest sequence of edits (notation) from ``current`` to ``target`` whose towers before the last are
    none of them sound (so the others wait until it is done, as they do while a lifted brick is off the table), or
    None if there is none within ``cap`` edits. Each brick is only ever where it is now, where ``target`` puts it
    or off the table; a brick moves only when it carries nothing (an A* search: every brick not yet in its place
    needs an edit)."""
    goal = {b.id: b for b in target}
    ids = sorted(set(current) | set(goal))
    spots = [(current.get(i), goal.get(i)) for i in ids]  # (now, wanted); off the table: None
    spots = [(None, b) if a is not None and b is not None and same_place(a, b) else (a, b) for a, b in spots]
    start = tuple(0 if a is not None else 1 if i in current else 2 for i, (a, _) in zip(ids, spots, strict=True))
    end = tuple(1 if b is not None else 2 for _, b in spots)

    def bricks(state: tuple[int, ...]) -> dict[str, Brick]:
        out: dict[str, Brick] = {}
        for i, (now, want), code in zip(ids, spots, state, strict=True):
            brick = now if code == 0 else want if code == 1 else None
            if brick is not None:
                out[i] = brick
        return out

    def away(state: tuple[int, ...]) -> int:
        return sum(code != want for code, want in zip(state, end, strict=True))

    sound: dict[tuple[int, ...], bool] = {}
    frontier: list[tuple[int, int, tuple[int, ...]]] = [(away(start), 0, start)]
    paths: dict[tuple[int, ...], tuple[tuple[int, ...] | None, str]] = {start: (None, "")}
    costs = {start: 0}
    while frontier:
        _, cost, state = heapq.heappop(frontier)
        cost = -cost
        if state == end:
            edits: list[str] = []
            while paths[state][0] is not None:
                before, edit = paths[state]
                edits.append(edit)
                state = before  # type: ignore[assignment]
            return edits[::-1]
        if cost > costs.get(state, cost) or cost + away(state) > cap:
            continue
        tower = bricks(state)
        for k, i in enumerate(ids):
            code = state[k]
            if code != 2 and carries(tower, tower[i]):
                continue
            rest = {j: b for j, b in tower.items() if j != i}
            for new in (2, 1, 0):
                spot = spots[k][new] if new < 2 else None
                if new == code or (new < 2 and spot is None):
                    continue
                if spot is not None and not same_place(place(rest, i, spot.axis, spot.box[0], spot.box[1]), spot):
                    continue
                after = (*state[:k], new, *state[k + 1 :])
                if after != end:
                    if after not in sound:
                        sound[after] = is_sound(deck, list(bricks(after).values()))
                    if sound[after]:
                        continue
                if cost + 1 < costs.get(after, cap + 1):  # ties: deeper first, then by state (whatever the cap)
                    costs[after] = cost + 1
                    paths[after] = (state, f"-{i}" if spot is None else place_edit(spot))
                    heapq.heappush(frontier, (cost + 1 + away(after), -cost - 1, after))
    return None


def _plan_path(
    current: Mapping[str, Brick], target: Sequence[Brick], hold: str | None, deck: str | None, cap: int = 24
) -> list[str] | None:
    """The edits :func:`plan_edit` plays from ``current`` to ``target`` (``hold`` put back last), or None if they do
    not get there within ``cap`` edits or (given the ``deck``) leave a sound tower before the last (the others
    would read it)."""
    tower, edits = dict(current), list[str]()
    goal = {b.id: b for b in target}
    while len(edits) <= cap:
        edit = plan_edit(tower, target, hold)
        if edit is None:
            return edits if same_tower(tower, goal) else None
        if edits and deck is not None and is_sound(deck, list(tower.values())):
            return None
        tower = after_edit(tower, edit)
        edits.append(edit)
    return None


def reaches(current: Mapping[str, Brick], target: Sequence[Brick], hold: str | None, deck: str) -> bool:
    """Whether :func:`plan_step` gets from ``current`` to ``target``."""
    return plan_length(current, target, hold) is not None or fewest_edits(current, target, deck) is not None


def plan_step(current: Mapping[str, Brick], target: Sequence[Brick], hold: str | None, deck: str) -> str | None:
    """The next edit of a plan from ``current`` to ``target``: :func:`plan_edit`'s (``hold`` put back last) unless
    :func:`fewest_edits` gets there in fewer edits, none of its towers before the last sound. A function of the
    towers alone, so a rebuilt memory makes the same edits (see :meth:`TeammateAgent._resume`)."""
    old = _plan_path(current, target, hold, deck)
    better = fewest_edits(current, target, deck, len(old) - 1 if old is not None else 24)
    if better:
        return better[0]
    return plan_edit(current, target, hold)
