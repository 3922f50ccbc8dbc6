"""An agent's search that is slow the first time a worker process runs it (imported by the test's worker processes,
so it imports nothing of the tests)."""

from __future__ import annotations

import gc
import os
import time
from pathlib import Path
from typing import Any

from kumiki.server.agents import choose_move

LONG = 120.0  # seconds the first search takes: the test would time out waiting for it
_searches = 0


def first_search_slow(*args: Any) -> str:
    """``choose_move``, after a long wait the first time in this worker; it writes ``$KUMIKI_TEST_STARTED`` when
    that search begins, so the test undoes while it runs."""
    global _searches
    _searches += 1
    if _searches == 1:
        Path(os.environ["KUMIKI_TEST_STARTED"]).write_text(str(os.getpid()))
        time.sleep(LONG)
    return choose_move(*args)


def import_then_search(started: str) -> str:
    """A search whose first step imports a module slow to set up (``slow_import``): it writes ``started`` as the
    import begins, then searches for ``LONG`` seconds."""
    Path(started).write_text(str(os.getpid()))
    import tests.server.slow_import  # noqa: F401  (imported for its setting up, which the test stops in)

    time.sleep(LONG)
    return "searched"


def imports_so_far() -> tuple[int, bool]:
    """How many times this worker began importing ``slow_import``, and whether the module it has is whole."""
    import tests.server.slow_import as module

    return int(os.environ.get("KUMIKI_TEST_IMPORTS", "0")), bool(getattr(module, "done", False))


def collector_paused_then_search(started: str) -> str:
    """A search stopped just after it paused the cycle collector, before it could restart it (the stop lands between
    ``gc.disable()`` and the ``try`` of ``mcts.collector_paused``)."""
    gc.disable()
    Path(started).write_text(str(os.getpid()))
    time.sleep(LONG)
    return "searched"


def collector_running() -> bool:
    return gc.isenabled()
