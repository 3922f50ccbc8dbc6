"""The arena: tournaments, ratings and balance studies, serial, on a process pool or on Ray.

>>> from kumiki import arena
>>> study = arena.load_study("studies/kuzushi-first-player.toml")   # doctest: +SKIP
>>> results = arena.run(study, out="results/x", backend="pool", workers=2)   # doctest: +SKIP
>>> results.ratings()   # doctest: +SKIP

See docs/arena.md for the study file and what the reports show.
"""

from __future__ import annotations

from pathlib import Path

from kumiki.arena.results import Results
from kumiki.arena.runner import Progress, default_out, run_study
from kumiki.arena.study import Sprt, Study, StudyError, load_study


def run(
    study: Study,
    out: str | Path | None = None,
    backend: str = "pool",
    workers: int | None = None,
    address: str | None = None,
    records: bool = False,
    progress: Progress | None = None,
) -> Results:
    """Play the study's games not yet in ``out`` (default ``results/<name>/``) and return its results.

    ``backend`` is ``"serial"``, ``"pool"`` (a local process pool, ``workers`` processes, default one per core) or
    ``"ray"`` (``address`` of a cluster, or a local Ray); ``records`` also writes every game's ``.kmk``;
    ``progress(done, total)`` is called as games finish. Running it again on the same folder resumes.
    """
    folder = run_study(study, out, backend, workers, address, records, progress)
    return Results(folder)


__all__ = ["Results", "Sprt", "Study", "StudyError", "default_out", "load_study", "run"]
