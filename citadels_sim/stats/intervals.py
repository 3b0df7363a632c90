"""Rates with confidence intervals (Wilson's score interval) and their text tables.

Seat-games and held characters are not independent trials: the seats of one game share one
winner, and a character is held by several players of one game.  Games are independent, so
variances are estimated from *batches* of games — game *g* belongs to batch
``g % N_BATCHES`` — as cluster-robust variances of ratio estimators (linearisation over the
independent batches, with the small-sample factor B / (B - 1)).  A rate's interval is then
Wilson's with the effective sample size n / deff, where the design effect deff is the
cluster-robust variance over the binomial one.
"""

from __future__ import annotations

from statistics import NormalDist

import numpy as np
import polars as pl

#: the normal quantile of a two-sided 95% interval
Z95 = 1.959963984540054


def wilson(successes: np.ndarray, trials: np.ndarray, alpha: float = 0.05
           ) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for each proportion (NaN where there are no trials): the
    formula of statsmodels' ``proportion_confint(method="wilson")`` (the tests check them
    equal), written out because importing statsmodels (with pandas and scipy) costs half a
    second of every run, a warm start's largest part after the kernel."""
    successes = np.asarray(successes, float)
    trials = np.asarray(trials, float)
    z = Z95 if alpha == 0.05 else NormalDist().inv_cdf(1.0 - alpha / 2.0)
    lo = np.full(trials.shape, np.nan)
    hi = np.full(trials.shape, np.nan)
    ok = trials > 0
    if ok.any():
        n = trials[ok]
        p = successes[ok] / n
        shrink = 1.0 + z * z / n
        centre = (p + z * z / (2.0 * n)) / shrink
        with np.errstate(invalid="ignore"):  # a share outside [0, 1] has no interval (NaN)
            half = z * np.sqrt(p * (1.0 - p) / n + z * z / (4.0 * n * n)) / shrink
        lo[ok], hi[ok] = centre - half, centre + half
    return lo, hi


def rate_table(frame: pl.DataFrame, by: str | list[str], flag: str,
               baseline: str | None = None, cluster: str | None = None,
               row_clusters: bool = False,
               per_cluster: pl.DataFrame | None = None) -> pl.DataFrame:
    """Per group of ``by``: trials, successes of boolean column ``flag``, rate and its 95%
    interval, and with ``baseline`` (a column of per-row fair shares) their mean as ``fair``.

    With ``cluster`` (a column such as ``game``) the rows of one cluster are not taken as
    independent: the interval is Wilson's at the effective sample size n / deff, the design
    effect coming from the cluster-robust variance of the rate (``deff`` column).
    ``row_clusters``: the caller knows that no group has two rows of one cluster (a seat's
    rows, one per game), so the rows are the clusters and need no grouping.
    ``per_cluster``: the caller's own sums per group and cluster (columns ``by``, ``wins``
    and ``n``), when it has them more cheaply than grouping ``frame``.
    """
    keys = [by] if isinstance(by, str) else list(by)
    aggs = [pl.len().alias("n"), pl.col(flag).sum().alias("wins")]
    if baseline is not None:
        aggs.append(pl.col(baseline).mean().alias("fair"))
    t = frame.group_by(keys, maintain_order=True).agg(aggs).sort(keys)
    deff = np.ones(t.height)
    wins, n = t["wins"].to_numpy(), t["n"].to_numpy()
    if cluster is not None and row_clusters:
        # each row its own cluster: the 0/1 rows' squares about their mean sum to
        # wins (1 - rate), so the cluster-robust variance is rate (1 - rate) / (n - 1)
        with np.errstate(divide="ignore", invalid="ignore"):
            deff = design_effect(wins, n, wins / n * (1 - wins / n) / (n - 1))
    elif cluster is not None:
        per = per_cluster if per_cluster is not None else frame.group_by(
            keys + [cluster]).agg(pl.col(flag).sum().alias("wins"), pl.len().alias("n"))
        var = t.select(keys).join(cluster_variance(per, keys, "wins", "n"), on=keys,
                                  how="left", maintain_order="left")["var"]
        deff = design_effect(wins, n, var.to_numpy())
    lo, hi = wilson_deff(wins, n, deff)
    return t.with_columns((pl.col("wins") / pl.col("n")).alias("rate"),
                          pl.Series("ci_low", lo), pl.Series("ci_high", hi),
                          pl.Series("deff", deff))


def format_rates(table: pl.DataFrame, by: str) -> str:
    """A fixed-width text table of a :func:`rate_table`."""
    width = max([20] + [len(str(v)) for v in table[by]])
    out = [f"win rate by {by:<{width - 10}} {'games':>10} {'wins':>9} {'rate':>7}  95% interval"]
    for row in table.iter_rows(named=True):
        out.append(f"  {str(row[by]):<{width}} {row['n']:>10,} {row['wins']:>9,} "
                   f"{row['rate']:>7.3f}  [{row['ci_low']:.3f}, {row['ci_high']:.3f}]")
    if "fair" in table.columns and table.height:
        out.append(f"  (fair share = winners per game / N = {table['fair'].mean():.3f}; "
                   "a shared first place is a win for each)")
    return "\n".join(out)


#: games are grouped into this many batches (game index modulo) for cluster-robust variances
N_BATCHES = 100


def cluster_variance(per_cluster: pl.DataFrame, keys: list[str], successes: str,
                     trials: str) -> pl.DataFrame:
    """Per group of ``keys``: the cluster-robust variance ``var`` of the rate
    sum(successes) / sum(trials), from ``per_cluster`` (one row per group and independent
    cluster: a game, or a batch of games)."""
    w, n = pl.col(successes).cast(pl.Float64), pl.col(trials).cast(pl.Float64)
    b = pl.len().cast(pl.Float64)
    return per_cluster.group_by(keys, maintain_order=True).agg(
        (b / (b - 1) * ((w - w.sum() / n.sum() * n) ** 2).sum() / n.sum() ** 2).alias("var"))


def design_effect(successes: np.ndarray, trials: np.ndarray, variance: np.ndarray
                  ) -> np.ndarray:
    """Cluster-robust variance over the binomial one, rate (1 - rate) / trials (1 where the
    latter is 0 or the variance unknown)."""
    with np.errstate(divide="ignore", invalid="ignore"):  # no trials: undefined, deff 1
        rate = np.asarray(successes, float) / np.asarray(trials, float)
        binomial = rate * (1 - rate) / np.asarray(trials, float)
    variance = np.asarray(variance, float)
    ok = (binomial > 0) & np.isfinite(variance)
    return np.where(ok, variance / np.where(ok, binomial, 1), 1.0)


def wilson_deff(successes: np.ndarray, trials: np.ndarray, deff: np.ndarray,
                alpha: float = 0.05) -> tuple[np.ndarray, np.ndarray]:
    """Wilson's interval at the effective sample size trials / deff.  A design effect of 0
    (no variation between batches: e.g. one strategy in every seat wins exactly 1/N) gives
    the point itself."""
    deff = np.maximum(np.asarray(deff, float), 1e-12)
    return wilson(np.asarray(successes, float) / deff, np.asarray(trials, float) / deff, alpha)


class DealMoments:
    """Running sums of per-deal vectors (the count, the sum and the sum of outer products)
    for paired comparisons on common deals: any linear contrast of the vector's means then
    has an exact standard error over deals, the independent unit, in memory that does not
    grow with the number of deals; adding chunks in any order gives the same result."""

    def __init__(self, width: int):
        self.n = 0
        self.total = np.zeros(width)
        self.outer = np.zeros((width, width))

    def add(self, values: np.ndarray) -> None:
        """Add a chunk: one row per deal, one column per measure."""
        values = np.asarray(values, float)
        self.n += values.shape[0]
        self.total += values.sum(axis=0)
        self.outer += values.T @ values

    def contrast(self, weights: np.ndarray) -> tuple[float, float]:
        """(mean, standard error) over deals of ``values @ weights``."""
        w = np.asarray(weights, float)
        if self.n < 2:
            return float("nan"), float("nan")
        mean = self.total / self.n
        cov = (self.outer - self.n * np.outer(mean, mean)) / (self.n - 1)
        return float(w @ mean), float(np.sqrt(max(w @ cov @ w, 0.0) / self.n))
