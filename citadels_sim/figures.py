"""Matplotlib figures of the reports; each function takes analysis tables and returns a Figure.

Cells are named by ``label`` (a column of short cell names added by the report).  The
figures use the non-interactive Agg backend, so they work without a display.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

COLORS = plt.get_cmap("tab10").colors


def _errors(t: pl.DataFrame, rate: str) -> np.ndarray:
    r = t[rate].to_numpy()
    return np.abs(np.stack([r - t[f"{rate}_low"].to_numpy(), t[f"{rate}_high"].to_numpy() - r]))


def rate_by(t: pl.DataFrame, x: str, title: str, xlabel: str) -> Figure:
    """Win rate (with 95% interval error bars) against ``x``, one line per cell label, and
    each cell's fair share (winners per game / N) dotted in the same colour."""
    fig, ax = plt.subplots(figsize=(8, 4.5), layout="constrained")
    labels = list(dict.fromkeys(t["label"].to_list()))
    categorical = t[x].dtype == pl.String
    ticks = list(dict.fromkeys(t[x].to_list())) if categorical else None
    for i, label in enumerate(labels):
        sub = t.filter(pl.col("label") == label)
        xs = ([ticks.index(v) for v in sub[x]] if categorical else sub[x].to_numpy())
        offset = (i - (len(labels) - 1) / 2) * 0.06 if len(labels) > 1 else 0
        xs = np.asarray(xs, float) + offset
        color = COLORS[i % len(COLORS)]
        ax.errorbar(xs, sub["win_rate"], yerr=_errors(sub, "win_rate"), marker="o", ms=4,
                    capsize=3, color=color, label=label, lw=1.2,
                    ls="none" if categorical else "-")
        ax.hlines(sub["fair"][0], xs.min() - 0.2, xs.max() + 0.2, colors=[color],
                  linestyles="dotted", lw=1)
    if categorical:
        ax.set_xticks(range(len(ticks)), ticks, rotation=20 if len(ticks) > 4 else 0)
    else:
        ax.set_xticks(sorted(set(t[x].to_list())))
    ax.set(title=title, xlabel=xlabel, ylabel="win rate (95% interval)")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8, ncols=2 if len(labels) > 6 else 1, title="dotted: fair share",
              title_fontsize=8)
    return fig


def heatmap(t: pl.DataFrame, value: str, title: str, center: float = 1.0) -> Figure:
    """Characters (rows, by rank) x cells (columns) coloured by ``value``, centred on
    ``center`` and annotated."""
    rows = t.select("rank", "character").unique().sort("rank")["character"].to_list()
    cols = list(dict.fromkeys(t["label"].to_list()))
    grid = np.full((len(rows), len(cols)), np.nan)
    for r in t.iter_rows(named=True):
        grid[rows.index(r["character"]), cols.index(r["label"])] = r[value]
    spread = np.nanmax(np.abs(grid - center)) or 1.0
    fig, ax = plt.subplots(figsize=(1.3 + 0.9 * len(cols), 0.9 + 0.45 * len(rows)),
                           layout="constrained")
    im = ax.imshow(grid, cmap="RdBu_r", vmin=center - spread, vmax=center + spread,
                   aspect="auto")
    for (i, j), v in np.ndenumerate(grid):
        if not np.isnan(v):
            ax.text(j, i, f"{v:.2f}", ha="center", va="center", fontsize=8,
                    color="white" if abs(v - center) > 0.6 * spread else "black")
    ax.set_xticks(range(len(cols)), cols, rotation=30 if len(cols) > 4 else 0, ha="right"
                  if len(cols) > 4 else "center")
    ax.set_yticks(range(len(rows)), rows)
    ax.set_title(title)
    fig.colorbar(im, ax=ax, shrink=0.8)
    return fig


def distributions(t: pl.DataFrame, value: str, title: str, xlabel: str) -> Figure:
    """Share of each ``value`` (a :func:`~citadels_sim.analysis.histogram`), one step line
    per cell label."""
    fig, ax = plt.subplots(figsize=(8, 4.5), layout="constrained")
    for i, label in enumerate(dict.fromkeys(t["label"].to_list())):
        sub = t.filter(pl.col("label") == label).sort(value)
        ax.step(sub[value], sub["share"], where="mid", color=COLORS[i % len(COLORS)],
                label=label, lw=1.3)
    ax.set(title=title, xlabel=xlabel, ylabel="share")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    return fig


def effects(t: pl.DataFrame, title: str, per_figure: int = 4) -> list[Figure]:
    """Horizontal error bars of ``effect`` (with ``effect_low``/``effect_high``, fractions
    shown in points) by character, one panel per player count (``players``) and one colour
    per ``population``; a grey band marks ``sdm`` either side of 0 when the table has it.
    At most ``per_figure`` panels per figure, so every image stays small."""
    counts = sorted(t["players"].unique().to_list())
    pops = list(dict.fromkeys(t["population"].to_list()))
    out = []
    for start in range(0, len(counts), per_figure):
        block = counts[start:start + per_figure]
        rows = t.select("rank", "character").unique().sort("rank")["character"].to_list()
        fig, axes = plt.subplots(1, len(block), figsize=(3.2 * len(block) + 1.6,
                                                         0.9 + 0.32 * len(rows)),
                                 layout="constrained", sharey=True, squeeze=False)
        for ax, n in zip(axes[0], block):
            for i, pop in enumerate(pops):
                sub = t.filter((pl.col("players") == n) & (pl.col("population") == pop))
                y = np.array([rows.index(c) for c in sub["character"]], float)
                y += (i - (len(pops) - 1) / 2) * 0.25
                e = sub["effect"].to_numpy() * 100
                err = np.abs(np.stack([e - sub["effect_low"].to_numpy() * 100,
                                       sub["effect_high"].to_numpy() * 100 - e]))
                ax.errorbar(e, y, xerr=err, fmt="o", ms=4, capsize=3,
                            color=COLORS[i % len(COLORS)], label=pop)
            ax.axvline(0, color="black", lw=0.8)
            if "sdm" in t.columns:
                s = float(t["sdm"][0]) * 100
                ax.axvspan(-s, s, color="0.85", zorder=0)
            ax.set_yticks(range(len(rows)), rows)
            ax.set(title=f"{n} players", xlabel="points")
            ax.grid(axis="x", alpha=0.3)
        axes[0][0].invert_yaxis()  # rank 1 on top (the axes share y: invert once)
        if len(pops) > 1:
            axes[0][-1].legend(fontsize=8, title="bots", title_fontsize=8,
                               loc="upper left", bbox_to_anchor=(1.02, 1))
        fig.suptitle(title)
        out.append(fig)
    return out


def learning_curve(history: pl.DataFrame, fair: float, held_out: dict | None = None
                   ) -> Figure:
    """A tuning run's training fitness per generation against the games played: the search
    mean's, the population's average and its best candidate's; the fair share dotted and,
    with ``held_out`` (``share``, ``low``, ``high``), the deployed strategy's held-out win
    share with its interval at the end."""
    fig, ax = plt.subplots(figsize=(8, 4.5), layout="constrained")
    x = history["games"].to_numpy() / 1000
    ax.plot(x, history["best_candidate"], color=COLORS[1], lw=0.8, alpha=0.7,
            label="best candidate (biased up: selected on these games)")
    ax.plot(x, history["population_average"], color=COLORS[2], lw=1, alpha=0.8,
            label="population average")
    ax.plot(x, history["search_mean"], color=COLORS[0], lw=1.8, marker="o", ms=2.5,
            label="search mean (what is deployed)")
    ax.axhline(fair, color="black", ls="dotted", lw=1, label=f"fair share {fair:.3f}")
    if held_out:
        ax.errorbar([x[-1]], [held_out["share"]],
                    yerr=[[held_out["share"] - held_out["low"]],
                          [held_out["high"] - held_out["share"]]],
                    color="crimson", marker="D", ms=6, capsize=4, ls="none", zorder=5,
                    label=f"deployed, held-out deals: {held_out['share']:.3f}")
    ax.set(title="Learning curve: win share against the league",
           xlabel="games played in the search (thousands)", ylabel="win share")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    return fig
