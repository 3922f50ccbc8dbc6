"""Checks shared by the tests: a move's notation, a full snapshot of a state, an illegal move, and running the
``kumiki`` command line in this process with plain output."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from collections.abc import Callable, Iterable
from typing import Any

import pytest
from rich.console import Console, RenderableType

import kumiki
from kumiki.cli import main
from kumiki.terminal.play import Seat, Session

CliRunner = Callable[..., tuple[int, str, str]]


class Calls:
    """``function`` wrapped to count its calls (``calls``): for tests that check how often a shortcut falls back to
    the slow way."""

    def __init__(self, function: Callable[..., Any]) -> None:
        self.function = function
        self.calls = 0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        return self.function(*args, **kwargs)


# The worked example of docs/rules/kozo.md: player 0 topples the tower at move 3 (step 1), player 1 at move 6 (step 2).
KOZO_FALLS = """[Game "kozo"]
[Players "2"]
[rounds "2"]

L4 0,0,0 0,0,1 0,0,2 1,0,2 + 1,0,3
I2 2,1,0 2,2,0 + 2,2,1
I3 0,0,3 0,1,3 0,2,3 + 0,2,4
P4 1,0,1 2,0,0 2,0,1 2,1,1 + 1,0,2
I2 0,1,0 0,2,0 + 0,2,1
L4 2,0,2 2,0,3 2,1,2 2,2,2 + 2,2,3
"""


# Kozo's random-size variant, tile draw, seed 1845, one round: after these moves a 4 is drawn with I3, A4 and B4
# left, and neither 4 fits; after one more (KOZO_1845_END, a Z4) a 4 is drawn again, none fits, and the round ends
# with I3 still in the pool (docs/rules/kozo.md, decision o).
KOZO_1845_OPTIONS: dict[str, Any] = {"rounds": 1, "random_size": True, "size_draw": "tile"}
KOZO_1845_MOVES = (
    "V3 1,2,1 2,2,0 2,2,1 + 2,2,2",
    "L4 0,0,0 1,0,0 2,0,0 2,0,1 + 1,0,1",
    "P4 0,0,1 0,0,2 0,1,2 1,0,2 + 1,0,3",
    "U5 2,0,2 2,0,3 2,0,4 2,1,2 2,1,4 + 2,1,5",
    "O4 0,0,3 0,0,4 0,1,3 0,1,4 + 0,0,5",
    "T4 0,0,6 0,1,5 0,1,6 0,1,7 + 0,0,7",
    "I4 2,0,5 2,0,6 2,0,7 2,0,8 + 0,1,8",
    "I2 0,2,0 0,2,1 + 2,0,9",
)
KOZO_1845_END = "Z4 0,2,2 1,2,2 1,2,3 2,2,3 + 0,2,3"


# A person against the computer, and the 3D games each as a table one person opens (TowerBrix alone, solo): the
# browser tests that walk every 3D game take these as their parameters.
ANN_VS_COMPUTER = [{"kind": "human", "name": "ann"}, {"kind": "agent", "level": "random"}]
TABLES_3D = [
    ("blokus3d", ANN_VS_COMPUTER, {}),
    ("kozo", ANN_VS_COMPUTER, {}),
    ("towerbrix", [{"kind": "human", "name": "ann"}], {"players": 1, "mode": "solo"}),
]


def kozo_1845_ended() -> kumiki.State:
    """The seed-1845 game played to its end: the round ended on a size drawn that fits nowhere."""
    state = kumiki.load_game("kozo", **KOZO_1845_OPTIONS).new_state(seed=1845)
    for move in (*KOZO_1845_MOVES, KOZO_1845_END):
        state.play(move)
    return state


def assert_one_line_error(code: int, err: str, *parts: str) -> str:
    """The command failed with exit status 2 and one line (no traceback) on stderr holding each of ``parts``;
    returns that line."""
    assert code == 2, err
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    for part in parts:
        assert part in lines[0], lines[0]
    return lines[0]


def plain_output(monkeypatch: pytest.MonkeyPatch) -> None:
    """No colour, no forced terminal, no debug tracebacks, 100 columns: output as a pipe would get it."""
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "KUMIKI_DEBUG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("COLUMNS", "100")


def cli_runner(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    """A function running ``kumiki ARGS`` in this process with ``stdin``: ``(exit status, stdout, stderr)``."""

    def run(*args: object, stdin: str | bytes = b"") -> tuple[int, str, str]:
        data = stdin.encode() if isinstance(stdin, str) else stdin
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
        capsys.readouterr()
        with pytest.raises(SystemExit) as exit_info:
            main([str(a) for a in args])
        out, err = capsys.readouterr()
        code = exit_info.value.code
        return (code if isinstance(code, int) else 0), out, err

    return run


def play_out(state: kumiki.State, seed: int = 0, moves: int | None = None) -> kumiki.State:
    """Random agents (seat ``i`` seeded ``seed + i``) play ``state`` to its end, or for ``moves`` moves."""
    agents = [kumiki.load_agent("random", seed=seed + seat) for seat in range(state.game.players)]
    played = 0
    while not state.over and (moves is None or played < moves):
        state.play(agents[state.to_move].choose(state))
        played += 1
    return state


def names(moves: Iterable[kumiki.Move]) -> list[str]:
    """Each move in notation."""
    return [str(m) for m in moves]


def snapshot(state: kumiki.State) -> tuple[object, ...]:
    """Everything the protocol shows of a state, to prove a refused move changed nothing."""
    return (
        state.to_json(),
        names(state.history),
        state.to_move,
        getattr(state, "colour_to_move", None),
        state.over,
        state.scores(),
        state.winners(),
        names(state.legal_moves()),
    )


def assert_illegal(
    state: kumiki.State,
    move: object,
    reason: str | None = None,
    exact: str | None = None,
    error: type[kumiki.IllegalMove] = kumiki.IllegalMove,
) -> str:
    """``move`` raises ``error`` (an IllegalMove, so a ValueError) whose message contains ``reason`` (or is ``exact``),
    and leaves the state exactly as it was. Returns the message."""
    before = snapshot(state)
    with pytest.raises(error) as caught:
        state.play(move)  # type: ignore[arg-type]
    assert isinstance(caught.value, kumiki.IllegalMove)
    assert isinstance(caught.value, ValueError)
    message = str(caught.value)
    if exact is not None:
        assert message == exact
    if reason is not None:
        assert reason in message, message
    assert snapshot(state) == before
    return message


QUARTER_X = ((1, 0, 0), (0, 0, -1), (0, 1, 0))
QUARTER_Z = ((0, -1, 0), (1, 0, 0), (0, 0, 1))
Matrix = tuple[tuple[int, int, int], ...]


def _multiply(a: Matrix, b: Matrix) -> Matrix:
    return tuple(tuple(sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)) for i in range(3))


def rotations() -> list[Matrix]:
    """The 24 rotations of a cube as integer matrices (the group the quarter turns about x and z generate), sorted."""
    identity = ((1, 0, 0), (0, 1, 0), (0, 0, 1))
    group, frontier = {identity}, [identity]
    while frontier:
        m = frontier.pop()
        for g in (QUARTER_X, QUARTER_Z):
            p = _multiply(m, g)
            if p not in group:
                group.add(p)
                frontier.append(p)
    return sorted(group)


def race(target: Callable[[Any], None], args: Iterable[Any]) -> None:
    """Run ``target(arg)`` in a thread for each of ``args`` at once, with the interpreter switching threads every
    microsecond (so that a race shows within a test's time), and wait for them all."""
    import threading

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=target, args=(arg,)) for arg in args]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)


def draw(renderable: RenderableType, width: int = 100) -> str:
    """``renderable`` as plain text on a console ``width`` columns wide."""
    out = io.StringIO()
    Console(file=out, width=width, color_system=None, highlight=False).print(renderable)
    return out.getvalue()


def lines_of(renderable: RenderableType) -> list[str]:
    """``renderable`` drawn 100 columns wide, each line without its trailing spaces."""
    return [line.rstrip() for line in draw(renderable).splitlines()]


def scripted(lines: Iterable[str]) -> Callable[[object], str | None]:
    """A reader that answers each prompt with the next line, then None (end of input)."""
    queue = list(lines)

    def read(prompt: object) -> str | None:
        return queue.pop(0) if queue else None

    return read


def session(
    state: kumiki.State, seats: list[Seat], lines: Iterable[str], **kwargs: object
) -> tuple[Session, io.StringIO]:
    """A terminal session on ``state`` reading ``lines``, and the plain 100-column text it prints."""
    out = io.StringIO()
    console = Console(file=out, width=100, highlight=False, color_system=None)
    return Session(state, seats, console, reader=scripted(lines), **kwargs), out


def short_terminal(
    state: kumiki.State, height: int = 24, width: int = 80, humans: int | None = None
) -> tuple[Session, io.StringIO]:
    """A session on a terminal ``width`` x ``height`` (what rich's console finds on a pty of that size), reading
    nothing, and the plain text it prints: the first ``humans`` seats (all when None) humans, the others random."""
    out = io.StringIO()
    console = Console(file=out, width=width, height=height, highlight=False, color_system=None, force_terminal=True)
    humans = state.game.players if humans is None else humans
    seats = [Seat(seat, None if seat < humans else kumiki.load_agent("random")) for seat in range(state.game.players)]
    return Session(state, seats, console, reader=lambda prompt: None), out


def until(page: Any, condition: str) -> None:
    """Wait in a browser test until ``condition`` (JavaScript over the page's test hooks, ``window.__kumiki``) holds.

    Right after a navigation the new page has not defined the hooks yet: the wait reads them only once they exist.
    """
    page.wait_for_function(f"() => window.__kumiki !== undefined && ({condition})")


def one_seat_towerbrix(
    server: Any, pages: Any, options: dict[str, Any], seed: int, ready: str, name: str | None = None
) -> tuple[Any, dict[str, Any]]:
    """A one-player TowerBrix game made on the server with a chosen seed, opened on a page by its seat's invite and
    waited for until ``ready``: (the page, the server's answer)."""
    seat: dict[str, Any] = {"kind": "human", **({"name": name} if name else {})}
    created = server.post("/api/games", {"game": "towerbrix", "seats": [seat], "options": options, "seed": seed})
    page = pages()
    page.goto(server.url + created["seats"][0]["invite"])
    until(page, ready)
    return page, created


def assert_controls_go_at_the_end(page: Any, controls: Iterable[str]) -> None:
    """In a browser test: the move controls (test ids) shown while the game goes on are hidden once the player resigns,
    and the piece tray has no enabled button left."""
    from playwright.sync_api import expect

    controls = list(controls)
    for control in controls:
        expect(page.get_by_test_id(control)).to_be_visible()
    page.get_by_test_id("resign").click()
    page.get_by_test_id("resign-confirm").click()
    until(page, "window.__kumiki.over")
    for control in controls:
        expect(page.get_by_test_id(control)).to_be_hidden()
    expect(page.get_by_test_id("tray").locator("button:enabled")).to_have_count(0)


def play_kuzushi_to_the_end(page: Any, seat: int, limit: int = 60) -> None:
    """In a browser test: click ``seat``'s first legal Kuzushi move whenever it is to move, until the game is over."""
    for _ in range(limit):
        until(page, f"window.__kumiki.over || (window.__kumiki.toMove === {seat} && window.__kumiki.legal > 0)")
        if page.evaluate("window.__kumiki.over"):
            return
        move = page.evaluate("window.__kumiki.legalMoves[0]")
        x, y = re.fullmatch(r"[BF] (-?\d+),(-?\d+)", move).groups()  # type: ignore[union-attr]
        ply = page.evaluate("window.__kumiki.ply")
        page.get_by_test_id(f"cell-{x}-{y}").click()
        until(page, f"window.__kumiki.ply > {ply}")
    raise AssertionError(f"the game did not end in {limit} moves of seat {seat}")


def stop(process: subprocess.Popen[Any], timeout: float = 10.0) -> None:
    """Stop a server a test started: terminate it, and kill it if it has not exited within ``timeout`` seconds."""
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


# A seat's move sent over its own WebSocket, as its page would send it (the page under test only watches).
PLAY_AS = """async ([path, ply, move]) => {
  const ws = new WebSocket(`ws://${location.host}${path}`);
  const next = (done) => new Promise((resolve) => {
    ws.onmessage = (e) => { const m = JSON.parse(e.data); if (done(m)) resolve(m); };
  });
  await next((m) => m.type === 'view');
  ws.send(JSON.stringify({ type: 'move', ply, move }));
  const answer = await next((m) => m.type === 'error' || (m.type === 'view' && m.ply > ply));
  ws.close();
  return answer.type === 'error' ? answer.message : null;
}"""


def play_as(page: Any, invite: str, ply: int, move: str) -> None:
    """In a browser test: play ``move`` at ``ply`` as the seat of ``invite`` (its /game/ link), over its own socket."""
    refused = page.evaluate(PLAY_AS, [invite.replace("/game/", "/ws/games/"), ply, move])
    assert refused is None, refused
