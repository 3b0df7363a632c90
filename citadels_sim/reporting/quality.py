"""The "Game quality" section of a report (experiments, and the balance tests built on
them): the measures of :mod:`citadels_sim.stats.quality` per cell, and the share of games
the leader after each round goes on to win."""

from __future__ import annotations

from collections.abc import Callable

import polars as pl

from citadels_sim.stats import quality
from . import figures
from .document import Report

#: the fewest leaders a round of the figure rests on
FEWEST = 100
#: the table's columns: the measure's key and its heading
COLUMNS = {"length": "length (rounds)", "lead_changes": "lead changes",
           "decided": "leads for good from round",
           "halfway_leader_wins": "halfway leader wins (%)",
           "comeback_5": "5+ behind wins (%)", "comeback_10": "10+ behind wins (%)",
           "winner_trailed": "winner trailed by (points)",
           "first_crown": "first crown's seat (win-rate points)"}
METHOD = ("A round's leader is the player whose districts' value plus the all-types bonus is "
          "highest after it, alone (after the last round: the sole winner). Lead changes: "
          "rounds after which the player ahead alone is not the last one who was; leads for "
          "good from: the first round of the winner's last unbroken run ahead alone; halfway "
          "leader wins: the share of players ahead alone after half the median game length "
          "who win; n+ behind wins: the share of players who trailed the leader by n points "
          "or more after some round and won; first crown's seat: its win rate minus the fair "
          "share. 95% intervals: means over games (normal), shares Wilson. docs/statistics.md "
          "defines each.")


def section(rep: Report, tables: dict[str, pl.DataFrame], by: list[str],
            labelled: Callable[[pl.DataFrame], pl.DataFrame]) -> None:
    """Add the section to ``rep`` (nothing when the runs hold no game-quality counters)."""
    measures = quality.measures(tables, by)
    if measures.is_empty():
        return
    rep.heading("Game quality")
    rep.text(METHOD)
    rep.tables["quality"] = labelled(measures)
    wide = (labelled(measures.with_columns(pl.format(
        "{} [{}, {}]", *[pl.col(c).round(1).cast(pl.String) for c in ("value", "low", "high")])
        .alias("text"))).pivot(on="key", index=["cell", "label"], values="text")
        .select("label", *[pl.col(k).alias(v) for k, v in COLUMNS.items()]))
    rep.table(wide, "quality")
    curve = labelled(quality.leader_curve(tables, by))
    shown = curve.filter(pl.col("n") >= FEWEST) if curve.height else curve
    if shown.height:
        rep.tables["leader_wins"] = curve
        rep.figure("leader_wins", figures.leader_curve(shown),
                   "The share of players ahead alone after each round (not the game's last) "
                   "who went on to win, with 95% intervals (rounds with at least "
                   f"{FEWEST} such leaders): the higher and the earlier it rises, the sooner "
                   "a game is decided.")
