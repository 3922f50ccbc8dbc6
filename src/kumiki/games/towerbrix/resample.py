"""The hidden cards of a TowerBrix position drawn again as one seat sees them (OpenSpiel's ``ResampleFromInfostate``).

What a seat does not see in a position is this attempt's deal to the other seats and the order of the stacks (and,
with them, every draw to come). What it sees fixes a great deal: its own cards and their places in its hand, how
many cards each seat holds, the total drawn (so how many 2- and 3-point cards were dealt), how many cards each stack
and each discard pile holds, and every card of an evaluated attempt (revealed), which tells which cards are in the
discard piles and which were in the stacks when this attempt was dealt (``piles_before_deal``).

``resample`` draws the hidden part from the deal's own chance process given all that: the sequence of card values
the deal drew (each draw picks at random among the stacks whose card still lets the cards left make the total, as
``TowerBrixState._deal`` does) with the probability the process gives it, among the sequences that put the seat's
own cards where they are (``_kind_sequence``: a dynamic program over the draws, exact); then which card each draw
was: a stack's draws are its cards in a uniformly random order, and after a mid-deal reshuffle the discards' cards
in a uniformly random order (so a card of the stack is dealt before any discard). That is the posterior of chance
given the seat's view, the seats' past moves aside: how the other seats played is not taken as a sign of their cards
(their strategies are unknown), as OpenSpiel's own games do. Where every deal has the same chance (the intro
variant, no reshuffle) it is uniform over the hands that fit the view. The random number generator of the draws to
come is seeded from the sampler too, so the future deals are drawn afresh.

In challenge 10 the blind seat does not see the tower either: for it the current build's edits are drawn again too,
each uniformly among the edits its seat could make then (``_redraw_build``), which leaves its legal actions (ok, a
vote) as they were. Every other seat sees the tower, which is kept.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from kumiki.games.towerbrix.modes import makeable
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


def _pick(weights: list[float], uniform: Uniform) -> int:
    """The index ``uniform()`` falls on in the cumulative ``weights`` (OpenSpiel reads the sampler as a CDF)."""
    target = uniform() * sum(weights)
    for index, weight in enumerate(weights):
        if target < weight:
            return index
        target -= weight
    return max(i for i, w in enumerate(weights) if w > 0)  # rounding at the top end


def _shuffled(cards: list[str], uniform: Uniform) -> list[str]:
    """``cards`` in a uniformly random order (Fisher-Yates with ``uniform``)."""
    out = sorted(cards)
    for i in range(len(out) - 1, 0, -1):
        j = min(int(uniform() * (i + 1)), i)
        out[i], out[j] = out[j], out[i]
    return out


def _kind_sequence(
    state: TowerBrixState,
    known: dict[int, tuple[int, bool]],
    piles: dict[int, tuple[set[str], list[str]]],
    uniform: Uniform,
) -> list[int]:
    """The point value of each draw of this deal, drawn from the deal's chance process given ``known`` (draw index ->
    (points, from the stack rather than after a reshuffle)) for the observer's own cards."""
    g = state.game
    m = sum(len(hand) for hand in state.hands)
    size = {p: len(piles[p][0]) for p in (2, 3)}
    left0 = {p: len(piles[p][0]) + len(piles[p][1]) for p in (2, 3)}
    intro = g.mode == "intro"
    total = state.total

    def choices(j: int, twos: int) -> list[tuple[int, float]]:
        """The values draw ``j`` may have after ``twos`` 2-point draws, each with the process's probability."""
        if intro:
            kinds = [2]
        else:
            threes = j - twos
            left = {2: left0[2] - twos, 3: left0[3] - threes}
            remaining = total - 2 * twos - 3 * threes
            kinds = [p for p in (2, 3) if left[p] and makeable(remaining - p, left[2] - (p == 2), left[3] - (p == 3))]
        out = []
        for p in kinds:
            if j in known:
                points, from_stack = known[j]
                drawn_before = twos if p == 2 else j - twos
                if p != points or (drawn_before < size[p]) != from_stack:
                    continue
            out.append((p, 1.0 / len(kinds)))
        return out

    # weight[j][twos]: the probability of the draws from j on that fit what is known, after ``twos`` 2-point draws
    weight = [[0.0] * (m + 2) for _ in range(m + 1)]
    for twos in range(m + 1):
        weight[m][twos] = 1.0 if intro or 2 * twos + 3 * (m - twos) == total else 0.0
    for j in range(m - 1, -1, -1):
        for twos in range(j + 1):
            weight[j][twos] = sum(q * weight[j + 1][twos + (p == 2)] for p, q in choices(j, twos))
    if weight[0][0] <= 0.0:
        raise RuntimeError("towerbrix: no deal fits the seat's view (the deal's rules changed?)")
    kinds: list[int] = []
    twos = 0
    for j in range(m):
        options = choices(j, twos)
        p = options[_pick([q * weight[j + 1][twos + (p == 2)] for p, q in options], uniform)][0]
        kinds.append(p)
        twos += p == 2
    return kinds


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
    known: dict[int, tuple[int, bool]] = {}
    own = {j: state.hands[player][j // n] for j in range(m) if seat_of[j] == player}
    for j, card in own.items():
        points = g.cards[card].points
        known[j] = (points, card in piles[points][0])
    kinds = _kind_sequence(state, known, piles, uniform)
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
