"""Matplotlib figures of the reports; each function takes analysis tables (rows with the
cell's label columns) and returns a list of Figures, split by :mod:`citadels_sim.reporting.facets` so
that no panel draws more than ten lines and no image is much over 1,300 px on a side at
:data:`DPI`.

Win rates are drawn as points against the fair share (the win rate minus the fair share,
in percentage points: 0 is an average player).  The figures use the non-interactive Agg
backend, so they work without a display.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import NamedTuple

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from .facets import Block, heat_blocks, line_blocks, unique  # noqa: E402

COLORS = plt.get_cmap("tab10").colors
#: the resolution the reports save figures at
DPI = 110
WIDTH = {1: 7.5, 2: 9.0, 3: 10.5, 4: 11.0}  # figure width (inches) by panels per row
PANEL_HEIGHT = 2.7
POINTS = "win rate - fair share (points)"


class Image(NamedTuple):
    """A rendered figure: its title and PNG bytes."""

    title: str
    png: bytes


def render(fig: Figure) -> Image:
    """``fig`` as PNG at :data:`DPI`; the figure is closed (live figures make every
    garbage collection slow, and statsmodels' Holm correction collects)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI)
    plt.close(fig)
    return Image(fig.get_suptitle(), buf.getvalue())


def _numbered(title: str, i: int, n: int) -> str:
    return title if n == 1 else f"{title} ({i + 1} of {n})"


def _legend_columns(labels: list[str], width: float) -> int:
    """Legend columns for ``labels`` (8 pt) in ``width`` inches: as few rows as fit, the
    entries spread evenly over them."""
    entry = (max(map(len, labels)) * 4.8 + 40) / 72
    rows = -(-len(labels) // max(1, min(8, int(width / entry))))
    return -(-len(labels) // rows)


def _panels(block: Block, title: str, xlabel: str, ylabel: str, sharex: bool,
            zero: bool) -> tuple[Figure, dict[str, Axes]]:
    """A figure with one axes per panel of ``block`` (shared y), titled, the x axis labelled
    under each column and the y axis once, a line at y = 0 if ``zero``; unused cells of the
    grid hidden."""
    names = unique(block.frame, "panel")
    ncols = min(block.ncols, len(names))
    nrows = -(-len(names) // ncols)
    lines = unique(block.frame, "line")
    legend_rows = -(-len(lines) // _legend_columns(lines, WIDTH[ncols]))
    height = (4.2 if len(names) == 1 else PANEL_HEIGHT * nrows) + 1.0 + 0.22 * legend_rows
    fig, axes = plt.subplots(nrows, ncols, figsize=(WIDTH[ncols], height), sharey=True,
                             sharex=sharex, squeeze=False, layout="constrained")
    for ax in axes.flat[len(names):]:
        ax.set_visible(False)
    fig.suptitle(title)
    fig.supylabel(ylabel, fontsize=9)
    for k, (ax, name) in enumerate(zip(axes.flat, names)):
        ax.set_title(name, fontsize=9)
        ax.grid(axis="y", alpha=0.3)
        if zero:
            ax.axhline(0, color="black", lw=0.8)
        if k + ncols >= len(names):  # the lowest panel of its column
            ax.set_xlabel(xlabel, fontsize=9)
    return fig, dict(zip(names, axes.flat))


def _line_figures(t: pl.DataFrame, title: str, xlabel: str, ylabel: str, draw,
                  sharex: bool, zero: bool = False) -> list[Figure]:
    """One figure per :func:`~citadels_sim.reporting.facets.line_blocks` block of ``t``, with one
    legend below its panels; ``draw(ax, sub, index, count)`` draws one line (``index`` of
    ``count`` in the figure) and returns its artist."""
    blocks = line_blocks(t)
    figs = []
    for n, block in enumerate(blocks):
        fig, axes = _panels(block, _numbered(title, n, len(blocks)), xlabel, ylabel, sharex,
                            zero)
        lines = unique(block.frame, "line")
        handles = {}
        for (panel, line), sub in block.frame.group_by("panel", "line", maintain_order=True):
            handles.setdefault(line, draw(axes[panel], sub, lines.index(line), len(lines)))
        if lines != [""]:
            fig.legend(list(handles.values()), list(handles), loc="outside lower center",
                       ncols=_legend_columns(lines, fig.get_figwidth()), fontsize=8,
                       frameon=False,
                       title=", ".join(block.line_cols), title_fontsize=8)
        figs.append(fig)
    return figs


def rate_by(t: pl.DataFrame, x: str, title: str, xlabel: str) -> list[Figure]:
    """Win rate against ``x`` (seat or strategy) in points against the fair share, with
    95% intervals; one line per cell, panels and figures as
    :func:`~citadels_sim.reporting.facets.line_blocks` splits the cells."""
    categorical = t[x].dtype == pl.String
    ticks = unique(t, x) if categorical else sorted(set(t[x].to_list()))

    def draw(ax: Axes, sub: pl.DataFrame, i: int, count: int):
        xs = np.array([ticks.index(v) for v in sub[x]] if categorical else sub[x], float)
        xs += (i - (count - 1) / 2) * min(0.06, 0.6 / count)
        y = 100 * (sub["win_rate"] - sub["fair"]).to_numpy()
        err = 100 * np.abs(np.stack([sub["win_rate"] - sub["win_rate_low"],
                                     sub["win_rate_high"] - sub["win_rate"]]))
        artist = ax.errorbar(xs, y, yerr=err, marker="o", ms=3.5, capsize=2, lw=1,
                             color=COLORS[i], ls="none" if categorical else "-")
        if categorical:
            ax.set_xticks(range(len(ticks)), ticks, rotation=20 if len(ticks) > 4 else 0,
                          fontsize=8)
        else:
            ax.set_xticks([v for v in ticks if v <= ax.dataLim.x1 + 0.5])  # this panel's
        return artist
    return _line_figures(t, title, xlabel, POINTS, draw, categorical, zero=True)


def distributions(t: pl.DataFrame, value: str, title: str, xlabel: str) -> list[Figure]:
    """Share of each ``value`` (a :func:`~citadels_sim.stats.analysis.histogram`), one step line
    per cell, split as :func:`rate_by`."""
    def draw(ax: Axes, sub: pl.DataFrame, i: int, count: int):
        sub = sub.sort(value)
        return ax.step(sub[value], sub["share"], where="mid", color=COLORS[i], lw=1.2)[0]
    return _line_figures(t, title, xlabel, "share", draw, True)


def heatmap(t: pl.DataFrame, value: str, title: str, unit: str) -> list[Figure]:
    """Characters (rows, by rank) x cells (columns) coloured by ``value`` (in ``unit``),
    centred on 0 and annotated; one image per character set and block of cells
    (:func:`~citadels_sim.reporting.facets.heat_blocks`), all on one colour scale."""
    spread = float(np.nanmax(np.abs(t[value].to_numpy()))) or 1.0
    blocks = heat_blocks(t)
    return [_heat_image(b, value, _numbered(_titled(title, b), n, len(blocks)), unit, spread)
            for n, b in enumerate(blocks)]


def _titled(title: str, block: Block) -> str:
    name = block.frame["panel"][0]
    return f"{title}: {name}" if name else title


def _heat_image(block: Block, value: str, title: str, unit: str, spread: float) -> Figure:
    """One heat map image: the block's characters by rank x its cells, in -spread..spread."""
    t = block.frame
    rows = t.select("rank", "character").unique().sort("rank", "character")
    names = [f"{r} {c}" for r, c in rows.iter_rows()]
    cols = unique(t, "line")
    grid = np.full((rows.height, len(cols)), np.nan)
    index = {c: i for i, c in enumerate(rows["character"])}
    for r in t.iter_rows(named=True):
        grid[index[r["character"]], cols.index(r["line"])] = r[value]
    fig, ax = plt.subplots(figsize=(2.6 + 0.68 * len(cols), 1.6 + 0.36 * rows.height),
                           layout="constrained")
    im = ax.imshow(grid, cmap="RdBu_r", vmin=-spread, vmax=spread, aspect="auto")
    for (i, j), v in np.ndenumerate(grid):
        if not np.isnan(v):
            ax.text(j, i, f"{v:+.1f}", ha="center", va="center", fontsize=8,
                    color="white" if abs(v) > 0.6 * spread else "black")
    ax.set_xticks(range(len(cols)), cols, rotation=30 if len(cols) > 4 else 0,
                  ha="right" if len(cols) > 4 else "center", fontsize=8)
    ax.set_yticks(range(rows.height), names, fontsize=8)
    fig.suptitle(title)
    fig.colorbar(im, ax=ax, shrink=0.8).set_label(unit, fontsize=8)
    return fig


def effects(t: pl.DataFrame, title: str, per_figure: int = 4) -> list[Figure]:
    """Horizontal error bars of ``effect`` (with ``effect_low``/``effect_high``, fractions
    shown in win-rate points) by character, one panel per player count (``players``) and one colour
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
            ax.set(title=f"{n} players", xlabel="win-rate points")
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


def exploit_curve(rounds: pl.DataFrame) -> Figure:
    """A hardening run's exploitability per round: what a tuned exploiter gains over the
    fair share against that round's strategy, with 95% intervals (round 0: the start); a
    star on the deployed round."""
    fig, ax = plt.subplots(figsize=(7, 4), layout="constrained")
    x = rounds["round"].to_numpy()
    y = rounds["gain_points"].to_numpy()
    ax.errorbar(x, y, yerr=[y - rounds["gain_low"].to_numpy(),
                            rounds["gain_high"].to_numpy() - y],
                color=COLORS[0], marker="o", ms=6, capsize=4, lw=1.5)
    for xi, yi in zip(x, y):
        ax.annotate(f"{yi:+.1f}", (xi, yi), textcoords="offset points", xytext=(8, 4),
                    fontsize=9)
    chosen = rounds.filter(pl.col("deployed"))
    ax.plot(chosen["round"], chosen["gain_points"], ls="none", marker="*", ms=16,
            color="crimson", zorder=5, label="deployed (least exploited)")
    ax.axhline(0, color="black", ls="dotted", lw=1, label="fair share (no exploit)")
    ax.set_xticks(x)
    ax.set_xlim(x.min() - 0.4, x.max() + 0.6)  # room for the last label
    ax.set(title="Exploitability per round: a tuned exploiter's gain",
           xlabel="round (0: the start strategy)",
           ylabel="exploiter's gain over the fair share (points)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="upper right")
    return fig


def exploit_gains(frame: pl.DataFrame, limit: float) -> Figure:
    """An exploit test's gain over the fair share per exploiter family, with 95% intervals,
    against the fair share (0) and the ``limit`` a bot that holds stays under."""
    fig, ax = plt.subplots(figsize=(7, 1.6 + 0.6 * frame.height), layout="constrained")
    y = np.arange(frame.height)
    g = frame["gain"].to_numpy()
    over = g > limit
    ax.errorbar(g, y, xerr=[g - frame["gain_low"].to_numpy(),
                            frame["gain_high"].to_numpy() - g],
                fmt="none", ecolor="0.3", capsize=5, lw=1.5)
    for mask, color, label in ((~over, COLORS[2], f"at most {limit:g} points: holds"),
                               (over, "crimson", f"over {limit:g} points: exploits it")):
        if mask.any():
            ax.plot(g[mask], y[mask], "o", ms=8, color=color, label=label, zorder=5)
    for gi, yi in zip(g, y):
        ax.annotate(f"{gi:+.1f}", (gi, yi), textcoords="offset points", xytext=(0, 9),
                    ha="center", fontsize=9)
    ax.axvline(0, color="black", ls="dotted", lw=1)
    ax.axvline(limit, color="crimson", ls="--", lw=1.2)
    ax.set_yticks(y, frame["family"].to_list())
    ax.set_ylim(y.max() + 0.7, -0.7)  # the first family on top, room for the labels
    low = min(0.0, float(frame["gain_low"].min()))
    high = max(limit, float(frame["gain_high"].max()))
    pad = 0.08 * (high - low)
    ax.set_xlim(low - pad, high + pad)
    ax.set(title="Exploit test: a tuned exploiter's gain over the fair share",
           xlabel=f"held-out gain over the fair share (win-rate points); dotted: fair, "
                  f"dashed: the {limit:g}-point limit", ylabel="exploiter family")
    ax.grid(axis="x", alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    return fig


def leader_curve(t: pl.DataFrame) -> list[Figure]:
    """The share (%) of the players ahead alone after round k who won, against k, with 95%
    intervals; one line per cell, split as :func:`rate_by`."""
    def draw(ax: Axes, sub: pl.DataFrame, i: int, count: int):
        sub = sub.sort("round")
        err = np.abs(np.stack([sub["share"] - sub["share_low"],
                               sub["share_high"] - sub["share"]]))
        return ax.errorbar(sub["round"], sub["share"], yerr=err, marker="o", ms=3, capsize=2,
                           lw=1, color=COLORS[i])
    return _line_figures(t, "The leader after round k wins", "round k",
                         "% of leaders who won", draw, True)


def _errorbars(ax: Axes, x, y, low, high, i: int, label: str):
    x, y = np.asarray(x, float), np.asarray(y, float)
    err = np.abs(np.stack([y - np.asarray(low, float), np.asarray(high, float) - y]))
    return ax.errorbar(x, y, yerr=err, marker="o", ms=3.5, capsize=2, lw=1.2,
                       color=COLORS[i % len(COLORS)], label=label)


def sweep_characters(t: pl.DataFrame, names: Sequence[str], sdm: float) -> list[Figure]:
    """Each character's restricted-play value against the set's mean (``effect``, the
    verdict's) against the first swept rule of ``names``, with 95% intervals, one figure per
    player count and population (with a second rule, one panel per its value); shaded:
    within ±``sdm``."""
    figs = []
    parameter = names[0]
    for (players, population), group in t.group_by("players", "population",
                                                   maintain_order=True):
        panels = (group.partition_by("swept2", maintain_order=True) if len(names) > 1
                  else [group])
        fig, axes = plt.subplots(1, len(panels), figsize=(WIDTH[min(3, len(panels))], 4.2),
                                 layout="constrained", squeeze=False, sharey=True)
        for ax, sub in zip(axes.flat, panels):
            ax.axhspan(-sdm, sdm, color="0.9", zorder=0)
            for i, (name, line) in enumerate(sub.sort("rank").group_by("character",
                                                                      maintain_order=True)):
                line = line.sort("swept")
                _errorbars(ax, line["swept"], line["effect"], line["effect_low"],
                           line["effect_high"], i, name[0])
            ax.axhline(0, color="black", lw=0.8)
            ax.set_xlabel(parameter)
            ax.set_xticks(sorted(sub["swept"].unique().to_list()))
            if len(names) > 1:
                ax.set_title(f"{names[1]} = {sub['swept2'][0]}", fontsize=9)
        axes.flat[0].set_ylabel("value - set's mean (win-rate points)")
        fig.suptitle(f"Character values against {parameter}: {players} players, "
                     f"{population} bots")
        handles, labels = axes.flat[0].get_legend_handles_labels()
        fig.legend(handles, labels, loc="outside right center", fontsize=8, frameon=False)
        figs.append(fig)
    return figs


def sweep_measures(t: pl.DataFrame, swept: Sequence[str], names: dict[str, str]) -> Figure:
    """Each game-quality measure against the first swept rule of ``swept``, with 95%
    intervals: one panel per measure (``names``: key -> title), one line per player count
    and population (and value of the second rule)."""
    parameter = swept[0]
    lines = ["players", "lineup"] + (["swept2"] if len(swept) > 1 else [])
    keys = [k for k in names if k in set(t["key"].to_list())]
    cols = 4 if len(keys) > 6 else 3
    rows = -(-len(keys) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(WIDTH[cols], PANEL_HEIGHT * rows),
                             layout="constrained", squeeze=False)
    handles = {}
    for ax, key in zip(axes.flat, keys):
        sub = t.filter(pl.col("key") == key)
        for i, (group, line) in enumerate(sub.group_by(*lines, maintain_order=True)):
            line = line.sort("swept")
            label = f"{group[0]}p, {group[1]}" + (f", {swept[1]} = {group[2]}"
                                                  if len(swept) > 1 else "")
            handles[label] = _errorbars(ax, line["swept"], line["value"], line["low"],
                                        line["high"], i, label)
        ax.set_title(names[key], fontsize=9)
        ax.set_xticks(sorted(sub["swept"].unique().to_list()))
        ax.set_xlabel(parameter, fontsize=8)
        ax.tick_params(labelsize=8)
        ax.set_ylabel(sub["unit"][0], fontsize=8)
    for ax in list(axes.flat)[len(keys):]:
        ax.set_visible(False)
    fig.suptitle(f"Game quality against {parameter}")
    fig.legend(list(handles.values()), list(handles), loc="outside lower center",
               ncols=min(4, len(handles)), fontsize=8, frameon=False)
    return fig
