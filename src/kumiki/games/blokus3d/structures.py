"""Structures (the rulebook's masks) as data: a height limit for every turntable cell, per number of colours.

The built-in four live in ``structures.toml``. A user adds one by putting a file of the same form somewhere and
passing ``structure="path/to/file.toml"`` (its first structure) or ``"path/to/file.toml:NAME"``, or by calling
:func:`register_structure`.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from kumiki.core import tomltext
from kumiki.core.options import shown

SIZE = 10
COLOUR_COUNTS = (2, 3, 4)


@dataclass(frozen=True)
class Structure:
    """``limits[n][x][y]``: the height limit of cell ``(x, y)`` with ``n`` colours in play (0 = outside)."""

    name: str
    description: str
    limits: dict[int, tuple[tuple[int, ...], ...]]


_REGISTERED: dict[str, Structure] = {}


def _parse_grid(rows: Any, where: str) -> tuple[tuple[int, ...], ...]:
    if not isinstance(rows, list) or len(rows) != SIZE:
        raise ValueError(f"{where}: a grid is a list of {SIZE} rows (y = 9 first)")
    limits = [[0] * SIZE for _ in range(SIZE)]
    for r, row in enumerate(rows):
        if not isinstance(row, str) or len(row) != SIZE or not all(ch in "0123456789" for ch in row):
            raise ValueError(f"{where}: row {r + 1} must be {SIZE} digits, not {row!r}")
        y = SIZE - 1 - r
        for x, ch in enumerate(row):
            limits[x][y] = int(ch)
    if not any(any(col) for col in limits):
        raise ValueError(f"{where}: the mask is empty")
    return tuple(tuple(col) for col in limits)


def _from_table(name: str, table: Any, where: str) -> Structure:
    if not isinstance(table, dict):
        raise ValueError(f"{where}: structure {name!r} must be a table")
    known = {"heights", "description", *(str(n) for n in COLOUR_COUNTS)}
    unknown = [str(key) for key in table if str(key) not in known]
    if unknown:  # a typo ("hieghts", a grid for "5" colours) was ignored, and the structure used another grid
        allowed = ", ".join(f'"{k}"' for k in ("heights", *(str(n) for n in COLOUR_COUNTS), "description"))
        raise ValueError(f"{where}: structure {name!r} has an unknown key {unknown[0]!r} (keys: {allowed})")
    grids: dict[int, tuple[tuple[int, ...], ...]] = {}
    default = table.get("heights")
    for n in COLOUR_COUNTS:
        rows = table.get(str(n), default)
        if rows is None:
            raise ValueError(f'{where}: structure {name!r} has no grid for {n} colours (key "{n}" or "heights")')
        grids[n] = _parse_grid(rows, f"{where}: structure {name!r}, {n} colours")
    return Structure(name, str(table.get("description", "")), grids)


def load_file(text: str, where: str) -> dict[str, Structure]:
    """Every structure in a TOML text, by name, in file order."""
    try:
        data = tomltext.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"{where}: not valid TOML: {error}") from None
    if not data:
        raise ValueError(f"{where}: no structure in the file")
    return {name: _from_table(name, table, where) for name, table in data.items()}


def builtin() -> dict[str, Structure]:
    text = resources.files("kumiki.games.blokus3d").joinpath("structures.toml").read_text(encoding="utf-8")
    return load_file(text, "structures.toml")


_BUILTIN = builtin()
BUILTIN_STRUCTURES = tuple(_BUILTIN)  # the rulebook's structures, by name


def register_structure(name: str, limits: Any, description: str = "") -> Structure:
    """Add a structure by name: ``limits`` is one grid of 10 digit rows (y = 9 first) or a dict {2: grid, 3: …}."""
    if not isinstance(name, str) or not name or ".toml" in name:  # first: a list name is not even hashable
        raise ValueError(f"a structure name is a short text without '.toml', not {shown(name)}")
    if name in _BUILTIN:
        raise ValueError(f"structure {name!r} is built in; give yours another name")
    table = dict(limits) if isinstance(limits, dict) else {"heights": limits}
    table = {str(k): v for k, v in table.items()}
    table["description"] = description
    structure = _from_table(name, table, "register_structure")  # _from_table names the structure itself
    _REGISTERED[name] = structure
    return structure


def names() -> list[str]:
    """The structures available by name: the built-in ones, then the registered ones."""
    return [*_BUILTIN, *(n for n in _REGISTERED if n not in _BUILTIN)]


def find(name: str) -> Structure:
    """A structure by name, or from a file ``path.toml`` / ``path.toml:NAME``; ValueError says what exists."""
    if name in _REGISTERED:
        return _REGISTERED[name]
    if name in _BUILTIN:
        return _BUILTIN[name]
    path_text, _, wanted = name.rpartition(".toml")
    if _ and (not wanted or wanted.startswith(":")):
        path = Path(path_text + ".toml")
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, ValueError) as error:  # ValueError: a NUL in the name
            reason = error.strerror if isinstance(error, OSError) else str(error)
            raise ValueError(f"cannot read structure file {shown(str(path))}: {reason}") from None
        found = load_file(text, str(path))
        key = wanted[1:] if wanted else next(iter(found))
        if key not in found:
            raise ValueError(f"{path}: no structure {key!r} (there are: {', '.join(found)})")
        return found[key]
    known = names()
    listed = ", ".join(known[:8]) + (f" and {len(known) - 8} more" if len(known) > 8 else "")
    raise ValueError(f"unknown structure {shown(name)} (structures: {listed}; or a path to a .toml file)")
