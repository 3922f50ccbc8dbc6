"""The hidden cards of a TowerBrix position drawn again as one seat sees them (OpenSpiel's ``ResampleFromInfostate``).

What a seat does not see in a position is which cards this attempt dealt to the other seats (their conditions) and the
order of the stacks (and, with them, every draw to come). What it sees fixes a great deal: its own cards and their
places in its hand, the points on the back of every seat's cards (so the value of every draw of the deal), how many
cards each stack and each discard pile holds, and every card of an evaluated attempt (revealed), which tells which
cards are in the discard piles and which were in the stacks when this attempt was dealt (``piles_before_deal``).

``resample`` draws the hidden part from the deal's own chance process given all that: a stack's draws are its cards
in a uniformly random order, and after a mid-deal reshuffle the discards' cards in a uniformly random order (so a
card of the stack is dealt before any discard). That is the posterior of chance given the seat's view, the seats'
past moves aside: how the other seats played is not taken as a sign of their cards (their strategies are unknown),
as OpenSpiel's own games do: uniform over the cards of each value that fit the view. The random number generator of
the draws to come is seeded from the sampler too, so the future deals are drawn afresh.

In challenge 10 the blind seat does not see the tower either: for it the current build's edits are drawn again too,
each uniformly among the edits its seat could make then (``_redraw_build``), which leaves its legal actions (ok, a
vote) as they were. Every other seat sees the tower, which is kept.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from kumiki.games.towerbrix.moves import is_edit

if TYPE_CHECKING:
    from kumiki.games.towerbrix.rules import TowerBrixState

Uniform = Callable[[], float]  # a number in [0, 1), OpenSpiel's probability sampler


def piles_before_deal(state: TowerBrixState) -> dict[int, tuple[set[str], list[str]]]:
    """For each point value, the cards of its stack and of its discard pile just before this attempt was dealt, as
    any seat can tell them from the evaluated attempts (each lists every card it dealt): a deal draws a stack's
    cards, and once the stack is empty shuffles the discard pile into it."""
    g = state.game
    stacks: dict[int, set[str]] = {2: set(), 3: set()}
    discards: dict[int, list[str]] = {2: [], 3: []}
    for card in g.deck:
        if g.mode != "intro" or card.points == 2:
            stacks[card.points].add(card.id)
    for evaluation in state.evaluations:
        for points in (2, 3):
            drawn = [c["id"] for c in evaluation["cards"] if c["points"] == points]
            if len(drawn) > len(stacks[points]):  # the stack ran out during that deal: the discards went in
                stacks[points] = (stacks[points] | set(discards[points])) - set(drawn)
                discards[points] = []
            else:
                stacks[points] -= set(drawn)
            discards[points].extend(drawn)
    return {p: (stacks[p], discards[p]) for p in (2, 3)}


def _shuffled(cards: list[str], uniform: Uniform) -> list[str]:
    """``cards`` in a uniformly random order (Fisher-Yates with ``uniform``)."""
    out = sorted(cards)
    for i in range(len(out) - 1, 0, -1):
        j = min(int(uniform() * (i + 1)), i)
        out[i], out[j] = out[j], out[i]
    return out


def resample(state: TowerBrixState, player: int, uniform: Uniform) -> TowerBrixState:
    """A copy of ``state`` whose hidden part, as ``player`` sees it, is drawn again with ``uniform`` (see the module):
    the other seats' cards, the stacks' order and the draws to come. ``player``'s view, its information state and
    its legal actions are those of ``state``."""
    g = state.game
    twin = state.copy()
    twin.rng = random.Random(int(uniform() * 2**53))  # the draws to come: chance again
    if state.over or g.players == 1:
        return twin
    n = g.players
    first = state.round % n
    m = sum(len(hand) for hand in state.hands)
    seat_of = [(first + j) % n for j in range(m)]
    piles = piles_before_deal(state)
    own = {j: state.hands[player][j // n] for j in range(m) if seat_of[j] == player}
    # every draw's value is on the back of the card it dealt, which every seat sees
    kinds = [g.cards[state.hands[seat_of[j]][j // n]].points for j in range(m)]
    drawn: list[str | None] = [own.get(j) for j in range(m)]
    mine = set(own.values())
    for points in (2, 3):
        stack, discards = piles[points]
        slots = [j for j in range(m) if kinds[j] == points]
        from_stack, after = slots[: len(stack)], slots[len(stack) :]
        pool = _shuffled([c for c in stack if c not in mine], uniform)
        for j in from_stack:
            if drawn[j] is None:
                drawn[j] = pool.pop()
        if after:  # the stack ran out: the discards were shuffled into it
            pool = _shuffled([c for c in discards if c not in mine], uniform)
            for j in after:
                if drawn[j] is None:
                    drawn[j] = pool.pop()
        twin.stacks[points] = pool
        if after:
            twin.discards[points] = []
    hands: list[list[str]] = [[] for _ in range(n)]
    for j, dealt in enumerate(drawn):
        assert dealt is not None
        hands[seat_of[j]].append(dealt)
    for seat in range(n):
        if len(hands[seat]) != len(state.hands[seat]) or (seat == player and hands[seat] != state.hands[seat]):
            raise RuntimeError("towerbrix: the resampled deal does not fit the seat's view (the deal changed?)")
    twin.hands = hands
    if player == g.blind:
        return _redraw_build(twin, state, uniform)
    return twin


def _redraw_build(twin: TowerBrixState, state: TowerBrixState, uniform: Uniform) -> TowerBrixState:
    """Challenge 10's blind seat sees that a brick was placed or taken away, never which or where: the build so far
    played again from its start with each edit drawn uniformly among the edits its seat could make then (as
    OpenSpiel's games draw actions a seat saw only in part), every other move as it was. The edit count, the thumbs
    and the votes are those of ``state``; a build that cannot be played again so (an edit with none left) keeps the
    tower of ``state``."""
    g = state.game
    encoding = g.encoding
    start = state.evaluations[-1]["moves"] if state.evaluations else 0
    build = list(zip(state.history[start:], state.movers[start:], strict=True))
    if not any(is_edit(move) for move, _ in build):
        return twin
    again = twin.copy()
    again.history, again.movers = list(state.history[:start]), list(state.movers[:start])
    again.bricks, again.oks, again.edits, again.votes, again.voted = {}, set(), 0, {}, {}
    again.to_move = state.movers[start] if build else state.to_move
    for move, seat in build:
        if is_edit(move):
            candidates = [a for a in encoding.legal_actions(again, seat) if a > 1]  # 0 is ok, 1 time
            drawn = None
            while candidates and drawn is None:
                action = candidates.pop(min(int(uniform() * len(candidates)), len(candidates) - 1))
                choice = encoding.decode(action, again)
                drawn = choice if is_edit(choice) else None  # a waive vote is no edit
            if drawn is None:
                return twin
            move = drawn
        again.play(move, seat)
    if again.over or again.to_move != state.to_move or again.edits != state.edits or again.oks != state.oks:
        return twin  # pragma: no cover - the same moves but the edits end a build the same way
    return again
