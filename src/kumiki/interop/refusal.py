"""Why an action the mask refuses is refused: the adapters' message for an illegal action.

The mask holds the encoded ``legal_moves()``. In TowerBrix that list is the game's placement space
(docs/rules/towerbrix.md, "legal_moves()"): some moves ``play()`` accepts are not in it (moving a brick already in
the tower in one edit, the second brick of a colour while the first is free), so "not a legal move" would be
false for them; the message says which case it is. Worked out only once an action has been refused.
"""

from __future__ import annotations

from kumiki.core.errors import IllegalMove
from kumiki.core.game import State


def refusal(state: State, action: int, player: int | None = None) -> str:
    """The reason ``action`` (for ``player``, default ``to_move``) is refused by the mask."""
    try:
        move = state.game.encoding.decode(action, state)
    except ValueError as error:  # no move at all: out of range, a corner beyond the numbering
        return f"action {action} ({error}) is not a legal move now"
    if state.over:
        return f"{move}: the game is over"
    trial = state.copy()
    try:
        trial.play(move, player=player)
    except IllegalMove as error:  # the game's own reason, as play() gives it
        return f"{move} is not a legal move now ({error})"
    return (
        f"{move} is legal, but not among legal_moves() (the game's action space: for TowerBrix its placement "
        "space, kumiki docs rules/towerbrix), so its action is masked"
    )
