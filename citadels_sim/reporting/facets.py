"""How the figures of a many-cell experiment are split so that each reads at a glance.

A cell is named by its label columns (:data:`AXES`).  A line figure draws at most
:data:`MAX_LINES` lines per panel: the label columns that vary are moved, in
:data:`FACET_ORDER`, from naming the lines to naming the panels (small multiples) until few
enough lines are left; lines that are still too many are spread over several figures (each
led by the first line, to compare against), and so are panels beyond :data:`MAX_PANEL_ROWS`
rows.  A heat map gets one image per character
set with at most :data:`MAX_COLUMNS` cells each.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import polars as pl

#: the label columns naming a cell (the experiment's ``LABELS`` less the slug)
AXES = ["ruleset", "players", "characters", "districts", "lineup"]
#: which label columns become panels first
FACET_ORDER = ["players", "ruleset", "lineup", "characters", "districts"]
MAX_LINES = 10
MAX_PANEL_ROWS = 4
MAX_COLUMNS = 12


@dataclass
class Block:
    """The rows of one figure: ``line`` and ``panel`` columns name each row's line and
    panel (from the label columns ``line_cols`` and ``panel_cols``); panels are laid out
    ``ncols`` to a row."""

    frame: pl.DataFrame
    ncols: int
    line_cols: list[str]
    panel_cols: list[str]


def varying(frame: pl.DataFrame) -> list[str]:
    """The label columns whose values differ between the rows of ``frame`` (``districts``
    left out where it always names the same as ``characters``), ``players`` if none does."""
    cols = [c for c in AXES if frame[c].n_unique() > 1]
    if "districts" in cols and (frame["districts"] == frame["characters"]).all():
        cols.remove("districts")
    return cols or ["players"]


def label(row: dict, cols: Sequence[str]) -> str:
    """A short name of ``row`` from its values in ``cols`` (players as ``4p``)."""
    return " ".join(f"{row[c]}p" if c == "players" else str(row[c]) for c in cols)


def chunks(items: list, size: int) -> list[list]:
    """``items`` cut into as few consecutive groups of at most ``size`` as possible, of
    nearly equal lengths."""
    parts = max(1, -(-len(items) // size))
    per = -(-len(items) // parts)
    return [items[i:i + per] for i in range(0, len(items), per)]


def _distinct(frame: pl.DataFrame, cols: Sequence[str]) -> int:
    return frame.select(cols).unique().height if cols else 1


def _named(frame: pl.DataFrame, name: str, cols: Sequence[str]) -> pl.DataFrame:
    """``frame`` with a column ``name``: each row's :func:`label` from ``cols``."""
    if not cols:
        return frame.with_columns(pl.lit("").alias(name))
    return frame.with_columns(pl.Series(name, [label(r, cols) for r in
                                               frame.select(cols).iter_rows(named=True)],
                                        dtype=pl.String))


def unique(frame: pl.DataFrame, col: str) -> list:
    """The values of ``col`` in order of first appearance."""
    return list(dict.fromkeys(frame[col].to_list()))


def line_plan(frame: pl.DataFrame, max_lines: int = MAX_LINES) -> tuple[list[str], list[str]]:
    """(line columns, panel columns): label columns move from the lines to the panels, in
    :data:`FACET_ORDER`, until at most ``max_lines`` lines are left or one column names
    them."""
    lines = varying(frame)
    panels = []
    for col in FACET_ORDER:
        if _distinct(frame, lines) <= max_lines or len(lines) == 1:
            break
        if col in lines:
            lines.remove(col)
            panels.append(col)
    return lines, [c for c in AXES if c in panels]


def _line_groups(names: list[str], max_lines: int) -> list[list[str]]:
    """``names`` in groups of at most ``max_lines``; when there are several, the first
    name (the experiment's first cell: often its baseline) leads every group."""
    if len(names) <= max_lines:
        return [names]
    return [names[:1] + group for group in chunks(names[1:], max_lines - 1)]


def line_blocks(frame: pl.DataFrame, max_lines: int = MAX_LINES) -> list[Block]:
    """The figures of a line plot of ``frame`` (rows with the label columns): each with
    at most ``max_lines`` lines (one legend serves all its panels) and
    :data:`MAX_PANEL_ROWS` rows of panels."""
    lines, panels = line_plan(frame, max_lines)
    t = _named(_named(frame, "line", lines), "panel", panels)
    last = frame[panels[-1]].n_unique() if panels else 1
    ncols = last if 2 <= last <= 4 else min(3, t["panel"].n_unique())
    out = []
    for lines_here in _line_groups(unique(t, "line"), max_lines):
        sub = t.filter(pl.col("line").is_in(lines_here))
        names = unique(sub, "panel")
        rows = [names[i:i + ncols] for i in range(0, len(names), ncols)]
        for group in chunks(rows, MAX_PANEL_ROWS):
            keep = [p for row in group for p in row]
            out.append(Block(sub.filter(pl.col("panel").is_in(keep)), ncols, lines, panels))
    return out


def heat_blocks(frame: pl.DataFrame, max_columns: int = MAX_COLUMNS) -> list[Block]:
    """The images of a heat map of ``frame`` (rows: a cell's character): one per ruleset
    and character set with at most ``max_columns`` cells each; ``panel`` names the set,
    ``line`` the cell within it."""
    cols = varying(frame)
    sets = [c for c in ("ruleset", "characters") if c in cols]
    lines = [c for c in cols if c not in sets] or cols
    t = _named(_named(frame, "line", lines), "panel", sets)
    out = []
    for name in unique(t, "panel"):
        sub = t.filter(pl.col("panel") == name)
        for cells in chunks(unique(sub, "cell"), max_columns):
            out.append(Block(sub.filter(pl.col("cell").is_in(cells)), 1, lines, sets))
    return out
