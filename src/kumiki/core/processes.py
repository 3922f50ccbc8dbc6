"""Stopping a process pool now: what is queued is cancelled and a worker still busy is stopped mid-task, so a
program that ends (Ctrl-C, SIGTERM from systemd or docker) leaves no process behind. Used by the arena's pool and
the server's computer players."""

from __future__ import annotations

import contextlib
from concurrent.futures import Executor


def stop_pool(pool: Executor, wait_s: float = 5.0) -> None:
    """Cancel ``pool``'s queued work and terminate its worker processes (a thread pool has none: it is only shut
    down), waiting up to ``wait_s`` seconds for each to end."""
    processes = list((getattr(pool, "_processes", None) or {}).values())  # Python 3.14 adds kill_workers()
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(OSError, ValueError):  # already gone
            process.terminate()
    for process in processes:
        with contextlib.suppress(OSError, ValueError, AssertionError):
            process.join(timeout=wait_s)
