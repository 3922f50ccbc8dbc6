"""``kumiki prune``: list, then on request delete, the games a club's server no longer needs: games nobody has
touched for days (abandoned ones by default, finished ones only when asked). Nothing is deleted without ``--yes``."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy.engine import make_url

from kumiki.server.serve import check_database
from kumiki.server.storage import GameRow, Storage, default_url, normalise_url

DAY_S = 86400.0
LISTED = 20  # games listed one by one before "… and N more"
MAX_IDLE_DAYS = 36500  # a century: more reaches before 1970, or past any date (inf), and no date can be shown


def _day(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%d %H:%M UTC")


def _line(row: GameRow) -> str:
    names = ", ".join(seat.name for seat in row.seats)
    state = "finished" if row.status == "over" else "unfinished"
    kind = ", imported" if row.imported else ""
    return f"  {row.id}  {row.game}  {state}{kind}, {row.moves} moves, last change {_day(row.updated)}  ({names})"


def _existing(url: str) -> str:
    """A SQLite file that does not exist is refused: pruning must not create an empty database beside the real one."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database and not Path(parsed.database).exists():
        raise ValueError(f"no database at {parsed.database} (the server's default: {default_url(create=False)})")
    return url


def prune(
    db: str | None, idle_days: float, finished: bool, yes: bool, out: Callable[[str], object], now: float | None = None
) -> int:
    """List the games last changed more than ``idle_days`` ago (still going; with ``finished`` the finished ones
    too) and, with ``yes``, delete them; returns how many were deleted."""
    if not idle_days >= 1:  # NaN included
        raise ValueError(f"--idle-days: at least 1 (a game of today may be one being played), not {idle_days:g}")
    if idle_days > MAX_IDLE_DAYS:  # inf, 1e18: the date before which games count is out of any calendar's range
        raise ValueError(f"--idle-days: at most {MAX_IDLE_DAYS} (a century), not {idle_days:g}")
    url = check_database(_existing(normalise_url(db) if db else default_url(create=False)))
    before = (time.time() if now is None else now) - idle_days * DAY_S
    storage = Storage(url)
    try:
        rows = storage.idle_games(before, finished)
        which = "games" if finished else "unfinished games"
        if not rows:
            out(f"No {which} unchanged since before {_day(before)}.")
            return 0
        going = sum(1 for r in rows if r.status != "over")
        counts = f"{going} unfinished, {len(rows) - going} finished"
        out(f"{len(rows)} {which} unchanged since before {_day(before)} ({counts}):")
        for row in rows[:LISTED]:
            out(_line(row))
        if len(rows) > LISTED:
            out(f"  … and {len(rows) - LISTED} more")
        if not yes:
            out("Nothing deleted: run again with --yes to delete them (download a game's record first to keep it).")
            return 0
        deleted = storage.delete_games([r.id for r in rows])
        out(f"Deleted {deleted} games.")
        return deleted
    finally:
        storage.close()
