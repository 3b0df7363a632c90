"""Verdicts a designer can act on: which effects exceed the smallest difference that matters.

Each row of a table carries an estimate (a difference in win rate, as a fraction; reported
in points) and its standard error.  Within each group (a set at a player count, a cell) the
rows form one family of tests of H0: |effect| <= ``sdm`` (the smallest difference that
matters) against |effect| > ``sdm``, Holm-corrected (step down).  Each row's interval is
two-sided at the level its Holm step tested it at, so an interval clears the band
[-sdm, +sdm] exactly when the test decided:

``strong`` / ``weak``  the effect exceeds +sdm / falls below -sdm (decided, after Holm);
``even``               the whole interval lies within [-sdm, +sdm] (no effect that matters);
``unclear``            neither: more games are needed to tell.

With several populations of bots, a verdict whose direction changes between them (decided
in one, its estimate of the other sign in another) is marked *bot-dependent*.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

ALPHA = 0.05
#: the default smallest difference that matters, in win-rate points / 100
SDM = 0.02
#: the verdicts that decide: the effect exceeds the smallest difference that matters
DECIDED = ("strong", "weak")
#: the verdicts that do not: within the smallest difference that matters, or not yet known
UNDECIDED = ("even", "unclear")
#: the verdict of a strong or weak row whose bots failed their bot check: it says more
#: about the bots than about the cards
BOT_LIMITED = "bot-limited"
#: the verdict of a strong or weak row that another preparation of the same bots did not
#: read the same: it says more about one preparation than about the cards
UNCONFIRMED = "unconfirmed"


def _holm_levels(p: np.ndarray, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """(rejected, level) of Holm's step-down procedure: each hypothesis's test level, the
    level of the step that rejected it or, for the rest, of the step that stopped."""
    m = len(p)
    order = np.argsort(p, kind="stable")
    rejected = np.zeros(m, bool)
    level = np.zeros(m)
    stop = None
    for k, i in enumerate(order):
        step = alpha / (m - k)
        if stop is None and p[i] <= step:
            rejected[i], level[i] = True, step
        else:
            stop = step if stop is None else stop
            level[i] = stop
    return rejected, level


def decide(frame: pl.DataFrame, keys: Sequence[str], estimate: str = "effect",
           se: str = "effect_se", sdm: float = SDM, alpha: float = ALPHA) -> pl.DataFrame:
    """Add ``effect_low``/``effect_high`` (the interval at each row's Holm level), ``p``
    (of |effect| > sdm), ``verdict`` and ``level`` to ``frame``, Holm within each group of
    ``keys``.  Rows keep their order."""
    from scipy import stats as sps  # imported on use: the CLI reads SDM at start-up
    if sdm < 0:
        raise ValueError(f"the smallest difference that matters must be >= 0, got {sdm}.")
    out = []
    groups = frame.partition_by(list(keys), maintain_order=True) if keys else [frame]
    for g in groups:
        d, s = g[estimate].to_numpy().astype(float), g[se].to_numpy().astype(float)
        with np.errstate(divide="ignore", invalid="ignore"):
            p = np.minimum(1.0, 2 * sps.norm.sf((np.abs(d) - sdm) / s))
        p = np.where(np.isfinite(p), p, 1.0)
        rejected, level = _holm_levels(p, alpha)
        half = sps.norm.isf(level / 2) * s
        lo, hi = d - half, d + half
        verdict = np.where(rejected, np.where(d > 0, "strong", "weak"),
                           np.where((lo >= -sdm) & (hi <= sdm), "even", "unclear"))
        out.append(g.with_columns(pl.Series(f"{estimate}_low", lo),
                                  pl.Series(f"{estimate}_high", hi), pl.Series("p", p),
                                  pl.Series("level", level), pl.Series("verdict", verdict)))
    return pl.concat(out)


def mark_bot_dependent(frame: pl.DataFrame, keys: Sequence[str], estimate: str = "effect"
                       ) -> pl.DataFrame:
    """Add ``bot_dependent``: within each group of ``keys`` (the same item judged under
    several populations), true where some population decided (strong or weak) and
    another's estimate has the opposite sign."""
    decided = pl.col("verdict").is_in(["strong", "weak"])
    sign = pl.col(estimate).sign()
    return frame.with_columns(
        ((decided & (sign == 1)).any().over(keys) & (sign == -1).any().over(keys)
         | (decided & (sign == -1)).any().over(keys) & (sign == 1).any().over(keys))
        .alias("bot_dependent"))


def points(x: float) -> str:
    """A win-rate difference in points, signed, one decimal."""
    return f"{x * 100:+.1f}"


def reading(name: str, row: dict, where: str, estimate: str = "effect") -> str:
    """One line: "Wizard: +6.1 win-rate points [4.9, 7.3] at 5p — strong"."""
    lo, hi = row[f"{estimate}_low"] * 100, row[f"{estimate}_high"] * 100
    text = (f"{name}: {points(row[estimate])} win-rate points [{lo:.1f}, {hi:.1f}] {where} — "
            f"{row['verdict']}")
    return text + (" (bot-dependent)" if row.get("bot_dependent") else "")


def holders_verdicts(characters: pl.DataFrame, by: Sequence[str], sdm: float = SDM
                     ) -> pl.DataFrame:
    """The verdicts of an experiment without restricted play: per group of ``by`` (a cell)
    and character, the holders' win rate against the set's average (``effect``, with the
    cluster-robust standard error of :func:`~citadels_sim.stats.analysis.character_balance`).
    An association, not an effect of the card: who picks what when is not random."""
    from .analysis import character_balance
    bal = character_balance(characters, by).rename({"diff": "effect", "diff_se": "effect_se"})
    return decide(bal.drop("p", "p_holm", "verdict"), by, sdm=sdm)


def relabel(values: pl.DataFrame, marked: pl.DataFrame, keys: Sequence[str],
            verdicts: tuple[str, ...], label: str) -> pl.DataFrame:
    """``values`` with each verdict in ``verdicts`` read ``label`` on the rows whose
    ``keys`` appear in ``marked``."""
    flags = marked.select(*keys, pl.lit(True).alias("_marked"))
    hit = pl.col("_marked").fill_null(False) & pl.col("verdict").is_in(verdicts)
    return values.join(flags, on=list(keys), how="left", maintain_order="left").with_columns(
        pl.when(hit).then(pl.lit(label)).otherwise(pl.col("verdict")).alias("verdict")
    ).drop("_marked")
