"""The FastAPI application: lobby and records over HTTP, play over one WebSocket per game and connection.

The HTTP and WebSocket API is written down in docs/server.md; every refusal is ``{"error": "one line"}`` (HTTP) or
an ``error`` message (WebSocket) and changes nothing. What the new-game form offers is ``catalog``; how a game is made
from a request or a record, ``newgames``; the games in play, ``rooms``.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import functools
import json
import logging
import math
import secrets
import weakref
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Executor
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException as StarletteHTTPException

import kumiki
from kumiki import write_record
from kumiki.core.errors import quoted
from kumiki.core.game import forfeit_winners
from kumiki.core.options import shown
from kumiki.core.records import RESIGNED
from kumiki.server.agents import make_pool, positions
from kumiki.server.catalog import WEB_GAMES, catalog
from kumiki.server.errors import BadRequest
from kumiki.server.hub import Hub
from kumiki.server.limits import Limits
from kumiki.server.newgames import (
    import_record,
    listed,
    new_game,
    record_name,
    seat_name,
)
from kumiki.server.rooms import (
    REPLAY_ERRORS,
    UNAVAILABLE,
    Connection,
    Refusal,
    Unreplayable,
    error_message,
    one_line,
    record_ready,
    refusal_reason,
    unreplayable,
)
from kumiki.server.storage import SeatRow, Storage, hash_token

log = logging.getLogger("kumiki.server")


DIST = Path(kumiki.__file__).parent / "web" / "dist"
# Characters of positions in one replay: each carries the game so far (TowerBrix's evaluations), so a replay grows with
# the square of the moves. A 20-round TowerBrix game of random moves (bench/server_replay.py: 1,868 moves) is 72.7 MB;
# 4,000 oks (2,000 empty evaluations, rounds 20 and attempts 100) would be 1.5 GB.
MAX_REPLAY_BYTES = 128 * 2**20
# Replays built at once: a long one takes seconds of a core and some 200 MB while it is built; six built at once (the
# default thread pool's size) took 680 MB and held every game's event loop up to 1.4 s. Those asked for meanwhile wait.
MAX_REPLAYS = 2
# A replay is sent in pieces of this size, each once the client has taken the one before (uvicorn waits for the socket
# to drain), from one body that every request for the same game at once shares: a slow reader held a copy of the
# whole body (up to MAX_REPLAY_BYTES) in its own buffer, so a few such readers of a long game held gigabytes.
REPLAY_CHUNK = 64 * 2**10
# Games whose replay was refused as too large, remembered (with their moves) so that asking again is refused at once:
# building one up to MAX_REPLAY_BYTES takes a core for seconds (12 s for a 12 kB record of 4,000 TowerBrix oks). About
# 400 bytes each; a client cycling through more of them than this must first import as many (at 2 a second, 9 hours).
MAX_REFUSED_REPLAYS = 2**16
# Records of games that can no longer change (over, or imported), kept once built: each request replayed the stored
# game (a 1,868-move TowerBrix game: 80 ms of a core) and wrote its record again. The newest, up to this many
# characters in all (a record of the longest game the server keeps is under 1 MB); each keyed with its row's status,
# moves and last change, so a game changed or deleted since (``kumiki prune``) is not served from here.
RECORD_CACHE_CHARS = 32 * 2**20
# Replays kept once built (their bytes of positions in all), each keyed with the game's moves and resignation, so a
# game going on is built again once it has moved: a replay was built anew for each request otherwise, and one client
# asking again and again for a long game's (a 765-move game: 12 MiB, 1.2 s of a core each time) kept up to two cores
# busy, a game going on included.
REPLAY_CACHE_BYTES = 64 * 2**20

NO_CLIENT = """<!doctype html><html><head><meta charset="utf-8"><title>Kumiki</title></head><body>
<h1>Kumiki server</h1><p>The server runs, but the browser client is not built. Build it with
<code>cd src/kumiki/web &amp;&amp; npm ci &amp;&amp; npm run build</code> (or run <code>make run</code>).</p>
<p>The API answers at <a href="/api/catalog">/api/catalog</a>.</p></body></html>"""


@dataclasses.dataclass(frozen=True)
class Replay:
    """A game's positions as JSON text (what takes long to build and most memory), with its final scores and
    winners, the side each seat plays for and whether the game is over (by its rules or a resignation)."""

    states: bytes
    scores: list[float]
    winners: list[int]
    teams: list[int]
    over: bool


def compact_json(value: Any) -> str:
    """JSON as the server's JSON answers are written (FastAPI's JSONResponse): no spaces, no NaN, text as is."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def view_change(before: dict[str, bytes], view: dict[str, Any]) -> tuple[bytes, dict[str, bytes]]:
    """A position as a change from the one before it (the replay's ``changes``), given that one's fields as JSON
    text: ``{"set": {...}, "append": {...}, "unset": [...]}``, each part only when not empty: the fields whose value
    is new, the lists that only grew (their new items: TowerBrix's evaluations, which repeated the game so far in
    every position) and the fields gone. Compared as text, so a view sharing lists with the state is read as it was.
    Returns the change and this position's fields as text (the whole view's JSON is ``{"field":text,...}``)."""
    after = {field: compact_json(value).encode() for field, value in view.items()}
    parts: dict[str, list[bytes]] = {"set": [], "append": []}
    for field, text in after.items():
        old = before.get(field)
        if old == text:
            continue
        name = compact_json(field).encode()
        # a list that only grew: its text is the old one's, less the "]", then "," and the new items
        if (
            old is not None
            and old[:1] == b"["
            and len(old) > 2
            and text[len(old) - 1 : len(old)] == b","
            and text.startswith(old[:-1])
        ):
            parts["append"].append(name + b":[" + text[len(old) :])
            continue
        parts["set"].append(name + b":" + text)
    pieces = [b'"' + part.encode() + b'":{' + b",".join(items) + b"}" for part, items in parts.items() if items]
    gone = [field for field in before if field not in after]
    if gone:
        pieces.append(b'"unset":' + compact_json(gone).encode())
    return b"{" + b",".join(pieces) + b"}", after


def view_bytes(fields: dict[str, bytes]) -> int:
    """The bytes of a view's JSON from its fields' texts (as ``view_change`` gives them)."""
    return max(2, 1 + sum(len(compact_json(field).encode()) + 1 + len(text) + 1 for field, text in fields.items()))


def _agent_tag(name: str, level: str | None) -> str:
    """A computer seat in a record: its name, and its level unless the name says it ("easy computer", not "easy
    computer (easy)")."""
    return name if not level or level in name.split() else f"{name} ({level})"


# ---------------------------------------------------------------------------------------------------------- app


class RecordCache:
    """Built records (or replays), one per game (its key's first item, the game's id) with the key it was built for,
    the most recently used kept up to ``chars`` characters (bytes) in all: a game changed since has another key, which
    misses."""

    def __init__(self, chars: int) -> None:
        self.chars = chars
        self.size = 0
        self.texts: collections.OrderedDict[Any, tuple[tuple[Any, ...], Any, int]] = collections.OrderedDict()

    def get(self, key: tuple[Any, ...]) -> Any:
        found = self.texts.get(key[0])
        if found is None or found[0] != key:
            return None
        self.texts.move_to_end(key[0])
        return found[1]

    def put(self, key: tuple[Any, ...], item: Any, size: int | None = None) -> None:
        """Keep ``item`` (``size`` characters; by default its length) for ``key``, the least recently used going."""
        size = len(item) if size is None else size
        if size > self.chars:
            return
        old = self.texts.pop(key[0], None)  # the same game's record, of this or an older version
        self.size += size - (old[2] if old else 0)
        self.texts[key[0]] = (key, item, size)
        while self.size > self.chars:
            self.size -= self.texts.popitem(last=False)[1][2]


def create_app(
    db: str | None = None,
    limits: Limits | None = None,
    pool_factory: Callable[[], Executor] = make_pool,
) -> FastAPI:
    """The server: ``db`` is a SQLAlchemy URL (default: SQLite in the user's data directory)."""
    limits = limits or Limits()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub = Hub(Storage(db), pool_factory, agent_pace=limits.agent_pace)
        app.state.hub = hub
        app.state.replays = asyncio.Semaphore(MAX_REPLAYS)
        app.state.replay_bodies = weakref.WeakValueDictionary()  # kept while a request builds or sends one
        app.state.replays_refused = {}  # game id -> (its moves' hash, the 413's line): replays refused as too large
        app.state.records = RecordCache(RECORD_CACHE_CHARS)
        app.state.replays_kept = RecordCache(REPLAY_CACHE_BYTES)  # their bodies, so ``replay_bodies`` finds them
        hub.start_resume()  # the games still going come back in the background: the server answers at once
        try:
            yield
        finally:
            await hub.close()

    app = FastAPI(title="Kumiki", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    # answers of 1 kB or more gzipped for a client that asks (every browser): JSON and the client's script shrink
    # four to twenty times (a long TowerBrix game's replay page: 824 kB of changes sent as 41 kB); WebSockets are left
    # to their own permessage-deflate. Level 6, not Starlette's 9: on the event loop, the 72.6 MB of a long game's
    # positions took 5.2 s of a core at 9 (4.36 MB), 1.7 s at 6 (4.57 MB)
    app.add_middleware(GZipMiddleware, minimum_size=1000, compresslevel=6)

    def hub_of(request: Request | WebSocket) -> Hub:
        hub: Hub = request.app.state.hub
        return hub

    @app.exception_handler(BadRequest)
    async def _bad_request(_request: Request, error: BadRequest) -> JSONResponse:
        return JSONResponse({"error": error.message}, status_code=error.status, headers=error.headers)

    @app.exception_handler(DBAPIError)
    async def _database_away(_request: Request, error: DBAPIError) -> JSONResponse:
        """The database is down, restarting or locked: one line and 503, not a bare 500 (nothing was changed)."""
        log.error("the database refused a request: %s", refusal_reason(error))
        return JSONResponse({"error": UNAVAILABLE}, status_code=503, headers={"Retry-After": "5"})

    @app.exception_handler(Unreplayable)
    async def _unreplayable(_request: Request, error: Unreplayable) -> JSONResponse:
        return JSONResponse({"error": str(error)}, status_code=409)

    @app.exception_handler(RequestValidationError)
    async def _bad_parameter(_request: Request, error: RequestValidationError) -> JSONResponse:
        """A query or path parameter of the wrong type: one line, as every other refusal (not FastAPI's 422)."""
        problem = error.errors()[0] if error.errors() else {}
        where = ".".join(str(part) for part in problem.get("loc", ()) if part not in ("query", "path", "body"))
        given = problem.get("input")
        message = f"{where or 'a parameter'}: {problem.get('msg', 'is not valid')}"
        if given is not None and not isinstance(given, (dict, list)):
            message += f", not {str(given)[:40]!r}"
        return JSONResponse({"error": message}, status_code=400)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_request: Request, error: StarletteHTTPException) -> JSONResponse:
        """Starlette's own refusals (no such route, a method not allowed) in the API's shape."""
        message = error.detail if isinstance(error.detail, str) else "refused"
        if error.status_code == 404:
            message = "no such page or API endpoint"
        return JSONResponse({"error": message}, status_code=error.status_code, headers=error.headers)

    async def read_body(request: Request, limit: int) -> bytes:
        declared = request.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            raise BadRequest(f"the request is too large (at most {limit} bytes)", 413)
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > limit:
                raise BadRequest(f"the request is too large (at most {limit} bytes)", 413)
        return body

    async def read_json(request: Request) -> Any:
        """The request's body as JSON (at most ``limits.body_bytes``), or one line saying it is not JSON."""
        raw = await read_body(request, limits.body_bytes)
        try:
            return json.loads(raw)
        except (ValueError, RecursionError):
            raise BadRequest("the request body is not valid JSON") from None

    def rate(request: Request) -> None:
        address = request.client.host if request.client else "?"
        if not limits.allow_http(address):
            seconds = max(1, math.ceil(1.0 / limits.http_rate))
            raise BadRequest("too many requests: wait a moment and try again", 429, {"Retry-After": str(seconds)})

    async def summary(request: Request, game_id: str) -> dict[str, Any]:
        hub = hub_of(request)
        row = await hub.read(hub.storage.game, game_id)  # (every read of the database off the event loop: Hub.read)
        if row is None:
            raise BadRequest(f"no game {quoted(game_id)}", 404)
        return listed(row)

    @app.get("/api/catalog")
    async def get_catalog() -> dict[str, Any]:
        return catalog()

    @app.get("/api/version")
    async def get_version() -> dict[str, Any]:
        return {"version": kumiki.__version__}

    @app.post("/api/games")
    async def post_game(request: Request) -> dict[str, Any]:
        rate(request)
        body = await read_json(request)
        hub = hub_of(request)
        # off the event loop: setting the game up (a Kozo game works out every placement of every piece, 25-40 ms;
        # the first of a kind after a start imports and warms its modules, 0.5 s) and storing it, then its room
        # loaded as a stored game's is; on the event loop each new game held every other game still meanwhile
        answer = await asyncio.get_running_loop().run_in_executor(None, new_game, hub.storage, body)
        room = await hub.open_room(answer["id"])
        if room is not None:
            room.start_agents()  # an agent seat that moves first starts thinking at once
            hub.release(room)  # kept only while an agent thinks
        return answer

    @app.get("/api/games")
    async def list_games(request: Request, limit: Annotated[int, Query(ge=1)] = 20) -> dict[str, Any]:
        limit = min(limit, 200)  # more is asked for a long list: the longest one it gives (a zero or less is refused)
        hub = hub_of(request)
        return {"games": [listed(row) for row in await hub.read(hub.storage.games, limit)]}

    @app.get("/api/tables")
    async def open_tables(request: Request, game: str | None = None) -> dict[str, Any]:
        """The lobby's open tables: games going on with a seat anyone may take (``free``)."""
        if game is not None and game not in WEB_GAMES:
            raise BadRequest(f"unknown game {quoted(game)} (games: {', '.join(WEB_GAMES)})")
        tables = []
        hub = hub_of(request)
        for row in await hub.read(hub.storage.open_tables, game):
            tables.append({**listed(row), "free": [s.seat for s in row.seats if s.kind == "open"]})
        return {"tables": tables}

    @app.post("/api/games/{game_id}/join")
    async def join(request: Request, game_id: str) -> dict[str, Any]:
        """Take an open seat: ``{"seat": k, "name": "..."}`` gives that seat's own invite (its token, once)."""
        rate(request)
        body = await read_json(request)
        if not isinstance(body, dict) or set(body) - {"seat", "name"}:
            raise BadRequest('the request body is {"seat": k, "name": "your name"}')
        seat = body.get("seat")
        hub = hub_of(request)
        row = await hub.read(hub.storage.game, game_id)
        if row is None:
            raise BadRequest(f"no game {quoted(game_id)}", 404)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(row.seats):
            raise BadRequest(f'"seat" must be a seat number from 0 to {len(row.seats) - 1}')
        if row.status != "playing":
            raise BadRequest("this game is over: its seats can no longer be taken", 409)
        name = seat_name(body.get("name"), seat)
        token = secrets.token_urlsafe(24)
        if not await hub.write(hub.storage.claim_seat, game_id, seat, name, hash_token(token)):
            raise BadRequest(f"seat {seat} is not open (someone has taken it): choose another table or seat", 409)
        await hub.seat_taken(game_id, SeatRow(seat, "human", name, None, hash_token(token)))
        return {"seat": seat, "name": name, "token": token, "invite": f"/game/{game_id}?token={token}"}

    @app.get("/api/games/{game_id}")
    async def get_game(request: Request, game_id: str) -> dict[str, Any]:
        return await summary(request, game_id)

    @app.get("/api/games/{game_id}/record")
    async def get_record(request: Request, game_id: str) -> Response:
        hub = hub_of(request)
        row = await hub.read(hub.storage.game, game_id)
        if row is None:
            raise BadRequest(f"no game {quoted(game_id)}", 404)
        records: RecordCache = request.app.state.records
        key = (game_id, row.status, row.moves, row.updated)
        headers = {"Content-Disposition": f'attachment; filename="kumiki-{row.game}-{game_id}.kmk"'}
        cached = records.get(key)
        if cached is not None:
            return PlainTextResponse(cached, headers=headers)
        rate(request)  # a record built anew replays the game: counted as a game's creation is
        room = await hub.open_room(game_id)
        if room is None:
            raise BadRequest(f"no game {quoted(game_id)}", 404)
        try:
            state = room.state
            if not record_ready(room.over, room.row.imported, state.game.has_chance()):
                raise BadRequest(
                    "the record of this game is given once it ends: its seed tells the hidden cards and the draws to "
                    "come",
                    409,
                )
            tags = {
                f"Player{s.seat}": record_name(s.name, s.seat) if s.kind != "agent" else _agent_tag(s.name, s.level)
                for s in room.row.seats
            }  # (a name stored before names were cleaned may hold a control character no record line can)
            # a resignation is no rule: [Resigned] says who gave the game up, and the Result is every other side
            ended = {} if room.resigned is None else {RESIGNED: room.resigned}
            try:
                kept = await hub.read(hub.storage.record_tags, game_id) if room.row.imported else {}
                event = {"Event": f"kumiki web game {game_id}", **kept}
                text = write_record(room.state, {**event, **tags, **ended})
            except ValueError as error:  # a game stored before its options were checked for one line
                raise BadRequest(f"this game has no record: {one_line(error)}", 409) from None
            if room.resigned is not None:  # and a comment after the last move says it to a reader
                winners = " ".join(map(str, room.winners())) or "none"
                text += f"# seat {room.resigned} ({tags[f'Player{room.resigned}']}) resigned; winners: {winners}\n"
            final = room.over or room.row.imported  # nothing changes it any more
        finally:
            hub.release(room)
        if final and len(state.history) == row.moves:  # (and the row read above is the one it was built from)
            records.put(key, text)
        return PlainTextResponse(text, headers=headers)

    @app.post("/api/records")
    async def post_record(request: Request) -> dict[str, Any]:
        rate(request)
        raw = await read_body(request, limits.record_bytes)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise BadRequest("a record is UTF-8 text") from None
        # off the event loop: replaying a record of up to 5,000 moves held every other game still meanwhile
        return await asyncio.get_running_loop().run_in_executor(None, import_record, hub_of(request).storage, text)

    @app.get("/api/games/{game_id}/replay")
    async def get_replay(request: Request, game_id: str, changes: bool = False) -> Response:
        hub = hub_of(request)
        row = await hub.read(hub.storage.game, game_id)
        if row is None:
            raise BadRequest(f"no game {quoted(game_id)}", 404)
        resigned = await hub.read(hub.storage.resigned, game_id)  # before the moves: a resignation adds none
        stored = await hub.read(hub.storage.moves, game_id)
        texts = [text for _seat, text in stored]
        movers = [seat for seat, _text in stored]

        def views() -> Replay:
            """The positions as one JSON list, each view encoded once as it is made (only its text is kept: a
            long game's views as objects took many times its text's memory, and encoding them again on the event
            loop held every game still)."""
            encoded: list[bytes] = []
            size = 0
            fields: dict[str, bytes] = {}
            try:
                for state in positions(row.game, row.options, row.seed, texts, movers):
                    if changes:  # each position as its change from the one before: what its view would be is counted
                        change, fields = view_change(fields, state.public_view())
                        encoded.append(change)
                        size += view_bytes(fields)
                    else:
                        encoded.append(compact_json(state.public_view()).encode())
                        size += len(encoded[-1])  # each position repeats what came before (evaluations)
                    if size > MAX_REPLAY_BYTES:
                        raise BadRequest(
                            f"this game's replay is too large to send (over {MAX_REPLAY_BYTES // 2**20} MiB of "
                            f"positions by move {len(encoded) - 1}): its record replays it",
                            413,
                        )
            except REPLAY_ERRORS as error:  # IllegalMove included: stored under other rules
                raise unreplayable(game_id, error) from None
            winners = state.winners() if resigned is None else forfeit_winners(state, resigned)
            over = state.over or resigned is not None
            return Replay(b"[" + b",".join(encoded) + b"]", state.scores(), winners, state.teams(), over)

        async def build() -> Replay:
            # a long game's views take a while to build: in a thread, so every other game goes on meanwhile
            async with request.app.state.replays:
                return await asyncio.get_running_loop().run_in_executor(None, views)

        # asked for again while it is built or sent (a reload, many spectators): built once, one body for all
        # (the positions as changes kept apart from the whole ones: the first of the key, a game's, is kept once)
        key = ((game_id, "changes") if changes else game_id, resigned, tuple(stored))
        refused: dict[str, tuple[int, str]] = request.app.state.replays_refused
        known = refused.get(game_id)
        if known is not None and known[0] == hash(key[1:]):
            raise BadRequest(known[1], 413)  # too large when last built, and the game has not changed since
        bodies: weakref.WeakValueDictionary[Any, Any] = request.app.state.replay_bodies
        shared = bodies.get(key)
        if shared is None:
            shared = bodies[key] = asyncio.ensure_future(build())
        try:
            built: Replay = await asyncio.shield(shared)
        except BadRequest as error:  # too large: seconds of a core each time it is built, so refused at once again
            if len(refused) >= MAX_REFUSED_REPLAYS:
                del refused[next(iter(refused))]
            refused[game_id] = (hash(key[1:]), error.message)
            raise
        # kept, the most recently asked for first: a game going on too (a 765-move game's, asked for again and again,
        # kept a core busy), keyed by its moves and resignation, so that a new move (or an undo) misses and builds anew
        request.app.state.replays_kept.put(key, shared, len(built.states))
        rest = {
            "game": row.game,
            "options": row.options,
            "players": [s.public() for s in row.seats],
            "moves": texts,
            "movers": movers,
            "scores": built.scores,
            "winners": built.winners,
            "teams": built.teams,
            "over": built.over,
            "resigned": resigned,
            "chat": await hub.read(hub.storage.chat, game_id),
        }
        head = (compact_json(rest)[:-1] + (',"changes":' if changes else ',"states":')).encode()

        async def pieces() -> AsyncIterator[bytes | memoryview]:
            # holds ``shared``: the body stays in ``bodies`` until the last request sending it is done
            yield head
            body = memoryview(shared.result().states)
            for start in range(0, len(body), REPLAY_CHUNK):
                yield body[start : start + REPLAY_CHUNK]
            yield b"}"

        length = len(head) + len(built.states) + 1
        return StreamingResponse(pieces(), media_type="application/json", headers={"content-length": str(length)})

    @app.get("/api/games/{game_id}/chat")
    async def get_chat(request: Request, game_id: str) -> list[dict[str, Any]]:
        hub = hub_of(request)
        if await hub.read(hub.storage.game, game_id) is None:
            raise BadRequest(f"no game {quoted(game_id)}", 404)
        chat: list[dict[str, Any]] = await hub.read(hub.storage.chat, game_id)
        return chat

    @app.api_route("/api/{rest:path}", methods=["GET", "POST", "PUT", "DELETE", "PATCH"])
    async def no_api(rest: str) -> None:
        raise BadRequest(f"no such API endpoint: /api/{rest}", 404)

    # ------------------------------------------------------------------ WebSocket

    @app.websocket("/ws/games/{game_id}")
    async def play(websocket: WebSocket, game_id: str, token: str | None = None) -> None:
        await websocket.accept()
        address = websocket.client.host if websocket.client else "?"
        if not limits.open_socket(address):
            message = f"at most {limits.sockets_per_address} connections at once from one address"
            await websocket.send_text(error_message("too_many_connections", message))
            await websocket.close(4429)
            return
        try:
            await _connected(websocket, game_id, token, address)
        finally:
            limits.close_socket(address)

    async def _connected(websocket: WebSocket, game_id: str, token: str | None, address: str) -> None:
        """A connection counted against its address's limit: the game's messages until it closes."""

        def allowed() -> bool:
            """A rematch's new game counts against the address's game creations as ``POST /api/games`` does."""
            return limits.allow_http(address)

        try:
            room = await hub_of(websocket).open_room(game_id)
        except Unreplayable as error:
            await websocket.send_text(error_message("unreplayable", str(error)))
            await websocket.close(4409)
            return
        except DBAPIError:  # the database is away: the page tries again later
            await websocket.send_text(error_message("unavailable", UNAVAILABLE))
            await websocket.close(4503)
            return
        if room is None:
            await websocket.send_text(error_message("not_found", f"no game {quoted(game_id)}"))
            await websocket.close(4404)
            return
        try:
            seat = room.seat_for_token(token)
        except Refusal as refusal:
            hub_of(websocket).release(room)
            await websocket.send_text(error_message(refusal.code, refusal.message))
            await websocket.close(4403)
            return
        connection = Connection(seat, token if seat is not None else None)
        sender = asyncio.get_running_loop().create_task(_sender(websocket, connection))
        room.join(connection)
        bucket = limits.ws_bucket()
        try:
            while not sender.done():
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                data = message.get("text")
                if data is None:
                    data = (message.get("bytes") or b"").decode("utf-8", "replace")
                if not bucket.take():
                    connection.send(error_message("rate_limited", "too many messages: slow down"))
                    continue
                if len(data.encode()) > limits.message_bytes:
                    connection.send(error_message("too_large", f"a message is at most {limits.message_bytes} bytes"))
                    continue
                await _handle(room, connection, data, allowed)
        except WebSocketDisconnect:
            pass
        finally:
            room.leave(connection)
            for task in list(connection.tasks):  # a hint still queued for the pool is taken out: nobody reads it
                task.cancel()
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender
            hub_of(websocket).release(room)

    # ------------------------------------------------------------------ the page

    def page() -> Response:
        index = DIST / "index.html"
        if index.is_file():
            return FileResponse(index, headers={"Cache-Control": "no-cache"})
        return HTMLResponse(NO_CLIENT)

    @app.get("/", include_in_schema=False)
    async def home() -> Response:
        return page()

    @app.get("/game/{game_id}", include_in_schema=False)
    async def game_page(game_id: str) -> Response:
        return page()

    @app.get("/play/{name}", include_in_schema=False)
    async def about_page(name: str) -> Response:
        return page()

    @app.get("/replay/{game_id}", include_in_schema=False)
    async def replay_page(game_id: str) -> Response:
        return page()

    if (DIST / "assets").is_dir():
        app.mount("/assets", StaticFiles(directory=DIST / "assets"), name="assets")
    if (DIST / "cards").is_dir():  # the lobby's pictures of the games
        app.mount("/cards", StaticFiles(directory=DIST / "cards"), name="cards")
    for extra in ("favicon.ico", "favicon.svg"):
        if (DIST / extra).is_file():
            target = DIST / extra

            @app.get(f"/{extra}", include_in_schema=False)
            async def _file(target: Path = target) -> Response:
                return FileResponse(target)

    return app


async def _sender(websocket: WebSocket, connection: Connection) -> None:
    """Send a connection's messages in order; stops at None (closed or too slow)."""
    while True:
        text = await connection.next()
        if text is None:
            with contextlib.suppress(Exception):
                await websocket.close()
            return
        await websocket.send_text(text)


async def _hint(room: Any, connection: Connection) -> None:
    """A ``hint`` answered (or refused, in one line) when it is worked out, beside the connection's other messages."""
    try:
        connection.send(await room.hint(connection.seat))
    except Refusal as refusal:
        connection.send(error_message(refusal.code, refusal.message, "hint"))
    except (ValueError, OverflowError) as error:
        connection.send(error_message("hint_failed", one_line(error), "hint"))


async def _handle(room: Any, connection: Connection, data: str, allowed: Callable[[], bool]) -> None:
    """One client message: a move, an undo or a sync; every refusal is an error message (then a view). A rematch
    makes a new game only where ``allowed()`` (the address's rate of new games)."""
    try:
        message = json.loads(data)
    except (ValueError, RecursionError):
        connection.send(error_message("bad_message", "the message is not valid JSON"))
        return
    if not isinstance(message, dict):
        connection.send(error_message("bad_message", 'a message is a JSON object, e.g. {"type": "sync"}'))
        return
    kind = message.get("type")
    try:
        if kind == "move":
            await room.human_move(connection.seat, message.get("ply"), message.get("move"))
        elif kind == "undo":
            await room.undo(connection.seat)
        elif kind == "sync":
            connection.send(room.view_message(connection.seat))
        elif kind == "why":
            connection.send(room.why(connection.seat, message.get("move")))
        elif kind == "hint":  # worked out in the pool, seconds maybe: the connection's next move is not held up
            task = asyncio.get_running_loop().create_task(_hint(room, connection))
            connection.tasks.add(task)
            task.add_done_callback(connection.tasks.discard)
        elif kind == "resign":
            await room.resign(connection.seat)
        elif kind == "rematch":
            create = functools.partial(new_game, room.hub.storage, rematch_of=room.row.id)
            await room.play_again(connection.seat, create, allowed)
            fresh = await room.hub.open_room(room.rematch["id"]) if room.rematch else None  # off the event loop
            if fresh is not None:
                fresh.start_agents()  # an agent seat that moves first starts thinking at once
                room.hub.release(fresh)
        elif kind == "chat":
            await room.say(connection.seat, "text", message.get("text"))
        elif kind == "signal":
            await room.say(connection.seat, "signal", message.get("signal"), message.get("at"))
        else:
            raise Refusal(
                "bad_message",
                f"unknown message type {shown(kind)} "
                '(types: "move", "undo", "sync", "why", "hint", "chat", "signal", "rematch", "resign")',
            )
    except Refusal as refusal:
        connection.send(error_message(refusal.code, refusal.message))
        if kind in ("move", "undo"):
            connection.send(room.view_message(connection.seat))
    except BadRequest as error:  # a rematch the lobby refuses (e.g. a level this server no longer offers)
        connection.send(error_message("refused", error.message))
    except (ValueError, OverflowError) as error:  # an engine's refusal that is not an IllegalMove: one line, no trace
        connection.send(error_message("illegal", one_line(error)))
        if kind in ("move", "undo"):
            connection.send(room.view_message(connection.seat))
    except DBAPIError as error:  # the database is away (restarting, locked): nothing changed, and the page says so
        log.error("game %s: the database did not store a %s (%s)", room.row.id, shown(kind), refusal_reason(error))
        connection.send(error_message("unavailable", UNAVAILABLE))
        if kind in ("move", "undo"):
            connection.send(room.view_message(connection.seat))
