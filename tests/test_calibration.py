"""Calibration of the analysis layer's intervals and tests against replicate runs.

For each estimate, the spread of its value over independent replicate runs is compared
with the standard error the analysis reports (their ratio is 1 when the reported error is
right), on two rulesets; and the decisions whose null hypothesis holds by construction
reject about alpha of the time.  The full suite is slow (run before a release:
``python -m pytest -m slow``); one small check runs every time.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

import polars as pl
import pytest
from scipy import stats as sps

from citadels_sim import GameConfig
from citadels_sim.engine.simulate import Run
from citadels_sim.engine.summary import Summary
from citadels_sim.game.strategies import get
from citadels_sim.stats import analysis
from citadels_sim.studies.compare import compare

CONFIGS = {
    "classic": GameConfig(ruleset="classic", players=4),
    "2016": GameConfig(ruleset="2016", players=4, characters="first_game",
                       districts="first_game"),
}
LINEUP = ["heuristic", "builder", "heuristic", "builder"]
#: one strategy under two names
TWIN_A = replace(get("heuristic"), name="twin A")
TWIN_B = replace(get("heuristic"), name="twin B")


def replicate(config: GameConfig, seed: int, games: int) -> dict[str, pl.DataFrame]:
    """One replicate run's analysis tables, as a report would compute them."""
    s = Summary()
    for _, frames in Run(config, LINEUP, games, seed=seed, chunk_size=games, picks=False):
        s.add(frames)
    t = {k: v.with_columns(pl.lit(config.players).alias("players")) for k, v in
         s.tables.items()}
    return {"strategy": analysis.win_rates(t["outcomes"], "strategy", t["wins"]),
            "held": analysis.character_table(t["characters"], t["games"], []),
            "balance": analysis.character_balance(t["characters"], []),
            "districts": analysis.district_table(t["districts"], [])}


def spread_ratios(config: GameConfig, reps: int, games: int) -> dict[str, float]:
    """Spread over replicates / mean reported standard error, per kind of estimate (the
    median over the rows of that kind)."""
    runs = [replicate(config, 1000 + r, games) for r in range(reps)]
    out = {}
    for kind, value, se, key in [("strategy win rate", "win_rate", "win_rate_se", "strategy"),
                                 ("holders' win rate", "win_held", "win_held_se", "character"),
                                 ("balance difference", "diff", "diff_se", "character"),
                                 ("district difference", "diff", "diff_se", "district")]:
        table = {"strategy win rate": "strategy", "holders' win rate": "held",
                 "balance difference": "balance", "district difference": "districts"}[kind]
        stacked = pl.concat([r[table].select(key, value, se) for r in runs])
        per = (stacked.group_by(key).agg(pl.col(value).std().alias("spread"),
                                         pl.col(se).mean().alias("se"), pl.len().alias("n"))
               .filter((pl.col("n") == reps) & (pl.col("se") > 0)))
        out[kind] = float((per["spread"] / per["se"]).median())
    return out


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", sorted(CONFIGS))
def test_reported_errors_match_the_spread_of_replicates(ruleset):
    ratios = spread_ratios(CONFIGS[ruleset], reps=120, games=3000)
    for kind, ratio in ratios.items():
        assert 0.8 <= ratio <= 1.2, (kind, ratio, ratios)


def test_holders_win_rate_error_is_calibrated_quick():
    """The quick member of the suite: holders' win rate (whose independent-trials interval
    was twice too wide) on a small replicate set, with a tolerance to match."""
    ratio = spread_ratios(CONFIGS["classic"], reps=40, games=1500)["holders' win rate"]
    assert 0.7 <= ratio <= 1.3


def binomial_band(trials: int, alpha: float, level: float = 0.999) -> tuple[int, int]:
    """Where the number of rejections of a true null falls with probability ``level``."""
    lo, hi = sps.binom.interval(level, trials, alpha)
    return int(lo), int(hi)


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", sorted(CONFIGS))
def test_a_strategy_against_itself_is_significant_alpha_of_the_time(ruleset):
    """Independent deals per rotation: the paired test and the SPRT-free z-test reject a
    true null (no difference) at about alpha = 5%."""
    runs = 200
    hits = sum(compare("builder", "builder", CONFIGS[ruleset], games=500, seed=s,
                       crn=False).test["p"] < 0.05 for s in range(runs))
    lo, hi = binomial_band(runs, 0.05)
    assert lo <= hits <= hi, hits


@pytest.mark.slow
def test_seat_uniformity_rejects_alpha_of_the_time_without_a_seat_effect():
    """four_color draws the first crown at random: identical bots have no seat effect, so
    the chi-square test of uniform seats rejects about alpha of the time."""
    config = GameConfig(ruleset="four_color", players=4)
    runs, hits = 200, 0
    for seed in range(runs):
        s = Summary()
        for _, frames in Run(config, "heuristic", 800, seed=seed, picks=False):
            s.add(frames)
        outcomes = s.tables["outcomes"].with_columns(pl.lit(4).alias("players"),
                                                     pl.lit("c").alias("cell"))
        hits += analysis.seat_uniformity(outcomes, "cell")["p"][0] < 0.05
    lo, hi = binomial_band(runs, 0.05)
    assert lo <= hits <= hi, hits


@pytest.mark.slow
def test_win_rate_intervals_cover_the_fair_share_of_identical_strategies():
    """Two names for the same strategy, seats rotated: each name's true win rate is its fair
    share, which its 95% interval covers about 95% of the time."""
    runs, misses = 200, 0
    for seed in range(runs):
        c = compare(TWIN_A, TWIN_B, CONFIGS["classic"], games=400, seed=seed, crn=False)
        for row in c.rates.iter_rows(named=True):
            misses += not row["win_rate_low"] <= row["fair"] <= row["win_rate_high"]
    lo, hi = binomial_band(2 * runs, 0.05)
    assert lo <= misses <= hi, misses


def test_binomial_band():
    lo, hi = binomial_band(200, 0.05)
    assert 0 < lo < 10 < hi < 25


def synthetic_tables(rng: np.random.Generator, games: int = 2000, seats: int = 4,
                     characters: int = 8) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Per-batch character and district tables of synthetic games shaped like real ones
    (one winner per game, each character held by a random subset of the seats, a district
    built by a random subset) in which nothing changes who wins: every balance and district
    null hypothesis is true."""
    winner = rng.integers(0, seats, games)
    won = np.arange(seats)[None, :] == winner[:, None]  # games x seats
    batch = np.arange(games) % 100
    chars = []
    for c in range(characters):
        held = rng.random((games, seats)) < 0.3
        chars.append(pl.DataFrame({
            "batch": batch, "character": f"C{c}", "rank": c + 1,
            "games_held": held.sum(1), "wins_held": (held & won).sum(1),
            "final_held": held.sum(1), "final_wins": (held & won).sum(1)}))
    built = rng.random((games, seats)) < 0.3
    districts = pl.DataFrame({"batch": batch, "district": "D", "seat_games": seats,
                              "built": built.sum(1), "wins_built": (built & won).sum(1),
                              "wins_not_built": (~built & won).sum(1)})
    agg = ["games_held", "wins_held", "final_held", "final_wins"]
    return (pl.concat(chars).group_by("batch", "character", "rank").agg(pl.col(agg).sum()),
            districts.group_by("batch", "district").agg(
                pl.col("seat_games", "built", "wins_built", "wins_not_built").sum()))


@pytest.mark.slow
def test_balance_and_district_decisions_reject_a_true_null_alpha_of_the_time():
    """No real character set has equal characters, so the balance and district tests are
    checked on synthetic games with the same dependence (one winner per game, several
    holders per game) in which the null hypothesis holds: unadjusted p < 5% should happen
    5% of the time (the independent-trials tests of before: almost never for balance)."""
    rng = np.random.default_rng(7)
    reps, chars, districts = 300, 0, 0
    for _ in range(reps):
        c, d = synthetic_tables(rng)
        chars += int((analysis.character_balance(c, [])["p"] < 0.05).sum())
        districts += int(analysis.district_table(d, [])["p"][0] < 0.05)
    lo, hi = binomial_band(reps * 8, 0.05)
    assert lo <= chars <= hi, chars
    lo, hi = binomial_band(reps, 0.05)
    assert lo <= districts <= hi, districts
