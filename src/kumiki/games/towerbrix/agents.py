"""TowerBrix agents: a solo builder that follows the solver's tower, and a teammate that knows only its own cards.

Both see the game only through ``state.view(player)`` (the bricks on the table, their own cards, who said ok, the edit
count, the hand sizes) and the game's public setup (the deck's card list, the edit limit), and answer with one edit or
``ok``. The teammate's convention (one player works at a time; ok, or an edit that leaves a sound tower, means "my
cards hold here"; an edit of a sound tower means "one of mine fails here"; what that tells about the others' hands) is
described in docs/towerbrix-solver.md. The solo agent's way from the tower on the table to a target tower is
:func:`next_edit`; the teammate's is :func:`plan_edit`, which moves each brick once where it can.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Container, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from kumiki.agents.base import Agent
from kumiki.core.errors import IllegalMove
from kumiki.core.game import Move, State
from kumiki.core.options import Option
from kumiki.games.towerbrix.bricks import Brick, connected, footprints_overlap, judge, place, rests_on
from kumiki.games.towerbrix.cards import Card
from kumiki.games.towerbrix.conditions import Tower as Facts
from kumiki.games.towerbrix.modes import MAP_TOWERS, MAPS, map_problems
from kumiki.games.towerbrix.moves import (
    TowerBrixMove,
    apply_edit,
    is_edit,
    lowered,
    parse_towerbrix_move,
    place_move,
)
from kumiki.games.towerbrix.rules import _touching_spots
from kumiki.games.towerbrix.solver import (
    TOL,
    _Checker,
    build_order,
    challenge_rule,
    map_offset,
    meets_deck,
    shifted,
    solve,
)


def _same(a: Brick, b: Brick) -> bool:
    return a.axis == b.axis and all(abs(p - q) <= TOL for p, q in zip(a.box, b.box, strict=True))


def _carries(tower: Mapping[str, Brick], brick: Brick) -> bool:
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
    return [b for b in tower.values() if b.id in seen and not _carries(tower, b)]


def _edit(brick: Brick) -> str:
    """The placement that puts ``brick`` where it is (notation)."""
    return str(place_move(brick.id, brick.axis, brick.box[0], brick.box[1]))


def next_edit(current: Mapping[str, Brick], target: Sequence[Brick]) -> str | None:
    """The next edit (notation) from ``current`` towards ``target``, or None when they are the same tower."""
    goal = {b.id: b for b in target}
    wrong = [b for b in current.values() if b.id not in goal or not _same(b, goal[b.id])]
    if wrong:
        free = [b for b in wrong if not _carries(current, b)]
        if not free:  # every misplaced brick carries something: take away the highest brick above one of them
            above = _above(current, wrong)
            return f"-{max(above, key=lambda b: (b.box[5], b.id)).id}"
        for brick in sorted(free, key=lambda b: (-b.box[5], b.id)):
            if brick.id in goal:
                rest = {k: v for k, v in current.items() if k != brick.id}
                want = goal[brick.id]
                if _same(place(rest, brick.id, want.axis, want.box[0], want.box[1]), want):
                    return _edit(want)
        return f"-{max(free, key=lambda b: (b.box[5], b.id)).id}"
    for want in build_order(target):
        if want.id not in current:
            landed = place(current, want.id, want.axis, want.box[0], want.box[1])
            w = want.box
            blockers = [b for b in current.values() if b.box[2] >= w[5] - TOL and footprints_overlap(b.box, w)]
            if not _same(landed, want) and blockers:  # a brick above its place stops it: take that away first
                return f"-{max(_above(current, blockers), key=lambda b: (b.box[5], b.id)).id}"
            return _edit(want)
    return None


def _view_bricks(view: Mapping[str, Any]) -> dict[str, Brick]:
    return {b["id"]: Brick.from_json(b) for b in view.get("bricks", [])}


def _view_deck(state: State) -> str:
    """Which bricks the game is played with ("green" or "pink"): public, part of the game's setup."""
    return "pink" if getattr(state.game, "bricks_rule", "green") == "pink" else "green"


def own_cards(view: Mapping[str, Any], player: int) -> list[Any]:
    """``player``'s own cards, as their view shows them (ids in ``hands[player]``, faces in ``cards``)."""
    faces = view.get("cards") or {}
    hands = view.get("hands") or []
    ids = hands[player] if len(hands) > player and hands[player] is not None else list(faces)
    return [Card(**{k: faces[i][k] for k in ("id", "deck", "points", "text", "rule")}) for i in ids if i in faces]


def _satisfied(cards: Sequence[Any], deck: str, bricks: Sequence[Brick]) -> bool:
    return _sound(deck, bricks) and all(card.holds(list(bricks)) for card in cards)


def _read_view(state: State) -> tuple[int, dict[str, Any], str, list[Card], dict[str, Brick]]:
    """What the player to move sees: (player, view, brick set, own cards, bricks on the table by id)."""
    if state.game.name != "towerbrix":
        raise ValueError(f"the TowerBrix agents play TowerBrix only, not {state.game.name}")
    player = state.to_move
    if player is None:
        raise ValueError("the game is over: there is no move to choose")
    view = state.view(player)
    return player, view, _view_deck(state), own_cards(view, player), _view_bricks(view)


class SoloAgent(Agent):
    """Solo play (cards face up): solve once, then build the solver's tower edit by edit, then say ok. In a team
    game it plays the same way on its own cards only (it is then a teammate that does not keep the others' work)."""

    name = "towerbrix-solo"
    only_game = "towerbrix"
    option_spec: ClassVar[tuple[Option, ...]] = (
        Option("seconds", float, 2.0, "the solver's time for one plan", minimum=0.05, maximum=86400.0),
        Option("seed", int, 0, "the solver's seed"),
    )

    def __init__(self, /, **options: Any) -> None:
        super().__init__(**options)
        self._target: list[Brick] | None = None
        self._key: tuple[Any, ...] | None = None
        self._plans = 0

    def choose(self, state: State) -> Move:
        _, _, deck, cards, current = _read_view(state)
        if _satisfied(cards, deck, list(current.values())):
            return state.game.parse_move("ok")
        key = (deck, tuple(sorted(c.id for c in cards)))
        edit = next_edit(current, self._target) if self._target is not None and key == self._key else None
        if edit is None:
            self._plans += 1
            seconds, seed = self.options["seconds"], self.options["seed"] + self._plans
            answer = solve(cards, deck, seconds=seconds, seed=seed, refute=False)
            self._target = answer.bricks or answer.closest or None
            self._key = key
            edit = next_edit(current, self._target) if self._target else None
            if edit is None:  # no better tower near this one: look further
                answer = solve(cards, deck, seconds=4 * seconds, seed=self._plans, refute=False)
                self._target = answer.bricks or None
                edit = next_edit(current, self._target) if self._target else None
        return state.game.parse_move("ok" if edit is None else edit)


OTHERS_WEIGHT = 1.0  # one of the others' cards (expected) weighs as much as one of our own: every card must hold
MOVE_COST = 0.3  # a brick moved by a repair: one edit of the attempt's budget, and a risk to cards nobody showed
LIFT_COST = 0.3  # the extra edit of a repair of several moves (it begins by lifting a brick: see TeammateAgent)
HANDS_LIMIT = 200_000  # above this many possible hands, a player's possible cards are followed one by one
FEW_HANDS = 200  # a player with at most this many possible hands left: plan for "one of them holds" as a card
REPAIR_FACTOR = 2  # a new tower for a repair gets this many times the solver steps of a plan from the tower
FRESH_EDITS = 6  # with fewer edits left a repair does not look for a new tower (it could not be built in time)
SHORT_LIFT = 4  # a plan that gets there only with another brick lifted than lift_choice's: at most this many edits
BUILD_FACTOR = 3  # the first tower of an attempt gets this many times the solver steps of a repair
REPAIR_BUDGET = 7  # a repair's searches together get at most this many times the solver steps (issue 18: 3 s a move)


def _after(current: Mapping[str, Brick], edit: str) -> dict[str, Brick]:
    """The tower after the edit ``edit`` (notation) is played on ``current``."""
    return apply_edit(current, parse_towerbrix_move(edit))


def _allowed(state: State, move: str) -> bool:
    """Whether the seat to move may play ``move`` now (the rules' own check, without listing every legal move)."""
    try:
        state.check(state.game.parse_move(move))  # type: ignore[attr-defined]
    except IllegalMove:
        return False
    return True


def _vote_to_back(view: Mapping[str, Any], player: int) -> str | None:
    """Challenges 9 and 13 by vote: the vote that backs the card most seats name (the earliest such card on a tie),
    when ours names another; None when there is no vote to follow. Needs no hidden information."""
    votes: Mapping[str, str] = view.get("votes") or {}
    if view.get("waive") != "vote" or not votes:
        return None
    counts: dict[str, int] = {}
    for handle in votes.values():
        counts[handle] = counts.get(handle, 0) + 1
    leading = min(counts, key=lambda h: (-counts[h], [int(v) for v in h.split(".")]))
    return None if votes.get(str(player)) == leading else f"waive {leading}"


def _sound(deck: str, bricks: Sequence[Brick]) -> bool:
    """A tower that could be evaluated as it stands: the deck's bricks, connected, standing."""
    return bool(bricks) and meets_deck(bricks, deck) and connected(bricks) and judge(bricks).stands


def tower_key(bricks: Iterable[Brick]) -> frozenset[tuple[str, tuple[float, ...]]]:
    """The tower up to swapping the two bricks of one colour (no card can tell them apart)."""
    return frozenset((b.id[0], b.box) for b in bricks)


def _same_tower(a: Mapping[str, Brick], b: Mapping[str, Brick]) -> bool:
    return tower_key(a.values()) == tower_key(b.values())


class HandModel:
    """The hands one other player may hold: every set of ``size`` of the ``count`` candidate cards, narrowed by
    what the table shows. Under the teammates' convention a player says ok on a sound tower exactly when its cards
    hold there, so an ok keeps the hands whose cards all hold, and an edit of a sound tower keeps the hands with a
    card that fails. Above ``HANDS_LIMIT`` hands only the oks are followed, card by card. One move breaks the
    convention, a blind one (nothing within the edits left makes the player's cards hold: it moves a brick
    anyway), so "its cards hold on the tower it made" can be wrong: such an observation is dropped
    (:meth:`retract`) when the player edits that tower again, or when a later observation contradicts it."""

    def __init__(self, count: int, size: int, values: Sequence[int] | None = None, points: Sequence[int] = ()) -> None:
        self.count = count
        self.size = min(size, count)
        # the backs everyone sees: ``values`` the candidate cards' points, ``points`` the player's cards' (their
        # multiset narrows the hands from the start; unknown where not given)
        known = values is not None and len(points) == self.size > 0
        self.values = np.asarray(values) if known else None
        self.points = sorted(points)
        self.hands: np.ndarray | None = None
        self.alive = np.ones(count, dtype=bool)
        self._log: list[tuple[np.ndarray, bool, bool]] = []  # what was observed: (holds, ok, it made that tower)
        self._counted: tuple[np.ndarray, np.ndarray] | None = None  # (the hands, their counts): see _counts
        self._start()

    def _start(self) -> None:
        if self.values is None:
            self.alive = np.ones(self.count, dtype=bool)
            if self.size > 0 and math.comb(self.count, self.size) <= HANDS_LIMIT:
                combos = itertools.combinations(range(self.count), self.size)
                self.hands = np.array(list(combos), dtype=np.int16).reshape(-1, self.size)
            return
        # the cards of each value the player holds, drawn from the candidates of that value
        self.alive = np.isin(self.values, self.points)
        wanted = {value: self.points.count(value) for value in set(self.points)}
        pools = {value: np.flatnonzero(self.values == value).tolist() for value in wanted}
        if math.prod(math.comb(len(pools[v]), k) for v, k in wanted.items()) > HANDS_LIMIT:
            return
        parts = [list(itertools.combinations(pools[v], k)) for v, k in sorted(wanted.items())]
        hands = [sum(part, ()) for part in itertools.product(*parts)]
        self.hands = np.sort(np.array(hands, dtype=np.int16).reshape(-1, self.size), axis=1)

    def _replay(self, log: Sequence[tuple[np.ndarray, bool, bool]]) -> int:
        """The hands narrowed again from the start by ``log``: how many of its observations were contradicted."""
        self._log = []
        self._start()
        return sum(not self.observe(holds, ok, made, resolve=False) for holds, ok, made in log)

    def retract(self, holds: np.ndarray) -> bool:
        """The last "its whole hand holds where ``holds`` hold" was wrong (its move there was a blind one): the
        hands are narrowed again by everything else observed. Whether there was such an observation."""
        for index in range(len(self._log) - 1, -1, -1):
            seen, ok, _ = self._log[index]
            if ok and bool((seen == holds).all()):
                self._replay(self._log[:index] + self._log[index + 1 :])
                return True
        return False

    def observe(self, holds: np.ndarray, ok: bool, made: bool = False, resolve: bool = True) -> bool:
        """The player said ok (``ok``), or edited, on a sound tower where the candidates ``holds`` hold (``made``:
        "ok" because it made that tower). Whether that fits what was seen before; if it does not, with ``resolve``,
        the latest earlier "holds on a tower it made" whose removal leaves fewer contradictions is dropped (that
        move was a blind one), else the observation is not applied."""
        if self.size == 0:
            return True
        self._log.append((holds, ok, made))
        if self.hands is not None:
            met = holds[self.hands].all(axis=1)
            keep = met if ok else ~met
            if keep.any():
                self.hands = self.hands[keep]
                return True
        elif not ok or (self.alive & holds).any():
            if ok:
                self.alive &= holds
            return True
        if resolve:  # nothing left: a tower it made where its cards did not all hold, else keep what we had
            log = list(self._log)
            now = self._replay(log)
            for index in range(len(log) - 2, -1, -1):
                if log[index][1] and log[index][2] and self._replay(log[:index] + log[index + 1 :]) < now:
                    return True
            self._replay(log)
        return False

    def marginals(self) -> np.ndarray:
        """For each candidate card, the probability that it is in the hand (every hand left equally likely)."""
        if self.size == 0:
            return np.zeros(self.count)
        if self.hands is not None:
            return np.bincount(self.hands.ravel(), minlength=self.count) / len(self.hands)
        alive = int(self.alive.sum())
        return self.alive * min(1.0, self.size / alive)

    def chance(self, holds: np.ndarray) -> float:
        """The probability that the whole hand holds where the candidates ``holds`` hold (hands equally likely)."""
        if self.size == 0:
            return 1.0
        if self.hands is not None:
            if self.size <= 2 and len(self.hands):  # how many hands hold, as a product with the hands' card counts
                weights = holds.astype(np.float64)
                held = weights @ self._counts() if self.size == 1 else weights @ (self._counts() @ weights)
                return float(held / len(self.hands))  # exact: a count, then one division, as the mean
            return float(holds[self.hands].all(axis=1).mean())
        alive = int(self.alive.sum())
        return float((holds & self.alive).sum() / alive) ** self.size

    def _counts(self) -> np.ndarray:
        """The hands left as counts: of each card (hands of one card), or of each pair of cards i < j (two)."""
        hands = self.hands
        assert hands is not None
        if self._counted is None or self._counted[0] is not hands:
            if self.size == 1:
                counts = np.bincount(hands[:, 0], minlength=self.count).astype(np.float64)
            else:
                counts = np.zeros((self.count, self.count))
                np.add.at(counts, (hands[:, 0], hands[:, 1]), 1.0)
            self._counted = (hands, counts)
        return self._counted[1]


class AnyHand:
    """A condition for the solver: one of a player's possible hands holds in full (``check`` as a card's)."""

    def __init__(self, cards: Sequence[Any], hands: np.ndarray) -> None:
        used = np.unique(hands)
        self.cards = [cards[i] for i in used]  # only the cards some hand holds are checked
        self.hands = np.searchsorted(used, hands)
        self.id = "|".join("+".join(self.cards[i].id for i in hand) for hand in self.hands.tolist())

    def check(self, facts: Any) -> bool:
        holds = np.fromiter((bool(card.check(facts)) for card in self.cards), dtype=bool, count=len(self.cards))
        return bool(holds[self.hands].all(axis=1).any())

    def holds(self, bricks: Sequence[Brick]) -> bool:
        return self.check(Facts(list(bricks)))


class TeamKnowledge:
    """What a player can know of the others' cards from public facts alone: the deck less its own cards, each other
    player's hand size and the points on its cards' backs, and what each did on the sound towers it saw
    (:class:`HandModel`). ``expected(facts)`` values a tower for the others: the sum over them of hand size x the
    chance that their whole hand holds, so a card somebody surely holds weighs its whole hand, and an unknown hand
    little."""

    def __init__(
        self,
        deck: Sequence[Any],
        own: Iterable[str],
        hand_sizes: Sequence[int],
        me: int,
        hand_points: Sequence[Sequence[int]] | None = None,
    ) -> None:
        mine = set(own)
        self.cards = [card for card in deck if card.id not in mine]
        values = [card.points for card in self.cards]
        self.models = {
            q: HandModel(len(self.cards), size, values, hand_points[q] if hand_points else ())
            for q, size in enumerate(hand_sizes)
            if q != me
        }
        # expected() by which cards hold: a search tries thousands of towers, on which the cards hold in far fewer
        # patterns; emptied whenever a model changes
        self._values: dict[bytes, float] = {}
        self._rules = [card.compiled for card in self.cards]

    def holds(self, facts: Any) -> np.ndarray:
        """Which candidate cards hold on the tower of ``facts`` (:meth:`Rule.evaluate` keeps each verdict on the
        tower: the solver reads our own cards and the narrowed hands there too)."""
        return np.fromiter((rule.evaluate(facts) for rule in self._rules), dtype=bool, count=len(self._rules))

    def observe(self, player: int, facts: Any, ok: bool, made: bool = False) -> None:
        if player in self.models:
            self._values.clear()
            self.models[player].observe(self.holds(facts), ok, made)

    def retract(self, player: int, facts: Any) -> None:
        """``player``'s move to the tower of ``facts`` was a blind one: its cards need not hold there."""
        if player in self.models:
            self._values.clear()
            self.models[player].retract(self.holds(facts))

    def narrowed(self, limit: int = FEW_HANDS) -> list[AnyHand]:
        """For each other player with at most ``limit`` possible hands left, the condition "one of them holds"."""
        return [
            AnyHand(self.cards, model.hands)
            for model in self.models.values()
            if model.size and model.hands is not None and len(model.hands) <= limit
        ]

    def expected(self, facts: Any) -> float:
        holds = self.holds(facts)
        key = holds.tobytes()
        value = self._values.get(key)
        if value is None:
            value = self._values[key] = sum(model.size * model.chance(holds) for model in self.models.values())
        return value


def _last_editor(state: State) -> int | None:
    """The seat that made the last edit of the build going on (free turns: the record names each move's seat)."""
    seats = state.move_seats()
    if seats is None:
        return None
    for index in range(len(state.history) - 1, state.build_began() - 1, -1):  # type: ignore[attr-defined]
        if is_edit(state.history[index]):
            return seats[index]
    return None


def _course(view: Mapping[str, Any]) -> dict[str, Any]:
    """A view without whose turn it is: with free turns a seat is asked for its move on a copy of the position
    with itself to move (``State.acting``), which is the same course of the game."""
    return {key: value for key, value in view.items() if key not in ("to_move", "actors")}


def _edits_to(
    current: Mapping[str, Brick], target: Sequence[Brick], lift: bool, cap: int = 24
) -> tuple[int, str | None] | None:
    """(how many edits a plan from ``current`` to ``target`` takes, the brick it lifts first): with ``lift`` the
    plan begins by lifting a brick (:func:`lift_choices`, the first that lets :func:`plan_edit` get there), then
    follows :func:`plan_edit`; None if no such plan gets there within ``cap`` (within ``SHORT_LIFT`` edits when
    the brick lifted is not :func:`lift_choice`'s)."""
    if not lift:
        needed = _plan_length(current, target, None, 0, cap)
        return None if needed is None else (needed, None)
    for index, hold in enumerate(lift_choices(current, target)):
        tower = {k: v for k, v in current.items() if k != hold}
        needed = _plan_length(tower, target, hold, 1, cap if index == 0 else min(cap, SHORT_LIFT))
        if needed is not None:
            return needed, hold
    return None


def _plan_length(
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
                keep = sum(1 for i in (one, two) if i in current and _same(out[i], current[i]))
                swap = sum(1 for i, j in ((one, two), (two, one)) if i in current and _same(out[j], current[i]))
                if swap > keep:
                    first, second = out[one], out[two]
                    out[one], out[two] = Brick(one, second.axis, second.box), Brick(two, first.axis, first.box)
        return list(out.values())

    best, best_count = list(plan), -1
    shifts = sorted({(c.box[0] - b.box[0], c.box[1] - b.box[1]) for b in plan for c in current.values()})
    for dx, dy in [(0.0, 0.0), *shifts]:
        moved = relabel(shifted(plan, dx, dy))
        count = sum(1 for b in moved if b.id in current and _same(b, current[b.id]))
        if count > best_count:
            best, best_count = moved, count
    return best


def _ready(current: Mapping[str, Brick], want: Brick) -> bool:
    """Brick ``want.id`` (if in the tower, carrying nothing) can be put straight at its place ``want`` now."""
    rest = {k: v for k, v in current.items() if k != want.id}
    return _same(place(rest, want.id, want.axis, want.box[0], want.box[1]), want)


def lift_choice(current: Mapping[str, Brick], target: Sequence[Brick]) -> str | None:
    """The brick a repair of several moves lifts first: a misplaced one that carries nothing, preferring one whose
    place is not ready yet (it would have to wait anyway), then the highest."""
    goal = {b.id: b for b in target}
    free = [b for b in current.values() if not _carries(current, b)]
    free = [b for b in free if b.id not in goal or not _same(b, goal[b.id])]
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
    free = [b for b in current.values() if b.id != first and not _carries(current, b)]
    free = [b for b in free if b.id in goal and not _same(b, goal[b.id])]
    free.sort(key=lambda b: (-goal[b.id].box[5], -goal[b.id].box[2], b.id))
    return [first, *(b.id for b in free)]


def plan_edit(current: Mapping[str, Brick], target: Sequence[Brick], hold: str | None = None) -> str | None:
    """The next edit of a plan from ``current`` to ``target`` (None when they are the same tower), moving each
    brick once where it can: a brick not in ``target`` goes; then, bottom face first, a brick (missing, or
    misplaced and carrying nothing) whose place is ready is put there; ``hold`` (the lifted brick) comes last;
    only when nothing is ready is a misplaced brick, or a brick in the way, taken away."""
    goal = {b.id: b for b in target}
    for brick in current.values():
        if brick.id not in goal and not _carries(current, brick):
            return f"-{brick.id}"
    order = [want for want in build_order(target) if want.id != hold]
    order += [goal[hold]] if hold in goal else []
    pending = [w for w in order if w.id not in current or not _same(current[w.id], w)]
    if not pending:
        return None
    for want in pending:
        if want.id in current and _carries(current, current[want.id]):
            continue
        if want.id == hold and len(pending) > 1:
            continue
        if _ready(current, want):
            return _edit(want)
    wrong = [current[w.id] for w in pending if w.id in current]
    free = [b for b in wrong if not _carries(current, b)]
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
    spots = [(None, b) if a is not None and b is not None and _same(a, b) else (a, b) for a, b in spots]
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
            if code != 2 and _carries(tower, tower[i]):
                continue
            rest = {j: b for j, b in tower.items() if j != i}
            for new in (2, 1, 0):
                spot = spots[k][new] if new < 2 else None
                if new == code or (new < 2 and spot is None):
                    continue
                if spot is not None and not _same(place(rest, i, spot.axis, spot.box[0], spot.box[1]), spot):
                    continue
                after = (*state[:k], new, *state[k + 1 :])
                if after != end:
                    if after not in sound:
                        sound[after] = _sound(deck, list(bricks(after).values()))
                    if sound[after]:
                        continue
                if cost + 1 < costs.get(after, cap + 1):  # ties: deeper first, then by state (whatever the cap)
                    costs[after] = cost + 1
                    paths[after] = (state, f"-{i}" if spot is None else _edit(spot))
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
            return edits if _same_tower(tower, goal) else None
        if edits and deck is not None and _sound(deck, list(tower.values())):
            return None
        tower = _after(tower, edit)
        edits.append(edit)
    return None


def _reaches(current: Mapping[str, Brick], target: Sequence[Brick], hold: str | None, deck: str) -> bool:
    """Whether :func:`plan_step` gets from ``current`` to ``target``."""
    return _plan_length(current, target, hold) is not None or fewest_edits(current, target, deck) is not None


def plan_step(current: Mapping[str, Brick], target: Sequence[Brick], hold: str | None, deck: str) -> str | None:
    """The next edit of a plan from ``current`` to ``target``: :func:`plan_edit`'s (``hold`` put back last) unless
    :func:`fewest_edits` gets there in fewer edits, none of its towers before the last sound. A function of the
    towers alone, so a rebuilt memory makes the same edits (see :meth:`TeammateAgent._resume`)."""
    old = _plan_path(current, target, hold, deck)
    better = fewest_edits(current, target, deck, len(old) - 1 if old is not None else 24)
    if better:
        return better[0]
    return plan_edit(current, target, hold)


def best_moves(
    cards: Sequence[Any],
    deck: str,
    current: Mapping[str, Brick],
    know: TeamKnowledge,
    bad: Container[frozenset[tuple[str, tuple[float, ...]]]] = (),
    better_than: int = -1,
    keep: str | None = None,
) -> tuple[float, int, str] | None:
    """The best single move of one brick that carries nothing, leaving the tower sound: (value, own cards held,
    edit), the value being own cards held + ``OTHERS_WEIGHT`` x the others' value (:meth:`TeamKnowledge.expected`)
    - ``MOVE_COST``. Every placement where the lowered brick touches the rest of the tower is tried (a full
    enumeration, not a sample); only moves that make more than ``better_than`` of our cards hold count; towers in
    ``bad`` (ones somebody's cards fail on) are never made; the judge is asked only about the candidates in order
    of value, until one stands; brick ``keep`` is never the one moved."""

    checker = _Checker([], deck, None, False)
    scored: list[tuple[float, int, str, list[Brick]]] = []
    for brick in current.values():
        if brick.id == keep or _carries(current, brick):
            continue
        rest = {k: v for k, v in current.items() if k != brick.id}
        others = list(rest.values())
        for axis, x, y in _touching_spots(others, (2.0, 1.0, 1.0), 2):
            moved = place(rest, brick.id, axis, x, y)
            if _same(moved, brick):
                continue
            trial = [*others, moved]
            if tower_key(trial) in bad:
                continue
            facts = Facts(trial)
            held = sum(bool(card.check(facts)) for card in cards)
            if held <= better_than:
                continue
            value = held + OTHERS_WEIGHT * know.expected(facts) - MOVE_COST
            scored.append((value, held, _edit(moved), trial))
    scored.sort(key=lambda item: (-item[0], item[2]))
    for value, held, edit, trial in scored[:80]:
        if meets_deck(trial, deck) and checker.valid(trial):
            return value, held, edit
    return None


def just_placed(state: State, player: int) -> str | None:
    """The brick another seat placed with the game's last move (None if the last move was not a placement, or
    ours): a teammate leaves it where it is unless its own cards need it moved."""
    last = state.history[-1] if state.history else None
    if not isinstance(last, TowerBrixMove) or last.kind != "place":
        return None
    seats = state.move_seats()
    mover = seats[-1] if seats else (player - 1) % state.game.players  # turns go round in a fixed cycle
    return None if mover == player else last.brick or None


# A repair option: (value, its single edit or "", the plan's tower or None, the brick the plan lifts first, the
# plan's edits)
RepairOption = tuple[float, str, list[Brick] | None, str | None, int]


def _moves(current: Mapping[str, Brick], option: RepairOption, brick: str | None) -> bool:
    """Whether a repair option (a single edit, or a plan's tower) moves or takes away ``brick``."""
    if brick is None or brick not in current:
        return False
    _, edit, plan, _, _ = option
    if plan is None:
        return parse_towerbrix_move(edit).brick == brick
    goal = {b.id: b for b in plan}
    return brick not in goal or not _same(goal[brick], current[brick])


def _unknown_plans(moves: int) -> int:
    """The search count a rebuilt memory starts from when the real one is not known (the solver's seeds follow
    it): the same for whoever replays the game, and far apart from one turn to the next, as the real count is."""
    return 100 * moves


class TeammateAgent(Agent):
    """A teammate who knows only its own cards (``state.view``) and the public setup (the deck's card list, the
    edit limit). Its convention, shared by every teammate, needs no hidden information:

    - **ok exactly when its cards hold on a sound tower** (the deck's bricks, connected, standing), and an edit
      that leaves a sound tower also means "my cards hold here" (one exception: nothing within the edits left makes
      them hold). So an edit of a sound tower says "one of mine fails here": all of it narrows the hands the others
      may hold (:class:`TeamKnowledge`), and a sound tower somebody edited is never made again (it fails somebody's
      card for good; this also ends every loop).
    - **One player works at a time.** An incomplete or unsound tower is the work of whoever made the last edit:
      the others pass (an ok on such a tower says nothing and cannot end the build while the worker goes on). The
      worker goes on until the tower is sound; if the worker passes, the next player takes over.
    - **The first tower** is built by the player with the most cards (the lowest seat on a tie): the tower the
      solver finds for its cards that is worth most to the others' possible hands (at first: the whole deck,
      weighted by the hand sizes), brick by brick.
    - **A repair** (its cards fail on a sound tower): the best of the single move of one brick and the solver's
      plan (from the tower on the table, else a new tower aligned with it), valued as cards met + the others'
      value - a cost per brick moved; the others' narrowed-down hands are met together with its own cards when the
      solver can. A plan of several moves begins by lifting a brick and puts it back last, so the tower stays
      incomplete (the others wait) until the plan is done.
    - **The brick a teammate has just placed stays** unless nothing else makes our own cards hold.

    Search effort is counted in solver steps (``iterations``), not seconds, so a seeded game plays the same on any
    machine under any load. Asked to move in a game whose moves it has not all seen (the web server asks a fresh
    agent for every move), it first rebuilds its memory from them (:meth:`_rebuild`, :meth:`_resume`).
    """

    name = "towerbrix-teammate"
    only_game = "towerbrix"
    option_spec: ClassVar[tuple[Option, ...]] = (
        Option(
            "iterations", int, 1500, "solver steps for one plan (the first tower gets three times as many)", 50, 10**9
        ),
        Option("seed", int, 0, "the solver's seed"),
    )

    def __init__(self, /, **options: Any) -> None:
        super().__init__(**options)
        self._attempt: tuple[Any, ...] | None = None
        self._know: TeamKnowledge | None = None
        self._seen: list[str] = []  # the game's moves up to and including our last move
        self._free = False  # everyone builds at once (turns="free"): a silence is no pass
        self._last_editor: int | None = None  # with free turns: who made the attempt's last edit
        self._reset()

    def _reset(self) -> None:
        self._left: dict[str, Brick] | None = None  # the tower as our last move left it (None: no move yet)
        self._left_edits = 0  # the attempt's edit count after our last move
        self._maker: int | None = None  # who made the sound tower our last move saw (None: we did, or not known)
        self._edited = False  # our last move was an edit
        self._target: list[Brick] | None = None  # the tower our work in progress heads for
        self._hold: str | None = None  # the brick our repair lifted first: it goes back last
        self._bad: set[frozenset[tuple[str, tuple[float, ...]]]] = set()
        self._plans = 0
        # Set only by _rebuild, when the plan of our work in progress is not known (see _resume): "lost", or the
        # turn from which it can be made again: (kind, the tower then, the edits then left or the lifted brick),
        # kind "repair" or "work" for a plan begun before any other search of ours in the attempt (the solver's
        # seeds are then known), "resume" for the turn at which a rebuilt memory first made a lost plan again;
        # and our edits from that turn on, (the tower before, the edit).
        self._origin: str | tuple[str, dict[str, Brick], Any] | None = None
        self._followed: list[tuple[dict[str, Brick], str]] = []
        self._searched = False  # whether we ran the solver in this attempt (rebuilt memory only)

    def choose(self, state: State) -> Move:
        player, view, deck, cards, current = _read_view(state)
        game = state.game
        self._free = state.move_seats() is not None
        if not self._remembers(state, view):
            self._rebuild(state, player)
        self._last_editor = _last_editor(state) if self._free else None
        vote = _vote_to_back(view, player)
        if vote is not None and _allowed(state, vote):  # no search, no edit: a turn apart
            self._seen = [*map(str, state.history), vote]
            return game.parse_move(vote)
        if view.get("bricks_hidden"):  # challenge 10's blind player may only say ok
            self._seen = [*map(str, state.history), "ok"]
            return game.parse_move("ok")
        edits, branch = self._turn(game, player, view, deck, cards, current)
        if branch == "repair":
            keep = just_placed(state, player)
            edit = self._repair(cards, deck, current, int(game.options.get("max_edits", 40)) - edits, keep)
        elif branch == "work":
            edit = self._work(cards, deck, current)
        else:
            edit = None  # "ok": our cards hold on a sound tower; "wait": somebody's work in progress
        return self._play(state, edit or "ok", current, edits)

    def _turn(
        self,
        game: Any,
        player: int,
        view: Mapping[str, Any],
        deck: str,
        cards: Sequence[Any],
        current: Mapping[str, Brick],
    ) -> tuple[int, str]:
        """What a turn learns before any search (a new attempt, the others' moves since our last one, a tower our
        cards fail on) and which way it goes: (edit count, "ok" | "repair" | "work" | "wait")."""
        attempt = (view.get("round"), view.get("attempt"), view.get("attempts_used"))
        if attempt != self._attempt or self._know is None:
            self._attempt = attempt
            self._reset()
            hand_points = view.get("hand_points")  # the cards' backs (a view of an older record may lack them)
            self._know = TeamKnowledge(game.deck, [c.id for c in cards], view["hand_sizes"], player, hand_points)
        edits = int(view.get("edits", 0))
        bricks = list(current.values())
        facts = Facts(bricks)
        sound = _sound(deck, bricks)
        self._observe(player, view, deck, current, sound, facts, edits)
        if sound and all(card.check(facts) for card in cards):
            return edits, "ok"
        if sound:
            self._bad.add(tower_key(bricks))  # we edit it: our cards fail here
            return edits, "repair"
        return edits, "work" if self._working(view, player, current, edits) else "wait"

    def _play(self, state: State, edit: str, current: Mapping[str, Brick], edits: int) -> Move:
        if not _allowed(state, edit):  # e.g. challenge 8, where a placed brick stays: wait instead
            edit = "ok"
        move = state.game.parse_move(edit)
        self._played(edit, current, edits)
        self._seen = [*map(str, state.history), str(move)]
        self._origin = None  # from here on, what we planned is known
        return move

    def _played(self, edit: str, current: Mapping[str, Brick], edits: int) -> None:
        self._edited = edit != "ok"
        self._left = _after(current, edit) if self._edited else dict(current)
        if self._edited:
            self._maker = None
        self._left_edits = edits + self._edited

    # ----------------------------------------------------------------- memory rebuilt from the moves

    def _remembers(self, state: State, view: Mapping[str, Any]) -> bool:
        """Whether we chose every move of our seat so far: the moves we saw are the game's first ones, and fewer
        than one round of moves came after our last one (turns go round in a fixed cycle)."""
        history = state.history
        count = len(self._seen)
        if count == 0:  # nothing seen: only an empty game (with free turns, others may have moved before our turn)
            return not history
        if len(history) - count >= len(view["hand_sizes"]) or len(history) < count:
            return False
        return [str(move) for move in history[:count]] == self._seen

    def _rebuild(self, state: State, player: int) -> None:
        """Our memory as if we had chosen our seat's past moves (a fresh agent, as the web server asks for every
        move): the game is replayed from its seed, and at each past turn of ours what we saw (our ``view`` only)
        is read as at that turn and the move played there is booked as ours, without any search. Rebuilt exactly:
        the attempt, the inferred hands of the others, the bad towers, the tower and edit count our last move
        left, whether it was an edit, the brick a repair lifted. Not rebuilt: the plan of our work in progress and
        the count of searches (the solver's seeds), which only a search could tell; :meth:`_resume` plans again."""
        self._attempt, self._know, self._seen = None, None, []
        self._reset()
        past = state.game.new_state(seed=state.seed)
        seats = state.move_seats()  # free turns: who made each move
        movers: list[int | None] = [None] * len(state.history) if seats is None else list(seats)
        for move, mover in zip(state.history, movers, strict=True):
            if (past.to_move if mover is None else mover) == player:
                self._replay_turn(past, player, str(move))
            past.play(move, player=mover)
        if _course(past.view(player)) != _course(state.view(player)):  # not this game's course: forget it
            self._attempt, self._know = None, None
            self._reset()
            return
        self._seen = [str(move) for move in state.history]
        if self._searched:  # how many searches we ran is not known: seeds that differ from turn to turn
            self._plans = _unknown_plans(len(state.history))

    def _replay_turn(self, past: State, player: int, move: str) -> None:
        """Book ``move``, played at our past turn ``past``, as ours (see :meth:`_rebuild`)."""
        view = past.view(player)
        if view.get("bricks_hidden") or move.startswith("waive"):  # a vote is a turn apart (see choose)
            return
        current = _view_bricks(view)
        self._last_editor = _last_editor(past) if self._free else None  # as it was at that turn
        edits, branch = self._turn(past.game, player, view, _view_deck(past), own_cards(view, player), current)
        if branch == "repair" or (branch == "work" and not self._edited):  # a new plan (a search) begins here
            left = int(past.game.options.get("max_edits", 40)) - edits
            self._origin = "lost" if self._searched else (branch, dict(current), left)
            self._followed = [] if self._searched else [(dict(current), move)]
            self._searched, self._target = True, None
            self._hold = move[1:] if branch == "repair" and move.startswith("-") else None  # a lifted brick
        elif branch == "work":  # our work goes on
            if isinstance(self._origin, tuple):
                self._followed.append((dict(current), move))
            else:  # a rebuilt memory made the lost plan again here (see _resume), its searches counted from
                again = (self._hold, _unknown_plans(len(past.history)))
                self._origin, self._followed = ("resume", dict(current), again), [(dict(current), move)]
            if self._hold is not None and move.split()[0] == self._hold:  # the lifted brick is back: plan done
                self._hold = None
        else:
            self._origin = None
        self._played(move, current, edits)

    def _resume(self, cards: Sequence[Any], deck: str, current: Mapping[str, Brick]) -> str | None:
        """The next edit of our work in progress when the memory was rebuilt (:meth:`_rebuild`) and its plan is
        not known. If the turn the plan began at can be played again as it was (a plan begun before any other
        search of ours in the attempt: the solver's seeds are known; or the turn at which a rebuilt memory made a
        lost plan again), it is, and its plan is followed if it gives the edits we played since: what we knew has
        not changed in between, since nobody else edits while we work. Otherwise the plan is made again from the
        tower on the table (failing that, a new tower aligned with it), never ending on a bad tower, by edits
        that get there (:func:`_plan_length`), the lifted brick put back last where the plan allows it, so that
        the tower stays incomplete (the others wait) until the plan is done."""
        origin, followed, lifted = self._origin, self._followed, self._hold
        self._origin = None
        if isinstance(origin, tuple):
            kind, tower, arg = origin
            self._plans, self._target, self._edited, self._hold = 0, None, kind == "resume", None
            if kind == "repair":
                first = self._repair(cards, deck, tower, arg)
            else:
                if kind == "resume":
                    self._origin, (self._hold, self._plans) = "lost", arg
                first = self._work(cards, deck, tower)
            self._edited = True
            target, hold = self._target, self._hold
            same = bool(target and followed and first == followed[0][1])
            if (
                same
                and target is not None
                and all(plan_step(before, target, hold, deck) == move for before, move in followed[1:])
            ):
                edit = plan_step(current, target, hold, deck) if target else None
                if edit is not None and target and _reaches(current, target, hold, deck):
                    return edit  # (a plan that never gets there, e.g. a brick put on and off, is made again)
        self._target, self._hold = None, None
        tries = [(list(current.values()), 1), (None, REPAIR_FACTOR)]  # from the tower, else a new tower aligned
        for (start, factor), wanted in itertools.product(tries, self._wishes(cards)):
            plan, solved = self._solve(wanted, deck, start, self.options["iterations"] * factor, retry=False)
            plan = align(plan, current)
            if not solved or tower_key(plan) in self._bad or not _sound(deck, plan):
                continue
            held = lifted if lifted not in current and any(b.id == lifted for b in plan) else None
            for hold in dict.fromkeys((held, None)):  # the lifted brick last if the plan allows it
                if _plan_length(current, plan, hold) is not None:
                    self._target, self._hold = plan, hold
                    return plan_step(current, plan, hold, deck)
        return None

    def _observe(
        self,
        player: int,
        view: Mapping[str, Any],
        deck: str,
        current: Mapping[str, Brick],
        sound: bool,
        facts: Any,
        edits: int,
    ) -> None:
        """What the others did since our last move, as far as the table shows it (the tower, the oks since the last
        edit, the edit count): an ok on a sound tower, or an edit of one."""
        assert self._know is not None
        oks = set(view.get("oks", ()))
        count = len(view["hand_sizes"])
        order = [(player + k) % count for k in range(1, count)]  # who moved since our last move, in turn
        if sound:
            for q in order:
                if q in oks:
                    self._know.observe(q, facts, True)
        if self._left is None or edits <= self._left_edits:
            return
        before = list(self._left.values())
        last = max((i for i, q in enumerate(order) if q not in oks), default=None)
        maker, self._maker = self._maker, (order[last] if last is not None and sound else None)
        if last is not None and sound:  # the last editor left a sound tower: its cards hold there
            self._know.observe(order[last], facts, True, made=True)
        if last is None or not _sound(deck, before):
            return
        self._bad.add(tower_key(before))  # somebody edited it: their cards fail there
        was = Facts(before)
        new = edits - self._left_edits
        # who edited `before`, if the count tells: one edit, by order[last]; or everyone up to order[last], the first
        editor = order[last] if new == 1 else order[0] if new == last + 1 else None
        if editor is not None and editor == maker:
            self._know.retract(editor, was)  # it edited the tower it had made: its move there was a blind one
        if new == 1:  # the players before the editor said ok on `before`
            for q in order[:last]:
                self._know.observe(q, was, True)
        if editor is not None:
            self._know.observe(editor, was, False)

    def _working(self, view: Mapping[str, Any], player: int, current: Mapping[str, Brick], edits: int) -> bool:
        """Whether the unsound tower on the table is ours to work on."""
        if self._left is not None and edits == self._left_edits and _same_tower(current, self._left):
            # our own work (nobody edited since), or the worker passed: we take over; with free turns a silence
            # since our ok is no pass (we are asked again every few seconds): only our own work goes on
            return self._edited or not self._free
        if self._free and self._last_editor not in (None, player) and self._last_editor in view.get("oks", ()):
            return True  # the worker's thumb is up on its unfinished tower: it passed, we take over
        if not current and edits == 0:
            sizes = list(view["hand_sizes"])
            builder = sizes.index(max(sizes))  # the first tower: the player with the most cards builds ...
            return player == builder or builder in view.get("oks", ())  # ... or, if it passed, we do
        return False

    def _solve(
        self,
        wanted: Sequence[Any],
        deck: str,
        start: Sequence[Brick] | None,
        steps: int,
        retry: bool = True,
        budget: list[int] | None = None,
    ) -> tuple[list[Brick], bool]:
        """(tower, whether it meets ``wanted``): the solver's tower for ``wanted`` (kept close to ``start`` if
        given), with the others' value in the score and never a tower in ``_bad``; if that finds none and
        ``retry``, a search for ``wanted`` alone; failing that, the closest sound tower seen. ``budget``: the
        steps left to the move (``[n]``, spent here); a search gets at most what is left, none when nothing is."""
        know, bad = self._know, self._bad
        assert know is not None

        def extra(bricks: Sequence[Brick]) -> float:
            penalty = 10.0 if tower_key(bricks) in bad else 0.0
            return penalty - OTHERS_WEIGHT * know.expected(Facts.of(bricks))

        closest: list[Brick] = []
        for scored in (extra, None) if retry else (extra,):
            allowed = steps if budget is None else min(steps, budget[0])
            if allowed <= 0:
                break
            if budget is not None:
                budget[0] -= allowed
            self._plans += 1
            answer = solve(
                wanted,
                deck,
                seed=self.options["seed"] * 1000 + self._plans,
                start=start,
                keep=start is not None,
                refute=False,
                costs=dict.fromkeys((b.id for b in start or ()), MOVE_COST),
                extra=scored,
                iterations=allowed,
                polish_steps=allowed // 2,
            )
            if answer.bricks:
                return answer.bricks, True
            closest = closest or answer.closest
        return closest, False

    def _wishes(self, cards: Sequence[Any]) -> list[list[Any]]:
        """What to plan for, best first: our cards with the others' narrowed-down hands
        (:meth:`TeamKnowledge.narrowed`, met together and not only as a term of the score), then our cards."""
        assert self._know is not None
        narrowed = self._know.narrowed()
        return [[*cards, *narrowed], list(cards)] if narrowed else [list(cards)]

    def _work(self, cards: Sequence[Any], deck: str, current: Mapping[str, Brick]) -> str | None:
        """Our work in progress (or the first tower): the next edit towards our target, planning one if needed."""
        if self._edited and self._target is None and self._origin is not None:  # memory rebuilt, plan unknown
            edit = self._resume(cards, deck, current)
            if edit is not None:
                return edit
        edit = plan_step(current, self._target, self._hold, deck) if self._edited and self._target else None
        if edit is None:
            self._hold = None
            steps = self.options["iterations"] * (BUILD_FACTOR if not current else 1)
            for wanted in self._wishes(cards):
                plan, solved = self._solve(wanted, deck, list(current.values()) or None, steps)
                self._target = align(plan, current)
                if solved:
                    break
            edit = plan_edit(current, self._target) if self._target else None
        if edit is None:  # no plan reaches a sound tower from here: start afresh
            plan, _ = self._solve(cards, deck, None, self.options["iterations"])
            self._target = align(plan, current)
            edit = plan_step(current, self._target, None, deck) if self._target else None
        return edit

    def _repair(
        self, cards: Sequence[Any], deck: str, current: Mapping[str, Brick], left: int, keep: str | None = None
    ) -> str | None:
        """Our cards fail on the sound tower on the table: the best single move that makes them all hold, or the
        first edit of a plan that ends on a sound tower where they all hold (from the tower on the table, failing
        that a new tower), whichever is worth more (cards met + the others' value - the edits' cost); first with
        the others' narrowed-down hands as cards to meet, then without. Brick ``keep`` (the one a teammate has
        just placed) stays where it is unless nothing else makes our cards hold."""
        know = self._know
        assert know is not None
        wishes = self._wishes(cards)
        fallback: RepairOption | None = None
        budget = [REPAIR_BUDGET * self.options["iterations"]]  # every search of this repair together
        for wanted in wishes:
            options: list[RepairOption] = []
            single = best_moves(wanted, deck, current, know, self._bad, better_than=len(wanted) - 1, keep=keep)
            if single is None and keep is not None:
                single = best_moves(wanted, deck, current, know, self._bad, better_than=len(wanted) - 1)
            if single is not None:
                options.append((single[0], single[2], None, None, 1))
            tries: list[tuple[list[Brick] | None, int]] = [(list(current.values()), 1)]
            if left >= FRESH_EDITS:  # a new tower, aligned with this one; at last with more effort
                tries += [(None, REPAIR_FACTOR)] + ([(None, 2 * REPAIR_FACTOR)] if wanted is wishes[-1] else [])
            for start, factor in tries:
                steps = self.options["iterations"] * factor
                retry = start is None and wanted is wishes[-1]
                plan, solved = self._solve(wanted, deck, start, steps, retry, budget)
                plan = align(plan, current)
                if not solved or tower_key(plan) in self._bad or not _sound(deck, plan):
                    continue
                moved = sum(1 for b in plan if b.id not in current or not _same(b, current[b.id]))
                moved += sum(1 for i in current if i not in {b.id for b in plan})
                lift = moved >= 2
                found = _edits_to(current, plan, lift)
                if found is None or found[0] > left:
                    continue
                facts = Facts(plan)
                value = len(wanted) + OTHERS_WEIGHT * know.expected(facts) - MOVE_COST * moved - LIFT_COST * lift
                options.append((value, "", plan, found[1], found[0]))
                break
            kept = [option for option in options if not _moves(current, option, keep)]
            if kept or (options and fallback is None):
                fallback = max(kept or options, key=lambda option: option[0])
            if kept:
                break
        if fallback is not None:  # what keeps the brick just placed, else (our cards need it moved) the best
            _, edit, chosen, hold, needed = fallback
            if chosen is None:
                return edit
            self._target, self._hold = chosen, hold
            edits = fewest_edits(current, chosen, deck, needed - 1)
            if edits:  # the same tower, in fewer edits
                self._hold = edits[0][1:] if edits[0].startswith("-") else None
                return edits[0]
            return f"-{self._hold}" if self._hold else plan_edit(current, chosen)
        # Nothing makes all our cards hold within the edits left: the move that helps them most (the one case
        # where an edit to a sound tower does not mean "my cards hold here"), else any move off this tower.
        facts = Facts(list(current.values()))
        held = sum(bool(card.check(facts)) for card in cards)
        single = best_moves(cards, deck, current, know, self._bad, better_than=held)
        single = single or best_moves(cards, deck, current, know, self._bad)
        return single[2] if single is not None else None


# ------------------------------------------------------------------------------------------------------ the hint

HINT_STEPS = 6000  # the solver's steps for one hint (about a second; a step count answers alike on any machine)
HINT_TOWERS: dict[tuple[Any, ...], tuple[tuple[Brick, ...], bool]] = {}  # the hint's solves, by cards and table
HINT_TOWERS_KEPT = 64  # solves kept before the table starts again


@dataclass(frozen=True)
class BuildHint:
    """The hint for one seat: ``move`` is an edit (notation), ``ok`` (the seat's cards hold on a finished tower) or
    None (no edit found: ``why`` says why); ``target`` the tower the edit builds towards, ``met`` whether it meets
    every card of the seat (False: the solver's closest), ``placed`` how many of its bricks stand where it has them
    once the edit is played; ``cards`` the ids of the seat's own cards."""

    move: str | None
    cards: tuple[str, ...]
    target: tuple[Brick, ...] = ()
    met: bool = False
    placed: int = 0
    why: str = ""

    def words(self) -> tuple[str, str]:
        """What to do and why, one wording for the terminal's ``hint`` and the browser's Hint: ("place Y1 z 0,0",
        "1 of 8 bricks of a tower meeting your cards G03, G17"), ("say ok", "your cards hold on this tower") or
        ("no hint", why)."""
        if self.move == "ok":
            return "say ok", self.why or "your cards hold on this tower"
        if self.move is None:
            return "no hint", self.why
        what = f"take away {self.move[1:]}" if self.move.startswith("-") else f"place {self.move}"
        yours = f"your card{'s' * (len(self.cards) != 1)} {', '.join(self.cards)}" if self.cards else "the deck"
        tower = "a tower meeting" if self.met else "the closest tower the solver found to"
        return what, f"{self.placed} of {len(self.target)} bricks of {tower} {yours}"

    def line(self) -> str:
        """The hint in one line: "place Y1 z 0,0 (1 of 8 bricks of a tower meeting your cards G03, G17)", "say ok:
        your cards hold on this tower", "no hint: ..."."""
        what, why = self.words()
        return f"{what}: {why}" if self.move in ("ok", None) else f"{what} ({why})"


def no_map_tower(challenge: int, ground: str, ids: Sequence[str]) -> str:
    """Why a hint on a map names no edit: the solver's closest tower stands off the map and meets neither the map nor
    the cards, so building towards it leads nowhere (challenges 11 and 14 followed it every turn: 0 of 10 met)."""
    return (
        f"no tower found yet on the {ground} meeting your cards {', '.join(ids)} within the hint's search; "
        f"'kumiki solve towerbrix --challenge {challenge} --cards {','.join(ids)} --seconds 60' searches longer"
    )


def build_hint(
    state: State, previous: Sequence[Brick] | None = None, steps: int = HINT_STEPS, seed: int = 0
) -> BuildHint:
    """The next edit of the seat to move towards a tower meeting its own cards (and the challenge's rule), from the
    bricks on the table, or ``ok`` when they already hold on a finished tower. It reads ``state.view(seat)`` and the
    game's public setup only: never another seat's cards. ``previous`` (default: the tower found from the empty
    table): kept while every brick on the table stands where it has them (the build then goes on towards the same
    tower); else the solver looks for one from the bricks on the table, keeping what it can, within ``steps`` steps
    (seeded: the same table gives the same hint, in the terminal and in any server process). On a map, no edit
    unless towards a tower that meets the map where it stands."""
    _, view, deck, cards, current = _read_view(state)
    ids = tuple(card.id for card in cards)
    if view.get("bricks_hidden"):
        return BuildHint("ok", ids, why="you cannot see the tower: say ok")
    g: Any = state.game
    rule, skip_one = (None, False)
    if g.challenge is not None:
        rule, skip_one = challenge_rule(g.challenge.number, g.options["shake_deg"], g.options["pull_deg"])
    checker = _Checker(cards, deck, rule, skip_one)
    # On a map (challenges 11, 14) the solver's rule holds wherever the tower could be shifted onto the map; the game
    # asks it to stand on the map where it is: a hint says ok, and builds, only there.
    ground = MAPS.get(g.challenge.number) if g.challenge is not None else None

    def meets(bricks: Sequence[Brick]) -> bool:
        on_map = ground is None or not map_problems(bricks, ground)
        return on_map and _sound(deck, bricks) and checker.solved(list(bricks))

    def onto_map(bricks: list[Brick]) -> list[Brick]:
        offset = None if ground is None or not map_problems(bricks, ground) else map_offset(bricks, ground)
        return bricks if offset is None else shifted(bricks, *offset)

    if meets(list(current.values())):
        return BuildHint("ok", ids, tuple(current.values()), True, len(current), "your cards hold on this tower")
    faces = tuple((card.id, card.rule) for card in cards)  # a deck file may give an id another rule
    where = g.challenge and (g.challenge.number, g.options["shake_deg"], g.options["pull_deg"])
    key = (deck, faces, where, steps, seed)

    def tower_from(bricks: Sequence[Brick]) -> tuple[tuple[Brick, ...], bool]:
        """The solver's tower from ``bricks`` (seeded and bounded by steps: the same table, the same tower, in the
        terminal and in any server process), and whether it meets the cards; kept in HINT_TOWERS."""
        at = (*key, tower_key(bricks))
        if at not in HINT_TOWERS:
            start = list(bricks) or None
            if start is None and ground is not None:  # a blind search almost never builds a bridge (as solve_cards)
                start = list(lowered(MAP_TOWERS[g.challenge.number]).values())
            answer = solve(
                cards, deck, rule=rule, skip_one=skip_one, start=start, keep=True, iterations=steps, seed=seed,
                refute=False,
            )  # fmt: skip
            found = (tuple(onto_map(answer.bricks)), True) if answer.bricks else (tuple(answer.closest), False)
            if len(HINT_TOWERS) >= HINT_TOWERS_KEPT:
                HINT_TOWERS.clear()
            HINT_TOWERS[at] = found
        return HINT_TOWERS[at]

    def follows(tower: Sequence[Brick]) -> bool:
        """Every brick on the table stands where ``tower`` has it, and ``tower`` meets the cards on the map."""
        goal = {b.id: b for b in tower}
        return all(b.id in goal and _same(b, goal[b.id]) for b in current.values()) and meets(tower)

    # The target: the tower the hint builds from the empty table, while the table follows it (the build goes on towards
    # the same tower, hint after hint); else the tower found from the table as it stands. Both depend on the table and
    # the seat's cards only, so the terminal and the browser give the same table the same hint, and the server keeps
    # nothing between hints.
    target: list[Brick] | None = None
    met = False
    if previous is None and current:
        first, first_met = tower_from(())
        previous = first if first_met else None
    if previous and follows(previous):
        target, met = list(previous), True
    if target is None:
        bricks, met = tower_from(list(current.values()))
        target = list(bricks)
    if not target:
        return BuildHint(None, ids, why="the solver found no tower within its steps")
    if ground is not None and not met:  # the closest tower off a map meets neither the map nor the cards: no hint
        return BuildHint(None, ids, why=no_map_tower(g.challenge.number, ground.name, ids))
    edit = next_edit(current, target)
    if edit is None or not _allowed(state, edit):
        return BuildHint(None, ids, tuple(target), met, why="no edit left towards it")
    after = _after(current, edit)
    goal = {b.id: b for b in target}
    placed = sum(1 for b in after.values() if b.id in goal and _same(b, goal[b.id]))
    return BuildHint(edit, ids, tuple(build_order(target)), met, placed)
