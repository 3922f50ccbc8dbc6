"""The Gymnasium spaces of a game's encoding, shared by the PettingZoo and Gymnasium adapters."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from kumiki.core.game import Game
from kumiki.interop import check_action_count


def observation_space(game: Game) -> spaces.Dict:
    """``{"observation": Box of the encoding's shape and dtype, "action_mask": Box of int8, one per action}``.
    ValueError for a game of more than ``MAX_ACTIONS`` actions (every adapter asks for this space first)."""
    check_action_count(game)
    encoding = game.encoding
    observation = spaces.Box(
        low=encoding.observation_low,
        high=1,
        shape=encoding.observation_shape,
        dtype=encoding.observation_dtype,  # type: ignore[arg-type,unused-ignore]
    )
    mask = spaces.Box(low=0, high=1, shape=(encoding.num_actions,), dtype=np.int8)
    return spaces.Dict({"observation": observation, "action_mask": mask})


def action_space(game: Game) -> spaces.Discrete:
    """One discrete action per action of the game's encoding. ValueError for a game with none: options under which
    no piece ever fits (a Blokus 3D structure of single cells, a Kozo pool too big for the ring) make a game that is
    over before it starts, and ``Discrete(0)`` failed in Gymnasium with "n (counts) have to be positive"."""
    if game.num_actions < 1:
        raise ValueError(f"{game!r} has no action at all (no piece fits anywhere): there is no move to learn")
    return spaces.Discrete(game.num_actions)
