"""Rates with confidence intervals (statsmodels' Wilson interval) and their text tables."""

from __future__ import annotations

import numpy as np
import polars as pl


def wilson(successes: np.ndarray, trials: np.ndarray, alpha: float = 0.05
           ) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for each proportion (NaN where there are no trials)."""
    # imported here: statsmodels (with pandas and scipy) takes most of a second to import,
    # which every run would otherwise pay before its first game
    from statsmodels.stats.proportion import proportion_confint
    successes = np.asarray(successes, float)
    trials = np.asarray(trials, float)
    lo = np.full(trials.shape, np.nan)
    hi = np.full(trials.shape, np.nan)
    ok = trials > 0
    if ok.any():
        lo[ok], hi[ok] = proportion_confint(successes[ok], trials[ok], alpha=alpha,
                                            method="wilson")
    return lo, hi


def rate_table(frame: pl.DataFrame, by: str | list[str], flag: str,
               baseline: str | None = None) -> pl.DataFrame:
    """Per group of ``by``: trials, successes of boolean column ``flag``, rate, 95% interval,
    and with ``baseline`` (a column of per-row fair shares) their mean as ``fair``."""
    keys = [by] if isinstance(by, str) else list(by)
    aggs = [pl.len().alias("n"), pl.col(flag).sum().alias("wins")]
    if baseline is not None:
        aggs.append(pl.col(baseline).mean().alias("fair"))
    t = frame.group_by(keys, maintain_order=True).agg(aggs).sort(keys)
    lo, hi = wilson(t["wins"].to_numpy(), t["n"].to_numpy())
    t = t.with_columns((pl.col("wins") / pl.col("n")).alias("rate"),
                       pl.Series("ci_low", lo), pl.Series("ci_high", hi))
    return t


def format_rates(table: pl.DataFrame, by: str) -> str:
    """A fixed-width text table of a :func:`rate_table`."""
    out = [f"win rate by {by:<10} {'games':>10} {'wins':>9} {'rate':>7}  95% interval"]
    for row in table.iter_rows(named=True):
        out.append(f"  {str(row[by]):<20} {row['n']:>10,} {row['wins']:>9,} "
                   f"{row['rate']:>7.3f}  [{row['ci_low']:.3f}, {row['ci_high']:.3f}]")
    if "fair" in table.columns and table.height:
        out.append(f"  (fair share = winners per game / N = {table['fair'].mean():.3f}; "
                   "a shared first place is a win for each)")
    return "\n".join(out)
