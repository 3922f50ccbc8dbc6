"""Running a study: the games not yet in its results folder, on the chosen backend, with a progress bar.

An SPRT is played in windows of game pairs and decided on the pairs in seed-block order only (a pair counts once
every pair before it is in), so it stops at the same pair, and writes the same games, on any backend and worker
count; its results folder always holds a prefix of its pairs.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from kumiki.arena.backends import Job, Session, check_backend, check_workers, default_workers, execute
from kumiki.arena.results import GAMES_FILE, STUDY_FILE, ResultsDir
from kumiki.arena.schedule import GameSpec, check_size, schedule, total_games
from kumiki.arena.sprt import pair_bin, sprt_state
from kumiki.arena.study import Sprt, Study, StudyError, option_key

Progress = Callable[[int, int], None]  # (games done, games in all): called as games finish


def default_out(study: Study) -> Path:
    """Where a study's results go unless told: ``results/<name>/``."""
    return Path("results") / study.name


def run_study(
    study: Study,
    out: str | Path | None = None,
    backend: str = "pool",
    workers: int | None = None,
    address: str | None = None,
    records: bool = False,
    progress: Progress | None = None,
) -> Path:
    """Play every game of ``study`` not yet in its results folder; returns the folder."""
    folder = Path(out) if out is not None else default_out(study)
    check_workers(workers)
    check_backend(backend)  # a backend that cannot run (no Ray) fails before the folder and its study.toml exist
    check_size(study)  # as a study too large to hold its schedule in memory
    store = ResultsDir(folder, study)
    try:
        check_played(study, store)
    except StudyError:
        store.close()
        raise
    job = Job(study.game, dict(study.agents), study.seed, study.move_limit_s, records, study.trace)
    try:
        if study.format == "sprt":
            _run_sprt(study, store, job, backend, workers, address, progress)
        else:
            pending = [spec for spec in schedule(study) if spec.index not in store.done]
            total = len(store.done) + len(pending)
            if progress:
                progress(len(store.done), total)
            for rows in execute(job, pending, backend, workers, address):
                store.extend(rows)
                if progress:
                    progress(len(store.done), total)
    finally:
        store.close()
    return folder


def check_played(study: Study, store: ResultsDir) -> None:
    """Refuse a folder whose games this study would not have played so (seed, seats, option set): its study.toml
    edited after them (a root seed changed by hand, an option's list reordered) would otherwise have the old games
    counted as the new seed's, in silence, or, the seeds being the same in every option set, a resumed run play one
    option set's games twice under their new indexes and another's never."""
    left = len(store.rows)
    for spec in schedule(study):
        if not left:
            return
        row = store.rows.get(spec.index)
        if row is None:
            continue
        left -= 1
        if row.get("seed") != spec.seed or list(row.get("seats") or []) != list(spec.seats):
            raise StudyError(
                f"{store.path / GAMES_FILE}: game {spec.index} was played with seed {row.get('seed')} and seats "
                f"{', '.join(map(str, row.get('seats') or []))}, where this study plays seed {spec.seed} and seats "
                f"{', '.join(spec.seats)}: its {STUDY_FILE} was changed after its games were played; choose another "
                "--out folder"
            )
        if option_key(row.get("options") or {}) != option_key(spec.options):
            raise StudyError(
                f"{store.path / GAMES_FILE}: game {spec.index} was played with options {option_key(row['options'])}, "
                f"where this study plays {option_key(spec.options)}: its {STUDY_FILE} was changed after its games "
                "were played; choose another --out folder"
            )


def _pairs(study: Study) -> Iterator[list[GameSpec]]:
    for _, group in itertools.groupby(schedule(study), key=lambda spec: spec.block):
        yield list(group)


def _run_sprt(
    study: Study,
    store: ResultsDir,
    job: Job,
    backend: str,
    workers: int | None,
    address: str | None,
    progress: Progress | None,
) -> None:
    test = study.sprt or Sprt()
    first = next(iter(study.agents))
    counts = [0, 0, 0, 0, 0]
    pairs = _pairs(study)
    total = total_games(study)
    window = 2 * (workers or default_workers()) if backend != "serial" else 1  # pairs in flight
    if progress:  # the start, as a run of another format reports it: the games found, before any is played
        progress(len(store.done), total)
    for pair in pairs:  # the pairs already played: a prefix
        if not all(spec.index in store.done for spec in pair):
            pending_first = pair
            break
        counts[pair_bin([store.rows[s.index] for s in pair], first)] += 1
        if sprt_state(counts, test).decision:
            return
    else:
        return
    queue = itertools.chain([pending_first], pairs)
    with Session(backend, workers, address) as session:  # one pool (or Ray) for every window, started once
        while True:
            chunk = list(itertools.islice(queue, window))
            if not chunk:
                return
            wanted = [spec for pair in chunk for spec in pair if spec.index not in store.done]
            finished: dict[int, dict[str, Any]] = {}
            try:
                for rows in execute(job, wanted, backend, workers, address, session):
                    finished.update((int(r["index"]), r) for r in rows)
            finally:  # stopped (Ctrl-C, SIGTERM, a crash) or not: the games finished so far are kept, in block order
                decided = _keep(chunk, finished, store, counts, first, test, progress, total)
            if decided:
                return
            if any(spec.index not in store.done for spec in wanted):  # no backend drops a game: never on a gap
                raise RuntimeError("the backend returned fewer games than it was given")


def _keep(
    chunk: list[list[GameSpec]],
    finished: dict[int, dict[str, Any]],
    store: ResultsDir,
    counts: list[int],
    first: str,
    test: Sprt,
    progress: Progress | None,
    total: int,
) -> bool:
    """Write the window's finished games pair by pair in block order, so the decision falls on the same pair
    whatever finished first; True once the test decides. A pair not yet complete (a run stopped mid-window) ends
    the writing, its finished games written with it: the folder keeps a prefix of the pairs, and the next run
    plays only the games missing from it."""
    for pair in chunk:
        rows = [store.rows.get(s.index) or finished.get(s.index) for s in pair]
        store.extend(row for row in rows if row is not None)
        if progress:
            progress(len(store.done), total)
        if any(row is None for row in rows):
            return False
        counts[pair_bin([row for row in rows if row is not None], first)] += 1
        if sprt_state(counts, test).decision:
            return True
    return False
