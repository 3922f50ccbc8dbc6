"""A study's results directory: the study as run, ``games.jsonl`` (one line per finished game, appended as it
finishes) and optionally ``records/<index>.kmk``. It survives ``kill -9``: each line is handed to the OS whole as its
game ends (and synced to the disk at least once a second), a half-written last line is cut off before the next
append, and a re-run plays only the games not yet in it."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from kumiki.arena.study import Study, StudyError, load_study

STUDY_FILE = "study.toml"
GAMES_FILE = "games.jsonl"
RECORDS = "records"
SYNC_EVERY_S = 1.0


def read_rows(path: Path) -> tuple[list[dict[str, Any]], int]:
    """The complete rows of a games file and the byte length of its complete lines (a torn last line is not one)."""
    if not path.exists():
        return [], 0
    data = path.read_bytes()
    rows: list[dict[str, Any]] = []
    good = 0
    for line in data.splitlines(keepends=True):
        if not line.endswith(b"\n"):
            break  # the write of this line was cut short
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            break
        if not isinstance(row, dict) or "index" not in row:
            break
        rows.append(row)
        good += len(line)
    return rows, good


class ResultsDir:
    """The results of one study in one folder; opening it again resumes (see the module's docstring)."""

    def __init__(self, path: str | Path, study: Study) -> None:
        self.path = Path(path)
        self.study = study
        self.path.mkdir(parents=True, exist_ok=True)
        study_path = self.path / STUDY_FILE
        text = study.to_toml()
        if study_path.exists():
            try:
                before = load_study(study_path)
            except StudyError:
                before = None
            if before != study:
                raise StudyError(
                    f"{self.path}: holds the results of another study (its {STUDY_FILE} differs); "
                    "choose another --out folder"
                )
        else:
            _write_whole(study_path, text)
        self.games_path = self.path / GAMES_FILE
        rows, good = read_rows(self.games_path)
        if self.games_path.exists() and self.games_path.stat().st_size != good:
            with self.games_path.open("r+b") as handle:  # cut a torn last line before appending after it
                handle.truncate(good)
        self.rows: dict[int, dict[str, Any]] = {int(r["index"]): r for r in rows}
        self._handle = self.games_path.open("ab")
        self._synced = time.monotonic()

    @property
    def done(self) -> set[int]:
        """The indexes of the games already played."""
        return set(self.rows)

    def append(self, row: dict[str, Any]) -> None:
        """Add one finished game (its record, if it carries one, goes to ``records/``); ignored if already there."""
        index = int(row["index"])
        if index in self.rows:
            return
        record = row.pop("record", None)
        if record is not None:
            folder = self.path / RECORDS
            folder.mkdir(exist_ok=True)
            _write_whole(folder / f"{index:06d}.kmk", record)
        line = json.dumps(row, separators=(", ", ": "), sort_keys=False) + "\n"
        self._handle.write(line.encode("utf-8"))
        self._handle.flush()  # in the OS's hands: a kill -9 of this process loses nothing
        now = time.monotonic()
        if now - self._synced >= SYNC_EVERY_S:  # on the disk: a power cut loses at most the last second
            os.fsync(self._handle.fileno())
            self._synced = now
        self.rows[index] = row

    def extend(self, rows: Iterable[dict[str, Any]]) -> None:
        """Append several finished games."""
        for row in rows:
            self.append(row)

    def close(self) -> None:
        """Sync and close the games file."""
        if not self._handle.closed:
            self._handle.flush()
            os.fsync(self._handle.fileno())
            self._handle.close()

    def sorted_rows(self) -> Iterator[dict[str, Any]]:
        """The rows in index order."""
        for index in sorted(self.rows):
            yield self.rows[index]


def _write_whole(path: Path, text: str) -> None:
    """Write a file so that it is either absent or complete, whatever happens meanwhile."""
    partial = path.with_name(path.name + ".partial")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, path)


def open_results(path: str | Path) -> tuple[Study, list[dict[str, Any]]]:
    """A results folder's study and its games, for reports and ratings (read only)."""
    folder = Path(path)
    if not (folder / STUDY_FILE).is_file():
        raise StudyError(f"{folder}: not a results folder (no {STUDY_FILE}); run `kumiki arena run` first")
    study = load_study(folder / STUDY_FILE)
    rows, _ = read_rows(folder / GAMES_FILE)
    rows.sort(key=lambda r: int(r["index"]))
    return study, rows


class Results:
    """A results folder, read: its study, its games, and what can be computed from them."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.study, self.rows = open_results(self.path)

    def __len__(self) -> int:
        return len(self.rows)

    def ratings(self, resamples: int = 200) -> list[Any]:
        """The rating table, best first: each agent's Elo-scale rating with its 95% interval and its games."""
        from kumiki.arena.ratings import rate

        return rate(self.rows, list(self.study.agents), resamples=resamples, seed=self.study.seed)

    def sprt(self) -> Any:
        """The SPRT's state on the pairs played (None unless the study's format is ``sprt``)."""
        if self.study.format != "sprt":
            return None
        from kumiki.arena.sprt import pair_bin, sprt_state
        from kumiki.arena.study import Sprt

        first = next(iter(self.study.agents))
        counts = [0, 0, 0, 0, 0]
        by_block: dict[int, list[dict[str, Any]]] = {}
        for row in self.rows:
            by_block.setdefault(int(row["block"]), []).append(row)
        for block in sorted(by_block):
            if len(by_block[block]) == 2:
                counts[pair_bin(by_block[block], first)] += 1
        return sprt_state(counts, self.study.sprt or Sprt())

    def report(self, path: str | Path | None = None) -> Path:
        """Write the balance report (``report.html``, ``summary.json`` and CSV tables) and return the HTML's path."""
        from kumiki.arena.report import write_report

        return write_report(self, Path(path) if path is not None else self.path / "report.html")

    def export_csv(self, path: str | Path) -> Path:
        """Every game as one CSV row (for spreadsheets): index, block, options, seats, scores, winners, …"""
        from kumiki.arena.tables import write_games_csv

        return write_games_csv(self.rows, Path(path))
