"""SIGTERM as the commands that run for long take it (`kumiki play`, `kumiki arena run`): raised where the work is,
as a KeyboardInterrupt, so that it stops as Ctrl-C stops it (records kept, workers stopped, the terminal put back),
then told apart from Ctrl-C for the exit status (143 against 130)."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager


class Terminated(KeyboardInterrupt):
    """SIGTERM (systemd, docker stop, a CI, `kill`), raised where the work is."""


_seen: list[bool] = []  # set when SIGTERM arrives: Ray turns the Terminated raised in its waits into a plain
# KeyboardInterrupt, so the exception alone cannot tell SIGTERM (status 143) from Ctrl-C (130)


def _terminated(_signum: int, _frame: object) -> None:
    first = not _seen
    _seen.append(True)
    if first:  # a second SIGTERM (systemd's, then docker's) must not break off the stop the first one began:
        raise Terminated  # the record's last save, the workers' shutdown


def by_sigterm(stop: KeyboardInterrupt | None) -> bool:
    """Whether ``stop`` (what ended the work inside ``sigterm_stops``) came from SIGTERM."""
    return isinstance(stop, Terminated) or (stop is not None and bool(_seen))


@contextmanager
def sigterm_stops() -> Iterator[None]:
    """SIGTERM raises ``Terminated`` in the block (in the main thread: only there can Python set a handler); the
    handler found is put back after it."""
    _seen.clear()
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
