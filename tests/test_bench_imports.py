"""Every bench script imports: a bench is run by hand (``python -m bench.NAME``), so a name it imports from a module
that was split or renamed would otherwise go unnoticed until someone runs it."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import bench


@pytest.mark.parametrize("name", sorted(m.name for m in pkgutil.iter_modules(bench.__path__)))
def test_every_bench_script_imports(name: str) -> None:
    importlib.import_module(f"bench.{name}")
