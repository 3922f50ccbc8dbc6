"""A search stopped (an undo, a resignation) while its worker imports a module, or while the search has the cycle
collector paused: the worker must come out of it whole for the searches after.

A worker's first move of a game imports that game's modules (Kozo's bring HiGHS's and numpy's compiled modules).
SearchStopped raised there left a compiled module half set up, and every later import of it in that worker failed
("ImportError: generic_type: type "ObjSense" is already registered!"): after an undo storm at a server's start, every
Kozo move given to that worker ended in agent_failed until the server restarted (274 of 600 moves of ten Kozo games).
The stop now waits for the import to be done, then stops the search.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from kumiki.core.processes import stop_pool
from kumiki.server.agents import SearchStopped, make_pool

from .slow_agent import LONG, collector_paused_then_search, collector_running, import_then_search, imports_so_far


def _wait_for(path: Path, seconds: float = 60) -> None:
    """Until the worker's job has written ``path`` (it has begun); fails after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not path.exists():
        assert time.monotonic() < deadline, f"{path.name} never appeared"
        time.sleep(0.01)


def test_a_stop_during_an_import_lets_the_import_finish_then_stops(tmp_path: Path) -> None:
    started = tmp_path / "started"
    pool = make_pool(1)
    try:
        job, future = pool.submit_job(import_then_search, str(started))
        _wait_for(started)  # the worker is starting, then importing
        time.sleep(0.3)  # inside the module's second of setting up
        pool.stop_job(job)
        with pytest.raises(SearchStopped):
            future.result(timeout=LONG / 4)  # stopped in its search, once the import was done
        # the same worker: the module came in whole, once (before, it was imported again, and a compiled module
        # could not be)
        _job, again = pool.submit_job(imports_so_far)
        assert again.result(timeout=30) == (1, True)
    finally:
        stop_pool(pool)


def test_a_search_stopped_with_the_collector_paused_leaves_the_next_one_collecting(tmp_path: Path) -> None:
    """Before, the worker's later searches all ran with the cycle collector paused (their trees' cycles kept)."""
    started = tmp_path / "started"
    pool = make_pool(1)
    try:
        job, future = pool.submit_job(collector_paused_then_search, str(started))
        _wait_for(started)
        pool.stop_job(job)
        with pytest.raises(SearchStopped):
            future.result(timeout=LONG / 4)
        _job, again = pool.submit_job(collector_running)
        assert again.result(timeout=30) is True
    finally:
        stop_pool(pool)
