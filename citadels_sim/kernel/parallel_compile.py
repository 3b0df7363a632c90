"""A cold compile on several cores: the kernel's functions compiled in worker processes.

Numba compiles one function at a time in a process, and most of a kernel function's compile
is LLVM's work on its own code and on the callees linked into it.  On a cold cache,
:func:`compile_in_workers` hands each function to one of a few worker processes (a new
interpreter running :func:`.jit.serve_compiles`, reading function numbers on stdin) as soon as
every kernel function it calls is in numba's on-disk cache (a worker loads those from
there), the functions on the longest chains of callers first; the calling process then
loads the whole kernel from the cache as on a warm start.  The workers are new interpreters,
not forks or spawns of the caller, so a user's script is never run again in them.  Used by
:func:`.jit.compile_kernel`; a daemon process (a Dask worker) or a one-core machine compiles
in-process instead.
"""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable

import numba

#: a worker's program (:func:`.jit.serve_compiles`), importing every kernel function
_WORKER = "from citadels_sim.kernel import jit, run; jit.serve_compiles()"

#: at most this many compiling processes (each holds its share of the compiled code)
MAX_WORKERS = 4


def worker_count() -> int:
    """Processes for a cold compile: the usable cores, at most :data:`MAX_WORKERS`; 1 in a
    daemon process."""
    if multiprocessing.current_process().daemon:
        return 1
    return max(1, min(MAX_WORKERS, len(os.sched_getaffinity(0))))


def _chains(callers: list[list[int]]) -> list[int]:
    """Per function, the number of functions on its longest chain of callers (itself
    included): compiling those first keeps the last, whole-kernel functions from waiting."""
    chain = [0] * len(callers)
    for f in reversed(range(len(callers))):  # callers come after their callees
        chain[f] = 1 + max((chain[c] for c in callers[f]), default=0)
    return chain


class _Schedule:
    """Which function to compile next: one whose callees are all compiled, the longest
    chain first; shared by the threads that feed the workers."""

    def __init__(self, callees: list[list[int]]):
        self.callers: list[list[int]] = [[] for _ in callees]
        for f, cs in enumerate(callees):
            for c in cs:
                self.callers[c].append(f)
        self.chain = _chains(self.callers)
        self.waiting = [len(cs) for cs in callees]
        self.ready = [f for f, w in enumerate(self.waiting) if w == 0]
        self.left = len(callees)
        self.failed = False
        self.lock = threading.Condition()

    def take(self) -> int | None:
        """The next function to compile, waiting until one is ready; None when done or
        when a compile failed (the caller compiles the rest itself)."""
        with self.lock:
            while not self.ready and self.left and not self.failed:
                self.lock.wait()
            if self.failed or not self.ready:
                return None
            self.ready.sort(key=lambda f: self.chain[f])
            return self.ready.pop()

    def finish(self, i: int) -> None:
        with self.lock:
            self.left -= 1
            for f in self.callers[i]:
                self.waiting[f] -= 1
                if self.waiting[f] == 0:
                    self.ready.append(f)
            self.lock.notify_all()

    def fail(self) -> None:
        with self.lock:
            self.failed = True
            self.lock.notify_all()


def compile_in_workers(callees: list[list[int]], workers: int, compile_here: Callable[[int], None],
                       done_one: Callable[[int, float], None]) -> bool:
    """Compile every function of the compile order (``callees[i]``: the indices of function
    ``i``'s kernel callees, all before ``i``) in this process (``compile_here(i)``) and in
    ``workers - 1`` others, calling ``done_one(i, seconds)`` as each is done.  Returns False
    if a compile failed: the caller then compiles what is missing itself (and meets the
    error)."""
    schedule = _Schedule(callees)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(numba.config.CACHE_DIR))

    def run(compile_one: Callable[[int], None]) -> None:
        try:
            while (i := schedule.take()) is not None:
                t0 = time.perf_counter()
                compile_one(i)
                with schedule.lock:
                    done_one(i, time.perf_counter() - t0)
                schedule.finish(i)
        except Exception:  # noqa: BLE001  (the caller's own compile meets it again)
            schedule.fail()

    def elsewhere() -> None:
        proc = subprocess.Popen([sys.executable, "-c", _WORKER], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                text=True, env=env)

        def compile_one(i: int) -> None:
            proc.stdin.write(f"{i}\n")
            proc.stdin.flush()
            if not proc.stdout.readline():
                raise OSError("a compile worker stopped")

        try:
            run(compile_one)
        finally:
            proc.stdin.close()
            proc.wait()

    threads = [threading.Thread(target=elsewhere) for _ in range(workers - 1)]
    for t in threads:
        t.start()
    run(compile_here)
    for t in threads:
        t.join()
    return not schedule.failed
