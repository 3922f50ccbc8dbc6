"""Variant comparisons: for two option sets that differ in one option, the difference B − A of each figure a
designer asks about, with its 95% interval and p-value (clustered by deal in games of chance)."""

from __future__ import annotations

import itertools
import json
import math
import warnings
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass, fields
from typing import Any

from kumiki.arena.intervals import Rate, cluster_sums, clustered_rate, mean_interval, student_quantile
from kumiki.arena.stats import (
    BATCH_CELLS,
    RESAMPLES,
    by_option_set,
    competitive,
    coop_success,
    coop_successes,
    deals,
    fixed_teams,
    is_coop,
    option_key,
    seat_credits,
    seat_wins,
    side_credits,
    side_rates,
)


@dataclass(frozen=True)
class Comparison:
    """Variant B against variant A (option sets differing in one option) on one figure: the difference B − A with
    its 95% interval and the two-sided p-value of no difference. ``unit`` is ``"share"`` (a rate) or ``"moves"``."""

    option: str
    a: str
    b: str
    figure: str
    unit: str
    a_value: float
    b_value: float
    difference: float
    low: float
    high: float
    p: float
    no_verdict: str = ""  # why there is no interval, where it is not too few games (written only where given)

    def to_json(self) -> dict[str, Any]:
        """The comparison as JSON."""
        out: dict[str, Any] = {f.name: getattr(self, f.name) for f in fields(self)}
        if not self.no_verdict:
            del out["no_verdict"]
        for key in ("a_value", "b_value", "difference", "low", "high"):
            out[key] = round(out[key], 4)
        out["p"] = float(f"{self.p:.4g}")  # 4 significant digits: a tiny p stays above 0, as it is
        return out


def compare_rates(option: str, a: str, b: str, figure: str, ra: Rate, rb: Rate) -> Comparison:
    """B − A for two independent rates: Newcombe's interval and the p-value of a two-proportion z-test; fewer than
    two games on a side: no interval and no test (no verdict), as for lengths."""
    d = rb.value - ra.value
    if ra.trials < 2 or rb.trials < 2:
        return Comparison(option, a, b, figure, "share", ra.value, rb.value, d, math.nan, math.nan, math.nan)
    low = d - math.sqrt((rb.value - rb.low) ** 2 + (ra.high - ra.value) ** 2)
    high = d + math.sqrt((rb.high - rb.value) ** 2 + (ra.value - ra.low) ** 2)
    pooled = (ra.successes + rb.successes) / (ra.trials + rb.trials)
    se = math.sqrt(pooled * (1 - pooled) * (1 / ra.trials + 1 / rb.trials)) if 0 < pooled < 1 else 0.0
    p = math.erfc(abs(d) / se / math.sqrt(2)) if se > 0 else (1.0 if d == 0 else 0.0)
    return Comparison(option, a, b, figure, "share", ra.value, rb.value, d, low, high, p)


def compare_means(option: str, a: str, b: str, figure: str, xa: Sequence[float], xb: Sequence[float]) -> Comparison:
    """B − A for two independent samples: Welch's t interval and p-value."""
    from scipy.stats import ttest_ind  # type: ignore[import-untyped]  # scipy ships no type information

    ma, mb = mean_interval(xa), mean_interval(xb)
    d = mb.value - ma.value
    if ma.n < 2 or mb.n < 2:  # one game on a side: no spread to test against, no interval (no verdict)
        return Comparison(option, a, b, figure, "moves", ma.value, mb.value, d, math.nan, math.nan, math.nan)
    if ma.sd == 0 and mb.sd == 0:
        same = 1.0 if d == 0 else 0.0
        return Comparison(option, a, b, figure, "moves", ma.value, mb.value, d, d, d, same)
    with warnings.catch_warnings():  # one side all one length (sd 0): Welch is still right, scipy warns of "precision"
        warnings.filterwarnings("ignore", message="Precision loss occurred", category=RuntimeWarning)
        test = ttest_ind(xb, xa, equal_var=False)
        interval = test.confidence_interval(0.95)
    return Comparison(
        option,
        a,
        b,
        figure,
        "moves",
        ma.value,
        mb.value,
        d,
        float(interval.low),
        float(interval.high),
        float(test.pvalue),
    )


def _shared_clusters(
    xa: Sequence[float], ca: Sequence[Hashable], xb: Sequence[float], cb: Sequence[Hashable]
) -> tuple[float, float, float, int]:
    """The cluster-robust variances of the means of ``xa`` and ``xb`` and their covariance, their clusters shared
    (the same deal met by both variants), and the number of clusters in all: for a cluster c, with a_c = Σ_{i in c}
    (a_i − ā) / n_A and b_c likewise, G/(G − 1) · Σ_c a_c², Σ_c b_c² and Σ_c a_c·b_c."""
    ma, mb = sum(xa) / len(xa), sum(xb) / len(xb)
    sa = {k: v / len(xa) for k, v in cluster_sums(xa, ca, ma).items()}
    sb = {k: v / len(xb) for k, v in cluster_sums(xb, cb, mb).items()}
    every = set(sa) | set(sb)
    g = len(every)
    if g < 2:
        return math.nan, math.nan, math.nan, g
    factor = g / (g - 1)
    va = factor * sum(v * v for v in sa.values())
    vb = factor * sum(v * v for v in sb.values())
    cov = factor * sum(sa[k] * sb[k] for k in set(sa) & set(sb))
    return va, vb, cov, g


def compare_clustered(
    option: str,
    a: str,
    b: str,
    figure: str,
    unit: str,
    xa: Sequence[float],
    ca: Sequence[Hashable],
    xb: Sequence[float],
    cb: Sequence[Hashable],
) -> Comparison:
    """B − A where the games of one cluster (a deal, met by both variants) are alike: the p-value of the Wald test
    on the cluster-robust variance of the difference, t on G − 1 degrees of freedom (G deals in all: Cameron &
    Miller 2015). A share's interval is Zou & Donner's (2008) MOVER for correlated estimates, from each side's
    ``clustered_rate`` interval and their cluster-robust correlation (Newcombe's interval when they are
    uncorrelated); a length's is the difference ± t·se. Fewer than 2 games a side, or one deal in all: no verdict."""
    ma, mb = (sum(xa) / len(xa) if xa else math.nan), (sum(xb) / len(xb) if xb else math.nan)
    d = mb - ma
    none = Comparison(option, a, b, figure, unit, ma, mb, d, math.nan, math.nan, math.nan)
    if len(xa) < 2 or len(xb) < 2:
        return none
    va, vb, cov, g = _shared_clusters(xa, ca, xb, cb)
    if g < 2:
        return none
    variance = max(0.0, va + vb - 2 * cov)
    if variance > 0:
        from scipy.stats import t

        p = float(2 * t.sf(abs(d) / math.sqrt(variance), g - 1))
    else:  # every game of each side alike (or clusters that cancel): a difference is certain, none is none
        p = 1.0 if d == 0 else 0.0
    if unit == "share":
        ra, rb = clustered_rate(xa, ca), clustered_rate(xb, cb)
        r = cov / math.sqrt(va * vb) if va > 0 and vb > 0 else 0.0
        r = max(-1.0, min(1.0, r))

        def spread(x: float, y: float) -> float:
            return math.sqrt(max(0.0, x * x + y * y - 2 * r * x * y))

        low = d - spread(rb.value - rb.low, ra.high - ra.value)
        high = d + spread(rb.high - rb.value, ra.value - ra.low)
        return Comparison(option, a, b, figure, unit, ma, mb, d, low, high, p)
    if variance <= 0:
        return Comparison(option, a, b, figure, unit, ma, mb, d, d, d, p)
    half = student_quantile(0.975, g - 1) * math.sqrt(variance)
    return Comparison(option, a, b, figure, unit, ma, mb, d, d - half, d + half, p)


def first_mover(game: str, options: dict[str, Any]) -> int | None:
    """The seat that moves first in ``game`` with ``options`` (Kuzushi's is seat 1, the others' seat 0); None
    where no seat opens the whole game (Kozo's rounds rotate the opener), so no seat is called "moves first"."""
    from kumiki.core.registry import load_game

    return load_game(game, **options).first_mover()


def variant_comparisons(
    rows: Sequence[dict[str, Any]], game: str | None = None, chance: bool = False, seed: int = 0
) -> list[Comparison]:
    """For every two option sets that differ in exactly one option: the game length, (with the same number of
    seats) the first mover's share of the wins, B against A (seat 0's when ``game`` is not given), and for
    co-operative games the team's success rate (what a designer of one asks of a variant). With more than two seats
    (or sides, in a game of teams) every other seat's share too, and the spread of the seats' shares (``_every_seat``;
    ``seed`` seeds its bootstrap). In a game of ``chance`` the two sets met the same deals: the games are clustered
    by deal, across both sets (``compare_clustered``)."""
    sets: dict[str, dict[str, Any]] = {}
    for row in rows:
        sets.setdefault(json.dumps(row["options"], sort_keys=True), row["options"])
    groups = by_option_set(rows)
    opens = {key: first_mover(game, options) if game is not None else 0 for key, options in sets.items()}
    out = []
    for (sa, oa), (sb, ob) in itertools.combinations(sets.items(), 2):
        differing = [k for k in set(oa) | set(ob) if oa.get(k) != ob.get(k)]
        if len(differing) != 1:
            continue
        ka, kb = option_key(oa), option_key(ob)
        wins_a, wins_b = seat_wins(groups[ka]), seat_wins(groups[kb])
        first = opens[sa]
        if wins_a and wins_b and len(wins_a) == len(wins_b) and first == opens[sb]:
            # where no seat opens the whole game (Kozo's rotating rounds) the comparison follows seat 0
            seat = 0 if first is None else first
            who = "seat 0's" if first is None else f"first mover's (seat {seat})"
            figure = f"{who} share of the wins"
            rate_a, rate_b = wins_a[seat], wins_b[seat]
            games_a, games_b = competitive(groups[ka]), competitive(groups[kb])
            credits_a, credits_b = seat_credits(games_a, seat), seat_credits(games_b, seat)
            teams = fixed_teams(games_a)
            if teams is not None and teams == fixed_teams(games_b):  # the first mover's side wins, not the seat alone
                side_of = "seat 0's side" if first is None else f"first mover's side (seat {seat}'s)"
                figure = f"{side_of} share of the wins"
                side = teams[seat]
                rate_a, rate_b = side_rates(games_a, teams)[side], side_rates(games_b, teams)[side]
                credits_a, credits_b = side_credits(games_a, teams, side), side_credits(games_b, teams, side)
            if chance:
                out.append(_clustered(differing[0], ka, kb, figure, "share", credits_a, games_a, credits_b, games_b))
            else:
                out.append(compare_rates(differing[0], ka, kb, figure, rate_a, rate_b))
            out += _every_seat(differing[0], ka, kb, wins_a, wins_b, groups[ka], groups[kb], seat, chance, seed)
        elif wins_a and wins_b and len(wins_a) == len(wins_b):  # the variants open with different seats: each seat
            out += _every_seat(differing[0], ka, kb, wins_a, wins_b, groups[ka], groups[kb], None, chance, seed)
        coop_a, coop_b = coop_success(groups[ka]), coop_success(groups[kb])
        if coop_a.trials and coop_b.trials:
            if chance:
                coop_games_a = [r for r in groups[ka] if is_coop(r)]
                coop_games_b = [r for r in groups[kb] if is_coop(r)]
                out.append(
                    _clustered(
                        differing[0],
                        ka,
                        kb,
                        "team success rate",
                        "share",
                        coop_successes(coop_games_a),
                        coop_games_a,
                        coop_successes(coop_games_b),
                        coop_games_b,
                    )
                )
            else:
                out.append(compare_rates(differing[0], ka, kb, "team success rate", coop_a, coop_b))
        length_a = [float(r["moves"]) for r in groups[ka]]
        length_b = [float(r["moves"]) for r in groups[kb]]
        if chance:
            out.append(
                _clustered(differing[0], ka, kb, "game length", "moves", length_a, groups[ka], length_b, groups[kb])
            )
        else:
            out.append(compare_means(differing[0], ka, kb, "game length", length_a, length_b))
    return out


def _clustered(
    option: str,
    a: str,
    b: str,
    figure: str,
    unit: str,
    xa: Sequence[float],
    rows_a: Sequence[dict[str, Any]],
    xb: Sequence[float],
    rows_b: Sequence[dict[str, Any]],
) -> Comparison:
    ca, cb = deals(rows_a, True), deals(rows_b, True)
    assert ca is not None and cb is not None
    return compare_clustered(option, a, b, figure, unit, xa, ca, xb, cb)


SPREAD = "{} spread of the wins (largest share − smallest; lower is fairer)"  # the seats' or the sides'
SPREAD_RESAMPLES = RESAMPLES  # the ratings' bootstrap's: the ends move little between seeds
SPREAD_CELLS = BATCH_CELLS  # resamples drawn at once: at most this many counts
# The fewest games of one option set, as a share of the other's, for a verdict on the spreads: a spread is overstated
# on few games (three equal seats: about 18 points over 30 games, 10 over 100), so equal seats over 12 games against
# 150 were marked "less fair" in a quarter of simulated studies (at 80%, the gap in that bias is a tenth of itself).
SPREAD_LIKE_GAMES = 0.8


def _every_seat(
    option: str,
    a: str,
    b: str,
    wins_a: Sequence[Rate],
    wins_b: Sequence[Rate],
    rows_a: Sequence[dict[str, Any]],
    rows_b: Sequence[dict[str, Any]],
    first: int | None,
    chance: bool,
    seed: int,
) -> list[Comparison]:
    """With more than two seats (or sides, in a game of teams: the sides win, as the fairness test counts them), the
    first mover's share of the wins says little of the others: a variant may move wins from seat 2 to seat 1 and
    leave it as it was. So, B against A: every other seat's (or side's) share of the wins, as the first mover's is
    compared (``compare_rates``, or ``compare_clustered`` in a game of ``chance``), then the spread of the shares
    (the largest share − the smallest: 0 where every seat wins as often, lower is fairer; ``compare_spreads``).
    ``first``: the seat (or its side) the first mover's row compared already, or None where the variants open with
    different seats and no such row was made (every seat's row then). Two seats or sides: nothing (the other's
    share is the first's complement, bar shared wins and draws)."""
    games_a, games_b = competitive(rows_a), competitive(rows_b)
    teams = fixed_teams(games_a)
    if teams is not None and teams != fixed_teams(games_b):
        teams = None  # the first mover's row compared seats: so do these
    seats = len(wins_a)
    if teams is not None:
        units = sorted(set(teams))
        if len(units) < 3:
            return []
        lowest = {side: teams.index(side) for side in units}
        credits_a = [side_credits(games_a, teams, side) for side in units]
        credits_b = [side_credits(games_b, teams, side) for side in units]
        names = [f"seat {lowest[side]}'s side share of the wins" for side in units]
        skip = None if first is None else units.index(teams[first])
        rates_a, rates_b = side_rates(games_a, teams), side_rates(games_b, teams)
        plain_a, plain_b = [rates_a[side] for side in units], [rates_b[side] for side in units]
        spread = SPREAD.format("sides'")
    else:
        if seats < 3:
            return []
        credits_a = [seat_credits(games_a, s) for s in range(seats)]
        credits_b = [seat_credits(games_b, s) for s in range(seats)]
        names = [f"seat {s}'s share of the wins" for s in range(seats)]
        skip = first
        plain_a, plain_b = list(wins_a), list(wins_b)  # as the first mover's row: a side's share split among its seats
        spread = SPREAD.format("seats'")
    out = []
    for k, name in enumerate(names):
        if k == skip:
            continue
        if chance:
            out.append(_clustered(option, a, b, name, "share", credits_a[k], games_a, credits_b[k], games_b))
        else:
            out.append(compare_rates(option, a, b, name, plain_a[k], plain_b[k]))
    out.append(compare_spreads(option, a, b, spread, credits_a, games_a, credits_b, games_b, chance, seed))
    return out


def compare_spreads(
    option: str,
    a: str,
    b: str,
    figure: str,
    credits_a: Sequence[Sequence[float]],
    rows_a: Sequence[dict[str, Any]],
    credits_b: Sequence[Sequence[float]],
    rows_b: Sequence[dict[str, Any]],
    chance: bool,
    seed: int = 0,
) -> Comparison:
    """B − A of the spread of the seats' shares of the wins (the largest share − the smallest; ``credits_x[k]``: each
    game's win credited to seat k) with a 95% percentile bootstrap interval and the bootstrap's two-sided p-value
    (twice the smaller share of resamples on either side of 0, counted as (k + 1) / (R + 1)). A spread has no
    closed-form interval (the largest seat may change between resamples), so ``SPREAD_RESAMPLES`` resamples of the
    units the ratings' bootstrap draws (``stats.bootstrap_unit``): seed blocks, each variant's drawn on its own (no
    game of B replays one of A); in a game of ``chance`` the deals, drawn once for both variants (paired by deal).
    Seeded: the same report every time. Even equal seats show a spread on few games, larger the fewer: read the
    difference between like numbers of games: where one set has fewer than ``SPREAD_LIKE_GAMES`` of the other's
    games, no verdict (``no_verdict`` says why). Fewer than 2 games a side, or one unit to draw: no verdict."""
    import numpy as np

    def spread_of(credits: Sequence[Sequence[float]]) -> float:
        shares = [sum(c) / len(c) for c in credits]
        return max(shares) - min(shares)

    if len(rows_a) < 2 or len(rows_b) < 2:
        va = spread_of(credits_a) if rows_a else math.nan
        vb = spread_of(credits_b) if rows_b else math.nan
        return Comparison(option, a, b, figure, "share", va, vb, vb - va, math.nan, math.nan, math.nan)
    va, vb = spread_of(credits_a), spread_of(credits_b)
    d = vb - va
    if min(len(rows_a), len(rows_b)) < SPREAD_LIKE_GAMES * max(len(rows_a), len(rows_b)):
        unlike = f"{len(rows_a)} games against {len(rows_b)}: a spread is overstated on fewer games"
        return Comparison(option, a, b, figure, "share", va, vb, d, math.nan, math.nan, math.nan, unlike)
    from kumiki.arena.stats import bootstrap_unit

    units_a = [bootstrap_unit(r, chance) for r in rows_a]
    units_b = [bootstrap_unit(r, chance) for r in rows_b]
    rng = np.random.default_rng(seed)

    def tables(units: list[tuple[str, int]], credits: Sequence[Sequence[float]], order: list[tuple[str, int]]) -> Any:
        """Per unit (in ``order``): the games and each seat's credit, summed."""
        at = {u: i for i, u in enumerate(order)}
        index = np.array([at[u] for u in units])
        games = np.bincount(index, minlength=len(order)).astype(float)
        wins = np.stack([np.bincount(index, weights=np.asarray(c, float), minlength=len(order)) for c in credits])
        return games, wins.T  # units, units × seats

    def spreads(counts: Any, games: Any, wins: Any) -> Any:
        with np.errstate(invalid="ignore", divide="ignore"):
            shares = (counts @ wins) / (counts @ games)[:, None]
        return shares.max(axis=1) - shares.min(axis=1)

    if chance:  # both variants met the same deals: one draw of deals for both
        order = sorted(set(units_a) | set(units_b))
        if len(order) < 2:
            return Comparison(option, a, b, figure, "share", va, vb, d, math.nan, math.nan, math.nan)
        ga, wa = tables(units_a, credits_a, order)
        gb, wb = tables(units_b, credits_b, order)
        batches = list(_draw_counts(rng, len(order)))
        sa = np.concatenate([spreads(counts, ga, wa) for counts in batches])
        sb = np.concatenate([spreads(counts, gb, wb) for counts in batches])
    else:
        order_a, order_b = sorted(set(units_a)), sorted(set(units_b))
        if len(order_a) < 2 or len(order_b) < 2:
            return Comparison(option, a, b, figure, "share", va, vb, d, math.nan, math.nan, math.nan)
        ga, wa = tables(units_a, credits_a, order_a)
        gb, wb = tables(units_b, credits_b, order_b)
        sa = np.concatenate([spreads(counts, ga, wa) for counts in _draw_counts(rng, len(order_a))])
        sb = np.concatenate([spreads(counts, gb, wb) for counts in _draw_counts(rng, len(order_b))])
    found = sb - sa
    found = found[np.isfinite(found)]  # a resample with no game of a variant (chance: its deals all undrawn)
    if len(found) == 0:
        return Comparison(option, a, b, figure, "share", va, vb, d, math.nan, math.nan, math.nan)
    low, high = (float(x) for x in np.quantile(found, [0.025, 0.975]))
    below, above = int((found <= 0).sum()), int((found >= 0).sum())
    p = min(1.0, 2 * (min(below, above) + 1) / (len(found) + 1))
    return Comparison(option, a, b, figure, "share", va, vb, d, min(low, d), max(high, d), p)


def _draw_counts(rng: Any, units: int) -> Iterator[Any]:
    """How often each of ``units`` units is drawn in each of ``SPREAD_RESAMPLES`` resamples with replacement, in
    batches of resamples of at most ``SPREAD_CELLS`` counts (a study of 20,000 deals: not one array of 40 million)."""
    import numpy as np

    batch = max(1, min(SPREAD_RESAMPLES, SPREAD_CELLS // units))
    for start in range(0, SPREAD_RESAMPLES, batch):
        n = min(batch, SPREAD_RESAMPLES - start)
        draws = rng.integers(0, units, (n, units))
        flat = (np.arange(n)[:, None] * units + draws).ravel()
        yield np.bincount(flat, minlength=n * units).reshape(n, units).astype(float)
