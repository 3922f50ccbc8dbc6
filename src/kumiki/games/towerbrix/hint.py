"""The TowerBrix hint: the next edit towards a tower meeting the asking seat's own cards, found by the solver from
the bricks on the table (never from another seat's cards); one wording for the terminal's ``hint`` and the
browser's Hint.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kumiki.core.game import State
from kumiki.games.towerbrix.agents import may_play, read_view
from kumiki.games.towerbrix.bricks import Brick
from kumiki.games.towerbrix.modes import MAPS, map_problems
from kumiki.games.towerbrix.plans import after_edit, is_sound, next_edit, same_place, tower_key
from kumiki.games.towerbrix.solver import (
    _Checker,
    build_order,
    challenge_rule,
    map_offset,
    map_starts,
    shifted,
    solve,
)

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
    _, view, deck, cards, current = read_view(state)
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
        return on_map and is_sound(deck, bricks) and checker.solved(list(bricks))

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
            # A blind search almost never builds a bridge: from the empty table on a map, start (and restart) from
            # the towers that meet it, as solve_cards does, with no cost for leaving them (nothing stands yet).
            starts = map_starts(g.challenge.number) if start is None and ground is not None else []
            answer = solve(
                cards, deck, rule=rule, skip_one=skip_one, start=start, keep=start is not None, iterations=steps,
                seed=seed, refute=False, starts=starts,
            )  # fmt: skip
            found = (tuple(onto_map(answer.bricks)), True) if answer.bricks else (tuple(answer.closest), False)
            if len(HINT_TOWERS) >= HINT_TOWERS_KEPT:
                HINT_TOWERS.clear()
            HINT_TOWERS[at] = found
        return HINT_TOWERS[at]

    def follows(tower: Sequence[Brick]) -> bool:
        """Every brick on the table stands where ``tower`` has it, and ``tower`` meets the cards on the map."""
        goal = {b.id: b for b in tower}
        return all(b.id in goal and same_place(b, goal[b.id]) for b in current.values()) and meets(tower)

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
        if ground is not None and not met and previous and meets(previous):
            # On a map a search from bricks that stand elsewhere than the tower found from the empty table rarely
            # builds a bridge again: rather that tower, its misplaced bricks moved or taken away, than no hint.
            target, met = list(previous), True
    if not target:
        return BuildHint(None, ids, why="the solver found no tower within its steps")
    if ground is not None and not met:  # the closest tower off a map meets neither the map nor the cards: no hint
        return BuildHint(None, ids, why=no_map_tower(g.challenge.number, ground.name, ids))
    edit = next_edit(current, target)
    if edit is None or not may_play(state, edit):
        return BuildHint(None, ids, tuple(target), met, why="no edit left towards it")
    after = after_edit(current, edit)
    goal = {b.id: b for b in target}
    placed = sum(1 for b in after.values() if b.id in goal and same_place(b, goal[b.id]))
    return BuildHint(edit, ids, tuple(build_order(target)), met, placed)
