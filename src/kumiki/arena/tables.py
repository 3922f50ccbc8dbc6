"""CSV files of a study: every game as a row (``kumiki arena export``), and the report's tables."""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

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
    if isinstance(value, list | dict):
        return json.dumps(value, separators=(",", ":"))
    return value


def write_games_csv(rows: Sequence[dict[str, Any]], path: Path) -> Path:
    """Every game as one CSV row; lists and option sets as compact JSON in their cell."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(GAME_COLUMNS)
        for row in rows:
            forfeit = row.get("forfeit") or {}
            values = {**row, "forfeit_seat": forfeit.get("seat", ""), "forfeit_reason": forfeit.get("reason", "")}
            writer.writerow([_cell(values.get(column, "")) for column in GAME_COLUMNS])
    return path


def write_table(path: Path, header: Sequence[str], rows: Sequence[Sequence[Any]]) -> Path:
    """A CSV table with a header row."""
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows([[_cell(v) for v in row] for row in rows])
    return path
