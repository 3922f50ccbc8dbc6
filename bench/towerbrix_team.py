"""TowerBrix teamwork: four teammate agents, each knowing only its own cards, build one tower together.

A round is a base game with the green deck at medium difficulty (13-19 points), four players, dealt from the seed;
the round counts as completed when its first evaluation succeeds (every card holds, the tower valid) within the
game's edit limit (``max_edits``, default 40). Targets: ≥ 50 % of 50 seeded rounds (issue 6), ≥ 90 % (issue 18);
the share is printed with its 95 % Wilson interval. One process, one core.

The agents count their search in solver steps, not seconds, so a run gives the same figures on any machine under any
load. Some deals are contradictory (e.g. "every vertical brick touches the table" with "at least one vertical brick
does not touch the table"): no team can complete them. ``--ceiling`` also runs the solver on each round's whole
deal, cards face up (``CEILING_STEPS`` steps, with the refutation sweep), and reports the rounds completed among
the feasible deals: those it finds a tower for, and those the team completed (its search may miss a tower).

``--turns free`` plays the rulebook's table (everyone builds at once) the way Kumiki's server asks its computer
teammates (see :func:`play_round`).

Each round's line gives its slowest move (wall time, what a player waits), and the run ends with the slowest move
of all and the moves over 3 s (issue 18's limit for a level; the teammates' default 1500 steps is ``hard``).

``--whole-round`` plays each round to its end as the rules do (a failed attempt is replayed with new cards and 2 points
fewer, up to 3 attempts) and counts the rounds completed within them: the game's own measure, not the issue's.

Run: ``python -m bench.towerbrix_team [--rounds 50] [--iterations 1500] [--ceiling] [--turns free] [--whole-round]``.
"""

from __future__ import annotations

import argparse
import time

import kumiki
from bench.strength import wilson

CEILING_STEPS = 8000
LIMIT = 3.0  # seconds a move of a level may take (issue 18)
move_times: dict[int, list[tuple[float, int]]] = {}  # seed -> (seconds, ply) of each move chosen, as played


def _timed_choice(agent: object, state: object, seed: int) -> object:
    """The agent's move, its wall time kept in ``move_times`` (the agents count steps, not seconds: this is the
    time a player waits)."""
    began = time.perf_counter()
    move = agent.choose(state)  # type: ignore[attr-defined]
    move_times.setdefault(seed, []).append((time.perf_counter() - began, len(state.history)))  # type: ignore[attr-defined]
    return move


def deal(seed: int, max_edits: int = 40, deck: str = "green", turns: str = "cycle") -> tuple[object, object]:
    """(game, state) of the seeded round."""
    game = kumiki.load_game(
        "towerbrix", players=4, mode="base", deck=deck, difficulty="medium", max_edits=max_edits, turns=turns
    )
    return game, game.new_state(seed=seed)


def ceiling(seed: int, deck: str = "green") -> str:
    """The solver's answer on the round's whole deal, cards face up (what a team could reach at best)."""
    from kumiki.games.towerbrix.solver import solve

    game, state = deal(seed, deck=deck)
    cards = [game.cards[c] for hand in state.hands for c in hand]  # type: ignore[attr-defined]
    return solve(cards, "green", iterations=CEILING_STEPS, seed=1).status


def play_round(
    seed: int, iterations: int, max_edits: int, deck: str = "green", turns: str = "cycle", whole: bool = False
) -> tuple[bool, int, int]:
    """(completed, turns, edits) of the first attempt of one seeded round. With ``turns="free"`` the seats are
    asked as Kumiki's server asks computer teammates: in the order of ``actors`` on ``state.acting(seat)``, a move
    that only waits (``state.only_waits``) not played, that seat asked again once the table changes. With ``whole``
    the round is played to its end instead (a failed attempt is replayed with new cards, up to the game's
    ``attempts``): (the round completed, attempts used, edits of its last attempt)."""
    _, state = deal(seed, max_edits, deck, turns)
    agents = [kumiki.load_agent("towerbrix-teammate", iterations=iterations, seed=seed * 10 + p) for p in range(4)]
    waiting: dict[int, int] = {}  # seat -> the ply at which it waits
    while not state.over and not (state.round_success if whole else state.evaluations):  # type: ignore[attr-defined]
        if turns == "cycle":
            state.play(_timed_choice(agents[state.to_move], state, seed))  # type: ignore[attr-defined]
            continue
        ply = len(state.history)  # type: ignore[attr-defined]
        seat = next((s for s in state.actors if waiting.get(s) != ply), None)  # type: ignore[attr-defined]
        if seat is None:  # everyone waits for everyone: the build stalls (counted as a failure)
            return False, ply, sum(1 for move in state.history if str(move) != "ok")  # type: ignore[attr-defined]
        move = _timed_choice(agents[seat], state.acting(seat), seed)  # type: ignore[attr-defined]
        if state.only_waits(move, seat):  # type: ignore[attr-defined]
            waiting[seat] = ply
        else:
            state.play(move, player=seat)  # type: ignore[attr-defined]
    evaluations = state.evaluations  # type: ignore[attr-defined]
    counted = evaluations if whole else evaluations[:1]  # the attempts this call reports on
    began = counted[-2]["moves"] if len(counted) > 1 else 0  # where the last of them began
    edits = sum(1 for move in state.history[began : counted[-1]["moves"]] if str(move) != "ok")  # type: ignore[attr-defined]
    if whole:
        return bool(state.round_success[0]), len(counted), edits  # type: ignore[attr-defined]
    return bool(counted[0]["success"]), counted[0]["moves"], edits


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.towerbrix_team", description=__doc__)
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--first", type=int, default=0, help="the first round's seed")
    parser.add_argument("--iterations", type=int, default=1500, help="each agent's solver steps per plan")
    parser.add_argument("--max-edits", type=int, default=40, help="the game's edit limit per attempt (default 40)")
    parser.add_argument("--ceiling", action="store_true", help="also solve each whole deal, cards face up")
    parser.add_argument("--deck", default="green", help="green, or a deck file played with the green bricks")
    parser.add_argument(
        "--turns", default="cycle", choices=("cycle", "free"), help="free: everyone builds at once, as on the server"
    )
    parser.add_argument(
        "--whole-round",
        action="store_true",
        help="play each round to its end (a failed attempt replayed with new cards, up to 3 attempts, as the rules "
        "replay a failed round): the game's own completed rounds, not issue 18's measure (the first attempt)",
    )
    args = parser.parse_args()
    began = time.monotonic()
    wins = feasible = wins_feasible = 0
    for seed in range(args.first, args.first + args.rounds):
        t = time.monotonic()
        ok, turns, edits = play_round(seed, args.iterations, args.max_edits, args.deck, args.turns, args.whole_round)
        wins += ok
        seen = ""
        if args.ceiling:
            status = ceiling(seed, args.deck)
            feasible += ok or status == "solved"
            wins_feasible += ok
            seen = f"  (whole deal: {status})"
        count = f"{turns} attempt{'s' * (turns != 1)}" if args.whole_round else f"{turns:>3} turns"
        print(
            f"  round {seed:>3}: {'completed' if ok else 'failed':<9} {count} {edits:>2} edits"
            f"  {time.monotonic() - t:5.1f} s  slowest move {max(move_times.get(seed, [(0.0, 0)]))[0]:.2f} s" + seen,
            flush=True,
        )
    share = wins / args.rounds
    low, high = wilson(wins, args.rounds)
    verdicts = ", ".join(f"{target:.0%}: {'ok' if share >= target else 'BELOW'}" for target in (0.5, 0.9))
    reading = (
        "within the game's attempts (the targets are for the first attempt: run without --whole-round)"
        if args.whole_round
        else f"(Wilson 95%; targets {verdicts})"
    )
    print(
        f"four teammates completed {wins}/{args.rounds} green medium rounds = {share:.0%} [{low:.0%}, {high:.0%}]"
        f" {reading}"
    )
    if args.ceiling:
        print(
            f"a tower exists for the whole deal in {feasible}/{args.rounds} rounds (the solver found one, cards face "
            f"up, {CEILING_STEPS} steps, or the team built one); the team completed {wins_feasible}/{feasible}"
            + (f" = {wins_feasible / feasible:.0%}" if feasible else "")
        )
    if move_times:
        took, seed, ply = max((took, seed, ply) for seed, times in move_times.items() for took, ply in times)
        over = [sum(took > LIMIT for took, _ in times) for times in move_times.values()]
        rounds_over = sum(1 for count in over if count)
        print(
            f"slowest move {took:.2f} s (round {seed}, ply {ply}); moves over {LIMIT:.0f} s: {sum(over)}, "
            f"in {rounds_over} round(s) (a move's wall time, one process: the level's limit is {LIMIT:.0f} s)"
        )
    print(f"wall clock {time.monotonic() - began:.0f} s")


if __name__ == "__main__":
    main()
