"""The hub: every live room, the database's writer thread and the agents' process pool. Rooms are loaded from the
database on first use (off the event loop, each game once), let go when nobody uses them, and brought back after a
restart in the background (``Hub.resume``)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from sqlalchemy.exc import DBAPIError

from kumiki import State
from kumiki.core.processes import stop_pool
from kumiki.server.agents import MAX_WORKERS, choose_move
from kumiki.server.rooms import REPLAY_ERRORS, Room, Unreplayable, rebuild, refusal_reason, unreplayable
from kumiki.server.storage import GameRow, SeatRow, Storage

log = logging.getLogger("kumiki.server")
T = TypeVar("T")

REMATCHES_KEPT = 10_000  # finished games whose rematch the Hub remembers (a few hundred bytes each)
# Hints in the agents' pool at once, whatever the seats and rooms: a worker stays free for the computers (one client's
# many solo games asking hints held every computer opponent up, 1 s for 6 hints); at least one, or no hint would run.
HINTS_AT_ONCE = max(1, MAX_WORKERS - 1)
# Stored games replayed into memory at once, off the event loop (Hub.open_room): with two, the event loop shared the
# interpreter with two busy threads, and others' moves took 70 ms while clients kept opening stored Kozo games (10 ms
# with one).
LOADS_AT_ONCE = 1
# Stored games the start-up's walk (Hub.resume) has asked ``open_room`` for at once: they load LOADS_AT_ONCE at a
# time, as a client's do, so a client opening a game meanwhile waits for one load at most.
RESUMES_AT_ONCE = 1


@dataclass
class Stored:
    """What a room holds of its game beside its moves, as read with them."""

    chat: list[dict[str, Any]]
    resigned: int | None
    rematch_id: str | None = None
    earlier_tokens: dict[int, list[str]] = field(default_factory=dict)


class Hub:
    """All live rooms, the database and the agents' process pool."""

    def __init__(self, storage: Storage, pool_factory: Any, agent_pace: float = 0.0) -> None:
        self.storage = storage
        self.agent_pace = agent_pace  # seconds a computer teammate waits after any edit, where all build at once
        self._pool_factory = pool_factory
        self._pool: Executor | None = None
        self.rooms: dict[str, Room] = {}
        # Writes run one at a time in their own thread: a slow disk (an fsync, a checkpoint) never stalls the loop.
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kumiki-db")
        # Games being loaded by ``open_room`` (each once, whoever else asks meanwhile waits for it), LOADS_AT_ONCE
        # at a time.
        self._loading: dict[str, asyncio.Future[Room | None]] = {}
        self._loads = asyncio.Semaphore(LOADS_AT_ONCE)
        # Hints in the agents' pool at once: the others wait here, not in the pool's queue ahead of the computers' moves
        self.hint_slots = asyncio.Semaphore(HINTS_AT_ONCE)
        self.resume_task: asyncio.Task[int] | None = None  # the start-up's walk over the games still going
        # Each finished game's rematch (Room.rematch), the newest REMATCHES_KEPT, with its invites: outlives its room,
        # not a restart (the invites' tokens are stored only hashed; the rematch's id is stored: Room.rematch_id)
        self.rematches: dict[str, dict[str, Any]] = {}

    def remember_rematch(self, game_id: str, answer: dict[str, Any]) -> None:
        """Keep game ``game_id``'s rematch (the lobby's answer), forgetting the oldest past REMATCHES_KEPT."""
        self.rematches[game_id] = answer
        while len(self.rematches) > REMATCHES_KEPT:
            del self.rematches[next(iter(self.rematches))]

    async def write(self, method: Callable[..., T], *args: Any) -> T:
        """Run a storage write in the database thread and wait for its commit."""
        return await asyncio.get_running_loop().run_in_executor(self._writer, method, *args)

    async def read(self, method: Callable[..., T], *args: Any) -> T:
        """Run a storage read in a thread of the default pool, as a stored game's load is: a slow query (a disk busy
        with a checkpoint, a PostgreSQL far away or waiting for a lock) on the event loop held every game still."""
        return await asyncio.get_running_loop().run_in_executor(None, method, *args)

    def pool(self) -> Executor:
        if self._pool is None:
            self._pool = self._pool_factory()
        return self._pool

    async def think(self, pool: Executor, args: tuple[Any, ...]) -> str:
        """The agent's move for ``args`` (``choose_move``'s), computed in ``pool`` (``stoppable``)."""
        text: str = await self.stoppable(pool, choose_move, args)
        return text

    async def stoppable(self, pool: Executor, fn: Callable[..., T], args: tuple[Any, ...]) -> T:
        """``fn(*args)`` computed in ``pool``. Cancelled (an undo, a resignation, a hint's page closed, the server
        stopping), its search is let go at once: taken out of the queue if it has not begun, else stopped in its
        worker where the pool can stop one (``AgentPool.stop_job``), so the worker is free for the next search at
        once instead of finishing one nobody will use (a hard Kozo move takes up to 3 s, a hint as long)."""
        submit_job = getattr(pool, "submit_job", None)
        job: int | None = None
        if submit_job is not None:
            job, future = submit_job(fn, *args)
        else:
            future = pool.submit(fn, *args)
        try:
            return await asyncio.wrap_future(future)
        except asyncio.CancelledError:
            if not future.cancel() and not future.done() and job is not None:
                pool.stop_job(job)  # type: ignore[attr-defined]
            raise

    def reset_pool(self, broken: Executor) -> None:
        """Let go of the pool ``broken`` (a worker died: each room thinking there sees it break; only the first
        replaces it, so a fresh pool another room already retries in is kept). Its queued work is cancelled."""
        if self._pool is not broken:
            return
        self._pool = None
        broken.shutdown(wait=False, cancel_futures=True)

    def stop_pool(self) -> None:
        """Stop the agents' pool for good: what is queued is cancelled and a worker still thinking is stopped (a
        server stopped by SIGTERM, as systemd and docker stop it, must leave no process behind)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            stop_pool(pool, wait_s=2.0)

    def unwatched_thinking(self) -> int:
        """Games with people in them whose computers think while none of their players is connected."""
        return sum(1 for r in self.rooms.values() if r.thinking() and r.has_humans() and not r.players_connected())

    def room(self, game_id: str) -> Room | None:
        """The live room of a game, loaded from the database on first use (its clock, if any, running again). Its
        moves are replayed in the calling thread (the benchmarks' and tests' own set-up); the server loads every game,
        a new one included (the lobby's, a rematch), with ``open_room``, off the event loop."""
        if game_id in self.rooms:
            return self.rooms[game_id]
        read = self._read(game_id)
        return None if read is None else self._register(*read)

    async def open_room(self, game_id: str) -> Room | None:
        """The live room of a game, as ``room`` gives it, but a stored game's moves replayed off the event loop
        (one at a time), and each game loaded once however many ask for it meanwhile. Setting up a Kozo
        game works out every placement of every piece (25–40 ms): loaded on the event loop at every connection and
        every record asked for, a few clients opening stored games over and over held every other game still."""
        room = self.rooms.get(game_id)
        if room is not None:
            return room
        pending = self._loading.get(game_id)
        if pending is None:
            pending = self._loading[game_id] = asyncio.ensure_future(self._load(game_id))
        room = await asyncio.shield(pending)
        if room is None:
            return None
        # Another who waited for the same load (a record asked for) may have been done with the room, and let it go,
        # before this caller went on: it is in use again (never a second room of one game, each storing its own moves).
        return self.rooms.setdefault(game_id, room)

    async def _load(self, game_id: str) -> Room | None:
        try:
            async with self._loads:
                read = await asyncio.get_running_loop().run_in_executor(None, self._read, game_id)
            if read is None:
                return None
            # Nothing stored of a game changes while it is not in memory (its moves, chat and resignation go through
            # its room), but for a seat taken meanwhile (``seat_taken`` waits for this load, then sets it).
            return self.rooms.get(game_id) or self._register(*read)
        finally:
            self._loading.pop(game_id, None)

    def _read(self, game_id: str) -> tuple[GameRow, State, list[tuple[int | None, str]], Stored] | None:
        """A stored game read and replayed (in a thread: ``_load``), or None where there is no such game."""
        row = self.storage.game(game_id)
        if row is None:
            return None
        moves = self.storage.moves(game_id)
        try:
            state = rebuild(row, moves)
        except REPLAY_ERRORS as error:
            raise unreplayable(game_id, error) from None
        stored = Stored(self.storage.chat(game_id), self.storage.resigned(game_id), self.storage.rematch(game_id))
        stored.earlier_tokens = self.storage.earlier_tokens(game_id)
        return row, state, moves, stored

    def _register(self, row: GameRow, state: State, moves: list[tuple[int | None, str]], stored: Stored) -> Room:
        """A loaded game's room, in memory from now on (its clock, if any, running again)."""
        room = Room(row, state, [s for s, _ in moves], self)
        room.chat, room.resigned = stored.chat, stored.resigned
        room.rematch_id, room.earlier_tokens = stored.rematch_id, stored.earlier_tokens
        self.rooms[row.id] = room
        room.arm_clock()
        return room

    async def seat_taken(self, game_id: str, seat: SeatRow) -> None:
        """An open seat was just taken (already stored): a live room learns its new player and shows everyone (a
        room being loaded may have read the seat before: it learns it once loaded)."""
        pending = self._loading.get(game_id)
        if pending is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(pending)
        room = self.rooms.get(game_id)
        if room is not None:
            async with room.lock:
                room.row.seats[seat.seat] = seat
                room.broadcast()

    def release(self, room: Room) -> None:
        """Let go of a room nobody is using: no one connected, no agent thinking, no move being stored. The database
        holds all of it, so the next use loads it again; a club's server so keeps only its live games in memory."""
        busy = [t for t in (room.agent_task, room.clock_task) if t is not None and not t.done()]
        if room.connections or room.lock.locked() or any(t is not asyncio.current_task() for t in busy):
            return
        if self.rooms.get(room.row.id) is room:
            del self.rooms[room.row.id]

    def start_resume(self) -> None:
        """After a (re)start: bring every game still going back in the background (``resume``), so the server
        answers at once (the lobby, a game page, a record) while the stored games are replayed."""
        self.resume_task = asyncio.get_running_loop().create_task(self.resume())

    def resuming(self) -> bool:
        """Whether the start-up's games are still being brought back."""
        return self.resume_task is not None and not self.resume_task.done()

    async def resume(self) -> int:
        """Load every game still going, each off the event loop as ``open_room`` loads one (RESUMES_AT_ONCE at a
        time, beside the games clients open), and let its agents think again: the games whose computer is to move
        first. A game whose stored moves no longer replay (stored by another version of the rules) is logged and left
        as stored: one such game must not keep the server, and every other game, from starting. Returns how many
        were brought back.

        At start, on the event loop, this held the server shut until every game was replayed: 20 s for 132 games
        (87 Kozo) on the 2-core machine, and a club's years of abandoned games grow it; a client that opens a game
        meanwhile has it loaded at once (or waits for the load under way), and the walk finds it in memory."""
        try:
            ids = await asyncio.get_running_loop().run_in_executor(None, self.storage.resume_order)
        except DBAPIError as error:  # the database is away: every game loads when someone opens it
            log.error("could not list the games to resume (%s): each loads when it is opened", refusal_reason(error))
            return 0
        count = 0
        left = iter(ids)

        async def walk() -> None:
            nonlocal count
            for game_id in left:  # shared: each walker takes the next game
                try:
                    room = await self.open_room(game_id)
                except Unreplayable as error:
                    log.error("%s; it is left as stored", error)
                    continue
                except DBAPIError as error:
                    log.error(
                        "game %s could not be read at start (%s): it loads when it is opened",
                        game_id,
                        refusal_reason(error),
                    )
                    continue
                except Exception:  # any other failure of one game's replay (a bug, a verdict HiGHS cannot decide)
                    log.exception("game %s could not be brought back at start; the others go on", game_id)
                    continue
                if room is not None:
                    room.start_agents()
                    self.release(room)  # waiting for a human: loaded again when someone connects
                    count += 1

        await asyncio.gather(*(walk() for _ in range(RESUMES_AT_ONCE)))
        return count

    async def close(self) -> None:
        if self.resume_task is not None:
            self.resume_task.cancel()
            with contextlib.suppress(BaseException):
                await self.resume_task
        for room in self.rooms.values():
            room.cancel_agents()
            room.cancel_clock()
            for connection in list(room.connections):
                connection.close()
        self.stop_pool()
        self._writer.shutdown(wait=True)
        with contextlib.suppress(Exception):
            self.storage.close()
