"""Loading the compiled kernel: from numba's on-disk cache, or by a one-time compile that
says what it is doing.

The first run after an install (or after an upgrade that changes the kernel) compiles every
kernel function once, about :data:`COLD_START_SECONDS` on a 2-core machine; the machine code
is cached (see :mod:`citadels_sim.kernel`), so later runs load it and start in under a second.
Everything that plays games calls :func:`ensure_kernel` before its own progress bar starts;
``citadels warmup`` does it ahead of time (after an install, or on each cluster node).
"""

from __future__ import annotations

import sys
import time

import numba
from tqdm.auto import tqdm

#: measured cold compile of the whole kernel on this project's 2-core machine (seconds)
COLD_START_SECONDS = 30

_MESSAGE = (f"compiling the simulation kernel (first run only, about {COLD_START_SECONDS} s; "
            "cached afterwards) ...")


class _Progress:
    """Says nothing while functions load from the cache; at the first real compile, prints
    what is happening and (on a terminal) a bar over the kernel's functions with the elapsed
    time; at the end, how long it took."""

    def __init__(self, show: bool):
        self.show = show
        self.bar: tqdm | None = None
        self.start = time.perf_counter()
        self.compiling = False

    def __call__(self, done: int, total: int, name: str, compiled: bool) -> None:
        if not self.show:
            return
        if compiled and not self.compiling:
            self.compiling = True
            print(_MESSAGE, file=sys.stderr, flush=True)
            if sys.stderr.isatty():
                self.bar = tqdm(total=total, initial=done - 1, unit="function", leave=False,
                                bar_format="{l_bar}{bar}| {n}/{total} functions, {elapsed}")
        if self.bar is not None:
            self.bar.set_description_str(name, refresh=False)
            self.bar.update(1)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        if self.compiling:
            print(f"kernel compiled in {time.perf_counter() - self.start:.0f} s "
                  f"(cached in {numba.config.CACHE_DIR})", file=sys.stderr, flush=True)


def ensure_kernel(show: bool = True) -> list[tuple[str, float, bool]]:
    """Load (or, the first time, compile) every kernel function; returns ``(function,
    seconds, compiled)`` for each, or an empty list once the kernel is already loaded in
    this process.  With ``show``, a compile prints a message and a progress bar on stderr.
    """
    from citadels_sim.kernel import run  # noqa: F401  (imports, and so registers, every kernel function)
    from citadels_sim.kernel.jit import compile_kernel
    progress = _Progress(show)
    try:
        return compile_kernel(progress)
    finally:
        progress.close()
