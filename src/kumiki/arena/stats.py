"""The figures of a balance report, each with its interval: seat win rates, score, margin and length
distributions, draw rates, the win matrix and the skill ladder (the intervals themselves: ``intervals``; the fairness
test: ``fairness``; variant comparisons: ``variants``)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable, Iterable, Sequence
from typing import Any

from kumiki.arena.intervals import Clusters, Mean, Rate, clustered_rate, mean_interval
from kumiki.core.game import is_rate_measure


def deals(rows: Sequence[dict[str, Any]], chance: bool) -> Clusters:
    """Each game's cluster for the figures' intervals: in a game of ``chance``, its game seed (the deal, which every
    line-up, seating and option set meets on that seed: ``bootstrap_unit``), else None (every game independent)."""
    return [bootstrap_unit(row, True) for row in rows] if chance else None


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
# Bootstrap resamples (the ratings and seat terms, the seats' spreads): the ends of a 95% percentile interval are
# the 2.5% and 97.5% quantiles of the resamples, and with 200 they moved by about a tenth of the interval's width
# from one resampling seed to another; with 2,000 by a third of that (sqrt(10)), at about a second of a report on
# the shipped studies (docs/arena.md, "How many resamples"). Seeded by the study's seed: the same report every time.
RESAMPLES = 2000
BATCH_CELLS = 4_000_000  # resamples fitted or drawn at once: at most this many numbers in the largest array of a batch


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
    games = competitive(rows)
    if not games:
        return []
    seats = max(len(r["seats"]) for r in games)
    teams = fixed_teams(games)
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


def competitive(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
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


def fixed_teams(games: Sequence[dict[str, Any]]) -> list[int] | None:
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


def draw_rate(rows: Sequence[dict[str, Any]], chance: bool = False) -> Rate:
    """How often a competitive game ends with more than one side sharing the win (a draw or a shared tie); every
    figure's ``chance``: the games of one deal are clustered (``clustered_rate``, ``mean_interval``)."""
    games = competitive(rows)
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
    return clustered_rate(coop_successes(games), deals(games, chance))


def coop_successes(games: Sequence[dict[str, Any]]) -> list[float]:
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
