"""The round totals of each mode, and the 14 challenges as digital rules.

A challenge either adds a check on the finished tower (:func:`challenge_problems`), changes what may be played
(``fixed_bricks``: placed bricks may not move; ``blind``: one player only says ok), lets one card fail
(``waive_one``), or is about talking or time, which the engine records for a front end to enforce (``recorded``).
Physical acts become the stability margin (the tilt-table margin of :mod:`kumiki.physics`) against a threshold.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any

from kumiki.games.towerbrix.bricks import Brick, footprints_overlap, judge, on_table, touching
from kumiki.games.towerbrix.scoring import height

BASE_TOTALS = {"easy": 10, "medium": 16, "hard": 20}  # within easy <= 12, medium 13-19, hard >= 20
CHALLENGE_TOTALS = {"easy": 12, "medium": 15, "hard": 18}  # the seed's exact challenge totals
COLLAPSED = 6  # challenge 5: "the tower counts as collapsed if at least six bricks touch the playing surface"

Rect = tuple[float, float, float, float]


def most_cards(points: int, twos: int, threes: int) -> int:
    """The most cards among ``twos`` 2-point and ``threes`` 3-point cards that add up to exactly ``points`` (as many
    2s as the total allows); -1 when none do."""
    for k in range(min(threes, points // 3) + 1) if points >= 0 else ():
        if (points - 3 * k) % 2 == 0 and (points - 3 * k) // 2 <= twos:
            return k + (points - 3 * k) // 2
    return -1


def makeable(points: int, twos: int, threes: int) -> bool:
    """Whether some of ``twos`` 2-point and ``threes`` 3-point cards add up to exactly ``points`` (0: none)."""
    return most_cards(points, twos, threes) >= 0


def nearest_makeable(points: int, twos: int, threes: int) -> int:
    """The total a round asking for ``points`` draws: ``points`` when the cards make it, else the largest total
    below it that they make (a retry's total stays lower), else the smallest above (a deck of 3-point cards
    asked for 2), else 0 (no cards)."""
    for total in chain(range(points, 1, -1), range(points + 1, 2 * twos + 3 * threes + 1)):
        if makeable(total, twos, threes):
            return total
    return 0


@dataclass(frozen=True)
class Challenge:
    number: int
    name: str
    rule: str  # the digital rule, in our own words; {time_limit}, {shake_deg}, {pull_deg}: the game's options
    fixed_bricks: bool = False
    blind: bool = False
    waive_one: bool = False
    recorded: str = ""  # "time" (a front end runs the clock: state.clock()) or "silence" (recorded only)

    def rule_for(self, options: Mapping[str, Any]) -> str:
        """The rule with this game's own figures in its blanks (the players read "at most 12 seconds", not
        "time_limit seconds, 150 by default")."""
        return self.rule.format(**{name: f"{options[name]:.10g}" for name in ("time_limit", "shake_deg", "pull_deg")})


@dataclass(frozen=True)
class GroundMap:
    """A map laid on the table (challenges 11 and 14). A brick that touches the table must stand wholly on a
    foundation or on its continuation beyond the map ("connected to it outside the map", as the rulebook says); every
    foundation must carry a brick. Elsewhere, on the map or off it, is river or swamp."""

    area: Rect
    foundations: tuple[Rect, ...]
    name: str = "map"  # what lies between the foundations: "river", "swamp"

    def to_json(self) -> dict[str, Any]:
        """The map as views give it: ``{"name", "area": [x0, y0, x1, y1], "foundations": [[x0, y0, x1, y1], ...]}``."""
        return {"name": self.name, "area": list(self.area), "foundations": [list(f) for f in self.foundations]}

    def land(self) -> tuple[Rect, ...]:
        """Each foundation with every side that lies on the map's edge pushed out to infinity: a bank that reaches
        the edge of the map goes on beyond it; an island inside the map stays an island."""
        x0, y0, x1, y1 = self.area
        out = []
        for f in self.foundations:
            out.append(
                (
                    -math.inf if f[0] <= x0 + 1e-9 else f[0],
                    -math.inf if f[1] <= y0 + 1e-9 else f[1],
                    math.inf if f[2] >= x1 - 1e-9 else f[2],
                    math.inf if f[3] >= y1 - 1e-9 else f[3],
                )
            )
        return tuple(out)


# Our own layouts (the printed maps are not reproduced), sized so that the deck's bricks can meet them: Z1, a river 3
# wide between two banks, crossed by a corbelled bridge of seven bricks; Z2+Z3, a swamp with three foundations one
# unit apart (two bridges must fit in eight or nine bricks).
RIVER = GroundMap((0.0, 0.0, 7.0, 6.0), ((0.0, 0.0, 2.0, 6.0), (5.0, 0.0, 7.0, 6.0)), "river")
SWAMP = GroundMap((0.0, 0.0, 8.0, 9.0), ((0.0, 0.0, 2.0, 9.0), (3.0, 3.0, 5.0, 6.0), (6.0, 0.0, 8.0, 9.0)), "swamp")
#: The challenges played on a map.
MAPS: dict[int, GroundMap] = {11: RIVER, 14: SWAMP}

#: Towers of the eight coloured bricks that meet each map (tested), each as edits "brick axis x,y" in build order. The
#: solver starts from the first and restarts from the next in turn (``solver.map_starts``): its local search moves only
#: bricks that carry nothing, so each leaves other bricks free and offers another shape. River: the corbelled bridge of
#: seven with its piers lying or standing and the eighth brick standing on it (tall), lying or standing on the bank, or
#: as the keystone. Swamp: a brick on each foundation and two spans, with the other three standing on the ends, in a
#: column (tall), lying on the table beside the foundations; on standing piers; the old tower, of one free brick, last.
MAP_TOWERS: dict[int, tuple[tuple[str, ...], ...]] = {
    11: (
        ("Y1 x 0,0", "Y2 x 5,0", "P1 x 1,0", "P2 x 4,0", "R1 z 1,0", "R2 z 5,0", "B1 x 2.5,0", "B2 z 1,0"),
        ("Y1 z 1,0", "Y2 z 5,0", "P1 x 1,0", "P2 x 4,0", "R1 z 1,0", "R2 z 5,0", "B1 x 2.5,0", "B2 x 0,1"),
        ("Y1 x 0,0", "Y2 x 5,0", "P1 x 1,0", "P2 x 4,0", "R1 z 1,0", "R2 z 5,0", "B1 x 2.5,0", "B2 z 0,1"),
        ("Y1 z 1,0", "Y2 z 5,0", "P1 x 1,0", "P2 x 4,0", "R1 z 1,0", "R2 z 5,0", "B1 x 2.5,0", "B2 z 1,0"),
        ("Y1 x 0,0", "Y2 x 5,0", "P1 x 1,0", "P2 x 4,0", "R1 z 1,0", "R2 z 5,0", "B1 y 1,-0.5", "B2 x 2.5,0"),
        ("Y1 x 0,0", "Y2 x 5,0", "P1 x 1,0", "P2 x 4,0", "R1 z 1,0", "R2 z 5,0", "B1 x 2.5,0", "B2 x 0,1"),
        ("Y1 z 1,0", "Y2 z 5,0", "P1 x 1,0", "P2 x 4,0", "R1 z 1,0", "R2 z 5,0", "B1 x 2.5,0", "B2 y 1,-0.5"),
    ),
    14: (
        ("Y1 x 0,3", "Y2 x 3,3", "P1 x 6,3", "P2 x 1.5,3", "R1 x 4.5,3", "R2 z 7,3", "B1 z 0,3", "B2 x 3,3"),
        ("Y1 x 0,3", "Y2 x 3,3", "P1 x 6,3", "P2 x 1.5,3", "R1 x 4.5,3", "R2 z 2,3", "B1 z 2,3", "B2 z 2,3"),
        ("Y1 x 0,3", "Y2 x 3,3", "P1 x 6,3", "P2 x 1.5,3", "R1 x 4.5,3", "R2 x 0,4", "B1 x 6,4", "B2 z 2,3"),
        ("Y1 z 1,3", "Y2 z 3,3", "P1 z 4,3", "P2 z 6,3", "R1 x 1.5,3", "R2 x 4.5,3", "B1 x 3,3", "B2 z 2,3"),
        ("Y1 y 1,3", "Y2 x 3,3", "P1 y 6,3", "P2 x 1.5,3", "R1 x 4.5,3", "R2 z 3,3", "B1 z 4,3", "B2 x 3,3"),
    ),
}


CHALLENGES: dict[int, Challenge] = {
    c.number: c
    for c in (
        Challenge(1, "Small footprint", "at most two bricks touch the table"),
        Challenge(
            2,
            "Time pressure",
            "the build lasts at most {time_limit} seconds from its first move",
            recorded="time",
        ),
        Challenge(
            3, "Trade secret", "no talking during the build (recorded; a front end offers no chat)", recorded="silence"
        ),
        Challenge(
            4, "Custom built", "exactly two bricks touch the table and the tower is exactly four standing bricks tall"
        ),
        Challenge(
            5,
            "Shoddy construction",
            "at least six bricks, at most three of them touch the table, and the margin is below {shake_deg}°",
        ),
        Challenge(6, "Masterpiece", "the tower's shape (colours aside) is mirror-symmetric about a vertical plane"),
        Challenge(
            7,
            "Budget cuts",
            "at most three bricks touch the table, and some brick on the table that touches at "
            "least three others can be taken away with the rest still standing",
        ),
        Challenge(8, "Staffing shortage", "a placed brick can be neither moved nor taken away", fixed_bricks=True),
        Challenge(9, "One brick wonder", "exactly one brick touches the table; one card may fail", waive_one=True),
        Challenge(
            10, "Blind luck", "the last player sees no bricks and only says ok; their cards must hold", blind=True
        ),
        Challenge(
            11,
            "Tower bridge",
            "the river map: banks x 0-2 and x 5-7 (y 0-6), the river between them; every brick on the table stands "
            "wholly on a bank or on its continuation off the map (x <= 2 or x >= 5); both banks carry a brick",
        ),
        Challenge(
            12, "Settling foundations", "the margin is at least {pull_deg}° and at most four bricks touch the table"
        ),
        Challenge(
            13, "High standards", "the tower is at least five standing bricks tall; one card may fail", waive_one=True
        ),
        Challenge(
            14,
            "Absurd undertaking",
            "the swamp map: foundations x 0-2 and x 6-8 (y 0-9) and an island x 3-5, y 3-6; every brick on the table "
            "stands wholly on a foundation or on the continuation of an outer one off the map (x <= 2 or x >= 6); "
            "all three foundations carry a brick",
        ),
    )
}


def _inside(rect: Rect, box: Sequence[float]) -> bool:
    return (
        rect[0] - 1e-9 <= box[0] and box[3] <= rect[2] + 1e-9 and rect[1] - 1e-9 <= box[1] and box[4] <= rect[3] + 1e-9
    )


def _rect_box(rect: Rect) -> tuple[float, float, float, float, float, float]:
    return (rect[0], rect[1], 0.0, rect[2], rect[3], 1.0)


def map_problems(bricks: Sequence[Brick], ground: GroundMap) -> list[str]:
    problems = []
    area = _rect_box(ground.area)
    land = ground.land()
    for b in bricks:
        if on_table(b) and not any(_inside(f, b.box) for f in land):
            where = "on the map" if footprints_overlap(b.box, area) else "off the map"
            problems.append(f"{b.id} stands {where} outside the foundations")
    for i, f in enumerate(ground.foundations, 1):
        if not any(on_table(b) and footprints_overlap(b.box, _rect_box(f)) for b in bricks):
            problems.append(f"foundation {i} carries no brick")
    return problems


def mirror_symmetric(bricks: Sequence[Brick]) -> bool:
    """The set of boxes equals its mirror image in some vertical plane (colours and ids ignored).

    A mirror that maps axis-aligned boxes onto axis-aligned boxes is parallel to a side of the grid (x = c, y = c) or
    to a diagonal (x - y = c, x + y = c): the table has no directions of its own, so an L of two equal arms is as
    symmetric about its diagonal as a row of bricks is about its middle."""
    boxes = {tuple(round(v * 1e6) for v in b.box) for b in bricks}
    if not boxes:
        return True
    lo_x, lo_y = min(b[0] for b in boxes), min(b[1] for b in boxes)
    hi_x, hi_y = max(b[3] for b in boxes), max(b[4] for b in boxes)
    sx, sy, d, s = lo_x + hi_x, lo_y + hi_y, lo_x - lo_y, lo_x + hi_y  # the four planes: x, y, x - y, x + y
    images: list[set[tuple[int, ...]]] = [set(), set(), set(), set()]
    for x0, y0, z0, x1, y1, z1 in boxes:
        images[0].add((sx - x1, y0, z0, sx - x0, y1, z1))
        images[1].add((x0, sy - y1, z0, x1, sy - y0, z1))
        images[2].add((y0 + d, x0 - d, z0, y1 + d, x1 - d, z1))
        images[3].add((s - y1, s - x1, z0, s - y0, s - x0, z1))
    return boxes in images


def budget_cut_possible(bricks: Sequence[Brick]) -> bool:
    """Some brick on the table that touches at least three others can go, and the rest still stands."""
    for b in bricks:
        if on_table(b) and sum(1 for o in bricks if o is not b and touching(b, o)) >= 3:
            rest = [o for o in bricks if o is not b]
            if judge(rest).stands:
                return True
    return False


def on_the_table(count: int) -> str:
    """'1 brick touches the table', '3 bricks touch the table'."""
    return f"{count} brick touches the table" if count == 1 else f"{count} bricks touch the table"


def margin_beside(margin: float, threshold: float, below: bool) -> tuple[str, str]:
    """The margin and the threshold as a problem writes them: one decimal, or as many more as it takes for the
    written margin to stand on its side of the written threshold (``below``: the margin is less than it), so a
    margin of 5.98 short of 6 reads "5.98", not "6.0". The threshold keeps its own short form when that is exact."""
    for places in range(1, 16):
        shown = f"{margin:.{places}f}"
        short = f"{threshold:g}"
        need = short if float(short) == threshold else f"{threshold:.{places}f}"
        if (float(shown) < float(need)) == below:
            return shown, need
    return repr(margin), repr(threshold)


def margin_shown(margin: float, threshold: float | None = None) -> float:
    """The margin as an evaluation gives it: rounded to 2 places, or to as many more as it takes to stay on its side
    of ``threshold`` (challenges 5 and 12), so a margin of 3.846 short of 3.85 reads 3.846, not 3.85."""
    for places in range(2, 16):
        shown = round(margin, places)
        if threshold is None or (shown < threshold) == (margin < threshold):
            return shown
    return margin


def challenge_problems(
    number: int, bricks: Sequence[Brick], margin_deg: float, long: float, shake_deg: float, pull_deg: float
) -> list[str]:
    """What the finished (valid, standing) tower misses of challenge ``number``'s tower rule; [] when met.

    ``margin_deg`` is the tower's tilt margin, ``long`` a brick's long side (a standing brick's height)."""
    on = sum(1 for b in bricks if on_table(b))
    top = height(bricks)
    problems: list[str] = []
    if number == 1 and on > 2:
        problems.append(f"{on_the_table(on)} (at most 2)")
    elif number == 4:
        if on != 2:
            problems.append(f"{on_the_table(on)} (exactly 2)")
        if abs(top - 4 * long) > 1e-9:
            problems.append(f"the tower is {top:g} tall (exactly {4 * long:g})")
    elif number == 5:
        if len(bricks) < COLLAPSED:  # it could never count as collapsed: six bricks must end up on the table
            problems.append(f"only {len(bricks)} bricks: a collapse needs at least {COLLAPSED} on the table")
        if on > 3:
            problems.append(f"{on_the_table(on)} (at most 3)")
        if margin_deg >= shake_deg:
            shown, need = margin_beside(margin_deg, shake_deg, below=False)
            problems.append(f"too sturdy: margin {shown}° (below {need}° needed)")
    elif number == 6 and not mirror_symmetric(bricks):
        problems.append("the tower is not mirror-symmetric")
    elif number == 7:
        if on > 3:
            problems.append(f"{on_the_table(on)} (at most 3)")
        elif not budget_cut_possible(bricks):
            problems.append("no brick on the table touching three others can be taken away safely")
    elif number == 9 and on != 1:
        problems.append(f"{on_the_table(on)} (exactly 1)")
    elif number == 11:
        problems.extend(map_problems(bricks, RIVER))
    elif number == 12:
        if on > 4:
            problems.append(f"{on_the_table(on)} (at most 4)")
        if margin_deg < pull_deg:
            shown, need = margin_beside(margin_deg, pull_deg, below=True)
            problems.append(f"too shaky: margin {shown}° (at least {need}° needed)")
    elif number == 13 and top < 5 * long - 1e-9:
        problems.append(f"the tower is {top:g} tall (at least {5 * long:g})")
    elif number == 14:
        problems.extend(map_problems(bricks, SWAMP))
    return problems
