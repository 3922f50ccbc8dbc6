"""A study's results directory: the study as run, ``games.jsonl`` (one line per finished game, appended as it
finishes) and optionally ``records/<index>.kmk``. It survives ``kill -9``: each line is handed to the OS whole as its
game ends (and synced to the disk at least once a second), a half-written last line is cut off before the next
append, and a re-run plays only the games not yet in it."""

from __future__ import annotations

import importlib.util
import json
import os
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any, NamedTuple, TextIO

from kumiki.arena.study import Study, StudyError, differences, load_study, option_key

STUDY_FILE = "study.toml"
GAMES_FILE = "games.jsonl"
LOCK_FILE = ".lock"
RECORDS = "records"
SYNC_EVERY_S = 1.0


class Read(NamedTuple):
    """A games file as read: its games (one row per index, in file order), the byte length up to the end of its last
    complete line (a torn last line, cut short by a crash, is not one; a whole game without its line end is), and a
    line for each thing skipped."""

    rows: list[dict[str, Any]]
    complete: int
    skipped: list[str]


def read_rows(path: Path, study: Study | None = None) -> Read:
    """Every game of a games file. A line that is not a game (damaged by hand or by a disk) is skipped and named,
    never the end of the reading; a second row of a game already read (two runs into one folder) is skipped and
    counted, so no game weighs twice; given the ``study``, so is a row whose options are none of its option sets, or
    whose seats name an agent it does not have (edited by hand: the game could not even be loaded for the report,
    and the ratings have no such agent to credit)."""
    if not path.exists():
        return Read([], 0, [])
    if not path.is_file():
        raise StudyError(f"{path}: not a file of games (a folder?): move it away")
    data = path.read_bytes()
    rows: list[dict[str, Any]] = []
    seen: set[int] = set()
    bad: list[int] = []
    repeated = foreign = strangers = 0
    allowed = None if study is None else study.players_by_options
    agents = None if study is None else set(study.agents)
    complete = data.rfind(b"\n") + 1
    if data[complete:].strip() and is_game(_json(data[complete:])):
        complete = len(data)  # a whole game whose line end is missing (an editor, a copy): a game, not a torn line
    for number, line in enumerate(data[:complete].splitlines(), start=1):
        if not line.strip():
            continue
        row = _json(line)
        index = row["index"] if is_game(row) else None
        if index is None:
            bad.append(number)
            continue
        if index in seen:
            repeated += 1
            continue
        players = None if allowed is None else allowed.get(option_key(row["options"]))
        if allowed is not None and players is None:
            foreign += 1
            continue
        if players is not None and len(row["seats"]) != players:  # a seat added or lost by hand or by the disk
            bad.append(number)
            continue
        if agents is not None and not agents.issuperset(row["seats"]):
            strangers += 1
            continue
        seen.add(index)
        rows.append(row)
    skipped = []
    if bad:
        shown = ", ".join(map(str, bad[:5])) + (" …" if len(bad) > 5 else "")
        skipped.append(f"{path.name}: skipped {len(bad)} line(s) that are not a game (line {shown})")
    if repeated:
        skipped.append(f"{path.name}: skipped {repeated} repeated row(s) of games already read")
    if foreign:
        skipped.append(f"{path.name}: skipped {foreign} row(s) whose options are none of the study's")
    if strangers:
        skipped.append(f"{path.name}: skipped {strangers} row(s) whose seats name an agent the study does not have")
    return Read(rows, complete, skipped)


def _json(line: bytes) -> Any:
    try:
        return json.loads(line)
    except (ValueError, RecursionError):
        return None


MAX_WHOLE = 2**63 - 1  # an index, a block or a count of moves beyond it is a damaged digit, no game's
MAX_FIGURE = 1e15  # a score or a measure beyond it (or NaN, infinite) is no game's: the report's sums would overflow


def _is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and -MAX_WHOLE <= value <= MAX_WHOLE


def _is_figure(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and abs(value) <= MAX_FIGURE


def _is_forfeit(value: Any, seats: int) -> bool:
    """None, or the seat that forfeited (and why): what the commands' notes and the report read."""
    if value is None:
        return True
    return isinstance(value, dict) and _is_whole(value.get("seat")) and 0 <= value["seat"] < seats


def is_game(row: Any) -> bool:
    """Whether a line's JSON has the shape of a game's row (what the reports read): an index and a block, the
    options, the seats with their scores (finite numbers) and the winners among them (each once), the moves, and,
    if present, the places (``ranks``, 1 to the seats, first the winners), the teams, the measures (finite
    numbers), the forfeit (its seat one of the row's) and a traced game's counts. A row that fails is a damaged
    line: skipped, played again."""
    if not isinstance(row, dict):
        return False
    seats = row.get("seats")
    if not isinstance(seats, list) or not seats or not all(isinstance(s, str) for s in seats):
        return False
    n = len(seats)
    whole = _is_whole
    scores, winners, teams, ranks = row.get("scores"), row.get("winners"), row.get("teams"), row.get("ranks")
    measures = row.get("measures", {})
    return (
        whole(row.get("index"))
        and row["index"] >= 0
        and whole(row.get("block"))
        and row["block"] >= 0
        and isinstance(row.get("options"), dict)
        and isinstance(scores, list)
        and len(scores) == n
        and all(_is_figure(v) for v in scores)
        and isinstance(winners, list)
        and all(whole(w) and 0 <= w < n for w in winners)
        and len(set(winners)) == len(winners)
        and (teams is None or (isinstance(teams, list) and len(teams) == n and all(whole(t) for t in teams)))
        and (
            ranks is None
            or (
                isinstance(ranks, list)
                and len(ranks) == n
                and all(whole(r) and 1 <= r <= n for r in ranks)
                and _ranks_agree(ranks, winners, teams)
            )
        )
        and isinstance(measures, dict)
        and all(_is_figure(v) or isinstance(v, bool) for v in measures.values())
        and whole(row.get("moves"))
        and row["moves"] >= 0
        and _is_forfeit(row.get("forfeit"), n)
        and _is_trace(row)
    )


def _ranks_agree(ranks: list[int], winners: list[int], teams: list[int] | None) -> bool:
    """Places that tell the game the winners tell: someone is first, and where there are winners every seat placed
    first is one of them (a row of ``"winners": [0]`` and ``"ranks": [1, 1]`` was a win in the seats' shares and a
    draw in the ratings and the win matrix). A game without winners (a draw) may place anyone first. A game of one
    side (TowerBrix) has no order between seats, and a forfeit there places every seat last (``[2, 2]``, no
    winners): its places are not checked."""
    if teams is not None and len(set(teams)) < 2:
        return True
    return min(ranks) == 1 and (not winners or all(p in winners for p, r in enumerate(ranks) if r == 1))


def _is_trace(row: dict[str, Any]) -> bool:
    """A traced game's figures (``trace = true``), where the row has them: the legal moves at each ply and the
    lead changes, counts that the report averages."""
    branching, changes = row.get("branching", []), row.get("lead_changes", 0)
    counts = branching if isinstance(branching, list) else [None]
    return all(_is_whole(c) and c >= 0 for c in [*counts, changes])


class ResultsDir:
    """The results of one study in one folder; opening it again resumes (see the module's docstring)."""

    def __init__(self, path: str | Path, study: Study) -> None:
        self.path = Path(path)
        self.study = study
        if self.path.exists() and not self.path.is_dir():
            raise StudyError(f"{self.path}: a file, not a folder for results; choose another --out")
        self.path.mkdir(parents=True, exist_ok=True)
        study_path = self.path / STUDY_FILE
        text = study.to_toml()
        if study_path.exists():
            # Unreadable (its permissions, a folder in its place): said as such, by an OSError naming it, not as
            # "the results of another study", which sent the user to another folder for a file they may fix.
            study_path.open("rb").close()
            try:
                before: Study | None = load_study(study_path, build_agents=False)
            except StudyError:
                before = None
            changed = None if before is None else differences(before, study)
            if changed is None or changed:
                # Name what differs: a pilot's `games` raised is the usual case. More games are another study, not
                # a resume: the games are numbered option set by option set and line-up by line-up, so a larger
                # `games` moves every game after the first line-up to another index (and its agents' seeds follow
                # the index): the games already played are not the larger study's (docs/arena.md).
                what = "cannot be read" if changed is None else "differs: " + ", ".join(changed)
                raise StudyError(
                    f"{self.path}: holds the results of another study (its {STUDY_FILE} {what}); "
                    "choose another --out folder"
                )
        elif (self.path / GAMES_FILE).is_file() and (self.path / GAMES_FILE).stat().st_size:
            # Games without the study that played them (its study.toml deleted, or another program's file): taking
            # them as this study's would keep games of another seed, or other agents' specs, as finished.
            raise StudyError(
                f"{self.path}: holds a {GAMES_FILE} but no {STUDY_FILE} naming the study that played it; "
                "choose another --out folder"
            )
        else:
            _write_whole(study_path, text)
        self.games_path = self.path / GAMES_FILE
        self._lock = _lock_folder(self.path)
        read = read_rows(self.games_path, study)
        if self.games_path.exists() and self.games_path.stat().st_size != read.complete:
            with self.games_path.open("r+b") as handle:  # cut a torn last line (only it) before appending after it
                handle.truncate(read.complete)
        if read.complete and not _ends_a_line(self.games_path):  # a whole last game without its line end: end it
            with self.games_path.open("ab") as handle:
                handle.write(b"\n")
        self.skipped = read.skipped
        self.rows: dict[int, dict[str, Any]] = {int(r["index"]): r for r in read.rows}
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
        """Sync and close the games file, and let another run use the folder."""
        if not self._handle.closed:
            self._handle.flush()
            os.fsync(self._handle.fileno())
            self._handle.close()
        if not self._lock.closed:
            self._lock.close()  # closing the file releases its lock

    def sorted_rows(self) -> Iterator[dict[str, Any]]:
        """The rows in index order."""
        for index in sorted(self.rows):
            yield self.rows[index]


def _ends_a_line(path: Path) -> bool:
    with path.open("rb") as handle:
        handle.seek(-1, os.SEEK_END)
        return handle.read(1) == b"\n"


def _lock_folder(folder: Path) -> IO[bytes]:
    """Hold ``folder/.lock`` while a run writes there: a second run into the same folder is refused at once (two
    runs would play and append the same games). Where there is no ``flock`` (Windows, some network shares) the
    folder is not guarded; the readers still count a game written twice once."""
    handle = (folder / LOCK_FILE).open("ab")
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on a Unix
        return handle
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise StudyError(f"{folder}: another run is using this folder (wait for it, or choose another --out)") from None
    except OSError:  # a file system without locks (some network shares): run unguarded, as before
        pass
    return handle


def _write_whole(path: Path, text: str) -> None:
    """Write a file so that it is either absent or complete, whatever happens meanwhile."""
    partial = path.with_name(path.name + ".partial")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, path)


def open_results(path: str | Path) -> tuple[Study, list[dict[str, Any]], list[str]]:
    """A results folder's study, its games and what reading them skipped, for reports and ratings (read only)."""
    folder = Path(path)
    if not (folder / STUDY_FILE).is_file():
        raise StudyError(f"{folder}: not a results folder (no {STUDY_FILE}); run `kumiki arena run` first")
    study = load_study(folder / STUDY_FILE, build_agents=False)  # names only: no agent is played here
    read = read_rows(folder / GAMES_FILE, study)
    rows = sorted(read.rows, key=lambda r: int(r["index"]))
    return study, rows, read.skipped


def all_forfeit(rows: list[dict[str, Any]], folder: Path) -> str | None:
    """The one line that says a results folder measures nothing, when every game in it ended by a forfeit (an agent
    that always fails, a move limit too tight): its seats' shares and ratings would measure the failure and read as
    an unfair game. Names the key to fix: ``move_limit_s``, or the agent that forfeited. None otherwise."""
    if not rows or not all(isinstance(row.get("forfeit"), dict) for row in rows):
        return None
    forfeit = rows[0]["forfeit"]
    seat, reason = forfeit.get("seat"), " ".join(str(forfeit.get("reason", "?")).split())[:160]
    seats = rows[0]["seats"]
    agent = seats[seat] if isinstance(seat, int) and 0 <= seat < len(seats) else "?"
    key = "move_limit_s" if "over the limit" in reason else f"agents.{agent}"
    return (
        f"{folder}: all {len(rows)} games ended by a forfeit (e.g. {agent} in seat {seat}: {reason}); they measure "
        f"nothing about the game or the agents: fix {key} and run the study into a new folder"
    )


def missing_statistics(*modules: str) -> list[str]:
    """Which of ``modules`` (the ratings' and the report's: the 'arena' extra) are not installed."""
    return [m for m in modules if importlib.util.find_spec(m) is None]


def require_statistics(*modules: str) -> None:
    """ImportError in one line naming the extra when a module the ratings or the report need is not installed
    (playing a study needs none of them; its figures do)."""
    missing = missing_statistics(*modules)
    if missing:
        raise ImportError(
            f"the arena's ratings and reports need the 'arena' extra ({', '.join(missing)} missing): "
            "pip install 'kumiki[arena]'"
        )


class Results:
    """A results folder, read: its study, its games, and what can be computed from them."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.study, self.rows, self.skipped = open_results(self.path)

    def __len__(self) -> int:
        return len(self.rows)

    def unfinished(self) -> str | None:
        """How many of the study's games are still to play, as a sentence, when some are (a run stopped early);
        None when every game is in or none is, or for an SPRT, which stops when its test decides and says so. The
        figures of an unfinished study mix skill and seat: a line-up not yet met, a seed block not in every seating."""
        from kumiki.arena.schedule import total_games

        planned = total_games(self.study)
        if not self.rows or self.study.format == "sprt" or len(self.rows) >= planned:  # none: "no games yet"
            return None
        return (
            f"unfinished: {len(self.rows)} of the study's {planned} games played (run it again to play the rest); "
            "until then a line-up or a seating not yet played leaves agents' skill and seats mixed in the figures"
        )

    def ratings(self, resamples: int | None = None) -> list[Any]:
        """The rating table, best first: each agent's Elo-scale rating with its 95% interval and its games
        (``resamples``: the bootstrap's, ``stats.RESAMPLES`` by default)."""
        require_statistics("scipy")
        from kumiki.arena.ratings import rate
        from kumiki.arena.stats import RESAMPLES

        resamples = RESAMPLES if resamples is None else resamples

        study = self.study
        return rate(self.rows, list(study.agents), resamples=resamples, seed=study.seed, chance=study.chance)

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
        require_statistics("scipy", "matplotlib")
        from kumiki.arena.report import write_report

        return write_report(self, Path(path) if path is not None else self.path / "report.html")

    def export_csv(self, path: str | Path | TextIO) -> Path | None:
        """Every game as one CSV row (for spreadsheets): index, block, options, seats, scores, winners, … and the
        same spread out one value a column. ``path`` may be an open text stream (the CLI's ``-``: stdout), or name a
        device or a pipe, written through (None is returned for both: no file holds the games). A file of the
        results folder itself is never written over, and the folder a new file goes in must exist."""
        from kumiki.arena.tables import write_games_csv

        if not isinstance(path, str | Path):
            write_games_csv(self.rows, path)
            return None
        target = Path(path)
        own = [self.path / name for name in (GAMES_FILE, STUDY_FILE, LOCK_FILE)]
        if any(target.exists() and p.exists() and os.path.samefile(target, p) for p in own):
            raise StudyError(f"{target}: that is the results folder's own file; export to another file")
        if target.is_dir():
            raise StudyError(f"{target}: a folder; give the CSV file's name")
        if not target.parent.is_dir():
            raise StudyError(f"{target}: no folder {target.parent} to write it in")
        if target.exists() and not target.is_file():
            # A device or a pipe (/dev/stdout, a FIFO, /dev/null): written through. The partial file renamed over
            # it replaced the device itself with a file of the games (root may write in /dev), or the pipe's reader
            # waited for ever.
            with target.open("w", newline="", encoding="utf-8") as stream:
                write_games_csv(self.rows, stream)
            return None  # as for a stream: no file to name (the CLI's line naming it would end /dev/stdout's CSV)
        try:  # a link's file gets the games; it stays a link
            real = target.resolve() if target.is_symlink() else target
        except (RuntimeError, OSError) as error:  # links in a loop: Python 3.11 says RuntimeError, "internal error"
            raise StudyError(f"{target}: a link that leads to itself (links in a loop); give a file's name") from error
        partial = real.with_name(real.name + ".partial")
        try:
            with partial.open("w", newline="", encoding="utf-8") as handle:
                write_games_csv(self.rows, handle)
            os.replace(partial, real)
        except BaseException:
            partial.unlink(missing_ok=True)  # a failed export leaves nothing behind
            raise
        return target
