"""Statistics over summarised results: rates with intervals, uniformity tests, comparisons.

Every function takes the count tables of :mod:`citadels_sim.engine.summary` (usually for many cells,
with the cell's label columns ``ruleset``, ``players``, ``characters``, ``districts``,
``lineup`` added, see :func:`citadels_sim.studies.experiment.combined`) and a ``by`` list of
columns to group by, and returns a polars DataFrame.

The unit of independence is the game (for paired comparisons, the deal): the seats of a
game share one first place, a strategy sits in several seats of a game, a character is held
by several players of a game.  So variances are taken over *batches* of games (the
``batch`` column, game index modulo ``stats.N_BATCHES``) as cluster-robust variances of
ratio estimators; a rate's 95% interval is Wilson's (statsmodels ``proportion_confint``) at
the effective sample size n / deff (``deff``: the design effect, cluster-robust over
binomial variance), and a difference of two rates is tested with a z-test on its
cluster-robust standard error.  Paired strategy comparisons use the per-deal differences
(one value per deal).  Uniformity tests are chi-square tests (scipy); families of tests are
Holm-corrected (:func:`holm`, checked against statsmodels' ``multipletests``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl
from scipy import stats as sps
from statsmodels.stats.weightstats import DescrStatsW

from .intervals import cluster_variance, design_effect, wilson, wilson_deff

ALPHA = 0.05


def _keys(by: str | Sequence[str]) -> list[str]:
    return [by] if isinstance(by, str) else list(by)


def _canonical(frame: pl.DataFrame) -> pl.DataFrame:
    """The rows in one fixed order (every column), so that no result depends on the order
    the rows came in: groups, and the float sums within them, are then the same on every
    run, and every table is byte-identical across runs."""
    return frame.sort(frame.columns, nulls_last=True, maintain_order=True)


def with_interval(frame: pl.DataFrame, successes: str, trials: str, name: str) -> pl.DataFrame:
    """Add ``name`` = successes / trials and its Wilson interval ``name_low``/``name_high``."""
    lo, hi = wilson(frame[successes].to_numpy(), frame[trials].to_numpy())
    return frame.with_columns(
        (pl.col(successes) / pl.col(trials)).alias(name),
        pl.Series(f"{name}_low", lo), pl.Series(f"{name}_high", hi))


def with_clustered_interval(frame: pl.DataFrame, per_batch: pl.DataFrame, keys: list[str],
                            successes: str, trials: str, name: str) -> pl.DataFrame:
    """Add ``name`` = successes / trials (``frame`` has one row per group of ``keys``) with
    Wilson's interval at the effective sample size, its cluster-robust standard error
    ``name_se`` and design effect ``name_deff``, from ``per_batch``: the same counts per
    group and ``batch``."""
    group = keys or ["_all"]
    if not keys:
        frame, per_batch = (f.with_columns(pl.lit(0).alias("_all")) for f in (frame, per_batch))
    pb = per_batch.group_by(group + ["batch"], maintain_order=True).agg(
        pl.col(successes, trials).sum())
    var = cluster_variance(pb, group, successes, trials).rename({"var": "_var"})
    t = frame.join(var, on=group, how="left", nulls_equal=True, maintain_order="left")
    w, n, v = (t[c].to_numpy().astype(float) for c in (successes, trials, "_var"))
    deff = design_effect(w, n, v)
    lo, hi = wilson_deff(w, n, deff)
    with np.errstate(divide="ignore", invalid="ignore"):  # never held: NaN, shown as a dash
        rate = w / n
    t = t.with_columns(pl.Series(name, rate), pl.Series(f"{name}_low", lo),
                       pl.Series(f"{name}_high", hi), pl.Series(f"{name}_se", np.sqrt(v)),
                       pl.Series(f"{name}_deff", deff)).drop("_var")
    return t.drop("_all") if not keys else t


def clustered_diff(per_batch: pl.DataFrame, keys: list[str], w1: str, n1: str, w2: str,
                   n2: str) -> pl.DataFrame:
    """Per group of ``keys``: the difference ``diff`` of the rates sum(w1)/sum(n1) and
    sum(w2)/sum(n2) over the per-batch rows of ``per_batch`` (one row per group and
    ``batch``), its cluster-robust standard error ``diff_se`` (the covariance of the two
    rates included), the z statistic and the two-sided p-value."""
    c = {k: pl.col(k) for k in (w1, n1, w2, n2)}
    r1 = c[w1].sum() / c[n1].sum()
    r2 = c[w2].sum() / c[n2].sum()
    e = (c[w1] - r1 * c[n1]) / c[n1].sum() - (c[w2] - r2 * c[n2]) / c[n2].sum()
    b = pl.len().cast(pl.Float64)
    t = per_batch.group_by(keys, maintain_order=True).agg(
        (r1 - r2).alias("diff"), (b / (b - 1) * (e ** 2).sum()).sqrt().alias("diff_se"))
    z = (t["diff"] / t["diff_se"]).to_numpy()
    p = np.where(np.isfinite(z), 2 * sps.norm.sf(np.abs(z)), np.nan)
    return t.with_columns(pl.Series("z", z), pl.Series("p", p))


def p_text(p: float) -> str:
    """A p-value as printed: ``p = 0.0123``, or ``p < 1e-15`` where double precision
    cannot tell it from 0."""
    return f"p = {p:.3g}" if p >= 1e-15 else "p < 1e-15"


def holm(pvalues: np.ndarray) -> np.ndarray:
    """Holm-adjusted p-values (the step-down maxima of (m - k) p_(k), capped at 1, as
    statsmodels' ``multipletests(method="holm")`` gives them; NaN stays NaN).  Computed
    here in numpy: ``multipletests`` runs a full garbage collection on every call, which
    cost a large report tens of seconds."""
    p = np.asarray(pvalues, float)
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    if ok.any():
        q = p[ok]
        order = np.argsort(q, kind="stable")
        steps = (len(q) - np.arange(len(q))) * q[order]
        adjusted = np.empty_like(q)
        adjusted[order] = np.minimum(np.maximum.accumulate(steps), 1.0)
        out[ok] = adjusted
    return out


def _per_group(frame: pl.DataFrame, keys: list[str], fn) -> pl.DataFrame:
    """Apply ``fn`` (sub-frame -> list of row dicts) to each group; keys are kept."""
    rows = []
    frame = _canonical(frame)
    groups = frame.group_by(keys, maintain_order=True) if keys else [((), frame)]
    for key, sub in groups:
        for row in fn(sub):
            rows.append({**dict(zip(keys, key)), **row})
    return pl.DataFrame(rows) if rows else pl.DataFrame()


# ---- win rates --------------------------------------------------------------------------
def win_rates(outcomes: pl.DataFrame, by: str | Sequence[str],
              wins: pl.DataFrame | None = None) -> pl.DataFrame:
    """Win rate of seat-games grouped by ``by`` (e.g. strategy, seat, players), with interval.

    With ``wins`` (the summary's per-batch table, with the ``by`` columns) the interval is
    cluster-robust over batches of games (a strategy's several seats in one game are not
    independent trials; ``win_rate_se``, ``win_rate_deff``); without it, plain Wilson.
    Columns: ``n`` seat-games, ``wins``, ``win_rate`` and its interval, and ``fair``: the
    win rate of an average player in the same games, winners / N averaged over the group's
    seat-games (``outcomes`` needs ``players`` and ``winners`` columns).  A shared first
    place is a win for each of the k players sharing it, so the fair share of a game with k
    winners is k/N, not 1/N: wins / seat-games of everybody in those games.
    """
    keys = _keys(by)
    t = (_canonical(outcomes).group_by(keys, maintain_order=True).agg(
        pl.col("count").sum().alias("n"),
        pl.col("count").filter(pl.col("won")).sum().alias("wins"),
        ((pl.col("count") * pl.col("winners") / pl.col("players")).sum()
         / pl.col("count").sum()).alias("fair"))
        .sort(keys))
    if wins is None:
        return with_interval(t, "wins", "n", "win_rate")
    return with_clustered_interval(t, _canonical(wins), keys, "wins", "n", "win_rate")


def seat_uniformity(outcomes: pl.DataFrame, by: str | Sequence[str]) -> pl.DataFrame:
    """Per group: chi-square test that wins are spread over the seats as the seat-games are.

    Columns: ``seats``, ``chi2``, ``p`` (scipy ``chisquare``), ``p_holm`` over the groups,
    ``best_seat``/``worst_seat`` (highest and lowest win rate).
    """
    def test(sub: pl.DataFrame) -> list[dict]:
        t = win_rates(sub, "seat")
        wins, n = t["wins"].to_numpy(), t["n"].to_numpy()
        expected = wins.sum() * n / n.sum()
        chi2, p = sps.chisquare(wins, expected)
        rates = t["win_rate"].to_numpy()
        return [{"seats": t.height, "chi2": float(chi2), "p": float(p),
                 "best_seat": int(t["seat"][int(rates.argmax())]),
                 "worst_seat": int(t["seat"][int(rates.argmin())])}]
    out = _per_group(outcomes, _keys(by), test)
    return out.with_columns(pl.Series("p_holm", holm(out["p"].to_numpy())))


# ---- characters -------------------------------------------------------------------------
def character_table(characters: pl.DataFrame, games: pl.DataFrame,
                    by: str | Sequence[str]) -> pl.DataFrame:
    """Per group of ``by`` and character: pick rate, win rate of holders, killed/robbed rates.

    ``held_rate``: share of rounds in which some player held the character (rounds from
    ``games``); ``picked_when_offered``: share of the draft picks in which it was among the
    offered characters that took it (cluster-robust over batches of games);
    ``win_held``: win rate of the players who held it in any round of the game;
    ``win_final``: of those who held it in the final round (both with cluster-robust
    intervals over batches of games); ``killed``/``robbed``: share of its held rounds in
    which its holder was killed/robbed (Wilson over rounds: approximate, rounds of a game
    are not independent).
    ``gold_per_turn`` and ``districts_per_turn``: average net gold and districts its holder
    gained in the turns it played (held rounds less killed ones).
    ``fair`` is the holders' fair share: winners / N of the games they held it in (a
    shared first place gives k winners), averaged over those games.
    ``characters`` needs a ``players`` column, both tables the ``by`` columns; add
    ``strategy`` to ``by`` to split by the holder's strategy.
    """
    keys = _keys(by)
    game_keys = [k for k in keys if k != "strategy"]
    played = (pl.col("rounds").cast(pl.Int64) * pl.col("count")).sum().alias("rounds_played")
    counts = ["rounds_held", "games_held", "wins_held", "final_held", "final_wins", "killed",
              "robbed", "gold_gained", "districts_built", "winners_held", "offered", "picked"]
    characters, games = _canonical(characters), _canonical(games)
    t = characters.group_by(keys + ["character", "rank"], maintain_order=True).agg(
        pl.col(counts).sum(),
        ((pl.col("winners_held") / pl.col("players")).sum()
         / pl.col("games_held").sum()).alias("fair"))
    if game_keys:
        t = t.join(games.group_by(game_keys, maintain_order=True).agg(played), on=game_keys)
    else:
        t = t.join(games.select(played), how="cross")
    t = t.sort(keys + ["rank"])
    t = with_interval(t, "rounds_held", "rounds_played", "held_rate")
    group = keys + ["character", "rank"]
    t = with_clustered_interval(t, characters, group, "picked", "offered",
                                "picked_when_offered")
    t = with_clustered_interval(t, characters, group, "wins_held", "games_held", "win_held")
    t = with_clustered_interval(t, characters, group, "final_wins", "final_held", "win_final")
    t = with_interval(t, "killed", "rounds_held", "killed_rate")
    t = with_interval(t, "robbed", "rounds_held", "robbed_rate")
    turns = pl.col("rounds_held") - pl.col("killed")
    return t.with_columns((pl.col("gold_gained") / turns).alias("gold_per_turn"),
                          (pl.col("districts_built") / turns).alias("districts_per_turn"))


# ---- unique districts -------------------------------------------------------------------
def district_table(districts: pl.DataFrame, by: str | Sequence[str]) -> pl.DataFrame:
    """Per group of ``by`` and purple/unique district: how often it ends in a city, and the
    win rate of the players who have it against those who do not.

    ``built_rate``: share of seat-games ending with the district in the city; ``win_built``
    and ``win_not_built``: win rates of those with and without it; ``diff``: their
    difference, with a z-test on its cluster-robust standard error (``diff_se``; intervals
    and test over batches of games: the seats of a game are not independent), ``p_holm``:
    Holm-corrected over the districts of each group.  An association, not an effect: who
    builds a district is not chosen at random.
    """
    keys = _keys(by)
    group = keys + ["district"]
    pb = (_canonical(districts).group_by(group + ["batch"], maintain_order=True)
          .agg(pl.col("seat_games", "built", "wins_built", "wins_not_built").sum())
          .with_columns((pl.col("seat_games") - pl.col("built")).alias("not_built")))
    t = (pb.group_by(group, maintain_order=True)
         .agg(pl.col("seat_games", "built", "not_built", "wins_built", "wins_not_built").sum())
         .sort(group))
    t = with_clustered_interval(t, pb, group, "built", "seat_games", "built_rate")
    t = with_clustered_interval(t, pb, group, "wins_built", "built", "win_built")
    t = with_clustered_interval(t, pb, group, "wins_not_built", "not_built", "win_not_built")
    test = clustered_diff(pb, group, "wins_built", "built", "wins_not_built", "not_built")
    t = t.join(test.select(group + ["diff", "diff_se", "p"]), on=group, how="left",
               nulls_equal=True, maintain_order="left")

    def adjust(g: pl.DataFrame) -> list[dict]:
        return [{"district": d, "p_holm": float(q)}
                for d, q in zip(g["district"], holm(g["p"].to_numpy()))]
    return t.join(_per_group(t, keys, adjust), on=group, how="left", nulls_equal=True,
                  maintain_order="left")


def character_balance(characters: pl.DataFrame, by: str | Sequence[str],
                      measure: str = "held") -> pl.DataFrame:
    """Which characters of a set win more or less than the set's own average.

    Per group and character: the holders' win rate (``measure="held"``: held in any round;
    ``"final"``: held in the final round) with its cluster-robust interval, the set's pooled
    average ``set_rate``, ``ratio`` = rate / set_rate, ``diff`` = rate - set_rate and a
    two-sided z-test of it on its cluster-robust standard error ``diff_se`` over batches of
    games (several players of one game
    hold the characters of one set), Holm-corrected within the group, and a verdict
    ``over``/``under``/``even`` at 5% after correction.
    """
    wins, trials = {"held": ("wins_held", "games_held"),
                    "final": ("final_wins", "final_held")}[measure]
    keys = _keys(by)
    group = keys + ["character", "rank"]
    pb = _canonical(characters).group_by(group + ["batch"], maintain_order=True).agg(
        pl.col(wins, trials).sum())
    set_pb = pb.group_by(keys + ["batch"], maintain_order=True).agg(
        pl.col(wins).sum().alias("_set_w"), pl.col(trials).sum().alias("_set_n"))
    pb = pb.join(set_pb, on=keys + ["batch"], how="left", nulls_equal=True,
                 maintain_order="left")
    t = (pb.group_by(group, maintain_order=True)
         .agg(pl.col(trials).sum().alias("n"), pl.col(wins).sum().alias("wins"),
              (pl.col("_set_w").sum() / pl.col("_set_n").sum()).alias("set_rate"))
         .sort(keys + ["rank", "character"]))
    t = with_clustered_interval(t, pb.rename({wins: "wins", trials: "n"}), group, "wins", "n",
                                "rate")
    test = clustered_diff(pb, group, wins, trials, "_set_w", "_set_n")
    t = t.join(test.select(group + ["diff", "diff_se", "p"]), on=group, how="left",
               nulls_equal=True, maintain_order="left").with_columns(
        (pl.col("rate") / pl.col("set_rate")).alias("ratio"))

    def adjust(g: pl.DataFrame) -> list[dict]:
        q = holm(g["p"].to_numpy())
        verdict = np.where(q < ALPHA, np.where(g["rate"] > g["set_rate"], "over", "under"),
                           "even")
        return [{"character": c, "p_holm": float(x), "verdict": str(v)}
                for c, x, v in zip(g["character"], q, verdict)]
    out = t.join(_per_group(t, keys, adjust), on=keys + ["character"], how="left",
                 nulls_equal=True, maintain_order="left")
    return out.select(keys + ["character", "rank", "n", "wins", "rate", "rate_low",
                              "rate_high", "rate_se", "set_rate", "ratio", "diff", "diff_se",
                              "p", "p_holm", "verdict"])


def balance_test(characters: pl.DataFrame, by: str | Sequence[str],
                 measure: str = "held") -> pl.DataFrame:
    """Per group: chi-square test of homogeneity of the holders' win rate over the characters.

    scipy ``chi2_contingency`` on the characters x (wins, losses) table, divided by the mean
    design effect of the characters' rates (first-order Rao-Scott correction: the holders
    of one game are not independent trials); ``p`` small means the set is not balanced.
    Columns: ``characters``, ``chi2`` (corrected), ``dof``, ``p``, ``deff``.
    """
    wins, trials = {"held": ("wins_held", "games_held"),
                    "final": ("final_wins", "final_held")}[measure]
    keys = _keys(by)
    group = keys + ["character"]
    chars = _canonical(characters).filter(pl.col(trials) > 0)
    t = chars.group_by(group, maintain_order=True).agg(pl.col(wins, trials).sum()).sort(group)
    t = with_clustered_interval(t, chars, group, wins, trials, "rate")

    def test(sub: pl.DataFrame) -> list[dict]:
        table = np.stack([sub[wins].to_numpy(), (sub[trials] - sub[wins]).to_numpy()], axis=1)
        chi2, _, dof, _ = sps.chi2_contingency(table)
        deff = float(sub["rate_deff"].mean())
        chi2 /= deff
        return [{"characters": sub.height, "chi2": float(chi2), "dof": int(dof),
                 "p": float(sps.chi2.sf(chi2, dof)), "deff": deff}]
    return _per_group(t, keys, test)


# ---- distributions ----------------------------------------------------------------------
def distribution(frame: pl.DataFrame, value: str, by: str | Sequence[str]) -> pl.DataFrame:
    """Summary of a counted value (``frame`` has ``value`` and ``count``) per group.

    Columns: ``n``, ``mean``, ``std``, ``min``, ``p10``, ``median``, ``p90``, ``max``
    (weighted statistics by statsmodels ``DescrStatsW``; nulls are left out).
    """
    def rows(sub: pl.DataFrame) -> list[dict]:
        sub = sub.filter(pl.col(value).is_not_null() & (pl.col("count") > 0))
        if sub.is_empty():
            return []
        d = DescrStatsW(sub[value].to_numpy().astype(float), weights=sub["count"].to_numpy(),
                        ddof=1)
        q10, q50, q90 = d.quantile([0.1, 0.5, 0.9], return_pandas=False)
        return [{"n": int(d.sum_weights), "mean": float(d.mean), "std": float(d.std),
                 "min": float(sub[value].min()), "p10": float(q10), "median": float(q50),
                 "p90": float(q90), "max": float(sub[value].max())}]
    return _per_group(frame, _keys(by), rows)


def histogram(frame: pl.DataFrame, value: str, by: str | Sequence[str]) -> pl.DataFrame:
    """Share of each ``value`` within each group (``frame`` has ``value`` and ``count``)."""
    keys = _keys(by)
    t = _canonical(frame).filter(pl.col(value).is_not_null()).group_by(
        keys + [value], maintain_order=True).agg(pl.col("count").sum())
    total = pl.col("count").sum().over(keys) if keys else pl.col("count").sum()
    return t.with_columns((pl.col("count") / total).alias("share")).sort(keys + [value])


def capped_share(games: pl.DataFrame, by: str | Sequence[str]) -> pl.DataFrame:
    """Share of games stopped by the round cap, per group, with its interval."""
    keys = _keys(by)
    t = _canonical(games).group_by(keys, maintain_order=True).agg(
        pl.col("count").sum().alias("games"),
                                 pl.col("count").filter(pl.col("capped")).sum().alias("capped"))
    return with_interval(t.sort(keys), "capped", "games", "capped_share")


# ---- strategy comparisons ---------------------------------------------------------------
def pairwise(pairs: pl.DataFrame, by: str | Sequence[str] = ()) -> pl.DataFrame:
    """Paired comparison of every two strategies of a line-up, Holm-corrected per group.

    From the per-game differences in ``pairs`` (the share of a's seats that won minus b's):
    ``n`` games, ``diff`` = mean difference of win rates a - b, its 95% normal interval and
    a two-sided z-test p-value (statsmodels ``DescrStatsW``), ``p_holm`` within the group
    and ``significant`` at 5% after correction.
    """
    keys = _keys(by)

    def rows(sub: pl.DataFrame) -> list[dict]:
        out = []
        for (a, b), t in sub.group_by("a", "b", maintain_order=True):
            out.append({"a": a, "b": b, **diff_test(t["diff"].to_numpy(),
                                                     t["count"].to_numpy())})
        p_holm = holm(np.array([r["p"] for r in out]))
        for r, ph in zip(out, p_holm):
            r.update(p_holm=float(ph), significant=bool(ph < ALPHA))
        return out
    return _per_group(pairs, keys, rows)


def diff_test(values: np.ndarray, counts: np.ndarray) -> dict:
    """Mean of counted per-game differences, its 95% interval and z-test p-value.

    With no variance (e.g. a strategy against itself on the same deals) the interval is
    the mean itself and p is 1 when the mean is 0, else 0.
    """
    d = DescrStatsW(np.asarray(values, float), weights=np.asarray(counts, float), ddof=1)
    n, mean = int(d.sum_weights), float(d.mean)
    if n < 2 or d.std == 0:
        return {"n": n, "diff": mean, "diff_low": mean, "diff_high": mean, "z": np.nan,
                "p": 1.0 if mean == 0 else 0.0}
    z, p = d.ztest_mean(0.0)
    lo, hi = d.zconfint_mean(alpha=ALPHA)
    return {"n": n, "diff": mean, "diff_low": float(lo), "diff_high": float(hi),
            "z": float(z), "p": float(p)}
