"""Commands that play games and show them: simulate, replay, bench, warmup, list.

Each command is a pair: ``add_NAME(parser)`` declares its options, ``NAME(args)`` runs it
(importing what it needs only then, so that ``citadels --help`` starts at once).
"""

from __future__ import annotations

import argparse

from . import options as o


def add_simulate(p: argparse.ArgumentParser) -> None:
    o.add_game(p)
    o.add_strategies(p, what="one strategy for all seats or one per seat, comma-separated; "
                             "'prepared': the bot `citadels prepare` makes for the game (the "
                             "bot `citadels balance` judges under), prepared the first time")
    o.add_seed(p)
    p.add_argument("--games", type=int, default=10_000, help="number of games (default 10000)")
    p.add_argument("--chunk-size", type=int, default=100_000, help="games per chunk")
    p.add_argument("--out", default=None,
                   help="directory for Parquet results (a rerun resumes; a directory holding "
                        "another kind of run, or other files, is refused)")
    picks = p.add_mutually_exclusive_group()
    picks.add_argument("--picks", dest="picks", action="store_true", default=None,
                       help="keep the per-round character table (default: up to 100000 games)")
    picks.add_argument("--no-picks", dest="picks", action="store_false")
    o.add_execution(p)
    o.add_strategies_file(p)
    o.add_bots_dir(p)


def simulate(a: argparse.Namespace) -> None:
    from citadels_sim.engine.simulate import simulate
    config = o.config(a)
    with o.cluster(a) as executor:
        strategies = o.lineup(a, config, executor)
        results = simulate(config, strategies, games=a.games, seed=a.seed,
                           workers=a.workers, chunk_size=a.chunk_size, picks=a.picks,
                           out=a.out, progress=o.progress(a), executor=executor)
    print(results.summary())
    if a.out:
        print(f"results written to {a.out}")


def add_replay(p: argparse.ArgumentParser) -> None:
    o.add_game(p)
    o.add_strategies(p)
    o.add_seed(p)
    p.add_argument("--game", type=int, default=0, help="game index within the run")
    p.add_argument("--json", action="store_true", help="JSON Lines, one event per line")
    o.add_strategies_file(p)


def replay(a: argparse.Namespace) -> None:
    from citadels_sim.engine.replay import replay, to_json_lines, to_text
    events = replay(o.config(a), a.strategies, a.seed, a.game)
    print(to_json_lines(events) if a.json else to_text(events))


def add_bench(p: argparse.ArgumentParser) -> None:
    p.add_argument("--games", type=int, default=200_000,
                   help="games of each measure, at least 1000 (default 200000)")
    p.add_argument("--no-cold", action="store_true", help="skip the cold-start measurement")


def bench(a: argparse.Namespace) -> None:
    from citadels_sim.engine import bench
    rows = bench.run(games=a.games, cold=not a.no_cold)
    width = max(len(r[0]) for r in rows)
    for label, value in rows:
        print(f"{label:<{width}}  {value}")


def warmup(a: argparse.Namespace) -> None:
    import time

    import numba

    from citadels_sim.engine.warmup import ensure_kernel
    start = time.perf_counter()
    timings = ensure_kernel()
    compiled = sum(1 for _, _, c in timings if c)
    how = f"compiled {compiled} of {len(timings)} functions" if compiled else \
        f"{len(timings)} functions loaded from the cache"
    print(f"kernel ready in {time.perf_counter() - start:.1f} s ({how}); "
          f"cache: {numba.config.CACHE_DIR}")


def list_all(a: argparse.Namespace) -> None:
    from citadels_sim.game.catalogue import text
    print(text())
