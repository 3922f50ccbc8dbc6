"""Rendering shared by the PettingZoo and Gymnasium environments: the game's text board, returned (``"ansi"``) or
printed (``"human"``: the convention of PettingZoo's classic environments, whose own render test asks for it)."""

from __future__ import annotations

from kumiki.core.game import State

RENDER_MODES = ["ansi", "human"]
RENDER_FPS = 1  # the metadata Gymnasium and PettingZoo read; a board game has no frame rate of its own


def check_render_mode(render_mode: str | None) -> str | None:
    """``render_mode`` if the environments know it, else ValueError naming those they do."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be 'ansi', 'human' or None, not {render_mode!r}")
    return render_mode


def render(state: State, render_mode: str | None) -> str | None:
    """The text board for ``"ansi"``; printed, and None, for ``"human"``; None without a render mode."""
    if render_mode is None:
        return None
    text = state.render()
    if render_mode == "human":
        print(text)
        return None
    return text
