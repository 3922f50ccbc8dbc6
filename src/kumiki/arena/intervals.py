"""Intervals for the arena's figures: rates (Wilson) and means (Student's t), and both again where games are
clustered by deal, so that games sharing a deal are not counted as independent evidence."""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, fields
from typing import Any

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


def student_quantile(q: float, df: float) -> float:
    from scipy.stats import t  # type: ignore[import-untyped]  # scipy ships no type information

    return float(t.ppf(q, df))


def cluster_sums(values: Sequence[float], clusters: Sequence[Hashable], centre: float) -> dict[Hashable, float]:
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
    sums = cluster_sums(values, clusters, mean)
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
    ratio = (student_quantile(0.975, n - 1) / student_quantile(0.975, g - 1)) ** 2
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
        half = student_quantile(0.975, g - 1) * math.sqrt(variance)
    else:
        half = student_quantile(0.975, n - 1) * sd / math.sqrt(n)
    low = mean - half if lower is None else max(lower, mean - half)
    high = mean + half if upper is None else min(upper, mean + half)
    return Mean(mean, low, high, sd, n)
