"""Benchmark: games per second of the kernel on one core and on all cores, and its start-up.

Cold start = a new Python process with an empty numba cache: import, compile every kernel
function, play one game.  Its wall time, peak resident memory and the slowest functions to
compile (numba's own compile events, ``numba:compile``) are reported.  Warm start = the same
process again with that cache filled.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

import numba

from citadels_sim.game.config import ConfigError, GameConfig
from . import buffers
from .simulate import build_tables, check_memory, play_chunk, resolve_strategies
from .warmup import ensure_kernel

#: the 2016 benchmark set: 9 characters, with the first_game districts (kept since the first
#: release so that figures stay comparable); the full-roster case uses the cunning_agents preset
BENCH_2016_SET = ("Assassin", "Thief", "Magician", "Patrician", "Abbot", "Trader", "Scholar",
                  "Warlord", "Queen")

#: the strategies benchmarked side by side (every seat plays the same one)
BENCH_STRATEGIES = ("heuristic", "reference")
#: the fewest games a benchmark plays (half of them on one core): fewer time the start of
#: the kernel's threads, not its speed
MIN_GAMES = 1_000

#: run in the child process: start-up to the first game played, with the compile's timings;
#: its memory is its own peak plus the largest compile worker's for each worker (an upper
#: bound on their sum)
_START_SCRIPT = """
import json, resource
from citadels_sim.engine.warmup import ensure_kernel
from citadels_sim.kernel.parallel_compile import worker_count
timings = ensure_kernel(show=False)
from citadels_sim.engine.simulate import simulate
simulate(games=1, picks=False, progress=False)
spent = [(name, s) for name, s, compiled in timings if compiled]
own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
worker = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"functions": len(spent),
                  "slowest": sorted(spent, key=lambda kv: -kv[1])[:10],
                  "max_rss_mb": (own + (worker_count() - 1) * worker) / 1024}))
"""


@dataclass
class StartUp:
    """One measured start-up of a fresh process."""

    seconds: float  # wall time of the whole process, interpreter start included
    max_rss_mb: float  # its peak resident memory, plus the largest compile worker's per worker
    functions: int  # functions numba compiled (0 when all came from the cache)
    slowest: list[tuple[str, float]]  # the slowest to compile, seconds each (callees apart)


def start_up(cache_dir: str) -> StartUp:
    """Start a new process with ``NUMBA_CACHE_DIR=cache_dir`` and play one game."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", _START_SCRIPT], env=env, check=True,
                         capture_output=True, text=True)
    seconds = time.perf_counter() - t0
    data = json.loads(out.stdout.strip().splitlines()[-1])
    return StartUp(seconds, data["max_rss_mb"], data["functions"],
                   [(name, s) for name, s in data["slowest"]])


def throughput(config: GameConfig, strategies: str, games: int, threads: int,
               repeats: int = 3) -> float:
    """Best games/second over ``repeats`` runs of ``games`` games on ``threads`` threads
    (the first allocates the output arrays, the others reuse them, as a run's chunks do)."""
    ensure_kernel()
    tables = build_tables(config, resolve_strategies(strategies, config.players))
    previous = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        play_chunk(tables, 0, 0, 100, config.players, False, config.max_rounds)  # warm-up
        best = 0.0
        with buffers.kept():  # as a run's chunks: the arrays kept from one to the next
            for rep in range(repeats):
                t0 = time.perf_counter()
                raw = play_chunk(tables, rep + 1, 0, games, config.players, False,
                                 config.max_rounds)
                best = max(best, games / (time.perf_counter() - t0))
                buffers.give(raw)
        return best
    finally:
        numba.set_num_threads(previous)


def start_rows() -> list[tuple[str, str]]:
    """Cold and warm start-up as (measure, value) rows."""
    with tempfile.TemporaryDirectory() as empty:
        cold = start_up(empty)
        warm = start_up(empty)
    rows = [("cold start (new process, empty cache: import, compile, 1 game)",
             f"{cold.seconds:.1f} s"),
            ("cold start: peak memory (own + largest compile worker's, at most)",
             f"{cold.max_rss_mb:,.0f} MB"),
            ("cold start: functions compiled", f"{cold.functions}")]
    rows += [(f"  compile {name}", f"{s:.2f} s") for name, s in cold.slowest]
    rows.append(("warm start (new process, cache filled: import, load, 1 game)",
                 f"{warm.seconds:.2f} s"))
    return rows


def run(games: int = 200_000, cold: bool = True) -> list[tuple[str, str]]:
    """The benchmark table as (measure, value) rows."""
    if isinstance(games, bool) or not isinstance(games, int) or games < MIN_GAMES:
        raise ConfigError(f"a benchmark plays at least {MIN_GAMES:,} games (half of them on "
                          f"one core), got {games!r}.")
    configs = [("base game, classic, 4 players", GameConfig()),
               ("2016, 9 characters, 6 players, 14 unique districts",
                GameConfig(ruleset="2016", players=6, characters=BENCH_2016_SET)),
               ("2016 cunning_agents preset (Witch, Blackmailer ...), 6 players",
                GameConfig(ruleset="2016", players=6, characters="cunning_agents",
                           districts="cunning_agents"))]
    for _, config in configs:  # a benchmark plays its games in one chunk
        for strategies in BENCH_STRATEGIES:
            check_memory(games, games, config, [strategies] * config.players, False,
                         here=True, held=False)
    rows = start_rows() if cold else []
    cores = numba.config.NUMBA_NUM_THREADS
    for label, config in configs:
        for strategies in BENCH_STRATEGIES:  # side by side, on the same configuration
            one = throughput(config, strategies, games // 2, 1)
            rows.append((f"{label}, {strategies}: 1 core", f"{one:,.0f} games/s"))
            every = throughput(config, strategies, games, cores)
            rows.append((f"{label}, {strategies}: {cores} cores", f"{every:,.0f} games/s"))
    return rows
