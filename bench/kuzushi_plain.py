"""Kuzushi written the plain way: a dict of cells, rules read straight off the spec, no bitboards.

It serves twice: as the baseline the benchmark compares the bitboard engine with, and as an independent oracle
that the tests replay random games against (any disagreement is a bug in one of the two).
"""

from __future__ import annotations

from dataclasses import dataclass, field

EAST_WEST_NORTH_SOUTH = ((1, 0), (-1, 0), (0, 1), (0, -1))


@dataclass
class PlainKuzushi:
    players: int = 2
    size: int = 6
    tiles: int = 19
    city_counts_as_base: bool = False
    majority: str = "most"
    cells: dict[tuple[int, int], tuple[str, int]] = field(default_factory=dict)
    supply: list[int] = field(default_factory=list)
    to_move: int | None = 1

    def __post_init__(self) -> None:
        self.cells = {(0, 0): ("city", 0)}
        self.supply = [self.tiles] * self.players

    def in_bounds(self, cell: tuple[int, int]) -> bool:
        xs = [x for x, _ in self.cells] + [cell[0]]
        ys = [y for _, y in self.cells] + [cell[1]]
        return max(xs) - min(xs) < self.size and max(ys) - min(ys) < self.size

    def playable(self) -> list[tuple[int, int]]:
        out = set()
        for x, y in self.cells:
            for dx, dy in EAST_WEST_NORTH_SOUTH:
                cell = (x + dx, y + dy)
                if cell not in self.cells and self.in_bounds(cell):
                    out.add(cell)
        return sorted(out)

    def legal_moves(self) -> list[str]:
        if self.to_move is None:
            return []
        p = self.to_move
        moves = [f"B {x},{y}" for x, y in self.playable()] if self.supply[p] else []
        flags = sorted(c for c, (kind, owner) in self.cells.items() if kind == "flag" and owner == p)
        return moves + [f"F {x},{y}" for x, y in flags]

    def counts_bases(self, kind: str) -> bool:
        return kind == "base" or (kind == "city" and self.city_counts_as_base)

    def play(self, text: str) -> None:
        assert text in self.legal_moves(), text
        p = self.to_move
        assert p is not None
        kind, _, xy = text.partition(" ")
        x, y = map(int, xy.split(","))
        if kind == "B":
            self.supply[p] -= 1
        self.cells[(x, y)] = ("base", p)
        for dx, dy in EAST_WEST_NORTH_SOUTH:
            n = (x + dx, y + dy)
            here = self.cells.get(n)
            if here is not None and here[0] != "flag":
                continue
            counts = [0] * self.players
            for ex, ey in EAST_WEST_NORTH_SOUTH:
                tile = self.cells.get((n[0] + ex, n[1] + ey))
                if tile is not None and self.counts_bases(tile[0]):
                    counts[tile[1]] += 1
            top = max(counts)
            leaders = [q for q in range(self.players) if counts[q] == top]
            if self.majority == "more_than_half" and 2 * top <= sum(counts):
                leaders = []  # the most, but not more than half (2-1-1): no majority
            if top > 0 and len(leaders) == 1:
                q = leaders[0]
                if here == ("flag", q):
                    continue
                if here is not None:
                    del self.cells[n]
                    self.supply[here[1]] += 1
                if self.supply[q] and self.in_bounds(n):
                    self.cells[n] = ("flag", q)
                    self.supply[q] -= 1
            elif here is not None:
                del self.cells[n]
                self.supply[here[1]] += 1
        if len(self.cells) == self.size * self.size or 0 in self.supply:
            self.to_move = None
        else:
            self.to_move = (p + 1) % self.players

    def to_json(self) -> dict[str, object]:
        cells = [{"x": x, "y": y, "owner": o, "kind": k} for (x, y), (k, o) in sorted(self.cells.items())]
        return {"size": self.size, "tiles_left": list(self.supply), "cells": cells}
