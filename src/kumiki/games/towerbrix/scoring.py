"""Points for a finished tower: the cards' points and the two bonuses; and the scoring table's verdicts."""

from __future__ import annotations

from collections.abc import Iterable

from kumiki.games.towerbrix.bricks import Brick, on_table

# (lowest final score of the band, verdict in our own words), highest band first.
VERDICTS: tuple[tuple[int, str], ...] = (
    (80, "Unheard of: a tower nobody thought could be built."),
    (70, "Sky-high: your towers scrape the clouds."),
    (60, "A work of art in brick."),
    (50, "Solid, dependable building."),
    (40, "A first-year architecture tutor would sign this off."),
    (0, "The foundations are in; there is room to build better and higher."),
)


def height(bricks: Iterable[Brick]) -> float:
    """The top of the tower above the table (0 for no bricks)."""
    return max((b.box[5] for b in bricks), default=0.0)


def height_bonus(bricks: Iterable[Brick], box_short: float = 6.0, box_long: float = 9.0) -> int:
    """+3 if the tower is taller than the box's long side, else +1 if taller than its short side (strictly)."""
    top = height(bricks)
    if top > box_long + 1e-9:
        return 3
    if top > box_short + 1e-9:
        return 1
    return 0


def footprint_bonus(bricks: Iterable[Brick]) -> int:
    """+2 if at most two bricks touch the table."""
    return 2 if sum(1 for b in bricks if on_table(b)) <= 2 else 0


def bonus(bricks: Iterable[Brick], box_short: float = 6.0, box_long: float = 9.0) -> int:
    items = list(bricks)
    return height_bonus(items, box_short, box_long) + footprint_bonus(items)


def verdict(score: float) -> str:
    """The scoring table's verdict for a final score of the base or solo game."""
    for low, text in VERDICTS:
        if score >= low:
            return text
    return VERDICTS[-1][1]
