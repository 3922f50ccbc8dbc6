"""The fairness test of a balance report: does every seat (or side) win equally often? Exact where the ways to
share the wins are few enough to count, else chi-square, corrected for games that share a deal."""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable, Sequence
from typing import Any

from kumiki.arena.intervals import design_effect
from kumiki.arena.stats import competitive, deals, fixed_teams, seat_credits, seat_wins, side_credits, side_wins

EXACT_OUTCOMES = 50_000  # up to this many ways to share the wins, the fairness test is exact


CHI_SQUARE_EXPECTED = 5  # wins expected a seat below which the chi-square test is named approximate


def fairness_p(rows: Sequence[dict[str, Any]], chance: bool = False) -> float:
    """The p-value of "every seat wins equally often" (see ``fairness``)."""
    return fairness(rows, chance)[0]


RAO_SCOTT = "chi-square, Rao–Scott adjusted for the games of one deal"


def fairness(rows: Sequence[dict[str, Any]], chance: bool = False) -> tuple[float, str]:
    """The p-value of "every seat wins equally often" and the test's name: the exact multinomial test (the chance,
    if every seat were equal, of a share of the wins at most as likely as the one seen) while the ways to share the
    wins are few enough to count; else, or when shared wins split a game, the chi-square test (good once each seat
    expects 5 wins; below that its name says it is approximate). In a game of teams the sides are what win, so the
    test compares the sides' wins. In a game of ``chance`` whose deals were each played more than once, the games of
    a deal are alike: where that makes the seats' shares vary more than independent games would (``rao_scott``
    above 1), the chi-square statistic is divided by it (Rao & Scott's first-order correction, 1981)."""
    games = competitive(rows)
    if not games:
        return math.nan, ""
    teams = fixed_teams(games)
    if teams is not None:
        observed = list(side_wins(games, teams).values())
        single = all(len({teams[w] for w in r["winners"]}) == 1 for r in games)
    else:
        observed = [r.successes for r in seat_wins(games)]
        single = all(len(r["winners"]) == 1 for r in games)  # a shared win is no multinomial draw
    total = sum(observed)
    if len(observed) < 2 or total <= 0:
        return math.nan, ""
    cells = len(observed)
    clusters = deals(games, chance)
    if clusters is not None and len(set(clusters)) < len(games):
        if len(set(clusters)) < 2:
            return 1.0, "one deal: no test beyond it"
        if teams is not None:
            credits = [side_credits(games, teams, side) for side in sorted(set(teams))]
        else:
            credits = [seat_credits(games, seat) for seat in range(cells)]
        delta = rao_scott(credits, clusters)
        if delta > 1:
            from scipy.stats import chi2, chisquare  # type: ignore[import-untyped]  # scipy ships no type information

            statistic = float(chisquare(observed, [total / cells] * cells).statistic) / delta
            p = float(chi2.sf(statistic, cells - 1))
            if total / cells < CHI_SQUARE_EXPECTED:
                return p, f"{RAO_SCOTT}, approximate: under {CHI_SQUARE_EXPECTED} wins expected a seat"
            return p, RAO_SCOTT
    if single and math.comb(int(total) + cells - 1, cells - 1) <= EXACT_OUTCOMES:
        return _exact_multinomial_p([int(w) for w in observed]), "exact multinomial"
    from scipy.stats import chisquare

    p = float(chisquare(observed, [total / cells] * cells).pvalue)
    if total / cells < CHI_SQUARE_EXPECTED:  # the approximation is poor there: say so beside the p-value
        return p, f"chi-square, approximate: under {CHI_SQUARE_EXPECTED} wins expected a seat"
    return p, "chi-square"


def rao_scott(credits: Sequence[Sequence[float]], clusters: Sequence[Hashable]) -> float:
    """Rao & Scott's (1981) mean design effect of a table of shares, δ = Σ_k (1 − p_k)·d_k / (K − 1): p_k the k-th
    cell's share of the wins, d_k the design effect of its mean credit a game (``design_effect``). 1 for independent
    games; the chi-square statistic divided by it is again chi-square."""
    totals = [sum(c) for c in credits]
    whole = sum(totals)
    delta = 0.0
    for values, total in zip(credits, totals, strict=True):
        delta += (1 - total / whole) * design_effect(values, clusters)[0]
    return delta / (len(credits) - 1)


def _exact_multinomial_p(counts: list[int]) -> float:
    """P(an outcome no more likely than ``counts``) under equal chances, summed over every outcome."""
    n, k = sum(counts), len(counts)

    def log_p(outcome: Sequence[int]) -> float:
        return math.lgamma(n + 1) - sum(math.lgamma(c + 1) for c in outcome) - n * math.log(k)

    seen = log_p(counts) + 1e-9  # outcomes as likely as the one seen count (rounding aside)
    total = 0.0
    for cuts in itertools.combinations(range(n + k - 1), k - 1):  # stars and bars: every outcome once
        edges = (-1, *cuts, n + k - 1)
        outcome = [edges[i + 1] - edges[i] - 1 for i in range(k)]
        value = log_p(outcome)
        if value <= seen:
            total += math.exp(value)
    # Every outcome counted sums to 1 up to rounding (a 1-1 split gave 0.9999999999999998 in summary.json)
    return 1.0 if total > 1.0 - 1e-12 else total
