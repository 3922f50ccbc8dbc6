"""TowerBrix teamwork: four teammate agents, each knowing only its own cards, build one tower together.

A round is a base game with the green deck at medium difficulty (13-19 points), four players, dealt from the seed;
the round counts as completed when its first evaluation succeeds (every card holds, the tower valid) within the
game's edit limit. Target: ≥ 50 % of 50 seeded rounds. One process, one core.

Many deals of seven cards are contradictory (e.g. "every vertical brick touches the table" with "at least one
vertical brick does not touch the table"): no team can complete them. ``--ceiling`` also runs the solver on each
round's whole deal, cards face up, for 5 s, and reports in how many rounds a tower exists at all as far as it finds.

Run: ``python -m bench.towerbrix_team [--rounds 50] [--seconds 1.0] [--ceiling]``.
"""

from __future__ import annotations

import argparse
import time

import kumiki


def ceiling(seed: int) -> str:
    """The solver's answer on the round's whole deal, cards face up (what a team could reach at best)."""
    from kumiki.games.towerbrix.solver import solve

    game = kumiki.load_game("towerbrix", players=4, mode="base", deck="green", difficulty="medium")
    state = game.new_state(seed=seed)
    return solve([game.cards[c] for hand in state.hands for c in hand], "green", seconds=5.0, seed=1).status


def play_round(seed: int, seconds: float, max_edits: int) -> tuple[bool, int]:
    """(completed, turns) of the first attempt of one seeded round."""
    game = kumiki.load_game("towerbrix", players=4, mode="base", deck="green", difficulty="medium", max_edits=max_edits)
    state = game.new_state(seed=seed)
    agents = [kumiki.load_agent("towerbrix-teammate", seconds=seconds, seed=seed * 10 + p) for p in range(4)]
    while not state.over and not state.to_json()["evaluations"]:
        state.play(agents[state.to_move].choose(state))
    first = state.to_json()["evaluations"][0]
    return bool(first["success"]), len(state.history)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.towerbrix_team", description=__doc__)
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=1.0, help="each agent's solver time per plan")
    parser.add_argument("--max-edits", type=int, default=40, help="the game's edit limit per attempt (default 40)")
    parser.add_argument("--ceiling", action="store_true", help="also solve each whole deal, cards face up (5 s)")
    args = parser.parse_args()
    began = time.monotonic()
    wins = 0
    solvable = 0
    for seed in range(args.rounds):
        t = time.monotonic()
        ok, turns = play_round(seed, args.seconds, args.max_edits)
        wins += ok
        seen = ""
        if args.ceiling:
            status = ceiling(seed)
            solvable += status == "solved"
            seen = f"  (whole deal: {status})"
        print(
            f"  round {seed:>3}: {'completed' if ok else 'failed':<9} {turns:>3} turns  {time.monotonic() - t:5.1f} s"
            + seen,
            flush=True,
        )
    share = wins / args.rounds
    verdict = "ok" if share >= 0.5 else "BELOW TARGET"
    print(f"four teammates completed {wins}/{args.rounds} green medium rounds = {share:.0%} (target 50%: {verdict})")
    if args.ceiling:
        print(f"the solver found a tower for the whole deal (cards face up, 5 s) in {solvable}/{args.rounds} rounds")
    print(f"wall clock {time.monotonic() - began:.0f} s")


if __name__ == "__main__":
    main()
