"""Kumiki's benchmarks (``make bench`` runs them all: ``python -m bench``)."""

import warnings

# Starlette's test client, which the server benchmarks drive, warns that it will want another HTTP library: a note to
# the library's maintainers, not a figure, and it broke into the printed table.
warnings.filterwarnings("ignore", message=r"Using `httpx` with `starlette\.testclient` is deprecated")
