"""Kozo towers judged in two threads of one process at once: the server does so whenever its start-up walk (or a
client opening a stored game) replays a Kozo game in a thread while the event loop plays, undoes or checks a Kozo
move of another game. Each judgement may solve an LP in HiGHS; one HiGHS instance shared by the whole process and
used by two threads at once crashed the server with a segmentation fault (no traceback, every game dropped): 60
clients playing stored games during a start-up over 400 stored games (260 Kozo) brought it down.
"""

from __future__ import annotations

import random
import subprocess
import sys
import textwrap
import threading

from kumiki.physics.forces import solver


def test_each_thread_has_its_own_solver() -> None:
    found: list[object] = []
    thread = threading.Thread(target=lambda: found.append(solver()))
    thread.start()
    thread.join()
    assert found[0] is not solver()
    assert solver() is solver()  # still one per thread: building one costs more than solving a small LP


def _stored_kozo_games(count: int) -> list[tuple[int, list[str]]]:
    from kumiki import load_game

    rng = random.Random(1)
    games = []
    for seed in range(count):
        state = load_game("kozo", players=2).new_state(seed=seed)
        moves: list[str] = []
        for _ in range(rng.randint(5, 25)):
            legal = state.legal_moves()
            if state.over or not legal:
                break
            move = rng.choice(legal)
            after = state.copy()
            after.play(move)
            if after.over:
                break
            state.play(move)
            moves.append(str(move))
        games.append((seed, moves))
    return games


def test_kozo_games_replayed_in_two_threads_at_once() -> None:
    """In a process of its own: before, it died of SIGSEGV within a second (exit code -11)."""
    script = textwrap.dedent(
        f"""
        import threading, time
        from kumiki.server.agents import replay
        games = {_stored_kozo_games(8)!r}
        stop = time.monotonic() + 3.0
        def walk():
            while time.monotonic() < stop:
                for seed, moves in games:
                    replay("kozo", {{"players": 2}}, seed, moves)
        threads = [threading.Thread(target=walk) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
