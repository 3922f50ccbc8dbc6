"""Stopping a process pool now: what is queued is cancelled and a worker still busy is stopped mid-task, so a
program that ends (Ctrl-C, SIGTERM from systemd or docker) leaves no process behind. Used by the arena's pool and
the server's computer players. A worker also ends by itself when the program that started it is gone without
stopping it (``kill -9``, a crash): see :func:`exit_with`."""

from __future__ import annotations

import contextlib
import os
import threading
import time
from concurrent.futures import Executor

WATCH_S = 0.5  # how often a worker checks that the program that started it is still there


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


def exit_with(main_pid: int) -> None:
    """A pool's ``initializer``: this worker ends within ``WATCH_S`` seconds of the program ``main_pid``.

    Nothing can stop a pool when its program is killed with ``kill -9``; its workers would finish what they were
    given and then wait for work for ever. A worker's parent is the program itself or its fork server, which ends
    with it, so the worker sees its parent change (it is handed to init) or ``main_pid`` gone, and exits."""
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(WATCH_S)
            if os.getppid() != parent or not _alive(main_pid):
                os._exit(1)

    threading.Thread(target=watch, name="kumiki-exit-with", daemon=True).start()


def _alive(pid: int) -> bool:
    if os.name == "nt":  # os.kill(pid, 0) sends Ctrl+C there (CTRL_C_EVENT is 0): the parent check must do
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # somebody else's process: it exists
        return True
    return True
