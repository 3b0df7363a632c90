"""Results of a run: polars DataFrames built from the kernel's raw arrays, and summaries.

``seats``       one row per game and seat: game, seat, strategy, score, rank, won, districts,
                gold, value, hand, rounds, completed_first, capped, and the game-quality
                counters: first_crown (the seat held the crown when the game began), led
                (bit k - 1 set if the seat was ahead alone after round k, k <= 31; after
                the last round: the sole winner) and behind (the most points it trailed the
                leading score by after a round; a round's score is what the city would
                score if the game ended then)
``picks``       one row per game, round and held character: game, round, seat, strategy,
                rank, character, killed, robbed (optional: see ``simulate(picks=...)``)
``characters``  per character and strategy: rounds held, games held, wins when held, final
                rounds held and won, rounds killed and robbed, gold and districts gained in
                its turns, and the winners of the games held (``winners_held``: the sum over
                those games of how many players shared the first place)
``districts``   per purple/unique district in the deck and strategy: seat-games, final
                cities holding it, wins with and without it
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import polars as pl

from citadels_sim.game.config import GameConfig
from citadels_sim.kernel import layout as L
from citadels_sim.stats import intervals as stats
from . import store
from .summary import by_game, row_sums


def _gathered(values: Sequence[str], index: np.ndarray) -> pl.Series:
    """``values[index]`` as an Enum column of the distinct values (strategies by seat,
    characters by rank), gathered by index (a column of strings built first took most of a
    seat frame's time)."""
    enum = pl.Enum(list(dict.fromkeys(values)))
    return pl.Series(values, dtype=enum).gather(index.astype(np.int64))


def seat_frame(raw: dict[str, np.ndarray], first: int, names: list[str]) -> pl.DataFrame:
    """One row per game and seat from a chunk's raw outputs."""
    seat, game = raw["seat"], raw["game"]
    n, players = seat.shape[:2]
    flat = seat.reshape(n * players, -1)
    rounds = np.repeat(game[:, L.OG_ROUNDS], players)
    return pl.DataFrame({
        "game": np.repeat(np.arange(first, first + n, dtype=np.int64), players),
        "seat": np.tile(np.arange(players, dtype=np.int8), n),
        "strategy": _gathered(names, np.tile(np.arange(players), n)),
        "score": flat[:, L.O_SCORE].astype(np.int16),
        "rank": flat[:, L.O_PLACE].astype(np.int8),
        "won": flat[:, L.O_PLACE] == 1,
        "districts": flat[:, L.O_DISTRICTS].astype(np.int8),
        "gold": flat[:, L.O_GOLD].astype(np.int16),
        "value": flat[:, L.O_VALUE].astype(np.int16),
        "hand": flat[:, L.O_HAND].astype(np.int16),
        "rounds": rounds.astype(np.int16),
        "completed_first": flat[:, L.O_FIRST] == 1,
        "capped": np.repeat(game[:, L.OG_CAP_HIT] == 1, players),
        "first_crown": (np.repeat(game[:, L.OG_FIRST_CROWN], players)
                        == np.tile(np.arange(players), n)),
        "led": flat[:, L.O_LED],
        "behind": flat[:, L.O_BEHIND].astype(np.int16),
    })


def pick_frame(raw: dict[str, np.ndarray], first: int, config: GameConfig,
               names: list[str]) -> pl.DataFrame:
    """One row per game, round and held character from a chunk's per-round detail."""
    picks = raw["picks"]
    g, rnd, rank = np.nonzero(picks[:, :, :config.ranks, 0] >= 0)
    seat = picks[g, rnd, rank, 0].astype(np.int8)
    flags = picks[g, rnd, rank, 1]
    return pl.DataFrame({
        "game": (g + first).astype(np.int64),
        "round": (rnd + 1).astype(np.int16),
        "seat": seat,
        "strategy": _gathered(names, seat),
        "rank": (rank + 1).astype(np.int8),
        "character": _gathered(config.character_names, rank),
        "killed": (flags & 1) == 1,
        "robbed": (flags & 2) == 2,
    })


def _batch_sums(values: np.ndarray, first: int) -> np.ndarray:
    """Per-game ``values`` (games ``first ..`` along the first axis) summed per batch
    (``stats.N_BATCHES``, game index modulo it; int64, every batch present): whole runs of
    the batches reduced at once, without a temporary as large as ``values``."""
    size, n = stats.N_BATCHES, len(values)
    sums = np.zeros((size,) + values.shape[1:], np.int64)
    head = min(n, -first % size)  # the games before the first whole run of batches
    start = first % size
    sums[start:start + head] += values[:head]
    whole = (n - head) // size * size
    if whole:
        sums += values[head:head + whole].reshape((-1, size) + values.shape[1:]).sum(
            axis=0, dtype=np.int64)
    tail = n - head - whole
    sums[:tail] += values[head + whole:]
    return sums


def _groups(names: list[str]) -> tuple[list[str], np.ndarray]:
    """The distinct strategies of a line-up, in order of appearance, and which seats each
    holds (seats x strategies, 1 where the seat plays the strategy)."""
    strategies = list(dict.fromkeys(names))
    seats = np.zeros((len(names), len(strategies)), np.int64)
    seats[np.arange(len(names)), [strategies.index(name) for name in names]] = 1
    return strategies, seats


def character_counts(raw: dict[str, np.ndarray], first: int, config: GameConfig,
                     names: list[str]) -> pl.DataFrame:
    """Per batch of games, character and strategy counts for one chunk (summed over chunks
    later; the batches give cluster-robust variances, see :mod:`.stats`)."""
    ranks = len(config.character_names)
    held = raw["held"][:, :, :ranks]
    records = raw["records"][:, :, :ranks]
    n, players = held.shape[:2]
    won = (raw["seat"][:, :, L.O_PLACE] == 1)[:, :, None]
    holding = held > 0
    final = (raw["game"][:, None, L.OG_HOLDER:L.OG_HOLDER + ranks]
             == np.arange(players)[None, :, None])  # games x seats x ranks
    winners = won.sum(axis=1, dtype=np.int8)[:, None]  # players sharing the first place
    per_seat = {  # batches x seats x ranks
        "rounds_held": _batch_sums(held, first), "games_held": _batch_sums(holding, first),
        "wins_held": _batch_sums(holding & won, first),
        "final_held": _batch_sums(final, first), "final_wins": _batch_sums(final & won, first)}
    recorded = _batch_sums(records, first)
    per_seat |= {name: recorded[..., column] for name, column in (
        ("killed", L.C_KILLED), ("robbed", L.C_ROBBED), ("gold_gained", L.C_GOLD),
        ("districts_built", L.C_BUILT), ("offered", L.C_OFFERED), ("picked", L.C_PICKED))}
    per_seat["winners_held"] = _batch_sums(holding * winners, first)
    return _table(per_seat, _batch_sums(np.ones(n, np.int8), first), names,
                  {"character": config.character_names, "rank": list(range(1, ranks + 1))},
                  CHARACTER_SCHEMA)


def _table(per_seat: dict[str, np.ndarray], games: np.ndarray, names: list[str],
           outer: dict[str, list], schema: dict[str, pl.DataType]) -> pl.DataFrame:
    """One row per ``outer`` item (its label columns zipped: a character's name and rank, a
    district's name), strategy and batch, from per-batch sums by seat (``per_seat``: batches
    x seats x items) and the games of each batch (``seat_games``: those times the seats)."""
    strategies, seats = _groups(names)
    size, items, n = stats.N_BATCHES, len(next(iter(outer.values()))), len(strategies)
    row = np.arange(items * n * size) // size  # item x strategy, batches inside
    columns = {"batch": np.tile(np.arange(size, dtype=np.int16), items * n)}
    columns |= {k: pl.Series(v, dtype=schema[k]).gather(row // n) for k, v in outer.items()}
    columns["strategy"] = pl.Series(strategies, dtype=schema["strategy"]).gather(row % n)
    # batches x seats x items -> items x strategies x batches, summed over each one's seats
    columns |= {name: np.matmul(sums.transpose(2, 0, 1), seats).transpose(0, 2, 1).ravel()
                for name, sums in per_seat.items()}
    columns["seat_games"] = np.broadcast_to(games[None, None, :] * seats.sum(axis=0)[:, None],
                                            (items, n, size)).ravel()
    return pl.DataFrame(columns).select(list(schema))


_COUNT = pl.Int64
#: the character counts' columns, in order
CHARACTER_SCHEMA = {"batch": pl.Int16, "character": pl.String, "rank": pl.Int32,
                    "strategy": pl.String} | dict.fromkeys(
    ("rounds_held", "games_held", "wins_held", "final_held", "final_wins", "killed", "robbed",
     "gold_gained", "districts_built", "offered", "picked", "winners_held", "seat_games"),
    _COUNT)

#: the district counts' columns, in order
DISTRICT_SCHEMA = {"batch": pl.Int16, "district": pl.String, "strategy": pl.String} | \
    dict.fromkeys(("seat_games", "built", "wins_built", "wins_not_built"), _COUNT)


def district_counts(raw: dict[str, np.ndarray], first: int, config: GameConfig,
                    names: list[str]) -> pl.DataFrame:
    """Per batch of games, purple/unique district in the deck and strategy: seat-games, how
    many ended with it in the city, and the wins of those with and without it (one chunk)."""
    kinds = sorted(set(config.unique_kinds))
    if not kinds:
        return pl.DataFrame(schema=DISTRICT_SCHEMA)
    seat = raw["seat"]
    won = (seat[:, :, L.O_PLACE] == 1)[:, :, None]
    built = np.empty(seat.shape[:2] + (len(kinds),), bool)  # games x seats x districts
    for i, kind in enumerate(kinds):
        bit = kind - L.D_HAUNTED
        word, shift = ((L.O_UNIQUE_HI, bit - L.UNIQUE_LO_BITS) if bit >= L.UNIQUE_LO_BITS
                       else (L.O_UNIQUE_LO, bit))
        built[:, :, i] = (seat[:, :, word] >> shift) & 1
    per_seat = {"built": _batch_sums(built, first),  # batches x seats x districts
                "wins_built": _batch_sums(built & won, first),
                "wins_not_built": _batch_sums(~built & won, first)}
    return _table(per_seat, _batch_sums(np.ones(len(seat), np.int8), first), names,
                  {"district": [config.district_name(kind) for kind in kinds]},
                  DISTRICT_SCHEMA)


def fair_share(seats: pl.DataFrame, players: int) -> pl.Series:
    """Each seat row's fair share: the winners of its game over ``players``."""
    if by_game(seats, players):
        winners = row_sums(seats["won"].to_numpy(), players)
        return pl.Series("fair_share", np.repeat(winners / players, players))
    return seats.select((pl.col("won").sum().over("game") / players).alias("fair_share")
                        ).to_series()


def wins_per_game(seats: pl.DataFrame, players: int) -> pl.DataFrame | None:
    """Per strategy and game that it plays: its wins (``wins``) and seats (``n``), or None
    unless the rows come game by game (:func:`.summary.by_game`) with the strategies as an
    Enum."""
    kind = seats["strategy"].dtype
    if not isinstance(kind, pl.Enum) or not by_game(seats, players):
        return None
    won = seats["won"].to_numpy()
    codes = seats["strategy"].to_physical().to_numpy()
    parts = []
    for code in np.unique(codes):
        mine = codes == code
        n, wins = row_sums(mine, players), row_sums(won & mine, players)
        played = n > 0
        parts.append(pl.DataFrame({"wins": wins[played], "n": n[played]}).select(
            pl.repeat(kind.categories[int(code)], int(played.sum()), dtype=kind
                      ).alias("strategy"), "wins", "n"))
    return pl.concat(parts) if parts else None


class Results:
    """The outcome of a run: DataFrames plus the run's metadata (config, seed, timing)."""

    def __init__(self, seats: pl.DataFrame, characters: pl.DataFrame,
                 districts: pl.DataFrame, picks: pl.DataFrame | None, meta: dict,
                 character_batches: pl.DataFrame | None = None,
                 quality_counts: dict[str, pl.DataFrame] | None = None):
        self.seats = seats
        self.characters = characters
        self.districts = districts
        self.picks = picks
        self.meta = meta
        #: the character counts per batch of games (``batch`` column, see :mod:`.stats`):
        #: what makes the intervals of :meth:`character_table` cluster-robust
        self.character_batches = character_batches
        self._fair: tuple[pl.DataFrame, pl.DataFrame] | None = None  # seats, with fair shares
        #: the game-quality count tables (:func:`.summary.quality_tables`) when they were
        #: summed chunk by chunk as the games were played (else computed from ``seats``)
        self.quality_counts = quality_counts

    @classmethod
    def from_parts(cls, parts: dict[str, list[pl.DataFrame]], meta: dict,
                   quality_counts: dict[str, pl.DataFrame] | None = None) -> Results:
        """Assemble chunk frames (character and district counts are summed over chunks)."""
        def summed(frames: list[pl.DataFrame], keys: list[str]) -> pl.DataFrame:
            return pl.concat(frames).drop("batch", strict=False).group_by(
                keys, maintain_order=True).agg(pl.exclude(keys).sum())
        picks = pl.concat(parts["picks"]) if parts.get("picks") else None
        districts = parts.get("districts") or [pl.DataFrame(schema=DISTRICT_SCHEMA)]
        keys = ["character", "rank", "strategy"]
        characters = pl.concat(parts["characters"])
        batches = (characters.group_by(["batch"] + keys, maintain_order=True).agg(
            pl.exclude(["batch"] + keys).sum()) if "batch" in characters.columns else None)
        return cls(pl.concat(parts["seats"]), summed(parts["characters"], keys),
                   summed(districts, ["district", "strategy"]), picks, meta, batches,
                   quality_counts)

    # ---- facts ----------------------------------------------------------------------
    @property
    def games(self) -> int:
        return self.meta["games"]

    @property
    def players(self) -> int:
        return self.meta["config"]["players"]

    @property
    def games_per_second(self) -> float | None:
        """Kernel throughput of the run (games played per second of kernel time)."""
        return self.meta.get("games_per_second")

    # ---- summaries --------------------------------------------------------------------
    def win_rates(self, by: str | list[str] = "strategy") -> pl.DataFrame:
        """Win rate with its 95% interval, grouped by ``by`` (e.g. strategy, seat): Wilson's
        at the effective sample size, the game being the unit of independence (a
        strategy's several seats in one game are not independent trials).

        A shared first place counts as a win for every player sharing it, so the fair
        baseline (``fair``) is the number of winners of each game over N, averaged over the
        group's seat-games (1/N when nobody ties).
        """
        keys = [by] if isinstance(by, str) else list(by)
        per_game = wins_per_game(self.seats, self.players) if keys == ["strategy"] else None
        return stats.rate_table(self._with_fair_share(), keys, "won", baseline="fair_share",
                                cluster="game", row_clusters="seat" in keys,
                                per_cluster=per_game)

    def _with_fair_share(self) -> pl.DataFrame:
        """``seats`` with each row's fair share (the game's winners over N), computed once."""
        if self._fair is None or self._fair[0] is not self.seats:
            self._fair = (self.seats,
                          self.seats.with_columns(fair_share(self.seats, self.players)))
        return self._fair[1]

    def character_table(self) -> pl.DataFrame:
        """Per character (all strategies): share of rounds held (``held_rate``), share of
        the draft picks offering it that took it (``picked_when_offered``), win rate when held (with its 95%
        interval, cluster-robust over batches of games: several players of one game hold a
        character; plain Wilson for results saved without batches), kills, robberies."""
        keys = ["character", "rank"]
        t = self.characters.group_by(keys, maintain_order=True).agg(
            pl.exclude(keys + ["strategy"]).sum()).sort("rank")
        rounds = int(self.seats["rounds"].cast(pl.Int64).sum()) / self.players
        t = t.with_columns((pl.col("rounds_held") / rounds).alias("held_rate"),
                           (pl.col("picked") / pl.col("offered")).alias("picked_when_offered"))
        if self.character_batches is None:
            lo, hi = stats.wilson(t["wins_held"].to_numpy(), t["games_held"].to_numpy())
            return t.with_columns(
                (pl.col("wins_held") / pl.col("games_held")).alias("win_rate_held"),
                pl.Series("ci_low", lo), pl.Series("ci_high", hi))
        from citadels_sim.stats.analysis import with_clustered_interval  # scipy and statsmodels: import on use
        t = with_clustered_interval(t, self.character_batches, keys, "wins_held",
                                    "games_held", "win_rate_held")
        return t.rename({"win_rate_held_low": "ci_low", "win_rate_held_high": "ci_high"})

    def quality(self) -> pl.DataFrame:
        """The game-quality measures (:func:`citadels_sim.stats.quality.measures`): game
        length, lead changes, from when the game is decided, comebacks, the first crown's
        seat advantage, each with its 95% interval."""
        from citadels_sim.stats.quality import measures
        from .summary import quality_tables
        return measures(self.quality_counts or quality_tables(self.seats))

    def summary(self) -> str:
        """A plain-text report: win rates by strategy and by seat, game facts, throughput."""
        m = self.meta
        cfg = m["config"]
        lines = [f"{self.games:,} games · {cfg['ruleset']} · {cfg['players']} players · "
                 f"characters: {', '.join(cfg['characters'])} · seed {m['seed']}"]
        capped_share = float(self.seats["capped"].mean())
        if capped_share > 0.5:
            lines.append(f"WARNING: {capped_share:.0%} of the games hit the round cap "
                         f"({cfg['max_rounds']} rounds): these results describe stalled "
                         "games, not real ones.")
        for by in ("strategy", "seat"):
            lines.append("")
            lines.append(stats.format_rates(self.win_rates(by), by))
        s = self.seats
        capped = int(s.filter(pl.col("seat") == 0)["capped"].sum())
        lines += ["", f"rounds per game: mean {s['rounds'].mean():.2f}, "
                      f"max {s['rounds'].max()}; games stopped by the round cap: {capped}",
                  f"winning score: mean {s.filter(pl.col('won'))['score'].mean():.1f}"]
        if "led" in s.columns:
            lines += ["", "game quality (95% intervals):"] + [
                f"  {r['measure']}: {r['value']:.1f} {r['unit']} [{r['low']:.1f}, "
                f"{r['high']:.1f}]" for r in self.quality().iter_rows(named=True)
                if r["measure"] != "game length"]
        if self.games_per_second:
            lines.append(f"throughput: {self.games_per_second:,.0f} games/s on "
                         f"{m.get('workers')} thread(s) (wall {m.get('wall_seconds')} s, of "
                         f"which {m.get('startup_seconds', 0)} s loading or compiling the "
                         "kernel)")
        return "\n".join(lines)

    # ---- storage ----------------------------------------------------------------------
    def save(self, path: str | Path) -> Path:
        """Write the results as Parquet files plus ``meta.json`` into directory ``path``."""
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        characters = self.characters if self.character_batches is None \
            else self.character_batches  # the batches sum to the counts again on load
        frames = {"seats": self.seats, "characters": characters, "districts": self.districts}
        if self.picks is not None:
            frames["picks"] = self.picks
        store.write_frames(path, 0, frames)
        store.write_meta(path, {**self.meta, "status": "complete"})
        return path

    @classmethod
    def load(cls, path: str | Path) -> Results:
        """Read results written by :meth:`save` or by ``simulate(out=...)``."""
        path = Path(path)
        if not (path / "meta.json").exists():
            raise FileNotFoundError(f"{path} holds no results (no meta.json).")
        meta = json.loads((path / "meta.json").read_text())
        seats = store.read_table(path, "seats")
        if seats is None:
            raise FileNotFoundError(f"{path} holds no finished chunk yet.")
        parts = {"seats": [seats]}
        for table in ("characters", "districts", "picks"):
            frame = store.read_table(path, table)
            parts[table] = [frame] if frame is not None else []
        return cls.from_parts(parts, meta)
