"""OpenSpiel's MCTS against Kumiki's MCTS on Kuzushi, seats swapped every game.

    python examples/openspiel_mcts_vs_kumiki_mcts.py [--games 6] [--simulations 200] [--size 5]

OpenSpiel's bot (its MCTSBot with random rollouts, through the OpenSpiel adapter) is loaded as a Kumiki agent,
``openspiel:mcts``, so the two play through the same Kumiki API; the same could be done in the arena
(``agents = {os = "openspiel:mcts:simulations=200", km = "mcts:iterations=200"}``). About 5 s on one core.
"""

from __future__ import annotations

import argparse

import kumiki


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--simulations", type=int, default=200, help="simulations (OpenSpiel) = iterations (Kumiki)")
    parser.add_argument("--size", type=int, default=5)
    args = parser.parse_args()
    if args.games < 1:
        parser.error("--games must be 1 or more")
    try:  # a bad --size or --simulations: one line, as the kumiki command says it
        game = kumiki.load_game("kuzushi", players=2, size=args.size)
        kumiki.load_agent("openspiel:mcts", simulations=args.simulations)
        kumiki.load_agent("mcts", iterations=args.simulations)
    except ValueError as error:
        parser.error(str(error))
    points = {"openspiel": 0.0, "kumiki": 0.0}
    for number in range(args.games):
        agents = {
            "openspiel": kumiki.load_agent("openspiel:mcts", simulations=args.simulations, seed=number),
            "kumiki": kumiki.load_agent("mcts", iterations=args.simulations, seed=number),
        }
        seats = ["openspiel", "kumiki"] if number % 2 == 0 else ["kumiki", "openspiel"]
        state = game.new_state(seed=number)
        while not state.over:
            assert state.to_move is not None
            state.play(agents[seats[state.to_move]].choose(state))
        winners = state.winners()
        for seat in winners:
            points[seats[seat]] += 1 / len(winners)
        result = " and ".join(seats[w] for w in winners)
        print(f"game {number + 1}: seat 0 {seats[0]}, seat 1 {seats[1]}: {result} won in {len(state.history)} moves")
    print(f"points: OpenSpiel MCTS {points['openspiel']:g}, Kumiki MCTS {points['kumiki']:g} of {args.games}")


if __name__ == "__main__":
    main()
