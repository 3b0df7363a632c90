"""Shared fixtures: the compiled kernel, and the rules reference beside the checkout when it
is there."""

import ctypes
import os
import subprocess
import sys
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[2] / "shared" / "rules"

#: glibc's ``mallopt`` option for the number of malloc arenas
M_ARENA_MAX = -8


def few_malloc_arenas(arenas: int = 2) -> None:
    """At most ``arenas`` glibc malloc arenas in this process and the processes it starts
    (xdist workers, CLI subprocesses, Dask workers).  glibc gives threads up to eight
    arenas a core, and the kernel's, polars' and the executors' threads leave freed memory
    spread over them: with two, the suite in one process peaks at 0.98 GB instead of 1.15
    (docs/tests.md).  Elsewhere than glibc, nothing changes."""
    os.environ.setdefault("MALLOC_ARENA_MAX", str(arenas))
    try:
        ctypes.CDLL(None).mallopt(M_ARENA_MAX, int(os.environ["MALLOC_ARENA_MAX"]))
    except (OSError, AttributeError, TypeError, ValueError):
        pass


few_malloc_arenas()


def pytest_configure(config: pytest.Config) -> None:
    """With ``-n N`` (pytest-xdist), compile the kernel once before the workers start, so
    that they load it from numba's cache rather than each compiling it at once."""
    workers = config.getoption("numprocesses", default=None)
    if workers and not hasattr(config, "workerinput"):
        subprocess.run([sys.executable, "-m", "citadels_sim", "warmup"], check=True)


@pytest.fixture(scope="session")
def shared_rules() -> Path:
    if not SHARED.exists():
        pytest.skip("../shared/rules is not beside this checkout")
    return SHARED


@pytest.fixture(scope="session", autouse=True)
def compiled_kernel():
    """Compile (or load) every kernel function once, with its one signature, before any
    test calls kernel functions directly (a warm start outside the tests loads only the
    entry points)."""
    from citadels_sim.kernel import run  # noqa: F401  (registers every kernel function)
    from citadels_sim.kernel.jit import compile_kernel
    compile_kernel(every=True)


@pytest.fixture(scope="session", autouse=True)
def small_preparations(tmp_path_factory):
    """Bots prepared for a balance test (studies.prepare) in one round of searches of about
    one generation each, repaired on 1,000 deals, kept in a temporary directory: the default
    population of ``citadels balance`` in seconds instead of minutes, and never in the
    checkout."""
    from citadels_sim.studies import prepare, regret
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(regret, "DEALS", 1_000)
        for name, value in (("ROUNDS", 1), ("MIXED_ROUNDS", 1), ("UNTIL", None),
                            ("BUDGET", 8_192), ("EXPLOIT_BUDGET", 8_192),
                            ("CONFIRM_BUDGET", 8_192),
                            ("VALIDATE_GAMES", 1_000), ("MIX_GAMES", 500),
                            ("BOTS_DIR", tmp_path_factory.mktemp("bots"))):
            mp.setattr(prepare, name, value)
        yield
