"""Throughput of an experiment on this machine's threads against a Dask LocalCluster, and the
driver's peak memory (issue 13; the figures are in docs/cluster.md, "Measured").

    python experiments/cluster_bench.py                          # 10M games, 100,000-game chunks
    python experiments/cluster_bench.py --games 2000000 --chunks 10000,25000,50000,100000

Every measurement is one fresh process playing a one-cell experiment (classic, 4 players,
heuristic; Parquet written, as a real run) into a temporary directory, with the kernel
loaded before the clock starts (the cluster's start-up is reported apart).  Modes:
``local`` (numba threads on every core, no Dask), ``2x1`` (LocalCluster, 2 worker
processes of 1 thread), ``1x2`` (1 worker process, 2 threads).  The modes of one chunk size
take turns, ``--repeats`` times, so that other load on the machine falls on all of them.
Overhead = wall on the cluster / wall locally - 1, per chunk size (medians); and the same
for CPU seconds (driver, workers and nannies), which other load on the machine disturbs
less than the wall clock.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time

EXPERIMENT = """seed = 13
games = {games}
chunk_size = {chunk}
[grid]
players = [4]
lineup = ["heuristic"]
"""
MODES = {"local": None, "2x1": (2, 1), "1x2": (1, 2)}


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _cpu() -> float:
    """CPU seconds of this process so far (all its threads)."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def _cpu_parts(client) -> dict[str, float]:
    """CPU seconds so far of this process (the driver, with a LocalCluster's scheduler) and,
    on a cluster, of its workers and nannies."""
    parts = {"driver": _cpu()}
    if client is not None:
        parts["workers"] = sum(client.run(_cpu).values())
        parts["nannies"] = sum(client.run(_cpu, nanny=True).values())
    return parts


def measure(mode: str, games: int, chunk: int) -> dict:
    """One run in this process: wall seconds, games/s and peak memory (driver, workers)."""
    from citadels_sim.engine.warmup import ensure_kernel
    from citadels_sim.studies import experiment
    exp = experiment.parse(EXPERIMENT.format(games=games, chunk=chunk), "bench")
    client, startup = None, 0.0
    if MODES[mode] is None:
        ensure_kernel(show=False)
    else:
        from citadels_sim.engine import cluster
        t0 = time.perf_counter()
        client = cluster.local(*MODES[mode], dashboard_address=None)
        client.run(ensure_kernel, show=False)
        startup = time.perf_counter() - t0
    with tempfile.TemporaryDirectory() as runs:
        before = _cpu_parts(client)
        t0 = time.perf_counter()
        experiment.run(exp, runs, progress=False, client=client)
        wall = time.perf_counter() - t0
        parts = {k: v - before[k] for k, v in _cpu_parts(client).items()}
    out = {"mode": mode, "games": games, "chunk": chunk, "wall": wall,
           "cpu": sum(parts.values()), "cpu_parts": parts,
           "games_per_second": games / wall, "startup": startup, "driver_mb": _peak_mb()}
    if client is not None:
        out["worker_mb"] = max(client.run(_peak_mb).values())
        client.close()
        client.cluster.close()
    return out


def cpu_parts(row: dict) -> str:
    """A measurement's CPU seconds by process kind."""
    return ", ".join(f"{k} {v:.1f}" for k, v in row["cpu_parts"].items())


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=10_000_000)
    p.add_argument("--chunks", default="100000", help="comma-separated chunk sizes")
    p.add_argument("--modes", default="local,2x1", help="of: " + ", ".join(MODES))
    p.add_argument("--repeats", type=int, default=1)
    p.add_argument("--one", choices=MODES, help=argparse.SUPPRESS)  # a child measurement
    a = p.parse_args()
    chunks = [int(c) for c in a.chunks.split(",")]
    if a.one:
        print(json.dumps(measure(a.one, a.games, chunks[0])))
        return
    modes = a.modes.split(",")
    print(f"{a.games:,} games; mode, chunk, wall s, games/s, overhead (wall), CPU s, "
          "overhead (CPU), startup s, driver peak MB, worker peak MB", flush=True)
    for chunk in chunks:
        rows: dict[str, list[dict]] = {m: [] for m in modes}
        for _ in range(a.repeats):
            for mode in modes:
                child = subprocess.run(
                    [sys.executable, __file__, "--one", mode, "--games", str(a.games),
                     "--chunks", str(chunk)], check=True, capture_output=True, text=True)
                rows[mode].append(json.loads(child.stdout.strip().splitlines()[-1]))
        ref = rows.get("local", rows[modes[0]])
        base = statistics.median(r["wall"] for r in ref)
        base_cpu = statistics.median(r["cpu"] for r in ref)
        for mode in modes:
            wall = statistics.median(r["wall"] for r in rows[mode])
            cpu = statistics.median(r["cpu"] for r in rows[mode])
            last = rows[mode][-1]
            walls = ", ".join(f"{r['wall']:.1f}" for r in rows[mode])
            print(f"{mode:>5} {chunk:>8,} {wall:8.1f} {a.games / wall:10,.0f} "
                  f"{wall / base - 1:+7.1%} {cpu:8.1f} {cpu / base_cpu - 1:+7.1%} "
                  f"{last['startup']:6.1f} "
                  f"{max(r['driver_mb'] for r in rows[mode]):8.0f} "
                  f"{max(r.get('worker_mb', 0) for r in rows[mode]):8.0f}"
                  f"   (walls: {walls}; CPU s: {cpu_parts(rows[mode][-1])})",
                  flush=True)


if __name__ == "__main__":
    main()
