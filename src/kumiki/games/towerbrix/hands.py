"""What a TowerBrix teammate knows of the others' hidden cards: every hand each may still hold, narrowed by what
the table shows (oks, edits, the points on the cards' backs), and the chance that a tower meets them.

The convention that makes oks and edits informative is described in docs/towerbrix-solver.md ("Agents").
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from kumiki.games.towerbrix.bricks import Brick
from kumiki.games.towerbrix.conditions import Tower as Facts

HANDS_LIMIT = 200_000  # above this many possible hands, a player's possible cards are followed one by one
FEW_HANDS = 200  # a player with at most this many possible hands left: plan for "one of them holds" as a card


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


class OwnCardsOnly(TeamKnowledge):
    """The knowledge of a teammate that plays for its own cards alone (the easy level, ``reads=False``): it reads
    nothing of the others' cards from the table (every hand the cards' backs allow stays possible) and gives the
    others no weight in its plans (no value, no narrowed hands to meet)."""

    def observe(self, player: int, facts: Any, ok: bool, made: bool = False) -> None:
        """Nothing learnt."""

    def retract(self, player: int, facts: Any) -> None:
        """Nothing learnt, nothing to take back."""

    def narrowed(self, limit: int = FEW_HANDS) -> list[AnyHand]:
        """No other hand to meet."""
        return []

    def expected(self, facts: Any) -> float:
        """The others weigh nothing."""
        return 0.0
