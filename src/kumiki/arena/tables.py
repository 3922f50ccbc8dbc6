"""CSV files of a study: every game as a row (``kumiki arena export``), and the report's tables."""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

GAME_COLUMNS = (
    "index",
    "block",
    "options",
    "seats",
    "seed",
    "scores",
    "winners",
    "ranks",
    "moves",
    "forfeit_seat",
    "forfeit_reason",
    "think_s",
)


def _cell(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return ""  # not defined (a p-value of no games, an interval of one): an empty cell, as a spreadsheet reads it
    if isinstance(value, list | dict):
        return json.dumps(value, separators=(",", ":"))
    return value


def write_games_csv(rows: Sequence[dict[str, Any]], handle: TextIO) -> None:
    """Every game as one CSV row: the columns of ``GAME_COLUMNS`` (lists and option sets as compact JSON in their
    cell), then the same spread out for a spreadsheet's filters: ``option_<name>``, ``seat_<i>``, ``score_<i>``,
    ``team_<i>`` and ``measure_<name>`` (one column each, empty where a game has none)."""
    options = sorted({k for row in rows for k in (row.get("options") or {})})
    seats = max((len(row.get("seats") or ()) for row in rows), default=0)
    measures = sorted({k for row in rows for k in (row.get("measures") or {})})
    spread = [
        *(f"option_{k}" for k in options),
        *(f"{kind}_{i}" for kind in ("seat", "score", "team") for i in range(seats)),
        *(f"measure_{k}" for k in measures),
    ]
    writer = csv.writer(handle)
    writer.writerow([*GAME_COLUMNS, *spread])
    for row in rows:
        forfeit = row.get("forfeit") or {}
        values = {**row, "forfeit_seat": forfeit.get("seat", ""), "forfeit_reason": forfeit.get("reason", "")}
        for k, v in (row.get("options") or {}).items():
            values[f"option_{k}"] = v
        for kind, key in (("seat", "seats"), ("score", "scores"), ("team", "teams")):
            for i, v in enumerate(row.get(key) or ()):
                values[f"{kind}_{i}"] = v
        for k, v in (row.get("measures") or {}).items():
            values[f"measure_{k}"] = v
        writer.writerow([_cell(values.get(column, "")) for column in (*GAME_COLUMNS, *spread)])


def write_table(path: Path, header: Sequence[str], rows: Sequence[Sequence[Any]]) -> Path:
    """A CSV table with a header row."""
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows([[_cell(v) for v in row] for row in rows])
    return path
