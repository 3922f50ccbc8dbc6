"""TowerBrix agents: a solo builder that follows the solver's tower, and a teammate that knows only its own cards.

Both see the game only through ``state.view(player)`` (the bricks on the table, their own cards, who said ok, the edit
count, the hand sizes) and the game's public setup (the deck's card list, the edit limit), and answer with one edit or
``ok``. The teammate's convention (one player works at a time; ok, or an edit that leaves a sound tower, means "my
cards hold here"; an edit of a sound tower means "one of mine fails here"; what that tells about the others' hands) is
described in docs/towerbrix-solver.md. What a teammate knows of the others' hands is :mod:`.hands`; the way from the
tower on the table to a target tower (the solo agent's :func:`next_edit`, the teammate's :func:`plan_edit` and
:func:`fewest_edits`) is :mod:`.plans`; the hint for a person, :mod:`.hint`.
"""

from __future__ import annotations

import itertools
from collections.abc import Container, Mapping, Sequence
from typing import Any, ClassVar

from kumiki.agents.base import Agent
from kumiki.core.errors import IllegalMove
from kumiki.core.game import Move, State
from kumiki.core.options import Option
from kumiki.games.towerbrix.bricks import Brick, place
from kumiki.games.towerbrix.cards import Card
from kumiki.games.towerbrix.conditions import Tower as Facts
from kumiki.games.towerbrix.hands import OwnCardsOnly, TeamKnowledge
from kumiki.games.towerbrix.moves import TowerBrixMove, is_edit, parse_towerbrix_move
from kumiki.games.towerbrix.plans import (
    after_edit,
    align,
    carries,
    edits_to,
    fewest_edits,
    is_sound,
    next_edit,
    place_edit,
    plan_edit,
    plan_length,
    plan_step,
    reaches,
    same_place,
    same_tower,
    tower_key,
)
from kumiki.games.towerbrix.rules import _touching_spots
from kumiki.games.towerbrix.solver import _Checker, meets_deck, solve


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
    return is_sound(deck, bricks) and all(card.holds(list(bricks)) for card in cards)


def read_view(state: State) -> tuple[int, dict[str, Any], str, list[Card], dict[str, Brick]]:
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
        _, _, deck, cards, current = read_view(state)
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
REPAIR_FACTOR = 2  # a new tower for a repair gets this many times the solver steps of a plan from the tower
FRESH_EDITS = 6  # with fewer edits left a repair does not look for a new tower (it could not be built in time)
BUILD_FACTOR = 3  # the first tower of an attempt gets this many times the solver steps of a repair
REPAIR_BUDGET = 7  # a repair's searches together get at most this many times the solver steps (issue 18: 3 s a move)


def may_play(state: State, move: str) -> bool:
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
        if brick.id == keep or carries(current, brick):
            continue
        rest = {k: v for k, v in current.items() if k != brick.id}
        others = list(rest.values())
        for axis, x, y in _touching_spots(others, (2.0, 1.0, 1.0), 2):
            moved = place(rest, brick.id, axis, x, y)
            if same_place(moved, brick):
                continue
            trial = [*others, moved]
            if tower_key(trial) in bad:
                continue
            facts = Facts(trial)
            held = sum(bool(card.check(facts)) for card in cards)
            if held <= better_than:
                continue
            value = held + OTHERS_WEIGHT * know.expected(facts) - MOVE_COST
            scored.append((value, held, place_edit(moved), trial))
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
    return brick not in goal or not same_place(goal[brick], current[brick])


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
        Option(
            "reads",
            bool,
            True,
            "reads the others' cards from their oks and edits and plans for them too (false: plans for its own "
            "cards alone, as if it had not watched the table: the easy level)",
        ),
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
        player, view, deck, cards, current = read_view(state)
        game = state.game
        self._free = state.move_seats() is not None
        if not self._remembers(state, view):
            self._rebuild(state, player)
        self._last_editor = _last_editor(state) if self._free else None
        vote = _vote_to_back(view, player)
        if vote is not None and may_play(state, vote):  # no search, no edit: a turn apart
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
            knowledge = TeamKnowledge if self.options["reads"] else OwnCardsOnly
            self._know = knowledge(game.deck, [c.id for c in cards], view["hand_sizes"], player, hand_points)
        edits = int(view.get("edits", 0))
        bricks = list(current.values())
        facts = Facts(bricks)
        sound = is_sound(deck, bricks)
        self._observe(player, view, deck, current, sound, facts, edits)
        if sound and all(card.check(facts) for card in cards):
            return edits, "ok"
        if sound:
            self._bad.add(tower_key(bricks))  # we edit it: our cards fail here
            return edits, "repair"
        return edits, "work" if self._working(view, player, current, edits) else "wait"

    def _play(self, state: State, edit: str, current: Mapping[str, Brick], edits: int) -> Move:
        if not may_play(state, edit):  # e.g. challenge 8, where a placed brick stays: wait instead
            edit = "ok"
        move = state.game.parse_move(edit)
        self._played(edit, current, edits)
        self._seen = [*map(str, state.history), str(move)]
        self._origin = None  # from here on, what we planned is known
        return move

    def _played(self, edit: str, current: Mapping[str, Brick], edits: int) -> None:
        self._edited = edit != "ok"
        self._left = after_edit(current, edit) if self._edited else dict(current)
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
        that get there (:func:`plan_length`), the lifted brick put back last where the plan allows it, so that
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
                if edit is not None and target and reaches(current, target, hold, deck):
                    return edit  # (a plan that never gets there, e.g. a brick put on and off, is made again)
        self._target, self._hold = None, None
        tries = [(list(current.values()), 1), (None, REPAIR_FACTOR)]  # from the tower, else a new tower aligned
        for (start, factor), wanted in itertools.product(tries, self._wishes(cards)):
            plan, solved = self._solve(wanted, deck, start, self.options["iterations"] * factor, retry=False)
            plan = align(plan, current)
            if not solved or tower_key(plan) in self._bad or not is_sound(deck, plan):
                continue
            held = lifted if lifted not in current and any(b.id == lifted for b in plan) else None
            for hold in dict.fromkeys((held, None)):  # the lifted brick last if the plan allows it
                if plan_length(current, plan, hold) is not None:
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
        edit, the edit count): an ok on a sound tower, or an edit of one. (A teammate that does not read the table,
        ``reads`` false, keeps only the towers somebody edited: its ``OwnCardsOnly`` learns nothing.)"""
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
        if last is None or not is_sound(deck, before):
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
        if self._left is not None and edits == self._left_edits and same_tower(current, self._left):
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
                if not solved or tower_key(plan) in self._bad or not is_sound(deck, plan):
                    continue
                moved = sum(1 for b in plan if b.id not in current or not same_place(b, current[b.id]))
                moved += sum(1 for i in current if i not in {b.id for b in plan})
                lift = moved >= 2
                found = edits_to(current, plan, lift)
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
