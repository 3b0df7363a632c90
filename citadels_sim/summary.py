"""Chunk-by-chunk aggregation of results into small count tables.

A :class:`Summary` holds what the analysis needs in a size that does not grow with the
number of games, so any number of games can be summarised in bounded memory:

``outcomes``    seat, strategy, score, won, winners -> ``count`` of seat-games (``winners``:
                how many players shared the first place of that game)
``games``       rounds, capped, margin -> ``count`` of games (margin: the winner's score
                minus the best losing score; null when every player shares the win)
``characters``  character, rank, strategy -> the counts of ``Results.characters``
``districts``   district, strategy -> the counts of ``Results.districts``
``pairs``       a, b, diff -> ``count`` of games, where ``diff`` is the share of a's seats
                that won minus the share of b's seats that won, in one game (the paired
                unit of strategy comparisons; a < b in alphabetical order)

Several runs of the same deals (common random numbers) can be added as one chunk: their
``seats`` frames stacked with a ``rotation`` column telling the runs apart, so that
``pairs`` compares the strategies deal by deal (``game`` is the deal).
"""

from __future__ import annotations

import polars as pl

KEYS = {
    "outcomes": ["seat", "strategy", "score", "won", "winners"],
    "games": ["rounds", "capped", "margin"],
    "characters": ["character", "rank", "strategy"],
    "pairs": ["a", "b", "diff"],
    "districts": ["district", "strategy"],
}
PAIR_SCHEMA = {"a": pl.String, "b": pl.String, "diff": pl.Float64, "count": pl.Int64}
#: decimals kept for a pair difference (exact fractions differ in the last bits)
DIFF_DECIMALS = 9


def _game_keys(seats: pl.DataFrame) -> list[str]:
    """The columns that identify one game (a deal and, for stacked runs, its rotation)."""
    return [c for c in ("game", "rotation") if c in seats.columns]


def _outcomes(seats: pl.DataFrame) -> pl.DataFrame:
    return (seats.with_columns(pl.col("strategy").cast(pl.String),
                               pl.col("won").sum().over(_game_keys(seats)).cast(pl.Int8)
                               .alias("winners"))
            .group_by(KEYS["outcomes"]).agg(pl.len().cast(pl.Int64).alias("count")))


def _games(seats: pl.DataFrame) -> pl.DataFrame:
    per_game = seats.group_by(_game_keys(seats)).agg(
        pl.col("rounds").first(), pl.col("capped").first(),
        (pl.col("score").filter(pl.col("won")).max()
         - pl.col("score").filter(~pl.col("won")).max()).alias("margin"))
    return per_game.group_by(KEYS["games"]).agg(pl.len().cast(pl.Int64).alias("count"))


def _pairs(seats: pl.DataFrame) -> pl.DataFrame:
    order = sorted(seats["strategy"].cast(pl.String).unique().to_list())
    shares = (seats.with_columns(pl.col("strategy").cast(pl.String))
              .group_by("game", "strategy").agg(pl.col("won").mean())
              .pivot(on="strategy", index="game", values="won"))
    frames = [
        shares.select(pl.lit(a).alias("a"), pl.lit(b).alias("b"),
                      (pl.col(a) - pl.col(b)).round(DIFF_DECIMALS).alias("diff"))
        for i, a in enumerate(order) for b in order[i + 1:]
    ]
    if not frames:  # a single strategy: nothing to compare
        return pl.DataFrame(schema=PAIR_SCHEMA)
    return (pl.concat(frames).group_by(KEYS["pairs"])
            .agg(pl.len().cast(pl.Int64).alias("count")))


def chunk_tables(frames: dict[str, pl.DataFrame]) -> dict[str, pl.DataFrame]:
    """The count tables of one chunk (``frames`` as yielded by :class:`~.simulate.Run`)."""
    seats = frames["seats"]
    characters = frames["characters"].with_columns(pl.col("strategy").cast(pl.String),
                                                   pl.col("rank").cast(pl.Int64))
    tables = {"outcomes": _outcomes(seats), "games": _games(seats),
              "characters": characters.drop("seat_games"), "pairs": _pairs(seats)}
    if "districts" in frames:
        tables["districts"] = frames["districts"]
    return tables


def _sum(table: str, frames: list[pl.DataFrame]) -> pl.DataFrame:
    keys = KEYS[table]
    return (pl.concat(frames, how="vertical_relaxed").group_by(keys)
            .agg(pl.exclude(keys).sum()).sort(keys, nulls_last=True))


class Summary:
    """Count tables summed over chunks; add chunks with :meth:`add`."""

    def __init__(self, tables: dict[str, pl.DataFrame] | None = None):
        self.tables: dict[str, pl.DataFrame] = dict(tables or {})

    def add(self, frames: dict[str, pl.DataFrame]) -> None:
        """Add one chunk's frames (``seats`` and ``characters``)."""
        self.merge(Summary(chunk_tables(frames)))

    def merge(self, other: Summary) -> None:
        """Add another summary's counts to this one."""
        for name, frame in other.tables.items():
            mine = self.tables.get(name)
            self.tables[name] = _sum(name, [frame] if mine is None else [mine, frame])

    @property
    def games(self) -> int:
        """Number of games summarised."""
        return int(self.tables["games"]["count"].sum()) if "games" in self.tables else 0
