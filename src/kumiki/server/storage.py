"""Storage through SQLAlchemy Core: games, seats, every move with its time, chat, resignations, chosen seeds, results.

The moves are the truth: a game's position is rebuilt by replaying its stored moves from its seed and options,
so nothing but plain text and numbers is ever stored. SQLite (the default) runs in WAL mode, so a committed
move survives ``kill -9``.
"""

from __future__ import annotations

import hashlib
import os
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    case,
    create_engine,
    delete,
    event,
    func,
    insert,
    inspect,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError

metadata = MetaData()
SEED_BITS = 53  # the server's seeds: 0 … 2**53 − 1, the largest integers a browser's JSON number keeps exactly
OLD_SEED_BITS = 31  # a PostgreSQL database made before, whose seed column could not be widened (see Storage)

games_table = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("options", JSON, nullable=False),
    # up to 53 bits (SEED_BITS): BIGINT on PostgreSQL, to which opening an older database widens it
    Column("seed", BigInteger, nullable=True),
    Column("undo", Boolean, nullable=False, default=False),
    Column("imported", Boolean, nullable=False, default=False),
    Column("status", String(16), nullable=False),
    Column("to_move", Integer, nullable=True),
    Column("moves", Integer, nullable=False, default=0),
    Column("winners", JSON, nullable=False),
    Column("scores", JSON, nullable=False),
    Column("created", Float, nullable=False, index=True),
    Column("updated", Float, nullable=False),
)

seats_table = Table(
    "seats",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("name", String(80), nullable=False),
    Column("level", String(16), nullable=True),
    Column("token_hash", String(64), nullable=True),
)

chat_table = Table(
    "chat",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("kind", String(16), nullable=False),  # "text" or "signal"
    Column("text", Text, nullable=False),
    Column("at", String(40), nullable=True),  # a signal's target: a brick or a cell
    Column("time", Float, nullable=False),
)

resignations_table = Table(
    "resignations",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, nullable=False),  # the seat that resigned: the game ended there, its side lost
    Column("time", Float, nullable=False),
)

chosen_seeds_table = Table(
    "chosen_seeds",
    metadata,
    # a game whose creator chose the seed of its chance (the deal, the draws): the creator may know what is to come,
    # so the lobby and the table say so (a table of its own: an older database keeps working, create_all adds it)
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
)

record_tags_table = Table(
    "record_tags",
    metadata,
    # an imported record's own Event and Date, given back in its record (a table of its own, as chosen_seeds)
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("tags", JSON, nullable=False),
)

moves_table = Table(
    "moves",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("ply", Integer, primary_key=True),
    Column("seat", Integer, nullable=True),
    Column("move", Text, nullable=False),
    Column("time", Float, nullable=False),
)

clock_starts_table = Table(
    "clock_starts",
    metadata,
    # when the clock started at move ``ply`` began, kept where an undo took that move back (TowerBrix's challenge 2:
    # the build's clock keeps running through an undo of its first move, a restart included); a table of its own, as
    # chosen_seeds, so an older database keeps working (create_all adds it)
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("ply", Integer, primary_key=True),
    Column("time", Float, nullable=False),
)


rematches_table = Table(
    "rematches",
    metadata,
    # a finished game's rematch (the new game its seats went on to), so a restart keeps it: a friend back after one
    # joins the same new game instead of making a second (a table of its own, as chosen_seeds: create_all adds it)
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("rematch_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), nullable=False, index=True),
)
REMATCH_CHAIN = 100  # earlier games of a rematch whose seats' links still open its seats (an evening's games, and more)


def default_url(create: bool = True) -> str:
    """The SQLite file ``kumiki.db`` in the user's data directory (``$XDG_DATA_HOME/kumiki``), made if missing
    unless ``create`` is false (``kumiki prune`` only reads a database that exists)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    folder = Path(base) / "kumiki"
    if create:
        folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'kumiki.db'}"


def normalise_url(url: str) -> str:
    """Accept ``postgresql://`` and ``postgres://`` as PostgreSQL through psycopg 3."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def hash_token(token: str) -> str:
    """Only a token's hash is stored, so a copy of the database gives no one a seat."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class SeatRow:
    seat: int
    kind: str
    name: str
    level: str | None = None
    token_hash: str | None = None

    def public(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "kind": self.kind, "name": self.name}
        if self.level is not None:
            out["level"] = self.level
        return out


SEAT_FIELDS = [c.name for c in seats_table.c if c.name != "game_id"]
GAME_ID = re.compile(r"[A-Za-z0-9_.~-]{1,128}")  # ids are secrets.token_urlsafe's: anything else names no game


@dataclass
class GameRow:
    id: str
    game: str
    options: dict[str, Any]
    seed: int | None
    undo: bool
    imported: bool
    status: str
    to_move: int | None
    moves: int
    winners: list[int]
    scores: list[float]
    created: float
    updated: float
    seats: list[SeatRow] = field(default_factory=list)
    seed_chosen: bool = False  # the creator chose the seed of a game with chance (chosen_seeds_table)

    def summary(self) -> dict[str, Any]:
        """The game as ``GET /api/games`` lists it (no tokens)."""
        return {
            "id": self.id,
            "game": self.game,
            "options": self.options,
            "status": self.status,
            "created": self.created,
            "updated": self.updated,
            "seats": [s.public() for s in self.seats],
            "moves": self.moves,
            "to_move": self.to_move,
            "winners": self.winners,
            "scores": self.scores,
            "imported": self.imported,
            "undo": self.undo,
            "seed_chosen": self.seed_chosen,
        }


# PostgreSQL's codes for a change refused whatever the moment: a read-only transaction (a standby, a database or role
# with default_transaction_read_only) and a missing privilege.
READ_ONLY_STATES = ("25006", "42501")


def driver_reason(error: DBAPIError) -> str:
    """A database's refusal in the driver's words, its first line (SQLAlchemy's own text adds the statement, its
    parameters and a link)."""
    cause = error.orig if error.orig is not None else error
    text = str(cause).strip()
    return text.splitlines()[0] if text else type(cause).__name__


class Storage:
    """Every database access of the server; each method is one short transaction."""

    def __init__(self, url: str | None = None) -> None:
        self.url = normalise_url(url or default_url())
        self.engine: Engine = self._engine(self.url)
        metadata.create_all(self.engine)  # adds the tables an older database lacks (chosen_seeds, rematches)
        self.max_seed = 2**SEED_BITS - 1  # the largest seed this database keeps
        self.note: str | None = None  # what the operator should know about this database (``kumiki serve`` says it)
        self._widen_seed_column()

    def _widen_seed_column(self) -> None:
        """A database made before seeds took 53 bits has a 32-bit ``games.seed`` on PostgreSQL (INTEGER): widened to
        BIGINT, its seeds kept. SQLite's INTEGER holds 64 bits already: nothing to do there. A role that does not own
        the table may not alter it, and a lock held elsewhere (a dump) would make it wait: then the server keeps
        31-bit seeds and says how to widen the column, rather than not starting or waiting without a word."""
        if self.engine.dialect.name != "postgresql":
            return
        seed = next(c for c in inspect(self.engine).get_columns(games_table.name) if c["name"] == "seed")
        if isinstance(seed["type"], BigInteger):
            return
        try:
            with self.engine.begin() as conn:
                conn.exec_driver_sql("SET LOCAL lock_timeout = '5s'")
                conn.exec_driver_sql(f"ALTER TABLE {games_table.name} ALTER COLUMN seed TYPE BIGINT")
        except DBAPIError as error:
            why = driver_reason(error)
            self.max_seed = 2**OLD_SEED_BITS - 1
            self.note = (
                f"games.seed is 32-bit and could not be widened ({why}): seeds stay below 2**31, which a player could "
                f"search to learn hidden cards; as the table's owner run: ALTER TABLE {games_table.name} ALTER COLUMN "
                "seed TYPE BIGINT"
            )

    @staticmethod
    def _engine(url: str) -> Engine:
        if url.startswith("sqlite"):
            engine = create_engine(url, connect_args={"check_same_thread": False})

            @event.listens_for(engine, "connect")
            def _pragmas(connection: Any, _record: Any) -> None:
                cursor = connection.cursor()
                cursor.execute("PRAGMA journal_mode=WAL")  # committed = on disk, even after kill -9
                cursor.execute("PRAGMA synchronous=NORMAL")
                cursor.execute("PRAGMA foreign_keys=ON")
                cursor.close()

            return engine
        return create_engine(url, pool_pre_ping=True)

    def refuses_writes(self) -> str | None:
        """Why this database refuses every change, in one line, or None: a SQLite file opened or mounted read-only,
        a PostgreSQL in read-only mode, a role without DELETE. Probed with a DELETE that matches no row, rolled back;
        any other refusal (a lock held elsewhere, a server away) passes: it may be gone by the first move. A lock held
        on the table (an ALTER, a VACUUM FULL) is waited for 5 s at most, as when the seed column is widened."""
        try:
            with self.engine.connect() as conn, conn.begin() as transaction:
                if self.engine.dialect.name == "postgresql":
                    conn.exec_driver_sql("SET LOCAL lock_timeout = '5s'")
                conn.execute(delete(games_table).where(games_table.c.id.is_(None)))
                transaction.rollback()
        except DBAPIError as error:
            orig = error.orig
            read_only = str(getattr(orig, "sqlite_errorname", "")).startswith("SQLITE_READONLY")
            if read_only or getattr(orig, "sqlstate", None) in READ_ONLY_STATES:
                return driver_reason(error)
        return None

    def close(self) -> None:
        self.engine.dispose()

    # ------------------------------------------------------------------ writes

    def create_game(
        self,
        row: GameRow,
        moves: Sequence[tuple[int | None, str]] = (),
        resigned: int | None = None,
        tags: Mapping[str, str] | None = None,
        rematch_of: str | None = None,
    ) -> None:
        """Store a new game with its seats, and (an imported record) its moves, the seat that resigned it and the
        record's informational tags; ``rematch_of``: the finished game whose rematch it is."""
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(insert(games_table).values({c.name: getattr(row, c.name) for c in games_table.c}))
            conn.execute(
                insert(seats_table),
                [{"game_id": row.id, **{name: getattr(s, name) for name in SEAT_FIELDS}} for s in row.seats],
            )
            if moves:
                conn.execute(
                    insert(moves_table),
                    [
                        {"game_id": row.id, "ply": k, "seat": seat, "move": text, "time": now}
                        for k, (seat, text) in enumerate(moves)
                    ],
                )
            if resigned is not None:
                conn.execute(insert(resignations_table).values(game_id=row.id, seat=resigned, time=now))
            if row.seed_chosen:
                conn.execute(insert(chosen_seeds_table).values(game_id=row.id))
            if tags:
                conn.execute(insert(record_tags_table).values(game_id=row.id, tags=dict(tags)))
            if rematch_of is not None:
                conn.execute(insert(rematches_table).values(game_id=rematch_of, rematch_id=row.id))

    def add_move(self, game_id: str, ply: int, seat: int | None, move: str, result: dict[str, Any]) -> float:
        """Store move number ``ply`` and the game's new status in one transaction; returns its time."""
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(insert(moves_table).values(game_id=game_id, ply=ply, seat=seat, move=move, time=now))
            conn.execute(update(games_table).where(games_table.c.id == game_id).values(updated=now, **result))
        return now

    def truncate(self, game_id: str, plies: int, result: dict[str, Any], keep_clock: bool = False) -> None:
        """Take back every move from ``plies`` on (undo). ``keep_clock``: move ``plies`` started a clock, which keeps
        running: its start is kept (``clock_start``) for the move played there next. A kept start of a later move
        goes with that move."""
        now = time.time()
        with self.engine.begin() as conn:
            if keep_clock and self._clock_start(conn, game_id, plies) is None:
                started = self._move_time(conn, game_id, plies)
                if started is not None:
                    conn.execute(insert(clock_starts_table).values(game_id=game_id, ply=plies, time=started))
            conn.execute(
                delete(clock_starts_table).where(
                    clock_starts_table.c.game_id == game_id, clock_starts_table.c.ply > plies
                )
            )
            conn.execute(delete(moves_table).where(moves_table.c.game_id == game_id, moves_table.c.ply >= plies))
            conn.execute(update(games_table).where(games_table.c.id == game_id).values(updated=now, **result))

    def resign(self, game_id: str, seat: int, result: dict[str, Any]) -> None:
        """Store that ``seat`` resigned and the game's result (over, the other sides its winners) in one transaction."""
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(insert(resignations_table).values(game_id=game_id, seat=seat, time=now))
            conn.execute(update(games_table).where(games_table.c.id == game_id).values(updated=now, **result))

    def add_chat(self, game_id: str, index: int, seat: int, kind: str, text: str, at: str | None) -> float:
        """Store chat line number ``index`` of a game (a message or a signal); returns its time."""
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(
                insert(chat_table).values(game_id=game_id, idx=index, seat=seat, kind=kind, text=text, at=at, time=now)
            )
        return now

    # ------------------------------------------------------------------ reads

    def chat(self, game_id: str) -> list[dict[str, Any]]:
        """A game's chat in order: ``{"index", "seat", "kind", "text", "at", "time"}`` per line."""
        with self.engine.connect() as conn:
            query = select(chat_table).where(chat_table.c.game_id == game_id).order_by(chat_table.c.idx)
            return [
                {"index": r.idx, "seat": r.seat, "kind": r.kind, "text": r.text, "at": r.at, "time": r.time}
                for r in conn.execute(query)
            ]

    def _rows(self, where: Any = None, limit: int | None = None) -> list[GameRow]:
        with self.engine.connect() as conn:
            query = select(games_table).order_by(games_table.c.created.desc(), games_table.c.id)
            if where is not None:
                query = query.where(where)
            if limit is not None:
                query = query.limit(limit)
            rows = [GameRow(**dict(r._mapping)) for r in conn.execute(query)]
            if rows:
                ids = [r.id for r in rows]
                by_id = {r.id: r for r in rows}
                seats = conn.execute(
                    select(seats_table).where(seats_table.c.game_id.in_(ids)).order_by(seats_table.c.seat)
                )
                for s in seats:
                    m = dict(s._mapping)
                    by_id[m.pop("game_id")].seats.append(SeatRow(**m))
                chosen = select(chosen_seeds_table.c.game_id).where(chosen_seeds_table.c.game_id.in_(ids))
                for game_id in conn.execute(chosen).scalars():
                    by_id[game_id].seed_chosen = True
        return rows

    def game(self, game_id: str) -> GameRow | None:
        if not GAME_ID.fullmatch(game_id):
            return None  # no game has such an id (and PostgreSQL refuses some characters in a query: NUL)
        rows = self._rows(games_table.c.id == game_id)
        return rows[0] if rows else None

    def games(self, limit: int = 20) -> list[GameRow]:
        return self._rows(limit=limit)

    def open_tables(self, game: str | None = None, limit: int = 50) -> list[GameRow]:
        """Games still going with a seat nobody has taken (kind "open"), newest first."""
        with_open_seat = select(seats_table.c.game_id).where(seats_table.c.kind == "open")
        where = games_table.c.id.in_(with_open_seat) & (games_table.c.status == "playing")
        where = where & games_table.c.imported.is_(False)
        if game is not None:
            where = where & (games_table.c.game == game)
        return self._rows(where, limit=limit)

    def claim_seat(self, game_id: str, seat: int, name: str, token_hash: str) -> bool:
        """Make an open seat a human one with this name and token; False if it is not open (any more): of two
        players taking the same seat at once, one wins."""
        with self.engine.begin() as conn:
            query = (
                update(seats_table)
                .where(seats_table.c.game_id == game_id, seats_table.c.seat == seat, seats_table.c.kind == "open")
                .values(kind="human", name=name, token_hash=token_hash)
            )
            return conn.execute(query).rowcount == 1

    def idle_games(self, before: float, finished: bool) -> list[GameRow]:
        """Games last changed before ``before`` (a move, an undo, a resignation; else their creation): the ones
        still going, and with ``finished`` the finished ones too. Oldest change first."""
        where = games_table.c.updated < before
        if not finished:
            where = where & (games_table.c.status == "playing")
        return sorted(self._rows(where), key=lambda row: (row.updated, row.id))

    def delete_games(self, ids: Sequence[str]) -> int:
        """Delete these games with everything stored of them, in one transaction; how many were deleted. The child
        tables are emptied first, so nothing is left behind where a database does not cascade deletes."""
        deleted = 0
        children = (seats_table, chat_table, resignations_table, chosen_seeds_table, record_tags_table, moves_table)
        with self.engine.begin() as conn:
            for start in range(0, len(ids), 500):  # SQLite takes at most so many values in one IN (...)
                chunk = list(ids[start : start + 500])
                conn.execute(delete(rematches_table).where(rematches_table.c.rematch_id.in_(chunk)))
                for table in (*children, clock_starts_table, rematches_table):
                    conn.execute(delete(table).where(table.c.game_id.in_(chunk)))
                deleted += conn.execute(delete(games_table).where(games_table.c.id.in_(chunk))).rowcount
        return deleted

    def playing_ids(self) -> list[str]:
        """Games still going that are not imported records (to resume their agents after a restart)."""
        with self.engine.connect() as conn:
            query = select(games_table.c.id).where(games_table.c.status == "playing", games_table.c.imported.is_(False))
            return [r[0] for r in conn.execute(query)]

    def resume_order(self) -> list[str]:
        """The games still going (``playing_ids``) in the order a start-up brings them back: those whose seat to move
        is a computer's first (it starts thinking again), then the most recently played (last evening's tables before
        the abandoned ones)."""
        agent_to_move = (
            select(seats_table.c.game_id)
            .where(
                seats_table.c.game_id == games_table.c.id,
                seats_table.c.seat == games_table.c.to_move,
                seats_table.c.kind == "agent",
            )
            .exists()
        )
        query = (
            select(games_table.c.id)
            .where(games_table.c.status == "playing", games_table.c.imported.is_(False))
            .order_by(case((agent_to_move, 0), else_=1), games_table.c.updated.desc(), games_table.c.id)
        )
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(query)]

    def computer_games(self, since: float) -> int:
        """How many games still going have no human seat (taken or open) and moved at ``since`` or later: computers
        playing each other (one whose agent failed and stopped moving no longer counts)."""
        human = select(seats_table.c.game_id).where(seats_table.c.kind.in_(("human", "open")))
        query = select(func.count()).where(
            games_table.c.status == "playing",
            games_table.c.imported.is_(False),
            games_table.c.updated >= since,
            games_table.c.id.not_in(human),
        )
        with self.engine.connect() as conn:
            return int(conn.execute(query).scalar_one())

    def resigned(self, game_id: str) -> int | None:
        """The seat that resigned a game, or None (nobody did)."""
        with self.engine.connect() as conn:
            query = select(resignations_table.c.seat).where(resignations_table.c.game_id == game_id)
            found = conn.execute(query).first()
            return None if found is None else int(found[0])

    def record_tags(self, game_id: str) -> dict[str, str]:
        """The informational tags an imported record came with (empty for a game played here)."""
        with self.engine.connect() as conn:
            query = select(record_tags_table.c.tags).where(record_tags_table.c.game_id == game_id)
            found = conn.execute(query).first()
            return {} if found is None else {str(k): str(v) for k, v in found[0].items()}

    def rematch(self, game_id: str) -> str | None:
        """The id of a finished game's rematch, or None (none asked for yet)."""
        with self.engine.connect() as conn:
            query = select(rematches_table.c.rematch_id).where(rematches_table.c.game_id == game_id)
            found = conn.execute(query).first()
            return None if found is None else str(found[0])

    def earlier_tokens(self, game_id: str) -> dict[int, list[str]]:
        """The token hashes of the games this one is a rematch of (the one before it, the one before that, up to
        REMATCH_CHAIN), by seat: a seat's link to an earlier game opens the same seat here (a seat keeps its place in
        a rematch), which is how a restarted server, which never knew the rematch's own links (only their hashes are
        stored), sends a player there with their seat."""
        earlier: dict[int, list[str]] = {}
        seen = {game_id}
        with self.engine.connect() as conn:
            for _ in range(REMATCH_CHAIN):
                query = select(rematches_table.c.game_id).where(rematches_table.c.rematch_id == game_id)
                before = conn.execute(query).scalar()
                if before is None or before in seen:
                    break
                seen.add(before)
                seats = select(seats_table.c.seat, seats_table.c.token_hash).where(seats_table.c.game_id == before)
                for seat, token_hash in conn.execute(seats):
                    if token_hash is not None:
                        earlier.setdefault(int(seat), []).append(str(token_hash))
                game_id = before
        return earlier

    def move_time(self, game_id: str, ply: int) -> float | None:
        """When move number ``ply`` was stored (seconds since the epoch), or None if there is no such move."""
        with self.engine.connect() as conn:
            return self._move_time(conn, game_id, ply)

    def clock_start(self, game_id: str, ply: int) -> float | None:
        """When the clock started by move number ``ply`` began: when that move was stored, or, where an undo took
        back the move that started it (``truncate``), when that one was; None if neither is stored."""
        with self.engine.connect() as conn:
            kept = self._clock_start(conn, game_id, ply)
            return kept if kept is not None else self._move_time(conn, game_id, ply)

    @staticmethod
    def _move_time(conn: Connection, game_id: str, ply: int) -> float | None:
        query = select(moves_table.c.time).where(moves_table.c.game_id == game_id, moves_table.c.ply == ply)
        found = conn.execute(query).first()
        return None if found is None else float(found[0])

    @staticmethod
    def _clock_start(conn: Connection, game_id: str, ply: int) -> float | None:
        table = clock_starts_table
        found = conn.execute(select(table.c.time).where(table.c.game_id == game_id, table.c.ply == ply)).first()
        return None if found is None else float(found[0])

    def moves(self, game_id: str) -> list[tuple[int | None, str]]:
        """Every stored move of a game in order, as (seat, text)."""
        with self.engine.connect() as conn:
            query = select(moves_table.c.seat, moves_table.c.move).where(moves_table.c.game_id == game_id)
            return [(r[0], r[1]) for r in conn.execute(query.order_by(moves_table.c.ply))]
