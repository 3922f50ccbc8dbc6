"""The figures of a balance report, each with its interval: seat win rates (Wilson) and a test of fairness,
score, margin and length distributions, draw rates, the win matrix, variant comparisons and the skill ladder."""

from __future__ import annotations

import itertools
import json
import math
import warnings
from collections.abc import Iterable, Sequence
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


def mean_interval(values: Sequence[float], rate: bool = False, lower: float | None = None) -> Mean:
    """The sample mean with its 95% interval: Wilson's for a ``rate`` (every value 0 or 1 by definition: "card held",
    "success"), else Student's t, cut at ``lower`` where no value can be below it (a count, a length: a t interval on
    three games may reach far below zero, which no count can). Where every game gave the same value there is no
    interval (NaN): no spread to estimate one from, and a width of 0 would claim certainty."""
    n = len(values)
    if n == 0:
        return Mean(math.nan, math.nan, math.nan, math.nan, 0)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else math.nan
    if rate:
        interval = wilson(sum(values), n)
        return Mean(mean, interval.low, interval.high, sd, n)
    if n == 1:
        return Mean(mean, math.nan, math.nan, math.nan, 1)
    if max(values) == min(values):  # every game gave the same value: t would claim a certainty of width 0
        return Mean(mean, math.nan, math.nan, sd, n)
    from scipy.stats import t  # type: ignore[import-untyped]  # scipy ships no type information

    half = float(t.ppf(0.975, n - 1)) * sd / math.sqrt(n)
    low = mean - half if lower is None else max(lower, mean - half)
    return Mean(mean, low, mean + half, sd, n)


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


def bootstrap_units(rows: Iterable[dict[str, Any]], chance: bool) -> int:
    """How many independent units (see ``bootstrap_unit``) a bootstrap over ``rows`` resamples."""
    return len({bootstrap_unit(row, chance) for row in rows})


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


def seat_wins(rows: Sequence[dict[str, Any]]) -> list[Rate]:
    """Each seat's share of the wins (a shared win split evenly) over the competitive games, with Wilson intervals.

    In a game of teams the seats of a side win together: their wins are one count (the side's), not independent
    ones, so each seat's share and interval are its side's divided among the side's seats."""
    games = _competitive(rows)
    if not games:
        return []
    seats = max(len(r["seats"]) for r in games)
    teams = _fixed_teams(games)
    if teams is not None:
        sides = side_rates(games, teams)
        out = []
        for seat in range(seats):
            rate, k = sides[teams[seat]], teams.count(teams[seat])
            out.append(Rate(rate.successes / k, rate.trials, rate.value / k, rate.low / k, rate.high / k))
        return out
    wins = [0.0] * seats
    for row in games:
        for w in row["winners"]:
            wins[w] += 1.0 / len(row["winners"])
    return [wilson(wins[s], len(games)) for s in range(seats)]


def _competitive(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in rows if not is_coop(r)]


def side_rates(games: Sequence[dict[str, Any]], teams: list[int]) -> dict[int, Rate]:
    """Each side's share of the competitive ``games``' wins, with its Wilson interval."""
    return {side: wilson(wins, len(games)) for side, wins in side_wins(games, teams).items()}


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


def fairness_p(rows: Sequence[dict[str, Any]]) -> float:
    """The p-value of "every seat wins equally often" (see ``fairness``)."""
    return fairness(rows)[0]


def fairness(rows: Sequence[dict[str, Any]]) -> tuple[float, str]:
    """The p-value of "every seat wins equally often" and the test's name: the exact multinomial test (the chance,
    if every seat were equal, of a share of the wins at most as likely as the one seen) while the ways to share the
    wins are few enough to count; else, or when shared wins split a game, the chi-square test (good once each seat
    expects 5 wins; below that its name says it is approximate). In a game of teams the sides are what win, so the
    test compares the sides' wins."""
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
    if single and math.comb(int(total) + cells - 1, cells - 1) <= EXACT_OUTCOMES:
        return _exact_multinomial_p([int(w) for w in observed]), "exact multinomial"
    from scipy.stats import chisquare

    p = float(chisquare(observed, [total / cells] * cells).pvalue)
    if total / cells < CHI_SQUARE_EXPECTED:  # the approximation is poor there: say so beside the p-value
        return p, f"chi-square, approximate: under {CHI_SQUARE_EXPECTED} wins expected a seat"
    return p, "chi-square"


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
    return min(1.0, total)


def draw_rate(rows: Sequence[dict[str, Any]]) -> Rate:
    """How often a competitive game ends with more than one side sharing the win (a draw or a shared tie)."""
    games = _competitive(rows)
    shared = 0
    for row in games:
        teams = sides(row)
        if len({teams[w] for w in row["winners"]}) > 1 or not row["winners"]:
            shared += 1
    return wilson(shared, len(games))


def forfeit_rate(rows: Sequence[dict[str, Any]]) -> Rate:
    """How often a game ended by forfeit."""
    return wilson(sum(1 for r in rows if r.get("forfeit")), len(rows))


def lengths(rows: Sequence[dict[str, Any]]) -> Mean:
    """The game length in moves."""
    return mean_interval([float(r["moves"]) for r in rows], lower=0.0)


def margins(rows: Sequence[dict[str, Any]]) -> Mean:
    """The winner's score minus the second's (by side), over competitive games without forfeit."""
    values = []
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
    return mean_interval(values, lower=0.0)


def seat_scores(rows: Sequence[dict[str, Any]]) -> list[Mean]:
    """Each seat's mean score."""
    if not rows:
        return []
    seats = max(len(r["scores"]) for r in rows)
    return [mean_interval([float(r["scores"][s]) for r in rows if s < len(r["scores"])]) for s in range(seats)]


def measure_means(rows: Sequence[dict[str, Any]]) -> dict[str, Mean]:
    """The mean of each of the game's own measures (``State.measures()``: falls, tiles left, …) over the games."""
    names: dict[str, None] = {}
    for row in rows:
        names.update(dict.fromkeys(row.get("measures") or {}))
    return {
        n: mean_interval(
            [float(r["measures"][n]) for r in rows if n in (r.get("measures") or {})],
            rate=is_rate_measure(n),
            lower=0.0,  # the others are counts (State.measures): a count that happened to be 0 or 1 may be 2
        )
        for n in names
    }


def coop_success(rows: Sequence[dict[str, Any]]) -> Rate:
    """The share of co-operative games the team won (the game's own measure ``success``, else a positive score)."""
    games = [r for r in rows if is_coop(r)]
    won = 0
    for row in games:
        measures = row.get("measures") or {}
        won += bool(measures["success"]) if "success" in measures else row["scores"][0] > 0
    return wilson(won, len(games))


def branching_by_ply(rows: Sequence[dict[str, Any]], plies: int = 60) -> list[Mean]:
    """The mean number of legal moves at each ply (studies with ``trace = true``), up to ``plies``."""
    traced = [r["branching"] for r in rows if "branching" in r]
    return [
        mean_interval([float(t[ply]) for t in traced if ply < len(t)], lower=0.0)
        for ply in range(plies)
        if any(ply < len(t) for t in traced)
    ]


def lead_changes(rows: Sequence[dict[str, Any]]) -> Mean:
    """How often the lead changed hands in a game (studies with ``trace = true``)."""
    return mean_interval([float(r["lead_changes"]) for r in rows if "lead_changes" in r], lower=0.0)


def coop_by_team(rows: Sequence[dict[str, Any]]) -> dict[str, tuple[Rate, Mean]]:
    """For each team composition (the agents at the table, whatever their seats) of the co-operative games: the
    success rate and the mean score."""
    teams: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        if is_coop(row):
            teams.setdefault(" + ".join(sorted(row["seats"])), []).append(row)
    return {
        name: (coop_success(group), mean_interval([float(r["scores"][0]) for r in group]))
        for name, group in teams.items()
    }


def ladder_steps(rows: Sequence[dict[str, Any]], agents: Sequence[str]) -> list[tuple[str, str, Rate]]:
    """Each agent of a ladder against the one below it: its score with its interval (does skill pay here?)."""
    matrix = win_matrix(rows, agents)
    return [(high, low, matrix[(high, low)]) for low, high in itertools.pairwise(agents) if (high, low) in matrix]


def only_self_play(rows: Sequence[dict[str, Any]], agents: Sequence[str]) -> bool:
    """Several agents and games between sides, yet no agent met another (each played only itself): nothing to rate
    them by (the ratings would be the prior's, all 0, and read as a tie)."""
    return len(agents) > 1 and any(not is_coop(r) for r in rows) and not win_matrix(rows, agents)


def win_matrix(rows: Sequence[dict[str, Any]], agents: Sequence[str]) -> dict[tuple[str, str], Rate]:
    """For each ordered pair of agents, the first's score against the second, with its Wilson interval: in each game
    where they sat on different sides, the mean over their pairs of seats of 1 for finishing ahead, ½ level, 0
    behind. One game is one trial, however many seats each agent filled (an agent in two seats of a three-player
    game meets the other twice in one game, not in two)."""
    score: dict[tuple[str, str], float] = {}
    count: dict[tuple[str, str], int] = {}
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
            score[pair] = score.get(pair, 0.0) + sum(points) / len(points)
            count[pair] = count.get(pair, 0) + 1
    return {pair: wilson(score[pair], count[pair]) for pair in count if pair[0] in agents and pair[1] in agents}


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
    """B − A for two independent rates: Newcombe's interval and the p-value of a two-proportion z-test."""
    d = rb.value - ra.value
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


def first_mover(game: str, options: dict[str, Any]) -> int | None:
    """The seat that moves first in ``game`` with ``options`` (Kuzushi's is seat 1, the others' seat 0); None
    where no seat opens the whole game (Kozo's rounds rotate the opener), so no seat is called "moves first"."""
    from kumiki.core.registry import load_game

    return load_game(game, **options).first_mover()


def variant_comparisons(rows: Sequence[dict[str, Any]], game: str | None = None) -> list[Comparison]:
    """For every two option sets that differ in exactly one option: the game length, (with the same number of
    seats) the first mover's share of the wins, B against A (seat 0's when ``game`` is not given), and for
    co-operative games the team's success rate (what a designer of one asks of a variant)."""
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
            teams = _fixed_teams(games_a)
            if teams is not None and teams == _fixed_teams(games_b):  # the first mover's side wins, not the seat alone
                side_of = "seat 0's side" if first is None else f"first mover's side (seat {seat}'s)"
                figure = f"{side_of} share of the wins"
                side = teams[seat]
                rate_a, rate_b = side_rates(games_a, teams)[side], side_rates(games_b, teams)[side]
            out.append(compare_rates(differing[0], ka, kb, figure, rate_a, rate_b))
        coop_a, coop_b = coop_success(groups[ka]), coop_success(groups[kb])
        if coop_a.trials and coop_b.trials:
            out.append(compare_rates(differing[0], ka, kb, "team success rate", coop_a, coop_b))
        length_a = [float(r["moves"]) for r in groups[ka]]
        length_b = [float(r["moves"]) for r in groups[kb]]
        out.append(compare_means(differing[0], ka, kb, "game length", length_a, length_b))
    return out
