"""Game-quality measures from the summary's counters (:mod:`citadels_sim.engine.summary`
tables ``games``, ``quality``, ``leaders``, ``behind``, ``crown``): how long a game lasts,
how often the lead changes, from when it is decided, how often a player comes back from
behind, and what the first crown is worth.  docs/statistics.md defines each one.

A round's leader is the seat whose city would score most if the game ended after that round
(alone in front; after the last round, the sole winner).  Every measure is a mean over games
(normal interval from the counts: games are independent) or a share (Wilson interval).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from .intervals import Z95, wilson

#: the comeback margins reported, points behind the leading score after a round
COMEBACK = (5, 10)


def _mean(frame: pl.DataFrame, value: str) -> tuple[float, float, float, int]:
    """Mean of ``value`` weighted by ``count`` (nulls left out), its 95% interval, n."""
    f = frame.filter(pl.col(value).is_not_null())
    w = f["count"].to_numpy().astype(float)
    x = f[value].to_numpy().astype(float)
    n = w.sum()
    if n == 0:
        return float("nan"), float("nan"), float("nan"), 0
    mean = float((w * x).sum() / n)
    sd = float(np.sqrt(max(0.0, (w * (x - mean) ** 2).sum() / max(n - 1, 1))))
    half = Z95 * sd / np.sqrt(n)
    return mean, mean - half, mean + half, int(n)


def _share(wins: float, n: float, scale: float = 100.0, shift: float = 0.0
           ) -> tuple[float, float, float, int]:
    if n == 0:
        return float("nan"), float("nan"), float("nan"), 0
    low, high = wilson(np.array([wins]), np.array([n]))
    return ((wins / n - shift) * scale, (float(low[0]) - shift) * scale,
            (float(high[0]) - shift) * scale, int(n))


def _groups(frame: pl.DataFrame, by: list[str]):
    if not by:
        yield {}, frame
        return
    for key, sub in frame.group_by(by, maintain_order=True):
        yield dict(zip(by, key)), sub


def halfway(games: pl.DataFrame) -> int:
    """The round halfway through a typical game: half the median length, at least 1."""
    order = games.sort("rounds")
    cum = order["count"].cum_sum().to_numpy()
    median = int(order["rounds"][int(np.searchsorted(cum, cum[-1] / 2))])
    return max(1, round(median / 2))


def measures(tables: dict[str, pl.DataFrame], by: str | Sequence[str] = ()) -> pl.DataFrame:
    """One row per group of ``by`` and measure: ``value`` with its 95% interval
    (``low``/``high``), its ``unit`` and the ``n`` (games or seat-games) it rests on."""
    by = [by] if isinstance(by, str) else list(by)
    if "quality" not in tables:
        return pl.DataFrame()
    rows = []
    for key, quality in _groups(tables["quality"], by):
        def sub(name: str) -> pl.DataFrame:
            t = tables[name]
            for k, v in key.items():
                t = t.filter(pl.col(k) == v)
            return t

        games = quality.group_by("rounds").agg(pl.col("count").sum())
        k = halfway(games)
        leaders = sub("leaders").filter(pl.col("round") == k)
        behind, crown = sub("behind"), sub("crown")
        first = crown.filter(pl.col("first_crown"))
        players = crown["count"].sum() / max(1, first["count"].sum())
        found = [
            ("length", "game length", "rounds", _mean(games, "rounds")),
            ("lead_changes", "lead changes per game", "changes",
             _mean(quality, "lead_changes")),
            ("decided", "round from which the winner leads for good", "round",
             _mean(quality, "decided")),
            ("halfway_leader_wins", f"the leader after round {k} (halfway) wins",
             "% of games",
             _share(leaders.filter(pl.col("won"))["count"].sum(), leaders["count"].sum())),
            *[(f"comeback_{m}", f"comeback: a player {m}+ points behind after a round wins",
               "% of such players",
               _share(behind.filter((pl.col("behind") >= m) & pl.col("won"))["count"].sum(),
                      behind.filter(pl.col("behind") >= m)["count"].sum()))
              for m in COMEBACK],
            ("winner_trailed", "the most points a winner trailed by", "points",
             _mean(quality, "comeback")),
            ("first_crown", "first crown's seat advantage", "win-rate points",
             _share(first.filter(pl.col("won"))["count"].sum(), first["count"].sum(),
                    shift=1 / players)),
        ]
        rows += [{**key, "key": c, "measure": m, "value": v, "low": lo, "high": hi, "unit": u,
                  "n": n} for c, m, u, (v, lo, hi, n) in found]
    return pl.DataFrame(rows)


def leader_curve(tables: dict[str, pl.DataFrame], by: str | Sequence[str] = ()
                 ) -> pl.DataFrame:
    """Per group and round k (not a game's last): the share of the seats ahead alone after
    round k that won, in % with its Wilson interval, and how many there were."""
    by = [by] if isinstance(by, str) else list(by)
    t = tables.get("leaders")
    if t is None or t.is_empty():
        return pl.DataFrame()
    per = t.group_by(by + ["round"]).agg(
        pl.col("count").sum().alias("n"),
        pl.col("count").filter(pl.col("won")).sum().alias("wins")).sort(by + ["round"])
    low, high = wilson(per["wins"].to_numpy(), per["n"].to_numpy())
    return per.with_columns((pl.col("wins") / pl.col("n") * 100).alias("share"),
                            pl.Series("share_low", low * 100),
                            pl.Series("share_high", high * 100))
