"""Run many games: validate the inputs, play them in chunks, collect Results.

Chunks are played through :mod:`citadels_sim.engine.executor`: on every core of this machine by
default, or as :class:`ChunkTask` tasks on any ``concurrent.futures.Executor`` (a Dask
cluster).  Game *i* of a run depends only on (config, strategies, seed, i): chunk size,
worker count and executor change nothing but speed.  With ``out`` set, each chunk is
written as Parquet as soon as it is played, in whatever order chunks finish (see
:mod:`citadels_sim.engine.store`), and a rerun with the same arguments plays only the chunks not
written yet.
"""

from __future__ import annotations

import math
import os
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import Executor
from contextlib import closing, contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

import numba
import numpy as np
import polars as pl
from tqdm.auto import tqdm

from citadels_sim.game.config import ConfigError, GameConfig
from citadels_sim.game.strategies import Strategy, default_for, get
from citadels_sim.kernel import layout as L
from citadels_sim.kernel.run import play_chunk_arrays
from citadels_sim.kernel.state import new_tables
from citadels_sim.versions import KERNEL_VERSION, RESULTS_VERSION, __version__
from . import buffers, store
from .buffers import raw_arrays
from .executor import LOCAL, ChunkExecutor, resolve
from .results import Results, character_counts, district_counts, pick_frame, seat_frame
from .summary import Summary, chunk_tables, quality_tables
from .warmup import ensure_kernel

#: above this many games the per-round ``picks`` table is off unless asked for
PICKS_AUTO_LIMIT = 100_000
DEFAULT_CHUNK = 100_000
#: rounds of a long game: the per-round ``picks`` table's rows a game, when memory is judged
PICK_ROUNDS = 20
#: bytes a chunk's description takes while a run is played (its task and the references to
#: it; measured with tracemalloc on 200,000 chunks: 350-370)
TASK_BYTES = 400


def lineup_for(strategies: str | Strategy | Sequence[str | Strategy] | None,
               config: GameConfig) -> list[Strategy]:
    """One Strategy per seat of ``config``; None: :func:`~citadels_sim.game.strategies.
    default_for` the game, in every seat."""
    return resolve_strategies(default_for(config) if strategies is None else strategies,
                              config.players)


def resolve_strategies(strategies: str | Strategy | Sequence[str | Strategy],
                       players: int) -> list[Strategy]:
    """One Strategy per seat from a name, a comma-separated list or a sequence."""
    if isinstance(strategies, (str, Strategy)):
        items = strategies.split(",") if isinstance(strategies, str) else [strategies]
    else:
        items = list(strategies)
    if len(items) > 1 and any(isinstance(s, str) and not s.strip() for s in items):
        raise ConfigError(f"strategies {strategies!r} hold an empty name: give one strategy "
                          "for every seat, comma-separated, or a single one for all seats.")
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
    t = game_tables(config)
    cfg = t["cfg"].copy()
    params = np.zeros((L.MAX_SEATS, L.MAX_MIX, L.N_PARAMS))
    mix = np.ones((L.MAX_SEATS, L.MAX_MIX))
    for seat, s in enumerate(strategies):
        cfg[L.G_FAMILY + seat] = s.family_id
        cfg[L.G_FORBID + seat] = config.rank_mask(s.forbid, f"strategy {s.name!r}")
        params[seat], mix[seat] = s.rows()
    return new_tables(t["kinds"], cfg, params, mix)


@lru_cache(maxsize=64)
def game_tables(config: GameConfig) -> dict[str, np.ndarray]:
    """``config.tables()``, read-only, made once per configuration: a search builds the
    tables of thousands of line-ups of one game (0.02 ms each time)."""
    t = config.tables()
    for a in t.values():
        a.flags.writeable = False
    return t


def _check_run_args(games: int, seed: int, workers: int | None, chunk_size: int,
                    executor: ChunkExecutor) -> int | None:
    """The numba threads to play on here (None on another executor: each worker process
    plays on its own, ``NUMBA_NUM_THREADS``)."""
    if not isinstance(games, (int, np.integer)) or games < 1:
        raise ConfigError(f"games must be a positive integer, got {games!r}.")
    check_index(seed, "seed")
    if not isinstance(chunk_size, (int, np.integer)) or chunk_size < 1:
        raise ConfigError(f"chunk_size must be a positive integer, got {chunk_size!r}.")
    return threads_for(workers, executor)


def check_index(value: int, what: str) -> int:
    """``value`` if it is a whole number in [0, 2**63) (a seed, a game's index), else an
    error naming ``what``."""
    if (isinstance(value, bool) or not isinstance(value, (int, np.integer))
            or not 0 <= value < 2**63):
        raise ConfigError(f"{what} must be a whole number from 0 to 2**63 - 1, got {value!r}.")
    return int(value)


def threads_for(workers: int | None, executor: ChunkExecutor) -> int | None:
    """The numba threads ``workers`` asks for on ``executor``: this machine's (all by
    default) on the default executor; None on another, whose worker processes each play on
    their own (``NUMBA_NUM_THREADS``), and where ``workers`` is then an error."""
    if not executor.sequential:
        if workers is not None:
            raise ConfigError("workers sets the threads of this machine; on another "
                              "executor each worker process plays on its own threads "
                              "(NUMBA_NUM_THREADS): leave workers out.")
        return None
    most = numba.config.NUMBA_NUM_THREADS
    if workers is None:
        return most
    if not 1 <= workers <= most:
        raise ConfigError(f"workers must be between 1 and {most} on this machine, got {workers}.")
    return workers


def play_chunk(tables: np.record, seed: int, first: int, n: int, players: int, picks: bool,
               max_rounds: int) -> dict[str, np.ndarray]:
    """Play games ``first .. first + n - 1`` and return the kernel's raw outputs (arrays
    from :func:`.buffers.take`: hand them back with :func:`.buffers.give` once read)."""
    out = buffers.take(n, picks, max_rounds, players)
    play_chunk_arrays(tables, seed, first, out["seat"], out["game"], out["held"], out["records"],
                      out["picks"])
    return out


@dataclass(frozen=True)
class ChunkTask:
    """One chunk of a run as a self-contained, picklable task: what a process needs to play
    games ``first .. first + n - 1``, and all their results depend on.  ``threads``: numba
    threads to play on (None: all of the playing process's, ``NUMBA_NUM_THREADS``);
    ``summarise``: also return the chunk's count tables (:func:`.summary.chunk_tables`),
    so that a cluster's workers, not the driver, compute them."""

    config: GameConfig
    strategies: tuple[Strategy, ...]
    seed: int
    first: int
    n: int
    picks: bool
    threads: int | None = None
    summarise: bool = False
    versions: tuple[str, int] = (__version__, KERNEL_VERSION)


#: one chunk at a time per process: numba's threading layers may not be entered by two
#: threads at once, and the kernel is loaded once
_KERNEL_LOCK = threading.Lock()


class Played(NamedTuple):
    """One chunk's outcome: its frames (``seats``, ``characters``, ``districts``, and
    ``picks`` if kept), its count tables (None unless asked for) and the seconds the kernel
    took to play it."""

    frames: dict[str, pl.DataFrame]
    tables: dict[str, pl.DataFrame] | None
    seconds: float


@contextmanager
def kernel_slot(versions: tuple[str, int], threads: int | None) -> Iterator[None]:
    """This process's kernel for one task on ``threads`` numba threads (None: all of the
    process's, ``NUMBA_NUM_THREADS``): a task prepared by another version of the package is
    refused; the first task in a process loads the kernel (from numba's cache; ``citadels
    warmup`` fills it), later ones reuse it; one task at a time per process."""
    if versions != (__version__, KERNEL_VERSION):
        raise ConfigError(f"this process runs citadels-sim {__version__} (kernel version "
                          f"{KERNEL_VERSION}) but the run was prepared by {versions[0]} "
                          f"(kernel version {versions[1]}): install the same version "
                          "on the driver and every worker.")
    with _KERNEL_LOCK:
        ensure_kernel(show=False)  # once per process; at once afterwards
        with numba_threads(threads):
            yield


@contextmanager
def numba_threads(n: int | None) -> Iterator[None]:
    """Play on ``n`` numba threads (None: all of the process's) inside the block."""
    previous = numba.get_num_threads()
    numba.set_num_threads(n or numba.config.NUMBA_NUM_THREADS)
    try:
        yield
    finally:
        numba.set_num_threads(previous)


def play_task(task: ChunkTask) -> Played:
    """Play one chunk in this process.

    This is the function an executor's workers run.  The first call in a process loads
    the kernel (from numba's cache; ``citadels warmup`` fills it), later ones reuse it.
    """
    tables = build_tables(task.config, task.strategies)
    names = [s.name for s in task.strategies]
    with kernel_slot(task.versions, task.threads):
        start = time.perf_counter()
        raw = play_chunk(tables, task.seed, task.first, task.n, task.config.players,
                         task.picks, task.config.max_rounds)
        seconds = time.perf_counter() - start
    frames = frames_of(raw, task.first, task.config, names, task.picks)
    buffers.give(raw)  # the frames hold copies
    return Played(frames, chunk_tables(frames) if task.summarise else None, seconds)


def frames_of(raw: dict[str, np.ndarray], first: int, config: GameConfig, names: list[str],
              picks: bool) -> dict[str, pl.DataFrame]:
    """A chunk's frames from its raw outputs (``picks``: with the per-round table)."""
    frames = {"seats": seat_frame(raw, first, names),
              "characters": character_counts(raw, first, config, names),
              "districts": district_counts(raw, first, config, names)}
    if picks:
        frames["picks"] = pick_frame(raw, first, config, names)
    return frames


def available_memory() -> int:
    """Bytes of memory this machine can still give (Linux: ``MemAvailable``, within a
    cgroup's limit; elsewhere: the physical memory)."""
    try:
        info = Path("/proc/meminfo").read_text()
        free = int(info.split("MemAvailable:")[1].split()[0]) * 1024
    except (OSError, IndexError, ValueError):
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    try:
        limit = Path("/sys/fs/cgroup/memory.max").read_text().strip()
        used = int(Path("/sys/fs/cgroup/memory.current").read_text())
        return min(free, int(limit) - used) if limit != "max" else free
    except (OSError, ValueError):
        return free


def memory_per_game(config: GameConfig, names: list[str], picks: bool, chunk: int
                    ) -> tuple[float, float]:
    """(bytes a chunk of ``chunk`` games needs per game while it is played: the kernel's
    arrays and the chunk's frames; bytes each game's results keep once its chunk is in: its
    rows of ``seats`` and of ``picks`` at :data:`PICK_ROUNDS` rounds a game, and its share
    of the chunk's count tables)."""
    arrays, rows, counts = _frame_bytes(config, len(set(names)), picks)
    return arrays + rows, rows + counts / chunk


@lru_cache(maxsize=64)
def _frame_bytes(config: GameConfig, strategies: int, picks: bool) -> tuple[float, float, int]:
    """(kernel arrays a game, ``seats``/``picks`` rows a game, count tables a chunk) of a
    game of ``config`` between ``strategies`` distinct strategies, measured on blank arrays
    of 100 games."""
    n = 100
    raw = raw_arrays(n, picks, PICK_ROUNDS, config.players)
    raw["picks"][..., 0] = 0  # every rank held in every round
    names = [f"strategy {i % strategies}" for i in range(config.players)]
    frames = frames_of(raw, 0, config, names, picks)
    rows = sum(f.estimated_size() for k, f in frames.items() if k in ("seats", "picks")) / n
    counts = sum(frames[k].estimated_size() for k in ("characters", "districts"))
    arrays = sum(a.nbytes for a in raw_arrays(n, picks, config.max_rounds,
                                              config.players).values()) / n
    return arrays, rows, counts


def _size(n: float) -> str:
    """``n`` bytes in the unit that keeps the number under 1000 (beyond 1000 PB: whole PB,
    with commas)."""
    unit = "bytes"
    for larger in ("KB", "MB", "GB", "TB", "PB"):
        if n < 1000:
            break
        n, unit = n / 1000, larger
    return f"{n:,.0f} {unit}" if unit == "bytes" or n >= 1000 else f"{n:.1f} {unit}"


def _round_down(x: float) -> int:
    """``x`` rounded down to two significant figures."""
    if x < 100:
        return max(0, int(x))
    step = 10 ** (len(str(int(x))) - 2)
    return int(x) // step * step


def check_memory(games: int, chunk_size: int, config: GameConfig, names: list[str],
                 picks: bool, *, here: bool, held: bool) -> None:
    """Refuse, before a game is played, a run that needs more memory than this machine has
    available: its chunks' descriptions (:data:`TASK_BYTES` each), the chunks in flight as
    they are played (``here``: on this machine, :attr:`.executor.Local.AHEAD` of them) and every game's results (``held``: as :func:`simulate`
    holds them)."""
    chunk = min(chunk_size, games)
    chunks = math.ceil(games / chunk)
    playing, kept = memory_per_game(config, names, picks, chunk)
    need = {"tasks": chunks * TASK_BYTES, "chunk": chunk * playing * here * LOCAL.AHEAD,
            "held": games * kept * held}
    free = available_memory()
    if sum(need.values()) <= free:
        return
    worst = max(need, key=need.get)
    has = f"but this machine has {_size(free)} available"
    if worst == "held":
        # each game held also adds its share of a chunk's description
        most = _round_down(max(0, free - need["chunk"]) / (kept + TASK_BYTES / chunk))
        raise ConfigError(
            f"{games:,} games would hold about {_size(need['held'])} of results in memory "
            f"({kept:,.0f} bytes a game{' with picks' if picks else ''}), {has}: at most "
            f"{most:,} games in one simulate (for more, iterate a Run, or run an experiment: "
            "both keep memory bounded).")
    if worst == "chunk":
        raise ConfigError(f"{LOCAL.AHEAD} chunks of {chunk:,} games in flight need about "
                          f"{_size(need['chunk'])} of memory ({playing:,.0f} bytes a game), "
                          f"{has}: at most {_round_down(free / playing / LOCAL.AHEAD):,} "
                          "games a chunk.")
    raise ConfigError(f"{games:,} games in chunks of {chunk:,} are {chunks:,} chunks, whose "
                      f"descriptions alone take about {_size(need['tasks'])}, {has}: give "
                      f"fewer games or a chunk size of at least "
                      f"{math.ceil(games * TASK_BYTES / free):,}.")


class Run:
    """A prepared run, played chunk by chunk: iterate it for ``(first game, frames)`` pairs.

    Each chunk is played (or, with ``out``, read back if an earlier run already wrote it)
    only when the iteration reaches it, so a caller can aggregate chunk by chunk in bounded
    memory, or stop early.  On the default executor chunks come in game order; on any
    other they come as they finish, in any order (every consumer here is
    order-independent).  ``meta`` holds the run's description; its timing fields
    (``wall_seconds``, ``kernel_seconds``, ``games_per_second``) are filled in, and an
    ``out`` directory marked complete, once the last chunk is in.  Creating a Run with the
    default executor loads (or, the first time, compiles) the kernel here
    (``startup_seconds``, counted in the wall time); on another executor the workers load
    it.  ``summarise``: compute each chunk's count tables where it is played (see
    :func:`play_runs`).  Other arguments as for :func:`simulate`.
    """

    def __init__(self, config: GameConfig | None = None,
                 strategies: str | Strategy | Sequence[str | Strategy] | None = None,
                 games: int = 10_000, seed: int = 0, workers: int | None = None, *,
                 chunk_size: int = DEFAULT_CHUNK, picks: bool | None = None,
                 out: str | Path | None = None,
                 executor: ChunkExecutor | Executor | None = None, summarise: bool = False,
                 holds: bool = False):
        self.config = config or GameConfig()
        self.lineup = tuple(lineup_for(strategies, self.config))
        self.executor = resolve(executor)
        self.threads = _check_run_args(games, seed, workers, chunk_size, self.executor)
        self.games, self.seed, self.chunk_size = int(games), int(seed), int(chunk_size)
        self.picks = games <= PICKS_AUTO_LIMIT if picks is None else bool(picks)
        self.summarise = summarise
        self.names = [s.name for s in self.lineup]
        check_memory(self.games, self.chunk_size, self.config, self.names, self.picks,
                     here=self.executor.sequential, held=holds)
        self.meta = {"package_version": __version__, "kernel_version": KERNEL_VERSION,
                     "results_version": RESULTS_VERSION, "config": self.config.to_dict(),
                     "strategies": self.names,
                     "seed": self.seed, "games": self.games, "chunk_size": self.chunk_size,
                     "picks": self.picks}
        self.writer = store.ChunkWriter(Path(out), self.meta) if out is not None else None
        start = time.perf_counter()
        if self.executor.sequential:
            ensure_kernel()  # loads (or, the first time, compiles) the kernel, saying so
        self.meta["startup_seconds"] = round(time.perf_counter() - start, 3)

    def tasks(self) -> list[ChunkTask]:
        """Every chunk of the run, in game order."""
        return [ChunkTask(self.config, self.lineup, self.seed, first,
                          min(self.chunk_size, self.games - first), self.picks,
                          self.threads if self.executor.sequential else None, self.summarise)
                for first in range(0, self.games, self.chunk_size)]

    def __iter__(self) -> Iterator[tuple[int, dict[str, pl.DataFrame]]]:
        for _, first, played in play_runs([self], self.executor):
            yield first, played.frames


def play_runs(runs: Sequence[Run], executor: ChunkExecutor, interleave: bool = False
              ) -> Iterator[tuple[Run, int, Played]]:
    """Every chunk of ``runs`` as ``(run, first game, Played)``: the chunks written by an
    earlier run read back first (nothing written is played again), then the others played
    on ``executor`` -- all runs' chunks in one stream, so a cluster stays busy across small
    runs -- each written as soon as it comes.  The chunks go to the executor run by run, or
    with ``interleave`` chunk by chunk across the runs (the first chunk of every run, then
    the second ...: for runs consumed together, as the rotations of a comparison).  The
    count tables of a run made with ``summarise`` come with each chunk (computed here for
    chunks read back).  A run's metadata (timing) is filled in, and its directory marked
    complete, before its last chunk is handed on."""
    with buffers.kept():
        yield from _play_runs(runs, executor, interleave)


def _play_runs(runs: Sequence[Run], executor: ChunkExecutor, interleave: bool
               ) -> Iterator[tuple[Run, int, Played]]:
    """:func:`play_runs`, with the chunks' arrays kept from one to the next."""
    start = time.perf_counter()
    left = {id(run): len(run.tasks()) for run in runs}
    played = {id(run): [0, 0.0] for run in runs}  # games played, seconds summed

    def handed(run: Run, first: int) -> None:
        left[id(run)] -= 1
        if not left[id(run)]:
            games, seconds = played[id(run)]
            elapsed = seconds if executor.sequential else time.perf_counter() - start
            wall = time.perf_counter() - start + run.meta["startup_seconds"]
            run.meta.update(workers=run.threads or executor.capacity(),
                            executor=executor.describe(),
                            wall_seconds=round(wall, 3), kernel_seconds=round(seconds, 3),
                            games_played=games,
                            games_per_second=round(games / elapsed, 1) if games else None)
            if run.writer:
                run.writer.finish(run.meta)

    def play(pending: list[tuple[Run, ChunkTask]]) -> Iterator[tuple[Run, int, Played]]:
        owner = {id(task): run for run, task in pending}
        for task, result in executor.imap(play_task, (t for _, t in pending)):
            run = owner[id(task)]
            played[id(run)][0] += task.n
            played[id(run)][1] += result.seconds
            if run.writer:
                run.writer.write(task.first, result.frames)
            handed(run, task.first)
            yield run, task.first, result

    order = [(run, task) for run in runs for task in run.tasks()]
    if interleave:
        order.sort(key=lambda pair: pair[1].first)  # stable: runs keep their order
    pending: list[tuple[Run, ChunkTask]] = []
    for run, task in order:
        frames = run.writer.load(task.first) if run.writer else None
        if frames is None:
            pending.append((run, task))
            continue
        if executor.sequential:  # in order: first play the chunks before this one
            yield from play(pending)
            pending = []
        handed(run, task.first)
        yield run, task.first, Played(frames, chunk_tables(frames) if run.summarise else None,
                                      0.0)
    yield from play(pending)


def play_in_step(runs: Sequence[Run], executor: ChunkExecutor
                 ) -> Iterator[tuple[int, list[Played]]]:
    """The chunks of runs of the same games side by side, in game order: ``(first game,
    [each run's Played])`` -- for runs consumed deal by deal, as the rotations of a
    comparison -- however the executor finishes them (chunks that come early wait).
    Closing the iterator stops the runs (cancelling the chunks in flight)."""
    if len({(run.games, run.chunk_size) for run in runs}) != 1:
        raise ConfigError("runs played in step need the same games and chunk size.")
    index = {id(run): i for i, run in enumerate(runs)}
    arrived: dict[int, dict[int, Played]] = {}  # first game -> run index -> chunk
    first = 0
    with closing(play_runs(runs, executor, interleave=True)) as chunks:
        for run, start, played in chunks:
            arrived.setdefault(start, {})[index[id(run)]] = played
            while len(arrived.get(first, ())) == len(runs):
                chunk = arrived.pop(first)
                yield first, [chunk[i] for i in range(len(runs))]
                first += runs[0].chunk_size


def simulate(config: GameConfig | None = None,
             strategies: str | Strategy | Sequence[str | Strategy] | None = None,
             games: int = 10_000, seed: int = 0, workers: int | None = None, *,
             chunk_size: int = DEFAULT_CHUNK, picks: bool | None = None,
             out: str | Path | None = None, progress: bool | None = None,
             executor: ChunkExecutor | Executor | None = None, client=None) -> Results:
    """Play ``games`` games of ``config`` between ``strategies`` and collect the results.

    Parameters
    ----------
    config : the game (default: 4-player classic base game).
    strategies : one preset name (or Strategy) for every seat, or one per seat
        (a sequence or a comma-separated string); ``"name:param=value"`` tunes a preset;
        None (the default): the shipped reference bot made for the game's set and player
        count (:func:`~citadels_sim.game.strategies.default_for`); a bot prepared for any
        game: ``citadels_sim.prepare(config).strategy``.
    games, seed : how many games, and the master seed; game *i* is the same game whatever
        ``workers``, ``chunk_size`` and the executor are.
    workers : numba threads (default: all cores); only for the default executor.
    chunk_size : games per chunk (progress, memory, the unit of work sent to an executor
        and the unit written to ``out``).
    picks : keep the per-round character table (default: only up to 100,000 games).
    out : directory to write the results to as the run goes; a rerun resumes.
    progress : show a progress bar (default: on a terminal, for runs of several chunks).
    executor : where chunks are played: this process (default), or any
        ``concurrent.futures.Executor``, e.g. ``distributed.Client(...).get_executor()``.
    client : a Dask ``distributed.Client`` whose workers play the chunks (instead of
        ``executor``).

    Returns
    -------
    Results with polars DataFrames ``seats``, ``characters`` and (optionally) ``picks``,
    the same whatever the executor.  For runs too big to hold in memory, iterate a
    :class:`Run` instead.
    """
    run = Run(config, strategies, games, seed, workers, chunk_size=chunk_size, picks=picks,
              out=out, executor=resolve(executor, client), holds=True)
    if progress is None:
        progress = games > chunk_size and sys.stderr.isatty()
    chunks: dict[int, dict[str, pl.DataFrame]] = {}
    if out is None:
        kept = store.on_interrupt(lambda: "nothing kept: the games were held in memory only "
                                  "(out=DIR, --out DIR, keeps them and resumes)", False)
    else:
        kept = store.on_interrupt(lambda: f"{store.chunks_written(Path(out))} of "
                                  f"{len(run.tasks())} chunks written to {out}")
    quality = Summary()  # counted as each chunk comes, while the next one plays
    with kept, tqdm(total=games, unit="game", disable=not progress, smoothing=0.1) as bar:
        for first, frames in run:
            chunks[first] = frames
            if "led" in frames["seats"].columns:
                quality.merge(Summary(quality_tables(frames["seats"])))
            bar.update(min(run.chunk_size, run.games - first))
    parts: dict[str, list[pl.DataFrame]] = {"seats": [], "picks": [], "characters": [],
                                            "districts": []}
    for first in sorted(chunks):  # game order, however the chunks arrived
        for key, frame in chunks[first].items():
            parts[key].append(frame)
    return Results.from_parts(parts, run.meta, quality.tables or None)
