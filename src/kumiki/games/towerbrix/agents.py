"""TowerBrix agents: a solo builder that follows the solver's tower, and a teammate that knows only its own cards.

Both see the game only through ``state.view(player)`` (the bricks on the table, their own cards, the deck) and answer
with one edit or ``ok``. The way from the tower on the table to a target tower is :func:`next_edit`: move or take away
the bricks that are out of place (always one that carries nothing, so nothing has to drop), then place the missing
bricks bottom face first, so each one lands exactly where the target has it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from kumiki.agents.base import Agent
from kumiki.core.game import Move, State
from kumiki.core.options import Option
from kumiki.games.towerbrix.bricks import Brick, place, touching
from kumiki.games.towerbrix.solver import TOL, build_order, meets_deck, solve


def _same(a: Brick, b: Brick) -> bool:
    return a.axis == b.axis and all(abs(p - q) <= TOL for p, q in zip(a.box, b.box, strict=True))


def _carries(tower: Mapping[str, Brick], brick: Brick) -> bool:
    for other in tower.values():
        if other.id != brick.id and abs(other.box[2] - brick.box[5]) <= TOL:
            a, b = other.box, brick.box
            if min(a[3], b[3]) - max(a[0], b[0]) > TOL and min(a[4], b[4]) - max(a[1], b[1]) > TOL:
                return True
    return False


def _num(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else str(v)


def _edit(brick: Brick) -> str:
    return f"{brick.id} {brick.axis} {_num(brick.box[0])},{_num(brick.box[1])}"


def next_edit(current: Mapping[str, Brick], target: Sequence[Brick], grow_first: bool = False) -> str | None:
    """The next edit (notation) from ``current`` towards ``target``, or None when they are the same tower.
    ``grow_first``: place a missing brick that lands where the target has it before moving any other."""
    goal = {b.id: b for b in target}
    if grow_first:
        for want in build_order(target):
            if want.id in current:
                continue
            landed = place(current, want.id, want.axis, want.box[0], want.box[1])
            if _same(landed, want) and (not current or any(touching(landed, b) for b in current.values())):
                return _edit(want)
    wrong = [b for b in current.values() if b.id not in goal or not _same(b, goal[b.id])]
    if wrong:
        free = [b for b in wrong if not _carries(current, b)]
        if not free:  # every misplaced brick carries something: clear the top of the tower first
            free = [b for b in current.values() if not _carries(current, b)]
        for brick in sorted(free, key=lambda b: -b.box[5]):
            if brick.id in goal:
                rest = {k: v for k, v in current.items() if k != brick.id}
                want = goal[brick.id]
                if _same(place(rest, brick.id, want.axis, want.box[0], want.box[1]), want):
                    return _edit(want)
        return f"-{max(free, key=lambda b: b.box[5]).id}"
    for want in build_order(target):
        if want.id not in current:
            return _edit(want)
    return None


def _view_bricks(view: Mapping[str, Any]) -> dict[str, Brick]:
    return {b["id"]: Brick.from_json(b) for b in view.get("bricks", [])}


def _view_deck(state: State) -> str:
    """Which bricks the game is played with ("green" or "pink"): public, part of the game's setup."""
    return "pink" if getattr(state.game, "bricks_rule", "green") == "pink" else "green"


def own_cards(view: Mapping[str, Any], player: int) -> list[Any]:
    """``player``'s own cards, as their view shows them (ids in ``hands[player]``, faces in ``cards``)."""
    from kumiki.games.towerbrix.cards import Card

    faces = view.get("cards") or {}
    hands = view.get("hands") or []
    ids = hands[player] if len(hands) > player and hands[player] is not None else list(faces)
    return [Card(**{k: faces[i][k] for k in ("id", "deck", "points", "text", "rule")}) for i in ids if i in faces]


def _satisfied(cards: Sequence[Any], deck: str, bricks: Sequence[Brick]) -> bool:
    from kumiki.games.towerbrix.bricks import connected, judge

    if not bricks or not meets_deck(bricks, deck) or not connected(bricks) or not judge(bricks).stands:
        return False
    return all(card.holds(list(bricks)) for card in cards)


ONE_EDIT_TRIES = 250


def one_edit_improvement(cards: Sequence[Any], deck: str, current: Mapping[str, Brick], seed: int) -> str | None:
    """On a complete valid tower, the single edit (moving one brick that carries nothing, or adding a missing one)
    that makes the most of ``cards`` hold, if it makes more hold than now and leaves the tower valid; else None.
    One edit at a time keeps the tower whole for the others, whose cards we do not know."""
    import random

    from kumiki.games.towerbrix.solver import _candidate, _Checker, deck_ids

    checker = _Checker(cards, deck, None, False)
    bricks = list(current.values())
    if not bricks or not checker.valid(bricks):
        return None
    ids = deck_ids(deck)
    now = checker.held(bricks) if meets_deck(bricks, deck) else -1
    rng = random.Random(seed)
    movable = [i for i in ids if i not in current] or [b.id for b in bricks if not _carries(current, b)]
    best: tuple[int, str] | None = None
    for _ in range(ONE_EDIT_TRIES):
        brick_id = rng.choice(movable)
        rest = {k: v for k, v in current.items() if k != brick_id}
        moved = _candidate(rng, rest, brick_id, 0.5)
        trial = [*rest.values(), moved]
        if not meets_deck(trial, deck) or not checker.valid(trial):
            continue
        held = checker.held(trial)
        if held > now and (best is None or held > best[0]):
            best = (held, _edit(moved))
            if held == len(cards):
                break
    return best[1] if best else None


class _TowerAgent(Agent):
    """Shared machinery: read the view, keep a target tower, play the next edit towards it."""

    option_spec: ClassVar[tuple[Option, ...]] = (
        Option("seconds", float, 2.0, "the solver's time for one plan", minimum=0.05),
        Option("seed", int, 0, "the solver's seed"),
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._target: list[Brick] | None = None
        self._key: tuple[Any, ...] | None = None
        self._plans = 0
        self._expected: dict[str, tuple[float, ...]] | None = None

    def choose(self, state: State) -> Move:
        player = state.to_move
        if player is None:
            raise ValueError("the game is over: there is no move to choose")
        view = state.view(player)
        deck = _view_deck(state)
        cards = own_cards(view, player)
        current = _view_bricks(view)
        if _satisfied(cards, deck, list(current.values())):
            return state.game.parse_move("ok")
        if self.keep_tower:
            step = one_edit_improvement(cards, deck, current, self.options["seed"] + len(state.history))
            if step is not None:
                self._target = None
                return state.game.parse_move(step)
        key = (deck, tuple(sorted(c.id for c in cards)))
        edit = (
            next_edit(current, self._target, self.keep_tower) if self._target is not None and key == self._key else None
        )
        if edit is None or not self._still_on_course(current):
            self._plans += 1
            start = list(current.values()) if self.keep_tower else None
            answer = solve(
                cards,
                deck,
                seconds=self.options["seconds"],
                seed=self.options["seed"] + self._plans,
                start=start,
                keep=self.keep_tower,
                refute=False,
                polish=self.polish,
            )
            self._target = answer.bricks or answer.closest or None
            self._key = key
            edit = next_edit(current, self._target, self.keep_tower) if self._target else None
            if edit is None:  # no better tower near this one: look further, without keeping the tower
                answer = solve(cards, deck, seconds=4 * self.options["seconds"], seed=self._plans, refute=False)
                self._target = answer.bricks or None
                edit = next_edit(current, self._target, self.keep_tower) if self._target else None
        if edit is None:
            return state.game.parse_move("ok")
        move = state.game.parse_move(edit)
        after = state.copy()
        after.play(move)
        self._expected = {i: b.box for i, b in _view_bricks(after.view(player)).items()}
        return move

    keep_tower: ClassVar[bool] = False
    polish: ClassVar[float] = 0.25

    def _still_on_course(self, current: Mapping[str, Brick]) -> bool:
        """Every brick on the table is either where the target has it or one we still have to move."""
        return True


class SoloAgent(_TowerAgent):
    """Solo play (cards face up): solve once, then build the solver's tower edit by edit, then say ok. In a team
    game it plays the same way on its own cards only (it is then a teammate that does not keep the others' work)."""

    name = "towerbrix-solo"


class TeammateAgent(_TowerAgent):
    """A teammate who knows only its own cards: if they hold on a valid tower it says ok; otherwise it searches,
    starting from the tower on the table, for a tower that meets them, and plays one edit towards it. Starting the
    search from the shared tower keeps what it can of the others' work; a plan is kept while the others leave the
    bricks it placed alone, and made again when they change the tower."""

    name = "towerbrix-teammate"
    keep_tower = True
    polish = 0.05
    option_spec: ClassVar[tuple[Option, ...]] = (
        Option("seconds", float, 0.5, "the solver's time for one plan", minimum=0.05),
        Option("seed", int, 0, "the solver's seed"),
    )

    def _still_on_course(self, current: Mapping[str, Brick]) -> bool:
        """The tower is as we left it: nobody else has changed it since our last edit (else plan again from it)."""
        return self._expected == {i: b.box for i, b in current.items()}
