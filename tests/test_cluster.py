"""Chunks on a Dask cluster (a LocalCluster of 2 worker processes) give exactly the local
results; runs on it resume without replaying written chunks and survive a lost worker;
the default path never imports Dask."""

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from citadels_sim import GameConfig, simulate, tune
from citadels_sim.cli import main
from citadels_sim.engine.executor import Local, Pool
from citadels_sim.engine.simulate import ChunkTask, Run, play_task, resolve_strategies
from citadels_sim.game.config import ConfigError
from citadels_sim.reporting import experiment as report
from citadels_sim.studies import balance, experiment
from citadels_sim.studies.compare import Sprt, compare
from test_experiment import SMALL  # the same small experiment, run locally and on a cluster
from test_tune import TINY  # the same tiny tuning run

distributed = pytest.importorskip("distributed")
cluster = pytest.importorskip("citadels_sim.engine.cluster")

FIVE = GameConfig(ruleset="2016", players=5)
LINEUP = "heuristic,random,builder,aggressive,heuristic"


@pytest.fixture(scope="module")
def client():
    c = cluster.local(n_workers=2, threads_per_worker=1, dashboard_address=None)
    yield c
    c.close()
    c.cluster.close()


def same_results(a, b):
    assert a.seats.equals(b.seats)
    assert (a.picks is None and b.picks is None) or a.picks.equals(b.picks)
    assert a.characters.equals(b.characters) and a.districts.equals(b.districts)
    assert a.character_batches.equals(b.character_batches)


def test_simulate_on_a_cluster_gives_the_local_results(client):
    local = simulate(FIVE, LINEUP, games=6000, seed=3, chunk_size=6000)
    remote = simulate(FIVE, LINEUP, games=6000, seed=3, chunk_size=500, client=client)
    same_results(local, remote)
    assert remote.meta["executor"].startswith("dask scheduler tcp://127.0.0.1:")
    assert remote.meta["workers"] == 2


def test_any_concurrent_futures_executor_gives_the_local_results():
    """Not only Dask: a thread pool (chunks serialised on the kernel, in any order)."""
    local = simulate(games=2000, seed=9, chunk_size=2000)
    with ThreadPoolExecutor(3) as pool:
        pooled = simulate(games=2000, seed=9, chunk_size=250, executor=pool)
    same_results(local, pooled)


def test_an_experiment_on_a_cluster_gives_the_local_tables_and_report(client, tmp_path):
    exp = experiment.parse(SMALL, "small")
    local = experiment.run(exp, tmp_path / "local", progress=False)
    remote = experiment.run(exp, tmp_path / "remote", progress=False, client=client)
    a, b = local.tables(), remote.tables()
    assert a.keys() == b.keys() and all(a[k].equals(b[k]) for k in a)
    out_a = report.write(local, tmp_path / "rep-local")
    out_b = report.write(remote, tmp_path / "rep-remote")
    for table in sorted(p.name for p in (out_a / "tables").glob("*.csv")):
        assert (out_a / "tables" / table).read_bytes() == \
            (out_b / "tables" / table).read_bytes(), table
    assert "of dask scheduler" in (out_b / "report.md").read_text()
    # the chunks were written as they finished: reading them back gives the same tables
    again = experiment.load_run(tmp_path / "remote" / "small").tables()
    assert all(again[k].equals(b[k]) for k in b)


#: a comparison whose SPRT decides after several chunks (a strategy against itself on
#: independent deals)
SPRT_RUN = dict(config=GameConfig(players=3), games=20_000, seed=3, chunk_size=50,
                sprt=Sprt.from_elo(0, 20), crn=False)


def test_compare_on_a_cluster_decides_like_the_local_run(client):
    local = compare("aggressive", "aggressive", **SPRT_RUN)
    remote = compare("aggressive", "aggressive", **SPRT_RUN, client=client)
    assert local.verdict == "H0" and 4 * 50 <= local.deals < 20_000  # several chunks, early
    assert (remote.deals, remote.llr, remote.verdict) == (local.deals, local.llr, local.verdict)
    assert remote.test == local.test and remote.rates.equals(local.rates)
    assert remote.text() == local.text()


class Counting(Local):
    """This process's executor, counting the chunks it plays."""

    def __init__(self):
        self.played = 0

    def imap(self, fn, tasks):
        for task, result in super().imap(fn, tasks):
            self.played += 1
            yield task, result


def test_compare_plays_the_rotations_chunk_by_chunk_and_stops_with_the_sprt():
    counting = Counting()
    c = compare("aggressive", "aggressive", **SPRT_RUN, executor=counting)
    assert c.verdict == "H0" and 4 * 50 <= c.deals < 20_000
    assert counting.played == c.deals // 50 * len(c.line_ups)  # nothing played past it


def test_balance_on_a_cluster_gives_the_local_verdicts(client, tmp_path):
    spec = balance.Balance("first_game", ruleset="2016", players=(4,), games=200, deals=100,
                           chunk_size=100, check_budget=0)
    local = balance.run(spec, tmp_path / "local", progress=False, bots_dir=tmp_path / "lb")
    remote = balance.run(spec, tmp_path / "remote", progress=False, client=client,
                         bots_dir=tmp_path / "rb")  # its bots prepared on the cluster too
    assert remote.values.equals(local.values) and remote.checks.equals(local.checks)
    assert np.array_equal(remote.prepared[0].strategy.row(), local.prepared[0].strategy.row())

    def same(result):  # each run's own directory (its bots' strategy file) and times aside
        return re.sub(r"\d+ (min \d+ )?s\b", "TIME", result.text().replace(str(result.root),
                                                                         "RUN"))
    assert same(remote) == same(local)


def test_tuning_on_a_cluster_gives_the_local_search(client, tmp_path):
    """Each generation's candidates are tasks on the workers; the search, the deployed
    strategy, the held-out validation and the SPRT come out the same."""
    local = tune("heuristic", GameConfig(players=4), runs_dir=tmp_path / "local", **TINY)
    remote = tune("heuristic", GameConfig(players=4), runs_dir=tmp_path / "remote",
                  client=client, **TINY)
    assert remote.history.equals(local.history)
    assert np.array_equal(remote.strategy.row(), local.strategy.row())
    assert remote.validation == local.validation
    assert remote.comparison.text() == local.comparison.text()
    with pytest.raises(ConfigError, match="leave workers out"):
        tune("heuristic", GameConfig(players=4), runs_dir=tmp_path / "w", workers=1,
             client=client, **TINY)


def test_tune_cli_on_a_running_scheduler_prints_the_local_result(client, tmp_path, capsys):
    args = ["tune", "--family", "heuristic", "--league", "heuristic", "--budget", "600",
            "--games", "40", "--popsize", "4", "--validate-games", "400", "--sprt-games",
            "200", "--no-progress", "--reports", str(tmp_path / "reports")]
    assert main(args + ["--runs", str(tmp_path / "local")]) == 0
    local = capsys.readouterr().out
    assert main(args + ["--runs", str(tmp_path / "remote"), "--cluster",
                        client.scheduler.address]) == 0
    remote = capsys.readouterr().out
    # the first line holds the search's time and speed; the checkpoint paths differ
    assert local.splitlines()[1:-1] == remote.splitlines()[1:-1]


def test_a_killed_driver_reruns_without_replaying_written_chunks(client, tmp_path):
    out = tmp_path / "run"
    games, chunk = 8000, 500
    first = Run(FIVE, LINEUP, games, 4, chunk_size=chunk, out=out,
                executor=cluster.client_executor(client))
    seen = []
    for start, _ in first:  # the driver dies after six chunks have come back
        seen.append(start)
        if len(seen) == 6:
            break
    written = sorted(int(p.stem[5:]) for p in (out / "seats").glob("part-*.parquet"))
    assert len(written) >= 6 and set(seen) <= set(written)
    resumed = simulate(FIVE, LINEUP, games=games, seed=4, chunk_size=chunk, out=out,
                       client=client)
    assert resumed.meta["games_played"] == games - chunk * len(written)
    same_results(resumed, simulate(FIVE, LINEUP, games=games, seed=4, chunk_size=games))
    assert json.loads((out / "meta.json").read_text())["status"] == "complete"


def test_the_default_executor_keeps_game_order_when_resuming(tmp_path):
    """Here, chunks read back and chunks played come in game order (other executors hand
    them on as they finish; play_in_step puts runs side by side in game order for both)."""
    out = tmp_path / "run"
    simulate(games=2000, seed=1, chunk_size=250, out=out)
    for table in ("seats", "characters", "districts", "picks"):
        (out / table / "part-000000000750.parquet").unlink(missing_ok=True)
    assert [first for first, _ in Run(games=2000, seed=1, chunk_size=250, out=out)] == \
        list(range(0, 2000, 250))


def test_workers_load_the_kernel_once(client):
    """After all the chunks above, each worker process loaded the kernel's entry point
    exactly once (from numba's cache), not once per task, and no other function twice."""
    def loads():
        from citadels_sim.kernel.jit import entry_points, kernel_functions

        def count(d):
            return sum(d.stats.cache_hits.values()) + sum(d.stats.cache_misses.values())
        return [count(d) for d in entry_points()], max(count(d) for d in kernel_functions())

    per_worker = client.run(loads)
    assert len(per_worker) == 2
    assert all(entries == [1] and most == 1 for entries, most in per_worker.values())


def test_a_lost_worker_costs_only_its_chunks_in_flight(client, tmp_path):
    """A worker process killed mid-run: the scheduler replays its chunks elsewhere (its
    nanny starts a new one), and the run ends with the local results."""
    out = tmp_path / "run"
    games, chunk = 24_000, 1000
    result = {}
    thread = threading.Thread(target=lambda: result.update(res=simulate(
        FIVE, LINEUP, games=games, seed=6, chunk_size=chunk, out=out, client=client)))
    thread.start()
    deadline = time.time() + 120
    while time.time() < deadline and len(list((out / "seats").glob("part-*"))) < 3:
        time.sleep(0.02)
    pids = client.run(os.getpid)
    os.kill(next(iter(pids.values())), signal.SIGKILL)
    at_kill = len(list((out / "seats").glob("part-*")))
    thread.join(300)
    assert at_kill < games // chunk, "the worker was not killed midway"
    done = len(list((out / "seats").glob("part-*")))
    assert "res" in result, "the run did not finish after losing a worker"
    assert done == games // chunk and result["res"].meta["games_played"] == games
    client.wait_for_workers(2, timeout=60)
    assert set(client.run(os.getpid).values()) != set(pids.values())  # a worker was replaced
    same_results(result["res"], simulate(FIVE, LINEUP, games=games, seed=6, chunk_size=games))


def test_pool_keeps_a_bounded_number_in_flight_and_cancels_on_close():
    started = []

    def slow(task):
        started.append(task)
        time.sleep(0.01)
        return task * 2

    with ThreadPoolExecutor(2) as pool:
        chunks = Pool(pool, in_flight=3).imap(slow, range(40))
        consumed = 0
        for task, doubled in chunks:
            assert doubled == task * 2
            consumed += 1
            assert len(started) - consumed <= 3
            if consumed == 10:
                break
        chunks.close()
    assert len(started) <= 13  # nothing beyond the window was ever submitted


def test_a_worker_of_another_version_refuses_the_chunk():
    task = ChunkTask(GameConfig(), tuple(resolve_strategies("heuristic", 4)), 0, 0, 10, False,
                     versions=("0.0.1", 1))
    with pytest.raises(ConfigError, match="install the same version"):
        play_task(task)


def test_workers_is_for_this_machine_only(client):
    with pytest.raises(ConfigError, match="leave workers out"):
        simulate(games=100, workers=1, client=client)
    with pytest.raises(ConfigError, match="not both"):
        simulate(games=100, client=client, executor=ThreadPoolExecutor(1))


def test_cli_against_a_running_scheduler_prints_the_local_numbers(client, capsys):
    args = ["simulate", "--players", "4", "--games", "3000", "--chunk-size", "500",
            "--seed", "2", "--no-progress"]
    assert main(args) == 0
    local = capsys.readouterr().out
    assert main(args + ["--cluster", client.scheduler.address]) == 0
    remote = capsys.readouterr().out
    assert local.split("throughput:")[0] == remote.split("throughput:")[0]


@pytest.mark.parametrize("spec,message", [
    ("foo", "cluster 'foo' is not understood: give 'local'"),
    ("tcp://127.0.0.1", "is not a scheduler address (protocols: "),
    ("bogus://127.0.0.1:8786", "is not a scheduler address"),
    ("nosuch.json", "scheduler file 'nosuch.json' does not exist"),
    ("tcp://127.0.0.1:1", "could not reach a Dask scheduler at 'tcp://127.0.0.1:1'"),
])
def test_a_bad_cluster_is_a_clear_error(spec, message, capsys):
    import dask
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        assert main(["simulate", "--games", "10", "--no-progress", "--cluster", spec]) == 2
    err = capsys.readouterr().err
    assert err.startswith("citadels: error: ") and message in err and "Traceback" not in err
    assert main(["compare", "heuristic", "builder", "--workers", "1", "--cluster", "local"]) == 2
    assert "leave --workers out" in capsys.readouterr().err


def test_the_default_path_never_imports_dask():
    code = ("import sys\nfrom citadels_sim.cli import main\n"
            "assert main(['simulate', '--games', '200', '--no-progress']) == 0\n"
            "loaded = sorted(m for m in sys.modules if m.split('.')[0] in "
            "('dask', 'distributed'))\nassert not loaded, loaded\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
