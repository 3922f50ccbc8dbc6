"""TowerBrix: the game state (rules as in docs/rules/towerbrix.md).

Players take turns in a fixed cycle; a turn is one edit (place, move or take away a brick) or ``ok`` (a thumbs-up).
The build ends when every player has said ok since the last edit (or at ``max_edits`` edits); the tower is then
evaluated at once and the cards revealed. A successful round scores the cards' points and the bonuses; a failed one
scores 0 and is replayed (with a lower total in the base and solo games) until the attempt limit.
"""

from __future__ import annotations

import math
import pickle
import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, cast

from kumiki.core.errors import IllegalMove, quoted
from kumiki.core.game import Game, GameFacts, Move, State, checked_seed
from kumiki.games.towerbrix.bricks import BRICK_IDS, COLOURS, TOL, Brick, brick_box, connected, judge, place, rests_on
from kumiki.games.towerbrix.cards import Card, read_deck
from kumiki.games.towerbrix.conditions import Tower as ConditionTower
from kumiki.games.towerbrix.modes import (
    BASE_TOTALS,
    CHALLENGE_TOTALS,
    CHALLENGES,
    MAPS,
    Challenge,
    challenge_problems,
    makeable,
    margin_shown,
    most_cards,
    nearest_makeable,
)
from kumiki.games.towerbrix.moves import (
    MOVE_KINDS,
    OK,
    TowerBrixMove,
    checked_numbers,
    format_number,
    is_edit,
    parse_towerbrix_move,
    place_move,
    remove_move,
    waive_move,
)
from kumiki.games.towerbrix.options import TOWERBRIX_OPTIONS, parse_brick_size
from kumiki.games.towerbrix.scoring import bonus, verdict

if TYPE_CHECKING:
    from kumiki.games.towerbrix.encoding import TowerBrixEncoding

FAR = 1000.0  # a corner further than this from the origin is refused (the table is unbounded, floats are not)


Spot = tuple[str, float, float]  # where a brick not in the tower may be placed: (axis, x, y)
MAX_VOTES = 3  # waive votes per seat and attempt: a vote is no edit, so this keeps every build finite


class TowerBrix(Game):
    """TowerBrix with its options fixed: holds the deck and the brick proportions."""

    name = "towerbrix"
    facts = GameFacts(min_players=1, max_players=6, chance=True, hidden_information=True, cooperative=True)
    option_spec = TOWERBRIX_OPTIONS

    def __init__(self, /, **options: Any) -> None:
        super().__init__(**options)
        o = self.options
        self.mode: str = o["mode"]
        self.size = parse_brick_size(o["brick"])
        self.grid: float = o["grid"]
        self.per_unit: int = round(1 / self.grid)  # grid steps in a unit (the grid divides 1): see grid_point
        try:
            self.deck: list[Card]
            self.deck, self.bricks_rule = read_deck(o["deck"])  # bricks_rule: "green" or "pink"
        except ValueError as error:
            raise ValueError(f"option 'deck': {error}") from None
        self.cards = {card.id: card for card in self.deck}
        self.usable = tuple(b for b in BRICK_IDS if self.bricks_rule == "pink" or b != "G")
        self.challenge: Challenge | None = CHALLENGES.get(o["challenge"])
        self.blind: int | None = self.players - 1 if self.challenge and self.challenge.blind else None
        # the team picks the card to waive by vote (challenges 9 and 13 with waive="vote"), else the rules do
        self.votes_waive = bool(self.challenge is not None and self.challenge.waive_one and o["waive"] == "vote")
        pool = [c for c in self.deck if c.points == 2] if self.mode == "intro" else self.deck
        if self.mode == "intro" and len(pool) < self.players + o["rounds"] - 1:
            raise ValueError("option 'deck': too few 2-point cards for the intro variant")
        if not pool:
            raise ValueError("option 'deck': no cards")
        points = sum(card.points for card in self.deck)
        if self.mode != "intro" and o["total"] is not None and o["total"] > points:  # it dealt the whole deck, unsaid
            raise ValueError(
                f"option 'total': at most {points}, the points of every card in the deck, not {o['total']}"
            )
        twos, threes = (sum(1 for card in self.deck if card.points == p) for p in (2, 3))
        self.twos, self.threes = twos, threes  # the deck's 2- and 3-point cards (the totals they make)
        if self.mode != "intro" and o["total"] is not None and not makeable(o["total"], twos, threes):
            raise ValueError(
                f"option 'total': no set of the {self.deck[0].deck} deck's cards makes exactly {o['total']} "
                f"({twos} cards worth 2, {threes} worth 3)"
            )

    def total_bounds(self) -> tuple[int, list[int]]:
        """The ``total`` option's bounds with this deck, as the checks above refuse it (base game and challenges):
        at most the points of every card, and never a total its 2- and 3-point cards cannot make."""
        most = sum(card.points for card in self.deck)
        return most, [t for t in range(2, most + 1) if not makeable(t, self.twos, self.threes)]

    def measure_limits(self) -> dict[str, tuple[float, float]]:
        """Rounds won and rounds played: 0 to ``rounds``; the team's score, points of cards held (a failed round
        scores 0): never below 0."""
        rounds = float(self.options["rounds"])
        return {"rounds_won": (0.0, rounds), "rounds": (0.0, rounds), "score": (0.0, math.inf)}

    def new_state(self, seed: int | None = None) -> TowerBrixState:
        return TowerBrixState(self, checked_seed(seed))

    def parse_move(self, text: str) -> TowerBrixMove:
        move = parse_towerbrix_move(text)
        if move.kind == "place":
            for value in (move.x, move.y):
                steps = value / self.grid
                if abs(steps - round(steps)) > TOL:
                    raise IllegalMove(f"{quoted(text)}: {format_number(value)} is not on the {self.grid:g} grid")
                if abs(value) > FAR:
                    raise IllegalMove(f"{quoted(text)}: corners lie within {FAR:g} of the origin")
            x, y = (self.grid_point(round(value / self.grid)) for value in (move.x, move.y))
            if (x, y) != (move.x, move.y):  # a hair off the grid (0.000…1): the grid point, as it will be written
                move = place_move(move.brick, move.axis, x, y)
        return move

    def grid_point(self, steps: int) -> float:
        """The corner ``steps`` grid steps from 0, as ``steps / per_unit``: the float nearest the point, so it is
        written as the point's own digits (``3 * 0.2`` is 0.6000000000000001, ``3 / 5`` is 0.6)."""
        return steps / self.per_unit

    def first_mover(self) -> int | None:
        """Seat 0 opens the first build; the cycle then carries on across attempts and rounds, so a later attempt or
        round opens at another seat, and with free turns nobody moves first: None there (a study's report then names
        no seat "moves first")."""
        o = self.options
        if self.players == 1 or (o["turns"] == "cycle" and o["rounds"] == 1 and o["attempts"] == 1):
            return 0
        return None

    def make_encoding(self) -> TowerBrixEncoding:
        from kumiki.games.towerbrix.encoding import TowerBrixEncoding

        return TowerBrixEncoding(self)

    def base_total(self) -> int:
        """The card points drawn for a round's first attempt."""
        if self.options["total"] is not None:
            return int(self.options["total"])
        table = CHALLENGE_TOTALS if self.mode == "challenge" else BASE_TOTALS
        return table[self.options["difficulty"]]

    def best_score(self) -> float:
        """The most a game can score: a point a round in the intro and the challenges; else, every round, the cards
        of its first attempt (the largest total it draws: a retry draws fewer) and both bonuses (+3 height, +2
        footprint). A bound a perfect team may reach, not a promise that the deal allows it."""
        rounds = float(self.options["rounds"])
        if self.mode in ("intro", "challenge"):
            return rounds
        return rounds * (nearest_makeable(self.base_total(), self.twos, self.threes) + 5)


class TowerBrixState(State):
    """One TowerBrix game: the tower being built, the hands, the stacks and every evaluation so far."""

    game: TowerBrix

    def __init__(self, game: TowerBrix, seed: int | None = None, _blank: bool = False) -> None:
        self.game = game
        if _blank:
            return
        if seed is None:
            seed = random.SystemRandom().randrange(2**53)  # kept for the record; 53 bits: too many to try
        self.seed = seed
        self.rng = random.Random(seed)
        self.history = []
        self.over = False
        self.to_move: int | None = 0
        self.round = 0  # index of the round being played
        self.attempt = 1  # attempt within the round
        self.attempts_used = 0  # attempts evaluated in the whole game
        self.total = game.base_total()
        self.round_points: list[float] = []  # per finished round
        self.round_success: list[bool] = []
        self.evaluations: list[dict[str, Any]] = []
        self.stacks: dict[int, list[str]] = {2: [], 3: []}
        self.discards: dict[int, list[str]] = {2: [], 3: []}
        for card in game.deck:
            if game.mode != "intro" or card.points == 2:
                self.stacks[card.points].append(card.id)
        for pile in self.stacks.values():
            self.rng.shuffle(pile)
        self.hands: list[list[str]] = [[] for _ in range(game.players)]
        self.bricks: dict[str, Brick] = {}
        self.oks: set[int] = set()
        self.edits = 0
        self.votes: dict[int, tuple[int, int]] = {}  # waive votes of this attempt: seat -> (card's seat, place)
        self.voted: dict[int, int] = {}  # how many times each seat voted in this attempt (at most MAX_VOTES)
        self.movers: list[int] = []  # the seat that played each move of history
        self._verdict: tuple[tuple[Brick, ...], Any] | None = None
        self._spots: tuple[tuple[Brick, ...], list[tuple[str, float, float]]] | None = None
        self._deal()

    # ----------------------------------------------------------------- cards

    def _draw(self, points: int) -> str | None:
        pile = self.stacks[points]
        if not pile and self.discards[points]:
            pile.extend(self.discards[points])
            self.discards[points].clear()
            self.rng.shuffle(pile)
        return pile.pop() if pile else None

    def _deal(self) -> None:
        """Draw this attempt's cards and deal them as evenly as possible, extras from the round's first player."""
        g = self.game
        drawn: list[str] = []
        if g.mode == "intro":
            for _ in range(g.players + self.round):
                card = self._draw(2)
                if card is not None:
                    drawn.append(card)
        else:
            # every card is in a stack or a discard pile now: draw a total they make (the one asked if they can)
            left = {p: len(self.stacks[p]) + len(self.discards[p]) for p in (2, 3)}
            self.total = remaining = nearest_makeable(self.total, left[2], left[3])
            while remaining > 0:
                # a random stack among those whose card leaves a remainder the cards left still make exactly (the
                # most cards that make it: -1 when none do), and of those only the stacks after which the total can
                # still give every player a card (or most)
                most = {p: most_cards(remaining - p, left[2] - (p == 2), left[3] - (p == 3)) for p in (2, 3) if left[p]}
                reach = {p: min(g.players, len(drawn) + 1 + n) for p, n in most.items() if n >= 0}
                kinds = [p for p, n in reach.items() if n == max(reach.values())]
                points = kinds[0] if len(kinds) == 1 else self.rng.choice(kinds)
                card = self._draw(points)
                assert card is not None
                drawn.append(card)
                left[points] -= 1
                remaining -= points
        first = self.round % g.players
        self.hands = [[] for _ in range(g.players)]
        for i, card in enumerate(drawn):
            self.hands[(first + i) % g.players].append(card)

    def dealt(self) -> list[str]:
        return [card for hand in self.hands for card in hand]

    # ----------------------------------------------------------------- the tower

    def bricks_in_order(self) -> list[Brick]:
        return [self.bricks[b] for b in BRICK_IDS if b in self.bricks]

    def carried(self, brick_id: str) -> list[str]:
        """The bricks lying on ``brick_id``."""
        below = self.bricks[brick_id]
        return [b.id for b in self.bricks_in_order() if b.id != brick_id and rests_on(b, below)]

    def verdict(self) -> Any:
        """The physics judge's verdict on the current bricks (cached), with the tilt margin."""
        key = tuple(self.bricks_in_order())
        if self._verdict is None or self._verdict[0] != key:
            self._verdict = (key, judge(key, margin=True))
        return self._verdict[1]

    def deck_problems(self, bricks: Sequence[Brick]) -> list[str]:
        """What the bricks in use miss of the deck's brick rule."""
        used = {b.id for b in bricks}
        if self.game.bricks_rule == "green":
            missing = [b for b in BRICK_IDS[:-1] if b not in used]
            problems = (
                [f"unused: {' '.join(missing)} (the green deck uses all eight coloured bricks)"] if missing else []
            )
            if "G" in used:
                problems.append("the gray brick is not used with the green deck")
            return problems
        colours = {b.colour for b in bricks}
        missing = [c for c in COLOURS.values() if c not in colours]
        return [f"no {', '.join(missing)} brick (the pink deck uses every colour)"] if missing else []

    def tower_problems(self) -> list[str]:
        """Why the current bricks are not a valid tower ([] when valid): deck rule, connection, standing."""
        bricks = self.bricks_in_order()
        problems = self.deck_problems(bricks)
        if not bricks:
            return problems or ["no bricks"]
        if not connected(bricks):
            problems.append("the bricks are not all connected")
        elif not self.verdict().stands:
            problems.append("the tower falls")
        return problems

    def holds_now(self, player: int) -> dict[str, bool]:
        """Whether each of ``player``'s cards holds for the bricks now in use (the thumbs-up helper)."""
        tower = ConditionTower(self.bricks_in_order())
        return {card: self.game.cards[card].check(tower) for card in self.hands[player]}

    def clock(self) -> tuple[float, int, str] | None:
        """Challenge 2's clock, for a front end to run: (seconds, ply, move) — the build's time limit, the ply of the
        build's first move (the clock starts when it is played) and the move to play when the time is up. None when
        there is no clock or the build has not begun."""
        g = self.game
        if self.over or g.challenge is None or g.challenge.recorded != "time":
            return None
        start = self.build_began()
        if len(self.history) <= start:
            return None
        return float(g.options["time_limit"]), start, "time"

    def build_began(self) -> int:
        """The ply at which the build going on began (after the last evaluation; 0 in the first build)."""
        return int(self.evaluations[-1]["moves"]) if self.evaluations else 0

    # ----------------------------------------------------------------- moves

    @property
    def actors(self) -> list[int]:
        """``[to_move]`` with ``turns="cycle"``; with ``turns="free"`` every seat, ``to_move`` first (the seat after
        the last to act), then the others in seat order."""
        if self.over or self.to_move is None:
            return []
        if self.game.options["turns"] == "cycle":
            return [self.to_move]
        n = self.game.players
        return [(self.to_move + k) % n for k in range(n)]

    def move_seats(self) -> list[int] | None:
        """With ``turns="free"`` the seat that played each move (records write it); None in seat order."""
        return list(self.movers) if self.game.options["turns"] == "free" else None

    def voting(self) -> bool:
        """Whether the team picks the card to waive by vote in this game (challenges 9 and 13, ``waive="vote"``)."""
        return self.game.votes_waive

    def waive_choice(self) -> tuple[int, int] | None:
        """The card the votes waive now: the one more than half of the seats voted for, else None."""
        counts: dict[tuple[int, int], int] = {}
        for handle in self.votes.values():
            counts[handle] = counts.get(handle, 0) + 1
        for handle, count in counts.items():
            if 2 * count > self.game.players:
                return handle
        return None

    def legal_moves(self, player: int | None = None) -> list[TowerBrixMove]:
        """``ok``; taking away each brick that may go; then placements of the first brick of each colour not in the
        tower (bricks of one colour are interchangeable for every card), by brick, axis (x, y, z), y, x: at the
        corner 0,0 on an empty table, else at every grid corner where the lowered brick shares a face with a brick
        of the tower. Moving a placed brick, or placing the other brick of a colour, is legal but not listed; so is
        ``time`` in challenge 2, which a clock plays, not a player."""
        moves, free, spots = self.legal_parts(player)
        for brick_id in free:
            moves.extend(place_move(brick_id, axis, x, y) for axis, x, y in spots)
        return moves

    def legal_parts(self, player: int | None = None) -> tuple[list[TowerBrixMove], list[str], list[Spot]]:
        """``legal_moves`` in three parts: the moves before the placements (``ok``, votes, removals), the bricks
        that may be placed, and the (axis, x, y) spots each may go to (``legal_moves`` places every one of the
        bricks at every spot, in that order): for callers that number the placements without making them."""
        if (player is not None and not self.may_act(player)) or self.over:
            return [], [], []
        seat = self.to_move if player is None else player
        moves = [OK]
        if self.voting() and seat is not None and self.voted.get(seat, 0) < MAX_VOTES:
            mine = self.votes.get(seat)  # a vote for each face-down card but the one this seat votes for already
            handles = [(s, k) for s, hand in enumerate(self.hands) for k in range(1, len(hand) + 1)]
            moves.extend(waive_move(s, k) for s, k in handles if (s, k) != mine)
        if seat == self.game.blind:
            return moves, [], []
        fixed = self.game.challenge is not None and self.game.challenge.fixed_bricks
        if not fixed:
            moves.extend(remove_move(b) for b in BRICK_IDS if b in self.bricks and not self.carried(b))
        free = [b for b in self.game.usable if b not in self.bricks]
        free = [b for i, b in enumerate(free) if all(f[0] != b[0] for f in free[:i])]  # one per colour
        if not free:
            return moves, [], []
        return moves, free, self.placement_spots()

    def placement_spots(self) -> list[Spot]:
        """The (axis, x, y) of the listed placements of a brick not in the tower (cached per tower)."""
        key = tuple(self.bricks_in_order())
        if self._spots is not None and self._spots[0] == key:
            return self._spots[1]
        spots = _touching_spots(key, self.game.size, self.game.per_unit)
        self._spots = (key, spots)
        return spots

    def check(self, move: TowerBrixMove, player: int | None = None) -> None:
        """Raise IllegalMove if seat ``player`` (default: ``to_move``) cannot play ``move`` now."""
        g = self.game
        if self.over:
            raise IllegalMove(f"{move}: the game is over")
        if move.kind == "ok":
            return
        if move.kind == "time":
            if g.challenge is None or g.challenge.recorded != "time":
                raise IllegalMove("time: only challenge 2 (time pressure) has a clock")
            if len(self.history) <= self.build_began():  # no time can have run out on a clock that never ran
                raise IllegalMove("time: the clock starts at the build's first move, and none has been played")
            return
        if move.kind == "waive":
            if not self.voting():
                raise IllegalMove(f"{move}: only challenges 9 and 13 played with waive='vote' waive a card by vote")
            seat, place_in_hand = int(move.x), int(move.y)
            if not 0 <= seat < g.players or not 1 <= place_in_hand <= len(self.hands[seat]):
                sizes = ", ".join(f"seat {s}: {len(h)}" for s, h in enumerate(self.hands))
                raise IllegalMove(f"{move}: no such card (cards in hand — {sizes})")
            voter = self.to_move if player is None else player
            if voter is not None and self.votes.get(voter) == (seat, place_in_hand):
                raise IllegalMove(f"{move}: that is your vote already")
            if voter is not None and self.voted.get(voter, 0) >= MAX_VOTES:
                raise IllegalMove(f"{move}: a seat votes at most {MAX_VOTES} times an attempt")
            return
        if (self.to_move if player is None else player) == g.blind:
            raise IllegalMove(f"{move}: the blind player (challenge 10) takes no part in the building; say ok")
        if move.brick not in g.usable:
            raise IllegalMove(f"{move}: the gray brick is not used with the {g.options['deck']} deck")
        placed = move.brick in self.bricks
        if move.kind == "remove" and not placed:
            raise IllegalMove(f"{move}: {move.brick} is not in the tower")
        if placed:
            if g.challenge is not None and g.challenge.fixed_bricks:
                raise IllegalMove(f"{move}: a placed brick stays where it is (challenge 8)")
            on_it = self.carried(move.brick)
            if on_it:
                raise IllegalMove(f"{move}: {move.brick} carries {' '.join(on_it)}; take those away first")

    def play(self, move: Move | str, player: int | None = None) -> None:
        if isinstance(move, str):
            move = self.game.parse_move(move)
        elif not isinstance(move, TowerBrixMove):
            raise IllegalMove(f"{move!r} is not a TowerBrix move")
        elif move.kind not in MOVE_KINDS:  # a move built in code: its text would read as another kind
            raise IllegalMove(f"{move!r}: a TowerBrix move's kind is one of {', '.join(MOVE_KINDS)}")
        else:
            if type(move.x) is not float or type(move.y) is not float or move.kind == "waive":  # ints, numpy, text
                move = checked_numbers(move)
            move = self.game.parse_move(str(move))
        player = self.require_actor(player, move)
        self.check(move, player)
        self.history.append(move)
        self.movers.append(player)
        if move.kind == "time":
            self.to_move = (player + 1) % self.game.players
            self._evaluate(out_of_time=True)
            return
        if move.kind == "ok":
            self.oks.add(player)
        elif move.kind == "waive":  # the tower is unchanged: no edit, the thumbs stay
            self.votes[player] = (int(move.x), int(move.y))
            self.voted[player] = self.voted.get(player, 0) + 1
        else:
            if move.kind == "remove":
                del self.bricks[move.brick]
            else:
                self.bricks[move.brick] = place(self.bricks, move.brick, move.axis, move.x, move.y, self.game.size)
            self.edits += 1
            self.oks = set()
        self.to_move = (player + 1) % self.game.players
        if len(self.oks) == self.game.players or self.edits >= self.game.options["max_edits"]:
            self._evaluate()

    # ----------------------------------------------------------------- evaluation

    def _evaluate(self, out_of_time: bool = False) -> None:
        """Judge the tower, reveal the cards, score the attempt, and go on to the next attempt or round (a build
        whose time ran out fails, whatever it built)."""
        g = self.game
        bricks = self.bricks_in_order()
        problems = self.tower_problems()
        tower = ConditionTower(bricks)
        cards: list[dict[str, Any]] = []
        for player, hand in enumerate(self.hands):
            for card_id in hand:
                card = g.cards[card_id]
                held = card.check(tower)
                cards.append({"id": card_id, "player": player, "points": card.points, "text": card.text, "holds": held})
        failing = [c["id"] for c in cards if not c["holds"]]
        waived = None
        if self.voting():
            chosen = self.waive_choice()
            if chosen is not None:
                waived = self.hands[chosen[0]][chosen[1] - 1]
                failing = [c for c in failing if c != waived]
        elif g.challenge is not None and g.challenge.waive_one and len(failing) == 1:
            waived = failing.pop()
        margin = 0.0
        if not problems and bricks:
            margin = self.verdict().margin_deg
            if g.challenge is not None:
                o = g.options
                problems = challenge_problems(
                    g.challenge.number, bricks, margin, g.size[0], o["shake_deg"], o["pull_deg"]
                )
        # challenges 5 and 12 judge the exact margin: the one shown stays on its side of their threshold
        threshold = (
            {5: g.options["shake_deg"], 12: g.options["pull_deg"]}.get(g.challenge.number) if g.challenge else None
        )
        if out_of_time:
            problems = [f"the time ran out ({g.options['time_limit']:g} s)", *problems]
        success = not problems and not failing
        card_points = sum(c["points"] for c in cards if c["holds"] or c["id"] == waived)
        scored = g.mode in ("base", "solo")  # the intro and the challenges add no points, so no bonus either
        extra = bonus(bricks, g.options["box_short"], g.options["box_long"]) if success and scored else 0
        if scored:
            points: float = card_points + extra if success else 0
        else:
            points = 1 if success else 0
        self.evaluations.append(
            {
                "round": self.round + 1,
                "attempt": self.attempt,
                "moves": len(self.history),
                "total": self.total if g.mode != "intro" else None,
                "bricks": [b.to_json() for b in bricks],
                "cards": cards,
                "waived": waived,
                "problems": problems,
                "margin_deg": margin_shown(margin, threshold),
                "success": success,
                "bonus": extra,
                "points": points,
            }
        )
        self.attempts_used += 1
        for card_id in self.dealt():
            self.discards[g.cards[card_id].points].append(card_id)
        self.hands = [[] for _ in range(g.players)]
        limit = g.options["attempts"]
        if success or (limit and self.attempt >= limit):
            self.round_points.append(points)
            self.round_success.append(success)
            self.round += 1
            if self.round < g.options["rounds"]:  # at the end, attempt and total stay those of the last attempt
                self.attempt = 1
                self.total = g.base_total()
        else:
            self.attempt += 1
            if g.mode in ("base", "solo"):
                self.total = max(2, self.total - g.options["retry_drop"])
        self.bricks = {}
        self.oks = set()
        self.edits = 0
        self.votes = {}
        self.voted = {}
        if self.round >= g.options["rounds"]:
            self.over = True
            self.to_move = None
            return
        self._deal()

    # ----------------------------------------------------------------- results

    def score(self) -> float:
        return float(sum(self.round_points))

    def scores(self) -> list[float]:
        return [self.score()] * self.game.players

    def teams(self) -> list[int]:
        """A cooperative game: every seat plays for the one team."""
        return [0] * self.game.players

    def winners(self) -> list[int]:
        """A cooperative game: the whole team shares the result (its score and the scoring table's verdict)."""
        return list(range(self.game.players)) if self.over else []

    def acting(self, player: int) -> TowerBrixState:
        """With free turns any seat may act during the build: the copy has ``player`` to move (the seat after the
        last to act is only the order ``actors`` lists them in)."""
        if not self.may_act(player):  # ValueError for what is no seat at all (True, 1.0, -1)
            raise ValueError(f"player {player} may not act now (actors: {self.actors})")
        twin = self.copy()
        twin.to_move = int(player)
        return twin

    def adds_nothing(self, move: Move | str, player: int) -> bool:
        """An ok from a seat whose thumb is already up: nothing changes (a vote it already gave is refused)."""
        return _is_ok(move) and player in self.oks

    def only_waits(self, move: Move | str, player: int) -> bool:
        """Also, with free turns, an ok on a tower that cannot pass yet (bricks missing, apart, or falling): a
        computer's "I wait" (under the cycle a turn must be a move, and the ok says so): no thumb goes up. Not when
        every other seat's thumb is up: nobody is building any more, so that ok is the last one and ends the build
        (waiting there, a computer waited for ever: a server does not play an "I wait")."""
        if not _is_ok(move):
            return False
        if player in self.oks:
            return True
        last = len(self.oks) == self.game.players - 1
        return self.game.options["turns"] == "free" and not last and bool(self.tower_problems())

    def clock_only(self, move: Move) -> bool:
        """``time`` says challenge 2's time ran out: a clock plays it, never a player."""
        return isinstance(move, TowerBrixMove) and move.kind == "time"

    def copy(self) -> TowerBrixState:
        twin = TowerBrixState(self.game, _blank=True)
        twin.seed = self.seed
        twin.rng = random.Random()
        twin.rng.setstate(self.rng.getstate())
        twin.history = list(self.history)
        twin.over = self.over
        twin.to_move = self.to_move
        twin.round = self.round
        twin.attempt = self.attempt
        twin.attempts_used = self.attempts_used
        twin.total = self.total
        twin.round_points = list(self.round_points)
        twin.round_success = list(self.round_success)
        twin.evaluations = list(self.evaluations)  # entries are never changed once written
        twin.stacks = {k: list(v) for k, v in self.stacks.items()}
        twin.discards = {k: list(v) for k, v in self.discards.items()}
        twin.hands = [list(h) for h in self.hands]
        twin.bricks = dict(self.bricks)
        twin.oks = set(self.oks)
        twin.edits = self.edits
        twin.votes = dict(self.votes)
        twin.voted = dict(self.voted)
        twin.movers = list(self.movers)
        twin._verdict = self._verdict
        twin._spots = self._spots
        return twin

    def resampled(self, player: int, uniform: Callable[[], float]) -> TowerBrixState:
        """A copy with what ``player`` does not see drawn again (the others' cards, the stacks' order, the draws to
        come, and for challenge 10's blind seat the edits of the build so far) given ``player``'s view, ``uniform()``
        giving numbers in [0, 1): OpenSpiel's ``resample_from_infostate`` (``kumiki.games.towerbrix.resample``)."""
        from kumiki.games.towerbrix.resample import resample

        return resample(self, player, uniform)

    def playout(self, rng: random.Random) -> None:
        """The MCTS hook: everyone says ok until the game ends (each build is evaluated as it stands). Random edits
        almost never make a valid tower, so this is both faster and more telling than uniform random moves."""
        while not self.over:
            self.play(OK)

    def measures(self) -> dict[str, float]:
        """``success`` (1 when every round played succeeded), ``rounds_won`` and ``rounds`` played, and for each
        card judged, ``card_<id>_held``: 1 if it held at its last evaluation (which cards make rounds fail)."""
        won = sum(1 for ok in self.round_success if ok)
        played = len(self.round_success)
        out = {"success": float(played > 0 and won == played), "rounds_won": float(won), "rounds": float(played)}
        for evaluation in self.evaluations:
            for card in evaluation["cards"]:
                out[f"card_{card['id']}_held"] = float(bool(card["holds"]))
        return out

    # ----------------------------------------------------------------- JSON and views

    def to_json(self) -> dict[str, Any]:
        g = self.game
        data: dict[str, Any] = {
            "mode": g.mode,
            "challenge": g.options["challenge"] or None,
            "deck": g.options["deck"],
            "round": min(self.round + 1, g.options["rounds"]),
            "rounds": g.options["rounds"],
            "attempt": self.attempt,
            "attempts_used": self.attempts_used,
            "total": self.total if g.mode != "intro" else None,
            "cards_dealt": len(self.dealt()),
            "bricks": [b.to_json() for b in self.bricks_in_order()],
            "hands": [list(h) for h in self.hands],
            "hand_sizes": [len(h) for h in self.hands],
            # the backs of the cards, which everyone sees (2 or 3 points: docs/rules/towerbrix.md), in hand order
            "hand_points": [[g.cards[c].points for c in h] for h in self.hands],
            "oks": sorted(self.oks),
            "edits": self.edits,
            "waive": g.options["waive"],
            "votes": {str(seat): f"{s}.{k}" for seat, (s, k) in sorted(self.votes.items())},
            "to_move": self.to_move,
            "round_points": list(self.round_points),
            "round_success": list(self.round_success),
            "score": self.score(),
            # a deep copy: the entries are the state's own (shared with its copies), and a caller may edit its dict
            "evaluations": _json_copy(self.evaluations),
            "stacks": {str(k): len(v) for k, v in self.stacks.items()},
            "discards": {str(k): len(v) for k, v in self.discards.items()},
            "blind": g.blind,
            "verdict": verdict(self.score()) if self.over and g.mode in ("base", "solo") else None,
        }
        if g.challenge is not None:
            data["challenge_rule"] = g.challenge.rule_for(g.options)
            if g.challenge.number in MAPS:
                data["map"] = MAPS[g.challenge.number].to_json()
            if g.challenge.recorded == "time":
                data["recorded"] = {"time_limit": g.options["time_limit"], "enforced_by": "server"}
            elif g.challenge.recorded == "silence":
                data["recorded"] = {"silence": True, "enforced_by": "server"}
        return data

    def _card_faces(self, card_ids: Sequence[str]) -> dict[str, dict[str, Any]]:
        return {c: self.game.cards[c].to_json() for c in card_ids}

    def view(self, player: int) -> dict[str, Any]:
        """Player ``player``'s own cards (with texts, and whether each holds now if ``helper``); of the others
        only how many cards they hold. Past evaluations (cards revealed) are public. The blind player of
        challenge 10 sees no bricks and gets no helper. In the solo game everything is face up."""
        data = super().view(player)
        if self.game.mode != "solo":
            data["hands"] = [list(h) if i == player else None for i, h in enumerate(self.hands)]
        data["cards"] = self._card_faces(self.hands[player])
        if self.game.options["helper"] and player != self.game.blind:
            data["holds"] = self.holds_now(player)
        if player == self.game.blind:
            data["bricks"] = []
            data["bricks_hidden"] = True
        return data

    def late_move_refusal(self, move: Move, seen_ply: int, player: int | None = None) -> str | None:
        """A move sent during a build that has been evaluated since belongs to that build, not this one; an ok
        approves the tower its seat saw, so it lapses once another seat's edit has changed that tower (its own edits
        it has seen; a vote names a card, which no edit changes)."""
        if any(evaluation["moves"] > seen_ply for evaluation in self.evaluations):
            return f"{move}: sent during a build that has ended since (it was evaluated): look at the new table"
        if getattr(move, "kind", "") != "ok":
            return None
        late = zip(self.history[seen_ply:], self.movers[seen_ply:], strict=True)
        edits = sum(1 for m, seat in late if is_edit(m) and seat != player)
        if edits:
            return f"{move}: the tower has changed since you saw it ({edits} edits meanwhile): look again"
        return None

    def seen_history(self, player: int) -> list[str]:
        """Challenge 10's blind seat knows that a brick was placed or taken away (the edit count), never which or
        where: those moves read ``edit`` for it."""
        seen = super().seen_history(player)
        if player != self.game.blind:
            return seen
        return ["edit" if is_edit(move) else text for move, text in zip(self.history, seen, strict=True)]

    def public_view(self) -> dict[str, Any]:
        """What a spectator sees: the tower and the counts of cards; cards only in the solo game (face up)."""
        data = self.to_json()
        if self.game.mode != "solo":
            data["hands"] = [None] * self.game.players
        return data

    def common_view(self) -> dict[str, Any]:
        """What every seat sees: ``public_view()`` (no seat's cards, only how many each holds; the cards of an
        evaluated attempt are public), and in challenge 10 no bricks either, as the blind seat's view. A lone
        player's is its view (it holds every card)."""
        g = self.game
        if g.players == 1:
            return self.view(0)
        data = self.public_view()
        if g.blind is not None:
            data["bricks"] = []
            data["bricks_hidden"] = True
        return data

    def private_view(self, player: int) -> dict[str, Any]:
        """What ``player`` sees beyond ``common_view()``: its cards (``hand``, ids; ``cards``, their faces) and, with
        ``helper``, whether each holds now (``holds``); in challenge 10 a seat that sees also sees the bricks. {}
        for a lone player."""
        g = self.game
        if g.players == 1:
            return {}
        view = self.view(player)
        data: dict[str, Any] = {"hand": list(self.hands[player]), "cards": view["cards"]}
        if "holds" in view:
            data["holds"] = view["holds"]
        if g.blind is not None and player != g.blind:
            data["bricks"] = view["bricks"]
        return data

    def common_history(self) -> list[str]:
        """The moves as every seat saw them: in challenge 10 as the blind seat saw them (``edit`` for each brick
        placed or taken away), else every move."""
        if self.game.blind is None:
            return super().common_history()
        return self.seen_history(self.game.blind)

    def render(self) -> str:
        from kumiki.games.towerbrix.text import render_plain

        return render_plain(self)


def _json_copy(data: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A deep copy of ``data``, equal to ``copy.deepcopy``'s but 5 times as fast: ``pickle`` copies in C (a view
    repeats every evaluation so far, and a replay builds one per position: the 1,868 of a 60-evaluation game took 3.5 s
    of CPU, now 1.0 s). The bytes never leave this process. (``marshal`` would be faster still, but turns a NumPy
    number into bytes.)"""
    return cast("list[dict[str, Any]]", pickle.loads(pickle.dumps(data, pickle.HIGHEST_PROTOCOL)))


def _grid_range(lo: float, hi: float, per_unit: int) -> list[float]:
    """Grid values (``per_unit`` steps a unit) from ``lo`` rounded up to ``hi`` inclusive, each ``k / per_unit``:
    ``k * 0.2`` would list 0.6000000000000001 (see ``TowerBrix.grid_point``)."""
    values = []
    k = math.ceil(lo * per_unit - TOL)
    while k / per_unit <= hi + TOL:
        values.append(k / per_unit)
        k += 1
    return values


def _touching_spots(
    tower: Sequence[Brick], size: tuple[float, float, float], per_unit: int
) -> list[tuple[str, float, float]]:
    """Every grid corner (by axis, y, x) where a brick lowered onto ``tower`` shares a face with one of its bricks:
    it rests on a brick (it came to rest above the table), or stands on the table with a side face against one."""
    if not tower:
        return [(axis, 0.0, 0.0) for axis in ("x", "y", "z")]
    boxes = [b.box for b in tower]
    lo_x = min(b[0] for b in boxes)
    hi_x = max(b[3] for b in boxes)
    lo_y = min(b[1] for b in boxes)
    hi_y = max(b[4] for b in boxes)
    spots = []
    for axis in ("x", "y", "z"):
        _, _, _, dx, dy, dz = brick_box(axis, 0, 0, 0, size)
        low = [b for b in boxes if b[2] < dz - TOL]  # bricks a brick standing on the table can lean its side on
        for y in _grid_range(lo_y - dy, hi_y, per_unit):
            y1 = y + dy
            row = [b for b in boxes if min(y1, b[4]) - max(y, b[1]) > -TOL]
            for x in _grid_range(lo_x - dx, hi_x, per_unit):
                x1 = x + dx
                z = 0.0
                for b in row:
                    if b[5] > z and min(x1, b[3]) - max(x, b[0]) > TOL and min(y1, b[4]) - max(y, b[1]) > TOL:
                        z = b[5]
                if z > TOL or any(_side_contact(x, y, x1, y1, dz, b) for b in low):
                    spots.append((axis, x, y))
    return spots


def _side_contact(x0: float, y0: float, x1: float, y1: float, z1: float, b: tuple[float, ...]) -> bool:
    """A box on the table from (x0, y0) to (x1, y1), z1 tall, shares a vertical face with box ``b``."""
    if min(z1, b[5]) - max(0.0, b[2]) <= TOL:
        return False
    ox = min(x1, b[3]) - max(x0, b[0])
    oy = min(y1, b[4]) - max(y0, b[1])
    return (abs(ox) <= TOL and oy > TOL) or (abs(oy) <= TOL and ox > TOL)


def _is_ok(move: Move | str) -> bool:
    """Whether ``move`` (a move or its text, in any case) is the thumbs-up."""
    return str(move).strip().lower() == "ok"
