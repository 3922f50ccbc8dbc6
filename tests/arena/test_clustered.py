"""Games of chance: the games played on one deal (a seed block's seatings, every line-up and option set on that
seed) are alike, not independent; the figures' intervals are clustered by deal."""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Any

import pytest
from scipy.stats import t
from tests.helpers import CliRunner

from kumiki.arena import fairness, intervals, stats, variants, verdict

# 4 deals of 3 games each: a share of 6/12, the deals' own shares 2/3, 1/3, 0, 1
VALUES = [1.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0]
DEALS = [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]


def by_hand_wilson(p: float, n: float) -> tuple[float, float]:
    z = 1.959963984540054
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def test_a_clustered_share_by_hand() -> None:
    """Korn & Graubard's effective sample size: the cluster-robust variance 4/3 · (0.5² + 0.5² + 1.5² + 1.5²) / 12²,
    over the independent games' s²/n = (12 · 0.25 / 11) / 12, is the design effect; n / deff · (t₁₁ / t₃)² games
    go into Wilson's interval."""
    variance = 4 / 3 * (0.25 + 0.25 + 2.25 + 2.25) / 144
    deff = variance / ((12 * 0.25 / 11) / 12)
    trials = 12 / deff * (t.ppf(0.975, 11) / t.ppf(0.975, 3)) ** 2
    assert intervals.cluster_variance(VALUES, DEALS) == (pytest.approx(variance), 4)
    assert intervals.effective_trials(VALUES, DEALS) == pytest.approx(trials)
    rate = intervals.clustered_rate(VALUES, DEALS)
    assert (rate.successes, rate.trials, rate.value) == (6, 12, 0.5)  # the counts are the games'
    assert (rate.low, rate.high) == pytest.approx(by_hand_wilson(0.5, trials))


def test_a_clustered_mean_by_hand() -> None:
    """The cluster-robust standard error of a mean on G − 1 degrees of freedom (what a regression on a constant with
    errors clustered by deal gives, with the G/(G − 1) correction)."""
    values = [10.0, 12.0, 11.0, 20.0, 22.0, 21.0, 15.0, 14.0, 16.0, 30.0, 28.0, 29.0]
    mean = sum(values) / 12
    sums = [sum(values[3 * c : 3 * c + 3]) - 3 * mean for c in range(4)]
    se = math.sqrt(4 / 3 * sum(s * s for s in sums) / 144)
    found = intervals.mean_interval(values, clusters=DEALS)
    assert found.value == pytest.approx(mean)
    assert (found.low, found.high) == pytest.approx((mean - t.ppf(0.975, 3) * se, mean + t.ppf(0.975, 3) * se))


def test_clustered_intervals_are_wider_on_alike_games_and_the_same_on_single_games() -> None:
    """Six games a deal, each deal's games all won or all lost: 30 games are 5 draws, not 30. One game a deal: the
    games are independent and the intervals are the plain ones."""
    values = [float(deal % 2) for deal in range(5) for _ in range(6)]
    deals = [deal for deal in range(5) for _ in range(6)]
    naive, clustered = intervals.wilson(sum(values), 30), intervals.clustered_rate(values, deals)
    assert clustered.high - clustered.low > 2 * (naive.high - naive.low)
    lengths = [20.0 + 5 * (deal % 3) + game % 2 for deal in range(5) for game in range(6)]
    naive_mean, clustered_mean = intervals.mean_interval(lengths), intervals.mean_interval(lengths, clusters=deals)
    assert clustered_mean.high - clustered_mean.low > 2 * (naive_mean.high - naive_mean.low)
    single = list(range(30))
    assert intervals.clustered_rate(values, single) == naive
    assert intervals.mean_interval(lengths, clusters=single) == pytest.approx(naive_mean)
    assert intervals.clustered_rate(values, None) == naive
    one_deal = intervals.clustered_rate(values[:6], [0] * 6)
    assert (one_deal.low, one_deal.high) == (0.0, 1.0)  # one deal sets no limit on the others
    assert math.isnan(intervals.mean_interval(lengths[:6], clusters=[0] * 6).low)


def kozo_rows(shared: bool) -> list[dict[str, Any]]:
    """Two players, 8 seeds, two line-ups of seat rotations each (4 games a seed): on seeds 0-5 the deal decides
    and seat 0 wins every game; on seeds 6, 7 seat 1 does. ``shared``: else every game on a seed of its own."""
    rows = []
    for number in range(8):
        for lineup in (("a", "b"), ("a", "c")):
            for seats in (list(lineup), list(reversed(lineup))):
                index = len(rows)
                winner = 0 if number < 6 else 1
                rows.append(
                    {
                        "index": index,
                        "block": index // 2,
                        "seed": 1000 + (number if shared else index),
                        "options": {"players": 2},
                        "seats": seats,
                        "winners": [winner],
                        "ranks": [1, 2] if winner == 0 else [2, 1],
                        "scores": [1.0, 0.0] if winner == 0 else [0.0, 1.0],
                        "moves": 10 + number,
                    }
                )
    return rows


def test_in_a_game_of_chance_the_figures_count_deals_not_games() -> None:
    rows = kozo_rows(shared=True)
    naive, clustered = stats.seat_wins(rows)[0], stats.seat_wins(rows, chance=True)[0]
    assert naive.value == clustered.value == 0.75 and clustered.trials == 32
    assert clustered.high - clustered.low > 1.5 * (naive.high - naive.low)
    p_naive, test_naive = fairness.fairness(rows)
    p_clustered, test_clustered = fairness.fairness(rows, chance=True)
    assert test_naive == "exact multinomial" and p_naive < 0.01
    assert test_clustered == fairness.RAO_SCOTT and p_clustered > 0.1  # 8 deals, 6 to 2: no evidence
    assert (
        stats.lengths(rows, True).high - stats.lengths(rows, True).low
        > stats.lengths(rows).high - stats.lengths(rows).low
    )
    # every game on a deal of its own: nothing changes
    alone = kozo_rows(shared=False)
    assert stats.seat_wins(alone, chance=True) == stats.seat_wins(alone)
    assert fairness.fairness(alone, chance=True) == fairness.fairness(alone)
    assert stats.lengths(alone, True) == pytest.approx(stats.lengths(alone))


def test_variants_on_the_same_deals_are_compared_by_deal() -> None:
    """Two option sets on the same 8 deals, the deal deciding both (B's seat 0 also wins seed 6): the deals pair the
    sets. The comparison is the clustered one: a difference of 1 deal in 8, not of 4 games in 32 independent ones."""
    a = kozo_rows(shared=True)
    b = [{**row, "options": {"players": 2, "x": 1}} for row in kozo_rows(shared=True)]
    for row in b:
        if row["seed"] == 1006:
            row.update(winners=[0], ranks=[1, 2], scores=[1.0, 0.0])
    for row in a:
        row["options"] = {"players": 2, "x": 0}
    naive = next(c for c in variants.variant_comparisons(a + b) if "share" in c.figure)
    clustered = next(c for c in variants.variant_comparisons(a + b, chance=True) if "share" in c.figure)
    assert naive.difference == clustered.difference == pytest.approx(0.125)
    assert clustered.high - clustered.low > naive.high - naive.low
    assert clustered.p > naive.p
    # by hand: the Wald test on the variance of the difference clustered by deal, t on 8 − 1 degrees of freedom
    credits_a = [1.0 if 0 in r["winners"] else 0.0 for r in a]
    credits_b = [1.0 if 0 in r["winners"] else 0.0 for r in b]
    ma, mb = sum(credits_a) / 32, sum(credits_b) / 32
    per_deal = []
    for seed in range(1000, 1008):
        da = sum(c - ma for c, r in zip(credits_a, a, strict=True) if r["seed"] == seed) / 32
        db = sum(c - mb for c, r in zip(credits_b, b, strict=True) if r["seed"] == seed) / 32
        per_deal.append(db - da)
    se = math.sqrt(8 / 7 * sum(x * x for x in per_deal))
    assert clustered.p == pytest.approx(2 * t.sf(0.125 / se, 7))
    length = next(c for c in variants.variant_comparisons(a + b, chance=True) if c.figure == "game length")
    assert length.difference == 0 and length.p == 1.0  # every deal as long in B as in A: no difference at all


def test_a_share_with_one_game_on_a_side_has_no_verdict() -> None:
    """One game in B, won by seat 0: the two-proportion test read "higher in B" with a tiny p."""
    a, b = intervals.wilson(2, 20), intervals.wilson(1, 1)
    found = variants.compare_rates("o", "A", "B", "share", a, b).to_json()
    assert math.isnan(found["p"]) and math.isnan(found["low"]) and math.isnan(found["high"])
    assert verdict.comparison(found) == "no verdict (too few games)"
    clustered = variants.compare_clustered(
        "o", "A", "B", "f", "share", [0.0] * 18 + [1.0] * 2, list(range(20)), [1.0], [0]
    )
    assert verdict.comparison(clustered.to_json()) == "no verdict (too few games)"


SMALL = """
name = "small"
game = "kuzushi"
format = "round-robin"
games = 1
seed = 3
[options]
size = 4
[agents]
a = "random"
b = "random"
"""


def test_the_ray_backend_without_ray_fails_before_writing_anything(
    tmp_path: Path, run: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kumiki import arena
    from kumiki.arena.backends import BackendError

    monkeypatch.setitem(sys.modules, "ray", None)  # import ray: ImportError, as where it is not installed
    study = tmp_path / "small.toml"
    study.write_text(SMALL)
    out = tmp_path / "out"
    code, _, err = run("arena", "run", str(study), "--out", str(out), "--backend", "ray", "--quiet")
    assert code == 2 and "needs Ray" in err and not out.exists()
    with pytest.raises(BackendError, match="needs Ray"):
        arena.run(arena.load_study(study), out, backend="ray")
    assert not out.exists()


def test_a_ray_that_does_not_import_is_one_line(
    tmp_path: Path, run: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ray installed but broken (a shared library or a protobuf of the wrong version) raised, as it was imported,
    an error other than ImportError: "internal error ... please report it"."""
    from kumiki import arena
    from kumiki.arena.backends import BackendError

    fake = tmp_path / "site" / "ray"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text('raise OSError("libray.so: cannot open shared object file")\n')
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.delitem(sys.modules, "ray", raising=False)
    study = tmp_path / "small.toml"
    study.write_text(SMALL)
    out = tmp_path / "out"
    code, _, err = run("arena", "run", str(study), "--out", str(out), "--backend", "ray", "--quiet")
    assert code == 2 and not out.exists(), err
    assert err.count("\n") == 1 and "does not import (OSError: libray.so" in err and "kumiki[ray]" in err
    with pytest.raises(BackendError, match="does not import"):
        arena.run(arena.load_study(study), out, backend="ray")


@pytest.mark.parametrize("workers", [0, -1, 4097, True, 2.5, "2"])
@pytest.mark.parametrize("backend", ["serial", "pool", "ray"])
def test_a_worker_count_no_backend_can_use_is_refused(tmp_path: Path, workers: object, backend: str) -> None:
    """arena.run(..., workers=0) on Ray started Ray with no CPU and waited for ever; -1 and the rest failed inside
    the backend (the pool's own ValueError, Ray's resource error, a TypeError) or were ignored (serial)."""
    from kumiki import arena

    study = tmp_path / "small.toml"
    study.write_text(SMALL)
    out = tmp_path / "out"
    with pytest.raises(ValueError, match=r"workers: a whole number from 1 to 4096"):
        arena.run(arena.load_study(study), out, backend=backend, workers=workers)  # type: ignore[arg-type]
    assert not out.exists()
