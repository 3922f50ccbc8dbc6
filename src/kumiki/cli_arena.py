"""``kumiki arena``: run a study, and read its results (report, ratings, CSV). The arena itself is
``kumiki.arena``; this module only parses the command line, shows progress and prints."""

from __future__ import annotations

import io
import json
import math
import os
import shlex
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn, TextIO

import typer
from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, Task, TextColumn
from rich.table import Table
from rich.text import Text

from kumiki.cli_signals import by_sigterm, sigterm_stops

if TYPE_CHECKING:
    from kumiki.arena.results import Results
    from kumiki.arena.study import Study

arena_app = typer.Typer(
    name="arena",
    help="Tournaments, ratings and balance studies (see: kumiki docs arena).",
    no_args_is_help=True,
)


def _write_out(text: str) -> None:
    """``text`` on stdout, a folder's or a file's name in it included as its bytes: a name that is not UTF-8 (a
    folder named in Latin-1) holds surrogates, which a strict stdout (a UTF-8 locale's) refused, an "internal
    error" after the games were played, the report or the CSV written."""
    try:
        sys.stdout.write(text)
    except UnicodeEncodeError:
        sys.stdout.flush()
        sys.stdout.buffer.write(text.encode(sys.stdout.encoding or "utf-8", "surrogateescape"))
        sys.stdout.buffer.flush()


def _fail(message: str) -> NoReturn:
    sys.stderr.write(" ".join(message.split()) + "\n")
    raise typer.Exit(2)


def _end_bar_line(quiet: bool, console: Console) -> None:
    """Off a terminal (a log file, a CI) the progress bar's last line is still open when the run stops: an error
    written then would join it."""
    if not quiet and not console.is_terminal:
        sys.stderr.write("\n")


@arena_app.command("run")
def run_command(
    study_file: Annotated[
        str, typer.Argument(metavar="STUDY.toml", help="The study file (as above; every key: kumiki docs arena).")
    ],
    out: Annotated[str | None, typer.Option("--out", help="Results folder (default results/<name>/).")] = None,
    backend: Annotated[str, typer.Option("--backend", help="serial, pool (default) or ray.")] = "pool",
    workers: Annotated[int | None, typer.Option("--workers", help="Worker processes (default: one per core).")] = None,
    address: Annotated[
        str | None, typer.Option("--address", help="Ray: auto, or ray://head:10001 (default: a local Ray).")
    ] = None,
    records: Annotated[bool, typer.Option("--records", help="Also write every game's .kmk record.")] = False,
    quiet: Annotated[
        bool, typer.Option("--quiet", help="No progress bar; print only the results folder (notes go to stderr).")
    ] = False,
) -> None:
    """Play a study's games (again: only those not yet in its results folder).

    A study is a TOML file such as this one. Any value under \\[options] may be a
    list: every combination is played. Agents are written as kumiki play --seat
    takes them.

        name = "first-study"    # its results folder: results/first-study/
        game = "kuzushi"
        format = "round-robin"  # gauntlet, self-play, ladder, sprt
        games = 10              # seed blocks a pairing and option set
        seed = 2026
        \\[options]
        size = [4, 6]
        \\[agents]
        greedy = "greedy"
        mcts = "mcts:iterations=200"
    """
    from kumiki import arena
    from kumiki.arena.backends import BACKENDS, MAX_WORKERS, BackendError, check_backend
    from kumiki.arena.results import ResultsDir
    from kumiki.arena.schedule import check_size

    if backend not in BACKENDS:
        _fail(f"--backend: one of {', '.join(BACKENDS)}, not {backend!r}")
    if workers is not None and not 1 <= workers <= MAX_WORKERS:
        _fail(f"--workers: a number from 1 to {MAX_WORKERS}, not {workers}")
    if address is not None and backend != "ray":
        _fail("--address is for --backend ray")
    try:
        study = arena.load_study(study_file)
    except arena.StudyError as error:
        _fail(str(error))
    folder = Path(out) if out else arena.default_out(study)
    try:  # a backend that cannot run (no Ray), a study too large to schedule: before anything is written
        check_backend(backend)
        check_size(study)
    except (BackendError, arena.StudyError) as error:
        _fail(str(error))
    try:  # the folder's problems (another study's, in use by another run, a file) before any progress bar
        ResultsDir(folder, study).close()
    except arena.StudyError as error:
        _fail(str(error))
    except OSError as error:  # the file at fault named: the folder may be fine, its games.jsonl unreadable
        _fail(f"{error.filename or folder}: {error.strerror or error}")
    console = Console(stderr=True)
    # The notes go to stderr with --quiet too (docs/arena.md): stdout stays the results folder alone, for scripts.
    if study.sprt is not None and study.format != "sprt":
        sys.stderr.write(f'note: the [sprt] table is used by format "sprt" only; this {study.format} ignores it\n')
    if study.format == "sprt" and study.games != arena.Study.games:
        # An SPRT plays game pairs until its test decides; its one limit is [sprt] max_games.
        sys.stderr.write(
            f"note: an SPRT does not use games ({study.games}): it stops when the test decides, at most "
            f"at [sprt] max_games ({(study.sprt or arena.Sprt()).max_games})\n"
        )
    if not study.reproducible:  # one line, as every note: the console would wrap it at its width
        sys.stderr.write("note: a time budget or move limit makes this study's results depend on the machine\n")
    with sigterm_stops():  # systemd, docker stop, a CI: stop as Ctrl-C does
        try:
            if quiet:
                results = arena.run(study, folder, backend, workers, address, records)
            else:
                pace = RunPace()
                bar = progress_bar(study.name, console, pace)
                task = bar.add_task("games", total=None)
                board = Leaderboard(folder, study)
                with Live(Group(bar, board), console=console, refresh_per_second=4, transient=False):

                    def show(done: int, total: int) -> None:
                        pace.update(done, total)
                        bar.update(task, completed=done, total=total)
                        board.refresh()

                    results = arena.run(study, folder, backend, workers, address, records, show)
                    # an SPRT that decided early ends there: its bar is full, not "18/400" (max_games) for good
                    show(pace.done, pace.done)
                    # the table left on the screen counts every game, not those of its last refresh
                    board.refresh(force=True)
                if not console.is_terminal:  # Live ends its last line only on a terminal: the summary would join it
                    console.line()
        except (arena.StudyError, BackendError) as error:
            _end_bar_line(quiet, console)
            _fail(str(error))
        except OSError as error:
            _end_bar_line(quiet, console)
            _fail(f"{error.filename or folder}: {error.strerror or error}")
        except KeyboardInterrupt as stop:
            if not by_sigterm(stop):
                sys.stderr.write(f"\nstopped; the games finished are in {folder}, a re-run plays the rest\n")
                raise typer.Exit(130) from None
            lead = "" if quiet or console.is_terminal else "\n"  # off a terminal the bar's last line is still open
            sys.stderr.write(f"{lead}stopped (SIGTERM); the games finished are in {folder}, a re-run plays the rest\n")
            raise typer.Exit(143) from None
    _notes(results)
    _records_note(results, records)
    _refuse_all_forfeit(results)
    if quiet:
        _write_out(f"{results.path}\n")
        return
    _write_out(f"{len(results)} games in {results.path}\n")
    state = results.sprt()
    if state is not None:
        decision = state.decision or "undecided (max_games reached)"
        sys.stdout.write(f"SPRT: LLR {state.llr:.2f} in [{state.lower:.2f}, {state.upper:.2f}] after {state.pairs}")
        sys.stdout.write(f" pairs: {decision}\n")
    # quoted as a shell takes it: a study named "first try" (its folder results/first try) is one argument
    _write_out(f"next: kumiki arena report {shlex.quote(str(results.path))}\n")


class RunPace:
    """The games per second of this run and the time left at that pace: the games this run has finished (not those
    the folder held when it began) over the seconds since it began. Rich's own speed (``Task.speed``, and its time
    left) counts from the first report that added games, not from the start: with the pool, whose workers each
    finish their first batch of games within milliseconds of one another, 64 games in 6.4 s read as 800 games a
    second, and no time left."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.began: float | None = None
        self.resumed = 0
        self.done = 0
        self.total = 0

    def update(self, done: int, total: int) -> None:
        """The games done and in all, as the run reports them (its first report, before any game: the start)."""
        if self.began is None:
            self.began, self.resumed = self.clock(), done
        self.done, self.total = done, total

    def per_second(self) -> float | None:
        """The games this run finished a second, so far; None before its first game."""
        if self.began is None:
            return None
        played, elapsed = self.done - self.resumed, self.clock() - self.began
        return played / elapsed if played > 0 and elapsed > 0 else None

    def left_s(self) -> float | None:
        """Seconds until the last game at this pace (0 once every game is done); None while there is no pace."""
        if self.began is not None and self.done >= self.total:
            return 0.0
        rate = self.per_second()
        return (self.total - self.done) / rate if rate else None


class _Shown(ProgressColumn):
    """A progress column showing ``text()`` at every refresh (so a pace falls while no game finishes)."""

    def __init__(self, text: Callable[[], str], style: str) -> None:
        super().__init__()
        self.text, self.style = text, style

    def render(self, task: Task) -> Text:
        return Text(self.text(), style=self.style)


def progress_bar(name: str, console: Console, pace: RunPace) -> Progress:
    """The run's progress bar: the study, the games done of all, the games per second and the time left."""

    def rate() -> str:
        speed = pace.per_second()
        return f"{speed:.1f}/s" if speed else ""

    def left() -> str:
        seconds = pace.left_s()
        if seconds is None:
            return "-:--:--"
        minutes, second = divmod(math.ceil(seconds), 60)
        return f"{minutes // 60}:{minutes % 60:02d}:{second:02d}"

    return Progress(
        TextColumn(f"[bold]{escape(name)}[/]"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        _Shown(rate, "progress.data.speed"),
        _Shown(left, "progress.remaining"),
        console=console,
        get_time=pace.clock,
    )


class Leaderboard:
    """The live table under the progress bar: each agent's rating so far (no intervals: those come with the report),
    refreshed from the results file every few seconds while games finish."""

    EVERY_S = 3.0

    def __init__(self, folder: Path, study: Study) -> None:
        self.folder = folder
        self.study = study
        self.shown: Table | None = None
        self.when = 0.0

    def refresh(self, force: bool = False) -> None:
        """Read the games finished so far and rebuild the table (at most every few seconds, unless ``force``)."""
        now = time.monotonic()
        if (now - self.when < self.EVERY_S and not force) or len(self.study.agents) < 2:
            return
        self.when = now
        from kumiki.arena.results import GAMES_FILE, missing_statistics, read_rows

        if missing_statistics("scipy"):  # no 'arena' extra: the run goes on without a table
            return
        from kumiki.arena import stats
        from kumiki.arena.ratings import Events

        rows = read_rows(self.folder / GAMES_FILE, self.study).rows
        agents = list(self.study.agents)
        if stats.only_self_play(rows, agents):  # no agent met another: no ratings (not a row of zeros)
            return
        events = Events(rows, agents)
        if not events.n_events:
            return
        skills = events.fit().skills
        table = Table(title="so far", title_justify="left", box=None)
        for column in ("agent", "rating", "games"):
            table.add_column(column, justify="left" if column == "agent" else "right")
        for i in sorted(range(len(agents)), key=lambda i: -skills[i]):
            if events.games[agents[i]]:  # an agent yet to play has the prior's 0, which would read as a rating
                table.add_row(Text(agents[i]), f"{round(skills[i]):+d}", str(events.games[agents[i]]))  # no markup
        self.shown = table

    def __rich__(self) -> RenderableType:
        return self.shown if self.shown is not None else Group()  # nothing, not an empty line


def _results(folder: str) -> Results:
    from kumiki import arena

    try:
        results = arena.Results(folder)
    except arena.StudyError as error:
        _fail(str(error))
    except OSError as error:  # a name too long, a folder or its games.jsonl not readable: one line, as for `run`
        _fail(f"{error.filename or folder}: {error.strerror or error}")
    _notes(results)
    return results


def _records_note(results: Results, records: bool) -> None:
    """Say on stderr which games have no record where records were asked for (``--records``, or a folder holding
    some): a game already in the folder is not played again, so a run given ``--records`` after one without wrote
    none for it, and said nothing."""
    from kumiki.arena.results import RECORDS

    folder = results.path / RECORDS
    if not records and not folder.is_dir():
        return
    missing = [row["index"] for row in results.rows if not (folder / f"{row['index']:06d}.kmk").is_file()]
    if missing:
        sys.stderr.write(
            f"note: {len(missing)} of {len(results.rows)} games have no record in {folder} (played by a run without "
            "--records, and not played again); run the study into a new --out folder with --records to have them\n"
        )


def _refuse_no_games(results: Results, folder: str) -> None:
    """Exit 2 in one line when the folder holds no game yet (a study begun, or copied without its games): there
    is nothing to rate or report, which is not the same as a co-operative study's "no sides to rate"."""
    if not len(results):
        _fail(f"{folder}: no games yet; run the study first")


def _refuse_all_forfeit(results: Results) -> None:
    """Exit 2 in one line when every game of the folder ended by a forfeit: no figure of it would mean anything."""
    from kumiki.arena.results import all_forfeit

    problem = all_forfeit(results.rows, results.path)
    if problem is not None:
        _fail(problem)


def _notes(results: Results) -> None:
    """Say on stderr what reading the games skipped (a damaged line, a game written twice), so no figure hides it."""
    for line in results.skipped:
        sys.stderr.write(f"note: {line}\n")
    unfinished = results.unfinished()
    if unfinished is not None:
        sys.stderr.write(f"note: {unfinished}\n")
    forfeits = [row["forfeit"] for row in results.rows if isinstance(row.get("forfeit"), dict)]
    if forfeits and len(forfeits) < len(results.rows):  # all of them: the commands refuse it in one line instead
        first = forfeits[0]
        sys.stderr.write(
            f"note: {len(forfeits)} of {len(results.rows)} games ended by a forfeit (e.g. seat {first.get('seat')}: "
            f"{str(first.get('reason', '?'))[:160]})\n"
        )


@arena_app.command("ratings")
def ratings_command(
    folder: Annotated[str, typer.Argument(metavar="DIR", help="A study's results folder.")],
    as_json: Annotated[bool, typer.Option("--json", help="One JSON list: agent, rating, low, high, games.")] = False,
) -> None:
    """The agents' ratings (Elo scale, the agents' mean is 0) with 95% bootstrap intervals."""
    results = _results(folder)
    _refuse_no_games(results, folder)
    _refuse_all_forfeit(results)
    from kumiki.arena.stats import is_coop, only_self_play, unbounded

    # Why there is nothing to rate is known from the games alone: said before the bootstrap (which needs scipy, and
    # whose table would be the prior's zeros), so it reads the same with or without the arena extra.
    if all(is_coop(r) for r in results.rows):  # co-operative games: nobody played against anybody
        _no_ratings("no games between sides to rate (a co-operative study reports success rates instead)", as_json)
        return
    if len(results.study.agents) < 2:  # self-play of one agent: nobody to be rated against
        _no_ratings("one agent: no ratings (the report gives the seats' shares)", as_json)
        return
    if only_self_play(results.rows, list(results.study.agents)):
        _no_ratings("no game between two different agents: no ratings (each played only itself)", as_json)
        return
    try:
        table = [r for r in results.ratings() if r.games > 0]
    except ImportError as error:
        _fail(str(error))
    if not table:  # no agent played a game between sides
        _no_ratings("no games between sides to rate (a co-operative study reports success rates instead)", as_json)
        return
    if as_json:
        sys.stdout.write(json.dumps([r.to_json() for r in table]) + "\n")
        return
    width = max([len(r.agent) for r in table] + [5])
    sys.stdout.write(f"{'agent':<{width}}  rating   95% interval      games\n")
    # The figures as --json, summary.json and the report give them (one decimal), rounded from there: rounding the
    # unrounded ones could read one point off the report's (432.503 is 432.5 there, whose whole points are 432).
    rows = [r.to_json() for r in table]
    for r in rows:
        # round() before formatting: a bound of -0.4 reads 0, not "-0"
        interval = f"[{round(r['low']):6d}, {round(r['high']):6d}]" if r["low"] is not None else "no interval     "
        sys.stdout.write(f"{r['agent']:<{width}}  {round(r['rating']):6d}   {interval}  {r['games']:6d}\n")
    units = "game seeds" if results.study.chance else "seed blocks"
    from kumiki.arena import verdict
    from kumiki.arena.stats import win_matrix

    # The report's sentence, on stderr with the notes: stdout stays the table a script may read.
    matrix = win_matrix(results.rows, list(results.study.agents), results.study.chance)
    reading = verdict.ratings(rows, matrix)  # from the table's figures, so they round as the table's (and report's) do
    if reading:
        sys.stderr.write(f"reading: {reading}\n")
    if any(not math.isfinite(r.low) for r in table):
        sys.stderr.write(f"note: no interval: every resample of the {units} gave the same rating (see the report)\n")
    else:
        from kumiki.arena.stats import FEW_BLOCKS, bootstrap_units

        count = bootstrap_units(results.rows, results.study.chance)
        if count < FEW_BLOCKS:  # as the report says it (an SPRT's pairs are blocks of two games)
            sys.stderr.write(
                f"note: the intervals come from a bootstrap over {count} {units}: so few give few distinct resamples, "
                "and the intervals mean little (see the report)\n"
            )
    for agent, how in unbounded(results.rows, list(results.study.agents)).items():
        side = "above" if how == "won" else "below"
        sys.stderr.write(
            f"note: {agent} {how} every game it played: the games put no limit on its rating, "
            f"the model's prior sets it (read it as far {side})\n"
        )


def _no_ratings(why: str, as_json: bool) -> None:
    """Say why there is nothing to rate: the line itself, or with ``--json`` the contract's empty list on stdout
    and the line on stderr, where a script's user still reads it."""
    if as_json:
        sys.stdout.write("[]\n")
        sys.stderr.write(f"note: {why}\n")
    else:
        sys.stdout.write(f"{why}\n")


@arena_app.command("report")
def report_command(
    folder: Annotated[str, typer.Argument(metavar="DIR", help="A study's results folder.")],
) -> None:
    """Write DIR/report.html (self-contained, opens offline), DIR/summary.json and CSV tables."""
    results = _results(folder)
    _refuse_no_games(results, folder)
    _refuse_all_forfeit(results)
    try:
        path = results.report()
    except ImportError as error:
        _fail(str(error))
    except OSError as error:  # a read-only folder (copied from a colleague), a full disk, a folder in a file's place
        _fail(f"{error.filename or folder}: cannot write the report ({error.strerror or error})")
    _write_out(f"{path}\n")


def csv_stdout(stream: TextIO) -> TextIO:
    """``stream`` ready for CSV rows, which end in their own \\r\\n: a console that turns \\n into \\r\\n (Windows)
    would write \\r\\r\\n, a blank row between rows in a spreadsheet; its newline translation is turned off."""
    if isinstance(stream, io.TextIOWrapper):
        stream.reconfigure(newline="")
    return stream


def _is_stdout(name: str) -> bool:
    """Whether ``name`` is this process's stdout under another name (``/dev/stdout``, ``/dev/fd/1``): written as
    ``-`` is. Where stdout goes to a file (``--csv /dev/stdout >> games.log``), the link led to that file, whose
    games replaced the file (the log's earlier lines lost, the shell writing on in a file no longer there)."""
    try:
        return os.path.samestat(os.stat(name), os.fstat(sys.stdout.fileno()))
    except (OSError, ValueError, io.UnsupportedOperation):  # no such file, or a stdout with no descriptor (a test's)
        return False


@arena_app.command("export")
def export_command(
    folder: Annotated[str, typer.Argument(metavar="DIR", help="A study's results folder.")],
    csv_file: Annotated[
        str, typer.Option("--csv", metavar="FILE", help="Write every game as a CSV row to FILE (- for stdout).")
    ],
) -> None:
    """Export a study's games for spreadsheets."""
    from kumiki import arena

    results = _results(folder)
    if csv_file == "-" or _is_stdout(csv_file):
        results.export_csv(csv_stdout(sys.stdout))
        return
    try:
        path = results.export_csv(csv_file)
    except arena.StudyError as error:
        _fail(str(error))
    except OSError as error:
        _fail(f"{csv_file}: {error.strerror or error}")
    if path is not None:  # not for a device or a pipe (/dev/stdout): the line would follow the CSV there
        _write_out(f"{path}\n")
