"""The kernel's compile: one signature per function, callees first, and the first-run message.

The cold-start time itself is measured by ``citadels bench`` (a report, not an assertion).
"""

import time

import numba
import pytest

from citadels_sim import GameConfig, replay, simulate
from citadels_sim.engine.warmup import _MESSAGE, _Progress, ensure_kernel
from citadels_sim.kernel import jit


def _name(d) -> str:
    return f"{d.py_func.__module__}.{d.py_func.__name__}"


def test_every_kernel_function_has_one_signature_after_whole_games():
    simulate(GameConfig(ruleset="2016", players=6, characters="cunning_agents",
                        districts="cunning_agents"), games=200, seed=1)
    simulate(GameConfig(ruleset="classic", players=3), "random,builder,aggressive", games=200)
    replay(GameConfig(ruleset="four_color", players=7), "heuristic", seed=2, game=1)
    functions = jit.kernel_functions()
    assert len(functions) > 100
    several = {_name(d): len(d.signatures) for d in functions if len(d.signatures) != 1}
    assert several == {}


def test_signature_follows_parameter_names():
    from citadels_sim.kernel import run
    from citadels_sim.kernel.bots import common
    assert jit.signature(common.offer) == (jit.STATE, numba.int64, numba.float64, numba.int64,
                                           numba.float64, numba.int64, numba.int64)
    assert jit.signature(run.play_games)[0] == jit.ARG_TYPES["tb"]


def test_a_new_argument_type_is_refused_not_compiled():
    from citadels_sim.kernel import state
    st = state.new_state(state.new_tables(*_tables()), 0, 0, False)
    with pytest.raises(TypeError):
        state.gain(st, (0, 1), 1)  # a tuple for a seat: no such signature, no new compile
    assert len(state.gain.signatures) == 1


def _tables():
    import numpy as np

    from citadels_sim.kernel import layout as L
    cfg = GameConfig().tables()
    return cfg["kinds"], cfg["cfg"], np.zeros((L.MAX_SEATS, L.N_PARAMS))


def test_callees_are_compiled_before_their_callers():
    order = jit.compile_order()
    position = {id(d): i for i, d in enumerate(order)}
    known = set(position)
    assert len(order) == len(jit.kernel_functions())
    for d in order:
        for callee in jit.callees(d, known):
            assert position[id(callee)] < position[id(d)], (_name(callee), _name(d))


def test_ensure_kernel_is_quiet_and_instant_once_loaded(capsys):
    assert ensure_kernel() == []
    assert capsys.readouterr().err == ""


def test_a_compile_says_what_it_is_doing(capsys):
    progress = _Progress(show=True)
    progress(1, 3, "state.gain", False)  # loaded from the cache: nothing said
    assert capsys.readouterr().err == ""
    progress(2, 3, "state.pay", True)
    progress(3, 3, "run.play_games", True)
    progress.close()
    err = capsys.readouterr().err
    assert _MESSAGE in err and "first run only" in err
    assert "kernel compiled in" in err


def test_bench_times_a_start_up_in_a_new_process():
    """``citadels bench``'s start-up script runs (here with the kernel cached: none compiled)."""
    from citadels_sim.engine.bench import start_up
    warm = start_up(numba.config.CACHE_DIR)
    assert warm.functions == 0 and warm.seconds > 0 and warm.max_rss_mb > 0


def test_a_cold_compile_schedules_each_function_after_its_callees_longest_chains_first():
    """``parallel_compile``: on a 5-function graph (0, 1 leaves; 2 calls 0; 3 calls 1 and 2;
    4 calls 3) one worker gets 0 before 1 (0 heads the longer chain), and nothing before
    its callees."""
    from citadels_sim.kernel.parallel_compile import compile_in_workers
    done = []
    ok = compile_in_workers([[], [], [0], [1, 2], [3]], 1, done.append, lambda i, s: None)
    assert ok and done == [0, 2, 1, 3, 4]


def test_compile_workers_take_their_share_of_the_kernel_and_each_function_once():
    """Two processes (this one and a worker, which loads from the cache here) share the
    kernel's functions; every one is done once, after its callees."""
    from citadels_sim.kernel.parallel_compile import compile_in_workers
    order = jit.compile_order()
    index = {id(d): i for i, d in enumerate(order)}
    graph = [[index[id(c)] for c in jit.callees(d, index)] for d in order]
    here, finished = [], []

    def compile_here(i):  # as slow as a short compile, so that the worker gets its share
        here.append(i)
        time.sleep(0.03)

    assert compile_in_workers(graph, 2, compile_here, lambda i, s: finished.append(i))
    assert sorted(finished) == list(range(len(order)))
    position = {f: k for k, f in enumerate(finished)}
    assert all(position[c] < position[f] for f in range(len(order)) for c in graph[f])
    assert 0 < len(here) < len(order)  # the worker compiled (loaded) the others


def test_a_warm_start_loads_only_the_entry_point_and_no_scipy_linalg():
    """A new process with the kernel cached loads ``run.play_games`` alone (its machine code
    holds its callees'), plays a game with it, and numba's set-up imported no scipy.linalg;
    the garbage collector is on again after the load and leaves what it made alone."""
    import json
    import os
    import subprocess
    import sys
    script = (
        "import gc, json, sys\n"
        "from citadels_sim.engine.warmup import ensure_kernel\n"
        "frozen = gc.get_freeze_count()\n"
        "loaded = [name for name, _, _ in ensure_kernel(show=False)]\n"
        "collector = [gc.isenabled(), gc.get_freeze_count() - frozen]\n"
        "from citadels_sim import simulate\n"
        "games = simulate(games=3, seed=1, progress=False).games\n"
        "print(json.dumps([loaded, games, 'scipy.linalg' in sys.modules, collector]))\n")
    out = subprocess.run([sys.executable, "-c", script], check=True, capture_output=True,
                         text=True, env=dict(os.environ, NUMBA_CACHE_DIR=numba.config.CACHE_DIR))
    loaded, games, linalg, (collecting, frozen) = json.loads(out.stdout.strip().splitlines()[-1])
    assert [_name(d) for d in jit.entry_points()] == ["citadels_sim.kernel.run.play_games"]
    assert loaded == ["run.play_games"] and games == 3 and not linalg
    assert collecting and frozen > 10_000
