"""A plain TowerBrix game flow, written straight off docs/rules/towerbrix.md without the engine's rules code.

It keeps only the flow of the game: whose turn it is (or who may act), what an edit is, the edit count and its
limit, the thumbs-up, when an evaluation happens and what it gives, the points and bonuses, failed attempts and the
lower total of the next one, rounds and the end. As black boxes it uses what is not the flow: the brick geometry
(``bricks.place`` / ``touching`` / ``connected`` / ``judge``) and the card checker (``Card.holds``).

The deal is not redrawn here (the spec does not pin how the seed drives the stacks): the test hands the oracle the
hands the engine dealt at the start of each attempt, and the oracle checks what the spec does pin about them (how
many cards, their points adding up to the attempt's total, the seats the extra cards go to, each card of the deck).

Modes: base, solo, intro, and the challenges whose rule is plain (1, 3, 4, 5, 8, 9 and 13 with ``waive="auto"``,
10, 12). Not covered: ``waive="vote"``, challenge 2's clock, the maps of 11 and 14, 6's mirror and 7's removal.
"""

from __future__ import annotations

from typing import Any

from kumiki.games.towerbrix.bricks import Brick, connected, judge, place, rests_on, touching
from kumiki.games.towerbrix.cards import deck_bricks, load_deck

IDS = ("Y1", "Y2", "P1", "P2", "R1", "R2", "B1", "B2", "G")
GREEN_BRICKS = frozenset(IDS[:8])
COLOURS = {"Y": "yellow", "P": "purple", "R": "red", "B": "blue", "G": "gray"}
VERDICTS = (
    (39, "The foundations are in; there is room to build better and higher."),
    (49, "A first-year architecture tutor would sign this off."),
    (59, "Solid, dependable building."),
    (69, "A work of art in brick."),
    (79, "Sky-high: your towers scrape the clouds."),
)
TOP_VERDICT = "Unheard of: a tower nobody thought could be built."
PLAIN_CHALLENGES = (1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14)
# land where a brick may touch the table: (x0, y0, x1, y1), None = unbounded
INF = float("inf")
LAND = {
    11: ((-INF, -INF, 2, INF), (5, -INF, INF, INF)),
    14: ((-INF, -INF, 2, INF), (3, 3, 5, 6), (6, -INF, INF, INF)),
}


class Refused(Exception):
    """The oracle refuses the move (the engine must raise IllegalMove)."""


def makeable(total: int, twos: int, threes: int) -> bool:
    return any(
        (total - 3 * b) >= 0 and (total - 3 * b) % 2 == 0 and (total - 3 * b) // 2 <= twos for b in range(threes + 1)
    )


def number(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else repr(float(v))


def inside(box: tuple[float, ...], land: tuple[float, float, float, float]) -> bool:
    """The brick's foot lies wholly on the land."""
    return (
        land[0] - 1e-9 <= box[0] and box[3] <= land[2] + 1e-9 and land[1] - 1e-9 <= box[1] and box[4] <= land[3] + 1e-9
    )


class PlainTowerBrix:
    def __init__(
        self,
        players: int = 2,
        mode: str = "base",
        challenge: int = 0,
        deck: str = "green",
        difficulty: str = "medium",
        total: int | None = None,
        rounds: int | None = None,
        attempts: int = 3,
        retry_drop: int = 2,
        turns: str = "cycle",
        max_edits: int = 40,
        box_short: float = 6,
        box_long: float = 9,
        shake_deg: float = 3,
        pull_deg: float = 6,
        grid: float = 0.5,
        waive: str = "auto",
        brick: str = "2x1x1",
    ) -> None:
        assert mode != "challenge" or challenge in PLAIN_CHALLENGES
        self.players = players
        self.mode = mode
        self.challenge = challenge if mode == "challenge" else 0
        self.cards = {c.id: c for c in load_deck("green" if mode == "intro" else deck)}
        self.brick_rule = "green" if mode == "intro" else deck_bricks(deck)
        self.rounds = rounds if rounds is not None else (1 if mode == "challenge" else 3)
        self.attempts = attempts
        self.retry_drop = retry_drop
        self.turns = turns
        self.max_edits = max_edits
        self.box_short, self.box_long = box_short, box_long
        self.shake_deg, self.pull_deg = shake_deg, pull_deg
        self.grid = grid
        self.waive = waive
        self.votes: dict[int, str] = {}
        self.votes_cast = [0] * players
        self.started = False  # the build's first move was played (challenge 2's clock)
        long, wide, thick = (float(v) for v in brick.split("x"))
        self.size = (long, wide, thick)
        self.long = long  # a standing brick's height: the first side, whatever its length
        if mode == "intro":
            self.first_total: int | None = None  # the intro takes total and difficulty and deals 2-point cards
        elif total is not None:
            self.first_total = total
        elif mode == "challenge":
            self.first_total = {"easy": 12, "medium": 15, "hard": 18}[difficulty]
        else:
            self.first_total = {"easy": 10, "medium": 16, "hard": 20}[difficulty]
        self.blind = players - 1 if self.challenge == 10 else None
        # the flow
        self.round = 1
        self.attempt = 1
        self.attempts_used = 0
        self.total: int | None = self._reachable(self.first_total)
        self.to_move: int | None = 0
        self.edits = 0
        self.oks: set[int] = set()
        self.bricks: dict[str, Brick] = {}
        self.hands: list[list[str]] = [[] for _ in range(players)]
        self.round_points: list[float] = []
        self.round_success: list[bool] = []
        self.evaluations: list[dict[str, Any]] = []
        self.over = False
        self.needs_deal = True
        self.history: list[tuple[str, int]] = []  # (kind, seat) of every move played
        playing = [c for c in self.cards.values() if self.mode != "intro" or c.points == 2]
        self.stacks = {p: sum(1 for c in playing if c.points == p) for p in (2, 3)}
        self.discards = {2: 0, 3: 0}

    # ----- the deal (hands read from the engine, checked against what the spec pins)
    def _reachable(self, total: int | None) -> int | None:
        if total is None:
            return None
        twos = sum(1 for c in self.cards.values() if c.points == 2)
        threes = len(self.cards) - twos
        while total > 2 and not makeable(total, twos, threes):
            total -= 1
        return total

    def cards_to_deal(self) -> int | None:
        return self.players + self.round - 1 if self.mode == "intro" else None

    def deal(self, hands: list[list[str]]) -> None:
        assert self.needs_deal and not self.over
        assert len(hands) == self.players
        dealt = [card for hand in hands for card in hand]
        assert len(set(dealt)) == len(dealt), ("a card dealt twice", hands)
        assert all(card in self.cards for card in dealt), hands
        n = len(dealt)
        if self.mode == "intro":
            assert n == self.players + self.round - 1, (n, self.round)
            assert all(self.cards[c].points == 2 for c in dealt), hands
        else:
            assert sum(self.cards[c].points for c in dealt) == self.total, (hands, self.total)
        start = (self.round - 1) % self.players
        sizes = [sum(1 for i in range(n) if (start + i) % self.players == seat) for seat in range(self.players)]
        assert [len(h) for h in hands] == sizes, (hands, sizes, self.round)
        for points in (2, 3):
            drawn = sum(1 for c in dealt if self.cards[c].points == points)
            if self.stacks[points] < drawn:  # the stack runs out: its discard pile is shuffled into it
                self.stacks[points] += self.discards[points]
                self.discards[points] = 0
            assert self.stacks[points] >= drawn, (hands, self.stacks)
            self.stacks[points] -= drawn
        self.hands = [list(h) for h in hands]
        self.needs_deal = False

    # ----- who may act
    @property
    def actors(self) -> list[int]:
        if self.over:
            return []
        if self.turns == "free":
            assert self.to_move is not None
            return [(self.to_move + i) % self.players for i in range(self.players)]
        assert self.to_move is not None
        return [self.to_move]

    # ----- moves
    def _check(self, text: str, seat: int) -> tuple[str, Any]:
        if self.over:
            raise Refused("the game is over")
        if not 0 <= seat < self.players or seat not in self.actors:
            raise Refused(f"seat {seat} may not act")
        words = text.split()
        if text == "ok":
            return ("ok", None)
        if text == "time":
            if self.challenge != 2 or not self.started:
                raise Refused("no clock runs")
            return ("time", None)
        if len(words) == 2 and words[0] == "waive":
            if self.challenge not in (9, 13) or self.waive != "vote":
                raise Refused("no votes here")
            s_, _, k_ = words[1].partition(".")
            if not (s_.isdigit() and k_.isdigit()) or not (
                0 <= int(s_) < self.players and 1 <= int(k_) <= len(self.hands[int(s_)])
            ):
                raise Refused("no such card")
            if self.votes.get(seat) == words[1]:
                raise Refused("that is the seat's vote already")
            if self.votes_cast[seat] >= 3:
                raise Refused("three votes a seat and attempt")
            return ("vote", words[1])
        if seat == self.blind:
            raise Refused("the blind seat may only say ok")
        if len(words) == 1 and text.startswith("-"):
            brick = text[1:]
            if brick not in self.bricks:
                raise Refused("not in the tower")
            if self.challenge == 8:
                raise Refused("challenge 8: a placed brick stays")
            if self._carries(brick):
                raise Refused("carries a brick")
            return ("remove", brick)
        if len(words) == 3:
            brick, axis, corner = words
            if brick not in IDS or axis not in ("x", "y", "z"):
                raise Refused("bad move")
            if brick == "G" and self.brick_rule == "green":
                raise Refused("no gray brick with the green deck")
            x, y = (float(v) for v in corner.split(","))
            for v in (x, y):
                if abs(v / self.grid - round(v / self.grid)) > 1e-9 or abs(v) > 1000:
                    raise Refused("off the grid")
            if brick in self.bricks:
                if self.challenge == 8:
                    raise Refused("challenge 8: a placed brick stays")
                if self._carries(brick):
                    raise Refused("carries a brick")
            return ("place", (brick, axis, x, y))
        raise Refused(f"unknown move {text!r}")

    def _carries(self, brick: str) -> bool:
        return any(rests_on(other, self.bricks[brick]) for other in self.bricks.values() if other.id != brick)

    def legal_moves(self, seat: int | None = None) -> list[str]:
        """The listed moves: ok, votes, take-aways, then each colour's first free brick at every touching corner."""
        seat = self.to_move if seat is None else seat
        if self.over or seat not in self.actors:
            return []
        moves = ["ok"]
        if seat == self.blind:
            return moves
        if self.challenge in (9, 13) and self.waive == "vote" and self.votes_cast[seat] < 3:
            for s in range(self.players):
                for k in range(1, len(self.hands[s]) + 1):
                    if self.votes.get(seat) != f"{s}.{k}":
                        moves.append(f"waive {s}.{k}")
        if self.challenge != 8:
            moves += [f"-{b}" for b in IDS if b in self.bricks and not self._carries(b)]
        usable = IDS[:8] if self.brick_rule == "green" else IDS
        for colour in "YPRBG":
            free = [b for b in usable if b[0] == colour and b not in self.bricks]
            if not free:
                continue
            brick = free[0]
            for axis in ("x", "y", "z"):
                if not self.bricks:
                    moves.append(f"{brick} {axis} 0,0")
                    continue
                long, wide, thick = self.size
                dx, dy = {"x": (long, wide), "y": (wide, long), "z": (wide, thick)}[axis]
                boxes = [b.box for b in self.bricks.values()]
                lo_x, lo_y = min(b[0] for b in boxes) - dx, min(b[1] for b in boxes) - dy
                hi_x, hi_y = max(b[3] for b in boxes), max(b[4] for b in boxes)
                steps = round(1 / self.grid)
                for j in range(round(lo_y * steps), round(hi_y * steps) + 1):
                    for i in range(round(lo_x * steps), round(hi_x * steps) + 1):
                        x, y = i / steps, j / steps
                        new = place(self.bricks, brick, axis, x, y, self.size)
                        if any(touching(new, b) for b in self.bricks.values()):
                            moves.append(f"{brick} {axis} {number(x)},{number(y)}")
        return moves

    def late(self, text: str, seen_ply: int, seat: int) -> bool:
        """Free turns: a move sent while seeing the first ``seen_ply`` moves is late when an evaluation came after
        them, and an ok also when another seat's edit came after them."""
        if any(e["moves"] > seen_ply for e in self.evaluations):
            return True
        return text == "ok" and any(kind in ("place", "remove") and by != seat for kind, by in self.history[seen_ply:])

    def refuses(self, text: str, seat: int) -> bool:
        try:
            self._check(text, seat)
        except Refused:
            return True
        return False

    def play(self, text: str, seat: int | None = None) -> None:
        assert not self.needs_deal
        if seat is None:
            assert self.to_move is not None
            seat = self.to_move
        kind, arg = self._check(text, seat)
        self.history.append((kind, seat))
        self.to_move = (seat + 1) % self.players
        if kind == "time":
            self._evaluate(timed_out=True)
            return
        if kind == "vote":
            self.votes[seat] = arg
            self.votes_cast[seat] += 1
            return
        self.started = True
        if kind == "ok":
            self.oks.add(seat)
            if len(self.oks) == self.players:
                self._evaluate()
            return
        if kind == "remove":
            del self.bricks[arg]
        else:
            brick, axis, x, y = arg
            self.bricks.pop(brick, None)
            self.bricks[brick] = place(self.bricks, brick, axis, x, y, self.size)
        self.edits += 1
        self.oks.clear()
        if self.edits >= self.max_edits:
            self._evaluate()

    # ----- the evaluation
    def valid(self) -> bool:
        """The deck's brick rule, connected, standing."""
        in_use = [self.bricks[b] for b in IDS if b in self.bricks]
        if self.brick_rule == "green":
            complete = set(self.bricks) == GREEN_BRICKS
        else:
            complete = {b.id[0] for b in in_use} == set(COLOURS)
        return complete and connected(in_use) and judge(in_use).stands

    def only_waits(self, text: str, seat: int) -> bool:
        """An ok that puts up no new thumb (already up), or with free turns an ok on a tower that cannot pass yet
        while some other seat's thumb is down (the last thumb ends the build, valid or not)."""
        if text != "ok":
            return False
        last = len(self.oks) == self.players - 1
        return seat in self.oks or (self.turns == "free" and not last and not self.valid())

    def _evaluate(self, timed_out: bool = False) -> None:
        in_use = [self.bricks[b] for b in IDS if b in self.bricks]
        valid = self.valid()
        held = [(c, p, self.cards[c].holds(in_use)) for p, hand in enumerate(self.hands) for c in hand]
        failing = [c for c, _, h in held if not h]
        height = max((b.box[5] for b in in_use), default=0.0)
        on_table = sum(1 for b in in_use if abs(b.box[2]) <= 1e-9)
        waived = None
        cards_ok = not failing
        rule_ok = True
        ch = self.challenge
        if ch in (9, 13) and self.waive == "auto":
            if len(failing) == 1:
                waived = failing[0]
            cards_ok = len(failing) <= 1
        elif ch in (9, 13):
            named = list(self.votes.values())
            for vote in sorted(set(named)):
                if 2 * named.count(vote) > self.players:
                    seat_, place_ = (int(v) for v in vote.split("."))
                    waived = self.hands[seat_][place_ - 1]
            cards_ok = all(c == waived for c in failing)
        if ch == 2:
            rule_ok = not timed_out
        if ch == 1:
            rule_ok = on_table <= 2
        elif ch == 7:
            rule_ok = on_table <= 3 and any(
                abs(b.box[2]) <= 1e-9
                and sum(1 for o in in_use if o.id != b.id and touching(o, b)) >= 3
                and judge([o for o in in_use if o.id != b.id]).stands
                for b in in_use
            )
        elif ch in (11, 14):
            lands = LAND[ch]
            footing = [b for b in in_use if abs(b.box[2]) <= 1e-9]
            rule_ok = all(any(inside(b.box, land) for land in lands) for b in footing) and all(
                any(inside(b.box, land) for b in footing) for land in lands
            )
        elif ch == 4:
            rule_ok = on_table == 2 and abs(height - 4 * self.long) <= 1e-9
        elif ch == 5:
            rule_ok = len(in_use) >= 6 and on_table <= 3 and judge(in_use, margin=True).margin_deg < self.shake_deg
        elif ch == 9:
            rule_ok = on_table == 1
        elif ch == 12:
            rule_ok = on_table <= 4 and judge(in_use, margin=True).margin_deg >= self.pull_deg
        elif ch == 13:
            rule_ok = height >= 5 * self.long - 1e-9
        success = valid and cards_ok and rule_ok
        bonus = 0
        if self.mode in ("base", "solo"):
            if height > self.box_long + 1e-9:
                bonus += 3
            elif height > self.box_short + 1e-9:
                bonus += 1
            if on_table <= 2:
                bonus += 2
        if not success:
            points: float = 0
            bonus = 0  # a failed attempt counts no bonus (and says so: its evaluation gives 0)
        elif self.mode in ("base", "solo"):
            points = sum(self.cards[c].points for c, _, _ in held) + bonus
        else:
            points = 1
        self.evaluations.append(
            {
                "moves": len(self.history),
                "round": self.round,
                "attempt": self.attempt,
                "total": self.total,
                "success": success,
                "points": points,
                "bonus": bonus,
                "held": held,
                "waived": waived,
            }
        )
        self.attempts_used += 1
        lost = not success and self.attempts != 0 and self.attempt >= self.attempts
        if success or lost:
            self.round_points.append(points)
            self.round_success.append(success)
            if self.round == self.rounds:
                self.over = True
                self.to_move = None
            else:
                self.round += 1
                self.attempt = 1
                self.total = self._reachable(self.first_total)
        else:
            self.attempt += 1
            if self.mode in ("base", "solo") and self.total is not None:
                self.total = self._reachable(max(2, self.total - self.retry_drop))
        for hand in self.hands:
            for card in hand:
                self.discards[self.cards[card].points] += 1
        self.bricks = {}
        self.oks = set()
        self.edits = 0
        self.votes = {}
        self.votes_cast = [0] * self.players
        self.started = False
        self.needs_deal = not self.over

    # ----- results
    @property
    def score(self) -> float:
        if self.mode in ("intro", "challenge"):
            return sum(1 for s in self.round_success if s)
        return sum(self.round_points)

    def scores(self) -> list[float]:
        return [self.score] * self.players

    def winners(self) -> list[int]:
        return list(range(self.players)) if self.over else []

    def verdict(self) -> str | None:
        if not self.over or self.mode not in ("base", "solo"):
            return None
        for top, words in VERDICTS:
            if self.score <= top:
                return words
        return TOP_VERDICT
