"""Run many games: validate the inputs, play them in chunks on every core, collect Results.

Game *i* of a run depends only on (config, strategies, seed, i): chunk size and worker
count change nothing but speed.  With ``out`` set, each chunk is written as Parquet as soon
as it is played (see :mod:`citadels_sim.store`), and a rerun with the same arguments resumes
after the last chunk written.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import numba
import numpy as np
import polars as pl
from tqdm.auto import tqdm

from . import KERNEL_VERSION, __version__, store
from .config import ConfigError, GameConfig
from .kernel import layout as L
from .kernel.run import play_chunk_arrays
from .kernel.state import new_tables
from .results import Results, character_counts, district_counts, pick_frame, seat_frame
from .strategies import Strategy, get
from .warmup import ensure_kernel

#: above this many games the per-round ``picks`` table is off unless asked for
PICKS_AUTO_LIMIT = 100_000
DEFAULT_CHUNK = 100_000


def resolve_strategies(strategies: str | Strategy | Sequence[str | Strategy],
                       players: int) -> list[Strategy]:
    """One Strategy per seat from a name, a comma-separated list or a sequence."""
    if isinstance(strategies, (str, Strategy)):
        items = strategies.split(",") if isinstance(strategies, str) else [strategies]
    else:
        items = list(strategies)
    resolved = [get(s) for s in items]
    if len(resolved) == 1:
        resolved = resolved * players
    if len(resolved) != players:
        raise ConfigError(f"{len(resolved)} strategies given for {players} players: give one "
                          "strategy for every seat, or a single one for all seats.")
    return resolved


def build_tables(config: GameConfig, strategies: Sequence[Strategy]) -> np.record:
    """The kernel's constant ``Tables`` record for a configuration and a line-up of
    strategies."""
    t = config.tables()
    cfg = t["cfg"]
    params = np.zeros((L.MAX_SEATS, L.N_PARAMS))
    for seat, s in enumerate(strategies):
        cfg[L.G_FAMILY + seat] = s.family_id
        cfg[L.G_FORBID + seat] = config.rank_mask(s.forbid, f"strategy {s.name!r}")
        params[seat] = s.row()
    return new_tables(t["kinds"], cfg, params)


def _check_run_args(games: int, seed: int, workers: int | None, chunk_size: int) -> int:
    if not isinstance(games, (int, np.integer)) or games < 1:
        raise ConfigError(f"games must be a positive integer, got {games!r}.")
    if not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**63:
        raise ConfigError(f"seed must be an integer in [0, 2**63), got {seed!r}.")
    if chunk_size < 1:
        raise ConfigError(f"chunk_size must be positive, got {chunk_size}.")
    most = numba.config.NUMBA_NUM_THREADS
    if workers is None:
        return most
    if not 1 <= workers <= most:
        raise ConfigError(f"workers must be between 1 and {most} on this machine, got {workers}.")
    return workers


def play_chunk(tables: np.record, seed: int, first: int, n: int, players: int, picks: bool,
               max_rounds: int) -> dict[str, np.ndarray]:
    """Play games ``first .. first + n - 1`` and return the kernel's raw outputs."""
    out = {
        "seat": np.zeros((n, L.MAX_SEATS, L.O_SEAT_LEN), np.int32),
        "game": np.zeros((n, L.OG_GAME_LEN), np.int32),
        "held": np.zeros((n, L.MAX_SEATS, L.MAX_RANKS), np.int16),
        "records": np.zeros((n, L.MAX_SEATS, L.MAX_RANKS, L.C_LEN), np.int32),
        "picks": (np.full((n, max_rounds, L.MAX_RANKS, 2), -1, np.int8) if picks
                  else np.zeros((1, 0, L.MAX_RANKS, 2), np.int8)),
    }
    play_chunk_arrays(tables, seed, first, out["seat"], out["game"], out["held"], out["records"],
                      out["picks"])
    for key in ("seat", "held", "records"):
        out[key] = out[key][:, :players]
    return out


class Run:
    """A prepared run, played chunk by chunk: iterate it for ``(first game, frames)`` pairs.

    Each chunk is played (or, with ``out``, read back if an earlier run already wrote it)
    only when the iteration reaches it, so a caller can aggregate chunk by chunk in bounded
    memory, or stop early.  ``meta`` holds the run's description; its timing fields
    (``wall_seconds``, ``kernel_seconds``, ``games_per_second``) are filled in, and an
    ``out`` directory marked complete, once the iteration is exhausted.  Creating a Run
    loads (or, the first time, compiles) the kernel (``startup_seconds``, counted in the
    wall time).  Arguments as for :func:`simulate`.
    """

    def __init__(self, config: GameConfig | None = None,
                 strategies: str | Strategy | Sequence[str | Strategy] = "heuristic",
                 games: int = 10_000, seed: int = 0, workers: int | None = None, *,
                 chunk_size: int = DEFAULT_CHUNK, picks: bool | None = None,
                 out: str | Path | None = None):
        self.config = config or GameConfig()
        lineup = resolve_strategies(strategies, self.config.players)
        self.threads = _check_run_args(games, seed, workers, chunk_size)
        self.games, self.seed, self.chunk_size = int(games), int(seed), int(chunk_size)
        self.picks = games <= PICKS_AUTO_LIMIT if picks is None else bool(picks)
        self.tables = build_tables(self.config, lineup)
        self.names = [s.name for s in lineup]
        self.meta = {"package_version": __version__, "kernel_version": KERNEL_VERSION,
                     "config": self.config.to_dict(), "strategies": self.names,
                     "seed": self.seed, "games": self.games, "chunk_size": self.chunk_size,
                     "picks": self.picks}
        self.writer = store.ChunkWriter(Path(out), self.meta) if out is not None else None
        start = time.perf_counter()
        ensure_kernel()  # loads (or, the first time, compiles) the kernel, saying so
        self.meta["startup_seconds"] = round(time.perf_counter() - start, 3)

    def _play(self, first: int, n: int) -> dict[str, pl.DataFrame]:
        """Play one chunk on the run's threads and turn it into frames."""
        previous = numba.get_num_threads()
        numba.set_num_threads(self.threads)
        try:
            raw = play_chunk(self.tables, self.seed, first, n, self.config.players, self.picks,
                             self.config.max_rounds)
        finally:
            numba.set_num_threads(previous)
        frames = {"seats": seat_frame(raw, first, self.names),
                  "characters": character_counts(raw, first, self.config, self.names),
                  "districts": district_counts(raw, first, self.config, self.names)}
        if self.picks:
            frames["picks"] = pick_frame(raw, first, self.config, self.names)
        return frames

    def __iter__(self) -> Iterator[tuple[int, dict[str, pl.DataFrame]]]:
        start = time.perf_counter()
        kernel_time = 0.0
        played = 0
        for first in range(0, self.games, self.chunk_size):
            n = min(self.chunk_size, self.games - first)
            frames = self.writer.load(first) if self.writer else None
            if frames is None:
                t0 = time.perf_counter()
                frames = self._play(first, n)
                kernel_time += time.perf_counter() - t0
                played += n
                if self.writer:
                    self.writer.write(first, frames)
            yield first, frames
        wall = time.perf_counter() - start + self.meta["startup_seconds"]
        self.meta.update(workers=self.threads, wall_seconds=round(wall, 3),
                         kernel_seconds=round(kernel_time, 3), games_played=played,
                         games_per_second=round(played / kernel_time, 1) if kernel_time
                         else None)
        if self.writer:
            self.writer.finish(self.meta)


def simulate(config: GameConfig | None = None,
             strategies: str | Strategy | Sequence[str | Strategy] = "heuristic",
             games: int = 10_000, seed: int = 0, workers: int | None = None, *,
             chunk_size: int = DEFAULT_CHUNK, picks: bool | None = None,
             out: str | Path | None = None, progress: bool | None = None) -> Results:
    """Play ``games`` games of ``config`` between ``strategies`` and collect the results.

    Parameters
    ----------
    config : the game (default: 4-player classic base game).
    strategies : one preset name (or Strategy) for every seat, or one per seat
        (a sequence or a comma-separated string); ``"name:param=value"`` tunes a preset.
    games, seed : how many games, and the master seed; game *i* is the same game whatever
        ``workers`` and ``chunk_size`` are.
    workers : numba threads (default: all cores).
    chunk_size : games per chunk (progress, memory and the unit written to ``out``).
    picks : keep the per-round character table (default: only up to 100,000 games).
    out : directory to write the results to as the run goes; a rerun resumes.
    progress : show a progress bar (default: on a terminal, for runs of several chunks).

    Returns
    -------
    Results with polars DataFrames ``seats``, ``characters`` and (optionally) ``picks``.
    For runs too big to hold in memory, iterate a :class:`Run` instead.
    """
    run = Run(config, strategies, games, seed, workers, chunk_size=chunk_size, picks=picks,
              out=out)
    if progress is None:
        progress = games > chunk_size and sys.stderr.isatty()
    parts: dict[str, list[pl.DataFrame]] = {"seats": [], "picks": [], "characters": [],
                                            "districts": []}
    with tqdm(total=games, unit="game", disable=not progress, smoothing=0.1) as bar:
        for first, frames in run:
            for key, frame in frames.items():
                parts[key].append(frame)
            bar.update(min(run.chunk_size, run.games - first))
    return Results.from_parts(parts, run.meta)
