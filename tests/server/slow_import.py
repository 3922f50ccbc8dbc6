"""A module slow to import (a compiled module setting itself up, as HiGHS's does at a worker's first Kozo move):
imported only by the test's worker process, in ``slow_agent.import_then_search``."""

from __future__ import annotations

import os
import time

os.environ["KUMIKI_TEST_IMPORTS"] = str(int(os.environ.get("KUMIKI_TEST_IMPORTS", "0")) + 1)
time.sleep(1.0)  # a stop sent now lands inside this import
done = True
