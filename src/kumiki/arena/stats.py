"""The figures of a balance report, each with its interval: seat win rates (Wilson) and a test of fairness,
score, margin and length distributions, draw rates, the win matrix, variant comparisons and the skill ladder."""

from __future__ import annotations

import itertools
import json
import math
import warnings
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, fields
from typing import Any

from kumiki.core.game import is_rate_measure

Z95 = 1.959963984540054


def rounded(figure: Any) -> dict[str, float]:
    """A dataclass of numbers as JSON, each rounded to 4 digits."""
    return {f.name: round(float(getattr(figure, f.name)), 4) for f in fields(figure)}


@dataclass(frozen=True)
class Rate:
    """A proportion ``successes / trials`` with its 95% Wilson interval."""

    successes: float
    trials: float
    value: float
    low: float
    high: float

    def to_json(self) -> dict[str, float]:
        """The rate as JSON (rounded to 4 digits)."""
        return rounded(self)


@dataclass(frozen=True)
class Mean:
    """A mean with its 95% t interval (and the sample's standard deviation and size)."""

    value: float
    low: float
    high: float
    sd: float
    n: int

    def to_json(self) -> dict[str, float]:
        """The mean as JSON (rounded to 4 digits)."""
        return rounded(self)


def wilson(successes: float, trials: float) -> Rate:
    """The Wilson score interval: honest near 0 and 1 and for small samples, unlike p ± 1.96·se."""
    if trials <= 0:
        return Rate(successes, trials, math.nan, math.nan, math.nan)
    p = successes / trials
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return Rate(successes, trials, p, max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


Clusters = Sequence[Hashable] | None  # each value's cluster (its game's deal: ``deals``), or None: independent games


def _student(q: float, df: float) -> float:
    from scipy.stats import t  # type: ignore[import-untyped]  # scipy ships no type information

    return float(t.ppf(q, df))


def _cluster_sums(values: Sequence[float], clusters: Sequence[Hashable], centre: float) -> dict[Hashable, float]:
    sums: dict[Hashable, float] = {}
    for value, cluster in zip(values, clusters, strict=True):
        sums[cluster] = sums.get(cluster, 0.0) + value - centre
    return sums


def cluster_variance(values: Sequence[float], clusters: Sequence[Hashable]) -> tuple[float, int]:
    """The cluster-robust (linearization, "sandwich") variance of the mean of ``values`` and the number G of
    clusters: G/(G − 1) · Σ_c (Σ_{i in c} (x_i − x̄))² / n². With one value a cluster it is s²/n, the variance of
    independent values (Cameron & Miller 2015, "A practitioner's guide to cluster-robust inference")."""
    n = len(values)
    mean = sum(values) / n
    sums = _cluster_sums(values, clusters, mean)
    g = len(sums)
    if g < 2:
        return math.nan, g
    return g / (g - 1) * sum(v * v for v in sums.values()) / (n * n), g


def design_effect(values: Sequence[float], clusters: Sequence[Hashable]) -> tuple[float, int]:
    """Kish's design effect of the mean of ``values`` and the number G of clusters: the cluster-robust variance
    (``cluster_variance``) over the variance of n independent values (s²/n); 1 where every value is the same, NaN
    for one cluster."""
    n = len(values)
    variance, g = cluster_variance(values, clusters)
    if g < 2:
        return math.nan, g
    mean = sum(values) / n
    s2 = sum((v - mean) ** 2 for v in values) / (n - 1)
    return (variance / (s2 / n) if s2 > 0 else 1.0), g


def effective_trials(values: Sequence[float], clusters: Sequence[Hashable]) -> float:
    """Korn & Graubard's (1998) degrees-of-freedom-adjusted effective sample size of a proportion estimated from
    clustered games: n / deff · (t(n − 1) / t(G − 1))², at most n (deff: ``design_effect``); the t ratio (97.5%
    quantiles) pays for estimating the variance from G clusters, not n games. One cluster: 0."""
    n = len(values)
    deff, g = design_effect(values, clusters)
    if g < 2:
        return 0.0
    ratio = (_student(0.975, n - 1) / _student(0.975, g - 1)) ** 2
    return n if deff <= 0 else min(float(n), n / deff * ratio)


def clustered_rate(values: Sequence[float], clusters: Clusters = None) -> Rate:
    """The share ``mean(values)`` (each game's part of a success, 0 to 1) with its 95% Wilson interval; with
    ``clusters``, games of one cluster are not independent: Wilson's interval on Korn & Graubard's effective sample
    size (``effective_trials``; Dean & Pagano 2015 found it among the intervals that keep their coverage on
    clustered data), never narrower than Wilson's on the n games. One value a cluster: Wilson's on n exactly; one
    cluster: [0, 1], the games set no limit on the share over other clusters."""
    n = len(values)
    successes = float(sum(values))
    if clusters is None or n == 0 or len(set(clusters)) == n:
        return wilson(successes, n)
    trials = effective_trials(values, clusters)
    p = successes / n
    if trials <= 0:
        return Rate(successes, n, p, 0.0, 1.0)
    interval = wilson(p * trials, trials)
    return Rate(successes, n, p, min(p, interval.low), max(p, interval.high))


def deals(rows: Sequence[dict[str, Any]], chance: bool) -> Clusters:
    """Each game's cluster for the figures' intervals: in a game of ``chance``, its game seed (the deal, which every
    line-up, seating and option set meets on that seed: ``bootstrap_unit``), else None (every game independent)."""
    return [bootstrap_unit(row, True) for row in rows] if chance else None


def mean_interval(
    values: Sequence[float],
    rate: bool = False,
    lower: float | None = None,
    clusters: Clusters = None,
    upper: float | None = None,
) -> Mean:
    """The sample mean with its 95% interval: Wilson's for a ``rate`` (every value 0 or 1 by definition: "card held",
    "success"), else Student's t, cut at ``lower`` where no value can be below it (a count, a length: a t interval on
    three games may reach far below zero, which no count can), and at ``upper`` where none can be above it (rounds
    won of one round: 0.67 [0, 2.1] on three games read as if two rounds could be won). Where every game gave the
    same value there is no interval (NaN): no spread to estimate one from, and a width of 0 would claim certainty.
    With ``clusters`` (games on one deal are alike) a rate's interval is ``clustered_rate``'s, a mean's t interval
    takes the cluster-robust standard error on G − 1 degrees of freedom (G clusters; ``cluster_variance``): one value
    a cluster, it is the plain t interval; one cluster, no interval."""
    n = len(values)
    if n == 0:
        return Mean(math.nan, math.nan, math.nan, math.nan, 0)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else math.nan
    if rate:
        interval = clustered_rate(values, clusters)
        return Mean(mean, interval.low, interval.high, sd, n)
    if n == 1:
        return Mean(mean, math.nan, math.nan, math.nan, 1)
    if max(values) == min(values):  # every game gave the same value: t would claim a certainty of width 0
        return Mean(mean, math.nan, math.nan, sd, n)
    if clusters is not None and len(set(clusters)) < n:
        variance, g = cluster_variance(values, clusters)
        if not variance > 0:  # one cluster (NaN), or clusters that cancel exactly: nothing to size an interval by
            return Mean(mean, math.nan, math.nan, sd, n)
        half = _student(0.975, g - 1) * math.sqrt(variance)
    else:
        half = _student(0.975, n - 1) * sd / math.sqrt(n)
    low = mean - half if lower is None else max(lower, mean - half)
    high = mean + half if upper is None else min(upper, mean + half)
    return Mean(mean, low, high, sd, n)


def option_key(options: dict[str, Any]) -> str:
    """An option set as a stable text key (and label)."""
    return ", ".join(f"{k}={v}" for k, v in options.items()) or "default options"


def by_option_set(rows: Iterable[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The games grouped by option set, in the order the sets first appear."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault(option_key(row["options"]), []).append(row)
    return groups


def by_players(rows: Iterable[dict[str, Any]]) -> dict[int, list[dict[str, Any]]]:
    """The games grouped by their number of seats, fewest first."""
    groups: dict[int, list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault(len(row["seats"]), []).append(row)
    return dict(sorted(groups.items()))


def bootstrap_unit(row: dict[str, Any], chance: bool) -> tuple[str, int]:
    """The independent unit a bootstrap draws ``row``'s game with (all the unit's games together).

    The b-th seed block of every line-up and option set is played on the same game seed (``block`` numbers the
    blocks across the whole study, so blocks b, n + b, 2·n + b … share it, n the blocks a line-up plays: ``games``,
    or half of an SPRT's ``max_games``). In a game of ``chance`` the seed
    is the deal: those blocks met the same deal, their results go together, and resampling them apart would count
    one deal's luck as several independent draws; the unit is then the seed. Without chance the seed deals nothing
    and every game's agents have their own seeds (from its index), so each block is independent: the unit is the
    block. A row without a seed (written by hand) is its own block."""
    seed = row.get("seed")
    if chance and isinstance(seed, int) and not isinstance(seed, bool):
        return ("seed", seed)
    return ("block", int(row["block"]))


FEW_BLOCKS = 10  # seed blocks below which the ratings' bootstrap intervals are flagged


def bootstrap_units(rows: Iterable[dict[str, Any]], chance: bool) -> int:
    """How many independent units (see ``bootstrap_unit``) a bootstrap over ``rows`` resamples."""
    return len({bootstrap_unit(row, chance) for row in rows})


# Deciding units (or decided games) below which an edge is flagged as resting on too few: a bootstrap resample leaves
# out each unit with chance (1 − 1/G)^G ≈ 0.37, so all k deciding ones with about e^−k (k = 4: 1.8%, near the 2.5% a
# 95% percentile interval cuts off): below 5 the interval is mostly whether those few were drawn.
FEW_DECIDING = 5


def seat_deciding_units(rows: Iterable[dict[str, Any]], chance: bool) -> int:
    """How many of the bootstrap's independent units (``bootstrap_unit``) hold a game the seats decided rather than
    the agents: among a unit's games of one line-up and option set (its seatings), an agent whose finishing place
    changed with its seat, or an agent in several seats (self-play) placed differently in one game. In the other
    units every agent finished where it did in every seating: they tell skill apart, not seats, so a seat's edge
    with skill held apart rests on the deciding units alone (an SPRT won 19 to 1: one pair, the one split)."""
    groups: dict[tuple[Hashable, str, tuple[str, ...]], list[dict[str, Any]]] = {}
    for row in rows:
        if not is_coop(row):
            key = (bootstrap_unit(row, chance), option_key(row["options"]), tuple(sorted(row["seats"])))
            groups.setdefault(key, []).append(row)
    deciding = set()
    for (unit, _, _), games in groups.items():
        outcomes: set[tuple[tuple[str, int], ...]] = set()
        split = False  # one agent, two places in one game: the seats told them apart
        for row in games:
            held: dict[str, set[int]] = {}
            for seat, place in enumerate(places(row)):
                held.setdefault(row["seats"][seat], set()).add(place)
            outcomes.add(tuple(sorted((agent, min(found)) for agent, found in held.items())))
            split = split or any(len(found) > 1 for found in held.values())
        if split or len(outcomes) > 1:
            deciding.add(unit)
    return len(deciding)


def sides(row: dict[str, Any]) -> list[int]:
    """The side of each seat of a result row (rows without ``teams``: every seat its own side)."""
    return row.get("teams") or list(range(len(row["seats"])))


def places(row: dict[str, Any]) -> list[int]:
    """Each seat's finishing place (1 = first, ties share one): the row's ``ranks``; a row without them (written in
    the contract's shape, which does not list them) is placed by its winners, then by score."""
    ranks = row.get("ranks")
    if ranks is not None:
        return list(ranks)
    key = [(0 if seat in row["winners"] else 1, -score) for seat, score in enumerate(row["scores"])]
    return [1 + sum(1 for other in key if other < mine) for mine in key]


def is_coop(row: dict[str, Any]) -> bool:
    """Whether every seat plays for one side (TowerBrix): there is no winner among the seats to count."""
    return len(set(sides(row))) < 2


def seat_wins(rows: Sequence[dict[str, Any]], chance: bool = False) -> list[Rate]:
    """Each seat's share of the wins (a shared win split evenly) over the competitive games, with Wilson intervals
    (in a game of ``chance``, on the games' effective number: ``clustered_rate`` over their deals).

    In a game of teams the seats of a side win together: their wins are one count (the side's), not independent
    ones, so each seat's share and interval are its side's divided among the side's seats."""
    games = _competitive(rows)
    if not games:
        return []
    seats = max(len(r["seats"]) for r in games)
    teams = _fixed_teams(games)
    if teams is not None:
        sides = side_rates(games, teams, chance)
        out = []
        for seat in range(seats):
            rate, k = sides[teams[seat]], teams.count(teams[seat])
            out.append(Rate(rate.successes / k, rate.trials, rate.value / k, rate.low / k, rate.high / k))
        return out
    clusters = deals(games, chance)
    return [clustered_rate(seat_credits(games, s), clusters) for s in range(seats)]


def seat_credits(games: Sequence[dict[str, Any]], seat: int) -> list[float]:
    """Each game's win credited to ``seat``: 1, a shared win's part (1 / its winners), or 0."""
    return [1.0 / len(row["winners"]) if seat in row["winners"] else 0.0 for row in games]


def _competitive(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in rows if not is_coop(r)]


def side_rates(games: Sequence[dict[str, Any]], teams: list[int], chance: bool = False) -> dict[int, Rate]:
    """Each side's share of the competitive ``games``' wins, with its Wilson interval (``chance``: see
    ``seat_wins``)."""
    clusters = deals(games, chance)
    return {side: clustered_rate(side_credits(games, teams, side), clusters) for side in sorted(set(teams))}


def side_credits(games: Sequence[dict[str, Any]], teams: list[int], side: int) -> list[float]:
    """Each game's win credited to ``side`` (a win the sides share split evenly between them)."""
    out = []
    for row in games:
        winning = {teams[w] for w in row["winners"]}
        out.append(1.0 / len(winning) if side in winning else 0.0)
    return out


def _fixed_teams(games: Sequence[dict[str, Any]]) -> list[int] | None:
    """The side of each seat when every game is played in the same teams (a list over seats), else None."""
    found = {tuple(r["teams"]) for r in games if r.get("teams")}
    if len(found) != 1 or any(not r.get("teams") for r in games):
        return None
    teams = list(next(iter(found)))
    return teams if len(set(teams)) < len(teams) else None


def side_wins(games: Sequence[dict[str, Any]], teams: list[int]) -> dict[int, float]:
    """Each side's wins (a win the sides share split evenly between them)."""
    wins = dict.fromkeys(sorted(set(teams)), 0.0)
    for row in games:
        winning = {teams[w] for w in row["winners"]}
        for side in winning:
            wins[side] += 1.0 / len(winning)
    return wins


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
    games = _competitive(rows)
    if not games:
        return math.nan, ""
    teams = _fixed_teams(games)
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
            from scipy.stats import chi2, chisquare

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


def draw_rate(rows: Sequence[dict[str, Any]], chance: bool = False) -> Rate:
    """How often a competitive game ends with more than one side sharing the win (a draw or a shared tie); every
    figure's ``chance``: the games of one deal are clustered (``clustered_rate``, ``mean_interval``)."""
    games = _competitive(rows)
    shared = []
    for row in games:
        teams = sides(row)
        shared.append(1.0 if len({teams[w] for w in row["winners"]}) > 1 or not row["winners"] else 0.0)
    return clustered_rate(shared, deals(games, chance))


def forfeit_rate(rows: Sequence[dict[str, Any]], chance: bool = False) -> Rate:
    """How often a game ended by forfeit."""
    return clustered_rate([1.0 if r.get("forfeit") else 0.0 for r in rows], deals(rows, chance))


def lengths(
    rows: Sequence[dict[str, Any]], chance: bool = False, limits: dict[str, tuple[float, float]] | None = None
) -> Mean:
    """The game length in moves; its interval cut at 0 and at the longest game the rules allow (``length`` of
    ``measure_limits``) where they fix one: two games of 10 and 35 moves on a 6×6 Kuzushi grid read 22.5 [0, 92.4],
    where no game has more than 35 moves."""
    _low, high = _bounds(limits, "length")
    return mean_interval([float(r["moves"]) for r in rows], lower=0.0, upper=high, clusters=deals(rows, chance))


def margins(rows: Sequence[dict[str, Any]], chance: bool = False) -> Mean:
    """The winner's score minus the second's (by side), over competitive games without forfeit."""
    values = []
    counted = []
    for row in rows:
        if is_coop(row) or row.get("forfeit"):
            continue
        teams = sides(row)
        totals: dict[int, float] = {}
        for seat, score in enumerate(row["scores"]):
            totals[teams[seat]] = totals.get(teams[seat], 0.0) + score
        ordered = sorted(totals.values(), reverse=True)
        if len(ordered) >= 2:
            values.append(ordered[0] - ordered[1])
            counted.append(row)
    return mean_interval(values, lower=0.0, clusters=deals(counted, chance))


def measure_limits(game: str, options: dict[str, Any]) -> dict[str, tuple[float, float]]:
    """The range the rules allow each measure and a seat's ``score`` in ``game`` with ``options``
    (``Game.measure_limits``), as ``first_mover`` builds the game."""
    from kumiki.core.registry import load_game

    return load_game(game, **options).measure_limits()


def _bounds(limits: dict[str, tuple[float, float]] | None, name: str) -> tuple[float | None, float | None]:
    low, high = (limits or {}).get(name, (-math.inf, math.inf))
    return (low if math.isfinite(low) else None), (high if math.isfinite(high) else None)


def seat_scores(
    rows: Sequence[dict[str, Any]], chance: bool = False, limits: dict[str, tuple[float, float]] | None = None
) -> list[Mean]:
    """Each seat's mean score; its interval cut at the score's ``limits`` (``measure_limits``) where known."""
    if not rows:
        return []
    seats = max(len(r["scores"]) for r in rows)
    out = []
    for s in range(seats):
        group = [r for r in rows if s < len(r["scores"])]
        low, high = _bounds(limits, "score")
        values = [float(r["scores"][s]) for r in group]
        out.append(mean_interval(values, lower=low, upper=high, clusters=deals(group, chance)))
    return out


def measure_means(
    rows: Sequence[dict[str, Any]], chance: bool = False, limits: dict[str, tuple[float, float]] | None = None
) -> dict[str, Mean]:
    """The mean of each of the game's own measures (``State.measures()``: falls, tiles left, …) over the games; a
    count's interval cut at 0 and within the measure's ``limits`` (``measure_limits``) where the rules fix them."""
    names: dict[str, None] = {}
    for row in rows:
        names.update(dict.fromkeys(row.get("measures") or {}))
    out = {}
    for n in names:
        group = [r for r in rows if n in (r.get("measures") or {})]
        low, high = _bounds(limits, n)
        out[n] = mean_interval(
            [float(r["measures"][n]) for r in group],
            rate=is_rate_measure(n),
            lower=max(0.0, low or 0.0),  # the others are counts (State.measures): a count seen 0 or 1 may be 2
            upper=high,
            clusters=deals(group, chance),
        )
    return out


def coop_success(rows: Sequence[dict[str, Any]], chance: bool = False) -> Rate:
    """The share of co-operative games the team won (the game's own measure ``success``, else a positive score)."""
    games = [r for r in rows if is_coop(r)]
    return clustered_rate(_successes(games), deals(games, chance))


def _successes(games: Sequence[dict[str, Any]]) -> list[float]:
    out = []
    for row in games:
        measures = row.get("measures") or {}
        out.append(float(bool(measures["success"]) if "success" in measures else row["scores"][0] > 0))
    return out


def branching_by_ply(rows: Sequence[dict[str, Any]], plies: int = 60, chance: bool = False) -> list[Mean]:
    """The mean number of legal moves at each ply (studies with ``trace = true``), up to ``plies``."""
    traced = [r for r in rows if "branching" in r]
    out = []
    for ply in range(plies):
        group = [r for r in traced if ply < len(r["branching"])]
        if group:
            values = [float(r["branching"][ply]) for r in group]
            out.append(mean_interval(values, lower=0.0, clusters=deals(group, chance)))
    return out


def lead_changes(rows: Sequence[dict[str, Any]], chance: bool = False) -> Mean:
    """How often the lead changed hands in a game (studies with ``trace = true``)."""
    group = [r for r in rows if "lead_changes" in r]
    return mean_interval([float(r["lead_changes"]) for r in group], lower=0.0, clusters=deals(group, chance))


def coop_by_team(
    rows: Sequence[dict[str, Any]], chance: bool = False, limits: dict[str, tuple[float, float]] | None = None
) -> dict[str, tuple[Rate, Mean]]:
    """For each team composition (the agents at the table, whatever their seats) of the co-operative games: the
    success rate and the mean score (its interval within the score's ``limits`` where known)."""
    low, high = _bounds(limits, "score")
    teams: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        if is_coop(row):
            teams.setdefault(" + ".join(sorted(row["seats"])), []).append(row)
    return {
        name: (
            coop_success(group, chance),
            mean_interval([float(r["scores"][0]) for r in group], lower=low, upper=high, clusters=deals(group, chance)),
        )
        for name, group in teams.items()
    }


def ladder_steps(
    rows: Sequence[dict[str, Any]], agents: Sequence[str], chance: bool = False
) -> list[tuple[str, str, Rate]]:
    """Each agent of a ladder against the one below it: its score with its interval (does skill pay here?)."""
    matrix = win_matrix(rows, agents, chance)
    return [(high, low, matrix[(high, low)]) for low, high in itertools.pairwise(agents) if (high, low) in matrix]


def only_self_play(rows: Sequence[dict[str, Any]], agents: Sequence[str]) -> bool:
    """Several agents and games between sides, yet no agent met another (each played only itself): nothing to rate
    them by (the ratings would be the prior's, all 0, and read as a tie)."""
    return len(agents) > 1 and any(not is_coop(r) for r in rows) and not win_matrix(rows, agents)


def win_matrix(
    rows: Sequence[dict[str, Any]], agents: Sequence[str], chance: bool = False
) -> dict[tuple[str, str], Rate]:
    """For each ordered pair of agents, the first's score against the second, with its Wilson interval: in each game
    where they sat on different sides, the mean over their pairs of seats of 1 for finishing ahead, ½ level, 0
    behind. One game is one trial, however many seats each agent filled (an agent in two seats of a three-player
    game meets the other twice in one game, not in two); in a game of ``chance`` the games of one deal are
    clustered (``clustered_rate``)."""
    score: dict[tuple[str, str], list[float]] = {}
    games: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in rows:
        if is_coop(row):
            continue
        teams, ranks = sides(row), places(row)
        meetings: dict[tuple[str, str], list[float]] = {}
        for i, j in itertools.permutations(range(len(row["seats"])), 2):
            a, b = row["seats"][i], row["seats"][j]
            if a == b or teams[i] == teams[j]:
                continue
            ri, rj = ranks[i], ranks[j]
            meetings.setdefault((a, b), []).append(1.0 if ri < rj else 0.5 if ri == rj else 0.0)
        for pair, points in meetings.items():
            score.setdefault(pair, []).append(sum(points) / len(points))
            games.setdefault(pair, []).append(row)
    return {
        pair: clustered_rate(score[pair], deals(games[pair], chance))
        for pair in score
        if pair[0] in agents and pair[1] in agents
    }


def unbounded(rows: Sequence[dict[str, Any]], agents: Sequence[str]) -> dict[str, str]:
    """The agents that finished ahead of (``"won"``) or behind (``"lost"``) every opponent in every game they met:
    the data put no limit on how far their rating lies from the others', so the rating model's prior sets it."""
    matrix = win_matrix(rows, agents)
    out = {}
    for agent in agents:
        scores = [rate.value for (a, _), rate in matrix.items() if a == agent]
        if scores and all(v == 1.0 for v in scores):
            out[agent] = "won"
        elif scores and all(v == 0.0 for v in scores):
            out[agent] = "lost"
    return out


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

    def to_json(self) -> dict[str, Any]:
        """The comparison as JSON."""
        out: dict[str, Any] = {f.name: getattr(self, f.name) for f in fields(self)}
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
    from scipy.stats import ttest_ind

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
    sa = {k: v / len(xa) for k, v in _cluster_sums(xa, ca, ma).items()}
    sb = {k: v / len(xb) for k, v in _cluster_sums(xb, cb, mb).items()}
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
    half = _student(0.975, g - 1) * math.sqrt(variance)
    return Comparison(option, a, b, figure, unit, ma, mb, d, d - half, d + half, p)


def first_mover(game: str, options: dict[str, Any]) -> int | None:
    """The seat that moves first in ``game`` with ``options`` (Kuzushi's is seat 1, the others' seat 0); None
    where no seat opens the whole game (Kozo's rounds rotate the opener), so no seat is called "moves first"."""
    from kumiki.core.registry import load_game

    return load_game(game, **options).first_mover()


def variant_comparisons(
    rows: Sequence[dict[str, Any]], game: str | None = None, chance: bool = False
) -> list[Comparison]:
    """For every two option sets that differ in exactly one option: the game length, (with the same number of
    seats) the first mover's share of the wins, B against A (seat 0's when ``game`` is not given), and for
    co-operative games the team's success rate (what a designer of one asks of a variant). In a game of ``chance``
    the two sets met the same deals: the games are clustered by deal, across both sets (``compare_clustered``)."""
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
            games_a, games_b = _competitive(groups[ka]), _competitive(groups[kb])
            credits_a, credits_b = seat_credits(games_a, seat), seat_credits(games_b, seat)
            teams = _fixed_teams(games_a)
            if teams is not None and teams == _fixed_teams(games_b):  # the first mover's side wins, not the seat alone
                side_of = "seat 0's side" if first is None else f"first mover's side (seat {seat}'s)"
                figure = f"{side_of} share of the wins"
                side = teams[seat]
                rate_a, rate_b = side_rates(games_a, teams)[side], side_rates(games_b, teams)[side]
                credits_a, credits_b = side_credits(games_a, teams, side), side_credits(games_b, teams, side)
            if chance:
                out.append(_clustered(differing[0], ka, kb, figure, "share", credits_a, games_a, credits_b, games_b))
            else:
                out.append(compare_rates(differing[0], ka, kb, figure, rate_a, rate_b))
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
                        _successes(coop_games_a),
                        coop_games_a,
                        _successes(coop_games_b),
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
