"""Checks shared by the games' rules tests: a move's notation, a full snapshot of a state, an illegal move."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

import kumiki


def names(moves: Iterable[kumiki.Move]) -> list[str]:
    """Each move in notation."""
    return [str(m) for m in moves]


def snapshot(state: kumiki.State) -> tuple[object, ...]:
    """Everything the protocol shows of a state, to prove a refused move changed nothing."""
    return (
        state.to_json(),
        names(state.history),
        state.to_move,
        getattr(state, "colour_to_move", None),
        state.over,
        state.scores(),
        state.winners(),
        names(state.legal_moves()),
    )


def assert_illegal(
    state: kumiki.State,
    move: object,
    reason: str | None = None,
    exact: str | None = None,
    error: type[kumiki.IllegalMove] = kumiki.IllegalMove,
) -> str:
    """``move`` raises ``error`` (an IllegalMove, so a ValueError) whose message contains ``reason`` (or is ``exact``),
    and leaves the state exactly as it was. Returns the message."""
    before = snapshot(state)
    with pytest.raises(error) as caught:
        state.play(move)  # type: ignore[arg-type]
    assert isinstance(caught.value, kumiki.IllegalMove)
    assert isinstance(caught.value, ValueError)
    message = str(caught.value)
    if exact is not None:
        assert message == exact
    if reason is not None:
        assert reason in message, message
    assert snapshot(state) == before
    return message
