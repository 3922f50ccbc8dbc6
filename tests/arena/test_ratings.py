"""Ratings, seat terms and the SPRT, checked against hand computations and against choix on small examples."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from kumiki.arena.ratings import ELO, Events, bootstrap, rate, seat_advantage
from kumiki.arena.sprt import bounds, expected_score, llr, pair_bin, sprt_state
from kumiki.arena.study import Sprt

choix = pytest.importorskip("choix")
NO_PRIOR = 1e-12


def game(block: int, seats: list[str], ranks: list[int], teams: list[int] | None = None) -> dict[str, Any]:
    winners = [i for i, r in enumerate(ranks) if r == 1]
    return {
        "block": block,
        "seats": seats,
        "ranks": ranks,
        "winners": winners,
        "teams": teams or list(range(len(seats))),
    }


def two_player(wins_a: int, wins_b: int, draws: int) -> list[dict[str, Any]]:
    """Games between a and b, half with a in seat 0, each result equally often in each seat order."""
    rows = []
    for n, ranks in ((wins_a, (1, 2)), (wins_b, (2, 1)), (draws, (1, 1))):
        for i in range(n):
            if i % 2 == 0:
                rows.append(game(len(rows), ["a", "b"], [ranks[0], ranks[1]]))
            else:
                rows.append(game(len(rows), ["b", "a"], [ranks[1], ranks[0]]))
    return rows


def test_bradley_terry_matches_the_closed_form() -> None:
    fit = Events(two_player(30, 10, 0), ["a", "b"]).fit(prior=NO_PRIOR)
    assert fit.skills[0] - fit.skills[1] == pytest.approx(400 * math.log10(30 / 10), abs=0.01)  # 190.85
    assert fit.seats == pytest.approx([0, 0], abs=0.01)


def test_a_draw_is_half_a_win_each_way() -> None:
    fit = Events(two_player(20, 10, 10), ["a", "b"]).fit(prior=NO_PRIOR)
    assert fit.skills[0] - fit.skills[1] == pytest.approx(400 * math.log10(25 / 15), abs=0.01)  # 88.7
    even = Events(two_player(10, 10, 20), ["a", "b"]).fit(prior=NO_PRIOR)
    assert even.skills == pytest.approx([0, 0], abs=1e-6)


def test_bradley_terry_agrees_with_choix() -> None:
    rng = np.random.default_rng(3)
    agents = ["a", "b", "c", "d"]
    strength = np.array([1.0, 0.3, -0.2, -1.1])
    rows, pairs = [], []
    for block in range(400):
        i, j = rng.choice(4, 2, replace=False)
        win = rng.random() < 1 / (1 + math.exp(strength[j] - strength[i]))
        for seats in ((i, j), (j, i)):  # both seat orders with the same result: no seat effect
            ranks = [1, 2] if (seats[0] == i) == win else [2, 1]
            rows.append(game(block, [agents[s] for s in seats], ranks))
            pairs.append((i, j) if win else (j, i))
    ours = Events(rows, agents).fit(prior=NO_PRIOR).skills
    theirs = choix.opt_pairwise(4, pairs, alpha=1e-9)
    assert ours == pytest.approx((theirs - theirs.mean()) * ELO, abs=0.5)


def test_plackett_luce_agrees_with_choix_on_finishing_orders() -> None:
    rng = np.random.default_rng(5)
    agents = ["a", "b", "c"]
    utility = np.array([0.8, 0.0, -0.6])
    rows, rankings = [], []
    for block in range(300):
        weights = np.exp(utility)
        order = []
        left = [0, 1, 2]
        while left:
            p = weights[left] / weights[left].sum()
            pick = left[rng.choice(len(left), p=p)]
            order.append(pick)
            left.remove(pick)
        place = {agent: k + 1 for k, agent in enumerate(order)}
        for r in range(3):  # every rotation with the same order: no seat effect
            seats = [agents[(s + r) % 3] for s in range(3)]
            rows.append(game(block, seats, [place[agents.index(a)] for a in seats]))
            rankings.append(order)
    ours = Events(rows, agents).fit(prior=NO_PRIOR).skills
    theirs = choix.opt_rankings(3, rankings, alpha=1e-9)
    assert ours == pytest.approx((theirs - theirs.mean()) * ELO, abs=0.5)


def test_the_seat_term_measures_a_first_player_edge_apart_from_skill() -> None:
    rows = [game(b, ["x", "x"], [1, 2] if b < 60 else [2, 1]) for b in range(100)]
    fit = Events(rows, ["x"]).fit(prior=NO_PRIOR)
    assert fit.seats[0] - fit.seats[1] == pytest.approx(400 * math.log10(60 / 40), abs=0.01)  # 70.4
    table = seat_advantage(rows, ["x"], resamples=100)
    assert table[0][1] < table[0][0] < table[0][2] and table[0][0] > 0


def test_each_number_of_players_has_its_own_seat_terms() -> None:
    """Seat 0 wins every two-player game; in three-player games the seats win in turn. One pooled term for seat 0
    would carry the two-player edge into the three-player games; apart, the three-player seats stay equal."""
    rows = [game(b, ["x", "x"], [1, 2]) for b in range(30)]
    rows += [game(30 + b, ["x", "x", "x"], [1 + (s - b) % 3 for s in range(3)]) for b in range(30)]
    events = Events(rows, ["x"])
    assert events.n_params == 1 + 2 + 3
    seats = events.fit().seats
    two, three = seats[:2], seats[2:]
    assert two[0] - two[1] > 300 and max(three) - min(three) < 1  # the two-player edge stays with two players
    with pytest.raises(ValueError, match="one number of players"):
        seat_advantage(rows, ["x"])


def test_teams_are_rated_as_sides() -> None:
    rows = []
    for block in range(40):
        seats = ["a", "b", "a", "b"] if block % 2 else ["b", "a", "b", "a"]
        a_wins = block % 8 not in (0, 1)  # a's side wins 30 of 40, losing as often in each seating
        ranks = [1 if (s == "a") == a_wins else 2 for s in seats]
        rows.append(game(block, seats, ranks, teams=[0, 1, 0, 1]))
    fit = Events(rows, ["a", "b"]).fit(prior=NO_PRIOR)
    assert fit.skills[0] - fit.skills[1] == pytest.approx(400 * math.log10(30 / 10), abs=0.01)


def test_intervals_come_from_blocks_and_narrow_with_more_games() -> None:
    small = rate(two_player(30, 10, 0), ["a", "b"], resamples=300)
    large = rate(two_player(300, 100, 0), ["a", "b"], resamples=300)
    for table in (small, large):
        assert table[0].agent == "a" and table[0].low < table[0].rating < table[0].high
    assert large[0].high - large[0].low < 0.5 * (small[0].high - small[0].low)
    assert small[0].games == 40


def test_the_sprt_llr_by_hand() -> None:
    counts = [1, 2, 3, 2, 2]
    smoothed = [c + 0.5 for c in counts]
    total = sum(smoothed)
    xs = [0, 0.25, 0.5, 0.75, 1]
    mu = sum(c * x for c, x in zip(smoothed, xs, strict=True)) / total
    var = sum(c * (x - mu) ** 2 for c, x in zip(smoothed, xs, strict=True)) / total
    s0, s1 = 0.5, 1 / (1 + 10 ** (-10 / 400))
    assert llr(counts, 0, 10) == pytest.approx(10 * (s1 - s0) * (2 * mu - s0 - s1) / (2 * var))
    assert bounds(0.05, 0.05) == pytest.approx((math.log(0.05 / 0.95), math.log(0.95 / 0.05)))
    assert expected_score(0) == 0.5
    assert sprt_state([0, 0, 0, 0, 40], Sprt()).decision == "H1"
    assert sprt_state([40, 0, 0, 0, 0], Sprt()).decision == "H0"
    assert sprt_state([0, 0, 0, 0, 1], Sprt()).decision is None  # one pair never decides
    a_wins = [{"seats": ["a", "b"], "winners": [0]}, {"seats": ["b", "a"], "winners": [0, 1]}]
    assert pair_bin(a_wins, "a") == 3


def test_wilson_by_hand_and_at_the_edges() -> None:
    from kumiki.arena.intervals import wilson

    rate = wilson(30, 40)  # p = 0.75: centre 0.7281, half-width 0.1300
    assert (rate.value, round(rate.low, 4), round(rate.high, 4)) == (0.75, 0.5981, 0.8581)
    for k in (0, 40):
        edge = wilson(k, 40)
        assert edge.low <= edge.value <= edge.high and edge.low >= 0 and edge.high <= 1


def test_a_mean_of_zeros_and_ones_is_a_rate_and_a_count_never_goes_below_zero() -> None:
    from kumiki.arena.intervals import mean_interval, wilson
    from kumiki.arena.stats import measure_means

    held = mean_interval([1.0, 0.0], rate=True)
    assert 0.0 <= held.low <= held.value <= held.high <= 1.0
    assert (held.low, held.high) == (wilson(1, 2).low, wilson(1, 2).high)
    one = mean_interval([1.0], rate=True)
    assert one.low > 0.0 and one.high == 1.0  # one game that held: Wilson's interval, not none
    moves = mean_interval([3.0, 120.0, 64.0], lower=0.0)
    assert moves.low == 0.0 and moves.high > 120.0  # the t interval reached below zero: cut at zero
    scores = mean_interval([3.0, 120.0, 64.0])
    assert scores.low < 0.0  # nothing said about its range: nothing cut
    rows = [{"measures": {"card_G01_held": v, "falls": v}} for v in (1.0, 0.0, 1.0)]
    means = measure_means(rows)
    assert means["card_G01_held"].high <= 1.0  # a rate by definition: Wilson
    assert means["falls"].high > 1.0  # a count that happened to be 0 or 1: not held below 1


def test_a_game_is_one_trial_in_the_win_matrix_however_many_seats_an_agent_fills() -> None:
    from kumiki.arena.stats import win_matrix

    # three players: g in seats 0 and 2, r in seat 1; g's seats finish first and third, r second
    rows = [{"seats": ["g", "r", "g"], "ranks": [1, 2, 3], "teams": [0, 1, 2], "options": {}}] * 4
    cell = win_matrix(rows, ["g", "r"])[("g", "r")]
    assert cell.trials == 4 and cell.value == 0.5  # each game: ahead of r once, behind once


def test_the_fairness_test_is_exact_on_few_games() -> None:
    from kumiki.arena.fairness import fairness_p

    rows = [{"seats": ["a", "b"], "winners": [0], "ranks": [1, 2], "options": {}}] * 6
    rows += [{"seats": ["a", "b"], "winners": [1], "ranks": [2, 1], "options": {}}] * 2
    assert abs(fairness_p(rows) - 0.2890625) < 1e-9  # the two-sided binomial test of 6 wins in 8
    shared = [*rows, {"seats": ["a", "b"], "winners": [0, 1], "ranks": [1, 1], "options": {}}] * 1
    from scipy.stats import chisquare

    assert fairness_p(shared) == float(chisquare([6.5, 2.5]).pvalue)  # a shared win: no exact multinomial


def test_in_a_game_of_teams_the_sides_are_tested_not_the_seats() -> None:
    """26 wins to 22 between two teams of two: one comparison (binomial p = 0.665), not four seats' (0.954)."""
    from kumiki.arena.fairness import fairness
    from kumiki.arena.stats import seat_wins

    rows = [
        {"seats": ["a", "b", "a", "b"], "teams": [0, 1, 0, 1], "winners": [0, 2] if i < 26 else [1, 3]}
        for i in range(48)
    ]
    p, test = fairness(rows)
    assert test == "exact multinomial" and abs(p - 0.6655) < 1e-3
    shares = seat_wins(rows)
    assert abs(shares[0].value - 26 / 96) < 1e-9 and abs(shares[0].low - 0.2014) < 1e-3  # the side's Wilson, halved
    assert abs(shares[0].high - 0.3371) < 1e-3
    free = [{"seats": ["a", "b"], "teams": [0, 1], "winners": [0] if i < 15 else [1]} for i in range(24)]
    assert fairness(free)[1] == "exact multinomial" and abs(fairness(free)[0] - 0.3075) < 1e-3


def test_a_mean_without_spread_has_no_interval() -> None:
    from kumiki.arena.intervals import mean_interval

    same = mean_interval([1.0] * 15, lower=0.0)
    assert same.value == 1.0 and math.isnan(same.low) and math.isnan(same.high)


def test_a_first_mover_comparison_in_teams_compares_its_side() -> None:
    """Side 1 (Kuzushi's first mover's) wins 40 of 100 games on one size and 60 on the other: interval and p agree."""
    from kumiki.arena.intervals import mean_interval
    from kumiki.arena.variants import variant_comparisons

    rows = [
        {
            "options": {"players": 4, "teams": 2, "size": size},
            "moves": 10,
            "seats": ["a", "b", "a", "b"],
            "teams": [0, 1, 0, 1],
            "winners": [1, 3] if i < wins else [0, 2],
        }
        for size, wins in ((5, 40), (6, 60))
        for i in range(100)
    ]
    (first, *_) = variant_comparisons(rows, "kuzushi")
    assert "side" in first.figure and abs(first.difference - 0.2) < 1e-9
    assert first.low > 0 and first.p < 0.05  # both say real
    assert math.isnan(mean_interval([0.1] * 3).low)  # a constant with rounding in its spread: still no interval


def test_in_a_game_of_chance_the_blocks_of_one_seed_are_resampled_together() -> None:
    """A gauntlet of a against b and against c on 20 seeds: the seed is the deal, and the deal decides (a wins both
    games of each of its blocks on 12 seeds, loses them on 8). The blocks of one seed (b and 20 + b) are alike, not
    independent; drawn apart, the bootstrap took one deal's luck for two independent draws, and its interval was
    too narrow (by about √2 when the deal decides everything)."""
    rows = []
    for lineup, other in enumerate(("b", "c")):
        for number in range(20):
            block, a_wins = 20 * lineup + number, number % 5 < 3
            for seats in (["a", other], [other, "a"]):
                ranks = [1 if (s == "a") == a_wins else 2 for s in seats]
                rows.append({**game(block, seats, ranks), "seed": 1000 + number})
    agents = ["a", "b", "c"]
    assert len(np.unique(Events(rows, agents).blocks)) == 40
    assert len(np.unique(Events(rows, agents, chance=True).blocks)) == 20
    apart, together = (rate(rows, agents, resamples=400, chance=chance)[0] for chance in (False, True))
    assert apart.agent == together.agent == "a" and apart.rating == together.rating
    assert together.high - together.low > 1.2 * (apart.high - apart.low)
    without_seed = [{k: v for k, v in row.items() if k != "seed"} for row in rows]  # by hand: each block its own
    assert len(np.unique(Events(without_seed, agents, chance=True).blocks)) == 40


def test_a_resample_without_an_agent_does_not_pull_its_interval_to_the_mean() -> None:
    # A ladder stopped early: a and b met in 30 blocks (a won them all but the draws), c has played 2 blocks
    # against b and lost all 4 games. A resample holding neither of c's blocks has no evidence on c: the prior put
    # it at the agents' mean (0) and the interval of c reached exactly 0 although c never scored a point.
    rows = []
    for block in range(30):
        rows.append(game(block, ["a", "b"], [1, 2] if block % 3 else [1, 1]))
        rows.append(game(block, ["b", "a"], [2, 1] if block % 3 else [1, 1]))
    for block in (30, 31):
        rows.append(game(block, ["b", "c"], [1, 2]))
        rows.append(game(block, ["c", "b"], [2, 1]))
    table = {r.agent: r for r in rate(rows, ["a", "b", "c"], seed=11)}
    c = table["c"]
    assert c.high < c.rating + 0.5 * (0 - c.rating)  # well below the mean it never reached
    assert c.high < -100
    # The others' intervals are unchanged when no resample leaves out an agent (a complete study).
    complete = [r for r in rows if "c" not in r["seats"]]
    both = {r.agent: r for r in rate(complete, ["a", "b"], seed=11)}
    assert both["a"].low < both["a"].rating < both["a"].high


def test_agents_of_one_block_each_keep_every_resample_and_an_interval_around_their_rating() -> None:
    """Drawing again every resample that left out an agent kept 43 of 200 where six agents had one block each, and
    the intervals collapsed onto the data (b: [-266, -256] from 16 games). Every resample is kept; each agent's
    interval is read from those that hold it, aligned on the agents they hold."""
    rows = []
    for block in (0, 1):
        rows.append(game(block, ["a", "b"], [1, 2]))
        rows.append(game(block, ["b", "a"], [2, 1]))
    for k, agent in enumerate("cdefgh"):  # each splits one block with b
        rows.append(game(2 + k, ["b", agent], [1, 2]))
        rows.append(game(2 + k, [agent, "b"], [1, 2]))
    agents = list("abcdefgh")
    assert len(bootstrap(Events(rows, agents), 200, 0)) == 200
    table = {r.agent: r for r in rate(rows, agents, seed=0)}
    for r in table.values():
        assert r.low <= r.rating + 1e-9 and r.rating - 1e-9 <= r.high, r
    assert table["b"].high - table["b"].low > 50  # not collapsed onto the point


def test_the_bootstrap_fits_every_resample_as_the_point_fit_would_and_draws_enough_of_them() -> None:
    """200 resamples, one scipy fit each: the 95% interval's ends moved by up to 8.5% of its width from one
    resampling seed to another (docs/arena.md, "How many resamples"). The resamples are now fitted together
    (Newton's method in numpy), each as ``Events.fit`` fits it (the two optimisers agree to within 0.12 Elo on weakly
    held seat terms, asserted within 0.5: the report shows whole points), and there are 2,000 by default."""
    from kumiki.arena import ratings

    assert ratings.RESAMPLES >= 2000
    rows = [game(b, ["a", "b", "c"], [1 + (b + k) % 3 for k in range(3)], [0, 1, 1]) for b in range(12)]
    rows += two_player(7, 3, 2) + [game(40 + b, ["c", "a", "b", "a"], [1, 2, 2, 4]) for b in range(3)]
    events = Events(rows, ["a", "b", "c"])
    weights = np.random.default_rng(3).integers(0, 3, (25, events.n_events)).astype(float)
    fitted = ratings._fit_many(events, weights)
    for row, w in zip(fitted, weights, strict=True):
        one = events.fit(w)
        skills, seats = row[:3] - row[:3].mean(), row[3:] - row[3:].mean()
        assert np.abs(skills * ELO - one.skills).max() < 0.5 and np.abs(seats * ELO - one.seats).max() < 0.5
    fits = bootstrap(events, seed=5)
    assert len(fits) == ratings.RESAMPLES
    again = bootstrap(events, seed=5)  # seeded: the same report every time
    assert all(np.array_equal(f.skills, g.skills) for f, g in zip(fits, again, strict=True))


def test_the_bootstrap_of_many_agents_takes_no_longer_than_a_scipy_fit_each() -> None:
    """Newton's method fitted every resample together whatever the agents: its Hessians cost the square of the
    parameters, so 2,000 resamples of 30 agents' 1,000 games took 22 s of a core (a scipy fit each: 2.3 s), and of
    100 agents' minutes. Past ``ratings.NEWTON_PARAMS`` each resample is fitted by scipy, as ``Events.fit`` does.
    Timed on one BLAS thread, as every bench figure is (threads spinning on small products inflate a core's time)."""
    import time

    threadpoolctl = pytest.importorskip("threadpoolctl")
    from kumiki.arena import ratings

    agents = [f"x{i}" for i in range(30)]
    rng = np.random.default_rng(0)
    rows = []
    for b in range(1000):
        i, j = rng.choice(len(agents), 2, replace=False)
        rows.append(game(b, [agents[i], agents[j]], [1, 2] if rng.random() < 0.5 else [2, 1]))
    events = Events(rows, agents)
    start = time.process_time()
    with threadpoolctl.threadpool_limits(limits=1):
        fits = bootstrap(events, seed=1)
    assert time.process_time() - start < 10.0
    assert len(fits) == ratings.RESAMPLES and all(np.isfinite(f.skills).all() for f in fits)
    point = events.fit()
    assert abs(float(np.median([f.skills[0] for f in fits])) - point.skills[0]) < 100  # around the point fit
