"""An agent's search that is slow the first time a worker process runs it (imported by the test's worker processes,
so it imports nothing of the tests)."""

from __future__ import annotations

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
