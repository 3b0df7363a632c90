"""Benchmark: games per second of the kernel, on one core and on all cores, plus start-up.

Cold start = import and compile the kernel with an empty numba cache (in a subprocess);
warm start = import and play the first game with the cache filled (in a subprocess).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

import numba

from .config import GameConfig
from .simulate import build_tables, play_chunk, resolve_strategies

#: the 2016 benchmark set: 9 characters, with the first_game districts (kept since the first
#: release so that figures stay comparable); the full-roster case uses the cunning_agents preset
BENCH_2016_SET = ("Assassin", "Thief", "Magician", "Patrician", "Abbot", "Trader", "Scholar",
                  "Warlord", "Queen")
_FIRST_GAME = ("import time; t = time.perf_counter(); from citadels_sim.simulate import simulate; "
               "simulate(games=1, picks=False); print(time.perf_counter() - t)")


def _start_time(cache_dir: str | None) -> float:
    env = dict(os.environ)
    if cache_dir:
        env["NUMBA_CACHE_DIR"] = cache_dir
    out = subprocess.run([sys.executable, "-c", _FIRST_GAME], env=env, check=True,
                         capture_output=True, text=True)
    return float(out.stdout.strip().splitlines()[-1])


def throughput(config: GameConfig, strategies: str, games: int, threads: int,
               repeats: int = 3) -> float:
    """Best games/second over ``repeats`` runs of ``games`` games on ``threads`` threads."""
    tables = build_tables(config, resolve_strategies(strategies, config.players))
    previous = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        play_chunk(tables, 0, 0, 100, config.players, False, config.max_rounds)  # warm-up
        best = 0.0
        for rep in range(repeats):
            t0 = time.perf_counter()
            play_chunk(tables, rep + 1, 0, games, config.players, False, config.max_rounds)
            best = max(best, games / (time.perf_counter() - t0))
        return best
    finally:
        numba.set_num_threads(previous)


def run(games: int = 200_000, cold: bool = True) -> list[tuple[str, str]]:
    """The benchmark table as (measure, value) rows."""
    rows = []
    if cold:
        with tempfile.TemporaryDirectory() as empty:
            rows.append(("cold start (import + JIT compile + 1 game)",
                         f"{_start_time(empty):.1f} s"))
        rows.append(("warm start (import + cached kernel + 1 game)",
                     f"{_start_time(None):.2f} s"))
    cores = numba.config.NUMBA_NUM_THREADS
    cases = [("base game, classic, 4 players, heuristic", GameConfig(), "heuristic"),
             ("2016, 9 characters, 6 players, 14 unique districts, heuristic",
              GameConfig(ruleset="2016", players=6, characters=BENCH_2016_SET), "heuristic"),
             ("2016 cunning_agents preset (Witch, Blackmailer ...), 6 players, heuristic",
              GameConfig(ruleset="2016", players=6, characters="cunning_agents",
                         districts="cunning_agents"), "heuristic")]
    for label, config, strategies in cases:
        one = throughput(config, strategies, games // 2, 1)
        rows.append((f"{label}: 1 core", f"{one:,.0f} games/s"))
        every = throughput(config, strategies, games, cores)
        rows.append((f"{label}: {cores} cores", f"{every:,.0f} games/s"))
    return rows
