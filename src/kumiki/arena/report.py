"""The balance report: one self-contained HTML file (plots inline as SVG, no script, no web font, opens offline),
``summary.json`` with every figure and its interval, and CSV tables beside them."""

from __future__ import annotations

import html
import io
import json
import math
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kumiki.arena import stats
from kumiki.arena.tables import write_table

if TYPE_CHECKING:
    from kumiki.arena.results import Results

STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 62rem; color: #222; padding: 0 1rem; }
h1 { font-size: 1.6rem; } h2 { margin-top: 2.2rem; border-bottom: 1px solid #ddd; } h3 { margin-top: 1.6rem; }
table { border-collapse: collapse; margin: .6rem 0; } td, th { padding: .2rem .7rem; border-bottom: 1px solid #eee; }
th { text-align: left; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
.real { color: #a01a1a; font-weight: 600; } .note { color: #666; font-size: .9rem; } figure { margin: .8rem 0; }
"""


FEW_BLOCKS = 10  # seed blocks below which the ratings' bootstrap intervals are flagged


def _pct(rate: stats.Rate) -> str:
    if math.isnan(rate.value):
        return "–"
    return f"{100 * rate.value:.1f}% [{100 * rate.low:.1f}, {100 * rate.high:.1f}]"


def _mean(mean: stats.Mean, digits: int = 1) -> str:
    if math.isnan(mean.value):
        return "–"
    if math.isnan(mean.low):
        why = "one game" if mean.n == 1 else f"the same in all {mean.n} games"
        return f"{mean.value:.{digits}f} ({why}: no interval)"
    return f"{mean.value:.{digits}f} [{mean.low:.{digits}f}, {mean.high:.{digits}f}]"


def _difference(c: dict[str, Any], mark: str) -> str:
    """A comparison's cells: B − A, its interval and p (rates in percentage points, lengths in moves)."""
    scale, unit = (100.0, " pts") if c["unit"] == "share" else (1.0, " moves")
    p = "–" if c["p"] != c["p"] else "< 1e-6" if c["p"] < 1e-6 else f"{c['p']:.3g}"
    return (
        f"<td class='n'{mark}>{scale * c['difference']:+.1f}{unit}</td>"
        f"<td class='n'>[{scale * c['low']:+.1f}, {scale * c['high']:+.1f}]</td><td class='n'>{p}</td></tr>"
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

    plt.rcParams.update({"svg.fonttype": "none", "font.size": 9, "figure.dpi": 100})
    return plt


def _seat_plot(rates: Sequence[stats.Rate], title: str) -> str:
    plt = _plots()
    figure, axes = plt.subplots(figsize=(4.8, 2.4))
    seats = range(len(rates))
    values = [r.value for r in rates]
    errors = [[max(0.0, r.value - r.low) for r in rates], [max(0.0, r.high - r.value) for r in rates]]
    axes.bar(seats, values, yerr=errors, capsize=4, color="#5b8bd0")
    axes.axhline(1 / len(rates), color="#888", linestyle="--", linewidth=1)
    axes.set_xticks(list(seats), [f"seat {s}" for s in seats])
    axes.set_ylabel("share of wins")
    axes.set_ylim(0, 1)
    axes.set_title(title)
    return _svg(figure)


def _histogram(values: Sequence[float], label: str) -> str:
    plt = _plots()
    figure, axes = plt.subplots(figsize=(4.8, 2.2))
    axes.hist(values, bins=min(30, max(5, len(set(values)))), color="#7aa874")
    axes.set_xlabel(label)
    axes.set_ylabel("games")
    return _svg(figure)


def _by_ply(means: Sequence[stats.Mean]) -> str:
    plt = _plots()
    figure, axes = plt.subplots(figsize=(4.8, 2.2))
    plies = range(1, len(means) + 1)
    axes.plot(plies, [m.value for m in means], color="#333")
    lows = [m.low if m.low == m.low else m.value for m in means]
    highs = [m.high if m.high == m.high else m.value for m in means]
    axes.fill_between(plies, lows, highs, color="#bbb")
    axes.set_xlabel("ply")
    axes.set_ylabel("legal moves (mean, 95%)")
    return _svg(figure)


def _forest(ratings: Sequence[dict[str, Any]]) -> str:
    """The rating table (the summary's rows) as points with their intervals."""
    plt = _plots()
    figure, axes = plt.subplots(figsize=(5.2, 0.45 * len(ratings) + 0.8))
    rows = list(reversed(ratings))
    values = [r["rating"] for r in rows]
    below = [r["rating"] - r["low"] for r in rows]
    above = [r["high"] - r["rating"] for r in rows]
    axes.errorbar(values, range(len(rows)), xerr=[below, above], fmt="o", color="#333", capsize=3)
    axes.set_yticks(range(len(rows)), [r["agent"] for r in rows])
    axes.axvline(0, color="#aaa", linewidth=1)
    axes.set_xlabel("rating (Elo scale, 95% interval)")
    return _svg(figure)


def _heatmap(matrix: dict[tuple[str, str], stats.Rate], agents: Sequence[str]) -> str:
    plt = _plots()
    import numpy as np

    n = len(agents)
    grid = np.full((n, n), np.nan)
    for (a, b), rate in matrix.items():
        grid[agents.index(a), agents.index(b)] = rate.value
    figure, axes = plt.subplots(figsize=(1.0 * n + 2, 0.8 * n + 1.2))
    image = axes.imshow(grid, vmin=0, vmax=1, cmap="RdBu")
    axes.set_xticks(range(n), agents, rotation=30, ha="right")
    axes.set_yticks(range(n), agents)
    for i in range(n):
        for j in range(n):
            if not math.isnan(grid[i, j]):
                axes.text(j, i, f"{100 * grid[i, j]:.0f}%", ha="center", va="center", fontsize=8)
    axes.set_xlabel("against")
    figure.colorbar(image, ax=axes, label="score of the row agent")
    return _svg(figure)


def _signed(value: float) -> str:
    """Whole Elo points with their sign, never "-0" (an interval ending just below zero is "+0")."""
    return f"{round(value):+d}" if math.isfinite(value) else "?"


def summarise(results: Results) -> dict[str, Any]:
    """Every figure of the report, with its interval, as JSON-ready data."""
    study, rows = results.study, results.rows
    agents = list(study.agents)
    sets = []
    for label, group in stats.by_option_set(rows).items():
        entry: dict[str, Any] = {"options": group[0]["options"], "label": label, "games": len(group)}
        entry["seat_wins"] = [r.to_json() for r in stats.seat_wins(group)]
        entry["fairness_p"], entry["fairness_test"] = stats.fairness(group)
        entry["draw_rate"] = stats.draw_rate(group).to_json()
        entry["forfeit_rate"] = stats.forfeit_rate(group).to_json()
        entry["length"] = stats.lengths(group).to_json()
        entry["margin"] = stats.margins(group).to_json()
        entry["seat_scores"] = [m.to_json() for m in stats.seat_scores(group)]
        if any("branching" in r for r in group):
            entry["branching_by_ply"] = [m.to_json() for m in stats.branching_by_ply(group)]
            entry["lead_changes"] = stats.lead_changes(group).to_json()
        entry["measures"] = {name: m.to_json() for name, m in stats.measure_means(group).items()}
        if any(stats.is_coop(r) for r in group):
            entry["teams"] = {
                name: {"success": rate.to_json(), "score": mean.to_json()}
                for name, (rate, mean) in stats.coop_by_team(group).items()
            }
            entry["success"] = stats.coop_success(group).to_json()
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
        "option_sets": sets,
        "comparisons": [c.to_json() for c in stats.variant_comparisons(rows, study.game)],
    }
    competitive = [r for r in rows if not stats.is_coop(r)]
    if len(agents) > 1 and competitive:
        summary["ratings"] = [r.to_json() for r in results.ratings()]
        summary["win_matrix"] = [
            {"agent": a, "against": b, **rate.to_json()} for (a, b), rate in stats.win_matrix(rows, agents).items()
        ]
    if competitive:
        from kumiki.arena.ratings import seat_advantage

        # One model per number of players: seat 2 of a three-player game is not seat 2 of a four-player one.
        summary["seat_advantage"] = [
            {"players": n, "seat": s, "elo": round(v, 1) + 0.0, "low": round(lo, 1) + 0.0, "high": round(hi, 1) + 0.0}
            for n, games in stats.by_players(competitive).items()
            for s, (v, lo, hi) in enumerate(seat_advantage(games, agents, seed=study.seed))
        ]
    if study.format == "ladder":
        summary["ladder"] = [
            {"agent": high, "below": low, **rate.to_json()} for high, low, rate in stats.ladder_steps(rows, agents)
        ]
    sprt = results.sprt()
    if sprt is not None:
        summary["sprt"] = sprt.to_json()
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


def _write_tables(summary: dict[str, Any], folder: Path) -> None:
    seat_rows = []
    for entry in summary["option_sets"]:
        for seat, rate in enumerate(entry["seat_wins"]):
            seat_rows.append([entry["label"], seat, rate["value"], rate["low"], rate["high"], entry["games"]])
    write_table(folder / "seat_wins.csv", ["options", "seat", "win_share", "low", "high", "games"], seat_rows)
    if "ratings" in summary:
        write_table(
            folder / "ratings.csv",
            ["agent", "rating", "low", "high", "games"],
            [[r["agent"], r["rating"], r["low"], r["high"], r["games"]] for r in summary["ratings"]],
        )
    write_table(
        folder / "comparisons.csv",
        ["option", "a", "b", "figure", "difference", "low", "high", "p"],
        [
            [c["option"], c["a"], c["b"], c["figure"], c["difference"], c["low"], c["high"], c["p"]]
            for c in summary["comparisons"]
        ],
    )


def _html(results: Results, summary: dict[str, Any]) -> str:
    study, rows = results.study, results.rows
    esc = html.escape
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{esc(study.name)}: Kumiki arena report</title><style>{STYLE}</style></head><body>",
        f"<h1>{esc(study.name)}</h1>",
        f"<p>{esc(study.game)}, format {esc(study.format)}, {len(rows)} games, root seed {study.seed}. Agents: "
        + ", ".join(f"<b>{esc(k)}</b> = <code>{esc(v)}</code>" for k, v in study.agents.items())
        + ".</p>",
        "<p class='note'>Every figure carries its 95% interval: Wilson intervals for rates, t intervals for means, "
        "bootstrap intervals over seed blocks for ratings. A difference is marked <span class='real'>real</span> "
        "when its interval excludes zero (p &lt; 0.05).</p>",
    ]
    if not study.reproducible:
        parts.append(
            "<p class='note'>This study has a time budget or move limit: its results depend on the machine.</p>"
        )
    if "ratings" in summary:
        parts.append("<h2>Ratings</h2><table><tr><th>agent</th><th>rating</th><th>95% interval</th><th>games</th></tr>")
        for r in summary["ratings"]:
            parts.append(
                f"<tr><td>{esc(r['agent'])}</td><td class='n'>{r['rating']:.0f}</td>"
                f"<td class='n'>[{r['low']:.0f}, {r['high']:.0f}]</td><td class='n'>{r['games']}</td></tr>"
            )
        parts.append("</table>")
        blocks = len({r.get("block") for r in rows})
        if blocks < FEW_BLOCKS:
            parts.append(
                f"<p class='note'>These intervals come from a bootstrap over {blocks} seed block(s): so few give few "
                "distinct resamples, and the intervals mean little (one block: width 0). More games give more "
                "blocks.</p>"
            )
        parts.append(f"<figure>{_forest(summary['ratings'])}</figure>")  # the summary's fit: no second bootstrap
        agents = list(study.agents)
        parts.append("<h3>Win matrix</h3><figure>" + _heatmap(stats.win_matrix(rows, agents), agents) + "</figure>")
    if summary.get("ladder"):
        parts.append("<h2>The ladder</h2><table><tr><th>agent</th><th>against the one below</th><th>score</th></tr>")
        for step in summary["ladder"]:
            rate = stats.Rate(step["successes"], step["trials"], step["value"], step["low"], step["high"])
            mark = " class='real'" if rate.low > 0.5 or rate.high < 0.5 else ""
            parts.append(
                f"<tr><td>{esc(step['agent'])}</td><td>{esc(step['below'])}</td>"
                f"<td class='n'{mark}>{_pct(rate)}</td></tr>"
            )
        parts.append("</table>")
    if "seat_advantage" in summary:
        several = len({s["players"] for s in summary["seat_advantage"]}) > 1
        head = "<th>players</th>" if several else ""
        parts.append(
            "<h2>Seat advantage, skill held apart</h2>"
            f"<table><tr>{head}<th>seat</th><th>Elo</th><th>95% interval</th></tr>"
        )
        for s in summary["seat_advantage"]:
            mark = " class='real'" if s["low"] > 0 or s["high"] < 0 else ""
            players = f"<td class='n'>{s['players']}</td>" if several else ""
            parts.append(
                f"<tr>{players}<td>seat {s['seat']}</td><td class='n'{mark}>{_signed(s['elo'])}</td>"
                f"<td class='n'>[{_signed(s['low'])}, {_signed(s['high'])}]</td></tr>"
            )
        parts.append("</table>")
    if "sprt" in summary:
        t = summary["sprt"]
        parts.append(
            f"<h2>SPRT</h2><p>LLR {t['llr']:.2f} (bounds {t['lower']:.2f}, {t['upper']:.2f}) after {t['pairs']} "
            f"game pairs; pentanomial {t['pentanomial']}: <b>{esc(str(t['decision'] or 'undecided'))}</b>.</p>"
        )
    groups = stats.by_option_set(rows)
    for entry in summary["option_sets"]:
        group = groups[entry["label"]]
        parts.append(f"<h2>{esc(entry['label'])}</h2><p>{entry['games']} games.</p><table>")
        rates = stats.seat_wins(group)
        for seat, rate in enumerate(rates):
            parts.append(f"<tr><td>seat {seat} wins</td><td class='n'>{_pct(rate)}</td></tr>")
        p = entry["fairness_p"]
        if p == p:  # not NaN
            mark = " class='real'" if p < 0.05 else ""
            test = esc(entry.get("fairness_test") or "chi-square")
            parts.append(f"<tr><td>all seats equal ({test} p)</td><td class='n'{mark}>{p:.3g}</td></tr>")
        parts.append(f"<tr><td>shared wins (draws)</td><td class='n'>{_pct(stats.draw_rate(group))}</td></tr>")
        parts.append(f"<tr><td>forfeits</td><td class='n'>{_pct(stats.forfeit_rate(group))}</td></tr>")
        parts.append(f"<tr><td>length (moves)</td><td class='n'>{_mean(stats.lengths(group))}</td></tr>")
        parts.append(f"<tr><td>margin (winner − second)</td><td class='n'>{_mean(stats.margins(group))}</td></tr>")
        for seat, mean in enumerate(stats.seat_scores(group)):
            parts.append(f"<tr><td>seat {seat} score</td><td class='n'>{_mean(mean)}</td></tr>")
        if "lead_changes" in entry:
            parts.append(f"<tr><td>lead changes</td><td class='n'>{_mean(stats.lead_changes(group), 2)}</td></tr>")
        for name, mean in stats.measure_means(group).items():
            parts.append(f"<tr><td>{esc(name.replace('_', ' '))} (mean)</td><td class='n'>{_mean(mean, 2)}</td></tr>")
        if "success" in entry:
            parts.append(f"<tr><td>team success</td><td class='n'>{_pct(stats.coop_success(group))}</td></tr>")
        parts.append("</table>")
        if "teams" in entry:
            parts.append("<table><tr><th>team</th><th>success</th><th>score</th></tr>")
            for name, (rate, mean) in stats.coop_by_team(group).items():
                parts.append(
                    f"<tr><td>{esc(name)}</td><td class='n'>{_pct(rate)}</td><td class='n'>{_mean(mean)}</td></tr>"
                )
            parts.append("</table>")
        if rates:
            parts.append(f"<figure>{_seat_plot(rates, entry['label'])}</figure>")
        parts.append(f"<figure>{_histogram([float(r['moves']) for r in group], 'game length (moves)')}</figure>")
        if "branching_by_ply" in entry:
            parts.append(f"<figure>{_by_ply(stats.branching_by_ply(group))}</figure>")
    if summary["comparisons"]:
        parts.append("<h2>Variants compared</h2><table><tr><th>option</th><th>A</th><th>B</th><th>figure</th>")
        parts.append("<th>B − A</th><th>95% interval</th><th>p</th></tr>")
        for c in summary["comparisons"]:
            mark = " class='real'" if c["low"] > 0 or c["high"] < 0 else ""
            parts.append(
                f"<tr><td>{esc(c['option'])}</td><td>{esc(c['a'])}</td><td>{esc(c['b'])}</td><td>{esc(c['figure'])}</td>"
                + _difference(c, mark)
            )
        parts.append("</table>")
    parts.append(f"<p class='note'>Made by kumiki arena report from {esc(str(results.path))}.</p></body></html>")
    return "\n".join(parts)
