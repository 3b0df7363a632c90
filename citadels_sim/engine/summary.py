"""Chunk-by-chunk aggregation of results into small count tables.

A :class:`Summary` holds what the analysis needs in a size that does not grow with the
number of games, so any number of games can be summarised in bounded memory:

``outcomes``    seat, strategy, score, won, winners -> ``count`` of seat-games (``winners``:
                how many players shared the first place of that game)
``games``       rounds, capped, margin -> ``count`` of games (margin: the winner's score
                minus the best losing score; null when every player shares the win)
``wins``        batch, seat, strategy -> ``n`` seat-games and ``wins``
``characters``  batch, character, rank, strategy -> the counts of ``Results.characters``
``districts``   batch, district, strategy -> the counts of ``Results.districts``
``pairs``       a, b, diff -> ``count`` of games, where ``diff`` is the share of a's seats
                that won minus the share of b's seats that won, in one game (the paired
                unit of strategy comparisons; a < b in alphabetical order)
``rotation_pairs``  rotation, a, b, diff -> ``count``: the same per rotation of stacked
                runs (how much common deals reduce the variance of ``pairs``)
``quality``     rounds, lead_changes, decided, comeback -> ``count`` of games: how often the
                seat ahead alone changed from round to round, the round from which the sole
                winner was ahead alone for good and the most points he trailed by (null
                when the win is shared or the game outlasts the 31 rounds recorded)
``leaders``     round, won -> ``count`` of seats ahead alone after a round that was not the
                game's last, by whether they won
``behind``      behind, won -> ``count`` of seat-games by the most points the seat trailed
                the leading score by after a round
``crown``       first_crown, won -> ``count`` of seat-games
(the last four from the ``seats`` counters ``led``, ``behind``, ``first_crown``;
:mod:`citadels_sim.stats.quality` turns them into measures)

``batch`` is the game's index modulo ``stats.N_BATCHES``: games are independent, seats and
characters within a game are not, so the analysis takes variances over batches
(cluster-robust, see :mod:`.stats`).

Several runs of the same deals (common random numbers) can be added as one chunk: their
``seats`` frames stacked with a ``rotation`` column telling the runs apart, so that
``pairs`` compares the strategies deal by deal (``game`` is the deal).
"""

from __future__ import annotations

import numpy as np
import polars as pl

from citadels_sim.stats.intervals import N_BATCHES

KEYS = {
    "outcomes": ["seat", "strategy", "score", "won", "winners"],
    "games": ["rounds", "capped", "margin"],
    "wins": ["batch", "seat", "strategy"],
    "characters": ["batch", "character", "rank", "strategy"],
    "pairs": ["a", "b", "diff"],
    "rotation_pairs": ["rotation", "a", "b", "diff"],
    "districts": ["batch", "district", "strategy"],
    "quality": ["rounds", "lead_changes", "decided", "comeback"],
    "leaders": ["round", "won"],
    "behind": ["behind", "won"],
    "crown": ["first_crown", "won"],
}
#: rounds whose leader a seat's ``led`` bitmask records
LED_ROUNDS = 31
PAIR_SCHEMA = {"a": pl.String, "b": pl.String, "diff": pl.Float64, "count": pl.Int64}
#: decimals kept for a pair difference (exact fractions differ in the last bits)
DIFF_DECIMALS = 9


def _game_keys(seats: pl.DataFrame) -> list[str]:
    """The columns that identify one game (a deal and, for stacked runs, its rotation)."""
    return [c for c in ("game", "rotation") if c in seats.columns]


def by_game(seats: pl.DataFrame, players: int) -> bool:
    """Does every run of ``players`` rows of ``seats`` hold one game's seats (as the kernel
    writes them)?  Then sums over a game are sums over its run of rows: a quarter of the
    time of grouping millions of rows by game."""
    if seats.height % players:
        return False
    keys = [seats[k].to_numpy().reshape(-1, players) for k in _game_keys(seats)]
    return all(bool((k == k[:, :1]).all()) for k in keys)


def row_sums(flags: np.ndarray, players: int) -> np.ndarray:
    """The true flags in each run of ``players`` values (added seat by seat: faster than
    numpy's sum along short rows)."""
    rows = flags.reshape(-1, players)
    counts = rows[:, 0].astype(np.int32)
    for seat in range(1, players):
        counts += rows[:, seat]
    return counts


def _players(seats: pl.DataFrame) -> int | None:
    """The seats of a game when every run of that many rows of ``seats`` is one game's
    (:func:`by_game`), else None."""
    n = seats["seat"].n_unique()
    return n if n and by_game(seats, n) else None


def _outcomes(seats: pl.DataFrame, n: int | None) -> pl.DataFrame:
    """Seat-games counted by outcome (``n``: :func:`_players`)."""
    winners = (pl.lit(np.repeat(row_sums(seats["won"].to_numpy(), n).astype(np.int8), n))
               if n else pl.col("won").sum().over(_game_keys(seats)).cast(pl.Int8))
    return (seats.with_columns(winners.alias("winners"))
            .group_by(KEYS["outcomes"]).agg(pl.len().cast(pl.Int64).alias("count"))
            .with_columns(pl.col("strategy").cast(pl.String)))


def _wins(seats: pl.DataFrame) -> pl.DataFrame:
    return (seats.with_columns((pl.col("game") % N_BATCHES).cast(pl.Int16).alias("batch"))
            .group_by(KEYS["wins"]).agg(pl.len().cast(pl.Int64).alias("n"),
                                        pl.col("won").sum().cast(pl.Int64).alias("wins"))
            .with_columns(pl.col("strategy").cast(pl.String)))


def _games(seats: pl.DataFrame, n: int | None) -> pl.DataFrame:
    """Games counted by length and margin (``n``: :func:`_players`)."""
    per_game = _per_game(seats, n) if n else seats.group_by(_game_keys(seats)).agg(
        pl.col("rounds").first(), pl.col("capped").first(),
        (pl.col("score").filter(pl.col("won")).max()
         - pl.col("score").filter(~pl.col("won")).max()).alias("margin"))
    return per_game.group_by(KEYS["games"]).agg(pl.len().cast(pl.Int64).alias("count"))


def _per_game(seats: pl.DataFrame, n: int) -> pl.DataFrame:
    """Each game's rounds, capped and margin (the best winning score less the best losing
    one; null when every seat won) from rows that come ``n`` to a game (:func:`by_game`)."""
    score = seats["score"].to_numpy().reshape(-1, n).astype(np.int32)
    won = seats["won"].to_numpy().reshape(-1, n)
    low = np.iinfo(np.int32).min
    best, rest = np.full(len(score), low), np.full(len(score), low)
    for seat in range(n):
        np.maximum(best, np.where(won[:, seat], score[:, seat], low), out=best)
        np.maximum(rest, np.where(won[:, seat], low, score[:, seat]), out=rest)
    valid = (best > low) & (rest > low)
    margin = pl.Series(np.where(valid, best - rest, 0)).cast(seats["score"].dtype)
    return pl.DataFrame({"rounds": seats["rounds"].gather_every(n),
                         "capped": seats["capped"].gather_every(n), "margin": margin,
                         "valid": valid}).select(
        "rounds", "capped", pl.when("valid").then("margin").alias("margin"))


def _pairs(seats: pl.DataFrame, unit: list[str]) -> pl.DataFrame:
    """Per ``unit`` (the deal, or the deal and its rotation): each two strategies' shares of
    seats that won, differenced, counted by value (table ``pairs`` or ``rotation_pairs``)."""
    order = sorted(seats["strategy"].unique().cast(pl.String).to_list())
    if len(order) < 2:  # a single strategy: nothing to compare
        return pl.DataFrame(schema={**({"rotation": pl.Int8} if "rotation" in unit else {}),
                                    **PAIR_SCHEMA})
    shares = (seats.with_columns(pl.col("strategy").cast(pl.String))
              .group_by(unit + ["strategy"]).agg(pl.col("won").mean())
              .pivot(on="strategy", index=unit, values="won"))
    keys = [k for k in unit if k != "game"] + KEYS["pairs"]
    frames = [
        shares.select(*[pl.col(k) for k in unit if k != "game"], pl.lit(a).alias("a"),
                      pl.lit(b).alias("b"),
                      (pl.col(a) - pl.col(b)).round(DIFF_DECIMALS).alias("diff"))
        for i, a in enumerate(order) for b in order[i + 1:]
    ]
    return (pl.concat(frames).group_by(keys)
            .agg(pl.len().cast(pl.Int64).alias("count")))


def _counted(columns: dict[str, np.ndarray], table: str) -> pl.DataFrame:
    return pl.DataFrame(columns).group_by(KEYS[table]).agg(pl.len().cast(pl.Int64)
                                                             .alias("count"))


def _round_bits(words: np.ndarray) -> np.ndarray:
    """Each ``led`` word's bits for rounds 1 .. :data:`LED_ROUNDS`, as games x rounds 0/1
    (int8)."""
    return np.unpackbits(np.ascontiguousarray(words, "<u4").view(np.uint8).reshape(-1, 4),
                         axis=1, bitorder="little")[:, :LED_ROUNDS].view(np.int8)


def quality_tables(seats: pl.DataFrame) -> dict[str, pl.DataFrame]:
    """The game-quality tables of ``seats`` (see the module docstring)."""
    n = seats["seat"].n_unique()
    in_order = by_game(seats, n) and (seats["seat"].to_numpy().reshape(-1, n)
                                      == np.arange(n)).all()
    if not in_order:  # rows of a game, seat by seat, as the kernel writes them
        seats = seats.sort(_game_keys(seats) + ["seat"])
    won = seats["won"].to_numpy().reshape(-1, n)
    led = seats["led"].to_numpy().astype("<u4").reshape(-1, n)
    behind = seats["behind"].to_numpy().reshape(-1, n)
    rounds = seats["rounds"].to_numpy()[::n].astype(np.int64)
    games = np.arange(len(rounds))
    played = np.arange(LED_ROUNDS)[None, :] < rounds[:, None]  # games x rounds
    # the seat ahead alone after each round (-1: none, or a round not recorded or played),
    # in bytes, as the sum of each seat's number times its 0/1 bit of the round (the kernel
    # never sets a round's bit for two seats): arrays of games x rounds of 8-byte numbers,
    # and masks assigned seat by seat, took most of a run's summarising
    leader = np.zeros((len(rounds), LED_ROUNDS), np.int8)
    for s in range(1, n):
        leader += _round_bits(led[:, s]) * np.int8(s)
    leader[_round_bits(np.bitwise_or.reduce(led, axis=1)) == 0] = -1
    leader[~played] = -1
    known = leader.T.copy()  # rounds x games: the last seat ahead alone, round by round
    for k in range(1, LED_ROUNDS):
        np.copyto(known[k], known[k - 1], where=known[k] < 0)
    known = known.T
    changes = ((known[:, 1:] != known[:, :-1]) & (known[:, :-1] >= 0)).sum(axis=1)
    sole = won.sum(axis=1) == 1
    winner = won.argmax(axis=1)
    # the sole winner leads for good from the round after the last one (of those played)
    # he did not lead: the highest bit of ``gaps`` (round 1 if he led in every round)
    gaps = ~led[games, winner].astype(np.int64) & ((1 << np.minimum(rounds, LED_ROUNDS)) - 1)
    last_gap = np.frexp(gaps.astype(np.float64))[1]  # its highest bit's index + 1; 0 if none
    decided = np.where(sole & (rounds <= LED_ROUNDS), last_gap + 1, -1)
    comeback = np.where(sole, behind[games, winner], -1)
    quality = _counted({"rounds": rounds.astype(np.int16),
                        "lead_changes": changes.astype(np.int16),
                        "decided": decided.astype(np.int16),
                        "comeback": comeback.astype(np.int16)}, "quality").with_columns(
        pl.when(pl.col(c) >= 0).then(pl.col(c)).alias(c) for c in ("decided", "comeback"))
    # per round before the last: games with a seat ahead alone, by whether he went on to win
    counted = (leader >= 0) & (np.arange(LED_ROUNDS)[None, :] < rounds[:, None] - 1)
    wins = np.zeros_like(counted)  # the seat ahead alone went on to win
    for s in range(n):
        wins |= (leader == s) & won[:, s, None]
    wins &= counted
    ahead, winning = np.count_nonzero(counted, axis=0), np.count_nonzero(wins, axis=0)
    return {"quality": quality,
            "leaders": _by_won(np.arange(1, LED_ROUNDS + 1, dtype=np.int16),
                               np.stack([ahead - winning, winning]), "round"),
            "behind": _tallied(behind.ravel().astype(np.int16), won.ravel(), "behind"),
            "crown": _tallied(seats["first_crown"].to_numpy(), won.ravel(), "first_crown")}


def _tallied(values: np.ndarray, won: np.ndarray, name: str) -> pl.DataFrame:
    """Seat-games counted by ``values`` (small whole numbers or booleans, one a seat-game)
    and whether they won."""
    low, high = int(values.min(initial=0)), int(values.max(initial=0))
    counts = np.bincount((values.astype(np.int64) - low) * 2 + won,
                         minlength=(high - low + 1) * 2).reshape(-1, 2).T  # won x value
    return _by_won((np.arange(counts.shape[1]) + low).astype(values.dtype), counts, name)


def _by_won(values: np.ndarray, counts: np.ndarray, name: str) -> pl.DataFrame:
    """The rows ``name`` (a value), won, count of the non-zero ``counts`` (won x value)."""
    w, k = np.nonzero(counts)
    return pl.DataFrame({name: values[k], "won": w.astype(bool),
                         "count": counts[w, k].astype(np.int64)})


def chunk_tables(frames: dict[str, pl.DataFrame]) -> dict[str, pl.DataFrame]:
    """The count tables of one chunk (``frames`` as yielded by :class:`~.simulate.Run`)."""
    seats = frames["seats"]
    characters = frames["characters"].with_columns(pl.col("strategy").cast(pl.String),
                                                   pl.col("rank").cast(pl.Int64))
    n = _players(seats)
    tables = {"outcomes": _outcomes(seats, n), "wins": _wins(seats), "games": _games(seats, n),
              "characters": characters.drop("seat_games"), "pairs": _pairs(seats, ["game"])}
    if "rotation" in seats.columns:
        tables["rotation_pairs"] = _pairs(seats, ["game", "rotation"])
    if "districts" in frames:
        tables["districts"] = frames["districts"].with_columns(
            pl.col("strategy").cast(pl.String))
    if "led" in seats.columns:  # (chunks written before the counters have none)
        tables.update(quality_tables(seats))
    return tables


def _sum(table: str, frames: list[pl.DataFrame]) -> pl.DataFrame:
    keys = KEYS[table]
    return (pl.concat(frames, how="vertical_relaxed").group_by(keys)
            .agg(pl.exclude(keys).sum()).sort(keys, nulls_last=True))


class Summary:
    """Count tables summed over chunks; add chunks with :meth:`add`.

    Added tables wait (at most :data:`PENDING` a table) and are summed together when
    :attr:`tables` is read: one sum of many chunks costs about as much as one of two."""

    #: a table's chunks held before they are summed
    PENDING = 32

    def __init__(self, tables: dict[str, pl.DataFrame] | None = None):
        self._tables: dict[str, pl.DataFrame] = dict(tables or {})
        self._pending: dict[str, list[pl.DataFrame]] = {}

    @property
    def tables(self) -> dict[str, pl.DataFrame]:
        """The count tables, by name, summed over everything added."""
        for name in list(self._pending):
            self._fold(name)
        return self._tables

    def add(self, frames: dict[str, pl.DataFrame]) -> None:
        """Add one chunk's frames (``seats`` and ``characters``)."""
        self.merge(Summary(chunk_tables(frames)))

    def merge(self, other: Summary) -> None:
        """Add another summary's counts to this one."""
        for name, frame in other.tables.items():
            pending = self._pending.setdefault(name, [])
            pending.append(frame)
            if len(pending) >= self.PENDING:
                self._fold(name)

    def _fold(self, name: str) -> None:
        """Sum table ``name``'s pending chunks into it."""
        parts = self._pending.pop(name)
        mine = self._tables.get(name)
        self._tables[name] = _sum(name, parts if mine is None else [mine, *parts])

    @property
    def games(self) -> int:
        """Number of games summarised."""
        return int(self.tables["games"]["count"].sum()) if "games" in self.tables else 0
