"""The Kozo speed bench runs (its figures are measured by ``python -m bench.kozo_speed``, never asserted here)."""

from __future__ import annotations

import math

from bench.kozo_speed import PIECES, run, ten_piece_tower


def test_the_bench_tower_has_ten_pieces_and_stands() -> None:
    state = ten_piece_tower()
    assert len(state.placed) == PIECES and not state.falls and state.verdict().stands


def test_the_bench_reports_every_figure() -> None:
    rows = run(0.01, iterations=5)
    assert len(rows) == 8
    assert all(value > 0 and not math.isnan(value) for _, value, _ in rows)
