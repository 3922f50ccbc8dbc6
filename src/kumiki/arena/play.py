"""One game of a study, start to finish, with the arena's bookkeeping: think times, forfeits, the result row.

An agent that raises, plays an illegal move or takes longer than the study's per-move limit loses the game by
forfeit (its side loses; the others share the win); the reason is recorded and the study goes on. An agent still
thinking a little past the limit is stopped there (an alarm signal, where the game runs in a process's main thread on
a POSIX system), so one that never answers costs the study one game, not the whole run.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, nullcontext
from functools import lru_cache
from typing import Any

from kumiki.agents import agent_maker
from kumiki.agents.base import Agent
from kumiki.arena.schedule import GameSpec
from kumiki.core.game import Game, State, forfeit_winners
from kumiki.core.records import RESIGNED, write_record
from kumiki.core.registry import load_game

REASON_LIMIT = 300  # characters of an exception's text kept in a forfeit's reason
# How far past the per-move limit an agent still thinking is stopped: the move is a forfeit either way; the margin
# keeps the stop well clear of a move that ends just under the limit.
STOP_AFTER = 1.05
STOP_MARGIN_S = 0.05


class OverLimit(BaseException):
    """Raised inside an agent's move when it runs past the study's limit: a BaseException, so an agent's own
    ``except Exception`` does not swallow it."""


def can_stop_moves() -> bool:
    """Whether a move can be stopped here: an interval timer exists (POSIX) and this is the main thread (signal
    handlers can only be set there)."""
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


def _let_pending_run() -> None:
    """Nothing: entering a Python function runs the signal handlers due (CPython checks them there)."""


@contextmanager
def stopped_after(seconds: float | None) -> Iterator[None]:
    """Raise :class:`OverLimit` in the body once ``seconds`` have passed (nothing when None, or where moves cannot
    be stopped). An alarm already set (a test runner's timeout) is kept: when it comes first the body is not
    stopped, else it is set again on the way out with the time it had left; the handler before is restored."""
    if seconds is None or not can_stop_moves():
        yield
        return
    before, interval = signal.getitimer(signal.ITIMER_REAL)
    if before and before <= seconds:
        yield
        return
    live = [True]  # the body still runs: an alarm now stops it; once cleared, a late one does nothing

    def ring(_signum: int, _frame: Any) -> None:
        if live[0]:
            live[0] = False
            raise OverLimit

    began = time.monotonic()
    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        # Cleared first: an alarm that goes off just as the body ends (the handler runs at the next bytecode it can)
        # must not raise here, which would skip the rest and leave this handler in place and an earlier alarm lost.
        live[0] = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        _let_pending_run()  # an alarm due just before it was cleared goes to ``ring`` (which ignores it now)
        signal.signal(signal.SIGALRM, signal.SIG_DFL if previous is None else previous)
        if before:
            signal.setitimer(signal.ITIMER_REAL, max(before - (time.monotonic() - began), 1e-6), interval)


@lru_cache(maxsize=64)
def _game(name: str, options: tuple[tuple[str, Any], ...]) -> Game:
    return load_game(name, **dict(options))


@lru_cache(maxsize=64)
def _maker(spec: str) -> Callable[..., Agent]:
    """The agent spec read once per worker (a study makes the same few agents for every game)."""
    return agent_maker(spec)


def game_for(name: str, options: Mapping[str, Any]) -> Game:
    """The game with these options (cached per worker: a study plays the same few option sets many times)."""
    return _game(name, tuple(sorted(options.items())))


def ranks(state: State, forfeit_seat: int | None = None) -> list[int]:
    """Each seat's finishing place (1 = first; tied seats share a place): the winners first, then by their side's
    margin. After a forfeit, the forfeiting seat's side is last and every other side shares first place."""
    n = state.game.players
    sides = state.teams()
    if forfeit_seat is not None:
        lost = sides[forfeit_seat]
        return [n if sides[p] == lost else 1 for p in range(n)]
    winners = set(state.winners())
    margins = state.margins()
    key = [(0 if p in winners else 1, -margins[p]) for p in range(n)]
    return [1 + sum(1 for q in range(n) if key[q] < key[p]) for p in range(n)]


def leading_side(state: State) -> int | None:
    """The side ahead on score now (None when several share the lead)."""
    margins = state.margins()
    best = max(margins)
    teams = state.teams()
    ahead = {teams[p] for p, m in enumerate(margins) if m == best}
    return ahead.pop() if len(ahead) == 1 and best > 0 else None


def play_game(
    game_name: str,
    agents: Mapping[str, str],
    spec: GameSpec,
    root_seed: int,
    move_limit_s: float | None = None,
    record: bool = False,
    trace: bool = False,
) -> dict[str, Any]:
    """Play ``spec`` and return its result row (see docs/arena.md); ``record`` adds the game's ``.kmk`` text;
    ``trace`` adds the number of legal moves at each ply (``branching``) and how often the lead changed hands
    (``lead_changes``), at the cost of listing the legal moves once more per ply."""
    game = game_for(game_name, spec.options)
    n = game.players
    state = game.new_state(seed=spec.seed)
    think = [0.0] * n
    forfeit: dict[str, Any] | None = None
    seats: list[Agent] = []
    for seat, name in enumerate(spec.seats):
        try:
            seats.append(_maker(agents[name])(seed=spec.agent_seed(root_seed, seat)))
        except (Exception, SystemExit) as error:  # any failure of a user's agent is its forfeit, never the study's
            forfeit = {"seat": seat, "reason": _reason("could not be made", error)}
            break
    clock = time.perf_counter
    branching: list[int] = []
    leader: int | None = None
    changes = 0
    stop_at = None if move_limit_s is None else move_limit_s * STOP_AFTER + STOP_MARGIN_S
    unlimited = nullcontext()  # without a limit no alarm is set: not a generator context entered at every move
    while forfeit is None and not state.over:
        player = state.to_move
        assert player is not None
        if trace:
            branching.append(len(state.legal_moves()))
        began = clock()
        try:
            with unlimited if stop_at is None else stopped_after(stop_at):
                move = seats[player].choose(state)
        except OverLimit:  # still thinking past the limit: the forfeit it would have had on answering
            spent = clock() - began
            think[player] += spent
            forfeit = {
                "seat": player,
                "reason": f"took {spent:.3g} s for a move and was stopped, over the limit of {move_limit_s:g} s",
            }
            break
        except (Exception, SystemExit) as error:  # the agent's failure is its forfeit (sys.exit too)
            forfeit = {"seat": player, "reason": _reason("raised", error)}
            break
        spent = clock() - began
        think[player] += spent
        if move_limit_s is not None and spent > move_limit_s:
            forfeit = {"seat": player, "reason": f"took {spent:.3g} s for a move, over the limit of {move_limit_s:g} s"}
            break
        try:
            state.play(move)
        except Exception as error:  # IllegalMove, or a move of the wrong type
            forfeit = {"seat": player, "reason": _reason(f"played an illegal move {str(move)[:80]!r}", error)}
            break
        if trace:
            now = leading_side(state)
            if now is not None and leader is not None and now != leader:
                changes += 1
            leader = now if now is not None else leader
    loser = None if forfeit is None else int(forfeit["seat"])
    winners = state.winners() if loser is None else forfeit_winners(state, loser)
    row: dict[str, Any] = {
        "index": spec.index,
        "block": spec.block,
        "options": spec.options,
        "seats": list(spec.seats),
        "seed": spec.seed,
        "scores": [float(s) for s in state.scores()],
        "winners": winners,
        "ranks": ranks(state, loser),
        "teams": state.teams(),
        "moves": len(state.history),
        "measures": state.measures(),
        "forfeit": forfeit,
        "think_s": [round(t, 4) for t in think],
    }
    if trace:
        row["branching"] = branching
        row["lead_changes"] = changes
    if record:
        tags = {  # the study's name for the agent, and what it is where that says more
            f"Player{i}": name if name == agents[name] else f"{name} ({agents[name]})"
            for i, name in enumerate(spec.seats)
        }
        if loser is not None and not state.over and winners:
            # the forfeit ended the game: the record says so (its Result then matches the row's winners); without
            # it `kumiki replay` read the record as a game going on, nobody winning
            tags[RESIGNED] = str(loser)
        row["record"] = write_record(state, tags)
    return row


def _reason(what: str, error: BaseException) -> str:
    text = f"{what}: {type(error).__name__}: {error}".replace("\n", " ")
    return text if len(text) <= REASON_LIMIT else text[: REASON_LIMIT - 1] + "…"
