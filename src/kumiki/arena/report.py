"""The balance report: one self-contained HTML file (plots inline as SVG, no script, no web font, opens offline),
``summary.json`` with every figure and its interval, and CSV tables beside them."""

from __future__ import annotations

import html
import io
import json
import math
import os
import re
import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kumiki.arena import fairness, intervals, stats, variants, verdict
from kumiki.arena.results import STUDY_FILE
from kumiki.arena.study import Sprt
from kumiki.arena.tables import write_table

if TYPE_CHECKING:
    from kumiki.arena.results import Results

STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 72rem; color: #222; padding: 0 1rem; }
h1 { font-size: 1.6rem; } h2 { margin-top: 2.2rem; border-bottom: 1px solid #ddd; } h3 { margin-top: 1.6rem; }
table { border-collapse: collapse; margin: .6rem 0; } td, th { padding: .2rem .7rem; border-bottom: 1px solid #eee; }
th { text-align: left; } td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.real { color: #a01a1a; font-weight: 600; } .note { color: #666; font-size: .9rem; } figure { margin: .8rem 0; }
.verdict { background: #f4f6fa; border-left: 4px solid #5b8bd0; padding: .4rem .8rem; }
"""


def _pct(rate: intervals.Rate) -> str:
    if math.isnan(rate.value):
        return "–"
    return f"{100 * rate.value:.1f}% [{100 * rate.low:.1f}, {100 * rate.high:.1f}]"


def _mean(mean: intervals.Mean, digits: int = 1) -> str:
    if math.isnan(mean.value):
        return "–"
    if math.isnan(mean.low):
        if mean.n == 1:
            why = "one game"
        elif mean.sd > 0:  # a spread, yet no interval: every game on one deal (a game of chance), none beyond it
            why = "one deal"
        else:
            why = f"the same in all {mean.n} games"
        return f"{mean.value:.{digits}f} ({why}: no interval)"
    return f"{mean.value:.{digits}f} [{mean.low:.{digits}f}, {mean.high:.{digits}f}]"


def _difference(c: dict[str, Any], mark: str) -> str:
    """A comparison's cells: B − A, its interval and p (rates in percentage points, lengths in moves)."""
    scale, unit = (100.0, " pts") if c["unit"] == "share" else (1.0, " moves")
    p = "–" if c["p"] != c["p"] else "&lt; 1e-6" if c["p"] < 1e-6 else f"{c['p']:.3g}"
    ends = f"[{verdict.interval_end(scale * c['low'])}, {verdict.interval_end(scale * c['high'])}]"
    if c["low"] != c["low"] or c["high"] != c["high"]:  # no interval (no verdict): a dash, as p's, not "[+nan, +nan]"
        ends = "–"
    return (
        f"<td class='n{mark}'>{scale * c['difference']:+.1f}{unit}</td>"
        f"<td class='n'>{ends}</td>"
        f"<td class='n'>{p}</td></tr>"
    )


def _svg(figure: Any) -> str:
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", bbox_inches="tight")
    import matplotlib.pyplot as plt

    plt.close(figure)
    text = buffer.getvalue()
    text = re.sub(r"<metadata>.*?</metadata>", "", text, flags=re.DOTALL)  # a date: the same report every time
    return text[text.index("<svg") :]


def _plots() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    # svg.hashsalt: the ids of the plots' clip paths and shapes from a fixed salt, not a random one per run
    plt.rcParams.update({"svg.fonttype": "none", "svg.hashsalt": "kumiki", "font.size": 9, "figure.dpi": 100})
    return plt


def _seat_plot(rates: Sequence[intervals.Rate], title: str, first: int | None = None) -> str:
    return _svg(_seat_figure(rates, title, first))


def _seat_figure(rates: Sequence[intervals.Rate], title: str, first: int | None = None) -> Any:
    plt = _plots()
    from matplotlib.ticker import PercentFormatter

    figure, axes = plt.subplots(figsize=(4.8, 2.6))
    seats = range(len(rates))
    values = [r.value for r in rates]
    errors = [[max(0.0, r.value - r.low) for r in rates], [max(0.0, r.high - r.value) for r in rates]]
    axes.bar(seats, values, yerr=errors, capsize=4, color="#5b8bd0", label="share of wins, 95% interval")
    fair = 1 / len(rates)
    axes.axhline(fair, color="#888", linestyle="--", linewidth=1, label=f"fair share ({100 * fair:.0f}%)")
    axes.set_xticks(list(seats), [verdict.seat_name(s, first).replace(" (", "\n(") for s in seats])
    axes.set_xlabel("seat")
    axes.set_ylabel("share of wins")
    axes.set_ylim(0, 1)
    axes.yaxis.set_major_formatter(PercentFormatter(1.0))
    # beside the plot, not in it: inside, a seat's tall bar (90% of the wins) ran under the legend's words
    axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=7, frameon=False)
    axes.set_title(f"{title}: each seat's share of the wins")
    return figure


def _histogram_bins(values: Sequence[float]) -> int | list[float]:
    """The histogram's bins: whole numbers (lengths in moves) one bar each, centred on its value, while at most 30
    fit (equal-width bins put a 14-move game's bar at 13.8 to 14, left of its tick); else up to 30 equal bins."""
    if values and all(float(v).is_integer() for v in values):
        low, high = int(min(values)), int(max(values))
        if high - low < 30:
            return [v - 0.5 for v in range(low, high + 2)]
    return min(30, max(5, len(set(values))))


def _histogram(values: Sequence[float], label: str, title: str = "") -> str:
    plt = _plots()
    from matplotlib.ticker import MaxNLocator

    figure, axes = plt.subplots(figsize=(4.8, 2.2))
    axes.hist(values, bins=_histogram_bins(values), color="#7aa874", rwidth=0.9)
    axes.set_xlabel(label)
    axes.set_ylabel("games")
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))  # a count of games has no half, nor a length of moves
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    if title:
        axes.set_title(title)
    return _svg(figure)


def _by_ply(means: Sequence[intervals.Mean]) -> str:
    plt = _plots()
    figure, axes = plt.subplots(figsize=(4.8, 2.2))
    plies = range(1, len(means) + 1)
    axes.plot(plies, [m.value for m in means], color="#333")
    lows = [m.low if m.low == m.low else m.value for m in means]
    highs = [m.high if m.high == m.high else m.value for m in means]
    axes.fill_between(plies, lows, highs, color="#bbb")
    axes.set_xlabel("ply (the move number, counting every player's moves)")
    axes.set_ylabel("legal moves (mean, 95%)")
    return _svg(figure)


def _forest(ratings: Sequence[dict[str, Any]]) -> str:
    """The rating table (the summary's rows) as points with their intervals."""
    plt = _plots()
    figure, axes = plt.subplots(figsize=(5.2, 0.45 * len(ratings) + 0.8))
    rows = list(reversed(ratings))
    values = [r["rating"] for r in rows]
    below = [r["rating"] - r["low"] if r["low"] is not None else 0.0 for r in rows]
    above = [r["high"] - r["rating"] if r["high"] is not None else 0.0 for r in rows]
    axes.errorbar(values, range(len(rows)), xerr=[below, above], fmt="o", color="#333", capsize=3)
    names = [r["agent"] + (" (no interval)" if r["low"] is None else "") for r in rows]
    axes.set_yticks(range(len(rows)), names)
    axes.axvline(0, color="#aaa", linewidth=1)
    axes.set_xlabel("rating (Elo scale, 95% interval)")
    axes.set_ylabel("agent")
    return _svg(figure)


def _heatmap(matrix: dict[tuple[str, str], intervals.Rate], agents: Sequence[str]) -> str:
    plt = _plots()
    import numpy as np

    n = len(agents)
    cells = {(agents.index(a), agents.index(b)): rate for (a, b), rate in matrix.items()}
    grid = np.full((n, n), np.nan)
    for (i, j), rate in cells.items():
        grid[i, j] = rate.value
    figure, axes = plt.subplots(figsize=(1.0 * n + 2, 0.8 * n + 1.2))
    image = axes.imshow(grid, vmin=0, vmax=1, cmap="RdBu")
    axes.set_xticks(range(n), agents, rotation=30, ha="right")
    axes.set_yticks(range(n), agents)
    for (i, j), rate in cells.items():  # the score with its 95% interval, legible on the dark ends of the map
        text = f"{100 * rate.value:.0f}%"
        if math.isfinite(rate.low) and math.isfinite(rate.high):
            text += f"\n[{100 * rate.low:.0f}, {100 * rate.high:.0f}]"
        colour = "white" if abs(rate.value - 0.5) > 0.3 else "black"
        axes.text(j, i, text, ha="center", va="center", fontsize=7, color=colour)
    axes.set_xlabel("against")
    axes.set_ylabel("agent (row)")
    figure.colorbar(image, ax=axes, label="score of the row agent")
    return _svg(figure)


def _signed(value: float) -> str:
    """Whole Elo points with their sign, never "-0" (an interval ending just below zero is "+0")."""
    return f"{round(value):+d}" if math.isfinite(value) else "?"


NO_INTERVAL = "no interval (the same in every resample)"


def _elo_interval(low: float | None, high: float | None) -> str:
    """A bootstrap interval in Elo points, or why there is none (every resample gave the same figure)."""
    if low is None or high is None or not (math.isfinite(low) and math.isfinite(high)):
        return NO_INTERVAL
    return f"[{_signed(low)}, {_signed(high)}]"


def summarise(results: Results) -> dict[str, Any]:
    """Every figure of the report, with its interval, as JSON-ready data."""
    study, rows = results.study, results.rows
    agents = list(study.agents)
    chance = study.chance  # a game of chance: the games of one deal are clustered in every interval (stats.deals)
    sets = []
    groups = stats.by_option_set(rows)
    for label, group in groups.items():
        entry: dict[str, Any] = {"options": group[0]["options"], "label": label, "games": len(group)}
        rates = stats.seat_wins(group, chance)
        entry["seat_wins"] = [r.to_json() for r in rates]
        entry["first_mover"] = variants.first_mover(study.game, group[0]["options"])
        entry["fairness_p"], entry["fairness_test"] = fairness.fairness(group, chance)
        competitive = [r for r in group if not stats.is_coop(r)]
        success = stats.coop_success(group, chance)
        draws = stats.draw_rate(group, chance)
        if competitive:
            entry["reading"], entry["verdict"] = verdict.fairness(
                rates,
                entry["fairness_p"],
                entry["fairness_test"],
                len(competitive),
                sum(1 for r in competitive if r.get("forfeit")),
                entry["first_mover"],
                len(groups),
                int(draws.successes),
            )
        else:  # co-operative: the question is how often the team succeeds, not which seat wins
            entry["reading"] = "co-operative"
            solo = all(len(r["seats"]) == 1 and "success" not in (r.get("measures") or {}) for r in group)
            entry["verdict"] = verdict.cooperative(success, solo)
        entry["draw_rate"] = draws.to_json()
        entry["forfeit_rate"] = stats.forfeit_rate(group, chance).to_json()
        limits = stats.measure_limits(study.game, group[0]["options"])
        entry["length"] = stats.lengths(group, chance, limits).to_json()
        entry["margin"] = stats.margins(group, chance).to_json()
        entry["seat_scores"] = [m.to_json() for m in stats.seat_scores(group, chance, limits)]
        if any("branching" in r for r in group):
            entry["branching_by_ply"] = [m.to_json() for m in stats.branching_by_ply(group, chance=chance)]
            entry["lead_changes"] = stats.lead_changes(group, chance).to_json()
        entry["measures"] = {name: m.to_json() for name, m in stats.measure_means(group, chance, limits).items()}
        if any(stats.is_coop(r) for r in group):
            entry["teams"] = {
                name: {"success": rate.to_json(), "score": mean.to_json()}
                for name, (rate, mean) in stats.coop_by_team(group, chance, limits).items()
            }
            entry["success"] = success.to_json()
        sets.append(entry)
    summary: dict[str, Any] = {
        "study": {
            "name": study.name,
            "game": study.game,
            "format": study.format,
            "games_per_block": study.games,
            "seed": study.seed,
            "agents": dict(study.agents),
            "reproducible": study.reproducible,
        },
        "games": len(rows),
        "unfinished": results.unfinished(),
        "option_sets": sets,
        "comparisons": [
            {**found, "reading": verdict.comparison(found)}
            for found in (c.to_json() for c in variants.variant_comparisons(rows, study.game, chance, study.seed))
        ],
    }
    summary["comparisons_reading"] = verdict.comparisons(summary["comparisons"])
    competitive = [r for r in rows if not stats.is_coop(r)]
    matrix = stats.win_matrix(rows, agents, chance)
    if len(agents) > 1 and competitive and matrix:  # no matrix: self-play, every agent met only itself (no ratings)
        # an agent with no game yet (a study stopped early) has no rating, only the prior's 0: as `arena ratings`
        summary["ratings"] = [r.to_json() for r in results.ratings() if r.games > 0]
        summary["unbounded"] = stats.unbounded(rows, agents)
        summary["win_matrix"] = [{"agent": a, "against": b, **rate.to_json()} for (a, b), rate in matrix.items()]
        summary["ratings_reading"] = verdict.ratings(summary["ratings"], matrix)
    if competitive:
        from kumiki.arena.ratings import seat_advantage

        # One model per number of players: seat 2 of a three-player game is not seat 2 of a four-player one.
        per_players = stats.by_players(competitive)
        summary["seat_advantage"] = [
            {"players": n, "seat": s, "elo": round(v, 1) + 0.0, "low": round(lo, 1) + 0.0, "high": round(hi, 1) + 0.0}
            for n, games in per_players.items()
            for s, (v, lo, hi) in enumerate(seat_advantage(games, agents, seed=study.seed, chance=study.chance))
        ]
        units = {n: stats.bootstrap_units(games, chance) for n, games in per_players.items()}
        deciding = {n: stats.seat_deciding_units(games, chance) for n, games in per_players.items()}
        unit = "game seeds" if chance else "seed blocks"
        summary["seat_advantage_deciding"] = [
            {"players": n, "units": units[n], "deciding": k, "few": verdict.few_deciding(k)}
            for n, k in deciding.items()
        ]
        pooled = {n: len({stats.option_key(r["options"]) for r in games}) for n, games in per_players.items()}
        summary["seat_advantage_reading"] = verdict.seat_advantage(
            summary["seat_advantage"], _common_first(sets), units, unit, deciding, pooled
        )
    if study.format == "ladder":
        summary["ladder"] = [
            {"agent": high, "below": low, **rate.to_json(), "reading": verdict.ladder_step(high, low, rate)}
            for high, low, rate in stats.ladder_steps(rows, agents, chance)
        ]
    sprt = results.sprt()
    if sprt is not None:
        summary["sprt"] = sprt.to_json()
        test, (first, second) = study.sprt or Sprt(), agents
        summary["sprt"]["verdict"] = verdict.sprt(
            summary["sprt"], first, second, test.elo0, test.elo1, test.alpha, test.beta, test.max_games
        )
    return summary


def write_report(results: Results, path: Path) -> Path:
    """Write ``path`` (the HTML report), ``summary.json`` and the CSV tables next to it; returns ``path``."""
    summary = summarise(results)
    folder = path.parent
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "summary.json").write_text(json.dumps(_no_nan(summary), indent=1, allow_nan=False) + "\n")
    _write_tables(summary, folder)
    path.write_text(_html(results, summary), encoding="utf-8")
    return path


def _no_nan(value: Any) -> Any:
    """The summary with every undefined figure (NaN: a rate of no games, an interval of one) as null: JSON has no
    NaN, and null says "not defined" to every reader."""
    if isinstance(value, float):
        return None if math.isnan(value) or math.isinf(value) else value
    if isinstance(value, dict):
        return {k: _no_nan(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_no_nan(v) for v in value]
    return value


# The report's CSV tables' columns (docs/arena.md names each); each table then has an option_<name> column an option.
SEAT_COLUMNS = ["options", "seat", "win_share", "low", "high", "games", "moves_first", "wins"]
SET_COLUMNS = ["options", "games", "fairness_p", "fairness_test", "reading", "length", "length_low", "length_high"]
SET_COLUMNS += ["success", "success_low", "success_high"]
COMPARISON_COLUMNS = ["option", "a", "b", "figure", "difference", "low", "high", "p", "unit", "a_value"]
COMPARISON_COLUMNS += ["b_value", "reading"]


def _write_tables(summary: dict[str, Any], folder: Path) -> None:
    """The report's tables as tidy CSV, one row an observation (columns: docs/arena.md): each option appears in a
    column of its own (``option_<name>``) so that a spreadsheet filters and pivots on it."""
    names = list(dict.fromkeys(k for entry in summary["option_sets"] for k in entry["options"]))
    seat_rows = []
    for entry in summary["option_sets"]:
        spread = [entry["options"].get(k, "") for k in names]
        for seat, rate in enumerate(entry["seat_wins"]):
            first = seat == entry["first_mover"]
            interval = [rate["value"], rate["low"], rate["high"]]
            seat_rows.append([entry["label"], seat, *interval, entry["games"], first, rate["successes"], *spread])
    write_table(
        folder / "seat_wins.csv",
        [*SEAT_COLUMNS, *(f"option_{k}" for k in names)],
        seat_rows,
    )
    write_table(
        folder / "option_sets.csv",
        [*SET_COLUMNS, *(f"option_{k}" for k in names)],
        [
            [e["label"], e["games"], e["fairness_p"], e["fairness_test"], e["reading"]]
            + [e["length"]["value"], e["length"]["low"], e["length"]["high"]]
            + [e.get("success", {}).get(k, "") for k in ("value", "low", "high")]
            + [e["options"].get(k, "") for k in names]
            for e in summary["option_sets"]
        ],
    )
    if "ratings" in summary:
        write_table(
            folder / "ratings.csv",
            ["agent", "rating", "low", "high", "games"],
            [[r["agent"], r["rating"], r["low"], r["high"], r["games"]] for r in summary["ratings"]],
        )
    write_table(
        folder / "comparisons.csv",
        COMPARISON_COLUMNS,
        [[c[k] for k in COMPARISON_COLUMNS] for c in summary["comparisons"]],
    )


def _common_first(entries: Sequence[dict[str, Any]]) -> int | None:
    """The seat that moves first in every one of these option sets, or None where they differ (the tables then
    name no seat "moves first" in their heads)."""
    firsts = {e["first_mover"] for e in entries}
    return next(iter(firsts)) if len(firsts) == 1 else None


def _glance(summary: dict[str, Any], groups: dict[str, list[dict[str, Any]]], chance: bool = False) -> list[str]:
    """The option sets side by side: one row each, the seats' shares (or the team's success), the fairness test,
    the length and the reading — the table a designer compares variants on."""
    esc = html.escape
    sets = summary["option_sets"]
    parts = ["<h2>At a glance: the option sets side by side</h2>"]
    competitive = [e for e in sets if e["seat_wins"]]
    if competitive:
        seats = max(len(e["seat_wins"]) for e in competitive)
        first = _common_first(competitive)
        heads = "".join(f"<th>{esc(verdict.seat_name(s, first))} wins</th>" for s in range(seats))
        parts.append(
            f"<table><tr><th>options</th><th>games</th>{heads}<th>all seats equal? (p)</th>"
            "<th>length (moves)</th><th>reading</th></tr>"
        )
        for e in competitive:
            cells = []
            rates = stats.seat_wins(groups[e["label"]], chance)
            for s in range(seats):
                if s < len(rates):
                    mark = " (first)" if first is None and s == e["first_mover"] else ""
                    cells.append(f"<td class='n'>{_pct(rates[s])}{mark}</td>")
                else:
                    cells.append("<td></td>")
            p = e["fairness_p"]
            real = " class='n real'" if p == p and p < verdict.SIGNIFICANCE else " class='n'"
            p_cell = esc(verdict.p_text(p)) if p == p else "–"
            length = _length(summary["study"]["game"], groups[e["label"]], chance)
            parts.append(
                f"<tr><td>{esc(e['label'])}</td><td class='n'>{e['games']}</td>{''.join(cells)}"
                f"<td{real}>{p_cell}</td><td class='n'>{_mean(length)}</td>"
                f"<td>{esc(e['reading'])}</td></tr>"
            )
        parts.append("</table>")
    coop = [e for e in sets if "success" in e]
    if coop:
        parts.append("<table><tr><th>options</th><th>games</th><th>team success</th><th>length (moves)</th></tr>")
        for e in coop:
            parts.append(
                f"<tr><td>{esc(e['label'])}</td><td class='n'>{e['games']}</td>"
                f"<td class='n'>{_pct(stats.coop_success(groups[e['label']], chance))}</td>"
                f"<td class='n'>{_mean(_length(summary['study']['game'], groups[e['label']], chance))}</td></tr>"
            )
        parts.append("</table>")
    if len(competitive) > 1:
        parts.append(
            "<p class='note'>Every option set meets the same game seeds. A reading of “no evidence of an edge” "
            "means the games seen could have come from equal seats, not that the seats are equal: the intervals "
            "show how large an edge is still possible. See “Variants compared” below for the differences between "
            "option sets, each with its interval.</p>"
        )
    return parts


def _length(game: str, group: Sequence[dict[str, Any]], chance: bool) -> intervals.Mean:
    """An option set's game length, its interval within the longest game its rules allow."""
    return stats.lengths(group, chance, stats.measure_limits(game, group[0]["options"]))


def _few_blocks_note(rows: Sequence[dict[str, Any]], chance: bool, what: str, more: str = "") -> list[str]:
    """The caveat of a bootstrap over fewer than ``FEW_BLOCKS`` independent units (none when there are enough): seed
    blocks, or in a game of chance game seeds, each drawn with every block played on it (``stats.bootstrap_unit``)."""
    units = stats.bootstrap_units(rows, chance)
    if units >= stats.FEW_BLOCKS:
        return []
    if chance:  # blocks b, games + b, … share a deal: the study's `games` counts the units, whatever its line-ups
        return [
            f"<p class='note'>{what} come from a bootstrap over {units} game seed(s), each drawn with all its games "
            f"(every line-up and option set meets the same seeds, and in this game a seed is a deal): so few give "
            f"few distinct resamples, and the intervals mean little{more}. A larger "
            "<code>games</code> gives more seeds; more agents or option sets do not.</p>"
        ]
    return [
        f"<p class='note'>{what} come from a bootstrap over {units} seed block(s): so few give few distinct "
        f"resamples, and the intervals mean little{more}. More games give more blocks.</p>"
    ]


def _shown(path: Path) -> str:
    """A path as UTF-8 text can hold it: a byte of a name that is not UTF-8 (a folder named in Latin-1) comes as
    U+FFFD; as it was (a lone surrogate), the report could not be written ("internal error")."""
    return os.fsencode(path).decode("utf-8", "replace")


def _provenance(results: Results) -> str:
    """What was measured and with which commands: the study as run (its ``study.toml``, in full), the command that
    played its games (again: the games still missing) and the one that wrote this report."""
    folder = html.escape(shlex.quote(_shown(results.path)), quote=False)  # in text, a quote needs no escape
    study_file = html.escape(shlex.quote(_shown(results.path / STUDY_FILE)), quote=False)
    return (
        f"<p class='note'>The games were played by <code>kumiki arena run {study_file} --out {folder}</code> (run "
        "again, it plays the games still missing; into a new folder, the same games again) and this report written "
        f"by <code>kumiki arena report {folder}</code>, from this study:</p>"
        f"<pre>{html.escape(results.study.to_toml(), quote=False)}</pre>"
    )


def _html(results: Results, summary: dict[str, Any]) -> str:
    study, rows = results.study, results.rows
    chance = study.chance
    esc = html.escape
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{esc(study.name)}: Kumiki arena report</title><style>{STYLE}</style></head><body>",
        f"<h1>{esc(study.name)}</h1>",
        f"<p>{esc(study.game)}, format {esc(study.format)}, {verdict.games_text(len(rows))}, root seed {study.seed}. "
        "Agents: " + ", ".join(f"<b>{esc(k)}</b> = <code>{esc(v)}</code>" for k, v in study.agents.items()) + ".</p>",
        _provenance(results),
        "<p class='note'>Every figure carries its 95% interval, the range of values these games are consistent "
        "with (a narrow one: the figure is well measured; a wide one: play more games): Wilson intervals for rates, "
        "t intervals for means (cut at the smallest and largest value the game allows: a count is never below 0), "
        f"bootstrap intervals over {'game seeds' if study.chance else 'seed blocks'} for ratings. A difference is "
        "marked <span class='real'>real</span> when its interval excludes zero (p &lt; 0.05): real here means "
        "unlikely to be chance alone, not large. "
        "The agents are computer players: a seat advantage found with them is the game's as they play it.</p>",
    ]
    if chance:
        parts.append(
            "<p class='note'>In this game the seed is the deal, and every game played on one seed (a seed block's "
            "seatings, every line-up and option set on it) met the same deal: those games are alike, not "
            "independent, so every interval here counts deals, not games. Rates take Wilson's interval on Korn "
            "&amp; Graubard's effective number of games (the games over the design effect, with their "
            "degrees-of-freedom correction; never narrower than Wilson's on the games), means a t interval on the "
            "standard error clustered by deal (deals − 1 degrees of freedom), the seats' test Rao &amp; Scott's "
            "correction of chi-square where the deals make the seats' shares vary more than independent games "
            "would.</p>"
        )
    if summary.get("unfinished"):
        parts.append(f"<p class='note'><b>This study is {esc(summary['unfinished'])}.</b></p>")
    if not study.reproducible:
        parts.append(
            "<p class='note'>This study has a time budget or move limit: its results depend on the machine.</p>"
        )
    groups = stats.by_option_set(rows)  # the figures unrounded, as each set's own table shows them
    parts += _glance(summary, groups, study.chance)
    if stats.only_self_play(rows, list(study.agents)):
        parts.append(
            "<h2>Ratings</h2><p class='note'>No ratings: no game set two different agents against each other "
            "(each played only itself), so there is nothing to rate them by.</p>"
        )
    if "ratings" in summary:
        if summary.get("ratings_reading"):
            parts.append(f"<h2>Ratings</h2><p class='verdict'>{esc(summary['ratings_reading'])}</p>")
        else:
            parts.append("<h2>Ratings</h2>")
        parts.append("<table><tr><th>agent</th><th>rating</th><th>95% interval</th><th>games</th></tr>")
        for r in summary["ratings"]:
            parts.append(
                f"<tr><td>{esc(r['agent'])}</td><td class='n'>{_signed(r['rating'])}</td>"
                f"<td class='n'>{_elo_interval(r['low'], r['high'])}</td><td class='n'>{r['games']}</td></tr>"
            )
        parts.append("</table>")
        unit = "game seeds" if study.chance else "seed blocks"
        parts.append(
            "<p class='note'>Each agent's strength on the Elo scale: the agents' mean is 0, and an agent 100 points "
            "above another is expected to score about 64% against it (a shared win counts half); the seats' edge is "
            f"held apart. The 95% interval is the range of ratings these games are consistent with (a bootstrap over "
            f"{unit}).</p>"
        )
        for agent, how in summary.get("unbounded", {}).items():
            side = "above" if how == "won" else "below"
            parts.append(
                f"<p class='note'><b>{esc(agent)}</b> {how} every game it played: the games put no "
                f"limit on how far {side} the others it is, so its rating comes from the model's weak prior, not "
                f"from the games. Read it as “far {side}”; its raw score is the measurement.</p>"
            )
        parts += _few_blocks_note(rows, study.chance, "These intervals")
        parts.append(f"<figure>{_forest(summary['ratings'])}</figure>")  # the summary's fit: no second bootstrap
        agents = list(study.agents)
        parts.append(
            "<h3>Win matrix</h3><p class='note'>Each cell: the row agent's score against the column agent (1 for "
            "finishing ahead of it, ½ level, 0 behind, over the games they met in), with its 95% interval.</p><figure>"
            + _heatmap(stats.win_matrix(rows, agents, chance), agents)
            + "</figure>"
        )
    if summary.get("ladder"):
        parts.append(
            "<h2>The ladder</h2><p class='note'>Does more skill win more? Each agent against the one before it in "
            "the study file: its score (1 for finishing ahead, ½ level, 0 behind) with its 95% interval, and what "
            "that shows.</p><table><tr><th>agent</th><th>against the one below</th><th>score</th><th>reading</th></tr>"
        )
        for step in summary["ladder"]:
            rate = intervals.Rate(step["successes"], step["trials"], step["value"], step["low"], step["high"])
            mark = " real" if rate.low > 0.5 or rate.high < 0.5 else ""
            parts.append(
                f"<tr><td>{esc(step['agent'])}</td><td>{esc(step['below'])}</td>"
                f"<td class='n{mark}'>{_pct(rate)}</td><td>{esc(step.get('reading', ''))}</td></tr>"
            )
        parts.append("</table>")
    if "seat_advantage" in summary:
        several = len({s["players"] for s in summary["seat_advantage"]}) > 1
        head = "<th>players</th>" if several else ""
        parts.append(
            "<h2>Seat advantage, skill held apart</h2>"
            f"<p class='verdict'>{esc(summary.get('seat_advantage_reading', ''))}</p>"
            f"<table><tr>{head}<th>seat</th><th>Elo</th><th>95% interval</th></tr>"
        )
        first = _common_first(summary["option_sets"])
        for s in summary["seat_advantage"]:
            mark = " real" if s["low"] > 0 or s["high"] < 0 else ""
            players = f"<td class='n'>{s['players']}</td>" if several else ""
            parts.append(
                f"<tr>{players}<td>{esc(verdict.seat_name(s['seat'], first))}</td>"
                f"<td class='n{mark}'>{_signed(s['elo'])}</td>"
                f"<td class='n'>{_elo_interval(s['low'], s['high'])}</td></tr>"
            )
        parts.append("</table>")
        unit = "game seeds" if study.chance else "seed blocks"
        for found in summary.get("seat_advantage_deciding", []):
            if found["few"]:
                which = f" ({found['players']} players)" if several else ""
                text = verdict.few_deciding_text(found["deciding"], found["units"], unit)
                parts.append(f"<p class='note'><b>⚠ {esc(text.replace(':', which + ':', 1))}</b></p>")
        parts.append(
            "<p class='note'>Each seat's edge over the average seat, in Elo points (+100 ≈ 64% expected score "
            "against an average seat), from a model fitted once per number of players.</p>"
        )
        # The ratings' caveat holds here too, and a self-play study (no ratings section) would not show it at all.
        competitive = stats.by_players(r for r in rows if not stats.is_coop(r))
        for n, games in competitive.items():
            which = f" of the {n}-player games" if len(competitive) > 1 else ""
            parts += _few_blocks_note(
                games, study.chance, f"The seats' intervals{which}", ", a seat marked real among them included"
            )
    if "sprt" in summary:
        t = summary["sprt"]
        parts.append(
            f"<h2>SPRT</h2><p class='verdict'>{esc(t['verdict'])}</p><p>LLR {t['llr']:.2f} (bounds {t['lower']:.2f}, "
            f"{t['upper']:.2f}) after {t['pairs']} game pairs with the seats swapped; pairs scoring 0, ½, 1, 1½, 2 "
            f"points for the first agent: {t['pentanomial']}. The LLR (log-likelihood ratio) weighs the evidence: "
            "it grows as the games favour H1 and falls as they favour H0, and the test stops when it reaches a "
            "bound.</p>"
        )
    for entry in summary["option_sets"]:
        group = groups[entry["label"]]
        first = entry["first_mover"]
        parts.append(f"<h2>{esc(entry['label'])}</h2><p>{verdict.games_text(entry['games'])}.</p>")
        rates = stats.seat_wins(group, chance)
        parts.append(f"<p class='verdict'>{esc(entry['verdict'])}</p>")
        parts.append("<table>")
        for seat, rate in enumerate(rates):
            parts.append(f"<tr><td>{esc(verdict.seat_name(seat, first))} wins</td><td class='n'>{_pct(rate)}</td></tr>")
        p = entry["fairness_p"]
        if p == p:  # not NaN
            mark = " real" if p < 0.05 else ""
            test = esc(entry.get("fairness_test") or "chi-square")
            parts.append(f"<tr><td>all seats equal? p ({test})</td><td class='n{mark}'>{p:.3g}</td></tr>")
        if rates:
            parts.append(
                f"<tr><td>shared wins (draws)</td><td class='n'>{_pct(stats.draw_rate(group, chance))}</td></tr>"
            )
        parts.append(f"<tr><td>forfeits</td><td class='n'>{_pct(stats.forfeit_rate(group, chance))}</td></tr>")
        parts.append(f"<tr><td>length (moves)</td><td class='n'>{_mean(_length(study.game, group, chance))}</td></tr>")
        if rates:
            parts.append(
                f"<tr><td>margin (winner − second)</td><td class='n'>{_mean(stats.margins(group, chance))}</td></tr>"
            )
        limits = stats.measure_limits(study.game, group[0]["options"])
        for seat, mean in enumerate(stats.seat_scores(group, chance, limits)):
            name = esc(verdict.seat_name(seat, first))
            parts.append(f"<tr><td>{name} score</td><td class='n'>{_mean(mean)}</td></tr>")
        if "lead_changes" in entry:
            parts.append(
                f"<tr><td>lead changes</td><td class='n'>{_mean(stats.lead_changes(group, chance), 2)}</td></tr>"
            )
        for name, mean in stats.measure_means(group, chance, limits).items():
            parts.append(f"<tr><td>{esc(name.replace('_', ' '))} (mean)</td><td class='n'>{_mean(mean, 2)}</td></tr>")
        if "success" in entry:
            parts.append(f"<tr><td>team success</td><td class='n'>{_pct(stats.coop_success(group, chance))}</td></tr>")
        parts.append("</table>")
        if "teams" in entry:
            parts.append("<table><tr><th>team</th><th>success</th><th>score</th></tr>")
            for name, (rate, mean) in stats.coop_by_team(group, chance, limits).items():
                parts.append(
                    f"<tr><td>{esc(name)}</td><td class='n'>{_pct(rate)}</td><td class='n'>{_mean(mean)}</td></tr>"
                )
            parts.append("</table>")
        if rates:
            parts.append(f"<figure>{_seat_plot(rates, entry['label'], first)}</figure>")
        lengths = [float(r["moves"]) for r in group]
        title = f"{entry['label']}: game lengths"
        parts.append(f"<figure>{_histogram(lengths, 'game length (moves)', title)}</figure>")
        if "branching_by_ply" in entry:
            parts.append(f"<figure>{_by_ply(stats.branching_by_ply(group, chance=chance))}</figure>")
    if summary["comparisons"]:
        parts.append(
            "<h2>Variants compared</h2>"
            f"<p class='verdict'>{esc(summary['comparisons_reading'])}</p>"
            "<p class='note'>Two option sets that differ in one option, B against A. "
            "A difference is <span class='real'>real</span> when its 95% interval excludes zero; “no evidence of a "
            "difference” means the interval still holds zero, and its ends show how large a difference the games "
            "allow. Shares are in percentage points, lengths in moves. "
            + (_every_seat_note(study.chance) if any(_is_spread(c) for c in summary["comparisons"]) else "")
            + f"Every row is a test at the 5% level ({len(summary['comparisons'])} here): where the variants do not "
            "differ at all, about one row in twenty is still marked real by chance. "
            + (
                (
                    "Both variants met the same deals (this game deals from its seed), so the games are clustered by "
                    "deal across both"
                    if study.deals_everywhere
                    else "Some option sets deal from their seed and some do not; every variant plays the same game "
                    "seeds, so the games are clustered by seed across both (where a variant deals nothing, its games "
                    "of one seed differ only by the agents' own seeds: the clustering is cautious)"
                )
                + ": for shares, Zou &amp; Donner's interval for correlated estimates (MOVER) from "
                "the two clustered Wilson intervals and their correlation over the deals; for lengths, the "
                "difference ± t times its standard error clustered by deal; the p-values from the same clustered "
                "variance, t on deals − 1 degrees of freedom.</p>"
                if chance
                else "The intervals and p-values are those of two independent samples (Newcombe's interval and the "
                "two-proportion test for shares, Welch's for lengths), not of paired games: both variants meet the "
                "same game seeds, but every game's agents draw seeds of their own, so no game of B replays one of "
                "A.</p>"
            )
        )
        parts.append(
            "<table><tr><th>option</th><th>A</th><th>B</th><th>figure</th><th>in A</th><th>in B</th>"
            "<th>B − A</th><th>95% interval</th><th>p</th><th>reading</th></tr>"
        )
        for c in summary["comparisons"]:
            mark = " real" if c["reading"] in ("higher in B", "lower in B") else ""
            value_a, value_b = _value(c, "a_value"), _value(c, "b_value")
            parts.append(
                f"<tr><td>{esc(c['option'])}</td><td>{esc(c['a'])}</td><td>{esc(c['b'])}</td><td>{esc(c['figure'])}</td>"
                f"<td class='n'>{value_a}</td><td class='n'>{value_b}</td>"
                + _difference(c, mark).removesuffix("</tr>")
                + f"<td>{esc(c['reading'])}</td></tr>"
            )
        parts.append("</table>")
    parts.append(f"<p class='note'>Made by kumiki arena report from {esc(_shown(results.path))}.</p></body></html>")
    return "\n".join(parts)


def _value(c: dict[str, Any], key: str) -> str:
    """One side of a comparison: a share in percent, a length in moves."""
    value = c[key]
    if value != value:
        return "–"
    return f"{100 * value:.1f}%" if c["unit"] == "share" else f"{value:.1f}"


def _is_spread(c: dict[str, Any]) -> bool:
    return any(c["figure"] == variants.SPREAD.format(who) for who in ("seats'", "sides'"))


def _every_seat_note(chance: bool) -> str:
    """What the rows of a game of more than two seats add: every seat's share, and the spread of the shares."""
    unit = "deals, drawn once for both variants" if chance else "seed blocks, each variant's drawn on its own"
    return (
        "With more than two seats (or sides) the first mover's share alone can hide a change: a variant may move "
        "wins from seat 2 to seat 1 and leave the first mover's share as it was. So every seat's (or side's) share "
        "is compared, as the first mover's is, and then the spread of the shares, the largest share minus the "
        "smallest: 0 where every seat wins as often, so <i>lower in B</i> reads “B is fairer”. A spread has no "
        f"closed-form interval: its interval and p come from {variants.SPREAD_RESAMPLES:,} bootstrap resamples of the "
        f"{unit}, seeded by the study's seed. Even equal seats show some spread on few games, the more the fewer. "
    )
