"""TowerBrix agents: a solo builder that follows the solver's tower, and a teammate that knows only its own cards.

Both see the game only through ``state.view(player)`` (the bricks on the table, their own cards, who said ok, the hand
sizes) and the game's public setup (the deck's card list), and answer with one edit or ``ok``. The teammate's
convention (keep the others' bricks, infer from their oks which cards they may hold, never leave a broken tower) is
described in docs/towerbrix-solver.md. The way from the tower on the table to a target tower is :func:`next_edit`:
move or take away the bricks that are out of place (always one that carries nothing, so nothing has to drop), then
place the missing bricks bottom face first, so each one lands exactly where the target has it.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Mapping, Sequence
from typing import Any, ClassVar

from kumiki.agents.base import Agent
from kumiki.core.game import Move, State
from kumiki.core.options import Option
from kumiki.games.towerbrix.bricks import Brick, connected, judge, place, touching
from kumiki.games.towerbrix.cards import Card
from kumiki.games.towerbrix.conditions import Tower as Facts
from kumiki.games.towerbrix.rules import _touching_spots
from kumiki.games.towerbrix.solver import TOL, _Checker, build_order, deck_ids, meets_deck, solve


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
    faces = view.get("cards") or {}
    hands = view.get("hands") or []
    ids = hands[player] if len(hands) > player and hands[player] is not None else list(faces)
    return [Card(**{k: faces[i][k] for k in ("id", "deck", "points", "text", "rule")}) for i in ids if i in faces]


def _satisfied(cards: Sequence[Any], deck: str, bricks: Sequence[Brick]) -> bool:
    if not bricks or not meets_deck(bricks, deck) or not connected(bricks) or not judge(bricks).stands:
        return False
    return all(card.holds(list(bricks)) for card in cards)


def _read_view(state: State) -> tuple[int, dict[str, Any], str, list[Card], dict[str, Brick]]:
    """What the player to move sees: (player, view, brick set, own cards, bricks on the table by id)."""
    player = state.to_move
    if player is None:
        raise ValueError("the game is over: there is no move to choose")
    view = state.view(player)
    return player, view, _view_deck(state), own_cards(view, player), _view_bricks(view)


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
        player, _, deck, cards, current = _read_view(state)
        if _satisfied(cards, deck, list(current.values())):
            return state.game.parse_move("ok")
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


OTHERS_WEIGHT = 1.0  # a broken card of another player's (expected) weighs this many of our own cards
MINE_COST = 0.2  # the teammate's score lost for moving a brick it placed itself (it knows why the brick is there)
THEIRS_COST = 0.6  # ... a brick another player placed or moved (it may be there for cards we cannot see)
CONTESTED_COST = 1.5  # ... a brick another player moved after we had placed it (it surely matters to them): more
#   than one card, so a single move never takes it back for one card of ours (that is how teammates ping-pong)


class OthersCards:
    """What a player can know of the others' cards from public facts alone: the deck is public, and a player who
    said ok since the last edit holds only cards that hold on the tower now. ``penalty`` is the expected number of
    the others' cards a change of the tower breaks (each player's hand drawn uniformly from its possible cards)."""

    def __init__(self, deck: Sequence[Any], own: Iterable[str], players: int, me: int) -> None:
        own = set(own)
        self.all = [card for card in deck if card.id not in own]
        self.possible = {q: list(self.all) for q in range(players) if q != me}

    def observe(self, oks: Iterable[int], facts: Any) -> None:
        for q in oks:
            if q in self.possible:
                kept = [card for card in self.possible[q] if card.check(facts)]
                self.possible[q] = kept or list(self.all)  # nothing left: that player did not play by our rules

    def baseline(self, facts: Any, hand_sizes: Sequence[int]) -> list[tuple[Any, float]]:
        """The cards that hold now, each with its weight (the expected number of copies in the others' hands)."""
        weight: dict[str, float] = {}
        cards: dict[str, Any] = {}
        for q, possible in self.possible.items():
            size = hand_sizes[q] if q < len(hand_sizes) else 0
            if not size or not possible:
                continue
            for card in possible:
                if card.check(facts):
                    weight[card.id] = weight.get(card.id, 0.0) + size / len(possible)
                    cards[card.id] = card
        return [(cards[i], w) for i, w in weight.items()]

    @staticmethod
    def penalty(baseline: Sequence[tuple[Any, float]], facts: Any) -> float:
        return OTHERS_WEIGHT * sum(w for card, w in baseline if not card.check(facts))


def _after(current: Mapping[str, Brick], edit: str) -> dict[str, Brick]:
    """The tower after the edit ``edit`` (notation) is played on ``current``."""
    after = dict(current)
    if edit.startswith("-"):
        after.pop(edit[1:], None)
        return after
    brick_id, axis, corner = edit.split()
    x, y = (float(v) for v in corner.split(","))
    after.pop(brick_id, None)
    after[brick_id] = place(after, brick_id, axis, x, y)
    return after


def _stands(tower: Mapping[str, Brick]) -> bool:
    """Connected and standing (whatever the deck rule): the others can build on it."""
    bricks = list(tower.values())
    return connected(bricks) and judge(bricks).stands


def _tower_key(bricks: Iterable[Brick]) -> frozenset[tuple[str, tuple[float, ...]]]:
    return frozenset((b.id, b.box) for b in bricks)


def best_single_edit(
    cards: Sequence[Any],
    deck: str,
    current: Mapping[str, Brick],
    costs: Mapping[str, float],
    tabu: Container[frozenset[tuple[str, tuple[float, ...]]]] = (),
    only: Container[str] | None = None,
    gain: bool = True,
    others: Sequence[tuple[Any, float]] = (),
) -> str | None:
    """On a complete tower, the single move of one brick that carries nothing which leaves the tower valid and, if
    the tower is valid now, makes more of ``cards`` hold: the one with the best (cards held - cost of the brick
    moved), else None. (On an invalid tower any move that makes it valid counts: the others can then go on.)
    A move must improve by more than its cost, and never leads to a tower in ``tabu`` (ones the others undid).
    ``only``: move only these bricks; ``gain=False``: a move that keeps as many cards holding is enough.
    ``others``: the others' possible cards that hold now, weighted (:class:`OthersCards`); breaking them costs.

    Every placement where the lowered brick touches the rest of the tower is tried (a full enumeration, not a
    sample); the judge is only asked about the candidates in order of merit, until one stands."""

    checker = _Checker(cards, deck, None, False)
    bricks = list(current.values())
    if not bricks or not meets_deck(bricks, deck):
        return None
    now = checker.held(bricks) if checker.valid(bricks) else -1
    scored: list[tuple[float, str, Brick]] = []
    for brick in bricks:
        if _carries(current, brick) or (only is not None and brick.id not in only):
            continue
        rest = {k: v for k, v in current.items() if k != brick.id}
        for axis, x, y in _touching_spots(list(rest.values()), (2.0, 1.0, 1.0), 0.5):
            moved = place(rest, brick.id, axis, x, y)
            if _same(moved, brick):
                continue
            facts = Facts([*rest.values(), moved])
            held = sum(bool(card.check(facts)) for card in cards)
            cost = costs.get(brick.id, THEIRS_COST) if gain else 0.0
            if not (held - cost > now if gain else held >= now):
                continue
            cost += OthersCards.penalty(others, facts)
            if (held - cost > now or not gain) and _tower_key([*rest.values(), moved]) not in tabu:
                scored.append((held - cost, _edit(moved), moved))
    scored.sort(key=lambda item: (-item[0], item[1]))
    for _, edit, moved in scored[:80]:
        if checker.valid([moved, *(b for b in bricks if b.id != moved.id)]):
            return edit
    return None


def valid_step_towards(
    deck: str,
    current: Mapping[str, Brick],
    target: Sequence[Brick],
    tabu: Container[frozenset[tuple[str, tuple[float, ...]]]] = (),
) -> str | None:
    """A move of one brick that carries nothing straight to its place in ``target`` that keeps the tower complete
    and valid (so the others are never left with a broken tower), or None."""

    checker = _Checker([], deck, None, False)
    for want in build_order(target):
        have = current.get(want.id)
        if have is None or _same(have, want) or _carries(current, have):
            continue
        rest = {k: v for k, v in current.items() if k != want.id}
        moved = place(rest, want.id, want.axis, want.box[0], want.box[1])
        trial = [*rest.values(), moved]
        if _same(moved, want) and _tower_key(trial) not in tabu and checker.valid(trial):
            return _edit(moved)
    return None


def best_addition(
    cards: Sequence[Any], deck: str, current: Mapping[str, Brick], others: Sequence[tuple[Any, float]] = ()
) -> str | None:
    """On an incomplete tower that is valid so far, the placement of a missing brick (touching the tower) that keeps
    it valid and makes the most of ``cards`` hold on the bricks placed so far; None if no placement stands."""

    checker = _Checker(cards, deck, None, False)
    bricks = list(current.values())
    if bricks and not checker.valid(bricks):
        return None
    missing = [i for i in deck_ids(deck) if i not in current]
    missing = [i for k, i in enumerate(missing) if all(m[0] != i[0] for m in missing[:k])]  # one per colour
    scored: list[tuple[float, str, Brick]] = []
    for brick_id in missing:
        for axis, x, y in _touching_spots(bricks, (2.0, 1.0, 1.0), 0.5):
            added = place(current, brick_id, axis, x, y)
            facts = Facts([*bricks, added])
            held = sum(bool(card.check(facts)) for card in cards) - OthersCards.penalty(others, facts)
            scored.append((held, _edit(added), added))
    scored.sort(key=lambda item: (-item[0], item[2].box[2], item[1]))
    for _, edit, added in scored[:60]:
        if checker.valid([*bricks, added]):
            return edit
    return None


class TeammateAgent(_TowerAgent):
    """A teammate who knows only its own cards and plays by a convention that needs no hidden information:

    - if its cards hold on a valid tower it says ok (and does nothing else);
    - while the tower is incomplete or invalid it builds towards a tower that meets its cards, searched from the
      tower on the table so that the others' bricks stay where they are;
    - on a complete valid tower that fails its cards it plays the single brick move that makes the most of its cards
      hold, preferring to move its own bricks over the others' (it remembers which bricks it placed and which ones the
      others moved since its last turn, all public); only if no single move helps does it plan several edits, again
      with a cost on every brick moved, higher for the others' bricks.
    """

    name = "towerbrix-teammate"
    keep_tower = True
    polish = 0.05
    option_spec: ClassVar[tuple[Option, ...]] = (
        Option("seconds", float, 0.5, "the solver's time for one plan", minimum=0.05),
        Option("seed", int, 0, "the solver's seed"),
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._attempt: tuple[Any, ...] | None = None
        self._mine: set[str] = set()
        self._contested: set[str] = set()
        self._tabu: set[frozenset[tuple[str, tuple[float, ...]]]] = set()
        self._left: frozenset[tuple[str, tuple[float, ...]]] | None = None
        self._others: OthersCards | None = None

    def _costs(self, current: Mapping[str, Brick]) -> dict[str, float]:
        return {
            i: CONTESTED_COST if i in self._contested else MINE_COST if i in self._mine else THEIRS_COST
            for i in current
        }

    def _observe(self, view: Mapping[str, Any], current: Mapping[str, Brick]) -> None:
        """Note which bricks the others changed since our last edit (public: the tower is on the table)."""
        attempt = (view.get("round"), view.get("attempt"), view.get("attempts_used"))
        if attempt != self._attempt:
            self._attempt, self._mine, self._contested, self._expected, self._target = attempt, set(), set(), None, None
            self._tabu = set()
            self._others = None
            return
        if self._expected is None:
            return
        if self._expected != {i: b.box for i, b in current.items()} and self._left is not None:
            self._tabu.add(self._left)  # the others undid (part of) our last edit: do not make that tower again
        for brick_id in set(current) | set(self._expected):
            was = self._expected.get(brick_id)
            now = current[brick_id].box if brick_id in current else None
            if was != now:
                if brick_id in self._mine:
                    self._contested.add(brick_id)
                self._mine.discard(brick_id)

    def choose(self, state: State) -> Move:
        player, view, deck, cards, current = _read_view(state)
        self._observe(view, current)
        if self._others is None:
            self._others = OthersCards(state.game.deck, (c.id for c in cards), len(view["hand_sizes"]), player)
        facts = Facts(list(current.values()))
        self._others.observe(view.get("oks", ()), facts)
        others = self._others.baseline(facts, view["hand_sizes"])
        if _satisfied(cards, deck, list(current.values())):
            return state.game.parse_move("ok")
        costs = self._costs(current)
        complete = meets_deck(list(current.values()), deck)
        edit = best_single_edit(cards, deck, current, costs, self._tabu, others=others) if complete else None
        if edit is not None:
            self._target = None
        else:
            key = (deck, tuple(sorted(c.id for c in cards)))
            on_course = self._target is not None and key == self._key and self._expected is not None
            on_course = on_course and self._expected == {i: b.box for i, b in current.items()}
            edit = next_edit(current, self._target, True) if on_course and self._target else None
            if edit is None:
                self._plans += 1
                answer = solve(
                    cards,
                    deck,
                    seconds=self.options["seconds"],
                    seed=self.options["seed"] + self._plans,
                    start=list(current.values()),
                    keep=True,
                    refute=False,
                    polish=self.polish,
                    costs=costs,
                    extra=lambda bricks: OthersCards.penalty(others, Facts(list(bricks))) if others else 0.0,
                )
                self._target = answer.bricks or answer.closest or None
                self._key = key
                edit = next_edit(current, self._target, True) if self._target else None
            if complete and self._target:
                # Keep the tower whole: a step of the plan that leaves it valid, if there is one.
                step = valid_step_towards(deck, current, self._target, self._tabu)
                if step is None and edit is not None and edit.startswith("-"):
                    # Rather than take a brick away (the others would place it anew), park a misplaced one where the
                    # tower stays valid and our cards do not suffer.
                    goal = {b.id: b for b in self._target}
                    wrong = {i for i, b in current.items() if i not in goal or not _same(b, goal[i])}
                    step = best_single_edit(
                        cards, deck, current, costs, self._tabu, only=wrong, gain=False, others=others
                    )
                edit = step or edit
            breaks = edit is not None and _stands(current) and not _stands(_after(current, edit))
            if not complete and (edit is None or breaks or edit.startswith("-") or edit.split()[0] in current):
                # While the tower is being built, only add bricks: moving the others' would undo their work.
                edit = best_addition(cards, deck, current, others) or edit
            elif complete and (edit is None or breaks):
                # Never leave the others a broken tower: a move that keeps it valid and our cards as they are.
                edit = best_single_edit(cards, deck, current, costs, self._tabu, gain=False, others=others) or edit
            if edit is None:  # no better tower near this one: look further, without keeping the tower
                answer = solve(cards, deck, seconds=4 * self.options["seconds"], seed=self._plans, refute=False)
                self._target = answer.bricks or None
                edit = next_edit(current, self._target, True) if self._target else None
        if edit is None:
            return state.game.parse_move("ok")
        move = state.game.parse_move(edit)
        after = _after(current, edit)
        if edit.startswith("-"):
            self._mine.discard(edit[1:])
        else:
            brick_id = edit.split()[0]
            self._mine.add(brick_id)
            self._contested.discard(brick_id)
        self._expected = {i: b.box for i, b in after.items()}
        self._left = _tower_key(after.values())
        return move
