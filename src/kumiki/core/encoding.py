"""A game's fixed action encoding and observation tensor: what learning libraries need from it.

OpenSpiel, PettingZoo and Gymnasium number a game's actions ``0 … num_actions-1`` and read a position as a tensor.
Each game defines both beside its rules (``games/<name>/encoding.py``), so every adapter shares one numbering
and no adapter holds game logic. Encodings are pinned by tests: an action means the same move in every version.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from kumiki.core.game import Move, State

Tensor = npt.NDArray[Any]  # float32, or int8 where every feature is 0/1 (``observation_dtype``)
Mask = npt.NDArray[np.int8]


class Encoding(ABC):
    """The bijection between a game's moves and ``0 … num_actions-1`` (for one option set), and its tensors.

    ``decode`` takes the state when the game's action names a move relative to the position (Kozo: a piece is
    dropped at a spot and comes to rest where the tower stops it); ``needs_state`` says so.
    """

    num_actions: int
    observation_shape: tuple[int, ...]
    observation_low: float = 0.0  # every observation lies within [observation_low, 1]
    observation_dtype: type[np.generic] = np.float32
    needs_state: bool = False

    @abstractmethod
    def encode(self, move: Move) -> int:
        """The action of ``move``; ValueError if the move has none (off the encoded area)."""

    @abstractmethod
    def decode(self, action: int, state: State | None = None) -> Move:
        """The move of ``action``; ValueError for an action out of range (or a missing state, see needs_state)."""

    def legal_actions(self, state: State, player: int | None = None) -> list[int]:
        """The actions of the legal moves of seat ``player`` (default: ``to_move``), ascending (moves without an
        action are left out)."""
        out = []
        for move in state.legal_moves() if player is None else state.legal_moves(player=player):
            try:
                out.append(self.encode(move))
            except ValueError:
                continue
        out.sort()
        return out

    @abstractmethod
    def observe(self, state: State, player: int) -> Tensor:
        """What ``player`` sees of ``state`` (exactly what ``state.view(player)`` shows, never more), as an array of
        ``observation_shape`` and ``observation_dtype``; seats are numbered from ``player`` on (the observer is 0)."""

    # A game with hidden information splits ``observe`` in two: what every seat sees and what one seat sees beyond
    # it, each a flat array laid out by field (name -> slice bounds); None where a game does not split (OpenSpiel's
    # public and private observers need it).
    public_layout: dict[str, tuple[int, int]] | None = None
    private_layout: dict[str, tuple[int, int]] | None = None

    def observe_public(self, state: State) -> Tensor:
        """What every seat sees of ``state`` (``state.common_view()``, never more), flat, as ``public_layout``; the
        same array whoever asks (seats numbered from seat 0). NotImplementedError where the game does not split."""
        raise NotImplementedError(f"{type(self).__name__} does not split its observation into public and private")

    def observe_private(self, state: State, player: int) -> Tensor:
        """What ``player`` sees beyond ``observe_public`` (``state.private_view(player)``), flat, as
        ``private_layout``. NotImplementedError where the game does not split."""
        raise NotImplementedError(f"{type(self).__name__} does not split its observation into public and private")

    def observe_and_mask(self, state: State, player: int) -> tuple[Tensor, Mask]:
        """``observe(state, player)`` and the action mask of ``player`` (1 for each legal action; all 0 when
        ``player`` may not act now), as the adapters hand them to a learner each step (games may build both at
        once)."""
        mask = np.zeros(self.num_actions, dtype=np.int8)
        if player in state.actors:
            mask[self.legal_actions(state, player)] = 1
        return self.observe(state, player), mask

    @abstractmethod
    def max_length(self) -> int:
        """An upper bound on the number of moves in a game with these options."""

    def check_action(self, action: int) -> int:
        """``action`` as an int, or ValueError naming the range."""
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise ValueError(f"an action is an int in 0…{self.num_actions - 1}, not {action!r}")
        if not 0 <= action < self.num_actions:
            raise ValueError(f"action {action} is out of range 0…{self.num_actions - 1}")
        return int(action)


def unpack_bits(boards: Sequence[int], nbits: int) -> npt.NDArray[np.uint8]:
    """Integer bitboards as a ``(len(boards), nbits)`` array of 0/1 (bit i of board k at ``[k, i]``), in one
    numpy call rather than a Python loop over cells."""
    nbytes = (nbits + 7) // 8
    raw = b"".join(board.to_bytes(nbytes, "little") for board in boards)
    bits = np.unpackbits(np.frombuffer(raw, dtype=np.uint8), bitorder="little")
    return bits.reshape(len(boards), nbytes * 8)[:, :nbits]


def relative(seat: int, player: int, players: int) -> int:
    """``seat`` numbered from ``player`` on: the observer is 0, the next seat 1, …"""
    return (seat - player) % players
