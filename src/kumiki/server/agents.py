"""Agent seats: the levels the lobby offers, and the worker process pool they think in.

An agent's move is computed in another process from the game's name, options, seed and moves (plain data that
pickles cheaply), so the server's event loop never waits for a search.
"""

from __future__ import annotations

import contextlib
import gc
import importlib.util
import itertools
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from itertools import zip_longest
from typing import Any, TypeVar

from kumiki import State, load_agent, load_game
from kumiki.agents.levels import COMMON_LEVELS, AgentSpec
from kumiki.agents.levels import GAME_LEVELS as CALIBRATED
from kumiki.core.processes import exit_with

# The lobby's levels and the agent behind each: the calibrated levels of each game (kumiki.agents.levels, measured
# by the ladder studies; docs/agents.md), and "random" for trying the app out and for tests.
LEVELS: dict[str, AgentSpec] = {**COMMON_LEVELS, "random": ("random", {})}
GAME_LEVELS: dict[str, dict[str, AgentSpec]] = {game: dict(levels) for game, levels in CALIBRATED.items()}
# OpenSpiel's MCTS (kumiki[openspiel]) is offered as a level of its own where OpenSpiel is installed: a bot from
# another library at the table. Its simulations per game keep a move within about 2 s on this machine (Kozo and
# TowerBrix roll out with the physics judge, a simulation costing some 0.06 s and 0.35 s).
# Not in TowerBrix: its search clones the full state, so it would play with every teammate's hidden cards in view.
if importlib.util.find_spec("pyspiel") is not None:
    LEVELS["openspiel"] = ("openspiel:mcts", {"simulations": 300})
    for _game, _simulations in (("blokus3d", 100), ("kozo", 20)):
        GAME_LEVELS.setdefault(_game, {})["openspiel"] = ("openspiel:mcts", {"simulations": _simulations})
# The plain greedy agent neither: its one-ply look-ahead reads the score of an ok that ends the round, which says
# whether every hidden card holds.
NOT_OFFERED: dict[str, frozenset[str]] = {"towerbrix": frozenset({"openspiel", "greedy"})}
# Plain agents a seat may name directly ({"kind": "agent", "agent": "random"}): fast opponents for tests.
PLAIN_AGENTS: dict[str, AgentSpec] = {"random": ("random", {}), "greedy": ("greedy", {})}
LEVEL_NAMES = {
    "easy": "easy computer",
    "medium": "medium computer",
    "hard": "hard computer",
    "random": "random computer",
    "openspiel": "OpenSpiel MCTS computer",
}
MAX_WORKERS = 2
T = TypeVar("T")


def levels_of(game: str) -> list[str]:
    """The levels the lobby offers in ``game``: every level but those that would not play it fairly."""
    return [level for level in LEVELS if level not in NOT_OFFERED.get(game, frozenset())]


def level_agent(game: str, level: str) -> AgentSpec:
    """The agent (name and options) behind ``level`` in ``game``: the game's own setting, else the common one."""
    spec = GAME_LEVELS.get(game, {}).get(level) or LEVELS.get(level) or PLAIN_AGENTS.get(level)
    if spec is None:  # a level stored by an installation that had it (OpenSpiel's, say), or by another version
        raise ValueError(f"this server has no computer player {level!r}")
    return spec


def positions(
    game: str, options: dict[str, Any], seed: int | None, moves: Iterable[str], seats: Iterable[int | None] = ()
) -> Iterator[State]:
    """The position before the first of ``moves`` and after each (one State, moved on in place), replayed from the
    seed and options. Each move is played by its seat where one is given (it matters where every seat may act at
    once, TowerBrix with free turns; in turn-based play the stored seat is the seat to move)."""
    state = load_game(game, **options).new_state(seed=seed)
    yield state
    for move, seat in zip_longest(moves, seats):
        if move is None:
            break
        state.play(move, player=seat)
        yield state


def replay(
    game: str, options: dict[str, Any], seed: int | None, moves: Iterable[str], seats: Iterable[int | None] = ()
) -> State:
    """The position after ``moves`` (see ``positions``)."""
    *_, state = positions(game, options, seed, moves, seats)
    return state


def choose_move(
    game: str,
    options: dict[str, Any],
    seed: int | None,
    moves: list[str],
    level: str,
    seats: list[int | None] | None = None,
    seat: int | None = None,
) -> str:
    """The move the agent of ``level`` plays after ``moves`` (runs in a worker process), for ``seat`` (default:
    the seat to move; where several may act at once, any of them: ``State.acting``)."""
    state = replay(game, options, seed, moves, seats or ())
    if seat is not None and seat != state.to_move:
        state = state.acting(seat)
    name, agent_options = level_agent(game, level)
    if name == "random" and "seed" not in agent_options:
        # the same position, the same move: the random seat of a test, a replay or a bug report plays alike each time
        agent_options = {**agent_options, "seed": ((seed or 0) * 1_000_003 + len(moves) * 31 + (seat or 0)) % 2**63}
    return str(load_agent(name, **agent_options).choose(state))


class SearchStopped(BaseException):
    """Raised in a worker to stop a search the server no longer wants (its room's position was taken back).

    A BaseException, as KeyboardInterrupt is: an agent's ``except Exception`` must not swallow it and search on."""


JOB_SLOTS = 64  # the last jobs stopped, and the worker of each recent job (a pool runs MAX_WORKERS at a time)
# In a worker: the pool's shared lists (the jobs stopped; the worker's pid by job number modulo JOB_SLOTS), and the
# job it runs now (0: none).
_stopped: Any = None
_workers: Any = None
_current = 0


STOP_RETRY_S = 0.02  # a stop that lands in an import is tried again this often until the import is done
_retry_write: int | None = None  # in a worker: the pipe that asks its retrier thread to signal it again


def _worker_start(main_pid: int, stopped: Any, workers: Any) -> None:
    """A worker's initializer: it ends with the server (``exit_with``) and stops its search when told to."""
    global _stopped, _workers
    exit_with(main_pid)
    if hasattr(signal, "SIGUSR1"):
        _start_retrier()
        signal.signal(signal.SIGUSR1, _on_stop)
    _stopped, _workers = stopped, workers


def _start_retrier() -> None:
    """A thread that signals this worker again, STOP_RETRY_S later, each time the handler asks it to (a byte in a
    pipe: writing one is all a signal handler may safely do; no lock is taken)."""
    global _retry_write
    read, _retry_write = os.pipe()

    def retry() -> None:
        while os.read(read, 1):
            time.sleep(STOP_RETRY_S)
            with contextlib.suppress(OSError):
                os.kill(os.getpid(), signal.SIGUSR1)

    threading.Thread(target=retry, name="kumiki-stop-retry", daemon=True).start()


def _importing() -> bool:
    """Whether a module is being imported now: the import system holds a lock per module while it imports it."""
    locks = getattr(sys.modules.get("_frozen_importlib"), "_module_locks", None) or {}
    return any(ref() is not None for ref in list(locks.values()) if callable(ref))


def _on_stop(_signum: int, _frame: Any) -> None:
    """SIGUSR1: the pool stopped a job. The one this worker runs stops here if it is among them; between jobs, or
    running a later job, nothing happens. It stops once: ``_current`` is cleared first, so a later signal cannot land
    outside the job (in the worker's own loop, where an exception would end the worker).

    Never inside an import: a worker's first move of a game imports the game's modules, and an exception raised
    while a compiled module sets itself up (HiGHS's, numpy's) leaves it half made, and every later import of it in
    that worker fails ("type ObjSense is already registered"): each Kozo move given to that worker failed until the
    server restarted. The stop is tried again (``_start_retrier``) until the import is done."""
    global _current
    job = _current
    if job and _stopped is not None and job in _stopped[:]:
        if _importing():
            if _retry_write is not None:
                with contextlib.suppress(OSError):
                    os.write(_retry_write, b"!")
            return
        _current = 0
        raise SearchStopped(f"job {job} stopped")


def run_job(job: int, fn: Callable[..., T], *args: Any) -> T:
    """Run ``fn(*args)`` in a worker as job ``job``, which ``AgentPool.stop_job`` may stop.

    Each job begins with the cycle collector running: a search pauses it (``mcts.collector_paused``) and restarts it
    in a ``finally``, but a stop that lands between the pause and its ``try`` (or in the ``finally`` before the
    restart) skips the restart, and every later search of that worker would then run with it paused for good (its
    trees' cycles never freed)."""
    global _current
    gc.enable()
    _current = job
    if _workers is not None:  # where the pool sends the signal (only ever to a worker that runs jobs: a worker still
        _workers[job % JOB_SLOTS] = os.getpid()  # starting has no handler yet, and SIGUSR1 would end it)
    try:
        if _stopped is not None and job in _stopped[:]:  # stopped while it waited in the pool's queue
            _current = 0
            raise SearchStopped(f"job {job} stopped before it began")
        return fn(*args)
    finally:
        _current = 0


class AgentPool(ProcessPoolExecutor):
    """The agents' worker processes, whose searches can be stopped one by one (``submit_job``, ``stop_job``).

    A ProcessPoolExecutor cannot cancel a call once a worker has it: a search taken back by an undo went on to its
    end (up to 3 s for a hard move), holding a worker the next search then waited for. Here the job's number goes
    into a list the workers share, and the worker that began it gets SIGUSR1: if it still runs that job it raises
    SearchStopped there (the pool's worker loop catches it as the job's error and takes the next job; the worker
    lives on); a job not begun yet ends as it begins. Where there is no SIGUSR1 (Windows) a job that has begun runs
    to its end, as before."""

    def __init__(self, workers: int = MAX_WORKERS) -> None:
        context = multiprocessing.get_context("spawn")  # fresh interpreters: never a fork of the threaded server
        self._stopped = context.Array("q", JOB_SLOTS, lock=False)  # zeros: no job is numbered 0
        self._workers = context.Array("q", JOB_SLOTS, lock=False)
        self._jobs = itertools.count(1)
        self._next_slot = 0
        initargs = (os.getpid(), self._stopped, self._workers)
        super().__init__(workers, context, initializer=_worker_start, initargs=initargs)

    def submit_job(self, fn: Callable[..., T], /, *args: Any) -> tuple[int, Future[T]]:
        """Submit ``fn(*args)`` as a job that ``stop_job`` can stop: its number and its future."""
        job = next(self._jobs)
        return job, self.submit(run_job, job, fn, *args)

    def stop_job(self, job: int) -> None:
        """Stop job ``job`` wherever it is: not begun (it ends as it begins), or running (its worker stops it)."""
        self._stopped[self._next_slot % JOB_SLOTS] = job
        self._next_slot += 1
        pid = self._workers[job % JOB_SLOTS]  # the worker that began it (or one that began an older job: it checks)
        # only a worker of this pool: a child not yet reaped keeps its pid, so no other process is ever signalled
        children = {p.pid for p in list((getattr(self, "_processes", None) or {}).values())}
        if hasattr(signal, "SIGUSR1") and pid and pid in children:
            with contextlib.suppress(OSError):  # it ended meanwhile
                os.kill(pid, signal.SIGUSR1)


def make_pool(workers: int = MAX_WORKERS) -> AgentPool:
    """A pool of fresh (spawned) interpreters whose searches can be stopped (``AgentPool``)."""
    return AgentPool(workers)
