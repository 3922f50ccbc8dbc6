"""The arena's speed: the process pool and Ray against serial play, and the serial arena's bookkeeping against a
bare loop of the same games through the API.

    python -m bench.arena_speed [--games N]

Targets (issue: the arena): the pool with 2 workers plays ≥ 1.8× the games/s of serial on a CPU-bound study; Ray
(local, 2 CPUs) ≥ 85% of the pool's games/s; the serial arena costs ≤ 10% more than the bare loop. Also an SPRT's
windows of pairs on one pool kept open (``Session``) against the plain way, a pool started for every window.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

from kumiki import arena, load_agent, load_game
from kumiki.agents import parse_agent_spec
from kumiki.arena.backends import Job, Session, execute
from kumiki.arena.schedule import schedule
from kumiki.core.game import Game

POOL_TARGET, RAY_TARGET, BOOKKEEPING_TARGET = 1.8, 0.85, 0.10


def kuzushi_study(name: str, agents: dict[str, str], games: int, seed: int) -> arena.Study:
    """Two-player 6×6 Kuzushi between ``agents``, ``games`` seed blocks."""
    options = {"players": 2, "size": 6}
    return arena.Study(name=name, game="kuzushi", agents=agents, games=games, seed=seed, options=options)


def cpu_bound(games: int) -> arena.Study:
    """MCTS against greedy: every game costs the same order of CPU time, none waits on anything."""
    return kuzushi_study("bench-cpu", {"mcts": "mcts:iterations=60", "greedy": "greedy"}, games, 1)


def light(games: int) -> arena.Study:
    """Greedy against random: short games, so the arena's own costs show."""
    return kuzushi_study("bench-light", {"greedy": "greedy", "random": "random"}, games, 2)


def timed_run(study: arena.Study, backend: str, workers: int | None = None) -> tuple[float, int]:
    """Seconds for the whole study on ``backend`` (in a fresh results folder) and the games played."""
    folder = Path(tempfile.mkdtemp(prefix="kumiki-bench-"))
    try:
        began = time.perf_counter()
        results = arena.run(study, folder / "out", backend=backend, workers=workers)
        return time.perf_counter() - began, len(results)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def bare_loop(study: arena.Study) -> tuple[float, int]:
    """The same games (same seeds, same agents and agent seeds) played through the API with no bookkeeping."""
    specs = list(schedule(study))
    parsed = {name: parse_agent_spec(spec) for name, spec in study.agents.items()}
    games: dict[str, Game] = {}
    began = time.perf_counter()
    for spec in specs:
        key = repr(sorted(spec.options.items()))
        game = games.get(key) or games.setdefault(key, load_game(study.game, **spec.options))
        state = game.new_state(seed=spec.seed)
        agents = [
            load_agent(parsed[name][0], **{**parsed[name][1], "seed": spec.agent_seed(study.seed, seat)})
            for seat, name in enumerate(spec.seats)
        ]
        while not state.over:
            state.play(agents[state.to_move].choose(state))  # type: ignore[index]
    return time.perf_counter() - began, len(specs)


def sprt_windows(study: arena.Study, workers: int, kept: bool) -> tuple[float, int]:
    """Seconds for ``study``'s games played as an SPRT plays them on the pool, window after window of
    ``2 × workers`` pairs: on one pool kept open (``kept``), or on a pool started for every window."""
    specs = list(schedule(study))
    window = 4 * workers  # games: 2 × workers pairs
    job = Job(study.game, dict(study.agents), study.seed, None, False)
    began = time.perf_counter()
    with Session("pool", workers) as session:
        for start in range(0, len(specs), window):
            chunk = specs[start : start + window]
            for _ in execute(job, chunk, "pool", workers, None, session if kept else None):
                pass
    return time.perf_counter() - began, len(specs)


def run(games: int = 60) -> list[tuple[str, float, str]]:
    """Every figure as (what, value, comment)."""
    study = cpu_bound(games)
    serial_s, n = timed_run(study, "serial")
    pool_s, _ = timed_run(study, "pool", 2)
    serial_rate, pool_rate = n / serial_s, n / pool_s
    rows = [
        ("arena serial games/s (mcts:60 vs greedy)", serial_rate, f"{n} games"),
        ("arena pool(2) games/s", pool_rate, f"{pool_rate / serial_rate:.2f}× serial (target ≥ {POOL_TARGET})"),
    ]
    try:
        import ray

        # A running Ray, as on a cluster (`ray start --head` comes before any study): its start-up is not timed.
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
        try:
            ray_s, _ = timed_run(study, "ray", 2)
        finally:
            ray.shutdown()
        ray_rate = n / ray_s
        rows.append(("arena ray(2, local) games/s", ray_rate, f"{ray_rate / pool_rate:.0%} of the pool (target ≥ 85%)"))
    except ImportError:
        rows.append(("arena ray(2, local) games/s", float("nan"), "Ray not installed: pip install 'kumiki[ray]'"))
    small = light(games * 5)
    # the best of three, taken in turns: one run is under a second, and a neighbour's burst of load moved the ratio
    # by up to 20 points (+27 % beside other jobs, +7 to +11 % alone)
    arena_s, bare_s, m = float("inf"), float("inf"), 0
    for _ in range(3):
        took, m = timed_run(small, "serial")
        arena_s = min(arena_s, took)
        bare_s = min(bare_s, bare_loop(small)[0])
    overhead = arena_s / bare_s - 1
    rows.append(("arena serial games/s (greedy vs random)", m / arena_s, f"{m} games"))
    rows.append(("bare API loop games/s, same games", m / bare_s, f"the arena costs {overhead:+.1%} (target ≤ +10%)"))
    kept_s, k = sprt_windows(small, 2, kept=True)
    plain_s, _ = sprt_windows(small, 2, kept=False)
    rows.append(("SPRT windows on pool(2), a pool per window", k / plain_s, "games/s, the plain way"))
    rows.append(("SPRT windows on pool(2), one pool kept", k / kept_s, f"{plain_s / kept_s:.1f}× the plain way"))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.arena_speed", description=__doc__)
    parser.add_argument("--games", type=int, default=60, help="seed blocks of the CPU-bound study (default 60)")
    args = parser.parse_args()
    for what, value, comment in run(args.games):
        print(f"  {what:<44} {value:>10,.2f}   {comment}")


if __name__ == "__main__":
    main()
