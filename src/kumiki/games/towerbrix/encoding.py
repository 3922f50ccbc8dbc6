"""TowerBrix's action encoding and observation tensor (see docs/interop.md).

Actions: ``0`` is ``ok``, ``1`` is ``time`` (challenge 2's clock), ``2 … 1+B`` take away each usable brick (``B`` of
them: ``Y1 Y2 P1 P2 R1 R2 B1 B2``, and ``G`` with the pink deck), then the placements, numbered by brick, axis
(``x y z``), corner ``x``, corner ``y``, for every grid corner within ``R`` of the origin on both axes; with
waive votes (challenges 9 and 13, ``waive="vote"``), then a vote for every seat's card by its place in the hand
(``waive s.k``: ``D`` actions a seat, ``D`` the deck's cards).

The table is unbounded, so no finite numbering covers every corner: ``R`` is ``B`` times the brick's longest side
(16 with the green deck and 2×1×1 bricks), rounded up to the grid, the farthest a listed placement can be from the
first brick (at ``0,0``) while the tower stays connected. It is the longest side, not the one written first (a
``brick`` such as ``1x3x1`` is wider than long), and a whole number of grid steps, so that ``-R`` is a corner: with
``1.3x1x1`` bricks ``R`` = 10.4 was off the 0.5 grid, and no placement had an action. A placement beyond ``R`` (a
tower walked away by taking bricks off behind it) has no action and is left out of the adapters' legal actions;
``ok`` always has one, so a seat is never without an action.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from kumiki.core.encoding import Encoding, Tensor
from kumiki.games.towerbrix.bricks import AXES
from kumiki.games.towerbrix.moves import OK, TIME, TowerBrixMove, place_move, remove_move, waive_move
from kumiki.games.towerbrix.rules import MAX_VOTES

if TYPE_CHECKING:
    from kumiki.core.game import Move, State
    from kumiki.games.towerbrix.rules import Spot, TowerBrix, TowerBrixState

_BRICK_FIELDS = 10  # present, axis one-hot (3), box (6)


class TowerBrixEncoding(Encoding):
    """``ok``, ``time``, removals, placements in a square window. The observation (flat, float32), seats numbered
    from the observer: each usable brick ``(B, 10)`` (on the table, axis one-hot, its box divided by ``R``, within
    ±1; all zero for challenge 10's blind seat), the observer's own cards over the deck ``(D)`` and whether each
    holds now ``(D)`` (the helper, as ``view`` gives it), the cards each seat holds ``(P``, as a fraction of the
    deck: a hand never holds more), the thumbs-up ``(P)``, the seat to move ``(P)``, then edits, round, attempt and
    the points so far (4, as fractions); with waive votes (challenges 9 and 13, ``waive="vote"``) then each seat's
    vote and votes so far this attempt ``(P, P + 2)``: the card's seat one-hot, its place in the hand over
    ``hand_cap``, the votes over ``MAX_VOTES``. Other seats' cards are never in it."""

    def __init__(self, game: TowerBrix) -> None:
        self.game = game
        self.observation_low = -1.0  # brick boxes left and south of the origin
        self.bricks = game.usable
        self.brick_index = {b: i for i, b in enumerate(self.bricks)}
        self.reach_steps = math.ceil(len(self.bricks) * max(game.size) / game.grid - 1e-9)
        self.reach = game.grid_point(self.reach_steps)
        self.steps = 2 * self.reach_steps + 1
        self.first_place = 2 + len(self.bricks)
        self.per_brick = len(AXES) * self.steps**2
        self.first_waive = self.first_place + len(self.bricks) * self.per_brick
        self.cards = {card.id: i for i, card in enumerate(game.deck)}
        # waive votes (challenges 9 and 13 with waive="vote"): a seat's card by its place in the hand, which never
        # holds more cards than the deck; other games have no such actions, so their numbering is unchanged
        self.hand_cap = len(self.cards) if game.votes_waive else 0
        self.num_actions = self.first_waive + game.players * self.hand_cap
        # the last spots listed and their actions less the brick's first (one tuple: swapped whole)
        self._offsets: tuple[list[Spot] | None, list[int]] = (None, [])
        players = game.players
        self.layout: dict[str, tuple[int, int]] = {}
        start = 0
        for name, size in (
            ("bricks", len(self.bricks) * _BRICK_FIELDS),
            ("hand", len(self.cards)),
            ("holds", len(self.cards)),
            ("hand_sizes", players),
            ("hand_threes", players),  # the 3-point cards of each hand: the backs everyone sees
            ("oks", players),
            ("to_move", players),
            ("progress", 4),
            # waive votes, public (every view shows them): each seat's vote (the card's seat one-hot, its place in
            # the hand over hand_cap) and its votes so far this attempt over MAX_VOTES, on which its vote actions
            # depend; only in the games that vote, so every other observation is unchanged
            ("votes", players * (players + 2) if game.votes_waive else 0),
        ):
            if not size:
                continue
            self.layout[name] = (start, start + size)
            start += size
        self.observation_shape = (start,)
        # split for OpenSpiel's public and private observers: a seat's cards and the helper are its own, and so are
        # the bricks in challenge 10 (the blind seat sees none); a lone player's cards are no secret
        private: tuple[str, ...] = ()
        if players > 1:
            private = ("bricks", "hand", "holds") if game.blind is not None else ("hand", "holds")
        self.public_fields = tuple(name for name in self.layout if name not in private)
        self.private_fields = tuple(name for name in self.layout if name in private)
        self.public_layout = _packed(self.layout, self.public_fields)
        self.private_layout = _packed(self.layout, self.private_fields)

    def encode(self, move: Move) -> int:
        if not isinstance(move, TowerBrixMove):
            raise ValueError(f"{move!r} is not a TowerBrix move")
        if move.kind == "ok":
            return 0
        if move.kind == "time":
            return 1
        if move.kind == "waive":
            seat, place = int(move.x), int(move.y)
            if not self.hand_cap:
                raise ValueError(f"{move}: only challenges 9 and 13 with waive='vote' have waive votes, no action")
            if not (0 <= seat < self.game.players and 1 <= place <= self.hand_cap):
                raise ValueError(f"{move}: no seat {seat} with a card {place} in this game, no action")
            return self.first_waive + seat * self.hand_cap + place - 1
        brick = self.brick_index.get(move.brick)
        if brick is None:
            raise ValueError(f"{move}: {move.brick} is not used with this deck, no action")
        if move.kind == "remove":
            return 2 + brick
        offset = self._spot_offset(move.axis, move.x, move.y)
        if isinstance(offset, str):
            raise ValueError(f"{move}: {offset}, no action")
        return self.first_place + brick * self.per_brick + offset

    def _spot_offset(self, axis: str, x: float, y: float) -> int | str:
        """A placement's action less its brick's first, or why the spot has none."""
        grid = self.game.grid
        xi = (x + self.reach) / grid
        yi = (y + self.reach) / grid
        ix, iy = round(xi), round(yi)
        if abs(xi - ix) > 1e-9 or abs(yi - iy) > 1e-9:
            return f"the corner is off the {grid:g} grid"
        if not (0 <= ix < self.steps and 0 <= iy < self.steps):
            return f"the corner lies beyond {self.reach:g} of the origin"
        return (AXES.index(axis) * self.steps + ix) * self.steps + iy

    def legal_actions(self, state: State, player: int | None = None) -> list[int]:
        """``legal_moves()``'s actions with the placements numbered from their spots, not made as moves (the
        adapters' mask every step: a tower has hundreds of placements)."""
        s: TowerBrixState = state  # type: ignore[assignment]
        head, free, spots = s.legal_parts(player)
        out = []
        for move in head:
            try:
                out.append(self.encode(move))
            except ValueError:  # a brick this deck does not use (a state of another TowerBrix): no action
                continue
        if free:
            known, offsets = self._offsets
            if known is not spots:  # the state keeps its spots per tower: offsets are worked out once per list
                found = (self._spot_offset(axis, x, y) for axis, x, y in spots)
                offsets = [o for o in found if not isinstance(o, str)]
                self._offsets = (spots, offsets)
            for brick in free:
                index = self.brick_index.get(brick)
                if index is None:  # a brick this deck does not use (a state of another TowerBrix): no action
                    continue
                first = self.first_place + index * self.per_brick
                out.extend([first + o for o in offsets])
        out.sort()
        return out

    def decode(self, action: int, state: State | None = None) -> Move:
        action = self.check_action(action)
        if action == 0:
            return OK
        if action == 1:
            return TIME
        if action < self.first_place:
            return remove_move(self.bricks[action - 2])
        if action >= self.first_waive:
            seat, place = divmod(action - self.first_waive, self.hand_cap)
            return waive_move(seat, place + 1)
        rest, iy = divmod(action - self.first_place, self.steps)
        rest, ix = divmod(rest, self.steps)
        brick, axis = divmod(rest, len(AXES))
        point = self.game.grid_point
        return place_move(self.bricks[brick], AXES[axis], point(ix - self.reach_steps), point(iy - self.reach_steps))

    def observe(self, state: State, player: int) -> Tensor:
        return self._observe(state, player, True)

    def observe_public(self, state: State) -> Tensor:
        """The ``public_fields`` of the observation, one after another (``public_layout``), seats numbered from seat
        0: how many cards each seat holds and how many of them are 3-point cards (the backs), the thumbs-up, the
        seat to move, progress, and the bricks except in challenge 10; no seat's cards (a lone player's excepted)."""
        full = self._observe(state, 0, self.game.players == 1)
        return np.concatenate([full[slice(*self.layout[name])] for name in self.public_fields])

    def observe_private(self, state: State, player: int) -> Tensor:
        """The ``private_fields`` of ``player``'s observation (``private_layout``): its cards over the deck and
        whether each holds now (the helper), and in challenge 10 the bricks (all zero for the blind seat)."""
        full = self._observe(state, player, True)
        parts = [full[slice(*self.layout[name])] for name in self.private_fields]
        return np.concatenate(parts) if parts else np.zeros(0, dtype=np.float32)

    def _observe(self, state: State, player: int, cards: bool) -> Tensor:
        """``observe``; without ``player``'s cards and the helper when not ``cards``."""
        s: TowerBrixState = state  # type: ignore[assignment]
        g = self.game
        players = g.players
        out = np.zeros(self.observation_shape, dtype=np.float32)
        if player != g.blind:
            lo, _ = self.layout["bricks"]
            for brick_id, brick in s.bricks.items():
                base = lo + self.brick_index[brick_id] * _BRICK_FIELDS
                out[base] = 1.0
                out[base + 1 + AXES.index(brick.axis)] = 1.0
                out[base + 4 : base + 10] = np.clip(np.asarray(brick.box, dtype=np.float32) / self.reach, -1.0, 1.0)
        hand = s.hands[player] if cards else []
        lo, _ = self.layout["hand"]
        for card in hand:
            out[lo + self.cards[card]] = 1.0
        if g.options["helper"] and player != g.blind and hand:
            lo, _ = self.layout["holds"]
            for card, holds in s.holds_now(player).items():
                out[lo + self.cards[card]] = float(holds)
        for k in range(players):
            seat = (player + k) % players
            out[self.layout["hand_sizes"][0] + k] = len(s.hands[seat]) / len(self.cards)
            threes = sum(g.cards[card].points == 3 for card in s.hands[seat])
            out[self.layout["hand_threes"][0] + k] = threes / len(self.cards)
            out[self.layout["oks"][0] + k] = float(seat in s.oks)
        if s.to_move is not None:
            out[self.layout["to_move"][0] + (s.to_move - player) % players] = 1.0
        o = g.options
        lo, _ = self.layout["progress"]
        progress = (
            s.edits / o["max_edits"],
            s.round / o["rounds"],
            s.attempt / max(1, o["attempts"] or 10),
            s.score() / max(1, o["rounds"] * (g.base_total() + 4)),
        )
        out[lo : lo + 4] = np.clip(progress, 0.0, 1.0)
        if self.hand_cap:
            lo, _ = self.layout["votes"]
            for k in range(players):
                voter = (player + k) % players
                base = lo + k * (players + 2)
                vote = s.votes.get(voter)
                if vote is not None:
                    out[base + (vote[0] - player) % players] = 1.0
                    out[base + players] = min(vote[1], self.hand_cap) / self.hand_cap
                out[base + players + 1] = min(s.voted.get(voter, 0), MAX_VOTES) / MAX_VOTES
        return out

    def max_length(self) -> int:
        o = self.game.options
        if not o["attempts"]:
            raise ValueError("attempts=0 (no limit) makes a TowerBrix game unbounded: give a number of attempts")
        # an attempt ends at max_edits edits, or when every seat says ok: between two other moves (edits, votes) at
        # most players-1 oks. A waive vote is no edit and leaves the thumbs up, so the oks may come again after it;
        # and every seat may vote MAX_VOTES times an attempt (one seat holds out with its votes while the others say
        # ok, then an edit lowers the thumbs and the next seat holds out): players * MAX_VOTES votes, each followed
        # by up to players-1 oks (the bound counted MAX_VOTES: 21 moves for 3 seats and 3 edits, where 34 are played)
        votes = MAX_VOTES * self.game.players if self.game.votes_waive else 0
        return int(o["rounds"] * o["attempts"] * (o["max_edits"] + 1 + votes) * self.game.players)


def _packed(layout: dict[str, tuple[int, int]], names: tuple[str, ...]) -> dict[str, tuple[int, int]]:
    """The fields ``names`` of ``layout`` laid one after another from 0 (name -> slice bounds)."""
    out: dict[str, tuple[int, int]] = {}
    start = 0
    for name in names:
        lo, hi = layout[name]
        out[name] = (start, start + hi - lo)
        start += hi - lo
    return out
