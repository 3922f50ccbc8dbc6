"""Live games: one Room per game in memory, holding its State, its connections and its agent task.

Every change goes through a Room under its lock: check with the engine, commit to the database, then broadcast
each connection its own view. The Room never decides a rule: legality, turns, scores and views all come from the
kumiki State.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import re
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy.exc import DBAPIError

from kumiki import IllegalMove, Move, State
from kumiki.core.game import forfeit_winners
from kumiki.core.options import shown
from kumiki.core.text import printable
from kumiki.server.agents import LEVELS, NOT_OFFERED, PLAIN_AGENTS, replay
from kumiki.server.hints import HINT_GAMES, hint_for
from kumiki.server.limits import TokenBucket
from kumiki.server.storage import GameRow, SeatRow, hash_token

if TYPE_CHECKING:
    from kumiki.server.hub import Hub

log = logging.getLogger("kumiki.server")
T = TypeVar("T")
OUTBOX_LIMIT = 256  # messages queued for one slow connection before it is dropped
# ... and characters: a view carries the game so far (TowerBrix's evaluations: 0.8 MB for 2,000 on an empty table), so
# 256 sync answers a client never read held 200 MB or more for each of its connections
OUTBOX_CHARS = 8 * 2**20
CHAT_LENGTH = 200  # characters in one chat message
CHAT_BURST, CHAT_RATE = 5, 0.5  # chat lines one seat may send at once, and a second on average
SIGNALS = ("yes", "no", "wait", "look")  # 👍, "no", "wait", "look here"
_TARGET = re.compile(r"[A-Za-z0-9.,\- ]{1,40}")
MAX_PLIES = 5000  # moves in one game, played or imported: the longest real game is well under 2,000 (TowerBrix)
MAX_CHAT = 2000  # chat lines and signals at one table
UNWATCHED_THINKING = 2  # games with a human seat whose computers think while no player of theirs is connected


class Refusal(Exception):
    """A client message that changes nothing: ``code`` is the API's error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def error_message(code: str, message: str, about: str | None = None) -> str:
    """An ``error`` message; ``about`` names the request it answers where that may interleave with others (``hint``,
    worked out beside the connection's moves: a move refused meanwhile is not the hint's answer)."""
    return json.dumps({"type": "error", "code": code, "message": message, **({"about": about} if about else {})})


@dataclass(eq=False)
class Connection:
    """One WebSocket: its seat (None for a spectator) and the queue its sender task drains in order."""

    seat: int | None
    token: str | None = None  # its seat's link's token: a rematch known only as stored opens with it (Room.rematch_id)
    outbox: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    queued: int = 0  # characters waiting in the outbox
    tasks: set[asyncio.Task[None]] = field(default_factory=set)  # its hints being worked out (cancelled at its close)

    def send(self, text: str) -> None:
        if self.outbox.qsize() >= OUTBOX_LIMIT or self.queued + len(text) > OUTBOX_CHARS:
            self.close()
            return
        self.queued += len(text)
        self.outbox.put_nowait(text)

    async def next(self) -> str | None:
        """The next message to send, taken out of the outbox (None: close the connection)."""
        text = await self.outbox.get()
        if text is not None:
            self.queued -= len(text)
        return text

    def close(self) -> None:
        self.outbox.put_nowait(None)


class Unreplayable(ValueError):
    """A stored game whose moves the rules of this version refuse (stored under other rules)."""


def rebuild(row: GameRow, moves: list[tuple[int | None, str]]) -> State:
    """The position after the stored moves, replayed from the seed and options (and the seat of each move, which
    matters where several seats may act at once)."""
    return replay(row.game, row.options, row.seed, [text for _seat, text in moves], [seat for seat, _ in moves])


def state_clock(state: State) -> tuple[float, int, str] | None:
    """The position's running clock as (seconds, the ply it runs from, the move it plays when the time is up), or
    None: a state may have one (TowerBrix's challenge 2) through ``state.clock()``; the server runs it."""
    hook = getattr(state, "clock", None)
    found = hook() if hook is not None else None
    return None if found is None else (float(found[0]), int(found[1]), str(found[2]))


def by_the_clock(state: State, move: Move | str, seat: int | None) -> bool:
    """Whether ``seat`` playing ``move`` here is what the server's clock does when the time is up: the running
    clock's move, played for the seat to move. The server stores such a move with no seat (nobody played it), so an
    imported record's clock move is stored so too, not as the move of the seat the record books it to."""
    found = state_clock(state)
    return found is not None and str(move) == found[2] and seat == state.to_move


def starts_clock(state: State, move: Move, seat: int | None) -> bool:
    """Whether ``move``, played by ``seat`` in ``state``, starts a clock there (TowerBrix's challenge 2: the build's
    first move); ``state`` is left as it is."""
    if getattr(state, "clock", None) is None:
        return False
    after = state.copy()
    try:
        after.play(move, player=seat)
    except (IllegalMove, ValueError):
        return False
    found = state_clock(after)
    return found is not None and found[1] == len(state.history)


def record_ready(over: bool, imported: bool, chance: bool) -> bool:
    """Whether a game's record may be given now: a record holds the seed, so while a game with ``chance`` goes on
    (TowerBrix's deals, Kozo's random sizes) it would tell every hidden card and every draw to come. An imported
    record is given back as it came (nobody plays it, and whoever uploaded it published it)."""
    return imported or over or not chance


def result_columns(state: State) -> dict[str, Any]:
    """The game's status as the games table keeps it, from the State."""
    return {
        "status": "over" if state.over else "playing",
        "to_move": state.to_move,
        "moves": len(state.history),
        "winners": state.winners(),
        "scores": state.scores(),
    }


class Room:
    """One game being played."""

    def __init__(self, row: GameRow, state: State, seats: list[int | None], hub: Hub) -> None:
        self.row = row
        self.state = state
        self.movers = seats  # the seat that made each move, in order
        self.hub = hub
        self.lock = asyncio.Lock()
        self.last_edit = time.monotonic()  # when the last move reached the table (pacing computer teammates)
        self.passed: dict[int, int] = {}  # computer seats with nothing to add, and the ply they saw (free turns)
        self.connections: set[Connection] = set()
        self.agent_task: asyncio.Task[None] | None = None
        self.clock_task: asyncio.Task[None] | None = None
        self._clock_ply: int | None = None  # the ply the running clock started at
        self._clock_start: tuple[int, float] | None = None  # (ply, when that move was stored)
        self.chat: list[dict[str, Any]] = []  # the table's talk: messages and signals, in order (loaded by the Hub)
        self._chat_buckets: dict[int, TokenBucket] = {}
        self._why_buckets: dict[int, TokenBucket] = {}  # "why" plays a move on a copy: at most 1 a second a seat
        self._hint_buckets: dict[int, TokenBucket] = {}  # a hint searches (up to 2 s in the pool): HINT_RATE a seat
        self._hinting: set[int] = set()  # the seats whose hint is being worked out (one at a time each)
        self._silent: bool | None = None
        self.resigned: int | None = None  # the seat that resigned: the game ended there (loaded by the Hub)
        self.rematch_id: str | None = None  # the id of its rematch as stored (loaded by the Hub): a restart keeps it
        # the token hashes, by seat, of the games this one is a rematch of (loaded by the Hub: storage.earlier_tokens)
        self.earlier_tokens: dict[int, list[str]] = {}
        # What the position alone decides of each seat's view message (None: spectators), encoded: see view_message.
        # Kept for one position, (the State, its ply, whether the game is over), and emptied when that changes.
        self._position: tuple[State, int, bool] | None = None
        self._position_parts: dict[int | None, str] = {}

    @property
    def rematch(self) -> dict[str, Any] | None:
        """The next game with the same seats (the lobby's answer, invites included), once someone asked for it. Kept
        by the Hub, not the room: a room let go (everyone away a moment, one reloading) and loaded again still knows
        it, so a friend coming back joins the same rematch instead of making a second one."""
        return self.hub.rematches.get(self.row.id)

    @rematch.setter
    def rematch(self, answer: dict[str, Any]) -> None:
        self.hub.remember_rematch(self.row.id, answer)

    def _rematch_message(self, seat: int | None, token: str | None = None) -> str | None:
        """The ``rematch`` message telling ``seat`` (None: a spectator) where the rematch is, or None before one.
        A rematch known only as stored (made before a restart, whose new invites were never stored) sends a seat
        there with its own link's ``token``, which opens the same seat in it (``earlier_tokens``)."""
        rematch = self.rematch
        if rematch is None:
            if self.rematch_id is None:
                return None
            stored = f"/game/{self.rematch_id}" + (f"?token={token}" if seat is not None and token else "")
            return json.dumps({"type": "rematch", "id": self.rematch_id, "invite": stored})
        invite = {s["seat"]: s.get("invite") for s in rematch["seats"]}.get(seat) if seat is not None else None
        return json.dumps({"type": "rematch", "id": rematch["id"], "invite": invite or rematch["spectate"]})

    # ------------------------------------------------------------------ who is who

    def seat_for_token(self, token: str | None) -> int | None:
        """The seat a token opens; None for no token; Refusal("forbidden") for a wrong one."""
        if token is None or token == "":
            return None
        digest = hash_token(token)
        for seat in self.row.seats:
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                return seat.seat
        for seat in self.row.seats:  # a link to the same seat of a game this one is a rematch of
            earlier = self.earlier_tokens.get(seat.seat, [])
            if seat.kind == "human" and any(hmac.compare_digest(known, digest) for known in earlier):
                return seat.seat
        raise Refusal("forbidden", "this link's token does not open any seat of this game")

    def is_agent(self, seat: int | None) -> bool:
        return seat is not None and self.row.seats[seat].kind == "agent"

    # ------------------------------------------------------------------ the result

    @property
    def over(self) -> bool:
        """Whether the game has ended: by its rules, or by a seat's resignation."""
        return self.state.over or self.resigned is not None

    def winners(self) -> list[int]:
        """The State's winners; after a resignation every seat not on the resigning seat's side (the others share
        the win, as the arena scores a forfeit)."""
        return self.state.winners() if self.resigned is None else forfeit_winners(self.state, self.resigned)

    def may_resign(self, seat: int | None) -> bool:
        """Whether ``seat`` may resign now: a person's seat in a game going on that is played against others."""
        return seat is not None and not self.over and not self.row.imported and self._no_one_to_resign_to() is None

    def _no_one_to_resign_to(self) -> str | None:
        """Why nobody could take a resignation here, or None: a co-operative game (TowerBrix), a game of one side
        (a solo Kozo), or a table with a seat nobody has taken yet (the empty seat would win)."""
        if self.state.game.facts.cooperative:
            return "this game is played together: there is no one to resign to"
        if len(set(self.state.teams())) < 2:
            return "a game of one side has no one to resign to"
        if any(s.kind == "open" for s in self.row.seats):
            return "a seat is still open: nobody has sat down to resign to"
        return None

    async def resign(self, seat: int | None) -> None:
        """A seat gives the game up: stored, its computers and clock stopped, and everyone shown the result."""
        if seat is None:
            raise Refusal("forbidden", "spectators cannot resign: open the game with a seat's invite link")
        async with self.lock:
            if self.over:
                raise Refusal("no_resign", "the game is over")
            reason = self._no_one_to_resign_to()
            if reason is not None:
                raise Refusal("no_resign", reason)
            result = {"status": "over", "to_move": None, "winners": forfeit_winners(self.state, seat)}
            # stored first: until it is, a view, a record or a computer sees the game going on (a refused write
            # leaves nothing to take back)
            await self.hub.write(self.hub.storage.resign, self.row.id, seat, result)
            self.resigned = seat
            self.cancel_agents()
            self.cancel_clock()
            self.broadcast()

    # ------------------------------------------------------------------ views

    def view_message(self, seat: int | None) -> str:
        """The ``view`` message for ``seat`` (None: a spectator): the JSON of one object, in the order below.

        Its costly part is what the position alone decides: the seat's view, legal moves and history (a long
        TowerBrix game's evaluations are most of the message). That part is encoded once per position and seat
        (``_position_part``) and sent again to every connection and every sync until the game changes; the rest
        (who is connected, the seats, the clock's seconds left, the chat's length, a resignation) is read afresh
        each time, so the text is what encoding the whole object each time gives, byte for byte."""
        state = self.state
        over = self.over
        connected = {c.seat for c in self.connections}
        seats = [{**s.public(), "connected": s.kind == "agent" or s.seat in connected} for s in self.row.seats]
        head = json.dumps(
            {
                "type": "view",
                "game": self.row.game,
                "id": self.row.id,
                "seat": seat,
                "ply": len(state.history),
                "to_move": None if over else state.to_move,
                "actors": [] if over else state.actors,
                "movers": self.movers,
                "over": over,
                "resigned": self.resigned,
                "may_resign": self.may_resign(seat),
                "scores": state.scores(),
                "winners": self.winners(),
                "teams": state.teams(),
            }
        )
        tail = json.dumps(
            {
                "seats": seats,
                "undo": self.row.undo,
                "imported": self.row.imported,
                "seed_chosen": self.row.seed_chosen,
                "record_ready": record_ready(over, self.row.imported, state.game.has_chance()),
                "clock": self.clock_json(),
                "silent": self.silent(),
                "hints": self.no_hints(seat) is None,
                "chat": len(self.chat),
            }
        )
        # json.dumps writes an object as "{" + its "key": value pairs joined by ", " + "}", nested values included
        return f"{head[:-1]}, {self._position_part(seat, over)}, {tail[1:]}"

    def _position_part(self, seat: int | None, over: bool) -> str:
        """The ``"view", "legal", "history", "last"`` pairs of ``seat``'s view message, encoded (without braces).

        They depend on the State and the seat alone, and on whether the game is over (a resignation empties
        ``legal``). A State changes only by ``play``, which adds to its history (an illegal move leaves it as it
        was); an undo or a refused commit puts another State in its place. So (the State itself, its ply, over)
        names the position: each seat's part is built once for it, and all are dropped when it changes."""
        state = self.state
        ply = len(state.history)
        known = self._position
        if known is None or known[0] is not state or known[1] != ply or known[2] != over:
            self._position, self._position_parts = (state, ply, over), {}
        part = self._position_parts.get(seat)
        if part is None:
            actors = [] if over else state.actors
            legal = [str(m) for m in state.legal_moves(player=seat)] if seat is not None and seat in actors else []
            # the moves as this seat saw them: challenge 10's blind seat reads "edit" for each placement and removal
            history = [str(m) for m in state.history] if seat is None else state.seen_history(seat)
            view = state.public_view() if seat is None else state.view(seat)
            encoded = json.dumps(
                {"view": view, "legal": legal, "history": history, "last": history[-1] if history else None}
            )
            part = self._position_parts[seat] = encoded[1:-1]
        return part

    def silent(self) -> bool:
        """Whether the game forbids talking (TowerBrix's challenge 3, Trade Secret: gestures only), as its state
        declares it (``"recorded": {"silence": true}``); it never changes during a game, so it is read once."""
        if self._silent is None:
            recorded = self.state.public_view().get("recorded")
            self._silent = isinstance(recorded, dict) and bool(recorded.get("silence"))
        return self._silent

    def _chat_bucket(self, seat: int) -> TokenBucket:
        """A seat's chat allowance, as the times of the lines it has said (the stored chat) leave it. Made full with
        the room, it was full again each time the room left memory: a player alone at the table who reconnected said
        CHAT_BURST lines each time, and filled the table's MAX_CHAT in 17 s, silencing it for the rest of the game."""
        bucket = self._chat_buckets.get(seat)
        if bucket is None:
            tokens, last = float(CHAT_BURST), None
            for entry in self.chat:
                said = entry.get("time")
                if entry.get("seat") != seat or not isinstance(said, (int, float)):
                    continue
                if last is not None:
                    tokens = min(float(CHAT_BURST), tokens + max(0.0, said - last) * CHAT_RATE)
                tokens, last = max(0.0, tokens - 1.0), said
            now = time.monotonic()
            stamp = now if last is None else now - max(0.0, time.time() - last)
            bucket = self._chat_buckets[seat] = TokenBucket(CHAT_RATE, CHAT_BURST, tokens, stamp)
        return bucket

    async def say(self, seat: int | None, kind: str, text: Any, at: Any = None) -> None:
        """A seat's chat line (``kind`` "text") or signal (``kind`` "signal": one of SIGNALS, pointing ``at`` a
        brick or a cell): checked, stored, and sent to everyone at the table."""
        if seat is None:
            raise Refusal("forbidden", "spectators cannot talk at the table: open the game with a seat's invite link")
        if kind == "text":
            if not isinstance(text, str) or not text.strip():
                raise Refusal("bad_message", 'a chat message is {"type": "chat", "text": "<words>"}')
            text = " ".join(text.split())
            if len(text) > CHAT_LENGTH or not printable(text):
                raise Refusal("bad_message", f"a chat message is printable text of at most {CHAT_LENGTH} characters")
            if self.silent():
                raise Refusal("silence", "challenge 3 (Trade Secret): no talking, only gestures (the signals)")
        else:
            if text not in SIGNALS:
                raise Refusal("bad_message", f"a signal is one of {', '.join(SIGNALS)}, not {shown(text)}")
            if at is not None and (not isinstance(at, str) or not _TARGET.fullmatch(at)):
                raise Refusal("bad_message", "a signal points at a brick or a cell (letters, digits, commas)")
        if not self._chat_bucket(seat).take():
            raise Refusal("rate_limited", "too many chat lines: slow down")
        async with self.lock:
            if len(self.chat) >= MAX_CHAT:
                raise Refusal("chat_full", f"this table has said {MAX_CHAT} things already: no more chat in this game")
            index = len(self.chat)
            stamp = await self.hub.write(self.hub.storage.add_chat, self.row.id, index, seat, kind, text, at)
            entry = {"index": index, "seat": seat, "kind": kind, "text": text, "at": at, "time": stamp}
            self.chat.append(entry)
            line = json.dumps({"type": "chat", "entries": [entry], "silent": self.silent()})
            for connection in list(self.connections):
                connection.send(line)

    async def play_again(
        self,
        seat: int | None,
        create: Callable[[dict[str, Any]], dict[str, Any]],
        allowed: Callable[[], bool] = lambda: True,
    ) -> None:
        """A new game with the same game, options and seats, once this one is over (asked again: the same new game).
        Every connection is told where it is: each seat gets its own invite, spectators the game's address.
        ``allowed`` (asked on the event loop, as the lobby's rate limits are) says whether a new game may be made."""
        if seat is None:
            raise Refusal("forbidden", "spectators cannot start a rematch: open the game with a seat's invite link")
        if self.row.imported:
            raise Refusal("no_rematch", "an imported record is only watched: it has no rematch")
        async with self.lock:
            if not self.over:
                raise Refusal("not_over", "a rematch can be asked for once the game is over")
            if self.rematch is None and self.rematch_id is None:
                seats = [_seat_again(s, self.row.game) for s in self.row.seats]
                body = {"game": self.row.game, "options": self.row.options, "seats": seats, "undo": self.row.undo}
                if not allowed():
                    raise Refusal("refused", "too many new games: wait a moment and try again")
                answer = await self.hub.write(create, body)  # stored with its link to this game
                self.rematch, self.rematch_id = answer, str(answer["id"])
            for connection in list(self.connections):
                message = self._rematch_message(connection.seat, connection.token)
                if message is not None:
                    connection.send(message)

    def players_connected(self) -> bool:
        """Whether a player (not a spectator) of this game is connected now."""
        return any(c.seat is not None for c in self.connections)

    def has_humans(self) -> bool:
        return any(s.kind in ("human", "open") for s in self.row.seats)

    def _tell_everyone(self, text: str) -> None:
        for connection in list(self.connections):
            connection.send(text)

    def broadcast(self) -> None:
        cache: dict[int | None, str] = {}
        for connection in list(self.connections):
            if connection.seat not in cache:
                cache[connection.seat] = self.view_message(connection.seat)
            connection.send(cache[connection.seat])

    # ------------------------------------------------------------------ changes

    async def _commit(self, seat: int | None, text: str) -> None:
        """Store the move just played (in the database thread, so other games go on meanwhile).

        If the database refuses, the State is put back as stored and the error goes on up. As stored is the State
        without this move, rebuilt from memory: every commit keeps the stored moves and the State's history equal,
        and a database that refused the write (a PostgreSQL restarting, a lock held elsewhere) may refuse a read as
        well; a State left a move ahead would store the next move at the wrong ply, and the game would not replay.
        """
        ply = len(self.state.history) - 1
        self.movers.append(seat)  # with the move, so a view sent while the commit waits has both
        try:
            self.row.updated = await self.hub.write(
                self.hub.storage.add_move, self.row.id, ply, seat, text, result_columns(self.state)
            )
        except BaseException:
            moves = self._moves_before(ply)
            self.state, self.movers = rebuild(self.row, moves), self.movers[:ply]
            self.broadcast()  # a view sent while the write waited (a sync, a player arriving) showed the move
            raise
        self.last_edit = time.monotonic()

    async def human_move(self, seat: int | None, ply: Any, text: Any) -> None:
        """A seat's move from a client: refused with a Refusal, or committed, broadcast, and the agents started."""
        if not isinstance(text, str) or not isinstance(ply, int) or isinstance(ply, bool) or len(text) > MAX_MOVE:
            raise Refusal(
                "bad_message",
                f'a move is {{"type": "move", "ply": <int>, "move": "<notation>"}} (at most {MAX_MOVE} characters)',
            )
        async with self.lock:
            state = self.state
            if seat is None:
                raise Refusal("forbidden", "spectators cannot move: open the game with a seat's invite link")
            together = len(state.actors) > 1  # everyone may act at once: edits are applied in the order they come
            if ply != len(state.history) and not (together and 0 <= ply < len(state.history)):
                raise Refusal(
                    "stale", f"you sent a move for ply {shown(ply)}, but the game is at ply {len(state.history)}"
                )
            if self.over:
                raise Refusal("illegal", "the game is over")
            if seat not in state.actors:
                raise Refusal("not_your_turn", f"it is seat {state.to_move}'s turn, not yours (seat {seat})")
            if len(state.history) >= MAX_PLIES:
                raise Refusal("too_long", f"this game has reached the server's {MAX_PLIES} moves: it can go no further")
            try:
                move = state.game.parse_move(text)
                if state.clock_only(move):
                    raise Refusal("illegal", f"{move}: the clock plays it when the time is up, not a player")
                if ply != len(state.history):
                    stale = state.late_move_refusal(move, ply, seat)
                    if stale is not None:
                        raise Refusal("stale", stale)
                if together and state.adds_nothing(move, seat):
                    # an ok from a seat whose thumb is up: stored, each one put off the computer teammates' pace
                    # and threw away the move they were thinking of, so a person pressing ok while waiting for
                    # them kept them from ever building
                    raise Refusal("illegal", f"{move}: your thumb is already up; it stays up until the tower changes")
                state.play(move, player=seat)
            except IllegalMove as error:
                late = ply != len(state.history)
                why = f"{error} (the tower changed since you saw it: {len(state.history) - ply} edits meanwhile)"
                raise Refusal("illegal", why if late else str(error)) from None
            await self._commit(seat, str(move))
            self.arm_clock()
            self.broadcast()
        self.start_agents()

    def why(self, seat: int | None, text: Any) -> str:
        """The ``why`` message for a move a seat asks about ("why can't I place here?"): the rule it breaks now, in
        the engine's own words, or that it is legal. Played on a copy: nothing changes and nothing is stored."""
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_WHY:
            raise Refusal("bad_message", f'ask {{"type": "why", "move": "<notation>"}} (at most {MAX_WHY} characters)')
        if seat is None:
            raise Refusal("forbidden", "spectators have no moves to ask about: open the game with a seat's invite link")
        if not self._why_buckets.setdefault(seat, TokenBucket(WHY_RATE, WHY_BURST)).take():
            raise Refusal("rate_limited", "too many questions at once: ask again in a second")
        state = self.state
        if self.over:
            legal, reason = False, "the game is over"
        elif seat not in state.actors:
            legal, reason = False, f"it is seat {state.to_move}'s turn, not yours (seat {seat})"
        else:
            try:
                move = state.game.parse_move(text)
                if state.clock_only(move):
                    raise IllegalMove(f"{move}: the clock plays it when the time is up, not a player")
                state.copy().play(move, player=seat)
                legal, reason = True, f"{move} is a legal move now"
            except (IllegalMove, ValueError, OverflowError) as error:  # any refusal of the engine, in its words
                legal, reason = False, one_line(error)
        return json.dumps({"type": "why", "move": text, "legal": legal, "reason": reason})

    def no_hints(self, seat: int | None) -> str | None:
        """Why ``seat`` may never ask for a hint in this game, or None: hints are for a person playing against the
        computer or alone (at most one seat a person's), and for TowerBrix, played together (its hint reads only
        the seat's own view); never for a spectator or an imported record."""
        if seat is None:
            return "spectators get no hints: open the game with a seat's invite link"
        if self.row.imported:
            return "an imported record is only watched: it has no hints"
        if self.row.game not in HINT_GAMES:
            return f"{self.row.game} has no hints"
        people = sum(1 for s in self.row.seats if s.kind in ("human", "open"))
        if people > 1 and not self.state.game.facts.cooperative:
            return "hints are for games against the computer"
        return None

    async def hint(self, seat: int | None) -> str:
        """The ``hint`` message for a seat that may act now: the move its game's planner suggests and why, in one
        line, worked out in the agents' pool (up to 2 s) so that no other game waits. Nothing is played or stored;
        ``ply`` says which position it is for (the table may have changed meanwhile)."""
        reason = self.no_hints(seat)
        if reason is not None or seat is None:
            raise Refusal("forbidden" if seat is None else "no_hint", reason or "")
        state = self.state
        if self.over:
            raise Refusal("no_hint", "the game is over")
        if seat not in state.actors:
            raise Refusal("not_your_turn", f"it is seat {state.to_move}'s turn, not yours (seat {seat})")
        if seat in self._hinting:
            raise Refusal("rate_limited", "your hint is being worked out: wait for it")
        if not self._hint_buckets.setdefault(seat, TokenBucket(HINT_RATE, HINT_BURST)).take():
            raise Refusal("rate_limited", "too many hints: ask again in a few seconds")
        ply = len(state.history)
        args = (self.row.game, self.row.options, self.row.seed, [str(m) for m in state.history], list(self.movers))
        self._hinting.add(seat)
        try:
            async with self.hub.hint_slots:  # the hints of many seats never queue up before the computers' moves
                pool = self.hub.pool()
                try:
                    move, text = await self.hub.stoppable(pool, hint_for, (*args, seat))  # stopped if its page goes
                except BrokenProcessPool:  # a worker died: a fresh pool for the agents; this hint is asked for again
                    self.hub.reset_pool(pool)
                    raise Refusal("hint_failed", "the hint could not be worked out: ask again") from None
                except Exception as error:  # a bug in a planner: one line, and the log has the rest
                    log.exception("the hint of game %s seat %s failed", self.row.id, seat)
                    raise Refusal("hint_failed", f"the hint could not be worked out: {one_line(error)}") from None
        finally:
            self._hinting.discard(seat)
        return json.dumps({"type": "hint", "ply": ply, "move": move, "text": text})

    def _moves_before(self, ply: int) -> list[tuple[int | None, str]]:
        """The stored moves before ``ply`` as (seat, move text), from memory: the stored moves are the State's own
        history (every commit keeps them equal), so no database read (which a database that is away would refuse)."""
        return list(zip(self.movers[:ply], (str(m) for m in self.state.history[:ply]), strict=True))

    async def undo(self, seat: int | None) -> None:
        """Take back the last human move and the agent replies after it."""
        async with self.lock:
            if seat is None:
                raise Refusal("forbidden", "spectators cannot undo")
            if not self.row.undo:
                raise Refusal("no_undo", "this game was created without undo")
            if self.over:  # its result stands (and may be in a study or a rating): play again instead
                raise Refusal("no_undo", "the game is over: its result stands")
            humans = [k for k, s in enumerate(self.movers) if s is not None and not self.is_agent(s)]
            if not humans:
                raise Refusal("no_undo", "there is no human move to take back")
            keep = humans[-1]
            self.cancel_agents()
            moves = self._moves_before(keep)
            state = rebuild(self.row, moves)
            # a clock the move taken back started keeps running (and its start is kept, for a restart too)
            started = starts_clock(state, self.state.history[keep], self.movers[keep])
            await self.hub.write(self.hub.storage.truncate, self.row.id, keep, result_columns(state), started)
            self.state, self.movers, self.passed = state, [s for s, _ in moves], {}
            self._clock_start = None  # read again from what is stored now, as after a restart
            self.arm_clock()
            self.broadcast()
        self.start_agents()

    # ------------------------------------------------------------------ the clock

    def clock(self) -> tuple[float, float, int, str] | None:
        """The game's running clock as (seconds, deadline, ply, move), or None: a state may have one (TowerBrix's
        challenge 2) through ``state.clock()``; it runs from when move ``ply`` was stored, a restart included; where an
        undo took back the move that started it, from when that one was (``Storage.clock_start``)."""
        found = state_clock(self.state) if not self.row.imported and self.resigned is None else None
        if found is None:
            return None
        seconds, ply, move = found
        if self._clock_start is None or self._clock_start[0] != ply:
            stored = self.hub.storage.clock_start(self.row.id, ply)
            self._clock_start = (ply, time.time() if stored is None else stored)
        return seconds, self._clock_start[1] + seconds, ply, move

    def clock_json(self) -> dict[str, float] | None:
        found = self.clock()
        if found is None:
            return None
        return {"seconds": found[0], "left": round(max(0.0, found[1] - time.time()), 3)}

    def arm_clock(self) -> None:
        """Start (or stop) the task that plays the clock's move when the time is up."""
        found = self.clock()
        running = self.clock_task is not None and not self.clock_task.done()
        if found is not None and running and self._clock_ply == found[2]:
            return
        if running and self.clock_task is not asyncio.current_task():
            assert self.clock_task is not None
            self.clock_task.cancel()
        self.clock_task = None
        if found is not None:
            self._clock_ply = found[2]
            self.clock_task = asyncio.get_running_loop().create_task(self._ring(found[1], found[2], found[3]))

    async def _ring(self, deadline: float, ply: int, move: str) -> None:
        try:
            await asyncio.sleep(max(0.0, deadline - time.time()))
            async with self.lock:
                found = self.clock()
                if found is None or found[2] != ply or len(self.state.history) >= MAX_PLIES:
                    return  # the build ended (or was taken back) meanwhile, or the game is at its last move
                self.state.play(move)
                await self._commit(None, move)
                self.clock_task = None
                self.arm_clock()
                self.broadcast()
            self.start_agents()
        except Exception:  # the database refused (the state is back as stored): the next load or move arms it again
            log.exception("the clock of game %s failed", self.row.id)
        finally:
            self.hub.release(self)  # on every way out: the game may have no one watching it

    def cancel_clock(self) -> None:
        if self.clock_task is not None and not self.clock_task.done():
            self.clock_task.cancel()
        self.clock_task = None

    # ------------------------------------------------------------------ agents

    def start_agents(self) -> None:
        """Let the agent to move think, if one is to move and none is thinking already. In a game with people in
        it, while none of them is connected, only while few such games think (abandoned games, or many created at
        once, must not queue ahead of the games people are playing): the others think when a player connects."""
        if self.row.imported or self.agent_to_act() is None:
            return
        if self.agent_task is not None and not self.agent_task.done():
            return
        if self.has_humans() and not self.players_connected() and self.hub.unwatched_thinking() >= UNWATCHED_THINKING:
            return
        self.agent_task = asyncio.get_running_loop().create_task(self._agents())

    def agent_to_act(self) -> int | None:
        """The computer seat to act next: the seat to move if it is a computer's; where several seats may act at
        once (TowerBrix's free turns), any computer among them (the seat to move first) unless the move it last
        proposed here adds nothing (an ok it has given: it waits until the table changes), and none while a game
        with people in it has none of them at the table (the team waits for its people to sit down)."""
        actors = self.state.actors
        if self.over or not actors or self._people_away():
            return None
        ply = len(self.state.history)
        return next((s for s in actors if self.is_agent(s) and self.passed.get(s) != ply), None)

    def _waits_for_nobody(self, seat: int, move: str, ply: int) -> bool:
        """Whether ``seat``'s "I wait" (``move``, which ``state.only_waits``) would wait for nobody: it puts up a
        thumb (it adds something), and every other seat to act has given that move already (a person's ok: their
        thumb is up) or is a computer waiting at this ply too. Then it is played: beside people who had all said ok,
        two computers that both only waited stood the game still for ever (neither ok was the last thumb)."""
        state = self.state
        if state.adds_nothing(move, seat):
            return False
        return all(
            s == seat or state.adds_nothing(move, s) or (self.is_agent(s) and self.passed.get(s) == ply)
            for s in state.actors
        )

    def _people_away(self) -> bool:
        """Where several seats may act at once, whether the game has people and none of them is connected."""
        return len(self.state.actors) > 1 and self.has_humans() and not self.players_connected()

    def join(self, connection: Connection) -> None:
        """A connection arrives: the first person to sit down gets a pace before computers building alongside act;
        an agent to move starts thinking (its player is here now); everyone sees who is connected."""
        if connection.seat is not None and not self.players_connected():
            self.last_edit = time.monotonic()
        before = self.present()
        self.connections.add(connection)
        self.start_agents()
        self._presence_changed(before, connection)
        rematch = self._rematch_message(connection.seat, connection.token)
        if rematch is not None:  # made while this page was away (a reload, a tab closed): where everyone went
            connection.send(rematch)

    def leave(self, connection: Connection) -> None:
        """A connection goes: closed, and the others shown who is still connected."""
        before = self.present()
        self.connections.discard(connection)
        connection.close()
        self._presence_changed(before)

    def present(self) -> frozenset[int]:
        """The seats with a connection: all a view says of who is connected (spectators are not shown)."""
        return frozenset(c.seat for c in self.connections if c.seat is not None)

    def _presence_changed(self, before: frozenset[int], arrived: Connection | None = None) -> None:
        """Everyone's view again where the seats connected changed; else only an arriving connection's own. A
        spectator (or a seat's second tab) coming and going changes no one's view: broadcasting each view again
        cost a long TowerBrix game's 118 kB (and its deflate) per connection, for nothing, at every cycle of a
        socket anyone could open and close."""
        if self.present() != before:
            self.broadcast()
        elif arrived is not None:
            arrived.send(self.view_message(arrived.seat))

    def thinking(self) -> bool:
        return self.agent_task is not None and not self.agent_task.done()

    def cancel_agents(self) -> None:
        if self.agent_task is not None and not self.agent_task.done():
            self.agent_task.cancel()
        self.agent_task = None

    async def _agents(self) -> None:
        try:
            await self._agents_move()
        finally:
            self.hub.release(self)  # the game may have no one watching it

    async def _agents_move(self) -> None:
        while (seat := self.agent_to_act()) is not None:
            ply, together = len(self.state.history), len(self.state.actors) > 1
            if self.hub.agent_pace > 0 and together:
                # everyone builds at once: a computer teammate edits at a human pace, never right after the last
                # edit on the table, so people see each change and have room to act; it waits before it thinks, so
                # no search is thrown away when someone edits meanwhile
                wait = self.last_edit + self.hub.agent_pace - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                    continue  # look again: the position may have changed while it waited
            level = self.row.seats[seat].level or "easy"
            history = [str(m) for m in self.state.history]
            args = (self.row.game, self.row.options, self.row.seed, history, level, list(self.movers), seat)
            asked = self.state  # the position it thinks about: an undo puts another State in its place
            try:
                pool = self.hub.pool()
                try:
                    text = await self.hub.think(pool, args)
                except BrokenProcessPool:  # a worker died (killed, out of memory): a fresh pool, and once more
                    log.warning("the agents' process pool broke; starting a new one")
                    self.hub.reset_pool(pool)
                    text = await self.hub.think(self.hub.pool(), args)
            except Exception as error:  # a bug in an agent, a level this installation lacks, the pool broke again:
                log.exception("the agent of game %s seat %s failed", self.row.id, seat)  # the next connect or
                self._tell_everyone(  # move starts it again; the players are told, not left waiting
                    error_message("agent_failed", f"seat {seat}'s computer player could not move: {one_line(error)}")
                )
                return
            async with self.lock:
                changed = self.state is not asked or len(self.state.history) != ply  # an undo puts another State
                if changed or seat not in self.state.actors or self.over:  # in place (played again: the same ply)
                    continue  # the position changed while it thought (an undo, a teammate's edit, a resignation)
                if self._people_away():
                    continue  # its people left while it thought: nothing is played with none of them here
                if together and self.state.only_waits(text, seat) and not self._waits_for_nobody(seat, text, ply):
                    self.passed[seat] = ply  # "I wait" (an ok on a tower that cannot pass): until the table changes
                    continue
                if len(self.state.history) >= MAX_PLIES:
                    self._tell_everyone(error_message("too_long", f"this game has reached {MAX_PLIES} moves"))
                    return
                try:
                    self.state.play(text, player=seat)
                except (IllegalMove, ValueError) as error:  # the agent's own bug, in the position it was given:
                    log.error("game %s seat %s: the agent's %s was refused (%s)", self.row.id, seat, text, error)
                    self._tell_everyone(  # asking again would give the same move (the agents are seeded)
                        error_message("agent_failed", f"seat {seat}'s computer player played an illegal move")
                    )
                    return
                try:
                    await self._commit(seat, text)
                except DBAPIError as error:  # the database is away: nothing was played; tried again at the next
                    log.error(
                        "game %s seat %s: the database did not store the move (%s)",
                        self.row.id,
                        seat,
                        refusal_reason(error),
                    )
                    self._tell_everyone(error_message("unavailable", UNAVAILABLE))  # connection or move
                    return
                self.arm_clock()
                self.broadcast()


# A request the database refused (down, restarting, locked, a second server writing the same game): nothing changed.
# The reason goes to the log only, as a driver's message may name the database's host and port.
UNAVAILABLE = "the database did not store this (the server's log says why): nothing changed; try again in a moment"


def one_line(error: BaseException, limit: int = 300) -> str:
    """An error as the API's one line: its first line, cut at ``limit`` (no input is ever echoed in full)."""
    text = str(error).splitlines()[0] if str(error) else type(error).__name__
    return text if len(text) <= limit else text[:limit] + "…"


def refusal_reason(error: DBAPIError) -> str:
    """A database's refusal as one line for the log: the driver's reason ("database or disk is full", "connection
    failed: …"), not SQLAlchemy's text, which adds the statement, its parameters (players' names) and a link."""
    return one_line(error.orig if error.orig is not None else error)


REPLAY_ERRORS = (ValueError, TypeError, KeyError)  # a stored game these rules refuse: moves, or options unread


def unreplayable(game_id: str, error: BaseException) -> Unreplayable:
    return Unreplayable(f"game {game_id} does not replay with these rules: {one_line(error)}")


def _seat_again(seat: SeatRow, game: str) -> dict[str, Any]:
    """A seat of a finished game as the lobby takes it for the rematch: a plain agent (random, greedy) by its name,
    a level by its level. A computer this server no longer offers in ``game`` (greedy or OpenSpiel's in a TowerBrix
    game made before they were refused there: they would see the hidden cards) comes back as the medium level, so
    that "play again" makes the game instead of failing."""
    if seat.kind == "agent" and seat.level in NOT_OFFERED.get(game, frozenset()):
        return {"kind": "agent", "level": "medium"}
    if seat.kind == "agent" and seat.level in PLAIN_AGENTS and seat.level not in LEVELS:
        return {"kind": "agent", "agent": seat.level}
    return {"kind": seat.kind, "name": seat.name, **({"level": seat.level} if seat.level else {})}


MAX_WHY = 300  # characters of a move asked about (the longest real move is well under 100)
MAX_MOVE = 2000  # characters of a move sent: a Kozo piece of 200 cubes still fits; an error never echoes more
WHY_RATE, WHY_BURST = 1.0, 5.0  # "why" questions a second per seat, and at once
HINT_RATE, HINT_BURST = 0.2, 3.0  # hints a second per seat (one each 5 s on average), and at once
